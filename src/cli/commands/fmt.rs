//! `rulesc fmt POLICY... [--check]`: rewrites `.rules` files in the canonical layout.
//!
//! Formatting is `rulesc_compiler::format_source`: layout only, comments kept, idempotent,
//! and the `on` of a rule without `@id` kept on its line (its id). A file with syntax errors
//! is left alone and its errors are reported on stderr (exit 1); so is a file whose layout
//! would move such a rule, saying which.
//! Without `--check`, changed files are rewritten; with it nothing is written and each file
//! that would change is named. Either way a closing plain line counts the files. Exit 0 when
//! every file is (now) formatted, 1 when `--check` found one that is not or a file has
//! errors, 2 when a path cannot be read or is a compiled JSON policy.

use std::io::Write;

use rulesc::load::{self, Sources};
use rulesc::RenderOptions;
use rulesc::SourceBytes;
use rulesc_compiler::FormatError;

use crate::cli::args::FmtArgs;
use crate::cli::ExitStatus;

/// Runs `rulesc fmt`
pub(crate) fn run(args: &FmtArgs) -> ExitStatus {
    let inputs = match load::read_sources(&args.policies) {
        Ok(Sources::Rules(inputs)) => inputs,
        Ok(Sources::Compiled(_)) => {
            return fail("a compiled JSON policy cannot be formatted: give `.rules` files");
        }
        Err(err) => return fail(&err.to_string()),
    };
    let mut n_changed = 0_usize;
    let mut n_unchanged = 0_usize;
    let mut broken = Vec::new();
    let mut moved = String::new();
    let mut n_moved = 0_usize;
    let mut out = String::new();
    for input in inputs {
        let Ok(text) = std::str::from_utf8(&input.bytes) else {
            broken.push(input);
            continue;
        };
        let new = match rulesc_compiler::format_source(text) {
            Ok(new) => new,
            Err(err @ FormatError::MovesRuleId { .. }) => {
                moved.push_str(&format!(
                    "error: cannot format `{}`: {}\n",
                    input.path,
                    err.reason(&input.name)
                ));
                n_moved += 1;
                continue;
            }
            Err(_) => {
                broken.push(input);
                continue;
            }
        };
        if text == new {
            n_unchanged += 1;
            continue;
        }
        n_changed += 1;
        if args.check {
            let line = first_difference(text, &new);
            out.push_str(&format!(
                "would reformat `{}` (from line {line})\n",
                input.path
            ));
        } else if let Err(err) = std::fs::write(&input.path, &new) {
            return fail(&format!("cannot write `{}`: {err}", input.path));
        }
    }
    let n_broken = broken.len() + n_moved;
    if !broken.is_empty() {
        report_errors(broken);
    }
    if !moved.is_empty() {
        let _ = std::io::stderr().lock().write_all(moved.as_bytes());
    }
    out.push_str(&summary(args.check, n_changed, n_unchanged, n_broken));
    if std::io::stdout().lock().write_all(out.as_bytes()).is_err() {
        return ExitStatus::Error;
    }
    if n_broken > 0 || (args.check && n_changed > 0) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

/// The closing line: `2 files reformatted, 4 files left unchanged`
fn summary(check: bool, n_changed: usize, n_unchanged: usize, n_broken: usize) -> String {
    let changed = if check {
        format!("{} would be reformatted", files(n_changed))
    } else {
        format!("{} reformatted", files(n_changed))
    };
    let mut line = format!("{changed}, {} left unchanged", files(n_unchanged));
    if n_broken > 0 {
        line.push_str(&format!(", {} with errors", files(n_broken)));
    }
    line.push('\n');
    line
}

/// `1 file`, `3 files`
fn files(count: usize) -> String {
    if count == 1 {
        "1 file".to_owned()
    } else {
        format!("{count} files")
    }
}

/// The 1-based number of the first line where `old` and `new` differ
fn first_difference(old: &str, new: &str) -> usize {
    let mut old_lines = old.lines();
    let mut new_lines = new.lines();
    let mut line = 1;
    while let (Some(old_line), Some(new_line)) = (old_lines.next(), new_lines.next()) {
        if old_line != new_line {
            break;
        }
        line += 1;
    }
    line
}

/// Prints the errors of the files that could not be formatted on stderr, each checked alone
fn report_errors(broken: Vec<SourceBytes>) {
    let mut text = String::new();
    for input in broken {
        let diagnostics = rulesc::check_sources(vec![input]).diagnostics.errors_only();
        text.push_str(&diagnostics.render(RenderOptions::for_stream(&std::io::stderr())));
    }
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Prints `reason` as the one-line error of exit 2
fn fail(reason: &str) -> ExitStatus {
    crate::cli::print_error(reason);
    ExitStatus::Error
}
