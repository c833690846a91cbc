//! `rulesc eval` (scaffolding: replaced by the real command).

use crate::cli::args::EvalArgs;
use crate::cli::ExitStatus;

/// Runs `rulesc eval`
pub(crate) fn run(_args: &EvalArgs) -> ExitStatus {
    ExitStatus::Error
}
