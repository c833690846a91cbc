//! The rulesc trace format's JSON Schema (`docs/schemas/trace.json`): the sample
//! traces validate against it, wrong lines do not, and each key it describes has the type
//! the runtime's own table of event keys gives it, so the document cannot drift from the
//! reader.

#![expect(clippy::unwrap_used, reason = "tests: a bad fixture fails the test")]

use std::path::Path;

use rulesc::{ErrorKind, EventField, EventKind, JsonType};
use serde_json::{json, Value as Json};

fn schema() -> Json {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schemas/trace.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn validator() -> jsonschema::Validator {
    jsonschema::validator_for(&schema()).unwrap()
}

#[test]
fn the_sample_traces_validate_and_read_as_events() {
    let validator = validator();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replay/rulesc-events.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    for (number, line) in text.lines().enumerate() {
        let value: Json = serde_json::from_str(line).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|err| err.to_string())
            .collect();
        assert!(errors.is_empty(), "line {}: {errors:?}", number + 1);
        let mut event = value.clone();
        event.as_object_mut().unwrap().remove("session");
        serde_json::from_value::<rulesc::Event>(event).unwrap();
    }
}

#[test]
fn wrong_lines_do_not_validate() {
    let validator = validator();
    for wrong in [
        json!({"step": 1}),
        json!({"event": "PreToolUse"}),
        json!({"event": "stop", "steps": -1}),
        json!({"event": "pre_tool_use", "tool": 3}),
        json!({"event": "stop", "stop_reason": "done"}),
        json!({"event": "on_error", "error": {"kind": "disk"}}),
        json!({"event": "stop", "session": 7}),
        json!(["event", "stop"]),
    ] {
        assert!(!validator.is_valid(&wrong), "{wrong}");
    }
}

#[test]
fn every_key_has_the_runtimes_type() {
    let schema = schema();
    let properties = schema["properties"].as_object().unwrap();
    let events: Vec<&str> = EventKind::ALL.iter().map(|kind| kind.name()).collect();
    assert_eq!(properties["event"]["enum"], json!(events));
    let kinds: Vec<&str> = ErrorKind::ALL.iter().map(|kind| kind.name()).collect();
    assert_eq!(
        properties["error"]["properties"]["kind"]["enum"],
        json!(kinds)
    );
    for (key, property) in properties {
        if key == "event" || key == "session" {
            continue;
        }
        let field = EventField::by_key(key).unwrap_or_else(|| panic!("`{key}` is no event key"));
        let expected = match field.json {
            JsonType::Count | JsonType::Milliseconds => json!({"type": "integer", "minimum": 0}),
            JsonType::Text => json!({"type": "string"}),
            JsonType::Flag => json!({"type": "boolean"}),
            JsonType::Object => json!({"type": "object"}),
            JsonType::Any => json!({}),
            JsonType::Error => json!({"type": "object"}),
            JsonType::OneOf(values) => json!({"enum": values.names()}),
        };
        for (name, value) in expected.as_object().unwrap() {
            assert_eq!(&property[name], value, "`{key}`: `{name}`");
        }
        if field.json == JsonType::Any {
            assert!(property.get("type").is_none(), "`{key}` takes any JSON");
        }
    }
}
