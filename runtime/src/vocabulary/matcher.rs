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

use std::borrow::Cow;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::known_start;
use super::lazy_regex::{needles_of, LazyRegex, PatternError};
use super::needles::Needles;

/// Longest pattern text accepted, in bytes
pub const MAX_PATTERN_LEN: usize = 4096;

/// Largest compiled regular expression, in bytes (the regex crate's size limit)
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Largest compiled glob, in bytes: a glob's translation matches characters, and a glob of
/// [`MAX_PATTERN_LEN`] bytes that is all `*a*a...` takes about 2 MiB, so every glob the
/// length bound admits compiles (`tests/hostile.rs` holds it)
const GLOB_SIZE_LIMIT: usize = 8 << 20;

/// A whole-string glob (docs/language.md §4.4): `*` any run, `?` one character, classes, `\*`
///
/// Globs that plain string tests decide (a literal, `prefix*`, `*suffix`) are matched with
/// those tests, and no regular expression is built for them: most policies' globs are of
/// that kind, and compiling ten thousand of them would cost more than everything else.
#[derive(Debug, Clone)]
pub struct GlobPattern {
    source: String,
    /// `~*`: the glob's letters and the text are compared case folded ([`fold_case`])
    fold: bool,
    matcher: Matcher,
}

/// How a glob is matched
#[derive(Debug, Clone)]
enum Matcher {
    /// By a plain string test
    Plain(GlobShape),
    /// By its regular expression (its source, and its compiled forms made once: see
    /// [`GlobPattern::deferred`])
    Compiled(String, LazyRegex),
}

impl GlobPattern {
    /// Compiles `source`, or says why it is not a valid glob
    pub fn new(source: &str) -> Result<GlobPattern, PatternError> {
        let pattern = GlobPattern::deferred(source, false)?;
        pattern.check()?;
        Ok(pattern)
    }

    /// Compiles `source` as a glob that ignores case (`~*`): it matches a text when the glob
    /// with its letters case folded matches the text case folded ([`fold_case`]); a class
    /// (`[A-Z]`) matches a character of either case
    pub fn ignoring_case(source: &str) -> Result<GlobPattern, PatternError> {
        let pattern = GlobPattern::deferred(source, true)?;
        pattern.check()?;
        Ok(pattern)
    }

    /// `source` translated, its regular expression (if it needs one) to be compiled on first
    /// use, as [`RegexPattern`]s are when read from compiled JSON
    pub(crate) fn deferred(source: &str, fold: bool) -> Result<GlobPattern, PatternError> {
        check_length(source)?;
        let folded = if fold {
            Cow::Owned(fold_glob(source))
        } else {
            Cow::Borrowed(source)
        };
        // A glob of a plain shape has no `?`, class or dangling `\`, so it always translates;
        // its translation, which nothing matches with, is not built (decoding a cached policy
        // made one for each of its globs, on every hook call).
        let matcher = match glob_shape(&folded) {
            GlobShape::Other => {
                let regex = glob_regex(&folded)?;
                let regex_source = if fold {
                    // The text is folded before it is matched; the classes, which
                    // `fold_glob` leaves as written, are matched without case.
                    regex.replacen("^(?s:", "^(?si:", 1)
                } else {
                    regex
                };
                Matcher::Compiled(regex_source, LazyRegex::default())
            }
            plain => Matcher::Plain(plain),
        };
        Ok(GlobPattern {
            source: source.to_owned(),
            fold,
            matcher,
        })
    }

    /// Needles of every text the glob matches (`needles.rs`): the text a plain glob's shape
    /// requires, or those of its regular expression
    pub(crate) fn text_needles(&self) -> Option<Needles> {
        match self.shape() {
            GlobShape::Literal(text)
            | GlobShape::Prefix(text)
            | GlobShape::Suffix(text)
            | GlobShape::Contains(text) => Needles::of_words([text.as_str()]),
            GlobShape::Other => self.needles(),
        }
    }

