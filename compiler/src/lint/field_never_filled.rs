//! W012 `field-never-filled`: a condition reads a field its event can see but never has
//! under the rest of the same `and`, so the read is always false (an absent field compares
//! false, docs/semantics.md "Conditions").
//!
//! E012 already refuses a field an event can never see. Two events see a field only for
//! some occurrences, and the agent loop and the hooks say which:
//! - `on_error` has a `tool` only for a failed or blocked tool call (`error.kind` `tool` or
//!   `tool_blocked`); a failed model call (`model`, `rate_limit`, `timeout`, `validation`,
//!   `unknown`) has none.
//! - a blocked call's `post_tool_use` has no `result`: the tool never ran.
//!
//! Only a condition that pins the other side in its top-level `and` is flagged
//! (`error.kind == "rate_limit" and tool == "deploy"`, `blocked and result ~ "*"`), so the
//! lint is sound: under an `or` or a `not`, the read may well see a value.

use rulesc_runtime::{CompareOp, Condition, ErrorKind, EventKind, Field, Literal, Operand};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::Context;

/// Warns at each read of a field that the rest of its rule's `and` leaves unfilled
pub(super) fn check(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for lowered in ctx.rules {
        let Some(condition) = &lowered.rule.condition else {
            continue;
        };
        let parts = match condition {
            Condition::All(parts) => parts.as_slice(),
            _ => continue,
        };
        let no_tool = parts.iter().find_map(model_failure);
        let blocked = parts
            .iter()
            .any(|part| matches!(part, Condition::Flag(Field::Blocked)) || is_blocked(part));
        for read in &lowered.spans.found.reads {
            let because = match (&read.field, &no_tool) {
                (Field::Tool, Some(kinds)) if lowered.rule.events == [EventKind::OnError] => {
                    format!("`error.kind` is {kinds}: a failed model call has no tool")
                }
                (Field::Result | Field::ResultPath(_), _) if blocked => {
                    "the call is `blocked`: a blocked tool never ran".to_owned()
                }
                _ => continue,
            };
            diags.push(codes::field_never_filled(
                lowered.file,
                read.span,
                &read.text,
                &because,
            ));
        }
    }
    diags
}

/// The error kinds a part pins, when none of them is a tool's: `` `rate_limit` ``
fn model_failure(part: &Condition) -> Option<String> {
    let kinds: Vec<&str> = match part {
        Condition::Compare {
            left: Operand::Field(Field::ErrorKind),
            op: CompareOp::Eq,
            right: Operand::Literal(Literal::Str(kind)),
        }
        | Condition::Compare {
            left: Operand::Literal(Literal::Str(kind)),
            op: CompareOp::Eq,
            right: Operand::Field(Field::ErrorKind),
        } => vec![kind.as_str()],
        Condition::In {
            field: Field::ErrorKind,
            list,
        } => list
            .iter()
            .map(|item| match item {
                Literal::Str(kind) => Some(kind.as_str()),
                _ => None,
            })
            .collect::<Option<_>>()?,
        _ => return None,
    };
    let tool_kinds = [ErrorKind::Tool.name(), ErrorKind::ToolBlocked.name()];
    if kinds.is_empty() || kinds.iter().any(|kind| tool_kinds.contains(kind)) {
        return None;
    }
    let ticked: Vec<String> = kinds.iter().map(|kind| format!("`{kind}`")).collect();
    Some(codes::or_list(&ticked))
}

/// Whether a part is `blocked == true`
fn is_blocked(part: &Condition) -> bool {
    matches!(
        part,
        Condition::Compare {
            left: Operand::Field(Field::Blocked),
            op: CompareOp::Eq,
            right: Operand::Literal(Literal::Bool(true)),
        } | Condition::Compare {
            left: Operand::Literal(Literal::Bool(true)),
            op: CompareOp::Eq,
            right: Operand::Field(Field::Blocked),
        }
    )
}
