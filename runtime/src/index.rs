//! Rules indexed by event: which rules an event must test.
//!
//! Invariant: the index only narrows. `candidates` returns every rule that could match the
//! event (a superset of the matching ones, never missing one), in ascending rule position;
//! the evaluator still tests each candidate's condition. Resolution does not depend on the
//! order of candidates. Finer indexes (tool names, glob sets, thresholds) belong here,
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

    /// Positions of the rules that may match `event`, ascending
    pub(crate) fn candidates(&self, event: &Event) -> &[usize] {
        self.by_event
            .get(event.kind.index())
            .map_or(&[], Vec::as_slice)
    }
}
