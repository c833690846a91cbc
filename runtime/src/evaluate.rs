//! Condition evaluation: whether a rule's `when` holds for one event (docs/language.md §4.4).
//!
//! Invariant: evaluation is total. A field the event does not carry, a missing `arg.*` or
//! `metadata.*` path and a comparison between values of different types are all simply
//! false, whatever the operator (`!=` included: a missing value is not "not equal", it is
//! absent). Nothing here panics or allocates per comparison.
//!
//! Values meet at run time as follows:
//! - integers and JSON numbers compare numerically (integers exactly, floats as `f64`);
//! - durations are milliseconds, so `elapsed` and duration literals also compare with JSON
//!   numbers (what `set metadata.t = 5s` stores);
//! - strings, booleans and lists compare only for (in)equality: `<` and its kin hold for
//!   numbers alone, as E020 says at compile time;
//! - a bare field is true only when its value is the boolean `true`;
//! - arithmetic is an integer (`runtime/src/arith.rs`), and a quantifier tests each element
//!   of a JSON array (docs/expressions.md).

use std::cmp::Ordering;

use serde_json::Value as Json;

use crate::arith;
use crate::event::Event;
use crate::read::{read, Num, Value};
use crate::shell::{self, CommandLine};
use crate::trace::Reading;
use crate::vocabulary::{fold_case, CompareOp, Condition, Field, ListQuantifier, Literal, Operand};
use crate::watched::Watched;

impl Condition {
    /// Whether this condition holds for `event` (docs/language.md §4.4)
    ///
    /// The plain, rule-by-rule semantics: `Policy::evaluate` gives the same answers through
    /// its index, and tests compare the two. Shell conditions read the command of the tools
    /// of [`crate::DEFAULT_SHELL_TOOLS`], and one on a command that cannot be read is false.
    /// A trace test reads no run here, and is false: [`crate::EvalOptions::trace`]
    /// gives it one. The programs the condition tests are watched behind unlisted programs,
    /// as in a policy of this one condition.
    pub fn holds(&self, event: &Event) -> bool {
        let watched = Watched::of([self]);
        holds(
            self,
            event,
            &CommandLine::new(event, None, &watched),
            false,
            &Reading::default(),
        )
    }
}

/// Whether `condition` holds for `event`, whose shell command (if any) is `line` and whose
/// trace terms read `trace`; `unreadable` is the value a shell condition takes on a command
/// that cannot be read, flipped under each `not` so that the rule as a whole fails closed
/// the same way
pub(crate) fn holds(
    condition: &Condition,
    event: &Event,
    line: &CommandLine<'_>,
    unreadable: bool,
    trace: &Reading<'_>,
) -> bool {
    if reads_unknown(condition, event) {
        // Nothing is known of what the leaf reads: it fails closed, as an unreadable command
        // does.
        return unreadable;
    }
    match condition {
        Condition::All(parts) => parts
            .iter()
            .all(|part| holds(part, event, line, unreadable, trace)),
        Condition::Any(parts) => parts
            .iter()
            .any(|part| holds(part, event, line, unreadable, trace)),
        Condition::Not(part) => !holds(part, event, line, !unreadable, trace),
        Condition::From { field, label } => match read(field, event) {
            Some(Value::Str(text)) => trace.is_from(text, label),
            Some(Value::Json(json)) => trace.is_from(&json.to_string(), label),
            Some(Value::Num(Num::Int(int))) => trace.is_from(&int.to_string(), label),
            Some(Value::Num(Num::Float(float))) => trace.is_from(&float.to_string(), label),
            Some(Value::Duration(_) | Value::Bool(_) | Value::List(_)) | None => false,
        },
        Condition::Trace(test) => trace
            .value(test.slot())
            .is_some_and(|value| test.op.holds(value.min(test.horizon()).cmp(&test.bound))),
        Condition::Shell {
            quantifier,
            condition,
            ..
        } => shell::holds(*quantifier, condition, line, unreadable),
        Condition::Flag(field) => matches!(read(field, event), Some(Value::Bool(true))),
        Condition::Compare { left, op, right } => {
            let (Some(left), Some(right)) = (operand(left, event), operand(right, event)) else {
                return false;
            };
            compare(&left, *op, &right)
        }
        Condition::Glob { field, .. }
        | Condition::Regex { field, .. }
        | Condition::In { field, .. }
        | Condition::Contains { field, .. } => {
            read(field, event).is_some_and(|value| holds_for(condition, value, event))
        }
        Condition::Quantified {
            quantifier,
            condition,
        } => quantified(*quantifier, condition, event),
    }
}

