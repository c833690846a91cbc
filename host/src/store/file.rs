//! The file store: one JSON file per session in the state folder's `sessions/`, read and
//! written under the folder's lock.
//!
//! Invariant: a session file is only read and written by a holder of the folder's lock, and
//! written whole to the folder's spare file, which then takes its place in one atomic step,
//! so concurrent hook processes never lose an update and a reader never sees half a file.
//! One lock for the folder, not one per session: the critical section is a few microseconds
//! of evaluation, and a lock file that is never deleted lets `--prune-older-than` remove
//! session files safely under the same lock, a few at a time, when no call holds it.
//! Every file is opened as `private.rs` allows: the user's own, no link, no fifo, and a
//! session's state is at most [`MAX_SESSION_BYTES`].

use std::fs;
use std::io::{self, ErrorKind};
use std::path::PathBuf;
use std::time::Duration;

use super::Store;
use crate::digest::digest;
use crate::durable::{make_spare, replace_through_spare};
use crate::private::{self, MAX_SESSION_BYTES};
use crate::session::SessionState;
use crate::state::{prune_folder, with_path, StateDir};

/// The longest session id kept readable in a file name
const MAX_READABLE_ID: usize = 96;

/// The file of `sessions/` that a session's new state is written to before it takes the
/// session file's place (`durable::replace_through_spare`); no session file is named so
const SPARE: &str = ".spare";

/// Sessions' state in files of the state folder
#[derive(Debug)]
pub(crate) struct FileStore {
    dir: StateDir,
    /// Whether a write that consumes the spare makes the next one (`ahead_of_tool_calls`)
    remake_spare: bool,
}

impl FileStore {
    /// The file store of the state folder `dir`
    pub(crate) fn new(dir: StateDir) -> FileStore {
        FileStore {
            dir,
            remake_spare: false,
        }
    }

    fn session_path(&self, session_id: &str) -> PathBuf {
        self.dir.sessions().join(session_file_name(session_id))
    }

    /// Loads `session_id`'s state; a new session starts at `now_ms`
    fn load(&self, session_id: &str, now_ms: u64) -> io::Result<SessionState> {
        let path = self.session_path(session_id);
        match private::read(&path, MAX_SESSION_BYTES)? {
            Some(bytes) => {
                let place = format!("`{}`", path.display());
                SessionState::decode(&bytes, session_id, &place, &self.reset_flags())
            }
            None => Ok(SessionState::new(now_ms)),
        }
    }
}

impl Store for FileStore {
    fn update(
        &mut self,
        session_id: &str,
        now_ms: u64,
        change: &mut dyn FnMut(&mut SessionState, u64),
    ) -> io::Result<()> {
        let _lock = self.dir.lock()?;
        let loaded = self.load(session_id, now_ms)?;
        match super::changed(&loaded, now_ms, change) {
            Some(session) => {
                let path = self.session_path(session_id);
                let bytes = session.encode()?;
                if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > MAX_SESSION_BYTES {
                    // Written, it could not be read back.
                    return Err(io::Error::other(format!(
                        "the state of session `{session_id}` would be larger than \
                         {MAX_SESSION_BYTES} bytes; run `rulesc hook reset --session \
                         {session_id}{}` to start the session afresh",
                        self.reset_flags()
                    )));
                }
                let spare = self.dir.sessions().join(SPARE);
                let kept = replace_through_spare(&path, &spare, &bytes)
                    .map_err(|err| with_path(err, &path))?;
                if !kept && self.remake_spare {
                    // Best effort: a later write makes it if this cannot.
                    let _ = make_spare(&spare);
                }
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// A new session's first write takes the spare, and making a file can cost as much as
    /// the rest of a hook call (a millisecond on one machine's ext4, where writing one that
    /// exists takes microseconds): a call that gates no tool call makes the next spare, so
    /// the session's tool calls find one. Hosts start a session with such calls
    /// (`SessionStart`, a prompt).
    fn ahead_of_tool_calls(&mut self) {
        self.remake_spare = true;
    }

    fn reset(&mut self, session_id: &str) -> io::Result<bool> {
        let _lock = self.dir.lock()?;
        let path = self.session_path(session_id);
        match fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(err) if err.kind() == ErrorKind::NotFound => Ok(false),
            Err(err) => Err(with_path(err, &path)),
        }
    }

    fn prune(&mut self, age: Duration) -> io::Result<usize> {
        prune_folder(&self.dir.sessions(), age, Some(&self.dir))
    }

    fn reset_flags(&self) -> String {
        format!(
            " --state-dir {}",
            shell_word(&self.dir.root().display().to_string())
        )
    }
}

/// `text` as one word of a shell command line: as it is when it holds only characters no
/// shell reads specially, else in single quotes
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'/' | b'.' | b'_' | b'-'));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_named_in_messages_as_one_shell_word() {
        assert_eq!(
            shell_word("/home/a/.local/state/rulesc"),
            "/home/a/.local/state/rulesc"
        );
        assert_eq!(shell_word("/tmp/my state"), "'/tmp/my state'");
        assert_eq!(shell_word("/tmp/it's"), "'/tmp/it'\\''s'");
        assert_eq!(shell_word("~x"), "'~x'");
    }

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
    fn a_session_file_is_named_after_its_session_and_names_itself_in_errors() {
        let root = tempfile::tempdir().unwrap();
        let mut store = FileStore::new(StateDir::open(root.path()).unwrap());
        store
            .update("s1", 7, &mut |state, _| state.run_of("p", 0).errors = 3)
            .unwrap();
        let file = root.path().join("sessions/s-s1.json");
        let written: SessionState = serde_json::from_slice(&fs::read(&file).unwrap()).unwrap();
        assert_eq!(written.runs["p"].errors, 3);
        fs::write(&file, "{").unwrap();
        let err = store
            .update("s1", 9, &mut |_, _| {})
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(&format!(
                "the state of session `s1` in `{}` cannot be read",
                file.display()
            )),
            "{err}"
        );
    }

    #[test]
    fn a_call_ahead_of_tool_calls_makes_the_spare_its_first_write_took() {
        for ahead in [false, true] {
            let root = tempfile::tempdir().unwrap();
            let spare = root.path().join("sessions").join(SPARE);
            let mut store = FileStore::new(StateDir::open(root.path()).unwrap());
            // Another session's write leaves a spare; a new session's first write takes it.
            for session in ["earlier", "new"] {
                store
                    .update(session, 7, &mut |state, _| state.run_of("p", 0).errors = 1)
                    .unwrap();
                store
                    .update(session, 8, &mut |state, _| state.run_of("p", 0).errors = 2)
                    .unwrap();
            }
            assert!(spare.exists());
            let mut store = FileStore::new(StateDir::open(root.path()).unwrap());
            if ahead {
                store.ahead_of_tool_calls();
            }
            store
                .update("third", 9, &mut |state, _| state.run_of("p", 0).errors = 1)
                .unwrap();
            assert_eq!(spare.exists(), ahead, "ahead of tool calls: {ahead}");
            assert!(root.path().join("sessions/s-third.json").exists());
        }
    }
}
