//! The conditions of a policy read from its compact form: kept encoded, each decoded when
//! an event first makes its rule a candidate (`compact.rs` says why).

use std::sync::OnceLock;

use crate::postfix::{unflatten, Node};
use crate::trace::{self, TraceSpec};
use crate::vocabulary::Condition;

/// The conditions of a policy's user rules, encoded, each decoded on first use
#[derive(Debug)]
pub(crate) struct Conditions {
    /// Every condition's bytes, one after the other
    bytes: Vec<u8>,
    /// Where each rule's condition is in `bytes`; none for a rule without a condition
    spans: Vec<Option<(usize, usize)>>,
    /// Each rule's condition once decoded: `None` when its bytes do not decode
    decoded: Vec<OnceLock<Option<Condition>>>,
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
    /// Room for the conditions of `n_rules` rules, `n_bytes` long in all
    pub(crate) fn with_capacity(n_rules: usize, n_bytes: usize) -> Conditions {
        Conditions {
            bytes: Vec::with_capacity(n_bytes),
            spans: Vec::with_capacity(n_rules),
            decoded: Vec::with_capacity(n_rules),
        }
    }

    /// Adds the next rule's condition: its encoded bytes, or `None` when it has none
    pub(crate) fn push(&mut self, encoded: Option<&[u8]>) {
        self.spans.push(encoded.map(|bytes| {
            let start = self.bytes.len();
            self.bytes.extend_from_slice(bytes);
            (start, self.bytes.len())
        }));
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
                let bytes = self.bytes.get(span.0..span.1)?;
                let nodes: Vec<Node<Condition>> = postcard::from_bytes(bytes).ok()?;
                let mut condition = unflatten(nodes, &mut Vec::new())?;
                trace::point_at_slots(&mut condition, trace).then_some(condition)
            })
            .as_ref()
            .map(Some)
            .ok_or(Undecodable)
    }
}
