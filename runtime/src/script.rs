//! The run script of docs/cli.md `rulesc run`: a scripted model, scripted tools and a scripted
//! approver that drive the real agent loop, so policies can be tried and tested end to end.
//!
//! Invariant: a script is plain data, read once and checked as a whole; the drivers built
//! from it are deterministic (the clock included), so the same script and policy always
//! give the same report. Unknown keys are tolerated, as in event JSON, so scenario files can
//! carry more (an `expect` object, for instance).

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use serde::Deserialize;
use serde_json::{Map, Value as Json};

use crate::agent_loop::AgentLoop;
use crate::driver::{
    Approval, Approver, InferenceResponse, Message, Model, ModelError, StepClock, ToolCall,
    ToolError, ToolExecutor, Usage,
};
use crate::policy::Policy;
use crate::report::RunReport;
use crate::state::ExecutionState;
use crate::vocabulary::{ErrorKind, FinishReason, Limits};

/// The largest `max_retries` a script may set
///
/// A script is input like any other: with a tool that always fails and a policy that
/// retries it, its retry cap alone would decide how long a run takes. (A host that sets
/// `--max-retries` or [`Limits::max_retries`] itself is not bound by it.)
pub const MAX_SCRIPT_RETRIES: u64 = 1_000;

/// A run script (docs/cli.md `run`)
///
/// ```
/// use rulesc_runtime::{Defaults, Limits, Policy, Script, Status};
///
/// let script = Script::from_json(r#"{
///   "turns": [
///     {"response": "Let me look.", "tool_calls": [{"name": "ls", "args": {}}],
///      "usage": {"input": 100, "output": 20}},
///     {"response": "Done.", "usage": {"input": 150, "output": 10}}
///   ],
///   "tools": {"ls": {"output": "a.txt"}}
/// }"#)?;
/// let policy = Policy::new(Vec::new(), Defaults::default()).unwrap();
/// let report = script.run(policy, Limits::default());
/// assert_eq!((report.status, report.steps, report.tokens), (Status::Completed, 2, 280));
/// # Ok::<(), rulesc_runtime::ScriptError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        description = "A run script (docs/cli.md `run`): a scripted model, tools and approver"
    )
)]
pub struct Script {
    /// What each model call answers, in order; when they run out, the model answers with
    /// an empty response, `finish_reason` `stop` and no tool calls
    #[serde(default)]
    pub turns: Vec<Turn>,
    /// The tools by name
    #[serde(default)]
    pub tools: BTreeMap<String, ScriptedTool>,
    /// How the approver answers `ask` decisions (default `deny`)
    #[serde(default = "deny")]
    pub approver: Approval,
    /// The host's retry cap per step; the command line's `--max-retries` wins over it
    #[serde(default)]
    pub max_retries: Option<u64>,
    /// The host's metadata at the start of the run
    #[serde(default)]
    pub metadata: Map<String, Json>,
    /// When set, the clock advances by exactly this many milliseconds at the end of each
    /// step and by nothing else; otherwise `elapsed` is wall-clock time
    #[serde(default)]
    pub clock_ms_per_step: Option<u64>,
    /// Run as a sub-agent: stop hooks fire `subagent_stop` instead of `stop`
    #[serde(default)]
    pub subagent: bool,
    /// The user's prompt that starts the run: the transcript's opening message, and the
    /// `prompt` every event of the run sees (`X from prompt` reads it)
    #[serde(default)]
    pub prompt: Option<String>,
}

fn deny() -> Approval {
    Approval::Deny
}

/// One model call of a script: an answer, or a failure
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(try_from = "RawTurn")]
#[cfg_attr(feature = "schema", schemars(with = "RawTurn"))]
pub enum Turn {
    /// The call succeeds with this answer
    Answer(InferenceResponse),
    /// The call fails with this error (→ `on_error`)
    Error(ModelError),
}

/// A scripted tool: it returns `output`, or fails with `error`
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(try_from = "RawTool")]
#[cfg_attr(feature = "schema", schemars(with = "RawTool"))]
pub enum ScriptedTool {
    /// The tool returns this text
    Output(String),
    /// The tool fails with this message
    Error(String),
}

/// Why a script cannot be read
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ScriptError {}

