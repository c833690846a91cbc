//! The decisions a rule can make (docs/language.md §4.2) and the reasons a run stops.

use serde::{Deserialize, Serialize};

use super::{spelled, EventKind, Status};

/// A decision a rule can make (docs/language.md §4.2)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Verb {
    /// Stop the run; nothing can override it
    Forbid,
    /// Ask for another step; overrides `allow_stop`
    Request,
    /// The work is done; stop unless something requests more
    AllowStop,
    /// Permit; drives nothing
    Allow,
    /// Refuse this tool call
    Block,
    /// This tool call needs the approver
    Ask,
    /// Retry the failed call
    Retry,
    /// Go on as if the error had not happened
    Ignore,
}

spelled!(Verb {
    Forbid => "forbid",
    Request => "request",
    AllowStop => "allow_stop",
    Allow => "allow",
    Block => "block",
    Ask => "ask",
    Retry => "retry",
    Ignore => "ignore",
});

impl Verb {
    /// The events on which this verb is allowed, in lifecycle order
    pub fn allowed_events(self) -> Vec<EventKind> {
        EventKind::ALL
            .into_iter()
            .filter(|kind| kind.allows(self))
            .collect()
    }

    /// What the verb decides, in one line (docs/language.md §4.2): what editors show on hover
    pub fn doc(self) -> &'static str {
        match self {
            Verb::Forbid => "stop the run; nothing can override it",
            Verb::Request => "ask for another step; overrides `allow_stop`",
            Verb::AllowStop => "the work is done; stop unless something requests more",
            Verb::Allow => "permits; drives nothing (on `pre_tool_use`: permit the tool)",
            Verb::Block => "refuse this tool call; the model sees the message as the tool's error",
            Verb::Ask => "this tool call needs approval by the host's approver",
            Verb::Retry => "retry the failed model or tool call",
            Verb::Ignore => "go on as if the error had not happened",
        }
    }

    /// Whether the verb takes a stop reason (`forbid`, `allow_stop`)
    pub fn takes_stop_reason(self) -> bool {
        matches!(self, Verb::Forbid | Verb::AllowStop)
    }
}

/// Why a run stops (docs/language.md §4.2)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The work is done
    Completed,
    /// A step limit was reached
    StepsLimitReached,
    /// A token budget was reached
    TokenLimitReached,
    /// A time limit was reached
    TimeLimitReached,
    /// The retry cap was reached
    RetryLimitReached,
    /// An error stopped the run
    ErrorForbade,
    /// The model's finish reason ended the run
    FinishReasonReceived,
    /// A guard rule stopped the run
    GuardForbade,
    /// Something asked to stop
    StopRequested,
    /// The user asked to stop
    UserRequested,
}

spelled!(StopReason {
    Completed => "completed",
    StepsLimitReached => "steps_limit_reached",
    TokenLimitReached => "token_limit_reached",
    TimeLimitReached => "time_limit_reached",
    RetryLimitReached => "retry_limit_reached",
    ErrorForbade => "error_forbade",
    FinishReasonReceived => "finish_reason_received",
    GuardForbade => "guard_forbade",
    StopRequested => "stop_requested",
    UserRequested => "user_requested",
});

impl StopReason {
    /// The status of a run that stopped for this reason (docs/language.md §8)
    pub fn status(self) -> Status {
        match self {
            StopReason::Completed
            | StopReason::FinishReasonReceived
            | StopReason::StopRequested => Status::Completed,
            StopReason::ErrorForbade | StopReason::RetryLimitReached => Status::Failed,
            StopReason::StepsLimitReached
            | StopReason::TokenLimitReached
            | StopReason::TimeLimitReached
            | StopReason::GuardForbade
            | StopReason::UserRequested => Status::Stopped,
        }
    }

    /// The default reason of a verb that takes one: `guard_forbade` for `forbid`,
    /// `completed` for `allow_stop`
    pub fn default_for(verb: Verb) -> Option<StopReason> {
        match verb {
            Verb::Forbid => Some(StopReason::GuardForbade),
            Verb::AllowStop => Some(StopReason::Completed),
            _ => None,
        }
    }
}

/// The decision behind a pending stop (docs/language.md §5.6)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopDecision {
    /// The work is done; stop hooks may overturn it with `request`
    AllowStop,
    /// A guard stopped the run; final
    Forbid,
}

spelled!(StopDecision {
    AllowStop => "allow_stop",
    Forbid => "forbid",
});

impl StopDecision {
    /// The verb that made such a stop
    pub fn verb(self) -> Verb {
        match self {
            StopDecision::AllowStop => Verb::AllowStop,
            StopDecision::Forbid => Verb::Forbid,
        }
    }

    /// The reason such a stop has when nobody gave one: `completed` for `allow_stop`,
    /// `guard_forbade` for `forbid`
    pub fn default_reason(self) -> StopReason {
        match self {
            StopDecision::AllowStop => StopReason::Completed,
            StopDecision::Forbid => StopReason::GuardForbade,
        }
    }
}
