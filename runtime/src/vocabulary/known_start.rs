//! Whether a pattern may match a word of which only the start is known before the line runs
//! (`myapp:$(git rev-parse HEAD)`, `--out=$DIR`).
//!
//! A shell condition on such a word is undecidable only when the word's run-time rest can
//! change its answer. A pattern that can only match from a text's first character
//! (`^(--output=|-o)?type=registry`, a glob, which matches the whole text) and that no text
//! going on from the known start can match is decided false: `docker build -t
//! myapp:$(git rev-parse HEAD) .` does not ask whether its tag is `--push`.
//!
//! The answer is worked out by walking the known start through the pattern's lazy DFA; a
//! pattern the DFA cannot walk (a Unicode word boundary against a byte past ASCII, a cache
//! that gives up) may match, so the worst case is kept.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, OnceLock, PoisonError};

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::hybrid::LazyStateID;
use regex_automata::{Anchored, Input};

/// Whether some text that starts with `known` may hold a match of the regular expression
/// `pattern` (source text, as a policy writes it); `true` whenever that cannot be ruled out
pub(crate) fn may_match(pattern: &str, known: &str) -> bool {
    // Building the automaton costs more than the rest of a call: only a pattern written to
    // match from the start (`^…`, after inline flags) is worth it.
    if known.is_empty() || !written_anchored(pattern) {
        return true;
    }
    // Its literal start alone often decides: `^/(etc|usr)` cannot match `s3://b/…`.
    if let Some(literal) = anchored_literal(pattern) {
        if !(known.starts_with(&literal) || literal.starts_with(known)) {
            return false;
        }
        if known.len() <= literal.len() {
            return true;
        }
    }
    let Some(automaton) = automaton(pattern) else {
        return true;
    };
    // A match may start anywhere in the unknown rest unless the pattern is anchored.
    if !automaton.dfa.get_nfa().is_always_start_anchored() {
        return true;
    }
    automaton
        .walked(|dfa, cache| !matches!(walk(dfa, cache, known, Anchored::Yes), Walked::Dead))
        .unwrap_or(true)
}

/// Whether every text that starts with `known` holds a match of `pattern` (source text) at
/// or before the end of `known`: walked through the pattern's lazy DFA as a search, a match
/// state on the way is a match within `known`, confirmed by the byte after it; at its end,
/// one is there for every text going on when each byte, and the text's end, lead to a match
/// state. `false` whenever that cannot be shown (a long pattern, a byte the DFA quits on).
pub(crate) fn must_match(pattern: &str, known: &str) -> bool {
    // As for `may_match`, only a pattern written to match from the start is walked (a
    // search that matches before the end was asked first).
    if known.is_empty() || !written_anchored(pattern) {
        return false;
    }
    // Every match holds the literal start whole: a known start that does not is decided by
    // its rest. (Cheaper than the walk, whose cache alone costs more than most calls' tests.)
    if !anchored_literal(pattern).is_some_and(|literal| known.starts_with(&literal)) {
        return false;
    }
    let Some(automaton) = automaton(pattern) else {
        return false;
    };
    automaton
        .walked(|dfa, cache| {
            let state = match walk(dfa, cache, known, Anchored::No) {
                Walked::Match => return true,
                Walked::Dead | Walked::Unsure => return false,
                Walked::End(state) => state,
            };
            let ends = dfa
                .next_eoi_state(cache, state)
                .is_ok_and(|end| end.is_match());
            ends && (0..=u8::MAX).all(|byte| {
                dfa.next_state(cache, state, byte)
                    .is_ok_and(|next| next.is_match())
            })
        })
        .unwrap_or(false)
}

/// Whether some path that starts with `known`, goes on with a name (any bytes but `/`, none
/// at all included) and ends with `end` may hold a match of the pattern of `automaton`
/// anywhere, as a search finds one: `(^|/)\.github/workflows/` cannot match `/tmp/tmp.`
/// and a name, nor `/tmp/tmp.`, a name and `/page.html`. The known start is walked through
/// the pattern's lazy DFA as a search; from where it ends, every state a name's bytes reach
/// is visited, and `end` walked from each: a match state on the way, or a text's end that
/// leads to one, may match. `true` whenever that cannot be ruled out (a long pattern, a
/// byte the DFA quits on, more states than are visited).
pub(crate) fn may_match_named(automaton: Option<&Automaton>, known: &str, end: &str) -> bool {
    let Some(automaton) = automaton else {
        return true;
    };
    automaton
        .walked(|dfa, cache| named_walk(dfa, cache, known, end, Paths::Some(&automaton.name_bytes)))
        .unwrap_or(true)
}

