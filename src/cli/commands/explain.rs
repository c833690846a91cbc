//! `rulesc explain CODE` and `rulesc explain --list`: the long explanation of a diagnostic
//! code (What it flags, Why it matters, Wrong, Right), or the index of every code, one line
//! each, to choose one from.
//!
//! A code is found by its id in any case (`E012`, `e012`) or by its name
//! (`field-not-visible`); an unknown one is exit 2 with the reason on stderr.

use std::io::Write;

use rulesc_compiler::codes;

use crate::cli::args::ExplainArgs;
use crate::cli::ExitStatus;

/// Runs `rulesc explain`
pub(crate) fn run(args: &ExplainArgs) -> ExitStatus {
    let text = match (&args.code, args.list) {
        (_, true) => list(),
        (Some(code), false) => match codes::lookup(code) {
            Some(code) => code.explain(),
            None => {
                crate::cli::print_error(&format!(
                    "unknown diagnostic code `{code}`; `rulesc explain --list` lists them"
                ));
                return ExitStatus::Error;
            }
        },
        // clap requires CODE unless `--list` is given.
        (None, false) => list(),
    };
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitStatus::Success,
        Err(_) => ExitStatus::Error,
    }
}

/// The index, one line per code (`E012  error    field-not-visible  the field is ...`)
fn list() -> String {
    codes::ALL
        .iter()
        .map(|code| {
            format!(
                "{}  {:<7}  {:<24} {}\n",
                code.id,
                code.severity.name(),
                code.name,
                code.summary
            )
        })
        .collect()
}
