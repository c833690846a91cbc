//! `rulesc.RunCounters`: the runtime's one model of a run's counters (`RunCounters`,
//! docs/state.md "What the counters mean"), for Python front doors such as the OpenAI Agents
//! SDK adapter.
//!
//! Invariant: the counters move only by the runtime's transitions, so `errors` or `failures`
//! mean in Python what they mean in the agent loop and under a hook. The counters are
//! locked while they move, so threads that share them take turns; a transition is a few
//! additions, so it runs with the interpreter lock held.

use std::sync::{Mutex, PoisonError};

use pyo3::prelude::*;
use rulesc::RunCounters;

/// The counters of one run, moved by what happens to its calls and steps
#[pyclass(frozen, module = "rulesc", name = "RunCounters")]
pub(crate) struct PyRunCounters {
    /// The counts so far
    counters: Mutex<RunCounters>,
}

impl PyRunCounters {
    /// The counts, read under the lock
    fn read(&self) -> RunCounters {
        *self.counters.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Moves the counts by one transition, under the lock
    fn moved(&self, transition: impl FnOnce(&mut RunCounters)) {
        transition(&mut self.counters.lock().unwrap_or_else(PoisonError::into_inner));
    }
}

#[pymethods]
impl PyRunCounters {
    /// A new run, or one resumed with the counts a host kept
    #[new]
    #[pyo3(signature = (*, steps = 0, errors = 0, failures = 0, stop_requests = 0))]
    fn new(steps: u64, errors: u64, failures: u64, stop_requests: u64) -> PyRunCounters {
        PyRunCounters {
            counters: Mutex::new(RunCounters::resumed(steps, errors, failures, stop_requests)),
        }
    }

    /// A model call or a tool call failed, or a tool call was blocked: one more error, one
    /// more failure in a row, and the step under way is one that failed
    fn call_failed(&self) {
        self.moved(RunCounters::call_failed);
    }

    /// The step under way ended: it counts in `steps` when `counted`, and when none of its
    /// calls failed the failures in a row are over
    fn step_ended(&self, counted: bool) {
        self.moved(|counters| counters.step_ended(counted));
    }

    /// Steps completed so far
    #[getter]
    fn steps(&self) -> u64 {
        self.read().steps()
    }

    /// Failed calls, and blocked tool calls, in the whole run
    #[getter]
    fn errors(&self) -> u64 {
        self.read().errors()
    }

    /// Failed and blocked calls since a step last ended without one
    #[getter]
    fn failures(&self) -> u64 {
        self.read().failures()
    }

    /// The stops prevented in a row
    #[getter]
    fn stop_requests(&self) -> u64 {
        self.read().stop_requests()
    }
}
