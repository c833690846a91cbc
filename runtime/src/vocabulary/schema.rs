//! The one schema of events (docs/language.md §4.1, docs/cli.md "Event input"): every field a
//! condition reads, with its spelling, type, values and the events that see it; and every
//! key of event JSON, with its JSON type and the inline-test key that sets it.
//!
//! Invariant: this file is the only table of event fields. The compiler checks conditions
//! and inline tests with it, the lints reason with its values, the command line reads and
//! explains event JSON with it, and `runtime/tests/schema.rs` holds it to the `Event` type
//! it describes, key for key.

use std::fmt;

use super::{
    ErrorKind, EventKind, Field, FieldPath, FieldType, FinishReason, Status, StopDecision,
    StopReason,
};

/// The fixed-name condition fields: spelling, field, and what it means
const NAMED: [(&str, Field, &str); 27] = [
    (
        "step",
        Field::Step,
        "number of the current step, from 1 (0 before the first step)",
    ),
    ("steps", Field::Steps, "steps completed so far"),
    (
        "tokens",
        Field::Tokens,
        "total tokens used (input + output)",
    ),
    ("input_tokens", Field::InputTokens, "input tokens used"),
    ("output_tokens", Field::OutputTokens, "output tokens used"),
    ("elapsed", Field::Elapsed, "time since `execution_start`"),
    (
        "failures",
        Field::Failures,
        "consecutive failures (reset by a successful step)",
    ),
    ("errors", Field::Errors, "total errors in this execution"),
    (
        "retries",
        Field::Retries,
        "retries of the current step so far",
    ),
    (
        "messages",
        Field::Messages,
        "number of messages sent to the model",
    ),
    ("response", Field::Response, "the model's text response"),
    (
        "finish_reason",
        Field::FinishReason,
        "why the model stopped generating",
    ),
    (
        "tool_calls",
        Field::ToolCalls,
        "number of tool calls the model made",
    ),
    ("tool", Field::Tool, "the tool's name"),
    (
        "result",
        Field::Result,
        "the tool's output as text (`result.<key>` reads into JSON output)",
    ),
    (
        "tool_error",
        Field::ToolError,
        "whether the tool call failed",
    ),
    (
        "blocked",
        Field::Blocked,
        "whether the tool call was blocked",
    ),
    ("error.kind", Field::ErrorKind, "the kind of the failure"),
    ("error.message", Field::ErrorMessage, "the failure's text"),
    ("stop_reason", Field::StopReason, "why the loop stops"),
    (
        "stop_decision",
        Field::StopDecision,
        "the pending stop's decision",
    ),
    (
        "stop_requests",
        Field::StopRequests,
        "how many times a stop was already prevented",
    ),
    ("status", Field::Status, "the finished run's status"),
    (
        "cwd",
        Field::Cwd,
        "the agent's working folder, as the host reports it",
    ),
    (
        "permission_mode",
        Field::PermissionMode,
        "the host's permission mode",
    ),
    ("session_id", Field::SessionId, "the host's session id"),
    (
        "prompt",
        Field::Prompt,
        "the user's prompt of the turn: every event of the turn sees it",
    ),
];

/// A field whose string values are a closed set (docs/language.md §4.1)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Enumeration {
    /// `finish_reason`
    FinishReason,
    /// `error.kind`
    ErrorKind,
    /// `status`
    Status,
    /// `stop_reason`
    StopReason,
    /// `stop_decision`
    StopDecision,
}

impl Enumeration {
    /// Every value, as written in conditions and JSON
    pub fn names(self) -> Vec<&'static str> {
        match self {
            Enumeration::FinishReason => FinishReason::ALL.map(FinishReason::name).to_vec(),
            Enumeration::ErrorKind => ErrorKind::ALL.map(ErrorKind::name).to_vec(),
            Enumeration::Status => Status::ALL.map(Status::name).to_vec(),
            Enumeration::StopReason => StopReason::ALL.map(StopReason::name).to_vec(),
            Enumeration::StopDecision => StopDecision::ALL.map(StopDecision::name).to_vec(),
        }
    }
}

impl Field {
    /// The fixed-name field spelled `name` (`steps`, `error.kind`), if any
    ///
    /// `arg.*` and `metadata.*` are built from their paths instead.
    pub fn from_name(name: &str) -> Option<Field> {
        NAMED
            .iter()
            .find(|(spelling, _, _)| *spelling == name)
            .map(|(_, field, _)| field.clone())
    }

