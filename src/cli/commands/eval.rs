//! `rulesc eval POLICY... --event FILE|-`: evaluates events and prints one outcome per event.
//!
//! The input is one JSON event (possibly spread over several lines) or a stream of them,
//! typically JSON Lines. Successive events are one execution: each event's metadata starts
//! as the metadata of the previous outcome (after its `set` effects), and the event's own
//! `metadata` keys are laid over it, top-level key by key, so the input wins where both
//! name a key. Counters and every other field are taken from each event as given.
//!
//! Every event is read and checked before any is evaluated, so malformed input prints no
//! outcome at all: exit 2 with one line naming the input line and the field at fault.

use std::io::Write;
use std::path::Path;

use rulesc_runtime::{Event, EventKind, Limits, Outcome, Policy};
use serde_json::{Map, Value as Json};

use crate::cli::args::{EvalArgs, LimitArgs, OutputFormat};
use crate::cli::{input, load, ExitStatus};

/// Runs `rulesc eval`
pub(crate) fn run(args: &EvalArgs) -> ExitStatus {
    let policy = match load::load_policy(&args.policies) {
        Ok(policy) => policy.with_limits(limits(&args.limits)),
        Err(status) => return status,
    };
    let events = match read_input(&args.event).and_then(|text| parse_events(&text)) {
        Ok(events) => events,
        Err(reason) => {
            report_error(&reason);
            return ExitStatus::Error;
        }
    };
    let outcomes = evaluate_execution(&policy, events);
    match write_outcomes(&outcomes, args.format) {
        Ok(()) => ExitStatus::Success,
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(err) => {
            report_error(&format!("cannot write the outcomes: {err}"));
            ExitStatus::Error
        }
    }
}

/// The host limits of the command line, each defaulting to [`Limits::default`]
pub(crate) fn limits(args: &LimitArgs) -> Limits {
    let defaults = Limits::default();
    Limits {
        max_steps: args.max_steps.unwrap_or(defaults.max_steps),
        max_retries: args.max_retries.unwrap_or(defaults.max_retries),
        max_stop_requests: args.max_stop_requests.unwrap_or(defaults.max_stop_requests),
    }
}

/// Evaluates `events` as successive events of one execution, carrying metadata over
pub(crate) fn evaluate_execution(policy: &Policy, events: Vec<Event>) -> Vec<Outcome> {
    let mut carried: Map<String, Json> = Map::new();
    let mut outcomes = Vec::with_capacity(events.len());
    for mut event in events {
        let own = std::mem::take(&mut event.metadata);
        event.metadata = carried;
        event.metadata.extend(own);
        let outcome = policy.evaluate(&event);
        carried = outcome.metadata.clone();
        outcomes.push(outcome);
    }
    outcomes
}

fn write_outcomes(outcomes: &[Outcome], format: OutputFormat) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    for (outcome_idx, outcome) in outcomes.iter().enumerate() {
        match format {
            OutputFormat::Json => {
                serde_json::to_writer(&mut out, outcome)?;
                out.write_all(b"\n")?;
            }
            OutputFormat::Human => {
                if outcome_idx > 0 {
                    out.write_all(b"\n")?;
                }
                out.write_all(outcome.render().as_bytes())?;
            }
        }
    }
    out.flush()
}

fn report_error(reason: &str) {
    crate::cli::print_error(reason);
}

/// The text of `path`, or of stdin for `-`
fn read_input(path: &Path) -> Result<String, String> {
    if path == Path::new("-") {
        return input::read_stdin_to_string()
            .map_err(|err| format!("cannot read the events from stdin: {err}"));
    }
    input::read_file_to_string(path).map_err(|err| {
        let reason = match err.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_owned(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
            _ => err.to_string(),
        };
        format!("cannot read `{}`: {reason}", path.display())
    })
}

/// Every event of `text`: one JSON object, or several one after the other (JSON Lines)
pub(crate) fn parse_events(text: &str) -> Result<Vec<Event>, String> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Json>();
    let mut events = Vec::new();
    loop {
        let start = stream.byte_offset();
        let Some(value) = stream.next() else {
            break;
        };
        let value = value.map_err(|err| format!("the events are not valid JSON: {err}"))?;
        let line = line_of(text, start);
        events.push(to_event(value).map_err(|reason| format!("line {line}: {reason}"))?);
    }
    if events.is_empty() {
        return Err("no event in the input".to_owned());
    }
    Ok(events)
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

/// Reads one event, naming what is wrong in user words
fn to_event(value: Json) -> Result<Event, String> {
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
            return match expected_type(key) {
                Some(expected) => {
                    format!(
                        "field `{key}` must be {expected}, found {}",
                        describe(value)
                    )
                }
                None => format!("field `{key}`: {field_err}"),
            };
        }
    }
    err.to_string()
}

/// What the event field `key` holds, in user words (CLI.md's event input)
fn expected_type(key: &str) -> Option<&'static str> {
    Some(match key {
        "step" | "steps" | "tokens" | "input_tokens" | "output_tokens" | "elapsed_ms"
        | "failures" | "errors" | "retries" | "messages" | "tool_calls" | "stop_requests" => {
            "a non-negative integer"
        }
        "response" | "finish_reason" | "tool" | "result" => "a string",
        "tool_error" | "blocked" => "`true` or `false`",
        "metadata" => "an object",
        "error" => "an object with string fields `kind` and `message`",
        "stop_reason" => "a stop reason such as `completed` or `guard_forbade`",
        "stop_decision" => "`allow_stop` or `forbid`",
        "status" => "`completed`, `stopped` or `failed`",
        _ => return None,
    })
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
        assert_eq!(parse_events(one).unwrap().len(), 1);
        let lines = "{\"event\": \"before_step\"}\n\n{\"event\": \"stop\"}\n";
        let events = parse_events(lines).unwrap();
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
    fn tolerates_unknown_keys() {
        assert!(parse_events("{\"event\": \"stop\", \"host_extra\": [1]}").is_ok());
    }
}
