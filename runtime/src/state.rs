//! The state of one execution of the agent loop, and the transient data of the event in
//! flight.
//!
//! Invariant: [`ExecutionState`] is everything that survives an event and it serializes
//! completely; every count that can be derived from its records (`steps`, `errors`,
//! `tokens`, `retries`) is derived, never stored twice, so saving and loading a state can
//! neither lose nor duplicate an error or a token. The run's counters move only by the
//! transitions of [`RunCounters`] (`run.rs`): the records hold what `steps` and `errors`
//! follow from, and the state keeps what no record tells (`failures`, `stop_requests`). The data of the event in flight (the
//! current tool call, inference response, error, and the step's gathered evaluations) is
//! [`CurrentExecution`], which is never serialized and never outlives its step; no state is
//! embedded in an outcome or a record.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::driver::{InferenceResponse, Message, Usage};
use crate::event::{ErrorInfo, Event, ToolOutput};
use crate::outcome::{Decision, Evaluation, Resolution};
use crate::run::RunCounters;
use crate::trace::TraceState;
use crate::vocabulary::{ErrorKind, EventKind, FinishReason, Status, StopDecision, StopReason};

/// Everything an execution remembers: serializable, so a host can save and inspect it
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ExecutionState {
    /// Values set by `set` effects or by the host
    #[serde(serialize_with = "crate::vocabulary::sorted_map")]
    metadata: Map<String, Json>,
    /// The transcript the model receives
    messages: Vec<Message>,
    /// One record per started step, in order
    step_records: Vec<StepRecord>,
    /// Every event that fired, in order
    events: Vec<EventRecord>,
    /// Consecutive failed calls; reset when a step ends without error
    failures: u64,
    /// How many times a stop was prevented
    stop_requests: u64,
    /// The clock's reading at the last event, relative to `execution_start`
    elapsed_ms: u64,
    /// How the run ended, once it has
    end: Option<RunEnd>,
    /// What the policy's trace terms remember of the run (docs/trace.md)
    #[serde(default)]
    trace: TraceState,
    /// The counts of the step records before the current one, so that an event reads its
    /// counts without a walk over the whole run
    #[serde(skip)]
    closed: ClosedSteps,
}

/// The counts of a run's closed step records: every record but the last, which no later
/// event changes (only the current step's record is ever updated)
///
/// A memo of what the records hold, not state of its own: it is never serialized, says how
/// many records it covers, and is rebuilt from the records whenever that is not all but the
/// last (a state just loaded), so it can never disagree with them. Two states with equal
/// records are equal whatever their memos.
#[derive(Debug, Clone, Copy, Default)]
struct ClosedSteps {
    /// How many records, from the first, these counts cover
    records: usize,
    /// Of them, the steps that count in `steps`
    steps: u64,
    /// Their tokens
    usage: Usage,
    /// Their errors
    errors: u64,
}

impl PartialEq for ClosedSteps {
    fn eq(&self, _other: &ClosedSteps) -> bool {
        true
    }
}

impl ClosedSteps {
    /// The counts of every record of `records`
    fn of(records: &[StepRecord]) -> ClosedSteps {
        records
            .iter()
            .fold(ClosedSteps::default(), ClosedSteps::plus)
    }

    /// These counts with `record` added
    fn plus(self, record: &StepRecord) -> ClosedSteps {
        ClosedSteps {
            records: self.records.saturating_add(1),
            steps: self.steps.saturating_add(u64::from(record.counted)),
            usage: self.usage.plus(record.usage),
            errors: self.errors.saturating_add(count(record.errors.iter())),
        }
    }
}

