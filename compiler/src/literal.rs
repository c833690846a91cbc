//! Literals of the source decoded into runtime values, with their errors reported (E021,
//! or E024 for a string too long): what lowering, field paths and test blocks share.

use rulesc_grammar::{Lit, Span};
use rulesc_runtime::{Literal, MAX_STRING_LEN};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::source::FileId;
use crate::types::{self, LiteralError};

/// Reports E021 (or E024 for a string too long) for every literal error
pub(crate) fn report_literal_errors(
    file: FileId,
    errors: Vec<LiteralError>,
    diags: &mut Vec<Diagnostic>,
) {
    diags.extend(errors.into_iter().map(|err| match err.too_long {
        Some(len) => codes::string_too_long(file, err.span, len, MAX_STRING_LEN),
        None => codes::invalid_literal(file, err.span, err.message, err.help),
    }));
}

/// Decodes a literal, reporting E021 on failure
pub(crate) fn literal(file: FileId, lit: &Lit, diags: &mut Vec<Diagnostic>) -> Option<Literal> {
    types::lower_literal(lit)
        .map_err(|errors| report_literal_errors(file, errors, diags))
        .ok()
}

/// Decodes a string literal's text, reporting E021 on failure
pub(crate) fn string(
    file: FileId,
    raw: &str,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    types::decode_str(raw, span)
        .map_err(|errors| report_literal_errors(file, errors, diags))
        .ok()
}
