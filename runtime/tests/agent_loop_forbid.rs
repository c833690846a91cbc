//! Properties of the agent loop over random policies: a `forbid` among a step's evaluations
//! always stops the loop at the end of its event, no stop rule overturns it, and the
//! report never depends on the order of the rules.

use crate::common::{busy_model, cmp, decide, ok_tool, policy, prio, reason, when};
use proptest::prelude::*;
use rulesc_runtime::{
    AgentLoop, Approval, CompareOp, Decision, EventKind, ExecutionState, Field, Limits, Literal,
    Rule, RunReport, StopReason, ToolCall, Verb,
};

use EventKind as E;

/// The events that fire in every step of a model that always calls one tool
const STEP_EVENTS: [EventKind; 6] = [
    E::BeforeStep,
    E::BeforeInference,
    E::AfterInference,
    E::PreToolUse,
    E::PostToolUse,
    E::AfterStep,
];

/// Events the other rules may fire on: every step event, errors and stops
fn noise_events() -> Vec<EventKind> {
    STEP_EVENTS
        .into_iter()
        .chain([E::OnError, E::Stop])
        .collect()
}

fn allow(_: &ToolCall, _: Option<&str>) -> Approval {
    Approval::Allow
}

fn stop_reason() -> impl Strategy<Value = StopReason> {
    prop::sample::select(StopReason::ALL.to_vec())
}

/// A rule that is not a `forbid`: any other verb its event allows, maybe only in one step
fn noise_rule(idx: usize) -> impl Strategy<Value = Rule> {
    let event_and_verb = prop::sample::select(noise_events()).prop_flat_map(|event| {
        let verbs: Vec<Verb> = Verb::ALL
            .into_iter()
            .filter(|verb| *verb != Verb::Forbid && event.allows(*verb))
            .collect();
        (Just(event), prop::sample::select(verbs))
    });
    (event_and_verb, prop::option::of(1_i64..=4), -2_i64..=2).prop_map(
        move |((event, verb), only_step, priority)| {
            let rule = prio(decide(&format!("noise-{idx}"), &[event], verb), priority);
            match only_step {
                Some(step) => when(rule, cmp(Field::Step, CompareOp::Eq, Literal::Int(step))),
                None => rule,
            }
        },
    )
}

fn policy_rules() -> impl Strategy<Value = (Vec<Rule>, u64)> {
    let forbid = (
        prop::sample::select(STEP_EVENTS.to_vec()),
        1_i64..=3,
        stop_reason(),
    );
    let noise = prop::collection::vec(any::<prop::sample::Index>(), 0..8).prop_flat_map(|slots| {
        slots
            .iter()
            .enumerate()
            .map(|(idx, _)| noise_rule(idx))
            .collect::<Vec<_>>()
    });
    (forbid, noise).prop_map(|((event, step, stop_reason), mut rules)| {
        rules.push(when(
            reason(decide("the-forbid", &[event], Verb::Forbid), stop_reason),
            cmp(Field::Step, CompareOp::Ge, Literal::Int(step)),
        ));
        // Every stop hook asks for more: none of that may overturn a forbid.
        rules.push(decide("always-request", &[E::Stop], Verb::Request));
        (rules, step.unsigned_abs())
    })
}

fn execute(rules: Vec<Rule>) -> ExecutionState {
    AgentLoop::new(policy(rules))
        .with_limits(Limits {
            max_steps: 10,
            ..Limits::default()
        })
        .execute(&mut busy_model, &mut ok_tool, &mut allow)
}

proptest! {
    #[test]
    fn a_forbid_always_stops_the_loop_and_no_stop_rule_overturns_it(
        (rules, forbid_step) in policy_rules(),
    ) {
        let state = execute(rules.clone());
        let report = RunReport::from_state(&state).unwrap();
        let events = state.events();
        let first_forbid = events
            .iter()
            .position(|event| event.resolution.decision == Decision::Forbid)
            .expect("some event forbade");
        let forbid = &events[first_forbid];
        // Only the stop hooks and execution_end follow the forbidding event.
        let after: Vec<EventKind> = events[first_forbid + 1..].iter().map(|event| event.event).collect();
        prop_assert_eq!(after, vec![E::Stop, E::ExecutionEnd]);
        // The stop hook's request had no power; the stop is the forbid's.
        prop_assert_eq!(events[first_forbid + 1].resolution.decision, Decision::Forbid);
        prop_assert_eq!(report.stop_reason, forbid.resolution.stop_reason.unwrap());
        prop_assert_eq!(&report.resolved_by, &forbid.resolution.resolved_by);
        prop_assert!(forbid.step <= forbid_step);
        if forbid.resolution.resolved_by.as_deref() == Some("the-forbid") {
            prop_assert_eq!(forbid.step, forbid_step);
        }
        // No step started after the forbidding one.
        prop_assert_eq!(state.step(), forbid.step);

        let mut reversed = rules;
        reversed.reverse();
        let again = RunReport::from_state(&execute(reversed)).unwrap();
        prop_assert_eq!(again, report);
    }
}
