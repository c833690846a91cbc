//! Resolution (docs/language.md §5): every lattice, the defaults, the host caps, the choice of
//! the deciding rule, effects, the prelude and native hooks.

use crate::common::*;
use rulesc_runtime::{
    resolve_continuation, Act, CompareOp, Decision, Defaults, EvalOptions, Evaluation, Event,
    EventKind, Field, HookDecision, Limits, Literal, NativeHook, Policy, StopReason, Verb,
};
use serde_json::json;

use EventKind::{AfterInference, AfterStep, BeforeStep, OnError, PostToolUse, PreToolUse, Stop};

/// The decision and `resolved_by` of `rules` (plus `defaults`) on an event
#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: a bad fixture fails the test"
)]
fn resolve(rules: Vec<Rule>, defaults: Defaults, event: &Event) -> (Decision, Option<String>) {
    let outcome = Policy::new(rules, defaults).unwrap().evaluate(event);
    (outcome.resolution.decision, outcome.resolution.resolved_by)
}

use rulesc_runtime::Rule;

fn by(id: &str) -> Option<String> {
    Some(id.to_owned())
}

fn all(kind: EventKind, verbs: &[Verb]) -> Vec<Rule> {
    verbs
        .iter()
        .map(|verb| decide(&format!("{verb}"), &[kind], *verb))
        .collect()
}

#[test]
fn tool_lattice_is_forbid_block_ask_allow() {
    let ev = Event::new(PreToolUse);
    let d = Defaults::default();
    let lattice = [Verb::Forbid, Verb::Block, Verb::Ask, Verb::Allow];
    for (strongest, verb) in lattice.iter().enumerate() {
        let rules = all(PreToolUse, &lattice[strongest..]);
        assert_eq!(resolve(rules, d, &ev), ((*verb).into(), by(verb.name())));
    }
    assert_eq!(resolve(vec![], d, &ev), (Decision::None, None));
}

#[test]
fn tool_default_applies_only_when_no_rule_decided() {
    let ev = Event::new(PreToolUse);
    let ask = Defaults {
        pre_tool_use: Some(Verb::Ask),
        on_error: None,
    };
    assert_eq!(resolve(vec![], ask, &ev), (Decision::Ask, by("default")));
    let allow = all(PreToolUse, &[Verb::Allow]);
    assert_eq!(resolve(allow, ask, &ev), (Decision::Allow, by("allow")));
    // A default never outranks a rule, even a weaker verb.
    let block = Defaults {
        pre_tool_use: Some(Verb::Block),
        on_error: None,
    };
    assert_eq!(
        resolve(all(PreToolUse, &[Verb::Allow]), block, &ev),
        (Decision::Allow, by("allow"))
    );
}

#[test]
fn error_lattice_is_forbid_retry_ignore_then_allow() {
    let ev = Event::new(OnError);
    let d = Defaults::default();
    let lattice = [Verb::Forbid, Verb::Retry, Verb::Ignore, Verb::Allow];
    for (strongest, verb) in lattice.iter().enumerate() {
        let rules = all(OnError, &lattice[strongest..]);
        assert_eq!(resolve(rules, d, &ev), ((*verb).into(), by(verb.name())));
    }
    assert_eq!(
        resolve(vec![], d, &ev),
        (Decision::None, None),
        "the loop reads none as forbid"
    );
}

#[test]
fn error_default_applies_and_forbid_by_default_is_error_forbade() {
    let ev = Event::new(OnError);
    let forbid = Defaults {
        pre_tool_use: None,
        on_error: Some(Verb::Forbid),
    };
    let outcome = Policy::new(vec![], forbid).unwrap().evaluate(&ev);
    assert_eq!(outcome.resolution.decision, Decision::Forbid);
    assert_eq!(
        outcome.resolution.stop_reason,
        Some(StopReason::ErrorForbade)
    );
    assert_eq!(outcome.resolution.resolved_by, by("default"));
    let ignore = Defaults {
        pre_tool_use: None,
        on_error: Some(Verb::Ignore),
    };
    assert_eq!(
        resolve(all(OnError, &[Verb::Retry]), ignore, &ev),
        (Decision::Retry, by("retry"))
    );
}

