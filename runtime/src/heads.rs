//! The heads of a policy's rules: each rule but, in a policy read from its compact form,
//! its condition (`encoded.rs`).
//!
//! A hook call is a fresh process whose event makes few of a policy's rules candidates.
//! Decoding every rule's id, message and file name cost it more than evaluating the event
//! (a string each, allocated, copied and checked as UTF-8), so the compact form keeps the
//! events of each rule apart, as a set of bits the index reads, and the rest of its head as
//! bytes of its own, decoded when the rule is first a candidate, and kept.
//!
//! Invariant: as for conditions, the bytes are this runtime's, proven unchanged. A head
//! that does not decode (which that proof rules out) is a `forbid` whose message says that
//! the cached rule could not be read: fail closed, never a silent pass.

use std::borrow::Cow;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::shared_bytes::{SharedBytes, Span};
use crate::vocabulary::{Action, Condition, EventKind, Origin, Rule, StopReason, Verb};

/// The heads of a policy's rules: the user's rules in the order given, then the prelude
#[derive(Debug)]
pub(crate) enum Heads {
    /// Every rule whole, as it was built or checked
    Whole(Vec<Rule>),
    /// The user's rules of a policy read from its compact form, then the prelude whole
    Encoded {
        /// The user's rules' heads
        user: EncodedHeads,
        /// The prelude's rules
        prelude: Vec<Rule>,
    },
}

impl Heads {
    /// How many rules there are
    pub(crate) fn len(&self) -> usize {
        match self {
            Heads::Whole(rules) => rules.len(),
            Heads::Encoded { user, prelude } => user.len() + prelude.len(),
        }
    }

    /// The head of rule `index`, decoded now if it was not yet
    pub(crate) fn get(&self, index: usize) -> Option<&Rule> {
        match self {
            Heads::Whole(rules) => rules.get(index),
            Heads::Encoded { user, prelude } => match index.checked_sub(user.len()) {
                None => user.get(index),
                Some(index) => prelude.get(index),
            },
        }
    }

    /// Whether rule `index` fires on `kind`, without decoding its head
    pub(crate) fn fires_on(&self, index: usize, kind: EventKind) -> bool {
        match self {
            Heads::Whole(rules) => rules
                .get(index)
                .is_some_and(|rule| rule.events.contains(&kind)),
            Heads::Encoded { user, prelude } => match index.checked_sub(user.len()) {
                None => user.fires_on(index, kind),
                Some(index) => prelude
                    .get(index)
                    .is_some_and(|rule| rule.events.contains(&kind)),
            },
        }
    }

    /// The condition of rule `index`, when its head holds it: none for a user rule of a
    /// policy read from its compact form, whose condition is kept apart
    pub(crate) fn condition(&self, index: usize) -> Option<&Condition> {
        match self {
            Heads::Whole(rules) => rules.get(index)?.condition.as_ref(),
            Heads::Encoded { user, prelude } => prelude
                .get(index.checked_sub(user.len())?)?
                .condition
                .as_ref(),
        }
    }

    /// Every rule's head, each decoded now if it was not yet
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Rule> {
        (0..self.len()).filter_map(|index| self.get(index))
    }
}

// Every event kind has a bit of a `u16`.
const _: () = assert!(EventKind::ALL.len() <= 16);

/// The events of a rule, one bit each, by [`EventKind::index`]
fn event_bits(events: &[EventKind]) -> u16 {
    events
        .iter()
        .fold(0, |bits, kind| bits | 1u16 << kind.index())
}

/// The events of `bits`, sorted, as [`Rule::events`] holds them
fn events_of(bits: u16) -> Vec<EventKind> {
    EventKind::ALL
        .into_iter()
        .filter(|kind| bits & 1 << kind.index() != 0)
        .collect()
}

/// All of a user rule's head but its events, as the compact form writes it
#[derive(Serialize, Deserialize)]
struct Rest<'a> {
    id: Cow<'a, str>,
    action: Cow<'a, Action>,
    priority: i64,
    origin: Option<Cow<'a, Origin>>,
}

/// The events of `rule` as bits, and the rest of its head but its condition, encoded: what
/// [`EncodedHeads::push`] takes back
pub(crate) fn encode(rule: &Rule) -> Result<(u16, Vec<u8>), postcard::Error> {
    let rest = Rest {
        id: Cow::Borrowed(&rule.id),
        action: Cow::Borrowed(&rule.action),
        priority: rule.priority,
        origin: rule.origin.as_ref().map(Cow::Borrowed),
    };
    Ok((event_bits(&rule.events), postcard::to_allocvec(&rest)?))
}

/// The heads of a policy's user rules, encoded, each decoded on first use
#[derive(Debug, Default)]
pub(crate) struct EncodedHeads {
    /// Each rule's events, as bits
    events: Vec<u16>,
    /// The compact form the heads were read from
    bytes: SharedBytes,
    /// Where each rule's head is in `bytes`
    spans: Vec<Span>,
    /// Each rule's head once decoded, boxed: a slot per rule is made on every call, and
    /// a small one keeps the memory a call touches small
    decoded: Vec<OnceLock<Box<Rule>>>,
}

