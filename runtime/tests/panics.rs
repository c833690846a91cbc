//! Host code that panics never crashes the loop: a panicking model driver, tool executor,
//! approver or native hook becomes the failure it stands for, the policy resolves it like
//! any error, and the run's state is kept.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::common::{cmp, decide, decide_msg, policy, s, set, when};
use rulesc_runtime::{
    AgentLoop, Approval, CompareOp, Decision, ErrorKind, Event, EventKind, ExecutionState, Field,
    FinishReason, HookDecision, InferenceResponse, Literal, Message, ModelError, NativeHook,
    Policy, Rule, Status, StopReason, ToolCall, ToolError, Usage, Verb,
};

use EventKind as E;

/// `on on_error when error.kind == "<kind>" <verb>`
fn on_error(kind: &str, verb: Verb) -> Rule {
    when(
        decide(&format!("{kind}-{verb}"), &[E::OnError], verb),
        cmp(Field::ErrorKind, CompareOp::Eq, s(kind)),
    )
}

/// A model that calls `tool` in its first answer and then answers without tools; its
/// call number `panic_at` (from 1) panics instead
fn model(
    tool: &'static str,
    panic_at: u64,
) -> impl FnMut(&[Message]) -> Result<InferenceResponse, ModelError> {
    let mut calls = 0;
    move |_: &[Message]| {
        calls += 1;
        assert!(calls != panic_at, "model exploded on call {calls}");
        let tool_calls = if calls <= panic_at.max(1) {
            vec![ToolCall {
                id: format!("c{calls}"),
                name: tool.to_owned(),
                args: serde_json::json!({}),
            }]
        } else {
            Vec::new()
        };
        Ok(InferenceResponse {
            text: format!("answer {calls}"),
            finish_reason: if tool_calls.is_empty() {
                FinishReason::Stop
            } else {
                FinishReason::ToolCalls
            },
            tool_calls,
            usage: Usage {
                input: 10,
                output: 1,
            },
        })
    }
}

fn ok_tool(call: &ToolCall) -> Result<String, ToolError> {
    Ok(format!("{} ran", call.name))
}

fn allow(_: &ToolCall, _: Option<&str>) -> Approval {
    Approval::Allow
}

/// Runs `policy` with the model, tools and approver given, and the hooks
fn execute(
    policy: Policy,
    hooks: Vec<Box<dyn NativeHook>>,
    model: &mut dyn rulesc_runtime::Model,
    tools: &mut dyn rulesc_runtime::ToolExecutor,
    approver: &mut dyn rulesc_runtime::Approver,
) -> ExecutionState {
    let mut agent_loop = AgentLoop::new(policy);
    for hook in hooks {
        agent_loop = agent_loop.with_hook(BoxedHook(hook));
    }
    agent_loop.execute(model, tools, approver)
}

struct BoxedHook(Box<dyn NativeHook>);

impl NativeHook for BoxedHook {
    fn id(&self) -> &str {
        self.0.id()
    }
    fn events(&self) -> &[EventKind] {
        self.0.events()
    }
    fn evaluate(&self, event: &Event) -> Option<HookDecision> {
        self.0.evaluate(event)
    }
}

/// The events that fired, with their decisions
fn fired(state: &ExecutionState) -> Vec<(EventKind, Decision)> {
    state
        .events()
        .iter()
        .map(|record| (record.event, record.resolution.decision))
        .collect()
}

fn errors(state: &ExecutionState) -> Vec<(ErrorKind, String)> {
    state
        .step_records()
        .iter()
        .flat_map(|record| &record.errors)
        .map(|error| (error.kind, error.message.clone()))
        .collect()
}

#[expect(
    clippy::expect_used,
    reason = "a helper of tests: a run without end fails the test"
)]
fn end(state: &ExecutionState) -> (Status, StopReason, Option<String>) {
    let end = state.end().expect("the run ended");
    (
        end.status,
        end.stop_reason(),
        end.resolution.resolved_by.clone(),
    )
}

/// A mark set on `execution_start`, to see that the state survives a panic
fn mark() -> Rule {
    set("mark", E::ExecutionStart, "seen", Literal::Bool(true))
}

