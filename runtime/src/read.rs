//! The values an event holds for fields, as conditions, arithmetic and the rule index read
//! them (docs/language.md §4.4): a field the event does not carry reads as `None`.

use std::cmp::Ordering;

use serde_json::{Map, Value as Json};

use crate::event::Event;
use crate::vocabulary::{Field, FieldPath, Literal, PathSegment, StopDecision};

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
pub(crate) enum Value<'a> {
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
pub(crate) enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    pub(crate) fn from_json(number: &serde_json::Number) -> Option<Num> {
        if let Some(int) = number.as_i64() {
            Some(Num::Int(i128::from(int)))
        } else if let Some(int) = number.as_u64() {
            Some(Num::Int(i128::from(int)))
        } else {
            number.as_f64().map(Num::Float)
        }
    }

    pub(crate) fn as_f64(self) -> f64 {
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

    pub(crate) fn cmp(self, other: Num) -> Option<Ordering> {
        match (self, other) {
            (Num::Int(left), Num::Int(right)) => Some(left.cmp(&right)),
            (left, right) => left.as_f64().partial_cmp(&right.as_f64()),
        }
    }
}

impl<'a> Value<'a> {
    pub(crate) fn from_json(json: &'a Json) -> Value<'a> {
        match json {
            Json::Bool(value) => Value::Bool(*value),
            Json::String(text) => Value::Str(text),
            Json::Number(number) => Num::from_json(number).map_or(Value::Json(json), Value::Num),
            Json::Null | Json::Array(_) | Json::Object(_) => Value::Json(json),
        }
    }

    pub(crate) fn from_literal(literal: &'a Literal) -> Value<'a> {
        match literal {
            Literal::Bool(value) => Value::Bool(*value),
            Literal::Int(value) => Value::Num(Num::Int(i128::from(*value))),
            Literal::Duration(ms) => Value::Duration(*ms),
            Literal::Str(text) => Value::Str(text),
            Literal::List(items) => Value::List(items),
        }
    }

    /// The value as a number of the common numeric scale (durations in milliseconds)
    pub(crate) fn as_num(self) -> Option<Num> {
        match self {
            Value::Num(num) => Some(num),
            Value::Duration(ms) => Some(Num::Int(i128::from(ms))),
            Value::Str(_) | Value::Bool(_) | Value::List(_) | Value::Json(_) => None,
        }
    }
}

/// Reads `field` from `event`; `None` when the event does not carry it
///
/// On `stop` and `subagent_stop` the pending stop's fields take the same defaults
/// resolution uses (docs/language.md §5.6, [`Event::pending_stop_decision`]), and
/// `stop_requests` is 0 when absent.
pub(crate) fn read<'a>(field: &'a Field, event: &'a Event) -> Option<Value<'a>> {
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
