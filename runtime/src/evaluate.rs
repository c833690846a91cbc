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

use serde_json::{Map, Value as Json};

use crate::arith;
use crate::event::Event;
use crate::shell::{self, CommandLine};
use crate::trace::Reading;
use crate::vocabulary::{
    fold_case, CompareOp, Condition, Field, FieldPath, ListQuantifier, Literal, Operand,
    PathSegment, StopDecision,
};

impl Condition {
    /// Whether this condition holds for `event` (docs/language.md §4.4)
    ///
    /// The plain, rule-by-rule semantics: `Policy::evaluate` gives the same answers through
    /// its index, and tests compare the two. Shell conditions read the command of the tools
    /// of [`crate::DEFAULT_SHELL_TOOLS`], and one on a command that cannot be read is false.
    /// A trace test reads no run here, and is false: [`crate::Policy::evaluate_in_run`]
    /// gives it one.
    pub fn holds(&self, event: &Event) -> bool {
        holds(
            self,
            event,
            &CommandLine::new(event, None),
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
/// be read: the tool's output (`result`, `result.<path>`) or its input (`arg.<path>`, and the
/// command line a shell condition reads from it)
fn reads_unknown(condition: &Condition, event: &Event) -> bool {
    let output_unknown = event
        .result
        .as_ref()
        .is_some_and(crate::event::ToolOutput::is_unreadable);
    let unknown = |field: &Field| match field {
        Field::Result | Field::ResultPath(_) => output_unknown,
        Field::Arg(_) => event.arg_unreadable,
        _ => false,
    };
    // A shell condition reads the command line, a part of the tool's input.
    (event.arg_unreadable && matches!(condition, Condition::Shell { .. }))
        || ((output_unknown || event.arg_unreadable) && reads_field(condition, &unknown))
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

/// The text `field` holds in `event`; `None` when it holds no string (the rule index reads
/// fields through this, so it sees exactly what conditions see)
pub(crate) fn read_str<'a>(field: &'a Field, event: &'a Event) -> Option<&'a str> {
    match read(field, event)? {
        Value::Str(text) => Some(text),
        _ => None,
    }
}

/// The integer `field` holds in `event`, durations in milliseconds; `None` when it holds
/// no integer
pub(crate) fn read_int(field: &Field, event: &Event) -> Option<i128> {
    match read(field, event)? {
        Value::Num(Num::Int(int)) => Some(int),
        Value::Duration(ms) => Some(i128::from(ms)),
        _ => None,
    }
}

/// Whether `event` carries a value for `field`, of any type
pub(crate) fn is_present(field: &Field, event: &Event) -> bool {
    read(field, event).is_some()
}

/// A value met during evaluation, borrowed from the event or the policy
#[derive(Debug, Clone, Copy)]
enum Value<'a> {
    /// An integer or a JSON number
    Num(Num),
    /// Milliseconds
    Duration(u64),
    /// Text
    Str(&'a str),
    /// `true` or `false`
    Bool(bool),
    /// A list literal
    List(&'a [Literal]),
    /// JSON that is not a scalar: an array, an object or `null`
    Json(&'a Json),
}

/// A number, kept exact when it is an integer
#[derive(Debug, Clone, Copy)]
enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    fn from_json(number: &serde_json::Number) -> Option<Num> {
        if let Some(int) = number.as_i64() {
            Some(Num::Int(i128::from(int)))
        } else if let Some(int) = number.as_u64() {
            Some(Num::Int(i128::from(int)))
        } else {
            number.as_f64().map(Num::Float)
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            // Precision loss beyond 2^53 only matters against a float, which has none either.
            #[expect(
                clippy::cast_precision_loss,
                reason = "comparing an integer with a float is done in f64"
            )]
            Num::Int(int) => int as f64,
            Num::Float(float) => float,
        }
    }

    fn cmp(self, other: Num) -> Option<Ordering> {
        match (self, other) {
            (Num::Int(left), Num::Int(right)) => Some(left.cmp(&right)),
            (left, right) => left.as_f64().partial_cmp(&right.as_f64()),
        }
    }
}

impl<'a> Value<'a> {
    fn from_json(json: &'a Json) -> Value<'a> {
        match json {
            Json::Bool(value) => Value::Bool(*value),
            Json::String(text) => Value::Str(text),
            Json::Number(number) => Num::from_json(number).map_or(Value::Json(json), Value::Num),
            Json::Null | Json::Array(_) | Json::Object(_) => Value::Json(json),
        }
    }

    fn from_literal(literal: &'a Literal) -> Value<'a> {
        match literal {
            Literal::Bool(value) => Value::Bool(*value),
            Literal::Int(value) => Value::Num(Num::Int(i128::from(*value))),
            Literal::Duration(ms) => Value::Duration(*ms),
            Literal::Str(text) => Value::Str(text),
            Literal::List(items) => Value::List(items),
        }
    }

    /// The value as a number of the common numeric scale (durations in milliseconds)
    fn as_num(self) -> Option<Num> {
        match self {
            Value::Num(num) => Some(num),
            Value::Duration(ms) => Some(Num::Int(i128::from(ms))),
            Value::Str(_) | Value::Bool(_) | Value::List(_) | Value::Json(_) => None,
        }
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

/// Reads `field` from `event`; `None` when the event does not carry it
///
/// On `stop` and `subagent_stop` the pending stop's fields take the same defaults
/// resolution uses (docs/language.md §5.6, [`Event::pending_stop_decision`]), and
/// `stop_requests` is 0 when absent.
fn read<'a>(field: &'a Field, event: &'a Event) -> Option<Value<'a>> {
    let int = |value: u64| Some(Value::Num(Num::Int(i128::from(value))));
    let text = |value: &'a Option<String>| value.as_deref().map(Value::Str);
    match field {
        Field::Step => int(event.step),
        Field::Steps => int(event.steps),
        Field::Tokens => int(event.total_tokens()),
        Field::InputTokens => int(event.input_tokens),
        Field::OutputTokens => int(event.output_tokens),
        Field::Elapsed => Some(Value::Duration(event.elapsed_ms)),
        Field::Failures => int(event.failures),
        Field::Errors => int(event.errors),
        Field::Retries => int(event.retries),
        Field::Messages => event.messages.and_then(int),
        Field::ToolCalls => event.tool_calls.and_then(int),
        Field::StopRequests => match event.stop_requests {
            Some(count) => int(count),
            None if event.kind.is_stop() => int(0),
            None => None,
        },
        Field::Response => text(&event.response),
        Field::FinishReason => text(&event.finish_reason),
        Field::Tool => text(&event.tool),
        Field::Result => event
            .result
            .as_ref()
            .map(|result| Value::Str(result.text())),
        Field::ResultPath(path) => event
            .result
            .as_ref()
            .and_then(|result| result.json())
            .and_then(|json| path.lookup(json))
            .map(Value::from_json),
        Field::Cwd => text(&event.cwd),
        Field::PermissionMode => text(&event.permission_mode),
        Field::SessionId => text(&event.session_id),
        Field::Prompt => text(&event.prompt),
        Field::ToolError => event.tool_error.map(Value::Bool),
        Field::Blocked => event.blocked.map(Value::Bool),
        Field::ErrorKind => event.error_kind().map(Value::Str),
        Field::ErrorMessage => event.error.as_ref().map(|error| Value::Str(&error.message)),
        Field::StopReason => event
            .pending_stop_reason()
            .map(|reason| Value::Str(reason.name())),
        Field::StopDecision => event
            .pending_stop_decision()
            .map(|decision| Value::Str(StopDecision::name(decision))),
        Field::Status => event.status.map(|status| Value::Str(status.name())),
        Field::Arg(path) => event
            .arg
            .as_ref()
            .and_then(|arg| path.lookup(arg))
            .map(Value::from_json),
        Field::Metadata(path) => lookup_metadata(&event.metadata, path).map(Value::from_json),
    }
}

/// The metadata value at `path`: its first segment is a key of the metadata object
fn lookup_metadata<'a>(metadata: &'a Map<String, Json>, path: &FieldPath) -> Option<&'a Json> {
    let (PathSegment::Key(key), rest) = path.segments.split_first()? else {
        return None;
    };
    FieldPath::lookup_in(metadata.get(key.as_str())?, rest)
}
