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
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!(
        ".tmp-{}-{}",
        std::process::id(),
        N_WRITES.fetch_add(1, Ordering::Relaxed)
    ));
    let temporary = PathBuf::from(temporary);
    // `create`, not `create_new`: a temporary file left by a crashed process whose id this
    // process now has would otherwise block every later write.
    let written = File::create(&temporary).and_then(|mut file| {
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

/// Puts the file at `temporary` in the place of `path` in one atomic step, and removes what
/// `path` held
///
/// Renaming over an existing file makes ext4 allocate and start writing the new file's
/// blocks at once (its `auto_da_alloc` guard for writers that skip `fsync`): about 70 µs
/// here, on every hook call. Exchanging the two names (`renameat2` with `RENAME_EXCHANGE`)
/// is as atomic for readers and writers, skips that work, and leaves the old contents at
/// the temporary name, removed next. A power cut may then leave the new file empty, which
/// the [`Durability::Atomic`] promise allows: such state is refused as unreadable.
#[cfg(target_os = "linux")]
fn swap_in(temporary: &Path, path: &Path) -> io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    use rustix::io::Errno;
    match renameat_with(CWD, temporary, CWD, path, RenameFlags::EXCHANGE) {
        Ok(()) => {
            // Best effort: the old contents are useless now, and pruning removes them.
            let _ = fs::remove_file(temporary);
            Ok(())
        }
        // Nothing to exchange with yet, or a file system that cannot exchange.
        Err(Errno::NOENT | Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
            fs::rename(temporary, path)
        }
        Err(err) => Err(err.into()),
    }
}

/// Renames `temporary` over `path`, atomically for readers and writers
#[cfg(not(target_os = "linux"))]
fn swap_in(temporary: &Path, path: &Path) -> io::Result<()> {
    fs::rename(temporary, path)
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
}
