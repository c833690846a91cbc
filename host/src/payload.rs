//! The hook JSON a host writes on stdin, read into one host-independent [`HookCall`].
//!
//! Invariant: reading is tolerant where hosts differ and strict where a guard must be. Unknown
//! fields are ignored and optional ones may be missing or `null` (hosts add fields between
//! releases, and Codex sends `transcript_path: null`); a field we read that has the wrong JSON
//! type is a [`PayloadError`]. Input that is not a JSON object, or whose `hook_event_name` is
//! missing, cannot be told apart from a tool call, so it is an error that gates one
//! ([`PayloadError::gates_tool_call`]): the caller fails closed on it.

use std::fmt;

use rulesc_runtime::ToolOutput;
use serde::Deserialize;
use serde_json::Value as Json;

use super::Host;

/// A host event `rulesc hook` maps to rulesc events (CLI.md's mapping table)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HostEvent {
    /// `SessionStart`: `execution_start`
    SessionStart,
    /// `UserPromptSubmit` (Gemini CLI: `BeforeAgent`): `before_step`
    PromptSubmit,
    /// `PreToolUse` (`BeforeTool`): `pre_tool_use`
    PreTool,
    /// `PostToolUse` (`AfterTool`): `post_tool_use`
    PostTool,
    /// `PostToolUseFailure` (Gemini CLI: an `AfterTool` whose response carries an `error`):
    /// `post_tool_use` with `tool_error`, then `on_error`
    PostToolFailure,
    /// `Stop` (`AfterAgent`): `stop`
    Stop,
    /// `SubagentStop`: `subagent_stop`
    SubagentStop,
    /// `SessionEnd`: `execution_end`
    SessionEnd,
}

/// The event names of Claude Code, which Codex shares
const CLAUDE_EVENTS: [(&str, HostEvent); 8] = [
    ("SessionStart", HostEvent::SessionStart),
    ("UserPromptSubmit", HostEvent::PromptSubmit),
    ("PreToolUse", HostEvent::PreTool),
    ("PostToolUse", HostEvent::PostTool),
    ("PostToolUseFailure", HostEvent::PostToolFailure),
    ("Stop", HostEvent::Stop),
    ("SubagentStop", HostEvent::SubagentStop),
    ("SessionEnd", HostEvent::SessionEnd),
];

/// The event names of Gemini CLI (a failed `AfterTool` is told apart by its response)
const GEMINI_EVENTS: [(&str, HostEvent); 6] = [
    ("SessionStart", HostEvent::SessionStart),
    ("BeforeAgent", HostEvent::PromptSubmit),
    ("BeforeTool", HostEvent::PreTool),
    ("AfterTool", HostEvent::PostTool),
    ("AfterAgent", HostEvent::Stop),
    ("SessionEnd", HostEvent::SessionEnd),
];

impl Host {
    /// The host's event names and what each one is
    fn events(self) -> &'static [(&'static str, HostEvent)] {
        match self {
            Host::Claude | Host::Codex => &CLAUDE_EVENTS,
            Host::Gemini => &GEMINI_EVENTS,
        }
    }

    /// The host event called `name` by this host, if it is one `rulesc hook` maps
    fn event(self, name: &str) -> Option<HostEvent> {
        self.events()
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, event)| *event)
    }

    /// The other protocol's host whose event this is, when `name` is not this host's
    fn other_host_with(self, name: &str) -> Option<(Host, HostEvent)> {
        let other = match self {
            Host::Claude | Host::Codex => Host::Gemini,
            Host::Gemini => Host::Claude,
        };
        other.event(name).map(|event| (other, event))
    }
}

/// One hook call, read from the host's JSON
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HookCall {
    /// The host's name of the event, echoed in answers that name it (`hookEventName`)
    pub(crate) name: String,
    /// What the event is
    pub(crate) event: HostEvent,
    /// The session the call belongs to; `default` when the host sent none
    pub(crate) session_id: String,
    /// The tool's name (tool events)
    pub(crate) tool: Option<String>,
    /// The tool's JSON input (tool events)
    pub(crate) arg: Option<Json>,
    /// The tool's output (`PostToolUse`, `AfterTool`)
    pub(crate) result: Option<ToolOutput>,
    /// The failure's text (`PostToolUseFailure`, a failed `AfterTool`)
    pub(crate) error: Option<String>,
    /// The agent's last answer (`Stop`, `SubagentStop`, `AfterAgent`)
    pub(crate) response: Option<String>,
    /// Whether the host is already continuing because a stop hook kept it working
    pub(crate) stop_hook_active: bool,
    /// The agent's working folder
    pub(crate) cwd: Option<String>,
    /// The host's permission mode (Claude Code, Codex)
    pub(crate) permission_mode: Option<String>,
    /// The user's prompt (`UserPromptSubmit`, `BeforeAgent`)
    pub(crate) prompt: Option<String>,
}

