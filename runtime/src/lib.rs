//! The rulesc runtime: compiled policies, order-independent resolution and the agent loop.
//!
//! Invariant: this crate is the embedding API. It knows nothing of parsing or rendering
//! diagnostics (no pest, miette or clap), prints nothing, and `Policy::evaluate` is pure.
//!
//! Its modules stand on four floors; a module imports only from its own floor and the
//! floors below (`tests/architecture.rs` checks it):
//! 1. `vocabulary`: the words of the language and the data of a compiled rule;
//! 2. `event`, `outcome`, `run`: what flows in and out of an evaluation, and the counters a
//!    run's events see;
//! 3. the engine: `evaluate`, `arith`, `index`, `resolve`, `policy`, `bounds`, `prelude`,
//!    `format`, `compact`, `native_hook`, `handle`, `render`;
//! 4. the loop: `driver`, `state`, `agent_loop`, `guard`, `checkpoint`, `script`, `report`.

#![deny(clippy::print_stdout, clippy::print_stderr)]

mod vocabulary;

mod event;
mod outcome;
mod run;

mod arith;
mod bounds;
mod checked_rule;
mod compact;
mod encoded;
mod evaluate;
mod format;
mod handle;
mod heads;
mod index;
mod native_hook;
mod policy;
mod policy_error;
mod postfix;
mod prelude;
mod programs;
mod read;
mod render;
mod resolve;
mod shared_bytes;
mod shell;
mod trace;
mod watched;

mod agent_loop;
mod checkpoint;
mod driver;
mod guard;
mod report;
mod script;
mod state;

pub use agent_loop::AgentLoop;
pub use bounds::{MAX_PATH_SEGMENTS, MAX_RULES, MAX_STRING_LEN};
pub use checked_rule::CheckedRule;
pub use checkpoint::{
    CheckpointError, Checkpointer, Interrupted, CHECKPOINT_FORMAT, CHECKPOINT_VERSION,
};
pub use driver::{
    Approval, Approver, Clock, InferenceResponse, Message, Model, ModelError, StepClock,
    SystemClock, ToolCall, ToolError, ToolExecutor, Usage,
};
pub use event::{ErrorInfo, Event, ToolOutput};
pub use format::{LoadError, FORMAT_NAME, FORMAT_VERSION};
pub use handle::PolicyHandle;
pub use native_hook::{HookDecision, NativeHook};
pub use outcome::{Act, Decision, EffectRecord, Evaluation, Outcome, Resolution};
pub use policy::{EvalOptions, Policy};
pub use policy_error::{PolicyError, MAX_CONDITION_DEPTH};
pub use prelude::{NO_TOOL_CALLS, TOOL_ERRORS_TO_MODEL};
pub use report::{EventReport, RunReport, ToolCallReport};
pub use resolve::{
    resolve_continuation, RESOLVED_BY_MAX_RETRIES, RESOLVED_BY_MAX_STEPS,
    RESOLVED_BY_MAX_STOP_REQUESTS,
};
pub use rulesc_shell::{program_kind as shell_program_kind, PROGRAM_KINDS as SHELL_PROGRAM_KINDS};
pub use run::{RunCounters, StopChain};
pub use script::{
    Script, ScriptError, ScriptedApprover, ScriptedModel, ScriptedTool, ScriptedTools, Turn,
    MAX_SCRIPT_RETRIES,
};
pub use shell::DEFAULT_SHELL_TOOLS;
pub use state::{ErrorRecord, EventRecord, ExecutionState, RunEnd, StepRecord, ToolCallRecord};
pub use trace::{TraceState, PROMPT_SOURCE};
pub use vocabulary::{
    fold_case, parse_duration, Action, Arith, ArithOp, Builtin, BuiltinArguments, BuiltinRow,
    BuiltinScope, CompareOp, Condition, Defaults, DurationError, Enumeration, ErrorKind,
    EventField, EventKind, Field, FieldPath, FieldType, FinishReason, GlobPattern, HostEvent,
    HostEventName, JsonType, LabelStep, Limits, ListQuantifier, Literal, Mode, OnUndecidable,
    Operand, Origin, PathSegment, PatternError, Quantifier, RegexPattern, Rule, ShellCondition,
    ShellWord, SortedJson, Status, StopDecision, StopReason, TraceTerm, TraceTest, Verb, Window,
    WordTest, Words, ALL_HOST_EVENTS, BUILTINS, CLAUDE_EVENTS, CODEX_EVENTS, EVENT_FIELDS,
    GEMINI_EVENTS, MAX_PATTERN_LEN, MAX_TRACE_BOUND, RESERVED_ID_PREFIXES, RESOLVED_BY_DEFAULT,
};
