//! A compiled rule: its id, events, condition, action, priority and origin.
//!
//! Invariant: a `Rule` is plain data. Its checks (a verb allowed on every event, a stop
//! reason only where the verb takes one, an id that is not reserved) are made once, by
//! `Policy::new`, which every policy goes through.

use serde::{Deserialize, Serialize};

use super::{Condition, EventKind, FieldPath, Literal, Operand, StopReason, Verb};

/// `resolved_by` when a `default` decided; reserved, no rule may take it as its id
pub const RESOLVED_BY_DEFAULT: &str = "default";

/// Prefixes of the ids that name the runtime's own decisions: the prelude's rules and the
/// host's limits; no rule written in a policy may start with them
pub const RESERVED_ID_PREFIXES: [&str; 2] = ["prelude:", "host:"];

/// Where a rule was written: file name, 1-based line and byte column of its `on` keyword
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// `set metadata.<key> = <arithmetic>`: a number computed from the event when the rule
    /// fires, stored only when it has a value (docs/expressions.md)
    Compute {
        /// The metadata path
        key: FieldPath,
        /// The arithmetic (or a single numeric field) computed
        value: Operand,
    },
    /// `label result "L"` on `post_tool_use`: the tool's output is labelled L for the rest
    /// of the run, for `from` (docs/trace.md); `label result.items[*].body "L"` labels only
    /// the values at that path of structured output
    Label {
        /// The label
        label: String,
        /// The path under `result` to the values labelled; empty for the whole output
        #[serde(default)]
        path: Vec<LabelStep>,
    },
}

/// A step of the path of a `label` into a tool's structured output
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LabelStep {
    /// `.name` or `["name"]`: a key of an object
    Key(String),
    /// `[0]`: an element of a list
    Index(u64),
    /// `[*]`: every element of a list
    Each,
}

impl Action {
    /// Whether a condition on what cannot be read (a shell command, a tool's output) lets
    /// this action happen: a guard (`block`, `ask`, `forbid`) and a `label` fail closed by
    /// firing, every other action (`allow`, a continuation verb, a `set`) by not firing
    /// (docs/shell.md, docs/trace.md)
    pub fn fails_closed(&self) -> bool {
        matches!(
            self,
            Action::Decide {
                verb: Verb::Block | Verb::Ask | Verb::Forbid,
                ..
            } | Action::Label { .. }
        )
    }
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

impl Rule {
    /// Whether `id` names one of the runtime's own decisions (`default`, `prelude:*`,
    /// `host:*`), which a policy's rules may not take
    pub fn is_reserved_id(id: &str) -> bool {
        id == RESOLVED_BY_DEFAULT
            || RESERVED_ID_PREFIXES
                .iter()
                .any(|prefix| id.starts_with(prefix))
    }
}
