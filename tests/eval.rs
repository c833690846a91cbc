//! `rulesc compile` and `rulesc eval` as docs/cli.md specifies them: exit code, stdout and stderr
//! per command, snapshotted. Fixtures live in `tests/eval/`; the commands run there so that
//! paths and rule ids stay relative.

use crate::common;

use std::path::Path;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/eval");

/// Runs `rulesc` in the fixture folder, feeding `stdin`
fn rulesc(args: &[&str], stdin: &str) -> (i32, String, String) {
    common::run(&mut common::command(FIXTURES, args), stdin)
}

/// Exit code, stdout and stderr under headers, as one snapshot
fn transcript(args: &[&str], stdin: &str) -> String {
    common::transcript(args, rulesc(args, stdin))
}

macro_rules! snapshot {
    ($name:literal, $args:expr) => {
        snapshot!($name, $args, "")
    };
    ($name:literal, $args:expr, $stdin:expr) => {
        insta::with_settings!({prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_snapshot!($name, transcript(&$args, $stdin));
        })
    };
}

#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: a failure fails the test"
)]
fn outcomes(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn eval_prints_the_outcome_of_cli_md() {
    let (code, stdout, _) = rulesc(&["eval", "p.rules", "--event", "cli-example.json"], "");
    assert_eq!(code, 0);
    let outcome = &outcomes(&stdout)[0];
    assert_eq!(outcome["decision"], "block");
    assert_eq!(outcome["resolved_by"], "no-rm");
    assert_eq!(outcome["evaluations"][0]["file"], "p.rules");
    assert_eq!(outcome["evaluations"][0]["line"], 3);
    assert_eq!(outcome["effects"][0]["key"], "tainted");
    snapshot!(
        "eval-cli-example",
        ["eval", "p.rules", "--event", "cli-example.json"]
    );
}

#[test]
fn eval_carries_metadata_over_a_json_lines_execution() {
    let (code, stdout, _) = rulesc(&["eval", "p.rules", "--event", "carry-over.jsonl"], "");
    assert_eq!(code, 0);
    let decisions: Vec<_> = outcomes(&stdout)
        .iter()
        .map(|o| o["decision"].clone())
        .collect();
    // curl is allowed until bash ran; the event's own metadata wins over what carried over.
    assert_eq!(decisions, ["none", "none", "none", "block", "none"]);
    snapshot!(
        "eval-carry-over",
        ["eval", "p.rules", "--event", "carry-over.jsonl"]
    );
}

#[test]
fn eval_reads_stdin_and_prints_human_text() {
    let events = std::fs::read_to_string(Path::new(FIXTURES).join("carry-over.jsonl")).unwrap();
    snapshot!(
        "eval-human",
        ["eval", "p.rules", "--event", "-", "--format", "human"],
        &events
    );
}

#[test]
fn eval_applies_host_limits_and_the_prelude() {
    snapshot!(
        "eval-default-limits",
        ["eval", "errors.rules", "--event", "limits.jsonl"]
    );
    let args = [
        "eval",
        "errors.rules",
        "--event",
        "limits.jsonl",
        "--format",
        "human",
        "--max-retries",
        "1",
        "--max-stop-requests",
        "2",
    ];
    let (code, stdout, _) = rulesc(&args, "");
    assert_eq!(code, 0);
    assert!(
        stdout.contains("on_error => forbid retry_limit_reached\n  resolved_by: host:max_retries")
    );
    assert!(stdout.contains("stop => allow_stop completed\n  resolved_by: host:max_stop_requests"));
    snapshot!("eval-lowered-limits", args);
}

#[test]
fn eval_rejects_malformed_events_with_one_line() {
    for (name, file) in [
        ("eval-unknown-event", "unknown-event.jsonl"),
        ("eval-wrong-type", "wrong-type.json"),
        ("eval-not-json", "not-json.json"),
        ("eval-missing-file", "missing.json"),
    ] {
        let (code, stdout, stderr) = rulesc(&["eval", "p.rules", "--event", file], "");
        assert_eq!(code, 2, "{file}");
        assert_eq!(stdout, "", "{file}: nothing is evaluated");
        assert_eq!(stderr.lines().count(), 1, "{file}: {stderr}");
        insta::with_settings!({prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_snapshot!(name, stderr);
        });
    }
    let (code, _, stderr) = rulesc(&["eval", "p.rules", "--event", "-"], "");
    assert_eq!(
        (code, stderr.as_str()),
        (2, "error: no event in the input\n")
    );
}

#[test]
fn compile_writes_versioned_json_that_evaluates_identically() {
    snapshot!("compile-stdout", ["compile", "p.rules"]);
    let folder = tempfile::tempdir().unwrap();
    let compiled = folder.path().join("p.json");
    let compiled = compiled.to_str().unwrap();
    let (code, stdout, stderr) =
        rulesc(&["compile", "p.rules", "errors.rules", "-o", compiled], "");
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(compiled).unwrap()).unwrap();
    assert_eq!(
        (json["format"].as_str(), json["version"].as_u64()),
        (Some("rulesc-policy"), Some(2))
    );
    for events in ["carry-over.jsonl", "limits.jsonl", "cli-example.json"] {
        let from_source = rulesc(&["eval", "p.rules", "errors.rules", "--event", events], "");
        let from_json = rulesc(&["eval", compiled, "--event", events], "");
        assert_eq!(from_source, from_json, "{events}");
        assert_eq!(from_json.0, 0);
    }
}

#[test]
fn compile_reports_policy_errors_and_unwritable_output() {
    for command in ["compile", "eval"] {
        let args = [command, "broken/verb.rules", "--event", "cli-example.json"];
        let args = if command == "compile" {
            &args[..2]
        } else {
            &args[..]
        };
        let (code, stdout, stderr) = rulesc(args, "");
        assert_eq!((code, stdout.as_str()), (1, ""), "{command}");
        assert!(stderr.contains("broken/verb.rules"), "{command}: {stderr}");
    }
    let (code, stdout, _) = rulesc(&["compile", "no-such.rules"], "");
    assert_eq!((code, stdout.as_str()), (2, ""));
    let (code, _, stderr) = rulesc(&["compile", "p.rules", "-o", "no-such-dir/p.json"], "");
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: cannot write `no-such-dir/p.json`"),
        "{stderr}"
    );
}

#[test]
fn all_over_an_empty_list_does_not_hold() {
    let args = ["eval", "quantifiers.rules", "--event", "quantifiers.jsonl"];
    let (code, stdout, _) = rulesc(&args, "");
    assert_eq!(code, 0);
    let decisions: Vec<_> = outcomes(&stdout)
        .iter()
        .map(|outcome| outcome["decision"].clone())
        .collect();
    assert_eq!(decisions, ["allow", "ask", "block"]);
    snapshot!("eval-empty-list", args);
}
