//! The compact form of a policy: what the hook's cache keeps, and every hook call reads.
//!
//! A hook call is a fresh process that evaluates one or two events, whose candidates are few
//! of a policy's rules; decoding every condition of every rule cost it more than the rest
//! of the call. So the form is binary (postcard), and laid out so that a reader decodes at
//! once what every event needs: the defaults, the trace terms by slot, and for each user
//! rule its events (as bits), mode and index entry (the conjunct that keys it). The rest is
//! bytes of its own, decoded when first needed, and kept: the program names the conditions
//! test (`watched.rs`), when a call first reads a command line; the rules entered under the
//! exact program names they require (`programs/by_name.rs`), when a shell call first asks
//! of one; each rule's id, action, priority and origin (`heads.rs`), and its condition (its
//! postfix nodes, as the JSON form writes them), when an event first makes the rule a
//! candidate.
//!
//! Invariant: read only where this runtime wrote it of a policy it built, and the bytes are
//! proven unchanged (the cache checks a checksum): the rules passed every check then, so
//! only their number is checked again, and conditions are trusted to decode. A condition
//! that does not (which that proof rules out) decides as a shell condition on a command that
//! cannot be read: a guard (`block`, `ask`, `forbid`) fires, any other rule does not. The
//! envelope names its own format and version, so bytes of another layout are refused whole.

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bounds;
use crate::encoded::Conditions;
use crate::format::LoadError;
use crate::heads::{self, EncodedHeads};
use crate::index::IndexEntry;
use crate::policy::{Parts, Policy};
use crate::postfix::flatten;
use crate::programs::{self, Requirements};
use crate::shared_bytes::SharedBytes;
use crate::trace::TraceSpec;
use crate::vocabulary::{Defaults, Mode, Rule};
use crate::watched::Watched;

/// The `format` of the compact form
const COMPACT_FORMAT: &str = "rulesc-policy-compact";
/// The layout of the compact form this runtime writes and reads
const COMPACT_VERSION: u64 = 12;

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
    /// The program names the conditions test (`watched.rs`), in their own encoding
    #[serde(borrow)]
    watched: Encoded<'a>,
    /// The rules entered under the exact program names they require
    /// (`programs/by_name.rs`), in their own encoding
    #[serde(borrow)]
    by_name: Encoded<'a>,
}

/// A user rule: its events, mode and index entry, and the rest of its head (`heads.rs`),
/// its condition and its requirement, each encoded apart
#[derive(Serialize, Deserialize)]
struct Head<'a> {
    /// The events it fires on, one bit each (`heads.rs`)
    events: u16,
    mode: Mode,
    index: IndexEntry,
    /// Its id, action, priority and origin, in their own encoding (`heads.rs`)
    #[serde(borrow)]
    rest: Encoded<'a>,
    /// The condition's postfix nodes, in this form's own encoding
    #[serde(borrow)]
    condition: Option<Encoded<'a>>,
    /// What the condition requires of a tool call (`programs.rs`), in its own encoding;
    /// `None` when it may hold on any
    #[serde(borrow)]
    requirement: Option<Encoded<'a>>,
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

/// The compact form of a policy's defaults, trace terms, user rules (`rules`, each with
/// its condition, mode and index entry) and watched program names
pub(crate) fn write(
    defaults: &Defaults,
    trace: &[TraceSpec],
    rules: &[(&Rule, Mode, IndexEntry)],
    watched: &Watched,
) -> Result<Vec<u8>, postcard::Error> {
    let watched = watched.encode()?;
    let conditions = rules
        .iter()
        .map(|(rule, _, _)| {
            rule.condition
                .as_ref()
                .map(|condition| postcard::to_allocvec(&flatten(condition)))
                .transpose()
        })
        .collect::<Result<Vec<Option<Vec<u8>>>, postcard::Error>>()?;
    let programs::Encoded {
        rules: requirements,
        by_name,
    } = programs::encode(rules.iter().map(|(rule, _, _)| rule.condition.as_ref()))?;
    let rests = rules
        .iter()
        .map(|(rule, _, _)| heads::encode(rule))
        .collect::<Result<Vec<(u16, Vec<u8>)>, postcard::Error>>()?;
    let heads = rules
        .iter()
        .zip(&rests)
        .zip(&conditions)
        .zip(&requirements)
        .map(
            |((((_, mode, index), (events, rest)), condition), requirement)| Head {
                events: *events,
                mode: *mode,
                index: index.clone(),
                rest: Encoded(rest),
                condition: condition.as_deref().map(Encoded),
                requirement: requirement.as_deref().map(Encoded),
            },
        )
        .collect();
    postcard::to_allocvec(&Compact {
        format: Cow::Borrowed(COMPACT_FORMAT),
        version: COMPACT_VERSION,
        defaults: *defaults,
        trace: Cow::Borrowed(trace),
        rules: heads,
        watched: Encoded(&watched),
        by_name: Encoded(&by_name),
    })
}

