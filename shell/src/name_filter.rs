//! A set of names that tells in a few instructions that a name is not among them.
//!
//! Every simple command of a line is looked up by its program's name in many tables, and
//! every `program in [...]` test of a policy compares it with long lists; most names are in
//! none of them. A filter of 1,024 bits, two per name (a Bloom filter), turns most such
//! misses into one hash and two bit tests; a name it may hold is then looked up as before,
//! so the answer never changes, only what a miss costs.

use std::hash::BuildHasher;

use foldhash::fast::FixedState;

/// How many 64-bit words hold the filter's bits
const WORDS: usize = 16;

/// The same hash in every process, so a filter means the same wherever it is built
const HASH: FixedState = FixedState::with_seed(0x7275_6c65_7363_0001);

/// The names a filter was given, kept as bits: [`NameFilter::may_hold`] is false for a name
/// it was never given, and true for every one it was
#[derive(Clone, Default, PartialEq, Eq)]
pub struct NameFilter {
    bits: [u64; WORDS],
}

impl NameFilter {
    /// Adds `name`
    pub fn insert(&mut self, name: &str) {
        for bit in probes(name) {
            if let Some(word) = self.bits.get_mut(bit / 64) {
                *word |= 1 << (bit % 64);
            }
        }
    }

    /// Whether `name` may have been added; false means it surely was not
    pub fn may_hold(&self, name: &str) -> bool {
        probes(name).into_iter().all(|bit| {
            self.bits
                .get(bit / 64)
                .is_some_and(|word| word & (1 << (bit % 64)) != 0)
        })
    }
}

impl<'a> FromIterator<&'a str> for NameFilter {
    fn from_iter<I: IntoIterator<Item = &'a str>>(names: I) -> NameFilter {
        let mut filter = NameFilter::default();
        for name in names {
            filter.insert(name);
        }
        filter
    }
}

impl std::fmt::Debug for NameFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let set: u32 = self.bits.iter().map(|word| word.count_ones()).sum();
        write!(f, "NameFilter({set} of {} bits set)", WORDS * 64)
    }
}

/// The two bits of `name`: two 10-bit fields of the high half of its hash
fn probes(name: &str) -> [usize; 2] {
    let hash = HASH.hash_one(name.as_bytes());
    [(hash >> 54) as usize, ((hash >> 44) & 0x3ff) as usize]
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::NameFilter;

    proptest! {
        /// The one promise a filter makes: a name it was given is never refused
        #[test]
        fn every_name_given_may_be_held(names in prop::collection::vec(".{0,12}", 0..300)) {
            let filter: NameFilter = names.iter().map(String::as_str).collect();
            for name in &names {
                prop_assert!(filter.may_hold(name));
            }
        }
    }

    #[test]
    fn an_empty_filter_holds_nothing_and_a_small_one_refuses_most_other_names() {
        let empty = NameFilter::default();
        assert!(!empty.may_hold("rm"));
        assert!(!empty.may_hold(""));
        let shells: NameFilter = ["sh", "bash", "zsh", "dash", "ksh", "fish"]
            .into_iter()
            .collect();
        let others = [
            "git", "cargo", "grep", "head", "tee", "date", "echo", "cd", "ls", "make",
        ];
        let refused = others.iter().filter(|name| !shells.may_hold(name)).count();
        // Twelve of 1,024 bits are set: a name outside passes both probes about once in
        // 7,000 tries, so all ten are refused unless the hash is broken.
        assert_eq!(refused, others.len());
    }
}
