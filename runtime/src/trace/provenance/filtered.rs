//! A set of 64-bit hashes behind a blocked Bloom filter: the filter stays in a processor's
//! cache where the set does not, and answers most lookups of hashes the set lacks.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Bits in the filter per hash the set holds, at least: with three bits of one 64-bit word
/// per hash, about one lookup in fifty of a hash the set lacks passes it (a filter of fixed
/// size, 128 KB with two bits anywhere, let most of them pass once a label held 1 MB of
/// content, and each then missed the cache in the set)
const FILTER_BITS_PER_HASH: usize = 8;

/// The fewest 64-bit words of a filter
const MIN_FILTER_WORDS: usize = 16;

/// The hashes are already uniform: the set uses them as they are
#[derive(Debug, Default, Clone, Copy)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

type HashSetOf = HashSet<u64, BuildHasherDefault<Identity>>;

/// Hashes, and the filter in front of them
#[derive(Debug, Clone, Default)]
pub(super) struct FilteredSet {
    hashes: HashSetOf,
    /// Three bits of one word per hash in `hashes`, a power of two of words, empty until
    /// the first hash, grown with the set: a hash whose bits are not all set is not in
    /// `hashes`
    filter: Vec<u64>,
}

/// Equal when they hold the same hashes: the filter follows from them, and its size from
/// how the set grew
impl PartialEq for FilteredSet {
    fn eq(&self, other: &FilteredSet) -> bool {
        self.hashes == other.hashes
    }
}

impl Eq for FilteredSet {}

/// The word of a filter of `words` words (a power of two) that `hash` sets bits of, and
/// those three bits: the word from its low bits, the bits from its high ones
fn filter_bits(hash: u64, words: usize) -> (usize, u64) {
    let word = usize::try_from(hash).unwrap_or_default() & words.wrapping_sub(1);
    let bit = |shift: u32| 1_u64 << ((hash >> shift) & 63);
    (word, bit(40) | bit(46) | bit(52))
}

/// Sets the bits of `hash` in `filter`
fn set_filter_bits(filter: &mut [u64], hash: u64) {
    let (word, mask) = filter_bits(hash, filter.len());
    if let Some(bits) = filter.get_mut(word) {
        *bits |= mask;
    }
}

impl FilteredSet {
    /// The set of `hashes`
    pub(super) fn of(hashes: Vec<u64>) -> FilteredSet {
        let mut set = FilteredSet {
            hashes: hashes.into_iter().collect(),
            filter: Vec::new(),
        };
        if !set.hashes.is_empty() {
            set.rebuild_filter();
        }
        set
    }

    pub(super) fn len(&self) -> usize {
        self.hashes.len()
    }

    pub(super) fn contains(&self, hash: u64) -> bool {
        self.hashes.contains(&hash)
    }

    /// The hashes, sorted (so a file does not depend on the order of a hash set)
    pub(super) fn sorted(&self) -> Vec<u64> {
        let mut hashes: Vec<u64> = self.hashes.iter().copied().collect();
        hashes.sort_unstable();
        hashes
    }

    pub(super) fn insert(&mut self, hash: u64) {
        if !self.hashes.insert(hash) {
            return;
        }
        if self.hashes.len().saturating_mul(FILTER_BITS_PER_HASH) > self.filter.len() * 64 {
            self.rebuild_filter();
        } else {
            set_filter_bits(&mut self.filter, hash);
        }
    }

    /// Sizes the filter for the set as it is (a power of two of words, at least
    /// [`FILTER_BITS_PER_HASH`] bits per hash, so it doubles as the set grows and each hash
    /// is set again a bounded number of times) and sets the bits of every hash
    fn rebuild_filter(&mut self) {
        let needed = self.hashes.len().saturating_mul(FILTER_BITS_PER_HASH * 2) / 64;
        let words = needed.max(MIN_FILTER_WORDS).next_power_of_two();
        let mut filter = vec![0; words];
        for hash in &self.hashes {
            set_filter_bits(&mut filter, *hash);
        }
        self.filter = filter;
    }

    /// Whether `hash` is in the set: the filter first, whose answer is almost always no, so
    /// the branch on it is foreseen and the filter loads of words in a row overlap
    #[inline]
    pub(super) fn holds(&self, hash: u64) -> bool {
        let (word, mask) = filter_bits(hash, self.filter.len());
        self.filter
            .get(word)
            .is_some_and(|bits| bits & mask == mask)
            && self.hashes.contains(&hash)
    }
}
