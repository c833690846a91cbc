//! The benchmarks measure what they claim: every engine gives the same answer on the
//! tool-rules shape, rulesc finds exactly the rules each request should match, and the
//! counter, shipped and agent-loop workloads decide as their names say.

use rulesc::{AgentLoop, Decision, Defaults, Limits, Policy, Status};
use rulesc_bench::engines::{Cedar, Engine, GlobsetFloor, Rego, Rulesc};
use rulesc_bench::noop::{ApproveAll, NoopModel, NoopTools};
use rulesc_bench::tool_rules::Request;
use rulesc_bench::{counter_rules, shipped};

/// Whether `E` blocks each request, at `n_rules` rules
#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: an engine that refuses the shape fails the test"
)]
fn answers<E: Engine>(n_rules: usize) -> Vec<bool> {
    let mut engine = E::new(n_rules).unwrap();
    Request::ALL
        .into_iter()
        .map(|request| {
            let prepared = engine.prepare(&request.tool(n_rules)).unwrap();
            engine.blocks(&prepared)
        })
        .collect()
}

#[test]
fn every_engine_blocks_exactly_the_one_match_request() {
    for n_rules in [10, 100] {
        let expected: Vec<bool> = Request::ALL
            .into_iter()
            .map(|request| request.n_matches() > 0)
            .collect();
        assert_eq!(answers::<Rulesc>(n_rules), expected, "rulesc at {n_rules}");
        assert_eq!(answers::<Cedar>(n_rules), expected, "cedar at {n_rules}");
        assert_eq!(answers::<Rego>(n_rules), expected, "regorus at {n_rules}");
        assert_eq!(
            answers::<GlobsetFloor>(n_rules),
            expected,
            "globset at {n_rules}"
        );
    }
}

#[test]
fn rulesc_matches_as_many_rules_as_each_request_says() {
    let engine = Rulesc::new(1_000).unwrap();
    for request in Request::ALL {
        let prepared = engine.prepare(&request.tool(1_000)).unwrap();
        let outcome = engine.policy().evaluate(&prepared);
        assert_eq!(
            outcome.evaluations.len(),
            request.n_matches(),
            "{request:?}"
        );
    }
    let prepared = engine.prepare(&Request::OneMatch.tool(1_000)).unwrap();
    let outcome = engine.policy().evaluate(&prepared);
    assert_eq!(outcome.resolution.resolved_by.as_deref(), Some("tool500"));
}

#[test]
fn counter_rules_match_none_then_the_lowest_bound() {
    let policy = rulesc::compile_str("steps.rules", &counter_rules::rulesc_source(1_000)).unwrap();
    let none = policy.evaluate(&counter_rules::event(Request::NoMatch));
    assert_eq!(none.resolution.decision, Decision::None);
    let one = policy.evaluate(&counter_rules::event(Request::OneMatch));
    assert_eq!(one.resolution.decision, Decision::Forbid);
    assert_eq!(one.evaluations.len(), 1);
    assert_eq!(one.resolution.resolved_by.as_deref(), Some("steps10"));
}

#[test]
fn shipped_events_get_the_decisions_their_names_say() {
    let policy = shipped::policy().unwrap();
    for (name, event) in shipped::events().unwrap() {
        let decision = policy.evaluate(&event).resolution.decision;
        let expected = match name {
            "pre_tool_use_blocked" => Decision::Block,
            "stop" => Decision::AllowStop,
            _ => Decision::None,
        };
        assert_eq!(decision, expected, "{name}");
    }
}

#[test]
fn the_noop_model_runs_the_steps_asked_for() {
    let limits = Limits {
        max_steps: 41,
        ..Limits::default()
    };
    for policy in [
        Policy::new(Vec::new(), Defaults::default()).unwrap(),
        shipped::policy().unwrap(),
    ] {
        let report = AgentLoop::new(policy).with_limits(limits).run(
            &mut NoopModel::new(40),
            &mut NoopTools,
            &mut ApproveAll,
        );
        assert_eq!(report.status, Status::Completed);
        assert_eq!(report.steps, 40);
    }
}
