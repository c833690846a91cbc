//! Recorded sessions read back as what their host sent: a reader per trace format turns
//! each line into hook payloads (or rulesc events) and puts them in an [`Emit`]; the turn
//! structure Claude Code transcripts and Codex rollouts share is `turns.rs`, and the
//! timestamps they carry are read by `time.rs`. The hosts' readers live in their modules of
//! `hosts/`; replay (`replay/`) runs what they made.

mod time;
mod turns;

use rulesc_runtime::Event;
use serde_json::{Map, Value as Json};

pub(crate) use time::parse_rfc3339;
pub(crate) use turns::{ToolCall, Turns};

/// One reader of a trace format: a line in, hook payloads or events out
pub(crate) trait Reader {
    /// Reads one line; the error is a warning's reason
    fn line(&mut self, line: Map<String, Json>, emit: &mut Emit) -> Result<(), String>;

    /// The end of the file: closes what is open
    fn finish(&mut self, emit: &mut Emit);
}

/// Something a reader made of a line
pub(crate) enum Made {
    /// A hook payload, read as the host's
    Hook(Json),
    /// A rulesc event
    Event(Box<Event>),
}

/// Where readers put what they made of a line
pub(crate) struct Emit {
    /// The trace, as named on the command line
    pub(crate) file: String,
    /// The time of the line being read, if it has one
    at_ms: Option<u64>,
    /// What the line made, each with its session and time
    pub(crate) made: Vec<(String, Option<u64>, Made)>,
    /// The reasons the line could not be read whole
    pub(crate) warnings: Vec<String>,
}

impl Emit {
    /// Nothing made yet of the trace `file`
    pub(crate) fn new(file: &str) -> Emit {
        Emit {
            file: file.to_owned(),
            at_ms: None,
            made: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The session of a trace that names none: its file
    pub(crate) fn file_session(&self) -> String {
        self.file.clone()
    }

    pub(crate) fn hook(&mut self, session: String, payload: Json) {
        self.made.push((session, self.at_ms, Made::Hook(payload)));
    }

    pub(crate) fn event(&mut self, session: String, event: Event) {
        self.made
            .push((session, self.at_ms, Made::Event(Box::new(event))));
    }

    pub(crate) fn warn(&mut self, reason: String) {
        self.warnings.push(reason);
    }
}