/// What happened in one step
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// The step's number, from 1
    pub step: u64,
    /// The model's text, once a model call succeeded
    pub response: Option<String>,
    /// Why the model stopped generating, once a model call succeeded
    pub finish_reason: Option<FinishReason>,
    /// Tokens used by this step's model calls
    pub usage: Usage,
    /// Model calls made in this step, failed ones and retries included
    #[serde(default)]
    pub model_calls: u64,
    /// Every tool call attempt, in order (a retried call appears once per attempt)
    pub tool_calls: Vec<ToolCallRecord>,
    /// Every failure of this step, in order: failed and blocked calls
    pub errors: Vec<ErrorRecord>,
    /// Retries granted in this step (model and tool calls together)
    pub retries: u64,
    /// Whether the step counts in `steps`: it ended, or a `forbid` cut it after its
    /// model call succeeded
    pub counted: bool,
    /// How the step was resolved; `None` while it runs
    pub outcome: Option<Resolution>,
}

/// One tool call attempt
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCallRecord {
    /// The call's id
    pub id: String,
    /// The tool's name
    pub tool: String,
    /// The tool's input
    pub args: Json,
    /// The effective `pre_tool_use` decision: `allow` (also when no rule decided),
    /// `block`, `ask` or `forbid`
    pub decision: Decision,
    /// Whether the tool ran
    pub executed: bool,
    /// The tool's failure, or why the call was blocked
    pub error: Option<String>,
}

/// One failure: a failed model or tool call, or a blocked tool call
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorRecord {
    /// Its kind, as `error.kind` shows it
    pub kind: ErrorKind,
    /// Its text, as `error.message` shows it
    pub message: String,
    /// The tool, when a tool call failed or was blocked
    pub tool: Option<String>,
}

/// One event that fired, with its resolved decision
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRecord {
    /// The step it fired in (0 before the first step)
    pub step: u64,
    /// Which event
    pub event: EventKind,
    /// Its resolved decision and who made it
    #[serde(flatten)]
    pub resolution: Resolution,
}

/// How a run ended: the stop that stood, and the status its reason gives
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunEnd {
    /// The stop: `forbid` or `allow_stop`, its reason, and who decided it (a rule id,
    /// `"default"`, a `host:` limit, or nobody)
    #[serde(flatten)]
    pub resolution: Resolution,
    /// The status that follows from the stop reason
    pub status: Status,
}

impl RunEnd {
    /// The run ends with the stop `stop`
    pub(crate) fn new(stop: PendingStop) -> RunEnd {
        let status = stop.stop_reason().status();
        RunEnd {
            resolution: stop.into_resolution(),
            status,
        }
    }

    /// Why the run stopped
    pub fn stop_reason(&self) -> StopReason {
        self.resolution
            .stop_reason
            .unwrap_or(StopReason::GuardForbade)
    }
}

impl ExecutionState {
    /// A fresh execution with the host's metadata and opening messages
    pub fn new(metadata: Map<String, Json>, messages: Vec<Message>) -> ExecutionState {
        ExecutionState {
            metadata,
            messages,
            ..ExecutionState::default()
        }
    }

    /// The number of the current step, from 1 (0 before the first step)
    pub fn step(&self) -> u64 {
        self.step_records.last().map_or(0, |record| record.step)
    }

    /// Steps completed so far (docs/language.md §4.1 `steps`)
    pub fn steps(&self) -> u64 {
        self.totals().steps
    }

    /// Tokens used by all model calls
    pub fn usage(&self) -> Usage {
        self.totals().usage
    }

    /// The counts of every step record: the memo of the closed ones and the current one,
    /// or, when the memo does not cover all but the current one, a walk over them all
    fn totals(&self) -> ClosedSteps {
        match self.step_records.split_last() {
            Some((current, closed)) if self.closed.records == closed.len() => {
                self.closed.plus(current)
            }
            _ => ClosedSteps::of(&self.step_records),
        }
    }

    /// Model calls made so far, failed ones and retries included (where a scripted model
    /// resumes)
    pub fn model_calls(&self) -> u64 {
        self.step_records.iter().fold(0, |total: u64, record| {
            total.saturating_add(record.model_calls)
        })
    }

    /// Total errors in this execution: failed and blocked calls
    pub fn errors(&self) -> u64 {
        self.totals().errors
    }