/// What the host sent
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Received {
    /// A call to answer
    Call(Box<HookCall>),
    /// A well-formed event `rulesc hook` does not map (`Notification`, `PreCompact`...): no
    /// opinion, with a note for the user
    Unmapped(String),
}

/// Why the host's JSON could not be read
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PayloadError {
    /// What is wrong, one lowercase line
    reason: String,
    /// Whether the call could be a tool call, so that the caller must fail closed
    gates_tool_call: bool,
}

impl PayloadError {
    fn new(reason: impl Into<String>, gates_tool_call: bool) -> PayloadError {
        PayloadError {
            reason: reason.into(),
            gates_tool_call,
        }
    }

    /// Whether the call could be a tool call (or its event is unknown), so it must be denied
    pub(crate) fn gates_tool_call(&self) -> bool {
        self.gates_tool_call
    }
}

impl fmt::Display for PayloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

/// The fields of every host's payload that rulesc reads; everything else is ignored
#[derive(Debug, Deserialize)]
struct Fields {
    #[serde(default)]
    session_id: Option<String>,
    #[serde(default)]
    tool_name: Option<String>,
    #[serde(default)]
    tool_input: Option<Json>,
    #[serde(default)]
    tool_response: Option<Json>,
    /// Claude Code's failure text (`PostToolUseFailure`)
    #[serde(default)]
    error: Option<Json>,
    /// The same under the name some Claude Code releases use
    #[serde(default)]
    error_message: Option<Json>,
    #[serde(default)]
    stop_hook_active: Option<bool>,
    /// Claude Code's and Codex's final answer (`Stop`, `SubagentStop`)
    #[serde(default)]
    last_assistant_message: Option<String>,
    /// Gemini CLI's final answer (`AfterAgent`)
    #[serde(default)]
    prompt_response: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    permission_mode: Option<String>,
    #[serde(default)]
    prompt: Option<String>,
}

/// Reads the host's hook JSON
pub(crate) fn read(input: &[u8], host: Host) -> Result<Received, PayloadError> {
    let json: Json = serde_json::from_slice(input)
        .map_err(|err| PayloadError::new(format!("the hook input is not JSON: {err}"), true))?;
    let Json::Object(object) = &json else {
        return Err(PayloadError::new(
            "the hook input is not a JSON object",
            true,
        ));
    };
    let name = match object.get("hook_event_name") {
        Some(Json::String(name)) => name.clone(),
        Some(_) => return Err(PayloadError::new("`hook_event_name` is not a string", true)),
        None => {
            return Err(PayloadError::new(
                "the hook input has no `hook_event_name`",
                true,
            ))
        }
    };
    let Some(event) = host.event(&name) else {
        return match host.other_host_with(&name) {
            Some((other, other_event)) => Err(PayloadError::new(
                format!(
                    "`{name}` is a {} event but `--host {}` was given",
                    other.title(),
                    host.flag()
                ),
                other_event == HostEvent::PreTool,
            )),
            None => Ok(Received::Unmapped(name)),
        };
    };
    let fields: Fields = serde_json::from_value(json).map_err(|err| {
        PayloadError::new(
            format!("the `{name}` input is malformed: {err}"),
            event == HostEvent::PreTool,
        )
    })?;
    Ok(Received::Call(Box::new(call(host, name, event, fields))))
}

/// The call described by a payload's fields
fn call(host: Host, name: String, event: HostEvent, fields: Fields) -> HookCall {
    let tool_failure = match (host, event) {
        (Host::Claude | Host::Codex, HostEvent::PostToolFailure) => Some(
            fields
                .error
                .or(fields.error_message)
                .map(|error| text(&error))
                .unwrap_or_else(|| "the tool call failed".to_owned()),
        ),
        (Host::Gemini, HostEvent::PostTool) => fields.tool_response.as_ref().and_then(gemini_error),
        _ => None,
    };
    let (event, result) = match tool_failure {
        Some(_) => (HostEvent::PostToolFailure, None),
        None if event == HostEvent::PostTool => {
            let result = fields.tool_response.map(|response| match host {
                Host::Gemini => {
                    let text = gemini_output(&response);
                    ToolOutput::with_text(response, text)
                }
                Host::Claude | Host::Codex => ToolOutput::from_json(response),
            });
            (event, result)
        }
        None => (event, None),
    };
    let response = match host {
        Host::Claude | Host::Codex => fields.last_assistant_message,
        Host::Gemini => fields.prompt_response,
    };
    HookCall {
        name,
        event,
        session_id: fields
            .session_id
            .filter(|id| !id.is_empty())
            .unwrap_or_else(|| "default".to_owned()),
        tool: fields.tool_name,
        arg: fields.tool_input,
        result,
        error: tool_failure,
        response,
        stop_hook_active: fields.stop_hook_active.unwrap_or(false),
        cwd: fields.cwd,
        permission_mode: fields.permission_mode,
        prompt: fields.prompt,
    }
}

