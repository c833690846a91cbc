//! Compiling the tool-rules shape from source, per rule count (`compile`): rulesc parses,
//! checks and indexes (`rulesc::compile_str`); cedar-policy parses a `PolicySet`; regorus
//! parses and analyses the module (`Engine::add_policy`). rulesc's phases are timed apart
//! too (`compile_phases`): the parser alone, and `Policy::new` (rule checks and the index)
//! on rules already lowered (their cloning left out).

#![expect(
    clippy::expect_used,
    reason = "a benchmark whose workload cannot be set up must stop"
)]

use std::hint::black_box;
use std::str::FromStr;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, SamplingMode};
use rulesc::{Defaults, Policy};
use rulesc_bench::tool_rules;
use rulesc_bench::RULE_COUNTS;

fn compile(c: &mut Criterion) {
    let mut group = c.benchmark_group("compile");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for n_rules in RULE_COUNTS {
        let source = tool_rules::rulesc_source(n_rules);
        group.bench_with_input(BenchmarkId::new("rulesc", n_rules), &source, |b, src| {
            b.iter(|| rulesc::compile_str("tools.rules", black_box(src)).expect("compiles"));
        });
        let source = tool_rules::cedar_source(n_rules);
        group.bench_with_input(BenchmarkId::new("cedar", n_rules), &source, |b, src| {
            b.iter(|| cedar_policy::PolicySet::from_str(black_box(src)).expect("parses"));
        });
        let source = tool_rules::rego_source(n_rules);
        group.bench_with_input(BenchmarkId::new("regorus", n_rules), &source, |b, src| {
            b.iter(|| {
                let mut engine = regorus::Engine::new();
                engine
                    .add_policy("tools.rego".to_owned(), black_box(src).clone())
                    .expect("parses");
                engine
            });
        });
    }
    group.finish();
}

fn phases(c: &mut Criterion) {
    let mut group = c.benchmark_group("compile_phases");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for n_rules in RULE_COUNTS {
        let source = tool_rules::rulesc_source(n_rules);
        group.bench_with_input(BenchmarkId::new("parse", n_rules), &source, |b, src| {
            b.iter(|| rulesc_grammar::parse(black_box(src)));
        });
        let rules = rulesc::compile_str("tools.rules", &source)
            .expect("compiles")
            .user_rules()
            .to_vec();
        group.bench_with_input(BenchmarkId::new("index", n_rules), &rules, |b, rules| {
            b.iter_batched(
                || rules.clone(),
                |rules| Policy::new(rules, Defaults::default()).expect("valid"),
                BatchSize::LargeInput,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, compile, phases);
criterion_main!(benches);
