//! The fields a condition can read and the paths into JSON they may carry.
//!
//! Their spellings, types, values and visibility are the schema's (`schema.rs`).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A field of an event that a condition can read
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Field {
    /// Number of the current step
    Step,
    /// Steps completed so far
    Steps,
    /// Total tokens used
    Tokens,
    /// Input tokens used
    InputTokens,
    /// Output tokens used
    OutputTokens,
    /// Time since `execution_start`
    Elapsed,
    /// Consecutive failures
    Failures,
    /// Total errors
    Errors,
    /// Retries of the current step
    Retries,
    /// Number of messages sent to the model
    Messages,
    /// The model's text response
    Response,
    /// Why the model stopped generating
    FinishReason,
    /// Number of tool calls the model made
    ToolCalls,
    /// The tool's name
    Tool,
    /// The tool's output as text: the string it returned, or the JSON text of structured
    /// output
    Result,
    /// `result.<path>`: a part of the tool's output, when that output is JSON
    ResultPath(FieldPath),
    /// Whether the tool call failed
    ToolError,
    /// Whether the tool call was blocked
    Blocked,
    /// `error.kind`
    ErrorKind,
    /// `error.message`
    ErrorMessage,
    /// Why the loop stops
    StopReason,
    /// The pending stop's decision
    StopDecision,
    /// How many stops were already prevented
    StopRequests,
    /// The finished run's status
    Status,
    /// `arg.<path>`: the tool's JSON input
    Arg(FieldPath),
    /// `metadata.<path>`: the execution's metadata
    Metadata(FieldPath),
    /// The working folder of the agent, as the host reports it
    Cwd,
    /// The host's permission mode (`default`, `acceptEdits`, `plan`, ...)
    PermissionMode,
    /// The host's session id
    SessionId,
    /// The user's prompt that starts a turn
    Prompt,
}

/// The static type of a field; `Dynamic` fields are typed at run time
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// A whole number
    Int,
    /// A span of time
    Duration,
    /// Text
    Str,
    /// `true` or `false`
    Bool,
    /// JSON of any type (`arg.*`, `metadata.*`, `result.*`)
    Dynamic,
}

impl FieldType {
    /// The type's name in user-facing text
    pub fn name(self) -> &'static str {
        match self {
            FieldType::Int => "integer",
            FieldType::Duration => "duration",
            FieldType::Str => "string",
            FieldType::Bool => "bool",
            FieldType::Dynamic => "any",
        }
    }
}

/// A path into JSON: `.command`, `.paths[0]`, `.a.b`
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FieldPath {
    /// The steps from the root, outermost first
    pub segments: Vec<PathSegment>,
}

/// One step of a [`FieldPath`]: in JSON a string (a key) or a number (an index), in a binary
/// format a tagged variant, since such a format cannot tell the two apart by their shape
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathSegment {
    /// An object key
    Key(String),
    /// An array index
    Index(u64),
}

/// [`PathSegment`] as JSON writes it
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum ByShape<K> {
    Key(K),
    Index(u64),
}

/// [`PathSegment`] as a binary format writes it
#[derive(Serialize, Deserialize)]
enum Tagged<K> {
    Key(K),
    Index(u64),
}

impl Serialize for PathSegment {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match (self, serializer.is_human_readable()) {
            (PathSegment::Key(key), true) => ByShape::Key(key).serialize(serializer),
            (PathSegment::Index(index), true) => {
                ByShape::<&str>::Index(*index).serialize(serializer)
            }
            (PathSegment::Key(key), false) => Tagged::Key(key).serialize(serializer),
            (PathSegment::Index(index), false) => {
                Tagged::<&str>::Index(*index).serialize(serializer)
            }
        }
    }
}

impl<'de> Deserialize<'de> for PathSegment {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(if deserializer.is_human_readable() {
            match ByShape::deserialize(deserializer)? {
                ByShape::Key(key) => PathSegment::Key(key),
                ByShape::Index(index) => PathSegment::Index(index),
            }
        } else {
            match Tagged::deserialize(deserializer)? {
                Tagged::Key(key) => PathSegment::Key(key),
                Tagged::Index(index) => PathSegment::Index(index),
            }
        })
    }
}

impl FieldPath {
    /// The JSON value this path points at in `root`, if there is one
    pub fn lookup<'json>(
        &self,
        root: &'json serde_json::Value,
    ) -> Option<&'json serde_json::Value> {
        FieldPath::lookup_in(root, &self.segments)
    }

    /// The JSON value `segments` lead to from `root`, if any
    pub(crate) fn lookup_in<'json>(
        root: &'json serde_json::Value,
        segments: &[PathSegment],
    ) -> Option<&'json serde_json::Value> {
        segments
            .iter()
            .try_fold(root, |value, segment| match segment {
                PathSegment::Key(key) => value.get(key.as_str()),
                PathSegment::Index(index) => usize::try_from(*index)
                    .ok()
                    .and_then(|index| value.get(index)),
            })
    }
}

/// Whether `key` can be written dotted in a `.rules` path: a lowercase word, the rule of
/// `rulesc_grammar::print::is_word`, which the runtime does not import
fn is_plain_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_lowercase() || first == '_')
        && chars.all(|char| char.is_ascii_lowercase() || char.is_ascii_digit() || char == '_')
}

/// `key` as the text of a `.rules` string: quotes, backslashes and control characters escaped
fn quoted(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    for char in key.chars() {
        match char {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            char if char.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(char))),
            char => out.push(char),
        }
    }
    out
}

impl fmt::Display for FieldPath {
    /// Written as in source, each segment with its leading `.` or `[..]`: `.command`,
    /// `[0]`, `["pullNumber"]`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for segment in &self.segments {
            match segment {
                PathSegment::Key(key) if is_plain_key(key) => write!(f, ".{key}")?,
                PathSegment::Key(key) => write!(f, "[\"{}\"]", quoted(key))?,
                PathSegment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path as docs/field-paths.md says compiled JSON holds it: keys as strings, indexes as
    /// numbers; and the same path through a binary format, where a step is tagged
    #[test]
    fn path_steps_read_back_from_json_and_from_a_binary_format() {
        let path = FieldPath {
            segments: vec![
                PathSegment::Key("files".to_owned()),
                PathSegment::Index(0),
                PathSegment::Key("7".to_owned()),
            ],
        };
        let json = serde_json::to_string(&path).unwrap();
        assert_eq!(json, r#"["files",0,"7"]"#);
        assert_eq!(serde_json::from_str::<FieldPath>(&json).unwrap(), path);
        assert!(serde_json::from_str::<FieldPath>("[true]").is_err());
        assert!(serde_json::from_str::<FieldPath>("[-1]").is_err());
        let bytes = postcard::to_allocvec(&path).unwrap();
        assert_eq!(postcard::from_bytes::<FieldPath>(&bytes).unwrap(), path);
    }

    /// Paths are written as a `.rules` file writes them: word keys dotted, any other key
    /// quoted with the language's escapes
    #[test]
    fn paths_display_as_rules_source() {
        let path = FieldPath {
            segments: vec![
                PathSegment::Key("files".to_owned()),
                PathSegment::Index(0),
                PathSegment::Key("filePath".to_owned()),
                PathSegment::Key("x.y".to_owned()),
                PathSegment::Key("say \"hi\"\\\n\u{7}".to_owned()),
            ],
        };
        assert_eq!(
            path.to_string(),
            r#".files[0]["filePath"]["x.y"]["say \"hi\"\\\n\u{7}"]"#
        );
    }
}
