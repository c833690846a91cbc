//! `rulesc run` (scaffolding: replaced by the real command).

use crate::cli::args::RunArgs;
use crate::cli::ExitStatus;

/// Runs `rulesc run`
pub(crate) fn run(_args: &RunArgs) -> ExitStatus {
    ExitStatus::Error
}