/// JSON as the text a condition reads: a string as itself, anything else as compact JSON
fn text(json: &Json) -> String {
    match json {
        Json::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// What the model saw of a Gemini CLI tool's response: its `llmContent` when that is text
fn gemini_output(response: &Json) -> String {
    match response.get("llmContent") {
        Some(Json::String(content)) => content.clone(),
        _ => text(response),
    }
}

/// The failure of a Gemini CLI tool's response: its `error` (or `error.message`), if set
fn gemini_error(response: &Json) -> Option<String> {
    match response.get("error")? {
        Json::Null => None,
        Json::Object(error) => Some(match error.get("message") {
            Some(Json::String(message)) => message.clone(),
            _ => Json::Object(error.clone()).to_string(),
        }),
        other => Some(text(other)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read_call(host: Host, json: Json) -> HookCall {
        match read(json.to_string().as_bytes(), host) {
            Ok(Received::Call(call)) => *call,
            other => panic!("expected a call, got {other:?}"),
        }
    }

    #[test]
    fn claude_pre_tool_use_keeps_tool_and_input() {
        let call = read_call(
            Host::Claude,
            json!({"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": "ls"}, "permission_mode": "default",
                   "an_unknown_field": [1, 2]}),
        );
        assert_eq!(call.event, HostEvent::PreTool);
        assert_eq!(call.session_id, "s1");
        assert_eq!(call.tool.as_deref(), Some("Bash"));
        assert_eq!(call.arg, Some(json!({"command": "ls"})));
    }

    #[test]
    fn tool_response_objects_are_structured_with_their_json_text() {
        let call = read_call(
            Host::Claude,
            json!({"hook_event_name": "PostToolUse", "tool_name": "Bash",
                   "tool_response": {"stdout": "a.txt", "stderr": ""}}),
        );
        assert_eq!(call.session_id, "default");
        let result = call.result.unwrap();
        assert_eq!(result.text(), r#"{"stderr":"","stdout":"a.txt"}"#);
        assert_eq!(
            result.json(),
            Some(&json!({"stdout": "a.txt", "stderr": ""}))
        );
    }

    #[test]
    fn a_failed_gemini_after_tool_is_a_tool_failure() {
        let call = read_call(
            Host::Gemini,
            json!({"session_id": "g", "hook_event_name": "AfterTool", "tool_name": "read_file",
                   "tool_response": {"llmContent": "", "error": {"message": "no such file"}}}),
        );
        assert_eq!(call.event, HostEvent::PostToolFailure);
        assert_eq!(call.error.as_deref(), Some("no such file"));
        let ok = read_call(
            Host::Gemini,
            json!({"session_id": "g", "hook_event_name": "AfterTool", "tool_name": "read_file",
                   "tool_response": {"llmContent": "hello", "error": null}}),
        );
        assert_eq!(ok.event, HostEvent::PostTool);
        let result = ok.result.unwrap();
        assert_eq!(result.text(), "hello");
        assert_eq!(
            result.json(),
            Some(&json!({"llmContent": "hello", "error": null}))
        );
    }

    #[test]
    fn not_json_and_nameless_input_gate_tool_calls() {
        for input in ["not json", "[1]", r#"{"session_id": "s"}"#] {
            let err = read(input.as_bytes(), Host::Claude).unwrap_err();
            assert!(err.gates_tool_call(), "{input}: {err}");
        }
    }

    #[test]
    fn a_malformed_field_gates_only_tool_calls() {
        let pre = read(
            br#"{"hook_event_name": "PreToolUse", "tool_name": 3}"#,
            Host::Claude,
        )
        .unwrap_err();
        assert!(pre.gates_tool_call());
        let stop = read(
            br#"{"hook_event_name": "Stop", "stop_hook_active": "yes"}"#,
            Host::Claude,
        )
        .unwrap_err();
        assert!(!stop.gates_tool_call());
        assert!(stop
            .to_string()
            .starts_with("the `Stop` input is malformed"));
    }

    #[test]
    fn another_hosts_tool_event_gates_tool_calls() {
        let err = read(br#"{"hook_event_name": "BeforeTool"}"#, Host::Claude).unwrap_err();
        assert!(err.gates_tool_call());
        assert_eq!(
            err.to_string(),
            "`BeforeTool` is a Gemini CLI event but `--host claude` was given"
        );
    }

    #[test]
    fn unmapped_events_are_no_opinion() {
        let received = read(br#"{"hook_event_name": "Notification"}"#, Host::Claude).unwrap();
        assert_eq!(received, Received::Unmapped("Notification".to_owned()));
    }
}
