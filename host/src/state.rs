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

use std::fs::{self, File, OpenOptions};
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::durable::Durability;

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
