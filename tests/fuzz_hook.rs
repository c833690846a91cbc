//! Fuzz target: `rulesc hook`, the command itself, fed hostile hook calls on stdin for each
//! host (Claude Code, Gemini CLI, Codex) under the shipped policies.
//!
//! For any input and host: the command ends with exit 0 and one JSON object on stdout (an
//! answer in the host's protocol) or with exit 2, nothing on stdout and the reason on stderr
//! (which every host reads as "deny"); never a panic, never another exit code, and in
//! seconds. A tool call is thus never let through because the hook failed. And the oracle:
//! input that may be a tool call but cannot be read as one of the host's schema (not UTF-8
//! JSON, no event name the host sends, a tool event without a string `tool_name` or an
//! object `tool_input`) is denied, as the host's own validator of `tests/host_protocol/`
//! reads the answer. Inputs: the
//! corpus, the repository's payload fixtures, generated calls of every host event, each
//! mutated structurally or byte by byte, and arbitrary JSON and bytes. A case starts three
//! processes, so it runs fewer cases than the other targets for the same budget.

use crate::gen;
use crate::harness;
use crate::host_protocol;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{json, Value as Json};

/// Folders whose files seed this target besides its corpus
const SEEDS: [&str; 2] = ["tests/hook/payloads", "tests/hostile/payloads"];

/// Every event name any host sends, and a few no host sends
const EVENT_NAMES: [&str; 17] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "preToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "SessionEnd",
    "BeforeAgent",
    "BeforeTool",
    "AfterTool",
    "AfterAgent",
    "Notification",
    "PreCompact",
    "",
];

/// A folder kept for the whole run: the policy and the hook state
fn workspace() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("rulesc-fuzz-hook-{}", std::process::id()));
        let _ = std::fs::create_dir_all(dir.join("state"));
        dir
    })
}