/// Whether every path that starts with `known`, goes on with a name (any bytes but `/`,
/// none at all included) and ends with `end` holds a match of the pattern of `automaton`, as
/// a search finds one: `^/(?:[^rhU].*)?$` of `/tmp/tmp.`, a name and `/`. Walked as
/// [`may_match_named`] walks, every state a name's bytes reach must lead, through `end` and
/// the text's end, to a match; `false` whenever that cannot be shown.
pub(crate) fn must_match_named(automaton: Option<&Automaton>, known: &str, end: &str) -> bool {
    let Some(automaton) = automaton else {
        return false;
    };
    automaton
        .walked(|dfa, cache| named_walk(dfa, cache, known, end, Paths::Every))
        .unwrap_or(false)
}

/// Which paths [`named_walk`] speaks of
#[derive(Debug, Clone, Copy)]
enum Paths<'a> {
    /// Some path may match: a name's bytes are tried one of each class the pattern tells
    /// apart (`Automaton::name_bytes`), which reach every state a name's bytes reach
    Some(&'a [u8]),
    /// Every path matches: every byte is tried, and only as UTF-8 allows (a path is text),
    /// since a byte no text holds there would reach the dead state of a pattern of Unicode
    /// classes, and say nothing of the paths
    Every,
}

impl Paths<'_> {
    /// The answer where the walk cannot tell: some path may match, every path is not shown to
    fn unsure(self) -> bool {
        matches!(self, Paths::Some(_))
    }

    /// The bytes a name may go on with after `utf8`, each with where it leaves UTF-8
    fn next_bytes(self, utf8: Utf8, out: &mut Vec<(u8, Utf8)>) {
        out.clear();
        match self {
            Paths::Some(bytes) => out.extend(bytes.iter().map(|&byte| (byte, Utf8::Boundary))),
            Paths::Every => out.extend(
                (0..=u8::MAX).filter_map(|byte| utf8.next(byte).map(|after| (byte, after))),
            ),
        }
    }
}

/// The walk of [`may_match_named`] and [`must_match_named`], on `dfa` with `cache`: `known`
/// walked as a search, then every state a name's bytes reach from there visited, and `end`
/// walked from each, with the text's end after it. For some path, a match state met on the
/// way answers yes, a dead one closes that way; for every path, a dead one answers no, a
/// match holds whatever follows it.
fn named_walk(dfa: &DFA, cache: &mut Cache, known: &str, end: &str, paths: Paths<'_>) -> bool {
    let some = matches!(paths, Paths::Some(_));
    let state = match walk(dfa, cache, known, Anchored::No) {
        Walked::Match => return true,
        Walked::Dead => return false,
        Walked::Unsure => return paths.unsure(),
        Walked::End(state) => state,
    };
    // Every byte, each where UTF-8 stands, makes more states to visit than one per class.
    let limit = if some {
        MAX_VISITED_STATES
    } else {
        MAX_VISITED_STATES * 4
    };
    let mut seen = vec![(state, Utf8::Boundary)];
    let mut next_bytes = Vec::new();
    let mut at = 0;
    while let Some(&(state, utf8)) = seen.get(at) {
        at += 1;
        paths.next_bytes(utf8, &mut next_bytes);
        for &(byte, after) in &next_bytes {
            let Ok(next) = dfa.next_state(cache, state, byte) else {
                return paths.unsure();
            };
            if next.is_match() {
                if some {
                    return true;
                }
                continue;
            }
            if next.is_quit() || next.is_unknown() {
                return paths.unsure();
            }
            if next.is_dead() {
                if some {
                    continue;
                }
                return false;
            }
            if seen.contains(&(next, after)) {
                continue;
            }
            if seen.len() == limit {
                return paths.unsure();
            }
            seen.push((next, after));
        }
    }
    let mut ends = seen
        .into_iter()
        .filter(|(_, utf8)| *utf8 == Utf8::Boundary)
        .map(|(state, _)| match walk_on(dfa, cache, state, end) {
            Walked::Match => true,
            Walked::Dead => false,
            Walked::Unsure => some,
            Walked::End(state) => dfa.next_eoi_state(cache, state).map_or(some, |last| {
                last.is_match() || (some && (last.is_quit() || last.is_unknown()))
            }),
        });
    if some {
        ends.any(|matches| matches)
    } else {
        ends.all(|matches| matches)
    }
}