impl Script {
    /// Reads a script from its JSON text
    ///
    /// # Errors
    ///
    /// A [`ScriptError`] with a one-line reason when the text is not JSON, a key has the
    /// wrong type or an unknown value (an error kind, a finish reason, an approver answer),
    /// or `max_retries` is more than [`MAX_SCRIPT_RETRIES`].
    pub fn from_json(text: &str) -> Result<Script, ScriptError> {
        // serde would also read a struct from an array of its fields; a script is an object.
        if !text.trim_start().starts_with('{') {
            return Err(ScriptError {
                message: "invalid run script: expected a JSON object".to_owned(),
            });
        }
        let script: Script = serde_json::from_str(text).map_err(|error| ScriptError {
            message: format!("invalid run script: {error}"),
        })?;
        match script.max_retries {
            Some(retries) if retries > MAX_SCRIPT_RETRIES => Err(ScriptError {
                message: format!(
                    "invalid run script: `max_retries` is {retries}, more than {MAX_SCRIPT_RETRIES}"
                ),
            }),
            _ => Ok(script),
        }
    }

    /// `base` with the script's `max_retries`, when it gives one
    pub fn limits(&self, base: Limits) -> Limits {
        Limits {
            max_retries: self.max_retries.unwrap_or(base.max_retries),
            ..base
        }
    }

    /// The loop under `policy` and `limits` as this script sets it up: its metadata, its
    /// clock and, for a sub-agent, `subagent_stop` (`limits` is used as given: see
    /// [`Script::limits`])
    pub fn agent_loop(&self, policy: Policy, limits: Limits) -> AgentLoop {
        let mut agent_loop = AgentLoop::new(policy)
            .with_limits(limits)
            .with_metadata(self.metadata.clone());
        if let Some(prompt) = &self.prompt {
            agent_loop = agent_loop.with_messages(vec![Message::User {
                text: prompt.clone(),
            }]);
        }
        if let Some(ms_per_step) = self.clock_ms_per_step {
            agent_loop = agent_loop.with_clock(StepClock::new(ms_per_step));
        }
        if self.subagent {
            agent_loop.as_subagent()
        } else {
            agent_loop
        }
    }

    /// The scripted model
    pub fn model(&self) -> ScriptedModel {
        ScriptedModel {
            turns: self.turns.iter().cloned().collect(),
            requests: Vec::new(),
            n_calls: 0,
        }
    }

    /// The scripted model of a run resumed from `state` (a checkpoint): the turns that
    /// `state`'s model calls took are gone, and the tool call ids it made up go on counting
    pub fn model_resumed(&self, state: &ExecutionState) -> ScriptedModel {
        let mut model = self.model();
        for _ in 0..state.model_calls().min(count(self.turns.len())) {
            // Answering consumes the turn and numbers its tool calls, as the first run did.
            let _ = model.infer(&[]);
        }
        model.requests.clear();
        model
    }

    /// The scripted tools
    pub fn tools(&self) -> ScriptedTools {
        ScriptedTools {
            tools: self.tools.clone(),
        }
    }

    /// The scripted approver
    pub fn approver(&self) -> ScriptedApprover {
        ScriptedApprover {
            answer: self.approver,
        }
    }

    /// Runs the script under `policy`; the script's `max_retries` overrides `limits`'
    pub fn run(&self, policy: Policy, limits: Limits) -> RunReport {
        self.agent_loop(policy, self.limits(limits)).run(
            &mut self.model(),
            &mut self.tools(),
            &mut self.approver(),
        )
    }
}

/// `n` as a count of model calls
fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// A model that answers with the script's turns, in order
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptedModel {
    turns: VecDeque<Turn>,
    requests: Vec<Vec<Message>>,
    /// Tool calls numbered so far, for the ids the script leaves out
    n_calls: u64,
}

impl ScriptedModel {
    /// Every transcript the model received, one per call, in order
    pub fn requests(&self) -> &[Vec<Message>] {
        &self.requests
    }
}

impl Model for ScriptedModel {
    fn infer(&mut self, messages: &[Message]) -> Result<InferenceResponse, ModelError> {
        self.requests.push(messages.to_vec());
        match self.turns.pop_front() {
            Some(Turn::Answer(mut response)) => {
                for call in response
                    .tool_calls
                    .iter_mut()
                    .filter(|call| call.id.is_empty())
                {
                    self.n_calls = self.n_calls.saturating_add(1);
                    call.id = format!("call_{}", self.n_calls);
                }
                Ok(response)
            }
            Some(Turn::Error(error)) => Err(error),
            None => Ok(InferenceResponse {
                text: String::new(),
                tool_calls: Vec::new(),
                finish_reason: FinishReason::Stop,
                usage: Usage::default(),
            }),
        }
    }
}

