//! The rulesc runtime: compiled policies, order-independent resolution and the agent loop.
//!
//! Invariant: this crate is the embedding API. It knows nothing of parsing or rendering
//! diagnostics (no pest, miette or clap), prints nothing, and `Policy::evaluate` is pure.

mod agent_loop;
mod bounds;
mod checkpoint;
mod condition;
mod driver;
mod evaluate;
mod event;
mod field;
mod format;
mod guard;
mod handle;
mod index;
mod literal;
mod matcher;
mod native_hook;
mod outcome;
mod policy;
mod prelude;
mod render;
mod report;
mod resolve;
mod script;
mod state;

pub use agent_loop::AgentLoop;
pub use bounds::{MAX_PATH_SEGMENTS, MAX_RULES, MAX_STRING_LEN};
pub use checkpoint::{
    CheckpointError, Checkpointer, Interrupted, CHECKPOINT_FORMAT, CHECKPOINT_VERSION,
};
pub use condition::{CompareOp, Condition, Operand};
pub use driver::{
    Approval, Approver, Clock, ErrorKind, FinishReason, InferenceResponse, Message, Model,
    ModelError, StepClock, SystemClock, ToolCall, ToolError, ToolExecutor, Usage,
};
pub use event::{ErrorInfo, Event, EventKind, Status, StopDecision};
pub use field::{Field, FieldPath, FieldType, PathSegment};
pub use format::{LoadError, FORMAT_NAME, FORMAT_VERSION};
pub use handle::PolicyHandle;
pub use literal::Literal;
pub use matcher::{GlobPattern, PatternError, RegexPattern, MAX_PATTERN_LEN};
pub use native_hook::{HookDecision, NativeHook};
pub use outcome::{Decision, EffectRecord, Evaluation, Outcome};
pub use policy::{
    Action, Defaults, Limits, Origin, Policy, PolicyError, Rule, StopReason, Verb,
    MAX_CONDITION_DEPTH,
};
pub use prelude::{NO_TOOL_CALLS, TOOL_ERRORS_TO_MODEL};
pub use report::{EventReport, RunReport, ToolCallReport};
pub use resolve::{
    resolve_continuation, Resolution, RESOLVED_BY_DEFAULT, RESOLVED_BY_MAX_RETRIES,
    RESOLVED_BY_MAX_STEPS, RESOLVED_BY_MAX_STOP_REQUESTS,
};
pub use script::{
    Script, ScriptError, ScriptedApprover, ScriptedModel, ScriptedTool, ScriptedTools, Turn,
    MAX_SCRIPT_RETRIES,
};
pub use state::{
    ErrorRecord, EventRecord, ExecutionState, RunEnd, StepOutcome, StepRecord, ToolCallRecord,
};
