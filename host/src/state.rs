//! What `rulesc hook` remembers of a session between calls, how it is written in a store,
//! and the state folder.
//!
//! Layout of the state folder (`--state-dir`):
//!
//! ```text
//! lock                      taken exclusively around every read-modify-write
//! sessions/s-<id>.json      one SessionState per session id, with the file store (store/file.rs)
//! policies/<digest>.bin     compiled policies (see cache.rs)
//! ```
//!
//! Every store keeps a session's state as the JSON of [`SessionState`], which names its
//! `version`. Stored state that is not valid state (truncated, edited, of another version)
//! is an error, as failures of the store are: the caller fails closed on it, and nothing is
//! reset behind the user's back; `rulesc hook reset --session ID` removes it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rulesc_runtime::{StopReason, TraceState};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::durable::Durability;

/// The `version` of session files this rulesc writes and reads (2: a forbid latches; 3: the
/// run's trace)
const STATE_VERSION: u64 = 3;

/// What persists of one session between hook calls
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SessionState {
    /// The file format's version
    pub(crate) version: u64,
    /// When the session was first seen, in milliseconds since the Unix epoch
    pub(crate) started_ms: u64,
    /// Turns completed: each `Stop` ends one
    pub(crate) steps: u64,
    /// Failed or blocked tool calls in this session
    pub(crate) errors: u64,
    /// Failed or blocked tool calls since the last one that succeeded
    pub(crate) failures: u64,
    /// Stops prevented in a row in the main agent's current chain
    pub(crate) stop_requests: u64,
    /// Stops prevented in a row in the current sub-agent's chain
    pub(crate) subagent_stop_requests: u64,
    /// Why the session last stopped: a `forbid`'s reason, or `completed` when a turn ended;
    /// cleared when a new turn begins
    pub(crate) stop_reason: Option<StopReason>,
    /// Values set by `set` effects
    pub(crate) metadata: Map<String, Json>,
    /// Why a `forbid` stopped the session, once one did: every later tool call is denied
    /// and every later prompt refused with it, until `rulesc hook reset` clears it
    #[serde(default)]
    pub(crate) forbidden: Option<String>,
    /// What the policy's trace terms remember of the session (docs/trace.md)
    #[serde(default)]
    pub(crate) trace: TraceState,
}

impl SessionState {
    /// The state of a session first seen at `now_ms`
    pub(crate) fn new(now_ms: u64) -> SessionState {
        SessionState {
            version: STATE_VERSION,
            started_ms: now_ms,
            steps: 0,
            errors: 0,
            failures: 0,
            stop_requests: 0,
            subagent_stop_requests: 0,
            stop_reason: None,
            metadata: Map::new(),
            forbidden: None,
            trace: TraceState::default(),
        }
    }

    /// Reads a session's stored state, `bytes`, found at `place` (for the error)
    ///
    /// State that is not this version's is an error naming the session, the place and the
    /// problem, and how to start afresh (`reset_flags`: what `rulesc hook reset` needs to
    /// find this store, after `--session ID`).
    pub(crate) fn decode(
        bytes: &[u8],
        session_id: &str,
        place: &str,
        reset_flags: &str,
    ) -> io::Result<SessionState> {
        let problem = match serde_json::from_slice::<SessionState>(bytes) {
            Ok(state) if state.version == STATE_VERSION => return Ok(state),
            Ok(state) => format!(
                "it is of version {}, this rulesc reads version {STATE_VERSION}",
                state.version
            ),
            Err(err) => format!("it is damaged ({err})"),
        };
        Err(io::Error::new(
            ErrorKind::InvalidData,
            format!(
                "the state of session `{session_id}` in {place} cannot be read: {problem}; \
                 run `rulesc hook reset --session {session_id}{reset_flags}` to start the \
                 session afresh"
            ),
        ))
    }

    /// The stored form of this state, which [`SessionState::decode`] reads
    pub(crate) fn encode(&self) -> io::Result<Vec<u8>> {
        serde_json::to_vec(self).map_err(io::Error::other)
    }
}

/// The state folder, created and checked
#[derive(Debug)]
pub(crate) struct StateDir {
    root: PathBuf,
}

impl StateDir {
    /// Opens (creating if needed) the state folder at `root`
    ///
    /// On Unix the folders are created private (`0700`), and a folder that every user may
    /// write to is refused: whoever can write there could plant the compiled policy this
    /// guard runs. A group-writable folder is accepted: with per-user groups (the default
    /// on many Linux systems) `mkdir` makes one, and sharing with a group is a choice.
    pub(crate) fn open(root: &Path) -> io::Result<StateDir> {
        let dir = StateDir {
            root: root.to_path_buf(),
        };
        for path in [dir.root.clone(), dir.sessions(), dir.policies()] {
            create_private_dir(&path)?;
        }
        check_not_shared(&dir.root)?;
        Ok(dir)
    }

