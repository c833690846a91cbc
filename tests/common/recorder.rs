//! A native hook that records every event the agent loop fires and votes nothing: what a
//! run looked like from inside, for tests that hold it to a reference.

use std::sync::{Arc, Mutex};

use rulesc::{Event, EventKind, HookDecision, NativeHook};

/// Records every event the loop fires into `seen`, and votes nothing
pub(crate) struct Recorder {
    /// The events, in the order the loop fired them
    pub(crate) seen: Arc<Mutex<Vec<Event>>>,
}

impl NativeHook for Recorder {
    fn id(&self) -> &str {
        "recorder"
    }
    fn events(&self) -> &[EventKind] {
        &EventKind::ALL
    }
    fn evaluate(&self, event: &Event) -> Option<HookDecision> {
        if let Ok(mut seen) = self.seen.lock() {
            seen.push(event.clone());
        }
        None
    }
}
