//! The POLICY arguments of a command, loaded, with what went wrong reported on stderr.
//!
//! A path that cannot be read gives one line and exit 2; a policy with errors gives the
//! rendered errors, the count line and exit 1. Warnings are not printed here (that is
//! `rulesc check`'s job).

use std::io::Write;
use std::path::PathBuf;

use rulesc::load::{compile, read_sources, Loaded};
use rulesc::{Policy, RenderOptions};

use crate::cli::ExitStatus;

/// Loads and compiles POLICY arguments, reporting any failure on stderr
///
/// `Err` carries the exit status: [`ExitStatus::Error`] (2) after one line saying which path
/// could not be read, [`ExitStatus::Failure`] (1) after the rendered diagnostics of a policy
/// with errors.
pub(crate) fn load(paths: &[PathBuf]) -> Result<Loaded, ExitStatus> {
    let sources = read_sources(paths).map_err(|err| {
        crate::cli::print_error(&err.to_string());
        ExitStatus::Error
    })?;
    compile(sources).map_err(|diagnostics| {
        let errors_only = diagnostics.errors_only();
        print_stderr(&errors_only.render(RenderOptions::for_stream(&std::io::stderr())));
        ExitStatus::Failure
    })
}

/// [`load`], for a command that needs only the policy
pub(crate) fn load_policy(paths: &[PathBuf]) -> Result<Policy, ExitStatus> {
    load(paths).map(|loaded| loaded.policy)
}

/// Writes to stderr; nothing is left to tell if stderr itself is gone
fn print_stderr(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
