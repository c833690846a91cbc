//! The compiler's fixtures: one `.rules` file under `tests/ui/`, one snapshot.
//!
//! - `ui/errors/E012-slug.rules`: the file name starts with the codes it must produce
//!   (`E011-E012-slug.rules` for several) and its errors are exactly those (a lint may add
//!   warnings); the snapshot holds the human report (no colour, 100 columns) and the JSON
//!   of `rulesc check`.
//! - `ui/warnings/W001-slug.rules`: lints; the announced codes must be among its warnings
//!   (lints overlap), with no error; `W001-slug-near-miss.rules` must produce no error and
//!   not its code.
//! - `ui/valid/*.rules`: no error (the copies of docs/language.md's examples, `spec-*.rules`, no
//!   diagnostic at all); the snapshot is the checked policy in a stable text form, the
//!   result of each inline test (which must pass), and any warning.
//!
//! A fixture may hold several files of one policy set: a line `#@file name.rules` starts
//! the next file, of the project's layer; `#@user-file name.rules` starts a file of the
//! user's own policy (docs/layers.md). The first line of every fixture says what it tests; when it holds
//! `--host <name>`, the fixture is checked as `rulesc check --host <name>` would (the host
//! lints), and so are `explain` examples whose first line does.
//!
//! The coverage tests keep the table honest: every code has a fixture (and every lint a
//! near miss), every `explain` example produces (Wrong) or does not produce (Right) its code.

#![expect(
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "a fixture that cannot be read or rendered should stop the test"
)]

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use rulesc::{
    codes, Action, CheckOutput, Condition, EvalOptions, Event, Host, Literal, Mode, Operand,
    Policy, RenderOptions, Rule, Severity, SourceBytes, TestCase,
};

/// Snapshots named `ui@<folder>__<file>.snap`, headed by their fixture
fn settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}

/// The files of a fixture, split at `#@file` lines; paths are relative to `tests/`
fn fixture_sources(path: &Path) -> Vec<SourceBytes> {
    let bytes = std::fs::read(path).expect("fixture is readable");
    let relative = path
        .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"))
        .expect("fixture under tests/")
        .to_string_lossy()
        .replace('\\', "/");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return vec![SourceBytes {
            name,
            path: relative,
            bytes,
            layer: rulesc::Layer::Project,
        }];
    };
    if !text.contains("\n#@file ") && !text.contains("\n#@user-file ") {
        return vec![SourceBytes {
            name,
            path: relative,
            bytes,
            layer: rulesc::Layer::Project,
        }];
    }
    let folder = relative.trim_end_matches(".rules");
    let mut files: Vec<SourceBytes> = Vec::new();
    for line in text.split_inclusive('\n') {
        let started = [
            ("#@file ", rulesc::Layer::Project),
            ("#@user-file ", rulesc::Layer::User),
        ]
        .into_iter()
        .find_map(|(marker, layer)| Some((line.strip_prefix(marker)?, layer)));
        if let Some((file_name, layer)) = started {
            let file_name = file_name.trim();
            files.push(SourceBytes {
                name: file_name.to_owned(),
                path: format!("{folder}/{file_name}"),
                bytes: Vec::new(),
                layer,
            });
        } else if let Some(file) = files.last_mut() {
            file.bytes.extend_from_slice(line.as_bytes());
        }
    }
    files
}

/// The host the first line of `text` names with `--host <name>`, if any
fn host_of(text: &str) -> Option<Host> {
    let first = text.lines().next()?;
    let (_, rest) = first.split_once("--host ")?;
    let name = rest.split(|ch: char| !ch.is_ascii_alphanumeric()).next()?;
    Some(Host::from_flag(name).expect("a known host"))
}

/// Checks one source as `rulesc check [--host]` would
fn check_text(name: &str, text: &str) -> CheckOutput {
    rulesc::check_sources_for(
        vec![SourceBytes {
            name: name.to_owned(),
            path: name.to_owned(),
            bytes: text.as_bytes().to_vec(),
            layer: rulesc::Layer::Project,
        }],
        host_of(text),
    )
}

