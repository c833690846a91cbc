//! Rules indexed by event: which rules an event must test.
//!
//! Invariant: the index only narrows. `candidates` returns every rule that could match the
//! event (a superset of the matching ones, never missing one, never one twice); the
//! evaluator still tests each candidate's condition. Resolution does not depend on the
//! order of candidates (`resolve.rs` sorts what it needs). Finer indexes (tool names, glob sets, thresholds) belong here,
//! behind `candidates`, and nowhere else.

use crate::event::{Event, EventKind};
use crate::policy::Rule;

/// Positions of rules in the policy's rule list, grouped by the events they fire on
#[derive(Debug, Clone, Default)]
pub(crate) struct RuleIndex {
    /// Indexed by [`EventKind::index`]
    by_event: [Vec<usize>; EventKind::ALL.len()],
}

impl RuleIndex {
    /// Indexes `rules`
    pub(crate) fn new(rules: &[Rule]) -> RuleIndex {
        let mut index = RuleIndex::default();
        for (rule_idx, rule) in rules.iter().enumerate() {
            for kind in &rule.events {
                if let Some(bucket) = index.by_event.get_mut(kind.index()) {
                    bucket.push(rule_idx);
                }
            }
        }
        index
    }

    /// Positions of the rules that may match `event`, each once, in no promised order
    ///
    /// An iterator rather than a slice, so that finer indexes can chain several buckets
    /// (the rules for this tool name, then the rules for any tool).
    pub(crate) fn candidates<'a>(&'a self, event: &Event) -> impl Iterator<Item = usize> + 'a {
        self.by_event
            .get(event.kind.index())
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .copied()
    }
}
