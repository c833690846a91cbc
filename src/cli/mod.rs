//! The `rulesc` command line: argument parsing, dispatch, and the IO all commands share.

mod args;
mod commands;
mod exit;
pub(crate) mod input;
pub(crate) mod load;
pub mod report;

use std::process::ExitCode;

use clap::Parser;

pub use args::Cli;
use args::Command;
pub use exit::ExitStatus;

/// Runs the command line and returns the process exit code
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Check(args) => commands::check::run(&args),
        Command::Explain(args) => commands::explain::run(&args),
        Command::Fmt(args) => commands::fmt::run(&args),
        Command::Compile(args) => commands::compile::run(&args),
        Command::Eval(args) => commands::eval::run(&args),
        Command::Test(args) => commands::test::run(&args),
        Command::Run(args) => commands::run::run(&args),
        Command::Hook(args) => commands::hook::run(&args),
    };
    status.into()
}