/// The codes a fixture's name announces: `E011-E012-slug.rules` gives `E011`, `E012`
fn announced_codes(path: &Path) -> BTreeSet<String> {
    let stem = path.file_stem().unwrap().to_string_lossy();
    stem.split('-')
        .take_while(|part| {
            part.len() == 4
                && (part.starts_with('E') || part.starts_with('W'))
                && part[1..].chars().all(|ch| ch.is_ascii_digit())
        })
        .map(str::to_owned)
        .collect()
}

fn is_near_miss(path: &Path) -> bool {
    path.file_stem()
        .unwrap()
        .to_string_lossy()
        .ends_with("-near-miss")
}

/// The human report and the JSON, as `rulesc check` prints them off a terminal
fn render_diagnostics(output: &CheckOutput) -> String {
    format!(
        "── human ──\n{}\n── json ──\n{}\n",
        output.diagnostics.render(RenderOptions::plain()),
        output.diagnostics.to_json()
    )
}

/// No report opens a section it leaves empty: a line that is only a heading (`Advice:`,
/// `help:`) with nothing after it
fn assert_no_empty_section(human: &str) {
    for line in human.lines() {
        let trimmed = line.trim();
        let is_bare_heading = trimmed.strip_suffix(':').is_some_and(|heading| {
            !heading.is_empty() && heading.chars().all(|c| c.is_ascii_alphabetic())
        });
        assert!(!is_bare_heading, "empty section `{trimmed}` in\n{human}");
    }
}

/// Every report's `╭─[path:line:col]` header agrees with the JSON place of its diagnostic
fn assert_headers_match_json(output: &CheckOutput) {
    let files = output.diagnostics.files();
    for diagnostic in output.diagnostics.diagnostics() {
        let alone = rulesc::Diagnostics::new(files.to_vec(), vec![diagnostic.clone()]);
        let human = alone.render(RenderOptions::plain());
        let header = human
            .lines()
            .find_map(|line| line.trim_start().strip_prefix("╭─["))
            .and_then(|rest| rest.strip_suffix(']'))
            .expect("every report has a snippet header");
        let location = diagnostic.location(files).unwrap();
        let expected = format!(
            "{}:{}:{}",
            location.path, location.start.line, location.start.column
        );
        assert_eq!(header, expected, "header and JSON disagree in\n{human}");
    }
}

#[test]
fn ui() {
    let settings = settings();
    settings.bind(|| {
        insta::glob!("ui/**/*.rules", |path| {
            let sources = fixture_sources(path);
            let host = sources
                .first()
                .and_then(|file| host_of(&String::from_utf8_lossy(&file.bytes)));
            let output = rulesc::check_sources_for(sources, host);
            let folder = path.parent().unwrap().file_name().unwrap();
            let stem = path.file_stem().unwrap().to_string_lossy();
            if folder == "valid" && !stem.starts_with("spec-") {
                assert!(
                    output.policy.is_some(),
                    "{} must compile:\n{}",
                    path.display(),
                    output.diagnostics
                );
            } else if folder == "valid" {
                assert!(
                    output.diagnostics.diagnostics().is_empty(),
                    "{} must check clean:\n{}",
                    path.display(),
                    output.diagnostics
                );
            } else if is_near_miss(path) {
                let announced = announced_codes(path);
                assert!(
                    output
                        .diagnostics
                        .diagnostics()
                        .iter()
                        .all(|diag| !diag.is_error() && !announced.contains(diag.code.id)),
                    "{} must have no error and none of {announced:?}:\n{}",
                    path.display(),
                    output.diagnostics
                );
            } else {
                let announced = announced_codes(path);
                assert!(!announced.is_empty(), "{} names no code", path.display());
                let codes_of = |severity: Severity| -> BTreeSet<String> {
                    output
                        .diagnostics
                        .diagnostics()
                        .iter()
                        .filter(|diag| diag.severity() == severity)
                        .map(|diag| diag.code.id.to_owned())
                        .collect()
                };
                if folder == "errors" {
                    // Judged on errors only, so a new lint does not break error fixtures.
                    assert_eq!(
                        codes_of(Severity::Error),
                        announced,
                        "{} must produce exactly its errors:\n{}",
                        path.display(),
                        output.diagnostics
                    );
                } else {
                    // Lints overlap (a key set but never read is also in W001's fixture), so
                    // a lint fixture needs its own codes among its warnings, and no error.
                    let warnings = codes_of(Severity::Warning);
                    assert!(
                        codes_of(Severity::Error).is_empty() && announced.is_subset(&warnings),
                        "{} must produce {announced:?} and no error:\n{}",
                        path.display(),
                        output.diagnostics
                    );
                }
                assert_headers_match_json(&output);
            }
            assert_no_empty_section(&output.diagnostics.render(RenderOptions::plain()));
            let snapshot = if folder == "valid" {
                let mut text = render_policy(output.policy.as_ref().unwrap(), &output.tests);
                if !output.diagnostics.diagnostics().is_empty() {
                    text.push_str("\n── warnings ──\n");
                    text.push_str(&output.diagnostics.render(RenderOptions::plain()));
                }
                text
            } else {
                render_diagnostics(&output)
            };
            insta::assert_snapshot!(snapshot);
        });
    });
}

