//! The schema of events (`vocabulary/schema.rs`) against the `Event` type it describes and
//! the contract: every key of event JSON is in the schema with the JSON type the reader
//! really takes, and every condition field the contract lists has a spelling and a meaning.

#![expect(
    clippy::unwrap_used,
    reason = "helpers of tests: a source that cannot be read fails the test"
)]

use rulesc_runtime::{
    ErrorKind, Event, EventField, EventKind, Field, FinishReason, JsonType, Status, StopDecision,
    StopReason, Verb, EVENT_FIELDS,
};
use serde_json::{json, Map, Value as Json};

/// A value of `json` type that the event reader must accept
fn valid(json: JsonType) -> Json {
    match json {
        JsonType::Count | JsonType::Milliseconds => json!(3),
        JsonType::Text => json!("text"),
        JsonType::Flag => json!(true),
        JsonType::Object => json!({"a": 1}),
        JsonType::Error => json!({"kind": "tool", "message": "boom"}),
        JsonType::Any => json!([1, "two"]),
        JsonType::OneOf(values) => json!(values.names().first().unwrap()),
    }
}

/// A value of another type than `json`, that the event reader must refuse
fn invalid(json: JsonType) -> Option<Json> {
    match json {
        JsonType::Count | JsonType::Milliseconds => Some(json!("3")),
        JsonType::Text => Some(json!(3)),
        JsonType::Flag => Some(json!("yes")),
        JsonType::Object | JsonType::Error => Some(json!([1])),
        JsonType::Any => None,
        JsonType::OneOf(_) => Some(json!("no such value")),
    }
}

#[test]
fn every_key_of_event_json_is_in_the_schema_and_nothing_else() {
    // Every key set: the serialized event shows each key the `Event` type has.
    let mut object = Map::new();
    object.insert("event".into(), json!("stop"));
    for field in EVENT_FIELDS {
        object.insert(field.key.into(), valid(field.json));
    }
    let event: Event = serde_json::from_value(Json::Object(object.clone())).unwrap();
    let written = serde_json::to_value(&event).unwrap();
    let mut keys: Vec<&str> = written
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    let mut expected: Vec<&str> = EVENT_FIELDS.iter().map(|field| field.key).collect();
    expected.push("event");
    expected.sort_unstable();
    assert_eq!(keys, expected);
    // And each value came back as it was given.
    assert_eq!(written, Json::Object(object));
}

#[test]
fn the_reader_refuses_a_value_of_another_type() {
    for field in EVENT_FIELDS {
        let Some(wrong) = invalid(field.json) else {
            continue;
        };
        let event = json!({"event": "stop", (field.key): wrong});
        assert!(
            serde_json::from_value::<Event>(event).is_err(),
            "`{}` took a value of another type",
            field.key
        );
    }
}

#[test]
fn the_keys_of_the_contract_are_the_schemas() {
    // docs/cli.md "Event input" names these keys (besides `event`).
    let contract = [
        "step",
        "steps",
        "tokens",
        "input_tokens",
        "output_tokens",
        "elapsed_ms",
        "failures",
        "errors",
        "retries",
        "metadata",
        "messages",
        "response",
        "finish_reason",
        "tool_calls",
        "tool",
        "arg",
        "result",
        "tool_error",
        "blocked",
        "error",
        "stop_reason",
        "stop_decision",
        "stop_requests",
        "status",
    ];
    // What the host protocols add (issue 11): every host event carries the first three,
    // a turn's first event the prompt.
    let from_hosts = ["cwd", "permission_mode", "session_id", "prompt"];
    let keys: Vec<&str> = EVENT_FIELDS.iter().map(|field| field.key).collect();
    assert_eq!(keys, [contract.as_slice(), &from_hosts].concat());
    assert_eq!(
        EventField::by_key("elapsed_ms").unwrap().test_key,
        "elapsed"
    );
    assert_eq!(
        EventField::by_test_key("elapsed").unwrap().key,
        "elapsed_ms"
    );
}

#[test]
fn a_key_is_visible_where_its_field_is() {
    // docs/language.md §4.1: `tool` on the tool events and `on_error`, `error` on `on_error`.
    let tool = EventField::by_key("tool").unwrap().field().unwrap();
    assert_eq!(
        tool.visible_events(),
        [
            EventKind::PreToolUse,
            EventKind::PostToolUse,
            EventKind::OnError
        ]
    );
    let error = EventField::by_key("error").unwrap().field().unwrap();
    assert_eq!(error.visible_events(), [EventKind::OnError]);
    for field in EVENT_FIELDS {
        assert!(field.field().is_some(), "`{}` follows no field", field.key);
    }
}

