//! What a hook call is waiting on, while it waits: a call that runs out of time (`rulesc
//! hook --timeout`) says what held it up.
//!
//! One value for the process: a hook process answers one call. A cause is set for as long
//! as its [`Waiting`] lives, and the one it replaced comes back when it is dropped.

use std::sync::{Mutex, PoisonError};

/// What the call waits on now
static CAUSE: Mutex<Option<String>> = Mutex::new(None);

/// A cause of waiting, in force until dropped
#[derive(Debug)]
pub(crate) struct Waiting {
    before: Option<String>,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        *CAUSE.lock().unwrap_or_else(PoisonError::into_inner) = self.before.take();
    }
}

/// Says that the call waits on `cause` until the returned value is dropped
pub(crate) fn on(cause: String) -> Waiting {
    let mut current = CAUSE.lock().unwrap_or_else(PoisonError::into_inner);
    Waiting {
        before: current.replace(cause),
    }
}

/// What the call waits on now, if anything was said
pub(crate) fn cause() -> Option<String> {
    CAUSE.lock().unwrap_or_else(PoisonError::into_inner).clone()
}