#[test]
fn retry_is_granted_while_retries_are_below_the_cap() {
    let policy = policy(all(OnError, &[Verb::Retry, Verb::Ignore])).with_limits(Limits {
        max_retries: 2,
        ..Limits::default()
    });
    let mut ev = Event::new(OnError);
    for retries in 0..2 {
        ev.retries = retries;
        assert_eq!(
            policy.evaluate(&ev).resolution.decision,
            Decision::Retry,
            "retries {retries}"
        );
    }
    ev.retries = 2;
    let outcome = policy.evaluate(&ev);
    assert_eq!(outcome.resolution.decision, Decision::Forbid);
    assert_eq!(
        outcome.resolution.stop_reason,
        Some(StopReason::RetryLimitReached)
    );
    assert_eq!(outcome.resolution.resolved_by, by("host:max_retries"));
    assert_eq!(
        outcome.evaluations.len(),
        2,
        "the rules still show as evaluated"
    );
}

#[test]
fn a_default_retry_is_capped_too() {
    let retry = Defaults {
        pre_tool_use: None,
        on_error: Some(Verb::Retry),
    };
    let mut ev = Event::new(OnError);
    ev.retries = 3;
    assert_eq!(
        resolve(vec![], retry, &ev),
        (Decision::Forbid, by("host:max_retries"))
    );
}

#[test]
fn continuation_lattice_is_forbid_request_allow_stop_allow() {
    let d = Defaults::default();
    let lattice = [Verb::Forbid, Verb::Request, Verb::AllowStop, Verb::Allow];
    for kind in [AfterInference, PostToolUse, AfterStep] {
        let mut ev = Event::new(kind);
        ev.tool_calls = Some(1);
        for (strongest, verb) in lattice.iter().enumerate() {
            let rules = all(kind, &lattice[strongest..]);
            assert_eq!(
                resolve(rules, d, &ev),
                ((*verb).into(), by(verb.name())),
                "{kind}"
            );
        }
        assert_eq!(resolve(vec![], d, &ev), (Decision::None, None));
    }
    let ev = Event::new(BeforeStep);
    assert_eq!(
        resolve(all(BeforeStep, &[Verb::Allow, Verb::Forbid]), d, &ev),
        (Decision::Forbid, by("forbid"))
    );
}

#[test]
fn resolve_continuation_gathers_a_whole_step() {
    let evaluation = |rule: &str, verb: Verb, priority| Evaluation {
        rule: rule.to_owned(),
        verb: verb.into(),
        stop_reason: None,
        message: Some(format!("from {rule}")),
        file: None,
        line: None,
        priority,
        undecided: false,
    };
    assert_eq!(resolve_continuation(&[]).decision, Decision::None);
    let step = [
        evaluation("prelude:no-tool-calls", Verb::AllowStop, 0),
        evaluation("b", Verb::Request, 0),
        evaluation("a", Verb::Request, 0),
        evaluation("c", Verb::Block, 9),
    ];
    let res = resolve_continuation(&step);
    assert_eq!(res.decision, Decision::Request);
    assert_eq!(res.resolved_by, by("a"));
    assert_eq!(res.message.as_deref(), Some("from a"));
    assert_eq!(res.stop_reason, None);
    let res = resolve_continuation(&step[..1]);
    assert_eq!(res.decision, Decision::AllowStop);
    assert_eq!(
        res.stop_reason,
        Some(StopReason::Completed),
        "the default reason is filled in"
    );
}

#[test]
fn the_deciding_rule_has_the_highest_priority_then_the_smallest_id() {
    let ev = Event::new(PreToolUse);
    let rules = vec![
        decide_msg("b", PreToolUse, Verb::Block, "b says"),
        decide_msg("a", PreToolUse, Verb::Block, "a says"),
        decide_msg("c", PreToolUse, Verb::Allow, "c says"),
    ];
    let outcome = policy(rules.clone()).evaluate(&ev);
    assert_eq!(
        (outcome.resolution.resolved_by, outcome.resolution.message),
        (by("a"), Some("a says".to_owned()))
    );
    let mut rules = rules;
    rules[0] = prio(rules[0].clone(), 5);
    rules[2] = prio(rules[2].clone(), 100);
    let outcome = policy(rules).evaluate(&ev);
    assert_eq!(
        outcome.resolution.resolved_by,
        by("b"),
        "priority only ranks rules of the winning verb"
    );
    // Byte order, not natural order: "p.rules:10" < "p.rules:9".
    let rules = vec![
        decide("p.rules:9", &[PreToolUse], Verb::Ask),
        decide("p.rules:10", &[PreToolUse], Verb::Ask),
    ];
    assert_eq!(
        policy(rules).evaluate(&ev).resolution.resolved_by,
        by("p.rules:10")
    );
}

