//! Fuzz target: evaluation of arbitrary events, as `rulesc eval` reads them, against
//! generated policies.
//!
//! An input is a policy's source, a line `#@events`, then event JSON, one per line. For any
//! input: no panic, no slow case; every line that reads as an event evaluates, twice alike,
//! alike through the compiled JSON and through a `PolicyHandle`; evaluations are sorted by
//! rule id and name rules of the policy; the rule in `resolved_by` is among them with the
//! decided verb; outcomes and events survive their JSON. Events follow each other as one
//! execution, metadata carried over.

use crate::gen;
use crate::harness;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rulesc::{Decision, Event, Outcome, Policy, PolicyHandle, SourceBytes};

/// What separates the policy from the events in an input
const EVENTS_MARK: &str = "\n#@events\n";

/// Checks one outcome of `event` against the policy it came from
fn check_outcome(policy: &Policy, event: &Event, outcome: &Outcome) -> Result<(), TestCaseError> {
    prop_assert_eq!(outcome.event, event.kind);
    let ids: Vec<&str> = outcome
        .evaluations
        .iter()
        .map(|eval| eval.rule.as_str())
        .collect();
    prop_assert!(ids.is_sorted(), "evaluations not sorted: {:?}", ids);
    for id in &ids {
        prop_assert!(
            policy.rules().iter().any(|rule| rule.id == *id),
            "`{}` is no rule of the policy",
            id
        );
    }
    let by_rule = outcome
        .resolution
        .resolved_by
        .as_deref()
        .filter(|id| *id != "default" && !id.starts_with("host:"));
    if let Some(id) = by_rule {
        let evaluation = outcome.evaluations.iter().find(|eval| eval.rule == id);
        prop_assert!(
            evaluation.is_some(),
            "resolved by `{}`, which did not match",
            id
        );
        if let Some(evaluation) = evaluation {
            prop_assert_eq!(
                evaluation.verb.verb().map(Decision::from),
                Some(outcome.resolution.decision)
            );
        }
    }
    if outcome.resolution.decision == Decision::None {
        prop_assert_eq!(outcome.resolution.resolved_by.as_deref(), None);
    }
    let json = serde_json::to_string(outcome)
        .map_err(|err| TestCaseError::fail(format!("outcome JSON: {err}")))?;
    let back: Outcome = serde_json::from_str(&json)
        .map_err(|err| TestCaseError::fail(format!("outcome JSON reads back: {err}")))?;
    prop_assert_eq!(&back, outcome);
    Ok(())
}

fn check(input: Vec<u8>) -> Result<(), TestCaseError> {
    let text = String::from_utf8_lossy(&input);
    let (source, events) = text.split_once(EVENTS_MARK).unwrap_or((&text, ""));
    let output = rulesc::check_sources(vec![SourceBytes {
        name: "fuzz.rules".to_owned(),
        path: "fuzz.rules".to_owned(),
        bytes: source.as_bytes().to_vec(),
        layer: rulesc::Layer::Project,
    }]);
    let Some(policy) = output.policy else {
        return Ok(());
    };
    let loaded = Policy::from_json(&policy.to_json())
        .map_err(|err| TestCaseError::fail(format!("compiled JSON does not load: {err}")))?;
    let handle = PolicyHandle::new(policy.clone());
    let mut carried = serde_json::Map::new();
    for line in events.lines() {
        let Ok(mut event) = serde_json::from_str::<Event>(line) else {
            continue;
        };
        let own = std::mem::take(&mut event.metadata);
        event.metadata = std::mem::take(&mut carried);
        event.metadata.extend(own);
        let json = serde_json::to_string(&event)
            .map_err(|err| TestCaseError::fail(format!("event JSON: {err}")))?;
        let back: Event = serde_json::from_str(&json)
            .map_err(|err| TestCaseError::fail(format!("event JSON reads back: {err}")))?;
        prop_assert_eq!(&back, &event);

        let outcome = policy.evaluate(&event);
        check_outcome(&policy, &event, &outcome)?;
        prop_assert_eq!(
            &policy.evaluate(&event),
            &outcome,
            "evaluation is not deterministic"
        );
        prop_assert_eq!(
            &loaded.evaluate(&event),
            &outcome,
            "the compiled JSON evaluates otherwise"
        );
        prop_assert_eq!(&handle.evaluate(&event), &outcome);
        carried = outcome.metadata;
    }
    Ok(())
}

/// A policy (usually one that checks) and some events, as one input
fn inputs() -> impl Strategy<Value = Vec<u8>> {
    let policy = prop_oneof![
        6 => gen::clean_source(),
        1 => gen::source(),
    ];
    let events = prop::collection::vec(
        prop_oneof![
            8 => gen::event_json().prop_map(|event| event.to_string()),
            1 => gen::json_value().prop_map(|value| value.to_string()),
            1 => "\\PC{0,30}",
        ],
        1..8,
    );
    (policy, events).prop_map(|(policy, events)| {
        format!("{policy}{EVENTS_MARK}{}\n", events.join("\n")).into_bytes()
    })
}

#[test]
fn fuzz_eval() {
    harness::fuzz("eval", file!(), 1, &[], inputs(), check);
}
