//! W005 `unbounded-request`: a policy that can ask for more steps (`request` on `stop`,
//! `subagent_stop` or `after_step`) but has no `forbid` guard on steps, tokens or time, so it
//! may never end (docs/language.md §6, §8).
//!
//! A guard is a `forbid` rule, on any event, whose condition tests `step`, `steps`, `tokens`,
//! `input_tokens`, `output_tokens` or `elapsed` from below (`steps >= 50`, `elapsed > 30min`,
//! `not tokens < 1m`): a bound the run is bound to reach. The policy set is checked as a
//! whole, so a budget file bounds the requests of every other file compiled with it.
//!
//! A `request` bounds itself when its own condition holds only while a counter that never
//! shrinks is below a bound: a budget counter (`steps < 20`) or, on `stop` and
//! `subagent_stop`, `stop_requests` (`stop_requests < 2`), which grows with every stop the
//! request prevents and is never reset. Such a request cannot keep a run going forever.

use rulesc_runtime::{Action, CompareOp, Condition, EventKind, Field, Operand, Verb};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::{domain, Context};

/// Warns once, at the first unbounded `request`, when no rule is a guard
pub(super) fn check(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let has_guard = ctx.rules.iter().any(|lowered| {
        matches!(
            lowered.rule.action,
            Action::Decide {
                verb: Verb::Forbid,
                ..
            }
        ) && lowered
            .rule
            .condition
            .as_ref()
            .is_some_and(|condition| bounds_from_below(condition, true, is_budget))
    });
    if has_guard {
        return Vec::new();
    }
    let mut requests = ctx.rules.iter().filter(|lowered| {
        matches!(
            lowered.rule.action,
            Action::Decide {
                verb: Verb::Request,
                ..
            }
        ) && lowered.rule.events.iter().any(|event| {
            matches!(
                event,
                EventKind::Stop | EventKind::SubagentStop | EventKind::AfterStep
            )
        }) && !bounds_itself(lowered.rule.condition.as_ref())
            && !lowered.allows(codes::UNBOUNDED_REQUEST)
    });
    let Some(first) = requests.next() else {
        return Vec::new();
    };
    let others = requests
        .map(|lowered| (lowered.file, lowered.spans.effect))
        .collect();
    vec![codes::unbounded_request(
        (first.file, first.spans.effect),
        &first.rule.id,
        others,
    )]
}

/// Whether a request with this condition stops holding once a growing counter passed a bound
fn bounds_itself(condition: Option<&Condition>) -> bool {
    // `stop_requests` is visible only on `stop` and `subagent_stop`, so a condition that
    // tests it belongs to a rule that fires on those events alone: the requests it counts.
    condition.is_some_and(|condition| {
        bounds_from_below(condition, false, |field| {
            is_budget(field) || matches!(field, Field::StopRequests)
        })
    })
}

/// Whether `condition` (asserted, or denied when `positive` is false) holds once a
/// `counter` grew past a bound, whatever the rest of the event
fn bounds_from_below(condition: &Condition, positive: bool, counter: fn(&Field) -> bool) -> bool {
    match condition {
        // An `and` is a bound only if every part is; an `or` if any part is.
        Condition::All(parts) if positive => every_part(parts, positive, counter),
        Condition::Any(parts) if !positive => every_part(parts, positive, counter),
        Condition::All(parts) | Condition::Any(parts) => parts
            .iter()
            .any(|part| bounds_from_below(part, positive, counter)),
        Condition::Not(inner) => bounds_from_below(inner, !positive, counter),
        Condition::Compare { left, op, right } => {
            let op = if positive { *op } else { domain::negated(*op) };
            match (left, right) {
                (Operand::Field(field), Operand::Literal(_)) => {
                    counter(field) && matches!(op, CompareOp::Ge | CompareOp::Gt | CompareOp::Eq)
                }
                (Operand::Literal(_), Operand::Field(field)) => {
                    counter(field) && matches!(op, CompareOp::Le | CompareOp::Lt | CompareOp::Eq)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Whether `field` only grows during a run and measures its cost
fn is_budget(field: &Field) -> bool {
    matches!(
        field,
        Field::Step
            | Field::Steps
            | Field::Tokens
            | Field::InputTokens
            | Field::OutputTokens
            | Field::Elapsed
    )
}

/// Whether `parts` is not empty and every part is a bound
fn every_part(parts: &[Condition], positive: bool, counter: fn(&Field) -> bool) -> bool {
    !parts.is_empty()
        && parts
            .iter()
            .all(|part| bounds_from_below(part, positive, counter))
}
