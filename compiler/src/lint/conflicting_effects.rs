//! W001 `conflicting-effects`: two rules set one metadata key to different values on a
//! common event (docs/language.md §4.3: "the compiler warns").
//!
//! Two rules whose conditions exclude each other (`tool == "a"` and `tool == "b"`) never
//! match one event, so their values never meet and they are not in conflict.

use std::collections::{BTreeMap, HashMap};

use rulesc_grammar::Span;
use rulesc_runtime::{Action, EventKind, FieldPath, Literal, Operand};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::{domain, Context};
use crate::lower::LoweredRule;

/// A `set` rule: its key, value, and where the value is written
struct Effect<'r> {
    lowered: &'r LoweredRule,
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

/// The earlier effects on one key, each the first of those with its events, condition and
/// value: whether a later effect conflicts depends on nothing else, so the first conflicting
/// earlier effect is always a representative, and many equal rules are compared once
#[derive(Default)]
struct Representatives<'e, 'r> {
    /// In file and source order
    effects: Vec<&'e Effect<'r>>,
    /// The positions in `effects` of the representatives of each canonical text
    by_text: HashMap<String, Vec<usize>>,
}

impl<'e, 'r> Representatives<'e, 'r> {
    /// The first earlier effect `later` conflicts with, with their common events: one
    /// warning per later rule is enough to point at the conflict
    fn first_conflict(&self, later: &Effect<'_>) -> Option<(&'e Effect<'r>, Vec<EventKind>)> {
        self.effects.iter().find_map(|first| {
            if first.value == later.value
                || domain::exclusive(
                    first.lowered.rule.condition.as_ref(),
                    later.lowered.rule.condition.as_ref(),
                )
            {
                return None;
            }
            let common: Vec<EventKind> = later
                .lowered
                .rule
                .events
                .iter()
                .filter(|event| first.lowered.rule.events.contains(event))
                .copied()
                .collect();
            (!common.is_empty()).then_some((*first, common))
        })
    }

    /// Keeps `effect` unless an earlier one has its events, condition and value
    fn add(&mut self, effect: &'e Effect<'r>) {
        let rule = &effect.lowered.rule;
        // Equal effects have equal texts; a text shared by unequal ones only puts them in
        // one bucket, where they are told apart.
        let value = match effect.value {
            Value::Literal(literal) => serde_json::to_string(literal),
            Value::Computed(operand) => serde_json::to_string(operand),
        };
        let text = serde_json::to_string(&(&rule.events, &rule.condition))
            .and_then(|head| Ok(head + &value?))
            .unwrap_or_default();
        let positions = self.by_text.entry(text).or_default();
        let known = positions.iter().any(|position| {
            self.effects.get(*position).is_some_and(|other| {
                other.value == effect.value
                    && other.lowered.rule.events == rule.events
                    && other.lowered.rule.condition == rule.condition
            })
        });
        if !known {
            positions.push(self.effects.len());
            self.effects.push(effect);
        }
    }
}

/// Warns on each `set` rule that conflicts with an earlier one (in file and source order):
/// a common event, the same key, a different value
pub(super) fn check(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let mut by_key: BTreeMap<&FieldPath, Vec<Effect<'_>>> = BTreeMap::new();
    for lowered in ctx.rules {
        let (key, value) = match &lowered.rule.action {
            Action::Set { key, value } => (key, Value::Literal(value)),
            Action::Compute { key, value } => (key, Value::Computed(value)),
            Action::Decide { .. } | Action::Label { .. } => continue,
        };
        if let Some((_, value_span)) = lowered.spans.set {
            by_key.entry(key).or_default().push(Effect {
                lowered,
                value,
                value_span,
            });
        }
    }
    let mut diags = Vec::new();
    for (key, effects) in &by_key {
        let mut earlier = Representatives::default();
        for later in effects {
            if let Some((first, common)) = earlier.first_conflict(later) {
                diags.push(codes::conflicting_effects(
                    later.lowered.file,
                    later.value_span,
                    &key.to_string(),
                    (&first.lowered.rule.id, &later.lowered.rule.id),
                    &common,
                    (first.lowered.file, first.value_span),
                ));
            }
            earlier.add(later);
        }
    }
    diags
}