    /// The needles of the glob's regular expression, when it has one (`needles.rs`)
    pub(crate) fn needles(&self) -> Option<Needles> {
        match &self.matcher {
            Matcher::Plain(_) => None,
            Matcher::Compiled(regex_source, compiled) => compiled
                .needles()
                .cloned()
                .or_else(|| needles_of(regex_source)),
        }
    }

    /// Whether the glob ignores case (`~*`): its shape and regular expression are then
    /// those of the folded glob, to be matched against the folded text ([`fold_case`])
    pub fn folds_case(&self) -> bool {
        self.fold
    }

    /// Compiles the glob's regular expression if that was deferred, or says why it does
    /// not compile
    pub fn check(&self) -> Result<(), PatternError> {
        match &self.matcher {
            Matcher::Plain(_) => Ok(()),
            Matcher::Compiled(regex_source, compiled) => {
                compiled.check(regex_source, GLOB_SIZE_LIMIT)
            }
        }
    }

    /// The pattern as written
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the whole of `text` matches
    pub fn is_match(&self, text: &str) -> bool {
        if self.fold {
            self.is_match_folded(&fold_case(text))
        } else {
            self.is_match_folded(text)
        }
    }

    /// Whether the whole of `text`, already case folded if the glob ignores case, matches
    pub(crate) fn is_match_folded(&self, text: &str) -> bool {
        match &self.matcher {
            Matcher::Plain(GlobShape::Literal(literal)) => text == literal,
            Matcher::Plain(GlobShape::Prefix(prefix)) => text.starts_with(prefix.as_str()),
            Matcher::Plain(GlobShape::Suffix(suffix)) => text.ends_with(suffix.as_str()),
            Matcher::Plain(GlobShape::Contains(needle)) => text.contains(needle.as_str()),
            Matcher::Compiled(regex_source, compiled) => {
                compiled.is_match(regex_source, GLOB_SIZE_LIMIT, text)
            }
            // Invariant: `new` compiles every glob of another shape.
            Matcher::Plain(GlobShape::Other) => false,
        }
    }

    /// Whether some text that starts with `known` may match: false only when no text going
    /// on from it can (`known_start.rs`)
    pub(crate) fn may_match_starting_with(&self, known: &str) -> bool {
        let known = if self.fold {
            fold_case(known)
        } else {
            Cow::Borrowed(known)
        };
        match &self.matcher {
            Matcher::Plain(GlobShape::Literal(literal)) => literal.starts_with(&*known),
            Matcher::Plain(GlobShape::Prefix(prefix)) => {
                prefix.starts_with(&*known) || known.starts_with(prefix.as_str())
            }
            Matcher::Plain(GlobShape::Suffix(_) | GlobShape::Contains(_)) => true,
            Matcher::Compiled(regex_source, _) => known_start::may_match(regex_source, &known),
            // Invariant: `new` compiles every glob of another shape.
            Matcher::Plain(GlobShape::Other) => true,
        }
    }

    /// The glob as a whole-string regular expression over characters, for matching many
    /// globs at once (`regex::RegexSet`); `None` for a glob of a plain [`shape`](Self::shape),
    /// which plain string tests decide
    pub(crate) fn regex_source(&self) -> Option<&str> {
        match &self.matcher {
            Matcher::Compiled(regex_source, _) => Some(regex_source),
            Matcher::Plain(_) => None,
        }
    }