    /// The run's counters as its next event sees them: `steps` and `errors`, and whether
    /// the step under way (one not yet resolved) failed, as the step records hold them;
    /// `failures` and `stop_requests` as kept
    pub fn counters(&self) -> RunCounters {
        let totals = self.totals();
        let step_failed = self
            .step_records
            .last()
            .is_some_and(|record| record.outcome.is_none() && !record.errors.is_empty());
        RunCounters::resumed(
            totals.steps,
            totals.errors,
            self.failures,
            self.stop_requests,
        )
        .in_step_that_failed(step_failed)
    }

    /// Moves the run's counters by `transition`, whose `steps` and `errors` the caller's
    /// record already holds: what the records cannot tell is kept from it
    fn count(&mut self, transition: impl FnOnce(&mut RunCounters)) {
        let mut counters = self.counters();
        transition(&mut counters);
        self.failures = counters.failures();
        self.stop_requests = counters.stop_requests();
    }

    /// Consecutive failed calls; reset when a step ends without error
    pub fn failures(&self) -> u64 {
        self.failures
    }

    /// Retries of the current step so far
    pub fn retries(&self) -> u64 {
        self.step_records.last().map_or(0, |record| record.retries)
    }

    /// How many times a stop was already prevented
    pub fn stop_requests(&self) -> u64 {
        self.stop_requests
    }

    /// Milliseconds since `execution_start`, at the last event
    pub fn elapsed_ms(&self) -> u64 {
        self.elapsed_ms
    }

    /// The execution's metadata
    pub fn metadata(&self) -> &Map<String, Json> {
        &self.metadata
    }

    /// The transcript the model receives
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The record of every started step
    pub fn step_records(&self) -> &[StepRecord] {
        &self.step_records
    }

    /// Every event that fired, in order
    pub fn events(&self) -> &[EventRecord] {
        &self.events
    }

    /// How the run ended; `None` while it runs
    pub fn end(&self) -> Option<&RunEnd> {
        self.end.as_ref()
    }

    /// The text of the transcript's last user message: the prompt of the turn under way
    pub fn prompt(&self) -> Option<&str> {
        self.messages
            .iter()
            .rev()
            .find_map(|message| match message {
                Message::User { text } => Some(text.as_str()),
                _ => None,
            })
    }

    /// The text of the last successful model call
    pub fn last_response(&self) -> Option<&str> {
        self.step_records
            .iter()
            .rev()
            .find_map(|record| record.response.as_deref())
    }

    /// The event of `kind` as conditions see it now, with the data of the event in flight
    pub(crate) fn event(&self, kind: EventKind, current: &CurrentExecution) -> Event {
        let totals = self.totals();
        let mut event = Event::new(kind);
        event.step = self.step();
        self.counters().describe(&mut event);
        event.tokens = totals.usage.total();
        event.input_tokens = totals.usage.input;
        event.output_tokens = totals.usage.output;
        event.elapsed_ms = self.elapsed_ms;
        event.retries = self.retries();
        event.metadata = self.metadata.clone();
        current.describe(kind, self, &mut event);
        event
    }

    pub(crate) fn set_elapsed_ms(&mut self, elapsed_ms: u64) {
        self.elapsed_ms = elapsed_ms;
    }

    /// The trace of the run, which each evaluated event joins
    pub(crate) fn trace_mut(&mut self) -> &mut TraceState {
        &mut self.trace
    }

    pub(crate) fn set_metadata(&mut self, metadata: Map<String, Json>) {
        self.metadata = metadata;
    }

    pub(crate) fn push_message(&mut self, message: Message) {
        self.messages.push(message);
    }

    pub(crate) fn record_event(&mut self, record: EventRecord) {
        self.events.push(record);
    }

    /// Makes room for the records of `steps` more steps: their step records, the six events
    /// of a step with one tool call, and its two messages (the run's first and last events
    /// fit in the slack of the last step, which fires fewer)
    pub(crate) fn reserve_steps(&mut self, steps: usize) {
        self.step_records.reserve(steps);
        self.events.reserve(steps.saturating_mul(6));
        self.messages.reserve(steps.saturating_mul(2));
    }

