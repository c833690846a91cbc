//! Running the `rulesc` binary from the CLI's integration tests: its exit code, stdout and
//! stderr, and those three as one transcript for a snapshot.

#![expect(
    clippy::unwrap_used,
    reason = "helpers of tests: a command that cannot run should stop the test"
)]
#![allow(
    dead_code,
    reason = "each test binary uses its own subset of the helpers"
)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `rulesc args...`, to be run in `dir`; the environment is the test's own
pub(crate) fn command(dir: impl AsRef<Path>, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rulesc"));
    command.args(args).current_dir(dir);
    command
}

/// Runs `command` to its end with `stdin` as its input, and returns what it left
pub(crate) fn output(command: &mut Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// Runs `command` to its end with `stdin` as its input: exit code, stdout, stderr
pub(crate) fn run(command: &mut Command, stdin: &str) -> (i32, String, String) {
    let output = output(command, stdin.as_bytes());
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// `rulesc args...` run in `dir` with `NO_COLOR` set and nothing on stdin
pub(crate) fn rulesc(dir: impl AsRef<Path>, args: &[&str]) -> (i32, String, String) {
    run(command(dir, args).env("NO_COLOR", "1"), "")
}

/// The command line, then what `run` returned under headers, as one snapshot
pub(crate) fn transcript(args: &[&str], (code, stdout, stderr): (i32, String, String)) -> String {
    format!(
        "$ rulesc {}\nexit: {code}\n--- stdout\n{stdout}--- stderr\n{stderr}",
        args.join(" ")
    )
}