#[test]
fn a_panicking_model_is_an_unknown_error_the_policy_can_retry() {
    let state = execute(
        policy(vec![mark(), on_error("unknown", Verb::Retry)]),
        Vec::new(),
        &mut model("ls", 1),
        &mut ok_tool,
        &mut allow,
    );
    assert_eq!(
        errors(&state),
        [(
            ErrorKind::Unknown,
            "the model driver panicked: model exploded on call 1".to_owned()
        )]
    );
    assert_eq!(
        end(&state),
        (
            Status::Completed,
            StopReason::Completed,
            Some("prelude:no-tool-calls".to_owned())
        )
    );
    assert_eq!(state.model_calls(), 2);
    assert_eq!(state.metadata().get("seen"), Some(&serde_json::json!(true)));
}

#[test]
fn a_panicking_model_left_unhandled_stops_the_run_and_keeps_its_state() {
    let state = execute(
        policy(vec![mark()]),
        Vec::new(),
        &mut model("ls", 2),
        &mut ok_tool,
        &mut allow,
    );
    assert_eq!(
        end(&state),
        (Status::Failed, StopReason::ErrorForbade, None)
    );
    // Step 1 and its tool call are all there.
    assert_eq!(state.steps(), 1);
    assert_eq!(state.step_records()[0].tool_calls.len(), 1);
    assert_eq!(state.metadata().get("seen"), Some(&serde_json::json!(true)));
    assert_eq!(
        fired(&state).last(),
        Some(&(E::ExecutionEnd, Decision::None))
    );
}

#[test]
fn a_panicking_tool_is_a_failed_tool_call_the_model_is_told_about() {
    let mut tools = |call: &ToolCall| -> Result<String, ToolError> {
        assert!(call.name != "rm", "disk on fire");
        Ok("fine".to_owned())
    };
    let state = execute(
        policy(vec![mark()]),
        Vec::new(),
        &mut model("rm", 0),
        &mut tools,
        &mut allow,
    );
    let message = "the tool `rm` panicked: disk on fire".to_owned();
    assert_eq!(errors(&state), [(ErrorKind::Tool, message.clone())]);
    let call = &state.step_records()[0].tool_calls[0];
    assert!(call.executed);
    assert_eq!(call.error.as_ref(), Some(&message));
    // The prelude sends tool errors to the model, which goes on and finishes.
    assert!(state.messages().iter().any(|sent| matches!(
        sent,
        Message::Tool { content, is_error: true, .. } if *content == message
    )));
    assert_eq!(end(&state).0, Status::Completed);
}

#[test]
fn a_panicking_approver_approves_nothing() {
    let mut approver = |_: &ToolCall, _: Option<&str>| -> Approval { panic!("approver gone") };
    let mut ran = false;
    let mut tools = |_: &ToolCall| -> Result<String, ToolError> {
        ran = true;
        Ok(String::new())
    };
    let state = execute(
        policy(vec![decide("ask-all", &[E::PreToolUse], Verb::Ask)]),
        Vec::new(),
        &mut model("deploy", 0),
        &mut tools,
        &mut approver,
    );
    assert!(!ran, "the tool must not run");
    let call = &state.step_records()[0].tool_calls[0];
    assert_eq!((call.decision, call.executed), (Decision::Ask, false));
    assert_eq!(
        errors(&state),
        [(
            ErrorKind::ToolBlocked,
            "the approver panicked on the call to `deploy`: approver gone".to_owned()
        )]
    );
}

/// A native hook that blocks every tool call, after panicking on its first `n_panics`
/// evaluations
struct Flaky {
    n_panics: u64,
    calls: AtomicU64,
    events: Vec<EventKind>,
}

impl Flaky {
    fn boxed(n_panics: u64, events: &[EventKind]) -> Box<dyn NativeHook> {
        Box::new(Flaky {
            n_panics,
            calls: AtomicU64::new(0),
            events: events.to_vec(),
        })
    }
}

impl NativeHook for Flaky {
    fn id(&self) -> &str {
        "host:flaky"
    }

    fn events(&self) -> &[EventKind] {
        &self.events
    }

    fn evaluate(&self, event: &Event) -> Option<HookDecision> {
        let call = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        assert!(call > self.n_panics, "hook broke on call {call}");
        (event.kind == E::PreToolUse).then(|| HookDecision::new(Verb::Block).with_message("no"))
    }
}

/// Runs a model that calls `rm` once, with `hook`, under `rules`; whether `rm` ran
fn run_with_hook(rules: Vec<Rule>, hook: Box<dyn NativeHook>) -> (ExecutionState, bool) {
    let mut ran = false;
    let mut tools = |_: &ToolCall| -> Result<String, ToolError> {
        ran = true;
        Ok(String::new())
    };
    let state = execute(
        policy(rules),
        vec![hook],
        &mut model("rm", 0),
        &mut tools,
        &mut allow,
    );
    (state, ran)
}

