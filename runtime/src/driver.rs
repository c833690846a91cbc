//! The host's side of the agent loop: the model, the tools, the approver and the clock.
//!
//! The loop owns the flow; these traits are the only way it reaches the world, so a host
//! (or a test) decides what a model call, a tool call, an approval or a millisecond is.
//! Invariant: none of these types carries execution state; the loop passes what a call
//! needs (the transcript, the tool call) and keeps everything else itself.

use std::fmt;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::vocabulary::{ErrorKind, FinishReason};

/// A tool call the model asked for
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The call's id, unique within the run (the model's, or one the loop made up)
    pub id: String,
    /// The tool's name
    pub name: String,
    /// The tool's JSON input, as conditions see it under `arg.*`
    pub args: Json,
}

/// Tokens used, in and out
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Usage {
    /// Input (prompt) tokens
    #[serde(default)]
    pub input: u64,
    /// Output (completion) tokens
    #[serde(default)]
    pub output: u64,
}

impl Usage {
    /// Input plus output, the `tokens` field of events
    pub fn total(self) -> u64 {
        self.input.saturating_add(self.output)
    }

    /// The sum of both usages, saturating
    pub fn plus(self, other: Usage) -> Usage {
        Usage {
            input: self.input.saturating_add(other.input),
            output: self.output.saturating_add(other.output),
        }
    }
}

/// What one successful model call returned
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InferenceResponse {
    /// The model's text
    pub text: String,
    /// The tools it wants called, in order
    pub tool_calls: Vec<ToolCall>,
    /// Why it stopped generating
    pub finish_reason: FinishReason,
    /// Tokens this call used
    pub usage: Usage,
}

/// A failed model call
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError {
    /// What kind of failure it was (`rate_limit`, `timeout`, `model`, ...)
    pub kind: ErrorKind,
    /// The failure's text, as `error.message` shows it
    pub message: String,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

impl std::error::Error for ModelError {}

/// A failed tool call; `on_error` sees it with `error.kind` `tool`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    /// The failure's text, which the model receives as the tool's error
    pub message: String,
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

/// The approver's answer to an `ask`
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Approval {
    /// Run the tool call
    Allow,
    /// Block it; the model is told it was denied
    Deny,
}

/// One message of the transcript the model receives
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// Text from the user or the host
    User {
        /// The text
        text: String,
    },
    /// A model answer, with the tool calls it made
    Assistant {
        /// The model's text
        text: String,
        /// The tools it called
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call: its output, or its error (a failure or a block)
    Tool {
        /// The id of the call this answers
        call_id: String,
        /// The tool's name
        tool: String,
        /// The output, or the error's text
        content: String,
        /// Whether `content` is an error: the tool failed or the call was blocked
        is_error: bool,
    },
}

/// The model: one call takes the transcript and answers, or fails
pub trait Model {
    /// Asks the model for its next answer
    ///
    /// # Errors
    ///
    /// A [`ModelError`] when the call failed; the loop fires `on_error` with its kind.
    fn infer(&mut self, messages: &[Message]) -> Result<InferenceResponse, ModelError>;
}

impl<F> Model for F
where
    F: FnMut(&[Message]) -> Result<InferenceResponse, ModelError>,
{
    fn infer(&mut self, messages: &[Message]) -> Result<InferenceResponse, ModelError> {
        self(messages)
    }
}

/// The tools: runs one permitted tool call
pub trait ToolExecutor {
    /// Runs the call and returns its output as text
    ///
    /// # Errors
    ///
    /// A [`ToolError`] when the tool failed; the model receives its message as the
    /// tool's error and the loop fires `on_error` with `error.kind` `tool`.
    fn execute(&mut self, call: &ToolCall) -> Result<String, ToolError>;
}

impl<F> ToolExecutor for F
where
    F: FnMut(&ToolCall) -> Result<String, ToolError>,
{
    fn execute(&mut self, call: &ToolCall) -> Result<String, ToolError> {
        self(call)
    }
}

/// The approver: answers the tool calls a rule `ask`ed about
pub trait Approver {
    /// Whether `call` may run; `message` is the deciding rule's message, if any
    fn approve(&mut self, call: &ToolCall, message: Option<&str>) -> Approval;
}

impl<F> Approver for F
where
    F: FnMut(&ToolCall, Option<&str>) -> Approval,
{
    fn approve(&mut self, call: &ToolCall, message: Option<&str>) -> Approval {
        self(call, message)
    }
}

/// Where `elapsed` comes from, so that time is injectable
pub trait Clock {
    /// Milliseconds since some fixed origin; only differences are used
    fn now_ms(&mut self) -> u64;

    /// Called by the loop once at the end of every step; a manual clock advances here
    fn step_finished(&mut self) {}
}

/// The wall clock (monotonic)
#[derive(Debug, Clone, Copy)]
pub struct SystemClock {
    origin: Instant,
}

impl Default for SystemClock {
    fn default() -> SystemClock {
        SystemClock {
            origin: Instant::now(),
        }
    }
}

impl Clock for SystemClock {
    fn now_ms(&mut self) -> u64 {
        u64::try_from(self.origin.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// A clock that advances by exactly `ms_per_step` at the end of each step and by nothing
/// else, so time limits are testable without waiting (the run script's
/// `clock_ms_per_step`)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StepClock {
    now_ms: u64,
    ms_per_step: u64,
}

impl StepClock {
    /// A clock at 0 that advances `ms_per_step` per step
    pub fn new(ms_per_step: u64) -> StepClock {
        StepClock {
            now_ms: 0,
            ms_per_step,
        }
    }
}

impl Clock for StepClock {
    fn now_ms(&mut self) -> u64 {
        self.now_ms
    }

    fn step_finished(&mut self) {
        self.now_ms = self.now_ms.saturating_add(self.ms_per_step);
    }
}
