//! Codex session rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) as the hook
//! calls Codex made while recording them.
//!
//! Each line is `{"timestamp", "type", "payload"}` (openai/codex `codex-rs/protocol`,
//! `RolloutLine` and `RolloutItem`): `session_meta` (`id`, `cwd`), `turn_context` (`cwd`),
//! `response_item` (the model's items, `codex-rs/protocol/src/models.rs` `ResponseItem`:
//! `function_call` with `name`, `arguments` as JSON text and `call_id`;
//! `function_call_output` with `call_id` and `output`, text or `{content, success}`;
//! `local_shell_call` with `action.command` as a list; `custom_tool_call` with `name` and
//! `input`, and its `custom_tool_call_output`), `event_msg` (`user_message`,
//! `agent_message`, `task_complete` with `last_agent_message`, `turn_aborted`) and
//! `compacted`. Shell calls are named `Bash` with `{"command": ...}`, and `apply_patch`
//! keeps its name with the patch under `command`, as Codex's hooks send them.

use serde_json::{json, Map, Value as Json};

use crate::transcript::{parse_rfc3339, Emit, Reader, ToolCall, Turns};

/// Codex's shell tools, reported to hooks as `Bash`
const SHELL_TOOLS: [&str; 5] = [
    "shell",
    "container.exec",
    "shell_command",
    "exec_command",
    "local_shell",
];

/// The reader of one rollout file
#[derive(Default)]
pub(crate) struct CodexRollout {
    turns: Turns,
}

impl Reader for CodexRollout {
    fn line(&mut self, line: Map<String, Json>, emit: &mut Emit) -> Result<(), String> {
        let kind = line.get("type").and_then(Json::as_str).unwrap_or_default();
        let payload = line.get("payload").and_then(Json::as_object);
        let at_ms = line
            .get("timestamp")
            .and_then(Json::as_str)
            .and_then(parse_rfc3339);
        let Some(payload) = payload else {
            return Err(format!("a `{kind}` line without a `payload` object"));
        };
        let field = |name: &str| payload.get(name).and_then(Json::as_str);
        match kind {
            "session_meta" => {
                self.turns.locate(field("id"), field("cwd"), at_ms, emit);
                Ok(())
            }
            "turn_context" => {
                self.turns.locate(None, field("cwd"), at_ms, emit);
                Ok(())
            }
            "compacted" => Ok(()),
            "event_msg" => {
                self.turns.locate(None, None, at_ms, emit);
                self.event_msg(payload, emit);
                Ok(())
            }
            "response_item" => {
                self.turns.locate(None, None, at_ms, emit);
                self.response_item(payload, emit);
                Ok(())
            }
            _ => Err(format!("unknown rollout line type `{kind}`")),
        }
    }

    fn finish(&mut self, emit: &mut Emit) {
        // A rollout records the end of each turn (`task_complete`): one that is missing
        // was cut off, and no stop is made up for it.
        self.turns.end(false, emit);
    }
}

impl CodexRollout {
    fn event_msg(&mut self, payload: &Map<String, Json>, emit: &mut Emit) {
        let text = |name: &str| payload.get(name).and_then(Json::as_str);
        match payload
            .get("type")
            .and_then(Json::as_str)
            .unwrap_or_default()
        {
            "user_message" => self.turns.prompt(text("message").unwrap_or_default(), emit),
            "agent_message" => self.turns.said(text("message").unwrap_or_default()),
            "task_complete" => {
                if let Some(answer) = text("last_agent_message") {
                    self.turns.answer(answer);
                }
                self.turns.stop(emit);
            }
            "turn_aborted" => self.turns.interrupted(),
            // Token counts, command progress and the rest record no hook call.
            _ => {}
        }
    }

    fn response_item(&mut self, payload: &Map<String, Json>, emit: &mut Emit) {
        let text = |name: &str| payload.get(name).and_then(Json::as_str).unwrap_or_default();
        match text("type") {
            "function_call" => {
                let arguments = serde_json::from_str::<Json>(text("arguments"))
                    .unwrap_or_else(|_| json!({"input": text("arguments")}));
                let call = tool_call(text("name"), arguments);
                self.turns.tool_use(text("call_id"), call, emit);
            }
            "local_shell_call" => {
                let command = payload
                    .get("action")
                    .and_then(|action| action.get("command"))
                    .cloned()
                    .unwrap_or(Json::Null);
                let call = tool_call("local_shell", json!({ "command": command }));
                let id = payload
                    .get("call_id")
                    .or_else(|| payload.get("id"))
                    .and_then(Json::as_str)
                    .unwrap_or_default();
                self.turns.tool_use(id, call, emit);
            }
            "custom_tool_call" => {
                let call = ToolCall {
                    name: text("name").to_owned(),
                    input: json!({ "command": text("input") }),
                };
                self.turns.tool_use(text("call_id"), call, emit);
            }
            "function_call_output" | "custom_tool_call_output" => {
                let (response, failed) = match payload.get("output") {
                    Some(Json::Object(output)) => (
                        output.get("content").cloned().unwrap_or(Json::Null),
                        output.get("success").and_then(Json::as_bool) == Some(false),
                    ),
                    Some(other) => (other.clone(), false),
                    None => (Json::Null, false),
                };
                self.turns
                    .tool_result(text("call_id"), response, failed, emit);
            }
            // Messages, reasoning, web searches and snapshots record no hook call; prompts
            // and answers are read from `event_msg`, which holds them without the context
            // Codex adds.
            _ => {}
        }
    }
}

/// A function call as Codex's hooks name it: a shell call is `Bash` with the command line
fn tool_call(name: &str, arguments: Json) -> ToolCall {
    if !SHELL_TOOLS.contains(&name) {
        let input = match arguments {
            Json::Object(_) => arguments,
            other => json!({ "input": other }),
        };
        return ToolCall {
            name: name.to_owned(),
            input,
        };
    }
    let command = arguments
        .get("command")
        .or_else(|| arguments.get("cmd"))
        .cloned()
        .unwrap_or(Json::Null);
    let line = match command {
        Json::String(line) => line,
        Json::Array(words) => command_line(&words),
        _ => String::new(),
    };
    ToolCall {
        name: "Bash".to_owned(),
        input: json!({ "command": line }),
    }
}

/// An argument vector as one command line: the script of `bash -lc SCRIPT`, else the words
/// quoted for a POSIX shell
fn command_line(words: &[Json]) -> String {
    let words: Vec<&str> = words.iter().filter_map(Json::as_str).collect();
    if let [shell, flag, script] = words.as_slice() {
        let shell = shell.rsplit('/').next().unwrap_or(shell);
        if matches!(shell, "bash" | "sh" | "zsh") && matches!(*flag, "-c" | "-lc") {
            return (*script).to_owned();
        }
    }
    words
        .iter()
        .map(|word| quote(word))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` quoted for a POSIX shell when it needs it
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&byte));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_calls_read_as_the_command_line_codex_hooks_send() {
        let call = tool_call(
            "shell",
            json!({"command": ["bash", "-lc", "ls -la && rm x"]}),
        );
        assert_eq!(
            (call.name.as_str(), call.input),
            ("Bash", json!({"command": "ls -la && rm x"}))
        );
        let call = tool_call(
            "shell",
            json!({"command": ["git", "commit", "-m", "it's done"]}),
        );
        assert_eq!(
            call.input,
            json!({"command": r"git commit -m 'it'\''s done'"})
        );
        let call = tool_call("read_file", json!({"path": "a"}));
        assert_eq!(
            (call.name.as_str(), call.input),
            ("read_file", json!({"path": "a"}))
        );
    }
}
