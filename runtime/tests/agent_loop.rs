//! The agent loop end to end, with policies built from runtime types and scripted drivers:
//! the lifecycle, every verb's effect on the run, the host limits, and one regression test
//! per defect of the system the seeds describe.

use crate::common;

use std::sync::{Arc, Mutex};

use crate::common::{
    busy_model, cmp, decide, decide_msg, metadata, ok_tool, policy, prio, reason, s, set, when,
};
use rulesc_runtime::{
    AgentLoop, Approval, CompareOp, Condition, Decision, Defaults, Event, EventKind,
    ExecutionState, Field, HookDecision, Limits, Literal, Message, NativeHook, Policy, Rule,
    RunReport, Script, Status, StepClock, StopReason, ToolCall, ToolError, Usage, Verb,
};

use EventKind as E;

/// Runs `script` under `rules` and default limits, with the script's own settings
fn run(rules: Vec<Rule>, script: &str) -> (RunReport, ExecutionState) {
    run_policy(policy(rules), Limits::default(), script)
}

#[expect(clippy::expect_used, reason = "a test helper fails its test loudly")]
fn run_policy(policy: Policy, limits: Limits, script: &str) -> (RunReport, ExecutionState) {
    let script = Script::from_json(script).expect("test script is valid");
    let state = script.agent_loop(policy, script.limits(limits)).execute(
        &mut script.model(),
        &mut script.tools(),
        &mut script.approver(),
    );
    let report = RunReport::from_state(&state).expect("the run ended");
    (report, state)
}

/// The events that fired, as `(step, event, decision)`
fn fired(report: &RunReport) -> Vec<(u64, EventKind, Decision)> {
    report
        .events
        .iter()
        .map(|event| (event.step, event.event, event.decision))
        .collect()
}

fn count_events(report: &RunReport, kind: EventKind) -> usize {
    report
        .events
        .iter()
        .filter(|event| event.event == kind)
        .count()
}

fn deny(_: &ToolCall, _: Option<&str>) -> Approval {
    Approval::Deny
}

fn int(value: i64) -> Literal {
    Literal::Int(value)
}

const TWO_STEPS: &str = r#"{
  "turns": [
    {"response": "Let me look.", "tool_calls": [{"name": "ls", "args": {"dir": "."}}],
     "usage": {"input": 100, "output": 20}},
    {"response": "Done.", "usage": {"input": 150, "output": 10}}
  ],
  "tools": {"ls": {"output": "a.txt"}}
}"#;

#[test]
fn a_run_fires_the_lifecycle_in_order() {
    let (report, _) = run(Vec::new(), TWO_STEPS);
    use Decision as D;
    assert_eq!(
        fired(&report),
        vec![
            (0, E::ExecutionStart, D::None),
            (1, E::BeforeStep, D::None),
            (1, E::BeforeInference, D::None),
            (1, E::AfterInference, D::None),
            (1, E::PreToolUse, D::None),
            (1, E::PostToolUse, D::None),
            (1, E::AfterStep, D::None),
            (2, E::BeforeStep, D::None),
            (2, E::BeforeInference, D::None),
            (2, E::AfterInference, D::None),
            (2, E::AfterStep, D::AllowStop),
            (2, E::Stop, D::AllowStop),
            (2, E::ExecutionEnd, D::None),
        ]
    );
    assert_eq!(report.status, Status::Completed);
    assert_eq!(report.stop_reason, StopReason::Completed);
    assert_eq!(report.resolved_by.as_deref(), Some("prelude:no-tool-calls"));
    assert_eq!((report.steps, report.tokens, report.errors), (2, 280, 0));
    assert_eq!(report.tool_calls.len(), 1);
    assert_eq!(report.tool_calls[0].decision, Decision::Allow);
    assert!(report.tool_calls[0].executed);
}