#[test]
fn every_condition_field_of_the_contract_has_a_spelling_and_a_meaning() {
    // docs/language.md §4.1, both tables.
    let contract = [
        "step",
        "steps",
        "tokens",
        "input_tokens",
        "output_tokens",
        "elapsed",
        "failures",
        "errors",
        "retries",
        "messages",
        "response",
        "finish_reason",
        "tool_calls",
        "tool",
        "result",
        "tool_error",
        "blocked",
        "error.kind",
        "error.message",
        "stop_reason",
        "stop_decision",
        "stop_requests",
        "status",
        // added for hosts
        "cwd",
        "permission_mode",
        "session_id",
        "prompt",
    ];
    let mut names: Vec<&str> = Field::names().collect();
    names.sort_unstable();
    let mut expected = contract.to_vec();
    expected.sort_unstable();
    assert_eq!(names, expected);
    for name in contract {
        let field = Field::from_name(name).unwrap();
        assert_eq!(field.to_string(), name);
        assert!(!field.doc().is_empty(), "`{name}` has no meaning");
    }
}

#[test]
fn the_enumerated_values_are_the_contracts() {
    // docs/language.md §4.1 and §4.2, word for word.
    let names = |field: &str| {
        Field::from_name(field)
            .and_then(|field| field.values())
            .map(|values| values.names())
            .unwrap()
    };
    assert_eq!(
        names("finish_reason"),
        [
            "stop",
            "length",
            "tool_calls",
            "content_filter",
            "error",
            "other"
        ]
    );
    assert_eq!(
        names("error.kind"),
        [
            "tool",
            "tool_blocked",
            "model",
            "rate_limit",
            "timeout",
            "validation",
            "unknown"
        ]
    );
    assert_eq!(names("status"), ["completed", "stopped", "failed"]);
    assert_eq!(names("stop_decision"), ["allow_stop", "forbid"]);
    assert_eq!(
        names("stop_reason"),
        [
            "completed",
            "steps_limit_reached",
            "token_limit_reached",
            "time_limit_reached",
            "retry_limit_reached",
            "error_forbade",
            "finish_reason_received",
            "guard_forbade",
            "stop_requested",
            "user_requested"
        ]
    );
    assert_eq!(Field::from_name("tool").unwrap().values(), None);
}

#[test]
fn every_word_reads_back_from_its_name_and_serializes_as_it() {
    fn check<T>(all: &[T], name: fn(&T) -> &'static str, from: fn(&str) -> Option<T>)
    where
        T: PartialEq + std::fmt::Debug + serde::Serialize,
    {
        for value in all {
            assert_eq!(from(name(value)).as_ref(), Some(value));
            assert_eq!(serde_json::to_value(value).unwrap(), json!(name(value)));
        }
        assert_eq!(from("no such word"), None);
    }
    check(&EventKind::ALL, |v| v.name(), EventKind::from_name);
    check(&Verb::ALL, |v| v.name(), Verb::from_name);
    check(&StopReason::ALL, |v| v.name(), StopReason::from_name);
    check(&StopDecision::ALL, |v| v.name(), StopDecision::from_name);
    check(&Status::ALL, |v| v.name(), Status::from_name);
    check(&ErrorKind::ALL, |v| v.name(), ErrorKind::from_name);
    check(&FinishReason::ALL, |v| v.name(), FinishReason::from_name);
}

#[test]
fn event_json_takes_each_field_under_its_inline_test_key_too() {
    let read = |key: &str, value: Json| -> Event {
        serde_json::from_value(json!({"event": "stop", key: value}))
            .unwrap_or_else(|err| panic!("`{key}`: {err}"))
    };
    for field in EVENT_FIELDS {
        let by_key = read(field.key, valid(field.json));
        for key in field.json_keys() {
            assert_eq!(read(key, valid(field.json)), by_key, "`{key}`");
        }
    }
    // JSON has no durations: `elapsed` also takes one's text, in the language's units.
    assert_eq!(read("elapsed", json!("5min")).elapsed_ms, 300_000);
    assert_eq!(read("elapsed_ms", json!("1_500ms")).elapsed_ms, 1_500);
    for not_a_duration in [json!("5"), json!("5 min"), json!("5mins"), json!(-1)] {
        let event = json!({"event": "stop", "elapsed": not_a_duration});
        assert!(
            serde_json::from_value::<Event>(event).is_err(),
            "{not_a_duration}"
        );
    }
}
