//! What `rulesc hook` remembers of a session between calls, and the folder that keeps it.
//!
//! Layout of the state folder (`--state-dir`):
//!
//! ```text
//! lock                      taken exclusively around every read-modify-write
//! sessions/s-<id>.json      one SessionState per session id (h-<digest> for unusual ids)
//! policies/<digest>.json    compiled policies (see cache.rs)
//! ```
//!
//! Invariant: a session file is only read and written by a holder of the folder's lock, and
//! written whole to a temporary file that is then renamed over it, so concurrent hook
//! processes (hosts run hooks in parallel) never lose an update and a reader never sees half
//! a file. One lock for the folder, not one per session: the critical section is a few
//! microseconds of evaluation, and a lock file that is never deleted lets `--prune-older-than`
//! remove session files safely under the same lock.
//!
//! A session file that is not valid state (truncated, edited, of another version) is an
//! error, as I/O failures are: the caller fails closed on it, and nothing is reset behind
//! the user's back; `rulesc hook reset --session ID` removes it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rulesc_runtime::{StopReason, TraceState};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use super::digest::digest;
use crate::durable::Durability;

/// The `version` of session files this rulesc writes and reads (2: a forbid latches; 3: the
/// run's trace)
const STATE_VERSION: u64 = 3;

/// The longest session id kept readable in a file name
const MAX_READABLE_ID: usize = 96;

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

    fn sessions(&self) -> PathBuf {
        self.root.join("sessions")
    }

    /// Takes the folder's lock, waiting for other hook processes to release it
    pub(crate) fn lock(&self) -> io::Result<Locked<'_>> {
        let path = self.root.join("lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|err| with_path(err, &path))?;
        file.lock().map_err(|err| with_path(err, &path))?;
        Ok(Locked {
            dir: self,
            _file: file,
        })
    }
}

/// The state folder while this process holds its lock (released on drop)
#[derive(Debug)]
pub(crate) struct Locked<'dir> {
    dir: &'dir StateDir,
    _file: File,
}

impl Locked<'_> {
    /// Loads `session_id`'s state; a new session starts at `now_ms`
    ///
    /// A file that is not this version's state is an error naming the file and the problem.
    pub(crate) fn load(&self, session_id: &str, now_ms: u64) -> io::Result<SessionState> {
        let path = self.session_path(session_id);
        let text = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == ErrorKind::NotFound => return Ok(SessionState::new(now_ms)),
            Err(err) => return Err(with_path(err, &path)),
        };
        let problem = match serde_json::from_slice::<SessionState>(&text) {
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
                "the state of session `{session_id}` in `{}` cannot be read: {problem}; \
                 run `rulesc hook reset --session {session_id}` to start the session afresh",
                path.display()
            ),
        ))
    }

    /// Removes `session_id`'s state, if there is one: its next call starts afresh
    pub(crate) fn reset(&self, session_id: &str) -> io::Result<bool> {
        let path = self.session_path(session_id);
        match fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(err) if err.kind() == ErrorKind::NotFound => Ok(false),
            Err(err) => Err(with_path(err, &path)),
        }
    }

    /// Stores `session_id`'s state: written whole, then renamed into place
    pub(crate) fn save(&self, session_id: &str, state: &SessionState) -> io::Result<()> {
        let path = self.session_path(session_id);
        let text = serde_json::to_string(state).map_err(io::Error::other)?;
        write_atomically(&path, text.as_bytes())
    }

    /// Removes session files (and cached policies) not written for longer than `age`
    pub(crate) fn prune(&self, age: Duration) -> io::Result<usize> {
        let now = SystemTime::now();
        let mut removed = 0;
        for folder in [self.dir.sessions(), self.dir.policies()] {
            let entries = fs::read_dir(&folder).map_err(|err| with_path(err, &folder))?;
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
        }
        Ok(removed)
    }

    fn session_path(&self, session_id: &str) -> PathBuf {
        self.dir.sessions().join(session_file_name(session_id))
    }
}

/// The file name of a session's state: `s-<id>.json` when the id is a plain, short file name
/// (hosts use UUIDs), else `h-<digest>.json`, so no id can escape the folder
fn session_file_name(session_id: &str) -> String {
    let plain = !session_id.is_empty()
        && session_id.len() <= MAX_READABLE_ID
        && !session_id.starts_with('.')
        && session_id
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.'));
    if plain {
        format!("s-{session_id}.json")
    } else {
        format!("h-{}.json", digest([session_id.as_bytes()]))
    }
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
    fn unusual_session_ids_cannot_escape_the_folder() {
        assert_eq!(session_file_name("3f2a-11"), "s-3f2a-11.json");
        for id in ["../../etc/passwd", "", ".hidden", "a/b", &"x".repeat(200)] {
            let name = session_file_name(id);
            assert!(
                name.starts_with("h-") && !name.contains('/'),
                "{id}: {name}"
            );
        }
    }

    #[test]
    fn state_round_trips_and_damaged_state_is_an_error_until_reset() {
        let root = tempfile::tempdir().unwrap();
        let dir = StateDir::open(root.path()).unwrap();
        let locked = dir.lock().unwrap();
        let mut state = locked.load("s1", 7).unwrap();
        assert_eq!(state, SessionState::new(7));
        state.errors = 3;
        state
            .metadata
            .insert("tainted".to_owned(), Json::Bool(true));
        locked.save("s1", &state).unwrap();
        assert_eq!(locked.load("s1", 99).unwrap(), state);

        let file = root.path().join("sessions/s-s1.json");
        for damaged in ["{\"steps\": ", "{\"version\": 1}", "\u{0}"] {
            fs::write(&file, damaged).unwrap();
            let err = locked.load("s1", 99).unwrap_err().to_string();
            assert!(err.contains("cannot be read"), "{damaged}: {err}");
            assert!(err.contains("rulesc hook reset --session s1"), "{err}");
        }
        assert!(locked.reset("s1").unwrap());
        assert!(!locked.reset("s1").unwrap());
        assert_eq!(locked.load("s1", 99).unwrap(), SessionState::new(99));
    }

    #[test]
    fn prune_removes_only_old_files() {
        let root = tempfile::tempdir().unwrap();
        let dir = StateDir::open(root.path()).unwrap();
        let locked = dir.lock().unwrap();
        locked.save("old", &SessionState::new(0)).unwrap();
        locked.save("new", &SessionState::new(0)).unwrap();
        File::options()
            .write(true)
            .open(root.path().join("sessions/s-old.json"))
            .unwrap()
            .set_modified(SystemTime::now() - Duration::from_secs(7200))
            .unwrap();
        assert_eq!(locked.prune(Duration::from_secs(3600)).unwrap(), 1);
        assert!(!root.path().join("sessions/s-old.json").exists());
        assert!(root.path().join("sessions/s-new.json").exists());
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