#[test]
fn events_see_the_fields_of_the_run() {
    // Each rule records what its event saw, through a metadata effect guarded by the
    // field's expected value.
    let rules = vec![
        when(
            set("saw-args", E::PreToolUse, "saw_args", Literal::Bool(true)),
            cmp(common::arg("dir"), CompareOp::Eq, s(".")),
        ),
        when(
            set(
                "saw-result",
                E::PostToolUse,
                "saw_result",
                Literal::Bool(true),
            ),
            cmp(Field::Result, CompareOp::Eq, s("a.txt")),
        ),
        when(
            set(
                "saw-tokens",
                E::BeforeStep,
                "saw_tokens",
                Literal::Bool(true),
            ),
            Condition::All(vec![
                cmp(Field::Tokens, CompareOp::Eq, int(120)),
                cmp(Field::InputTokens, CompareOp::Eq, int(100)),
                cmp(Field::Steps, CompareOp::Eq, int(1)),
                cmp(Field::Step, CompareOp::Eq, int(2)),
            ]),
        ),
        when(
            // Step 2's model call sees the assistant's call and the tool's output.
            set(
                "saw-messages",
                E::BeforeInference,
                "saw_messages",
                Literal::Bool(true),
            ),
            cmp(Field::Messages, CompareOp::Eq, int(2)),
        ),
        when(
            set(
                "saw-finish",
                E::AfterInference,
                "saw_finish",
                Literal::Bool(true),
            ),
            cmp(Field::FinishReason, CompareOp::Eq, s("tool_calls")),
        ),
        when(
            set("saw-response", E::Stop, "saw_response", Literal::Bool(true)),
            cmp(Field::Response, CompareOp::Eq, s("Done.")),
        ),
        when(
            set(
                "saw-status",
                E::ExecutionEnd,
                "saw_status",
                Literal::Bool(true),
            ),
            cmp(Field::Status, CompareOp::Eq, s("completed")),
        ),
    ];
    let (report, state) = run(rules, TWO_STEPS);
    let mut keys: Vec<&str> = report.metadata.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "saw_args",
            "saw_finish",
            "saw_messages",
            "saw_response",
            "saw_result",
            "saw_status",
            "saw_tokens"
        ]
    );
    // The transcript: the assistant's call, the tool's output, the final answer.
    assert_eq!(state.messages().len(), 3);
}

// Regression: who decided depended on the order of the criteria list (seed 000,
// "Order-independent resolution"). The whole report must not change when rules or hooks
// come in another order.
#[test]
fn regression_who_decided_does_not_depend_on_rule_or_hook_order() {
    let rules = vec![
        reason(
            decide("b-done", &[E::AfterStep], Verb::AllowStop),
            StopReason::FinishReasonReceived,
        ),
        decide("a-done", &[E::AfterStep], Verb::AllowStop),
        prio(
            reason(
                decide("z-urgent", &[E::AfterInference], Verb::AllowStop),
                StopReason::StopRequested,
            ),
            5,
        ),
        decide_msg("a-block", E::PreToolUse, Verb::Block, "a says no"),
        decide_msg("b-block", E::PreToolUse, Verb::Block, "b says no"),
    ];
    let mut reversed = rules.clone();
    reversed.reverse();
    let script = r#"{"turns": [{"tool_calls": [{"name": "t"}]}], "tools": {"t": {"output": ""}}}"#;
    let (forward, _) = run(rules, script);
    let (backward, _) = run(reversed, script);
    assert_eq!(forward, backward);
    assert_eq!(forward.resolved_by.as_deref(), Some("z-urgent"));
    assert_eq!(forward.stop_reason, StopReason::StopRequested);
    assert_eq!(forward.tool_calls[0].error.as_deref(), Some("a says no"));

    let hooked = |first: Verdict, second: Verdict| {
        let mut agent = AgentLoop::new(policy(Vec::new()))
            .with_hook(first)
            .with_hook(second);
        agent.run(&mut busy_model, &mut ok_tool, &mut deny)
    };
    let stop_a = Verdict::new("host:a", E::AfterInference, Verb::AllowStop);
    let stop_b = Verdict::new("host:b", E::AfterInference, Verb::AllowStop);
    let one = hooked(stop_a.clone(), stop_b.clone());
    let other = hooked(stop_b, stop_a);
    assert_eq!(one, other);
    assert_eq!(one.resolved_by.as_deref(), Some("host:a"));
}

/// A native hook with a fixed verdict on one event that remembers every event it saw
#[derive(Clone)]
struct Verdict {
    id: &'static str,
    events: Vec<EventKind>,
    verb: Verb,
    priority: i64,
    seen: Arc<Mutex<Vec<EventKind>>>,
}

impl Verdict {
    fn new(id: &'static str, event: EventKind, verb: Verb) -> Verdict {
        Verdict {
            id,
            events: vec![event],
            verb,
            priority: 0,
            seen: Arc::default(),
        }
    }
}

impl NativeHook for Verdict {
    fn id(&self) -> &str {
        self.id
    }
    fn events(&self) -> &[EventKind] {
        &self.events
    }
    fn priority(&self) -> i64 {
        self.priority
    }
    #[expect(clippy::expect_used, reason = "a test hook fails its test loudly")]
    fn evaluate(&self, event: &Event) -> Option<HookDecision> {
        self.seen.lock().expect("not poisoned").push(event.kind);
        Some(HookDecision::new(self.verb).with_message(format!("{} decided", self.id)))
    }
}

// Regression: a hook registered for one event ran on every event (seed 003, "addHook()
// ignores event type").
#[test]
fn regression_a_hook_fires_only_on_its_events() {
    let hook = Verdict::new("host:no-t", E::PreToolUse, Verb::Block);
    let seen = Arc::clone(&hook.seen);
    let report = AgentLoop::new(policy(Vec::new()))
        .with_limits(Limits {
            max_steps: 3,
            ..Limits::default()
        })
        .with_hook(hook)
        .run(&mut busy_model, &mut ok_tool, &mut deny);
    assert_eq!(*seen.lock().unwrap(), vec![E::PreToolUse; 3]);
    assert!(report
        .tool_calls
        .iter()
        .all(|call| call.decision == Decision::Block && !call.executed));
    // The hook's block touched nothing else: every other event went undecided or was
    // resolved by the prelude.
    assert!(report
        .events
        .iter()
        .filter(|event| event.resolved_by.as_deref() == Some("host:no-t"))
        .all(|event| event.event == E::PreToolUse));
}

