//! The two built-in rules every policy includes (docs/language.md §8).
//!
//! Invariant: the prelude is added by `Policy::new` and never written to compiled JSON, so
//! a loaded policy gets exactly the prelude of the runtime that loads it.

use crate::vocabulary::{
    Action, CompareOp, Condition, EventKind, Field, Literal, Operand, Rule, StopReason, Verb,
};

/// Id of `on after_step when tool_calls == 0 allow_stop completed`
pub const NO_TOOL_CALLS: &str = "prelude:no-tool-calls";
/// Id of `on on_error when error.kind in ["tool", "tool_blocked"] ignore`
pub const TOOL_ERRORS_TO_MODEL: &str = "prelude:tool-errors-to-model";

/// The prelude's rules, in id order
pub(crate) fn rules() -> [Rule; 2] {
    [
        Rule {
            id: NO_TOOL_CALLS.to_owned(),
            events: vec![EventKind::AfterStep],
            condition: Some(Condition::Compare {
                left: Operand::Field(Field::ToolCalls),
                op: CompareOp::Eq,
                right: Operand::Literal(Literal::Int(0)),
            }),
            action: Action::Decide {
                verb: Verb::AllowStop,
                stop_reason: Some(StopReason::Completed),
                message: None,
            },
            priority: 0,
            origin: None,
        },
        Rule {
            id: TOOL_ERRORS_TO_MODEL.to_owned(),
            events: vec![EventKind::OnError],
            condition: Some(Condition::In {
                field: Field::ErrorKind,
                list: vec![
                    Literal::Str("tool".to_owned()),
                    Literal::Str("tool_blocked".to_owned()),
                ],
            }),
            action: Action::Decide {
                verb: Verb::Ignore,
                stop_reason: None,
                message: None,
            },
            priority: 0,
            origin: None,
        },
    ]
}
