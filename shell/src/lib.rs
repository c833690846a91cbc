//! Shell command lines as structure.
//!
//! [`read`] turns one command line into the simple commands it would run: program (the
//! basename, after quotes and escapes are removed), flags (short clusters split), operands,
//! paths normalised lexically, output redirects, and which commands feed each one's input.
//! It looks inside pipelines, lists, subshells, groups, `$(...)`, backticks, process
//! substitution, here-strings, wrappers (`sudo`, `env`, `timeout`, `xargs`, ...) and the
//! scripts handed to `sh -c`, `eval` or a shell's input, up to a bounded depth.
//!
//! Whatever cannot be read with certainty (a syntax error, a NUL byte, too large, too deep)
//! is a [`Reading::Unreadable`] value, never a panic, so a guard can fail closed.

mod command;
mod limits;
mod path;
mod walk;
mod word;
mod wrapper;

pub use command::{Redirect, Script, SimpleCommand};
pub use limits::{
    Unreadable, MAX_BYTES, MAX_COMMANDS, MAX_LINKS, MAX_NESTING, MAX_SCRIPT_DEPTH, MAX_TIME,
};

/// Where a command line runs: the directories paths are resolved against
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context {
    /// The working directory relative paths start from, when the host gives one
    pub cwd: Option<String>,
    /// The home directory `~` and `$HOME` stand for; without it they stay `~`
    pub home: Option<String>,
}

/// What reading a command line gave: its simple commands, or why it could not be read
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// The command line, as the simple commands it runs
    Read(Script),
    /// The command line could not be read with certainty; a guard must fail closed
    Unreadable(Unreadable),
}

/// Reads one command line into the simple commands it runs, or says why it cannot
pub fn read(line: &str, context: &Context) -> Reading {
    match walk::read_script(line, context) {
        Ok(script) => Reading::Read(script),
        Err(reason) => Reading::Unreadable(reason),
    }
}
