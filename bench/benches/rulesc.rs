//! rulesc alone: N thresholds on `steps` (`counters_no_match`, `counters_one_match`), the
//! shipped policies on the events of one step (`shipped`), and whole runs of the agent loop
//! with a no-op model and tools (`agent_loop`, the parameter is the number of steps).

#![expect(
    clippy::expect_used,
    reason = "a benchmark whose workload cannot be set up must stop"
)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rulesc::{AgentLoop, Defaults, Limits, Policy};
use rulesc_bench::noop::{ApproveAll, NoopModel, NoopTools};
use rulesc_bench::tool_rules::Request;
use rulesc_bench::{counter_rules, shipped, RULE_COUNTS};

fn counters(c: &mut Criterion) {
    for n_rules in RULE_COUNTS {
        let policy = rulesc::compile_str("steps.rules", &counter_rules::rulesc_source(n_rules))
            .expect("compiles");
        for request in Request::ALL {
            let event = counter_rules::event(request);
            let mut group = c.benchmark_group(format!("counters_{}", request.name()));
            group.bench_with_input(BenchmarkId::new("rulesc", n_rules), &event, |b, event| {
                b.iter(|| policy.evaluate(black_box(event)));
            });
            group.finish();
        }
    }
}

fn shipped_rules(c: &mut Criterion) {
    let policy = shipped::policy().expect("the shipped rules compile");
    let mut group = c.benchmark_group("shipped");
    for (name, event) in shipped::events().expect("events parse") {
        group.bench_with_input(BenchmarkId::new("rulesc", name), &event, |b, event| {
            b.iter(|| policy.evaluate(black_box(event)));
        });
    }
    group.finish();
}

/// Steps per benchmarked run: under the shipped step budget of 50
const STEPS: u64 = 40;

fn agent_loop(c: &mut Criterion) {
    let limits = Limits {
        max_steps: STEPS + 1,
        ..Limits::default()
    };
    let policies = [
        (
            "prelude_only",
            Policy::new(Vec::new(), Defaults::default()).expect("an empty policy is valid"),
        ),
        (
            "shipped_rules",
            shipped::policy().expect("the shipped rules compile"),
        ),
    ];
    let mut group = c.benchmark_group("agent_loop");
    for (name, policy) in policies {
        let mut agent = AgentLoop::new(policy).with_limits(limits);
        group.bench_function(BenchmarkId::new(name, STEPS), |b| {
            b.iter(|| agent.run(&mut NoopModel::new(STEPS), &mut NoopTools, &mut ApproveAll));
        });
    }
    group.finish();
}

criterion_group!(benches, counters, shipped_rules, agent_loop);
criterion_main!(benches);
