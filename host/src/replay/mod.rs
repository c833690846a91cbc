//! Replay: recorded agent sessions run through a policy as if it had been the hook.
//!
//! A trace is a Claude Code transcript, a Codex rollout or rulesc's own event JSON Lines.
//! The readers (each host's, in its module of `hosts/`, and `rulesc.rs` here) turn each line
//! into the hook payloads the host sent while recording it (`transcript/`); the replay reads them with the hook's own
//! reader (`payload.rs`) and evaluates them with its mapping (`mapping.rs`) against a
//! session state held in memory, so a replayed session gets exactly the counters,
//! metadata and latches the hook would have kept. Every policy given is replayed over the
//! same lines side by side, each with its own state, which is what `--diff` compares.
//!
//! Invariant: memory is bounded by the longest line ([`MAX_LINE`]) and what the report
//! holds (one [`Finding`] per decision), never by the size of a trace; a line that cannot
//! be read is a [`Warning`] naming its file and line, and the rest replays.

mod call;
mod lines;
mod rulesc;

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufRead};

use rulesc_runtime::{Act, Decision, EvalOptions, Event, EventKind, Mode, Outcome, Policy, Verb};
use serde::Serialize;
use serde_json::{Map, Value as Json};

pub use lines::MAX_LINE;

use crate::hosts::{ClaudeTranscript, CodexRollout, Host};
use crate::mapping;
use crate::payload::{self, Received};
use crate::session::SessionState;
use crate::transcript::{Emit, Made, Reader};

/// What recorded a trace
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceFormat {
    /// A Claude Code transcript
    Claude,
    /// A Codex session rollout
    Codex,
    /// rulesc event JSON Lines
    Rulesc,
}

impl TraceFormat {
    /// Every format
    pub const ALL: [TraceFormat; 3] =
        [TraceFormat::Claude, TraceFormat::Codex, TraceFormat::Rulesc];

    /// The format's name as `--trace-format` takes it
    pub fn name(self) -> &'static str {
        match self {
            TraceFormat::Claude => "claude",
            TraceFormat::Codex => "codex",
            TraceFormat::Rulesc => "rulesc",
        }
    }

    /// The format a first line shows, if any: a Codex line has `type` and `payload`, a
    /// rulesc event has `event`, a Claude Code line has `sessionId` or a transcript `type`
    fn detect(line: &Map<String, Json>) -> Option<TraceFormat> {
        if line.contains_key("payload") && line.contains_key("type") {
            return Some(TraceFormat::Codex);
        }
        if line.contains_key("event") {
            return Some(TraceFormat::Rulesc);
        }
        let transcript_type = line.get("type").and_then(Json::as_str).is_some_and(|kind| {
            matches!(
                kind,
                "user" | "assistant" | "summary" | "system" | "file-history-snapshot"
            )
        });
        (line.contains_key("sessionId") || transcript_type).then_some(TraceFormat::Claude)
    }

    fn reader(self) -> Box<dyn Reader> {
        match self {
            TraceFormat::Claude => Box::<ClaudeTranscript>::default(),
            TraceFormat::Codex => Box::<CodexRollout>::default(),
            TraceFormat::Rulesc => Box::<rulesc::Rulesc>::default(),
        }
    }

    /// The host whose hook protocol the trace is replayed through
    fn host(self) -> Host {
        match self {
            TraceFormat::Codex => Host::Codex,
            TraceFormat::Claude | TraceFormat::Rulesc => Host::Claude,
        }
    }
}

/// A line of a trace that could not be replayed whole
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Warning {
    /// The trace, as named on the command line
    pub file: String,
    /// The line, from 1 (0: the file as a whole)
    pub line: u64,
    /// What is wrong, one lowercase line
    pub reason: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "`{}`: {}", self.file, self.reason)
        } else {
            write!(f, "`{}` line {}: {}", self.file, self.line, self.reason)
        }
    }
}

