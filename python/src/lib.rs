//! `rulesc._rulesc`: the native half of the `rulesc` Python package.
//!
//! It wraps the facade library (`rulesc`): policies compile with `check_source` and the
//! POLICY loading of the command line, events are read by `rulesc::events::read_event` and
//! evaluated by `rulesc::events::Session`, inline tests run through `rulesc::inline_tests`,
//! so Python gets exactly the answers `rulesc eval` and `rulesc test` print; a run's counters
//! move by the runtime's `RunCounters`, as in the agent loop and under a hook.
//!
//! Invariant: the interpreter lock is released whenever rulesc works (compiling, reading an
//! event, evaluating, running tests); it is held only to move JSON between Python and Rust.

mod errors;
mod exceptions;
mod json;
mod policy;
mod run;
mod session;

use pyo3::prelude::*;

/// The module Python imports as `rulesc._rulesc`
#[pymodule]
fn _rulesc(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_class::<policy::PyPolicy>()?;
    module.add_class::<session::PySession>()?;
    module.add_class::<run::PyRunCounters>()?;
    module.add("PolicyError", py.get_type::<exceptions::PolicyError>())?;
    module.add("EventError", py.get_type::<exceptions::EventError>())?;
    module.add(
        "UnknownKeyWarning",
        py.get_type::<exceptions::UnknownKeyWarning>(),
    )?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