    /// Every fixed-name spelling, for suggestions
    pub fn names() -> impl Iterator<Item = &'static str> {
        NAMED.iter().map(|(spelling, _, _)| *spelling)
    }

    /// What the field means, in one line
    pub fn doc(&self) -> &'static str {
        match self {
            Field::Arg(_) => "the tool's JSON input",
            Field::ResultPath(_) => "a part of the tool's output, when that output is JSON",
            Field::Metadata(_) => "values set by `set` effects or by the host application",
            named => NAMED
                .iter()
                .find(|(_, field, _)| field == named)
                .map_or("", |(_, _, doc)| *doc),
        }
    }

    /// The field's static type
    pub fn ty(&self) -> FieldType {
        use Field as F;
        match self {
            F::Step
            | F::Steps
            | F::Tokens
            | F::InputTokens
            | F::OutputTokens
            | F::Failures
            | F::Errors
            | F::Retries
            | F::Messages
            | F::ToolCalls
            | F::StopRequests => FieldType::Int,
            F::Elapsed => FieldType::Duration,
            F::Response
            | F::FinishReason
            | F::Tool
            | F::Result
            | F::ErrorKind
            | F::ErrorMessage
            | F::StopReason
            | F::StopDecision
            | F::Status
            | F::Cwd
            | F::PermissionMode
            | F::SessionId
            | F::Prompt => FieldType::Str,
            F::ToolError | F::Blocked => FieldType::Bool,
            F::Arg(_) | F::Metadata(_) | F::ResultPath(_) => FieldType::Dynamic,
        }
    }

    /// The closed set of values a string field takes, if it has one
    pub fn values(&self) -> Option<Enumeration> {
        match self {
            Field::FinishReason => Some(Enumeration::FinishReason),
            Field::ErrorKind => Some(Enumeration::ErrorKind),
            Field::Status => Some(Enumeration::Status),
            Field::StopReason => Some(Enumeration::StopReason),
            Field::StopDecision => Some(Enumeration::StopDecision),
            _ => None,
        }
    }

    /// Whether an event of `kind` can see this field (docs/language.md §4.1)
    pub fn visible_on(&self, kind: EventKind) -> bool {
        use EventKind as E;
        use Field as F;
        match self {
            F::Step
            | F::Steps
            | F::Tokens
            | F::InputTokens
            | F::OutputTokens
            | F::Elapsed
            | F::Failures
            | F::Errors
            | F::Retries
            | F::Metadata(_)
            | F::Cwd
            | F::PermissionMode
            | F::SessionId
            | F::Prompt => true,
            F::Messages => kind == E::BeforeInference,
            F::Response => matches!(
                kind,
                E::AfterInference | E::AfterStep | E::Stop | E::SubagentStop
            ),
            F::FinishReason | F::ToolCalls => matches!(kind, E::AfterInference | E::AfterStep),
            F::Tool => matches!(kind, E::PreToolUse | E::PostToolUse | E::OnError),
            F::Arg(_) => matches!(kind, E::PreToolUse | E::PostToolUse),
            F::Result | F::ResultPath(_) | F::ToolError | F::Blocked => kind == E::PostToolUse,
            F::ErrorKind | F::ErrorMessage => kind == E::OnError,
            F::StopReason => matches!(kind, E::Stop | E::SubagentStop | E::ExecutionEnd),
            F::StopDecision | F::StopRequests => matches!(kind, E::Stop | E::SubagentStop),
            F::Status => kind == E::ExecutionEnd,
        }
    }

    /// The events that can see this field, in lifecycle order
    pub fn visible_events(&self) -> Vec<EventKind> {
        EventKind::ALL
            .into_iter()
            .filter(|kind| self.visible_on(*kind))
            .collect()
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::Arg(path) => write!(f, "arg{path}"),
            Field::Metadata(path) => write!(f, "metadata{path}"),
            Field::ResultPath(path) => write!(f, "result{path}"),
            named => {
                let spelling = NAMED
                    .iter()
                    .find(|(_, field, _)| field == named)
                    .map_or("?", |(spelling, _, _)| *spelling);
                f.write_str(spelling)
            }
        }
    }
}

/// The JSON type of a key of event JSON
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    /// A non-negative integer
    Count,
    /// A non-negative integer of milliseconds, or a duration's text (`"5min"`)
    Milliseconds,
    /// A string
    Text,
    /// `true` or `false`
    Flag,
    /// An object of any keys
    Object,
    /// An object with string fields `kind` and `message`
    Error,
    /// Any JSON value
    Any,
    /// One of the strings of an enumeration
    OneOf(Enumeration),
}

