//! From a host's hook call to rulesc events, evaluated against the session's state.
//!
//! A host's session is one execution. A step is one turn of the agent: it begins with the
//! user's prompt (`UserPromptSubmit`, `BeforeAgent`) and ends when the agent stops (`Stop`,
//! `AfterAgent`), so `steps` counts finished turns, and a turn that a stop hook kept going
//! is a new step. Tool calls happen inside step `steps + 1`.
//!
//! The counters move by the runtime's one model of a run (`RunCounters`, runtime `run.rs`),
//! as in the agent loop; this mapping only says which host call is which transition
//! (docs/state.md, "What the counters mean"). Hooks see no model call, so each tool call
//! stands for the model step that made it, and the `Stop` of a turn for its last one, the
//! answer; only that one counts in `steps`:
//! - a failed tool call (`PostToolUseFailure`) and a call this policy blocked are a failed
//!   call ending a step that failed, counted before `post_tool_use` fires, then fire
//!   `on_error` (`tool` or `tool_blocked`) unless `post_tool_use` forbade; a call that ran
//!   without error ends a step without one, which resets `failures`;
//! - a `Stop` ends the turn's last step, without error: it counts in `steps` and resets
//!   `failures` before `stop` fires; the host's `stop_hook_active` says whether this
//!   stop follows a prevented one (so the chain is at least 1) or begins a new chain (0);
//! - `elapsed` runs from the first call of the session; tokens are not seen by hooks and stay 0;
//! - `metadata` is the outcome's after each event, so `set` effects carry over.
//!
//! Invariant: nothing here does I/O. [`respond`] is a function of the policy, the call, the
//! state and the time, so every mapping is unit-testable.

use rulesc_runtime::{
    Decision, ErrorInfo, EvalOptions, Event, EventKind, Field, HostEvent, Outcome, Policy,
    RunCounters, StopChain, StopDecision, StopReason,
};

use super::answer::Verdict;
use super::payload::HookCall;
use super::session::{PolicyRun, SessionState};

/// Evaluates `call` against `policy`, whose runs in a session are kept under `policy_key`,
/// updating `state`, and returns what to tell the host; every outcome, with the step it
/// belongs to, goes to `record` (replay's report and the hook's shadow notes read them).
/// `reset_flags` is what `rulesc hook reset` needs after `--session ID` to find the store
/// `state` came from
pub(crate) fn respond_recorded(
    policy: &Policy,
    policy_key: &str,
    call: &HookCall,
    state: &mut SessionState,
    now_ms: u64,
    reset_flags: &str,
    record: Option<&mut Vec<(u64, Outcome)>>,
) -> Verdict {
    // A stopped session evaluates nothing, so its clock is not read, and not written either.
    if let Some(reason) = &state.forbidden {
        return stopped(call, reason, reset_flags);
    }
    let elapsed_ms = state.clock.tick(now_ms);
    let run = state.run_of(policy_key, elapsed_ms);
    let mut session = Session {
        policy,
        call,
        counters: run.counters(),
        subagent_stops: run.subagent_stops(),
        run,
        elapsed_ms,
        latched: None,
        verdict: Verdict::default(),
        record,
    };
    session.respond();
    let Session {
        run,
        counters,
        subagent_stops,
        verdict,
        latched,
        ..
    } = session;
    run.keep(counters, subagent_stops);
    if latched.is_some() {
        state.forbidden = latched;
    }
    verdict
}

/// The answer in a session a `forbid` stopped: tool calls are denied and prompts refused
/// with its reason, stops and the rest go unopposed; nothing is evaluated
fn stopped(call: &HookCall, reason: &str, reset_flags: &str) -> Verdict {
    let reason = format!(
        "this session was stopped: {reason}; run `rulesc hook reset --session {}{reset_flags}` \
         to clear it",
        call.session_id
    );
    if call.event.gates_tool_call() || call.event == HostEvent::PromptSubmit {
        Verdict::stopped(reason)
    } else {
        Verdict::default()
    }
}

/// One call being answered, under one policy
struct Session<'a> {
    policy: &'a Policy,
    call: &'a HookCall,
    /// The policy's run of the session
    run: &'a mut PolicyRun,
    /// The run's counters during this call, kept in `run` when it is answered
    counters: RunCounters,
    /// The chain of stops prevented in the current sub-agent, kept likewise
    subagent_stops: StopChain,
    /// The session's elapsed time at this call
    elapsed_ms: u64,
    /// The reason of a `forbid` this call latched
    latched: Option<String>,
    verdict: Verdict,
    record: Option<&'a mut Vec<(u64, Outcome)>>,
}

