//! `rulesc compile` (scaffolding: replaced by the real command).

use crate::cli::args::CompileArgs;
use crate::cli::ExitStatus;

/// Runs `rulesc compile`
pub(crate) fn run(_args: &CompileArgs) -> ExitStatus {
    ExitStatus::Error
}
