//! Arithmetic and quantifiers under `rulesc hook`, where each call is a new process: a counter
//! kept in the session's metadata grows by one per call and holds a budget across processes
//! (docs/expressions.md), and `any` reads a tool input's list as Claude Code sends it.

use crate::common;

use serde_json::{json, Value};

const POLICY: &str = r#"
on post_tool_use when tool == "WebFetch" set metadata.fetched = metadata.fetched + 1
on pre_tool_use when tool == "WebFetch" and metadata.fetched * 2 >= 4 block "fetch budget spent"
on pre_tool_use when tool == "send_email" and any arg.to ~ "*@evil.example" block "bad recipient"
"#;

/// A Claude Code payload of `event` for session `s1`, with `fields` laid over it
fn claude(event: &str, fields: &Value) -> String {
    let mut payload = json!({
        "session_id": "s1",
        "hook_event_name": event,
        "cwd": "/tmp",
        "transcript_path": "/tmp/transcript.jsonl",
    });
    if let (Some(payload), Some(fields)) = (payload.as_object_mut(), fields.as_object()) {
        payload.extend(fields.clone());
    }
    payload.to_string()
}

/// The permission decision Claude Code reads from the answer, `None` for no opinion
fn decision(stdout: &str) -> Option<String> {
    let answer: Value = serde_json::from_str(stdout).ok()?;
    answer
        .pointer("/hookSpecificOutput/permissionDecision")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// Runs `rulesc hook` on `payload` with the folder's policy and state, and returns its
/// permission decision
fn hook_in(dir: &std::path::Path, payload: &str) -> Option<String> {
    let args = [
        "hook",
        "--host",
        "claude",
        "--state-dir",
        "state",
        "p.rules",
    ];
    let (code, stdout, stderr) = common::run(&mut common::command(dir, &args), payload);
    assert_eq!(code, 0, "{stderr}");
    decision(&stdout)
}

#[test]
fn a_counter_in_metadata_holds_a_budget_across_hook_processes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.rules"), POLICY).unwrap();
    let hook = |payload: String| hook_in(dir.path(), &payload);
    let fetch = json!({"tool_name": "WebFetch", "tool_input": {"url": "https://example.com"}});
    let mut fetched = json!({"tool_response": "page"});
    if let (Some(fetched), Some(fetch)) = (fetched.as_object_mut(), fetch.as_object()) {
        fetched.extend(fetch.clone());
    }
    // Two fetches run (the counter goes 0, 1, 2); the third is refused: 2 * 2 >= 4.
    for _ in 0..2 {
        assert_eq!(hook(claude("PreToolUse", &fetch)), None);
        assert_eq!(hook(claude("PostToolUse", &fetched)), None);
    }
    assert_eq!(hook(claude("PreToolUse", &fetch)).as_deref(), Some("deny"));
}

#[test]
fn any_reads_the_list_of_a_tool_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.rules"), POLICY).unwrap();
    let send = |to: Value| {
        let payload = claude(
            "PreToolUse",
            &json!({"tool_name": "send_email", "tool_input": {"to": to}}),
        );
        hook_in(dir.path(), &payload)
    };
    assert_eq!(
        send(json!(["a@corp.example", "b@evil.example"])).as_deref(),
        Some("deny")
    );
    assert_eq!(send(json!(["a@corp.example"])), None);
    assert_eq!(send(json!("b@evil.example")).as_deref(), Some("deny"));
}
