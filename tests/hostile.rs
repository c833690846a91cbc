//! Hostile input, on every run: each file of `tests/hostile/` goes through the command that
//! reads its kind (policies to `check`, compiled policies to `check`, events to `eval`, run
//! scripts to `run`, hook calls to `hook`), and inputs too large to keep in the repository
//! are made here. Whatever the input: exit 0, 1 or 2, never a panic, a reason on stderr
//! for exit 2, an answer in seconds, and output in proportion to the input.
//!
//! The same files seed the fuzz targets (`tests/fuzz_*.rs`).

#![expect(
    clippy::unwrap_used,
    reason = "helpers of tests: a fixture that cannot be made fails the test"
)]

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rulesc::{MAX_PATH_SEGMENTS, MAX_STRING_LEN};

/// The most a hostile input may take, debug build, shared machine
const SLOW: Duration = Duration::from_secs(30);

/// The largest input the command line reads (`src/input.rs`)
const MAX_INPUT_SIZE: u64 = 64 * 1024 * 1024;

fn hostile_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile")
}

/// The policy that events, scripts and hook calls are judged by: the shipped rules and a
/// rule that retries every error, so that a failing tool is retried as often as allowed
fn policy_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "rules") {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    std::fs::write(
        dir.path().join("retry-all.rules"),
        "@id(\"retry-all\")\non on_error retry\n",
    )
    .unwrap();
    dir
}

/// What a command did with a hostile input
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `rulesc args...` with `stdin`, checking what every hostile input must give
fn judge(what: &str, args: &[&str], stdin: &str) -> Ran {
    let start = Instant::now();
    let (code, stdout, stderr) = common::run(
        common::command(hostile_dir(), args).env("NO_COLOR", "1"),
        stdin,
    );
    let took = start.elapsed();
    assert!(took < SLOW, "{what}: took {took:?}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "{what}: {stderr}"
    );
    assert!(matches!(code, 0..=2), "{what}: exit {code}\n{stderr}");
    if code == 2 {
        assert!(!stderr.trim().is_empty(), "{what}: exit 2 without a reason");
    }
    Ran {
        code,
        stdout,
        stderr,
    }
}

/// The files of `tests/hostile/<kind>/`, as paths relative to `tests/hostile/`
fn files(kind: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(hostile_dir().join(kind))
        .unwrap()
        .map(|entry| format!("{kind}/{}", entry.unwrap().file_name().to_string_lossy()))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no hostile {kind}");
    names
}

fn size_of(relative: &str) -> usize {
    usize::try_from(
        std::fs::metadata(hostile_dir().join(relative))
            .unwrap()
            .len(),
    )
    .unwrap()
}

#[test]
fn hostile_policies_are_checked() {
    for file in files("policies") {
        let ran = judge(&file, &["check", &file], "");
        // Every report is shown in proportion: a snippet of a line at most 16,000 bytes long
        // per diagnostic (`src/diagnostics.rs`), however long the lines of the file.
        let n_reports = ran.stdout.matches(['E', 'W']).count().max(1);
        assert!(
            ran.stdout.len() <= 64 * 1024 * n_reports.min(size_of(&file)) + 100 * 1024,
            "{file}: {} bytes of report",
            ran.stdout.len()
        );
        let json = judge(&file, &["check", "--format", "json", &file], "");
        assert_eq!(json.code, ran.code, "{file}");
        assert!(
            serde_json::from_str::<serde_json::Value>(&json.stdout).is_ok(),
            "{file}"
        );
    }
}

#[test]
fn reports_on_very_long_lines_are_one_line_each() {
    // 4,000 broken rules on a line of 76 KB: each is reported on one line, with no snippet.
    let ran = judge("many-errors", &["check", "policies/many-errors.rules"], "");
    assert_eq!(ran.code, 1);
    assert!(ran.stdout.ends_with("4000 errors, 0 warnings\n"));
    assert!(!ran.stdout.contains('╭'), "no snippet of the long line");
    assert!(ran.stdout.len() < 400 * 1024, "{} bytes", ran.stdout.len());
}

#[test]
fn hostile_compiled_policies_are_refused_in_one_line() {
    for file in files("compiled") {
        let ran = judge(&file, &["check", &file], "");
        assert_eq!(ran.code, 2, "{file}: {}", ran.stdout);
        assert_eq!(ran.stderr.lines().count(), 1, "{file}: {}", ran.stderr);
    }
}

#[test]
fn hostile_events_are_evaluated_or_refused() {
    let policy = policy_dir();
    let policy = policy.path().to_str().unwrap();
    for file in files("events") {
        let ran = judge(&file, &["eval", policy, "--event", &file], "");
        if ran.code == 2 {
            assert_eq!(ran.stderr.lines().count(), 1, "{file}: {}", ran.stderr);
        }
    }
}

