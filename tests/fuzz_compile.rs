//! Fuzz target: the parser and the compiler (check, lints, inline tests, formatter,
//! compiled JSON) on hostile `.rules` text.
//!
//! For any input: no panic, no case slower than the harness allows; every diagnostic points
//! inside its file and renders in both forms; a policy that checks writes compiled JSON that
//! loads back to the same JSON and the same decisions; its inline tests run; formatting is idempotent. Inputs: the corpus and every `.rules` fixture of the
//! repository, typed rule files, token soup, raw bytes, and mutations of the seeds.
//! See `tests/fuzz/harness.rs` for how to run it longer.

use crate::gen;
use crate::harness;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rulesc::{Policy, RenderOptions, SourceBytes};

/// Folders whose files seed this target besides its corpus
const SEEDS: [&str; 5] = [
    "tests/ui",
    "rules",
    "tests/fmt",
    "examples",
    "tests/hostile/policies",
];

fn check(input: Vec<u8>) -> Result<(), TestCaseError> {
    let output = rulesc::check_sources(vec![SourceBytes {
        name: "fuzz.rules".to_owned(),
        path: "fuzz.rules".to_owned(),
        bytes: input,
        layer: rulesc::Layer::Project,
    }]);
    let files = output.diagnostics.files();
    let text = files.first().map_or("", |file| file.text.as_str());
    for diag in output.diagnostics.diagnostics() {
        for label in std::iter::once(&diag.primary).chain(&diag.secondary) {
            prop_assert!(
                text.get(label.span.range()).is_some(),
                "{} points outside the file: {:?}",
                diag.code.id,
                label.span
            );
        }
        prop_assert!(!diag.message.contains('\n'), "{:?}", diag.message);
    }
    let _ = output.diagnostics.render(RenderOptions::plain());
    let json: serde_json::Value = serde_json::from_str(&output.diagnostics.to_json())
        .map_err(|err| TestCaseError::fail(format!("diagnostic JSON: {err}")))?;
    prop_assert!(json.get("diagnostics").is_some());

    let has_errors = output
        .diagnostics
        .diagnostics()
        .iter()
        .any(|diag| diag.is_error());
    prop_assert_eq!(output.policy.is_some(), !has_errors);
    if let Some(policy) = &output.policy {
        let compiled = policy.to_json();
        let loaded = Policy::from_json(&compiled)
            .map_err(|err| TestCaseError::fail(format!("compiled JSON does not load: {err}")))?;
        prop_assert_eq!(loaded.to_json(), compiled);
        // Loaded back, it decides as the source did (docs/cli.md: "exactly the same behaviour"),
        // on every event of its inline tests and on one plain event of each kind.
        let plain = rulesc::EventKind::ALL.into_iter().map(|kind| {
            let mut event = rulesc::Event::new(kind);
            event.tool = Some("bash".to_owned());
            event.tool_calls = Some(0);
            event
        });
        let test_events = output
            .tests
            .iter()
            .flat_map(|test| test.steps.iter().map(|(event, _)| event.clone()));
        for event in plain.chain(test_events) {
            prop_assert_eq!(loaded.evaluate(&event), policy.evaluate(&event));
        }
        for test in &output.tests {
            let mut metadata = serde_json::Map::new();
            for (event, expectation) in &test.steps {
                let mut event = event.clone();
                for (key, value) in &metadata {
                    event
                        .metadata
                        .entry(key.clone())
                        .or_insert_with(|| value.clone());
                }
                let outcome = policy.evaluate(&event);
                let _ = expectation.is_met_by(&outcome);
                metadata = outcome.metadata;
            }
        }
    }

    if let Ok(formatted) = rulesc_compiler::format_source(text) {
        // Formatted text parses clean (`format_source` refuses text with syntax errors) and
        // formatting it again changes nothing.
        let again = rulesc_compiler::format_source(&formatted);
        prop_assert_eq!(
            again.as_deref(),
            Ok(formatted.as_str()),
            "formatting is not idempotent"
        );
    }
    Ok(())
}

/// Every seed file, to mutate
fn seed_files() -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = harness::files_below(&harness::corpus_dir("compile"))
        .into_iter()
        .map(|(_, bytes)| bytes)
        .collect();
    for folder in SEEDS {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
        seeds.extend(
            harness::files_below(&dir)
                .into_iter()
                .filter(|(path, _)| path.ends_with(".rules"))
                .map(|(_, bytes)| bytes),
        );
    }
    seeds
}

#[test]
fn fuzz_compile() {
    let inputs = prop_oneof![
        4 => gen::source().prop_map(String::into_bytes),
        1 => gen::token_soup().prop_map(String::into_bytes),
        1 => gen::bytes(),
        3 => gen::mutated(seed_files()),
    ];
    harness::fuzz("compile", file!(), 1, &SEEDS, inputs, check);
}