    /// Starts the next step and returns its number
    pub(crate) fn begin_step(&mut self) -> u64 {
        let step = self.step().saturating_add(1);
        // The current record closes: from now on only the new one changes.
        self.closed = self.totals();
        self.step_records.push(StepRecord {
            step,
            response: None,
            finish_reason: None,
            usage: Usage::default(),
            model_calls: 0,
            tool_calls: Vec::new(),
            errors: Vec::new(),
            retries: 0,
            counted: false,
            outcome: None,
        });
        step
    }

    /// Counts a model call of the current step, before it is made
    pub(crate) fn record_model_call(&mut self) {
        if let Some(record) = self.step_records.last_mut() {
            record.model_calls = record.model_calls.saturating_add(1);
        }
    }

    /// Records a successful model call of the current step
    pub(crate) fn record_response(&mut self, response: &InferenceResponse) {
        if let Some(record) = self.step_records.last_mut() {
            record.response = Some(response.text.clone());
            record.finish_reason = Some(response.finish_reason);
            record.usage = record.usage.plus(response.usage);
        }
    }

    /// Records a failure in the current step: `errors` and `failures` grow
    pub(crate) fn record_error(&mut self, error: ErrorRecord) {
        if let Some(record) = self.step_records.last_mut() {
            record.errors.push(error);
            self.count(RunCounters::call_failed);
        }
    }

    pub(crate) fn record_tool_call(&mut self, call: ToolCallRecord) {
        if let Some(record) = self.step_records.last_mut() {
            record.tool_calls.push(call);
        }
    }

    pub(crate) fn record_retry(&mut self) {
        if let Some(record) = self.step_records.last_mut() {
            record.retries = record.retries.saturating_add(1);
        }
    }

    /// Ends the current step: it counts in `steps` when `counted`, and a step that ends
    /// without error resets `failures`
    pub(crate) fn finish_step(&mut self, counted: bool) {
        if let Some(record) = self.step_records.last_mut() {
            record.counted = counted;
            self.count(|counters| counters.step_ended(counted));
        }
    }

    pub(crate) fn resolve_step(&mut self, outcome: Resolution) {
        if let Some(record) = self.step_records.last_mut() {
            record.outcome = Some(outcome);
        }
    }

    /// A stop of finished work was prevented
    pub(crate) fn record_stop_request(&mut self) {
        self.count(|counters| counters.stops().prevented());
    }

    pub(crate) fn set_end(&mut self, end: RunEnd) {
        self.end = Some(end);
    }
}

fn count<T>(items: impl Iterator<Item = T>) -> u64 {
    u64::try_from(items.count()).unwrap_or(u64::MAX)
}

/// The outcome of a tool call as `post_tool_use` sees it
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ToolResult {
    /// The tool ran and returned this output
    Output(String),
    /// The tool ran and failed with this message
    Failed(String),
    /// The call was blocked (by a rule, or the approver) with this message
    Blocked(String),
}

/// A stop the loop is about to make, before stop hooks judge it (docs/language.md §5.6): a
/// resolution whose decision is `allow_stop` (work finished: stop hooks may overturn it) or
/// `forbid` (final), always with a stop reason
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PendingStop(Resolution);

impl PendingStop {
    /// A stop for `decision` as `resolution` describes it: its reason, else the decision's
    /// default reason; its rule and message
    pub(crate) fn new(decision: StopDecision, resolution: Resolution) -> PendingStop {
        let stop_reason = resolution
            .stop_reason
            .unwrap_or_else(|| decision.default_reason());
        PendingStop(Resolution {
            decision: decision.into(),
            stop_reason: Some(stop_reason),
            ..resolution
        })
    }

    /// A final stop for `stop_reason` that no rule decided: a host limit (`resolved_by`),
    /// or an unhandled error (nobody)
    pub(crate) fn forbid(stop_reason: StopReason, resolved_by: Option<&str>) -> PendingStop {
        PendingStop(Resolution::stop(
            StopDecision::Forbid,
            stop_reason,
            resolved_by,
        ))
    }

    /// `allow_stop` or `forbid`
    pub(crate) fn decision(&self) -> StopDecision {
        if self.0.decision == Decision::Forbid {
            StopDecision::Forbid
        } else {
            StopDecision::AllowStop
        }
    }

