//! A recorded session as the hook calls its host made: the turn structure that Claude Code
//! transcripts and Codex rollouts share, written as hook payloads so that replay reads
//! them with the hook's own reader and mapping (`payload.rs`, `mapping.rs`).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value as Json};

use super::Emit;

/// A tool call waiting for its result
#[derive(Debug, Clone)]
pub(crate) struct ToolCall {
    /// The tool's name as the host's hooks name it
    pub(crate) name: String,
    /// Its input as the host's hooks send it
    pub(crate) input: Json,
}

/// Where a session is: the turn going on and the calls without a result
#[derive(Debug, Default)]
pub(crate) struct Turns {
    session: Option<String>,
    cwd: Option<String>,
    started: bool,
    open: bool,
    last_text: Option<String>,
    pending: BTreeMap<String, ToolCall>,
}

impl Turns {
    /// Notes the session, folder and time of the line being read; a new session id ends
    /// the previous session and starts the next
    pub(crate) fn locate(
        &mut self,
        session: Option<&str>,
        cwd: Option<&str>,
        at_ms: Option<u64>,
        emit: &mut Emit,
    ) {
        if let Some(at_ms) = at_ms {
            emit.at_ms = Some(at_ms);
        }
        if let Some(session) = session {
            if self.session.as_deref() != Some(session) {
                if self.started {
                    self.finish(emit);
                }
                self.session = Some(session.to_owned());
                self.started = false;
            }
        }
        if let Some(cwd) = cwd {
            self.cwd = Some(cwd.to_owned());
        }
        if !self.started {
            self.started = true;
            self.hook("SessionStart", Map::new(), emit);
        }
    }

    /// The user's prompt: ends the turn going on, begins one
    pub(crate) fn prompt(&mut self, text: &str, emit: &mut Emit) {
        self.start(emit);
        if self.open {
            self.stop(emit);
        }
        self.open = true;
        self.last_text = None;
        let mut fields = Map::new();
        fields.insert("prompt".to_owned(), Json::String(text.to_owned()));
        self.hook("UserPromptSubmit", fields, emit);
    }

    /// The agent's text: the last one is the stop's `last_assistant_message`
    pub(crate) fn said(&mut self, text: &str) {
        self.open = true;
        self.last_text = Some(text.to_owned());
    }

    /// The agent called a tool
    pub(crate) fn tool_use(&mut self, id: &str, call: ToolCall, emit: &mut Emit) {
        self.start(emit);
        self.open = true;
        let mut fields = Map::new();
        fields.insert("tool_name".to_owned(), Json::String(call.name.clone()));
        fields.insert("tool_input".to_owned(), call.input.clone());
        self.hook("PreToolUse", fields, emit);
        self.pending.insert(id.to_owned(), call);
    }

    /// A tool call's result; `failed` when the tool reported an error
    pub(crate) fn tool_result(&mut self, id: &str, response: Json, failed: bool, emit: &mut Emit) {
        let Some(call) = self.pending.remove(id) else {
            emit.warn(format!(
                "a tool result for `{id}`, a call the trace never made"
            ));
            return;
        };
        let mut fields = Map::new();
        fields.insert("tool_name".to_owned(), Json::String(call.name));
        fields.insert("tool_input".to_owned(), call.input);
        if failed {
            fields.insert("error".to_owned(), response);
            self.hook("PostToolUseFailure", fields, emit);
        } else {
            fields.insert("tool_response".to_owned(), response);
            self.hook("PostToolUse", fields, emit);
        }
    }

    /// The agent stopped at the end of a turn; `answer` is its last message when the trace
    /// says it, else the last text seen
    pub(crate) fn stop(&mut self, emit: &mut Emit) {
        self.open = false;
        let mut fields = Map::new();
        fields.insert("stop_hook_active".to_owned(), Json::Bool(false));
        if let Some(text) = self.last_text.take() {
            fields.insert("last_assistant_message".to_owned(), Json::String(text));
        }
        self.hook("Stop", fields, emit);
    }

    /// Sets the last message a stop reports
    pub(crate) fn answer(&mut self, text: &str) {
        self.last_text = Some(text.to_owned());
    }

    /// A turn was cut off (the user interrupted it): no stop hook ran
    pub(crate) fn interrupted(&mut self) {
        self.open = false;
        self.pending.clear();
    }

    /// The end of the session's trace: a finished turn stops when `implicit_stop` (the
    /// trace does not record stops), calls without a result are reported, the session ends
    pub(crate) fn end(&mut self, implicit_stop: bool, emit: &mut Emit) {
        if !self.started {
            return;
        }
        if !self.pending.is_empty() {
            let ids: Vec<String> = self.pending.keys().map(|id| format!("`{id}`")).collect();
            emit.warn(format!(
                "the session ends before the result of tool call {}",
                ids.join(", ")
            ));
        }
        if self.open {
            if implicit_stop && self.pending.is_empty() {
                self.stop(emit);
            } else {
                emit.warn("the session ends in the middle of a turn, without a stop".to_owned());
            }
        }
        self.pending.clear();
        self.open = false;
        self.hook("SessionEnd", Map::new(), emit);
        self.started = false;
    }

    /// [`Turns::end`] for a trace that records no stops
    pub(crate) fn finish(&mut self, emit: &mut Emit) {
        self.end(true, emit);
    }

    fn start(&mut self, emit: &mut Emit) {
        if !self.started {
            self.started = true;
            self.hook("SessionStart", Map::new(), emit);
        }
    }

    /// Emits the hook payload of `event`
    fn hook(&self, event: &str, mut fields: Map<String, Json>, emit: &mut Emit) {
        fields.insert("hook_event_name".to_owned(), json!(event));
        let session = self.session.clone().unwrap_or_else(|| emit.file_session());
        fields.insert("session_id".to_owned(), Json::String(session.clone()));
        if let Some(cwd) = &self.cwd {
            fields.insert("cwd".to_owned(), Json::String(cwd.clone()));
        }
        emit.hook(session, Json::Object(fields));
    }
}
