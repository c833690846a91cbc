//! A stable 64-bit digest (FNV-1a) for file names derived from text.
//!
//! Invariant: the digest only names files; nothing trusts it for identity. Cache entries
//! store and compare the full sources, and session files keep readable ids whenever the id
//! is a safe file name, so a collision can cost a cache miss but never a wrong answer.
//! FNV-1a is used rather than `std`'s `DefaultHasher` because its output must not change
//! between Rust releases: the names outlive the binary that wrote them.

const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// The FNV-1a digest of `parts`, each one length-prefixed so `["ab", "c"]` and `["a", "bc"]`
/// differ
pub(crate) fn digest<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    let mut hash = OFFSET_BASIS;
    let mut feed = |bytes: &[u8]| {
        for byte in bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(PRIME);
        }
    };
    for part in parts {
        feed(&(part.len() as u64).to_le_bytes());
        feed(part);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_length_prefixed() {
        let ab_c = digest([b"ab".as_slice(), b"c".as_slice()]);
        let a_bc = digest([b"a".as_slice(), b"bc".as_slice()]);
        assert_ne!(ab_c, a_bc);
    }

    #[test]
    fn the_digest_is_stable() {
        // Pinned (FNV-1a of the 8-byte little-endian length 6, then `rulesc`): a change here
        // renames every cache and session file users already have.
        assert_eq!(digest([b"rulesc".as_slice()]), 0x6e47_eab0_7021_72ab);
    }
}
