//! The `rulesc` command: parse the command line, dispatch, exit.

use std::process::ExitCode;

fn main() -> ExitCode {
    rulesc::cli::main()
}
