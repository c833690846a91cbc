//! Hot reload: threads evaluating through a [`PolicyHandle`] while another thread replaces
//! the policy see every outcome come from exactly one policy, whole, and from the one in
//! force when the evaluation ran (never one a finished reload replaced); an [`AgentLoop`] on
//! a handle sees a reload at its next event, and each of its events on one policy.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier};

use crate::common::{busy_model, decide_msg, ok_tool, policy, s, set};
use rulesc_runtime::{
    AgentLoop, Approval, Decision, Event, EventKind, EventRecord, Limits, Outcome, Policy,
    PolicyHandle, ToolCall, ToolError, Verb,
};

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
    // The decisions and the `set` of the mark (docs/cli.md lists every rule that matched).
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

/// The policy of generation `generation` when reloads alternate, starting from `a`
fn policy_of_generation(generation: u64) -> &'static str {
    if generation % 2 == 0 {
        "a"
    } else {
        "b"
    }
}

#[test]
fn evaluations_during_a_thousand_reloads_each_see_one_policy() {
    const N_RELOADS: u64 = 1_000;
    const N_READERS: usize = 2;
    let policies = [named_policy("a", Verb::Block), named_policy("b", Verb::Ask)];
    let handle = PolicyHandle::new(policies[0].clone());
    let done = Arc::new(AtomicBool::new(false));
    let n_evaluations = Arc::new(AtomicU64::new(0));
    // The writer announces generation g before replacing and confirms it after: an
    // evaluation that starts after g was confirmed and ends before g + 1 was announced can
    // only have seen generation g.
    let announced = Arc::new(AtomicU64::new(0));
    let confirmed = Arc::new(AtomicU64::new(0));
    let n_pinned = Arc::new(AtomicU64::new(0));
    let start = Arc::new(Barrier::new(N_READERS + 1));
    let readers: Vec<_> = (0..N_READERS)
        .map(|_| {
            let handle = handle.clone();
            let done = Arc::clone(&done);
            let n_evaluations = Arc::clone(&n_evaluations);
            let (announced, confirmed) = (Arc::clone(&announced), Arc::clone(&confirmed));
            let n_pinned = Arc::clone(&n_pinned);
            let start = Arc::clone(&start);
            std::thread::spawn(move || {
                let mut event = Event::new(EventKind::PreToolUse);
                event.tool = Some("bash".to_owned());
                let mut seen = [0_u64; 2];
                start.wait();
                // At least a few evaluations each, even if the reloads finish first.
                while !done.load(Ordering::Acquire) || seen.iter().sum::<u64>() < 100 {
                    let confirmed_before = confirmed.load(Ordering::SeqCst);
                    let outcome = handle.evaluate(&event);
                    let announced_after = announced.load(Ordering::SeqCst);
                    n_evaluations.fetch_add(1, Ordering::Relaxed);
                    let name = policy_of(&outcome);
                    if confirmed_before == announced_after {
                        n_pinned.fetch_add(1, Ordering::Relaxed);
                        assert_eq!(
                            name,
                            policy_of_generation(confirmed_before),
                            "an evaluation saw a policy that was not in force"
                        );
                    }
                    match name {
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
        announced.store(reload, Ordering::SeqCst);
        handle.replace(next.clone());
        confirmed.store(reload, Ordering::SeqCst);
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
    assert!(
        n_pinned.load(Ordering::Relaxed) > 0,
        "no evaluation ran between two reloads"
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

/// Events where `allow` is legal and its rule names the outcome
const LOOP_EVENTS: [EventKind; 6] = [
    EventKind::ExecutionStart,
    EventKind::BeforeStep,
    EventKind::BeforeInference,
    EventKind::AfterInference,
    EventKind::PreToolUse,
    EventKind::PostToolUse,
];

/// A policy that allows every event of [`LOOP_EVENTS`] by a rule `name-<event>` with the
/// message `name`
fn loop_policy(name: &str) -> Policy {
    policy(
        LOOP_EVENTS
            .iter()
            .map(|kind| decide_msg(&format!("{name}-{kind}"), *kind, Verb::Allow, name))
            .collect(),
    )
}

/// Which loop policy decided a recorded event, after checking that its rule, decision and
/// message agree; `None` for events no user rule decides
fn loop_policy_of(record: &EventRecord) -> Option<&'static str> {
    let resolution = &record.resolution;
    let rule = resolution.resolved_by.as_deref()?;
    let name = if rule.starts_with("a-") {
        "a"
    } else if rule.starts_with("b-") {
        "b"
    } else {
        return None;
    };
    assert_eq!(rule, format!("{name}-{}", record.event), "{record:?}");
    assert_eq!(resolution.decision, Decision::Allow, "{record:?}");
    assert_eq!(resolution.message.as_deref(), Some(name), "{record:?}");
    Some(name)
}

fn loop_limits(max_steps: u64) -> Limits {
    Limits {
        max_steps,
        ..Limits::default()
    }
}

#[test]
fn a_reload_reaches_a_running_loop_at_its_next_event() {
    let handle = PolicyHandle::new(loop_policy("a"));
    let mut agent = AgentLoop::with_handle(handle.clone(), loop_limits(4));
    // The tool swaps the policy on every call: between its `pre_tool_use` and its
    // `post_tool_use`.
    let mut n_swaps = 0_u64;
    let mut tools = |_: &ToolCall| -> Result<String, ToolError> {
        n_swaps += 1;
        handle.replace(loop_policy(policy_of_generation(n_swaps)));
        Ok("ok".to_owned())
    };
    let mut approver = |_: &ToolCall, _: Option<&str>| Approval::Deny;
    let state = agent.execute(&mut busy_model, &mut tools, &mut approver);
    let mut swaps_before = 0;
    let mut n_checked = 0;
    for record in state.events() {
        if record.event == EventKind::PostToolUse {
            swaps_before += 1;
        }
        if let Some(name) = loop_policy_of(record) {
            n_checked += 1;
            assert_eq!(
                name,
                policy_of_generation(swaps_before),
                "{record:?} after {swaps_before} reloads"
            );
        }
    }
    assert_eq!(swaps_before, 4);
    // Per step: before_step, before_inference, after_inference, pre_tool_use, post_tool_use.
    assert_eq!(n_checked, 1 + 4 * 5);
    // The loop's host limits apply to the policies swapped in.
    assert_eq!(state.step_records().len(), 4);
}

#[test]
fn a_loop_under_concurrent_reloads_evaluates_each_event_on_one_policy() {
    let handle = PolicyHandle::new(loop_policy("a"));
    let done = Arc::new(AtomicBool::new(false));
    let swapper = {
        let handle = handle.clone();
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let policies = [loop_policy("a"), loop_policy("b")];
            let mut generation = 0_u64;
            while !done.load(Ordering::Acquire) {
                generation += 1;
                handle.replace(policies[usize::from(generation % 2 == 1)].clone());
                std::thread::yield_now();
            }
        })
    };
    let mut seen = [0_u64; 2];
    // Runs until both policies were seen (the swapper shares two busy cores), within a bound.
    let started = std::time::Instant::now();
    while started.elapsed() < std::time::Duration::from_secs(20) {
        let mut agent = AgentLoop::with_handle(handle.clone(), loop_limits(25));
        let mut tools = ok_tool;
        let mut approver = |_: &ToolCall, _: Option<&str>| Approval::Deny;
        let state = agent.execute(&mut busy_model, &mut tools, &mut approver);
        for record in state.events() {
            match loop_policy_of(record) {
                Some("a") => seen[0] += 1,
                Some(_) => seen[1] += 1,
                None => {}
            }
        }
        if seen.iter().all(|count| *count > 0) && seen.iter().sum::<u64>() > 1_000 {
            break;
        }
    }
    done.store(true, Ordering::Release);
    swapper.join().expect("the swapper panicked");
    assert!(
        seen[0] > 0 && seen[1] > 0,
        "the loop saw only one policy: {seen:?}"
    );
}

#[test]
fn a_loop_made_from_a_policy_keeps_its_limits_and_can_be_reloaded() {
    let mut agent = AgentLoop::new(loop_policy("a").with_limits(loop_limits(2)));
    assert_eq!(agent.policy().limits().max_steps, 2);
    agent.handle().replace(loop_policy("b"));
    assert_eq!(agent.policy().limits().max_steps, 2);
    let mut tools = ok_tool;
    let mut approver = |_: &ToolCall, _: Option<&str>| Approval::Deny;
    let state = agent.execute(&mut busy_model, &mut tools, &mut approver);
    assert_eq!(state.step_records().len(), 2);
    assert!(state
        .events()
        .iter()
        .filter_map(loop_policy_of)
        .all(|name| name == "b"));
}