impl EncodedHeads {
    /// Room for the heads of `n_rules` rules, read from `bytes`
    pub(crate) fn with_capacity(bytes: &SharedBytes, n_rules: usize) -> EncodedHeads {
        EncodedHeads {
            events: Vec::with_capacity(n_rules),
            bytes: bytes.clone(),
            spans: Vec::with_capacity(n_rules),
            decoded: Vec::with_capacity(n_rules),
        }
    }

    /// Adds the next rule's head, as [`encode`] wrote it: `encoded`, a slice of the bytes
    /// the heads were read from
    pub(crate) fn push(&mut self, events: u16, encoded: &[u8]) {
        self.spans.push(self.bytes.span_of(encoded));
        self.events.push(events);
        self.decoded.push(OnceLock::new());
    }

    /// How many rules there are
    pub(crate) fn len(&self) -> usize {
        self.decoded.len()
    }

    fn fires_on(&self, index: usize, kind: EventKind) -> bool {
        self.events
            .get(index)
            .is_some_and(|bits| bits & 1 << kind.index() != 0)
    }

    /// The head of rule `index`, decoded now if it was not yet
    pub(crate) fn get(&self, index: usize) -> Option<&Rule> {
        let span = *self.spans.get(index)?;
        let bits = *self.events.get(index)?;
        let head = self.decoded.get(index)?.get_or_init(|| {
            let rest = self
                .bytes
                .get(span)
                .and_then(|bytes| postcard::from_bytes::<Rest<'_>>(bytes).ok());
            match rest {
                Some(rest) => Box::new(Rule {
                    id: rest.id.into_owned(),
                    events: events_of(bits),
                    condition: None,
                    action: rest.action.into_owned(),
                    priority: rest.priority,
                    origin: rest.origin.map(Cow::into_owned),
                }),
                None => Box::new(unreadable(index, bits)),
            }
        });
        Some(head)
    }
}

/// What a head that does not decode stands for: a guard on its events that forbids
fn unreadable(index: usize, bits: u16) -> Rule {
    Rule {
        id: format!("host:unreadable-rule-{}", index + 1),
        events: events_of(bits),
        condition: None,
        action: Action::Decide {
            verb: Verb::Forbid,
            stop_reason: Some(StopReason::GuardForbade),
            message: Some(format!(
                "rule {} of the cached policy could not be read; compile the policy again",
                index + 1
            )),
        },
        priority: 0,
        origin: None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::vocabulary::{FieldPath, Literal, PathSegment};

    fn rules() -> Vec<Rule> {
        vec![
            Rule {
                id: "guard".to_owned(),
                events: vec![EventKind::PreToolUse, EventKind::Stop],
                condition: None,
                action: Action::Decide {
                    verb: Verb::Block,
                    stop_reason: None,
                    message: Some("no".to_owned()),
                },
                priority: -3,
                origin: Some(Origin {
                    file: "a.rules".to_owned(),
                    line: 4,
                    column: 1,
                }),
            },
            Rule {
                id: "taint".to_owned(),
                events: vec![EventKind::PostToolUse],
                condition: None,
                action: Action::Set {
                    key: FieldPath {
                        segments: vec![PathSegment::Key("tainted".to_owned())],
                    },
                    value: Literal::Bool(true),
                },
                priority: 0,
                origin: None,
            },
        ]
    }

    /// The heads of `encodings` (each a rule's events and head), read from one buffer of
    /// them all, as the compact form keeps them
    fn read_from_one_buffer(encodings: &[(u16, Vec<u8>)]) -> EncodedHeads {
        let all = encodings
            .iter()
            .flat_map(|(_, bytes)| bytes.clone())
            .collect();
        let bytes = SharedBytes::new(Arc::new(all));
        let mut heads = EncodedHeads::with_capacity(&bytes, encodings.len());
        let mut start = 0;
        for (bits, encoded) in encodings {
            let end = start + encoded.len();
            heads.push(*bits, &bytes.all()[start..end]);
            start = end;
        }
        heads
    }

    fn encoded(rules: &[Rule]) -> EncodedHeads {
        let encodings: Vec<(u16, Vec<u8>)> =
            rules.iter().map(|rule| encode(rule).unwrap()).collect();
        read_from_one_buffer(&encodings)
    }

    #[test]
    fn a_head_reads_back_as_written_and_its_events_without_decoding() {
        let rules = rules();
        let heads = Heads::Encoded {
            user: encoded(&rules),
            prelude: Vec::new(),
        };
        for (index, rule) in rules.iter().enumerate() {
            for kind in EventKind::ALL {
                assert_eq!(heads.fires_on(index, kind), rule.events.contains(&kind));
            }
        }
        let Heads::Encoded { user, .. } = &heads else {
            unreachable!()
        };
        assert!(user.decoded.iter().all(|head| head.get().is_none()));
        assert_eq!(heads.iter().cloned().collect::<Vec<_>>(), rules);
        assert!(heads.get(rules.len()).is_none());
    }

    #[test]
    fn a_head_that_does_not_decode_forbids() {
        let (bits, mut bytes) = encode(&rules()[0]).unwrap();
        bytes.truncate(2);
        let heads = read_from_one_buffer(&[(bits, bytes)]);
        let rule = heads.get(0).unwrap();
        assert!(rule.action.fails_closed());
        assert_eq!(rule.events, rules()[0].events);
        assert!(Rule::is_reserved_id(&rule.id), "{}", rule.id);
    }
}
