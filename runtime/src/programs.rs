//! What a rule's condition requires of a tool call before it can hold: a shell call, or a
//! shell call some command of which runs a program some test passes (`shell(program in
//! ["psql", "mysql"] and ...)`, `shell(program_is("interpreter") and ...)`), or else an
//! argument its text tests read (`shell(...) or arg.command =~ "/dev/tcp/"`). A rule whose
//! requirement the call does not meet is not tested, and in the compact form not even
//! decoded.
//!
//! The packs hold dozens of such rules, each with a long condition, and every tool call is
//! a candidate of many: decoding and testing their conditions cost a hook call more than the
//! rest of its evaluation. Their requirements are worked out once, when the policy is built
//! or its compact form written, and kept beside each rule's head.
//!
//! Invariant: when [`rule_requirement`] gives one, the rule's condition is false (and not
//! undecidable) on every event that does not meet it: one whose input was read, that holds
//! none of the requirement's arguments, and that is no shell call or, for
//! [`ShellNeed::Programs`], a readable line each of whose commands names its program and
//! runs none that a test passes. A command with an unknown argument
//! still names its program, and a test of that program is decided there, so it meets no
//! requirement by that. `CommandLine::may_be_shell_call` and `CommandLine::programs_run` hold
//! the other side of it.
//!
//! In the compact form, a rule whose requirement is made of exact names alone is entered
//! under each of them (`by_name.rs`), and a shell call looks up the programs its line runs
//! instead of decoding the rule's tests.

mod by_name;

use std::cell::OnceCell;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::shared_bytes::{SharedBytes, Span};
use crate::shell::CommandLine;
use crate::vocabulary::{Condition, Field, FieldPath, Rule, ShellCondition, ShellWord, WordTest};
use by_name::Index;

/// What a condition requires of a tool call before it can hold: a shell call as `shell`
/// says, or one of `args` in its input
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Requirement {
    /// The arguments (`arg.<path>`) some text test reads: it may hold on a call that has
    /// one. First, so that a call of a tool that is no shell decodes them alone.
    args: Vec<FieldPath>,
    /// The shell call it may hold on; none when it holds on no shell call for being one
    shell: Option<ShellNeed>,
}

/// What shell call a condition may hold on
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum ShellNeed {
    /// Any shell call: some shell term must hold
    Any,
    /// A shell call with a command whose program passes one of these tests
    Programs(Vec<WordTest>),
}

impl Requirement {
    fn shell(need: ShellNeed) -> Requirement {
        Requirement {
            shell: Some(need),
            args: Vec::new(),
        }
    }

    /// Either this or `other`
    fn or(mut self, other: Requirement) -> Requirement {
        self.shell = match (self.shell, other.shell) {
            (None, one) | (one, None) => one,
            (Some(ShellNeed::Programs(mut tests)), Some(ShellNeed::Programs(more))) => {
                tests.extend(more);
                Some(ShellNeed::Programs(tests))
            }
            (Some(_), Some(_)) => Some(ShellNeed::Any),
        };
        self.args.extend(other.args);
        self
    }
}

/// What each user rule of a policy requires of a tool call. In a policy read from its
/// compact form each requirement stays encoded until a shell call first asks for it: a call
/// of another tool only needs to know that there is one.
#[derive(Debug)]
pub(crate) struct Requirements {
    /// The compact form the requirements were read from; none for a policy built here
    bytes: SharedBytes,
    /// Each rule's requirement, if it has one
    rules: Vec<Option<Slot>>,
    /// The rules entered under the exact names they require, in a policy read from its
    /// compact form
    by_name: Option<Index>,
}

/// The user rules the programs of one call's line name in the index ([`by_name`]), looked
/// up when a rule entered there is first a candidate: `None` when the line may run any
/// program (one only known at run time, or a line that cannot be read)
#[derive(Default)]
pub(crate) struct Named(OnceCell<Option<Vec<u32>>>);

/// One rule's requirement: where its bytes are, and the requirement once decoded (`None`
/// when they do not decode, which leaves the rule to be tested)
#[derive(Debug)]
struct Slot {
    span: Span,
    decoded: OnceLock<Option<Box<Requirement>>>,
}

