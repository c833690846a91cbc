//! What a rule's condition requires of a tool call before it can hold: a shell call, or a
//! shell call some command of which runs a program some test passes (`shell(program in
//! ["psql", "mysql"] and ...)`, `shell(program_is("interpreter") and ...)`) or writes a file
//! (`shell(written =~ ...)`), or else a field its tests read (`shell(...) or arg.command =~
//! "/dev/tcp/"`, `metadata.tainted and ...`; `fields.rs`). A rule whose requirement the call
//! does not meet is not tested, and in the compact form not even decoded.
//!
//! The packs hold dozens of such rules, each with a long condition, and every tool call is
//! a candidate of many: decoding and testing their conditions cost a hook call more than the
//! rest of its evaluation. Their requirements are worked out once, when the policy is built
//! or its compact form written, and kept beside each rule's head.
//!
//! Invariant: when [`rule_requirement`] gives one, the rule's condition is false (and not
//! undecidable) on every event that does not meet it: one whose input was read, that meets
//! none of the requirement's [`FieldNeed`]s, and that is no shell call or, for
//! [`ShellNeed::Commands`], a readable line each of whose commands names its program, runs
//! none that a test passes, and (when the need counts writes) writes no file, redirects
//! nothing and hides no target. A command with an unknown argument still names its
//! program, and a test of that program is decided there, so it meets no requirement by
//! that. `CommandLine::may_be_shell_call`, `CommandLine::programs_run` and
//! `CommandLine::may_write` hold the other side of it.
//!
//! In the compact form, a rule whose requirement needs commands is entered in an index
//! under each exact name it requires, with its other tests of programs and whether it
//! holds on a line that writes (`by_name.rs`), and a shell call looks up the programs its
//! line runs instead of decoding the rule's tests.

mod by_name;
mod fields;

use std::cell::OnceCell;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::shared_bytes::{SharedBytes, Span};
use crate::shell::CommandLine;
use crate::vocabulary::{Condition, Rule, ShellCondition, ShellWord, WordTest};
use by_name::Index;
use fields::FieldNeed;

/// What a condition requires of a tool call before it can hold: a shell call as `shell`
/// says, or one of `fields`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Requirement {
    /// What some test of a field requires. First, so that a call of a tool that is no shell
    /// decodes them alone.
    fields: Vec<FieldNeed>,
    /// The shell call it may hold on; none when it holds on no shell call for being one
    shell: Option<ShellNeed>,
}

/// What shell call a condition may hold on
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum ShellNeed {
    /// Any shell call: some shell term must hold
    Any,
    /// A shell call with a command whose program passes one of `programs`, or, with
    /// `writes`, one that writes or redirects to a file
    Commands {
        /// Tests of a program
        programs: Vec<WordTest>,
        /// Whether a command that writes a file meets it, whatever its program
        writes: bool,
    },
}

impl ShellNeed {
    /// A need of a command running a program `test` passes
    fn program(test: WordTest) -> ShellNeed {
        ShellNeed::Commands {
            programs: vec![test],
            writes: false,
        }
    }

    /// Either this or `other`
    fn or(self, other: ShellNeed) -> ShellNeed {
        match (self, other) {
            (
                ShellNeed::Commands {
                    mut programs,
                    writes,
                },
                ShellNeed::Commands {
                    programs: more,
                    writes: also,
                },
            ) => {
                programs.extend(more);
                ShellNeed::Commands {
                    programs,
                    writes: writes || also,
                }
            }
            _ => ShellNeed::Any,
        }
    }

    /// How few shell calls meet it, as far as its shape tells: the fewer tests of programs,
    /// the fewer calls; many lines write a file
    fn narrowness(&self) -> usize {
        match self {
            ShellNeed::Commands { programs, writes } => {
                programs
                    .len()
                    .saturating_add(if *writes { 1 << 6 } else { 0 })
            }
            ShellNeed::Any => 1 << 20,
        }
    }
}

