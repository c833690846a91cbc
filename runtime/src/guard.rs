//! Host code that panics is caught at the agent loop's boundary and becomes an error the
//! policy resolves, never a crash of the loop.
//!
//! Invariant: no panic of a model driver, tool executor, approver, native hook or
//! checkpointer unwinds through the loop. What a panic becomes is decided in
//! `agent_loop.rs`; this module only catches it and says what it was, and warns under the
//! `rulesc::loop` tracing target. (The process's panic hook still runs first: by default it
//! prints the panic on stderr; hosts that mind set their own.)

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, PoisonError};

use tracing::warn;

use crate::event::Event;
use crate::native_hook::{HookDecision, NativeHook};
use crate::vocabulary::EventKind;

/// Runs `call`, catching a panic; `Err` holds the panic's message
///
/// The host's object is used again after it panicked (a retried model call, the next tool
/// call): whether it is still usable is the host's concern, as for any error it returns.
pub(crate) fn catch<T>(what: &str, call: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|payload| {
        let message = message_of(payload.as_ref());
        warn!(target: "rulesc::loop", what, panic = message.as_str(), "host code panicked");
        message
    })
}

/// The text a panic was raised with, or a plain description
fn message_of(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

/// A native hook whose panics are caught and remembered: a panicking hook casts no vote,
/// and [`GuardedHook::panic`] says what happened
pub(crate) struct GuardedHook<'hook> {
    hook: &'hook dyn NativeHook,
    panic: Mutex<Option<String>>,
}

impl<'hook> GuardedHook<'hook> {
    pub(crate) fn new(hook: &'hook dyn NativeHook) -> GuardedHook<'hook> {
        GuardedHook {
            hook,
            panic: Mutex::new(None),
        }
    }

    /// The message of the hook's panic, if it panicked
    pub(crate) fn panic(&self) -> Option<String> {
        self.panic
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl NativeHook for GuardedHook<'_> {
    fn id(&self) -> &str {
        self.hook.id()
    }

    fn events(&self) -> &[EventKind] {
        self.hook.events()
    }

    fn priority(&self) -> i64 {
        self.hook.priority()
    }

    fn evaluate(&self, event: &Event) -> Option<HookDecision> {
        match catch(self.hook.id(), || self.hook.evaluate(event)) {
            Ok(decision) => decision,
            Err(message) => {
                let mut slot = self.panic.lock().unwrap_or_else(PoisonError::into_inner);
                *slot = Some(format!(
                    "native hook `{}` panicked: {message}",
                    self.hook.id()
                ));
                None
            }
        }
    }
}
