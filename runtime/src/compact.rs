//! The compact form of a policy: what the hook's cache keeps, and every hook call reads.
//!
//! A hook call is a fresh process that evaluates one or two events, whose candidates are few
//! of a policy's rules; decoding every condition of every rule cost it more than the rest
//! of the call. So the form is binary (postcard), and laid out so that a reader decodes at
//! once what every event needs: the defaults, the trace terms by slot, and for each user
//! rule its id, events, action, priority, origin, mode and index entry (the conjunct that
//! keys it); each rule's condition is bytes of its own (its postfix nodes, as the JSON form
//! writes them), decoded when an event first makes the rule a candidate, and kept.
//!
//! Invariant: read only where this runtime wrote it of a policy it built, and the bytes are
//! proven unchanged (the cache checks a checksum): the rules passed every check then, so
//! only their number is checked again, and conditions are trusted to decode. A condition
//! that does not (which that proof rules out) decides as a shell condition on a command that
//! cannot be read: a guard (`block`, `ask`, `forbid`) fires, any other rule does not. The
//! envelope names its own format and version, so bytes of another layout are refused whole.

use std::borrow::Cow;
use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bounds;
use crate::format::{flatten, unflatten, LoadError, Node};
use crate::index::IndexEntry;
use crate::trace::{self, TraceSpec};
use crate::vocabulary::{Action, Condition, Defaults, EventKind, Mode, Origin, Rule};

/// The `format` of the compact form
const COMPACT_FORMAT: &str = "rulesc-policy-compact";
/// The layout of the compact form this runtime writes and reads
const COMPACT_VERSION: u64 = 3;

/// The compact form, as written and as read
#[derive(Serialize, Deserialize)]
struct Compact<'a> {
    format: Cow<'a, str>,
    version: u64,
    defaults: Defaults,
    /// The trace terms of every rule, by slot
    trace: Cow<'a, [TraceSpec]>,
    /// The user's rules, in order
    #[serde(borrow)]
    rules: Vec<Head<'a>>,
}

/// A user rule: all of it but its condition, which is encoded apart
#[derive(Serialize, Deserialize)]
struct Head<'a> {
    id: Cow<'a, str>,
    events: Cow<'a, [EventKind]>,
    action: Cow<'a, Action>,
    priority: i64,
    origin: Option<Cow<'a, Origin>>,
    mode: Mode,
    index: IndexEntry,
    /// The condition's postfix nodes, in this form's own encoding
    #[serde(borrow)]
    condition: Option<Encoded<'a>>,
}

/// Bytes written as bytes, and read without a copy
struct Encoded<'a>(&'a [u8]);

impl Serialize for Encoded<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Encoded<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <&'de [u8]>::deserialize(deserializer).map(Encoded)
    }
}

/// The parts of a policy that the compact form holds, for `Policy` to assemble
pub(crate) struct Parts {
    /// The user's rules, each without its condition (in [`Conditions`])
    pub(crate) rules: Vec<Rule>,
    pub(crate) defaults: Defaults,
    pub(crate) trace: Vec<TraceSpec>,
    /// The ids of the user's rules in shadow mode
    pub(crate) shadow: Vec<String>,
    /// The index entry of each user rule
    pub(crate) index: Vec<IndexEntry>,
    pub(crate) conditions: Conditions,
}

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

/// The compact form of a policy's defaults, trace terms and user rules (`rules`, each with
/// its condition, mode and index entry)
pub(crate) fn write(
    defaults: &Defaults,
    trace: &[TraceSpec],
    rules: &[(&Rule, Mode, IndexEntry)],
) -> Result<Vec<u8>, postcard::Error> {
    let conditions = rules
        .iter()
        .map(|(rule, _, _)| {
            rule.condition
                .as_ref()
                .map(|condition| postcard::to_allocvec(&flatten(condition)))
                .transpose()
        })
        .collect::<Result<Vec<Option<Vec<u8>>>, postcard::Error>>()?;
    let heads = rules
        .iter()
        .zip(&conditions)
        .map(|((rule, mode, index), condition)| Head {
            id: Cow::Borrowed(&rule.id),
            events: Cow::Borrowed(&rule.events),
            action: Cow::Borrowed(&rule.action),
            priority: rule.priority,
            origin: rule.origin.as_ref().map(Cow::Borrowed),
            mode: *mode,
            index: index.clone(),
            condition: condition.as_deref().map(Encoded),
        })
        .collect();
    postcard::to_allocvec(&Compact {
        format: Cow::Borrowed(COMPACT_FORMAT),
        version: COMPACT_VERSION,
        defaults: *defaults,
        trace: Cow::Borrowed(trace),
        rules: heads,
    })
}

