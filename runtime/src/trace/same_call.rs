//! The identity of a tool call for `same_call_count`: a 64-bit FNV-1a hash of the tool's
//! name and of its arguments as canonical JSON (keys sorted, compact), so two calls are the
//! same exactly when their tool and arguments are, whatever the order of the keys.
//!
//! FNV-1a is written here rather than taken from `std`, whose hasher may change between
//! releases: the hash is kept in session files that outlive one build.

use std::fmt::Write as _;

use serde_json::Value as Json;

use crate::vocabulary::SortedJson;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// A hasher fed through `fmt::Write`, so JSON is hashed as it is written, never stored
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }
}

impl std::fmt::Write for Fnv {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.bytes(text.as_bytes());
        Ok(())
    }
}

/// The hash of a call of `tool` with `args` (`None`: no arguments, which is `null`)
pub(crate) fn call_hash(tool: Option<&str>, args: Option<&Json>) -> u64 {
    let mut hasher = Fnv(FNV_OFFSET);
    let tool = tool.unwrap_or_default();
    // The name's length first, so no tool name and arguments can run into each other.
    hasher.bytes(&tool.len().to_le_bytes());
    hasher.bytes(tool.as_bytes());
    // Writing JSON to a hasher cannot fail; were it to, the call would only hash differently.
    let _ = write!(hasher, "{}", SortedJson(args.unwrap_or(&Json::Null)));
    hasher.0
}