impl Requirement {
    fn shell(need: ShellNeed) -> Requirement {
        Requirement {
            shell: Some(need),
            fields: Vec::new(),
        }
    }

    /// Either this or `other`
    fn or(mut self, other: Requirement) -> Requirement {
        self.shell = match (self.shell, other.shell) {
            (None, one) | (one, None) => one,
            (Some(one), Some(other)) => Some(one.or(other)),
        };
        self.fields.extend(other.fields);
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

/// The user rules whose need of commands one call's line meets, as the index
/// ([`by_name`]) tells, looked up when a rule entered there is first a candidate: `None`
/// when the line may run any program (one only known at run time, or a line that cannot be
/// read)
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
        // A call of another tool can meet only the fields, which are encoded first so that
        // they are read alone.
        match slot.decoded.get() {
            Some(Some(requirement)) => fields::meets_any(&requirement.fields, event),
            Some(None) => true,
            None => self
                .bytes
                .get(slot.span)
                .and_then(|bytes| postcard::take_from_bytes::<Vec<FieldNeed>>(bytes).ok())
                .is_none_or(|(fields, _)| fields::meets_any(&fields, event)),
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

    /// Whether `line` meets the need of commands of user rule `index`, as the index tells;
    /// `None` when it is not entered (or the policy has no index)
    fn named_on(&self, index: usize, line: &CommandLine<'_>, named: &Named) -> Option<bool> {
        let by_name = self
            .by_name
            .as_ref()?
            .decoded(self.rules.len())
            .filter(|by_name| by_name.is_entered(index))?;
        let named = named.0.get_or_init(|| {
            line.programs_run()
                .map(|names| by_name.rules_met(names, line.may_write()))
        });
        Some(named.as_ref().is_none_or(|rules| {
            u32::try_from(index).is_ok_and(|index| rules.binary_search(&index).is_ok())
        }))
    }
}

impl Requirement {
    /// Whether a condition that requires this may hold on the shell call of `line`
    fn may_hold_on(&self, line: &CommandLine<'_>) -> bool {
        fields::meets_any(&self.fields, line.event())
            || match &self.shell {
                Some(ShellNeed::Commands { programs, writes }) => {
                    line.may_run(|program| programs.iter().any(|test| test.is_match(program)))
                        || (*writes && line.may_write())
                }
                Some(ShellNeed::Any) => true,
                None => false,
            }
    }
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
            shell_need(condition).unwrap_or(ShellNeed::Any),
        )),
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
        leaf => FieldNeed::of(leaf).map(|need| Requirement {
            shell: None,
            fields: vec![need],
        }),
    }
}

/// How few calls meet a requirement, as far as its shape tells
fn narrowness(requirement: &Requirement) -> usize {
    requirement
        .fields
        .iter()
        .map(FieldNeed::narrowness)
        .chain(requirement.shell.as_ref().map(ShellNeed::narrowness))
        .fold(0, usize::saturating_add)
}

