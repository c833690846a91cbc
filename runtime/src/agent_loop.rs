//! The agent loop: runs a model and its tools step by step, firing every lifecycle event of
//! docs/language.md §4.1 and doing what the policy resolves.
//!
//! One execution goes
//!
//! ```text
//! execution_start
//! per step: before_step → (before_inference → model call → [on_error] …) → after_inference
//!           → per tool call: pre_tool_use → [approver] → tool → post_tool_use → [on_error]
//!           → after_step → resolution of the step's continuation evaluations
//! when about to stop: stop (or subagent_stop) → execution_end
//! ```
//!
//! How the loop reads each choice the contract leaves open (retries, blocked calls, ignored
//! model failures, when a step counts, `stop_requests`, panicking host code, checkpoints) is
//! written down once, in docs/semantics.md, "The agent loop"; the tests cite it.
//!
//! Invariants:
//! - A `forbid` on any event ends the run at the end of that event: no further tool call
//!   runs and `after_step` does not fire; only the stop hooks (for their effects) and
//!   `execution_end` follow. No stop rule can overturn it.
//! - Every other continuation decision of a step is gathered and resolved once, after
//!   `after_step`, by `resolve.rs` (the only place that knows the lattices).
//! - Every pending stop fires the stop event exactly once.
//! - The run always ends: every loop turn either starts a step, bounded by the host's
//!   `max_steps`, or ends the run; retries are bounded by `max_retries`.
//! - Each event is evaluated on the policy in force when it fires: the loop holds a
//!   [`PolicyHandle`], reads the policy in force before each evaluation (its snapshot is
//!   kept while the handle's generation has not moved) and evaluates under its own host
//!   limits, so a reload reaches a running loop between two events and no event sees two
//!   policies.
//! - The loop prints nothing: it opens a `tracing` span per execution and per step and
//!   emits an event (target `rulesc::loop`) per decision.

use serde_json::{Map, Value as Json};
use tracing::{debug, debug_span, info_span};

use crate::checkpoint::{CheckpointError, Checkpointer, Interrupted};
use crate::driver::{
    Approval, Approver, Clock, InferenceResponse, Message, Model, ModelError, SystemClock,
    ToolCall, ToolExecutor,
};
use crate::guard::{catch, GuardedHook};
use crate::handle::{PolicyHandle, Snapshot};
use crate::native_hook::NativeHook;
use crate::outcome::{Decision, Outcome, Resolution};
use crate::policy::{EvalOptions, Policy};
use crate::report::RunReport;
use crate::resolve::{resolve_continuation, RESOLVED_BY_MAX_RETRIES, RESOLVED_BY_MAX_STEPS};
use crate::state::{
    CurrentExecution, ErrorRecord, EventRecord, ExecutionState, PendingStop, RunEnd,
    ToolCallRecord, ToolResult,
};
use crate::vocabulary::{ErrorKind, EventKind, Limits, StopDecision, StopReason};

/// `tracing` target of the loop's events
const TARGET: &str = "rulesc::loop";

/// The most steps a run makes room for in its records when it starts
const RESERVED_STEPS: u64 = 64;

/// An agent loop under a policy: the host brings the model, the tools and the approver
///
/// ```
/// use rulesc_runtime::{
///     AgentLoop, Approval, Defaults, FinishReason, InferenceResponse, Message, ModelError,
///     Policy, Status, ToolCall, ToolError, Usage,
/// };
///
/// let policy = Policy::new(Vec::new(), Defaults::default())?;
/// // A model that answers at once, without calling a tool.
/// let mut model = |_: &[Message]| -> Result<InferenceResponse, ModelError> {
///     Ok(InferenceResponse {
///         text: "Done.".to_owned(),
///         tool_calls: Vec::new(),
///         finish_reason: FinishReason::Stop,
///         usage: Usage { input: 10, output: 2 },
///     })
/// };
/// let mut tools = |call: &ToolCall| -> Result<String, ToolError> {
///     Err(ToolError { message: format!("no tool `{}`", call.name) })
/// };
/// let mut approver = |_: &ToolCall, _: Option<&str>| Approval::Deny;
///
/// let report = AgentLoop::new(policy).run(&mut model, &mut tools, &mut approver);
/// assert_eq!(report.status, Status::Completed);
/// assert_eq!(report.resolved_by.as_deref(), Some("prelude:no-tool-calls"));
/// assert_eq!((report.steps, report.tokens), (1, 12));
/// # Ok::<(), rulesc_runtime::PolicyError>(())
/// ```
pub struct AgentLoop {
    policy: PolicyHandle,
    /// The host limits, applied to whichever policy is in force
    limits: Limits,
    hooks: Vec<Box<dyn NativeHook>>,
    clock: Box<dyn Clock + Send>,
    metadata: Map<String, Json>,
    messages: Vec<Message>,
    stop_event: EventKind,
}

