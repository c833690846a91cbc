//! The hook JSON a host writes on stdin, read into one host-independent [`HookCall`].
//!
//! Invariant: reading is tolerant where hosts differ and strict where a guard must be. Unknown
//! fields are ignored and optional ones may be missing or `null` (hosts add fields between
//! releases, and Codex sends `transcript_path: null`); a field we read that has the wrong JSON
//! type is a [`PayloadError`]. A call that gates a tool (`PreToolUse`, `PermissionRequest`,
//! `BeforeTool`) must carry a non-empty string `tool_name` and an object `tool_input`, as
//! every host's schema has them. Input that is not UTF-8, not JSON, not an object, or names
//! no event the host sends — a misspelt or miscased name included — cannot be told apart
//! from a tool call, so it is an error that gates one ([`PayloadError::gates_tool_call`]):
//! the caller fails closed on it. Events a host sends that rulesc does not map
//! (`Notification`, `PreCompact`, ...) are no opinion. Where hosts' payloads differ, each
//! host's profile says how (`hosts/`).

use std::fmt;

use rulesc_runtime::{HostEvent, HostEventName as Known, ToolOutput};
use serde::Deserialize;
use serde_json::Value as Json;

use crate::hosts::{text, FinalAnswer, Host};

mod recover;

impl Host {
    /// The host's event names and what each one is
    fn events(self) -> &'static [(&'static str, Known)] {
        self.profile().events
    }

    /// What the event this host calls `name` is, if the host sends one of that name
    fn event(self, name: &str) -> Option<Known> {
        self.events()
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, event)| *event)
    }

    /// The names of the events of this host that `rulesc hook` maps to rulesc events, in
    /// the order of the event table of docs/hosts.md: the events a hook configuration should send it
    pub fn hook_events(self) -> impl Iterator<Item = &'static str> {
        self.events()
            .iter()
            .filter(|(_, known)| matches!(known, Known::Mapped(_)))
            .map(|(name, _)| *name)
    }

    /// The names of every event this host sends, mapped or not
    pub fn event_names(self) -> impl Iterator<Item = &'static str> {
        self.events().iter().map(|(name, _)| *name)
    }

    /// Another host that sends an event called `name`, when this one does not
    fn other_host_with(self, name: &str) -> Option<Host> {
        Host::ALL
            .into_iter()
            .find(|other| *other != self && other.event(name).is_some())
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
    /// The fields of the payload that could not be read, with why, left out of the call
    pub(crate) unread: Unread,
    /// Why the payload is no whole JSON, when it was read field by field or cut short: the
    /// event counts, yet the call is refused, as no reader can tell what it was
    pub(crate) not_json: Option<String>,
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
    /// Gemini CLI's description of an MCP tool: its server (`server_name`) and its own name
    /// (`tool_name`)
    #[serde(default)]
    mcp_context: Option<Json>,
}

/// Reads the host's hook JSON
pub(crate) fn read(input: &[u8], host: Host) -> Result<Received, PayloadError> {
    let text = std::str::from_utf8(input).map_err(|err| {
        PayloadError::new(
            format!(
                "the hook input is not UTF-8 text (invalid byte at offset {})",
                err.valid_up_to()
            ),
            true,
        )
    })?;
    let (json, unread, not_json) = match serde_json::from_str::<Json>(text) {
        Ok(json) => (json, Vec::new(), None),
        Err(err) => match read_fields_apart(text).or_else(|| recovered_post(text, host, &err)) {
            Some((object, unread)) => (Json::Object(object), unread, Some(err.to_string())),
            None => {
                return Err(PayloadError::new(
                    format!("the hook input is not JSON: {err}"),
                    true,
                ))
            }
        },
    };
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
    let event = match host.event(&name) {
        Some(Known::Mapped(event)) => event,
        Some(Known::Unmapped) => return Ok(Received::Unmapped(name)),
        None => return Err(unknown_event(host, &name)),
    };
    let (json, unread) = set_apart_mistyped(json, unread);
    check_unread(&name, event, &unread)?;
    let fields: Fields = serde_json::from_value(json).map_err(|err| {
        PayloadError::new(
            format!("the `{name}` input is malformed: {err}"),
            event.gates_tool_call(),
        )
    })?;
    if event.gates_tool_call() {
        check_tool_call(&name, &fields)?;
    }
    let mut call = call(host, name, event, fields);
    // Output of a tool nobody knows is taken as unknown too: a label any rule could attach
    // to it then holds every value, as its provenance cannot be told.
    let unknown = |name: &str| unread.iter().any(|(field, _)| field == name);
    if unknown("tool_response")
        || (call.event == HostEvent::PostTool && (unknown("tool_name") || unknown("mcp_context")))
    {
        call.result = Some(ToolOutput::unreadable());
    }
    call.unread = unread;
    call.not_json = not_json;
    Ok(Received::Call(Box::new(call)))
}

