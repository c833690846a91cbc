//! Native hooks: decisions written in Rust by the host, resolved exactly like rules.
//!
//! Invariant: a hook is one more voter. Its decision joins the evaluations of the event and
//! goes through the same lattice (`resolve.rs`), so the order in which hooks are passed
//! never changes an outcome. A hook that answers with a verb its event does not allow is
//! ignored with a `tracing` warning (target `rulesc::hook`), never a panic.

use crate::event::Event;
use crate::vocabulary::{EventKind, StopReason, Verb};

/// A decision rule implemented by the host application
///
/// ```
/// use rulesc_runtime::{Event, EventKind, HookDecision, NativeHook, Verb};
///
/// struct NoDeploy;
///
/// impl NativeHook for NoDeploy {
///     fn id(&self) -> &str {
///         "host:no-deploy"
///     }
///     fn events(&self) -> &[EventKind] {
///         &[EventKind::PreToolUse]
///     }
///     fn evaluate(&self, event: &Event) -> Option<HookDecision> {
///         (event.tool.as_deref() == Some("deploy"))
///             .then(|| HookDecision::new(Verb::Block).with_message("no deploys on fridays"))
///     }
/// }
/// ```
pub trait NativeHook: Send + Sync {
    /// The id shown in evaluations and `resolved_by`, like a rule id
    fn id(&self) -> &str;

    /// The events the hook fires on
    fn events(&self) -> &[EventKind];

    /// Its priority among the evaluations with the same verb, like `@priority`
    fn priority(&self) -> i64 {
        0
    }

    /// The hook's decision on `event`, or `None` when it has no opinion
    fn evaluate(&self, event: &Event) -> Option<HookDecision>;
}

/// What a native hook decided
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookDecision {
    /// The verb; it must be allowed on the event (docs/language.md §4.2)
    pub verb: Verb,
    /// The stop reason of a `forbid` or `allow_stop`; their default when `None`, and
    /// dropped for other verbs
    pub stop_reason: Option<StopReason>,
    /// The message shown to the model or user
    pub message: Option<String>,
}

impl HookDecision {
    /// A decision with `verb`, no explicit stop reason and no message
    pub fn new(verb: Verb) -> HookDecision {
        HookDecision {
            verb,
            stop_reason: None,
            message: None,
        }
    }

    /// The same decision with `message`
    #[must_use]
    pub fn with_message(self, message: impl Into<String>) -> HookDecision {
        HookDecision {
            message: Some(message.into()),
            ..self
        }
    }

    /// The same decision with `stop_reason`
    #[must_use]
    pub fn with_stop_reason(self, stop_reason: StopReason) -> HookDecision {
        HookDecision {
            stop_reason: Some(stop_reason),
            ..self
        }
    }
}
