//! A SHA-256 digest of several byte strings, for names of files derived from their
//! contents, and for checking that a file is the one that was written.
//!
//! Invariant: parts are length-prefixed, so `["ab", "c"]` and `["a", "bc"]` differ, and the
//! digest is SHA-256, so two different inputs never share a name in practice: a cache entry
//! named by its inputs' digest is the entry of those inputs.

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
}
