//! The run report: what one execution of the agent loop did, as `rulesc run` prints it.
//!
//! Invariant: the report is a pure function of the execution's state. Its JSON is the
//! contract of docs/cli.md `run` (keys and order exactly as written there), and its text form
//! ([`RunReport::render`]) holds no time, path or hash order, so both can be snapshot.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::outcome::Decision;
use crate::state::{ExecutionState, RunEnd};
use crate::vocabulary::{EventKind, SortedJson, Status, StopReason};

/// What one execution did (docs/cli.md `run` output)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunReport {
    /// `completed`, `stopped` or `failed`, following `stop_reason`
    pub status: Status,
    /// Why the run stopped
    pub stop_reason: StopReason,
    /// The rule (or `"default"`, or `host:` limit) that decided the stop; `null` when none
    /// did (an unhandled error)
    pub resolved_by: Option<String>,
    /// The deciding rule's message
    pub message: Option<String>,
    /// Steps completed
    pub steps: u64,
    /// Tokens used (input + output)
    pub tokens: u64,
    /// Errors: failed and blocked calls
    pub errors: u64,
    /// Every tool call attempt, in order
    pub tool_calls: Vec<ToolCallReport>,
    /// Every event that fired, in order, with its decision
    pub events: Vec<EventReport>,
    /// The execution's metadata at the end
    #[serde(serialize_with = "crate::vocabulary::sorted_map")]
    pub metadata: Map<String, Json>,
}

/// One tool call attempt of a run, as its report lists it
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ToolCallReport {
    /// The step it was made in
    pub step: u64,
    /// The tool's name
    pub tool: String,
    /// The effective `pre_tool_use` decision: `allow` (also when no rule decided),
    /// `block`, `ask` or `forbid`
    pub decision: Decision,
    /// Whether the tool ran (an `ask` runs when the approver allowed it)
    pub executed: bool,
    /// The tool's failure, or why the call was blocked
    pub error: Option<String>,
}

/// One event of a run, as its report lists it
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EventReport {
    /// The step it fired in (0 before the first step)
    pub step: u64,
    /// Which event
    pub event: EventKind,
    /// Its resolved decision
    pub decision: Decision,
    /// Who decided
    pub resolved_by: Option<String>,
}

impl RunReport {
    /// The report of a finished execution; `None` while it has not ended
    pub fn from_state(state: &ExecutionState) -> Option<RunReport> {
        state.end().map(|end| RunReport::new(state, end))
    }

    pub(crate) fn new(state: &ExecutionState, end: &RunEnd) -> RunReport {
        RunReport {
            status: end.status,
            stop_reason: end.stop_reason(),
            resolved_by: end.resolution.resolved_by.clone(),
            message: end.resolution.message.clone(),
            steps: state.steps(),
            tokens: state.usage().total(),
            errors: state.errors(),
            tool_calls: state
                .step_records()
                .iter()
                .flat_map(|record| {
                    record.tool_calls.iter().map(|call| ToolCallReport {
                        step: record.step,
                        tool: call.tool.clone(),
                        decision: call.decision,
                        executed: call.executed,
                        error: call.error.clone(),
                    })
                })
                .collect(),
            events: state
                .events()
                .iter()
                .map(|record| EventReport {
                    step: record.step,
                    event: record.event,
                    decision: record.resolution.decision,
                    resolved_by: record.resolution.resolved_by.clone(),
                })
                .collect(),
            metadata: state.metadata().clone(),
        }
    }

    /// The report as stable text, as `rulesc run --format human` prints it
    ///
    /// ```text
    /// status: completed
    /// stop_reason: completed
    /// resolved_by: prelude:no-tool-calls
    /// steps: 2, tokens: 280, errors: 0
    /// tool_calls:
    ///   step 1: bash => allow, executed
    /// events:
    ///   step 0: execution_start => none
    ///   step 1: before_step => none
    ///   step 2: after_step => allow_stop by prelude:no-tool-calls
    /// metadata: {"tainted":true}
    /// ```
    ///
    /// `resolved_by`, `message`, `tool_calls` and `metadata` appear only when they have
    /// something to say; strings are quoted as JSON. It ends with a newline.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "status: {}", self.status.name());
        let _ = writeln!(out, "stop_reason: {}", self.stop_reason);
        if let Some(resolved_by) = &self.resolved_by {
            let _ = writeln!(out, "resolved_by: {resolved_by}");
        }
        if let Some(message) = &self.message {
            let _ = writeln!(out, "message: {}", quoted(message));
        }
        let _ = writeln!(
            out,
            "steps: {}, tokens: {}, errors: {}",
            self.steps, self.tokens, self.errors
        );
        if !self.tool_calls.is_empty() {
            out.push_str("tool_calls:\n");
            for call in &self.tool_calls {
                let ran = if call.executed {
                    "executed"
                } else {
                    "not executed"
                };
                let _ = write!(
                    out,
                    "  step {}: {} => {}, {ran}",
                    call.step,
                    call.tool,
                    call.decision.name()
                );
                if let Some(error) = &call.error {
                    let _ = write!(out, ", error: {}", quoted(error));
                }
                out.push('\n');
            }
        }
        out.push_str("events:\n");
        for event in &self.events {
            let _ = write!(
                out,
                "  step {}: {} => {}",
                event.step,
                event.event,
                event.decision.name()
            );
            if let Some(resolved_by) = &event.resolved_by {
                let _ = write!(out, " by {resolved_by}");
            }
            out.push('\n');
        }
        if !self.metadata.is_empty() {
            let _ = writeln!(
                out,
                "metadata: {}",
                SortedJson(&Json::Object(self.metadata.clone()))
            );
        }
        out
    }
}

/// `text` as a JSON string literal
fn quoted(text: &str) -> String {
    Json::String(text.to_owned()).to_string()
}
