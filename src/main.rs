//! The `rulesc` command: parse the command line, dispatch, exit.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
