//! The state folder of `rulesc hook`: where session files (with the file store) and
//! compiled policies live.
//!
//! Layout of the state folder (`--state-dir`):
//!
//! ```text
//! lock                      taken exclusively around every read-modify-write
//! sessions/s-<id>.json      one session's state (session.rs), with the file store (store/file.rs)
//! policies/<digest>.bin     compiled policies (see cache.rs)
//! ```

use std::fs::{self, File, TryLockError};
use std::io::{self, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

#[cfg(doc)]
use crate::durable::Durability;
pub(crate) use crate::private::with_path;
use crate::private::{self, Access};
use crate::waiting;

/// The state folder, created and checked
#[derive(Debug)]
pub(crate) struct StateDir {
    root: PathBuf,
}

impl StateDir {
    /// Opens (creating if needed) the state folder at `root`
    ///
    /// The folder, `sessions/` and `policies/` are made private (`0700` on Unix), and each
    /// must be a folder (not a link to one) of the user's own that neither its group nor
    /// every user may write (`private.rs`): whoever can write there could plant the
    /// compiled policy this guard runs, or a session's state.
    pub(crate) fn open(root: &Path) -> io::Result<StateDir> {
        let dir = StateDir {
            root: root.to_path_buf(),
        };
        private::folder(&dir.root, true)?;
        private::folder(&dir.sessions(), false)?;
        private::folder(&dir.policies(), false)?;
        Ok(dir)
    }

    /// The folder itself
    pub(crate) fn root(&self) -> &Path {
        &self.root
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
    ///
    /// While it waits, the wait is what the call is waiting on (`waiting.rs`): a call that
    /// runs out of time says so.
    pub(crate) fn lock(&self) -> io::Result<FolderLock> {
        let (file, path) = self.lock_file()?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let _waiting = waiting::on(format!(
                    "the state folder's lock `{}` is held by another process",
                    path.display()
                ));
                file.lock().map_err(|err| with_path(err, &path))?;
            }
            Err(TryLockError::Error(err)) => return Err(with_path(err, &path)),
        }
        Ok(FolderLock { _file: file })
    }

    /// Takes the folder's lock if no other process holds it; `Ok(None)` when one does
    pub(crate) fn try_lock(&self) -> io::Result<Option<FolderLock>> {
        let (file, path) = self.lock_file()?;
        match file.try_lock() {
            Ok(()) => Ok(Some(FolderLock { _file: file })),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(err)) => Err(with_path(err, &path)),
        }
    }

    /// The lock file, opened (made when missing) and checked
    fn lock_file(&self) -> io::Result<(File, PathBuf)> {
        let path = self.root.join("lock");
        match private::open(&path, Access::Lock)? {
            Some((file, _)) => Ok((file, path)),
            None => Err(io::Error::new(
                ErrorKind::NotFound,
                format!("`{}` could not be made", path.display()),
            )),
        }
    }
}

/// The state folder's lock, held until dropped
#[derive(Debug)]
pub(crate) struct FolderLock {
    _file: File,
}

/// The file of a pruned folder that says where the next call's pruning starts
const PRUNE_CURSOR: &str = ".prune-from";

/// How many entries of a folder one call looks at for pruning
const PRUNE_EXAMINED: usize = 1024;

/// How many files are removed under one taking of the folder's lock
const PRUNE_BATCH: usize = 64;

