//! Replacing a file's contents so that a crash, a power cut or a concurrent writer never
//! leaves a mix or a truncated file.
//!
//! Invariant: the file at `path` always holds either its previous contents or the new ones.
//! The new contents go to a temporary file of a name unique to this process and write, in
//! the same folder; it is flushed to the disk, renamed over `path` (atomic on one file
//! system), and the folder is flushed so the rename itself is durable.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Makes temporary names unique among the threads of this process
static N_WRITES: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to a new temporary file next to `path`, flushes it to the disk, renames
/// it over `path` and flushes the folder
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
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
        file.sync_all()
    });
    let renamed = written.and_then(|()| fs::rename(&temporary, path));
    if let Err(err) = renamed {
        // Best effort: the temporary file is ours, and useless now.
        let _ = fs::remove_file(&temporary);
        return Err(err);
    }
    sync_folder(path)
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
