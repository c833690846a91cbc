//! Lifecycle events: their kinds and the data one occurrence carries.
//!
//! `Event` is the JSON contract of `rulesc eval` (CLI.md): only `event` is required and every
//! other field defaults to zero or empty. Unknown keys are tolerated so hosts may add fields.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::policy::StopReason;
use crate::policy::Verb;

/// The lifecycle points of an agent loop at which rules fire (LANGUAGE.md §4.1)
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum EventKind {
    /// Once, before the first step
    ExecutionStart,
    /// Before each step
    BeforeStep,
    /// Before each model call
    BeforeInference,
    /// After each model call
    AfterInference,
    /// Before each tool call
    PreToolUse,
    /// After each tool call, also a blocked one
    PostToolUse,
    /// After each step's tools ran
    AfterStep,
    /// When inference or a tool failed
    OnError,
    /// When the loop is about to stop
    Stop,
    /// When a sub-agent is about to stop
    SubagentStop,
    /// Once, after the last step
    ExecutionEnd,
}

impl EventKind {
    /// Every event kind, in lifecycle order
    pub const ALL: [EventKind; 11] = [
        EventKind::ExecutionStart,
        EventKind::BeforeStep,
        EventKind::BeforeInference,
        EventKind::AfterInference,
        EventKind::PreToolUse,
        EventKind::PostToolUse,
        EventKind::AfterStep,
        EventKind::OnError,
        EventKind::Stop,
        EventKind::SubagentStop,
        EventKind::ExecutionEnd,
    ];

    /// The event's name as written in `.rules` files and JSON
    pub fn name(self) -> &'static str {
        match self {
            EventKind::ExecutionStart => "execution_start",
            EventKind::BeforeStep => "before_step",
            EventKind::BeforeInference => "before_inference",
            EventKind::AfterInference => "after_inference",
            EventKind::PreToolUse => "pre_tool_use",
            EventKind::PostToolUse => "post_tool_use",
            EventKind::AfterStep => "after_step",
            EventKind::OnError => "on_error",
            EventKind::Stop => "stop",
            EventKind::SubagentStop => "subagent_stop",
            EventKind::ExecutionEnd => "execution_end",
        }
    }

    /// The event kind with this name, if any
    pub fn from_name(name: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Position in [`EventKind::ALL`], for per-event tables
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether `verb` may be used on this event (LANGUAGE.md §4.2)
    pub fn allows(self, verb: Verb) -> bool {
        use EventKind as E;
        match verb {
            Verb::Forbid | Verb::Allow => self != E::ExecutionEnd,
            Verb::Request => matches!(
                self,
                E::AfterInference | E::PostToolUse | E::AfterStep | E::Stop | E::SubagentStop
            ),
            Verb::AllowStop => matches!(self, E::AfterInference | E::PostToolUse | E::AfterStep),
            Verb::Block | Verb::Ask => self == E::PreToolUse,
            Verb::Retry | Verb::Ignore => self == E::OnError,
        }
    }

    /// Whether this is a stop hook event (`stop` or `subagent_stop`), resolved per §5.6
    pub fn is_stop(self) -> bool {
        matches!(self, EventKind::Stop | EventKind::SubagentStop)
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The failure an `on_error` event reports
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorInfo {
    /// One of `tool`, `tool_blocked`, `model`, `rate_limit`, `timeout`, `validation`, `unknown`
    #[serde(default)]
    pub kind: String,
    /// The error's text
    #[serde(default)]
    pub message: String,
}

/// One occurrence of a lifecycle event with everything a condition can see
///
/// Fields an event kind cannot see (LANGUAGE.md §4.1) are simply left empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Which lifecycle point this is
    #[serde(rename = "event")]
    pub kind: EventKind,
    /// Number of the current step, from 1 (0 before the first step)
    #[serde(default)]
    pub step: u64,
    /// Steps completed so far
    #[serde(default)]
    pub steps: u64,
    /// Total tokens used (input + output)
    #[serde(default)]
    pub tokens: u64,
    /// Input tokens used
    #[serde(default)]
    pub input_tokens: u64,
    /// Output tokens used
    #[serde(default)]
    pub output_tokens: u64,
    /// Milliseconds since `execution_start`
    #[serde(default)]
    pub elapsed_ms: u64,
    /// Consecutive failures
    #[serde(default)]
    pub failures: u64,
    /// Total errors in this execution
    #[serde(default)]
    pub errors: u64,
    /// Retries of the current step so far
    #[serde(default)]
    pub retries: u64,
    /// The execution's metadata, as set by effects or the host
    #[serde(default)]
    pub metadata: Map<String, Json>,
    /// Number of messages sent to the model (`before_inference`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<u64>,
    /// The model's text response
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// Why the model stopped generating
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// Number of tool calls the model made
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<u64>,
    /// The tool's name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The tool's JSON input
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg: Option<Json>,
    /// The tool's output as text
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Whether the tool call failed
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_error: Option<bool>,
    /// Whether the tool call was blocked
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked: Option<bool>,
    /// The failure of an `on_error` event
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
    /// Why the loop stops (`stop`, `subagent_stop`, `execution_end`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
    /// The pending stop's decision: `allow_stop` unless it came from a `forbid`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_decision: Option<StopDecision>,
    /// How many times a stop was already prevented in this execution
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_requests: Option<u64>,
    /// The finished run's status (`execution_end`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
}

impl Event {
    /// An event of this kind with every field zero or empty
    pub fn new(kind: EventKind) -> Event {
        Event {
            kind,
            step: 0,
            steps: 0,
            tokens: 0,
            input_tokens: 0,
            output_tokens: 0,
            elapsed_ms: 0,
            failures: 0,
            errors: 0,
            retries: 0,
            metadata: Map::new(),
            messages: None,
            response: None,
            finish_reason: None,
            tool_calls: None,
            tool: None,
            arg: None,
            result: None,
            tool_error: None,
            blocked: None,
            error: None,
            stop_reason: None,
            stop_decision: None,
            stop_requests: None,
            status: None,
        }
    }
}

/// The decision behind a pending stop (LANGUAGE.md §5.6)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopDecision {
    /// The work is done; stop hooks may overturn it with `request`
    AllowStop,
    /// A guard stopped the run; final
    Forbid,
}

/// How a finished run ended (LANGUAGE.md §8)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The work was done
    Completed,
    /// A guard or limit stopped it
    Stopped,
    /// An error stopped it
    Failed,
}

impl Status {
    /// The name used in `.rules` files and JSON
    pub fn name(self) -> &'static str {
        match self {
            Status::Completed => "completed",
            Status::Stopped => "stopped",
            Status::Failed => "failed",
        }
    }
}
