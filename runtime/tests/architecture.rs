//! The runtime's floors (its `lib.rs` and ARCHITECTURE.md): a module imports only from its
//! own floor and the floors below, so the vocabulary never depends on the engine and the
//! engine never on the agent loop.
//!
//! Read from the source text: every `crate::<module>` path in a module must name a module
//! of the same floor or a lower one, and a module of the vocabulary may name nothing of the
//! crate outside `vocabulary`.

#![expect(
    clippy::unwrap_used,
    reason = "helpers of tests: a source that cannot be read fails the test"
)]

use std::path::Path;

/// Each top module of `runtime/src` with its floor, lowest first
const FLOORS: [(&str, u8); 46] = [
    ("vocabulary", 0),
    ("event", 1),
    ("outcome", 1),
    ("run", 1),
    ("arith", 2),
    ("bounds", 2),
    ("checked_rule", 2),
    ("compact", 2),
    ("evaluate", 2),
    ("format", 2),
    ("handle", 2),
    ("heads", 2),
    ("index", 2),
    ("native_hook", 2),
    ("policy", 2),
    ("prelude", 2),
    ("read", 2),
    ("policy_error", 2),
    ("postfix", 2),
    ("programs", 2),
    ("encoded", 2),
    ("render", 2),
    ("resolve", 2),
    ("shared_bytes", 2),
    ("shell", 2),
    ("trace", 2),
    ("watched", 2),
    ("agent_loop", 3),
    ("checkpoint", 3),
    ("driver", 3),
    ("guard", 3),
    ("report", 3),
    ("script", 3),
    ("state", 3),
    // Not modules of their own floor: the crate root re-exports every floor, and `index`'s
    // children (and `shell`'s and `programs`') belong to the engine.
    ("lib", 4),
    ("trie", 2),
    ("infix", 2),
    ("window", 2),
    ("same_call", 2),
    ("provenance", 2),
    ("words", 2),
    ("word_hash", 2),
    ("filtered", 2),
    ("by_program", 2),
    ("by_name", 2),
    ("fields", 2),
];

fn floor_of(module: &str) -> Option<u8> {
    FLOORS
        .iter()
        .find(|(name, _)| *name == module)
        .map(|(_, floor)| *floor)
}

/// Every `.rs` file under `dir`, with its path relative to `runtime/src`
fn sources(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

/// The modules a source names as `crate::<module>`
fn crate_paths(text: &str) -> Vec<String> {
    let mut named = Vec::new();
    let mut rest = text;
    while let Some((_, after)) = rest.split_once("crate::") {
        let module: String = after
            .chars()
            .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
            .collect();
        named.push(module);
        rest = after;
    }
    named
}

#[test]
fn every_module_imports_only_from_its_floor_and_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 20, "the sources were found");
    let mut breaches = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let in_vocabulary = relative.starts_with("vocabulary");
        let module = if in_vocabulary {
            "vocabulary".to_owned()
        } else {
            relative.file_stem().unwrap().to_string_lossy().into_owned()
        };
        let floor = floor_of(&module)
            .unwrap_or_else(|| panic!("`{}` has no floor in FLOORS", relative.display()));
        let text = std::fs::read_to_string(file).unwrap();
        for named in crate_paths(&text) {
            let allowed = match floor_of(&named) {
                Some(named_floor) if in_vocabulary => named_floor == 0,
                Some(named_floor) => named_floor <= floor,
                // A crate-root item (`crate::MAX_RULES` in a doc link): only the root may.
                None => !in_vocabulary,
            };
            if !allowed {
                breaches.push(format!("{} names crate::{named}", relative.display()));
            }
        }
    }
    assert!(breaches.is_empty(), "{breaches:#?}");
}

#[test]
fn the_check_sees_a_breach() {
    // The check above must be able to fail: a vocabulary module naming the engine.
    assert_eq!(
        crate_paths("use crate::policy::Policy; see crate::vocabulary::Verb"),
        ["policy", "vocabulary"]
    );
    assert_eq!(floor_of("policy"), Some(2));
    assert!(floor_of("policy") > floor_of("vocabulary"));
}