/// What a policy decided on a replayed event: a `block`, `ask`, `forbid` or `request`
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Finding {
    /// The trace line that made the event
    pub line: u64,
    /// The step it happened in (a turn of a host's session)
    pub step: u64,
    /// The event
    pub event: EventKind,
    /// The tool, on tool events
    pub tool: Option<String>,
    /// The call, on tool events: its key argument (command, file path, URL) or its
    /// arguments as JSON, on one line of at most 80 characters
    pub call: Option<String>,
    /// `block`, `ask`, `forbid` or `request`
    #[cfg_attr(feature = "schema", schemars(extend("enum" = REPORTED.map(Verb::name))))]
    pub decision: String,
    /// The rule that decided (`default`, `host:...` for the runtime's own)
    pub rule: Option<String>,
    /// The rule's message
    pub message: Option<String>,
    /// `shadow` for what a shadow rule would have decided, else `enforce`
    pub mode: Mode,
}

/// One replayed session under one policy
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SessionReport {
    /// The trace it was read from
    pub file: String,
    /// Its session id (the file's name when the trace gives none)
    pub session: String,
    /// The rulesc events evaluated
    pub events: u64,
    /// What the policy decided, in trace order
    pub findings: Vec<Finding>,
}

/// Why a replay stopped
#[derive(Debug)]
pub enum ReplayError {
    /// A trace could not be read
    Io {
        /// The trace
        file: String,
        /// The failure
        error: io::Error,
    },
    /// `--strict`: a line could not be replayed whole
    Strict(Warning),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Io { file, error } => write!(f, "cannot read `{file}`: {error}"),
            ReplayError::Strict(warning) => write!(f, "{warning}"),
        }
    }
}

/// What a replay found: per policy given, its sessions in the order they ended
#[derive(Debug, Clone, Default)]
pub struct Replayed {
    /// One list per policy, in the order of [`Replay::new`]'s
    pub runs: Vec<Vec<SessionReport>>,
    /// Every warning, in reading order
    pub warnings: Vec<Warning>,
}

/// The key of the one policy each replayed session state holds a run of: every policy
/// replayed side by side has a state of its own
const REPLAYED: &str = "replayed";

/// One session being replayed under every policy
struct Run {
    file: String,
    session: String,
    /// Per policy: the events it evaluated (a latched `forbid` evaluates no more), its
    /// state and its findings
    events: Vec<u64>,
    states: Vec<SessionState>,
    findings: Vec<Vec<Finding>>,
}

impl Run {
    /// Each policy's state, findings and count of events, in the policies' order
    fn per_policy(
        &mut self,
    ) -> impl Iterator<Item = ((&mut SessionState, &mut Vec<Finding>), &mut u64)> {
        self.states
            .iter_mut()
            .zip(&mut self.findings)
            .zip(&mut self.events)
    }
}

/// A replay in progress over the policies given
pub struct Replay<'p> {
    policies: &'p [Policy],
    strict: bool,
    replayed: Replayed,
    outcomes: Vec<(u64, Outcome)>,
}

