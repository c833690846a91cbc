//! `rulesc lsp`: the language server for editors (crate `rulesc-lsp`), on stdin and stdout.
//!
//! Exit 0 after the client's `shutdown` and `exit`, 1 when the client exits without
//! `shutdown` or closes the stream first (the protocol's rule), 2 when stdin or stdout
//! fails. Nothing else is written to stdout: it carries the protocol.

use rulesc_lsp::End;

use crate::cli::ExitStatus;

/// Runs `rulesc lsp`
pub(crate) fn run() -> ExitStatus {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match rulesc_lsp::run(stdin, stdout) {
        Ok(End::Clean) => ExitStatus::Success,
        Ok(End::WithoutShutdown) => ExitStatus::Failure,
        Err(err) => {
            crate::cli::print_error(&format!("the language server stopped: {err}"));
            ExitStatus::Error
        }
    }
}
