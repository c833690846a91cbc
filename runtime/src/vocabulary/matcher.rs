//! Compiled string matchers: globs for `~` and regular expressions for `=~`.
//!
//! Invariant: a pattern is compiled once, by the compiler or when a compiled policy is
//! loaded (on its first use, for JSON this runtime wrote of a checked policy: see
//! [`RegexPattern`]), and serialized as its source text, so a loaded policy matches exactly
//! as the source policy did.
//!
//! A glob matches characters, not bytes (docs/language.md §4.4: `?` is one character): it is
//! translated into a whole-string regular expression of the `regex` crate with Unicode on
//! ([`GlobPattern::regex_source`]), the same one the rule index matches many globs with.
//! (globset, which this once used, matches bytes: `r?ad` did not match `réad`.)

use std::fmt;
use std::sync::OnceLock;

use regex::{Regex, RegexBuilder};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Longest pattern text accepted, in bytes
pub const MAX_PATTERN_LEN: usize = 4096;

/// Largest compiled regular expression, in bytes (the regex crate's size limit)
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Largest compiled glob, in bytes: a glob's translation matches characters, and a glob of
/// [`MAX_PATTERN_LEN`] bytes that is all `*a*a...` takes about 2 MiB, so every glob the
/// length bound admits compiles (`tests/hostile.rs` holds it)
const GLOB_SIZE_LIMIT: usize = 8 << 20;

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

/// A whole-string glob (docs/language.md §4.4): `*` any run, `?` one character, classes, `\*`
///
/// Globs that plain string tests decide (a literal, `prefix*`, `*suffix`) are matched with
/// those tests, and no regular expression is built for them: most policies' globs are of
/// that kind, and compiling ten thousand of them would cost more than everything else.
#[derive(Debug, Clone)]
pub struct GlobPattern {
    source: String,
    /// The translation into a regular expression (see [`GlobPattern::regex_source`])
    regex_source: String,
    matcher: Matcher,
}

/// How a glob is matched
#[derive(Debug, Clone)]
enum Matcher {
    /// By a plain string test
    Plain(GlobShape),
    /// By its regular expression, compiled once (see [`GlobPattern::deferred`])
    Compiled(OnceLock<Result<Regex, PatternError>>),
}

impl GlobPattern {
    /// Compiles `source`, or says why it is not a valid glob
    pub fn new(source: &str) -> Result<GlobPattern, PatternError> {
        let pattern = GlobPattern::deferred(source)?;
        pattern.check()?;
        Ok(pattern)
    }

    /// `source` translated, its regular expression (if it needs one) to be compiled on first
    /// use, as [`RegexPattern`]s are when read from compiled JSON
    pub(crate) fn deferred(source: &str) -> Result<GlobPattern, PatternError> {
        check_length(source)?;
        let regex_source = glob_regex(source)?;
        let matcher = match glob_shape(source) {
            GlobShape::Other => Matcher::Compiled(OnceLock::new()),
            plain => Matcher::Plain(plain),
        };
        Ok(GlobPattern {
            source: source.to_owned(),
            regex_source,
            matcher,
        })
    }

    /// Compiles the glob's regular expression if that was deferred, or says why it does
    /// not compile
    pub fn check(&self) -> Result<(), PatternError> {
        match &self.matcher {
            Matcher::Plain(_) => Ok(()),
            Matcher::Compiled(compiled) => compiled
                .get_or_init(|| build_regex(&self.regex_source))
                .as_ref()
                .map(|_| ())
                .map_err(Clone::clone),
        }
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
            Matcher::Plain(GlobShape::Contains(needle)) => text.contains(needle.as_str()),
            Matcher::Compiled(compiled) => compiled
                .get_or_init(|| build_regex(&self.regex_source))
                .as_ref()
                .is_ok_and(|regex| regex.is_match(text)),
            // Invariant: `new` compiles every glob of another shape.
            Matcher::Plain(GlobShape::Other) => false,
        }
    }

    /// The glob as a whole-string regular expression over characters, for matching many
    /// globs at once (`regex::RegexSet`)
    pub(crate) fn regex_source(&self) -> &str {
        &self.regex_source
    }

    /// The pattern's shape: whether plain string tests decide it (the rule index uses them
    /// instead of running the glob)
    pub(crate) fn shape(&self) -> &GlobShape {
        match &self.matcher {
            Matcher::Plain(shape) => shape,
            Matcher::Compiled(_) => &GlobShape::Other,
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
    /// `*text*`: the string contains this text (never empty)
    Contains(String),
    /// Anything else (`?`, classes, stars inside): only the glob decides
    Other,
}

/// The shape of a glob written in the language's syntax (see [`glob_regex`]):
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
        // `*text*`: a run of stars first and one last, only text between them
        (2, true, false) if last_was_star => GlobShape::Contains(tail),
        _ => GlobShape::Other,
    }
}