/// Where a name's bytes are in UTF-8 (RFC 3629): between characters, or within one, with
/// the bytes still to come and the range of the next
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Utf8 {
    Boundary,
    Within { left: u8, low: u8, high: u8 },
}

impl Utf8 {
    /// Where `byte` of a name leads, `None` when no text holds it here (a `/` ends a name)
    fn next(self, byte: u8) -> Option<Utf8> {
        let within = |left, low, high| Some(Utf8::Within { left, low, high });
        match self {
            Utf8::Boundary => match byte {
                b'/' => None,
                0x00..=0x7f => Some(Utf8::Boundary),
                0xc2..=0xdf => within(1, 0x80, 0xbf),
                0xe0 => within(2, 0xa0, 0xbf),
                0xed => within(2, 0x80, 0x9f),
                0xe1..=0xef => within(2, 0x80, 0xbf),
                0xf0 => within(3, 0x90, 0xbf),
                0xf4 => within(3, 0x80, 0x8f),
                0xf1..=0xf3 => within(3, 0x80, 0xbf),
                _ => None,
            },
            Utf8::Within { left, low, high } => {
                if !(low..=high).contains(&byte) {
                    None
                } else if left == 1 {
                    Some(Utf8::Boundary)
                } else {
                    within(left - 1, 0x80, 0xbf)
                }
            }
        }
    }
}

/// The states a name's walk visits before it gives up and says "may match": the shipped
/// packs' path patterns reach a few (a name can only finish a match it has started).
const MAX_VISITED_STATES: usize = 64;

/// Where walking a known start through a pattern's DFA ends
enum Walked {
    /// In a match state: a match within the start, confirmed by the byte after it
    Match,
    /// In the dead state: no text going on from the start can match
    Dead,
    /// Where the DFA gave up (a byte it quits on, a full cache)
    Unsure,
    /// Past the start's last byte, in this state
    End(LazyStateID),
}

/// Walks `known` through `dfa`, from the start state of an `anchored` search
fn walk(dfa: &DFA, cache: &mut Cache, known: &str, anchored: Anchored) -> Walked {
    let input = Input::new(known).anchored(anchored);
    let Ok(state) = dfa.start_state_forward(cache, &input) else {
        return Walked::Unsure;
    };
    walk_on(dfa, cache, state, known)
}

/// Walks `text` through `dfa` from `state`
fn walk_on(dfa: &DFA, cache: &mut Cache, mut state: LazyStateID, text: &str) -> Walked {
    for &byte in text.as_bytes() {
        let Ok(next) = dfa.next_state(cache, state, byte) else {
            return Walked::Unsure;
        };
        state = next;
        if state.is_match() {
            return Walked::Match;
        }
        if state.is_dead() {
            return Walked::Dead;
        }
        if state.is_quit() || state.is_unknown() {
            return Walked::Unsure;
        }
    }
    Walked::End(state)
}

/// Longer patterns are not walked. Every anchored pattern of the shipped packs is shorter
/// (the longest, a list of API hosts, is under 1,000 bytes and builds in about 1 ms, once
/// per process): a pattern left unwalked leaves a rule's answer on a pattern word to its
/// `@undecidable` mode, and a guard that passes undecidable lines would let `/etc/*.conf`
/// through a test of `^/(etc|usr|…)/`.
const MAX_WALKED_PATTERN: usize = 1_024;

/// A pattern's [`Automaton`], taken from the process's memo on first use: a pattern asked
/// of each unknown word looks it up once
#[derive(Debug, Clone, Default)]
pub(crate) struct AutomatonCell(OnceLock<Option<Arc<Automaton>>>);