/// Removes files of `folder` not written for longer than `age`; how many it removed
///
/// One call looks at no more than [`PRUNE_EXAMINED`] entries, from where the last call
/// stopped (counted in the folder's listing order, kept in [`PRUNE_CURSOR`]), so calls
/// over a folder of any size each cost about the same, and together go round the folder.
/// With `lock` (the session files' folder), the stale files are removed under the state
/// folder's lock, [`PRUNE_BATCH`] at a time, and only when no other process holds it: a
/// hook call never waits for pruning. A file is removed only when, checked again right
/// before, it is still a file not written for longer than `age`, so a session written
/// meanwhile stays.
pub(crate) fn prune_folder(
    folder: &Path,
    age: Duration,
    lock: Option<&StateDir>,
) -> io::Result<usize> {
    let cursor = folder.join(PRUNE_CURSOR);
    let start = private::read(&cursor, 32)?
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .and_then(|text| text.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let now = SystemTime::now();
    let mut stale = Vec::new();
    let (mut position, mut examined, mut ended) = (0, 0, true);
    for entry in fs::read_dir(folder).map_err(|err| with_path(err, folder))? {
        let entry = entry.map_err(|err| with_path(err, folder))?;
        if entry.file_name() == PRUNE_CURSOR {
            continue;
        }
        position += 1;
        if position <= start {
            continue;
        }
        if examined == PRUNE_EXAMINED {
            ended = false;
            break;
        }
        examined += 1;
        // Not following links: a link is no file of the state folder's, and is left alone.
        if let Ok(metadata) = entry.metadata() {
            if is_stale(&metadata, now, age) {
                stale.push(entry.path());
            }
        }
    }
    let mut removed = 0;
    for batch in stale.chunks(PRUNE_BATCH) {
        let _held = match lock {
            Some(dir) => match dir.try_lock()? {
                Some(held) => Some(held),
                // Another call is answering: this batch waits for a later pruning.
                None => continue,
            },
            None => None,
        };
        for path in batch {
            let still_stale = fs::symlink_metadata(path)
                .is_ok_and(|metadata| is_stale(&metadata, SystemTime::now(), age));
            if !still_stale {
                continue;
            }
            match fs::remove_file(path) {
                Ok(()) => removed += 1,
                // Another process pruned it first.
                Err(err) if err.kind() == ErrorKind::NotFound => {}
                Err(err) => return Err(with_path(err, path)),
            }
        }
    }
    let next = if ended {
        0
    } else {
        (start + examined).saturating_sub(removed)
    };
    write_cursor(&cursor, next)?;
    Ok(removed)
}

/// Whether `metadata` is of a file last written more than `age` before `now`
fn is_stale(metadata: &fs::Metadata, now: SystemTime, age: Duration) -> bool {
    metadata.is_file()
        && metadata.modified().is_ok_and(|modified| {
            now.duration_since(modified)
                .is_ok_and(|elapsed| elapsed > age)
        })
}

/// Records where the next pruning of a folder starts
///
/// Pruning calls racing each other may each write it: the last wins, and at worst a part
/// of the folder is looked at once more, or once later.
fn write_cursor(path: &Path, next: usize) -> io::Result<()> {
    let mut file = match private::open(path, Access::Write)? {
        Some((file, _)) => file,
        None => match private::create(path) {
            Err(err) if err.kind() == ErrorKind::AlreadyExists => return Ok(()),
            created => created?,
        },
    };
    let text = next.to_string();
    file.write_all(text.as_bytes())
        .and_then(|()| file.set_len(u64::try_from(text.len()).unwrap_or(0)))
        .map_err(|err| with_path(err, path))
}

/// Replaces the file at `path` with `bytes`, atomically (not flushed to the disk: see
/// [`Durability::Atomic`]), as a private file, naming the path in any error
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    crate::durable::replace_private(path, bytes).map_err(|err| with_path(err, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_folder_its_group_or_every_user_can_write_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        for (mode, said) in [(0o777, "every user"), (0o770, "its group")] {
            fs::set_permissions(root.path(), fs::Permissions::from_mode(mode)).unwrap();
            let err = StateDir::open(root.path()).unwrap_err();
            assert!(
                err.to_string()
                    .contains(&format!("may be written by {said}")),
                "{err}"
            );
        }
        fs::set_permissions(root.path(), fs::Permissions::from_mode(0o750)).unwrap();
        assert!(StateDir::open(root.path()).is_ok(), "a group may read it");
    }

    #[test]
    fn pruning_goes_round_a_large_folder_a_bounded_part_per_call() {
        let root = tempfile::tempdir().unwrap();
        let dir = StateDir::open(root.path()).unwrap();
        let old = SystemTime::now() - Duration::from_secs(7200);
        let n = PRUNE_EXAMINED * 2 + 10;
        for i in 0..n {
            let path = dir.sessions().join(format!("s-{i}.json"));
            let file = File::create(&path).unwrap();
            // Every third session was written a moment ago.
            if i % 3 != 0 {
                file.set_modified(old).unwrap();
            }
        }
        let hour = Duration::from_secs(3600);
        let mut removed = 0;
        for _ in 0..4 {
            let now = prune_folder(&dir.sessions(), hour, Some(&dir)).unwrap();
            assert!(now <= PRUNE_EXAMINED, "{now}");
            removed += now;
        }
        assert_eq!(removed, n - n.div_ceil(3));
        let left = fs::read_dir(dir.sessions()).unwrap().count();
        assert_eq!(left, n.div_ceil(3) + 1, "the fresh sessions and the cursor");
    }

    #[test]
    fn pruning_waits_for_no_lock() {
        let root = tempfile::tempdir().unwrap();
        let dir = StateDir::open(root.path()).unwrap();
        let path = dir.sessions().join("s-old.json");
        File::create(&path)
            .unwrap()
            .set_modified(SystemTime::now() - Duration::from_secs(7200))
            .unwrap();
        let held = dir.lock().unwrap();
        let hour = Duration::from_secs(3600);
        assert_eq!(prune_folder(&dir.sessions(), hour, Some(&dir)).unwrap(), 0);
        assert!(path.exists());
        drop(held);
        assert_eq!(prune_folder(&dir.sessions(), hour, Some(&dir)).unwrap(), 1);
    }
}