impl AgentLoop {
    /// A loop under `policy`, with its host limits, the wall clock, no native hook, empty
    /// metadata and an empty opening transcript
    pub fn new(policy: Policy) -> AgentLoop {
        let limits = *policy.limits();
        AgentLoop::with_handle(PolicyHandle::new(policy), limits)
    }

    /// A loop under the policy in force in `handle`, with the host limits `limits`
    ///
    /// A [`PolicyHandle::replace`] on any clone of `handle` reaches the loop while it runs:
    /// every event that fires after the replacement is evaluated on the new policy, under
    /// the loop's `limits`, and every event on one policy, whole.
    pub fn with_handle(handle: PolicyHandle, limits: Limits) -> AgentLoop {
        AgentLoop {
            policy: handle,
            limits,
            hooks: Vec::new(),
            clock: Box::new(SystemClock::default()),
            metadata: Map::new(),
            messages: Vec::new(),
            stop_event: EventKind::Stop,
        }
    }

    /// The same loop under the host limits `limits` (`max_steps`, `max_retries`,
    /// `max_stop_requests`)
    #[must_use]
    pub fn with_limits(self, limits: Limits) -> AgentLoop {
        AgentLoop { limits, ..self }
    }

    /// The same loop with one more native hook voting alongside the rules; its
    /// [`NativeHook::priority`] ranks it like `@priority`
    #[must_use]
    pub fn with_hook(mut self, hook: impl NativeHook + 'static) -> AgentLoop {
        self.hooks.push(Box::new(hook));
        self
    }

    /// The same loop reading `elapsed` from `clock` (for instance a
    /// [`StepClock`](crate::StepClock))
    #[must_use]
    pub fn with_clock(self, clock: impl Clock + Send + 'static) -> AgentLoop {
        AgentLoop {
            clock: Box::new(clock),
            ..self
        }
    }

    /// The same loop starting each execution with the host's `metadata`
    #[must_use]
    pub fn with_metadata(self, metadata: Map<String, Json>) -> AgentLoop {
        AgentLoop { metadata, ..self }
    }

    /// The same loop starting each execution with `messages` (the task, for instance)
    #[must_use]
    pub fn with_messages(self, messages: Vec<Message>) -> AgentLoop {
        AgentLoop { messages, ..self }
    }

    /// The same loop run as a sub-agent: its stop hooks fire `subagent_stop`, not `stop`
    #[must_use]
    pub fn as_subagent(self) -> AgentLoop {
        AgentLoop {
            stop_event: EventKind::SubagentStop,
            ..self
        }
    }

    /// The policy in force now, with the loop's host limits
    pub fn policy(&self) -> Policy {
        in_force(&self.policy, self.limits)
    }

    /// The handle the loop reads its policy from; replacing the policy through it (or any
    /// clone) reaches a running loop at its next event
    pub fn handle(&self) -> &PolicyHandle {
        &self.policy
    }

    /// Runs one execution to its end and reports what happened (docs/cli.md `run` output)
    pub fn run(
        &mut self,
        model: &mut dyn Model,
        tools: &mut dyn ToolExecutor,
        approver: &mut dyn Approver,
    ) -> RunReport {
        let (state, end) = self.run_unsaved(None, model, tools, approver);
        RunReport::new(&state, &end)
    }

