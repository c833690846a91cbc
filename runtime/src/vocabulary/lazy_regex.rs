//! A pattern's regular expression, compiled on the first question and in the form the text
//! asked about needs.
//!
//! A hook is a process per call, so every regular expression an event reaches is compiled
//! again in each call: compiling took more of a denied call's time than everything else
//! (`(?i)\bdrop\s+…` about 1.7 ms, with Unicode's word and space classes and case folding).
//! Policies ask one question of a pattern, whether it matches, and most texts they ask it of
//! are ASCII. So a pattern written in ASCII alone is compiled without Unicode for an ASCII
//! text (about a fifth of the time), and with Unicode only when a text past ASCII comes;
//! either is compiled for matching alone (no engine built for spans or captures).
//!
//! Invariant: for every ASCII text, the pattern compiled without Unicode matches exactly
//! when the pattern compiled with it does. That form is used only for a pattern whose every
//! character, written or escaped, is ASCII, with no `\p{…}` class ([`names_ascii_alone`]).
//! On ASCII text, Unicode's `\w`, `\d`, `\s`, `\b`, `.` and negated classes accept exactly
//! the ASCII characters their ASCII forms accept, and case folding relates ASCII letters to
//! each other and to `K` (U+212A) and `ſ` (U+017F) alone, which such a pattern cannot name
//! (`(?i)\x{212A}` matches `k`: it is compiled with Unicode). `tests` hold both forms to the
//! `regex` crate's own answers.
//!
//! Packs repeat a pattern in several rules (a list of secret paths, of system folders): a
//! process compiles each pattern text once per form ([`MEMO`]), whichever rule asks first.
//! And a pattern read from the compact form carries its [`Needles`], so an ASCII text that
//! holds none of them is answered without compiling anything (`needles.rs`).
//!
//! Most texts a pattern is asked about are words of a command line, a few bytes long: for
//! an ASCII text of at most [`LITE_TEXT`] bytes, such a pattern is compiled by `regex-lite`,
//! which builds only what a backtracker and a PikeVM need (about a fourth of the
//! instructions of the engines above for `^(/|~|/home|…)/?$`, and of the lazy DFA's
//! for a page of SQL keywords) and searches a short text in as few. On ASCII, its classes,
//! word boundaries and case folding are those of the form without Unicode; a pattern it
//! refuses is matched by that form. A long text is searched by the lazy DFA, whose cost
//! does not grow with the pattern.

use std::collections::hash_map::{Entry, HashMap};
use std::fmt;
use std::sync::{Mutex, OnceLock, PoisonError};

use regex_automata::meta::{self, Regex};
use regex_automata::nfa::thompson::WhichCaptures;
use regex_automata::util::syntax;
use regex_syntax::ast::{self, Ast, ClassSetItem};

use super::needles::Needles;

/// The longest ASCII text matched by the pattern's `regex-lite` form: past it, the lazy
/// DFA's search (linear in the text alone) pays for its longer compiling
const LITE_TEXT: usize = 64;

/// A regular expression compiled on first use, once per form
#[derive(Debug, Clone, Default)]
pub(crate) struct LazyRegex {
    /// Strings of which every ASCII text the pattern matches holds one, when known
    needles: Option<Needles>,
    /// Whether the pattern names ASCII alone ([`names_ascii_alone`]), once asked
    ascii_alone: OnceLock<bool>,
    /// For short ASCII texts: the pattern compiled by `regex-lite`; `None` when the pattern
    /// is not ASCII or that crate refuses it (boxed: a condition holds its patterns inline)
    lite: OnceLock<Option<Box<regex_lite::Regex>>>,
    /// For ASCII texts: the pattern compiled without Unicode; `None` when the pattern is not
    /// ASCII or does not compile so
    ascii: OnceLock<Option<Regex>>,
    /// For any text: the pattern compiled with Unicode
    unicode: OnceLock<Result<Regex, PatternError>>,
}

impl LazyRegex {
    /// A pattern not yet compiled whose ASCII matches all hold one of `needles`, which must
    /// be [`needles_of`] its source
    pub(crate) fn with_needles(needles: Option<Needles>) -> LazyRegex {
        LazyRegex {
            needles,
            ..LazyRegex::default()
        }
    }

