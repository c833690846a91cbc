//! `rulesc schema`: every schema is valid JSON Schema, the real documents of every command
//! (run on the shipped rules and the test fixtures) validate against it, a document of the
//! wrong shape does not, and docs/schemas/ holds exactly what the command prints.
//!
//! `RULESC_BLESS=1 cargo test --test integration schema::` rewrites docs/schemas/ from the command.

#![expect(
    clippy::unwrap_used,
    reason = "helpers of tests: a fixture that cannot be read or run should fail the test"
)]

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::{json, Value as Json};

/// The documents docs/cli.md names, with the kind each has in `rulesc schema`
const KINDS: [&str; 10] = [
    "event",
    "outcome",
    "check",
    "test",
    "script",
    "scenario",
    "run",
    "policy",
    "hook-input",
    "hook-answer",
];

fn schema(kind: &str) -> Json {
    let (code, stdout, stderr) = common::rulesc(".", &["schema", kind]);
    assert_eq!(code, 0, "{kind}: {stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// Validates `documents` against the kind's schema, naming every error
fn assert_valid(kind: &str, documents: &[(String, Json)]) {
    assert!(!documents.is_empty(), "no {kind} document to validate");
    let validator = jsonschema::validator_for(&schema(kind)).unwrap();
    for (name, document) in documents {
        let errors: Vec<String> = validator
            .iter_errors(document)
            .map(|err| format!("{} at {}", err, err.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{kind} `{name}`: {errors:#?}");
    }
}

fn files(dir: &str, suffix: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().ends_with(suffix))
        .collect();
    found.sort();
    found
}

fn read_json(path: &Path) -> Json {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Runs `rulesc args` and reads its stdout as JSON, one document per line when `lines`
fn output(args: &[&str], lines: bool) -> Vec<(String, Json)> {
    let (code, stdout, stderr) = common::rulesc(".", args);
    assert!(code == 0 || code == 1, "{args:?}: exit {code}: {stderr}");
    let name = args.join(" ");
    if lines {
        stdout
            .lines()
            .map(|line| (name.clone(), serde_json::from_str(line).unwrap()))
            .collect()
    } else {
        vec![(name, serde_json::from_str(&stdout).unwrap())]
    }
}

#[test]
fn the_list_names_every_document_and_docs_hold_each_schema() {
    let (code, stdout, _) = common::rulesc(".", &["schema", "--list"]);
    assert_eq!(code, 0);
    let listed: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    for kind in KINDS {
        assert!(
            listed.contains(&kind),
            "`--list` does not name `{kind}`: {listed:?}"
        );
    }
    let bless = std::env::var_os("RULESC_BLESS").is_some();
    for kind in listed {
        let (_, printed, _) = common::rulesc(".", &["schema", kind]);
        let path = PathBuf::from(format!("docs/schemas/{kind}.json"));
        if bless {
            std::fs::write(&path, &printed).unwrap();
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == printed,
            "`{}` differs from `rulesc schema {kind}`; run `RULESC_BLESS=1 cargo test --test integration schema::`",
            path.display()
        );
    }
}

#[test]
fn every_schema_is_valid_json_schema() {
    for kind in KINDS {
        let schema = schema(kind);
        assert!(jsonschema::meta::is_valid(&schema), "{kind}");
        assert!(schema.get("$schema").is_some(), "{kind} names no draft");
    }
}

#[test]
fn events_and_outcomes_of_eval_validate() {
    let mut events = Vec::new();
    let mut outcomes = Vec::new();
    for path in [
        "tests/eval/cli-example.json",
        "tests/eval/carry-over.jsonl",
        "tests/eval/limits.jsonl",
    ] {
        for (line_idx, line) in std::fs::read_to_string(path).unwrap().lines().enumerate() {
            if !line.trim().is_empty() && !path.ends_with(".json") {
                events.push((
                    format!("{path}:{}", line_idx + 1),
                    serde_json::from_str(line).unwrap(),
                ));
            }
        }
        if path.ends_with(".json") {
            events.push((path.to_owned(), read_json(Path::new(path))));
        }
        outcomes.extend(output(
            &["eval", "tests/eval/p.rules", "rules/", "--event", path],
            true,
        ));
    }
    assert_valid("event", &events);
    assert_valid("outcome", &outcomes);
}

#[test]
fn check_reports_validate() {
    let mut reports = output(&["check", "--format", "json", "rules/"], false);
    for dir in ["tests/ui/errors", "tests/ui/warnings"] {
        for path in files(dir, ".rules").into_iter().step_by(7) {
            reports.extend(output(
                &["check", "--format", "json", path.to_str().unwrap()],
                false,
            ));
        }
    }
    assert!(reports.iter().any(|(_, report)| report["errors"] != 0));
    assert_valid("check", &reports);
}

#[test]
fn test_reports_validate() {
    let mut reports = output(&["test", "--format", "json", "rules/"], false);
    reports.extend(output(
        &["test", "--format", "json", "tests/test_command/failing"],
        false,
    ));
    assert!(reports.iter().any(|(_, report)| report["failed"] != 0));
    assert_valid("test", &reports);
}

#[test]
fn scripts_scenarios_and_run_reports_validate() {
    let mut scripts = Vec::new();
    let mut scenarios = Vec::new();
    let mut reports = Vec::new();
    for path in files("tests/scenarios", ".json") {
        let mut scenario = read_json(&path);
        scenarios.push((path.display().to_string(), scenario.clone()));
        scenario.as_object_mut().unwrap().remove("expect");
        scripts.push((path.display().to_string(), scenario));
        let rules = path.with_extension("rules");
        reports.extend(output(
            &[
                "run",
                rules.to_str().unwrap(),
                "--script",
                path.to_str().unwrap(),
            ],
            false,
        ));
    }
    for path in files("rules/scenarios", ".scenario.json") {
        scenarios.push((path.display().to_string(), read_json(&path)));
        reports.extend(output(
            &["run", "rules/", "--script", path.to_str().unwrap()],
            false,
        ));
    }
    assert_valid("script", &scripts);
    assert_valid("scenario", &scenarios);
    assert_valid("run", &reports);
}

#[test]
fn replay_reports_validate() {
    let reports = output(
        &[
            "replay",
            "--format",
            "json",
            "tests/replay/guard.rules",
            "tests/replay/claude-session.jsonl",
            "tests/replay/codex-rollout.jsonl",
            "tests/replay/rulesc-events.jsonl",
            "tests/replay/damaged.jsonl",
        ],
        false,
    );
    assert!(reports
        .iter()
        .any(|(_, report)| report["warnings"] != json!([])));
    assert_valid("replay", &reports);
    let diffs = output(
        &[
            "replay",
            "--format",
            "json",
            "--diff",
            "tests/replay/guard.rules",
            "tests/replay/guard-v2.rules",
            "tests/replay/claude-session.jsonl",
            "tests/replay/codex-rollout.jsonl",
            "tests/replay/rulesc-events.jsonl",
            "tests/replay/damaged.jsonl",
        ],
        false,
    );
    assert!(diffs.iter().any(|(_, diff)| diff["sessions"] != json!([])));
    assert_valid("replay-diff", &diffs);
}

#[test]
fn compiled_policies_validate() {
    let mut policies = output(&["compile", "rules/"], false);
    policies.extend(output(&["compile", "tests/eval/p.rules"], false));
    assert_valid("policy", &policies);
}

#[test]
fn hook_payloads_and_answers_validate() {
    let mut payloads = Vec::new();
    let mut answers = Vec::new();
    for host in ["claude", "codex", "gemini"] {
        for path in files(&format!("tests/hook/payloads/{host}"), ".json") {
            let text = std::fs::read_to_string(&path).unwrap();
            let state = tempfile::tempdir().unwrap();
            let mut command = common::command(
                ".",
                &[
                    "hook",
                    "tests/hook/fixtures.rules",
                    "--host",
                    host,
                    "--state-dir",
                    state.path().to_str().unwrap(),
                ],
            );
            let (code, stdout, _) = common::run(&mut command, &text);
            let name = path.display().to_string();
            // A payload the hook refuses (exit 2) is malformed on purpose.
            if code == 0 {
                payloads.push((name.clone(), serde_json::from_str(&text).unwrap()));
            }
            if !stdout.trim().is_empty() {
                answers.push((name, serde_json::from_str::<Json>(&stdout).unwrap()));
            }
        }
    }
    assert!(payloads.len() > 20, "{}", payloads.len());
    assert!(answers
        .iter()
        .any(|(_, answer)| answer.get("hookSpecificOutput").is_some()));
    assert!(answers
        .iter()
        .any(|(_, answer)| answer["decision"] == "deny"));
    assert_valid("hook-input", &payloads);
    assert_valid("hook-answer", &answers);
}

/// docs/cli.md lets keys be added to every document, so no object of a schema refuses keys
/// it does not name; the hook answer's alone do, as the hosts hold it to its keys
#[test]
fn objects_allow_keys_they_do_not_name() {
    fn closed(value: &Json) -> bool {
        match value {
            Json::Object(map) => {
                ["additionalProperties", "unevaluatedProperties"]
                    .iter()
                    .any(|key| map.get(*key) == Some(&Json::Bool(false)))
                    || map.values().any(closed)
            }
            Json::Array(items) => items.iter().any(closed),
            _ => false,
        }
    }
    let (_, stdout, _) = common::rulesc(".", &["schema", "--list"]);
    let kinds: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(kinds.len() > KINDS.len(), "{kinds:?}");
    for kind in kinds {
        assert_eq!(
            closed(&schema(kind)),
            kind == "hook-answer",
            "{kind}: whether it refuses keys it does not name"
        );
    }
}

/// A schema that accepted anything would pass every test above
#[test]
fn documents_of_the_wrong_shape_are_refused() {
    let wrong = [
        ("event", json!({"steps": 3})),
        ("event", json!({"event": "pre_tool_use", "steps": -1})),
        ("event", json!({"event": "before_lunch"})),
        (
            "outcome",
            json!({"event": "stop", "decision": "maybe", "evaluations": [],
            "effects": [], "metadata": {}}),
        ),
        (
            "check",
            json!({"diagnostics": [{"code": 3}], "errors": 1, "warnings": 0}),
        ),
        ("test", json!({"tests": [], "passed": "all", "failed": 0})),
        ("script", json!({"turns": [{"finish_reason": "bored"}]})),
        ("scenario", json!({"turns": []})),
        ("run", json!({"status": "done", "stop_reason": "completed"})),
        (
            "policy",
            json!({"format": "rulesc-policy", "version": 3, "rules": []}),
        ),
        (
            "hook-input",
            json!({"hook_event_name": "PreToolUse", "tool_input": "ls"}),
        ),
        (
            "hook-answer",
            json!({"decision": "deny", "suppressOutput": true}),
        ),
        (
            "hook-answer",
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "defer"}}),
        ),
    ];
    for (kind, document) in wrong {
        let validator = jsonschema::validator_for(&schema(kind)).unwrap();
        assert!(!validator.is_valid(&document), "{kind} accepts {document}");
    }
}

#[test]
fn an_unknown_kind_is_a_usage_error() {
    let (code, stdout, stderr) = common::rulesc(".", &["schema", "evnt"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(
        stderr.starts_with("error: unknown document `evnt`"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
}
