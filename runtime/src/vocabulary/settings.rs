//! What a policy set declares beside its rules (defaults, docs/language.md §5.4) and what the
//! host imposes on every run (limits, docs/cli.md).
//!
//! Invariant: [`Defaults::verbs_for`] is the one table of which verbs a `default` may
//! name; the compiler's check and `Policy::new` both read it.

use serde::{Deserialize, Serialize};

use super::{EventKind, Verb};

/// What happens when no rule decided (docs/language.md §5.4)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Defaults {
    /// `default pre_tool_use allow|ask|block`
    pub pre_tool_use: Option<Verb>,
    /// `default on_error forbid|retry|ignore`
    pub on_error: Option<Verb>,
}

impl Defaults {
    /// The verbs a `default` on `event` may name; `None` for an event that takes no default
    pub fn verbs_for(event: EventKind) -> Option<&'static [Verb]> {
        match event {
            EventKind::PreToolUse => Some(&[Verb::Allow, Verb::Ask, Verb::Block]),
            EventKind::OnError => Some(&[Verb::Forbid, Verb::Retry, Verb::Ignore]),
            _ => None,
        }
    }

    /// The default declared for `event`, if any
    pub fn get(&self, event: EventKind) -> Option<Verb> {
        match event {
            EventKind::PreToolUse => self.pre_tool_use,
            EventKind::OnError => self.on_error,
            _ => None,
        }
    }

    /// The defaults with `verb` declared for `event`; `None` when `event` takes no default
    #[must_use]
    pub fn with(self, event: EventKind, verb: Verb) -> Option<Defaults> {
        match event {
            EventKind::PreToolUse => Some(Defaults {
                pre_tool_use: Some(verb),
                ..self
            }),
            EventKind::OnError => Some(Defaults {
                on_error: Some(verb),
                ..self
            }),
            _ => None,
        }
    }

    /// Each declared default as `(event, verb)`, in lifecycle order
    pub fn declared(&self) -> impl Iterator<Item = (EventKind, Verb)> + '_ {
        [EventKind::PreToolUse, EventKind::OnError]
            .into_iter()
            .filter_map(|event| self.get(event).map(|verb| (event, verb)))
    }
}

/// The host's hard limits (docs/cli.md)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Steps a run may take at most (`host:max_steps`)
    pub max_steps: u64,
    /// Retries one step may take at most; a `retry` beyond becomes `forbid retry_limit_reached`
    pub max_retries: u64,
    /// Forced continuations on `stop` in a row, after which `request` has no power
    pub max_stop_requests: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_steps: 100,
            max_retries: 3,
            max_stop_requests: 8,
        }
    }
}