#[test]
fn a_native_hook_with_priority_wins_among_equal_verbs() {
    let mut urgent = Verdict::new("host:z", E::AfterInference, Verb::AllowStop);
    urgent.priority = 10;
    let rules = vec![decide("a-rule", &[E::AfterInference], Verb::AllowStop)];
    let report = AgentLoop::new(policy(rules)).with_hook(urgent).run(
        &mut busy_model,
        &mut ok_tool,
        &mut deny,
    );
    assert_eq!(report.resolved_by.as_deref(), Some("host:z"));
    assert_eq!(report.message.as_deref(), Some("host:z decided"));
    assert_eq!(report.steps, 1);
}

// Regression: stop hooks could overturn a guard's forbid, with no cap, and fired twice per
// prevented stop (seed 000 "Stop Hook Lifecycle", seed 003).
#[test]
fn regression_stop_hooks_cannot_overturn_a_forbid() {
    let rules = vec![
        when(
            reason(
                decide("step-guard", &[E::BeforeStep], Verb::Forbid),
                StopReason::StepsLimitReached,
            ),
            cmp(Field::Steps, CompareOp::Ge, int(2)),
        ),
        decide("keep-going", &[E::Stop], Verb::Request),
    ];
    // The model never calls a tool, so every step ends with `allow_stop completed`.
    let (report, state) = run(rules, r#"{"turns": []}"#);
    assert_eq!(report.steps, 2);
    assert_eq!(report.stop_reason, StopReason::StepsLimitReached);
    assert_eq!(report.status, Status::Stopped);
    assert_eq!(report.resolved_by.as_deref(), Some("step-guard"));
    // Two prevented stops, then the guard's final one: one stop event each.
    assert_eq!(state.stop_requests(), 2);
    assert_eq!(count_events(&report, E::Stop), 3);
    let last_stop = report
        .events
        .iter()
        .rev()
        .find(|event| event.event == E::Stop)
        .unwrap();
    assert_eq!(last_stop.decision, Decision::Forbid);
    assert_eq!(last_stop.resolved_by, None);
}

#[test]
fn regression_stop_requests_are_capped_by_the_host() {
    let rules = vec![decide("keep-going", &[E::Stop], Verb::Request)];
    let limits = Limits {
        max_stop_requests: 3,
        ..Limits::default()
    };
    let (report, state) = run_policy(policy(rules), limits, r#"{"turns": []}"#);
    assert_eq!(state.stop_requests(), 3);
    assert_eq!(count_events(&report, E::Stop), 4);
    assert_eq!(report.steps, 4);
    assert_eq!(report.stop_reason, StopReason::Completed);
    assert_eq!(
        report.resolved_by.as_deref(),
        Some("host:max_stop_requests")
    );
}

#[test]
fn stop_requests_count_prevented_stops_for_rules() {
    let rules = vec![when(
        decide("two-more", &[E::Stop], Verb::Request),
        cmp(Field::StopRequests, CompareOp::Lt, int(2)),
    )];
    let (report, _) = run(rules, r#"{"turns": []}"#);
    assert_eq!(report.steps, 3);
    assert_eq!(count_events(&report, E::Stop), 3);
    assert_eq!(report.resolved_by.as_deref(), Some("prelude:no-tool-calls"));
}

#[test]
fn a_stop_hook_forbid_makes_the_stop_final_with_its_reason() {
    let rules = vec![
        decide("keep-going", &[E::Stop], Verb::Request),
        reason(
            decide("enough", &[E::Stop], Verb::Forbid),
            StopReason::UserRequested,
        ),
    ];
    let (report, _) = run(rules, r#"{"turns": []}"#);
    assert_eq!(report.steps, 1);
    assert_eq!(report.stop_reason, StopReason::UserRequested);
    assert_eq!(report.resolved_by.as_deref(), Some("enough"));
}

#[test]
fn a_subagent_fires_subagent_stop() {
    let rules = vec![decide("one-more", &[E::SubagentStop], Verb::Request)];
    let limits = Limits {
        max_stop_requests: 1,
        ..Limits::default()
    };
    let (report, _) = run_policy(policy(rules), limits, r#"{"subagent": true}"#);
    assert_eq!(count_events(&report, E::SubagentStop), 2);
    assert_eq!(count_events(&report, E::Stop), 0);
    assert_eq!(report.steps, 2);
}

// Regression: a token limit read a field that was never filled and never fired (seed 003,
// `TokenUsageLimit`).
#[test]
fn regression_token_limits_see_the_tokens_used() {
    let rules = vec![when(
        reason(
            decide("token-budget", &[E::BeforeInference], Verb::Forbid),
            StopReason::TokenLimitReached,
        ),
        cmp(Field::Tokens, CompareOp::Ge, int(40)),
    )];
    let report = AgentLoop::new(policy(rules)).run(&mut busy_model, &mut ok_tool, &mut deny);
    // 15 tokens per step: 30 after two steps, 45 after three; the fourth model call is
    // never made.
    assert_eq!(report.stop_reason, StopReason::TokenLimitReached);
    assert_eq!(report.resolved_by.as_deref(), Some("token-budget"));
    assert_eq!((report.steps, report.tokens), (3, 45));
    assert_eq!(report.status, Status::Stopped);
}

// Regression: a blocked tool lost the step's model response and token usage, and the model
// was never told why (seed 002 "Tool Blocking", seed 004 "Tool blocking flow").
#[test]
fn regression_a_blocked_tool_keeps_the_step_and_tells_the_model() {
    let rules = vec![when(
        decide_msg(
            "no-rm",
            E::PreToolUse,
            Verb::Block,
            "rm is not allowed here",
        ),
        cmp(Field::Tool, CompareOp::Eq, s("rm")),
    )];
    let script = Script::from_json(
        r#"{
          "turns": [
            {"response": "Cleaning up.", "tool_calls": [{"name": "rm", "args": {"path": "/"}}],
             "usage": {"input": 50, "output": 10}},
            {"response": "Fine, I will not.", "usage": {"input": 70, "output": 5}}
          ],
          "tools": {"rm": {"output": "removed"}}
        }"#,
    )
    .unwrap();
    let mut model = script.model();
    let state = script.agent_loop(policy(rules), Limits::default()).execute(
        &mut model,
        &mut script.tools(),
        &mut script.approver(),
    );
    let report = RunReport::from_state(&state).unwrap();

    let step = &state.step_records()[0];
    assert_eq!(step.response.as_deref(), Some("Cleaning up."));
    assert_eq!(
        step.usage,
        Usage {
            input: 50,
            output: 10
        }
    );
    assert_eq!(report.tokens, 135);
    assert_eq!(report.status, Status::Completed);

    let call = &report.tool_calls[0];
    assert_eq!(
        (call.decision, call.executed, call.error.as_deref()),
        (Decision::Block, false, Some("rm is not allowed here"))
    );
    assert_eq!(report.errors, 1);
    assert_eq!(step.errors[0].kind, rulesc_runtime::ErrorKind::ToolBlocked);
    // post_tool_use fired for the blocked call, then on_error, which the prelude ignored.
    let step_one: Vec<(EventKind, Decision)> = report
        .events
        .iter()
        .filter(|event| event.step == 1)
        .map(|event| (event.event, event.decision))
        .collect();
    assert!(step_one.contains(&(E::PostToolUse, Decision::None)));
    assert!(step_one.contains(&(E::OnError, Decision::Ignore)));

    // The second request carries the block message as the tool's error.
    let second = &model.requests()[1];
    assert_eq!(
        second.last(),
        Some(&Message::Tool {
            call_id: "call_1".to_owned(),
            tool: "rm".to_owned(),
            content: "rm is not allowed here".to_owned(),
            is_error: true,
        })
    );
}

#[test]
fn blocked_calls_count_as_failures_and_feed_the_error_policy() {
    let rules = vec![
        decide("no-tools", &[E::PreToolUse], Verb::Block),
        when(
            decide("too-many", &[E::OnError], Verb::Forbid),
            cmp(Field::Failures, CompareOp::Ge, int(2)),
        ),
    ];
    let report = AgentLoop::new(policy(rules)).run(&mut busy_model, &mut ok_tool, &mut deny);
    assert_eq!(report.steps, 2);
    assert_eq!(report.errors, 2);
    assert_eq!(report.stop_reason, StopReason::GuardForbade);
    assert_eq!(report.resolved_by.as_deref(), Some("too-many"));
    assert_eq!(
        report.tool_calls[0].error.as_deref(),
        Some("the call to `t` was blocked by `no-tools`")
    );
}

#[test]
fn failures_reset_when_a_step_ends_without_error() {
    // The tool fails in odd steps only; failures never reach 2.
    let mut n_calls = 0;
    let mut flaky = |_: &ToolCall| {
        n_calls += 1;
        if n_calls % 2 == 1 {
            Err(ToolError {
                message: "flaky".to_owned(),
            })
        } else {
            Ok("fine".to_owned())
        }
    };
    let rules = vec![when(
        decide("two-in-a-row", &[E::OnError], Verb::Forbid),
        cmp(Field::Failures, CompareOp::Ge, int(2)),
    )];
    let report = AgentLoop::new(policy(rules))
        .with_limits(Limits {
            max_steps: 6,
            ..Limits::default()
        })
        .run(&mut busy_model, &mut flaky, &mut deny);
    assert_eq!(report.stop_reason, StopReason::StepsLimitReached);
    assert_eq!(report.errors, 3);
}

// Regression: "no decision" meant continue in one place and stop in another (seed 000/003):
// here it means "changes nothing" everywhere, and a loop without rules still ends.
#[test]
fn regression_a_loop_without_rules_ends_at_max_steps() {
    let report = AgentLoop::new(policy(Vec::new()))
        .with_limits(Limits {
            max_steps: 5,
            ..Limits::default()
        })
        .run(&mut busy_model, &mut ok_tool, &mut deny);
    assert_eq!(report.steps, 5);
    assert_eq!(report.stop_reason, StopReason::StepsLimitReached);
    assert_eq!(report.resolved_by.as_deref(), Some("host:max_steps"));
    assert_eq!(report.status, Status::Stopped);
    // Undecided tool calls run.
    assert!(report.tool_calls.iter().all(|call| call.executed));
    assert_eq!(count_events(&report, E::BeforeStep), 5);
}

#[test]
fn the_default_max_steps_is_100() {
    let report = AgentLoop::new(policy(Vec::new())).run(&mut busy_model, &mut ok_tool, &mut deny);
    assert_eq!(report.steps, 100);
    assert_eq!(report.resolved_by.as_deref(), Some("host:max_steps"));
}

#[test]
fn an_unhandled_model_error_stops_the_run_as_failed() {
    let (report, _) = run(
        Vec::new(),
        r#"{"turns": [{"error": {"kind": "rate_limit", "message": "429"}}]}"#,
    );
    assert_eq!(report.stop_reason, StopReason::ErrorForbade);
    assert_eq!(report.status, Status::Failed);
    assert_eq!(report.resolved_by, None);
    assert_eq!((report.steps, report.errors), (0, 1));
}

#[test]
fn a_default_on_error_decides_when_no_rule_does() {
    let policy = Policy::new(
        Vec::new(),
        Defaults {
            on_error: Some(Verb::Ignore),
            ..Defaults::default()
        },
    )
    .unwrap();
    let (report, _) = run_policy(
        policy,
        Limits::default(),
        r#"{"turns": [{"error": {"kind": "timeout", "message": "slow"}}, {"response": "ok"}]}"#,
    );
    // The ignored failure ends step 1 without tool calls, so the prelude stops the run.
    assert_eq!(report.steps, 1);
    assert_eq!(report.status, Status::Completed);
}

#[test]
fn an_ignored_model_error_ends_the_step_without_tool_calls() {
    let rules = vec![
        decide("ignore-errors", &[E::OnError], Verb::Ignore),
        when(
            decide("try-again", &[E::AfterStep], Verb::Request),
            cmp(Field::FinishReason, CompareOp::Eq, s("error")),
        ),
    ];
    let (report, state) = run(
        rules,
        r#"{"turns": [{"error": {"kind": "model", "message": "overloaded"}}, {"response": "ok"}]}"#,
    );
    assert_eq!(report.steps, 2);
    assert_eq!(report.errors, 1);
    assert_eq!(state.step_records()[0].response, None);
    assert_eq!(
        state.step_records()[0].outcome.as_ref().unwrap().decision,
        Decision::Request
    );
    assert_eq!(report.resolved_by.as_deref(), Some("prelude:no-tool-calls"));
}

// Regression: `max_retries = N` allowed only N-1 retries (seed 003, `RetryLimit`).
#[test]
fn regression_max_retries_n_allows_n_retries() {
    let rules = vec![decide("retry-all", &[E::OnError], Verb::Retry)];
    let limits = Limits {
        max_retries: 2,
        ..Limits::default()
    };
    let twice = r#"{"turns": [
        {"error": {"kind": "rate_limit", "message": "429"}},
        {"error": {"kind": "rate_limit", "message": "429"}},
        {"response": "made it", "usage": {"input": 1, "output": 1}}]}"#;
    let (report, state) = run_policy(policy(rules.clone()), limits, twice);
    assert_eq!(report.status, Status::Completed);
    assert_eq!(state.step_records()[0].retries, 2);
    assert_eq!(count_events(&report, E::BeforeInference), 3);

    let thrice = r#"{"turns": [
        {"error": {"kind": "rate_limit", "message": "429"}},
        {"error": {"kind": "rate_limit", "message": "429"}},
        {"error": {"kind": "rate_limit", "message": "429"}},
        {"response": "too late"}]}"#;
    let (report, state) = run_policy(policy(rules), limits, thrice);
    assert_eq!(report.stop_reason, StopReason::RetryLimitReached);
    assert_eq!(report.status, Status::Failed);
    assert_eq!(report.resolved_by.as_deref(), Some("host:max_retries"));
    assert_eq!(state.step_records()[0].retries, 2);
    assert_eq!((report.steps, report.errors), (0, 3));
}

