//! Compiled rules and policies: what the compiler produces and the evaluator runs.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::condition::Condition;
use crate::event::{EventKind, Status};
use crate::field::FieldPath;
use crate::literal::Literal;

/// A decision a rule can make (LANGUAGE.md §4.2)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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

impl Verb {
    /// Every verb
    pub const ALL: [Verb; 8] = [
        Verb::Forbid,
        Verb::Request,
        Verb::AllowStop,
        Verb::Allow,
        Verb::Block,
        Verb::Ask,
        Verb::Retry,
        Verb::Ignore,
    ];

    /// The verb as written in source
    pub fn name(self) -> &'static str {
        match self {
            Verb::Forbid => "forbid",
            Verb::Request => "request",
            Verb::AllowStop => "allow_stop",
            Verb::Allow => "allow",
            Verb::Block => "block",
            Verb::Ask => "ask",
            Verb::Retry => "retry",
            Verb::Ignore => "ignore",
        }
    }

    /// The verb spelled `name`, if any
    pub fn from_name(name: &str) -> Option<Verb> {
        Verb::ALL.into_iter().find(|verb| verb.name() == name)
    }

    /// The events on which this verb is allowed, in lifecycle order
    pub fn allowed_events(self) -> Vec<EventKind> {
        EventKind::ALL
            .into_iter()
            .filter(|kind| kind.allows(self))
            .collect()
    }

    /// Whether the verb takes a stop reason (`forbid`, `allow_stop`)
    pub fn takes_stop_reason(self) -> bool {
        matches!(self, Verb::Forbid | Verb::AllowStop)
    }
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a run stops (LANGUAGE.md §4.2)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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

impl StopReason {
    /// Every stop reason
    pub const ALL: [StopReason; 10] = [
        StopReason::Completed,
        StopReason::StepsLimitReached,
        StopReason::TokenLimitReached,
        StopReason::TimeLimitReached,
        StopReason::RetryLimitReached,
        StopReason::ErrorForbade,
        StopReason::FinishReasonReceived,
        StopReason::GuardForbade,
        StopReason::StopRequested,
        StopReason::UserRequested,
    ];

    /// The reason as written in source
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Completed => "completed",
            StopReason::StepsLimitReached => "steps_limit_reached",
            StopReason::TokenLimitReached => "token_limit_reached",
            StopReason::TimeLimitReached => "time_limit_reached",
            StopReason::RetryLimitReached => "retry_limit_reached",
            StopReason::ErrorForbade => "error_forbade",
            StopReason::FinishReasonReceived => "finish_reason_received",
            StopReason::GuardForbade => "guard_forbade",
            StopReason::StopRequested => "stop_requested",
            StopReason::UserRequested => "user_requested",
        }
    }

    /// The reason spelled `name`, if any
    pub fn from_name(name: &str) -> Option<StopReason> {
        StopReason::ALL.into_iter().find(|reason| reason.name() == name)
    }

    /// The status of a run that stopped for this reason (LANGUAGE.md §8)
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

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a rule was written: file name, 1-based line and byte column of its `on` keyword
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Origin {
    /// The file's name as given to the compiler
    pub file: String,
    /// 1-based line
    pub line: u32,
    /// 1-based byte column
    pub column: u32,
}

/// What a rule does when its condition holds
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A decision
    Decide {
        /// The verb
        verb: Verb,
        /// The stop reason; always set for `forbid` and `allow_stop` (defaults applied)
        stop_reason: Option<StopReason>,
        /// The message shown to the model or user
        message: Option<String>,
    },
    /// `set metadata.<key> = <literal>`
    Set {
        /// The metadata path
        key: FieldPath,
        /// The value stored
        value: Literal,
    },
}

/// A checked rule
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    /// `@id("...")`, or `<file name>:<line>` of its `on` keyword
    pub id: String,
    /// The events it fires on, sorted and without duplicates
    pub events: Vec<EventKind>,
    /// `when ...`; `None` matches every occurrence
    pub condition: Option<Condition>,
    /// What it does
    pub action: Action,
    /// `@priority(n)`; 0 when absent
    pub priority: i64,
    /// Where it was written; `None` for rules not written in a file (the prelude)
    pub origin: Option<Origin>,
}

/// What happens when no rule decided (LANGUAGE.md §5.4)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Defaults {
    /// `default pre_tool_use allow|ask|block`
    pub pre_tool_use: Option<Verb>,
    /// `default on_error forbid|retry|ignore`
    pub on_error: Option<Verb>,
}

/// The host's hard limits (CLI.md)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Steps a run may take at most (`host:max_steps`)
    pub max_steps: u64,
    /// Retries one step may take at most; a `retry` beyond becomes `forbid retry_limit_reached`
    pub max_retries: u64,
    /// Forced continuations on `stop` in a row, after which `request` has no power
    pub max_stop_requests: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_steps: 100,
            max_retries: 3,
            max_stop_requests: 8,
        }
    }
}

/// Why a set of rules cannot form a policy
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PolicyError {
    /// Two rules share an id
    DuplicateId(String),
    /// A rule uses a verb on an event that does not allow it
    VerbNotAllowed {
        /// The rule
        rule: String,
        /// The verb
        verb: Verb,
        /// The event
        event: EventKind,
    },
    /// A rule fires on no event
    NoEvents(String),
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::DuplicateId(id) => write!(f, "rule id `{id}` is used twice"),
            PolicyError::VerbNotAllowed { rule, verb, event } => {
                write!(f, "rule `{rule}`: `{verb}` is not allowed on `{event}`")
            }
            PolicyError::NoEvents(rule) => write!(f, "rule `{rule}` fires on no event"),
        }
    }
}

impl std::error::Error for PolicyError {}
