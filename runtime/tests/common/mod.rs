//! Builders shared by the runtime's integration tests: rules, conditions and events written
//! directly with runtime types, as the compiler would produce them, and the simplest drivers.

#![expect(
    clippy::expect_used,
    clippy::panic,
    reason = "helpers of tests: a bad fixture fails the test"
)]
#![allow(
    dead_code,
    unreachable_pub,
    reason = "each test binary uses its own subset of the builders"
)]

use proptest::prelude::Strategy;
use proptest::sample::select;
use rulesc_runtime::{
    Action, CompareOp, Condition, Defaults, Event, EventKind, Field, FieldPath, FinishReason,
    InferenceResponse, Literal, Message, ModelError, Operand, Origin, PathSegment, Policy, Rule,
    StopReason, ToolCall, ToolError, Usage, Verb,
};

/// A decision rule without a condition, written at `p.rules:1`
pub fn decide(id: &str, events: &[EventKind], verb: Verb) -> Rule {
    Rule {
        id: id.to_owned(),
        events: events.to_vec(),
        condition: None,
        action: Action::Decide {
            verb,
            stop_reason: None,
            message: None,
        },
        priority: 0,
        origin: Some(Origin {
            file: "p.rules".to_owned(),
            line: 1,
            column: 1,
        }),
    }
}

/// `on <event> <verb> "<message>"`
pub fn decide_msg(id: &str, event: EventKind, verb: Verb, message: &str) -> Rule {
    let mut rule = decide(id, &[event], verb);
    if let Action::Decide { message: slot, .. } = &mut rule.action {
        *slot = Some(message.to_owned());
    }
    rule
}

/// The rule with `when condition`
pub fn when(mut rule: Rule, condition: Condition) -> Rule {
    rule.condition = Some(condition);
    rule
}

/// The rule with `@priority(priority)`
pub fn prio(mut rule: Rule, priority: i64) -> Rule {
    rule.priority = priority;
    rule
}

/// The rule with this stop reason
pub fn reason(mut rule: Rule, stop_reason: StopReason) -> Rule {
    if let Action::Decide {
        stop_reason: slot, ..
    } = &mut rule.action
    {
        *slot = Some(stop_reason);
    }
    rule
}

/// `on <event> set metadata.<dotted key> = <value>`
pub fn set(id: &str, event: EventKind, key: &str, value: Literal) -> Rule {
    Rule {
        id: id.to_owned(),
        events: vec![event],
        condition: None,
        action: Action::Set {
            key: path(key),
            value,
        },
        priority: 0,
        origin: None,
    }
}

/// A dotted path (`a.b`) as a field path of keys
pub fn path(dotted: &str) -> FieldPath {
    FieldPath {
        segments: dotted
            .split('.')
            .map(|key| PathSegment::Key(key.to_owned()))
            .collect(),
    }
}

/// `metadata.<dotted>`
pub fn metadata(dotted: &str) -> Field {
    Field::Metadata(path(dotted))
}

/// `arg.<dotted>`
pub fn arg(dotted: &str) -> Field {
    Field::Arg(path(dotted))
}

/// `field op literal`
pub fn cmp(field: Field, op: CompareOp, literal: Literal) -> Condition {
    Condition::Compare {
        left: Operand::Field(field),
        op,
        right: Operand::Literal(literal),
    }
}

/// A string literal
pub fn s(text: &str) -> Literal {
    Literal::Str(text.to_owned())
}

/// A policy of `rules` without defaults
pub fn policy(rules: Vec<Rule>) -> Policy {
    Policy::new(rules, Defaults::default()).expect("test policy is valid")
}

/// An event of `kind` read from JSON fields (`{"tool": "bash"}`), `event` added
pub fn event(kind: EventKind, fields: serde_json::Value) -> Event {
    let mut object = match fields {
        serde_json::Value::Object(object) => object,
        other => panic!("event fields must be an object, got {other}"),
    };
    object.insert("event".to_owned(), kind.name().into());
    serde_json::from_value(serde_json::Value::Object(object)).expect("test event is valid")
}

/// A model that calls the tool `t` in every step, using 10 + 5 tokens per call
pub fn busy_model(_: &[Message]) -> Result<InferenceResponse, ModelError> {
    Ok(InferenceResponse {
        text: "working".to_owned(),
        tool_calls: vec![ToolCall {
            id: "c".to_owned(),
            name: "t".to_owned(),
            args: serde_json::json!({}),
        }],
        finish_reason: FinishReason::ToolCalls,
        usage: Usage {
            input: 10,
            output: 5,
        },
    })
}

/// A tool that answers `ok` to every call
pub fn ok_tool(_: &ToolCall) -> Result<String, ToolError> {
    Ok("ok".to_owned())
}

/// Any comparison operator
pub fn op() -> impl Strategy<Value = CompareOp> {
    select(vec![
        CompareOp::Eq,
        CompareOp::Ne,
        CompareOp::Lt,
        CompareOp::Le,
        CompareOp::Gt,
        CompareOp::Ge,
    ])
}