/// The whole-string regular expression of a glob: `*` (a run of them too) is `.*`, `?` is
/// `.`, a class `[...]` (`[!...]` negated, `a-z` ranges, `]` first is a member) is a class
/// of the same characters, `\x` is `x`, and every other character stands for itself; `.`
/// matches any character, newlines included
fn glob_regex(source: &str) -> Result<String, PatternError> {
    let mut regex = String::with_capacity(source.len() * 2 + 8);
    regex.push_str("^(?s:");
    let mut chars = source.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => match chars.next() {
                Some(escaped) => push_literal(&mut regex, escaped),
                None => return Err(pattern_error("dangling `\\` at the end of the pattern")),
            },
            '*' => {
                while chars.peek() == Some(&'*') {
                    chars.next();
                }
                regex.push_str(".*");
            }
            '?' => regex.push('.'),
            '[' => push_class(&mut chars, &mut regex)?,
            other => push_literal(&mut regex, other),
        }
    }
    regex.push_str(")$");
    Ok(regex)
}

/// A character class, its `[` read, as a regular expression class of the same characters
fn push_class(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    regex: &mut String,
) -> Result<(), PatternError> {
    let unclosed = || pattern_error("unclosed character class; missing ']'");
    regex.push('[');
    if chars.peek() == Some(&'!') {
        chars.next();
        regex.push('^');
    }
    let mut first = true;
    loop {
        let ch = chars.next().ok_or_else(unclosed)?;
        if ch == ']' && !first {
            regex.push(']');
            return Ok(());
        }
        first = false;
        let low = if ch == '\\' {
            chars.next().ok_or_else(unclosed)?
        } else {
            ch
        };
        let mut ahead = chars.clone();
        if ahead.next() == Some('-') && ahead.peek().is_some_and(|high| *high != ']') {
            chars.next();
            let mut high = chars.next().ok_or_else(unclosed)?;
            if high == '\\' {
                high = chars.next().ok_or_else(unclosed)?;
            }
            if low > high {
                return Err(pattern_error(&format!("invalid range; '{low}' > '{high}'")));
            }
            push_class_char(regex, low);
            regex.push('-');
            push_class_char(regex, high);
        } else {
            push_class_char(regex, low);
        }
    }
}

/// `ch` as itself in a regular expression
fn push_literal(regex: &mut String, ch: char) {
    let mut buffer = [0; 4];
    regex.push_str(&regex::escape(ch.encode_utf8(&mut buffer)));
}

/// `ch` as itself inside a regular expression class, where even `-`, `^`, `&` and `~` may
/// mean something: written as its code point
fn push_class_char(regex: &mut String, ch: char) {
    regex.push_str(&format!("\\x{{{:x}}}", u32::from(ch)));
}

fn pattern_error(message: &str) -> PatternError {
    PatternError {
        message: message.to_owned(),
    }
}

