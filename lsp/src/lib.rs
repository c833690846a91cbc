//! The language server of `.rules` files: `rulesc lsp` runs [`run`] on its stdin and stdout.
//!
//! It speaks the Language Server Protocol synchronously, one message at a time, with the
//! message types of `lsp-server` and `lsp-types` (as rust-analyzer does; no async runtime):
//! diagnostics on open and on every change (what `rulesc check` reports for the file given
//! alone), formatting (what `rulesc fmt` writes), hover on events, verbs, fields and
//! diagnostic codes, completion, one symbol per rule, and go to definition from an inline
//! test's `by "..."` to its rule.
//!
//! ```
//! let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
//! let input = format!("Content-Length: {}\r\n\r\n{exit}", exit.len());
//! let mut output = Vec::new();
//! let end = rulesc_lsp::run(input.as_bytes(), &mut output).unwrap();
//! // `exit` without `shutdown` first: the protocol's failure.
//! assert_eq!(end, rulesc_lsp::End::WithoutShutdown);
//! ```
//!
//! Invariant: nothing a client sends ends the server but `exit` or the end of its input: a
//! frame that is not JSON-RPC, an unknown method, bad parameters, a request before
//! `initialize`, a position past the document each get an error response (or, for a
//! notification, a `window/logMessage`), and the server reads the next message.

#![deny(clippy::print_stdout, clippy::print_stderr)]

mod completion;
mod diagnostics;
mod documents;
mod hover;
mod position;
mod server;
mod symbols;
mod tokens;
mod transport;
mod words;

pub use server::{run, End};
