//! The conditions of a policy read from its compact form: kept encoded, each decoded when
//! an event first makes its rule a candidate (`compact.rs` says why).

use std::sync::OnceLock;

use crate::postfix::{unflatten, Node};
use crate::shared_bytes::{SharedBytes, Span};
use crate::trace::{self, TraceSpec};
use crate::vocabulary::Condition;

/// The conditions of a policy's user rules, encoded, each decoded on first use
#[derive(Debug)]
pub(crate) struct Conditions {
    /// The compact form the conditions were read from
    bytes: SharedBytes,
    /// Where each rule's condition is in `bytes`; none for a rule without a condition
    spans: Vec<Option<Span>>,
    /// Each rule's condition once decoded: `None` when its bytes do not decode; boxed,
    /// as a slot per rule is made on every call and a small one keeps its memory small
    decoded: Vec<OnceLock<Option<Box<Condition>>>>,
}

#[cfg(test)]
impl Conditions {
    /// How many conditions were decoded so far
    pub(crate) fn decoded(&self) -> usize {
        self.decoded
            .iter()
            .filter(|decoded| decoded.get().is_some())
            .count()
    }
}

impl Conditions {
    /// Room for the conditions of `n_rules` rules, read from `bytes`
    pub(crate) fn with_capacity(bytes: &SharedBytes, n_rules: usize) -> Conditions {
        Conditions {
            bytes: bytes.clone(),
            spans: Vec::with_capacity(n_rules),
            decoded: Vec::with_capacity(n_rules),
        }
    }

    /// Adds the next rule's condition: its encoded bytes (a slice of the bytes the
    /// conditions were read from), or `None` when it has none
    pub(crate) fn push(&mut self, encoded: Option<&[u8]>) {
        self.spans
            .push(encoded.map(|encoded| self.bytes.span_of(encoded)));
        self.decoded.push(OnceLock::new());
    }
}

/// A condition whose bytes do not decode
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Undecodable;

impl Conditions {
    /// The condition of user rule `index`, decoded now if it was not yet, its trace tests
    /// pointed at the slots of `trace`; `Ok(None)` for a rule without a condition
    pub(crate) fn get(
        &self,
        index: usize,
        trace: &[TraceSpec],
    ) -> Result<Option<&Condition>, Undecodable> {
        let Some(span) = self.spans.get(index).ok_or(Undecodable)? else {
            return Ok(None);
        };
        let decoded = self.decoded.get(index).ok_or(Undecodable)?;
        decoded
            .get_or_init(|| {
                let bytes = self.bytes.get(*span)?;
                let nodes: Vec<Node<Condition>> = postcard::from_bytes(bytes).ok()?;
                let mut condition = unflatten(nodes, &mut Vec::new())?;
                trace::point_at_slots(&mut condition, trace).then(|| Box::new(condition))
            })
            .as_deref()
            .map(Some)
            .ok_or(Undecodable)
    }
}
