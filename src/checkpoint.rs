//! A [`Checkpointer`] that keeps an agent loop's state in one file, written atomically.
//!
//! ```
//! use rulesc::checkpoint::FileCheckpointer;
//! use rulesc::{Defaults, Limits, Policy, Script, Status};
//!
//! let dir = tempfile::tempdir()?;
//! let mut checkpointer = FileCheckpointer::new(dir.path().join("run.json"));
//! let script = Script::from_json(r#"{"turns": [{"response": "Done."}], "clock_ms_per_step": 10}"#)?;
//! let policy = Policy::new(Vec::new(), Defaults::default())?;
//! let mut agent_loop = script.agent_loop(policy, Limits::default());
//!
//! // A crashed process would start here: go on from the file, if there is one.
//! let state = match checkpointer.load()? {
//!     Some(state) => agent_loop.resume(
//!         state,
//!         &mut script.model(),
//!         &mut script.tools(),
//!         &mut script.approver(),
//!         &mut checkpointer,
//!     )?,
//!     None => agent_loop.execute_checkpointed(
//!         &mut script.model(),
//!         &mut script.tools(),
//!         &mut script.approver(),
//!         &mut checkpointer,
//!     )?,
//! };
//! assert_eq!(state.end().map(|end| end.status), Some(Status::Completed));
//! // The file holds the finished run: resuming it changes nothing.
//! assert_eq!(checkpointer.load()?, Some(state));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Invariant: the file always holds a whole checkpoint, the last one saved. Each save is
//! written to a new temporary file in the same folder, flushed to the disk, then renamed
//! over the checkpoint (an atomic replacement), and the folder is flushed so the rename
//! itself survives a power cut. A crash at any moment leaves the previous checkpoint or the
//! new one, never a mix or a truncated file.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use rulesc_host::durable::Durability;
use rulesc_runtime::{CheckpointError, Checkpointer, ExecutionState};

/// Keeps the checkpoints of one run in the file at `path`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileCheckpointer {
    path: PathBuf,
}

impl FileCheckpointer {
    /// Checkpoints in the file at `path` (its folder must exist)
    pub fn new(path: impl Into<PathBuf>) -> FileCheckpointer {
        FileCheckpointer { path: path.into() }
    }

    /// The checkpoint file
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The state last saved; `None` when no checkpoint was ever saved there
    ///
    /// # Errors
    ///
    /// A [`CheckpointError`] when the file exists but cannot be read, or does not hold a
    /// checkpoint this runtime reads.
    pub fn load(&self) -> Result<Option<ExecutionState>, CheckpointError> {
        let text = match fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(self.error(&err)),
        };
        ExecutionState::from_checkpoint_json(&text)
            .map(Some)
            .map_err(|err| CheckpointError::new(format!("`{}`: {err}", self.path.display())))
    }

    fn error(&self, err: &io::Error) -> CheckpointError {
        CheckpointError::new(format!("`{}`: {err}", self.path.display()))
    }
}

impl Checkpointer for FileCheckpointer {
    fn save(&mut self, state: &ExecutionState) -> Result<(), CheckpointError> {
        let json = state.to_checkpoint_json()?;
        rulesc_host::durable::replace_file(&self.path, json.as_bytes(), Durability::Durable)
            .map_err(|err| self.error(&err))
    }
}
