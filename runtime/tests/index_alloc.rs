//! Evaluating an event that no rule matches allocates nothing, however many rules the policy
//! has: the index finds no candidate (or candidates whose residual conditions fail) without
//! touching the heap, and the outcome is built from empty vectors.
//!
//! Measured with a counting global allocator, so this binary holds one test: another test
//! running on a second thread would count too. The event has no metadata: an outcome carries
//! a copy of the event's metadata, and copying a non-empty map allocates. A `default` would
//! allocate too (`resolved_by: "default"`), but a default deciding is a decision, not "no
//! match". The first evaluation warms up what is made once per thread or per program: the
//! regex and glob caches, and the registration of tracing call sites.

#![expect(
    clippy::expect_used,
    reason = "helpers of tests: a bad fixture fails the test"
)]

mod common;

use std::alloc::System;
use std::hint::black_box;

use rulesc_runtime::{
    CompareOp, Condition, Decision, Event, EventKind, Field, GlobPattern, Literal, Policy,
    RegexPattern, Rule, Verb,
};
use serde_json::json;
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

use common::{arg, cmp, decide, event, policy, s, when};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn glob(field: Field, pattern: &str) -> Condition {
    Condition::Glob {
        field,
        pattern: GlobPattern::new(pattern).expect("test glob is valid"),
    }
}

fn rule(idx: i64, events: &[EventKind], verb: Verb, condition: Condition) -> Rule {
    when(decide(&format!("r{idx}"), events, verb), condition)
}

/// A policy with every kind of key the index has, and some rules it cannot key
fn policy_of_every_kind() -> Policy {
    let tool = [EventKind::PreToolUse];
    let mut rules = Vec::new();
    for idx in 0..200_i64 {
        let condition = match idx % 10 {
            0 => cmp(Field::Tool, CompareOp::Eq, s(&format!("tool{idx}"))),
            1 => Condition::In {
                field: Field::Tool,
                list: vec![s(&format!("a{idx}")), s(&format!("b{idx}"))],
            },
            2 => glob(Field::Tool, &format!("tool{idx}_*")),
            3 => glob(Field::Tool, &format!("*_tool{idx}")),
            4 => glob(Field::Tool, &format!("mcp__{idx}__*__x")),
            5 => cmp(Field::Steps, CompareOp::Ge, Literal::Int(1000 + 10 * idx)),
            6 => cmp(Field::Elapsed, CompareOp::Le, Literal::Duration(4)),
            // Found through the index, then refused by the residual condition.
            7 => Condition::All(vec![
                cmp(Field::Tool, CompareOp::Eq, s("git")),
                glob(arg("command"), &format!("rm{idx}*")),
            ]),
            // Not keyed: tested on every event.
            8 => Condition::Regex {
                field: arg("command"),
                pattern: RegexPattern::new(&format!("^rm{idx}")).expect("test regex is valid"),
            },
            _ => Condition::Any(vec![
                cmp(Field::Tool, CompareOp::Eq, s(&format!("x{idx}"))),
                cmp(Field::Tokens, CompareOp::Gt, Literal::Int(1_000_000)),
            ]),
        };
        rules.push(rule(idx, &tool, Verb::Block, condition));
    }
    rules.push(rule(
        200,
        &[EventKind::BeforeStep],
        Verb::Forbid,
        cmp(Field::Steps, CompareOp::Ge, Literal::Int(50)),
    ));
    policy(rules)
}

/// Heap allocations made by `evaluate` over `runs` evaluations of `event`
fn allocations(policy: &Policy, event: &Event, runs: usize) -> usize {
    let outcome = policy.evaluate(event);
    assert_eq!(
        outcome.resolution.decision,
        Decision::None,
        "no rule matches {event:?}"
    );
    assert!(outcome.evaluations.is_empty() && outcome.effects.is_empty());
    let region = Region::new(GLOBAL);
    for _ in 0..runs {
        black_box(policy.evaluate(black_box(event)));
    }
    region.change().allocations
}

#[test]
fn evaluating_an_event_no_rule_matches_allocates_nothing() {
    let policy = policy_of_every_kind();
    let near_misses = [
        event(
            EventKind::PreToolUse,
            json!({ "tool": "git", "arg": { "command": "ls -la" }, "steps": 999, "elapsed_ms": 5 }),
        ),
        event(
            EventKind::PreToolUse,
            json!({ "tool": "tool13_x", "arg": { "command": "rm" }, "elapsed_ms": 5 }),
        ),
        event(
            EventKind::PreToolUse,
            json!({ "tool": "mcp__4__a__y", "elapsed_ms": 60_000 }),
        ),
        event(EventKind::BeforeStep, json!({ "steps": 49 })),
        event(EventKind::PostToolUse, json!({ "tool": "tool10" })),
    ];
    for event in &near_misses {
        assert_eq!(allocations(&policy, event, 100), 0, "{event:?}");
    }

    // The counter is live: a matching event does allocate (its evaluation's rule id).
    let matching = event(EventKind::PreToolUse, json!({ "tool": "tool10" }));
    assert_eq!(
        policy.evaluate(&matching).resolution.decision,
        Decision::Block
    );
    let region = Region::new(GLOBAL);
    black_box(policy.evaluate(black_box(&matching)));
    assert!(region.change().allocations > 0);
}