/// What some command must do for `condition` to hold on it: run a program a test passes,
/// or write a file; `None` when any command may pass it
fn shell_need(condition: &ShellCondition) -> Option<ShellNeed> {
    match condition {
        ShellCondition::Word {
            word: ShellWord::Program,
            test,
        } => Some(ShellNeed::program(test.clone())),
        // Both are read from the files a command writes or redirects to.
        ShellCondition::Word {
            word: ShellWord::Written | ShellWord::Redirect,
            ..
        } => Some(ShellNeed::Commands {
            programs: Vec::new(),
            writes: true,
        }),
        ShellCondition::All(parts) => parts
            .iter()
            .filter_map(shell_need)
            .min_by_key(ShellNeed::narrowness),
        ShellCondition::Any(parts) => {
            let mut all: Option<ShellNeed> = None;
            for part in parts {
                let part = shell_need(part)?;
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::event::Event;
    use crate::vocabulary::{Field, FieldPath, GlobPattern, Needles, Quantifier};

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
        Requirement::shell(ShellNeed::Commands {
            programs: tests,
            writes: false,
        })
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
            Some(Requirement { shell: Some(ShellNeed::Commands { programs, writes: false }), fields }) if programs.len() == 1 && fields.is_empty()
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
                shell: programs(vec![named("nc")]).shell,
                fields: vec![FieldNeed::Pattern(
                    Field::Arg(command),
                    Needles::of_words(["/dev/tcp/"])
                )],
            })
        );
        let negated = Condition::Not(Box::new(regex.clone()));
        assert_eq!(rule_requirement(&negated), None);
        let both = Condition::All(vec![regex, shell(program(named("nc")))]);
        assert_eq!(rule_requirement(&both), Some(programs(vec![named("nc")])));
    }

    fn key(name: &str) -> FieldPath {
        FieldPath {
            segments: vec![crate::vocabulary::PathSegment::Key(name.to_owned())],
        }
    }

    fn regex(field: Field, source: &str) -> Condition {
        Condition::Regex {
            field,
            pattern: crate::vocabulary::RegexPattern::new(source).unwrap(),
        }
    }

    fn written(source: &str) -> ShellCondition {
        ShellCondition::Word {
            word: ShellWord::Written,
            test: WordTest::Regex(crate::vocabulary::RegexPattern::new(source).unwrap()),
        }
    }

    /// Conditions of each shape a requirement is worked out for
    fn shapes() -> Vec<Condition> {
        let tainted = Condition::Flag(Field::Metadata(key("tainted")));
        vec![
            Condition::All(vec![tainted.clone(), shell(program(named("curl")))]),
            Condition::All(vec![
                Condition::Glob {
                    field: Field::Tool,
                    pattern: GlobPattern::ignoring_case("*send_*").unwrap(),
                },
                Condition::Contains {
                    field: Field::Arg(key("to")),
                    needle: crate::vocabulary::Literal::Str("@".to_owned()),
                },
            ]),
            Condition::All(vec![
                regex(Field::Arg(key("command")), "(?i)flush(all|db)"),
                shell(program(names(&["nc", "redis-cli"]))),
            ]),
            shell(ShellCondition::Any(vec![
                program(named("rm")),
                written("^/etc/"),
            ])),
            shell(ShellCondition::Word {
                word: ShellWord::Redirect,
                test: WordTest::Regex(crate::vocabulary::RegexPattern::new("^/dev/tcp/").unwrap()),
            }),
            Condition::In {
                field: Field::Tool,
                list: vec![
                    crate::vocabulary::Literal::Str("http_post".to_owned()),
                    crate::vocabulary::Literal::Str("email".to_owned()),
                ],
            },
            Condition::Any(vec![
                shell(program(named("git"))),
                regex(Field::Arg(key("command")), "GIT_CONFIG_[A-Z]+="),
            ]),
            Condition::All(vec![tainted, written_anywhere()]),
            // The Kelvin sign is a `k` to a pattern that ignores case, beyond ASCII.
            regex(Field::Arg(key("command")), "(?i)kill -9"),
        ]
    }

    fn written_anywhere() -> Condition {
        shell(ShellCondition::Not(Box::new(written("^/nowhere$"))))
    }

    /// Calls of every kind the shapes tell apart: shell lines that run, write, redirect,
    /// hide their program or cannot be read; other tools; taint set, unset or not a bool;
    /// inputs and fields that could not be read
    fn calls() -> Vec<Event> {
        let bash = |line: &str| {
            let mut event = Event::new(crate::vocabulary::EventKind::PreToolUse);
            event.tool = Some("Bash".to_owned());
            event.arg = Some(serde_json::json!({ "command": line }));
            event.cwd = Some("/home/dev/project".to_owned());
            event
        };
        let tool = |name: &str, arg: serde_json::Value| {
            let mut event = Event::new(crate::vocabulary::EventKind::PreToolUse);
            event.tool = Some(name.to_owned());
            event.arg = Some(arg);
            event
        };
        let lines = [
            "ls -la",
            "ls > /etc/x",
            "echo hi > out.txt",
            "cat f | tee /etc/hosts",
            "rm -rf /",
            "x > $F",
            "cp a \"$D\"",
            "eval \"$x\"",
            "$T foo",
            "ls \"unterminated",
            "redis-cli FLUSHALL",
            "echo FLUSHDB | nc h 6379",
            "cat </dev/tcp/h/80",
            "echo x > /dev/tcp/h/1",
            "GIT_CONFIG_COUNT=1 make",
            "git status",
            "curl -s https://example.com",
            "cp a /etc/b",
            "python3 -c 'import os; os.system(\"ls\")'",
            "kill -9 1",
            "\u{212A}ill -9 1",
        ];
        let mut calls: Vec<Event> = lines.iter().map(|line| bash(line)).collect();
        calls.extend([
            tool("send_email", serde_json::json!({ "to": "a@b.c" })),
            tool("Send_Message", serde_json::json!({ "to": "someone" })),
            tool("http_post", serde_json::json!({ "url": "https://x" })),
            tool("Read", serde_json::json!({ "file_path": "/etc/passwd" })),
            tool("Bash", serde_json::json!({ "command": ["rm", "-rf", "/"] })),
            tool("Bash", serde_json::json!({ "command": "café > /etc/x" })),
        ]);
        let mut unreadable = bash("ls");
        unreadable.arg_unreadable = true;
        calls.push(unreadable);
        let mut with_taint = Vec::new();
        for call in &calls {
            for taint in [serde_json::json!(true), serde_json::json!("yes")] {
                let mut tainted = call.clone();
                tainted.metadata.insert("tainted".to_owned(), taint);
                with_taint.push(tainted);
            }
            let mut unknown = call.clone();
            unknown.unknown_fields.push(Field::Metadata(key("tainted")));
            unknown.unknown_fields.push(Field::Tool);
            with_taint.push(unknown);
        }
        calls.extend(with_taint);
        calls
    }

    #[test]
    fn no_call_that_misses_a_requirement_passes_the_condition() {
        let conditions = shapes();
        let rules: Vec<Rule> = conditions
            .iter()
            .map(|condition| Rule {
                id: "shape".to_owned(),
                events: vec![crate::vocabulary::EventKind::PreToolUse],
                condition: Some(condition.clone()),
                action: crate::vocabulary::Action::Decide {
                    verb: crate::vocabulary::Verb::Block,
                    stop_reason: None,
                    message: None,
                },
                priority: 0,
                origin: None,
            })
            .collect();
        let requirements = Requirements::of(&rules);
        let mut missed = vec![0; conditions.len()];
        let mut passed = vec![0; conditions.len()];
        for event in calls() {
            let watched = crate::watched::Watched::of(conditions.iter());
            let line = CommandLine::new(&event, None, &watched);
            let named = Named::default();
            for (index, condition) in conditions.iter().enumerate() {
                // The plain evaluation, either way an undecidable part goes.
                let holds = [false, true].map(|unreadable| {
                    crate::evaluate::holds(
                        condition,
                        &event,
                        &line,
                        unreadable,
                        &crate::trace::Reading::default(),
                    )
                });
                if !requirements.may_hold_on(index, &line, &named) {
                    missed[index] += 1;
                    assert_eq!(holds, [false, false], "{condition:?} on {event:?}");
                } else if holds[0] {
                    passed[index] += 1;
                }
            }
        }
        // Each shape spares some calls, and holds on some: the test can fail both ways.
        assert!(missed.iter().all(|count| *count > 0), "{missed:?}");
        assert!(passed.iter().all(|count| *count > 0), "{passed:?}");
    }
}