#[test]
fn a_file_too_large_is_refused_unparsed() {
    let line = "on before_step when steps >= 20 forbid\n";
    let text = line.repeat(rulesc_grammar_limit() / line.len() + 1);
    let output = rulesc::check_source("huge.rules", &text);
    let codes = output.diagnostics.codes();
    assert_eq!(codes, ["E003"]);
    settings().bind(|| {
        insta::assert_snapshot!(
            "ui@errors__E003-file-too-large.rules",
            render_diagnostics(&output)
        );
    });
}

#[test]
fn a_policy_set_with_too_many_rules_is_refused() {
    // `MAX_RULES` rules are accepted, over two files; the one past it is the one shown.
    let rules = |count: usize| "on stop request\n".repeat(count);
    let files = |second: usize| {
        vec![
            SourceBytes {
                name: "a.rules".to_owned(),
                path: "a.rules".to_owned(),
                bytes: rules(rulesc::MAX_RULES - 4_000).into_bytes(),
                layer: rulesc::Layer::Project,
            },
            SourceBytes {
                name: "b.rules".to_owned(),
                path: "b.rules".to_owned(),
                bytes: rules(second).into_bytes(),
                layer: rulesc::Layer::Project,
            },
        ]
    };
    let at = rulesc::check_sources(files(4_000));
    assert!(at.policy.is_some(), "{}", at.diagnostics.errors_only());
    let output = rulesc::check_sources(files(4_002));
    let codes = output.diagnostics.codes();
    assert_eq!(codes, ["E038"]);
    let location = output.diagnostics.diagnostics()[0]
        .location(output.diagnostics.files())
        .unwrap();
    assert_eq!(
        (location.path.as_str(), location.start.line),
        ("b.rules", 4_001)
    );
    settings().bind(|| {
        insta::assert_snapshot!(
            "ui@errors__E038-too-many-rules.rules",
            render_diagnostics(&output)
        );
    });
}

/// The size limit of the parser, as E003's explanation states it (8 MiB)
fn rulesc_grammar_limit() -> usize {
    8 * 1024 * 1024
}

/// The fixtures' file names under `tests/ui/{errors,warnings}`
fn fixture_names() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    ["errors", "warnings"]
        .iter()
        .flat_map(|folder| std::fs::read_dir(root.join(folder)).unwrap())
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// Codes whose fixture is generated by a test rather than a file, or that no policy can
/// produce: E003 needs a file over 8 MiB (`a_file_too_large_is_refused_unparsed`), E038
/// over `MAX_RULES` rules (`a_policy_set_with_too_many_rules_is_refused`); E037 is retired
/// (docs/diagnostics.md), no longer reported
const NO_FIXTURE_FILE: [&str; 3] = ["E003", "E037", "E038"];

#[test]
fn every_code_has_a_fixture_and_every_lint_a_near_miss() {
    let names = fixture_names();
    for code in codes::ALL {
        if NO_FIXTURE_FILE.contains(&code.id) {
            continue;
        }
        assert!(
            names
                .iter()
                .any(|name| name.starts_with(&format!("{}-", code.id))),
            "{} has no fixture under tests/ui",
            code.id
        );
        if code.id.starts_with('W') {
            assert!(
                names
                    .iter()
                    .any(|name| name.starts_with(code.id) && name.ends_with("-near-miss.rules")),
                "{} has no near-miss fixture",
                code.id
            );
        }
    }
}

