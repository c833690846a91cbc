//! JSON between Python and Rust, through Python's own `json` module: what `json.dumps`
//! accepts is an event, and an outcome comes back as `json.loads` would give it.
//!
//! Invariant: only plain JSON crosses: `NaN` and infinities are refused (`allow_nan=False`),
//! as serde_json refuses them in `rulesc eval`'s input.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value as Json;

use crate::exceptions::EventError;

/// `value` as JSON; a value `json.dumps` refuses is an `EventError` naming why
pub(crate) fn from_python(value: &Bound<'_, PyAny>) -> PyResult<Json> {
    let py = value.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("allow_nan", false)?;
    let text: String = py
        .import("json")?
        .call_method("dumps", (value,), Some(&kwargs))
        .map_err(|err| EventError::new_err(format!("the event is not JSON: {}", reason(&err, py))))?
        .extract()?;
    // `json.dumps` wrote it, so only serde_json's own limits (its nesting depth) refuse it.
    serde_json::from_str(&text)
        .map_err(|err| EventError::new_err(format!("the event cannot be read: {err}")))
}

/// The Python object `json.loads` makes of `text`
pub(crate) fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// `value` as the Python object `json.loads` makes of its JSON text
pub(crate) fn to_python<'py>(py: Python<'py>, value: &Json) -> PyResult<Bound<'py, PyAny>> {
    loads(py, &value.to_string())
}

/// Python's reason for an error, starting lowercase as every message of rulesc does
fn reason(err: &PyErr, py: Python<'_>) -> String {
    let text = err.value(py).to_string();
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => text,
    }
}
