//! The JSON report of `rulesc test --format json`, as types: the command and the Python
//! bindings serialize through them and `rulesc schema test` describes them, so the three
//! cannot part.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value as Json;

/// The whole report
#[derive(Serialize, JsonSchema)]
#[schemars(title = "TestReport")]
pub struct TestReport {
    /// One entry per inline test, then per scenario
    pub tests: Vec<TestEntry>,
    /// Tests that passed
    pub passed: usize,
    /// Tests that failed
    pub failed: usize,
}

/// One test's result
#[derive(Serialize, JsonSchema)]
pub struct TestEntry {
    /// The test's name (a scenario's is its file name)
    pub name: String,
    /// The file it is written in, as typed
    pub file: String,
    /// The line of the `test` keyword; `null` for a scenario
    pub line: Option<u32>,
    /// Whether every step or key matched
    pub passed: bool,
    /// Every step or key that did not
    pub failures: Vec<FailureEntry>,
}

/// One mismatch
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum FailureEntry {
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

impl TestReport {
    /// The report of `tests`, counting those that passed and failed
    pub fn new(tests: Vec<TestEntry>) -> TestReport {
        let passed = tests.iter().filter(|test| test.passed).count();
        TestReport {
            failed: tests.len() - passed,
            passed,
            tests,
        }
    }

    /// The report as JSON, keys as [`crate::SortedJson`] prints them
    ///
    /// # Errors
    ///
    /// When a value cannot be written as JSON (no value of a report is such).
    pub fn to_json(&self) -> Result<Json, serde_json::Error> {
        serde_json::to_value(self)
    }
}

impl TestEntry {
    /// One test's entry; `line` is `None` for a scenario
    pub fn new(
        name: &str,
        file: &str,
        line: Option<u32>,
        failures: Vec<FailureEntry>,
    ) -> TestEntry {
        TestEntry {
            name: name.to_owned(),
            file: file.to_owned(),
            line,
            passed: failures.is_empty(),
            failures,
        }
    }
}
