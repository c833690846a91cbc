//! The host facts `rulesc check --host` lints with (`Host::sends`, `Host::fills`) against
//! what `rulesc hook` really does: every event each host sends is answered with a policy
//! that records, in the session's metadata, which rulesc events fired and which fields had
//! a value; the facts must say exactly that.

#![expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "test helpers: a hook that cannot run fails the test; JSON is built by key"
)]

use std::io::Write;
use std::process::{Command, Stdio};

use rulesc::{EventKind, Field, Host};
use serde_json::{json, Value};

/// A policy that records each event as `metadata.fired_<event>`, and whether the counters a
/// hook may leave at 0 and the permission mode had a value, as `metadata.filled_<field>`
fn recorder() -> String {
    // A blocked call fires `on_error` on every host, also on Codex, which reports no
    // failed tool of its own.
    let mut rules = "on pre_tool_use when tool == \"blocked\" block \"blocked\"\n".to_owned();
    for kind in EventKind::ALL {
        rules.push_str(&format!("on {kind} set metadata.fired_{kind} = true\n"));
    }
    for (field, test) in [
        ("tokens", "tokens > 0"),
        ("retries", "retries > 0"),
        ("permission_mode", "permission_mode ~ \"*\""),
    ] {
        rules.push_str(&format!(
            "on pre_tool_use when {test} set metadata.filled_{field} = true\n"
        ));
    }
    rules
}

/// Every event `host` sends, as it sends it
fn payloads(host: Host) -> Vec<Value> {
    let tool = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t"});
    let mut events: Vec<(&str, Value)> = match host {
        Host::Gemini => vec![
            ("SessionStart", json!({"source": "startup"})),
            ("BeforeAgent", json!({"prompt": "go"})),
            ("BeforeTool", tool.clone()),
            (
                "BeforeTool",
                json!({"tool_name": "blocked", "tool_input": {}}),
            ),
            (
                "AfterTool",
                json!({"tool_name": "Bash", "tool_input": {}, "tool_response": {"llmContent": "x"}}),
            ),
            (
                "AfterTool",
                json!({"tool_name": "Bash", "tool_input": {}, "tool_response": {"error": {"message": "boom"}}}),
            ),
            (
                "AfterAgent",
                json!({"prompt": "go", "prompt_response": "done", "stop_hook_active": false}),
            ),
            ("SessionEnd", json!({"reason": "exit"})),
        ],
        Host::Claude | Host::Codex => vec![
            ("SessionStart", json!({"source": "startup"})),
            ("UserPromptSubmit", json!({"prompt": "go"})),
            ("PreToolUse", tool.clone()),
            (
                "PreToolUse",
                json!({"tool_name": "blocked", "tool_input": {}}),
            ),
            ("PermissionRequest", tool.clone()),
            (
                "PostToolUse",
                json!({"tool_name": "Bash", "tool_input": {}, "tool_response": {"stdout": "x"}}),
            ),
            (
                "PostToolUseFailure",
                json!({"tool_name": "Bash", "tool_input": {}, "error": "boom"}),
            ),
            (
                "SubagentStop",
                json!({"stop_hook_active": false, "last_assistant_message": "sub"}),
            ),
            (
                "Stop",
                json!({"stop_hook_active": false, "last_assistant_message": "done"}),
            ),
            ("SessionEnd", json!({"reason": "exit"})),
        ],
    };
    if host == Host::Codex {
        // Codex reports a failed tool in PostToolUse; it has no PostToolUseFailure.
        events.retain(|(name, _)| *name != "PostToolUseFailure");
    }
    events
        .into_iter()
        .map(|(name, fields)| {
            let mut payload = json!({"session_id": "facts", "cwd": "/p", "hook_event_name": name,
                                     "transcript_path": null});
            if host != Host::Gemini {
                payload["permission_mode"] = json!("default");
            }
            for (key, value) in fields.as_object().unwrap() {
                payload[key] = value.clone();
            }
            payload
        })
        .collect()
}

#[test]
fn the_facts_are_what_the_hook_does() {
    for host in Host::ALL {
        let dir = tempfile::tempdir().unwrap();
        let policy = dir.path().join("recorder.rules");
        std::fs::write(&policy, recorder()).unwrap();
        let state = dir.path().join("state");
        for payload in payloads(host) {
            let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
                .args(["hook", &policy.display().to_string(), "--host", host.flag()])
                .arg("--state-dir")
                .arg(&state)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(payload.to_string().as_bytes())
                .unwrap();
            assert!(child.wait().unwrap().success(), "{host:?} {payload}");
        }
        let saved: Value =
            serde_json::from_slice(&std::fs::read(state.join("sessions/s-facts.json")).unwrap())
                .unwrap();
        // One policy ran the session: its run holds what its rules set.
        let runs = saved["runs"].as_object().unwrap();
        assert_eq!(runs.len(), 1, "{saved}");
        let metadata = &runs.values().next().unwrap()["metadata"];
        for kind in EventKind::ALL {
            let fired = metadata[format!("fired_{kind}")] == json!(true);
            assert_eq!(fired, host.sends(kind), "{host:?} fires `{kind}`?");
        }
        for (name, field) in [
            ("tokens", Field::Tokens),
            ("retries", Field::Retries),
            ("permission_mode", Field::PermissionMode),
        ] {
            let filled = metadata[format!("filled_{name}")] == json!(true);
            assert_eq!(
                filled,
                host.fills(&field, EventKind::PreToolUse),
                "{host:?} fills `{name}`?"
            );
        }
    }
}