    /// Why the loop is about to stop
    pub(crate) fn stop_reason(&self) -> StopReason {
        self.0
            .stop_reason
            .unwrap_or_else(|| self.decision().default_reason())
    }

    /// The stop as a resolution
    pub(crate) fn resolution(&self) -> &Resolution {
        &self.0
    }

    /// The stop as a resolution, owned
    pub(crate) fn into_resolution(self) -> Resolution {
        self.0
    }
}

/// The transient "current execution": the data of the event in flight and the continuation
/// evaluations the step gathered so far (seed 002 §1.1)
///
/// Never serialized: it lives for one step (or one stop decision) and is dropped with it.
#[derive(Debug, Clone, Default)]
pub(crate) struct CurrentExecution {
    /// The successful model response of this step
    pub(crate) response: Option<InferenceResponse>,
    /// The tool call in flight (`pre_tool_use`, `post_tool_use`, `on_error` of a tool), by
    /// its place among the tool calls of `response`: the events read it there, uncopied
    pub(crate) tool_call: Option<usize>,
    /// How the tool call in flight went (`post_tool_use`)
    pub(crate) tool_result: Option<ToolResult>,
    /// The failure in flight (`on_error`)
    pub(crate) error: Option<ErrorRecord>,
    /// The stop being judged (`stop`, `subagent_stop`)
    pub(crate) pending_stop: Option<PendingStop>,
    /// Continuation evaluations of every event of the step, resolved once after
    /// `after_step`
    pub(crate) evaluations: Vec<Evaluation>,
}

impl CurrentExecution {
    /// Fills the fields of `kind` (docs/language.md §4.1) from the data in flight
    fn describe(&self, kind: EventKind, state: &ExecutionState, event: &mut Event) {
        match kind {
            EventKind::ExecutionStart | EventKind::BeforeStep => {}
            EventKind::BeforeInference => {
                event.messages = Some(count(state.messages.iter()));
            }
            EventKind::AfterInference | EventKind::AfterStep => self.describe_response(event),
            EventKind::PreToolUse => self.describe_tool_call(event),
            EventKind::PostToolUse => {
                self.describe_tool_call(event);
                let result = self.tool_result.as_ref();
                event.result = match result {
                    Some(ToolResult::Output(output)) => Some(ToolOutput::from_text(output.clone())),
                    Some(ToolResult::Failed(_) | ToolResult::Blocked(_)) | None => None,
                };
                event.tool_error = Some(matches!(result, Some(ToolResult::Failed(_))));
                event.blocked = Some(matches!(result, Some(ToolResult::Blocked(_))));
            }
            EventKind::OnError => {
                if let Some(error) = &self.error {
                    event.error = Some(ErrorInfo {
                        kind: error.kind.name().to_owned(),
                        message: error.message.clone(),
                    });
                    event.tool.clone_from(&error.tool);
                }
            }
            EventKind::Stop | EventKind::SubagentStop => {
                if let Some(pending) = &self.pending_stop {
                    event.stop_reason = Some(pending.stop_reason());
                    event.stop_decision = Some(pending.decision());
                }
                event.stop_requests = Some(state.stop_requests);
                event.response = Some(state.last_response().unwrap_or_default().to_owned());
            }
            EventKind::ExecutionEnd => {
                if let Some(end) = &state.end {
                    event.stop_reason = Some(end.stop_reason());
                    event.status = Some(end.status);
                }
            }
        }
    }

    /// `response`, `finish_reason`, `tool_calls`; a step whose model call failed and was
    /// ignored shows an empty response, `finish_reason` `error` and no tool calls
    fn describe_response(&self, event: &mut Event) {
        match &self.response {
            Some(response) => {
                event.response = Some(response.text.clone());
                event.finish_reason = Some(response.finish_reason.name().to_owned());
                event.tool_calls = Some(count(response.tool_calls.iter()));
            }
            None => {
                event.response = Some(String::new());
                event.finish_reason = Some(FinishReason::Error.name().to_owned());
                event.tool_calls = Some(0);
            }
        }
    }

