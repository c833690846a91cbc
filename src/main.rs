//! The `rulesc` command: parse the command line, dispatch, exit.

mod cli;

use std::process::ExitCode;

/// A reading of a command line makes a few hundred small strings and frees them: mimalloc
/// does that in about four fifths of the work of the system's allocator (BENCHMARKS.md).
/// Chosen here, in the binary, so that an application embedding the crates keeps its own.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cli::main()
}
