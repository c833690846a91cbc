//! Compile once: the compiled policy kept in the state folder, so a hook call costs a file
//! read and a JSON parse rather than a full compile.
//!
//! An entry is named by a digest of the rulesc version and the policy's inputs (file names and
//! contents), and stores the inputs themselves next to the compiled policy
//! ([`Policy::to_json`]). Invariant: an entry is used only when its rulesc version and its
//! stored inputs equal the current ones byte for byte, so an edited policy, a digest
//! collision or an entry written by another rulesc release is simply a miss. Entries are
//! written whole and renamed into place, so concurrent hooks at worst compile twice. Inputs
//! that are not UTF-8 never make a policy (the compiler refuses them), so they bypass the
//! cache and are reported on every call.

use std::borrow::Cow;
use std::fs;
use std::path::{Path, PathBuf};

use rulesc_runtime::Policy;
use serde::{Deserialize, Serialize};

use super::digest::digest;
use super::state::write_atomically;

/// One file a policy is built from, as read from disk
///
/// Its identity for the cache is its name and contents, what the compiled policy depends
/// on; the path only serves diagnostics and is not stored, so running the hook from another
/// folder reuses the entry.
#[derive(Debug, Clone)]
pub struct Input {
    /// The name the loader gives it (rule ids and evaluations use it)
    pub name: String,
    /// The path as the user typed it, for diagnostics
    pub path: String,
    /// Its contents
    pub bytes: Vec<u8>,
}

/// An input as a cache entry stores it: its name and text
#[derive(Debug, Serialize, Deserialize)]
struct Stored<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow)]
    text: Cow<'a, str>,
}

/// A cache entry as written
#[derive(Debug, Serialize, Deserialize)]
struct Entry<'a> {
    /// The rulesc version that compiled it
    rulesc: String,
    /// The inputs it was compiled from
    #[serde(borrow)]
    inputs: Vec<Stored<'a>>,
    /// The compiled policy ([`Policy::to_json`])
    policy: String,
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
    let Some(texts) = texts(inputs) else {
        return compile().map(|policy| Cached {
            policy,
            warning: None,
        });
    };
    let path = entry_path(folder, inputs);
    if let Some(policy) = read_entry(&path, &texts) {
        return Ok(Cached {
            policy,
            warning: None,
        });
    }
    let policy = compile()?;
    let entry = Entry {
        rulesc: env!("CARGO_PKG_VERSION").to_owned(),
        inputs: texts,
        policy: policy.to_json(),
    };
    let warning = serde_json::to_vec(&entry)
        .map_err(std::io::Error::other)
        .and_then(|bytes| write_atomically(&path, &bytes))
        .err()
        .map(|err| format!("the compiled policy could not be cached: {err}"));
    Ok(Cached { policy, warning })
}

/// Where the entry for `inputs` lives
fn entry_path(folder: &Path, inputs: &[Input]) -> PathBuf {
    let version = env!("CARGO_PKG_VERSION");
    let parts = std::iter::once(version.as_bytes()).chain(
        inputs
            .iter()
            .flat_map(|input| [input.name.as_bytes(), input.bytes.as_slice()]),
    );
    folder.join(format!("{:016x}.json", digest(parts)))
}

/// Each input as name and text; `None` when one is not UTF-8
fn texts(inputs: &[Input]) -> Option<Vec<Stored<'_>>> {
    inputs
        .iter()
        .map(|input| {
            let text = std::str::from_utf8(&input.bytes).ok()?;
            Some(Stored {
                name: Cow::Borrowed(input.name.as_str()),
                text: Cow::Borrowed(text),
            })
        })
        .collect()
}

/// The cached policy at `path`, if there is one compiled by this rulesc from exactly `inputs`
fn read_entry(path: &Path, inputs: &[Stored<'_>]) -> Option<Policy> {
    // Any failure to read the entry is a miss: the policy is compiled again and the entry
    // rewritten.
    let text = fs::read_to_string(path).ok()?;
    let entry: Entry<'_> = serde_json::from_str(&text).ok()?;
    let same_inputs = entry.inputs.len() == inputs.len()
        && entry
            .inputs
            .iter()
            .zip(inputs)
            .all(|(cached, input)| cached.name == input.name && cached.text == input.text);
    if entry.rulesc != env!("CARGO_PKG_VERSION") || !same_inputs {
        return None;
    }
    Policy::from_json(&entry.policy).ok()
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

    #[test]
    fn a_second_load_is_a_hit_and_an_edit_is_a_miss() {
        let folder = tempfile::tempdir().unwrap();
        let compiles = Cell::new(0);
        let compile = || {
            compiles.set(compiles.get() + 1);
            Policy::new(Vec::new(), Defaults::default()).map_err(|err| err.to_string())
        };
        let first = load(folder.path(), &inputs("a"), compile).unwrap();
        assert_eq!(first.warning, None);
        assert_eq!(compiles.get(), 1);
        load(folder.path(), &inputs("a"), compile).unwrap();
        assert_eq!(compiles.get(), 1, "the second load is a hit");
        load(folder.path(), &inputs("b"), compile).unwrap();
        assert_eq!(compiles.get(), 2, "an edited policy is compiled again");
    }

    #[test]
    fn an_entry_with_other_inputs_under_the_same_name_is_a_miss() {
        let folder = tempfile::tempdir().unwrap();
        let empty = || Policy::new(Vec::new(), Defaults::default()).map_err(|e| e.to_string());
        load(folder.path(), &inputs("a"), empty).unwrap();
        // Forge a collision: the entry for "a" now claims to be for "b".
        let path = entry_path(folder.path(), &inputs("a"));
        let forged = fs::read_to_string(&path)
            .unwrap()
            .replace("\"text\":\"a\"", "\"text\":\"b\"");
        fs::write(&path, forged).unwrap();
        assert!(read_entry(&path, &texts(&inputs("a")).unwrap()).is_none());
    }

    #[test]
    fn inputs_that_are_not_text_are_compiled_every_time() {
        let folder = tempfile::tempdir().unwrap();
        let compiles = Cell::new(0);
        let compile = || {
            compiles.set(compiles.get() + 1);
            Policy::new(Vec::new(), Defaults::default()).map_err(|err| err.to_string())
        };
        let not_text = vec![Input {
            name: "guard.rules".to_owned(),
            path: "guard.rules".to_owned(),
            bytes: vec![0xff, 0xfe],
        }];
        load(folder.path(), &not_text, compile).unwrap();
        load(folder.path(), &not_text, compile).unwrap();
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
