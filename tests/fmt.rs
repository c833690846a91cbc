//! `rulesc fmt`: the canonical layout of every fixture in `tests/fmt/` (snapshotted, and
//! checked to be a fixed point), and the command's exit codes, output and file rewriting.

#![expect(
    clippy::unwrap_used,
    reason = "a fixture that cannot be read or a command that cannot run should stop the test"
)]

use crate::common;

use std::path::Path;

use crate::common::rulesc;
use rulesc_compiler::FormatError;

/// Exit code, stdout and stderr of `rulesc args...` run in `dir`, under headers
fn transcript(dir: &Path, args: &[&str]) -> String {
    common::transcript(args, rulesc(dir, args))
}

/// A temporary folder holding copies of the named fixtures of `tests/fmt/`
fn workspace(fixtures: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in fixtures {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fmt")
            .join(name);
        std::fs::copy(from, dir.path().join(name)).unwrap();
    }
    dir
}

fn settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}

#[test]
fn fixtures_in_canonical_layout() {
    settings().bind(|| {
        insta::glob!("fmt/*.rules", |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let snapshot = match rulesc_compiler::format_source(&text) {
                Ok(formatted) => {
                    assert_eq!(
                        rulesc_compiler::format_source(&formatted).as_deref(),
                        Ok(formatted.as_str()),
                        "formatting {} twice changed it",
                        path.display()
                    );
                    formatted
                }
                Err(FormatError::MovesRuleId { line, .. }) => {
                    format!("(not formatted: the layout would move the rule on line {line})\n")
                }
                Err(_) => "(not formatted: the file has syntax errors)\n".to_owned(),
            };
            insta::assert_snapshot!("fmt", snapshot);
        });
    });
}

/// Snapshots `rulesc args...` run in `dir` as `name`, and checks that `file` is left as it was
fn snapshot_leaving_alone(dir: &Path, name: &str, args: &[&str], file: &str) {
    let before = std::fs::read_to_string(dir.join(file)).unwrap();
    settings().bind(|| insta::assert_snapshot!(name, transcript(dir, args)));
    let after = std::fs::read_to_string(dir.join(file)).unwrap();
    assert_eq!(before, after, "{file} was rewritten");
}

#[test]
fn check_names_the_files_that_would_change_and_writes_nothing() {
    let dir = workspace(&["canonical.rules", "comments.rules", "long-rules.rules"]);
    snapshot_leaving_alone(
        dir.path(),
        "fmt_check_unformatted",
        &["fmt", "--check", "."],
        "comments.rules",
    );
}

#[test]
fn fmt_rewrites_files_then_check_passes() {
    let dir = workspace(&["canonical.rules", "test-blocks.rules"]);
    settings().bind(|| {
        insta::assert_snapshot!("fmt_rewrite", transcript(dir.path(), &["fmt", "."]));
    });
    let rewritten = std::fs::read_to_string(dir.path().join("test-blocks.rules")).unwrap();
    assert_eq!(
        rulesc_compiler::format_source(&rewritten).as_deref(),
        Ok(rewritten.as_str())
    );
    let (code, stdout, _) = rulesc(dir.path(), &["fmt", "--check", "."]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(
        stdout,
        "0 files would be reformatted, 2 files left unchanged\n"
    );
}

#[test]
fn a_file_with_syntax_errors_is_reported_and_left_alone() {
    let dir = workspace(&["broken.rules", "canonical.rules"]);
    snapshot_leaving_alone(
        dir.path(),
        "fmt_syntax_error",
        &["fmt", "broken.rules", "canonical.rules"],
        "broken.rules",
    );
}

#[test]
fn unreadable_paths_and_compiled_policies_are_usage_errors() {
    let dir = workspace(&["canonical.rules"]);
    let (code, stdout, stderr) = rulesc(dir.path(), &["fmt", "missing.rules"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "error: cannot read `missing.rules`: no such file or directory\n"
    );
    let (_, json, _) = rulesc(dir.path(), &["compile", "canonical.rules"]);
    std::fs::write(dir.path().join("compiled.json"), json).unwrap();
    let (code, _, stderr) = rulesc(dir.path(), &["fmt", "compiled.json"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: a compiled JSON policy cannot be formatted: give `.rules` files\n"
    );
}

#[test]
fn rule_ids_survive_formatting() {
    let dir = workspace(&["default-ids.rules"]);
    let (code, stdout, _) = rulesc(dir.path(), &["test", "default-ids.rules"]);
    assert_eq!((code, stdout.as_str()), (0, "1 passed, 0 failed\n"));
    let (code, _, _) = rulesc(dir.path(), &["fmt", "default-ids.rules"]);
    assert_eq!(code, 0);
    let (code, stdout, _) = rulesc(dir.path(), &["test", "default-ids.rules"]);
    assert_eq!((code, stdout.as_str()), (0, "1 passed, 0 failed\n"));
}

#[test]
fn a_layout_that_would_move_a_rule_id_is_refused() {
    let dir = workspace(&["moves-id.rules", "canonical.rules"]);
    snapshot_leaving_alone(
        dir.path(),
        "fmt_moves_rule_id",
        &["fmt", "moves-id.rules", "canonical.rules"],
        "moves-id.rules",
    );
}
