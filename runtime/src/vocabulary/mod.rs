//! The ground floor: the words of the language and the data of a compiled rule.
//!
//! Event kinds, verbs, stop reasons, the builtins, the enumerated values of fields, the schema of event
//! fields, literals, field paths, conditions with their compiled matchers, rules, defaults
//! and host limits. Everything above (the evaluator, resolution, the agent loop) speaks in
//! these terms, and the compiler builds them.
//!
//! Invariant: nothing here imports anything of the runtime outside `vocabulary`
//! (`runtime/tests/architecture.rs` holds every module to its floor), so the vocabulary can
//! be read, and changed, without knowing the engine.

mod builtin;
mod condition;
mod event_kind;
mod expression;
mod field;
mod host_events;
mod known_start;
mod lazy_regex;
mod literal;
mod matcher;
mod mode;
mod needles;
mod rule;
mod schema;
mod settings;
mod shell;
mod sorted_json;
mod values;
mod verb;
mod words;

pub use builtin::{Builtin, BuiltinArguments, BuiltinRow, BuiltinScope, BUILTINS};
pub use condition::{Condition, TraceTerm, TraceTest, Window, MAX_TRACE_BOUND};
pub use event_kind::EventKind;
pub use expression::{Arith, ArithOp, CompareOp, ListQuantifier, Operand};
pub use field::{Field, FieldPath, FieldType, PathSegment};
pub use host_events::{
    HostEvent, HostEventName, ALL_HOST_EVENTS, CLAUDE_EVENTS, CODEX_EVENTS, GEMINI_EVENTS,
};
pub use lazy_regex::PatternError;
pub use literal::{parse_duration, DurationError, Literal};
pub(crate) use matcher::GlobShape;
pub use matcher::{fold_case, GlobPattern, RegexPattern, MAX_PATTERN_LEN};
pub use mode::Mode;
pub(crate) use needles::Needles;
pub use rule::{Action, LabelStep, Origin, Rule, RESERVED_ID_PREFIXES, RESOLVED_BY_DEFAULT};
pub use schema::{Enumeration, EventField, JsonType, EVENT_FIELDS};
pub use settings::{Defaults, Limits};
pub use shell::{OnUndecidable, Quantifier, ShellCondition, ShellWord, WordTest};
pub(crate) use sorted_json::sorted_map;
pub use sorted_json::SortedJson;
pub use values::{ErrorKind, FinishReason, Status};
pub use verb::{StopDecision, StopReason, Verb};
pub use words::Words;

/// Gives a fieldless enum its source spellings: `ALL` (declaration order), `name`,
/// `from_name` and a `Display` that writes the name
///
/// Every word of the language is such an enum; spelling them through one macro keeps the
/// table of names in one place per enum and `from_name` the exact inverse of `name`.
macro_rules! spelled {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in declaration order
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];

            /// The spelling in `.rules` files and JSON
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }

            /// The value spelled `name`, if any
            pub fn from_name(name: &str) -> Option<$ty> {
                match name {
                    $($name => Some($ty::$variant),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
pub(crate) use spelled;
