//! Why a set of rules cannot form a policy, and the bound on how deep its conditions nest:
//! what every constructor of a policy and every stored form of one refuses.

use std::fmt;

use crate::vocabulary::{EventKind, Verb};

/// Why a set of rules cannot form a policy
///
/// Not `#[non_exhaustive]`: the compiler names each refusal with the code of the same
/// problem in source, and a new refusal must break its `match` until it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyError {
    /// Two rules share an id
    DuplicateId(String),
    /// A rule takes an id that names one of the runtime's own decisions (`default`,
    /// `prelude:*`, `host:*`)
    ReservedId(String),
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
    /// A rule gives a stop reason to a verb that takes none (only `forbid` and
    /// `allow_stop` do)
    StopReasonNotAllowed {
        /// The rule
        rule: String,
        /// The verb
        verb: Verb,
    },
    /// A default names a verb its event does not take (docs/language.md §5.4)
    DefaultNotAllowed {
        /// `pre_tool_use` or `on_error`
        event: EventKind,
        /// The verb
        verb: Verb,
    },
    /// A rule's condition nests deeper than [`MAX_CONDITION_DEPTH`]
    TooDeep(String),
    /// A rule's trace test cannot be kept: a window of 0, a bound over
    /// [`MAX_TRACE_BOUND`](crate::MAX_TRACE_BOUND), or a trace test inside another
    InvalidTrace {
        /// The rule
        rule: String,
        /// What is wrong, in words
        message: String,
    },
    /// More rules than [`MAX_RULES`](crate::MAX_RULES)
    TooManyRules {
        /// How many were given
        count: usize,
        /// The bound
        limit: usize,
    },
    /// A string of a rule (its id, message or a literal) is longer than
    /// [`MAX_STRING_LEN`](crate::MAX_STRING_LEN) bytes
    StringTooLong {
        /// The rule
        rule: String,
        /// The string's length in bytes
        len: usize,
        /// The bound
        limit: usize,
    },
    /// A field path of a rule has more parts than
    /// [`MAX_PATH_SEGMENTS`](crate::MAX_PATH_SEGMENTS)
    PathTooLong {
        /// The rule
        rule: String,
        /// How many parts it has
        segments: usize,
        /// The bound
        limit: usize,
    },
    /// A `set` rule's key is empty or indexes into an array (`metadata.a[0]`)
    InvalidSetKey {
        /// The rule
        rule: String,
        /// The key as written, without `metadata`
        key: String,
    },
    /// An `any`/`all` whose test is not a comparison that starts with a field
    InvalidQuantifier(String),
    /// A rule's regular expression does not compile
    InvalidPattern {
        /// The rule
        rule: String,
        /// Why, in the regex crate's words
        message: String,
    },
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::DuplicateId(id) => write!(f, "rule id `{id}` is used twice"),
            PolicyError::ReservedId(id) => write!(f, "rule id `{id}` is reserved"),
            PolicyError::VerbNotAllowed { rule, verb, event } => {
                write!(f, "rule `{rule}`: `{verb}` is not allowed on `{event}`")
            }
            PolicyError::NoEvents(rule) => write!(f, "rule `{rule}` fires on no event"),
            PolicyError::StopReasonNotAllowed { rule, verb } => {
                write!(f, "rule `{rule}`: `{verb}` takes no stop reason")
            }
            PolicyError::DefaultNotAllowed { event, verb } => {
                write!(f, "`default {event} {verb}` is not allowed")
            }
            PolicyError::TooManyRules { count, limit } => {
                write!(f, "the policy has {count} rules, more than the limit of {limit}")
            }
            PolicyError::StringTooLong { rule, len, limit } => write!(
                f,
                "rule `{rule}`: a string of {len} bytes is longer than the limit of {limit}"
            ),
            PolicyError::PathTooLong {
                rule,
                segments,
                limit,
            } => write!(
                f,
                "rule `{rule}`: a field path of {segments} parts is longer than the limit of {limit}"
            ),
            PolicyError::TooDeep(rule) => write!(
                f,
                "rule `{rule}`: the condition nests deeper than {MAX_CONDITION_DEPTH} levels"
            ),
            PolicyError::InvalidTrace { rule, message } => write!(f, "rule `{rule}`: {message}"),
            PolicyError::InvalidPattern { rule, message } => {
                write!(f, "rule `{rule}`: {message}")
            }
            PolicyError::InvalidQuantifier(rule) => write!(
                f,
                "rule `{rule}`: `any` and `all` test one comparison that starts with a field"
            ),
            PolicyError::InvalidSetKey { rule, key } => {
                write!(
                    f,
                    "rule `{rule}`: `metadata{key}` cannot be set, name an object key"
                )
            }
        }
    }
}

impl std::error::Error for PolicyError {}

/// The deepest condition a policy accepts, in nested `and`/`or`/`not` levels
///
/// Far above what the language's own nesting limit lets a source file express, and far
/// below what would strain the evaluator's stack.
pub const MAX_CONDITION_DEPTH: usize = 1024;