/// Tools that answer as the script says; a tool the script does not name fails
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptedTools {
    tools: BTreeMap<String, ScriptedTool>,
}

impl ToolExecutor for ScriptedTools {
    fn execute(&mut self, call: &ToolCall) -> Result<String, ToolError> {
        match self.tools.get(&call.name) {
            Some(ScriptedTool::Output(output)) => Ok(output.clone()),
            Some(ScriptedTool::Error(message)) => Err(ToolError {
                message: message.clone(),
            }),
            None => Err(ToolError {
                message: format!("no tool named `{}` in the run script", call.name),
            }),
        }
    }
}

/// An approver that always gives the same answer
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptedApprover {
    answer: Approval,
}

impl Approver for ScriptedApprover {
    fn approve(&mut self, _call: &ToolCall, _message: Option<&str>) -> Approval {
        self.answer
    }
}

/// A turn as written in the script
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct RawTurn {
    /// The model's text
    #[serde(default)]
    response: String,
    /// The tools it calls, in order
    #[serde(default)]
    tool_calls: Vec<RawToolCall>,
    /// Why it stopped; when left out, `tool_calls` if it calls tools, else `stop`
    #[serde(default)]
    finish_reason: Option<FinishReason>,
    /// Tokens the call used
    #[serde(default)]
    usage: Usage,
    /// When set, the call fails with this error instead (→ `on_error`)
    #[serde(default)]
    error: Option<RawError>,
}

/// A tool call the model makes; without an `id`, the model numbers it (`call_<n>`)
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ToolCall"))]
struct RawToolCall {
    /// The call's id
    #[serde(default)]
    id: Option<String>,
    /// The tool's name
    name: String,
    /// The tool's JSON input
    #[serde(default = "empty_object")]
    args: Json,
}

fn empty_object() -> Json {
    Json::Object(Map::new())
}

/// A failing model call
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ModelError"))]
struct RawError {
    // Read as text so that an unknown kind is refused with the known ones named.
    /// What kind of failure it is
    #[cfg_attr(feature = "schema", schemars(with = "ErrorKind"))]
    kind: String,
    /// The failure's text
    #[serde(default)]
    message: String,
}

/// A scripted tool as written: `output` or `error`
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct RawTool {
    /// What the tool returns (empty when neither key is given)
    #[serde(default)]
    output: Option<String>,
    /// The tool fails with this message
    #[serde(default)]
    error: Option<String>,
}

impl TryFrom<RawTurn> for Turn {
    type Error = String;

    fn try_from(raw: RawTurn) -> Result<Turn, String> {
        if let Some(error) = raw.error {
            let kind = ErrorKind::from_name(&error.kind).ok_or_else(|| {
                let known: Vec<&str> = ErrorKind::ALL.iter().map(|kind| kind.name()).collect();
                format!(
                    "unknown error kind `{}`, expected one of {}",
                    error.kind,
                    known.join(", ")
                )
            })?;
            return Ok(Turn::Error(ModelError {
                kind,
                message: error.message,
            }));
        }
        let finish_reason = raw.finish_reason.unwrap_or(if raw.tool_calls.is_empty() {
            FinishReason::Stop
        } else {
            FinishReason::ToolCalls
        });
        // A call without an id gets one from the model when it answers (`call_<n>`).
        let tool_calls = raw
            .tool_calls
            .into_iter()
            .map(|call| ToolCall {
                id: call.id.unwrap_or_default(),
                name: call.name,
                args: call.args,
            })
            .collect();
        Ok(Turn::Answer(InferenceResponse {
            text: raw.response,
            tool_calls,
            finish_reason,
            usage: raw.usage,
        }))
    }
}

impl TryFrom<RawTool> for ScriptedTool {
    type Error = &'static str;

    fn try_from(raw: RawTool) -> Result<ScriptedTool, &'static str> {
        match (raw.output, raw.error) {
            (Some(_), Some(_)) => Err("a tool has both `output` and `error`: give one"),
            (_, Some(error)) => Ok(ScriptedTool::Error(error)),
            (output, None) => Ok(ScriptedTool::Output(output.unwrap_or_default())),
        }
    }
}