#[test]
fn hostile_run_scripts_run_or_are_refused() {
    let policy = policy_dir();
    let policy = policy.path().to_str().unwrap();
    for file in files("scripts") {
        let ran = judge(&file, &["run", policy, "--script", &file], "");
        if ran.code == 2 {
            assert_eq!(ran.stderr.lines().count(), 1, "{file}: {}", ran.stderr);
        }
    }
    let forever = judge(
        "retries-forever",
        &["run", policy, "--script", "scripts/retries-forever.json"],
        "",
    );
    assert!(
        forever
            .stderr
            .contains("`max_retries` is 18446744073709551615, more than 1000"),
        "{}",
        forever.stderr
    );
    // At the cap, a tool that always fails under a policy that retries everything is tried
    // 1,001 times, and the run ends.
    let retry_all = tempfile::tempdir().unwrap();
    let retry_all_rules = retry_all.path().join("retry-all.rules");
    std::fs::write(&retry_all_rules, "on on_error retry\n").unwrap();
    let at_cap = judge(
        "retries-at-the-cap",
        &[
            "run",
            retry_all_rules.to_str().unwrap(),
            "--script",
            "scripts/retries-at-the-cap.json",
        ],
        "",
    );
    assert_eq!(at_cap.code, 0);
    let report: serde_json::Value = serde_json::from_str(&at_cap.stdout).unwrap();
    assert_eq!(report["stop_reason"], "retry_limit_reached");
    assert_eq!(report["tool_calls"].as_array().unwrap().len(), 1_001);
}

#[test]
fn hostile_hook_calls_never_let_a_tool_through_by_failing() {
    let policy = policy_dir();
    let policy = policy.path().to_str().unwrap();
    let state = tempfile::tempdir().unwrap();
    let state = state.path().to_str().unwrap();
    for file in files("payloads") {
        let payload = std::fs::read_to_string(hostile_dir().join(&file)).unwrap();
        for host in ["claude", "gemini", "codex"] {
            let ran = judge(
                &file,
                &["hook", policy, "--host", host, "--state-dir", state],
                &payload,
            );
            // Exit 2 is the host's "deny"; exit 0 is an answer in the host's protocol.
            match ran.code {
                2 => assert!(ran.stdout.is_empty(), "{file}: {}", ran.stdout),
                0 => assert!(
                    serde_json::from_str::<serde_json::Value>(&ran.stdout).is_ok(),
                    "{file}: {}",
                    ran.stdout
                ),
                other => panic!("{file}: exit {other}"),
            }
        }
    }
}

/// A file of `size` bytes, all zero, made without writing them (a sparse file)
fn sparse_file(dir: &Path, name: &str, size: u64) -> PathBuf {
    let path = dir.join(name);
    std::fs::File::create(&path).unwrap().set_len(size).unwrap();
    path
}

#[test]
fn inputs_past_64_mib_are_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let policy = policy_dir();
    let policy = policy.path().to_str().unwrap();
    let past = MAX_INPUT_SIZE + 1;
    let rules = sparse_file(dir.path(), "big.rules", past);
    let json = sparse_file(dir.path(), "big.json", past);
    let events = sparse_file(dir.path(), "events.jsonl", past);
    let script = sparse_file(dir.path(), "script.json", past);
    let scenario = sparse_file(dir.path(), "big.scenario.json", past);
    let path = |path: &PathBuf| path.to_str().unwrap().to_owned();
    for args in [
        vec!["check".to_owned(), path(&rules)],
        vec!["check".to_owned(), path(&json)],
        vec![
            "eval".into(),
            policy.into(),
            "--event".into(),
            path(&events),
        ],
        vec![
            "run".into(),
            policy.into(),
            "--script".into(),
            path(&script),
        ],
        vec!["test".into(), policy.into(), path(&scenario)],
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let ran = judge(&args.join(" "), &args, "");
        assert_eq!(ran.code, 2, "{args:?}");
        assert!(
            ran.stderr
                .contains("larger than 67108864 bytes, the most rulesc reads"),
            "{args:?}: {}",
            ran.stderr
        );
    }
    // A hook call that large is refused too, which denies a tool call.
    let payload = "x".repeat(usize::try_from(past).unwrap());
    let ran = judge(
        "hook stdin",
        &[
            "hook",
            policy,
            "--host",
            "claude",
            "--state-dir",
            dir.path().to_str().unwrap(),
        ],
        &payload,
    );
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("larger than 67108864 bytes"),
        "{}",
        ran.stderr
    );
}

#[test]
fn an_input_of_64_mib_is_read_and_judged_by_the_language_s_bound() {
    let dir = tempfile::tempdir().unwrap();
    let rules = sparse_file(dir.path(), "big.rules", MAX_INPUT_SIZE);
    let ran = judge("64 MiB", &["check", rules.to_str().unwrap()], "");
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stdout
            .contains("E003 the file has 67108864 bytes, more than the limit of 8388608"),
        "{}",
        ran.stdout
    );
}

#[test]
fn a_one_megabyte_policy_checks_in_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for idx in 0..5_000 {
        text.push_str(&format!(
            "# rule {idx}: {}\n@id(\"r{idx}\")\non pre_tool_use when tool == \"t{idx}\" and arg.command ~ \"*x{idx}*\" block \"no\"\n",
            "-".repeat(160)
        ));
    }
    assert!(text.len() > 1024 * 1024);
    let path = dir.path().join("big.rules");
    std::fs::write(&path, text).unwrap();
    let ran = judge("1 MB policy", &["check", path.to_str().unwrap()], "");
    assert_eq!(ran.code, 0, "{}", ran.stdout);
}

