//! W003 `constant-condition`: a condition, or a part of one, that is always true or always
//! false (docs/language.md §6: `steps < 0`, `steps >= 5 and steps < 3`,
//! `tool == "a" and tool == "b"`).
//!
//! The largest constant part is reported, once: a constant condition is not reported again
//! for its parts.

use rulesc_runtime::Condition;

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::{domain, Context};
use crate::lower::ConditionSpans;
use crate::source::FileId;

/// Warns on every rule condition, or part of one, whose value never depends on the event
pub(super) fn check(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for lowered in ctx.rules {
        if let (Some(spans), Some(condition)) = (&lowered.spans.condition, &lowered.rule.condition)
        {
            visit(lowered.file, spans, condition, true, &mut diags);
        }
    }
    diags
}

/// Reports `condition` if it is constant, else its constant parts; `spans` says where it
/// and its parts are written
fn visit(
    file: FileId,
    spans: &ConditionSpans,
    condition: &Condition,
    whole: bool,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(value) = domain::always(condition) {
        diags.push(codes::constant_condition(file, spans.span, value, whole));
        return;
    }
    match condition {
        Condition::Any(parts) | Condition::All(parts) => {
            for (part_spans, part) in spans.parts.iter().zip(parts) {
                visit(file, part_spans, part, false, diags);
            }
        }
        Condition::Not(inner) => {
            if let Some(inner_spans) = spans.parts.first() {
                visit(file, inner_spans, inner, false, diags);
            }
        }
        _ => {}
    }
}
