//! Event JSON as `rulesc eval` reads it (docs/cli.md "Event input"): one event or a stream of
//! them, read whole before any is evaluated, and evaluated as successive events of one
//! execution (a [`Session`]).
//!
//! Invariant: every event is read and checked before any is evaluated, so malformed input
//! yields no outcome at all, and the error names the input line and the field at fault in
//! the schema's words (`vocabulary/schema.rs` in the runtime). Keys that nothing reads are
//! returned beside the events, with their line, for the command to warn about
//! ([`crate::keys`]).

use rulesc_runtime::{
    EvalOptions, Event, EventField, EventKind, Outcome, Policy, TraceState, EVENT_FIELDS,
};
use serde_json::{Map, Value as Json};

use crate::keys::{self, UnknownKey};

/// The events of an input, with the keys in them that nothing reads
#[derive(Debug, Clone, PartialEq)]
pub struct EventInput {
    /// The events, in input order
    pub events: Vec<Event>,
    /// Each unknown key with the 1-based line of the event it is in
    pub unknown_keys: Vec<(usize, UnknownKey)>,
}

/// One execution seen event by event: the state each event starts from, carried over from
/// the outcomes before it: the metadata the `set` effects wrote, and the trace of the run
/// (counts, windows, labels; docs/trace.md)
///
/// `rulesc eval`'s stream, inline tests and the Python bindings' sessions all evaluate
/// through it, and `rulesc replay` with the same [`EvalOptions::carry_metadata`], so an event
/// means the same in each.
#[derive(Debug, Clone, Default)]
pub struct Session {
    /// The previous outcome's metadata, which the next event starts from
    metadata: Map<String, Json>,
    /// What the run's trace functions remember of the events so far
    trace: TraceState,
}

impl Session {
    /// Evaluates the execution's next event: it starts from the metadata the previous
    /// outcome left, with the event's own `metadata` keys laid over it at the top level
    pub fn observe(&mut self, policy: &Policy, event: &Event) -> Outcome {
        let options = EvalOptions::default()
            .trace(&mut self.trace)
            .carry_metadata(&mut self.metadata);
        policy.evaluate_with(event, options)
    }

    /// The metadata the next event starts from
    pub fn metadata(&self) -> &Map<String, Json> {
        &self.metadata
    }
}

/// Evaluates `events` as successive events of one execution, carrying metadata and the
/// trace of the run over
pub fn evaluate_execution(policy: &Policy, events: &[Event]) -> Vec<Outcome> {
    let mut session = Session::default();
    events
        .iter()
        .map(|event| session.observe(policy, event))
        .collect()
}

/// Every event of `text`: one JSON object, or several one after the other (JSON Lines)
pub fn parse_events(text: &str) -> Result<EventInput, String> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Json>();
    let known = keys::event_keys();
    let mut events = Vec::new();
    let mut unknown_keys = Vec::new();
    loop {
        let start = stream.byte_offset();
        let Some(value) = stream.next() else {
            break;
        };
        let value = value.map_err(|err| format!("the events are not valid JSON: {err}"))?;
        let line = line_of(text, start);
        unknown_keys.extend(
            keys::unknown_keys(&value, &known)
                .into_iter()
                .map(|key| (line, key)),
        );
        events.push(read_event(value).map_err(|reason| format!("line {line}: {reason}"))?);
    }
    if events.is_empty() {
        return Err("no event in the input".to_owned());
    }
    Ok(EventInput {
        events,
        unknown_keys,
    })
}

/// The 1-based line of the first non-blank character at or after `offset`
fn line_of(text: &str, offset: usize) -> usize {
    let rest = text.get(offset..).unwrap_or_default();
    let start = offset + (rest.len() - rest.trim_start().len());
    1 + text
        .get(..start)
        .unwrap_or_default()
        .bytes()
        .filter(|byte| *byte == b'\n')
        .count()
}

/// Reads one event from its JSON, naming what is wrong in user words; the keys it holds
/// that nothing reads are [`keys::unknown_keys`] against [`keys::event_keys`]
pub fn read_event(value: Json) -> Result<Event, String> {
    let Json::Object(object) = value else {
        return Err("an event must be a JSON object".to_owned());
    };
    let kind = match object.get("event") {
        None => return Err("the event has no `event` name".to_owned()),
        Some(Json::String(name)) => {
            EventKind::from_name(name).ok_or_else(|| format!("unknown event `{name}`"))?
        }
        Some(_) => return Err("`event` must be a string, the event's name".to_owned()),
    };
    for field in EVENT_FIELDS {
        let given: Vec<&str> = field
            .json_keys()
            .filter(|key| object.contains_key(*key))
            .collect();
        if let [first, second, ..] = given.as_slice() {
            return Err(format!(
                "`{first}` and `{second}` give the same field: give one of them"
            ));
        }
    }
    serde_json::from_value::<Event>(Json::Object(object.clone()))
        .map_err(|err| explain_field_error(kind, &object, &err))
}

/// Finds the field that made the whole event fail, by reading each field on its own, and
/// says what it should have been
fn explain_field_error(
    kind: EventKind,
    object: &Map<String, Json>,
    err: &serde_json::Error,
) -> String {
    for (key, value) in object {
        let mut alone = Map::new();
        alone.insert("event".to_owned(), Json::String(kind.name().to_owned()));
        alone.insert(key.clone(), value.clone());
        if let Err(field_err) = serde_json::from_value::<Event>(Json::Object(alone)) {
            return match EventField::by_key(key) {
                Some(field) => format!(
                    "field `{key}` must be {}, found {}",
                    field.json.described(),
                    describe(value)
                ),
                None => format!("field `{key}`: {field_err}"),
            };
        }
    }
    err.to_string()
}

