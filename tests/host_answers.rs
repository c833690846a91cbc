//! Every cell of the hosts' answer tables (examples/*/README.md): for each host, each event it
//! sends and each decision a policy can make there, `rulesc hook` gives an answer the host
//! accepts, with the policy's effect — or, where the host cannot express it, the fail-closed
//! effect. Answers are judged by the validators of `tests/host_protocol/`, written from the
//! hosts' sources, not from rulesc's output.

#![expect(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers: a hook that cannot run fails the test"
)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::host_protocol::{claude, codex, gemini, Answer, Effect, Rejected, Tool};
use serde_json::{json, Value};

/// The policies of the table: each makes one decision on the events it names
const NONE: &str = "on pre_tool_use when tool == \"never-called\" block \"unused\"";
const ALLOW: &str = "on pre_tool_use allow \"fine by the policy\"";
const ASK: &str = "on pre_tool_use ask \"a person should look at this\"";
const BLOCK: &str = "on pre_tool_use block \"not this tool\"";
const FORBID_TOOL: &str = "on pre_tool_use forbid \"the session must end\"";
const FORBID_PROMPT: &str = "on before_step forbid \"no more prompts\"";
const FORBID_AFTER_TOOL: &str = "on post_tool_use forbid \"that output ends the session\"";
const REQUEST_AFTER_TOOL: &str = "on post_tool_use request \"more\"";
const FORBID_ERROR: &str = "on on_error forbid \"a failed tool ends the session\"";
const RETRY_ERROR: &str = "on on_error retry";
const REQUEST_STOP: &str = "on stop request \"keep going\"";
const FORBID_STOP: &str = "on stop forbid \"stop for good\"";
const REQUEST_SUBAGENT: &str = "on subagent_stop request \"sub-agent, keep going\"";
const FORBID_START: &str = "on execution_start forbid \"not today\"";

/// A hook call's answer, run as a host runs it
fn hook(host: &str, policy: &str, payload: &Value, state: &Path) -> Answer {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("policy.rules");
    std::fs::write(&file, format!("{policy}\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .args(["hook", &file.display().to_string(), "--host", host])
        .arg("--state-dir")
        .arg(state)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    Answer {
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
        exit_code: output.status.code().unwrap_or(-1),
    }
}

/// The payload of `event` as `host` sends it (shapes from each host's input schema)
fn payload(host: &str, event: &str) -> Value {
    let mut object = json!({
        "session_id": "s-1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/home/user/project",
        "hook_event_name": event,
    });
    let fields = match (host, event) {
        (_, "PreToolUse" | "PermissionRequest") => {
            json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"})
        }
        ("gemini", "BeforeTool") => {
            json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}})
        }
        ("gemini", "AfterTool") => json!({"tool_name": "run_shell_command",
            "tool_input": {"command": "ls"},
            "tool_response": {"llmContent": "a.txt", "returnDisplay": "a.txt"}}),
        (_, "PostToolUse") => json!({"tool_name": "Bash", "tool_input": {"command": "ls"},
            "tool_response": {"stdout": "a.txt", "stderr": "", "interrupted": false}}),
        (_, "PostToolUseFailure") => json!({"tool_name": "Bash",
            "tool_input": {"command": "false"}, "error": "exit status 1"}),
        (_, "UserPromptSubmit" | "BeforeAgent") => json!({"prompt": "fix the tests"}),
        (_, "Stop" | "SubagentStop") => {
            json!({"stop_hook_active": false, "last_assistant_message": "done"})
        }
        (_, "AfterAgent") => json!({"prompt": "fix the tests", "prompt_response": "done",
            "stop_hook_active": false}),
        (_, "SessionStart") => json!({"source": "startup"}),
        _ => json!({}),
    };
    let object_fields = object.as_object_mut().unwrap();
    for (key, value) in fields.as_object().unwrap() {
        object_fields.insert(key.clone(), value.clone());
    }
    if host != "gemini" {
        object_fields.insert("permission_mode".to_owned(), json!("default"));
        object_fields.insert("model".to_owned(), json!("a-model"));
    }
    object
}

fn judge(host: &str, event: &str, answer: &Answer) -> Result<Effect, Rejected> {
    match host {
        "claude" => claude::judge(event, answer),
        "codex" => codex::judge(event, answer),
        "gemini" => gemini::judge(event, answer),
        other => panic!("no host `{other}`"),
    }
}