impl JsonType {
    /// The type as a noun phrase for messages: `a non-negative integer`, `a string`
    pub fn described(self) -> String {
        match self {
            JsonType::Count => "a non-negative integer".to_owned(),
            JsonType::Milliseconds => {
                "milliseconds as a non-negative integer, or a duration such as \"5min\"".to_owned()
            }
            JsonType::Text => "a string".to_owned(),
            JsonType::Flag => "`true` or `false`".to_owned(),
            JsonType::Object => "an object".to_owned(),
            JsonType::Error => "an object with string fields `kind` and `message`".to_owned(),
            JsonType::Any => "any JSON value".to_owned(),
            JsonType::OneOf(Enumeration::StopReason) => {
                "a stop reason such as `completed` or `guard_forbade`".to_owned()
            }
            JsonType::OneOf(values) => one_of(&values.names()),
        }
    }
}

/// `` `a`, `b` or `c` ``
fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// A key of event JSON (docs/cli.md "Event input"), as `rulesc eval`, run scripts and host
/// mappings write it
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventField {
    /// The key in event JSON: `elapsed_ms`, `error`
    pub key: &'static str,
    /// The key an inline test's `event` line uses for it: `elapsed` (a duration), `error`
    pub test_key: &'static str,
    /// Its JSON type
    pub json: JsonType,
}

/// Every key of event JSON but `event` itself: docs/cli.md's, in its order, then what hosts add
pub const EVENT_FIELDS: [EventField; 28] = [
    field("step", JsonType::Count),
    field("steps", JsonType::Count),
    field("tokens", JsonType::Count),
    field("input_tokens", JsonType::Count),
    field("output_tokens", JsonType::Count),
    EventField {
        key: "elapsed_ms",
        test_key: "elapsed",
        json: JsonType::Milliseconds,
    },
    field("failures", JsonType::Count),
    field("errors", JsonType::Count),
    field("retries", JsonType::Count),
    field("metadata", JsonType::Object),
    field("messages", JsonType::Count),
    field("response", JsonType::Text),
    field("finish_reason", JsonType::Text),
    field("tool_calls", JsonType::Count),
    field("tool", JsonType::Text),
    field("arg", JsonType::Any),
    field("result", JsonType::Any),
    field("tool_error", JsonType::Flag),
    field("blocked", JsonType::Flag),
    field("error", JsonType::Error),
    field("stop_reason", JsonType::OneOf(Enumeration::StopReason)),
    field("stop_decision", JsonType::OneOf(Enumeration::StopDecision)),
    field("stop_requests", JsonType::Count),
    field("status", JsonType::OneOf(Enumeration::Status)),
    field("cwd", JsonType::Text),
    field("permission_mode", JsonType::Text),
    field("session_id", JsonType::Text),
    field("prompt", JsonType::Text),
];

/// A key that inline tests spell as JSON does
const fn field(key: &'static str, json: JsonType) -> EventField {
    EventField {
        key,
        test_key: key,
        json,
    }
}

impl EventField {
    /// The key of event JSON spelled `key`, if any
    pub fn by_key(key: &str) -> Option<&'static EventField> {
        EVENT_FIELDS
            .iter()
            .find(|field| field.json_keys().any(|json_key| json_key == key))
    }

    /// The keys event JSON accepts for it: its key, and the key an inline test spells it
    /// with where that differs (`elapsed`, given as a duration such as `"5min"`), so one
    /// name of a field works everywhere
    pub fn json_keys(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.key).chain((self.test_key != self.key).then_some(self.test_key))
    }

    /// The key an inline test spells `test_key`, if any
    pub fn by_test_key(test_key: &str) -> Option<&'static EventField> {
        EVENT_FIELDS.iter().find(|field| field.test_key == test_key)
    }

    /// The condition field whose visibility this key follows: an event carries the key
    /// exactly when conditions on it can see that field
    pub fn field(&self) -> Option<Field> {
        match self.key {
            "elapsed_ms" => Some(Field::Elapsed),
            "error" => Some(Field::ErrorKind),
            "arg" => Some(Field::Arg(FieldPath::default())),
            "metadata" => Some(Field::Metadata(FieldPath::default())),
            key => Field::from_name(key),
        }
    }
}
