//! W001 `conflicting-effects`: two rules set one metadata key to different values on a
//! common event (LANGUAGE.md §4.3: "the compiler warns").
//!
//! Two rules whose conditions exclude each other (`tool == "a"` and `tool == "b"`) never
//! match one event, so their values never meet and they are not in conflict.

use std::collections::BTreeMap;

use rulesc_grammar::{ActionNode, Span};
use rulesc_runtime::{Action, FieldPath, Literal, Operand};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::{domain, Context};
use crate::lower::LoweredRule;

/// A `set` rule: its key, value, and where the value is written
struct Effect<'r, 'ast> {
    lowered: &'r LoweredRule<'ast>,
    value: Value<'r>,
    value_span: Span,
}

/// What a `set` stores: two computed values differ unless they are the same arithmetic,
/// since each is computed from the metadata as it was before the event
#[derive(PartialEq)]
enum Value<'r> {
    Literal(&'r Literal),
    Computed(&'r Operand),
}

/// Warns on each `set` rule that conflicts with an earlier one (in file and source order):
/// a common event, the same key, a different value
pub(super) fn check(ctx: &Context<'_, '_>) -> Vec<Diagnostic> {
    let mut by_key: BTreeMap<&FieldPath, Vec<Effect<'_, '_>>> = BTreeMap::new();
    for lowered in ctx.rules {
        let (key, value) = match &lowered.rule.action {
            Action::Set { key, value } => (key, Value::Literal(value)),
            Action::Compute { key, value } => (key, Value::Computed(value)),
            Action::Decide { .. } | Action::Label { .. } => continue,
        };
        if let ActionNode::Set { value: syntax, .. } = &lowered.decl.action {
            by_key.entry(key).or_default().push(Effect {
                lowered,
                value,
                value_span: syntax.span(),
            });
        }
    }
    let mut diags = Vec::new();
    for (key, effects) in &by_key {
        for (later_idx, later) in effects.iter().enumerate() {
            let Some(earlier) = effects.get(..later_idx) else {
                continue;
            };
            for first in earlier {
                if first.value == later.value
                    || domain::exclusive(
                        first.lowered.rule.condition.as_ref(),
                        later.lowered.rule.condition.as_ref(),
                    )
                {
                    continue;
                }
                let common: Vec<_> = later
                    .lowered
                    .rule
                    .events
                    .iter()
                    .filter(|event| first.lowered.rule.events.contains(event))
                    .copied()
                    .collect();
                if common.is_empty() {
                    continue;
                }
                diags.push(codes::conflicting_effects(
                    later.lowered.file,
                    later.value_span,
                    &key.to_string(),
                    (&first.lowered.rule.id, &later.lowered.rule.id),
                    &common,
                    (first.lowered.file, first.value_span),
                ));
                // One warning per later rule is enough to point at the conflict.
                break;
            }
        }
    }
    diags
}
