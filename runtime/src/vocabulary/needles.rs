//! Needles: short strings of which every match of a pattern contains one.
//!
//! A hook call is a process of its own, so each pattern an event reaches is compiled anew in
//! every call, and compiling costs far more than matching (the databases pack's statement
//! pattern about 0.3 ms, a `curl … | sh` line once 2 ms of patterns in all). Most texts a
//! pattern is asked about cannot match it for a plain reason: `(?i)\bdrop\s+table` needs
//! `drop` and `table`, and `ls -la` holds neither. So when a policy is written in its
//! compact form, each pattern is read once, and what every match must contain is kept with
//! it; a call then compiles the pattern only for a text that holds one of those needles.
//!
//! Invariant: for a pattern whose [`Needles`] are known, every ASCII text it matches
//! contains one of them, compared without ASCII case. They are found on the pattern's
//! form without Unicode, which decides every ASCII text as the pattern does
//! (`lazy_regex.rs`), so they are only asked of ASCII texts. Where a part of a pattern could
//! be one of too many strings, nothing is claimed of it: no needles is always sound.

use std::collections::BTreeSet;

use regex_syntax::hir::{Class, Hir, HirKind};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Most strings a set of needles or of a part's whole matches may hold
const MAX_STRINGS: usize = 64;

/// Longest string a set of needles or of a part's whole matches may hold
const MAX_LEN: usize = 64;

/// A needle this long narrows a text as well as any longer one would
const LONG_ENOUGH: usize = 8;

/// Most characters a class may hold to be read as the few strings it matches
const MAX_CLASS: u32 = 8;

/// Strings, ASCII and lowercase, of which every match of a pattern contains one: each
/// written as its length (one byte) and its bytes, in one buffer, so that reading a
/// policy's conditions allocates once per pattern
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Needles(Box<[u8]>);

impl Needles {
    /// The needles of a pattern's form without Unicode, `hir`; `None` when some match may
    /// contain none of a few short strings
    pub(crate) fn of(hir: &Hir) -> Option<Needles> {
        let inner = Facts::of(hir).inner?;
        let mut bytes = Vec::new();
        for needle in inner {
            // Invariant: needles are at most MAX_LEN bytes, and ASCII (`Facts`).
            bytes.push(u8::try_from(needle.len()).ok()?);
            bytes.extend(needle);
        }
        Some(Needles(bytes.into_boxed_slice()))
    }

    /// Needles made of `words`, texts every one in question holds one of (the literal text
    /// of a glob, the members of a list); `None` when one is empty or not ASCII, or they are
    /// too many to be worth asking. None at all is a text none holds.
    pub(crate) fn of_words<'w>(words: impl IntoIterator<Item = &'w str>) -> Option<Needles> {
        let mut bytes = Vec::new();
        for (count, word) in words.into_iter().enumerate() {
            if count >= MAX_STRINGS || word.is_empty() || !word.is_ascii() {
                return None;
            }
            // A text that holds a word holds its start.
            let start = word.as_bytes().get(..MAX_LEN).unwrap_or(word.as_bytes());
            bytes.push(u8::try_from(start.len()).ok()?);
            bytes.extend(start.iter().map(u8::to_ascii_lowercase));
        }
        Some(Needles(bytes.into_boxed_slice()))
    }

    /// Whether the ASCII text `text` contains one of the needles, ignoring ASCII case
    pub(crate) fn any_in(&self, text: &[u8]) -> bool {
        self.iter()
            .any(|needle| contains_ignoring_case(text, needle))
    }

    /// Each needle; bytes that end inside a needle end the walk (they are never written)
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u8]> {
        let mut rest: &[u8] = &self.0;
        std::iter::from_fn(move || {
            let (&len, tail) = rest.split_first()?;
            let (needle, after) = tail.split_at_checked(usize::from(len))?;
            rest = after;
            Some(needle)
        })
    }
}

impl Serialize for Needles {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Needles {
    /// Only the binary form holds needles, and it lends its bytes
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <&'de [u8]>::deserialize(deserializer).map(|bytes| Needles(bytes.into()))
    }
}

/// Whether `needle` (lowercase) occurs in `text`, ignoring ASCII case
fn contains_ignoring_case(text: &[u8], needle: &[u8]) -> bool {
    // A policy asks the same long command line about many needles: each is looked for by
    // its rarest byte, in both cases, a vector of bytes at a time, and each place found is
    // compared whole.
    let Some((rare_at, rare)) = needle
        .iter()
        .copied()
        .enumerate()
        .min_by_key(|(_, byte)| commonness(*byte))
    else {
        return true;
    };
    memchr::memchr2_iter(rare, rare.to_ascii_uppercase(), text).any(|at| {
        at.checked_sub(rare_at)
            .and_then(|start| text.get(start..start + needle.len()))
            .is_some_and(|window| window.eq_ignore_ascii_case(needle))
    })
}

/// How often a lowercase byte occurs in command lines, roughly: the blank, then letters in
/// their order of use in English, and the punctuation of options and paths; 0 for the rest
fn commonness(byte: u8) -> usize {
    const COMMON: &[u8] = b"wvkybgf.-/pumhdclrsnioate ";
    COMMON
        .iter()
        .position(|common| *common == byte)
        .map_or(0, |at| at + 1)
}

