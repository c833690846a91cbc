//! One occurrence of a lifecycle event: the data every condition reads.
//!
//! `Event` is the JSON contract of `rulesc eval` (CLI.md): only `event` is required and every
//! other field defaults to zero or empty. Unknown keys are tolerated so hosts may add fields.
//! Its keys are the schema's (`vocabulary/schema.rs`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::vocabulary::{EventKind, Status, StopDecision, StopReason};

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

    /// The pending stop's decision: the event's own, else `allow_stop` on stop hooks
    /// (LANGUAGE.md §5.6); `None` on events that judge no stop
    ///
    /// Conditions and resolution both read the pending stop through this and
    /// [`Event::pending_stop_reason`], so they agree on what it is.
    pub fn pending_stop_decision(&self) -> Option<StopDecision> {
        match self.stop_decision {
            Some(decision) => Some(decision),
            None if self.kind.is_stop() => Some(StopDecision::AllowStop),
            None => None,
        }
    }

    /// The pending stop's reason: the event's own, else the pending decision's default
    pub fn pending_stop_reason(&self) -> Option<StopReason> {
        self.stop_reason.or_else(|| {
            self.pending_stop_decision()
                .map(StopDecision::default_reason)
        })
    }
}
