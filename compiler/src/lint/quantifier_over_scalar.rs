//! W025 `quantifier-over-scalar`: `any` or `all` over a field whose type is fixed and never
//! a list (docs/expressions.md).

use rulesc_grammar::{Expr, Operand};
use rulesc_runtime::FieldType;

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::Context;
use crate::lower::without_groups;
use crate::resolve;

/// Warns on each quantifier whose field is never a list
pub(super) fn check(ctx: &Context<'_, '_>) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for lowered in ctx.rules {
        let Some(condition) = &lowered.decl.condition else {
            continue;
        };
        each_quantifier(condition, &mut |quantified| {
            let Operand::Path(path) = without_groups(&quantified.compare.left) else {
                return;
            };
            // The rule lowered, so its fields resolve; the scratch list stays empty.
            let Some(field) = resolve::field(lowered.file, path, &mut Vec::new()) else {
                return;
            };
            if field.ty() != FieldType::Dynamic {
                diags.push(codes::quantifier_over_scalar(
                    lowered.file,
                    quantified.quantifier_span,
                    quantified.quantifier.word(),
                    &field.to_string(),
                    path.span,
                ));
            }
        });
    }
    diags
}

/// Calls `found` with each quantifier of `condition`, in source order
fn each_quantifier(condition: &Expr, found: &mut impl FnMut(&rulesc_grammar::Quantified)) {
    match condition {
        Expr::Or(parts, _) | Expr::And(parts, _) => {
            for part in parts {
                each_quantifier(part, found);
            }
        }
        Expr::Not(inner, _) | Expr::Paren(inner, _) => each_quantifier(inner, found),
        Expr::Quantified(quantified) => found(quantified),
        Expr::Trace(call) => {
            if let Some(when) = &call.when {
                each_quantifier(when, found);
            }
        }
        Expr::Compare(_) | Expr::Path(_) | Expr::Lit(_) | Expr::Call(_) => {}
    }
}
