//! The POLICY arguments of a command, loaded, with what went wrong reported on stderr.
//!
//! A path that cannot be read gives one line and exit 2; a policy with errors gives the
//! rendered errors, the count line and exit 1. Warnings are not printed here (that is
//! `rulesc check`'s job). The hook and `doctor`, which answer in one line, compile with
//! [`compile_one_line`].

use std::io::Write;
use std::path::PathBuf;

use rulesc::load::{compile, read_sources, Loaded, Sources};
use rulesc::{Policy, RenderOptions, SourceBytes};

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

/// Compiles `.rules` files; a policy with errors is one line: the first error with its
/// place, and how many follow
pub(crate) fn compile_one_line(files: Vec<SourceBytes>) -> Result<Policy, String> {
    let diagnostics = match compile(Sources::Rules(files)) {
        Ok(loaded) => return Ok(loaded.policy),
        Err(diagnostics) => diagnostics,
    };
    let mut errors = diagnostics
        .diagnostics()
        .iter()
        .filter(|diag| diag.is_error());
    let Some(first) = errors.next() else {
        return Err("the policy does not compile".to_owned());
    };
    let place = first
        .location(diagnostics.files())
        .map_or_else(String::new, |location| {
            format!(
                "{}:{}:{}: ",
                location.path, location.start.line, location.start.column
            )
        });
    let more = match errors.count() {
        0 => String::new(),
        1 => " (and 1 more error)".to_owned(),
        n => format!(" (and {n} more errors)"),
    };
    Err(format!(
        "the policy does not compile: {place}{} [{}]{more}",
        first.message, first.code.id
    ))
}