/// Codes whose Wrong example describes the input instead of being it: deep nesting, a huge
/// file, bytes that are not UTF-8, a 4 KiB string, too many rules, a retired code, two
/// layers of files (their fixtures are the real inputs)
const DESCRIBED_WRONG: [&str; 7] = ["E002", "E003", "E004", "E024", "E037", "E038", "E066"];

#[test]
fn explain_examples_produce_their_code_when_wrong_and_nothing_when_right() {
    for code in codes::ALL {
        // Right examples are judged on errors and their own code: an unrelated lint may
        // still have something to say about a two-line example.
        let right = check_text("right.rules", code.right);
        assert!(
            right
                .diagnostics
                .diagnostics()
                .iter()
                .all(|diag| !diag.is_error() && diag.code.id != code.id),
            "{}'s Right example must have no error and not its code:\n{}",
            code.id,
            right.diagnostics
        );
        if DESCRIBED_WRONG.contains(&code.id) {
            continue;
        }
        let wrong = check_text("wrong.rules", code.wrong);
        assert!(
            wrong
                .diagnostics
                .diagnostics()
                .iter()
                .any(|diag| diag.code.id == code.id),
            "{}'s Wrong example must produce it:\n{}",
            code.id,
            wrong.diagnostics
        );
    }
}

#[test]
fn explain_texts_have_the_four_sections() {
    for code in codes::ALL {
        let text = code.explain();
        for section in [
            "## What it flags",
            "## Why it matters",
            "## Wrong",
            "## Right",
        ] {
            assert!(text.contains(section), "{} lacks {section}", code.id);
        }
    }
}

// ---------------------------------------------------------------------------------------
// The stable text form of a checked policy

/// The policy's defaults, rules and inline tests (with each step's actual outcome)
fn render_policy(policy: &Policy, tests: &[TestCase]) -> String {
    let mut out = String::new();
    let defaults = policy.defaults();
    let name = |verb: Option<rulesc::Verb>| verb.map_or("none", |verb| verb.name());
    writeln!(
        out,
        "defaults: pre_tool_use {}, on_error {}",
        name(defaults.pre_tool_use),
        name(defaults.on_error)
    )
    .unwrap();
    for rule in policy.user_rules() {
        out.push('\n');
        render_rule(&mut out, rule, policy.mode(&rule.id));
    }
    for test in tests {
        out.push('\n');
        render_test(&mut out, policy, test);
    }
    out
}

fn render_rule(out: &mut String, rule: &Rule, mode: Mode) {
    let origin = rule.origin.as_ref().map_or(String::new(), |origin| {
        format!(" ({}:{}:{})", origin.file, origin.line, origin.column)
    });
    writeln!(out, "rule {}{origin}", rule.id).unwrap();
    let events: Vec<&str> = rule.events.iter().map(|event| event.name()).collect();
    writeln!(out, "  on {}", events.join(", ")).unwrap();
    if rule.priority != 0 {
        writeln!(out, "  priority {}", rule.priority).unwrap();
    }
    if mode != Mode::Enforce {
        writeln!(out, "  mode {mode}").unwrap();
    }
    if let Some(condition) = &rule.condition {
        writeln!(out, "  when {}", render_condition(condition)).unwrap();
    }
    match &rule.action {
        Action::Decide {
            verb,
            stop_reason,
            message,
        } => {
            write!(out, "  then {verb}").unwrap();
            if let Some(reason) = stop_reason {
                write!(out, " {reason}").unwrap();
            }
            if let Some(message) = message {
                write!(out, " {message:?}").unwrap();
            }
            out.push('\n');
        }
        Action::Set { key, value } => writeln!(out, "  then set metadata{key} = {value}").unwrap(),
        Action::Compute { key, value } => {
            writeln!(out, "  then set metadata{key} = {}", render_operand(value)).unwrap();
        }
        Action::Label { label, path } => {
            writeln!(out, "  then label result{path:?} {label:?}").unwrap()
        }
    }
}

