//! Compile once: the compiled policy kept in the state folder, so a hook call costs a file
//! read and a JSON parse rather than a full compile.
//!
//! An entry is named by the SHA-256 digest of the rulesc version and the policy's inputs
//! (file names and bytes). It holds a line of JSON with that key, the rulesc version and the
//! SHA-256 of the rest, then the compiled policy in postcard's binary form
//! ([`Policy::to_compact`]), which a hook call, reading one on every call, loads several
//! times faster than the policy's JSON.
//! Invariant: an entry is used only when its version, its key and the checksum of its
//! policy all match, so an edited policy, an entry of another rulesc release, a truncated
//! or corrupted file is simply a miss: the policy is compiled again and the entry
//! rewritten, and no damage to the cache can change a decision. Entries are written whole
//! and renamed into place, so concurrent hooks at worst compile twice. Inputs that are not
//! UTF-8 never make a policy (the compiler refuses them), so a broken policy of any kind is
//! never cached and is reported on every call.

use std::fs;
use std::path::{Path, PathBuf};

use postcard::ser_flavors::Flavor;
use rulesc_runtime::Policy;
use serde::{Deserialize, Serialize};

use crate::digest::digest;
use crate::state::write_atomically;

/// One file a policy is built from, as read from disk
///
/// Its identity for the cache is its name and contents, what the compiled policy depends
/// on; the path only serves diagnostics, so running the hook from another folder reuses the
/// entry.
#[derive(Debug, Clone)]
pub struct Input {
    /// The name the loader gives it (rule ids and evaluations use it)
    pub name: String,
    /// The path as the user typed it, for diagnostics
    pub path: String,
    /// Its contents
    pub bytes: Vec<u8>,
}

/// The first line of a cache entry; the compiled policy follows
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    /// The rulesc version that compiled it
    rulesc: String,
    /// The digest of the version and the inputs it was compiled from (its file's name)
    key: String,
    /// The SHA-256 of the compiled policy after the line
    checksum: String,
}

/// A policy from the cache or freshly compiled
#[derive(Debug)]
pub(crate) struct Cached {
    /// The policy
    pub(crate) policy: Policy,
    /// Why a fresh compile could not be cached, for stderr
    pub(crate) warning: Option<String>,
}

/// The policy compiled from `inputs`: from the cache in `folder` when an entry matches, else
/// from `compile`, whose result is then cached
///
/// `compile`'s error (the policy's diagnostics, as one line) is returned as is and never
/// cached: a broken policy is compiled, and reported, on every call until it is fixed.
pub(crate) fn load(
    folder: &Path,
    inputs: &[Input],
    compile: impl FnOnce() -> Result<Policy, String>,
) -> Result<Cached, String> {
    let key = key(inputs);
    let path = entry_path(folder, &key);
    if let Some(policy) = read_entry(&path, &key) {
        return Ok(Cached {
            policy,
            warning: None,
        });
    }
    let policy = compile()?;
    let warning = entry(&policy, key)
        .and_then(|entry| write_atomically(&path, &entry))
        .err()
        .map(|err| format!("the compiled policy could not be cached: {err}"));
    Ok(Cached { policy, warning })
}

/// The entry of `policy`, compiled from the inputs whose digest is `key`
fn entry(policy: &Policy, key: String) -> std::io::Result<Vec<u8>> {
    let mut serializer = postcard::Serializer {
        output: postcard::ser_flavors::AllocVec::new(),
    };
    policy
        .to_compact(&mut serializer)
        .map_err(std::io::Error::other)?;
    let compact = serializer
        .output
        .finalize()
        .map_err(std::io::Error::other)?;
    let header = Header {
        rulesc: env!("CARGO_PKG_VERSION").to_owned(),
        checksum: digest([compact.as_slice()]),
        key,
    };
    let mut entry = serde_json::to_vec(&header).map_err(std::io::Error::other)?;
    // Compact JSON holds no raw line break, so the first one ends the header.
    entry.push(b'\n');
    entry.extend_from_slice(&compact);
    Ok(entry)
}

/// The digest that names the entry of `inputs` compiled by this rulesc
fn key(inputs: &[Input]) -> String {
    let version = env!("CARGO_PKG_VERSION");
    digest(
        std::iter::once(version.as_bytes()).chain(
            inputs
                .iter()
                .flat_map(|input| [input.name.as_bytes(), input.bytes.as_slice()]),
        ),
    )
}

/// Where the entry named `key` lives in `folder`
fn entry_path(folder: &Path, key: &str) -> PathBuf {
    folder.join(format!("{key}.bin"))
}

