//! The rules of a policy's compact form whose condition requires a command that runs one
//! of some programs or writes a file (`programs.rs`), entered under each program name they
//! require exactly (`program == "psql"`, `program in ["rm", "unlink"]`), with the other
//! tests of programs they require (`program_is("disk_formatter")`, `program ~ "mkfs.*"`)
//! and whether a line that writes a file meets them.
//!
//! A Bash call over the shipped packs was a candidate of 75 rules that require programs, and
//! decoding each one's program tests to ask them of the line's few programs cost more than
//! the rest of the call's evaluation. Looked up by the line's programs instead, a rule none
//! of whose programs the line runs, and that writes nothing if the rule counts writes, is
//! skipped with nothing of it decoded.
//!
//! Invariant: a rule is entered under every name its requirement's tests pass exactly, and
//! under nothing else; its other tests are kept with it; so "no program of the line is one
//! of its names or passes its other tests (and, if it counts writes, the line may write
//! nothing)" is exactly "the line does not meet its need of commands".

use std::cmp::Ordering;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::{Requirement, ShellNeed};
use crate::shared_bytes::SharedPart;
use crate::vocabulary::WordTest;

/// The index as the compact form keeps it: the names, sorted, in one text; where each ends
/// in it; where each one's rules end in `rules`; the rules of every name, one after the
/// other, in order; the entered rules with tests of programs other than exact names, and
/// those tests; and the entered rules a line that writes a file meets
#[derive(Serialize, Deserialize)]
struct Written<'a> {
    names: &'a str,
    name_ends: Vec<u32>,
    rule_ends: Vec<u32>,
    rules: Vec<u32>,
    others: Vec<(u32, Vec<WordTest>)>,
    writers: Vec<u32>,
}

/// The index as the compact form wrote it, decoded when a shell call first asks
#[derive(Debug)]
pub(super) struct Index {
    encoded: SharedPart,
    decoded: OnceLock<Option<ByName>>,
}

impl Index {
    /// The index [`encode`] wrote
    pub(super) fn encoded(encoded: SharedPart) -> Index {
        Index {
            encoded,
            decoded: OnceLock::new(),
        }
    }

    /// The index of a policy of `n_rules` user rules, decoded now if it was not yet; `None`
    /// when its bytes do not decode whole (see [`ByName::decode`])
    pub(super) fn decoded(&self, n_rules: usize) -> Option<&ByName> {
        self.decoded
            .get_or_init(|| ByName::decode(self.encoded.bytes(), n_rules))
            .as_ref()
    }
}

/// The index, decoded
#[derive(Debug)]
pub(super) struct ByName {
    names: String,
    name_ends: Vec<u32>,
    rule_ends: Vec<u32>,
    rules: Vec<u32>,
    others: Vec<(u32, Vec<WordTest>)>,
    writers: Vec<u32>,
    /// Whether each rule, by its index, is entered
    entered: Vec<bool>,
}

/// What the compact form keeps of one rule's need of commands: its exact names, its other
/// tests of programs, and whether it counts writes; `None` when it needs none
fn need_of(requirement: &Requirement) -> Option<(Vec<&str>, Vec<&WordTest>, bool)> {
    let Some(ShellNeed::Commands { programs, writes }) = &requirement.shell else {
        return None;
    };
    let (mut names, mut others) = (Vec::new(), Vec::new());
    for test in programs {
        match test {
            WordTest::Equals(name) => names.push(name.as_str()),
            WordTest::In(words) => names.extend(words.iter()),
            other => others.push(other),
        }
    }
    Some((names, others, *writes))
}

/// The bytes the compact form keeps of the index of `requirements`, each user rule's by its
/// index
pub(super) fn encode(requirements: &[Option<Requirement>]) -> Result<Vec<u8>, postcard::Error> {
    let mut entries: Vec<(&str, u32)> = Vec::new();
    let mut others = Vec::new();
    let mut writers = Vec::new();
    for (rule, requirement) in requirements.iter().enumerate() {
        // A policy holds far fewer rules than `u32` counts (`bounds::MAX_RULES`).
        let Ok(rule) = u32::try_from(rule) else {
            break;
        };
        let Some((names, tests, writes)) = requirement.as_ref().and_then(need_of) else {
            continue;
        };
        entries.extend(names.into_iter().map(|name| (name, rule)));
        // Every entered rule is listed once among the others, even with none: decoding
        // tells the entered rules from the others.
        others.push((rule, tests.into_iter().cloned().collect::<Vec<_>>()));
        if writes {
            writers.push(rule);
        }
    }
    entries.sort_unstable();
    entries.dedup();
    let mut written = Written {
        names: "",
        name_ends: Vec::new(),
        rule_ends: Vec::new(),
        rules: Vec::with_capacity(entries.len()),
        others,
        writers,
    };
    let mut text = String::new();
    let mut last: Option<&str> = None;
    for (name, rule) in entries {
        if last != Some(name) {
            text.push_str(name);
            written.name_ends.push(offset(text.len()));
            written.rule_ends.push(offset(written.rules.len()));
            last = Some(name);
        }
        written.rules.push(rule);
        if let Some(end) = written.rule_ends.last_mut() {
            *end = offset(written.rules.len());
        }
    }
    written.names = &text;
    postcard::to_allocvec(&written)
}

