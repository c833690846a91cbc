//! `rulesc replay` over the sample traces of `tests/replay/`: each held to something that
//! does not share its code path — the hook binary fed the same calls one by one, `rulesc
//! eval` over the same events — plus the report's snapshots, damaged input and `--diff`.

#![expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "tests: a failed spawn or a bad fixture fails the test"
)]

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::{json, Value as Json};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sample(name: &str) -> String {
    format!("tests/replay/{name}")
}

/// `rulesc replay args...` in the repository root: exit code, stdout, stderr
fn replay(args: &[&str]) -> (i32, String, String) {
    common::rulesc(root(), &with_command(args))
}

/// `replay` then `args`, as the transcript of a snapshot shows them
fn with_command<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec!["replay"];
    all.extend_from_slice(args);
    all
}

/// The JSON report of replaying `trace` with `policy`
fn report(policy: &str, trace: &str) -> Json {
    let (code, stdout, stderr) = replay(&[&sample(policy), &sample(trace), "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// `(tool, decision)` of every enforced tool-call finding of the report
fn enforced_tool_decisions(report: &Json) -> Vec<(String, String)> {
    report["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|session| session["findings"].as_array().unwrap().clone())
        .filter(|finding| finding["mode"] == "enforce" && finding["event"] == "pre_tool_use")
        .map(|finding| {
            (
                finding["tool"].as_str().unwrap().to_owned(),
                finding["decision"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Runs `rulesc hook` once per payload against one state folder and returns what it said
/// about each tool call: `(tool, "block" | "ask")` for each deny or ask
fn hook_decisions(policy: &str, host: &str, payloads: &[Json]) -> Vec<(String, String)> {
    let state = tempfile::tempdir().unwrap();
    let mut decisions = Vec::new();
    let policy = sample(policy);
    let state_dir = state.path().to_str().unwrap();
    let args = ["hook", &policy, "--host", host, "--state-dir", state_dir];
    for payload in payloads {
        let (_, stdout, _) = common::run(&mut common::command(root(), &args), &payload.to_string());
        let answer: Json = serde_json::from_str(&stdout).unwrap_or(Json::Null);
        let permission = &answer["hookSpecificOutput"]["permissionDecision"];
        let decision = match permission.as_str() {
            Some("deny") => "block",
            Some("ask") => "ask",
            _ => continue,
        };
        decisions.push((
            payload["tool_name"].as_str().unwrap().to_owned(),
            decision.to_owned(),
        ));
    }
    decisions
}

#[test]
fn a_claude_transcript_replays_as_the_hook_answered_its_calls() {
    // The hook calls Claude Code made for `claude-session.jsonl`, written from the
    // transcript by hand.
    let session = json!("7f3c2a10-5b1e-4d7a-9c3e-2f6a8b9d0e11");
    let bash = |command: &str| json!({"command": command});
    let payloads = [
        json!({"hook_event_name": "SessionStart", "session_id": session}),
        json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "prompt": "clean the build folder and run the tests"}),
        json!({"hook_event_name": "PreToolUse", "session_id": session, "tool_name": "Bash", "tool_input": bash("rm -rf build/")}),
        json!({"hook_event_name": "PostToolUse", "session_id": session, "tool_name": "Bash", "tool_input": bash("rm -rf build/"), "tool_response": {"stdout": ""}}),
        json!({"hook_event_name": "PreToolUse", "session_id": session, "tool_name": "Bash", "tool_input": bash("cargo test")}),
        json!({"hook_event_name": "PostToolUseFailure", "session_id": session, "tool_name": "Bash", "tool_input": bash("cargo test"), "error": "could not compile"}),
        json!({"hook_event_name": "Stop", "session_id": session, "stop_hook_active": false}),
        json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "prompt": "now push it"}),
        json!({"hook_event_name": "PreToolUse", "session_id": session, "tool_name": "Bash", "tool_input": bash("git push --force origin main")}),
        json!({"hook_event_name": "Stop", "session_id": session, "stop_hook_active": false}),
    ];
    let hook = hook_decisions("guard.rules", "claude", &payloads);
    // The third shell call of the session is over the policy's count budget.
    assert_eq!(
        hook,
        [
            ("Bash".to_owned(), "block".to_owned()),
            ("Bash".to_owned(), "ask".to_owned())
        ]
    );
    let replayed = report("guard.rules", "claude-session.jsonl");
    assert_eq!(enforced_tool_decisions(&replayed), hook);
    // The force push is caught by the shadow rule only: recorded, not enforced.
    let shadow = replayed["sessions"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|finding| finding["mode"] == "shadow")
        .unwrap();
    assert_eq!(
        (
            &shadow["rule"],
            &shadow["mode"],
            &shadow["step"],
            &shadow["line"]
        ),
        (
            &json!("no-force-push"),
            &json!("shadow"),
            &json!(2),
            &json!(9)
        )
    );
}

#[test]
fn a_codex_rollout_replays_as_the_hook_answered_its_calls() {
    let session = json!("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    let payloads = [
        json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "prompt": "read the config and delete the cache"}),
        json!({"hook_event_name": "PreToolUse", "session_id": session, "tool_name": "Bash", "tool_input": {"command": "cat config.toml"}}),
        json!({"hook_event_name": "PreToolUse", "session_id": session, "tool_name": "Bash", "tool_input": {"command": "rm -rf .cache"}}),
        json!({"hook_event_name": "PreToolUse", "session_id": session, "tool_name": "apply_patch", "tool_input": {"command": "*** Begin Patch\n*** Update File: config.toml\n*** End Patch\n"}}),
    ];
    // Codex hooks cannot ask, so the hook denies what asks; the replay reports the
    // policy's own decision, so only the tools are compared for those.
    let hook = hook_decisions("guard.rules", "codex", &payloads);
    let replayed = enforced_tool_decisions(&report("guard.rules", "codex-rollout.jsonl"));
    assert_eq!(
        hook.iter().map(|(tool, _)| tool).collect::<Vec<_>>(),
        replayed.iter().map(|(tool, _)| tool).collect::<Vec<_>>()
    );
    assert_eq!(
        replayed,
        [
            ("Bash".to_owned(), "block".to_owned()),
            ("apply_patch".to_owned(), "ask".to_owned())
        ]
    );
}

#[test]
fn rulesc_traces_decide_as_eval_does_per_session() {
    let replayed = report("guard.rules", "rulesc-events.jsonl");
    let text = std::fs::read_to_string(root().join(sample("rulesc-events.jsonl"))).unwrap();
    for session in ["s1", "s2"] {
        let events: Vec<String> = text
            .lines()
            .filter_map(|line| {
                let mut event: Json = serde_json::from_str(line).unwrap();
                let object = event.as_object_mut().unwrap();
                (object.remove("session").unwrap() == session).then(|| event.to_string())
            })
            .collect();
        let (code, stdout, stderr) = common::run(
            &mut common::command(root(), &["eval", &sample("guard.rules"), "--event", "-"]),
            &events.join("\n"),
        );
        assert_eq!(code, 0, "{stderr}");
        let eval: Vec<String> = stdout
            .lines()
            .map(|line| serde_json::from_str::<Json>(line).unwrap())
            .filter(|outcome| {
                ["block", "ask", "forbid", "request"]
                    .contains(&outcome["decision"].as_str().unwrap())
            })
            .map(|outcome| format!("{} {}", outcome["decision"], outcome["resolved_by"]))
            .collect();
        let found = replayed["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|report| report["session"] == session)
            .unwrap();
        let replay: Vec<String> = found["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|finding| format!("{} {}", finding["decision"], finding["rule"]))
            .collect();
        assert_eq!(replay, eval, "session {session}");
    }
}

#[test]
fn reports() {
    let traces = [
        "claude-session.jsonl",
        "codex-rollout.jsonl",
        "rulesc-events.jsonl",
    ]
    .map(sample);
    let mut args = vec![sample("guard.rules")];
    args.extend(traces.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    insta::assert_snapshot!(
        "replay_human",
        common::transcript(&with_command(&args), replay(&args))
    );
    let mut json_args = args.clone();
    json_args.extend(["--format", "json"]);
    let (code, stdout, stderr) = replay(&json_args);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let pretty =
        serde_json::to_string_pretty(&serde_json::from_str::<Json>(&stdout).unwrap()).unwrap();
    insta::assert_snapshot!("replay_json", pretty);
}

#[test]
fn damaged_lines_are_warnings_naming_file_and_line_and_strict_fails() {
    let args = [sample("guard.rules"), sample("damaged.jsonl")];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = replay(&args);
    assert_eq!(code, 0);
    for expected in [
        "`tests/replay/damaged.jsonl` line 2: the line is cut short (truncated JSON)",
        "`tests/replay/damaged.jsonl` line 3: unknown transcript line type `telemetry`",
        "`tests/replay/damaged.jsonl` line 4: the line is not JSON",
        "the session ends in the middle of a turn, without a stop",
    ] {
        assert!(stderr.contains(expected), "{expected}\n{stderr}");
    }
    // The rest of the session still replays: the call on line 5 is blocked.
    assert!(
        stdout.contains("line 5, step 1, pre_tool_use `Bash` `rm -rf logs`: block by no-rm"),
        "{stdout}"
    );
    let mut strict = args.clone();
    strict.push("--strict");
    let (code, stdout, stderr) = replay(&strict);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("line 2: the line is cut short"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn diff_reports_only_what_changed() {
    let args = [
        "--diff",
        "tests/replay/guard.rules",
        "tests/replay/guard-v2.rules",
        "tests/replay/claude-session.jsonl",
        "tests/replay/rulesc-events.jsonl",
    ];
    insta::assert_snapshot!(
        "replay_diff",
        common::transcript(&with_command(&args), replay(&args))
    );
    let same = [
        "--diff",
        "tests/replay/guard.rules",
        "tests/replay/guard.rules",
        "tests/replay/",
        "--format",
        "json",
    ];
    let (code, stdout, _) = replay(&same);
    assert_eq!(code, 0);
    let diff: Json = serde_json::from_str(&stdout).unwrap();
    assert_eq!(diff["sessions"], json!([]));
}

#[test]
fn bad_usage_is_exit_2_with_one_line() {
    for args in [
        vec!["tests/replay/guard.rules"],
        vec!["tests/replay/claude-session.jsonl"],
        vec!["tests/replay/guard.rules", "tests/replay/missing.jsonl"],
    ] {
        let (code, stdout, stderr) = replay(&args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

/// A policy file written for one test
fn write_policy(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("p.rules");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn hook_shadow_enforces_nothing_and_logs_what_it_would_have_decided() {
    let dir = tempfile::tempdir().unwrap();
    let policy = write_policy(
        dir.path(),
        "default pre_tool_use ask\n@id(\"no-bash\")\non pre_tool_use when tool == \"Bash\" block \"no shell\"\n",
    );
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let call = |extra: &[&str]| {
        let mut args = vec![
            "hook",
            policy.to_str().unwrap(),
            "--host",
            "claude",
            "--state-dir",
        ];
        let state = dir.path().join("state");
        let state = state.to_str().unwrap().to_owned();
        args.push(&state);
        args.extend_from_slice(extra);
        common::run(
            &mut common::command(dir.path(), &args),
            &payload.to_string(),
        )
    };
    let (code, stdout, _) = call(&[]);
    assert_eq!(code, 0);
    assert!(stdout.contains("\"deny\""), "{stdout}");
    let (code, stdout, stderr) = call(&["--shadow"]);
    assert_eq!((code, stdout.trim()), (0, "{}"));
    assert_eq!(
        stderr.trim(),
        "shadow: rule `no-bash` would have decided `block` on `pre_tool_use`: no shell"
    );
}

#[test]
fn a_shadow_rule_decides_nothing_and_sets_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write_policy(
        dir.path(),
        "@id(\"watch\")\n@mode(shadow)\non pre_tool_use block \"watched\"\n\
         @id(\"mark\")\n@mode(shadow)\non pre_tool_use set metadata.seen = true\n\
         @id(\"read\")\non pre_tool_use when metadata.seen ask\n",
    );
    let events = "{\"event\": \"pre_tool_use\", \"tool\": \"x\"}\n{\"event\": \"pre_tool_use\", \"tool\": \"x\"}\n";
    let (code, stdout, stderr) = common::run(
        &mut common::command(dir.path(), &["eval", "p.rules", "--event", "-"]),
        events,
    );
    assert_eq!(code, 0, "{stderr}");
    for line in stdout.lines() {
        let outcome: Json = serde_json::from_str(line).unwrap();
        assert_eq!(outcome["decision"], "none");
        assert_eq!(outcome["metadata"], json!({}));
        assert_eq!(outcome["evaluations"], json!([]));
        let shadow: Vec<&str> = outcome["shadow"]
            .as_array()
            .unwrap()
            .iter()
            .map(|evaluation| evaluation["rule"].as_str().unwrap())
            .collect();
        assert_eq!(shadow, ["mark", "watch"]);
    }
    // Compiled JSON keeps the mode.
    let (code, compiled, _) = common::rulesc(dir.path(), &["compile", "p.rules", "-o", "c.json"]);
    assert_eq!((code, compiled.as_str()), (0, ""));
    let (_, again, _) = common::run(
        &mut common::command(dir.path(), &["eval", "c.json", "--event", "-"]),
        events,
    );
    assert_eq!(again, stdout);
}
