//! `rulesc check` (scaffolding: replaced by the real command).

use crate::cli::args::CheckArgs;
use crate::cli::ExitStatus;

/// Runs `rulesc check`
pub(crate) fn run(_args: &CheckArgs) -> ExitStatus {
    ExitStatus::Error
}