/// The parts of the policy `bytes` hold, as [`write`] wrote them
pub(crate) fn read(bytes: &[u8]) -> Result<Parts, LoadError> {
    let compact: Compact<'_> =
        postcard::from_bytes(bytes).map_err(|err| LoadError::Json(err.to_string()))?;
    if compact.format != COMPACT_FORMAT {
        return Err(LoadError::Format(Some(compact.format.into_owned())));
    }
    if compact.version != COMPACT_VERSION {
        return Err(LoadError::Version(Some(compact.version)));
    }
    bounds::check_rule_count(compact.rules.len()).map_err(LoadError::Policy)?;
    let n_rules = compact.rules.len();
    let mut parts = Parts {
        rules: Vec::with_capacity(n_rules + 2),
        defaults: compact.defaults,
        trace: compact.trace.into_owned(),
        shadow: Vec::new(),
        index: Vec::with_capacity(n_rules),
        conditions: Conditions {
            bytes: Vec::new(),
            spans: Vec::with_capacity(n_rules),
            decoded: Vec::with_capacity(n_rules),
        },
    };
    for head in compact.rules {
        let id = head.id.into_owned();
        if head.mode == Mode::Shadow {
            parts.shadow.push(id.clone());
        }
        let conditions = &mut parts.conditions;
        conditions.spans.push(head.condition.map(|Encoded(bytes)| {
            let start = conditions.bytes.len();
            conditions.bytes.extend_from_slice(bytes);
            (start, conditions.bytes.len())
        }));
        conditions.decoded.push(OnceLock::new());
        parts.index.push(head.index);
        parts.rules.push(Rule {
            id,
            events: head.events.into_owned(),
            condition: None,
            action: head.action.into_owned(),
            priority: head.priority,
            origin: head.origin.map(Cow::into_owned),
        });
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Event;
    use crate::outcome::Decision;
    use crate::policy::Policy;
    use crate::vocabulary::{CompareOp, Field, FieldPath, Literal, Operand, PathSegment, Verb};

    fn rule(id: &str, verb: Verb, command: &str) -> Rule {
        Rule {
            id: id.to_owned(),
            events: vec![EventKind::PreToolUse],
            condition: Some(Condition::All(vec![
                Condition::Compare {
                    left: Operand::Field(Field::Tool),
                    op: CompareOp::Eq,
                    right: Operand::Literal(Literal::Str("Bash".to_owned())),
                },
                Condition::Contains {
                    field: Field::Arg(FieldPath {
                        segments: vec![PathSegment::Key("command".to_owned())],
                    }),
                    needle: Literal::Str(command.to_owned()),
                },
            ])),
            action: Action::Decide {
                verb,
                stop_reason: None,
                message: None,
            },
            priority: 0,
            origin: None,
        }
    }

    fn bash(command: &str) -> Event {
        let mut event = Event::new(EventKind::PreToolUse);
        event.tool = Some("Bash".to_owned());
        event.arg = Some(serde_json::json!({ "command": command }));
        event
    }

    #[test]
    fn conditions_are_decoded_when_their_rule_is_first_a_candidate() {
        let policy = Policy::new(
            vec![
                rule("guard", Verb::Block, "rm"),
                rule("other", Verb::Allow, "ls"),
            ],
            Defaults::default(),
        )
        .unwrap();
        let read = Policy::from_checked_compact(&policy.to_compact()).unwrap();
        let decoded = |read: &Policy| read.decoded_conditions();
        assert_eq!(decoded(&read), 0, "nothing decoded before an event");
        let mut read_event = Event::new(EventKind::PreToolUse);
        read_event.tool = Some("Read".to_owned());
        assert_eq!(
            read.evaluate(&read_event).resolution.decision,
            Decision::None
        );
        assert_eq!(
            decoded(&read),
            0,
            "no candidate: keyed on `tool == \"Bash\"`"
        );
        assert_eq!(
            read.evaluate(&bash("rm -r x")).resolution.decision,
            Decision::Block
        );
        assert_eq!(decoded(&read), 2);
        assert_eq!(read.rules(), policy.rules());
    }

    #[test]
    fn a_condition_that_does_not_decode_lets_a_guard_fire_and_nothing_else() {
        let rules = vec![
            rule("guard", Verb::Block, "rm"),
            rule("other", Verb::Allow, "ls"),
        ];
        let policy = Policy::new(rules.clone(), Defaults::default()).unwrap();
        let mut bytes = policy.to_compact();
        // Each condition's own bytes, as the form writes them, replaced by bytes of the same
        // length that are no postfix nodes.
        for rule in &rules {
            let condition = rule.condition.as_ref().unwrap();
            let encoded = postcard::to_allocvec(&flatten(condition)).unwrap();
            let at = bytes
                .windows(encoded.len())
                .position(|window| window == encoded.as_slice())
                .unwrap();
            bytes[at..at + encoded.len()].fill(0xff);
        }
        let read = Policy::from_checked_compact(&bytes).unwrap();
        let outcome = read.evaluate(&bash("ls"));
        assert_eq!(outcome.resolution.decision, Decision::Block);
        assert_eq!(outcome.resolution.resolved_by.as_deref(), Some("guard"));
        let shown: Vec<&Option<Condition>> = read
            .user_rules()
            .iter()
            .map(|rule| &rule.condition)
            .collect();
        assert_eq!(
            shown,
            [
                &Some(Condition::All(Vec::new())),
                &Some(Condition::Any(Vec::new()))
            ],
            "shown as they decide"
        );
    }

    #[test]
    fn another_layout_is_refused_whole() {
        let policy =
            Policy::new(vec![rule("guard", Verb::Block, "rm")], Defaults::default()).unwrap();
        let bytes = policy.to_compact();
        let mut foreign = bytes.clone();
        // The version follows the format's name and its length.
        let version_at = 1 + COMPACT_FORMAT.len();
        foreign[version_at] = 9;
        assert_eq!(
            Policy::from_checked_compact(&foreign).unwrap_err(),
            LoadError::Version(Some(9))
        );
        assert!(Policy::from_checked_compact(&bytes[..bytes.len() / 2]).is_err());
        assert!(Policy::from_checked_compact(b"").is_err());
    }
}
