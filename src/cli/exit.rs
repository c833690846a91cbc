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

impl ExitStatus {
    /// The process's exit code
    pub(crate) fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Error => 2,
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        ExitCode::from(status.code())
    }
}
