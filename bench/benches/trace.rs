//! The trace state's cost per event: 20 count/window/streak rules after 0, 1,000 and 10,000
//! events of history (`trace_history`), against the same rules without their trace tests
//! (`trace_baseline`); the difference is the extra work of the trace, and must not grow
//! with the history. `provenance`: a `from` test of a 10 KB argument against 1 MB of
//! labelled content, none of which it holds (the whole argument is read).

#![expect(
    clippy::expect_used,
    reason = "a benchmark whose workload cannot be set up must stop"
)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rulesc::{EvalOptions, TraceState};
use rulesc_bench::trace_rules;

const HISTORY: [u64; 3] = [0, 1_000, 10_000];

fn trace(c: &mut Criterion) {
    let (traced, plain) = trace_rules::sources();
    let traced = rulesc::compile_str("trace.rules", &traced).expect("compiles");
    let plain = rulesc::compile_str("plain.rules", &plain).expect("compiles");
    for (group, policy) in [("trace_history", &traced), ("trace_baseline", &plain)] {
        let mut group = c.benchmark_group(group);
        for history in HISTORY {
            let mut state = TraceState::default();
            for idx in 0..history {
                let options = EvalOptions::default().trace(&mut state);
                policy.evaluate_with(&trace_rules::event(idx), options);
            }
            // The same event each time: the state goes on growing as a run would.
            let event = trace_rules::event(history);
            group.bench_with_input(BenchmarkId::new("rulesc", history), &event, |b, event| {
                b.iter(|| {
                    policy.evaluate_with(black_box(event), EvalOptions::default().trace(&mut state))
                });
            });
        }
        group.finish();
    }
}

fn provenance(c: &mut Criterion) {
    let policy =
        rulesc::compile_str("from.rules", trace_rules::PROVENANCE_SOURCE).expect("compiles");
    let mut state = TraceState::default();
    let mut page = rulesc::Event::new(rulesc::EventKind::PostToolUse);
    page.result = Some(rulesc::ToolOutput::from_text(trace_rules::words(
        1 << 20,
        1,
    )));
    policy.evaluate_with(&page, EvalOptions::default().trace(&mut state));
    let mut call = rulesc::Event::new(rulesc::EventKind::PreToolUse);
    call.tool = Some("send_email".to_owned());
    call.arg = Some(serde_json::json!({ "body": trace_rules::words(10 << 10, 2) }));
    // The label is not full (a full one holds at once): the whole argument is read.
    let mut run = state.clone();
    assert_ne!(
        policy
            .evaluate_with(&call, EvalOptions::default().trace(&mut run))
            .resolution
            .decision,
        rulesc::Decision::Block
    );
    let mut group = c.benchmark_group("provenance");
    group.bench_function("from_10kb_against_1mb", |b| {
        b.iter(|| policy.evaluate_with(black_box(&call), EvalOptions::default().trace(&mut state)));
    });
    group.finish();
}

criterion_group!(benches, trace, provenance);
criterion_main!(benches);
