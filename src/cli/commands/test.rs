//! `rulesc test POLICY... [--format human|json]`: runs the inline `test` blocks of a policy
//! set and the `*.scenario.json` files found in the same paths.
//!
//! An inline test evaluates its events in order as one execution: each event starts from
//! the metadata the previous outcome left (its own `metadata` entries added on top), as
//! `rulesc eval` does with JSON Lines. A step passes when the outcome has the expected
//! decision and, when given, stop reason and `resolved_by`.
//!
//! A scenario is a `rulesc run` script with an `"expect"` object: each of its keys is
//! compared for equality with the same key of the run's JSON output, under the default host
//! limits (or the script's `max_retries`).
//!
//! Output: one line per failed step or key with the expected and the actual value, then the
//! plain line `N passed, M failed` (tests counted whole). Exit 0 when all pass, 1 when one
//! fails or the policy has errors, 2 for unreadable paths or a malformed scenario.

use std::io::Write;
use std::path::{Path, PathBuf};

use rulesc::inline_tests::{self, StepFailure};
use rulesc::load::{self, Sources};
use rulesc::test_report::{FailureEntry, TestEntry, TestReport};
use rulesc::RenderOptions;
use rulesc::{input, keys};
use rulesc::{Expectation, SourceFile, TestCase};
use rulesc_runtime::{Limits, Policy, Script};
use serde_json::{Map, Value as Json};

use crate::cli::args::{Format, TestArgs};
use crate::cli::progress::Progress;
use crate::cli::ExitStatus;

/// The suffix that marks a scenario file
const SCENARIO_SUFFIX: &str = ".scenario.json";

/// Runs `rulesc test`
pub(crate) fn run(args: &TestArgs) -> ExitStatus {
    let (policy_paths, scenario_paths) = match split_paths(&args.policies) {
        Ok(split) => split,
        Err(reason) => return fail(&reason),
    };
    if policy_paths.is_empty() {
        return fail("no policy to test: give `.rules` files, a directory or a compiled policy");
    }
    let (policy, tests, files) = match load_policy(&policy_paths) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    let n_tests = tests.len() + scenario_paths.len();
    let progress = Progress::new(u64::try_from(n_tests).unwrap_or(u64::MAX), "tests");
    let mut results: Vec<TestResult> = Vec::with_capacity(n_tests);
    for case in &tests {
        results.push(inline(&policy, case, &files));
        progress.inc();
    }
    for path in &scenario_paths {
        progress.set_message(path.display().to_string());
        match scenario(&policy, path, args.strict, &progress) {
            Ok(result) => results.push(result),
            Err(reason) => {
                drop(progress);
                return fail(&reason);
            }
        }
        progress.inc();
    }
    drop(progress);
    let n_failed = results.iter().filter(|result| !result.passed()).count();
    let n_passed = results.len() - n_failed;
    let text = match args.format {
        Format::Human => human(&results, n_passed, n_failed),
        Format::Json => {
            let report = TestReport::new(results.iter().map(TestResult::to_entry).collect());
            // Through a `Value`, so the keys come out sorted as every JSON output's do.
            match report.to_json() {
                Ok(document) => format!("{:#}\n", rulesc::SortedJson(&document)),
                Err(err) => return fail(&format!("cannot write the report: {err}")),
            }
        }
    };
    if std::io::stdout().lock().write_all(text.as_bytes()).is_err() {
        return ExitStatus::Error;
    }
    if n_failed > 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

/// Separates POLICY arguments from scenario files, and finds the scenarios in directories
fn split_paths(paths: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<PathBuf>), String> {
    let mut policies = Vec::new();
    let mut scenarios = Vec::new();
    for path in paths {
        if is_scenario(path) {
            scenarios.push(path.clone());
            continue;
        }
        if path.is_dir() {
            scenarios.extend(load::find(path, SCENARIO_SUFFIX).map_err(|err| err.to_string())?);
        }
        policies.push(path.clone());
    }
    Ok((policies, scenarios))
}

/// Whether `path` names a scenario file
fn is_scenario(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name.to_string_lossy().ends_with(SCENARIO_SUFFIX))
}

/// The policy, its inline tests and its source files; on failure, the reason was printed
fn load_policy(paths: &[PathBuf]) -> Result<(Policy, Vec<TestCase>, Vec<SourceFile>), ExitStatus> {
    match load::read_sources(paths) {
        Ok(Sources::Compiled(policy)) => Ok((policy, Vec::new(), Vec::new())),
        Ok(Sources::Rules(inputs)) => {
            let output = rulesc::check_sources(inputs);
            let files = output.diagnostics.files().to_vec();
            match output.policy {
                Some(policy) => Ok((policy, output.tests, files)),
                None => {
                    let errors = output.diagnostics.errors_only();
                    let text = errors.render(RenderOptions::for_stream(&std::io::stderr()));
                    let _ = std::io::stderr().lock().write_all(text.as_bytes());
                    Err(ExitStatus::Failure)
                }
            }
        }
        Err(err) => Err(fail(&err.to_string())),
    }
}

/// What running one test found
struct TestResult {
    /// The test's name (a scenario's is its file name)
    name: String,
    /// Where it is written: the file as typed, and the line of `test` for inline tests
    file: String,
    /// The line of the `test` keyword; `None` for a scenario
    line: Option<u32>,
    /// Every step or key that did not match
    failures: Vec<Failure>,
}

/// One mismatch
enum Failure {
    /// An inline test's event whose outcome was not the one expected
    Step(StepFailure),
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

impl TestResult {
    /// Whether nothing failed
    fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// `rules/budgets.rules:33` or `rules/scenarios/todo.scenario.json`
    fn location(&self) -> String {
        match self.line {
            Some(line) => format!("{}:{line}", self.file),
            None => self.file.clone(),
        }
    }

