//! `rulesc doctor [--host H] [DIR]`: checks that a coding agent started in `DIR` runs
//! `rulesc hook` and that the hook answers; one line per check, exit 1 on an error.

use std::io::Write;

use crate::cli::args::DoctorArgs;
use crate::cli::doctor::{self, Level};
use crate::cli::hook_config::UserDirs;
use crate::cli::ExitStatus;

/// Runs `rulesc doctor`
pub(crate) fn run(args: &DoctorArgs) -> ExitStatus {
    let project = match std::path::absolute(&args.dir) {
        Ok(project) => project,
        Err(err) => {
            crate::cli::print_error(&format!("cannot use `{}`: {err}", args.dir.display()));
            return ExitStatus::Error;
        }
    };
    let lines = doctor::diagnose(args.host, &project, UserDirs::from_env().as_ref());
    let mut text = String::new();
    for line in &lines {
        text.push_str(&line.render());
        text.push('\n');
    }
    if std::io::stdout().lock().write_all(text.as_bytes()).is_err() {
        return ExitStatus::Error;
    }
    if lines.iter().any(|line| line.level == Level::Error) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}