    /// The needles this was given
    pub(crate) fn needles(&self) -> Option<&Needles> {
        self.needles.as_ref()
    }

    /// Whether a form of the pattern was compiled
    #[cfg(test)]
    pub(crate) fn is_compiled(&self) -> bool {
        self.lite.get().is_some() || self.ascii.get().is_some() || self.unicode.get().is_some()
    }

    /// Compiles the pattern with Unicode if that was not done, or says why it does not compile
    pub(crate) fn check(&self, source: &str, size_limit: usize) -> Result<(), PatternError> {
        self.unicode(source, size_limit).map(|_| ())
    }

    /// Whether `text` holds a match of `source`; a pattern that does not compile matches
    /// nothing
    pub(crate) fn is_match(&self, source: &str, size_limit: usize, text: &str) -> bool {
        match self.form_for(source, size_limit, text) {
            Some(Form::Lite(regex)) => regex.is_match(text),
            Some(Form::Bytes(regex)) => regex.is_match(text.as_bytes()),
            Some(Form::Unicode(regex)) => regex.is_match(text),
            None => false,
        }
    }

    /// Whether `text` holds a match that ends before its last character: such a match is
    /// one of every text that goes on from `text`, since an assertion at a match's end
    /// (`$`, `\b`) looks at a character `text` already has
    pub(crate) fn matches_before_end(&self, source: &str, size_limit: usize, text: &str) -> bool {
        let before_end = |end: usize| end < text.len();
        match self.form_for(source, size_limit, text) {
            Some(Form::Lite(regex)) => regex.find_iter(text).any(|found| before_end(found.end())),
            Some(Form::Bytes(regex)) => regex
                .find_iter(text.as_bytes())
                .any(|found| before_end(found.end())),
            Some(Form::Unicode(regex)) => {
                regex.find_iter(text).any(|found| before_end(found.end()))
            }
            None => false,
        }
    }

