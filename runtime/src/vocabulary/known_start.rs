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
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

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
    let Some(dfa) = automaton(pattern) else {
        return true;
    };
    // A match may start anywhere in the unknown rest unless the pattern is anchored.
    if !dfa.get_nfa().is_always_start_anchored() {
        return true;
    }
    let mut cache = dfa.create_cache();
    !matches!(walk(&dfa, &mut cache, known, Anchored::Yes), Walked::Dead)
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
    let Some(dfa) = automaton(pattern) else {
        return false;
    };
    let mut cache = dfa.create_cache();
    let state = match walk(&dfa, &mut cache, known, Anchored::No) {
        Walked::Match => return true,
        Walked::Dead | Walked::Unsure => return false,
        Walked::End(state) => state,
    };
    let ends = dfa
        .next_eoi_state(&mut cache, state)
        .is_ok_and(|end| end.is_match());
    ends && (0..=u8::MAX).all(|byte| {
        dfa.next_state(&mut cache, state, byte)
            .is_ok_and(|next| next.is_match())
    })
}

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
    let Ok(mut state) = dfa.start_state_forward(cache, &input) else {
        return Walked::Unsure;
    };
    for &byte in known.as_bytes() {
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

/// The lazy DFA of `pattern`, built once per process (a call asks the same pattern of each
/// unknown word); `None` when it is too long or cannot be built
fn automaton(pattern: &str) -> Option<Arc<DFA>> {
    static MEMO: LazyLock<Mutex<HashMap<String, Option<Arc<DFA>>>>> = LazyLock::new(Mutex::default);
    if pattern.len() > MAX_WALKED_PATTERN {
        return None;
    }
    let mut memo = MEMO.lock().unwrap_or_else(PoisonError::into_inner);
    memo.entry(pattern.to_owned())
        .or_insert_with(|| {
            // A Unicode `\b` is walked as far as the text is ASCII; a byte past it quits.
            let config = DFA::config().unicode_word_boundary(true);
            DFA::builder()
                .configure(config)
                .build(pattern)
                .ok()
                .map(Arc::new)
        })
        .clone()
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