/// The cached policy at `path`, if its entry is whole and was compiled by this rulesc from
/// the inputs whose digest is `key`
fn read_entry(path: &Path, key: &str) -> Option<Policy> {
    // Any failure to read the entry is a miss: the policy is compiled again and the entry
    // rewritten.
    let bytes = fs::read(path).ok()?;
    let line_end = bytes.iter().position(|byte| *byte == b'\n')?;
    let (header, compact) = (bytes.get(..line_end)?, bytes.get(line_end + 1..)?);
    let header: Header = serde_json::from_slice(header).ok()?;
    let whole = header.rulesc == env!("CARGO_PKG_VERSION")
        && header.key == key
        && header.checksum == digest([compact]);
    if !whole {
        return None;
    }
    // The entry holds a policy this rulesc checked when it compiled it, and the checksum
    // proves it unchanged, so its regular expressions may compile on first use.
    Policy::from_checked_compact(&mut postcard::Deserializer::from_bytes(compact)).ok()
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use rulesc_runtime::Defaults;

    use super::*;

    fn inputs(text: &str) -> Vec<Input> {
        vec![Input {
            name: "guard.rules".to_owned(),
            path: "policy/guard.rules".to_owned(),
            bytes: text.as_bytes().to_vec(),
        }]
    }

    fn counting(compiles: &Cell<u32>) -> impl Fn() -> Result<Policy, String> + '_ {
        move || {
            compiles.set(compiles.get() + 1);
            Policy::new(Vec::new(), Defaults::default()).map_err(|err| err.to_string())
        }
    }

    #[test]
    fn a_second_load_is_a_hit_and_an_edit_is_a_miss() {
        let folder = tempfile::tempdir().unwrap();
        let compiles = Cell::new(0);
        let first = load(folder.path(), &inputs("a"), counting(&compiles)).unwrap();
        assert_eq!(first.warning, None);
        assert_eq!(compiles.get(), 1);
        load(folder.path(), &inputs("a"), counting(&compiles)).unwrap();
        assert_eq!(compiles.get(), 1, "the second load is a hit");
        load(folder.path(), &inputs("b"), counting(&compiles)).unwrap();
        assert_eq!(compiles.get(), 2, "an edited policy is compiled again");
    }

    #[test]
    fn a_damaged_or_foreign_entry_is_a_miss_and_is_rewritten() {
        let folder = tempfile::tempdir().unwrap();
        let compiles = Cell::new(0);
        load(folder.path(), &inputs("a"), counting(&compiles)).unwrap();
        let path = entry_path(folder.path(), &key(&inputs("a")));
        let written = fs::read(&path).unwrap();
        let line = |entry: &[u8]| entry.iter().position(|byte| *byte == b'\n').unwrap() + 1;
        // Another policy, one that allows every tool call, under this entry's header.
        let allowing = Policy::new(
            Vec::new(),
            Defaults {
                pre_tool_use: Some(rulesc_runtime::Verb::Allow),
                on_error: None,
            },
        )
        .unwrap();
        let other = entry(&allowing, key(&inputs("a"))).unwrap();
        let swapped = [&written[..line(&written)], &other[line(&other)..]].concat();
        let replaced = |from: &str, to: &str| {
            String::from_utf8_lossy(&written)
                .replacen(from, to, 1)
                .into_bytes()
        };
        let damages = [
            // A decision changed inside the policy: the checksum no longer matches.
            swapped,
            // Another key: the entry of other inputs, renamed.
            replaced("\"key\":\"", "\"key\":\"0"),
            // Another release's entry.
            replaced(env!("CARGO_PKG_VERSION"), "0.0.0-other"),
            // Truncated.
            written[..written.len() / 2].to_vec(),
        ];
        for (attempt, damaged) in damages.into_iter().enumerate() {
            assert_ne!(damaged, written, "damage {attempt} changed nothing");
            fs::write(&path, damaged).unwrap();
            let before = compiles.get();
            load(folder.path(), &inputs("a"), counting(&compiles)).unwrap();
            assert_eq!(compiles.get(), before + 1, "damage {attempt} was used");
            assert_eq!(fs::read(&path).unwrap(), written);
        }
    }

    #[test]
    fn an_entry_holds_the_policy_whole() {
        let folder = tempfile::tempdir().unwrap();
        let policy = Policy::new(
            Vec::new(),
            Defaults {
                pre_tool_use: Some(rulesc_runtime::Verb::Ask),
                on_error: Some(rulesc_runtime::Verb::Retry),
            },
        )
        .unwrap();
        let first = load(folder.path(), &inputs("a"), || Ok(policy.clone())).unwrap();
        let never = || -> Result<Policy, String> { panic!("a hit compiles nothing") };
        let hit = load(folder.path(), &inputs("a"), never).unwrap();
        assert_eq!(hit.policy.to_json(), first.policy.to_json());
        assert_eq!(hit.policy.defaults(), policy.defaults());
    }

    #[test]
    fn inputs_that_are_not_text_are_compiled_every_time() {
        let folder = tempfile::tempdir().unwrap();
        let not_text = vec![Input {
            name: "guard.rules".to_owned(),
            path: "guard.rules".to_owned(),
            bytes: vec![0xff, 0xfe],
        }];
        let compiles = Cell::new(0);
        let refuse = || {
            compiles.set(compiles.get() + 1);
            Err::<Policy, _>("E004".to_owned())
        };
        assert!(load(folder.path(), &not_text, refuse).is_err());
        assert!(load(folder.path(), &not_text, refuse).is_err());
        assert_eq!(compiles.get(), 2);
        assert_eq!(fs::read_dir(folder.path()).unwrap().count(), 0);
    }

    #[test]
    fn compile_errors_are_returned_and_not_cached() {
        let folder = tempfile::tempdir().unwrap();
        let err = load(folder.path(), &inputs("x"), || Err("1 error".to_owned())).unwrap_err();
        assert_eq!(err, "1 error");
        assert_eq!(fs::read_dir(folder.path()).unwrap().count(), 0);
    }
}