impl<'p> Replay<'p> {
    /// A replay of `policies` side by side; `strict` stops at the first warning
    pub fn new(policies: &'p [Policy], strict: bool) -> Replay<'p> {
        Replay {
            policies,
            strict,
            replayed: Replayed {
                runs: vec![Vec::new(); policies.len()],
                warnings: Vec::new(),
            },
            outcomes: Vec::new(),
        }
    }

    /// Replays the trace `file` read from `reader`, in the format given or else the one its
    /// first line shows; `progress` is told the bytes read so far after each line
    pub fn read(
        &mut self,
        file: &str,
        reader: impl BufRead,
        format: Option<TraceFormat>,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), ReplayError> {
        let mut lines = lines::Lines::new(reader);
        let mut format = format;
        let mut reader = format.map(TraceFormat::reader);
        let mut emit = Emit::new(file);
        let mut runs: BTreeMap<String, Run> = BTreeMap::new();
        loop {
            let line = lines.next_line().map_err(|error| ReplayError::Io {
                file: file.to_owned(),
                error,
            })?;
            let Some(line) = line else { break };
            let number = lines.number();
            progress(lines.bytes());
            match parse(line) {
                Ok(None) => {}
                Ok(Some(object)) => {
                    if reader.is_none() {
                        format = TraceFormat::detect(&object);
                        reader = format.map(TraceFormat::reader);
                    }
                    match reader.as_mut() {
                        Some(reader) => {
                            if let Err(reason) = reader.line(object, &mut emit) {
                                emit.warn(reason);
                            }
                        }
                        None => emit.warn(
                            "not a line of a Claude Code transcript, a Codex rollout or a rulesc trace"
                                .to_owned(),
                        ),
                    }
                }
                Err(reason) => emit.warn(reason),
            }
            self.replay_made(&mut emit, number, format, &mut runs)?;
        }
        if let Some(reader) = reader.as_mut() {
            reader.finish(&mut emit);
        } else if lines.number() > 0 {
            emit.warn("no line is of a trace format rulesc reads".to_owned());
        }
        self.replay_made(&mut emit, lines.number(), format, &mut runs)?;
        for run in runs.into_values() {
            let per_policy = run.findings.into_iter().zip(run.events);
            for (reports, (findings, events)) in self.replayed.runs.iter_mut().zip(per_policy) {
                reports.push(SessionReport {
                    file: run.file.clone(),
                    session: run.session.clone(),
                    events,
                    findings,
                });
            }
        }
        Ok(())
    }

    /// What the replay found
    pub fn finish(self) -> Replayed {
        self.replayed
    }

    /// Replays what the readers made of line `number`, and keeps their warnings
    fn replay_made(
        &mut self,
        emit: &mut Emit,
        number: u64,
        format: Option<TraceFormat>,
        runs: &mut BTreeMap<String, Run>,
    ) -> Result<(), ReplayError> {
        for reason in std::mem::take(&mut emit.warnings) {
            self.warn(&emit.file, number, reason)?;
        }
        let host = format.map_or(Host::Claude, TraceFormat::host);
        for (session, at_ms, made) in std::mem::take(&mut emit.made) {
            let n_policies = self.policies.len();
            let run = runs.entry(session.clone()).or_insert_with(|| Run {
                file: emit.file.clone(),
                session,
                events: vec![0; n_policies],
                states: vec![SessionState::new(at_ms.unwrap_or(0)); n_policies],
                findings: vec![Vec::new(); n_policies],
            });
            match made {
                Made::Hook(payload) => {
                    if let Some(reason) = self.replay_hook(run, host, &payload, at_ms, number) {
                        self.warn(&emit.file, number, reason)?;
                    }
                }
                Made::Event(event) => self.replay_event(run, &event, number),
            }
        }
        Ok(())
    }

    /// Keeps a warning about line `line` of `file`; with `strict`, stops the replay on it
    fn warn(&mut self, file: &str, line: u64, reason: String) -> Result<(), ReplayError> {
        let warning = Warning {
            file: file.to_owned(),
            line,
            reason,
        };
        if self.strict {
            return Err(ReplayError::Strict(warning));
        }
        self.replayed.warnings.push(warning);
        Ok(())
    }

    /// One hook call under every policy; a payload the hook could not read is a warning
    fn replay_hook(
        &mut self,
        run: &mut Run,
        host: Host,
        payload: &Json,
        at_ms: Option<u64>,
        number: u64,
    ) -> Option<String> {
        let bytes = serde_json::to_vec(payload).unwrap_or_default();
        let call = match payload::read(&bytes, host) {
            Ok(Received::Call(call)) => call,
            Ok(Received::Unmapped(_)) => return None,
            Err(err) => return Some(format!("the hook would refuse this call: {err}")),
        };
        let per_policy = run.per_policy();
        for (policy, ((state, findings), events)) in self.policies.iter().zip(per_policy) {
            self.outcomes.clear();
            let now_ms = at_ms.unwrap_or(state.started_ms);
            mapping::respond_recorded(
                policy,
                REPLAYED,
                &call,
                state,
                now_ms,
                "",
                Some(&mut self.outcomes),
            );
            for (step, outcome) in &self.outcomes {
                let tool = tool_of(outcome.event, call.tool.as_deref(), call.arg.as_ref());
                findings.extend(findings_of(outcome, number, *step, tool));
            }
            let evaluated = u64::try_from(self.outcomes.len()).unwrap_or(u64::MAX);
            *events = events.saturating_add(evaluated);
        }
        None
    }

    /// One rulesc event under every policy, starting from the metadata and the trace the
    /// events before it left, as `rulesc eval` evaluates a stream
    fn replay_event(&mut self, run: &mut Run, event: &Event, number: u64) {
        let per_policy = run.per_policy();
        for (policy, ((state, findings), events)) in self.policies.iter().zip(per_policy) {
            *events = events.saturating_add(1);
            let elapsed_ms = state.clock.elapsed_ms;
            let replayed = state.run_of(REPLAYED, elapsed_ms);
            let options = EvalOptions::default()
                .trace(&mut replayed.trace)
                .carry_metadata(&mut replayed.metadata);
            let outcome = policy.evaluate_with(event, options);
            let tool = tool_of(event.kind, event.tool.as_deref(), event.arg.as_ref());
            findings.extend(findings_of(&outcome, number, event.step, tool));
        }
    }
}

/// A line as a JSON object; `None` for a blank line
fn parse(line: lines::Line) -> Result<Option<Map<String, Json>>, String> {
    let bytes = match line {
        lines::Line::Text(bytes) => bytes,
        lines::Line::TooLong => {
            return Err(format!(
                "the line is longer than {} MiB and was skipped",
                MAX_LINE >> 20
            ))
        }
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    match serde_json::from_slice::<Json>(&bytes) {
        Ok(Json::Object(object)) => Ok(Some(object)),
        Ok(_) => Err("the line is not a JSON object".to_owned()),
        Err(err) if err.is_eof() => Err("the line is cut short (truncated JSON)".to_owned()),
        Err(err) => Err(format!("the line is not JSON: {err}")),
    }
}

/// A tool event's tool, and its call in one line
#[derive(Debug, Clone, Default)]
struct ToolCall {
    /// The tool's name
    tool: Option<String>,
    /// [`call::summary`] of its arguments
    call: Option<String>,
}

/// The tool and call of an event that has them
fn tool_of(event: EventKind, tool: Option<&str>, arg: Option<&Json>) -> ToolCall {
    let has_tool = matches!(
        event,
        EventKind::PreToolUse | EventKind::PostToolUse | EventKind::OnError
    );
    match tool {
        Some(tool) if has_tool => ToolCall {
            tool: Some(tool.to_owned()),
            call: call::summary(arg),
        },
        _ => ToolCall::default(),
    }
}

/// The verbs a replay reports: those that would have changed what the agent did
const REPORTED: [Verb; 4] = [Verb::Block, Verb::Ask, Verb::Forbid, Verb::Request];

/// Whether a replay reports `verb`
fn reported(verb: Verb) -> bool {
    REPORTED.contains(&verb)
}

/// What `outcome` decided, and what its shadow rules would have decided
fn findings_of(
    outcome: &Outcome,
    line: u64,
    step: u64,
    tool: ToolCall,
) -> impl Iterator<Item = Finding> + '_ {
    let resolution = &outcome.resolution;
    let enforced = match resolution.decision {
        Decision::Block | Decision::Ask | Decision::Forbid | Decision::Request => Some(Finding {
            line,
            step,
            event: outcome.event,
            tool: tool.tool.clone(),
            call: tool.call.clone(),
            decision: resolution.decision.name().to_owned(),
            rule: resolution.resolved_by.clone(),
            message: resolution.message.clone(),
            mode: Mode::Enforce,
        }),
        _ => None,
    };
    let shadow = outcome
        .shadow
        .iter()
        .filter_map(move |evaluation| match evaluation.verb {
            Act::Decide(verb) if reported(verb) => Some(Finding {
                line,
                step,
                event: outcome.event,
                tool: tool.tool.clone(),
                call: tool.call.clone(),
                decision: verb.name().to_owned(),
                rule: Some(evaluation.rule.clone()),
                message: evaluation.message.clone(),
                mode: Mode::Shadow,
            }),
            _ => None,
        });
    enforced.into_iter().chain(shadow)
}