    /// Runs one execution to its end and returns its whole state: the step records, the
    /// transcript, every event; [`ExecutionState::end`] is set
    pub fn execute(
        &mut self,
        model: &mut dyn Model,
        tools: &mut dyn ToolExecutor,
        approver: &mut dyn Approver,
    ) -> ExecutionState {
        self.run_unsaved(None, model, tools, approver).0
    }

    /// [`AgentLoop::execute`], saving the state through `checkpointer` whenever a step is
    /// about to begin and once the run has ended (see [`Checkpointer`])
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the checkpointer failed (or panicked): the run stopped at that
    /// step boundary, and its state can be resumed with [`AgentLoop::resume`].
    pub fn execute_checkpointed(
        &mut self,
        model: &mut dyn Model,
        tools: &mut dyn ToolExecutor,
        approver: &mut dyn Approver,
        checkpointer: &mut dyn Checkpointer,
    ) -> Result<ExecutionState, Interrupted> {
        self.run_saved(None, model, tools, approver, checkpointer)
    }

    /// Goes on with the execution saved in `state` (a checkpoint) to its end, saving as
    /// [`AgentLoop::execute_checkpointed`] does
    ///
    /// A state that has ended is returned as it is; a state where no event fired yet starts
    /// the execution (with the state's metadata and messages, not the loop's). The loop's
    /// policy, hooks, limits and clock are used as they are now; `elapsed` goes on from the
    /// state's value. Given drivers that answer as they did, the run ends exactly as if it
    /// had never been interrupted (a scripted model resumes with
    /// [`Script::model_resumed`](crate::Script::model_resumed)).
    ///
    /// # Errors
    ///
    /// [`Interrupted`], as for [`AgentLoop::execute_checkpointed`].
    pub fn resume(
        &mut self,
        state: ExecutionState,
        model: &mut dyn Model,
        tools: &mut dyn ToolExecutor,
        approver: &mut dyn Approver,
        checkpointer: &mut dyn Checkpointer,
    ) -> Result<ExecutionState, Interrupted> {
        self.run_saved(Some(state), model, tools, approver, checkpointer)
    }

    /// Runs without saving: nothing can interrupt the run
    fn run_unsaved(
        &mut self,
        state: Option<ExecutionState>,
        model: &mut dyn Model,
        tools: &mut dyn ToolExecutor,
        approver: &mut dyn Approver,
    ) -> (ExecutionState, RunEnd) {
        let mut save = |_: &ExecutionState| Ok::<(), std::convert::Infallible>(());
        match self.start(state, model, tools, approver).execute(&mut save) {
            Ok(done) => done,
            Err((_, never)) => match never {},
        }
    }

    /// Runs, saving through `checkpointer`; a panicking checkpointer fails to save
    fn run_saved(
        &mut self,
        state: Option<ExecutionState>,
        model: &mut dyn Model,
        tools: &mut dyn ToolExecutor,
        approver: &mut dyn Approver,
        checkpointer: &mut dyn Checkpointer,
    ) -> Result<ExecutionState, Interrupted> {
        let mut save = |state: &ExecutionState| {
            catch("checkpointer", || checkpointer.save(state)).unwrap_or_else(|panic| {
                Err(CheckpointError::new(format!(
                    "the checkpointer panicked: {panic}"
                )))
            })
        };
        self.start(state, model, tools, approver)
            .execute(&mut save)
            .map(|(state, _)| state)
            .map_err(|(state, error)| Interrupted { state, error })
    }

    /// A run from `state` (a checkpoint), or from a fresh state
    fn start<'run>(
        &'run mut self,
        state: Option<ExecutionState>,
        model: &'run mut dyn Model,
        tools: &'run mut dyn ToolExecutor,
        approver: &'run mut dyn Approver,
    ) -> Run<'run> {
        let origin_ms = self.clock.now_ms();
        let mut state = state
            .unwrap_or_else(|| ExecutionState::new(self.metadata.clone(), self.messages.clone()));
        // Growing the records step by step costs more than the loop's other bookkeeping; a
        // run's steps are bounded by the host, and the room made for them is capped so that
        // a loop allowed many steps pays little for a short run.
        let steps_left = self.limits.max_steps.saturating_sub(state.step());
        state.reserve_steps(usize::try_from(steps_left.min(RESERVED_STEPS)).unwrap_or(0));
        Run {
            policy: &self.policy,
            snapshot: self.policy.take_snapshot(),
            limits: self.limits,
            hooks: self.hooks.iter().map(|hook| &**hook).collect(),
            clock: &mut *self.clock,
            origin_ms,
            elapsed_base_ms: state.elapsed_ms(),
            stop_event: self.stop_event,
            model,
            tools,
            approver,
            state,
        }
    }
}

