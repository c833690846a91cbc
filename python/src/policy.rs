//! `rulesc.Policy`: a compiled policy set, shared freely between threads.
//!
//! It compiles as `rulesc check` does (`from_source`) or loads POLICY arguments as every
//! command does (`from_paths`: `.rules` files, folders, or one compiled JSON policy), and
//! keeps its inline tests and the warnings of its compilation.
//! Invariant: it is immutable once built (`frozen`), so it needs no lock.

use std::path::PathBuf;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rulesc::load::{self, Sources};
use rulesc::test_report::{TestEntry, TestReport};
use rulesc::{inline_tests, CheckOutput, Diagnostics, LoadError, Policy, TestCase};
use serde_json::Value as Json;

use crate::errors;
use crate::json;
use crate::session::{self, PySession};

/// A compiled policy set with its inline tests
#[pyclass(frozen, module = "rulesc", name = "Policy")]
pub(crate) struct PyPolicy {
    /// The policy, under its host limits
    policy: Policy,
    /// The inline tests of its `.rules` files
    tests: Vec<TestCase>,
    /// The warnings of its compilation, with the sources the tests' files are found in
    diagnostics: Diagnostics,
}

/// Why no policy came out of the sources
enum Failure {
    /// A path could not be read
    Unreadable(LoadError),
    /// The policy has errors
    Invalid(Diagnostics),
}

impl PyPolicy {
    /// The policy of a compilation, or its errors
    fn compiled(output: CheckOutput) -> Result<PyPolicy, Failure> {
        match output.policy {
            Some(policy) => Ok(PyPolicy {
                policy,
                tests: output.tests,
                diagnostics: output.diagnostics,
            }),
            None => Err(Failure::Invalid(output.diagnostics)),
        }
    }

    /// The policy, or the Python error of its failure
    fn built(py: Python<'_>, result: Result<PyPolicy, Failure>) -> PyResult<PyPolicy> {
        result.map_err(|failure| match failure {
            Failure::Unreadable(err) => errors::unreadable(py, &err),
            Failure::Invalid(diagnostics) => errors::invalid_policy(py, &diagnostics),
        })
    }
}

#[pymethods]
impl PyPolicy {
    /// Compiles one `.rules` source; `filename` names it in rule ids and diagnostics
    #[staticmethod]
    #[pyo3(signature = (text, filename = "policy.rules"))]
    fn from_source(py: Python<'_>, text: &str, filename: &str) -> PyResult<PyPolicy> {
        let result = py.detach(|| PyPolicy::compiled(rulesc::check_source(filename, text)));
        PyPolicy::built(py, result)
    }

    /// Compiles `.rules` files and folders (searched recursively for `*.rules`) together,
    /// or loads one compiled JSON policy, as the command line's POLICY arguments
    #[staticmethod]
    fn from_paths(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<PyPolicy> {
        let result = py.detach(|| match load::read_sources(&paths) {
            Ok(Sources::Compiled(policy)) => Ok(PyPolicy {
                policy,
                tests: Vec::new(),
                diagnostics: Diagnostics::new(Vec::new(), Vec::new()),
            }),
            Ok(Sources::Rules(inputs)) => PyPolicy::compiled(rulesc::check_sources(inputs)),
            Err(err) => Err(Failure::Unreadable(err)),
        });
        PyPolicy::built(py, result)
    }

    /// The same policy under other host limits; each one not given keeps its value
    #[pyo3(signature = (*, max_steps = None, max_retries = None, max_stop_requests = None))]
    fn with_limits(
        &self,
        max_steps: Option<u64>,
        max_retries: Option<u64>,
        max_stop_requests: Option<u64>,
    ) -> PyPolicy {
        let mut limits = *self.policy.limits();
        limits.max_steps = max_steps.unwrap_or(limits.max_steps);
        limits.max_retries = max_retries.unwrap_or(limits.max_retries);
        limits.max_stop_requests = max_stop_requests.unwrap_or(limits.max_stop_requests);
        PyPolicy {
            policy: self.policy.clone().with_limits(limits),
            tests: self.tests.clone(),
            diagnostics: self.diagnostics.clone(),
        }
    }

    /// Evaluates one event (a dict, as `rulesc eval` reads it) and returns the outcome
    /// `rulesc eval` prints for it
    fn evaluate<'py>(&self, event: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        session::evaluate(&self.policy, event)
    }

    /// A new execution, whose events carry state from one to the next
    fn session(&self) -> PySession {
        PySession::new(self.policy.clone())
    }

    /// Runs the inline tests: `rulesc test --format json`'s document (`tests`, `passed`,
    /// `failed`) with `failures`, the failed tests among `tests`
    fn test<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let report = py.detach(|| {
            let files = self.diagnostics.files();
            let tests = self
                .tests
                .iter()
                .map(|case| {
                    let failures = inline_tests::run(&self.policy, case)
                        .iter()
                        .map(inline_tests::StepFailure::to_entry)
                        .collect();
                    let file = inline_tests::file_of(case, files);
                    TestEntry::new(&case.name, &file, Some(case.line), failures)
                })
                .collect();
            TestReport::new(tests).to_json()
        });
        let report = report
            .map_err(|err| PyRuntimeError::new_err(format!("cannot write the report: {err}")))?;
        let failures: Vec<Json> = report
            .get("tests")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter(|test| test.get("passed") != Some(&Json::Bool(true)))
            .cloned()
            .collect();
        let document = json::to_python(py, &report)?;
        document.set_item("failures", json::to_python(py, &Json::Array(failures))?)?;
        Ok(document)
    }

    /// The warnings of the compilation, as `rulesc check --format json` lists them
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json::to_python(py, &Json::Array(errors::diagnostic_list(&self.diagnostics)))
    }

    /// The host limits, as a dict
    #[getter]
    fn limits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let limits = self.policy.limits();
        let dict = PyDict::new(py);
        dict.set_item("max_steps", limits.max_steps)?;
        dict.set_item("max_retries", limits.max_retries)?;
        dict.set_item("max_stop_requests", limits.max_stop_requests)?;
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        format!(
            "<rulesc.Policy: {} inline tests, {} warnings>",
            self.tests.len(),
            self.diagnostics.diagnostics().len()
        )
    }
}