    fn describe_tool_call(&self, event: &mut Event) {
        let call = self
            .tool_call
            .zip(self.response.as_ref())
            .and_then(|(idx, response)| response.tool_calls.get(idx));
        if let Some(call) = call {
            event.tool = Some(call.name.clone());
            event.arg = Some(call.args.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts read from the step records themselves, one walk each
    fn counted_from_records(state: &ExecutionState) -> (u64, Usage, u64) {
        let records = state.step_records();
        let steps = records.iter().filter(|record| record.counted).count();
        let usage = records
            .iter()
            .fold(Usage::default(), |total, record| total.plus(record.usage));
        let errors = records
            .iter()
            .map(|record| record.errors.len())
            .sum::<usize>();
        (steps as u64, usage, errors as u64)
    }

    fn counts(state: &ExecutionState) -> (u64, Usage, u64) {
        (state.steps(), state.usage(), state.errors())
    }

    /// Step `step` of a run: a model call using `step` tokens each way, an error every
    /// third step, and every step but the fifth counted
    fn run_step(state: &mut ExecutionState, step: u64) {
        run_step_counting(state, step, &mut RunCounters::default());
    }

    /// [`run_step`], with the same step told to `counters` by their transitions
    fn run_step_counting(state: &mut ExecutionState, step: u64, counters: &mut RunCounters) {
        state.begin_step();
        state.record_response(&InferenceResponse {
            text: String::new(),
            tool_calls: Vec::new(),
            finish_reason: FinishReason::Stop,
            usage: Usage {
                input: step,
                output: step,
            },
        });
        if step % 3 == 0 {
            state.record_error(ErrorRecord {
                kind: ErrorKind::Tool,
                message: format!("failure {step}"),
                tool: None,
            });
            counters.call_failed();
        }
        state.finish_step(step != 5);
        state.resolve_step(Resolution::none());
        counters.step_ended(step != 5);
    }

    /// The counters derived from the records, and those kept beside them, are the ones the
    /// run's transitions give, before and after a save and a load
    #[test]
    fn the_state_counts_as_the_run_model_does() {
        let mut state = ExecutionState::default();
        let mut counters = RunCounters::default();
        for step in 1..=7 {
            run_step_counting(&mut state, step, &mut counters);
            assert_eq!(state.counters(), counters, "step {step}");
        }
        state.record_stop_request();
        counters.stops().prevented();
        let json = serde_json::to_string(&state).expect("a state serializes");
        let loaded: ExecutionState = serde_json::from_str(&json).expect("and loads");
        assert_eq!(loaded.counters(), counters);
        // Steps 3 and 6 failed, 5 did not count; the seventh went through.
        assert_eq!(
            (
                counters.steps(),
                counters.errors(),
                counters.failures(),
                counters.stop_requests()
            ),
            (6, 2, 0, 1)
        );
    }

    /// The memo of closed steps gives the counts the records hold, in a run, in a state
    /// loaded from JSON mid-run (whose memo starts empty), and after that state goes on
    #[test]
    fn the_counts_of_closed_steps_are_the_records_counts() {
        let mut state = ExecutionState::default();
        assert_eq!(counts(&state), (0, Usage::default(), 0));
        for step in 1..=7 {
            run_step(&mut state, step);
            assert_eq!(counts(&state), counted_from_records(&state), "step {step}");
        }
        let json = serde_json::to_string(&state).expect("a state serializes");
        let mut loaded: ExecutionState = serde_json::from_str(&json).expect("and loads");
        assert_eq!(loaded, state);
        assert_eq!(counts(&loaded), counted_from_records(&state));
        for step in 8..=10 {
            run_step(&mut loaded, step);
            run_step(&mut state, step);
            assert_eq!(
                counts(&loaded),
                counted_from_records(&loaded),
                "step {step}"
            );
            assert_eq!(counts(&state), counts(&loaded), "step {step}");
        }
        assert_eq!(
            counts(&state),
            (
                9,
                Usage {
                    input: 55,
                    output: 55
                },
                3
            )
        );
    }
}
