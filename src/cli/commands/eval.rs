//! `rulesc eval POLICY... --event FILE|-`: evaluates events and prints one outcome per event.
//!
//! The input is one JSON event (possibly spread over several lines) or a stream of them,
//! typically JSON Lines, read and evaluated by [`rulesc::events`]: malformed input prints
//! no outcome at all, exit 2 with one line naming the input line and the field at fault.

use std::io::Write;
use std::path::Path;

use rulesc::events::{evaluate_execution, parse_events};
use rulesc::input;
use rulesc_runtime::{Limits, Outcome};

use crate::cli::args::{EvalArgs, LimitArgs, OutputFormat};
use crate::cli::policy as load;
use crate::cli::ExitStatus;

/// Runs `rulesc eval`
pub(crate) fn run(args: &EvalArgs) -> ExitStatus {
    let policy = match load::load_policy(&args.policies) {
        Ok(policy) => policy.with_limits(limits(&args.limits)),
        Err(status) => return status,
    };
    let input = match read_input(&args.event).and_then(|text| parse_events(&text)) {
        Ok(input) => input,
        Err(reason) => {
            report_error(&reason);
            return ExitStatus::Error;
        }
    };
    let source = if args.event == Path::new("-") {
        "stdin".to_owned()
    } else {
        format!("`{}`", args.event.display())
    };
    let unknown = input
        .unknown_keys
        .iter()
        .map(|(line, key)| (format!("{source} line {line}"), key));
    if let Err(status) = crate::cli::warn_unknown_keys(unknown, args.strict) {
        return status;
    }
    let outcomes = evaluate_execution(&policy, &input.events);
    match write_outcomes(&outcomes, args.format) {
        Ok(()) => ExitStatus::Success,
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(err) => {
            report_error(&format!("cannot write the outcomes: {err}"));
            ExitStatus::Error
        }
    }
}

/// The host limits of the command line, each defaulting to [`Limits::default`]
pub(crate) fn limits(args: &LimitArgs) -> Limits {
    let defaults = Limits::default();
    Limits {
        max_steps: args.max_steps.unwrap_or(defaults.max_steps),
        max_retries: args.max_retries.unwrap_or(defaults.max_retries),
        max_stop_requests: args.max_stop_requests.unwrap_or(defaults.max_stop_requests),
    }
}

fn write_outcomes(outcomes: &[Outcome], format: OutputFormat) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    for (outcome_idx, outcome) in outcomes.iter().enumerate() {
        match format {
            OutputFormat::Json => {
                serde_json::to_writer(&mut out, outcome)?;
                out.write_all(b"\n")?;
            }
            OutputFormat::Human => {
                if outcome_idx > 0 {
                    out.write_all(b"\n")?;
                }
                out.write_all(outcome.render().as_bytes())?;
            }
        }
    }
    out.flush()
}

fn report_error(reason: &str) {
    crate::cli::print_error(reason);
}

/// The text of `path`, or of stdin for `-`
fn read_input(path: &Path) -> Result<String, String> {
    if path == Path::new("-") {
        return input::read_stdin_to_string()
            .map_err(|err| format!("cannot read the events from stdin: {err}"));
    }
    input::read_file_to_string(path).map_err(|err| {
        let reason = match err.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_owned(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
            _ => err.to_string(),
        };
        format!("cannot read `{}`: {reason}", path.display())
    })
}
