//! A document's diagnostics: what `rulesc check` reports for the file given alone, in the
//! protocol's terms.
//!
//! Each keeps its code, severity, message and primary span; its help line follows the
//! message after a line break (the protocol has no field for it), and its secondary labels
//! are related information in the same document.

use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri,
};
use rulesc_compiler::{Severity, SourceFile};

use crate::position::Lines;

/// What the protocol's `source` field says
pub(crate) const SOURCE: &str = "rulesc";

/// The diagnostics of `source`, checked alone, in the order `rulesc check` reports them
pub(crate) fn diagnostics(uri: &Uri, source: &SourceFile) -> Vec<Diagnostic> {
    let checked = rulesc_compiler::check(std::slice::from_ref(source));
    let lines = Lines::new(&source.text);
    checked
        .diagnostics
        .iter()
        .map(|diag| {
            let related: Vec<DiagnosticRelatedInformation> = diag
                .secondary
                .iter()
                .map(|label| DiagnosticRelatedInformation {
                    location: Location {
                        uri: uri.clone(),
                        range: lines.range(label.span),
                    },
                    message: label.message.clone(),
                })
                .collect();
            let message = match &diag.help {
                Some(help) => format!("{}\nhelp: {help}", diag.message),
                None => diag.message.clone(),
            };
            Diagnostic {
                range: lines.range(diag.primary.span),
                severity: Some(match diag.severity() {
                    Severity::Error => DiagnosticSeverity::ERROR,
                    Severity::Warning => DiagnosticSeverity::WARNING,
                }),
                code: Some(NumberOrString::String(diag.code.id.to_owned())),
                source: Some(SOURCE.to_owned()),
                message,
                related_information: (!related.is_empty()).then_some(related),
                ..Diagnostic::default()
            }
        })
        .collect()
}
