//! Compiled string matchers: globs for `~` and regular expressions for `=~`.
//!
//! Invariant: a pattern is compiled once, by the compiler or when a compiled policy is
//! loaded, and serialized as its source text, so a loaded policy matches exactly as the
//! source policy did.

use std::fmt;
use std::sync::OnceLock;

use globset::{Glob, GlobBuilder, GlobMatcher};
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
///
/// Globs that plain string tests decide (a literal, `prefix*`, `*suffix`) are matched with
/// those tests, and no regular expression is built for them: most policies' globs are of
/// that kind, and compiling ten thousand of them would cost more than everything else.
#[derive(Debug, Clone)]
pub struct GlobPattern {
    source: String,
    glob: Glob,
    matcher: Matcher,
}

/// How a glob is matched
#[derive(Debug, Clone)]
enum Matcher {
    /// By a plain string test
    Plain(GlobShape),
    /// By globset's compiled regular expression
    Compiled(GlobMatcher),
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
        let matcher = match glob_shape(source) {
            GlobShape::Other => Matcher::Compiled(glob.compile_matcher()),
            plain => Matcher::Plain(plain),
        };
        Ok(GlobPattern {
            source: source.to_owned(),
            glob,
            matcher,
        })
    }

    /// The pattern as written
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the whole of `text` matches
    pub fn is_match(&self, text: &str) -> bool {
        match &self.matcher {
            Matcher::Plain(GlobShape::Literal(literal)) => text == literal,
            Matcher::Plain(GlobShape::Prefix(prefix)) => text.starts_with(prefix.as_str()),
            Matcher::Plain(GlobShape::Suffix(suffix)) => text.ends_with(suffix.as_str()),
            Matcher::Compiled(matcher) => matcher.is_match(text),
            // Invariant: `new` compiles every glob of another shape.
            Matcher::Plain(GlobShape::Other) => false,
        }
    }

    /// The parsed glob, for matching many patterns at once in a `globset::GlobSet`
    pub(crate) fn glob(&self) -> &Glob {
        &self.glob
    }

    /// The pattern's shape: whether plain string tests decide it (the rule index uses them
    /// instead of running the glob)
    pub(crate) fn shape(&self) -> GlobShape {
        match &self.matcher {
            Matcher::Plain(shape) => shape.clone(),
            Matcher::Compiled(_) => GlobShape::Other,
        }
    }
}

/// What a glob asks of a string, when plain string tests decide it
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GlobShape {
    /// No wildcard: the whole string is this text
    Literal(String),
    /// `text*`: the string starts with this text (`*` alone: any string)
    Prefix(String),
    /// `*text`: the string ends with this text
    Suffix(String),
    /// Anything else (`?`, classes, stars inside): only the glob decides
    Other,
}

