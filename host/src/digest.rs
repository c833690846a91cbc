//! A SHA-256 digest of several byte strings, for names of files derived from their
//! contents, and a fast checksum, for checking that a file holds what was written.
//!
//! Invariant: parts are length-prefixed, so `["ab", "c"]` and `["a", "bc"]` differ, and the
//! digest is SHA-256, so two different inputs never share a name in practice: a cache entry
//! named by its inputs' digest is the entry of those inputs. The checksum finds damage
//! (a truncated or corrupted file), not forgery: whoever can write a file can write its
//! checksum, so what keeps others' files out is the private folder (`private.rs`).

use sha2::{Digest, Sha256};

/// The SHA-256 of `parts`, each prefixed by its length, in lowercase hex
pub(crate) fn digest<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(64);
    for byte in hasher.finalize() {
        for nibble in [byte >> 4, byte & 0xf] {
            text.push(char::from(
                HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'),
            ));
        }
    }
    text
}

/// The XXH3-128 checksum of `bytes`, as `xxh3:` and lowercase hex: many times faster than
/// [`digest`], which a hook call, reading a cache entry on every call, cannot afford
pub(crate) fn checksum(bytes: &[u8]) -> String {
    format!("xxh3:{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
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
    fn the_digest_is_sha256_of_the_length_prefixed_parts() {
        // SHA-256 of the 8-byte little-endian length 6, then `rulesc`, as `sha256sum`
        // computes it: `printf '\x06\0\0\0\0\0\0\0rulesc' | sha256sum`.
        assert_eq!(
            digest([b"rulesc".as_slice()]),
            "3c7c2f75c2bb7928a39000b6f55ee770533ec0dac5a552ffdf3e5ec9bb8a20cb"
        );
    }

    #[test]
    fn the_checksum_is_xxh3_128_and_tells_one_flipped_bit() {
        // XXH3-128 of the empty input, as the reference implementation gives it (Python's
        // `xxhash.xxh3_128_hexdigest(b"")`, `xxhsum -H2 /dev/null`).
        assert_eq!(checksum(b""), "xxh3:99aa06d3014798d86001c324468d497f");
        let bytes = b"on pre_tool_use when tool == \"rm\" block".to_vec();
        let mut flipped = bytes.clone();
        if let Some(byte) = flipped.get_mut(7) {
            *byte ^= 1;
        }
        assert_ne!(checksum(&bytes), checksum(&flipped));
    }
}