#[test]
fn a_retried_tool_call_goes_through_pre_tool_use_again() {
    // A retry must never run a blocked call: it is judged again, and blocked again.
    let rules = vec![
        decide("no-t", &[E::PreToolUse], Verb::Block),
        decide("retry-all", &[E::OnError], Verb::Retry),
    ];
    let report = AgentLoop::new(policy(rules)).run(&mut busy_model, &mut ok_tool, &mut deny);
    assert_eq!(report.stop_reason, StopReason::RetryLimitReached);
    assert_eq!(report.tool_calls.len(), 4);
    assert!(report.tool_calls.iter().all(|call| !call.executed));
    assert_eq!(count_events(&report, E::PreToolUse), 4);
    // The model call succeeded, so the step counts.
    assert_eq!(report.steps, 1);
}

#[test]
fn a_retried_tool_call_that_succeeds_reaches_the_model_once() {
    let mut n_calls = 0;
    let mut flaky_once = |_: &ToolCall| {
        n_calls += 1;
        if n_calls == 1 {
            Err(ToolError {
                message: "flaky".to_owned(),
            })
        } else {
            Ok("fine".to_owned())
        }
    };
    let rules = vec![
        decide("retry-all", &[E::OnError], Verb::Retry),
        when(
            decide("one-step", &[E::AfterStep], Verb::Forbid),
            cmp(Field::Steps, CompareOp::Ge, int(1)),
        ),
    ];
    let state = AgentLoop::new(policy(rules)).execute(&mut busy_model, &mut flaky_once, &mut deny);
    let report = RunReport::from_state(&state).unwrap();
    assert_eq!(report.tool_calls.len(), 2);
    assert_eq!(report.tool_calls[0].error.as_deref(), Some("flaky"));
    assert_eq!(report.tool_calls[1].error, None);
    let tool_messages = state
        .messages()
        .iter()
        .filter(|message| matches!(message, Message::Tool { .. }))
        .count();
    assert_eq!(tool_messages, 1);
}