    /// The folder of compiled policies
    pub(crate) fn policies(&self) -> PathBuf {
        self.root.join("policies")
    }

    /// The folder of session files (the file store's)
    pub(crate) fn sessions(&self) -> PathBuf {
        self.root.join("sessions")
    }

    /// Takes the folder's lock, waiting for other hook processes to release it
    pub(crate) fn lock(&self) -> io::Result<FolderLock> {
        let path = self.root.join("lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|err| with_path(err, &path))?;
        file.lock().map_err(|err| with_path(err, &path))?;
        Ok(FolderLock { _file: file })
    }
}

/// The state folder's lock, held until dropped
#[derive(Debug)]
pub(crate) struct FolderLock {
    _file: File,
}

/// Removes the files of `folder` not written for longer than `age`; how many it removed
pub(crate) fn prune_folder(folder: &Path, age: Duration) -> io::Result<usize> {
    let now = SystemTime::now();
    let mut removed = 0;
    let entries = fs::read_dir(folder).map_err(|err| with_path(err, folder))?;
    for entry in entries {
        let entry = entry?;
        let modified = entry.metadata()?.modified()?;
        let is_old = now
            .duration_since(modified)
            .is_ok_and(|elapsed| elapsed > age);
        if is_old {
            let path = entry.path();
            match fs::remove_file(&path) {
                Ok(()) => removed += 1,
                // Another process pruned it first.
                Err(err) if err.kind() == ErrorKind::NotFound => {}
                Err(err) => return Err(with_path(err, &path)),
            }
        }
    }
    Ok(removed)
}

/// Replaces the file at `path` with `bytes`, atomically (not flushed to the disk: see
/// [`Durability::Atomic`]), naming the path in any error
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    crate::durable::replace_file(path, bytes, Durability::Atomic)
        .map_err(|err| with_path(err, path))
}

/// An I/O error that names the path it happened on
pub(crate) fn with_path(err: io::Error, path: &Path) -> io::Error {
    io::Error::new(err.kind(), format!("`{}`: {err}", path.display()))
}

#[cfg(unix)]
fn create_private_dir(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(path)
        .map_err(|err| with_path(err, path))
}

#[cfg(not(unix))]
fn create_private_dir(path: &Path) -> io::Result<()> {
    fs::create_dir_all(path).map_err(|err| with_path(err, path))
}

#[cfg(unix)]
fn check_not_shared(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = fs::metadata(path)
        .map_err(|err| with_path(err, path))?
        .permissions()
        .mode();
    if mode & 0o002 != 0 {
        return Err(io::Error::new(
            ErrorKind::PermissionDenied,
            format!(
                "`{}` may be written by every user (mode {:o}); pass a private `--state-dir`",
                path.display(),
                mode & 0o777
            ),
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_not_shared(_path: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips_and_damaged_or_foreign_state_is_an_error() {
        let mut state = SessionState::new(7);
        state.errors = 3;
        state
            .metadata
            .insert("tainted".to_owned(), Json::Bool(true));
        let bytes = state.encode().unwrap();
        assert_eq!(
            SessionState::decode(&bytes, "s1", "`here`", "").unwrap(),
            state
        );
        let mut foreign: Json = serde_json::from_slice(&bytes).unwrap();
        foreign["version"] = Json::from(99);
        let of_another_version = (
            &foreign.to_string(),
            &format!("it is of version 99, this rulesc reads version {STATE_VERSION}"),
        );
        for (damaged, problem) in [
            (&"{\"steps\": ".to_owned(), &"it is damaged".to_owned()),
            (&"\u{0}".to_owned(), &"it is damaged".to_owned()),
            (&"{\"version\": 1}".to_owned(), &"it is damaged".to_owned()),
            of_another_version,
        ] {
            let err = SessionState::decode(damaged.as_bytes(), "s1", "`here`", " --state x")
                .unwrap_err()
                .to_string();
            assert!(
                err.starts_with("the state of session `s1` in `here` cannot be read: "),
                "{err}"
            );
            assert!(err.contains(problem), "{damaged}: {err}");
            assert!(
                err.ends_with(
                    "run `rulesc hook reset --session s1 --state x` to start the session afresh"
                ),
                "{err}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_every_user_can_write_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        fs::set_permissions(root.path(), fs::Permissions::from_mode(0o777)).unwrap();
        let err = StateDir::open(root.path()).unwrap_err();
        assert!(
            err.to_string().contains("may be written by every user"),
            "{err}"
        );
        fs::set_permissions(root.path(), fs::Permissions::from_mode(0o770)).unwrap();
        assert!(StateDir::open(root.path()).is_ok(), "a group may share it");
    }
}