#[test]
fn stop_reason_is_set_only_for_forbid_and_allow_stop() {
    let mut ev = Event::new(AfterStep);
    ev.tool_calls = Some(1);
    let forbid = policy(vec![decide("f", &[AfterStep], Verb::Forbid)]).evaluate(&ev);
    assert_eq!(
        forbid.resolution.stop_reason,
        Some(StopReason::GuardForbade)
    );
    assert_eq!(
        forbid.evaluations[0].stop_reason,
        Some(StopReason::GuardForbade)
    );
    let done = policy(vec![reason(
        decide("d", &[AfterStep], Verb::AllowStop),
        StopReason::FinishReasonReceived,
    )]);
    assert_eq!(
        done.evaluate(&ev).resolution.stop_reason,
        Some(StopReason::FinishReasonReceived)
    );
    let request = policy(vec![decide("r", &[AfterStep], Verb::Request)]).evaluate(&ev);
    assert_eq!(request.resolution.stop_reason, None);
}

fn stop_event(decision: &str, requests: u64) -> Event {
    event(
        Stop,
        json!({"stop_decision": decision, "stop_requests": requests}),
    )
}

#[test]
fn a_stop_without_rules_stands_with_its_own_reason() {
    let outcome = policy(vec![]).evaluate(&Event::new(Stop));
    assert_eq!(outcome.resolution.decision, Decision::AllowStop);
    assert_eq!(outcome.resolution.stop_reason, Some(StopReason::Completed));
    assert_eq!(outcome.resolution.resolved_by, None);
    let ev = event(
        Stop,
        json!({"stop_decision": "forbid", "stop_reason": "token_limit_reached"}),
    );
    let outcome = policy(vec![]).evaluate(&ev);
    assert_eq!(
        (outcome.resolution.decision, outcome.resolution.stop_reason),
        (Decision::Forbid, Some(StopReason::TokenLimitReached))
    );
}

#[test]
fn a_request_overturns_an_allowed_stop_until_the_cap() {
    let rules = || vec![decide_msg("more", Stop, Verb::Request, "keep going")];
    let policy = policy(rules()).with_limits(Limits {
        max_stop_requests: 2,
        ..Limits::default()
    });
    let outcome = policy.evaluate(&stop_event("allow_stop", 1));
    assert_eq!(outcome.resolution.decision, Decision::Request);
    assert_eq!(outcome.resolution.resolved_by, by("more"));
    assert_eq!(outcome.resolution.message.as_deref(), Some("keep going"));
    assert_eq!(outcome.resolution.stop_reason, None);
    let capped = policy.evaluate(&stop_event("allow_stop", 2));
    assert_eq!(capped.resolution.decision, Decision::AllowStop);
    assert_eq!(capped.resolution.stop_reason, Some(StopReason::Completed));
    assert_eq!(capped.resolution.resolved_by, by("host:max_stop_requests"));
    assert_eq!(capped.resolution.message, None);
}

#[test]
fn a_request_has_no_power_over_a_guard_stop() {
    let outcome =
        policy(vec![decide("more", &[Stop], Verb::Request)]).evaluate(&stop_event("forbid", 0));
    assert_eq!(outcome.resolution.decision, Decision::Forbid);
    assert_eq!(
        outcome.resolution.stop_reason,
        Some(StopReason::GuardForbade)
    );
    assert_eq!(outcome.resolution.resolved_by, None);
    assert_eq!(
        outcome.evaluations.len(),
        1,
        "the request still shows as evaluated"
    );
}

#[test]
fn a_forbid_on_stop_makes_the_stop_final() {
    let rules = vec![
        decide("more", &[Stop], Verb::Request),
        reason(
            decide_msg("final", Stop, Verb::Forbid, "enough"),
            StopReason::UserRequested,
        ),
        decide("ok", &[Stop], Verb::Allow),
    ];
    let outcome = policy(rules).evaluate(&stop_event("allow_stop", 0));
    assert_eq!(outcome.resolution.decision, Decision::Forbid);
    assert_eq!(
        outcome.resolution.stop_reason,
        Some(StopReason::UserRequested)
    );
    assert_eq!(outcome.resolution.resolved_by, by("final"));
    let subagent = policy(vec![decide("f", &[EventKind::SubagentStop], Verb::Forbid)]);
    assert_eq!(
        subagent
            .evaluate(&Event::new(EventKind::SubagentStop))
            .resolution
            .decision,
        Decision::Forbid
    );
}

#[test]
fn an_allow_on_stop_leaves_the_pending_stop_standing() {
    let outcome =
        policy(vec![decide("ok", &[Stop], Verb::Allow)]).evaluate(&stop_event("allow_stop", 0));
    assert_eq!(
        (outcome.resolution.decision, outcome.resolution.resolved_by),
        (Decision::AllowStop, None)
    );
}