/// Sets of lowercase strings
type Strings = BTreeSet<Vec<u8>>;

/// What is known of the matches of a part of a pattern
struct Facts {
    /// Every string the part matches, lowercase, when they are few and short
    whole: Option<Strings>,
    /// Strings, none empty, of which every match of the part contains one
    inner: Option<Strings>,
}

impl Facts {
    fn of(hir: &Hir) -> Facts {
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => Facts::exactly(Strings::from([Vec::new()])),
            HirKind::Literal(literal) => Facts::exactly_or_none(
                literal
                    .0
                    .is_ascii()
                    .then(|| Strings::from([literal.0.to_ascii_lowercase()])),
            ),
            HirKind::Class(class) => Facts::exactly_or_none(class_strings(class)),
            HirKind::Capture(capture) => Facts::of(&capture.sub),
            HirKind::Repetition(repetition) => {
                let sub = Facts::of(&repetition.sub);
                let whole = match (repetition.min, repetition.max) {
                    (0, Some(0)) => Some(Strings::from([Vec::new()])),
                    (1, Some(1)) => sub.whole.clone(),
                    (0, Some(1)) => sub.whole.clone().map(|mut whole| {
                        whole.insert(Vec::new());
                        whole
                    }),
                    _ => None,
                };
                let inner = (repetition.min >= 1).then(|| sub.needles()).flatten();
                Facts { whole, inner }
            }
            HirKind::Concat(parts) => {
                Facts::concat(&parts.iter().map(Facts::of).collect::<Vec<_>>())
            }
            HirKind::Alternation(branches) => {
                let branches: Vec<Facts> = branches.iter().map(Facts::of).collect();
                Facts {
                    whole: union(branches.iter().map(|branch| branch.whole.clone())),
                    inner: union(branches.iter().map(Facts::needles))
                        .as_ref()
                        .and_then(needle_set),
                }
            }
        }
    }

    fn exactly(whole: Strings) -> Facts {
        Facts::exactly_or_none(Some(whole))
    }

    fn exactly_or_none(whole: Option<Strings>) -> Facts {
        let inner = whole.as_ref().and_then(needle_set);
        Facts { whole, inner }
    }

    /// The best strings of which every match contains one: the part's own, or its whole
    /// matches when none is empty
    fn needles(&self) -> Option<Strings> {
        let whole = self.whole.as_ref().and_then(needle_set);
        [self.inner.clone(), whole]
            .into_iter()
            .flatten()
            .max_by_key(rank)
    }

    /// A sequence: each part's needles hold for it, and so does each run of parts whose
    /// whole matches are known, joined (`d`, `r`, `o`, `p` give `drop`)
    fn concat(parts: &[Facts]) -> Facts {
        let mut best: Option<Strings> = None;
        let mut consider = |candidate: Option<Strings>| {
            if let Some(candidate) = candidate {
                if best
                    .as_ref()
                    .is_none_or(|best| rank(&candidate) > rank(best))
                {
                    best = Some(candidate);
                }
            }
        };
        for part in parts {
            consider(part.inner.clone());
        }
        for start in 0..parts.len() {
            let mut run = Strings::from([Vec::new()]);
            for part in parts.iter().skip(start) {
                let Some(longer) = part.whole.as_ref().and_then(|whole| joined(&run, whole)) else {
                    break;
                };
                run = longer;
                consider(needle_set(&run));
                // A longer run narrows no further (`rank`), and a pattern of thousands of
                // parts would otherwise cost a join for each pair of them.
                if run.iter().all(|string| string.len() >= LONG_ENOUGH) {
                    break;
                }
            }
        }
        let whole = parts
            .iter()
            .try_fold(Strings::from([Vec::new()]), |run, part| {
                joined(&run, part.whole.as_ref()?)
            });
        Facts { whole, inner: best }
    }
}

/// How much a set of needles narrows: a needle of four letters is about as rare as a
/// longer one, and fewer needles are quicker to look for
fn rank(strings: &Strings) -> (usize, std::cmp::Reverse<usize>, usize) {
    let shortest = strings.iter().map(Vec::len).min().unwrap_or(0);
    (
        shortest.min(4),
        std::cmp::Reverse(strings.len()),
        shortest.min(LONG_ENOUGH),
    )
}

/// `strings` as needles: none when one is empty (an empty needle is in every text), and
/// without those that hold another (whatever holds them holds the other)
fn needle_set(strings: &Strings) -> Option<Strings> {
    if strings.is_empty() || strings.iter().any(Vec::is_empty) {
        return None;
    }
    let holds = |outer: &[u8], inner: &[u8]| {
        outer.len() > inner.len() && outer.windows(inner.len()).any(|window| window == inner)
    };
    Some(
        strings
            .iter()
            .filter(|outer| !strings.iter().any(|inner| holds(outer, inner)))
            .cloned()
            .collect(),
    )
}

