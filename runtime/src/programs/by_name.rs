//! The rules of a policy's compact form that require a command to run one of some programs
//! named exactly (`program == "psql"`, `program in ["rm", "unlink"]`), entered under each of
//! those names.
//!
//! A Bash call over the shipped packs was a candidate of 75 rules that require programs, 45
//! of them such rules, and decoding each one's program tests (a list of names and its
//! filter) to ask them of the line's few programs cost more than the rest of the call's
//! evaluation. Looked up by the line's
//! programs instead, a rule none of whose names the line runs is skipped with nothing of it
//! decoded; rules whose tests are patterns, kinds or anything else stay out of the index and
//! are asked as before.
//!
//! Invariant: a rule is entered under every name its requirement's tests pass, and under
//! nothing else, so "no program of the line is one of its names" is exactly "no program of
//! the line passes its tests".

use std::cmp::Ordering;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::{Requirement, ShellNeed};
use crate::shared_bytes::SharedPart;
use crate::vocabulary::WordTest;

/// The index as the compact form keeps it: the names, sorted, in one text; where each ends
/// in it; where each one's rules end in `rules`; and the rules of every name, one after the
/// other, in order
#[derive(Serialize, Deserialize)]
struct Written<'a> {
    names: &'a str,
    name_ends: Vec<u32>,
    rule_ends: Vec<u32>,
    rules: Vec<u32>,
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
    /// Whether each rule, by its index, is entered
    entered: Vec<bool>,
}

/// The exact names `requirement`'s shell need is made of, when it is made of nothing else
fn names_of(requirement: &Requirement) -> Option<Vec<&str>> {
    let Some(ShellNeed::Programs(tests)) = &requirement.shell else {
        return None;
    };
    let mut names = Vec::new();
    for test in tests {
        match test {
            WordTest::Equals(name) => names.push(name.as_str()),
            WordTest::In(words) => names.extend(words.iter()),
            _ => return None,
        }
    }
    Some(names)
}

/// The bytes the compact form keeps of the index of `requirements`, each user rule's by its
/// index
pub(super) fn encode(requirements: &[Option<Requirement>]) -> Result<Vec<u8>, postcard::Error> {
    let mut entries: Vec<(&str, u32)> = Vec::new();
    for (rule, requirement) in requirements.iter().enumerate() {
        // A policy holds far fewer rules than `u32` counts (`bounds::MAX_RULES`).
        let Ok(rule) = u32::try_from(rule) else {
            break;
        };
        let names = requirement.as_ref().and_then(names_of).unwrap_or_default();
        entries.extend(names.into_iter().map(|name| (name, rule)));
    }
    entries.sort_unstable();
    entries.dedup();
    let mut written = Written {
        names: "",
        name_ends: Vec::new(),
        rule_ends: Vec::new(),
        rules: Vec::with_capacity(entries.len()),
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
            entered: vec![false; n_rules],
        };
        let n_names = index.name_ends.len();
        let whole = index.rule_ends.len() == n_names
            && (0..n_names).all(|at| index.rules_at(at).is_some())
            && (1..n_names).all(|at| index.name(at.saturating_sub(1)) < index.name(at));
        for &rule in whole.then_some(&index.rules)? {
            *index.entered.get_mut(usize::try_from(rule).ok()?)? = true;
        }
        Some(index)
    }

    /// Whether rule `rule` is entered: its requirement is made of exact names alone
    pub(super) fn is_entered(&self, rule: usize) -> bool {
        self.entered.get(rule).copied().unwrap_or(false)
    }

    /// The rules entered under `name`
    pub(super) fn rules_of(&self, name: &str) -> &[u32] {
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
        Action, Condition, Defaults, EventKind, GlobPattern, Rule, ShellCondition, Verb,
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
        ]
    }

    #[test]
    fn each_rule_of_exact_names_alone_is_found_by_every_name_its_tests_pass() {
        let requirements: Vec<Option<Requirement>> =
            conditions().iter().map(rule_requirement).collect();
        let index = ByName::decode(&encode(&requirements).unwrap(), requirements.len()).unwrap();
        let entered: Vec<bool> = (0..requirements.len())
            .map(|rule| index.is_entered(rule))
            .collect();
        assert_eq!(entered, [true, true, true, false, false, false, false]);
        // What the rules' own tests say, name by name.
        for name in [
            "rm",
            "shred",
            "curl",
            "wget",
            "terraform",
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
                        shell: Some(ShellNeed::Programs(tests)),
                        ..
                    }) if tests.iter().any(|test| test.is_match(name)) => Some(rule),
                    _ => None,
                })
                .collect();
            assert_eq!(index.rules_of(name), passing, "{name:?}");
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
    fn a_line_keeps_every_rule_of_a_program_it_may_run() {
        let rules: Vec<Rule> = [
            ("no-rm", named("rm")),
            ("no-shred", names(&["dd", "shred"])),
        ]
        .into_iter()
        .map(|(id, test)| guard(id, shell(program(test))))
        .collect();
        // As bash runs them: the program behind a wrapper, after a pipe, in a subshell; a
        // program only known at run time, code made at run time.
        let runs = [
            "sudo rm -rf /tmp/x",
            "env A=1 shred f",
            "ls | xargs rm",
            "(cd /tmp && dd if=/dev/zero of=f)",
            "\"$TOOL\" f",
            "eval \"$cmd\"",
            "timeout 5 rm f",
        ];
        // A line whose program is only known at run time asks (docs/shell.md).
        for (line, (whole, compact)) in runs.iter().zip(decide(&rules, &runs)) {
            assert_ne!(whole, Decision::None, "{line}");
            assert_eq!(compact, whole, "{line}");
        }
        let runs_neither = ["ls -la", "echo rm shred", "git rm f", "rmdir d"];
        for (line, decisions) in runs_neither.iter().zip(decide(&rules, &runs_neither)) {
            assert_eq!(decisions, (Decision::None, Decision::None), "{line}");
        }
    }

    #[test]
    fn a_rule_none_of_whose_names_runs_is_skipped_undecoded_unless_it_reads_an_argument() {
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
            1,
            "only `no-nc`'s, whose pattern reads the `command` every Bash call holds"
        );
        // `nc` is not run, but the argument the pattern reads is there.
        let resolution = bash("cat </dev/tcp/host/80");
        assert_eq!(resolution.decision, Decision::Block);
        assert_eq!(resolution.resolved_by.as_deref(), Some("no-nc"));
        assert_eq!(compact.decoded_requirements(), 0);
        assert_eq!(bash("rm x").resolved_by.as_deref(), Some("no-rm"));
    }
}