    /// The pattern's shape: whether plain string tests decide it (the rule index uses them
    /// instead of running the glob)
    pub(crate) fn shape(&self) -> &GlobShape {
        match &self.matcher {
            Matcher::Plain(shape) => shape,
            Matcher::Compiled(..) => &GlobShape::Other,
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

/// `text` case folded: each character's uppercase, then that lowercase, so the letters
/// Unicode's case folding makes one compare equal (`Ä` and `ä`, `ß` and `SS`, `ς` and `Σ`,
/// `K` and the Kelvin sign); ASCII text without capitals is returned as it is
pub fn fold_case(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        if text.bytes().any(|byte| byte.is_ascii_uppercase()) {
            return Cow::Owned(text.to_ascii_lowercase());
        }
        return Cow::Borrowed(text);
    }
    let mut folded = String::with_capacity(text.len());
    for ch in text.chars() {
        for upper in ch.to_uppercase() {
            folded.extend(upper.to_lowercase());
        }
    }
    Cow::Owned(folded)
}

/// A glob with the characters it matches as themselves case folded: escapes stay escapes,
/// and classes stay as written (folding `[Z-a]` would make an invalid range), to be matched
/// without case
fn fold_glob(source: &str) -> String {
    let mut folded = String::with_capacity(source.len());
    let mut in_class = false;
    let mut chars = source.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => {
                folded.push(ch);
                if let Some(escaped) = chars.next() {
                    if in_class {
                        folded.push(escaped);
                    } else {
                        // Escaped already; a letter may fold to several, none of them syntax.
                        let mut buffer = [0; 4];
                        folded.push_str(&fold_case(escaped.encode_utf8(&mut buffer)));
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                folded.push(ch);
                // `!` and a `]` first are members' syntax, not the class's end.
                if chars.peek() == Some(&'!') {
                    folded.extend(chars.next());
                }
                if chars.peek() == Some(&']') {
                    folded.extend(chars.next());
                }
            }
            ']' if in_class => {
                in_class = false;
                folded.push(ch);
            }
            _ if in_class => folded.push(ch),
            '*' | '?' => folded.push(ch),
            _ => push_folded(&mut folded, ch),
        }
    }
    folded
}

/// `ch` case folded, each character it folds to written escaped where it would be a
/// glob's syntax
fn push_folded(folded: &mut String, ch: char) {
    let mut buffer = [0; 4];
    for each in fold_case(ch.encode_utf8(&mut buffer)).chars() {
        if matches!(each, '*' | '?' | '[' | '\\') {
            folded.push('\\');
        }
        folded.push(each);
    }
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
    compiled: LazyRegex,
    /// Its DFA for walks of a known start (`known_start.rs`), found on first use
    walker: known_start::AutomatonCell,
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
            compiled: LazyRegex::default(),
            walker: known_start::AutomatonCell::default(),
        })
    }

    /// The text every match starts with, when the pattern is anchored at the start (`^`)
    /// and begins with literal characters: `/dev/` of `^/dev/(sd|hd)`; `None` otherwise
    pub fn anchored_prefix(&self) -> Option<String> {
        known_start::anchored_literal(&self.source)
    }

    /// Whether some text that starts with `known` may hold a match: false only when the
    /// pattern matches from a text's start alone and no text going on from `known` can
    /// (`known_start.rs`)
    pub(crate) fn may_match_starting_with(&self, known: &str) -> bool {
        known_start::may_match(&self.source, known)
    }

    /// Whether a path that starts with `known`, goes on with a name (no `/`) and ends with
    /// `end` may hold a match anywhere (`known_start.rs`)
    pub(crate) fn may_match_named(&self, known: &str, end: &str) -> bool {
        known_start::may_match_named(self.walker.get(&self.source), known, end)
    }

    /// Whether every path that starts with `known`, goes on with a name (no `/`) and ends
    /// with `end` holds a match (`known_start.rs`)
    pub(crate) fn must_match_named(&self, known: &str, end: &str) -> bool {
        known_start::must_match_named(self.walker.get(&self.source), known, end)
    }

    /// Whether every text that starts with `known` holds a match: true when `known` holds
    /// one that ends before its last character (`^DROP\s+TABLE\b` of `DROP TABLE $t`)
    pub(crate) fn must_match_starting_with(&self, known: &str) -> bool {
        self.compiled
            .matches_before_end(&self.source, REGEX_SIZE_LIMIT, known)
            || known_start::must_match(&self.source, known)
    }

    /// Compiles the pattern if that was deferred, or says why it is not valid
    pub fn check(&self) -> Result<(), PatternError> {
        self.compiled.check(&self.source, REGEX_SIZE_LIMIT)
    }

    /// The needles of the pattern (`needles.rs`): those it was read with, or found now
    pub(crate) fn needles(&self) -> Option<Needles> {
        self.compiled
            .needles()
            .cloned()
            .or_else(|| needles_of(&self.source))
    }

    /// The pattern as written
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether `text` contains a match; a pattern that does not compile matches nothing
    /// (never the case in a policy, whose patterns `Policy::new` checked)
    pub fn is_match(&self, text: &str) -> bool {
        self.compiled.is_match(&self.source, REGEX_SIZE_LIMIT, text)
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
        self.source == other.source && self.fold == other.fold
    }
}