impl Session<'_> {
    fn respond(&mut self) {
        let in_turn = self.counters.steps().saturating_add(1);
        match self.call.event {
            HostEvent::SessionStart => {
                self.fire(EventKind::ExecutionStart, 0, |_| {});
            }
            HostEvent::PromptSubmit => {
                self.run.stop_reason = None;
                self.fire(EventKind::BeforeStep, in_turn, |_| {});
            }
            HostEvent::PreTool => self.pre_tool_use(in_turn),
            HostEvent::PermissionRequest => self.permission_request(in_turn),
            HostEvent::PostTool => {
                self.counters.step_ended(false);
                let result = self.call.result.clone();
                self.fire(EventKind::PostToolUse, in_turn, |event| {
                    event.result = result;
                    event.tool_error = Some(false);
                    event.blocked = Some(false);
                });
            }
            HostEvent::PostToolFailure => {
                let message = self.call.error.clone().unwrap_or_default();
                self.tool_failed(in_turn, "tool", message, false);
            }
            HostEvent::Stop => {
                self.counters.step_ended(true);
                let steps = self.counters.steps();
                let kept = *self.counters.stops();
                *self.counters.stops() = self.stop(EventKind::Stop, steps, kept);
            }
            HostEvent::SubagentStop => {
                self.subagent_stops =
                    self.stop(EventKind::SubagentStop, in_turn, self.subagent_stops);
            }
            HostEvent::SessionEnd => {
                let stop_reason = self.run.stop_reason.unwrap_or(StopReason::UserRequested);
                let steps = self.counters.steps();
                self.fire(EventKind::ExecutionEnd, steps, |event| {
                    event.stop_reason = Some(stop_reason);
                    event.status = Some(stop_reason.status());
                });
            }
        }
    }

    /// The host is about to ask its user to approve a tool call: the `pre_tool_use` rules
    /// answer, but the call was already judged (and counted, and its effects kept) at
    /// `PreToolUse`, so this evaluation keeps nothing
    fn permission_request(&mut self, step: u64) {
        let mut event = self.event(EventKind::PreToolUse, step);
        let mut trace = self.run.trace.clone();
        trace.carry_prompt(&mut event);
        let outcome = self
            .policy
            .evaluate_with(&event, EvalOptions::default().trace(&mut trace));
        self.verdict.absorb(&outcome);
        if let Some(record) = self.record.as_deref_mut() {
            record.push((step, outcome));
        }
    }

    /// `pre_tool_use`; a blocked call then counts as an error, as in the agent loop
    fn pre_tool_use(&mut self, step: u64) {
        let outcome = self.fire(EventKind::PreToolUse, step, |_| {});
        if outcome.resolution.decision == Decision::Block {
            let message = super::answer::reason(&outcome);
            self.tool_failed(step, "tool_blocked", message, true);
        }
    }

    /// A failed or blocked tool call: `post_tool_use`, then `on_error` unless it forbade
    fn tool_failed(&mut self, step: u64, kind: &str, message: String, blocked: bool) {
        self.counters.call_failed();
        self.counters.step_ended(false);
        let post = self.fire(EventKind::PostToolUse, step, |event| {
            event.tool_error = Some(!blocked);
            event.blocked = Some(blocked);
        });
        if post.resolution.decision == Decision::Forbid {
            return;
        }
        let tool = self.call.tool.clone();
        self.fire(EventKind::OnError, step, |event| {
            event.tool = tool;
            event.error = Some(ErrorInfo {
                kind: kind.to_owned(),
                message,
            });
        });
    }

    /// A stop hook event; returns the chain of prevented stops after it
    ///
    /// `chain` is the one this state kept. The host's `stop_hook_active` is the ground
    /// truth of whether a chain is going on (perhaps one another hook than this one made).
    fn stop(&mut self, kind: EventKind, step: u64, mut chain: StopChain) -> StopChain {
        chain.reported(self.call.stop_hook_active);
        let stop_requests = chain.count();
        let response = self.call.response.clone().unwrap_or_default();
        let outcome = self.fire(kind, step, |event| {
            event.stop_reason = Some(StopReason::Completed);
            event.stop_decision = Some(StopDecision::AllowStop);
            event.stop_requests = Some(stop_requests);
            event.response = Some(response);
        });
        match outcome.resolution.decision {
            Decision::Request => chain.prevented(),
            Decision::Forbid => chain.stood(),
            _ => {
                if kind == EventKind::Stop {
                    self.run.stop_reason = Some(StopReason::Completed);
                }
                chain.stood();
            }
        }
        chain
    }

    /// Evaluates one event built from the state and the call, then keeps what it changed
    fn fire(&mut self, kind: EventKind, step: u64, describe: impl FnOnce(&mut Event)) -> Outcome {
        let mut event = self.event(kind, step);
        describe(&mut event);
        // The session's trace remembers the turn's prompt, so every event of the turn has it.
        self.run.trace.carry_prompt(&mut event);
        let options = EvalOptions::default().trace(&mut self.run.trace);
        let outcome = self.policy.evaluate_with(&event, options);
        self.run.metadata.clone_from(&outcome.metadata);
        if outcome.resolution.decision == Decision::Forbid {
            self.run.stop_reason = outcome.resolution.stop_reason;
            self.latched = Some(super::answer::reason(&outcome));
        }
        self.verdict.absorb(&outcome);
        if let Some(record) = self.record.as_deref_mut() {
            record.push((step, outcome.clone()));
        }
        outcome
    }

    /// The event of `kind` as the state and the call describe it
    fn event(&self, kind: EventKind, step: u64) -> Event {
        let mut event = Event::new(kind);
        event.step = step;
        self.counters.describe(&mut event);
        event.elapsed_ms = self.elapsed_ms;
        event.metadata = self.run.metadata.clone();
        event.session_id = Some(self.call.session_id.clone());
        event.cwd.clone_from(&self.call.cwd);
        event.permission_mode.clone_from(&self.call.permission_mode);
        if kind == EventKind::BeforeStep {
            event.prompt.clone_from(&self.call.prompt);
        }
        if matches!(kind, EventKind::PreToolUse | EventKind::PostToolUse) {
            event.tool.clone_from(&self.call.tool);
            event.arg.clone_from(&self.call.arg);
            // Only after the tool ran is a call with an unreadable input answered at all
            // (`payload::check_unread`); its rules then fail closed on what they read of it.
            // What an input means depends on its tool: with the tool unknown, so is the input.
            let unread = |name: &str| self.call.unread.iter().any(|(field, _)| field == name);
            let tool_unknown = unread("tool_name") || unread("mcp_context");
            event.arg_unreadable = unread("tool_input") || tool_unknown;
            event.unknown_fields = [
                (Field::Tool, tool_unknown),
                (Field::Cwd, unread("cwd")),
                (Field::PermissionMode, unread("permission_mode")),
            ]
            .into_iter()
            .filter_map(|(field, unknown)| unknown.then_some(field))
            .collect();
        }
        event
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value as Json};

    use rulesc_runtime::{
        Action, CompareOp, Condition, Defaults, Field, FieldPath, Limits, Literal, Operand,
        PathSegment, Rule, ToolOutput, Verb,
    };

    use super::*;
    use crate::answer::Permission;

    fn respond(policy: &Policy, call: &HookCall, state: &mut SessionState, now_ms: u64) -> Verdict {
        respond_recorded(policy, "p", call, state, now_ms, "", None)
    }

    /// The run of the policy the tests' calls evaluate
    fn run(state: &mut SessionState) -> &mut PolicyRun {
        state.run_of("p", 0)
    }

    fn rule(id: &str, event: EventKind, condition: Option<Condition>, action: Action) -> Rule {
        Rule {
            id: id.to_owned(),
            events: vec![event],
            condition,
            action,
            priority: 0,
            origin: None,
        }
    }

    fn decide(verb: Verb, message: &str) -> Action {
        Action::Decide {
            verb,
            stop_reason: StopReason::default_for(verb),
            message: Some(message.to_owned()),
        }
    }

    fn tainted() -> FieldPath {
        FieldPath {
            segments: vec![PathSegment::Key("tainted".to_owned())],
        }
    }

    fn call(event: HostEvent) -> HookCall {
        HookCall {
            name: "Test".to_owned(),
            event,
            session_id: "s".to_owned(),
            tool: Some("Bash".to_owned()),
            arg: Some(json!({"command": "ls"})),
            result: Some(ToolOutput::from_text("a.txt")),
            error: Some("exit status 1".to_owned()),
            response: Some("done".to_owned()),
            stop_hook_active: false,
            cwd: Some("/home/user/project".to_owned()),
            permission_mode: Some("default".to_owned()),
            prompt: Some("fix the tests".to_owned()),
            unread: Vec::new(),
            not_json: None,
        }
    }

    #[test]
    fn every_host_event_fires_the_rulesc_event_the_compiler_names_for_it() {
        let policy = Policy::new(Vec::new(), Defaults::default()).unwrap();
        for (name, meaning) in rulesc_runtime::ALL_HOST_EVENTS.into_iter().flatten() {
            let rulesc_runtime::HostEventName::Mapped(event) = meaning else {
                continue;
            };
            let mut fired = Vec::new();
            let mut state = SessionState::new(0);
            respond_recorded(
                &policy,
                "p",
                &call(*event),
                &mut state,
                0,
                "",
                Some(&mut fired),
            );
            let kinds: Vec<EventKind> = fired.iter().map(|(_, outcome)| outcome.event).collect();
            assert!(kinds.contains(&event.rulesc_event()), "{name}: {kinds:?}");
        }
    }

    #[test]
    fn a_blocked_call_is_an_error_that_feeds_the_error_policy() {
        let policy = Policy::new(
            vec![
                rule(
                    "no-bash",
                    EventKind::PreToolUse,
                    None,
                    decide(Verb::Block, "no shell"),
                ),
                rule(
                    "blocked-stops",
                    EventKind::OnError,
                    None,
                    decide(Verb::Forbid, "a blocked call ends the session"),
                ),
            ],
            Defaults::default(),
        )
        .unwrap();
        let mut state = SessionState::new(0);
        run(&mut state).failures = 2;
        let verdict = respond(&policy, &call(HostEvent::PreTool), &mut state, 0);
        assert_eq!(
            verdict.permission,
            Some((Permission::Deny, "no shell (rule no-bash)".to_owned()))
        );
        assert_eq!(
            verdict.halt.as_deref(),
            Some("a blocked call ends the session (rule blocked-stops)")
        );
        assert_eq!((run(&mut state).errors, run(&mut state).failures), (1, 3));
        assert_eq!(run(&mut state).stop_reason, Some(StopReason::GuardForbade));
    }

    #[test]
    fn a_successful_tool_call_and_a_turn_end_reset_failures_and_a_failure_fires_on_error() {
        let policy = Policy::new(Vec::new(), Defaults::default()).unwrap();
        let mut state = SessionState::new(0);
        respond(&policy, &call(HostEvent::PostToolFailure), &mut state, 0);
        respond(&policy, &call(HostEvent::PostToolFailure), &mut state, 0);
        assert_eq!((run(&mut state).errors, run(&mut state).failures), (2, 2));
        // The prelude's `ignore` answers the tool error: nothing to tell the host.
        let verdict = respond(&policy, &call(HostEvent::PostToolFailure), &mut state, 0);
        assert_eq!(verdict, Verdict::default());
        respond(&policy, &call(HostEvent::PostTool), &mut state, 0);
        assert_eq!((run(&mut state).errors, run(&mut state).failures), (3, 0));
        // The answer that ends a turn is a model step without a failed call, as the agent
        // loop's last step is (docs/state.md).
        respond(&policy, &call(HostEvent::PostToolFailure), &mut state, 0);
        assert_eq!((run(&mut state).errors, run(&mut state).failures), (4, 1));
        respond(&policy, &call(HostEvent::Stop), &mut state, 0);
        let after_turn = run(&mut state);
        assert_eq!(
            (after_turn.steps, after_turn.errors, after_turn.failures),
            (1, 4, 0)
        );
    }

    #[test]
    fn stop_requests_follow_stop_hook_active_up_to_the_host_cap() {
        let policy = Policy::new(
            vec![rule(
                "more",
                EventKind::Stop,
                None,
                decide(Verb::Request, "go on"),
            )],
            Defaults::default(),
        )
        .unwrap()
        .with_limits(Limits {
            max_stop_requests: 2,
            ..Limits::default()
        });
        let mut state = SessionState::new(0);
        let mut stop = call(HostEvent::Stop);
        let first = respond(&policy, &stop, &mut state, 0);
        assert_eq!(first.keep_working.as_deref(), Some("go on (rule more)"));
        stop.stop_hook_active = true;
        respond(&policy, &stop, &mut state, 0);
        assert_eq!(run(&mut state).stop_requests, 2);
        let capped = respond(&policy, &stop, &mut state, 0);
        assert_eq!(
            capped,
            Verdict::default(),
            "the cap took `request` its power"
        );
        assert_eq!(run(&mut state).stop_requests, 0);
        assert_eq!(run(&mut state).steps, 3);
        assert_eq!(run(&mut state).stop_reason, Some(StopReason::Completed));
        // A lost state still counts the chain the host reports.
        let mut fresh = SessionState::new(0);
        respond(&policy, &stop, &mut fresh, 0);
        assert_eq!(run(&mut fresh).stop_requests, 2);
    }

    #[test]
    fn effects_carry_over_to_later_events_and_elapsed_runs_from_the_first_call() {
        let policy = Policy::new(
            vec![
                rule(
                    "taint",
                    EventKind::PostToolUse,
                    None,
                    Action::Set {
                        key: tainted(),
                        value: Literal::Bool(true),
                    },
                ),
                rule(
                    "no-tool-when-tainted",
                    EventKind::PreToolUse,
                    Some(Condition::Flag(Field::Metadata(tainted()))),
                    decide(Verb::Ask, "tainted"),
                ),
            ],
            Defaults::default(),
        )
        .unwrap();
        let mut state = SessionState::new(1_000);
        let before = respond(&policy, &call(HostEvent::PreTool), &mut state, 1_000);
        assert_eq!(before.permission, None);
        respond(&policy, &call(HostEvent::PostTool), &mut state, 2_000);
        assert_eq!(
            run(&mut state).metadata.get("tainted"),
            Some(&Json::Bool(true))
        );
        let after = respond(&policy, &call(HostEvent::PreTool), &mut state, 3_000);
        assert_eq!(
            after.permission,
            Some((
                Permission::Ask,
                "tainted (rule no-tool-when-tainted)".to_owned()
            ))
        );
    }

    #[test]
    fn the_session_end_reports_why_the_session_stopped() {
        let ended = FieldPath {
            segments: vec![PathSegment::Key("completed".to_owned())],
        };
        let policy = Policy::new(
            vec![rule(
                "note-completion",
                EventKind::ExecutionEnd,
                Some(Condition::Compare {
                    left: Operand::Field(Field::Status),
                    op: CompareOp::Eq,
                    right: Operand::Literal(Literal::Str("completed".to_owned())),
                }),
                Action::Set {
                    key: ended,
                    value: Literal::Bool(true),
                },
            )],
            Defaults::default(),
        )
        .unwrap();
        let mut finished = SessionState::new(0);
        respond(&policy, &call(HostEvent::PromptSubmit), &mut finished, 0);
        respond(&policy, &call(HostEvent::Stop), &mut finished, 0);
        respond(&policy, &call(HostEvent::SessionEnd), &mut finished, 0);
        assert_eq!(
            run(&mut finished).metadata.get("completed"),
            Some(&Json::Bool(true))
        );

        // Ended in the middle of a turn: the user stopped it (`user_requested`, `stopped`).
        let mut interrupted = SessionState::new(0);
        respond(&policy, &call(HostEvent::PromptSubmit), &mut interrupted, 0);
        respond(&policy, &call(HostEvent::SessionEnd), &mut interrupted, 0);
        assert_eq!(run(&mut interrupted).metadata.get("completed"), None);
    }

    #[test]
    fn elapsed_never_goes_back_when_the_clock_is_set_back() {
        let policy = Policy::new(
            vec![rule(
                "budget",
                EventKind::PreToolUse,
                Some(Condition::Compare {
                    left: Operand::Field(Field::Elapsed),
                    op: CompareOp::Ge,
                    right: Operand::Literal(Literal::Duration(30 * 60_000)),
                }),
                decide(Verb::Block, "time is up"),
            )],
            Defaults::default(),
        )
        .unwrap();
        let day = 86_400_000;
        let start = 30 * day;
        let mut state = SessionState::new(start);
        let blocked = |verdict: &Verdict| verdict.permission.is_some();
        assert!(!blocked(&respond(
            &policy,
            &call(HostEvent::PreTool),
            &mut state,
            start
        )));
        let late = start + 31 * 60_000;
        assert!(blocked(&respond(
            &policy,
            &call(HostEvent::PreTool),
            &mut state,
            late
        )));
        let set_back = late - day;
        assert!(
            blocked(&respond(
                &policy,
                &call(HostEvent::PreTool),
                &mut state,
                set_back
            )),
            "a clock set back a day does not give the time back"
        );
    }
}