/// Every string of `left` followed by every string of `right`, when they stay few and short
fn joined(left: &Strings, right: &Strings) -> Option<Strings> {
    if left.len().saturating_mul(right.len()) > MAX_STRINGS {
        return None;
    }
    let mut out = Strings::new();
    for head in left {
        for tail in right {
            if head.len() + tail.len() > MAX_LEN {
                return None;
            }
            out.insert([head.as_slice(), tail.as_slice()].concat());
        }
    }
    Some(out)
}

/// The union of every set, when each is known and they stay few
fn union(sets: impl Iterator<Item = Option<Strings>>) -> Option<Strings> {
    let mut out = Strings::new();
    for set in sets {
        out.extend(set?);
        if out.len() > MAX_STRINGS {
            return None;
        }
    }
    Some(out)
}

/// The one-character strings of a class of few ASCII characters, lowercase
fn class_strings(class: &Class) -> Option<Strings> {
    let ranges: Vec<(u32, u32)> = match class {
        Class::Unicode(class) => class
            .ranges()
            .iter()
            .map(|range| (u32::from(range.start()), u32::from(range.end())))
            .collect(),
        Class::Bytes(class) => class
            .ranges()
            .iter()
            .map(|range| (u32::from(range.start()), u32::from(range.end())))
            .collect(),
    };
    let size: u32 = ranges.iter().map(|(start, end)| end - start + 1).sum();
    if size > MAX_CLASS {
        return None;
    }
    ranges
        .into_iter()
        .flat_map(|(start, end)| start..=end)
        .map(|code| {
            u8::try_from(code)
                .ok()
                .filter(u8::is_ascii)
                .map(|byte| vec![byte.to_ascii_lowercase()])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_automata::util::syntax;

    fn needles(source: &str) -> Option<Vec<String>> {
        let config = syntax::Config::new().unicode(false).utf8(false);
        let hir = syntax::parse_with(source, &config).unwrap();
        Needles::of(&hir).map(|needles| {
            needles
                .iter()
                .map(|n| String::from_utf8(n.to_vec()).unwrap())
                .collect()
        })
    }

    #[test]
    fn a_pattern_keeps_its_fewest_long_required_words() {
        assert_eq!(
            needles(r"(?i)\bdrop\s+table\b"),
            Some(vec!["table".to_owned()])
        );
        assert_eq!(
            needles(r"(?i)(https?://|www\.)"),
            Some(vec!["http".into(), "www.".into()])
        );
        assert_eq!(needles(r"^/dev/(sd|hd)"), Some(vec!["/dev/".into()]));
        assert_eq!(
            needles(r"^(sd|hd)[0-9]"),
            Some(vec!["hd".into(), "sd".into()])
        );
        assert_eq!(needles(r"x(ab)+c"), Some(vec!["ab".into()]));
        assert_eq!(
            needles(r"(rm|rmdir|unlink)$"),
            Some(vec!["rm".into(), "unlink".into()])
        );
    }

    #[test]
    fn a_pattern_that_may_match_anything_short_has_none() {
        for source in [r"a*", r"\w+", r"x?", r"^", r"(a|\w)b*", r"[a-z]{3}"] {
            assert_eq!(needles(source), None, "{source}");
        }
    }

    #[test]
    fn the_needles_of_words_are_the_words_in_lowercase() {
        let needles = Needles::of_words(["Send_", "http_post"]).unwrap();
        let found: Vec<&[u8]> = needles.iter().collect();
        assert_eq!(found, [b"send_".as_slice(), b"http_post".as_slice()]);
        let long = "x".repeat(MAX_LEN + 10);
        let needles = Needles::of_words([long.as_str()]).unwrap();
        assert!(needles.any_in(long.as_bytes()));
        assert_eq!(needles.iter().next().map(<[u8]>::len), Some(MAX_LEN));
        // Of an empty word or one beyond ASCII nothing is claimed; of no word, that no text
        // holds one.
        assert_eq!(Needles::of_words(["rm", ""]), None);
        assert_eq!(Needles::of_words(["rm", "größe"]), None);
        assert!(!Needles::of_words([]).unwrap().any_in(b"anything"));
    }

    #[test]
    fn needles_are_found_in_any_case() {
        let needles = Needles(b"\x04drop\x05flush".as_slice().into());
        assert!(needles.any_in(b"psql -c 'DROP TABLE x'"));
        assert!(needles.any_in(b"FlushAll"));
        assert!(!needles.any_in(b"ls -la"));
        assert!(!needles.any_in(b"dro"));
    }

    proptest::proptest! {
        /// Held to the plain reading: both texts in lowercase, and a window equal to the needle
        #[test]
        fn a_needle_is_found_where_a_window_of_the_lowered_text_is_it(
            text in proptest::collection::vec(proptest::sample::select(b"aAbB-_ \xc3".to_vec()), 0..40),
            needle in proptest::collection::vec(proptest::sample::select(b"ab-_".to_vec()), 1..4),
        ) {
            let lowered = text.to_ascii_lowercase();
            let plain = lowered.windows(needle.len()).any(|window| window == needle.as_slice());
            proptest::prop_assert_eq!(contains_ignoring_case(&text, &needle), plain);
        }
    }
}
