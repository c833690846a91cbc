//! `rulesc.Session`: one execution seen event by event, as `rulesc eval` reads JSON Lines.
//!
//! Each event starts from the state the previous outcomes left (the metadata of `set`
//! effects), through `rulesc::events::Session`, the code path of `rulesc eval`.
//! A session is locked while it evaluates, so threads that share one take turns; events
//! observed from several threads at once are still one sequence, in the order they got the
//! lock.

use std::sync::{Mutex, PoisonError};

use pyo3::prelude::*;
use rulesc::events::{self, Session};
use rulesc::keys;
use rulesc::{Event, Policy};

use crate::exceptions::{EventError, UnknownKeyWarning};
use crate::json;

/// One execution of a policy: `observe` each of its events in turn
#[pyclass(frozen, module = "rulesc", name = "Session")]
pub(crate) struct PySession {
    /// The policy every event is evaluated by
    policy: Policy,
    /// What the next event starts from
    state: Mutex<Session>,
}

impl PySession {
    /// A new execution of `policy`
    pub(crate) fn new(policy: Policy) -> PySession {
        PySession {
            policy,
            state: Mutex::new(Session::default()),
        }
    }
}

#[pymethods]
impl PySession {
    /// Evaluates the execution's next event (a dict, as `rulesc eval` reads it) and returns
    /// the outcome `rulesc eval` prints for it
    fn observe<'py>(&self, event: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = event.py();
        let event = read(event)?;
        let text = py.detach(|| {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            serde_json::to_string(&state.observe(&self.policy, &event))
        });
        outcome(py, text)
    }

    /// The metadata the next event starts from
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let metadata = py.detach(|| {
            let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            serde_json::Value::Object(state.metadata().clone())
        });
        json::to_python(py, &metadata)
    }
}

/// Evaluates one event alone, as `rulesc eval` evaluates a one-event input
pub(crate) fn evaluate<'py>(
    policy: &Policy,
    event: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = event.py();
    let event = read(event)?;
    let text = py.detach(|| serde_json::to_string(&Session::default().observe(policy, &event)));
    outcome(py, text)
}

/// Reads an event from Python, warning about each key nothing reads
fn read(event: &Bound<'_, PyAny>) -> PyResult<Event> {
    let py = event.py();
    let value = json::from_python(event)?;
    let (unknown, read) = py.detach(|| {
        let unknown = keys::unknown_keys(&value, &keys::event_keys());
        (unknown, events::read_event(value))
    });
    let event = read.map_err(EventError::new_err)?;
    let warnings = py.import("warnings")?;
    let category = py.get_type::<UnknownKeyWarning>();
    for key in unknown {
        warnings.call_method1("warn", (key.to_string(), &category, 1))?;
    }
    Ok(event)
}

/// The outcome JSON as a dict
fn outcome<'py>(py: Python<'py>, text: serde_json::Result<String>) -> PyResult<Bound<'py, PyAny>> {
    let text = text.map_err(|err| {
        pyo3::exceptions::PyRuntimeError::new_err(format!("cannot write the outcome: {err}"))
    })?;
    json::loads(py, &text)
}
