//! rulesc: a declarative policy language for AI-agent flow control.
//!
//! This library is a thin facade over the compiler and the runtime: it re-exports the
//! runtime (the embedding API: [`Policy`], [`Event`], [`Outcome`], the agent loop) and adds
//! the few functions that turn `.rules` source into a policy, with the loading, input and
//! rendering every front end shares. The `rulesc` command is built on it and nothing of the
//! command line is in it: it prints nothing and knows no exit codes.
//!
//! ```
//! let source = r#"
//! @id("no-rm")
//! on pre_tool_use when tool ~ "rm*" block "destructive command"
//! "#;
//! let policy: rulesc::Policy = rulesc::compile_str("guard.rules", source)?;
//!
//! let event: rulesc::Event =
//!     serde_json::from_str(r#"{"event": "pre_tool_use", "tool": "rm -rf /"}"#)?;
//! let outcome: rulesc::Outcome = policy.evaluate(&event);
//! assert_eq!(outcome.resolution.decision, rulesc::Decision::Block);
//! assert_eq!(outcome.resolution.resolved_by.as_deref(), Some("no-rm"));
//! assert_eq!(outcome.resolution.message.as_deref(), Some("destructive command"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A policy with errors gives every diagnostic, ready to render:
//!
//! ```
//! let err = rulesc::compile_str("guard.rules", "on before_step when tool ~ \"rm*\" forbid")
//!     .unwrap_err();
//! let first = &err.diagnostics()[0];
//! assert_eq!(first.code.id, "E012");
//! assert_eq!(first.message, "field `tool` is not visible in `before_step`");
//! assert!(err.to_string().ends_with("1 error, 0 warnings\n"));
//! ```

#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod checkpoint;
mod diagnostics;
pub mod events;
mod host_profile;
pub mod inline_tests;
pub mod input;
pub mod keys;
pub mod load;
pub mod reload;
pub mod replay;
pub mod test_report;

use std::fmt;
use std::path::Path;

pub use diagnostics::{check_report_schema, one_line, Diagnostics, RenderOptions, FIXED_WIDTH};
pub use host_profile::HostProfile;
pub use load::{LoadError, Loaded};
pub use rulesc_compiler::{
    codes, Code, Diagnostic, Expectation, FileId, Label, Layer, LineColumn, Location, Severity,
    SourceBytes, SourceFile, Summary, TestCase,
};
pub use rulesc_host::Host;
pub use rulesc_runtime::*;

/// What checking a policy set found
#[derive(Debug, Clone)]
pub struct CheckOutput {
    /// The policy; `Some` exactly when no diagnostic is an error
    pub policy: Option<Policy>,
    /// The inline tests that checked
    pub tests: Vec<TestCase>,
    /// Every error and warning, with the sources
    pub diagnostics: Diagnostics,
}

/// Checks one `.rules` source; `name` is both its name in rule ids and its path in reports
pub fn check_source(name: &str, source: &str) -> CheckOutput {
    let files = vec![SourceFile::new(name, name, source)];
    let checked = rulesc_compiler::check(&files);
    CheckOutput {
        policy: checked.policy,
        tests: checked.tests,
        diagnostics: Diagnostics::new(files, checked.diagnostics),
    }
}

/// Checks files read as bytes, compiled together as one policy set (a file that is not
/// UTF-8 is an `E004` diagnostic)
pub fn check_sources(inputs: Vec<SourceBytes>) -> CheckOutput {
    check_sources_for(inputs, None)
}

/// [`check_sources`] for a policy that will run as `host`'s hook, when given: the host
/// lints (`W008`–`W010`) warn about rules it can never honour
pub fn check_sources_for(inputs: Vec<SourceBytes>, host: Option<Host>) -> CheckOutput {
    let profile = host.map(HostProfile);
    let facts = profile
        .as_ref()
        .map(|profile| profile as &dyn rulesc_compiler::HostFacts);
    let (files, checked) = rulesc_compiler::check_bytes_for(inputs, facts);
    CheckOutput {
        policy: checked.policy,
        tests: checked.tests,
        diagnostics: Diagnostics::new(files, checked.diagnostics),
    }
}

/// Compiles one `.rules` source into a policy; `Err` holds every diagnostic (warnings too)
pub fn compile_str(name: &str, source: &str) -> Result<Policy, Diagnostics> {
    let output = check_source(name, source);
    output.policy.ok_or(output.diagnostics)
}

/// Why [`compile_paths`] gave no policy
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum CompileError {
    /// A path could not be read, or a compiled JSON policy could not be loaded
    Load(LoadError),
    /// The policy has errors
    Invalid(Diagnostics),
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Load(err) => fmt::Display::fmt(err, f),
            CompileError::Invalid(diagnostics) => fmt::Display::fmt(diagnostics, f),
        }
    }
}

impl std::error::Error for CompileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CompileError::Load(err) => Some(err),
            CompileError::Invalid(diagnostics) => Some(diagnostics),
        }
    }
}

/// Compiles `.rules` files and directories (searched recursively for `*.rules`, in sorted
/// order) into one policy set, or loads one compiled JSON policy, as the CLI's POLICY
/// arguments
pub fn compile_paths<P: AsRef<Path>>(paths: &[P]) -> Result<Policy, CompileError> {
    load_paths(paths).map(|loaded| loaded.policy)
}

/// [`compile_paths`], keeping the inline tests of the `.rules` files too (to run them
/// with [`Expectation::is_met_by`])
pub fn load_paths<P: AsRef<Path>>(paths: &[P]) -> Result<Loaded, CompileError> {
    let sources = load::read_sources(paths).map_err(CompileError::Load)?;
    load::compile(sources).map_err(CompileError::Invalid)
}
