//! Replacing a file's contents so that a crashed or concurrent writer never leaves a mix or
//! a truncated file, and, where the contents must outlive the machine, so that a power cut
//! does not either.
//!
//! Invariant: the file at `path` always holds either its previous contents or the new ones.
//! The new contents go to a temporary file of a name unique to this process and write, in
//! the same folder, which is renamed over `path` (atomic on one file system). A
//! [`Durability::Durable`] write also flushes the file to the disk before the rename, and
//! the folder after it, so the rename itself is durable; that costs about a millisecond
//! here, which a hook call on every tool call cannot afford for state that is worthless
//! once the machine is gone.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::private::{self, Access};

/// Makes temporary names unique among the threads of this process
static N_WRITES: AtomicU64 = AtomicU64::new(0);

/// What a replaced file must survive
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// A crash of the writer, a concurrent writer and a power cut: checkpoints, which a
    /// run resumes from after the machine restarts
    Durable,
    /// A crash of the writer and a concurrent writer: hook session state and compiled
    /// policies, which a power cut makes moot (a file it damages is refused as unreadable
    /// state, or recompiled)
    Atomic,
}

/// Writes `bytes` to a new temporary file next to `path` and renames it over `path`,
/// flushing the file and the folder to the disk when `durability` asks for it
pub fn replace_file(path: &Path, bytes: &[u8], durability: Durability) -> io::Result<()> {
    // `create`, not `create_new`: a temporary file left by a crashed process whose id this
    // process now has would otherwise block every later write.
    replace(path, bytes, durability, |temporary| File::create(temporary))
}

/// [`replace_file`] for [`Durability::Atomic`] in the state folder: the new file is made
/// private (`0600`), and no link, fifo or file of another user is written through
/// (`private.rs`)
pub(crate) fn replace_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, bytes, Durability::Atomic, |temporary| {
        match private::create(temporary) {
            // Left by a crashed process whose id this process now has.
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {
                fs::remove_file(temporary)?;
                private::create(temporary)
            }
            created => created,
        }
    })
}

/// [`replace_file`], its temporary file made by `create`
fn replace(
    path: &Path,
    bytes: &[u8],
    durability: Durability,
    create: impl FnOnce(&Path) -> io::Result<File>,
) -> io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!(
        ".tmp-{}-{}",
        std::process::id(),
        N_WRITES.fetch_add(1, Ordering::Relaxed)
    ));
    let temporary = PathBuf::from(temporary);
    let written = create(&temporary).and_then(|mut file| {
        file.write_all(bytes)?;
        match durability {
            Durability::Durable => file.sync_all(),
            Durability::Atomic => Ok(()),
        }
    });
    let renamed = written.and_then(|()| match durability {
        Durability::Durable => fs::rename(&temporary, path),
        Durability::Atomic => swap_in(&temporary, path),
    });
    if let Err(err) = renamed {
        // Best effort: the temporary file is ours, and useless now.
        let _ = fs::remove_file(&temporary);
        return Err(err);
    }
    match durability {
        Durability::Durable => sync_folder(path),
        Durability::Atomic => Ok(()),
    }
}

/// Replaces the contents of the file at `path` with `bytes` as [`replace_file`] does for
/// [`Durability::Atomic`], by way of `spare`: a file kept beside it for this, which is
/// written, then takes the place of `path` in one atomic step, and holds the old contents
/// from then on
///
/// Only for writers that all hold one lock while they use `spare` (the hook's folder lock),
/// in a private folder:
/// two writers at once would write it together. Creating a file is most of what replacing
/// one costs on ext4 (about 60 µs here, and the removal of the old one as much again),
/// while writing a file that exists and exchanging two names cost a few microseconds; so a
/// hook call reuses one spare, and creates it only when a new session's first write took
/// it, or a file system that cannot exchange names consumed it. `Ok(true)` when the spare
/// is left in place for the next write, `Ok(false)` when it was consumed.
pub(crate) fn replace_through_spare(path: &Path, spare: &Path, bytes: &[u8]) -> io::Result<bool> {
    // Only a private regular file of the user's is written (`private.rs`): a link planted
    // as the spare would send the state to the file it leads to.
    let mut file = match private::open(spare, Access::Write)? {
        Some((file, metadata)) => {
            private::make_private(&file, &metadata, spare)?;
            file
        }
        None => private::create(spare)?,
    };
    file.write_all(bytes)?;
    // Written over the old contents from the start, then cut to the new length: a
    // truncation to nothing first would make ext4 flush the file at once.
    file.set_len(u64::try_from(bytes.len()).unwrap_or(u64::MAX))?;
    exchange(spare, path)
}