impl AutomatonCell {
    /// The automaton of `pattern` (the source of the pattern this cell belongs to)
    pub(crate) fn get(&self, pattern: &str) -> Option<&Automaton> {
        self.0.get_or_init(|| automaton(pattern)).as_deref()
    }
}

/// A pattern's lazy DFA and the cache of the states it has worked out, kept between walks:
/// making a cache costs more than most walks, and a call asks the same pattern of each
/// unknown word
#[derive(Debug)]
pub(crate) struct Automaton {
    dfa: DFA,
    cache: Mutex<Cache>,
    /// One byte of each class a name's bytes (all but `/`) fall in: bytes of a class move
    /// the DFA alike, so a state is left by a few dozen steps, not 255
    name_bytes: Vec<u8>,
}

impl Automaton {
    /// `walk(dfa, cache)` with the kept cache, or a fresh one while another thread holds
    /// it; `None` when the cache was cleared on the way, which leaves the states `walk`
    /// held meaningless
    fn walked<R>(&self, walk: impl FnOnce(&DFA, &mut Cache) -> R) -> Option<R> {
        let mut fresh;
        let mut kept = self.cache.try_lock().ok();
        let cache = match kept.as_deref_mut() {
            Some(cache) => cache,
            None => {
                fresh = self.dfa.create_cache();
                &mut fresh
            }
        };
        let clears = cache.clear_count();
        let answer = walk(&self.dfa, cache);
        (cache.clear_count() == clears).then_some(answer)
    }
}

/// The automaton of `pattern`, built once per process; `None` when it is too long or
/// cannot be built
fn automaton(pattern: &str) -> Option<Arc<Automaton>> {
    static MEMO: LazyLock<Mutex<HashMap<String, Option<Arc<Automaton>>>>> =
        LazyLock::new(Mutex::default);
    if pattern.len() > MAX_WALKED_PATTERN {
        return None;
    }
    let mut memo = MEMO.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(built) = memo.get(pattern) {
        return built.clone();
    }
    // A Unicode `\b` is walked as far as the text is ASCII; a byte past it quits.
    let config = DFA::config().unicode_word_boundary(true);
    let built = DFA::builder()
        .configure(config)
        .build(pattern)
        .ok()
        .map(|dfa| {
            let classes = dfa.byte_classes();
            let mut name_bytes: Vec<u8> = Vec::new();
            for byte in (0..=u8::MAX).filter(|&byte| byte != b'/') {
                let class = classes.get(byte);
                if !name_bytes.iter().any(|&seen| classes.get(seen) == class) {
                    name_bytes.push(byte);
                }
            }
            let cache = Mutex::new(dfa.create_cache());
            Arc::new(Automaton {
                dfa,
                cache,
                name_bytes,
            })
        });
    memo.insert(pattern.to_owned(), built.clone());
    built
}

/// Whether `pattern` begins with `^`, after any inline flag groups (`(?i)^…`): a pattern
/// anchored some other way (`(^a|^b)`) is taken to match anywhere, which only costs
/// precision
fn written_anchored(pattern: &str) -> bool {
    let mut rest = pattern;
    while let Some(flags) = rest.strip_prefix("(?") {
        match flags.split_once(')') {
            Some((names, after)) if names.chars().all(|c| c.is_ascii_alphabetic() || c == '-') => {
                rest = after;
            }
            _ => return false,
        }
    }
    rest.starts_with('^')
}

