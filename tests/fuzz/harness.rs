//! The fuzzing harness shared by the `fuzz_*` targets: proptest on a stable toolchain,
//! where cargo-fuzz and libFuzzer would need a nightly one.
//!
//! A target is a property over one input. [`fuzz`] first replays every file of the
//! target's corpus (`tests/fuzz/corpus/<target>/`, plus any seed folders the target names),
//! then checks generated inputs: `PROPTEST_CASES` of them (proptest's default, 256, unless
//! the environment says otherwise), or, when `RULESC_FUZZ_SECS` is set, as many as fit in
//! that many seconds, in rounds with fresh random seeds. It prints the figures on stderr
//! (`cargo test -- --nocapture` shows them). A failure is shrunk by proptest, kept in the
//! target's `.proptest-regressions` file and replayed first by every later run; add the
//! minimal input to the corpus as well, so it stays a seed once fixed.
//!
//! Every input must also be judged quickly: a case that takes longer than [`SLOW_CASE`]
//! fails, so a blow-up in time shows as a finding, not as a slow CI.

#![allow(
    dead_code,
    unreachable_pub,
    reason = "each fuzz target uses its own part of the harness"
)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError, TestError, TestRunner};

/// The longest one case may take (debug build, shared machine)
pub const SLOW_CASE: Duration = Duration::from_secs(20);

/// The corpus folder of `target`
pub fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz/corpus")
        .join(target)
}

/// Every file below `dir`, sorted, with its path relative to the repository
pub fn files_below(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                let shown = path
                    .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                found.push((shown, bytes));
            }
        }
    }
    found.sort();
    found
}

/// Runs `check` once, failing when it takes longer than [`SLOW_CASE`]
fn timed(
    check: &impl Fn(Vec<u8>) -> Result<(), TestCaseError>,
    input: Vec<u8>,
) -> Result<(), TestCaseError> {
    let start = Instant::now();
    check(input)?;
    let took = start.elapsed();
    if took > SLOW_CASE {
        return Err(TestCaseError::fail(format!("one case took {took:?}")));
    }
    Ok(())
}

/// Fuzzes `check` with the corpus of `target` (and the files below `seeds`), then with
/// inputs from `inputs`; `source_file` is the target's `file!()`, for its regressions;
/// a case that costs `cost` times a usual one runs `cost` times fewer cases by default
#[expect(
    clippy::panic,
    clippy::print_stderr,
    reason = "a fuzz target reports its figures and fails its test on a finding"
)]
pub fn fuzz<S>(
    target: &str,
    source_file: &'static str,
    cost: u32,
    seeds: &[&str],
    inputs: S,
    check: impl Fn(Vec<u8>) -> Result<(), TestCaseError>,
) where
    S: Strategy<Value = Vec<u8>>,
{
    let start = Instant::now();
    let mut corpus = files_below(&corpus_dir(target));
    for seed in seeds {
        corpus.extend(files_below(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join(seed),
        ));
    }
    for (path, bytes) in &corpus {
        if let Err(err) = timed(&check, bytes.clone()) {
            panic!("{target}: corpus file {path} fails: {err}");
        }
    }
    let budget = std::env::var("RULESC_FUZZ_SECS")
        .ok()
        .and_then(|secs| secs.parse::<u64>().ok())
        .map(Duration::from_secs);
    let base = Config {
        source_file: Some(source_file),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::default()
    };
    let mut n_generated: u64 = 0;
    loop {
        let config = Config {
            // In a timed run, rounds are short so the budget is kept.
            cases: if budget.is_some() {
                (500 / cost).max(1)
            } else {
                (base.cases / cost).max(1)
            },
            ..base.clone()
        };
        let cases = u64::from(config.cases);
        let mut runner = TestRunner::new(config);
        match runner.run(&inputs, |input| timed(&check, input)) {
            Ok(()) => {}
            Err(TestError::Fail(why, input)) => panic!(
                "{target}: {why}\nminimal input ({} bytes, shown lossily):\n{}\nexact bytes: b\"{}\"",
                input.len(),
                String::from_utf8_lossy(&input),
                input.escape_ascii()
            ),
            Err(TestError::Abort(why)) => panic!("{target}: aborted: {why}"),
        }
        n_generated += cases;
        match budget {
            Some(budget) if start.elapsed() < budget => {}
            _ => break,
        }
    }
    eprintln!(
        "fuzz {target}: {} corpus files and {n_generated} generated cases in {:.1} s, no finding",
        corpus.len(),
        start.elapsed().as_secs_f64()
    );
}