/// Whether the leaf `condition` reads a part of `event` that reached rulesc but could not
/// be read: the tool's output (`result`, `result.<path>`), its input (`arg.<path>`, and the
/// command line a shell condition reads from it) or another field (`Event::unknown_fields`)
fn reads_unknown(condition: &Condition, event: &Event) -> bool {
    let output_unknown = event
        .result
        .as_ref()
        .is_some_and(crate::event::ToolOutput::is_unreadable);
    // A shell condition reads the command line, a part of the tool's input.
    (event.arg_unreadable && matches!(condition, Condition::Shell { .. }))
        || ((output_unknown || event.arg_unreadable || !event.unknown_fields.is_empty())
            && reads_field(condition, &|field| field_unknown(field, event)))
}

/// Whether `field` of `event` reached rulesc but could not be read: the tool's output, its
/// input, or another field (`Event::unknown_fields`)
pub(crate) fn field_unknown(field: &Field, event: &Event) -> bool {
    match field {
        Field::Result | Field::ResultPath(_) => event
            .result
            .as_ref()
            .is_some_and(crate::event::ToolOutput::is_unreadable),
        Field::Arg(_) => event.arg_unreadable,
        other => event.unknown_fields.contains(other),
    }
}

/// Whether the leaf `condition` reads a field for which `is` holds
fn reads_field(condition: &Condition, is: &dyn Fn(&Field) -> bool) -> bool {
    match condition {
        Condition::Compare { left, right, .. } => {
            operand_reads(left, is) || operand_reads(right, is)
        }
        Condition::Glob { field, .. }
        | Condition::Regex { field, .. }
        | Condition::In { field, .. }
        | Condition::Contains { field, .. }
        | Condition::Flag(field)
        | Condition::From { field, .. } => is(field),
        Condition::Quantified { condition, .. } => reads_field(condition, is),
        Condition::All(_)
        | Condition::Any(_)
        | Condition::Not(_)
        | Condition::Trace(_)
        | Condition::Shell { .. } => false,
    }
}

/// Whether `operand` reads a field for which `is` holds, in arithmetic too
fn operand_reads(operand: &Operand, is: &dyn Fn(&Field) -> bool) -> bool {
    let mut pending = vec![operand];
    while let Some(operand) = pending.pop() {
        match operand {
            Operand::Field(field) if is(field) => return true,
            Operand::Arith(arith) => pending.extend([&arith.left, &arith.right]),
            Operand::Field(_) | Operand::Literal(_) => {}
        }
    }
    false
}

/// `any` / `all`: the leaf `condition` tested on each element of the list its field holds,
/// or on the value itself when it is no list; a missing field and an empty list make both
/// false, as `shell.all(...)` is false on a line that runs no command: an allow-list of
/// elements allows nothing it saw none of
fn quantified(quantifier: ListQuantifier, condition: &Condition, event: &Event) -> bool {
    let field = match condition {
        Condition::Compare {
            left: Operand::Field(field),
            ..
        }
        | Condition::Glob { field, .. }
        | Condition::Regex { field, .. }
        | Condition::In { field, .. }
        | Condition::Contains { field, .. } => field,
        _ => return false,
    };
    let Some(value) = read(field, event) else {
        return false;
    };
    let element_holds = |element: &Json| holds_for(condition, Value::from_json(element), event);
    match (quantifier, value) {
        (ListQuantifier::Any, Value::Json(Json::Array(items))) => items.iter().any(element_holds),
        (ListQuantifier::All, Value::Json(Json::Array(items))) => {
            !items.is_empty() && items.iter().all(element_holds)
        }
        (_, value) => holds_for(condition, value, event),
    }
}

/// Whether the leaf `condition` holds when its field holds `subject`: the test of one
/// value, shared by plain leaves and by each element under a quantifier
fn holds_for(condition: &Condition, subject: Value<'_>, event: &Event) -> bool {
    match condition {
        Condition::Compare { op, right, .. } => {
            operand(right, event).is_some_and(|right| compare(&subject, *op, &right))
        }
        Condition::Glob { pattern, .. } => {
            matches!(subject, Value::Str(text) if pattern.is_match(text))
        }
        Condition::Regex { pattern, .. } => {
            matches!(subject, Value::Str(text) if pattern.is_match(text))
        }
        Condition::In { list, .. } => list
            .iter()
            .any(|member| equal(&subject, &Value::from_literal(member)) == Some(true)),
        Condition::Contains { needle, .. } => contains(&subject, needle),
        _ => false,
    }
}

