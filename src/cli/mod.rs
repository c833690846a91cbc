//! The `rulesc` command line: argument parsing, dispatch, and the IO all commands share.

mod args;
mod codex_trust;
mod commands;
mod doctor;
mod exit;
mod hook_config;
mod policy;
mod progress;
mod schema;

use std::process::ExitCode;

use args::{Cli, Command};
use clap::Parser;
pub(crate) use exit::ExitStatus;

/// Writes `error: <reason>` on stderr, on one line whatever `reason` holds: input echoed in
/// a reason (a name, a serde message quoting a string) has its control characters escaped,
/// as docs/cli.md promises exit 2 "with a one-line reason"; nothing is left to tell if stderr
/// itself is gone
pub(crate) fn print_error(reason: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr().lock(),
        "error: {}",
        rulesc::one_line(reason)
    );
}

/// Warns on stderr about each unknown key, with where it is (`` `a.jsonl` line 3 ``); under
/// `--strict` each is an error instead, and the command stops with exit 2
pub(crate) fn warn_unknown_keys<'a>(
    unknown: impl Iterator<Item = (String, &'a rulesc::keys::UnknownKey)>,
    strict: bool,
) -> Result<(), ExitStatus> {
    let mut any = false;
    for (place, key) in unknown {
        any = true;
        let text = format!("{place}: {key}");
        if strict {
            print_error(&text);
        } else {
            print_warning(&text);
        }
    }
    if any && strict {
        Err(ExitStatus::Error)
    } else {
        Ok(())
    }
}

/// Writes `warning: <text>` on stderr, on one line
pub(crate) fn print_warning(text: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr().lock(),
        "warning: {}",
        rulesc::one_line(text)
    );
}

/// Runs the command line and returns the process exit code
pub(crate) fn main() -> ExitCode {
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
        Command::Init(args) => commands::init::run(&args),
        Command::Doctor(args) => commands::doctor::run(&args),
        Command::Completions(args) => commands::completions::run(&args),
        Command::Schema(args) => commands::schema::run(&args),
        Command::Lsp(_) => commands::lsp::run(),
        Command::Replay(args) => commands::replay::run(&args),
    };
    status.into()
}