/// The fields of a payload that could not be read, each with why
type Unread = Vec<(String, String)>;

/// The top-level fields of a JSON object some of whose values cannot be read (a lone
/// surrogate in a string, which JavaScript's `JSON.stringify` writes; nesting deeper than
/// serde_json reads), each read on its own: the readable ones, and the names of the others
/// with why; `None` when the text is no JSON object at all
fn read_fields_apart(text: &str) -> Option<(serde_json::Map<String, Json>, Unread)> {
    // Skipping over a value checks its shape, not its strings, and uses no recursion.
    let raw: std::collections::BTreeMap<String, Box<serde_json::value::RawValue>> =
        serde_json::from_str(text).ok()?;
    let mut object = serde_json::Map::new();
    let mut unread = Vec::new();
    for (key, value) in raw {
        match serde_json::from_str::<Json>(value.get()) {
            Ok(json) => {
                object.insert(key, json);
            }
            Err(err) => unread.push((key, err.to_string())),
        }
    }
    Some((object, unread))
}

/// What can be read soundly of a post-tool payload that is not JSON (cut short): the tool
/// has run, so its event must count and its output may carry any label
/// ([`recover::leading_fields`]). Only when the session's id and the event's name are read
/// whole, and the event is a post-tool one; each field a post-tool event reads that is not
/// read whole is unknown, and a tool name a missing `mcp_context` could change is too.
fn recovered_post(
    text: &str,
    host: Host,
    err: &serde_json::Error,
) -> Option<(serde_json::Map<String, Json>, Unread)> {
    let object = recover::leading_fields(text)?;
    let event = host.event(object.get("hook_event_name")?.as_str()?)?;
    if !matches!(
        event,
        Known::Mapped(HostEvent::PostTool | HostEvent::PostToolFailure)
    ) || !object.get("session_id")?.is_string()
    {
        return None;
    }
    let renames = |tool: &str| {
        let name = host.profile().payload.tool_name;
        name(
            tool.to_owned(),
            Some(&serde_json::json!({"server_name": "s"})),
        ) != name(tool.to_owned(), None)
    };
    let tool_may_change = object
        .get("tool_name")
        .and_then(Json::as_str)
        .is_some_and(renames);
    let why = format!("the input breaks off before it, and is not JSON: {err}");
    let outcome = match event {
        Known::Mapped(HostEvent::PostToolFailure) => "error",
        _ => "tool_response",
    };
    let unread = ["tool_name", "tool_input", outcome, "cwd", "permission_mode"]
        .into_iter()
        .chain(tool_may_change.then_some("mcp_context"))
        .filter(|field| !object.contains_key(*field))
        .map(|field| (field.to_owned(), why.clone()))
        .collect();
    Some((object, unread))
}

/// `json` without the fields rulesc reads whose value has the wrong type (`"cwd": 7`), and
/// `unread` with each of them added, naming what was wrong, so that a wrong type is one more
/// field that cannot be read ([`check_unread`])
fn set_apart_mistyped(json: Json, mut unread: Unread) -> (Json, Unread) {
    let Json::Object(mut object) = json else {
        return (json, unread);
    };
    if serde_json::from_value::<Fields>(Json::Object(object.clone())).is_err() {
        let mistyped: Vec<(String, String)> = object
            .iter()
            .filter_map(|(key, value)| {
                let alone =
                    Json::Object(serde_json::Map::from_iter([(key.clone(), value.clone())]));
                serde_json::from_value::<Fields>(alone)
                    .err()
                    .map(|err| (key.clone(), err.to_string()))
            })
            .collect();
        for (key, why) in mistyped {
            object.remove(&key);
            unread.push((key, why));
        }
    }
    (Json::Object(object), unread)
}