/// Runs `rulesc hook` for `host` with `input` on stdin
fn hook(host: &str, input: &[u8]) -> Result<std::process::Output, TestCaseError> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .arg("hook")
        .arg(root.join("rules"))
        .args(["--host", host, "--state-dir"])
        .arg(workspace().join("state"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| TestCaseError::fail(format!("cannot start rulesc: {err}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        // The command may stop reading early (a call too large); that is its answer.
        let _ = stdin.write_all(input);
    }
    child
        .wait_with_output()
        .map_err(|err| TestCaseError::fail(format!("rulesc did not end: {err}")))
}

/// The events each host sends (from each host's source, see `tests/host_protocol/`), and
/// those of them that gate a tool call
fn events_of(host: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match host {
        "gemini" => (
            &[
                "BeforeTool",
                "AfterTool",
                "BeforeAgent",
                "Notification",
                "AfterAgent",
                "SessionStart",
                "SessionEnd",
                "PreCompress",
                "BeforeModel",
                "AfterModel",
                "BeforeToolSelection",
            ],
            &["BeforeTool"],
        ),
        "codex" => (
            &[
                "SessionStart",
                "UserPromptSubmit",
                "PreToolUse",
                "PermissionRequest",
                "PostToolUse",
                "Stop",
                "SubagentStop",
                "SessionEnd",
                "PreCompact",
                "PostCompact",
                "SubagentStart",
                "StopFailure",
            ],
            &["PreToolUse", "PermissionRequest"],
        ),
        _ => (
            &[
                "SessionStart",
                "UserPromptSubmit",
                "PreToolUse",
                "PermissionRequest",
                "PostToolUse",
                "PostToolUseFailure",
                "Stop",
                "SubagentStop",
                "SessionEnd",
                "Notification",
                "PreCompact",
                "PostCompact",
                "SubagentStart",
            ],
            &["PreToolUse", "PermissionRequest"],
        ),
    }
}

/// The tool event whose denial `input` must get from `host`, when it may be a tool call
/// that cannot be read as the host's schema
fn unreadable_tool_call(host: &str, input: &[u8]) -> Option<&'static str> {
    let (events, tool_events) = events_of(host);
    let tool_event = tool_events.first().copied()?;
    let Ok(Json::Object(call)) = serde_json::from_slice::<Json>(input) else {
        return Some(tool_event);
    };
    let Some(Json::String(name)) = call.get("hook_event_name") else {
        return Some(tool_event);
    };
    let Some(event) = events.iter().find(|event| *event == name) else {
        return Some(tool_event);
    };
    let readable = matches!(call.get("tool_name"), Some(Json::String(tool)) if !tool.trim().is_empty())
        && matches!(call.get("tool_input"), Some(Json::Object(_)));
    (tool_events.contains(event) && !readable).then_some(*event)
}

fn check(input: Vec<u8>) -> Result<(), TestCaseError> {
    for host in ["claude", "gemini", "codex"] {
        let output = hook(host, &input)?;
        if let Some(event) = unreadable_tool_call(host, &input) {
            let answer = host_protocol::Answer {
                stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
                exit_code: output.status.code().unwrap_or(-1),
            };
            let judged = match host {
                "gemini" => host_protocol::gemini::judge(event, &answer),
                "codex" => host_protocol::codex::judge(event, &answer),
                _ => host_protocol::claude::judge(event, &answer),
            };
            prop_assert!(
                matches!(&judged, Ok(effect) if effect.tool == host_protocol::Tool::Denied),
                "{}: an unreadable tool call was not denied ({:?}): {:?}",
                host,
                judged,
                answer
            );
        }
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        prop_assert!(
            !stderr.contains("panicked"),
            "{}: the hook panicked: {}",
            host,
            stderr
        );
        match output.status.code() {
            Some(0) => {
                let answer: Json = serde_json::from_str(&stdout).map_err(|err| {
                    TestCaseError::fail(format!("{host}: the answer is not JSON ({err}): {stdout}"))
                })?;
                prop_assert!(answer.is_object(), "{}: {}", host, stdout);
                prop_assert_eq!(stdout.lines().count(), 1, "{}: {}", host, stdout);
            }
            Some(2) => {
                prop_assert!(stdout.is_empty(), "{}: exit 2 with {}", host, stdout);
                prop_assert!(
                    !stderr.trim().is_empty(),
                    "{}: exit 2 without a reason",
                    host
                );
            }
            other => prop_assert!(false, "{}: exit {:?}: {}", host, other, stderr),
        }
    }
    Ok(())
}

/// A hook call of any host: its event name, session and fields, right or wrong
fn call() -> impl Strategy<Value = Json> {
    let text = || {
        prop_oneof![
            3 => prop::sample::select(vec!["Bash", "Write", "rm -rf /", "Done.", "TODO: more", "", "../.."]).prop_map(Json::from),
            1 => "\\PC{0,20}".prop_map(Json::String),
            1 => gen::json_value(),
        ]
    };
    (
        prop::sample::select(EVENT_NAMES.to_vec()),
        prop_oneof![
            4 => "[a-z0-9-]{1,36}".prop_map(Json::String),
            1 => gen::json_value(),
            1 => Just(json!("../../../etc/passwd")),
            1 => Just(json!("x".repeat(300))),
        ],
        prop::collection::vec(
            (
                prop::sample::select(vec![
                    "tool_name",
                    "tool_input",
                    "tool_response",
                    "error",
                    "error_message",
                    "stop_hook_active",
                    "last_assistant_message",
                    "prompt_response",
                    "prompt",
                    "cwd",
                    "transcript_path",
                    "tool_use_id",
                ]),
                text(),
            ),
            0..6,
        ),
    )
        .prop_map(|(name, session, fields)| {
            let mut call = json!({"hook_event_name": name, "session_id": session});
            if let Json::Object(object) = &mut call {
                for (key, value) in fields {
                    object.insert(key.to_owned(), value);
                }
            }
            call
        })
}

/// Every seed payload, to mutate
fn seed_files() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seeds: Vec<Vec<u8>> = harness::files_below(&harness::corpus_dir("hook"))
        .into_iter()
        .map(|(_, bytes)| bytes)
        .collect();
    for folder in SEEDS {
        seeds.extend(
            harness::files_below(&root.join(folder))
                .into_iter()
                .filter(|(_, bytes)| bytes.len() < 100_000)
                .map(|(_, bytes)| bytes),
        );
    }
    seeds
}

/// The seed payloads as JSON, to mutate structurally
fn seed_documents() -> Vec<Json> {
    seed_files()
        .iter()
        .filter_map(|bytes| serde_json::from_slice(bytes).ok())
        .collect()
}

#[test]
fn fuzz_hook() {
    let inputs = prop_oneof![
        3 => gen::mutated_json(call()),
        3 => gen::mutated_json(prop::sample::select(seed_documents())),
        2 => gen::mutated(seed_files()),
        1 => gen::json_value().prop_map(|value| value.to_string().into_bytes()),
        1 => gen::bytes(),
    ];
    harness::fuzz("hook", file!(), 8, &SEEDS, inputs, check);
}