/// The parts of the policy the compact form at `start` of `bytes` holds, as [`write`]
/// wrote it: the parts keep spans of `bytes`, not copies
pub(crate) fn read(bytes: &SharedBytes, start: usize) -> Result<Parts, LoadError> {
    let form = bytes.all().get(start..).unwrap_or_default();
    let compact: Compact<'_> =
        postcard::from_bytes(form).map_err(|err| LoadError::Json(err.to_string()))?;
    if compact.format != COMPACT_FORMAT {
        return Err(LoadError::Format(Some(compact.format.into_owned())));
    }
    if compact.version != COMPACT_VERSION {
        return Err(LoadError::Version(Some(compact.version)));
    }
    bounds::check_rule_count(compact.rules.len()).map_err(LoadError::Policy)?;
    let n_rules = compact.rules.len();
    let mut parts = Parts {
        heads: EncodedHeads::with_capacity(bytes, n_rules),
        defaults: compact.defaults,
        trace: compact.trace.into_owned(),
        shadow: Vec::new(),
        index: Vec::with_capacity(n_rules),
        conditions: Conditions::with_capacity(bytes, n_rules),
        requirements: Requirements::with_capacity(bytes, n_rules, compact.by_name.0),
        watched: Watched::encoded(bytes.part(compact.watched.0)),
    };
    for head in compact.rules {
        parts.heads.push(head.events, head.rest.0);
        if head.mode == Mode::Shadow {
            let id = parts
                .heads
                .get(parts.heads.len() - 1)
                .map(|rule| rule.id.clone());
            parts.shadow.extend(id);
        }
        parts
            .conditions
            .push(head.condition.map(|Encoded(bytes)| bytes));
        parts.index.push(head.index);
        parts
            .requirements
            .push_encoded(head.requirement.map(|Encoded(bytes)| bytes));
    }
    Ok(parts)
}

impl Policy {
    /// The compact form of this policy (`compact.rs`): what the hook's cache keeps, read
    /// back by [`Policy::from_checked_compact`]
    ///
    /// Host limits, shell tools and `--shadow` are not part of a policy and are not written.
    pub fn to_compact(&self) -> Vec<u8> {
        let rules: Vec<(&Rule, Mode, IndexEntry)> = self
            .user_rules()
            .iter()
            .map(|rule| (rule, self.written_mode(&rule.id), IndexEntry::of(rule)))
            .collect();
        // Invariant: every type written is plain data, which postcard always serializes; were
        // it to fail, the empty form read back is refused, and the policy compiled again.
        write(self.defaults(), self.trace_specs(), &rules, self.watched()).unwrap_or_default()
    }

    /// The policy [`Policy::to_compact`] wrote, read back
    ///
    /// For bytes this runtime wrote of a policy it built, kept where only rulesc writes and
    /// proven unchanged (the hook's cache checks a checksum): the checks its rules passed
    /// then are not made again but for their number, and each rule's condition is decoded
    /// when an event first makes the rule a candidate, so a call that evaluates one event
    /// decodes few of them. A condition that does not decode, which that proof rules out,
    /// decides as a command line that cannot be read: a guard (`block`, `ask`, `forbid`)
    /// fires, any other rule does not.
    pub fn from_checked_compact(bytes: &[u8]) -> Result<Policy, LoadError> {
        Policy::from_checked_compact_at(Arc::new(bytes.to_vec()), 0)
    }

