//! A model and tools that do nothing, so that timing a run times the agent loop alone.

use rulesc::{
    Approval, Approver, FinishReason, InferenceResponse, Message, Model, ModelError, ToolCall,
    ToolError, ToolExecutor, Usage,
};

/// A model that calls the tool `noop` once per step for `steps` steps, then answers with no
/// tool call (so the prelude's `no-tool-calls` ends the run); each call names its step, as
/// the calls of a run that makes progress differ (the shipped loop guard blocks a call
/// repeated as it was)
#[derive(Debug, Clone)]
pub struct NoopModel {
    steps: u64,
    calls: u64,
}

impl NoopModel {
    /// A model for a run of `steps` steps
    pub fn new(steps: u64) -> NoopModel {
        NoopModel { steps, calls: 0 }
    }
}

impl Model for NoopModel {
    fn infer(&mut self, _messages: &[Message]) -> Result<InferenceResponse, ModelError> {
        self.calls += 1;
        let (tool_calls, finish_reason) = if self.calls < self.steps {
            let call = ToolCall {
                id: String::new(),
                name: "noop".to_owned(),
                args: serde_json::json!({ "step": self.calls }),
            };
            (vec![call], FinishReason::ToolCalls)
        } else {
            (Vec::new(), FinishReason::Stop)
        };
        Ok(InferenceResponse {
            text: String::new(),
            tool_calls,
            finish_reason,
            usage: Usage {
                input: 1,
                output: 1,
            },
        })
    }
}

/// Tools that answer every call with an empty output
#[derive(Debug, Clone, Copy, Default)]
pub struct NoopTools;

impl ToolExecutor for NoopTools {
    fn execute(&mut self, _call: &ToolCall) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

/// An approver that approves every call (the benchmarked policies never ask)
#[derive(Debug, Clone, Copy, Default)]
pub struct ApproveAll;

impl Approver for ApproveAll {
    fn approve(&mut self, _call: &ToolCall, _message: Option<&str>) -> Approval {
        Approval::Allow
    }
}
