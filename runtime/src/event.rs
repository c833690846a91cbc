//! One occurrence of a lifecycle event: the data every condition reads.
//!
//! `Event` is the JSON contract of `rulesc eval` (docs/cli.md): only `event` is required and every
//! other field defaults to zero or empty. Unknown keys are tolerated so hosts may add fields.
//! Its keys are the schema's (`vocabulary/schema.rs`).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value as Json};

use crate::vocabulary::{
    parse_duration, ErrorKind, EventKind, Field, SortedJson, Status, StopDecision, StopReason,
};

/// The failure an `on_error` event reports
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorInfo {
    /// One of `tool`, `tool_blocked`, `model`, `rate_limit`, `timeout`, `validation`, `unknown`
    #[serde(default)]
    pub kind: String,
    /// The error's text
    #[serde(default)]
    pub message: String,
}

/// One occurrence of a lifecycle event with everything a condition can see
///
/// Fields an event kind cannot see (docs/language.md §4.1) are simply left empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Which lifecycle point this is
    #[serde(rename = "event")]
    pub kind: EventKind,
    /// Number of the current step, from 1 (0 before the first step)
    #[serde(default)]
    pub step: u64,
    /// Steps completed so far
    #[serde(default)]
    pub steps: u64,
    /// Total tokens used (input + output)
    #[serde(default)]
    pub tokens: u64,
    /// Input tokens used
    #[serde(default)]
    pub input_tokens: u64,
    /// Output tokens used
    #[serde(default)]
    pub output_tokens: u64,
    /// Milliseconds since `execution_start`: in JSON `elapsed_ms` (milliseconds) or
    /// `elapsed` (as `elapsed_ms`, or a duration such as `"5min"`, as the language writes it)
    #[serde(default, alias = "elapsed", deserialize_with = "milliseconds")]
    pub elapsed_ms: u64,
    /// Consecutive failures
    #[serde(default)]
    pub failures: u64,
    /// Total errors in this execution
    #[serde(default)]
    pub errors: u64,
    /// Retries of the current step so far
    #[serde(default)]
    pub retries: u64,
    /// The execution's metadata, as set by effects or the host
    #[serde(default)]
    #[serde(serialize_with = "crate::vocabulary::sorted_map")]
    pub metadata: Map<String, Json>,
    /// Number of messages sent to the model (`before_inference`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<u64>,
    /// The model's text response
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// Why the model stopped generating
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// Number of tool calls the model made
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<u64>,
    /// The tool's name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The tool's JSON input
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg: Option<Json>,
    /// The tool's output: text, or JSON when it is structured
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ToolOutput>,
    /// Whether the tool call failed
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_error: Option<bool>,
    /// Whether the tool call was blocked
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked: Option<bool>,
    /// The failure of an `on_error` event
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
    /// Why the loop stops (`stop`, `subagent_stop`, `execution_end`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
    /// The pending stop's decision: `allow_stop` unless it came from a `forbid`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_decision: Option<StopDecision>,
    /// How many times a stop was already prevented in this execution
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_requests: Option<u64>,
    /// The finished run's status (`execution_end`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// The agent's working folder, as a host reports it
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The host's permission mode
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_mode: Option<String>,
    /// The host's session id
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The user's prompt that starts a turn (`before_step`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// The tool's input reached rulesc after the tool ran but could not be read (a lone
    /// surrogate, nesting deeper than JSON is read): nothing is known of `arg`, so every
    /// condition that reads it takes the value that makes its rule fail closed, as an
    /// unreadable output does ([`ToolOutput::unreadable`]). Never part of event JSON.
    #[serde(skip)]
    pub arg_unreadable: bool,
    /// Other fields that reached rulesc after the tool ran but could not be read (the tool's
    /// name, the working folder or the permission mode of a malformed `PostToolUse`): every
    /// condition that reads one takes the value that makes its rule fail closed, and the rule
    /// index, which cannot look an unknown value up, gives every rule of the event's kind.
    /// Never part of event JSON.
    #[serde(skip)]
    pub unknown_fields: Vec<Field>,
}

/// Milliseconds given as a number, or as a duration's text (`"1_500ms"`, `"5min"`)
fn milliseconds<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Milliseconds {
        Number(u64),
        Duration(String),
    }
    match Milliseconds::deserialize(deserializer)? {
        Milliseconds::Number(ms) => Ok(ms),
        Milliseconds::Duration(text) => {
            parse_duration(&text).map_err(|err| serde::de::Error::custom(format!("{err}")))
        }
    }
}

impl Event {
    /// An event of this kind with every field zero or empty
    pub fn new(kind: EventKind) -> Event {
        Event {
            kind,
            step: 0,
            steps: 0,
            tokens: 0,
            input_tokens: 0,
            output_tokens: 0,
            elapsed_ms: 0,
            failures: 0,
            errors: 0,
            retries: 0,
            metadata: Map::new(),
            messages: None,
            response: None,
            finish_reason: None,
            tool_calls: None,
            tool: None,
            arg: None,
            result: None,
            tool_error: None,
            blocked: None,
            error: None,
            stop_reason: None,
            stop_decision: None,
            stop_requests: None,
            status: None,
            cwd: None,
            permission_mode: None,
            session_id: None,
            prompt: None,
            arg_unreadable: false,
            unknown_fields: Vec::new(),
        }
    }