/// The shape of a glob written in the language's syntax (see [`to_globset_syntax`]):
/// escapes are resolved and runs of `*` count as one
fn glob_shape(source: &str) -> GlobShape {
    let mut head = String::new();
    let mut tail = String::new();
    let mut stars = 0_usize;
    let mut last_was_star = false;
    let mut chars = source.chars();
    while let Some(ch) = chars.next() {
        let literal = match ch {
            '\\' => match chars.next() {
                Some(escaped) => escaped,
                None => return GlobShape::Other,
            },
            '*' => {
                if !last_was_star {
                    stars += 1;
                }
                last_was_star = true;
                continue;
            }
            '?' | '[' => return GlobShape::Other,
            other => other,
        };
        last_was_star = false;
        if stars == 0 {
            head.push(literal);
        } else {
            tail.push(literal);
        }
    }
    match (stars, head.is_empty(), tail.is_empty()) {
        (0, _, _) => GlobShape::Literal(head),
        (1, _, true) => GlobShape::Prefix(head),
        (1, true, false) => GlobShape::Suffix(tail),
        _ => GlobShape::Other,
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
///
/// Compiling a regular expression is the costliest part of loading a policy (most of a
/// hook call's time before this was deferred), and most events test few of a policy's
/// patterns. So a pattern read from compiled JSON is compiled on its first use; `Policy::new`
/// compiles, and so checks, every pattern of a policy it is given ([`RegexPattern::check`]),
/// and only the compiled-policy cache, which stores policies `Policy::new` checked,
/// defers them.
#[derive(Debug, Clone)]
pub struct RegexPattern {
    source: Box<str>,
    compiled: OnceLock<Result<Regex, PatternError>>,
}

impl RegexPattern {
    /// Compiles `source`, or says why it is not a valid regular expression
    pub fn new(source: &str) -> Result<RegexPattern, PatternError> {
        let pattern = RegexPattern::deferred(source)?;
        pattern.check()?;
        Ok(pattern)
    }

    /// `source`, to be compiled on first use; only its length is checked now
    pub(crate) fn deferred(source: &str) -> Result<RegexPattern, PatternError> {
        check_length(source)?;
        Ok(RegexPattern {
            source: source.into(),
            compiled: OnceLock::new(),
        })
    }

    /// Compiles the pattern if that was deferred, or says why it is not valid
    pub fn check(&self) -> Result<(), PatternError> {
        self.compiled().map(|_| ())
    }

    fn compiled(&self) -> Result<&Regex, PatternError> {
        self.compiled
            .get_or_init(|| {
                RegexBuilder::new(&self.source)
                    .size_limit(REGEX_SIZE_LIMIT)
                    .build()
                    .map_err(|err| PatternError {
                        message: regex_message(&err),
                    })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The pattern as written
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether `text` contains a match; a pattern that does not compile matches nothing
    /// (never the case in a policy, whose patterns `Policy::new` checked)
    pub fn is_match(&self, text: &str) -> bool {
        self.compiled().is_ok_and(|regex| regex.is_match(text))
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
    /// A pattern read is compiled when the policy it belongs to is checked, or when it is
    /// first used (see [`RegexPattern`])
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let source = String::deserialize(deserializer)?;
        RegexPattern::deferred(&source).map_err(serde::de::Error::custom)
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

    fn shape(pattern: &str) -> GlobShape {
        GlobPattern::new(pattern).unwrap().shape()
    }

    #[test]
    fn shapes_of_plain_globs() {
        assert_eq!(shape("bash"), GlobShape::Literal("bash".into()));
        assert_eq!(shape(r"a\*b"), GlobShape::Literal("a*b".into()));
        assert_eq!(shape("{a,b}"), GlobShape::Literal("{a,b}".into()));
        assert_eq!(shape("mcp__*"), GlobShape::Prefix("mcp__".into()));
        assert_eq!(shape("rm**"), GlobShape::Prefix("rm".into()));
        assert_eq!(shape("*"), GlobShape::Prefix(String::new()));
        assert_eq!(shape("*.env"), GlobShape::Suffix(".env".into()));
        assert_eq!(shape(r"*\?"), GlobShape::Suffix("?".into()));
        assert_eq!(shape("a*b"), GlobShape::Other);
        assert_eq!(shape("*a*"), GlobShape::Other);
        assert_eq!(shape("a?"), GlobShape::Other);
        assert_eq!(shape("[ab]*"), GlobShape::Other);
    }

    /// globset's own matcher for `pattern`, as `GlobPattern` built it before plain shapes
    /// were matched without it
    fn globset_match(pattern: &str, text: &str) -> bool {
        GlobPattern::new(pattern)
            .unwrap()
            .glob()
            .compile_matcher()
            .is_match(text)
    }

    #[test]
    fn plain_shapes_agree_with_globset_on_edges() {
        // A star matches any run: newlines and multi-byte characters included.
        let texts = [
            "", "rm", "rm -rf /", "rm\nx", "xrm", "é.env", ".env", "a\n.env", "*x",
        ];
        for pattern in ["rm*", "*.env", "*", "**", "rm", "", r"\*x", "é*", "*\n"] {
            for text in texts {
                assert_eq!(
                    GlobPattern::new(pattern).unwrap().is_match(text),
                    globset_match(pattern, text),
                    "{pattern:?} on {text:?}"
                );
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn every_glob_matches_as_globset_does(
            pattern in "[ab*?\\\\é\n/.{,}\\[\\]!]{0,6}",
            text in "[ab*?\\\\é\n/.{,}]{0,6}",
        ) {
            if let Ok(compiled) = GlobPattern::new(&pattern) {
                proptest::prop_assert_eq!(
                    compiled.is_match(&text),
                    globset_match(&pattern, &text),
                    "{:?} on {:?}", pattern, text
                );
            }
        }
    }

    #[test]
    fn invalid_patterns_say_why() {
        assert!(GlobPattern::new("[a").is_err());
        let err = RegexPattern::new("(a").unwrap_err();
        assert!(!err.message.contains('\n'), "{}", err.message);
        assert!(RegexPattern::new(&"a".repeat(MAX_PATTERN_LEN + 1)).is_err());
    }
}