// Regression: saving and loading a step duplicated its errors (seed 002 §5.3).
#[test]
fn regression_saving_and_loading_state_keeps_errors_once() {
    let rules = vec![when(
        decide("no-rm", &[E::PreToolUse], Verb::Block),
        cmp(Field::Tool, CompareOp::Eq, s("rm")),
    )];
    let (report, state) = run(
        rules,
        r#"{"turns": [
            {"tool_calls": [{"name": "rm"}, {"name": "deploy"}], "usage": {"input": 3, "output": 4}},
            {"error": {"kind": "timeout", "message": "slow"}}
        ]}"#,
    );
    assert_eq!(report.errors, 3);
    let saved = serde_json::to_string(&state).unwrap();
    let loaded: ExecutionState = serde_json::from_str(&saved).unwrap();
    assert_eq!(loaded, state);
    assert_eq!(loaded.errors(), 3);
    assert_eq!(loaded.usage(), state.usage());
    assert_eq!(loaded.steps(), state.steps());
    assert_eq!(serde_json::to_string(&loaded).unwrap(), saved);
    assert_eq!(RunReport::from_state(&loaded).unwrap(), report);
}

#[test]
fn forbid_ends_the_run_at_the_end_of_its_event() {
    let rules = vec![when(
        reason(
            decide("finish", &[E::PostToolUse], Verb::Forbid),
            StopReason::Completed,
        ),
        cmp(Field::Tool, CompareOp::Eq, s("finish")),
    )];
    let (report, _) = run(
        rules,
        r#"{"turns": [{"tool_calls": [{"name": "finish"}, {"name": "other"}]}],
            "tools": {"finish": {"output": "ok"}, "other": {"output": "ok"}}}"#,
    );
    assert_eq!(report.status, Status::Completed);
    assert_eq!(report.resolved_by.as_deref(), Some("finish"));
    // No further tool call, no after_step; the step counts since its model call succeeded.
    assert_eq!(report.tool_calls.len(), 1);
    assert_eq!(count_events(&report, E::AfterStep), 0);
    assert_eq!(report.steps, 1);
    let tail: Vec<EventKind> = report
        .events
        .iter()
        .rev()
        .take(3)
        .map(|event| event.event)
        .collect();
    assert_eq!(tail, [E::ExecutionEnd, E::Stop, E::PostToolUse]);
}