    /// The policy [`Policy::to_compact`] wrote, at `start` of `bytes` (after what the
    /// caller keeps before it), read back as [`Policy::from_checked_compact`] does, but
    /// without a copy: the policy keeps `bytes` and reads its parts where they are
    pub fn from_checked_compact_at(bytes: Arc<Vec<u8>>, start: usize) -> Result<Policy, LoadError> {
        read(&SharedBytes::new(bytes), start).map(Policy::from_encoded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Event;
    use crate::outcome::Decision;
    use crate::vocabulary::{
        Action, CompareOp, Condition, EventKind, Field, FieldPath, Literal, Operand, PathSegment,
        Verb,
    };

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

    /// A guard on `rm` and an allow on `ls`, each keyed on `tool == "Bash"`
    fn guard_and_other() -> Policy {
        Policy::new(
            vec![
                rule("guard", Verb::Block, "rm"),
                rule("other", Verb::Allow, "ls"),
            ],
            Defaults::default(),
        )
        .unwrap()
    }

    #[test]
    fn a_form_read_in_place_after_a_header_decides_as_the_policy_it_was_written_of() {
        let policy = guard_and_other();
        // What the hook's cache keeps: a header line of its own before the form.
        let mut entry = b"{\"header\":true}\n".to_vec();
        let start = entry.len();
        entry.extend_from_slice(&policy.to_compact());
        let read = Policy::from_checked_compact_at(Arc::new(entry.clone()), start).unwrap();
        for command in ["rm -rf x", "ls", "echo"] {
            assert_eq!(
                read.evaluate(&bash(command)).resolution.decision,
                policy.evaluate(&bash(command)).resolution.decision,
                "{command}"
            );
        }
        // Read from the wrong place, the bytes are not a form: refused whole.
        assert!(Policy::from_checked_compact_at(Arc::new(entry), start - 1).is_err());
    }

    #[test]
    fn conditions_are_decoded_when_their_rule_is_first_a_candidate() {
        let policy = guard_and_other();
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
    fn a_rule_that_tests_an_argument_is_decoded_only_for_calls_that_hold_it() {
        // `shell(program == "nc") or arg.command =~ "/dev/tcp/"`, as the packs write it.
        let mut guard = rule("guard", Verb::Block, "unused");
        guard.condition = Some(Condition::Any(vec![
            Condition::Shell {
                quantifier: crate::vocabulary::Quantifier::Any,
                condition: crate::vocabulary::ShellCondition::Word {
                    word: crate::vocabulary::ShellWord::Program,
                    test: crate::vocabulary::WordTest::Equals("nc".to_owned()),
                },
                on_undecidable: None,
            },
            Condition::Regex {
                field: Field::Arg(FieldPath {
                    segments: vec![PathSegment::Key("command".to_owned())],
                }),
                pattern: crate::vocabulary::RegexPattern::new("/dev/tcp/").unwrap(),
            },
        ]));
        let policy = Policy::new(vec![guard], Defaults::default()).unwrap();
        let read = Policy::from_checked_compact(&policy.to_compact()).unwrap();
        let call = |tool: &str, arg: serde_json::Value| {
            let mut event = Event::new(EventKind::PreToolUse);
            event.tool = Some(tool.to_owned());
            event.arg = Some(arg);
            read.evaluate(&event).resolution.decision
        };
        let path = serde_json::json!({ "file_path": "/dev/tcp/x/1" });
        assert_eq!(call("Read", path), Decision::None);
        assert_eq!(read.decoded_conditions(), 0, "no `command`, no shell call");
        // Not a shell tool, but its `command` is what the regular expression reads.
        let exec = serde_json::json!({ "command": "cat </dev/tcp/x/1" });
        assert_eq!(call("exec", exec), Decision::Block);
        assert_eq!(
            call("Bash", serde_json::json!({ "command": "nc x 1" })),
            Decision::Block
        );
        assert_eq!(
            call("Bash", serde_json::json!({ "command": "ls" })),
            Decision::None
        );
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
    fn the_number_of_rules_is_checked_again() {
        let rule = rule("guard", Verb::Block, "rm");
        let written = |count: usize| {
            let rules: Vec<(&Rule, Mode, IndexEntry)> = (0..count)
                .map(|_| (&rule, Mode::Enforce, IndexEntry::of(&rule)))
                .collect();
            write(&Defaults::default(), &[], &rules, &Watched::of([])).unwrap()
        };
        assert!(Policy::from_checked_compact(&written(bounds::MAX_RULES)).is_ok());
        let err = Policy::from_checked_compact(&written(bounds::MAX_RULES + 1)).unwrap_err();
        let count = format!("{} rules", bounds::MAX_RULES + 1);
        assert!(err.to_string().contains(&count), "{err}");
    }

    #[test]
    fn another_layout_is_refused_whole() {
        let policy =
            Policy::new(vec![rule("guard", Verb::Block, "rm")], Defaults::default()).unwrap();
        let bytes = policy.to_compact();
        let mut foreign = bytes.clone();
        // The version follows the format's name and its length.
        let version_at = 1 + COMPACT_FORMAT.len();
        foreign[version_at] = 99;
        assert_eq!(
            Policy::from_checked_compact(&foreign).unwrap_err(),
            LoadError::Version(Some(99))
        );
        assert!(Policy::from_checked_compact(&bytes[..bytes.len() / 2]).is_err());
        assert!(Policy::from_checked_compact(b"").is_err());
    }
}
