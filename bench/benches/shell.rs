//! Shell conditions on a 1 KB command line (`shell_1kb`): reading it into simple commands
//! (`read`, and `read_tree_sitter` with tree-sitter-bash alone, without the fast reader),
//! deciding it with the shipped safe-shell policy, which reads it once (`safe_shell`),
//! beside seven guards written as plain globs on the same text (`glob_guards`); and the
//! safe-shell policy on a tool that is no shell (`other_tool`), which reads nothing.
//! `inline_code` reads a `python3 -c` line, whose code is parsed, beside the same text given
//! to `echo`, and decides it with safe-shell.
//! `shell_short` reads the short lines agents run most (`ls -la`, `git status`, `cargo test
//! -q`), which a cut made for long lines must not slow.
//! `shell_latency` times single decisions and prints their p50, p99 and maximum, which
//! criterion's means do not show, for safe-shell and for every policy of `rules/` at once
//! (safe-shell and the shell packs).

#![expect(
    clippy::expect_used,
    reason = "a benchmark whose workload cannot be set up must stop"
)]
#![expect(
    clippy::print_stdout,
    reason = "the percentiles are the benchmark's own report"
)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use rulesc_bench::shell_lines::{
    bash_event, glob_guards, inline_python_lines, line_1kb, other_tool_event, safe_shell,
    EVERYDAY_LINES,
};
use rulesc_bench::shipped::policy as shipped;
use rulesc_shell::{read, read_with_tree_sitter, Context};

fn shell_1kb(c: &mut Criterion) {
    let line = line_1kb();
    let context = Context {
        cwd: Some("/home/user/project".to_owned()),
        home: None,
        ..Context::default()
    };
    let safe_shell = safe_shell().expect("safe-shell compiles");
    let globs = glob_guards().expect("the glob guards compile");
    let event = bash_event(&line);
    let other = other_tool_event(&line);
    let mut group = c.benchmark_group("shell_1kb");
    group.bench_function("read", |b| b.iter(|| read(black_box(&line), &context)));
    group.bench_function("read_tree_sitter", |b| {
        b.iter(|| read_with_tree_sitter(black_box(&line), &context))
    });
    group.bench_function("safe_shell", |b| {
        b.iter(|| safe_shell.evaluate(black_box(&event)))
    });
    group.bench_function("glob_guards", |b| {
        b.iter(|| globs.evaluate(black_box(&event)))
    });
    group.bench_function("other_tool", |b| {
        b.iter(|| safe_shell.evaluate(black_box(&other)))
    });
    group.finish();
}

/// Reading the short lines agents run most (`shell_short`), one benchmark each
fn shell_short(c: &mut Criterion) {
    let context = Context {
        cwd: Some("/home/user/project".to_owned()),
        home: None,
        ..Context::default()
    };
    let mut group = c.benchmark_group("shell_short");
    for line in EVERYDAY_LINES {
        group.bench_function(line, |b| b.iter(|| read(black_box(line), &context)));
    }
    group.finish();
}

/// A `python3 -c` line, whose code is parsed, beside the same line given to `echo`
fn inline_code(c: &mut Criterion) {
    let (python, echo) = inline_python_lines();
    let context = Context {
        cwd: Some("/home/user/project".to_owned()),
        home: None,
        ..Context::default()
    };
    let safe_shell = safe_shell().expect("safe-shell compiles");
    let event = bash_event(&python);
    let mut group = c.benchmark_group("inline_code");
    group.bench_function("read_python", |b| {
        b.iter(|| read(black_box(&python), &context))
    });
    group.bench_function("read_echo", |b| b.iter(|| read(black_box(&echo), &context)));
    group.bench_function("safe_shell_python", |b| {
        b.iter(|| safe_shell.evaluate(black_box(&event)))
    });
    group.finish();
}

/// Decisions timed one by one
const SAMPLES: usize = 20_000;

/// The p50, p99 and maximum of `SAMPLES` decisions of `policy` on `event`, timed one by one
fn percentiles(policy: &rulesc::Policy, event: &rulesc::Event) -> (Duration, Duration, Duration) {
    let mut times: Vec<Duration> = (0..SAMPLES)
        .map(|_| {
            let started = Instant::now();
            black_box(policy.evaluate(black_box(event)));
            started.elapsed()
        })
        .collect();
    times.sort_unstable();
    // Per mille, in integers: the 500th, the 990th and the last.
    let at = |per_mille: usize| {
        let index = (SAMPLES * per_mille / 1000).min(SAMPLES - 1);
        times.get(index).copied().unwrap_or_default()
    };
    (at(500), at(990), at(1000))
}

fn shell_latency(_: &mut Criterion) {
    let line = line_1kb();
    let safe_shell = safe_shell().expect("safe-shell compiles");
    let event = bash_event(&line);
    let (p50, p99, max) = percentiles(&safe_shell, &event);
    println!(
        "shell_latency: safe-shell on a {}-byte line, {SAMPLES} decisions: p50 {p50:?}, p99 {p99:?}, max {max:?}",
        line.len(),
    );
    // Every shipped policy at once: safe-shell and the packs read the line once between them.
    let shipped = shipped().expect("the shipped policies compile");
    let (all_p50, all_p99, all_max) = percentiles(&shipped, &event);
    println!(
        "shell_latency: every policy of rules/ on the same line, {SAMPLES} decisions: p50 {all_p50:?}, p99 {all_p99:?}, max {all_max:?}",
    );
    // `bench/run.sh` names the file `bench/report.py` reads the percentiles from.
    if let Some(path) = std::env::var_os("RULESC_SHELL_LATENCY") {
        let json = serde_json::json!({
            "samples": SAMPLES,
            "p50_ns": p50.as_nanos(),
            "p99_ns": p99.as_nanos(),
            "max_ns": max.as_nanos(),
        });
        std::fs::write(path, json.to_string()).expect("the latency file can be written");
    }
}

criterion_group!(benches, shell_1kb, shell_short, inline_code, shell_latency);
criterion_main!(benches);