#[test]
fn forbid_on_pre_tool_use_blocks_the_call_and_stops() {
    let rules = vec![decide_msg(
        "never",
        E::PreToolUse,
        Verb::Forbid,
        "no tools at all",
    )];
    let report = AgentLoop::new(policy(rules)).run(&mut busy_model, &mut ok_tool, &mut deny);
    assert_eq!(report.stop_reason, StopReason::GuardForbade);
    assert_eq!(report.message.as_deref(), Some("no tools at all"));
    assert_eq!(report.tool_calls[0].decision, Decision::Forbid);
    assert!(!report.tool_calls[0].executed);
    assert_eq!(count_events(&report, E::PostToolUse), 0);
    assert_eq!(report.steps, 1);
}

#[test]
fn forbid_before_the_model_call_does_not_count_the_step() {
    let rules = vec![decide("closed", &[E::BeforeInference], Verb::Forbid)];
    let report = AgentLoop::new(policy(rules)).run(&mut busy_model, &mut ok_tool, &mut deny);
    assert_eq!(report.steps, 0);
    let rules = vec![decide("closed", &[E::ExecutionStart], Verb::Forbid)];
    let report = AgentLoop::new(policy(rules)).run(&mut busy_model, &mut ok_tool, &mut deny);
    assert_eq!(count_events(&report, E::BeforeStep), 0);
    assert_eq!(report.resolved_by.as_deref(), Some("closed"));
}

