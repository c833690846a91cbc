//! One decision on the tool-rules shape, in rulesc, cedar-policy, regorus and the globset
//! floor, for every rule count and both requests (`tools_no_match`, `tools_one_match`).

#![expect(
    clippy::expect_used,
    reason = "a benchmark whose workload cannot be set up must stop"
)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use rulesc_bench::engines::{Cedar, Engine, GlobsetFloor, Rego, Rulesc};
use rulesc_bench::tool_rules::Request;
use rulesc_bench::RULE_COUNTS;

/// Benchmarks `E` at every rule count on both requests
fn engine<E: Engine>(c: &mut Criterion) {
    for n_rules in RULE_COUNTS {
        let mut engine = E::new(n_rules).expect("the engine compiles the shape");
        for request in Request::ALL {
            let prepared = engine
                .prepare(&request.tool(n_rules))
                .expect("the engine takes the request");
            let mut group = c.benchmark_group(format!("tools_{}", request.name()));
            // The scanning peers take milliseconds per decision at 1,000 rules and more:
            // few flat samples keep the run short.
            if n_rules >= 1_000 && matches!(E::NAME, "cedar" | "regorus") {
                group.sample_size(10).sampling_mode(SamplingMode::Flat);
            }
            group.bench_with_input(BenchmarkId::new(E::NAME, n_rules), &prepared, |b, req| {
                b.iter(|| engine.blocks(black_box(req)));
            });
            group.finish();
        }
    }
}

criterion_group!(
    benches,
    engine::<Rulesc>,
    engine::<GlobsetFloor>,
    engine::<Cedar>,
    engine::<Rego>
);
criterion_main!(benches);
