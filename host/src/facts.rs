//! What a policy can count on under each host: the events `rulesc hook` fires for it, the
//! decisions its answers can carry, and the fields its calls fill — what `rulesc check
//! --host` warns about.
//!
//! Invariant: these facts follow the mapping (`mapping.rs`) and the answers (`answer.rs`) of
//! this crate, and `tests/host_facts.rs` holds them to what `rulesc hook` really does.

use rulesc_runtime::{EventKind, Field, Verb};

use crate::hosts::Host;

impl Host {
    /// Whether a hook of this host ever fires `kind`
    ///
    /// A hook sees no model call and no step boundary, so `before_inference`,
    /// `after_inference` and `after_step` never fire; a host may send nothing for some
    /// others (Gemini CLI for a sub-agent's stop).
    pub fn sends(self, kind: EventKind) -> bool {
        match kind {
            EventKind::BeforeInference | EventKind::AfterInference | EventKind::AfterStep => false,
            kind => !self.profile().facts.never_sends.contains(&kind),
        }
    }

    /// Whether this host's answer can carry `verb` decided on `kind`; `Err` says what the
    /// host does instead
    pub fn honours(self, kind: EventKind, verb: Verb) -> Result<(), &'static str> {
        let answer = &self.profile().answer;
        match (kind, verb) {
            (EventKind::PreToolUse, Verb::Ask) if !answer.asks => {
                Err("the host cannot ask for approval from a hook, so the call is denied")
            }
            (EventKind::PreToolUse, Verb::Allow) => answer.refuses_allow.map_or(Ok(()), Err),
            (EventKind::OnError, Verb::Retry | Verb::Ignore) => {
                Err("a hook cannot retry or hide a failed call: the host goes on as it would")
            }
            (kind, Verb::Request | Verb::AllowStop) if !kind.is_stop() => Err(
                "a hook decides whether to go on only when the agent stops: this changes nothing",
            ),
            _ => Ok(()),
        }
    }

    /// Whether this host's calls fill `field` on `kind` (every event sees every field it
    /// can see; this says whether the host gives it a value)
    pub fn fills(self, field: &Field, kind: EventKind) -> bool {
        match field {
            // Hooks see no model call: no tokens, no retries of one.
            Field::Tokens | Field::InputTokens | Field::OutputTokens | Field::Retries => false,
            Field::PermissionMode => self.profile().facts.permission_mode,
            Field::ToolError | Field::Blocked | Field::Result | Field::ResultPath(_) => {
                kind == EventKind::PostToolUse
            }
            _ => true,
        }
    }
}
