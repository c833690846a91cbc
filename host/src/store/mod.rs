//! Where `rulesc hook` keeps the state of sessions between its processes: one trait, a
//! store per backend.
//!
//! Invariant: [`Store::update`] is one atomic transaction on one session's state: load,
//! change, save. Hook processes of one session run in parallel (hosts run hooks so) and on
//! several machines when they share a Redis server, and no update of one is lost to
//! another's. A store that fails, or holds state it cannot read, is an error: the caller
//! fails closed, and no store resets a session unless asked to.

mod file;
#[cfg(feature = "redis")]
mod redis;

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::session::SessionState;
use crate::state::StateDir;

/// A place that keeps sessions' state
pub(crate) trait Store {
    /// Loads `session_id`'s state, lets `change` change it at the store's time, and saves it
    /// if it changed, as one atomic transaction; a new session starts at that time
    ///
    /// The store's time is `now_ms`, this machine's clock, for a store on this machine, and
    /// the server's clock for one that machines share, so machines whose clocks disagree
    /// keep one session's clock alike.
    ///
    /// `change` may run more than once (a store that detects a conflicting write runs the
    /// transaction again on the new state); only its last run is saved.
    fn update(
        &mut self,
        session_id: &str,
        now_ms: u64,
        change: &mut dyn FnMut(&mut SessionState, u64),
    ) -> io::Result<()>;

    /// Says that this call gates no tool call (a session's start, a prompt, a stop), so its
    /// update may also do what would otherwise slow a later call, which may; nothing for
    /// most stores
    fn ahead_of_tool_calls(&mut self) {}

    /// Removes `session_id`'s state, if there is one; `Ok(false)` when there was none
    fn reset(&mut self, session_id: &str) -> io::Result<bool>;

    /// Removes the state of sessions not written for longer than `age`; how many it removed
    fn prune(&mut self, age: Duration) -> io::Result<usize>;

    /// Accepts that the store lost data, so hook calls go on with what it kept; what was
    /// done, in words. Only a store that can notice a loss has one to acknowledge
    fn acknowledge_loss(&mut self) -> io::Result<String> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "`--lost` acknowledges a loss of data on a redis server (`--state redis://...`); \
             the file store has none to acknowledge",
        ))
    }

    /// What `rulesc hook reset` needs after `--session ID` to find this store, as its
    /// messages say it
    fn reset_flags(&self) -> String {
        String::new()
    }
}

/// `loaded` as `change` leaves it, when that differs: the state a store must save
///
/// Most tool calls change nothing a session remembers; saving only a changed state keeps
/// them at the cost of a read.
fn changed(
    loaded: &SessionState,
    now_ms: u64,
    change: &mut dyn FnMut(&mut SessionState, u64),
) -> Option<SessionState> {
    let mut session = loaded.clone();
    change(&mut session, now_ms);
    (session != *loaded).then_some(session)
}

/// Where sessions' state is kept
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionStore {
    /// Files in the state folder (`--state-dir`), under its lock
    Folder,
    /// A Redis server at this `redis://HOST:PORT/DB` URL (needs the crate feature `redis`)
    Redis(String),
}

/// Where `rulesc hook` keeps its state: the folder of compiled policies (and of session
/// files with the file store) and the store of sessions
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateLocation {
    /// The state folder
    pub dir: PathBuf,
    /// The store of sessions
    pub sessions: SessionStore,
}