/// The literal text every match of the regular expression `source` starts with, when it is
/// anchored at the start by a leading `^` (`^/dev/` gives `/dev/`)
pub(crate) fn anchored_literal(source: &str) -> Option<String> {
    let rest = source.strip_prefix('^')?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    #[test]
    fn an_anchored_pattern_that_the_known_start_leaves_cannot_match() {
        let registry = r"^(?:--output=|-o)?(?:[a-z-]+=[^,]*,)*type=registry\b";
        assert!(!may_match(registry, "myapp:"));
        assert!(may_match(registry, "--output=name=x,"));
        assert!(may_match(registry, "type=reg"));
        assert!(!may_match("^-auto-approve(=.*)?$", "-auto-x"));
        assert!(may_match("^-auto-approve(=.*)?$", "-auto-approve="));
        assert!(!may_match("(?i)^--?destroy$", "--destroyed"));
        assert!(may_match("(?i)^--?destroy$", "--DES"));
    }

    #[test]
    fn a_long_list_of_folders_is_walked_as_a_short_one_is() {
        let folders: Vec<String> = (0..40).map(|at| format!("folder{at}")).collect();
        let pattern = format!(r"^/(\*?$|(etc|{})(/|$))", folders.join("|"));
        assert!(pattern.len() > 120);
        assert!(must_match(&pattern, "/etc/"));
        assert!(must_match(&pattern, "/folder39/x"));
        assert!(!must_match(&pattern, "/home/"));
        assert!(!may_match(&pattern, "/home/"));
        assert!(may_match(&pattern, "/folder3"));
    }

    #[test]
    fn only_a_pattern_written_from_the_start_is_walked() {
        assert!(written_anchored("^a"));
        assert!(written_anchored("(?i)^a"));
        assert!(written_anchored("(?is)(?-u)^a"));
        assert!(!written_anchored("(?:^|,)a"));
        assert!(!written_anchored("(?i:^a)"));
        assert!(!written_anchored("a^"));
        // Not walked, so it may match: precision lost, never a wrong `false`.
        assert!(may_match("(^ab|^cd)", "x"));
    }

    #[test]
    fn a_pattern_that_may_match_later_in_the_word_may_match() {
        assert!(may_match(r"(?:^|,)type=registry\b", "myapp:"));
        assert!(may_match("registry", "myapp:"));
        assert!(may_match("(?m)^x", "abc"));
        assert!(may_match("^a", ""));
    }

    #[test]
    fn a_match_within_the_known_start_may_match() {
        assert!(may_match("^ab", "abc"));
        assert!(may_match("^ab$", "ab"));
        assert!(!may_match("^ab$", "abc"));
        // A Unicode word boundary past ASCII is beyond the DFA: the worst case is kept.
        assert!(may_match(r"^é\b", "éa"));
    }

    /// `may_match_named` with the automaton of `pattern`, a name after `known` and nothing
    /// after the name
    fn named(pattern: &str, known: &str) -> bool {
        named_ending(pattern, known, "")
    }

    /// `may_match_named` with the automaton of `pattern`
    fn named_ending(pattern: &str, known: &str, end: &str) -> bool {
        may_match_named(automaton(pattern).as_deref(), known, end)
    }

    #[test]
    fn a_name_after_a_path_cannot_finish_a_match_that_needs_a_folder() {
        let workflows = r"(^|/)\.github/workflows/";
        assert!(!named(workflows, "/tmp/tmp."));
        assert!(!named(workflows, "/home/user/project/.github/"));
        assert!(named(workflows, "/home/user/project/.github/workflows/"));
        assert!(named(r"(^|/)\.env$", "/home/user/project/"));
        assert!(named("id_rsa", "/tmp/"));
        assert!(!named(r"^/dev/", "/home/"));
        assert!(named(r"\.pem$", "/tmp/key"));
        // Past ASCII, a Unicode word boundary quits the DFA: the worst case is kept.
        assert!(named(r"é\b", "/tmp/é"));
        // What follows the name is walked too.
        assert!(!named_ending(workflows, "/tmp/tmp.", "/page.html"));
        assert!(named_ending(
            workflows,
            "/tmp/tmp.",
            "/.github/workflows/ci.yml"
        ));
        assert!(named_ending(r"\.pem$", "/tmp/", ".pem"));
        assert!(!named_ending(r"\.pem$", "/tmp/", ".pem.txt"));
    }

    /// Whenever some name between the known start and end makes a path that matches (the
    /// `regex` crate's own search), `may_match_named` says it may
    #[test]
    fn no_name_that_makes_a_match_is_ruled_out() {
        let patterns = [
            r"(^|/)\.github/workflows/",
            r"(^|/)\.(ssh|aws|gnupg)(/|$)",
            r"\.(pem|key)$",
            r"(^|/)id_(rsa|ed25519)[^/]*$",
            r"^/(etc|usr)(/|$)",
            r"/\.git/(hooks|config)",
            r"(?i)(^|/)\.?env(\.[a-z]+)?$",
        ];
        let starts = [
            "/",
            "/tmp/tmp.",
            "/home/user/",
            "/home/user/.ss",
            "/p/.github/",
            "/p/.github/workflows/",
            "/etc",
            "/p/.git/",
            "/p/.git/hoo",
            "/p/x.",
            "/p/id_",
            "/p/.ENV",
        ];
        let names = [
            "",
            "a",
            "ssh",
            "h",
            ".ssh",
            "pem",
            "key",
            "rsa",
            "rsa.pub",
            "ed25519",
            "env",
            ".env",
            "env.local",
            "ENV",
            "hooks",
            "config",
            "etc",
            "workflows",
            "tc",
            ".aws",
            "s",
        ];
        let ends = [
            "",
            "/",
            ".pem",
            "/.github/workflows/x",
            "/config",
            "/id_rsa",
            ".env",
            "/x/y",
        ];
        for pattern in patterns {
            let regex = Regex::new(pattern).unwrap();
            for start in starts {
                for end in ends {
                    for name in names {
                        let path = format!("{start}{name}{end}");
                        if regex.is_match(&path) {
                            assert!(named_ending(pattern, start, end), "{pattern} on {path}");
                        }
                    }
                }
            }
        }
    }

    /// When every path of a start, a name and an end matches, the `regex` crate agrees
    /// on each name tried: a `true` is never wrong
    #[test]
    fn every_name_matches_when_all_must() {
        let patterns = [
            r"(?s)^(?:[^~/].*|/(?:[^rhU].*)?|/home(?:[^/].*)?|/home/[^/]*/(?:[^.].*)?)$",
            r"^/tmp/",
            r"^/(tmp|var)(/|$)",
            r"(^|/)\.github/workflows/",
            r"\.(pem|key)$",
            r"^/dev/",
        ];
        let starts = [
            "/tmp/tmp.",
            "/tmp/",
            "/home/u/x",
            "/home/u/.",
            "/var/x",
            "/dev/sd",
            "/p/x.",
        ];
        let names = [
            "", "a", ".", "..", ".ssh", "pem", "key", "x.y", "-rf", "~", "é",
        ];
        let ends = ["", "/page.html", ".pem", "/.github/workflows/x", "/a/b"];
        let mut decided = 0;
        for pattern in patterns {
            let regex = Regex::new(pattern).unwrap();
            for start in starts {
                for end in ends {
                    if !must_match_named(automaton(pattern).as_deref(), start, end) {
                        continue;
                    }
                    decided += 1;
                    for name in names {
                        let path = format!("{start}{name}{end}");
                        assert!(regex.is_match(&path), "{pattern} on {path}");
                    }
                }
            }
        }
        // Not vacuous: the plain paths' pattern and `^/tmp/` decide most of them.
        assert!(decided > 20, "{decided}");
        assert!(must_match_named(
            automaton(patterns[0]).as_deref(),
            "/tmp/tmp.",
            ""
        ));
        assert!(!must_match_named(
            automaton(patterns[0]).as_deref(),
            "/home/u/",
            ""
        ));
    }

    /// The answer agrees with the `regex` crate on every completion tried: whenever a
    /// completion of the known start matches, `may_match` says it may
    #[test]
    fn no_completion_that_matches_is_ruled_out() {
        let patterns = [
            r"^(?:--output=|-o)?(?:[a-z-]+=[^,]*,)*type=registry\b",
            "^-auto-approve(=.*)?$",
            r"^/(etc|usr|var/(lib|log))(/|$)",
            "(?i)^--?force(=(1|t|true))?$",
            r"^\.?/?[^/]*\.tfstate$",
        ];
        let starts = [
            "", "-", "--", "--out", "-o", "/", "/et", "/etc", "x", "myapp:", "-auto", "--FO",
        ];
        let rests = [
            "",
            "c",
            "put=type=registry",
            "type=registry",
            "-approve",
            "rce",
            "/hosts",
            "a.tfstate",
            "=true",
            "tc/x",
        ];
        for pattern in patterns {
            let regex = Regex::new(pattern).unwrap();
            for start in starts {
                for rest in rests {
                    let text = format!("{start}{rest}");
                    if regex.is_match(&text) {
                        assert!(may_match(pattern, start), "{pattern} on {text}");
                    }
                }
            }
        }
    }
}