impl Requirements {
    /// The requirements of `rules`, worked out now
    pub(crate) fn of(rules: &[Rule]) -> Requirements {
        let slot = |requirement| Slot {
            span: (0, 0),
            decoded: OnceLock::from(Some(Box::new(requirement))),
        };
        Requirements {
            bytes: SharedBytes::default(),
            rules: rules
                .iter()
                .map(|rule| rule.condition.as_ref().and_then(rule_requirement).map(slot))
                .collect(),
            by_name: None,
        }
    }

    /// Room for the requirements of `n_rules` rules, read from `bytes`, with the index of
    /// their names as [`encode`] wrote it (`by_name`, a slice of `bytes`)
    pub(crate) fn with_capacity(
        bytes: &SharedBytes,
        n_rules: usize,
        by_name: &[u8],
    ) -> Requirements {
        Requirements {
            bytes: bytes.clone(),
            rules: Vec::with_capacity(n_rules),
            by_name: Some(Index::encoded(bytes.part(by_name))),
        }
    }

    /// Adds the next rule's requirement, as [`encode`] wrote it (a slice of the bytes the
    /// requirements were read from), or `None`
    pub(crate) fn push_encoded(&mut self, encoded: Option<&[u8]>) {
        self.rules.push(encoded.map(|encoded| Slot {
            span: self.bytes.span_of(encoded),
            decoded: OnceLock::new(),
        }));
    }

    /// Whether the condition of user rule `index` may hold on the call of `line`, as far as
    /// what it requires tells; `named` keeps what the line's programs name, for the rules
    /// of one call
    pub(crate) fn may_hold_on(&self, index: usize, line: &CommandLine<'_>, named: &Named) -> bool {
        let Some(Some(slot)) = self.rules.get(index) else {
            return true;
        };
        let event = line.event();
        if event.arg_unreadable {
            return true;
        }
        if line.may_be_shell_call() {
            match self.named_on(index, line, named) {
                Some(true) => return true,
                // Not run: only an argument its text tests read is left to meet.
                Some(false) => {}
                None => {
                    return self
                        .decode(slot)
                        .is_none_or(|requirement| requirement.may_hold_on(line))
                }
            }
        }
        // A call of another tool can meet only the arguments, which are encoded first so
        // that they are read alone.
        match slot.decoded.get() {
            Some(Some(requirement)) => holds_an_arg(&requirement.args, event),
            Some(None) => true,
            None => self
                .bytes
                .get(slot.span)
                .and_then(|bytes| postcard::take_from_bytes::<Vec<FieldPath>>(bytes).ok())
                .is_none_or(|(args, _)| holds_an_arg(&args, event)),
        }
    }

    /// How many requirements are decoded: in a policy read from its compact form, how many
    /// were so far
    #[cfg(test)]
    pub(crate) fn decoded(&self) -> usize {
        self.rules
            .iter()
            .flatten()
            .filter(|slot| slot.decoded.get().is_some())
            .count()
    }

    /// The requirement of `slot`, decoded now if it was not yet; `None` when it does not
    /// decode
    fn decode<'s>(&self, slot: &'s Slot) -> Option<&'s Requirement> {
        slot.decoded
            .get_or_init(|| {
                let bytes = self.bytes.get(slot.span)?;
                postcard::from_bytes(bytes).ok().map(Box::new)
            })
            .as_deref()
    }

    /// Whether a program `line` may run is one of the names user rule `index` is entered
    /// under; `None` when it is not entered (or the policy has no index)
    fn named_on(&self, index: usize, line: &CommandLine<'_>, named: &Named) -> Option<bool> {
        let by_name = self
            .by_name
            .as_ref()?
            .decoded(self.rules.len())
            .filter(|by_name| by_name.is_entered(index))?;
        let named = named.0.get_or_init(|| {
            line.programs_run().map(|names| {
                let mut rules: Vec<u32> = names
                    .flat_map(|name| by_name.rules_of(name).iter().copied())
                    .collect();
                rules.sort_unstable();
                rules
            })
        });
        Some(named.as_ref().is_none_or(|rules| {
            u32::try_from(index).is_ok_and(|index| rules.binary_search(&index).is_ok())
        }))
    }
}