#[test]
fn request_overrides_allow_stop_across_the_events_of_a_step() {
    let rules = vec![when(
        decide("more", &[E::AfterInference], Verb::Request),
        cmp(Field::Step, CompareOp::Lt, int(3)),
    )];
    let (report, state) = run(rules, r#"{"turns": []}"#);
    assert_eq!(report.steps, 3);
    let outcome = state.step_records()[0].outcome.clone().unwrap();
    assert_eq!(
        (outcome.decision, outcome.resolved_by.as_deref()),
        (Decision::Request, Some("more"))
    );
}

#[test]
fn allow_stop_on_a_tool_step_stops_after_its_tools() {
    let rules = vec![reason(
        decide("one-and-done", &[E::AfterInference], Verb::AllowStop),
        StopReason::FinishReasonReceived,
    )];
    let report = AgentLoop::new(policy(rules)).run(&mut busy_model, &mut ok_tool, &mut deny);
    assert_eq!(report.steps, 1);
    assert!(report.tool_calls[0].executed);
    assert_eq!(report.stop_reason, StopReason::FinishReasonReceived);
    assert_eq!(report.status, Status::Completed);
}

#[test]
fn ask_goes_to_the_approver() {
    let rules = vec![decide_msg("careful", E::PreToolUse, Verb::Ask, "really?")];
    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&asked);
    let mut approve = move |call: &ToolCall, message: Option<&str>| {
        log.lock()
            .unwrap()
            .push((call.name.clone(), message.map(str::to_owned)));
        Approval::Allow
    };
    let report = AgentLoop::new(policy(rules.clone()))
        .with_limits(Limits {
            max_steps: 1,
            ..Limits::default()
        })
        .run(&mut busy_model, &mut ok_tool, &mut approve);
    assert_eq!(
        *asked.lock().unwrap(),
        vec![("t".to_owned(), Some("really?".to_owned()))]
    );
    assert_eq!(
        (report.tool_calls[0].decision, report.tool_calls[0].executed),
        (Decision::Ask, true)
    );
    assert_eq!(report.errors, 0);

    let report = AgentLoop::new(policy(rules))
        .with_limits(Limits {
            max_steps: 1,
            ..Limits::default()
        })
        .run(&mut busy_model, &mut ok_tool, &mut deny);
    let call = &report.tool_calls[0];
    assert_eq!((call.decision, call.executed), (Decision::Ask, false));
    assert_eq!(
        call.error.as_deref(),
        Some("the approver denied the call to `t`: really?")
    );
    assert_eq!(report.errors, 1);
}

#[test]
fn time_limits_read_the_injected_clock() {
    let rules = vec![when(
        reason(
            decide("time-budget", &[E::BeforeStep], Verb::Forbid),
            StopReason::TimeLimitReached,
        ),
        cmp(Field::Elapsed, CompareOp::Ge, Literal::Duration(1_000)),
    )];
    let report = AgentLoop::new(policy(rules))
        .with_clock(StepClock::new(400))
        .run(&mut busy_model, &mut ok_tool, &mut deny);
    // 0, 400 and 800 ms before steps 1 to 3; 1200 ms before step 4.
    assert_eq!(report.steps, 3);
    assert_eq!(report.stop_reason, StopReason::TimeLimitReached);
}

#[test]
fn set_effects_carry_over_to_later_steps() {
    let rules = vec![
        when(
            set("taint", E::PostToolUse, "tainted", Literal::Bool(true)),
            cmp(Field::Tool, CompareOp::Eq, s("fetch")),
        ),
        when(
            decide_msg("no-send", E::PreToolUse, Verb::Block, "tainted"),
            Condition::All(vec![
                Condition::Flag(metadata("tainted")),
                cmp(Field::Tool, CompareOp::Eq, s("send")),
            ]),
        ),
    ];
    let (report, state) = run(
        rules,
        r#"{"turns": [{"tool_calls": [{"name": "send"}]}, {"tool_calls": [{"name": "fetch"}]},
                      {"tool_calls": [{"name": "send"}]}],
            "tools": {"send": {"output": "sent"}, "fetch": {"output": "<html>"}},
            "metadata": {"user": "ada"}}"#,
    );
    let decisions: Vec<(String, Decision)> = report
        .tool_calls
        .iter()
        .map(|call| (call.tool.clone(), call.decision))
        .collect();
    assert_eq!(
        decisions,
        [
            ("send".to_owned(), Decision::Allow),
            ("fetch".to_owned(), Decision::Allow),
            ("send".to_owned(), Decision::Block)
        ]
    );
    assert_eq!(
        serde_json::Value::Object(state.metadata().clone()),
        serde_json::json!({"tainted": true, "user": "ada"})
    );
}