/// `at` as the index writes offsets; an index is far smaller than 4 GiB, and were it not,
/// an offset past its end would make [`ByName::decode`] refuse the index
fn offset(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

impl ByName {
    /// The index [`encode`] wrote, for a policy of `n_rules` user rules; `None` when the bytes
    /// do not decode whole (which the compact form's checksum rules out): a rule entered
    /// under a name that cannot be read or found would be skipped on a line that runs it,
    /// so then no rule is entered, and each is asked as its tests say
    fn decode(bytes: &[u8], n_rules: usize) -> Option<ByName> {
        let written: Written<'_> = postcard::from_bytes(bytes).ok()?;
        let mut index = ByName {
            names: written.names.to_owned(),
            name_ends: written.name_ends,
            rule_ends: written.rule_ends,
            rules: written.rules,
            others: written.others,
            writers: written.writers,
            entered: vec![false; n_rules],
        };
        let n_names = index.name_ends.len();
        let whole = index.rule_ends.len() == n_names
            && (0..n_names).all(|at| index.rules_at(at).is_some())
            && (1..n_names).all(|at| index.name(at.saturating_sub(1)) < index.name(at));
        for (rule, _) in whole.then_some(&index.others)? {
            *index.entered.get_mut(usize::try_from(*rule).ok()?)? = true;
        }
        // A rule under a name or among the writers that is not entered would be asked of
        // its tests, which is sound, but means the bytes are not what `encode` wrote.
        let listed = |rule: &u32| usize::try_from(*rule).is_ok_and(|rule| index.is_entered(rule));
        (index.rules.iter().all(listed) && index.writers.iter().all(listed)).then_some(index)
    }

    /// Whether rule `rule` is entered: its requirement needs commands
    pub(super) fn is_entered(&self, rule: usize) -> bool {
        self.entered.get(rule).copied().unwrap_or(false)
    }

    /// The entered rules a line whose commands run `programs` meets, sorted; with `writes`,
    /// a line that may write a file
    pub(super) fn rules_met<'n>(
        &self,
        programs: impl Iterator<Item = &'n str>,
        writes: bool,
    ) -> Vec<u32> {
        let mut met = Vec::new();
        for program in programs {
            met.extend_from_slice(self.rules_of(program));
            met.extend(
                self.others
                    .iter()
                    .filter(|(_, tests)| tests.iter().any(|test| test.is_match(program)))
                    .map(|(rule, _)| *rule),
            );
        }
        if writes {
            met.extend_from_slice(&self.writers);
        }
        met.sort_unstable();
        met.dedup();
        met
    }

    /// The rules entered under `name`
    fn rules_of(&self, name: &str) -> &[u32] {
        self.find(name)
            .and_then(|at| self.rules_at(at))
            .unwrap_or_default()
    }

    /// Where `name` is among the names, which are sorted
    fn find(&self, name: &str) -> Option<usize> {
        let (mut low, mut high) = (0, self.name_ends.len());
        while low < high {
            let middle = low + (high - low) / 2;
            match self.name(middle)?.cmp(name) {
                Ordering::Less => low = middle + 1,
                Ordering::Greater => high = middle,
                Ordering::Equal => return Some(middle),
            }
        }
        None
    }

    /// The name at `at`
    fn name(&self, at: usize) -> Option<&str> {
        self.names.get(span(&self.name_ends, at)?)
    }

    /// The rules entered under the name at `at`
    fn rules_at(&self, at: usize) -> Option<&[u32]> {
        self.name(at)?;
        self.rules.get(span(&self.rule_ends, at)?)
    }
}

