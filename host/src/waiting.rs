//! What a hook call is waiting on, while it waits: a call that runs out of time (`rulesc
//! hook --timeout`) says what held it up.
//!
//! One value for the process: a hook process answers one call. A cause is set for as long
//! as its [`Waiting`] lives, and the one it replaced comes back when it is dropped. A
//! listener hears each change as it happens, since the answer out of time must be ready
//! before the time runs out (`src/cli/commands/hook_deadline.rs`).

use std::sync::{Mutex, OnceLock, PoisonError};

/// Hears what the call waits on, each time that changes
pub(crate) type Listener = Box<dyn Fn(Option<&str>) + Send + Sync>;

/// What the call waits on now
static CAUSE: Mutex<Option<String>> = Mutex::new(None);

/// Who hears of each change, once one listens
static LISTENER: OnceLock<Listener> = OnceLock::new();

/// A cause of waiting, in force until dropped
#[derive(Debug)]
pub(crate) struct Waiting {
    before: Option<String>,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        set(self.before.take());
    }
}

/// Says that the call waits on `cause` until the returned value is dropped
pub(crate) fn on(cause: String) -> Waiting {
    Waiting {
        before: set(Some(cause)),
    }
}

/// Has `listener` hear the cause now in force, then every change; only one may listen
pub(crate) fn listen(listener: Listener) -> Result<(), String> {
    LISTENER
        .set(listener)
        .map_err(|_| "what a hook call waits on already has a listener".to_owned())?;
    let now = CAUSE.lock().unwrap_or_else(PoisonError::into_inner).clone();
    if let Some(listener) = LISTENER.get() {
        listener(now.as_deref());
    }
    Ok(())
}

/// Puts `cause` in force and tells the listener; the cause it replaced
fn set(cause: Option<String>) -> Option<String> {
    let told = LISTENER.get().map(|listener| (listener, cause.clone()));
    let before = std::mem::replace(
        &mut *CAUSE.lock().unwrap_or_else(PoisonError::into_inner),
        cause,
    );
    // Told outside the lock, which guards the cause alone: a listener does work of its own.
    if let Some((listener, cause)) = told {
        listener(cause.as_deref());
    }
    before
}