    /// The pending stop's decision: the event's own, else `allow_stop` on stop hooks
    /// (docs/language.md §5.6); `None` on events that judge no stop
    ///
    /// Conditions and resolution both read the pending stop through this and
    /// [`Event::pending_stop_reason`], so they agree on what it is.
    pub fn pending_stop_decision(&self) -> Option<StopDecision> {
        // Only stop hooks judge a stop; elsewhere a `stop_decision` key is a field the
        // event cannot see, so it must not lend `stop_reason` a default either.
        if !self.kind.is_stop() {
            return None;
        }
        Some(self.stop_decision.unwrap_or(StopDecision::AllowStop))
    }

    /// `tokens` as conditions read it: the total the event gives, or, when it gives none
    /// (0), the sum of its parts, so an event that counts only `input_tokens` and
    /// `output_tokens` still has a total (docs/semantics.md)
    pub fn total_tokens(&self) -> u64 {
        if self.tokens == 0 {
            self.input_tokens.saturating_add(self.output_tokens)
        } else {
            self.tokens
        }
    }

    /// `error.kind` as conditions read it: an error given without a kind, or an `on_error`
    /// event with no error at all, is of kind `unknown` (docs/language.md §4.1 lists it for
    /// failures no other kind names); `None` on events that report no error
    pub fn error_kind(&self) -> Option<&str> {
        match &self.error {
            Some(error) if !error.kind.is_empty() => Some(error.kind.as_str()),
            Some(_) => Some(ErrorKind::Unknown.name()),
            None if self.kind == EventKind::OnError => Some(ErrorKind::Unknown.name()),
            None => None,
        }
    }

    /// The pending stop's reason: the event's own, else the pending decision's default
    pub fn pending_stop_reason(&self) -> Option<StopReason> {
        self.stop_reason.or_else(|| {
            self.pending_stop_decision()
                .map(StopDecision::default_reason)
        })
    }
}

/// A tool's output as conditions read it: always as text (`result`), and as JSON
/// (`result.<path>`) when it is structured
///
/// Output given as a JSON object or array is structured, and its text is its compact JSON
/// (what a v1 policy matched); output given as text is structured too when the text itself
/// parses as a JSON object or array, so a tool that prints JSON can be read by its keys.
/// It is written back in the form it was given.
///
/// ```
/// use rulesc_runtime::ToolOutput;
/// use serde_json::json;
///
/// let output = ToolOutput::from_json(json!({"stdout": "ok", "exit_code": 0}));
/// assert_eq!(output.text(), r#"{"exit_code":0,"stdout":"ok"}"#);
/// assert_eq!(output.json().and_then(|json| json.get("stdout")), Some(&json!("ok")));
/// assert_eq!(ToolOutput::from_text("plain").json(), None);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    text: String,
    json: Option<Json>,
    given_as_text: bool,
    /// The output reached rulesc but could not be read (docs/trace.md)
    unreadable: bool,
}

impl ToolOutput {
    /// Output the tool gave as text
    pub fn from_text(text: impl Into<String>) -> ToolOutput {
        let text = text.into();
        let looks_structured = matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['));
        let json = looks_structured
            .then(|| serde_json::from_str::<Json>(&text).ok())
            .flatten();
        ToolOutput {
            text,
            json,
            given_as_text: true,
            unreadable: false,
        }
    }

    /// Output the tool gave as JSON: a string is text, anything else is structured
    pub fn from_json(json: Json) -> ToolOutput {
        match json {
            Json::String(text) => ToolOutput::from_text(text),
            json => ToolOutput {
                // Sorted keys: the text v1 policies matched, whatever serde_json's features.
                text: SortedJson(&json).to_string(),
                json: Some(json),
                given_as_text: false,
                unreadable: false,
            },
        }
    }

    /// Structured output with the text the host shows for it (Gemini CLI's `llmContent`)
    pub fn with_text(json: Json, text: impl Into<String>) -> ToolOutput {
        ToolOutput {
            text: text.into(),
            json: Some(json),
            given_as_text: false,
            unreadable: false,
        }
    }

    /// Output a tool gave that could not be read (text that is not valid Unicode, JSON
    /// nested too deep): nothing is known of it, so every condition that reads it takes the
    /// value that makes its rule fail closed, and every label a matching rule attaches to it
    /// holds every string from then on (docs/trace.md)
    pub fn unreadable() -> ToolOutput {
        ToolOutput {
            text: String::new(),
            json: None,
            given_as_text: true,
            unreadable: true,
        }
    }

    /// Whether this is output that could not be read ([`ToolOutput::unreadable`])
    pub fn is_unreadable(&self) -> bool {
        self.unreadable
    }

    /// The output as text
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The output as JSON, when it is structured
    pub fn json(&self) -> Option<&Json> {
        self.json.as_ref()
    }
}

impl Serialize for ToolOutput {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match (&self.json, self.given_as_text) {
            (Some(json), false) => json.serialize(serializer),
            _ => serializer.serialize_str(&self.text),
        }
    }
}

impl<'de> Deserialize<'de> for ToolOutput {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Json::deserialize(deserializer).map(ToolOutput::from_json)
    }
}
