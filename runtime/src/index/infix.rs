//! `*text*` globs matched together: one Aho-Corasick automaton over their texts finds, in
//! one pass over a string, every text it contains.
//!
//! They could go into the regular-expression set of other globs, but building that set
//! costs a hook call (a fresh process) hundreds of microseconds the first time an event
//! needs it, where this automaton costs a few. Invariant: each text is one pattern of the
//! automaton, so a rule is visited once however often its text occurs.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use tracing::warn;

use super::{unproven, Candidate};

/// The rules keyed by "the string contains this text", with the automaton built on first use
#[derive(Debug, Clone)]
pub(super) struct InfixGroup {
    /// The texts, each once, by pattern number
    texts: Vec<String>,
    /// The rules of each text, by pattern number
    rules: Vec<Vec<Candidate>>,
    automaton: OnceLock<Option<AhoCorasick>>,
}

impl InfixGroup {
    /// The group of `texts`, none when there are none
    pub(super) fn new(texts: BTreeMap<&str, Vec<Candidate>>) -> Option<InfixGroup> {
        if texts.is_empty() {
            return None;
        }
        let (texts, rules) = texts
            .into_iter()
            .map(|(text, rules)| (text.to_owned(), rules))
            .unzip();
        Some(InfixGroup {
            texts,
            rules,
            automaton: OnceLock::new(),
        })
    }

    /// Builds the automaton now rather than on first use
    pub(super) fn prepare(&self) {
        self.automaton();
    }

    fn automaton(&self) -> Option<&AhoCorasick> {
        self.automaton
            .get_or_init(|| {
                // Without a prefilter: building one is most of the automaton's cost, which a
                // hook call (a fresh process) pays on every event that needs it, while the
                // automaton alone already reads a value in one pass.
                AhoCorasick::builder()
                    .prefilter(false)
                    .build(&self.texts)
                    .inspect_err(|err| {
                        warn!(target: "rulesc::index", error = %err, "infix globs left unindexed");
                    })
                    .ok()
            })
            .as_ref()
    }

    /// Visits the rules of every text `text` contains
    pub(super) fn visit(&self, text: &str, visit: &mut impl FnMut(Candidate)) {
        let Some(automaton) = self.automaton() else {
            // Unindexed: slower, never wrong.
            self.rules
                .iter()
                .flatten()
                .copied()
                .map(unproven)
                .for_each(visit);
            return;
        };
        // Checked first so that an event no text occurs in allocates nothing.
        if !automaton.is_match(text) {
            return;
        }
        let mut seen = vec![false; self.texts.len()];
        for found in automaton.find_overlapping_iter(text) {
            let pattern = found.pattern().as_usize();
            match seen.get_mut(pattern) {
                Some(seen) if !*seen => *seen = true,
                _ => continue,
            }
            if let Some(rules) = self.rules.get(pattern) {
                rules.iter().copied().for_each(&mut *visit);
            }
        }
    }
}