impl StateLocation {
    /// Reads the flags `--state` (a folder or a `redis://` URL) and `--state-dir` (a folder)
    ///
    /// `--state DIR` is `--state-dir DIR`; both naming different folders is an error. With
    /// `--state redis://...`, sessions live in Redis and compiled policies in `--state-dir`.
    /// A folder missing from both is `default_dir`, and an error when there is none.
    pub fn from_flags(
        state: Option<&str>,
        state_dir: Option<&Path>,
        default_dir: Option<PathBuf>,
    ) -> Result<StateLocation, String> {
        let folder_or_default = || match (state_dir, default_dir) {
            (Some(dir), _) => Ok(dir.to_path_buf()),
            (None, Some(dir)) => Ok(dir),
            (None, None) => Err(
                "no state folder: neither `XDG_STATE_HOME` nor a home folder \
                                 is known; pass `--state-dir`"
                    .to_owned(),
            ),
        };
        let Some(state) = state else {
            return Ok(StateLocation {
                dir: folder_or_default()?,
                sessions: SessionStore::Folder,
            });
        };
        if let Some((scheme, _)) = state.split_once("://") {
            if scheme != "redis" {
                return Err(format!(
                    "`--state` takes a folder or a `redis://HOST:PORT/DB` url, not a `{scheme}://` url"
                ));
            }
            return Ok(StateLocation {
                dir: folder_or_default()?,
                sessions: SessionStore::Redis(state.to_owned()),
            });
        }
        let folder = Path::new(state);
        match state_dir {
            Some(dir) if dir != folder => Err(format!(
                "`--state {state}` and `--state-dir {}` name different folders; give one",
                dir.display()
            )),
            _ => Ok(StateLocation {
                dir: folder.to_path_buf(),
                sessions: SessionStore::Folder,
            }),
        }
    }
}

/// Opens the store of `sessions`; `dir` is the state folder, `expire_after` how long a
/// session's state outlives its last write in a store that expires it itself
pub(crate) fn open(
    sessions: &SessionStore,
    dir: StateDir,
    expire_after: Option<Duration>,
) -> io::Result<Box<dyn Store>> {
    match sessions {
        SessionStore::Folder => Ok(Box::new(file::FileStore::new(dir))),
        #[cfg(feature = "redis")]
        SessionStore::Redis(url) => Ok(Box::new(redis::RedisStore::open(url, dir, expire_after)?)),
        #[cfg(not(feature = "redis"))]
        SessionStore::Redis(_) => {
            let _ = (dir, expire_after);
            Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "this rulesc was built without the redis store (the crate feature `redis`)",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn location(state: Option<&str>, state_dir: Option<&str>) -> Result<StateLocation, String> {
        StateLocation::from_flags(
            state,
            state_dir.map(Path::new),
            Some(PathBuf::from("/home/u/.local/state/rulesc")),
        )
    }

    fn folder(dir: &str) -> StateLocation {
        StateLocation {
            dir: PathBuf::from(dir),
            sessions: SessionStore::Folder,
        }
    }

    #[test]
    fn the_flags_combine_as_documented() {
        assert_eq!(
            location(None, None),
            Ok(folder("/home/u/.local/state/rulesc"))
        );
        assert_eq!(location(None, Some("d")), Ok(folder("d")));
        assert_eq!(location(Some("d"), None), Ok(folder("d")));
        assert_eq!(location(Some("d"), Some("d")), Ok(folder("d")));
        let redis = |dir: &str| StateLocation {
            dir: PathBuf::from(dir),
            sessions: SessionStore::Redis("redis://h:1/2".to_owned()),
        };
        assert_eq!(
            location(Some("redis://h:1/2"), None),
            Ok(redis("/home/u/.local/state/rulesc"))
        );
        assert_eq!(location(Some("redis://h:1/2"), Some("d")), Ok(redis("d")));
    }

    #[test]
    fn without_a_default_folder_one_must_be_given() {
        let no_default = |state: Option<&str>, state_dir: Option<&str>| {
            StateLocation::from_flags(state, state_dir.map(Path::new), None)
        };
        assert_eq!(no_default(None, Some("d")), Ok(folder("d")));
        assert_eq!(no_default(Some("d"), None), Ok(folder("d")));
        for state in [None, Some("redis://h:1/2")] {
            let err = no_default(state, None).unwrap_err();
            assert!(err.ends_with("pass `--state-dir`"), "{err}");
        }
    }

    #[test]
    fn contradictions_and_unknown_urls_are_refused() {
        assert_eq!(
            location(Some("a"), Some("b")),
            Err("`--state a` and `--state-dir b` name different folders; give one".to_owned())
        );
        assert_eq!(
            location(Some("rediss://h:1/0"), None),
            Err(
                "`--state` takes a folder or a `redis://HOST:PORT/DB` url, not a `rediss://` url"
                    .to_owned()
            )
        );
    }
}
