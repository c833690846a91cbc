//! A tool call in one short line, so a finding says what the agent tried and not only which
//! rule answered: the tool's key argument (its command, file path or URL), else its
//! arguments as compact JSON.
//!
//! Invariant: a summary is one line of at most [`MAX_CHARS`] characters: control characters
//! are escaped (`\n`, `\t`, `\u{1b}`) before it is cut, and a cut one ends with `…`.

use serde_json::Value as Json;

/// How many characters a summary keeps, the ellipsis included
pub(crate) const MAX_CHARS: usize = 80;

/// The keys that name what a call acts on, first found first: the files a Codex patch
/// touches (`files`, which the hook adds beside the raw patch in `command`), shell commands
/// (Claude Code and Gemini CLI `command`, Codex `exec_command`'s `cmd`), files (Claude Code
/// `file_path` and `notebook_path`, Gemini CLI `absolute_path`, `path`), then web addresses
const KEY_ARGUMENTS: [&str; 8] = [
    "files",
    "command",
    "cmd",
    "file_path",
    "notebook_path",
    "absolute_path",
    "path",
    "url",
];

/// The call's summary; `None` for a call without arguments
pub(crate) fn summary(arg: Option<&Json>) -> Option<String> {
    let arg = arg?;
    let text = match arg {
        Json::Null => return None,
        Json::Object(map) if map.is_empty() => return None,
        Json::Object(map) => KEY_ARGUMENTS
            .iter()
            .find_map(|key| map.get(*key).and_then(key_text))
            .unwrap_or_else(|| arg.to_string()),
        other => other.to_string(),
    };
    Some(shorten(&escape(&text)))
}

/// A key argument as text: a string, or a command given as a list of words
fn key_text(value: &Json) -> Option<String> {
    match value {
        Json::String(text) => Some(text.clone()),
        Json::Array(words) if !words.is_empty() => words
            .iter()
            .map(|word| word.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .map(|words| words.join(" ")),
        _ => None,
    }
}

/// `text` on one line: control characters written as escapes
fn escape(text: &str) -> String {
    let mut line = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\n' => line.push_str("\\n"),
            '\r' => line.push_str("\\r"),
            '\t' => line.push_str("\\t"),
            ch if ch.is_control() => line.push_str(&ch.escape_unicode().to_string()),
            ch => line.push(ch),
        }
    }
    line
}

/// `text` cut to [`MAX_CHARS`] characters, ending with `…` when cut
fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_CHARS {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(MAX_CHARS - 1).collect();
    short.push('…');
    short
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_key_argument_is_shown_first_found_first() {
        let call = json!({"description": "d", "command": "git push --force"});
        assert_eq!(summary(Some(&call)).unwrap(), "git push --force");
        let read = json!({"file_path": "/etc/passwd", "limit": 3});
        assert_eq!(summary(Some(&read)).unwrap(), "/etc/passwd");
        let fetch = json!({"url": "https://example.com", "prompt": "p"});
        assert_eq!(summary(Some(&fetch)).unwrap(), "https://example.com");
        let words = json!({"command": ["bash", "-lc", "ls"]});
        assert_eq!(summary(Some(&words)).unwrap(), "bash -lc ls");
        let patch = json!({"command": "*** Begin Patch", "files": ["a.rs", "b.rs"]});
        assert_eq!(summary(Some(&patch)).unwrap(), "a.rs b.rs");
    }

    #[test]
    fn other_arguments_are_compact_json() {
        let call = json!({"query": "rust"});
        assert_eq!(summary(Some(&call)).unwrap(), r#"{"query":"rust"}"#);
        assert_eq!(summary(Some(&json!({}))), None);
        assert_eq!(summary(None), None);
    }

    #[test]
    fn a_summary_is_one_line_of_at_most_80_characters() {
        let long = format!("echo {}\nrm -rf /\u{1b}", "é".repeat(200));
        let shown = summary(Some(&json!({ "command": long }))).unwrap();
        assert_eq!(shown.chars().count(), MAX_CHARS);
        assert!(shown.ends_with('…'));
        assert!(!shown.contains('\n'));
        let short = summary(Some(&json!({"command": "a\nb\u{1b}"}))).unwrap();
        assert_eq!(short, "a\\nb\\u{1b}");
    }
}