#[test]
fn the_prelude_is_part_of_every_policy() {
    let mut ev = Event::new(AfterStep);
    ev.tool_calls = Some(0);
    let outcome = policy(vec![]).evaluate(&ev);
    assert_eq!(outcome.resolution.decision, Decision::AllowStop);
    assert_eq!(outcome.resolution.stop_reason, Some(StopReason::Completed));
    assert_eq!(outcome.resolution.resolved_by, by("prelude:no-tool-calls"));
    assert_eq!(
        (
            outcome.evaluations[0].file.clone(),
            outcome.evaluations[0].line
        ),
        (None, None)
    );
    ev.tool_calls = Some(2);
    assert_eq!(
        policy(vec![]).evaluate(&ev).resolution.decision,
        Decision::None
    );

    let error = |kind: &str| event(OnError, json!({"error": {"kind": kind, "message": "x"}}));
    assert_eq!(
        policy(vec![])
            .evaluate(&error("tool_blocked"))
            .resolution
            .decision,
        Decision::Ignore
    );
    assert_eq!(
        policy(vec![])
            .evaluate(&error("tool"))
            .resolution
            .resolved_by,
        by("prelude:tool-errors-to-model")
    );
    assert_eq!(
        policy(vec![]).evaluate(&error("model")).resolution.decision,
        Decision::None
    );
    let retry = policy(all(OnError, &[Verb::Retry]));
    assert_eq!(
        retry.evaluate(&error("tool")).resolution.decision,
        Decision::Retry,
        "a user retry wins"
    );
    assert_eq!(policy(vec![]).rules().len(), 2);
    assert!(policy(vec![]).user_rules().is_empty());
}

#[test]
fn evaluations_list_every_matching_rule_sorted_by_id() {
    let rules = vec![
        decide("zeta", &[PreToolUse], Verb::Allow),
        decide("alpha", &[PreToolUse], Verb::Block),
        when(
            decide("never", &[PreToolUse], Verb::Forbid),
            cmp(Field::Steps, CompareOp::Gt, Literal::Int(5)),
        ),
        set("mid", PreToolUse, "x", Literal::Int(1)),
    ];
    let outcome = policy(rules).evaluate(&Event::new(PreToolUse));
    let ids: Vec<_> = outcome
        .evaluations
        .iter()
        .map(|e| e.rule.as_str())
        .collect();
    assert_eq!(
        ids,
        ["alpha", "mid", "zeta"],
        "docs/cli.md: every rule that matched, set rules too"
    );
    assert_eq!(outcome.evaluations[1].verb, Act::Set);
    assert_eq!(outcome.evaluations[1].stop_reason, None);
    assert_eq!(outcome.evaluations[1].message, None);
    assert_eq!(outcome.evaluations[0].file.as_deref(), Some("p.rules"));
    assert_eq!(outcome.evaluations[0].line, Some(1));
}

#[test]
fn effects_apply_by_priority_then_id_and_the_last_wins() {
    let rules = vec![
        set("b", PreToolUse, "mode", s("from b")),
        set("a", PreToolUse, "mode", s("from a")),
        prio(set("high", PreToolUse, "mode", s("from high")), 10),
        set("other", PreToolUse, "n", Literal::Int(1)),
    ];
    let outcome = policy(rules).evaluate(&Event::new(PreToolUse));
    let order: Vec<_> = outcome.effects.iter().map(|e| e.rule.as_str()).collect();
    assert_eq!(order, ["high", "a", "b", "other"]);
    assert_eq!(outcome.metadata["mode"], json!("from b"));
    assert_eq!(outcome.metadata["n"], json!(1));
}

#[test]
fn effects_build_nested_objects_and_keep_other_metadata() {
    let rules = vec![
        set("deep", PreToolUse, "a.b.c", Literal::Bool(true)),
        set(
            "list",
            PreToolUse,
            "l",
            Literal::List(vec![s("x"), Literal::Duration(1500)]),
        ),
    ];
    let ev = event(PreToolUse, json!({"metadata": {"a": 3, "keep": "me"}}));
    let outcome = policy(rules).evaluate(&ev);
    assert_eq!(
        serde_json::Value::Object(outcome.metadata),
        json!({"a": {"b": {"c": true}}, "keep": "me", "l": ["x", 1500]})
    );
    assert_eq!(outcome.effects[0].key, "a.b.c");
}

#[test]
fn conditions_never_see_effects_of_the_same_event() {
    let tainted = cmp(metadata("tainted"), CompareOp::Eq, Literal::Bool(true));
    let rules = vec![
        set("taint", PreToolUse, "tainted", Literal::Bool(true)),
        when(decide("guard", &[PreToolUse], Verb::Block), tainted),
    ];
    let policy = policy(rules);
    let first = policy.evaluate(&Event::new(PreToolUse));
    assert_eq!(first.resolution.decision, Decision::None);
    let mut next = Event::new(PreToolUse);
    next.metadata = first.metadata;
    assert_eq!(policy.evaluate(&next).resolution.decision, Decision::Block);
}