impl std::fmt::Debug for AgentLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hook_ids: Vec<&str> = self.hooks.iter().map(|hook| hook.id()).collect();
        f.debug_struct("AgentLoop")
            .field("policy", &self.policy)
            .field("limits", &self.limits)
            .field("hooks", &hook_ids)
            .field("metadata", &self.metadata)
            .field("messages", &self.messages)
            .field("stop_event", &self.stop_event)
            .finish_non_exhaustive()
    }
}

/// One execution in progress: the loop's borrowed parts and the state it builds
struct Run<'run> {
    policy: &'run PolicyHandle,
    /// The policy of the last event, taken again from `policy` when it was replaced since
    snapshot: Snapshot,
    limits: Limits,
    hooks: Vec<&'run dyn NativeHook>,
    clock: &'run mut dyn Clock,
    /// The clock's reading when this run (or its resumption) started
    origin_ms: u64,
    /// `elapsed` at `origin_ms`: 0, or the checkpoint's value when resumed
    elapsed_base_ms: u64,
    stop_event: EventKind,
    model: &'run mut dyn Model,
    tools: &'run mut dyn ToolExecutor,
    approver: &'run mut dyn Approver,
    state: ExecutionState,
}

/// What the error policy decided for a failed or blocked call
enum AfterError {
    /// Run the failed call again
    Retry,
    /// Go on as if it had not failed
    GoOn,
}