impl Requirement {
    /// Whether a condition that requires this may hold on the shell call of `line`
    fn may_hold_on(&self, line: &CommandLine<'_>) -> bool {
        match &self.shell {
            Some(ShellNeed::Programs(tests)) => {
                holds_an_arg(&self.args, line.event())
                    || line.may_run(|program| tests.iter().any(|test| test.is_match(program)))
            }
            Some(ShellNeed::Any) => true,
            None => holds_an_arg(&self.args, line.event()),
        }
    }
}

/// Whether `event`'s input holds one of `args`, as reading `arg.<path>` finds it
fn holds_an_arg(args: &[FieldPath], event: &Event) -> bool {
    event
        .arg
        .as_ref()
        .is_some_and(|arg| args.iter().any(|path| path.lookup(arg).is_some()))
}

/// What the compact form keeps of the user rules' requirements
pub(crate) struct Encoded {
    /// What each rule's condition requires, if anything, in order
    pub(crate) rules: Vec<Option<Vec<u8>>>,
    /// The index of the rules by the exact names they require
    pub(crate) by_name: Vec<u8>,
}

/// The bytes the compact form keeps of what each of `conditions` (the user rules', in order)
/// requires
pub(crate) fn encode<'c>(
    conditions: impl Iterator<Item = Option<&'c Condition>>,
) -> Result<Encoded, postcard::Error> {
    let requirements: Vec<Option<Requirement>> = conditions
        .map(|condition| condition.and_then(rule_requirement))
        .collect();
    Ok(Encoded {
        rules: requirements
            .iter()
            .map(|requirement| requirement.as_ref().map(postcard::to_allocvec).transpose())
            .collect::<Result<_, _>>()?,
        by_name: by_name::encode(&requirements)?,
    })
}

/// What `condition` requires of a tool call; `None` when it may hold on any
pub(crate) fn rule_requirement(condition: &Condition) -> Option<Requirement> {
    match condition {
        Condition::Shell { condition, .. } => Some(Requirement::shell(
            shell_programs(condition).map_or(ShellNeed::Any, ShellNeed::Programs),
        )),
        // A text test of an argument the input does not hold is false.
        Condition::Glob {
            field: Field::Arg(path),
            ..
        }
        | Condition::Regex {
            field: Field::Arg(path),
            ..
        }
        | Condition::In {
            field: Field::Arg(path),
            ..
        }
        | Condition::Contains {
            field: Field::Arg(path),
            ..
        } => Some(Requirement {
            shell: None,
            args: vec![path.clone()],
        }),
        Condition::All(parts) => parts
            .iter()
            .filter_map(rule_requirement)
            .min_by_key(narrowness),
        Condition::Any(parts) => {
            let mut all: Option<Requirement> = None;
            for part in parts {
                let part = rule_requirement(part)?;
                all = Some(match all {
                    None => part,
                    Some(all) => all.or(part),
                });
            }
            all
        }
        _ => None,
    }
}

/// How few calls meet a requirement, as far as its shape tells: the fewer tests of programs,
/// the fewer calls; an argument, which every call of some tool has, counts as many
fn narrowness(requirement: &Requirement) -> usize {
    let shell = match &requirement.shell {
        None => 0,
        Some(ShellNeed::Programs(tests)) => tests.len(),
        Some(ShellNeed::Any) => 1 << 20,
    };
    shell.saturating_add(requirement.args.len().saturating_mul(1 << 10))
}

