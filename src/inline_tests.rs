//! Running the inline `test` blocks of a policy (docs/language.md §7), for `rulesc test` and the
//! Python bindings' `Policy.test()`.
//!
//! A test's events run in order as one execution ([`crate::events::Session`]), as `rulesc
//! eval` runs JSON Lines. A step passes when the outcome has the expected decision and, when
//! the `expect` line gives them, stop reason and `resolved_by`.
//!
//! Invariant: the JSON here is `rulesc test --format json`'s, whoever prints it.

use rulesc_compiler::{Expectation, SourceFile, TestCase};
use rulesc_runtime::{Outcome, Policy};
use serde_json::{json, Map, Value as Json};

use crate::events::Session;
use crate::test_report::FailureEntry;

/// An inline test's event whose outcome was not the one expected
#[derive(Debug, Clone, PartialEq)]
pub struct StepFailure {
    /// 1-based position of the event in the test
    pub step: usize,
    /// The event's name
    pub event: String,
    /// What the `expect` line asked for
    pub expected: Expectation,
    /// The decision, stop reason and `resolved_by` the outcome had, as [`outcome_json`]
    pub actual: Json,
}

impl StepFailure {
    /// The failure as `rulesc test --format json` writes it
    pub fn to_entry(&self) -> FailureEntry {
        FailureEntry::Step {
            step: self.step,
            event: self.event.clone(),
            expected: expectation_json(&self.expected),
            actual: self.actual.clone(),
        }
    }
}

/// Runs one inline test: every step whose outcome is not the expected one
pub fn run(policy: &Policy, case: &TestCase) -> Vec<StepFailure> {
    let mut session = Session::default();
    case.steps
        .iter()
        .enumerate()
        .filter_map(|(idx, (event, expected))| {
            let outcome = session.observe(policy, event);
            (!expected.is_met_by(&outcome)).then(|| StepFailure {
                step: idx + 1,
                event: event.kind.name().to_owned(),
                expected: expected.clone(),
                actual: outcome_json(&outcome),
            })
        })
        .collect()
}

/// Where a test is written, as the user typed the path: `files` maps the file names of rule
/// origins to those paths
pub fn file_of(case: &TestCase, files: &[SourceFile]) -> String {
    files
        .iter()
        .find(|file| file.name == case.file)
        .map_or_else(|| case.file.clone(), |file| file.path.clone())
}

/// The parts of an outcome an `expect` line can constrain
pub fn outcome_json(outcome: &Outcome) -> Json {
    json!({
        "decision": outcome.resolution.decision.name(),
        "stop_reason": outcome.resolution.stop_reason.map(|reason| reason.name()),
        "resolved_by": outcome.resolution.resolved_by,
    })
}

/// What an `expect` line asks for, with only the parts it gives
fn expectation_json(expected: &Expectation) -> Json {
    let mut object = Map::new();
    object.insert("decision".to_owned(), json!(expected.decision.name()));
    if let Some(reason) = expected.stop_reason {
        object.insert("stop_reason".to_owned(), json!(reason.name()));
    }
    if let Some(by) = &expected.by {
        object.insert("resolved_by".to_owned(), json!(by));
    }
    Json::Object(object)
}