    /// The form of the pattern that matches `text`, compiled on first use: for ASCII, the
    /// `regex-lite` one for a short text or the one without Unicode; else the Unicode one.
    /// `None` when no match can be (an ASCII text holding none of the needles) or the
    /// pattern does not compile.
    fn form_for(&self, source: &str, size_limit: usize, text: &str) -> Option<Form<'_>> {
        if text.is_ascii() {
            if self
                .needles
                .as_ref()
                .is_some_and(|needles| !needles.any_in(text.as_bytes()))
            {
                return None;
            }
            let ascii_alone = || *self.ascii_alone.get_or_init(|| names_ascii_alone(source));
            if text.len() <= LITE_TEXT {
                let lite = self.lite.get_or_init(|| {
                    ascii_alone()
                        .then(|| compile_lite(source, size_limit))?
                        .map(Box::new)
                });
                if let Some(lite) = lite {
                    return Some(Form::Lite(lite));
                }
            }
            let ascii = self
                .ascii
                .get_or_init(|| ascii_alone().then(|| compile_ascii(source, size_limit))?);
            if let Some(ascii) = ascii {
                return Some(Form::Bytes(ascii));
            }
        }
        self.unicode(source, size_limit).ok().map(Form::Unicode)
    }

    fn unicode(&self, source: &str, size_limit: usize) -> Result<&Regex, PatternError> {
        self.unicode
            .get_or_init(|| {
                compile(source, size_limit, syntax::Config::new())
                    .map_err(|_| explain(source, size_limit))
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// A compiled form of a pattern, as [`LazyRegex::form_for`] picks it for a text
enum Form<'r> {
    /// `regex-lite`'s, for a short ASCII text
    Lite(&'r regex_lite::Regex),
    /// Without Unicode, over an ASCII text's bytes
    Bytes(&'r Regex),
    /// With Unicode
    Unicode(&'r Regex),
}

/// `source`, a pattern that names ASCII alone, compiled without Unicode to match ASCII
/// texts; `None` when it does not compile so (it is then matched with Unicode)
fn compile_ascii(source: &str, size_limit: usize) -> Option<Regex> {
    compile(source, size_limit, ascii_syntax()).ok()
}

/// `source`, a pattern that names ASCII alone, compiled by `regex-lite` to match short
/// ASCII texts, reused when this process compiled it before; `None` when that crate
/// refuses it
fn compile_lite(source: &str, size_limit: usize) -> Option<regex_lite::Regex> {
    let key = (Box::<str>::from(source), size_limit);
    if let Some((memo, _)) = LITE_MEMO
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
    {
        if let Some(regex) = memo.get(&key) {
            return Some(regex.clone());
        }
    }
    let regex = regex_lite::RegexBuilder::new(source)
        .size_limit(size_limit)
        .build()
        .ok()?;
    let mut memo = LITE_MEMO.lock().unwrap_or_else(PoisonError::into_inner);
    let (forms, bytes) = memo.get_or_insert_with(Default::default);
    // regex-lite does not say what a form holds: its pattern's length stands for it.
    if bytes.saturating_add(source.len()) <= LITE_MEMO_SOURCE_BYTES {
        if let Entry::Vacant(slot) = forms.entry(key) {
            *bytes += source.len();
            slot.insert(regex.clone());
        }
    }
    Some(regex)
}

/// The needles of `source` (`needles.rs`): found on its form without Unicode, so only a
/// pattern that has that form has them
pub(crate) fn needles_of(source: &str) -> Option<Needles> {
    if !names_ascii_alone(source) {
        return None;
    }
    let hir = syntax::parse_with(source, &ascii_syntax()).ok()?;
    Needles::of(&hir)
}

/// The syntax of a pattern's form without Unicode
fn ascii_syntax() -> syntax::Config {
    // Without Unicode, `[^/]` and `.` match any byte: allowed here, as the text is ASCII.
    syntax::Config::new().unicode(false).utf8(false)
}

/// Whether every character `source` names, as itself or by an escape, alone or in a class,
/// is ASCII, and it uses no Unicode class
fn names_ascii_alone(source: &str) -> bool {
    source.is_ascii()
        && (names_no_code(source)
            || ast::parse::Parser::new()
                .parse(source)
                .is_ok_and(|ast| ast::visit(&ast, AsciiAlone).is_ok()))
}

/// Whether `source` has no escape that names a character by its code or a Unicode class
/// (`\x`, `\u`, `\U`, `\p`, `\P`): written in ASCII, it then names ASCII alone, or does not
/// parse (and compiles in no form). Parsing a pattern only to learn this cost a call about
/// as much as compiling it.
fn names_no_code(source: &str) -> bool {
    let mut bytes = source.bytes();
    while let Some(byte) = bytes.next() {
        // Every `\` starts an escape of the byte after it (in a verbose pattern's comment it
        // escapes nothing, but then the comment's next byte is no escape's either).
        if byte == b'\\' && matches!(bytes.next(), Some(b'x' | b'u' | b'U' | b'p' | b'P')) {
            return false;
        }
    }
    true
}

/// Refuses, on the first character past ASCII or Unicode class ([`names_ascii_alone`])
struct AsciiAlone;

impl ast::Visitor for AsciiAlone {
    type Output = ();
    type Err = ();

    fn finish(self) -> Result<(), ()> {
        Ok(())
    }

    fn visit_pre(&mut self, ast: &Ast) -> Result<(), ()> {
        match ast {
            Ast::Literal(literal) if !literal.c.is_ascii() => Err(()),
            Ast::ClassUnicode(_) => Err(()),
            _ => Ok(()),
        }
    }

    fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> Result<(), ()> {
        match item {
            ClassSetItem::Literal(literal) if !literal.c.is_ascii() => Err(()),
            ClassSetItem::Range(range) if !(range.start.c.is_ascii() && range.end.c.is_ascii()) => {
                Err(())
            }
            ClassSetItem::Unicode(_) => Err(()),
            _ => Ok(()),
        }
    }
}

/// The most memory the compiled forms kept for reuse hold in all, in bytes: past it, a form
/// is compiled for its pattern alone (a process that checks many policies, such as the
/// language server, must not keep every pattern it ever saw)
const MEMO_BYTES: usize = 16 << 20;

/// The most pattern text whose `regex-lite` forms are kept for reuse, in bytes
const LITE_MEMO_SOURCE_BYTES: usize = 1 << 20;

/// The `regex-lite` forms compiled so far in this process, by pattern text and size limit,
/// and the bytes of their patterns
static LITE_MEMO: Mutex<Option<(LiteForms, usize)>> = Mutex::new(None);

/// `regex-lite` forms by pattern text and size limit
type LiteForms = HashMap<(Box<str>, usize), regex_lite::Regex>;

/// The forms compiled so far in this process, by pattern text, form and size limit, and the
/// bytes they hold
static MEMO: Mutex<Option<(HashMap<MemoKey, Regex>, usize)>> = Mutex::new(None);

/// A compiled form's key in [`MEMO`]: the pattern, whether it is the Unicode form, the size
/// limit it was compiled within
type MemoKey = (Box<str>, bool, usize);

/// `source` compiled with `syntax`, reused when this process compiled it before
fn compile(
    source: &str,
    size_limit: usize,
    syntax: syntax::Config,
) -> Result<Regex, Box<meta::BuildError>> {
    let key: MemoKey = (source.into(), syntax.get_unicode(), size_limit);
    if let Some((memo, _)) = MEMO.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
        if let Some(regex) = memo.get(&key) {
            return Ok(regex.clone());
        }
    }
    let regex = compile_new(source, size_limit, syntax)?;
    let mut memo = MEMO.lock().unwrap_or_else(PoisonError::into_inner);
    let (forms, bytes) = memo.get_or_insert_with(Default::default);
    let size = regex.memory_usage();
    if bytes.saturating_add(size) <= MEMO_BYTES {
        // Another thread may have compiled it meanwhile: it is counted once.
        if let Entry::Vacant(slot) = forms.entry(key) {
            *bytes += size;
            slot.insert(regex.clone());
        }
    }
    Ok(regex)
}

/// `source` compiled with `syntax` for `is_match` alone: a lazy DFA and the PikeVM, no
/// literal prefilter, no engine that only pays for itself in reporting spans
fn compile_new(
    source: &str,
    size_limit: usize,
    syntax: syntax::Config,
) -> Result<Regex, Box<meta::BuildError>> {
    let unicode = syntax.get_unicode();
    meta::Builder::new()
        .syntax(syntax)
        .configure(
            meta::Config::new()
                .nfa_size_limit(Some(size_limit))
                .which_captures(WhichCaptures::Implicit)
                .utf8_empty(unicode)
                .auto_prefilter(false)
                .onepass(false)
                .backtrack(false)
                .dfa(false),
        )
        .build(source)
        .map_err(Box::new)
}

/// Why `source` does not compile, in the words the `regex` crate gives (this path is taken
/// only for a pattern that is refused, so compiling it twice costs nothing that matters)
fn explain(source: &str, size_limit: usize) -> PatternError {
    match regex::RegexBuilder::new(source)
        .size_limit(size_limit)
        .build()
    {
        Err(err) => PatternError::from_regex(&err),
        Ok(_) => PatternError {
            message: "regular expression is too large once compiled".to_owned(),
        },
    }
}

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

impl PatternError {
    /// The `regex` crate's refusal of a pattern, in one line
    pub(crate) fn from_regex(err: &regex::Error) -> PatternError {
        PatternError {
            message: regex_message(err),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use regex_syntax::hir::{Class, Hir, HirKind};

    const LIMIT: usize = 1 << 20;

    /// Pieces of ASCII patterns, with what Unicode and ASCII forms could read differently
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "a",
            "k",
            "s",
            "K",
            "S",
            "é",
            "\\w",
            "\\W",
            "\\d",
            "\\D",
            "\\s",
            "\\S",
            "\\b",
            "\\B",
            ".",
            "[^/]",
            "[a-z]",
            "[^a-z]",
            "[[:alpha:]]",
            "\\x{212A}",
            "\\x{17F}",
            "\\xE9",
            "[\\x80-\\xFF]",
            "\\pL",
            "(?i)",
            "(?-i)",
            "(?s)",
            "(?u)",
            "(?-u:\\w)",
            "^",
            "$",
            "*",
            "+",
            "?",
            "|",
            "(",
            ")",
            " ",
            "/",
            "-",
        ])
    }

    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec![
                "a", "k", "K", "s", "S", "é", "É", "K", "ſ", " ", "\t", "\n", "/", "_", "1", "-",
                "z", "\u{85}", "\u{a0}",
            ]),
            0..8,
        )
        .prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn matches_as_the_regex_crate_does(
            pieces in prop::collection::vec(piece(), 1..6),
            texts in prop::collection::vec(text(), 1..8),
        ) {
            let source = pieces.concat();
            let Ok(reference) = regex::Regex::new(&source) else {
                prop_assert!(LazyRegex::default().check(&source, LIMIT).is_err());
                return Ok(());
            };
            let lazy = LazyRegex::default();
            for text in texts {
                // Each text short, then long enough for the form that searches long texts.
                let long = format!("{text}{}", "- ".repeat(LITE_TEXT));
                for text in [text, long] {
                    prop_assert_eq!(
                        lazy.is_match(&source, LIMIT, &text),
                        reference.is_match(&text),
                        "{:?} on {:?}", source, text
                    );
                }
            }
        }
    }

    proptest! {
        #[test]
        fn a_pattern_without_codes_names_ascii_as_its_syntax_tree_says(
            pieces in prop::collection::vec(
                prop::sample::select(vec![
                    "a", "\\", "\\\\", "\\x", "\\xE9", "\\x41", "\\u{E9}", "\\U0001F600", "\\pL",
                    "\\PL", "\\p{Greek}", "x", "p", "[", "]", "[^", "(?x)", "(?-x)", "#", "\n", " ",
                    "(", ")", "|", "*", "{", "}", "[[:alpha:]]", "[[:^ascii:]]", "(?u)", "-",
                ]),
                1..10,
            ),
        ) {
            let source = pieces.concat();
            let by_tree = ast::parse::Parser::new()
                .parse(&source)
                .is_ok_and(|ast| ast::visit(&ast, AsciiAlone).is_ok());
            if names_no_code(&source) {
                prop_assert!(
                    by_tree || ast::parse::Parser::new().parse(&source).is_err(),
                    "{:?}", source
                );
            }
            let fast = names_ascii_alone(&source);
            prop_assert!(!fast || by_tree || compile_ascii(&source, LIMIT).is_none(), "{:?}", source);
        }
    }

    /// Pieces of patterns with words to need: literals, classes of a few letters, optional
    /// and repeated parts, alternatives, case folding
    fn needled_piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "drop", "ta", "b", "(?i)", "(?-i)", "[ce]", "[a-c]", "[^a]", "\\s+", "\\w", ".", "s?",
            "(ab)+", "(x|yz)", "|", "(", ")", "?", "*", "{2}", "\\b", "^", "$", "-", " ",
        ])
    }

    /// A text `hir` may match, walking it by `choices` (its looks are not heeded, so the
    /// text may not match after all)
    fn sample(hir: &Hir, choices: &mut impl Iterator<Item = usize>, out: &mut Vec<u8>) {
        let mut choose = |n: usize| choices.next().unwrap_or(0) % n.max(1);
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => {}
            HirKind::Literal(literal) => out.extend_from_slice(&literal.0),
            HirKind::Class(Class::Bytes(class)) => {
                let members: Vec<u8> = class
                    .iter()
                    .flat_map(|range| range.start()..=range.end())
                    .filter(u8::is_ascii)
                    .collect();
                if !members.is_empty() {
                    out.push(members[choose(members.len())]);
                }
            }
            HirKind::Class(Class::Unicode(_)) => {}
            HirKind::Capture(capture) => sample(&capture.sub, choices, out),
            HirKind::Repetition(repetition) => {
                let extra = repetition.max.map_or(3, |max| max - repetition.min + 1);
                let times = repetition.min as usize + choose(extra.min(3) as usize);
                for _ in 0..times {
                    sample(&repetition.sub, choices, out);
                }
            }
            HirKind::Concat(parts) => {
                for part in parts {
                    sample(part, choices, out);
                }
            }
            HirKind::Alternation(branches) => {
                let branch = choose(branches.len());
                sample(&branches[branch], choices, out);
            }
        }
    }

    proptest! {
        #[test]
        fn every_ascii_match_holds_a_needle(
            pieces in prop::collection::vec(needled_piece(), 1..8),
            choices in prop::collection::vec(any::<usize>(), 0..64),
            around in prop::collection::vec(text(), 2),
        ) {
            let source = pieces.concat();
            let Ok(reference) = regex::Regex::new(&source) else {
                return Ok(());
            };
            let hir = syntax::parse_with(&source, &ascii_syntax()).unwrap();
            let mut walked = Vec::new();
            sample(&hir, &mut choices.into_iter(), &mut walked);
            let walked = String::from_utf8(walked).unwrap();
            let needles = needles_of(&source);
            let lazy = LazyRegex::with_needles(needles.clone());
            for text in [walked.clone(), format!("{}{walked}{}", around[0], around[1])] {
                if !text.is_ascii() {
                    continue;
                }
                let matches = reference.is_match(&text);
                if let (true, Some(needles)) = (matches, &needles) {
                    prop_assert!(needles.any_in(text.as_bytes()), "{:?} on {:?}", source, text);
                }
                prop_assert_eq!(lazy.is_match(&source, LIMIT, &text), matches, "{:?} on {:?}", source, text);
            }
        }
    }

    #[test]
    fn an_ascii_text_is_matched_without_compiling_unicode() {
        let lazy = LazyRegex::default();
        assert!(lazy.is_match(r"(?i)\bdrop\s+table\b", LIMIT, "psql -c 'DROP  TABLE x'"));
        assert!(lazy.unicode.get().is_none());
        // Past ASCII, the Unicode form decides: `\s` holds a no-break space there.
        assert!(lazy.is_match(r"(?i)\bdrop\s+table\b", LIMIT, "DROP\u{a0}TABLE"));
        assert!(lazy.unicode.get().is_some());
    }

    #[test]
    fn folding_past_ascii_is_kept_for_ascii_texts() {
        // `\x{212A}` (KELVIN SIGN) folds to `k`: not an ASCII pattern's form.
        let kelvin = LazyRegex::default();
        assert!(kelvin.is_match(r"(?i)\x{212A}", LIMIT, "k"));
        let long_s = LazyRegex::default();
        assert!(long_s.is_match(r"(?i)\x{17F}", LIMIT, "S"));
        for source in [r"(?i)[\x{200}-\x{2200}]", r"(?i)[\u212A]", r"(?i)\u{212A}"] {
            assert!(
                LazyRegex::default().is_match(source, LIMIT, "k"),
                "{source}"
            );
            assert!(!names_ascii_alone(source), "{source}");
        }
        assert!(names_ascii_alone(r"(?i)\bdrop\s+[^/]\x41[a-z]"));
    }

    #[test]
    fn a_pattern_is_compiled_once_per_form_in_a_process() {
        let source = r"^/(memo|test)/\w+$";
        let first = LazyRegex::default();
        assert!(first.is_match(source, LIMIT, "/memo/x"));
        let second = LazyRegex::default();
        assert!(!second.is_match(source, LIMIT, "/other/x"));
        let long = format!("/test/{}", "x".repeat(LITE_TEXT));
        assert!(second.is_match(source, LIMIT, &long));
        let lite = LITE_MEMO.lock().unwrap();
        let (lite_forms, lite_bytes) = lite.as_ref().unwrap();
        assert!(lite_forms.contains_key(&(source.into(), LIMIT)));
        assert!(*lite_bytes <= LITE_MEMO_SOURCE_BYTES);
        let memo = MEMO.lock().unwrap();
        let (forms, bytes) = memo.as_ref().unwrap();
        assert!(forms.contains_key(&(source.into(), false, LIMIT)));
        assert!(!forms.contains_key(&(source.into(), true, LIMIT)));
        assert!(*bytes <= MEMO_BYTES);
    }

    #[test]
    fn a_refusal_is_worded_as_the_regex_crate_words_it() {
        let err = LazyRegex::default().check("(a", LIMIT).unwrap_err();
        assert_eq!(err.message, "unclosed group");
        let big = LazyRegex::default()
            .check(r"\w{1000}", 1 << 10)
            .unwrap_err();
        assert!(big.message.contains("too large"), "{}", big.message);
    }
}
