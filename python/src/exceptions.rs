//! The Python exceptions and warnings of the bindings:
//!
//! - `PolicyError`: a policy that does not compile or cannot be read; its `diagnostics` are
//!   the dicts of `rulesc check --format json` (empty when a path could not be read);
//! - `EventError`, a `ValueError`: an event that is not an event (the reason `rulesc eval`
//!   gives for it);
//! - `UnknownKeyWarning`, a `UserWarning`: a key of an event that nothing reads, the warning
//!   `rulesc eval` prints (turned into an error by the `warnings` filters, as `--strict` does).

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyUserWarning, PyValueError};

create_exception!(
    rulesc,
    PolicyError,
    PyException,
    "A policy that does not compile, or a path that cannot be read; `diagnostics` lists each \
     error and warning as a dict"
);
create_exception!(
    rulesc,
    EventError,
    PyValueError,
    "An event that cannot be evaluated: not a JSON object, an unknown event name, or a field \
     of the wrong type"
);
create_exception!(
    rulesc,
    UnknownKeyWarning,
    PyUserWarning,
    "A key of an event that nothing reads, such as a misspelt field"
);