/// An operand with every operation parenthesized
fn render_operand(operand: &Operand) -> String {
    match operand {
        Operand::Field(field) => field.to_string(),
        Operand::Literal(literal) => literal.to_string(),
        Operand::Arith(arith) => format!(
            "({} {} {})",
            render_operand(&arith.left),
            arith.op.symbol(),
            render_operand(&arith.right)
        ),
    }
}

/// A condition with every group parenthesized, so the structure reads unambiguously
fn render_condition(condition: &Condition) -> String {
    let group = |parts: &[Condition], word: &str, empty: &str| {
        if parts.is_empty() {
            empty.to_owned()
        } else {
            let parts: Vec<String> = parts.iter().map(render_condition).collect();
            format!("({})", parts.join(&format!(" {word} ")))
        }
    };
    match condition {
        Condition::All(parts) => group(parts, "and", "true"),
        Condition::Any(parts) => group(parts, "or", "false"),
        Condition::Not(inner) => format!("not {}", render_condition(inner)),
        Condition::Flag(field) => field.to_string(),
        Condition::Compare { left, op, right } => {
            format!(
                "{} {} {}",
                render_operand(left),
                op.symbol(),
                render_operand(right)
            )
        }
        Condition::Quantified {
            quantifier,
            condition,
        } => format!("{} {}", quantifier.word(), render_condition(condition)),
        Condition::Glob { field, pattern } => format!("{field} ~ {:?}", pattern.as_str()),
        Condition::Regex { field, pattern } => format!("{field} =~ {:?}", pattern.as_str()),
        Condition::In { field, list } => format!("{field} in {}", Literal::List(list.clone())),
        Condition::Contains { field, needle } => format!("{field} contains {needle}"),
        Condition::From { field, label } => format!("{field} from {label:?}"),
        // The compiled JSON form: the shell vocabulary has no text form of its own.
        Condition::Shell { .. } | Condition::Trace(_) => serde_json::to_string(condition).unwrap(),
    }
}

/// A test's steps: the event (fields that are set), what is expected, what happened
fn render_test(out: &mut String, policy: &Policy, test: &TestCase) {
    writeln!(out, "test {:?} ({}:{})", test.name, test.file, test.line).unwrap();
    let mut metadata = serde_json::Map::new();
    let mut trace = rulesc::TraceState::default();
    for (event, expectation) in &test.steps {
        let mut event: Event = event.clone();
        for (key, value) in &metadata {
            event
                .metadata
                .entry(key.clone())
                .or_insert_with(|| value.clone());
        }
        let outcome = policy.evaluate_with(&event, EvalOptions::default().trace(&mut trace));
        metadata = outcome.metadata.clone();
        writeln!(out, "  event {}", set_fields(&event)).unwrap();
        let mut expected = expectation.decision.name().to_owned();
        if let Some(reason) = expectation.stop_reason {
            write!(expected, " {reason}").unwrap();
        }
        if let Some(by) = &expectation.by {
            write!(expected, " by {by:?}").unwrap();
        }
        let verdict = if expectation.is_met_by(&outcome) {
            "passes".to_owned()
        } else {
            format!(
                "FAILS: got {} {:?} by {:?}",
                outcome.resolution.decision.name(),
                outcome.resolution.stop_reason,
                outcome.resolution.resolved_by
            )
        };
        writeln!(out, "  expect {expected}: {verdict}").unwrap();
        assert!(
            expectation.is_met_by(&outcome),
            "test {:?} of a valid fixture must pass: {verdict}",
            test.name
        );
    }
}

/// The event as compact JSON, without the fields a fresh event of its kind has as well
fn set_fields(event: &Event) -> String {
    let fresh = serde_json::to_value(Event::new(event.kind)).unwrap();
    let serde_json::Value::Object(mut map) = serde_json::to_value(event).unwrap() else {
        unreachable!("an event serializes to an object")
    };
    map.retain(|key, value| key == "event" || fresh.get(key) != Some(value));
    rulesc::SortedJson(&serde_json::Value::Object(map)).to_string()
}
