//! The rulesc compiler: checks `.rules` syntax trees and lowers them into runtime policies.
//!
//! ```
//! use rulesc_compiler::{check, SourceFile};
//! use rulesc_runtime::{Decision, Event, EventKind};
//!
//! let source = SourceFile::new("guard.rules", "policy/guard.rules", r#"
//! @id("no-rm")
//! on pre_tool_use when tool ~ "rm*" block "destructive command"
//! "#);
//! let checked = check(&[source]);
//! assert!(checked.diagnostics.is_empty());
//! let policy = checked.policy.expect("no errors, so a policy");
//!
//! let mut event = Event::new(EventKind::PreToolUse);
//! event.tool = Some("rm -rf /".to_owned());
//! let outcome = policy.evaluate(&event);
//! assert_eq!(outcome.resolution.decision, Decision::Block);
//! assert_eq!(outcome.resolution.resolved_by.as_deref(), Some("no-rm"));
//! ```
//!
//! **API boundary:** [`check`] (and [`check_bytes`] for files read as bytes) is the whole
//! entry point: a policy set in, a [`Checked`] out, holding the policy, the inline tests and
//! every [`Diagnostic`]. Diagnostics are plain data; the human form is drawn by miette
//! through [`Report`], the JSON form by the command line from the same fields.
//!
//! Invariant: the compiler does no IO and prints nothing. It alone produces diagnostics
//! and owns the code table ([`codes`]).

#![deny(clippy::print_stdout, clippy::print_stderr)]

mod check;
pub mod codes;
mod diagnostic;
mod fmt;
mod glob_case;
mod hint;
mod layer;
mod lint;
mod literal;
mod lower;
mod outline;
mod resolve;
mod source;
mod test_block;
mod types;

pub use check::{check, check_bytes, check_bytes_for, check_for_host, Checked, SourceBytes};
pub use diagnostic::{Code, Diagnostic, Label, Location, Report, Severity, Summary};
pub use fmt::{format_source, FormatError};
pub use lint::HostFacts;
pub use outline::{outline, Outline, RuleReference, RuleSymbol};
pub use source::{FileId, Layer, LineColumn, LineIndex, SourceFile};
pub use test_block::{Expectation, TestCase};
