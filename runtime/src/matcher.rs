//! Compiled string matchers: globs for `~` and regular expressions for `=~`.
//!
//! Invariant: a pattern is compiled once, by the compiler or when a compiled policy is
//! loaded, and serialized as its source text, so a loaded policy matches exactly as the
//! source policy did.

use std::fmt;

use globset::{GlobBuilder, GlobMatcher};
use regex::{Regex, RegexBuilder};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Longest pattern text accepted, in bytes
pub const MAX_PATTERN_LEN: usize = 4096;

/// Largest compiled regular expression, in bytes (the regex crate's size limit)
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Why a pattern could not be compiled
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    /// What is wrong, in one lowercase line
    pub message: String,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PatternError {}

/// A whole-string glob (LANGUAGE.md §4.4): `*` any run, `?` one character, classes, `\*`
#[derive(Debug, Clone)]
pub struct GlobPattern {
    source: String,
    matcher: GlobMatcher,
}

impl GlobPattern {
    /// Compiles `source`, or says why it is not a valid glob
    pub fn new(source: &str) -> Result<GlobPattern, PatternError> {
        check_length(source)?;
        let glob = GlobBuilder::new(&to_globset_syntax(source))
            .literal_separator(false)
            .backslash_escape(true)
            .case_insensitive(false)
            .build()
            .map_err(|err| PatternError {
                message: lowercase_first(&err.kind().to_string()),
            })?;
        Ok(GlobPattern {
            source: source.to_owned(),
            matcher: glob.compile_matcher(),
        })
    }

    /// The pattern as written
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the whole of `text` matches
    pub fn is_match(&self, text: &str) -> bool {
        self.matcher.is_match(text)
    }
}

/// Rewrites a spec glob for globset: runs of `*` become one `*` (globset gives `**` a
/// path meaning the language does not have) and braces are literal (globset reads them
/// as alternation).
fn to_globset_syntax(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 4);
    let mut chars = source.chars().peekable();
    let mut in_class = false;
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => {
                out.push('\\');
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                // A `]` right after `[` or `[!` is a member, not the end of the class.
                if chars.peek() == Some(&'!') {
                    out.push('!');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push(']');
                    chars.next();
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '*' if !in_class => {
                out.push('*');
                while chars.peek() == Some(&'*') {
                    chars.next();
                }
            }
            '{' | '}' | ',' if !in_class => {
                out.push('\\');
                out.push(ch);
            }
            other => out.push(other),
        }
    }
    out
}

/// A regular expression for `=~` (Rust `regex` syntax, unanchored)
#[derive(Debug, Clone)]
pub struct RegexPattern {
    regex: Regex,
}

impl RegexPattern {
    /// Compiles `source`, or says why it is not a valid regular expression
    pub fn new(source: &str) -> Result<RegexPattern, PatternError> {
        check_length(source)?;
        let regex = RegexBuilder::new(source)
            .size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map_err(|err| PatternError {
                message: regex_message(&err),
            })?;
        Ok(RegexPattern { regex })
    }

    /// The pattern as written
    pub fn as_str(&self) -> &str {
        self.regex.as_str()
    }

    /// Whether `text` contains a match
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }
}

fn regex_message(err: &regex::Error) -> String {
    match err {
        regex::Error::CompiledTooBig(limit) => {
            format!("regular expression is too large once compiled (limit {limit} bytes)")
        }
        // The syntax error's own text spans several lines with a caret diagram; keep its
        // last line, which says what is wrong.
        other => other
            .to_string()
            .lines()
            .rev()
            .find(|line| line.starts_with("error:"))
            .map(|line| line.trim_start_matches("error:").trim().to_owned())
            .unwrap_or_else(|| "invalid regular expression".to_owned()),
    }
}

fn check_length(source: &str) -> Result<(), PatternError> {
    if source.len() > MAX_PATTERN_LEN {
        return Err(PatternError {
            message: format!("pattern is longer than {MAX_PATTERN_LEN} bytes"),
        });
    }
    Ok(())
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

impl PartialEq for GlobPattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for GlobPattern {}

impl PartialEq for RegexPattern {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for RegexPattern {}

impl Serialize for GlobPattern {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.source)
    }
}

impl<'de> Deserialize<'de> for GlobPattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let source = String::deserialize(deserializer)?;
        GlobPattern::new(&source).map_err(serde::de::Error::custom)
    }
}

impl Serialize for RegexPattern {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for RegexPattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let source = String::deserialize(deserializer)?;
        RegexPattern::new(&source).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(pattern: &str, text: &str) -> bool {
        GlobPattern::new(pattern).unwrap().is_match(text)
    }

    #[test]
    fn star_matches_any_run_including_slashes() {
        assert!(glob("rm*", "rm -rf /"));
        assert!(glob("a**b", "a/x/b"));
        assert!(glob("**/x", "a/b/x"));
        assert!(!glob("**/x", "x"));
        assert!(!glob("rm*", "xrm"));
    }

    #[test]
    fn classes_escapes_and_braces() {
        assert!(glob("[!a]b", "cb"));
        assert!(!glob("[!a]b", "ab"));
        assert!(glob("[a-c]?", "bz"));
        assert!(glob(r"\*x", "*x"));
        assert!(!glob(r"\*x", "yx"));
        assert!(glob("{a,b}", "{a,b}"));
        assert!(!glob("{a,b}", "a"));
    }

    #[test]
    fn glob_is_case_sensitive_and_whole_string() {
        assert!(!glob("RM*", "rm -rf"));
        assert!(!glob("rm", "rm -rf"));
    }

    #[test]
    fn invalid_patterns_say_why() {
        assert!(GlobPattern::new("[a").is_err());
        let err = RegexPattern::new("(a").unwrap_err();
        assert!(!err.message.contains('\n'), "{}", err.message);
        assert!(RegexPattern::new(&"a".repeat(MAX_PATTERN_LEN + 1)).is_err());
    }
}
