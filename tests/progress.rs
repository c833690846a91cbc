//! Progress bars: `rulesc test` over a big folder draws one on a terminal (a pseudo-terminal
//! from util-linux `script`), and prints nothing extra when stderr is piped.

#![expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "helpers of tests: a fixture that cannot be read or run should fail the test"
)]

use crate::common;

use std::path::Path;

/// A folder with the shipped policies and `n` copies of one shipped scenario
fn big_folder(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir("rules").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "rules") {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    for copy in 0..n {
        std::fs::copy(
            "rules/scenarios/rate-limit-is-retried.scenario.json",
            dir.path().join(format!("s{copy}.scenario.json")),
        )
        .unwrap();
    }
    dir
}

fn n_inline_tests(dir: &Path) -> usize {
    let (_, stdout, _) = common::rulesc(".", &["test", "--format", "json", dir.to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    report["tests"].as_array().unwrap().len()
}

#[test]
fn piped_stderr_gets_nothing_extra() {
    let dir = big_folder(40);
    let (code, stdout, stderr) = common::rulesc(".", &["test", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(stderr, "");
    assert!(
        !stdout.contains('\r') && !stdout.contains('\u{1b}'),
        "{stdout:?}"
    );
    let total = n_inline_tests(dir.path());
    assert_eq!(stdout, format!("{total} passed, 0 failed\n"));
}

#[test]
fn a_terminal_sees_a_bar_that_is_cleared_at_the_end() {
    let dir = big_folder(40);
    let total = n_inline_tests(dir.path());
    let command = format!(
        "{} test {}",
        env!("CARGO_BIN_EXE_rulesc"),
        dir.path().to_str().unwrap()
    );
    let mut script = std::process::Command::new("script");
    script.args(["-qec", &command, "/dev/null"]);
    let (code, screen, _) = common::run(&mut script, "");
    assert_eq!(code, 0, "{screen}");
    assert!(screen.contains(&format!("/{total} tests")), "{screen:?}");
    // The bar's last drawing is erased (`\r` and the ANSI erase-line) before the summary.
    let summary = format!("{total} passed, 0 failed");
    let (before, _) = screen.rsplit_once(&summary).unwrap();
    assert!(
        before.ends_with("\u{1b}[2K"),
        "{:?}",
        &before[before.len().saturating_sub(40)..]
    );
}