/// A JSON value as a noun phrase: its type, or the string itself
fn describe(value: &Json) -> String {
    match value {
        Json::Null => "`null`".to_owned(),
        Json::Bool(value) => format!("`{value}`"),
        Json::Number(number) => format!("the number `{number}`"),
        Json::String(text) => format!("the string {value}", value = Json::String(text.clone())),
        Json::Array(_) => "an array".to_owned(),
        Json::Object(_) => "an object".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_one_event_or_json_lines() {
        let one = "{\n  \"event\": \"pre_tool_use\",\n  \"tool\": \"bash\"\n}\n";
        assert_eq!(parse_events(one).unwrap().events.len(), 1);
        let lines = "{\"event\": \"before_step\"}\n\n{\"event\": \"stop\"}\n";
        let events = parse_events(lines).unwrap().events;
        assert_eq!(events[1].kind, EventKind::Stop);
    }

    #[test]
    fn names_the_line_and_the_field_at_fault() {
        let text = "{\"event\": \"before_step\"}\n{\"event\": \"before_step\", \"steps\": \"3\"}";
        let err = parse_events(text).unwrap_err();
        assert_eq!(
            err,
            "line 2: field `steps` must be a non-negative integer, found the string \"3\""
        );
        let bad_reason = "{\"event\": \"stop\", \"stop_reason\": \"bored\"}";
        let err = parse_events(bad_reason).unwrap_err();
        assert!(
            err.starts_with("line 1: field `stop_reason` must be a stop reason"),
            "{err}"
        );
        assert_eq!(
            parse_events("{\"event\": \"nope\"}").unwrap_err(),
            "line 1: unknown event `nope`"
        );
        assert_eq!(
            parse_events("{}").unwrap_err(),
            "line 1: the event has no `event` name"
        );
        assert_eq!(
            parse_events("[1]").unwrap_err(),
            "line 1: an event must be a JSON object"
        );
        assert_eq!(parse_events(" \n").unwrap_err(), "no event in the input");
        assert!(parse_events("{")
            .unwrap_err()
            .starts_with("the events are not valid JSON"));
        let nested = "{\"event\": \"on_error\", \"error\": {\"kind\": 3}}";
        assert!(parse_events(nested)
            .unwrap_err()
            .starts_with("line 1: field `error` must be an object"));
    }

    #[test]
    fn elapsed_is_given_in_milliseconds_or_as_a_duration_under_either_name() {
        let elapsed = |text: &str| parse_events(text).map(|read| read.events[0].elapsed_ms);
        assert_eq!(
            elapsed(r#"{"event": "stop", "elapsed_ms": 6000}"#),
            Ok(6_000)
        );
        assert_eq!(elapsed(r#"{"event": "stop", "elapsed": "6s"}"#), Ok(6_000));
        assert_eq!(
            elapsed(r#"{"event": "stop", "elapsed": "1_500ms"}"#),
            Ok(1_500)
        );
        assert_eq!(elapsed(r#"{"event": "stop", "elapsed": 90}"#), Ok(90));
        assert_eq!(
            elapsed(r#"{"event": "stop", "elapsed": 1, "elapsed_ms": 1}"#),
            Err("line 1: `elapsed_ms` and `elapsed` give the same field: give one of them".into())
        );
        let wrong_unit = elapsed(r#"{"event": "stop", "elapsed": "6 sec"}"#).unwrap_err();
        assert!(
            wrong_unit.starts_with("line 1: field `elapsed` must be milliseconds as a non-negative integer, or a duration such as \"5min\""),
            "{wrong_unit}"
        );
    }

    #[test]
    fn a_session_starts_each_event_from_the_last_metadata_with_its_own_on_top() {
        let policy = crate::compile_str(
            "p.rules",
            "on post_tool_use when tool == \"web_fetch\" set metadata.tainted = true",
        )
        .unwrap();
        let read = |text: &str| read_event(serde_json::from_str(text).unwrap()).unwrap();
        let mut session = Session::default();
        session.observe(
            &policy,
            &read(r#"{"event": "post_tool_use", "tool": "web_fetch"}"#),
        );
        assert_eq!(session.metadata().get("tainted"), Some(&Json::Bool(true)));
        let outcome = session.observe(
            &policy,
            &read(r#"{"event": "before_step", "metadata": {"tainted": false, "user": "a"}}"#),
        );
        let expected = serde_json::json!({"tainted": false, "user": "a"});
        assert_eq!(Json::Object(outcome.metadata), expected);
        assert_eq!(Json::Object(session.metadata().clone()), expected);
    }

    #[test]
    fn reads_past_unknown_keys_and_names_each_with_its_line() {
        let text =
            "{\"event\": \"stop\"}\n\n{\"event\": \"stop\", \"host_extra\": [1],\n \"elapsd\": 3}";
        let input = parse_events(text).unwrap();
        assert_eq!(input.events.len(), 2);
        let found: Vec<(usize, &str)> = input
            .unknown_keys
            .iter()
            .map(|(line, key)| (*line, key.path.as_str()))
            .collect();
        assert_eq!(found, [(3, "elapsd"), (3, "host_extra")]);
    }
}