#[test]
fn a_panicking_hook_left_unhandled_stops_the_run_before_the_tool() {
    let (state, ran) = run_with_hook(vec![mark()], Flaky::boxed(u64::MAX, &[E::PreToolUse]));
    assert!(
        !ran,
        "a hook that could not vote must not let the tool through"
    );
    assert_eq!(
        end(&state),
        (Status::Failed, StopReason::ErrorForbade, None)
    );
    assert_eq!(
        errors(&state),
        [(
            ErrorKind::Unknown,
            "native hook `host:flaky` panicked: hook broke on call 1".to_owned()
        )]
    );
    let call = &state.step_records()[0].tool_calls[0];
    assert_eq!((call.decision, call.executed), (Decision::Forbid, false));
    assert!(fired(&state).contains(&(E::OnError, Decision::None)));
    assert_eq!(state.metadata().get("seen"), Some(&serde_json::json!(true)));
}

#[test]
fn a_panicking_hook_can_be_ignored_by_the_policy() {
    let (state, ran) = run_with_hook(
        vec![on_error("unknown", Verb::Ignore)],
        Flaky::boxed(u64::MAX, &[E::PreToolUse]),
    );
    assert!(ran, "the policy chose to go on without the hook");
    assert_eq!(end(&state).0, Status::Completed);
}

#[test]
fn a_retry_evaluates_the_event_again_with_the_hook() {
    let (state, ran) = run_with_hook(
        vec![on_error("unknown", Verb::Retry)],
        Flaky::boxed(1, &[E::PreToolUse]),
    );
    assert!(!ran, "the second evaluation counts the hook's block");
    let call = &state.step_records()[0].tool_calls[0];
    assert_eq!((call.decision, call.executed), (Decision::Block, false));
    let pre_tool: Vec<_> = fired(&state)
        .into_iter()
        .filter(|(event, _)| matches!(event, E::PreToolUse | E::OnError))
        .take(3)
        .collect();
    assert_eq!(
        pre_tool,
        [
            (E::PreToolUse, Decision::None),
            (E::OnError, Decision::Retry),
            (E::PreToolUse, Decision::Block)
        ]
    );
}

#[test]
fn a_hook_that_always_panics_cannot_be_retried_forever() {
    for events in [&[E::PreToolUse][..], &[E::ExecutionStart]] {
        let (state, ran) = run_with_hook(
            vec![on_error("unknown", Verb::Retry)],
            Flaky::boxed(u64::MAX, events),
        );
        assert!(!ran);
        assert_eq!(end(&state).1, StopReason::RetryLimitReached, "{events:?}");
    }
}

#[test]
fn a_hook_panicking_on_on_error_does_not_recurse() {
    // The tool fails; on `on_error` the hook panics too. The hook's failure is judged by
    // the rules alone, and the tool's error then goes its usual way.
    let mut tools = |_: &ToolCall| -> Result<String, ToolError> {
        Err(ToolError {
            message: "no such file".to_owned(),
        })
    };
    let state = execute(
        policy(vec![on_error("unknown", Verb::Ignore)]),
        vec![Flaky::boxed(u64::MAX, &[E::OnError])],
        &mut model("cat", 0),
        &mut tools,
        &mut allow,
    );
    assert_eq!(
        errors(&state),
        [
            (ErrorKind::Tool, "no such file".to_owned()),
            (
                ErrorKind::Unknown,
                "native hook `host:flaky` panicked: hook broke on call 1".to_owned()
            ),
        ]
    );
    assert_eq!(end(&state).0, Status::Completed);
}

#[test]
fn a_message_from_the_hook_policy_reaches_the_run_end() {
    let forbid = decide_msg("stop-on-unknown", E::OnError, Verb::Forbid, "hook failed");
    let rule = when(forbid, cmp(Field::ErrorKind, CompareOp::Eq, s("unknown")));
    let (state, ran) = run_with_hook(vec![rule], Flaky::boxed(u64::MAX, &[E::PreToolUse]));
    assert!(!ran);
    let end = state.end().unwrap();
    assert_eq!(
        (
            end.resolution.resolved_by.as_deref(),
            end.resolution.message.as_deref()
        ),
        (Some("stop-on-unknown"), Some("hook failed"))
    );
}
