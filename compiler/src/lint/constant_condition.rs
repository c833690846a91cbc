//! W003 `constant-condition`: a condition, or a part of one, that is always true or always
//! false (docs/language.md §6: `steps < 0`, `steps >= 5 and steps < 3`,
//! `tool == "a" and tool == "b"`).
//!
//! The largest constant part is reported, once: a constant condition is not reported again
//! for its parts.

use rulesc_grammar::Expr;
use rulesc_runtime::Condition;

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::{domain, Context};
use crate::source::FileId;

/// Warns on every rule condition, or part of one, whose value never depends on the event
pub(super) fn check(ctx: &Context<'_, '_>) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for lowered in ctx.rules {
        if let (Some(syntax), Some(condition)) = (&lowered.decl.condition, &lowered.rule.condition)
        {
            visit(lowered.file, syntax, condition, true, &mut diags);
        }
    }
    diags
}

/// Reports `condition` if it is constant, else its constant parts; `syntax` is what it was
/// lowered from (lowering keeps the shape of `and`, `or` and `not`, and drops parentheses)
fn visit(
    file: FileId,
    syntax: &Expr,
    condition: &Condition,
    whole: bool,
    diags: &mut Vec<Diagnostic>,
) {
    let syntax = without_parens(syntax);
    if let Some(value) = domain::always(condition) {
        diags.push(codes::constant_condition(file, syntax.span(), value, whole));
        return;
    }
    match (syntax, condition) {
        (Expr::Or(parts, _), Condition::Any(lowered))
        | (Expr::And(parts, _), Condition::All(lowered)) => {
            for (part, lowered_part) in parts.iter().zip(lowered) {
                visit(file, part, lowered_part, false, diags);
            }
        }
        (Expr::Not(inner, _), Condition::Not(lowered)) => {
            visit(file, inner, lowered, false, diags);
        }
        _ => {}
    }
}

/// The expression inside any number of parentheses
fn without_parens(mut syntax: &Expr) -> &Expr {
    while let Expr::Paren(inner, _) = syntax {
        syntax = inner;
    }
    syntax
}