    /// The result in the JSON output
    fn to_entry(&self) -> TestEntry {
        let failures = self.failures.iter().map(Failure::to_entry).collect();
        TestEntry::new(&self.name, &self.file, self.line, failures)
    }
}

impl Failure {
    /// The failure in the JSON output
    fn to_entry(&self) -> FailureEntry {
        match self {
            Failure::Step(failure) => failure.to_entry(),
            Failure::Key {
                key,
                expected,
                actual,
            } => FailureEntry::Key {
                key: key.clone(),
                expected: expected.clone(),
                actual: actual.clone(),
            },
        }
    }

    /// The failure in the human output, after the test's location and name
    fn describe(&self) -> String {
        match self {
            Failure::Step(failure) => format!(
                "event {} (`{}`): expected {}, actual {}",
                failure.step,
                failure.event,
                expectation_text(&failure.expected),
                outcome_text(&failure.actual)
            ),
            Failure::Key {
                key,
                expected,
                actual,
            } => format!("`{key}`: expected {expected}, actual {actual}"),
        }
    }
}

/// Runs one inline test; `files` maps file names to the paths shown
fn inline(policy: &Policy, case: &TestCase, files: &[SourceFile]) -> TestResult {
    let failures = inline_tests::run(policy, case)
        .into_iter()
        .map(Failure::Step)
        .collect();
    TestResult {
        name: case.name.clone(),
        file: inline_tests::file_of(case, files),
        line: Some(case.line),
        failures,
    }
}

/// Runs one scenario file, warning about its unknown keys; `Err` when it cannot be read, is
/// not a valid scenario, or (`strict`) has an unknown key
fn scenario(
    policy: &Policy,
    path: &Path,
    strict: bool,
    progress: &Progress,
) -> Result<TestResult, String> {
    let shown = path.display().to_string();
    let text =
        input::read_file_to_string(path).map_err(|err| format!("cannot read `{shown}`: {err}"))?;
    let mut document: Map<String, Json> =
        serde_json::from_str(&text).map_err(|err| format!("`{shown}`: invalid scenario: {err}"))?;
    let unknown = keys::unknown_keys(&Json::Object(document.clone()), &keys::scenario_keys());
    let place = format!("`{shown}`");
    let warned = progress.suspend(|| {
        crate::cli::warn_unknown_keys(unknown.iter().map(|key| (place.clone(), key)), strict)
    });
    if warned.is_err() {
        return Err(format!(
            "`{shown}`: unknown keys are errors under `--strict`"
        ));
    }
    let expect = match document.remove("expect") {
        Some(Json::Object(expect)) => expect,
        Some(_) => return Err(format!("`{shown}`: `expect` must be an object")),
        None => return Err(format!("`{shown}`: a scenario needs an `expect` object")),
    };
    let script = Script::from_json(&Json::Object(document).to_string())
        .map_err(|err| format!("`{shown}`: {err}"))?;
    let report = script.run(policy.clone(), script.limits(Limits::default()));
    let output = serde_json::to_value(&report)
        .map_err(|err| format!("`{shown}`: cannot read the run's output: {err}"))?;
    // Failures in key order, whatever order serde_json's map keeps.
    let mut expect: Vec<(String, Json)> = expect.into_iter().collect();
    expect.sort_by(|left, right| left.0.cmp(&right.0));
    let failures = expect
        .into_iter()
        .filter_map(|(key, expected)| {
            let actual = output.get(&key).cloned().unwrap_or(Json::Null);
            (actual != expected).then_some(Failure::Key {
                key,
                expected,
                actual,
            })
        })
        .collect();
    let name = path
        .file_name()
        .map_or_else(|| shown.clone(), |name| name.to_string_lossy().into_owned());
    Ok(TestResult {
        name,
        file: shown,
        line: None,
        failures,
    })
}

/// `forbid steps_limit_reached by "step-budget"`, as an `expect` line writes it
fn expectation_text(expected: &Expectation) -> String {
    let mut text = expected.decision.name().to_owned();
    if let Some(reason) = expected.stop_reason {
        text.push(' ');
        text.push_str(reason.name());
    }
    if let Some(by) = &expected.by {
        text.push_str(&format!(" by \"{by}\""));
    }
    text
}

/// The actual outcome in the words of an `expect` line: `none`, `block by "no-rm"`
fn outcome_text(actual: &Json) -> String {
    let mut text = actual
        .get("decision")
        .and_then(Json::as_str)
        .unwrap_or("none")
        .to_owned();
    if let Some(reason) = actual.get("stop_reason").and_then(Json::as_str) {
        text.push(' ');
        text.push_str(reason);
    }
    if let Some(by) = actual.get("resolved_by").and_then(Json::as_str) {
        text.push_str(&format!(" by \"{by}\""));
    }
    text
}

/// The human output: a line per failure, then the count
fn human(results: &[TestResult], n_passed: usize, n_failed: usize) -> String {
    let mut text = String::new();
    for result in results {
        // A scenario is named by its file: the location says it all.
        let label = match result.line {
            Some(_) => format!("{} \"{}\"", result.location(), result.name),
            None => result.location(),
        };
        for failure in &result.failures {
            text.push_str(&format!("FAIL {label}: {}\n", failure.describe()));
        }
    }
    text.push_str(&format!("{n_passed} passed, {n_failed} failed\n"));
    text
}

/// Prints `reason` as the one-line error of exit 2
fn fail(reason: &str) -> ExitStatus {
    crate::cli::print_error(reason);
    ExitStatus::Error
}
