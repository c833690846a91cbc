//! Crash-safe runs: the agent loop hands its state to a [`Checkpointer`] at every step
//! boundary, and [`AgentLoop::resume`](crate::AgentLoop::resume) goes on from a saved state.
//!
//! The loop saves its [`ExecutionState`] whenever it is about to start a step (so after
//! `execution_start`, after every step the run goes on from, and after every stop a stop
//! hook prevented) and once more when the run has ended, after `execution_end`.
//!
//! Invariant: a checkpoint is taken between steps, where the data of the event in flight is
//! empty, so the state alone is everything the loop needs to go on. Resuming it under the
//! same policy, with drivers that answer as they did, gives exactly the run that was never
//! interrupted: same events, same decisions, same end. A step that a crash cut short is run
//! again from its start, so its model and tool calls are made again (at least once, not
//! exactly once); a tool with side effects can tell a repeated call by its id. `elapsed`
//! goes on from its value at the checkpoint: the time the run was down does not count.
//!
//! The state travels in a versioned JSON envelope, `{"format": "rulesc-checkpoint",
//! "version": 1, "state": {...}}`; the runtime does no IO, so files are the host's (the
//! `rulesc` crate has a file checkpointer that writes atomically).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::format::Header;
use crate::state::ExecutionState;

/// The `format` key of checkpoints
pub const CHECKPOINT_FORMAT: &str = "rulesc-checkpoint";
/// The checkpoint `version` this runtime writes and reads
pub const CHECKPOINT_VERSION: u64 = 1;

/// Where the loop saves its state at every step boundary
///
/// A closure `FnMut(&ExecutionState) -> Result<(), CheckpointError>` is a checkpointer.
pub trait Checkpointer {
    /// Saves `state` so that the run can be resumed from it
    ///
    /// # Errors
    ///
    /// A [`CheckpointError`] when the state could not be saved: the loop stops there and
    /// returns the state it has (see [`Interrupted`]), rather than go on with work that a
    /// crash would lose.
    fn save(&mut self, state: &ExecutionState) -> Result<(), CheckpointError>;
}

impl<F> Checkpointer for F
where
    F: FnMut(&ExecutionState) -> Result<(), CheckpointError>,
{
    fn save(&mut self, state: &ExecutionState) -> Result<(), CheckpointError> {
        self(state)
    }
}

/// Why a checkpoint could not be saved or read
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointError {
    /// What went wrong, one lowercase line
    pub message: String,
}

impl CheckpointError {
    /// An error saying `message`
    pub fn new(message: impl Into<String>) -> CheckpointError {
        CheckpointError {
            message: message.into(),
        }
    }
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CheckpointError {}

/// A run stopped at a step boundary because its state could not be saved
///
/// `state` is the run as far as it went, never ended; it can be saved by other means and
/// given to [`AgentLoop::resume`](crate::AgentLoop::resume).
#[derive(Debug, Clone, PartialEq)]
pub struct Interrupted {
    /// The state the checkpointer refused
    pub state: Box<ExecutionState>,
    /// Why it refused
    pub error: CheckpointError,
}

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the run was interrupted after step {}: the checkpoint could not be saved: {}",
            self.state.step(),
            self.error
        )
    }
}

impl std::error::Error for Interrupted {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// The envelope as written
#[derive(Serialize)]
struct Written<'a> {
    format: &'static str,
    version: u64,
    state: &'a ExecutionState,
}

/// The envelope once known to be ours
#[derive(Deserialize)]
struct Read {
    state: ExecutionState,
}

/// The deepest nesting serde_json reads back: its recursion limit (128) counts the
/// outermost level too
const MAX_READABLE_DEPTH: usize = 127;

impl ExecutionState {
    /// The checkpoint JSON of this state
    ///
    /// # Errors
    ///
    /// A [`CheckpointError`] when the JSON would nest deeper than it can be read back
    /// (metadata, or a tool call's arguments, nested over a hundred levels): a checkpoint
    /// that cannot be resumed is refused when it is written, not found out after a crash.
    pub fn to_checkpoint_json(&self) -> Result<String, CheckpointError> {
        let written = Written {
            format: CHECKPOINT_FORMAT,
            version: CHECKPOINT_VERSION,
            state: self,
        };
        let json = serde_json::to_string(&written)
            .map_err(|err| CheckpointError::new(format!("the state cannot be written: {err}")))?;
        let depth = nesting_depth(&json);
        if depth > MAX_READABLE_DEPTH {
            return Err(CheckpointError::new(format!(
                "the state nests {depth} levels deep, more than a checkpoint can be read back with \
                 ({MAX_READABLE_DEPTH}); metadata or a tool call's arguments are nested too deep"
            )));
        }
        Ok(json)
    }

    /// Reads a state written by [`ExecutionState::to_checkpoint_json`]
    ///
    /// # Errors
    ///
    /// A [`CheckpointError`] when the text is not a checkpoint of this version. serde_json's
    /// recursion limit stays on, so hostile nesting is an error, not a stack overflow.
    pub fn from_checkpoint_json(text: &str) -> Result<ExecutionState, CheckpointError> {
        let invalid =
            |err: serde_json::Error| CheckpointError::new(format!("invalid checkpoint: {err}"));
        let header: Header = serde_json::from_str(text).map_err(invalid)?;
        if header.format.as_deref() != Some(CHECKPOINT_FORMAT) {
            return Err(CheckpointError::new(format!(
                "not a checkpoint: `format` is not `{CHECKPOINT_FORMAT}`"
            )));
        }
        if header.version != Some(CHECKPOINT_VERSION) {
            return Err(CheckpointError::new(format!(
                "checkpoint version {} is not supported (this rulesc reads version {CHECKPOINT_VERSION})",
                header
                    .version
                    .map_or_else(|| "(missing)".to_owned(), |version| version.to_string())
            )));
        }
        let read: Read = serde_json::from_str(text).map_err(invalid)?;
        Ok(read.state)
    }
}

/// How deep the arrays and objects of `json` (valid JSON) nest
fn nesting_depth(json: &str) -> usize {
    let (mut depth, mut deepest) = (0_usize, 0_usize);
    let (mut in_string, mut escaped) = (false, false);
    for byte in json.bytes() {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') | (false, _, b'"') => in_string = !in_string,
            (false, _, b'[' | b'{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, _, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_counted_outside_strings() {
        assert_eq!(nesting_depth("1"), 0);
        assert_eq!(
            nesting_depth(r#"{"a": [1, {"b": "[[[{"}], "c": "\\\"]"}"#),
            3
        );
    }

    #[test]
    fn the_readable_depth_is_serde_json_s() {
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let read = |depth: usize| serde_json::from_str::<serde_json::Value>(&nested(depth));
        assert!(read(MAX_READABLE_DEPTH).is_ok());
        assert!(read(MAX_READABLE_DEPTH + 1).is_err());
        assert_eq!(
            nesting_depth(&nested(MAX_READABLE_DEPTH)),
            MAX_READABLE_DEPTH
        );
    }
}
