//! The hash of a word's folded bytes, 16 bytes at a time: a word of up to 16 bytes is two
//! 64-bit numbers and its length, hashed with no loop over its bytes (what lets
//! [`super::words`] read a run of ASCII words in blocks). Equal for two byte strings
//! exactly when they are equal, but for 64-bit collisions.
//!
//! Labels written with another word hash cannot be read with this one: their JSON says
//! which hash made them ([`SCHEME`]).

/// The name of this word hash in a label's JSON
pub(super) const SCHEME: u32 = 2;

/// The state before any full block
const SEED: u64 = 0x243f_6a88_85a3_08d3;

/// Bytes hashed per step
const BLOCK: usize = 16;

/// The hash of a byte string of `len` bytes whose last block (1 to 16 bytes, little-endian,
/// zero past its end) is `lo` and `hi`, after full blocks that left `state` ([`SEED`] when
/// there were none)
#[inline]
pub(super) fn finish(state: u64, lo: u64, hi: u64, len: usize) -> u64 {
    let a = (lo ^ state).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let b = (hi ^ (len as u64).rotate_left(48)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let mut value = a.rotate_left(29) ^ b;
    value ^= value >> 32;
    value = value.wrapping_mul(0x94d0_49bb_1331_11eb);
    value ^ (value >> 29)
}

/// The hash of a word of at most 16 bytes, given as its two little-endian halves
#[inline]
pub(super) fn short(lo: u64, hi: u64, len: usize) -> u64 {
    finish(SEED, lo, hi, len)
}

/// A word's hash, fed a byte at a time (bytes past ASCII, percent escapes, long words)
#[derive(Clone)]
pub(super) struct WordHasher {
    state: u64,
    block: [u8; BLOCK],
    /// Bytes in `block`: 1 to 16 once a byte was pushed, so the last block is never empty
    in_block: usize,
    len: usize,
}

impl Default for WordHasher {
    fn default() -> WordHasher {
        WordHasher {
            state: SEED,
            block: [0; BLOCK],
            in_block: 0,
            len: 0,
        }
    }
}

impl WordHasher {
    /// Adds one folded byte
    #[inline]
    pub(super) fn push(&mut self, byte: u8) {
        if self.in_block == BLOCK {
            let (lo, hi) = halves(&self.block);
            self.state = finish(self.state, lo, hi, BLOCK);
            self.block = [0; BLOCK];
            self.in_block = 0;
        }
        if let Some(slot) = self.block.get_mut(self.in_block) {
            *slot = byte;
        }
        self.in_block += 1;
        self.len += 1;
    }

    /// Adds folded bytes
    pub(super) fn extend(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.push(*byte);
        }
    }

    /// The hash of the bytes pushed
    pub(super) fn finish(&self) -> u64 {
        let (lo, hi) = halves(&self.block);
        finish(self.state, lo, hi, self.len)
    }
}

/// The hash of `bytes`, already folded
pub(super) fn of(bytes: &[u8]) -> u64 {
    let mut hasher = WordHasher::default();
    hasher.extend(bytes);
    hasher.finish()
}

/// A block's two little-endian halves
fn halves(block: &[u8; BLOCK]) -> (u64, u64) {
    let mut lo = [0; 8];
    let mut hi = [0; 8];
    lo.copy_from_slice(block.get(..8).unwrap_or(&[0; 8]));
    hi.copy_from_slice(block.get(8..).unwrap_or(&[0; 8]));
    (u64::from_le_bytes(lo), u64::from_le_bytes(hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_word_hashes_alike_fed_whole_or_byte_by_byte() {
        for word in ["ab", "abcdefgh", "abcdefghijklmnop", "9"] {
            let mut padded = [0_u8; 16];
            padded
                .get_mut(..word.len())
                .unwrap_or_default()
                .copy_from_slice(word.as_bytes());
            let (lo, hi) = halves(&padded);
            assert_eq!(short(lo, hi, word.len()), of(word.as_bytes()), "{word}");
        }
    }

    #[test]
    fn lengths_and_blocks_tell_words_apart() {
        // A word and the same bytes followed by zero bytes, and words across a block's end.
        let words: [&[u8]; 6] = [
            b"a",
            b"a\0",
            b"abcdefghijklmnop",
            b"abcdefghijklmnopq",
            b"abcdefghijklmnopabcdefghijklmnop",
            b"abcdefghijklmnopabcdefghijklmnopq",
        ];
        let hashes: std::collections::HashSet<u64> = words.iter().map(|word| of(word)).collect();
        assert_eq!(hashes.len(), words.len());
    }
}