#[test]
fn strings_and_paths_at_the_limit_compile() {
    let string = "x".repeat(MAX_STRING_LEN);
    let path = vec!["k"; MAX_PATH_SEGMENTS].join(".");
    let source = format!(
        "on pre_tool_use when arg.{path} == \"{string}\" block \"{string}\"\non stop set metadata.{path} = \"{string}\"\n"
    );
    let output = rulesc::check_source("at.rules", &source);
    assert!(output.policy.is_some(), "{}", output.diagnostics);
}

#[test]
fn source_files_up_to_8_mib() {
    let limit = rulesc_grammar_max_file_size();
    let line = "# padding to the size limit, a comment per line, nothing else\n";
    let mut at = line.repeat(limit / line.len());
    at.push_str(&"#".repeat(limit - at.len() - 1));
    at.push('\n');
    assert_eq!(at.len(), limit);
    let output = rulesc::check_source("at.rules", &at);
    assert!(
        output.diagnostics.diagnostics().is_empty(),
        "{}",
        output.diagnostics
    );
    at.push('\n');
    let output = rulesc::check_source("past.rules", &at);
    let codes = output.diagnostics.codes();
    assert_eq!(codes, ["E003"]);
}

/// The parser's size limit (`grammar/src/limits.rs`), as E003 states it
fn rulesc_grammar_max_file_size() -> usize {
    8 * 1024 * 1024
}

#[test]
fn json_nested_up_to_serde_s_limit() {
    // An event object holds `arg` one level down: 126 levels of `arg` are read, 127 are not.
    let event = |depth: usize| {
        format!(
            "{{\"event\": \"pre_tool_use\", \"arg\": {}{}}}",
            "[".repeat(depth),
            "]".repeat(depth)
        )
    };
    assert!(serde_json::from_str::<rulesc::Event>(&event(126)).is_ok());
    let err = serde_json::from_str::<rulesc::Event>(&event(127)).unwrap_err();
    assert!(
        err.to_string().contains("recursion limit exceeded"),
        "{err}"
    );
    let ran = judge(
        "deep-arg",
        &[
            "eval",
            "policies/glob-stars.rules",
            "--event",
            "events/deep-arg.json",
        ],
        "",
    );
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("recursion limit exceeded"),
        "{}",
        ran.stderr
    );
}

#[test]
fn counters_saturate_instead_of_wrapping() {
    // Three model calls of u64::MAX tokens each (then one without tools), and a clock that
    // advances u64::MAX ms a step.
    let ran = judge(
        "huge-clock-and-usage",
        &[
            "run",
            "policies/glob-stars.rules",
            "--script",
            "scripts/huge-clock-and-usage.json",
        ],
        "",
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let report: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(report["tokens"], serde_json::json!(u64::MAX));
    assert_eq!(report["steps"], serde_json::json!(4));
}

#[test]
fn snippets_show_lines_up_to_16_000_bytes() {
    // A line of exactly 16,000 bytes (its line end included) is drawn; one byte more is not.
    let source = |len: usize| {
        let head = "on pre_tool_use blok # ";
        format!("{head}{}\n", "x".repeat(len - head.len() - 1))
    };
    for (len, drawn) in [(16_000, true), (16_001, false)] {
        let output = rulesc::check_source("long.rules", &source(len));
        let text = output.diagnostics.render(rulesc::RenderOptions::plain());
        assert!(text.contains("E013"), "{text}");
        assert_eq!(text.contains('╭'), drawn, "a line of {len} bytes");
    }
}

#[test]
fn reasons_that_quote_the_input_stay_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let event = write("event.json", r#"{"event": "pre_tool\nuse"}"#);
    let script = write("script.json", r#"{"turns": [{"error": {"kind": "x\ny"}}]}"#);
    let compiled = write(
        "policy.json",
        r#"{"format": "rulesc-policy", "version": 1, "rules": [{"id": "a", "events": ["st\u001b[31mop"]}]}"#,
    );
    let policy = "policies/glob-stars.rules";
    for args in [
        vec!["eval", policy, "--event", &event],
        vec!["run", policy, "--script", &script],
        vec!["check", &compiled],
        vec!["explain", "E0\n1"],
    ] {
        let ran = judge(&args.join(" "), &args, "");
        assert_eq!(ran.code, 2, "{args:?}");
        assert_eq!(ran.stderr.lines().count(), 1, "{args:?}: {}", ran.stderr);
        assert!(!ran.stderr.contains('\u{1b}'), "{args:?}: {}", ran.stderr);
    }
    let ran = judge(
        "hook",
        &[
            "hook",
            policy,
            "--host",
            "claude",
            "--state-dir",
            dir.path().to_str().unwrap(),
        ],
        r#"{"session_id": "s", "hook_event_name": "Pre\nToolUse"}"#,
    );
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
}
