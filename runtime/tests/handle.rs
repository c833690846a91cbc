//! Hot reload: threads evaluating through a [`PolicyHandle`] while another thread replaces
//! the policy see every outcome come from exactly one policy, whole.

mod common;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier};

use common::{decide_msg, policy, s, set};
use rulesc_runtime::{Decision, Event, EventKind, Outcome, Policy, PolicyHandle, Verb};

/// Rules per policy that match every `pre_tool_use`: a mix of two policies would show up as
/// evaluations (or effects) of both
const N_RULES: usize = 12;

/// A policy whose every rule id starts with `name-`: `N_RULES` decisions with `verb`, and
/// one effect that records `name` in `metadata.policy`
fn named_policy(name: &str, verb: Verb) -> Policy {
    let mut rules: Vec<_> = (0..N_RULES)
        .map(|idx| {
            decide_msg(
                &format!("{name}-{idx:02}"),
                EventKind::PreToolUse,
                verb,
                name,
            )
        })
        .collect();
    rules.push(set(
        &format!("{name}-mark"),
        EventKind::PreToolUse,
        "policy",
        s(name),
    ));
    policy(rules)
}

/// Which policy an outcome came from, after checking that everything in it agrees
#[expect(
    clippy::panic,
    reason = "a helper of tests: a mixed outcome fails the test"
)]
fn policy_of(outcome: &Outcome) -> &'static str {
    let (name, decision) = match outcome.resolution.resolved_by.as_deref() {
        Some(id) if id.starts_with("a-") => ("a", Decision::Block),
        Some(id) if id.starts_with("b-") => ("b", Decision::Ask),
        other => panic!("resolved by {other:?}"),
    };
    assert_eq!(outcome.resolution.decision, decision);
    assert_eq!(outcome.resolution.message.as_deref(), Some(name));
    // The decisions and the `set` of the mark (CLI.md lists every rule that matched).
    assert_eq!(outcome.evaluations.len(), N_RULES + 1, "{outcome:?}");
    for evaluation in &outcome.evaluations {
        assert!(
            evaluation.rule.starts_with(&format!("{name}-")),
            "{outcome:?}"
        );
    }
    assert_eq!(outcome.effects.len(), 1);
    assert_eq!(
        outcome.metadata.get("policy"),
        Some(&serde_json::json!(name))
    );
    name
}

#[test]
fn evaluations_during_a_thousand_reloads_each_see_one_policy() {
    const N_RELOADS: u64 = 1_000;
    const N_READERS: usize = 2;
    let policies = [named_policy("a", Verb::Block), named_policy("b", Verb::Ask)];
    let handle = PolicyHandle::new(policies[0].clone());
    let done = Arc::new(AtomicBool::new(false));
    let n_evaluations = Arc::new(AtomicU64::new(0));
    let start = Arc::new(Barrier::new(N_READERS + 1));
    let readers: Vec<_> = (0..N_READERS)
        .map(|_| {
            let handle = handle.clone();
            let done = Arc::clone(&done);
            let n_evaluations = Arc::clone(&n_evaluations);
            let start = Arc::clone(&start);
            std::thread::spawn(move || {
                let mut event = Event::new(EventKind::PreToolUse);
                event.tool = Some("bash".to_owned());
                let mut seen = [0_u64; 2];
                start.wait();
                // At least a few evaluations each, even if the reloads finish first.
                while !done.load(Ordering::Acquire) || seen.iter().sum::<u64>() < 100 {
                    let outcome = handle.evaluate(&event);
                    n_evaluations.fetch_add(1, Ordering::Relaxed);
                    match policy_of(&outcome) {
                        "a" => seen[0] += 1,
                        _ => seen[1] += 1,
                    }
                }
                seen
            })
        })
        .collect();
    start.wait();
    for reload in 1..=N_RELOADS {
        let next = &policies[usize::from(reload % 2 == 1)];
        handle.replace(next.clone());
        // Let at least one evaluation run between two reloads, so they interleave.
        let before = n_evaluations.load(Ordering::Relaxed);
        while n_evaluations.load(Ordering::Relaxed) == before {
            std::thread::yield_now();
        }
    }
    done.store(true, Ordering::Release);
    let mut seen = [0_u64; 2];
    for reader in readers {
        let counts = reader.join().expect("a reader panicked");
        seen[0] += counts[0];
        seen[1] += counts[1];
    }
    assert_eq!(handle.generation(), N_RELOADS);
    // 1,000 is even: the last reload put the first policy back.
    assert_eq!(
        policy_of(&handle.evaluate(&{
            let mut event = Event::new(EventKind::PreToolUse);
            event.tool = Some("bash".to_owned());
            event
        })),
        "a"
    );
    assert!(
        seen[0] > 0 && seen[1] > 0,
        "the readers saw only one policy: {seen:?}"
    );
}

#[test]
fn a_snapshot_outlives_the_reload_that_replaced_it() {
    let handle = PolicyHandle::new(named_policy("a", Verb::Block));
    let before = handle.snapshot();
    let replaced = handle.replace(named_policy("b", Verb::Ask));
    assert!(Arc::ptr_eq(&before, &replaced));
    let mut event = Event::new(EventKind::PreToolUse);
    event.tool = Some("bash".to_owned());
    assert_eq!(policy_of(&before.evaluate(&event)), "a");
    assert_eq!(policy_of(&handle.evaluate(&event)), "b");
}

#[test]
fn clones_share_one_slot() {
    let handle = PolicyHandle::new(named_policy("a", Verb::Block));
    let clone = handle.clone();
    clone.replace(named_policy("b", Verb::Ask));
    assert_eq!(handle.generation(), 1);
    let mut event = Event::new(EventKind::PreToolUse);
    event.tool = Some("bash".to_owned());
    assert_eq!(policy_of(&handle.evaluate(&event)), "b");
}