/// One cell: the effect the host must give the policy's decision
struct Cell {
    event: &'static str,
    policy: &'static str,
    tool: Tool,
    stops_agent: bool,
    keeps_working: bool,
    refuses_prompt: bool,
    /// Words the reason shown must hold
    reason: Option<&'static str>,
}

const fn cell(event: &'static str, policy: &'static str) -> Cell {
    Cell {
        event,
        policy,
        tool: Tool::Unchanged,
        stops_agent: false,
        keeps_working: false,
        refuses_prompt: false,
        reason: None,
    }
}

const fn tool(mut cell: Cell, tool: Tool, reason: &'static str) -> Cell {
    cell.tool = tool;
    cell.reason = Some(reason);
    cell
}

const fn stops(mut cell: Cell, reason: &'static str) -> Cell {
    cell.stops_agent = true;
    cell.reason = Some(reason);
    cell
}

fn check(host: &str, cells: &[Cell]) {
    let mut failures = Vec::new();
    for cell in cells {
        let state = tempfile::tempdir().unwrap();
        let answer = hook(host, cell.policy, &payload(host, cell.event), state.path());
        let label = format!("{host} {} under `{}`", cell.event, cell.policy);
        match judge(host, cell.event, &answer) {
            Err(Rejected(why)) => failures.push(format!("{label}: rejected ({why}): {answer:?}")),
            Ok(effect) => {
                let expected = (
                    cell.tool,
                    cell.stops_agent,
                    cell.keeps_working,
                    cell.refuses_prompt,
                );
                let got = (
                    effect.tool,
                    effect.stops_agent,
                    effect.keeps_working,
                    effect.refuses_prompt,
                );
                if expected != got {
                    failures.push(format!(
                        "{label}: expected {expected:?}, got {got:?}: {answer:?}"
                    ));
                }
                if let Some(words) = cell.reason {
                    if !effect.reason.as_deref().unwrap_or("").contains(words) {
                        failures.push(format!(
                            "{label}: the reason {:?} does not say `{words}`",
                            effect.reason
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn claude_code_hears_every_decision() {
    check(
        "claude",
        &[
            cell("PreToolUse", NONE),
            tool(
                cell("PreToolUse", ALLOW),
                Tool::Allowed,
                "fine by the policy",
            ),
            tool(cell("PreToolUse", ASK), Tool::Asks, "a person should look"),
            tool(cell("PreToolUse", BLOCK), Tool::Denied, "not this tool"),
            stops(
                tool(cell("PreToolUse", FORBID_TOOL), Tool::Denied, ""),
                "the session must end",
            ),
            cell("PermissionRequest", NONE),
            tool(cell("PermissionRequest", ALLOW), Tool::Allowed, ""),
            // `ask` is what the approval prompt already does: no opinion, the user decides.
            cell("PermissionRequest", ASK),
            tool(
                cell("PermissionRequest", BLOCK),
                Tool::Denied,
                "not this tool",
            ),
            stops(
                tool(cell("PermissionRequest", FORBID_TOOL), Tool::Denied, ""),
                "the session must end",
            ),
            cell("PostToolUse", NONE),
            cell("PostToolUse", REQUEST_AFTER_TOOL),
            stops(cell("PostToolUse", FORBID_AFTER_TOOL), "that output ends"),
            cell("PostToolUseFailure", RETRY_ERROR),
            stops(
                cell("PostToolUseFailure", FORBID_ERROR),
                "a failed tool ends",
            ),
            cell("UserPromptSubmit", NONE),
            Cell {
                refuses_prompt: true,
                ..stops(cell("UserPromptSubmit", FORBID_PROMPT), "no more prompts")
            },
            cell("Stop", NONE),
            Cell {
                keeps_working: true,
                reason: Some("keep going"),
                ..cell("Stop", REQUEST_STOP)
            },
            stops(cell("Stop", FORBID_STOP), "stop for good"),
            Cell {
                keeps_working: true,
                reason: Some("sub-agent, keep going"),
                ..cell("SubagentStop", REQUEST_SUBAGENT)
            },
            stops(cell("SessionStart", FORBID_START), "not today"),
            cell("SessionEnd", FORBID_STOP),
            cell("Notification", FORBID_TOOL),
        ],
    );
}

#[test]
fn codex_hears_every_decision_it_can_and_the_fail_closed_one_otherwise() {
    check(
        "codex",
        &[
            cell("PreToolUse", NONE),
            // Codex accepts no allow: no opinion lets the call run, as the policy permits.
            cell("PreToolUse", ALLOW),
            // Codex cannot ask from a hook: the call is denied, and the reason says why.
            tool(
                cell("PreToolUse", ASK),
                Tool::Denied,
                "needs the user's approval",
            ),
            tool(cell("PreToolUse", BLOCK), Tool::Denied, "not this tool"),
            // `continue: false` fails a Codex PreToolUse hook: the denial stands for it, and
            // the session's next calls are denied (see the latch test).
            tool(
                cell("PreToolUse", FORBID_TOOL),
                Tool::Denied,
                "the session must end",
            ),
            cell("PermissionRequest", NONE),
            tool(cell("PermissionRequest", ALLOW), Tool::Allowed, ""),
            cell("PermissionRequest", ASK),
            tool(
                cell("PermissionRequest", BLOCK),
                Tool::Denied,
                "not this tool",
            ),
            tool(
                cell("PermissionRequest", FORBID_TOOL),
                Tool::Denied,
                "the session must end",
            ),
            cell("PostToolUse", NONE),
            cell("PostToolUse", REQUEST_AFTER_TOOL),
            stops(cell("PostToolUse", FORBID_AFTER_TOOL), "that output ends"),
            cell("UserPromptSubmit", NONE),
            Cell {
                refuses_prompt: true,
                ..stops(cell("UserPromptSubmit", FORBID_PROMPT), "no more prompts")
            },
            cell("Stop", NONE),
            Cell {
                keeps_working: true,
                reason: Some("keep going"),
                ..cell("Stop", REQUEST_STOP)
            },
            stops(cell("Stop", FORBID_STOP), "stop for good"),
            Cell {
                keeps_working: true,
                reason: Some("sub-agent, keep going"),
                ..cell("SubagentStop", REQUEST_SUBAGENT)
            },
            stops(cell("SessionStart", FORBID_START), "not today"),
        ],
    );
}

#[test]
fn gemini_cli_hears_every_decision_it_can_and_the_fail_closed_one_otherwise() {
    check(
        "gemini",
        &[
            cell("BeforeTool", NONE),
            cell("BeforeTool", ALLOW),
            // Gemini CLI types `ask` but never acts on it: the call is denied instead.
            tool(
                cell("BeforeTool", ASK),
                Tool::Denied,
                "needs the user's approval",
            ),
            tool(cell("BeforeTool", BLOCK), Tool::Denied, "not this tool"),
            stops(
                tool(cell("BeforeTool", FORBID_TOOL), Tool::Denied, ""),
                "the session must end",
            ),
            cell("AfterTool", NONE),
            stops(cell("AfterTool", FORBID_AFTER_TOOL), "that output ends"),
            cell("BeforeAgent", NONE),
            Cell {
                refuses_prompt: true,
                ..stops(cell("BeforeAgent", FORBID_PROMPT), "no more prompts")
            },
            cell("AfterAgent", NONE),
            Cell {
                keeps_working: true,
                reason: Some("keep going"),
                ..cell("AfterAgent", REQUEST_STOP)
            },
            stops(cell("AfterAgent", FORBID_STOP), "stop for good"),
            stops(cell("SessionStart", FORBID_START), "not today"),
            cell("SessionEnd", FORBID_STOP),
        ],
    );
}

#[test]
fn a_forbid_latches_until_the_session_is_reset() {
    for (host, pre_tool) in [
        ("claude", "PreToolUse"),
        ("codex", "PreToolUse"),
        ("gemini", "BeforeTool"),
    ] {
        let state = tempfile::tempdir().unwrap();
        let policy = "on pre_tool_use when arg.command == \"mkfs /dev/sda\" forbid \"wiping disks ends the session\"";
        let mut mkfs = payload(host, pre_tool);
        mkfs["tool_input"] = json!({"command": "mkfs /dev/sda"});
        let first = judge(host, pre_tool, &hook(host, policy, &mkfs, state.path())).unwrap();
        assert_eq!(first.tool, Tool::Denied, "{host}");
        // The next call of the session is harmless, and still denied.
        let ls = payload(host, pre_tool);
        let answer = hook(host, policy, &ls, state.path());
        let next = judge(host, pre_tool, &answer).unwrap();
        assert_eq!(next.tool, Tool::Denied, "{host}: {answer:?}");
        let reason = next.reason.unwrap_or_default();
        assert!(
            reason.contains("wiping disks ends the session"),
            "{host}: {reason}"
        );
        assert!(
            reason.contains("rulesc hook reset --session s-1"),
            "{host}: {reason}"
        );
        // Stops go unopposed.
        let stop = if host == "gemini" {
            "AfterAgent"
        } else {
            "Stop"
        };
        let stopped = judge(
            host,
            stop,
            &hook(host, policy, &payload(host, stop), state.path()),
        )
        .unwrap();
        assert_eq!(stopped, Effect::default(), "{host}");
        // Another session is not concerned.
        let mut other = ls.clone();
        other["session_id"] = json!("s-2");
        let other = judge(host, pre_tool, &hook(host, policy, &other, state.path())).unwrap();
        assert_eq!(other.tool, Tool::Unchanged, "{host}");
        // Reset clears it.
        let reset = Command::new(env!("CARGO_BIN_EXE_rulesc"))
            .args(["hook", "reset", "--session", "s-1"])
            .arg("--state-dir")
            .arg(state.path())
            .output()
            .unwrap();
        assert!(reset.status.success(), "{reset:?}");
        let after = judge(host, pre_tool, &hook(host, policy, &ls, state.path())).unwrap();
        assert_eq!(after.tool, Tool::Unchanged, "{host}");
    }
}

#[test]
fn a_forbid_latches_however_parallel_calls_of_the_session_interleave() {
    // One process forbids while others of the same session fail tool calls, each of which
    // the session counts and so writes back: however they interleave, no write may lose
    // the latch.
    let policy = "on pre_tool_use when arg.command == \"mkfs /dev/sda\" forbid \"wiping disks ends the session\"";
    let mut mkfs = payload("claude", "PreToolUse");
    mkfs["tool_input"] = json!({"command": "mkfs /dev/sda"});
    let failure = payload("claude", "PostToolUseFailure");
    for round in 0..3 {
        let state = tempfile::tempdir().unwrap();
        std::thread::scope(|scope| {
            let forbid = scope.spawn(|| hook("claude", policy, &mkfs, state.path()));
            let failures: Vec<_> = (0..12)
                .map(|_| scope.spawn(|| hook("claude", policy, &failure, state.path())))
                .collect();
            let forbid = forbid.join().unwrap();
            assert_eq!(
                judge("claude", "PreToolUse", &forbid).unwrap().tool,
                Tool::Denied,
                "round {round}: {forbid:?}"
            );
            for failed in failures {
                let failed = failed.join().unwrap();
                assert_eq!(failed.exit_code, 0, "round {round}: {failed:?}");
            }
        });
        let ls = payload("claude", "PreToolUse");
        let answer = hook("claude", policy, &ls, state.path());
        let next = judge("claude", "PreToolUse", &answer).unwrap();
        assert_eq!(next.tool, Tool::Denied, "round {round}: {answer:?}");
        assert!(
            next.reason
                .unwrap_or_default()
                .contains("wiping disks ends the session"),
            "round {round}: {answer:?}"
        );
    }
}

#[test]
fn malformed_tool_calls_are_denied_in_every_hosts_way() {
    let broken = |host: &str, event: &str| {
        let mut missing_tool = payload(host, event);
        missing_tool.as_object_mut().unwrap().remove("tool_name");
        let mut string_input = payload(host, event);
        string_input["tool_input"] = json!("rm -rf /");
        let mut null_input = payload(host, event);
        null_input["tool_input"] = Value::Null;
        let mut array_input = payload(host, event);
        array_input["tool_input"] = json!(["rm", "-rf", "/"]);
        let mut number_input = payload(host, event);
        number_input["tool_input"] = json!(7);
        let mut numeric_tool = payload(host, event);
        numeric_tool["tool_name"] = json!(7);
        let mut wrong_case = payload(host, event);
        let lower = event[..1].to_lowercase() + &event[1..];
        wrong_case["hook_event_name"] = json!(lower);
        [
            missing_tool,
            string_input,
            null_input,
            array_input,
            number_input,
            numeric_tool,
            wrong_case,
        ]
    };
    let cases = [
        ("claude", "PreToolUse"),
        ("claude", "PermissionRequest"),
        ("codex", "PreToolUse"),
        ("codex", "PermissionRequest"),
        ("gemini", "BeforeTool"),
    ];
    for (host, event) in cases {
        for bad in broken(host, event) {
            let state = tempfile::tempdir().unwrap();
            let answer = hook(host, ALLOW, &bad, state.path());
            let effect = judge(host, event, &answer)
                .unwrap_or_else(|rejected| panic!("{host} {bad}: {rejected:?} {answer:?}"));
            assert_eq!(effect.tool, Tool::Denied, "{host} {bad}: {answer:?}");
            assert!(
                answer.stderr.contains("denied"),
                "{host} {bad}: the reason is on stderr: {answer:?}"
            );
        }
    }
}
