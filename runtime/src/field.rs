//! The fields a condition can read, their types, and on which events each is visible.
//!
//! Invariant: this file is the single table of LANGUAGE.md §4.1; the compiler checks
//! visibility with it and the evaluator reads events through it.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::event::EventKind;

/// A field of an event that a condition can read
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Field {
    /// Number of the current step
    Step,
    /// Steps completed so far
    Steps,
    /// Total tokens used
    Tokens,
    /// Input tokens used
    InputTokens,
    /// Output tokens used
    OutputTokens,
    /// Time since `execution_start`
    Elapsed,
    /// Consecutive failures
    Failures,
    /// Total errors
    Errors,
    /// Retries of the current step
    Retries,
    /// Number of messages sent to the model
    Messages,
    /// The model's text response
    Response,
    /// Why the model stopped generating
    FinishReason,
    /// Number of tool calls the model made
    ToolCalls,
    /// The tool's name
    Tool,
    /// The tool's output
    Result,
    /// Whether the tool call failed
    ToolError,
    /// Whether the tool call was blocked
    Blocked,
    /// `error.kind`
    ErrorKind,
    /// `error.message`
    ErrorMessage,
    /// Why the loop stops
    StopReason,
    /// The pending stop's decision
    StopDecision,
    /// How many stops were already prevented
    StopRequests,
    /// The finished run's status
    Status,
    /// `arg.<path>`: the tool's JSON input
    Arg(FieldPath),
    /// `metadata.<path>`: the execution's metadata
    Metadata(FieldPath),
}

/// The static type of a field; `Dynamic` fields are typed at run time
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// A whole number
    Int,
    /// A span of time
    Duration,
    /// Text
    Str,
    /// `true` or `false`
    Bool,
    /// JSON of any type (`arg.*`, `metadata.*`)
    Dynamic,
}

impl FieldType {
    /// The type's name in user-facing text
    pub fn name(self) -> &'static str {
        match self {
            FieldType::Int => "integer",
            FieldType::Duration => "duration",
            FieldType::Str => "string",
            FieldType::Bool => "bool",
            FieldType::Dynamic => "any",
        }
    }
}

/// The fixed-name fields with their source spelling, for lookup by name
const NAMED: [(&str, Field); 23] = [
    ("step", Field::Step),
    ("steps", Field::Steps),
    ("tokens", Field::Tokens),
    ("input_tokens", Field::InputTokens),
    ("output_tokens", Field::OutputTokens),
    ("elapsed", Field::Elapsed),
    ("failures", Field::Failures),
    ("errors", Field::Errors),
    ("retries", Field::Retries),
    ("messages", Field::Messages),
    ("response", Field::Response),
    ("finish_reason", Field::FinishReason),
    ("tool_calls", Field::ToolCalls),
    ("tool", Field::Tool),
    ("result", Field::Result),
    ("tool_error", Field::ToolError),
    ("blocked", Field::Blocked),
    ("error.kind", Field::ErrorKind),
    ("error.message", Field::ErrorMessage),
    ("stop_reason", Field::StopReason),
    ("stop_decision", Field::StopDecision),
    ("stop_requests", Field::StopRequests),
    ("status", Field::Status),
];

impl Field {
    /// The fixed-name field spelled `name` (`steps`, `error.kind`), if any
    ///
    /// `arg.*` and `metadata.*` are built from their paths instead.
    pub fn from_name(name: &str) -> Option<Field> {
        NAMED
            .iter()
            .find(|(spelling, _)| *spelling == name)
            .map(|(_, field)| field.clone())
    }

    /// Every fixed-name spelling, for suggestions
    pub fn names() -> impl Iterator<Item = &'static str> {
        NAMED.iter().map(|(spelling, _)| *spelling)
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
            | F::Status => FieldType::Str,
            F::ToolError | F::Blocked => FieldType::Bool,
            F::Arg(_) | F::Metadata(_) => FieldType::Dynamic,
        }
    }

    /// Whether an event of `kind` can see this field (LANGUAGE.md §4.1)
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
            | F::Metadata(_) => true,
            F::Messages => kind == E::BeforeInference,
            F::Response => matches!(
                kind,
                E::AfterInference | E::AfterStep | E::Stop | E::SubagentStop
            ),
            F::FinishReason | F::ToolCalls => matches!(kind, E::AfterInference | E::AfterStep),
            F::Tool => matches!(kind, E::PreToolUse | E::PostToolUse | E::OnError),
            F::Arg(_) => matches!(kind, E::PreToolUse | E::PostToolUse),
            F::Result | F::ToolError | F::Blocked => kind == E::PostToolUse,
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
            named => {
                let spelling = NAMED
                    .iter()
                    .find(|(_, field)| field == named)
                    .map_or("?", |(spelling, _)| *spelling);
                f.write_str(spelling)
            }
        }
    }
}

/// A path into JSON: `.command`, `.paths[0]`, `.a.b`
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FieldPath {
    /// The steps from the root, outermost first
    pub segments: Vec<PathSegment>,
}

/// One step of a [`FieldPath`]
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PathSegment {
    /// An object key
    Key(String),
    /// An array index
    Index(u64),
}

impl FieldPath {
    /// The JSON value this path points at in `root`, if there is one
    pub fn lookup<'json>(
        &self,
        root: &'json serde_json::Value,
    ) -> Option<&'json serde_json::Value> {
        self.segments
            .iter()
            .try_fold(root, |value, segment| match segment {
                PathSegment::Key(key) => value.get(key.as_str()),
                PathSegment::Index(index) => usize::try_from(*index)
                    .ok()
                    .and_then(|index| value.get(index)),
            })
    }
}

impl fmt::Display for FieldPath {
    /// Written as in source, each segment with its leading `.` or `[..]`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for segment in &self.segments {
            match segment {
                PathSegment::Key(key) => write!(f, ".{key}")?,
                PathSegment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}
