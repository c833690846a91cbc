//! The lifecycle points of an agent loop at which rules fire (docs/language.md §4.1), and which
//! verbs each allows (§4.2).

use serde::{Deserialize, Serialize};

use super::{spelled, Verb};

/// The lifecycle points of an agent loop at which rules fire (docs/language.md §4.1)
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

spelled!(EventKind {
    ExecutionStart => "execution_start",
    BeforeStep => "before_step",
    BeforeInference => "before_inference",
    AfterInference => "after_inference",
    PreToolUse => "pre_tool_use",
    PostToolUse => "post_tool_use",
    AfterStep => "after_step",
    OnError => "on_error",
    Stop => "stop",
    SubagentStop => "subagent_stop",
    ExecutionEnd => "execution_end",
});

impl EventKind {
    /// Position in [`EventKind::ALL`], for per-event tables
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether `verb` may be used on this event (docs/language.md §4.2)
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

    /// When the event fires, in one line (docs/language.md §4.1): what editors show on hover
    pub fn doc(self) -> &'static str {
        use EventKind as E;
        match self {
            E::ExecutionStart => "once, before the first step",
            E::BeforeStep => "before each step",
            E::BeforeInference => "before each model call",
            E::AfterInference => "after each model call",
            E::PreToolUse => "before each tool call",
            E::PostToolUse => "after each tool call (also a blocked one)",
            E::AfterStep => "after each step's tools ran",
            E::OnError => "when inference or a tool failed",
            E::Stop => "when the loop is about to stop",
            E::SubagentStop => "when a sub-agent is about to stop",
            E::ExecutionEnd => "once, after the last step",
        }
    }

    /// Whether this is a stop hook event (`stop` or `subagent_stop`), resolved per §5.6
    pub fn is_stop(self) -> bool {
        matches!(self, EventKind::Stop | EventKind::SubagentStop)
    }
}