/// The tests of a program some command must pass for `condition` to hold on it
fn shell_programs(condition: &ShellCondition) -> Option<Vec<WordTest>> {
    match condition {
        ShellCondition::Word {
            word: ShellWord::Program,
            test,
        } => Some(vec![test.clone()]),
        ShellCondition::All(parts) => parts.iter().filter_map(shell_programs).min_by_key(Vec::len),
        ShellCondition::Any(parts) => {
            let mut all = Vec::new();
            for part in parts {
                all.extend(shell_programs(part)?);
            }
            (!parts.is_empty()).then_some(all)
        }
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::vocabulary::{GlobPattern, Quantifier};

    /// A test of a command's program, as `program ...` writes it
    pub(crate) fn program(test: WordTest) -> ShellCondition {
        ShellCondition::Word {
            word: ShellWord::Program,
            test,
        }
    }

    /// `shell(...)` of one condition, of any command of the line
    pub(crate) fn shell(condition: ShellCondition) -> Condition {
        Condition::Shell {
            quantifier: Quantifier::Any,
            condition,
            on_undecidable: None,
        }
    }

    fn programs(tests: Vec<WordTest>) -> Requirement {
        Requirement::shell(ShellNeed::Programs(tests))
    }

    fn names(names: &[&str]) -> WordTest {
        WordTest::In(names.iter().collect())
    }

    fn named(name: &str) -> WordTest {
        WordTest::Equals(name.to_owned())
    }

    #[test]
    fn a_conjunct_testing_the_program_requires_it() {
        let condition = shell(ShellCondition::All(vec![
            ShellCondition::Flag("-r".to_owned()),
            program(names(&["rm", "rmdir"])),
        ]));
        assert_eq!(
            rule_requirement(&condition),
            Some(programs(vec![names(&["rm", "rmdir"])]))
        );
        let kind = shell(program(WordTest::Kind("interpreter".to_owned())));
        assert_eq!(
            rule_requirement(&kind),
            Some(programs(vec![WordTest::Kind("interpreter".to_owned())]))
        );
    }

    #[test]
    fn alternatives_require_all_their_programs_or_a_shell_call() {
        let both = shell(ShellCondition::Any(vec![
            program(named("psql")),
            ShellCondition::All(vec![
                program(named("docker")),
                ShellCondition::Flag("-it".to_owned()),
            ]),
        ]));
        assert_eq!(
            rule_requirement(&both),
            Some(programs(vec![named("psql"), named("docker")]))
        );
        let open = shell(ShellCondition::Any(vec![
            program(named("psql")),
            ShellCondition::Flag("-f".to_owned()),
        ]));
        assert_eq!(
            rule_requirement(&open),
            Some(Requirement::shell(ShellNeed::Any))
        );
        let mixed = Condition::Any(vec![shell(program(named("rm"))), open]);
        assert_eq!(
            rule_requirement(&mixed),
            Some(Requirement::shell(ShellNeed::Any))
        );
        assert_eq!(rule_requirement(&Condition::Any(Vec::new())), None);
    }

    #[test]
    fn a_conjunction_takes_its_narrowest_part() {
        let condition = Condition::All(vec![
            Condition::Not(Box::new(shell(program(named("ls"))))),
            shell(ShellCondition::Flag("-f".to_owned())),
            shell(program(names(&["rm", "unlink"]))),
        ]);
        assert_eq!(
            rule_requirement(&condition),
            Some(programs(vec![names(&["rm", "unlink"])]))
        );
    }

    #[test]
    fn only_a_positive_shell_term_requires_anything() {
        let negated = Condition::Not(Box::new(shell(program(named("rm")))));
        assert_eq!(rule_requirement(&negated), None);
        let stdin = shell(ShellCondition::StdinFrom(Box::new(program(named("curl")))));
        assert_eq!(
            rule_requirement(&stdin),
            Some(Requirement::shell(ShellNeed::Any))
        );
        let glob = shell(program(WordTest::Glob(GlobPattern::new("rm*").unwrap())));
        assert!(matches!(
            rule_requirement(&glob),
            Some(Requirement { shell: Some(ShellNeed::Programs(tests)), args }) if tests.len() == 1 && args.is_empty()
        ));
        let either = Condition::Any(vec![negated, shell(program(named("rm")))]);
        assert_eq!(rule_requirement(&either), None);
    }

    #[test]
    fn a_text_test_of_an_argument_requires_the_argument() {
        let command = FieldPath {
            segments: vec![crate::vocabulary::PathSegment::Key("command".to_owned())],
        };
        let regex = Condition::Regex {
            field: Field::Arg(command.clone()),
            pattern: crate::vocabulary::RegexPattern::new("/dev/tcp/").unwrap(),
        };
        let either = Condition::Any(vec![shell(program(named("nc"))), regex.clone()]);
        assert_eq!(
            rule_requirement(&either),
            Some(Requirement {
                shell: Some(ShellNeed::Programs(vec![named("nc")])),
                args: vec![command],
            })
        );
        let negated = Condition::Not(Box::new(regex.clone()));
        assert_eq!(rule_requirement(&negated), None);
        let both = Condition::All(vec![regex, shell(program(named("nc")))]);
        assert_eq!(rule_requirement(&both), Some(programs(vec![named("nc")])));
    }
}