impl Run<'_> {
    /// Runs to the end, handing the state to `save` whenever a step is about to begin and
    /// once the run has ended; stops with the state when `save` fails
    fn execute<E>(
        mut self,
        save: &mut dyn FnMut(&ExecutionState) -> Result<(), E>,
    ) -> Result<(ExecutionState, RunEnd), (Box<ExecutionState>, E)> {
        if let Some(end) = self.state.end().cloned() {
            return Ok((self.state, end));
        }
        let span = info_span!(target: TARGET, "execution");
        let _entered = span.enter();
        let mut outside_steps = CurrentExecution::default();
        // A resumed run already fired `execution_start`; its checkpoint was taken between
        // steps, with no stop pending.
        let mut pending = None;
        if self.state.events().is_empty() {
            let start = self.fire(EventKind::ExecutionStart, &mut outside_steps);
            pending = (start.decision == Decision::Forbid).then(|| forbidden(&start));
        }
        let end = loop {
            let stop = match pending.take() {
                Some(stop) => stop,
                None => {
                    if let Err(err) = save(&self.state) {
                        return Err((Box::new(self.state), err));
                    }
                    match self.step() {
                        Some(stop) => stop,
                        None => continue,
                    }
                }
            };
            if let Some(end) = self.judge_stop(stop) {
                break end;
            }
        };
        debug!(
            target: TARGET,
            stop_reason = end.stop_reason().name(),
            status = end.status.name(),
            resolved_by = end.resolution.resolved_by.as_deref(),
            message = end.resolution.message.as_deref(),
            "run ended"
        );
        self.state.set_end(end.clone());
        self.fire(EventKind::ExecutionEnd, &mut outside_steps);
        match save(&self.state) {
            Ok(()) => Ok((self.state, end)),
            Err(err) => Err((Box::new(self.state), err)),
        }
    }

    /// Runs one step; `Some` when the run is about to stop
    fn step(&mut self) -> Option<PendingStop> {
        let max_steps = self.limits.max_steps;
        if self.state.step() >= max_steps {
            debug!(target: TARGET, max_steps, "host limit: no step beyond max_steps");
            return Some(PendingStop::forbid(
                StopReason::StepsLimitReached,
                Some(RESOLVED_BY_MAX_STEPS),
            ));
        }
        let step = self.state.begin_step();
        let span = debug_span!(target: TARGET, "step", step);
        let _entered = span.enter();
        let mut current = CurrentExecution::default();
        if let Err(stop) = self.step_work(&mut current) {
            // The step still counts when its model call succeeded (docs/language.md §5.1).
            self.end_step(current.response.is_some());
            self.state.resolve_step(stop.resolution().clone());
            return Some(stop);
        }
        self.end_step(true);
        let after = self.fire(EventKind::AfterStep, &mut current);
        if after.decision == Decision::Forbid {
            let stop = forbidden(&after);
            self.state.resolve_step(stop.resolution().clone());
            return Some(stop);
        }
        let resolution = resolve_continuation(&current.evaluations);
        debug!(
            target: TARGET,
            decision = resolution.decision.name(),
            stop_reason = resolution.stop_reason.map(StopReason::name),
            resolved_by = resolution.resolved_by.as_deref(),
            message = resolution.message.as_deref(),
            "step resolved"
        );
        let stop = match resolution.decision {
            Decision::AllowStop => Some(StopDecision::AllowStop),
            Decision::Forbid => Some(StopDecision::Forbid),
            // `request`, `allow` and no decision all mean: take another step.
            _ => None,
        }
        .map(|decision| PendingStop::new(decision, resolution.clone()));
        self.state.resolve_step(resolution);
        stop
    }

    /// The work of a step up to `after_step`: `Err` when a `forbid` (or an unhandled
    /// error) ends the run
    fn step_work(&mut self, current: &mut CurrentExecution) -> Result<(), PendingStop> {
        let before = self.fire(EventKind::BeforeStep, current);
        stop_if_forbidden(&before)?;
        let Some(response) = self.infer(current)? else {
            // The failed model call was ignored: the step ends without tool calls.
            return Ok(());
        };
        self.state.record_response(&response);
        self.state.push_message(Message::Assistant {
            text: response.text.clone(),
            tool_calls: response.tool_calls.clone(),
        });
        let tool_calls = response.tool_calls.clone();
        current.response = Some(response);
        let after = self.fire(EventKind::AfterInference, current);
        stop_if_forbidden(&after)?;
        for (idx, call) in tool_calls.iter().enumerate() {
            self.tool_call(idx, call, current)?;
        }
        Ok(())
    }

    /// The model call with its retries: `None` when it failed and the error was ignored
    fn infer(
        &mut self,
        current: &mut CurrentExecution,
    ) -> Result<Option<InferenceResponse>, PendingStop> {
        loop {
            let before = self.fire(EventKind::BeforeInference, current);
            stop_if_forbidden(&before)?;
            self.state.record_model_call();
            let answer = catch("model driver", || self.model.infer(self.state.messages()))
                .unwrap_or_else(|panic| {
                    Err(ModelError {
                        kind: ErrorKind::Unknown,
                        message: format!("the model driver panicked: {panic}"),
                    })
                });
            match answer {
                Ok(response) => return Ok(Some(response)),
                Err(error) => {
                    let error = ErrorRecord {
                        kind: error.kind,
                        message: error.message,
                        tool: None,
                    };
                    self.state.record_error(error.clone());
                    match self.handle_error(error, current)? {
                        AfterError::Retry => {}
                        AfterError::GoOn => return Ok(None),
                    }
                }
            }
        }
    }

    /// One tool call, the response's `idx`th, with its retries, through `pre_tool_use`, the
    /// approver, the tool, `post_tool_use` and, when it failed or was blocked, `on_error`
    fn tool_call(
        &mut self,
        idx: usize,
        call: &ToolCall,
        current: &mut CurrentExecution,
    ) -> Result<(), PendingStop> {
        loop {
            current.tool_call = Some(idx);
            current.tool_result = None;
            let pre = self.fire(EventKind::PreToolUse, current);
            let (decision, result) = match pre.decision {
                Decision::Forbid => {
                    // A `forbid` blocks the call and stops the run at the end of this event.
                    self.state.record_tool_call(ToolCallRecord {
                        id: call.id.clone(),
                        tool: call.name.clone(),
                        args: call.args.clone(),
                        decision: Decision::Forbid,
                        executed: false,
                        error: Some(blocked_message(&pre, call)),
                    });
                    return Err(forbidden(&pre));
                }
                Decision::Block => (
                    Decision::Block,
                    ToolResult::Blocked(blocked_message(&pre, call)),
                ),
                Decision::Ask => {
                    let approval = catch("approver", || {
                        self.approver.approve(call, pre.message.as_deref())
                    });
                    debug!(
                        target: TARGET,
                        tool = call.name.as_str(),
                        approved = approval == Ok(Approval::Allow),
                        "approver answered"
                    );
                    let result = match approval {
                        Ok(Approval::Allow) => self.run_tool(call),
                        Ok(Approval::Deny) => ToolResult::Blocked(denied_message(&pre, call)),
                        // An approver that failed approved nothing.
                        Err(panic) => ToolResult::Blocked(format!(
                            "the approver panicked on the call to `{}`: {panic}",
                            call.name
                        )),
                    };
                    (Decision::Ask, result)
                }
                // No decision lets the call through, as `allow` does (docs/language.md §5.2).
                _ => (Decision::Allow, self.run_tool(call)),
            };
            let error = match &result {
                ToolResult::Output(_) => None,
                ToolResult::Failed(message) => Some((ErrorKind::Tool, message.clone())),
                ToolResult::Blocked(message) => Some((ErrorKind::ToolBlocked, message.clone())),
            };
            self.state.record_tool_call(ToolCallRecord {
                id: call.id.clone(),
                tool: call.name.clone(),
                args: call.args.clone(),
                decision,
                executed: !matches!(result, ToolResult::Blocked(_)),
                error: error.as_ref().map(|(_, message)| message.clone()),
            });
            let error = error.map(|(kind, message)| ErrorRecord {
                kind,
                message,
                tool: Some(call.name.clone()),
            });
            if let Some(error) = &error {
                self.state.record_error(error.clone());
            }
            current.tool_result = Some(result.clone());
            let post = self.fire(EventKind::PostToolUse, current);
            stop_if_forbidden(&post)?;
            if let Some(error) = error {
                if let AfterError::Retry = self.handle_error(error, current)? {
                    continue;
                }
            }
            // The model sees the settled result of the call: its output, the tool's
            // error, or the message of the rule that blocked it.
            let (content, is_error) = match result {
                ToolResult::Output(output) => (output, false),
                ToolResult::Failed(message) | ToolResult::Blocked(message) => (message, true),
            };
            self.state.push_message(Message::Tool {
                call_id: call.id.clone(),
                tool: call.name.clone(),
                content,
                is_error,
            });
            return Ok(());
        }
    }

    fn run_tool(&mut self, call: &ToolCall) -> ToolResult {
        match catch("tool executor", || self.tools.execute(call)) {
            Ok(Ok(output)) => ToolResult::Output(output),
            Ok(Err(error)) => ToolResult::Failed(error.message),
            Err(panic) => ToolResult::Failed(format!("the tool `{}` panicked: {panic}", call.name)),
        }
    }

    /// Fires `on_error` for a failure already recorded in the step
    fn handle_error(
        &mut self,
        error: ErrorRecord,
        current: &mut CurrentExecution,
    ) -> Result<AfterError, PendingStop> {
        current.error = Some(error);
        let resolution = self.fire(EventKind::OnError, current);
        current.error = None;
        self.error_decision(&resolution)
    }

    /// What the `on_error` resolution `resolution` makes of the failure
    fn error_decision(&mut self, resolution: &Resolution) -> Result<AfterError, PendingStop> {
        match resolution.decision {
            Decision::Retry => {
                self.state.record_retry();
                Ok(AfterError::Retry)
            }
            // An explicit `allow` permits the error, as `ignore` does.
            Decision::Ignore | Decision::Allow => Ok(AfterError::GoOn),
            Decision::Forbid => Err(forbidden(resolution)),
            // An unhandled error stops the run, fail-safe (docs/language.md §5.1).
            _ => Err(PendingStop::forbid(StopReason::ErrorForbade, None)),
        }
    }

    /// Ends the current step: the clock ticks, `steps` and `failures` are updated
    fn end_step(&mut self, counted: bool) {
        self.clock.step_finished();
        self.state.finish_step(counted);
    }

    /// Fires the stop hooks on a pending stop; `None` when they prevented it
    fn judge_stop(&mut self, pending: PendingStop) -> Option<RunEnd> {
        let mut current = CurrentExecution {
            pending_stop: Some(pending.clone()),
            ..CurrentExecution::default()
        };
        let verdict = self.fire(self.stop_event, &mut current);
        let finished_work = pending.decision() == StopDecision::AllowStop;
        // Only a stop of finished work can be overturned; a guard's stop is final whatever
        // the stop hooks say (the evaluator already takes their `request` its power).
        if finished_work && verdict.decision == Decision::Request {
            self.state.record_stop_request();
            debug!(
                target: TARGET,
                resolved_by = verdict.resolved_by.as_deref(),
                stop_requests = self.state.stop_requests(),
                "stop prevented"
            );
            return None;
        }
        // A stop hook's `forbid`, or the host's cap on stop requests, decided how a stop of
        // finished work ends; otherwise the pending stop stands as it was.
        let stop = if finished_work && verdict.resolved_by.is_some() {
            let decision = if verdict.decision == Decision::Forbid {
                StopDecision::Forbid
            } else {
                StopDecision::AllowStop
            };
            let stop_reason = verdict.stop_reason.or(Some(pending.stop_reason()));
            PendingStop::new(
                decision,
                Resolution {
                    stop_reason,
                    ..verdict
                },
            )
        } else {
            pending
        };
        Some(RunEnd::new(stop))
    }

    /// Fires `kind`: [`Run::evaluate`], then, if a native hook panicked, `on_error` for it
    /// decides whether the resolution stands, is evaluated again or becomes a `forbid`
    fn fire(&mut self, kind: EventKind, current: &mut CurrentExecution) -> Resolution {
        let mut attempts: u64 = 0;
        loop {
            let (resolution, panic) = self.evaluate(kind, current, true);
            let Some(panic) = panic else {
                return resolution;
            };
            match self.hook_failed(panic) {
                Ok(AfterError::GoOn) => return resolution,
                // Bounded here too: outside a step, `retries` does not count these.
                Ok(AfterError::Retry) if attempts < self.limits.max_retries => {
                    attempts = attempts.saturating_add(1);
                }
                Ok(AfterError::Retry) => {
                    return PendingStop::forbid(
                        StopReason::RetryLimitReached,
                        Some(RESOLVED_BY_MAX_RETRIES),
                    )
                    .into_resolution();
                }
                Err(stop) => return stop.into_resolution(),
            }
        }
    }

    /// Records a native hook's panic as an error of kind `unknown` and fires `on_error` for
    /// it, evaluated by the rules alone (a hook panicking again cannot recurse)
    fn hook_failed(&mut self, message: String) -> Result<AfterError, PendingStop> {
        let error = ErrorRecord {
            kind: ErrorKind::Unknown,
            message,
            tool: None,
        };
        self.state.record_error(error.clone());
        let mut failure = CurrentExecution {
            error: Some(error),
            ..CurrentExecution::default()
        };
        let (resolution, _) = self.evaluate(EventKind::OnError, &mut failure, false);
        self.error_decision(&resolution)
    }

    /// Evaluates `kind` now (with the native hooks when `with_hooks`), records it, applies
    /// its effects and gathers its continuation evaluations into the step; returns the
    /// event's resolution and what the first native hook that panicked said
    fn evaluate(
        &mut self,
        kind: EventKind,
        current: &mut CurrentExecution,
        with_hooks: bool,
    ) -> (Resolution, Option<String>) {
        let elapsed_ms = self
            .elapsed_base_ms
            .saturating_add(self.clock.now_ms().saturating_sub(self.origin_ms));
        self.state.set_elapsed_ms(elapsed_ms);
        let mut event = self.state.event(kind, current);
        // The user's words of the run: the transcript's last user message, which every
        // event sees as `prompt` and `from prompt` reads (docs/language.md §4.1).
        event.prompt = self.state.prompt().map(str::to_owned);
        self.state.trace_mut().carry_prompt(&mut event);
        let guarded: Vec<GuardedHook<'_>> = if with_hooks {
            self.hooks
                .iter()
                .map(|hook| GuardedHook::new(*hook))
                .collect()
        } else {
            Vec::new()
        };
        let hooks: Vec<&dyn NativeHook> =
            guarded.iter().map(|hook| hook as &dyn NativeHook).collect();
        // One snapshot per event: a reload lands between two events, never inside one.
        self.policy.refresh(&mut self.snapshot);
        let options = EvalOptions::default()
            .trace(self.state.trace_mut())
            .hooks(&hooks)
            .limits(&self.limits);
        let outcome = self.snapshot.policy().evaluate_with(&event, options);
        let panic = guarded.iter().find_map(GuardedHook::panic);
        for evaluation in &outcome.evaluations {
            debug!(
                target: TARGET,
                event = kind.name(),
                rule = evaluation.rule.as_str(),
                verb = evaluation.verb.name(),
                stop_reason = evaluation.stop_reason.map(StopReason::name),
                message = evaluation.message.as_deref(),
                "rule decided"
            );
        }
        debug!(
            target: TARGET,
            event = kind.name(),
            decision = outcome.resolution.decision.name(),
            resolved_by = outcome.resolution.resolved_by.as_deref(),
            "event resolved"
        );
        // The outcome is spent here: its metadata and evaluations move where they are kept.
        let Outcome {
            resolution,
            evaluations,
            metadata,
            ..
        } = outcome;
        self.state.set_metadata(metadata);
        self.state.record_event(EventRecord {
            step: event.step,
            event: kind,
            resolution: resolution.clone(),
        });
        if gathers_continuation(kind) {
            current.evaluations.extend(evaluations);
        }
        (resolution, panic)
    }
}

