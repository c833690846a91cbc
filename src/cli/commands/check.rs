//! `rulesc check POLICY... [--format human|json] [--deny-warnings] [--watch]`: parses,
//! validates and lints, and reports every diagnostic on stdout.
//!
//! Exit 0 when there is no error (and, with `--deny-warnings`, no warning), 1 otherwise, 2
//! when a path cannot be read. `--host` adds the lints about rules that host can never
//! honour (`W008`–`W010`). A compiled JSON policy was checked when it was compiled and
//! loads or not: it reports no diagnostic.
//!
//! `--watch` checks, then checks again after every change to the policy files (polled, see
//! [`Watcher`]), printing a full report each time, until the process is interrupted; a
//! path that cannot be read is reported and watched like the others. It ends by itself
//! only when stdout is gone (exit 2).

use std::io::Write;
use std::time::Duration;

use rulesc::load::{self, Sources};
use rulesc::reload::Watcher;
use rulesc::Diagnostics;
use rulesc::RenderOptions;

use crate::cli::args::{CheckArgs, Format, OnError};
use crate::cli::ExitStatus;

/// How often `--watch` looks at the files
const POLL_INTERVAL: Duration = Duration::from_millis(250);

/// Runs `rulesc check`
pub(crate) fn run(args: &CheckArgs) -> ExitStatus {
    if args.watch {
        watch(args)
    } else {
        check_once(args).unwrap_or(ExitStatus::Error)
    }
}

/// Checks again after every change, until stdout is gone
fn watch(args: &CheckArgs) -> ExitStatus {
    // Stamped before the first check, so a change made while it runs is seen afterwards.
    let mut watcher = Watcher::new(args.policies.clone());
    loop {
        if check_once(args).is_none() {
            return ExitStatus::Error;
        }
        while !watcher.changed() {
            std::thread::sleep(POLL_INTERVAL);
        }
        let _ = writeln!(
            std::io::stderr().lock(),
            "policy files changed; checking again"
        );
    }
}

/// One check, reported on stdout (a path that cannot be read, on stderr); `None` when
/// stdout cannot be written
fn check_once(args: &CheckArgs) -> Option<ExitStatus> {
    let diagnostics = match load::read_sources(&args.policies) {
        Ok(Sources::Rules(inputs)) => rulesc::check_sources_for(inputs, args.host).diagnostics,
        Ok(Sources::Compiled(_)) => Diagnostics::new(Vec::new(), Vec::new()),
        Err(err) => {
            crate::cli::print_error(&err.to_string());
            return Some(ExitStatus::Error);
        }
    };
    let text = match args.format {
        Format::Human => diagnostics.render(RenderOptions::for_stream(&std::io::stdout())),
        Format::Json => format!("{}\n", diagnostics.to_json()),
    };
    let mut stdout = std::io::stdout().lock();
    // Flushed at once: under `--watch`, a reader waits for each report as it comes.
    if stdout.write_all(text.as_bytes()).is_err() || stdout.flush().is_err() {
        return None;
    }
    let fail_open = args.on_error == Some(OnError::Allow);
    if fail_open {
        // Not a property of any rule, so not a diagnostic of one: said on stderr, and
        // counted as a warning.
        crate::cli::print_warning(
            "`--on-error allow` lets the host run a tool call whenever the policy cannot be \
             checked (it does not load, the input is malformed, the state is unusable)",
        );
    }
    let summary = diagnostics.summary();
    let warnings = summary.warnings + usize::from(fail_open);
    if summary.errors > 0 || (args.deny_warnings && warnings > 0) {
        Some(ExitStatus::Failure)
    } else {
        Some(ExitStatus::Success)
    }
}