/// Makes the spare file at `spare` when there is none, so that the next write through it
/// ([`replace_through_spare`]) need not: for a caller with time to spare
pub(crate) fn make_spare(spare: &Path) -> io::Result<()> {
    match private::open(spare, Access::Write)? {
        Some((file, metadata)) => private::make_private(&file, &metadata, spare),
        None => private::create(spare).map(|_file| ()),
    }
}

/// Puts the file at `new` in the place of `path` in one atomic step: exchanges the two
/// names, so what `path` held is left at `new` (`Ok(true)`), or, where `path` is missing or
/// the file system cannot exchange names, renames `new` over `path` (`Ok(false)`)
#[cfg(target_os = "linux")]
fn exchange(new: &Path, path: &Path) -> io::Result<bool> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    use rustix::io::Errno;
    match renameat_with(CWD, new, CWD, path, RenameFlags::EXCHANGE) {
        Ok(()) => Ok(true),
        // Nothing to exchange with yet, or a file system that cannot exchange.
        Err(Errno::NOENT | Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
            fs::rename(new, path).map(|()| false)
        }
        Err(err) => Err(err.into()),
    }
}

/// Renames `new` over `path`, atomically for readers and writers
#[cfg(not(target_os = "linux"))]
fn exchange(new: &Path, path: &Path) -> io::Result<bool> {
    fs::rename(new, path).map(|()| false)
}

/// Puts the file at `temporary` in the place of `path` in one atomic step, and removes what
/// `path` held
///
/// Renaming over an existing file makes ext4 allocate and start writing the new file's
/// blocks at once (its `auto_da_alloc` guard for writers that skip `fsync`): about 70 µs
/// here. Exchanging the two names (`renameat2` with `RENAME_EXCHANGE`)
/// is as atomic for readers and writers, skips that work, and leaves the old contents at
/// the temporary name, removed next. A power cut may then leave the new file empty, which
/// the [`Durability::Atomic`] promise allows: such state is refused as unreadable.
fn swap_in(temporary: &Path, path: &Path) -> io::Result<()> {
    if exchange(temporary, path)? {
        // Best effort: the old contents are useless now, and pruning removes them.
        let _ = fs::remove_file(temporary);
    }
    Ok(())
}

/// Flushes the folder holding `path`, so a rename in it is durable
#[cfg(unix)]
fn sync_folder(path: &Path) -> io::Result<()> {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    File::open(folder)?.sync_all()
}