/// The policy in force in `handle` now, under the loop's `limits` (a cheap copy: a policy
/// shares its rules)
fn in_force(handle: &PolicyHandle, limits: Limits) -> Policy {
    handle.snapshot().as_ref().clone().with_limits(limits)
}

/// Whether the continuation verbs of `kind` join the step's resolution after `after_step`
///
/// `pre_tool_use` and `on_error` decide about one call (their `allow` permits a tool or an
/// error, it drives nothing), and the events outside steps are resolved on their own.
fn gathers_continuation(kind: EventKind) -> bool {
    matches!(
        kind,
        EventKind::BeforeStep
            | EventKind::BeforeInference
            | EventKind::AfterInference
            | EventKind::PostToolUse
            | EventKind::AfterStep
    )
}

fn stop_if_forbidden(resolution: &Resolution) -> Result<(), PendingStop> {
    if resolution.decision == Decision::Forbid {
        Err(forbidden(resolution))
    } else {
        Ok(())
    }
}

/// The final stop a `forbid` resolution makes
fn forbidden(resolution: &Resolution) -> PendingStop {
    PendingStop::new(StopDecision::Forbid, resolution.clone())
}

/// What the model is told about a blocked call: the rule's message, or a plain sentence
fn blocked_message(resolution: &Resolution, call: &ToolCall) -> String {
    resolution
        .message
        .clone()
        .unwrap_or_else(|| match &resolution.resolved_by {
            Some(rule) => format!("the call to `{}` was blocked by `{rule}`", call.name),
            None => format!("the call to `{}` was blocked", call.name),
        })
}

/// What the model is told about a call the approver denied
fn denied_message(resolution: &Resolution, call: &ToolCall) -> String {
    match &resolution.message {
        Some(message) => format!("the approver denied the call to `{}`: {message}", call.name),
        None => format!("the approver denied the call to `{}`", call.name),
    }
}