struct Hook {
    id: &'static str,
    events: Vec<EventKind>,
    priority: i64,
    decision: HookDecision,
}

impl NativeHook for Hook {
    fn id(&self) -> &str {
        self.id
    }
    fn events(&self) -> &[EventKind] {
        &self.events
    }
    fn priority(&self) -> i64 {
        self.priority
    }
    fn evaluate(&self, _event: &Event) -> Option<HookDecision> {
        Some(self.decision.clone())
    }
}

#[test]
fn native_hooks_vote_like_rules() {
    let block = Hook {
        id: "host:a-block",
        events: vec![PreToolUse],
        priority: 0,
        decision: HookDecision::new(Verb::Block).with_message("hook says no"),
    };
    let policy = policy(vec![
        decide("rule-block", &[PreToolUse], Verb::Block),
        decide("allow", &[PreToolUse], Verb::Allow),
    ]);
    let outcome = policy.evaluate_with(
        &Event::new(PreToolUse),
        EvalOptions::default().hooks(&[&block]),
    );
    assert_eq!(outcome.resolution.decision, Decision::Block);
    assert_eq!(
        outcome.resolution.resolved_by,
        by("host:a-block"),
        "smallest id among blocks"
    );
    assert_eq!(outcome.resolution.message.as_deref(), Some("hook says no"));
    let ids: Vec<_> = outcome
        .evaluations
        .iter()
        .map(|e| e.rule.as_str())
        .collect();
    assert_eq!(ids, ["allow", "host:a-block", "rule-block"]);
    assert_eq!(outcome.evaluations[1].file, None);
    // A hook does not fire on events it did not name.
    let outcome = policy.evaluate_with(
        &Event::new(PostToolUse),
        EvalOptions::default().hooks(&[&block]),
    );
    assert!(outcome.evaluations.is_empty());
}

#[test]
fn a_hook_verb_the_event_does_not_allow_is_ignored() {
    let retry = Hook {
        id: "host:retry",
        events: vec![PreToolUse],
        priority: 0,
        decision: HookDecision::new(Verb::Retry),
    };
    let outcome = policy(vec![]).evaluate_with(
        &Event::new(PreToolUse),
        EvalOptions::default().hooks(&[&retry]),
    );
    assert_eq!(outcome.resolution.decision, Decision::None);
    assert!(outcome.evaluations.is_empty());
}

#[test]
fn a_hook_stop_reason_is_defaulted_or_dropped_by_verb() {
    let hook = |verb, reason: Option<StopReason>| Hook {
        id: "host:h",
        events: vec![AfterStep],
        priority: 0,
        decision: HookDecision {
            verb,
            stop_reason: reason,
            message: None,
        },
    };
    let mut ev = Event::new(AfterStep);
    ev.tool_calls = Some(1);
    let forbid = policy(vec![]).evaluate_with(
        &ev,
        EvalOptions::default().hooks(&[&hook(Verb::Forbid, None)]),
    );
    assert_eq!(
        forbid.resolution.stop_reason,
        Some(StopReason::GuardForbade)
    );
    let allow = policy(vec![]).evaluate_with(
        &ev,
        EvalOptions::default().hooks(&[&hook(Verb::Allow, Some(StopReason::Completed))]),
    );
    assert_eq!(allow.evaluations[0].stop_reason, None);
}

#[test]
fn a_hook_priority_ranks_it_among_rules() {
    let hook = Hook {
        id: "z-hook",
        events: vec![PreToolUse],
        priority: 3,
        decision: HookDecision::new(Verb::Ask),
    };
    let policy = policy(vec![decide("a", &[PreToolUse], Verb::Ask)]);
    assert_eq!(
        policy
            .evaluate_with(
                &Event::new(PreToolUse),
                EvalOptions::default().hooks(&[&hook])
            )
            .resolution
            .resolved_by,
        by("z-hook")
    );
}

#[test]
fn policies_are_send_sync_and_cheap_to_share() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Policy>();
    let shared = std::sync::Arc::new(policy(all(PreToolUse, &[Verb::Block])));
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let shared = std::sync::Arc::clone(&shared);
            std::thread::spawn(move || shared.evaluate(&Event::new(PreToolUse)).resolution.decision)
        })
        .collect();
    for handle in handles {
        assert_eq!(handle.join().unwrap(), Decision::Block);
    }
}