/// Compiles a glob's regular expression within the size limit of globs
fn build_regex(source: &str) -> Result<Regex, PatternError> {
    RegexBuilder::new(source)
        .size_limit(GLOB_SIZE_LIMIT)
        .build()
        .map_err(|err| PatternError {
            message: regex_message(&err),
        })
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

    /// The text every match starts with, when the pattern is anchored at the start (`^`)
    /// and begins with literal characters: `/dev/` of `^/dev/(sd|hd)`; `None` otherwise
    pub fn anchored_prefix(&self) -> Option<String> {
        let rest = self.source.strip_prefix('^')?;
        let mut literal = String::new();
        let mut chars = rest.chars().peekable();
        while let Some(ch) = chars.next() {
            if ".[]()*+?{}|\\^$".contains(ch) {
                break;
            }
            // A quantifier after a character makes that character optional.
            if chars.peek().is_some_and(|next| "*?{".contains(*next)) {
                break;
            }
            literal.push(ch);
        }
        (!literal.is_empty()).then_some(literal)
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
        GlobPattern::deferred(&source).map_err(serde::de::Error::custom)
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
        GlobPattern::new(pattern).unwrap().shape().clone()
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
        assert_eq!(shape("*TODO*"), GlobShape::Contains("TODO".into()));
        assert_eq!(shape(r"**\***"), GlobShape::Contains("*".into()));
        assert_eq!(shape("*a*b"), GlobShape::Other);
        assert_eq!(shape("a*b*"), GlobShape::Other);
        assert_eq!(shape("a*b"), GlobShape::Other);
        assert_eq!(shape("*a*"), GlobShape::Contains("a".into()));
        assert_eq!(shape("a?"), GlobShape::Other);
        assert_eq!(shape("[ab]*"), GlobShape::Other);
    }

    /// docs/language.md §4.4 read naively, character by character with backtracking: the oracle
    /// the compiled globs are held to
    fn naive_match(pattern: &[char], text: &[char]) -> bool {
        match pattern.split_first() {
            None => text.is_empty(),
            Some(('*', rest)) => (0..=text.len()).any(|skip| naive_match(rest, &text[skip..])),
            Some(('?', rest)) => !text.is_empty() && naive_match(rest, &text[1..]),
            Some(('\\', rest)) => match (rest.split_first(), text.split_first()) {
                (Some((escaped, rest)), Some((ch, text))) => {
                    escaped == ch && naive_match(rest, text)
                }
                _ => false,
            },
            Some(('[', rest)) => {
                let (negated, rest) = match rest.split_first() {
                    Some(('!', rest)) => (true, rest),
                    _ => (false, rest),
                };
                // Members up to the first `]` that is not the class's first character.
                let mut members: Vec<(char, char)> = Vec::new();
                let mut at = 0;
                loop {
                    let Some(&ch) = rest.get(at) else {
                        return false;
                    };
                    if ch == ']' && at > 0 {
                        break;
                    }
                    let (low, next) = if ch == '\\' {
                        (rest[at + 1], at + 2)
                    } else {
                        (ch, at + 1)
                    };
                    if rest.get(next) == Some(&'-') && rest.get(next + 1).is_some_and(|c| *c != ']')
                    {
                        let (high, after) = if rest[next + 1] == '\\' {
                            (rest[next + 2], next + 3)
                        } else {
                            (rest[next + 1], next + 2)
                        };
                        members.push((low, high));
                        at = after;
                    } else {
                        members.push((low, low));
                        at = next;
                    }
                }
                let Some((ch, text)) = text.split_first() else {
                    return false;
                };
                let member = members.iter().any(|(low, high)| low <= ch && ch <= high);
                member != negated && naive_match(&rest[at + 1..], text)
            }
            Some((literal, rest)) => text.first() == Some(literal) && naive_match(rest, &text[1..]),
        }
    }

    fn oracle(pattern: &str, text: &str) -> bool {
        let pattern: Vec<char> = pattern.chars().collect();
        let text: Vec<char> = text.chars().collect();
        naive_match(&pattern, &text)
    }

    #[test]
    fn question_marks_and_classes_match_characters_not_bytes() {
        assert!(glob("r?ad", "réad"));
        assert!(glob("[é日]", "日"));
        assert!(glob("[!a]", "😀"));
        assert!(!glob("r?ad", "rad"));
        assert!(glob("??", "日本"));
        assert!(!glob("?", "日本"));
    }

    #[test]
    fn plain_shapes_agree_with_the_oracle_on_edges() {
        // A star matches any run: newlines and multi-byte characters included.
        let texts = [
            "", "rm", "rm -rf /", "rm\nx", "xrm", "é.env", ".env", "a\n.env", "*x",
        ];
        for pattern in ["rm*", "*.env", "*", "**", "rm", "", r"\*x", "é*", "*\n"] {
            for text in texts {
                assert_eq!(
                    GlobPattern::new(pattern).unwrap().is_match(text),
                    oracle(pattern, text),
                    "{pattern:?} on {text:?}"
                );
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn every_glob_matches_as_the_spec_reads(
            pattern in "[ab*?\\\\é日😀\n/.{,}\\[\\]!-]{0,7}",
            text in "[ab*?\\\\é日😀\n/.{,}\\[\\]-]{0,7}",
        ) {
            if let Ok(compiled) = GlobPattern::new(&pattern) {
                proptest::prop_assert_eq!(
                    compiled.is_match(&text),
                    oracle(&pattern, &text),
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
