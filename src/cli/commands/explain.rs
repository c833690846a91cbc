//! `rulesc explain` (scaffolding: replaced by the real command).

use crate::cli::args::ExplainArgs;
use crate::cli::ExitStatus;

/// Runs `rulesc explain`
pub(crate) fn run(_args: &ExplainArgs) -> ExitStatus {
    ExitStatus::Error
}
