//! Scenario tests of `rulesc run`: each `tests/scenarios/<name>.json` is a run script with
//! an `expect` object (and optional extra `args`), run against `<name>.rules` by the real
//! binary.
//!
//! The harness first asserts every key of `expect` against the JSON report, then snapshots
//! the whole report in both formats (`--format json`, then `--format human`). The folder is
//! the checklist: every verb, every stop reason, the retry cap, the stop-request cap, time
//! limits on the scripted clock, and `ask` with both approver answers.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value as Json;

/// Runs `rulesc run` in the scenario folder, so rule ids carry bare file names
#[expect(clippy::expect_used, reason = "a test helper fails its test loudly")]
fn rulesc_run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .current_dir(dir)
        .arg("run")
        .args(args)
        .output()
        .expect("rulesc runs")
}

#[expect(clippy::expect_used, reason = "a test helper fails its test loudly")]
fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

#[test]
fn scenarios() {
    insta::glob!("scenarios/*.json", |path| {
        let dir = path.parent().expect("a scenario has a folder");
        let name = path
            .file_stem()
            .and_then(|stem| stem.to_str())
            .expect("a UTF-8 name");
        let script = path
            .file_name()
            .and_then(|file| file.to_str())
            .expect("a UTF-8 name");
        let rules = format!("{name}.rules");
        let scenario: Json =
            serde_json::from_str(&std::fs::read_to_string(path).expect("scenario is readable"))
                .expect("scenario is JSON");
        let extra: Vec<&str> = scenario["args"]
            .as_array()
            .map(|args| args.iter().filter_map(Json::as_str).collect())
            .unwrap_or_default();

        let mut args = vec![rules.as_str(), "--script", script];
        args.extend(&extra);
        let json_run = rulesc_run(dir, &[args.as_slice(), &["--format", "json"]].concat());
        assert_eq!(
            json_run.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&json_run.stderr)
        );
        let report: Json = serde_json::from_str(&stdout(&json_run)).expect("the report is JSON");
        let expect = scenario["expect"]
            .as_object()
            .expect("a scenario has `expect`");
        assert!(!expect.is_empty(), "{name}: `expect` says nothing");
        for (key, expected) in expect {
            assert_eq!(&report[key], expected, "{name}: `{key}`");
        }

        let human_run = rulesc_run(dir, &[args.as_slice(), &["--format", "human"]].concat());
        assert_eq!(human_run.status.code(), Some(0), "{name}");
        insta::with_settings!({
            prepend_module_to_snapshot => false,
            omit_expression => true,
            input_file => path,
        }, {
            insta::assert_snapshot!(format!(
                "--- json\n{}--- human\n{}",
                stdout(&json_run),
                stdout(&human_run)
            ));
        });
    });
}

#[test]
fn a_malformed_script_is_exit_2_with_one_line() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let rules = dir.path().join("p.rules");
    std::fs::write(&rules, "on stop request\n").expect("policy written");
    for (script, reason) in [
        (
            r#"{"turns": [{"error": {"kind": "oops"}}]}"#,
            "unknown error kind `oops`",
        ),
        (r#"{"approver": "perhaps"}"#, "unknown variant `perhaps`"),
        ("not json", "expected a JSON object"),
        (r#"{"turns": [}"#, "line 1 column"),
        ("[1, 2]", "expected a JSON object"),
    ] {
        let path = dir.path().join("script.json");
        std::fs::write(&path, script).expect("script written");
        let output = rulesc_run(dir.path(), &["p.rules", "--script", "script.json"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{script}: {stderr}");
        assert!(output.stdout.is_empty(), "{script}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(stderr.contains(reason), "{script}: {stderr}");
    }
}

#[test]
fn a_missing_script_is_exit_2() {
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::write(dir.path().join("p.rules"), "on stop request\n").expect("policy written");
    let output = rulesc_run(dir.path(), &["p.rules", "--script", "nowhere.json"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot read `nowhere.json`"), "{stderr}");
}

#[test]
fn the_max_retries_flag_wins_over_the_script() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let output = rulesc_run(
        &dir,
        &[
            "retry-cap.rules",
            "--script",
            "retry-cap.json",
            "--max-retries",
            "3",
        ],
    );
    let report: Json = serde_json::from_str(&stdout(&output)).expect("the report is JSON");
    // Three retries are allowed now, and the fourth turn answers.
    assert_eq!(report["status"], "completed");
    assert_eq!(report["errors"], 3);
}
