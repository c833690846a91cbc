//! The JSON report of `rulesc test --format json`, as types: the command serializes through
//! them and `rulesc schema test` describes them, so the two cannot part.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value as Json;

/// The whole report
#[derive(Serialize, JsonSchema)]
#[schemars(title = "TestReport")]
pub(crate) struct TestReport {
    /// One entry per inline test, then per scenario
    pub(crate) tests: Vec<TestEntry>,
    /// Tests that passed
    pub(crate) passed: usize,
    /// Tests that failed
    pub(crate) failed: usize,
}

/// One test's result
#[derive(Serialize, JsonSchema)]
pub(crate) struct TestEntry {
    /// The test's name (a scenario's is its file name)
    pub(crate) name: String,
    /// The file it is written in, as typed
    pub(crate) file: String,
    /// The line of the `test` keyword; `null` for a scenario
    pub(crate) line: Option<u32>,
    /// Whether every step or key matched
    pub(crate) passed: bool,
    /// Every step or key that did not
    pub(crate) failures: Vec<FailureEntry>,
}

/// One mismatch
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum FailureEntry {
    /// An inline test's event whose outcome was not the one expected
    Step {
        /// 1-based position of the event in the test
        step: usize,
        /// The event's name
        event: String,
        /// What the `expect` line asked for: `decision`, and `stop_reason` and
        /// `resolved_by` when it names them
        expected: Json,
        /// The outcome's `decision`, `stop_reason` and `resolved_by`
        actual: Json,
    },
    /// A key of a scenario's `expect` whose value differs from the run's
    Key {
        /// The key
        key: String,
        /// The expected value
        expected: Json,
        /// The run's value (`null` when the run's output has no such key)
        actual: Json,
    },
}
