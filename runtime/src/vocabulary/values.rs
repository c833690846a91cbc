//! The enumerated values of event fields (docs/language.md §4.1): `finish_reason`, `error.kind`
//! and `status`.
//!
//! Invariant: these enums are the only list of each field's values; the schema, the lints
//! and the agent loop all read them from here.

use serde::{Deserialize, Serialize};

use super::spelled;

/// Why the model stopped generating (docs/language.md §4.1 `finish_reason`)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// The model finished its answer
    Stop,
    /// The output hit the length limit
    Length,
    /// The model called tools
    ToolCalls,
    /// A content filter cut the answer
    ContentFilter,
    /// The call failed
    Error,
    /// Anything else
    Other,
}

spelled!(FinishReason {
    Stop => "stop",
    Length => "length",
    ToolCalls => "tool_calls",
    ContentFilter => "content_filter",
    Error => "error",
    Other => "other",
});

/// The kind of a failure, as `on_error` rules see it in `error.kind` (docs/language.md §4.1)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// A tool call failed
    Tool,
    /// A tool call was blocked by a rule or denied by the approver
    ToolBlocked,
    /// The model call failed
    Model,
    /// The model provider refused for rate limiting
    RateLimit,
    /// A call took too long
    Timeout,
    /// A request or response was invalid
    Validation,
    /// Anything else
    Unknown,
}

spelled!(ErrorKind {
    Tool => "tool",
    ToolBlocked => "tool_blocked",
    Model => "model",
    RateLimit => "rate_limit",
    Timeout => "timeout",
    Validation => "validation",
    Unknown => "unknown",
});

/// How a finished run ended (docs/language.md §8)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The work was done
    Completed,
    /// A guard or limit stopped it
    Stopped,
    /// An error stopped it
    Failed,
}

spelled!(Status {
    Completed => "completed",
    Stopped => "stopped",
    Failed => "failed",
});
