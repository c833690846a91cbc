//! The language server's integration tests, one test binary with a module per subject.

mod fuzz_server;
mod vscode;