/// Refuses a call with fields that could not be read, unless the call can be answered
/// without them: only after a tool ran (its output is then taken as unknown, so what the
/// call counts and labels is kept, [`ToolOutput::unreadable`], and every other field is
/// unknown), and never without the session's id or the event's name
fn check_unread(
    name: &str,
    event: HostEvent,
    unread: &[(String, String)],
) -> Result<(), PayloadError> {
    let after_tool = matches!(event, HostEvent::PostTool | HostEvent::PostToolFailure);
    let blocking = unread.iter().find(|(field, _)| {
        !after_tool || matches!(field.as_str(), "session_id" | "hook_event_name")
    });
    match blocking {
        Some((field, why)) => Err(PayloadError::new(
            format!("the `{name}` input cannot be read: its `{field}` cannot be read ({why})"),
            event.gates_tool_call(),
        )),
        None => Ok(()),
    }
}

/// Why `name` is no event of `host`: another host's event, a name in the wrong case, or
/// simply unknown; it gates a tool call, since it may be one
fn unknown_event(host: Host, name: &str) -> PayloadError {
    let reason = if let Some(other) = host.other_host_with(name) {
        format!(
            "`{name}` is a {} event but `--host {}` was given",
            other.title(),
            host.flag()
        )
    } else if let Some(known) = host
        .event_names()
        .find(|known| known.eq_ignore_ascii_case(name))
    {
        format!(
            "`{name}` is not a {} event; event names are case-sensitive: `{known}`",
            host.title()
        )
    } else {
        format!(
            "`{name}` is not an event {} sends (it sends {})",
            host.title(),
            host.event_names()
                .map(|known| format!("`{known}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    PayloadError::new(reason, true)
}

/// Checks what every host's schema requires of a call that gates a tool: a non-empty string
/// `tool_name` and an object `tool_input`
fn check_tool_call(name: &str, fields: &Fields) -> Result<(), PayloadError> {
    let problem = match (&fields.tool_name, &fields.tool_input) {
        (None, _) => "it has no `tool_name`".to_owned(),
        (Some(tool), _) if tool.trim().is_empty() => "its `tool_name` is empty".to_owned(),
        (_, None) => "it has no `tool_input`".to_owned(),
        (_, Some(Json::Object(_))) => return Ok(()),
        (_, Some(other)) => format!("its `tool_input` is {}, not an object", json_type(other)),
    };
    Err(PayloadError::new(
        format!("the `{name}` input cannot be checked: {problem}"),
        true,
    ))
}

/// A JSON value's type with its article, for messages
fn json_type(json: &Json) -> &'static str {
    match json {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// The call described by a payload's fields
fn call(host: Host, name: String, event: HostEvent, fields: Fields) -> HookCall {
    let payload = &host.profile().payload;
    let tool_failure = match event {
        HostEvent::PostToolFailure => Some(
            fields
                .error
                .or(fields.error_message)
                .map(|error| text(&error))
                .unwrap_or_else(|| "the tool call failed".to_owned()),
        ),
        HostEvent::PostTool => fields
            .tool_response
            .as_ref()
            .and_then(payload.failure_in_output),
        _ => None,
    };
    let (event, result) = match tool_failure {
        Some(_) => (HostEvent::PostToolFailure, None),
        None if event == HostEvent::PostTool => {
            (event, fields.tool_response.map(payload.tool_output))
        }
        None => (event, None),
    };
    let response = match payload.final_answer {
        FinalAnswer::LastAssistantMessage => fields.last_assistant_message,
        FinalAnswer::PromptResponse => fields.prompt_response,
    };
    let arg = fields
        .tool_input
        .map(|input| (payload.tool_input)(fields.tool_name.as_deref(), input));
    let mcp_context = fields.mcp_context.as_ref();
    HookCall {
        name,
        event,
        session_id: fields
            .session_id
            .filter(|id| !id.is_empty())
            .unwrap_or_else(|| "default".to_owned()),
        arg,
        tool: fields
            .tool_name
            .map(|tool| (payload.tool_name)(tool, mcp_context)),
        result,
        error: tool_failure,
        response,
        stop_hook_active: fields.stop_hook_active.unwrap_or(false),
        cwd: fields.cwd,
        permission_mode: fields.permission_mode,
        prompt: fields.prompt,
        unread: Vec::new(),
        not_json: None,
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
    fn a_gemini_mcp_tool_is_named_as_the_other_hosts_name_it() {
        let before_tool = |tool: &str, context: Json| {
            read_call(
                Host::Gemini,
                json!({"session_id": "s1", "hook_event_name": "BeforeTool", "tool_name": tool,
                       "tool_input": {}, "mcp_context": context}),
            )
            .tool
        };
        let named = Some("mcp__probe__send_note".to_owned());
        let server = json!({"server_name": "probe"});
        assert_eq!(before_tool("mcp_probe_send_note", server.clone()), named);
        assert_eq!(
            before_tool(
                "send_note",
                json!({"server_name": "probe", "tool_name": "send_note"})
            ),
            named
        );
        assert_eq!(before_tool("mcp__probe__send_note", server), named);
        assert_eq!(
            before_tool("read_file", json!({})),
            Some("read_file".to_owned())
        );
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
        assert_eq!(
            stop.to_string(),
            "the `Stop` input cannot be read: its `stop_hook_active` cannot be read \
             (invalid type: string \"yes\", expected a boolean)"
        );
    }

    #[test]
    fn a_post_tool_call_counts_with_its_mistyped_fields_unknown() {
        let call = read_call(
            Host::Claude,
            json!({"session_id": "s1", "hook_event_name": "PostToolUse", "tool_name": "web",
                   "tool_input": {}, "tool_response": "ok", "cwd": 7, "permission_mode": false}),
        );
        let unread: Vec<&str> = call
            .unread
            .iter()
            .map(|(field, _)| field.as_str())
            .collect();
        assert_eq!(unread, ["cwd", "permission_mode"]);
        assert_eq!(call.tool.as_deref(), Some("web"));
        assert_eq!(
            call.result.map(|result| result.is_unreadable()),
            Some(false)
        );
        // Without a readable session, nothing can be recorded: the call is refused.
        let refused = read(
            br#"{"session_id": 1, "hook_event_name": "PostToolUse", "tool_name": "web"}"#,
            Host::Claude,
        )
        .unwrap_err();
        assert!(refused
            .to_string()
            .contains("its `session_id` cannot be read"));
    }

    #[test]
    fn a_post_tool_payload_cut_short_counts_with_what_is_missing_unknown() {
        let cut = br#"{"session_id": "s1", "hook_event_name": "PostToolUse", "tool_name": "web", "tool_response": "ab"#;
        let Ok(Received::Call(call)) = read(cut, Host::Claude) else {
            panic!("a post-tool payload cut short is not read");
        };
        assert_eq!(call.tool.as_deref(), Some("web"));
        assert!(call.result.is_some_and(|result| result.is_unreadable()));
        // Cut before its name, the tool is unknown, and so is its output.
        let nameless = br#"{"session_id": "s1", "hook_event_name": "PostToolUse", "tool_na"#;
        let Ok(Received::Call(call)) = read(nameless, Host::Claude) else {
            panic!("a post-tool payload cut short is not read");
        };
        assert!(call.unread.iter().any(|(field, _)| field == "tool_name"));
        assert!(call.result.is_some_and(|result| result.is_unreadable()));
        // Gemini CLI names an MCP tool by its `mcp_context`, which a cut may have taken.
        let gemini =
            br#"{"session_id": "s1", "hook_event_name": "AfterTool", "tool_name": "note", "x"#;
        let Ok(Received::Call(call)) = read(gemini, Host::Gemini) else {
            panic!("a post-tool payload cut short is not read");
        };
        assert!(call.unread.iter().any(|(field, _)| field == "mcp_context"));
        // A tool call, or a payload without its session, is refused as before.
        for refused in [
            &br#"{"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "web", "#[..],
            br#"{"hook_event_name": "PostToolUse", "tool_name": "web", "session_id": "s"#,
        ] {
            let err = read(refused, Host::Claude).unwrap_err();
            assert!(
                err.gates_tool_call() && err.to_string().contains("not JSON"),
                "{err}"
            );
        }
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

    #[test]
    fn a_tool_call_without_a_readable_tool_is_refused() {
        let cases = [
            (
                r#"{"hook_event_name": "PreToolUse", "tool_input": {}}"#,
                "no `tool_name`",
            ),
            (
                r#"{"hook_event_name": "PreToolUse", "tool_name": " ", "tool_input": {}}"#,
                "`tool_name` is empty",
            ),
            (
                r#"{"hook_event_name": "PreToolUse", "tool_name": "Bash"}"#,
                "no `tool_input`",
            ),
            (
                r#"{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": "ls"}"#,
                "`tool_input` is a string, not an object",
            ),
            (
                r#"{"hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": [1]}"#,
                "`tool_input` is an array, not an object",
            ),
            (
                r#"{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": 3}"#,
                "`tool_input` is a number, not an object",
            ),
        ];
        for (input, problem) in cases {
            let err = read(input.as_bytes(), Host::Claude).unwrap_err();
            assert!(err.gates_tool_call(), "{input}");
            assert!(err.to_string().contains(problem), "{input}: {err}");
        }
        let gemini = read(
            br#"{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": null}"#,
            Host::Gemini,
        )
        .unwrap_err();
        assert!(gemini.to_string().contains("no `tool_input`"), "{gemini}");
    }

    #[test]
    fn names_in_the_wrong_case_or_unknown_are_refused_with_the_right_name() {
        let err = read(br#"{"hook_event_name": "preToolUse"}"#, Host::Claude).unwrap_err();
        assert!(err.gates_tool_call());
        assert!(
            err.to_string().contains("case-sensitive: `PreToolUse`"),
            "{err}"
        );
        let err = read(br#"{"hook_event_name": "beforeTool"}"#, Host::Gemini).unwrap_err();
        assert!(err.to_string().contains("`BeforeTool`"), "{err}");
        let err = read(br#"{"hook_event_name": "Teleport"}"#, Host::Codex).unwrap_err();
        assert!(err.gates_tool_call());
        assert!(
            err.to_string()
                .starts_with("`Teleport` is not an event Codex sends"),
            "{err}"
        );
    }

    #[test]
    fn input_that_is_not_utf8_is_refused() {
        let err = read(b"{\"hook_event_name\": \"PreToolUse\\\xff\"}", Host::Claude).unwrap_err();
        assert!(err.gates_tool_call());
        assert!(
            err.to_string().starts_with("the hook input is not UTF-8"),
            "{err}"
        );
    }

    #[test]
    fn permission_requests_gate_tool_calls() {
        let call = read_call(
            Host::Codex,
            json!({"session_id": "c", "hook_event_name": "PermissionRequest", "tool_name": "Bash",
                   "tool_input": {"command": "rm -rf build", "description": "clean"}}),
        );
        assert_eq!(call.event, HostEvent::PermissionRequest);
        assert!(call.event.gates_tool_call());
    }

    #[test]
    fn codex_patches_name_the_files_they_touch() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n\
                     *** Add File: /etc/cron.d/job\n+* * * * * sh\n*** Delete File: b.txt\n\
                     *** Update File: c.rs\n*** Move to: d.rs\n*** Update File: src/a.rs\n*** End Patch";
        let call = read_call(
            Host::Codex,
            json!({"session_id": "c", "hook_event_name": "PreToolUse", "tool_name": "apply_patch",
                   "tool_input": {"command": patch}}),
        );
        let arg = call.arg.unwrap();
        assert_eq!(
            arg["files"],
            json!(["src/a.rs", "/etc/cron.d/job", "b.txt", "c.rs", "d.rs"])
        );
        assert_eq!(arg["patch"], json!(patch));
        assert_eq!(arg["command"], json!(patch));
        // Only Codex's `apply_patch` is read as a patch.
        let bash = read_call(
            Host::Codex,
            json!({"session_id": "c", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": patch}}),
        );
        assert_eq!(bash.arg.unwrap().get("files"), None);
    }
}
