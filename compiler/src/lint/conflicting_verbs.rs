//! W004 `conflicting-verbs`: two rules that fire on the same events under the same condition
//! but with different verbs, so one of them can never take effect.
//!
//! Conditions are compared by shape: the order and repetition of the parts of an `and` or an
//! `or` do not matter.

use std::collections::BTreeMap;

use rulesc_runtime::{Action, EventKind, Verb};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::{domain, Context};
use crate::lower::LoweredRule;

/// The events of a rule and the shape of its condition
type Shape<'r> = (&'r [EventKind], String);

/// Warns on each decision rule whose events and condition equal an earlier rule's (in file
/// and source order) while its verb differs
pub(super) fn check(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let mut groups: BTreeMap<Shape<'_>, Vec<(&LoweredRule, Verb)>> = BTreeMap::new();
    for lowered in ctx.rules {
        if let Action::Decide { verb, .. } = &lowered.rule.action {
            let shape = domain::shape(lowered.rule.condition.as_ref());
            groups
                .entry((lowered.rule.events.as_slice(), shape))
                .or_default()
                .push((lowered, *verb));
        }
    }
    let mut diags = Vec::new();
    for group in groups.values() {
        let Some(head) = group.first() else {
            continue;
        };
        // The first earlier rule with another verb is the head when the verbs differ, and
        // otherwise the first rule whose verb differs from the head's: two rules to keep,
        // not every earlier rule to search.
        let mut first_other: Option<&(&LoweredRule, Verb)> = None;
        for entry in group {
            let (later, verb) = entry;
            let earlier = if *verb == head.1 {
                first_other
            } else {
                Some(head)
            };
            if let Some((first, first_verb)) = earlier {
                diags.push(codes::conflicting_verbs(
                    (later.file, later.spans.effect),
                    (first.file, first.spans.effect),
                    (&first.rule.id, &later.rule.id),
                    (*first_verb, *verb),
                ));
            }
            if first_other.is_none() && *verb != head.1 {
                first_other = Some(entry);
            }
        }
    }
    diags
}
