//! The rulesc runtime: compiled policies, order-independent resolution and the agent loop.
//!
//! Invariant: this crate is the embedding API. It knows nothing of parsing or rendering
//! diagnostics (no pest, miette or clap), prints nothing, and `Policy::evaluate` is pure.

mod condition;
mod event;
mod field;
mod literal;
mod matcher;
mod outcome;
mod policy;

pub use condition::{CompareOp, Condition, Operand};
pub use event::{ErrorInfo, Event, EventKind, Status, StopDecision};
pub use field::{Field, FieldPath, FieldType, PathSegment};
pub use literal::Literal;
pub use matcher::{GlobPattern, PatternError, RegexPattern, MAX_PATTERN_LEN};
pub use outcome::{Decision, EffectRecord, Evaluation, Outcome};
pub use policy::{Action, Defaults, Limits, Origin, PolicyError, Rule, StopReason, Verb};