/// Folders cannot be opened as files here; the rename is as durable as the system makes it
#[cfg(not(unix))]
fn sync_folder(_path: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_replaced_file_holds_the_new_contents_and_nothing_is_left_beside_it() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("s.json");
        for durability in [Durability::Atomic, Durability::Durable] {
            for contents in ["first", "second, longer", "3"] {
                replace_file(&path, contents.as_bytes(), durability).unwrap();
                assert_eq!(fs::read_to_string(&path).unwrap(), contents);
                assert_eq!(names(folder.path()), ["s.json"], "{durability:?}");
            }
        }
    }

    #[test]
    fn a_spare_takes_the_files_place_and_keeps_its_old_contents() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("s.json");
        let spare = folder.path().join(".spare");
        // No file yet: the spare is renamed into place.
        assert!(!replace_through_spare(&path, &spare, b"first, the longest").unwrap());
        assert_eq!(fs::read_to_string(&path).unwrap(), "first, the longest");
        assert_eq!(names(folder.path()), ["s.json"]);
        // Then the spare is made, written and exchanged, and keeps what the file held.
        assert!(replace_through_spare(&path, &spare, b"second").unwrap());
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(fs::read_to_string(&spare).unwrap(), "first, the longest");
        // A longer spare is cut to the new contents.
        replace_through_spare(&path, &spare, b"3").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "3");
        assert_eq!(names(folder.path()), [".spare", "s.json"]);
    }

    #[test]
    fn a_spare_that_is_no_file_is_refused_and_nothing_is_written() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("s.json");
        let spare = folder.path().join(".spare");
        fs::create_dir(&spare).unwrap();
        let err = replace_through_spare(&path, &spare, b"written").unwrap_err();
        assert!(
            err.to_string().contains("is a folder, not a regular file"),
            "{err}"
        );
        assert!(!path.exists());
    }

    #[cfg(unix)]
    #[test]
    fn state_files_are_made_private_even_from_a_shared_spare() {
        use std::os::unix::fs::PermissionsExt;
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("s.json");
        let spare = folder.path().join(".spare");
        // Files an older rulesc wrote, readable by every user.
        for file in [&path, &spare] {
            fs::write(file, "old").unwrap();
            fs::set_permissions(file, fs::Permissions::from_mode(0o644)).unwrap();
        }
        for contents in ["first", "second"] {
            replace_through_spare(&path, &spare, contents.as_bytes()).unwrap();
            let mode = fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{contents}");
        }
        replace_private(&path, b"third").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn writers_that_share_a_lock_and_a_spare_leave_one_whole_file() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("s.json");
        let spare = folder.path().join(".spare");
        let lock = std::sync::Mutex::new(());
        let contents: Vec<String> = (0..8)
            .map(|n| format!("{n}").repeat(1000 - 50 * n))
            .collect();
        std::thread::scope(|scope| {
            for text in &contents {
                let (path, spare, lock) = (&path, &spare, &lock);
                scope.spawn(move || {
                    for _ in 0..50 {
                        let _held = lock.lock().unwrap();
                        replace_through_spare(path, spare, text.as_bytes()).unwrap();
                        let read = fs::read_to_string(path).unwrap();
                        assert_eq!(read, *text, "a mix of writes: {} bytes", read.len());
                    }
                });
            }
        });
    }

    #[test]
    fn writers_in_parallel_leave_one_whole_file() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("s.json");
        let contents: Vec<String> = (0..8).map(|n| format!("{n}").repeat(1000 + n)).collect();
        std::thread::scope(|scope| {
            for text in &contents {
                let path = &path;
                scope.spawn(move || {
                    for _ in 0..50 {
                        replace_file(path, text.as_bytes(), Durability::Atomic).unwrap();
                    }
                });
            }
        });
        let last = fs::read_to_string(&path).unwrap();
        assert!(
            contents.contains(&last),
            "a mix of writes: {} bytes",
            last.len()
        );
        assert_eq!(names(folder.path()), ["s.json"]);
    }

    #[test]
    fn a_spare_is_made_once_and_only_as_a_private_file() {
        let folder = tempfile::tempdir().unwrap();
        let spare = folder.path().join(".spare");
        make_spare(&spare).unwrap();
        assert_eq!(names(folder.path()), [".spare"]);
        fs::write(&spare, "kept").unwrap();
        // A spare that is there is left as it is.
        make_spare(&spare).unwrap();
        assert_eq!(fs::read_to_string(&spare).unwrap(), "kept");
        let not_a_file = folder.path().join(".other");
        fs::create_dir(&not_a_file).unwrap();
        assert!(make_spare(&not_a_file).is_err());
    }
}