#[test]
fn a_tool_missing_from_the_script_fails_naming_it() {
    let (report, _) = run(
        Vec::new(),
        r#"{"turns": [{"tool_calls": [{"name": "ghost"}]}]}"#,
    );
    assert_eq!(
        report.tool_calls[0].error.as_deref(),
        Some("no tool named `ghost` in the run script")
    );
    assert!(report.tool_calls[0].executed);
    assert_eq!(report.errors, 1);
    assert_eq!(report.status, Status::Completed);
}

#[test]
fn malformed_scripts_are_rejected_with_a_reason() {
    for (text, needle) in [
        ("[]", "expected a JSON object"),
        ("{", "EOF while parsing"),
        (r#"{"turns": {}}"#, "invalid type: map, expected a sequence"),
        (
            r#"{"turns": [{"error": {"kind": "oops"}}]}"#,
            "unknown error kind `oops`",
        ),
        (r#"{"approver": "maybe"}"#, "unknown variant `maybe`"),
        (
            r#"{"tools": {"t": {"output": "a", "error": "b"}}}"#,
            "both `output` and `error`",
        ),
        (
            r#"{"turns": [{"finish_reason": "tired"}]}"#,
            "unknown variant `tired`",
        ),
        (r#"{"max_retries": -1}"#, "invalid value"),
    ] {
        let error = Script::from_json(text).unwrap_err().to_string();
        assert!(error.contains(needle), "{text}: {error}");
        assert!(!error.contains('\n'), "{error}");
    }
}

#[test]
fn the_human_rendering_is_stable() {
    let rules = vec![when(
        decide_msg("no-rm", E::PreToolUse, Verb::Block, "no \"rm\""),
        cmp(Field::Tool, CompareOp::Eq, s("rm")),
    )];
    let (report, _) = run(
        rules,
        r#"{"turns": [{"tool_calls": [{"name": "rm"}]}], "metadata": {"k": 1}}"#,
    );
    assert_eq!(
        report.render(),
        "status: completed
stop_reason: completed
resolved_by: prelude:no-tool-calls
steps: 2, tokens: 0, errors: 1
tool_calls:
  step 1: rm => block, not executed, error: \"no \\\"rm\\\"\"
events:
  step 0: execution_start => none
  step 1: before_step => none
  step 1: before_inference => none
  step 1: after_inference => none
  step 1: pre_tool_use => block by no-rm
  step 1: post_tool_use => none
  step 1: on_error => ignore by prelude:tool-errors-to-model
  step 1: after_step => none
  step 2: before_step => none
  step 2: before_inference => none
  step 2: after_inference => none
  step 2: after_step => allow_stop by prelude:no-tool-calls
  step 2: stop => allow_stop
  step 2: execution_end => none
metadata: {\"k\":1}
"
    );
}

// Regression: stop hooks were handed a synthetic outcome and could not see which decision
// actually triggered the stop (seed 003, "Synthetic ContinuationOutcome in stop hooks").
#[test]
fn regression_stop_hooks_see_the_real_pending_stop() {
    let rules = vec![
        when(
            reason(
                decide("step-guard", &[E::BeforeStep], Verb::Forbid),
                StopReason::StepsLimitReached,
            ),
            cmp(Field::Steps, CompareOp::Ge, int(1)),
        ),
        when(
            set("saw-guard", E::Stop, "saw_guard", Literal::Bool(true)),
            Condition::All(vec![
                cmp(Field::StopReason, CompareOp::Eq, s("steps_limit_reached")),
                cmp(Field::StopDecision, CompareOp::Eq, s("forbid")),
                cmp(Field::StopRequests, CompareOp::Eq, int(0)),
                cmp(Field::Response, CompareOp::Eq, s("working")),
            ]),
        ),
    ];
    let report = AgentLoop::new(policy(rules)).run(&mut busy_model, &mut ok_tool, &mut deny);
    assert_eq!(
        report.metadata.get("saw_guard"),
        Some(&serde_json::json!(true))
    );
    assert_eq!(report.steps, 1);
}

#[test]
fn a_loop_can_move_to_another_thread() {
    fn assert_send<T: Send>() {}
    assert_send::<AgentLoop>();
    assert_send::<ExecutionState>();
    assert_send::<RunReport>();
}
