//! `rulesc check POLICY... [--format human|json] [--deny-warnings]`: parses, validates and
//! lints, and reports every diagnostic on stdout.
//!
//! Exit 0 when there is no error (and, with `--deny-warnings`, no warning), 1 otherwise, 2
//! when a path cannot be read. A compiled JSON policy was checked when it was compiled and
//! loads or not: it reports no diagnostic.

use std::io::Write;

use crate::cli::args::{CheckArgs, Format};
use crate::cli::load::{self, Sources};
use crate::cli::report::RenderOptions;
use crate::cli::ExitStatus;
use crate::Diagnostics;

/// Runs `rulesc check`
pub(crate) fn run(args: &CheckArgs) -> ExitStatus {
    let diagnostics = match load::read_sources(&args.policies) {
        Ok(Sources::Rules(inputs)) => crate::check_sources(inputs).diagnostics,
        Ok(Sources::Compiled(_)) => Diagnostics::new(Vec::new(), Vec::new()),
        Err(err) => {
            let _ = writeln!(std::io::stderr().lock(), "error: {err}");
            return ExitStatus::Error;
        }
    };
    let text = match args.format {
        Format::Human => diagnostics.render(RenderOptions::for_stream(&std::io::stdout())),
        Format::Json => format!("{}\n", diagnostics.to_json()),
    };
    if std::io::stdout().lock().write_all(text.as_bytes()).is_err() {
        return ExitStatus::Error;
    }
    let summary = diagnostics.summary();
    if summary.errors > 0 || (args.deny_warnings && summary.warnings > 0) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}
