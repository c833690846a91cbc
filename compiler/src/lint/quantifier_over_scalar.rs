//! W025 `quantifier-over-scalar`: `any` or `all` over a field whose type is fixed and never
//! a list (docs/expressions.md).

use rulesc_runtime::FieldType;

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::Context;

/// Warns on each quantifier whose field is never a list
pub(super) fn check(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for lowered in ctx.rules {
        for quantifier in &lowered.spans.found.quantifiers {
            let field = &quantifier.field.field;
            if field.ty() != FieldType::Dynamic {
                diags.push(codes::quantifier_over_scalar(
                    lowered.file,
                    quantifier.span,
                    quantifier.word,
                    &field.to_string(),
                    quantifier.field.span,
                ));
            }
        }
    }
    diags
}