/// Where the part at `at` of parts that end where `ends` says lies
fn span(ends: &[u32], at: usize) -> Option<std::ops::Range<usize>> {
    let start = match at.checked_sub(1) {
        None => 0,
        Some(before) => usize::try_from(*ends.get(before)?).ok()?,
    };
    let end = usize::try_from(*ends.get(at)?).ok()?;
    Some(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Event;
    use crate::outcome::Decision;
    use crate::policy::Policy;
    use crate::programs::rule_requirement;
    use crate::programs::tests::{program, shell};
    use crate::vocabulary::{
        Action, Condition, Defaults, EventKind, GlobPattern, RegexPattern, Rule, ShellCondition,
        ShellWord, Verb,
    };

    fn named(name: &str) -> WordTest {
        WordTest::Equals(name.to_owned())
    }

    fn names(names: &[&str]) -> WordTest {
        WordTest::In(names.iter().collect())
    }

    fn guard(id: &str, condition: Condition) -> Rule {
        Rule {
            id: id.to_owned(),
            events: vec![EventKind::PreToolUse],
            condition: Some(condition),
            action: Action::Decide {
                verb: Verb::Block,
                stop_reason: None,
                message: None,
            },
            priority: 0,
            origin: None,
        }
    }

    /// Rules that share names, list them twice, mix them with patterns and kinds, or require
    /// any shell call
    fn conditions() -> Vec<Condition> {
        let either = |tests: Vec<WordTest>| {
            shell(ShellCondition::Any(
                tests.into_iter().map(program).collect(),
            ))
        };
        vec![
            shell(program(named("rm"))),
            shell(ShellCondition::All(vec![
                program(names(&["curl", "wget"])),
                ShellCondition::Flag("-o".to_owned()),
            ])),
            either(vec![named("rm"), names(&["shred", "rm"])]),
            either(vec![
                named("terraform"),
                WordTest::Glob(GlobPattern::new("terraform-*").unwrap()),
            ]),
            shell(program(WordTest::Kind("interpreter".to_owned()))),
            shell(ShellCondition::Flag("-f".to_owned())),
            Condition::Not(Box::new(shell(program(named("ls"))))),
            shell(ShellCondition::Any(vec![
                program(named("tee")),
                ShellCondition::Word {
                    word: ShellWord::Written,
                    test: WordTest::Regex(RegexPattern::new("^/etc/").unwrap()),
                },
            ])),
        ]
    }

    #[test]
    fn each_rule_that_needs_commands_is_found_by_every_name_its_tests_pass() {
        let requirements: Vec<Option<Requirement>> =
            conditions().iter().map(rule_requirement).collect();
        let index = ByName::decode(&encode(&requirements).unwrap(), requirements.len()).unwrap();
        let entered: Vec<bool> = (0..requirements.len())
            .map(|rule| index.is_entered(rule))
            .collect();
        assert_eq!(
            entered,
            [true, true, true, true, true, false, false, true],
            "all but the rules any shell call may meet"
        );
        // A line that writes meets the rule that tests what is written, whatever it runs.
        assert_eq!(index.rules_met(["ls"].into_iter(), true), [7]);
        assert_eq!(index.rules_met(["ls"].into_iter(), false), [] as [u32; 0]);
        // What the rules' own tests say, name by name.
        for name in [
            "rm",
            "shred",
            "curl",
            "wget",
            "terraform",
            "terraform-ls",
            "python3",
            "tee",
            "ls",
            "rmdir",
            "",
            "r",
        ] {
            let passing: Vec<u32> = (0u32..)
                .zip(&requirements)
                .filter(|(rule, _)| index.is_entered(*rule as usize))
                .filter_map(|(rule, requirement)| match requirement {
                    Some(Requirement {
                        shell: Some(ShellNeed::Commands { programs, .. }),
                        ..
                    }) if programs.iter().any(|test| test.is_match(name)) => Some(rule),
                    _ => None,
                })
                .collect();
            assert_eq!(
                index.rules_met([name].into_iter(), false),
                passing,
                "{name:?}"
            );
        }
    }

    #[test]
    fn an_index_that_does_not_decode_whole_enters_no_rule() {
        let requirements: Vec<Option<Requirement>> =
            conditions().iter().map(rule_requirement).collect();
        let bytes = encode(&requirements).unwrap();
        assert!(ByName::decode(&bytes, requirements.len()).is_some());
        assert!(
            ByName::decode(&bytes, 1).is_none(),
            "a rule past the policy"
        );
        assert!(ByName::decode(&bytes[..bytes.len() - 1], requirements.len()).is_none());
        // Names out of order could not be found by halving.
        let unsorted = Written {
            names: "rmcurl",
            name_ends: vec![2, 6],
            rule_ends: vec![1, 2],
            rules: vec![0, 1],
            others: vec![(0, Vec::new()), (1, Vec::new())],
            writers: Vec::new(),
        };
        let bytes = postcard::to_allocvec(&unsorted).unwrap();
        assert!(ByName::decode(&bytes, 2).is_none());
    }

    /// The decisions of the whole policy and of a fresh compact form of it on a Bash call of
    /// each line
    fn decide(rules: &[Rule], lines: &[&str]) -> Vec<(Decision, Decision)> {
        let whole = Policy::new(rules.to_vec(), Defaults::default()).unwrap();
        lines
            .iter()
            .map(|line| {
                let compact = Policy::from_checked_compact(&whole.to_compact()).unwrap();
                let mut event = Event::new(EventKind::PreToolUse);
                event.tool = Some("Bash".to_owned());
                event.arg = Some(serde_json::json!({ "command": line }));
                (
                    whole.evaluate(&event).resolution.decision,
                    compact.evaluate(&event).resolution.decision,
                )
            })
            .collect()
    }

    #[test]
    fn a_line_keeps_every_rule_of_a_program_it_may_run_or_a_file_it_may_write() {
        let mut rules: Vec<Rule> = [
            ("no-rm", named("rm")),
            ("no-shred", names(&["dd", "shred"])),
            (
                "no-mkfs",
                WordTest::Glob(GlobPattern::new("mkfs.*").unwrap()),
            ),
        ]
        .into_iter()
        .map(|(id, test)| guard(id, shell(program(test))))
        .collect();
        rules.push(guard(
            "no-etc",
            shell(ShellCondition::Word {
                word: ShellWord::Written,
                test: WordTest::Regex(RegexPattern::new("^/etc/").unwrap()),
            }),
        ));
        // As bash runs them: the program behind a wrapper, after a pipe, in a subshell; a
        // program only known at run time, code made at run time; files written by a
        // redirect, a writing program, to a place only known at run time.
        let runs = [
            "sudo rm -rf /tmp/x",
            "env A=1 shred f",
            "ls | xargs rm",
            "(cd /tmp && dd if=/dev/zero of=f)",
            "\"$TOOL\" f",
            "eval \"$cmd\"",
            "timeout 5 rm f",
            "nice mkfs.ext4 /dev/sdb",
            "ls > /etc/motd",
            "cat f | tee -a /etc/hosts",
            "cp a /etc/b",
            "echo x > \"$F\"",
        ];
        // A line whose program is only known at run time asks (docs/shell.md).
        for (line, (whole, compact)) in runs.iter().zip(decide(&rules, &runs)) {
            assert_ne!(whole, Decision::None, "{line}");
            assert_eq!(compact, whole, "{line}");
        }
        let runs_neither = [
            "ls -la",
            "echo rm shred",
            "git rm f",
            "rmdir d",
            "ls > out.txt",
            "mkfs --help > /tmp/x",
        ];
        for (line, decisions) in runs_neither.iter().zip(decide(&rules, &runs_neither)) {
            assert_eq!(decisions, (Decision::None, Decision::None), "{line}");
        }
    }

    #[test]
    fn a_rule_none_of_whose_names_runs_is_skipped_undecoded_unless_its_argument_may_pass() {
        let command = crate::vocabulary::FieldPath {
            segments: vec![crate::vocabulary::PathSegment::Key("command".to_owned())],
        };
        let rules = vec![
            guard("no-rm", shell(program(named("rm")))),
            guard(
                "no-nc",
                Condition::Any(vec![
                    shell(program(named("nc"))),
                    Condition::Regex {
                        field: crate::vocabulary::Field::Arg(command),
                        pattern: crate::vocabulary::RegexPattern::new("/dev/tcp/").unwrap(),
                    },
                ]),
            ),
        ];
        let whole = Policy::new(rules, Defaults::default()).unwrap();
        let compact = Policy::from_checked_compact(&whole.to_compact()).unwrap();
        let bash = |line: &str| {
            let mut event = Event::new(EventKind::PreToolUse);
            event.tool = Some("Bash".to_owned());
            event.arg = Some(serde_json::json!({ "command": line }));
            compact.evaluate(&event).resolution
        };
        assert_eq!(bash("ls -la").decision, Decision::None);
        assert_eq!(compact.decoded_requirements(), 0);
        assert_eq!(
            compact.decoded_conditions(),
            0,
            "the `command` every Bash call holds has no `/dev/tcp/`, which `no-nc`'s pattern needs"
        );
        // `nc` is not run, but the argument the pattern reads holds what it needs.
        let resolution = bash("cat </dev/tcp/host/80");
        assert_eq!(resolution.decision, Decision::Block);
        assert_eq!(resolution.resolved_by.as_deref(), Some("no-nc"));
        assert_eq!(compact.decoded_requirements(), 0);
        assert_eq!(bash("rm x").resolved_by.as_deref(), Some("no-rm"));
    }
}
