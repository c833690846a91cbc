//! rulesc's own traces: JSON Lines of events as `rulesc eval` reads them, each with an
//! optional `session` key (docs/schemas/trace.json); lines without one belong to
//! the session named after the file. They are evaluated as they are, without a host's
//! mapping: each event carries its own counters, and `metadata` carries over.

use std::collections::BTreeMap;

use rulesc_runtime::{Event, EventKind};
use serde_json::{Map, Value as Json};

use crate::transcript::{Emit, Reader};

/// The reader of one event file
#[derive(Default)]
pub(crate) struct Rulesc {
    /// Each session seen, and whether it stopped (`stop` or `execution_end`)
    stopped: BTreeMap<String, bool>,
}

impl Reader for Rulesc {
    fn line(&mut self, mut line: Map<String, Json>, emit: &mut Emit) -> Result<(), String> {
        let session = match line.remove("session") {
            Some(Json::String(session)) => session,
            None => emit.file_session(),
            Some(_) => return Err("`session` is not a string".to_owned()),
        };
        let event: Event = serde_json::from_value(Json::Object(line))
            .map_err(|err| format!("not a rulesc event: {err}"))?;
        let stops = matches!(event.kind, EventKind::Stop | EventKind::ExecutionEnd);
        let stopped = self.stopped.entry(session.clone()).or_default();
        *stopped |= stops;
        emit.event(session, event);
        Ok(())
    }

    fn finish(&mut self, emit: &mut Emit) {
        for (session, stopped) in std::mem::take(&mut self.stopped) {
            if !stopped {
                emit.warn(format!(
                    "session `{session}` has no `stop` or `execution_end` event"
                ));
            }
        }
    }
}