impl Eq for GlobPattern {}

impl PartialEq for RegexPattern {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for RegexPattern {}

/// A glob as compiled JSON writes it: its source, or `{"ignoring_case": source}` for `~*`;
/// a binary form (the hook cache's postcard), which cannot tell the two by their shape,
/// writes the tagged enum, and the needles of the glob's regular expression (`needles.rs`)
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum GlobForm<'a> {
    Plain(Cow<'a, str>, Option<Needles>),
    IgnoringCase(Cow<'a, str>, Option<Needles>),
}

/// The JSON of a glob: a string, or an object with the key `ignoring_case`
#[derive(Deserialize)]
#[serde(untagged)]
enum GlobJson {
    Plain(String),
    IgnoringCase { ignoring_case: String },
}

impl Serialize for GlobPattern {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let source = Cow::Borrowed(self.source.as_str());
        match (serializer.is_human_readable(), self.fold) {
            (true, false) => serializer.serialize_str(&self.source),
            (true, true) => {
                use serde::ser::SerializeMap;
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("ignoring_case", &self.source)?;
                map.end()
            }
            (false, false) => GlobForm::Plain(source, self.needles()).serialize(serializer),
            (false, true) => GlobForm::IgnoringCase(source, self.needles()).serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for GlobPattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (source, fold, needles) = if deserializer.is_human_readable() {
            match GlobJson::deserialize(deserializer)? {
                GlobJson::Plain(source) => (Cow::Owned(source), false, None),
                GlobJson::IgnoringCase { ignoring_case } => (Cow::Owned(ignoring_case), true, None),
            }
        } else {
            match GlobForm::deserialize(deserializer)? {
                GlobForm::Plain(source, needles) => (source, false, needles),
                GlobForm::IgnoringCase(source, needles) => (source, true, needles),
            }
        };
        let mut glob = GlobPattern::deferred(&source, fold).map_err(serde::de::Error::custom)?;
        if let Matcher::Compiled(_, compiled) = &mut glob.matcher {
            *compiled = LazyRegex::with_needles(needles);
        }
        Ok(glob)
    }
}

/// A regular expression as the binary form writes it: its source and its needles
/// (`needles.rs`); compiled JSON writes the source alone
#[derive(Serialize, Deserialize)]
struct RegexForm<'a> {
    #[serde(borrow)]
    source: Cow<'a, str>,
    needles: Option<Needles>,
}

impl Serialize for RegexPattern {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            return serializer.serialize_str(self.as_str());
        }
        let needles = self.needles();
        RegexForm {
            source: Cow::Borrowed(&self.source),
            needles,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RegexPattern {
    /// A pattern read is compiled when the policy it belongs to is checked, or when it is
    /// first used (see [`RegexPattern`])
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (source, needles) = if deserializer.is_human_readable() {
            (Cow::Owned(String::deserialize(deserializer)?), None)
        } else {
            let form = RegexForm::deserialize(deserializer)?;
            (form.source, form.needles)
        };
        let mut pattern = RegexPattern::deferred(&source).map_err(serde::de::Error::custom)?;
        pattern.compiled = LazyRegex::with_needles(needles);
        Ok(pattern)
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

    fn glob_ignoring_case(pattern: &str, text: &str) -> bool {
        GlobPattern::ignoring_case(pattern).unwrap().is_match(text)
    }

    #[test]
    fn a_glob_ignoring_case_matches_every_case_of_its_letters() {
        assert!(glob_ignoring_case("*invite*", "An INVITE for you"));
        assert!(glob_ignoring_case("*INVITE*", "an invite"));
        assert!(glob_ignoring_case("straße*", "STRASSE 1"));
        assert!(glob_ignoring_case("*σ", "ΟΔΟΣ"));
        assert!(glob_ignoring_case("[a-c]x", "BX"));
        assert!(glob_ignoring_case("[Z-a]", "z"));
        assert!(glob_ignoring_case(r"\*A?", "*ab"));
        assert!(glob_ignoring_case("*invite*", "an InViTe to tea"));
        assert!(!glob_ignoring_case("rm", "rm -rf"));
        assert!(!glob_ignoring_case("[!a]b", "AB"));
    }

    #[test]
    fn a_glob_ignoring_case_reads_back_as_one_from_json_and_from_binary() {
        for pattern in [
            GlobPattern::ignoring_case("*Invite*").unwrap(),
            GlobPattern::new("*Invite*").unwrap(),
        ] {
            let json = serde_json::to_string(&pattern).unwrap();
            let back: GlobPattern = serde_json::from_str(&json).unwrap();
            assert_eq!(back, pattern);
            assert_eq!(back.is_match("an INVITE"), pattern.folds_case(), "{json}");
            let bytes = postcard::to_allocvec(&pattern).unwrap();
            let back: GlobPattern = postcard::from_bytes(&bytes).unwrap();
            assert_eq!(back, pattern);
        }
        assert_eq!(
            serde_json::to_string(&GlobPattern::ignoring_case("a*").unwrap()).unwrap(),
            r#"{"ignoring_case":"a*"}"#
        );
        assert_eq!(
            serde_json::to_string(&GlobPattern::new("a*").unwrap()).unwrap(),
            r#""a*""#
        );
    }

    #[test]
    fn a_pattern_read_from_binary_answers_a_text_without_its_needles_uncompiled() {
        let written = RegexPattern::new(r"(?i)\bdrop\s+table\b").unwrap();
        assert_eq!(
            serde_json::to_string(&written).unwrap(),
            r#""(?i)\\bdrop\\s+table\\b""#
        );
        let bytes = postcard::to_allocvec(&written).unwrap();
        let read: RegexPattern = postcard::from_bytes(&bytes).unwrap();
        assert!(read.compiled.needles().is_some());
        assert!(!read.is_match("ls -la /tmp"));
        assert!(
            !read.compiled.is_compiled(),
            "a text without `table` compiles nothing"
        );
        assert!(read.is_match("psql -c 'DROP  TABLE users'"));
        assert!(!read.is_match("psql -c 'SELECT 1 FROM drop_table'"));
        assert!(read.compiled.is_compiled());

        let glob = GlobPattern::new("*[0-9]secret*").unwrap();
        let bytes = postcard::to_allocvec(&glob).unwrap();
        let read: GlobPattern = postcard::from_bytes(&bytes).unwrap();
        let Matcher::Compiled(_, compiled) = &read.matcher else {
            panic!("a glob of another shape is compiled");
        };
        assert!(!read.is_match("public.txt"));
        assert!(!compiled.is_compiled());
        assert!(read.is_match("a1secret.pem"));
    }

    #[test]
    fn case_folding_makes_the_cases_of_a_letter_one() {
        for (one, other) in [
            ("Ä", "ä"),
            ("ß", "SS"),
            ("ς", "Σ"),
            ("\u{212a}", "k"),
            ("İ", "i\u{307}"),
        ] {
            assert_eq!(fold_case(one), fold_case(other), "{one} {other}");
        }
        assert!(matches!(fold_case("plain ascii"), Cow::Borrowed(_)));
        assert_ne!(fold_case("a"), fold_case("b"));
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
