//! Shell command lines as structure.
//!
//! [`read`] turns one command line into the simple commands it would run: program (the
//! basename, after quotes and escapes are removed), flags (short clusters split), operands,
//! paths normalised lexically, output redirects, and which commands feed each one's input.
//! It looks inside pipelines, lists, subshells, groups, `$(...)`, backticks, process
//! substitution, here-strings, wrappers (`sudo`, `env`, `timeout`, `xargs`, ...) and the
//! scripts handed to `sh -c`, `eval` or a shell's input, up to a bounded depth.
//!
//! Two readers build the syntax tree: a fast reader for the common lines (plain and quoted
//! words, `$NAME`, `$(...)`, lists, pipelines, redirections, here-strings, assignments), which
//! builds tree-sitter-bash's own tree and gives up on anything else, and tree-sitter-bash for
//! the rest. One walk reads both trees, so a line means the same whichever reads it;
//! [`read_with_tree_sitter`] reads with tree-sitter-bash alone, the reference the fast reader
//! is tested against.
//!
//! Whatever cannot be read with certainty (a syntax error, a NUL byte, too large, too deep)
//! is a [`Reading::Unreadable`] value, never a panic, so a guard can fail closed.

mod arithmetic;
#[cfg(feature = "tree-sitter")]
mod bash_tree;
mod by_name;
mod clients;
mod command;
mod debugger;
mod evaluated;
mod expand;
mod fast;
mod inline;
mod knowledge;
mod limits;
mod links;
mod name_filter;
mod name_glob;
mod path;
mod printf;
mod secret_copies;
mod syntax;
mod unknown_word;
mod unlisted;
mod vim;
mod walk;
mod watched;
mod word;
mod wrapper;
mod writes;
mod xargs;

pub use command::{Part, Redirect, Script, SimpleCommand, Target, Unknown};
pub use knowledge::{is_system_folder, program_kind, ProgramKind, PROGRAM_KINDS};
pub use limits::{
    Unreadable, MAX_BYTES, MAX_COMMANDS, MAX_LINKS, MAX_NESTING, MAX_SCRIPT_DEPTH, MAX_TIME,
};
pub use name_filter::NameFilter;
pub use watched::{WatchedName, WatchedNames};

/// Where a command line runs: the directories paths are resolved against
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context {
    /// The working directory relative paths start from, when the host gives one
    pub cwd: Option<String>,
    /// The home directory `~` and `$HOME` stand for; without it they stay `~`
    pub home: Option<String>,
    /// The program names the loaded policies test: behind a program the reader has no row
    /// for, a word naming one is read as the command it may run, as one its tables name is
    pub watched: WatchedNames,
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
    reading(walk::read_script(line, context, true))
}

/// Reads one command line as [`read`] does, but with tree-sitter-bash alone, never the
/// fast reader: the reference the fast reader is held to
pub fn read_with_tree_sitter(line: &str, context: &Context) -> Reading {
    reading(walk::read_script(line, context, false))
}

/// Whether the fast reader reads `line` itself, rather than leaving it to tree-sitter-bash
/// (the scripts nested in it, such as that of `sh -c`, are asked on their own)
pub fn reads_fast(line: &str) -> bool {
    fast::read(line).is_some()
}

fn reading(result: Result<Script, Unreadable>) -> Reading {
    match result {
        Ok(script) => Reading::Read(script),
        Err(reason) => Reading::Unreadable(reason),
    }
}