fn operand<'a>(operand: &'a Operand, event: &'a Event) -> Option<Value<'a>> {
    match operand {
        Operand::Field(field) => read(field, event),
        Operand::Literal(literal) => Some(Value::from_literal(literal)),
        Operand::Arith(_) => {
            arith::number(operand, event).map(|value| Value::Num(Num::Int(i128::from(value))))
        }
    }
}

fn compare(left: &Value<'_>, op: CompareOp, right: &Value<'_>) -> bool {
    match op {
        CompareOp::Eq => equal(left, right) == Some(true),
        CompareOp::Ne => equal(left, right) == Some(false),
        CompareOp::EqIgnoringCase => equal_ignoring_case(left, right) == Some(true),
        CompareOp::NeIgnoringCase => equal_ignoring_case(left, right) == Some(false),
        CompareOp::Lt | CompareOp::Le | CompareOp::Gt | CompareOp::Ge => {
            order(left, right).is_some_and(|ordering| op.holds(ordering))
        }
    }
}

/// [`equal`], two strings compared case folded
fn equal_ignoring_case(left: &Value<'_>, right: &Value<'_>) -> Option<bool> {
    match (left, right) {
        (Value::Str(left), Value::Str(right)) => Some(fold_case(left) == fold_case(right)),
        _ => equal(left, right),
    }
}

/// Whether two values are equal; `None` when their types cannot be compared
fn equal(left: &Value<'_>, right: &Value<'_>) -> Option<bool> {
    match (left, right) {
        (Value::Str(left), Value::Str(right)) => Some(left == right),
        (Value::Bool(left), Value::Bool(right)) => Some(left == right),
        (Value::List(left), Value::List(right)) => {
            let left: Vec<Value<'_>> = left.iter().map(Value::from_literal).collect();
            let right: Vec<Value<'_>> = right.iter().map(Value::from_literal).collect();
            sequences_equal(&left, &right)
        }
        (Value::List(list), Value::Json(Json::Array(array)))
        | (Value::Json(Json::Array(array)), Value::List(list)) => {
            let list: Vec<Value<'_>> = list.iter().map(Value::from_literal).collect();
            let array: Vec<Value<'_>> = array.iter().map(Value::from_json).collect();
            sequences_equal(&list, &array)
        }
        (Value::Json(left), Value::Json(right)) => Some(json_equal(left, right)),
        (left, right) => match (left.as_num(), right.as_num()) {
            (Some(left), Some(right)) => left.cmp(right).map(|ordering| ordering.is_eq()),
            _ => None,
        },
    }
}

fn sequences_equal(left: &[Value<'_>], right: &[Value<'_>]) -> Option<bool> {
    if left.len() != right.len() {
        return Some(false);
    }
    let mut all_equal = true;
    for (left, right) in left.iter().zip(right) {
        match equal(left, right) {
            Some(true) => {}
            Some(false) => all_equal = false,
            // Invariant: a type mismatch anywhere inside makes the whole comparison false,
            // for `!=` as much as for `==`.
            None => return None,
        }
    }
    Some(all_equal)
}

/// Structural JSON equality where numbers compare by value (`1 == 1.0`)
fn json_equal(left: &Json, right: &Json) -> bool {
    match (left, right) {
        (Json::Number(left), Json::Number(right)) => {
            match (Num::from_json(left), Num::from_json(right)) {
                (Some(left), Some(right)) => left.cmp(right) == Some(Ordering::Equal),
                _ => false,
            }
        }
        (Json::Array(left), Json::Array(right)) => {
            left.len() == right.len()
                && left
                    .iter()
                    .zip(right)
                    .all(|(left, right)| json_equal(left, right))
        }
        (Json::Object(left), Json::Object(right)) => {
            left.len() == right.len()
                && left
                    .iter()
                    .all(|(key, left)| right.get(key).is_some_and(|right| json_equal(left, right)))
        }
        (left, right) => left == right,
    }
}

/// How two values are ordered; `None` when they have no common order
///
/// Only numbers (and durations) are ordered: the compiler refuses `<` on strings (E020),
/// and two strings met at run time (`arg.a < metadata.b`) are no more ordered than that.
fn order(left: &Value<'_>, right: &Value<'_>) -> Option<Ordering> {
    left.as_num()?.cmp(right.as_num()?)
}

fn contains(value: &Value<'_>, needle: &Literal) -> bool {
    match (value, needle) {
        (Value::Str(text), Literal::Str(needle)) => text.contains(needle.as_str()),
        (Value::Json(Json::Array(items)), needle) => {
            let needle = Value::from_literal(needle);
            items
                .iter()
                .any(|item| equal(&Value::from_json(item), &needle) == Some(true))
        }
        _ => false,
    }
}
