//! What can be read soundly of hook input that is not JSON, such as a payload cut short:
//! the top-level fields of its leading object that are complete, each read whole or not at
//! all. A field is complete when the value after its key is followed by `,` or `}`, so a
//! string or a number cut short is never read as a shorter one.

use serde_json::{Map, Value as Json};

/// The complete top-level fields of the object `text` starts with, in order, up to the
/// first that is cut short or cannot be read; `None` when `text` starts no object. A key
/// written twice is left out, since which of its values the host meant cannot be told.
pub(super) fn leading_fields(text: &str) -> Option<Map<String, Json>> {
    let mut at = skip_space(text, 0);
    if !text.get(at..)?.starts_with('{') {
        return None;
    }
    at += 1;
    let mut fields = Map::new();
    let mut twice = Vec::new();
    while let Some((key, value, next)) = field(text, at) {
        if fields.contains_key(&key) {
            twice.push(key);
        } else {
            fields.insert(key, value);
        }
        match next {
            Some(next) => at = next,
            None => break,
        }
    }
    for key in twice {
        fields.remove(&key);
    }
    Some(fields)
}

/// The field starting at `at` (after `{` or `,`), with where the next one starts, `None`
/// when the object ends there; `None` when it is not complete
fn field(text: &str, at: usize) -> Option<(String, Json, Option<usize>)> {
    let (key, at) = value(text, at)?;
    let Json::String(key) = key else {
        return None;
    };
    let at = skip_space(text, at);
    if !text.get(at..)?.starts_with(':') {
        return None;
    }
    let (value, at) = value(text, at + 1)?;
    let at = skip_space(text, at);
    match text.get(at..)?.chars().next() {
        Some(',') => Some((key, value, Some(at + 1))),
        Some('}') => Some((key, value, None)),
        _ => None,
    }
}

/// The one JSON value at `at` (after any white space), and where it ends
fn value(text: &str, at: usize) -> Option<(Json, usize)> {
    let rest = text.get(at..)?;
    let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Json>();
    let value = values.next()?.ok()?;
    Some((value, at + values.byte_offset()))
}

/// Where the JSON white space at `at` ends
fn skip_space(text: &str, at: usize) -> usize {
    let space = text.get(at..).map_or(0, |rest| {
        rest.len() - rest.trim_start_matches([' ', '\t', '\n', '\r']).len()
    });
    at + space
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn fields(text: &str) -> Option<Json> {
        leading_fields(text).map(Json::Object)
    }

    #[test]
    fn only_fields_followed_by_a_comma_or_the_end_are_read() {
        let text =
            r#"{"session_id": "c", "hook_event_name":"PostToolUse", "n": 12, "tool_response":"abc"#;
        assert_eq!(
            fields(text),
            Some(json!({"session_id": "c", "hook_event_name": "PostToolUse", "n": 12}))
        );
        // A number cut short is not read as a smaller one.
        assert_eq!(fields(r#"{"a": "x", "n": 12"#), Some(json!({"a": "x"})));
        assert_eq!(
            fields(r#"{"a": {"b": [1, 2]}, "c"#),
            Some(json!({"a": {"b": [1, 2]}}))
        );
        assert_eq!(fields(r#"{"a": 1}"#), Some(json!({"a": 1})));
    }

    #[test]
    fn a_key_written_twice_and_text_that_starts_no_object_are_not_read() {
        assert_eq!(
            fields(r#"{"a": 1, "b": 2, "a": 3, "c"#),
            Some(json!({"b": 2}))
        );
        assert_eq!(fields(r#"["a", 1"#), None);
        assert_eq!(fields(""), None);
        assert_eq!(fields(r#"{"a" 1, "b": 2}"#), Some(json!({})));
        assert_eq!(fields(r#"{1: 2}"#), Some(json!({})));
    }
}
