//! `rulesc run POLICY... --script FILE`: runs the real agent loop with a scripted model,
//! scripted tools and a scripted approver, and prints the run report.
//!
//! Host limits: each `--max-*` flag wins; else the script's `max_retries`; else the
//! defaults (`max_steps` 100, `max_retries` 3, `max_stop_requests` 8). A script that
//! cannot be read is exit 2 with one line on stderr; a run that ends `failed` is still a
//! successful command (exit 0): the report says how the run went.

use std::io::Write;

use rulesc::{input, keys};
use rulesc_runtime::Script;

use crate::cli::args::{OutputFormat, RunArgs};
use crate::cli::commands::eval;
use crate::cli::policy as load;
use crate::cli::ExitStatus;

/// Runs `rulesc run`
pub(crate) fn run(args: &RunArgs) -> ExitStatus {
    let policy = match load::load_policy(&args.policies) {
        Ok(policy) => policy,
        Err(status) => return status,
    };
    let script = match input::read_file_to_string(&args.script) {
        Ok(text) => match Script::from_json(&text) {
            Ok(script) => {
                if let Err(status) = warn_unknown_keys(&text, args) {
                    return status;
                }
                script
            }
            Err(err) => return fail(&format!("`{}`: {err}", args.script.display())),
        },
        Err(err) => return fail(&format!("cannot read `{}`: {err}", args.script.display())),
    };
    let flags = eval::limits(&args.limits);
    let limits = match args.limits.max_retries {
        Some(_) => flags,
        None => script.limits(flags),
    };
    let report = script.agent_loop(policy, limits).run(
        &mut script.model(),
        &mut script.tools(),
        &mut script.approver(),
    );
    let text = match args.format {
        OutputFormat::Json => match serde_json::to_string_pretty(&report) {
            Ok(json) => json + "\n",
            Err(err) => return fail(&format!("cannot write the report: {err}")),
        },
        OutputFormat::Human => report.render(),
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitStatus::Success,
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(err) => fail(&format!("cannot write the report: {err}")),
    }
}

/// Warns about the keys of the script that nothing reads (an error under `--strict`)
fn warn_unknown_keys(text: &str, args: &RunArgs) -> Result<(), ExitStatus> {
    // The script was read, so its text is JSON.
    let Ok(document) = serde_json::from_str::<serde_json::Value>(text) else {
        return Ok(());
    };
    let place = format!("`{}`", args.script.display());
    let unknown = keys::unknown_keys(&document, &keys::script_keys());
    crate::cli::warn_unknown_keys(unknown.iter().map(|key| (place.clone(), key)), args.strict)
}

fn fail(reason: &str) -> ExitStatus {
    crate::cli::print_error(reason);
    ExitStatus::Error
}
