//! Exit statuses shared by every command (docs/cli.md).

use std::process::ExitCode;

/// How a command ended
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExitStatus {
    /// Everything went well
    Success,
    /// The policy has errors, a test failed, or a denied warning was found
    Failure,
    /// Bad usage, an unreadable file, or malformed input
    Error,
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        match status {
            ExitStatus::Success => ExitCode::from(0),
            ExitStatus::Failure => ExitCode::from(1),
            ExitStatus::Error => ExitCode::from(2),
        }
    }
}
