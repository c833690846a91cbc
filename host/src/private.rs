//! The state folder's files and folders, used only when they are the user's own.
//!
//! Whoever can write a compiled policy or a session's state decides what the hook answers,
//! so every folder and file of the state folder must be owned by the user the hook runs as
//! and writable by nobody else (the rule of ssh's `StrictModes`), and must be what it seems:
//! a link is never followed (a planted link would send a write to another file, or a read
//! to `/dev/zero`), a file is opened without blocking and refused unless it is a regular
//! file (a fifo would hang the call, and every other call waiting for its lock), and a file
//! is read only up to a bound. Folders are made `0700` and files `0600`.
//!
//! Invariant: a file is read or written only through [`open`] or [`create`], which check
//! it after opening it (`fstat` of the open file, so a file swapped after the check is not
//! the one used), and a folder is used only once [`folder`] has checked it. A refusal is an
//! error that names the path and what is wrong with it; the hook fails closed on it.
//! Elsewhere than on Unix there are no owners and modes to check, and the checks pass.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, ErrorKind, Read};
use std::path::Path;

/// The most a session's state may hold on disk: counters, `set` metadata and what the
/// trace terms remember stay far below it
pub(crate) const MAX_SESSION_BYTES: u64 = 8 * 1024 * 1024;

/// The most the compiled policy of a cache entry may take (its header line comes on top):
/// four times the source a hook compiles at most, which the compact form, keeping each
/// message once, hardly passes; a larger one is refused after compiling (cache.rs)
pub(crate) const MAX_ENTRY_BYTES: u64 = 256 * 1024 * 1024;

/// How a file is opened
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Read only
    Read,
    /// Written, from its start
    Write,
    /// Read and written, made (`0600`) when missing: the lock
    Lock,
}

/// Makes sure the folder at `path` exists and is the user's own: made `0700` when missing
/// (with the folders above it when `with_parents`), else checked
pub(crate) fn folder(path: &Path, with_parents: bool) -> io::Result<()> {
    let metadata = match fs::symlink_metadata(path) {
        Err(err) if err.kind() == ErrorKind::NotFound => {
            make_folder(path, with_parents)?;
            fs::symlink_metadata(path)
        }
        found => found,
    }
    .map_err(|err| with_path(err, path))?;
    if !metadata.is_dir() {
        return Err(refused(
            path,
            &format!("is {}, not a folder", kind(&metadata)),
        ));
    }
    check_owner_and_mode(path, &metadata)
}

/// Opens the file at `path` as `access` asks, with what `fstat` said of it; `Ok(None)` when
/// there is none (for [`Access::Lock`], it is made)
pub(crate) fn open(path: &Path, access: Access) -> io::Result<Option<(File, Metadata)>> {
    let mut options = OpenOptions::new();
    match access {
        Access::Read => options.read(true),
        Access::Write => options.write(true),
        Access::Lock => options.read(true).write(true).create(true),
    };
    no_follow(&mut options);
    match options.open(path) {
        Ok(file) => checked(file, path).map(Some),
        Err(err) if err.kind() == ErrorKind::NotFound => Ok(None),
        Err(err) => Err(described(err, path)),
    }
}

/// Makes a new file at `path`, `0600`, to write; an error if anything is there
pub(crate) fn create(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    no_follow(&mut options);
    match options.open(path) {
        Ok(file) => checked(file, path).map(|(file, _)| file),
        Err(err) => Err(described(err, path)),
    }
}

/// The contents of the file at `path`, at most `limit` bytes; `Ok(None)` when there is none
///
/// What is read is the length `fstat` gave, in one buffer of that size and, on a local file
/// system, one `read`: never more, so a file that grows meanwhile cannot pass the bound.
/// The hook's files do not change once open (entries and session states are written to
/// another file, renamed into place, and states are read under the folder's lock), so the
/// length taken is what the file holds; one cut short meanwhile reads shorter, and is
/// refused as any damaged file is.
pub(crate) fn read(path: &Path, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let Some((mut file, metadata)) = open(path, Access::Read)? else {
        return Ok(None);
    };
    let too_large = || refused(path, &format!("is larger than {limit} bytes"));
    let length = metadata.len();
    if length > limit {
        return Err(too_large());
    }
    let mut bytes = vec![0; usize::try_from(length).map_err(|_| too_large())?];
    let mut filled = 0;
    while let Some(rest) = bytes.get_mut(filled..).filter(|rest| !rest.is_empty()) {
        match file.read(rest) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) => return Err(with_path(err, path)),
        }
    }
    bytes.truncate(filled);
    Ok(Some(bytes))
}

/// Makes an open file private (`0600`) when others may read it (`metadata` says): a file
/// written by an older rulesc, before files were made so, is replaced by one nobody else
/// reads
pub(crate) fn make_private(file: &File, metadata: &Metadata, path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        if metadata.mode() & 0o077 != 0 {
            file.set_permissions(fs::Permissions::from_mode(0o600))
                .map_err(|err| with_path(err, path))?;
        }
    }
    #[cfg(not(unix))]
    let _ = (file, metadata, path);
    Ok(())
}

/// An I/O error that names the path it happened on
pub(crate) fn with_path(err: io::Error, path: &Path) -> io::Error {
    io::Error::new(err.kind(), format!("`{}`: {err}", path.display()))
}

/// The refusal of `path` for `problem`, with what to do
fn refused(path: &Path, problem: &str) -> io::Error {
    io::Error::new(
        ErrorKind::PermissionDenied,
        format!(
            "`{}` {problem}; the state folder must hold only your own files and folders: \
             remove it, or pass a `--state-dir` of your own",
            path.display()
        ),
    )
}

/// `file`, opened at `path`, and what `fstat` says of it, if it is a regular file the user
/// owns and nobody else may write
fn checked(file: File, path: &Path) -> io::Result<(File, Metadata)> {
    let metadata = file.metadata().map_err(|err| with_path(err, path))?;
    if !metadata.is_file() {
        return Err(refused(
            path,
            &format!("is {}, not a regular file", kind(&metadata)),
        ));
    }
    check_owner_and_mode(path, &metadata)?;
    Ok((file, metadata))
}

/// What failed to open at `path`, said of what is there when it is no regular file (a
/// link, which is not followed, or a folder)
fn described(err: io::Error, path: &Path) -> io::Error {
    match fs::symlink_metadata(path) {
        Ok(metadata) if !metadata.is_file() => {
            refused(path, &format!("is {}, not a regular file", kind(&metadata)))
        }
        _ => with_path(err, path),
    }
}

/// What kind of file `metadata` describes, for a refusal
fn kind(metadata: &Metadata) -> &'static str {
    let file_type = metadata.file_type();
    if file_type.is_symlink() {
        return "a symbolic link";
    }
    if file_type.is_dir() {
        return "a folder";
    }
    if file_type.is_file() {
        return "a regular file";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a fifo";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    "a special file"
}

/// Opens without following a link at the last step, without blocking on a fifo, and
/// makes a file `0600`
#[cfg(unix)]
fn no_follow(options: &mut OpenOptions) {
    use rustix::fs::OFlags;
    use std::os::unix::fs::OpenOptionsExt;
    let flags = OFlags::NOFOLLOW | OFlags::NONBLOCK;
    // The flags are small positive numbers on every Unix.
    options
        .custom_flags(i32::try_from(flags.bits()).unwrap_or(i32::MAX))
        .mode(0o600);
}

#[cfg(not(unix))]
fn no_follow(_options: &mut OpenOptions) {}

#[cfg(unix)]
fn make_folder(path: &Path, with_parents: bool) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    let made = fs::DirBuilder::new()
        .recursive(with_parents)
        .mode(0o700)
        .create(path);
    match made {
        // Another process made it meanwhile: it is checked as any folder found.
        Err(err) if err.kind() == ErrorKind::AlreadyExists => Ok(()),
        made => made.map_err(|err| with_path(err, path)),
    }
}

#[cfg(not(unix))]
fn make_folder(path: &Path, with_parents: bool) -> io::Result<()> {
    let made = if with_parents {
        fs::create_dir_all(path)
    } else {
        fs::create_dir(path)
    };
    match made {
        Err(err) if err.kind() == ErrorKind::AlreadyExists => Ok(()),
        made => made.map_err(|err| with_path(err, path)),
    }
}

/// Refuses what another user owns, or what its group or every user may write
#[cfg(unix)]
fn check_owner_and_mode(path: &Path, metadata: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let me = rustix::process::geteuid().as_raw();
    if metadata.uid() != me {
        return Err(refused(
            path,
            &format!("is owned by uid {}, not you (uid {me})", metadata.uid()),
        ));
    }
    let mode = metadata.mode() & 0o7777;
    let who = if mode & 0o002 != 0 {
        "every user"
    } else if mode & 0o020 != 0 {
        "its group"
    } else {
        return Ok(());
    };
    Err(refused(
        path,
        &format!("may be written by {who} (mode {mode:o})"),
    ))
}

#[cfg(not(unix))]
fn check_owner_and_mode(_path: &Path, _metadata: &Metadata) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use std::os::unix::fs::{symlink, PermissionsExt};

    use super::*;

    fn error(result: io::Result<impl std::fmt::Debug>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn files_are_made_private_and_read_within_their_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::io::Write::write_all(&mut create(&path).unwrap(), b"abc").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(read(&path, 3).unwrap(), Some(b"abc".to_vec()));
        assert!(error(read(&path, 2)).contains("is larger than 2 bytes"));
        assert_eq!(read(&dir.path().join("none"), 3).unwrap(), None);
        assert!(error(create(&path)).contains("exists"));
        // Larger than any one buffer a reader starts with: still read whole.
        let large: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        let path = dir.path().join("large");
        std::io::Write::write_all(&mut create(&path).unwrap(), &large).unwrap();
        assert_eq!(read(&path, 300_000).unwrap(), Some(large));
        assert!(error(read(&path, 299_999)).contains("is larger than 299999 bytes"));
    }

    #[test]
    fn links_fifos_folders_and_shared_files_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::write(&target, "kept").unwrap();
        let link = dir.path().join("link");
        symlink(&target, &link).unwrap();
        let fifo = dir.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let shared = dir.path().join("shared");
        fs::write(&shared, "").unwrap();
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o664)).unwrap();
        for access in [Access::Read, Access::Write, Access::Lock] {
            let said = error(open(&link, access));
            assert!(said.starts_with(&format!("`{}` is a symbolic link", link.display())));
            assert!(error(open(&fifo, access)).contains("is a fifo, not a regular file"));
            assert!(error(open(dir.path(), access)).contains("is a folder, not a regular file"));
            assert!(error(open(&shared, access)).contains("may be written by its group (mode 664)"));
        }
        assert!(error(create(&link)).contains("is a symbolic link"));
        assert_eq!(fs::read_to_string(&target).unwrap(), "kept");
        assert!(error(folder(&link, false)).contains("is a symbolic link, not a folder"));
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
        assert!(
            error(folder(dir.path(), false)).contains("may be written by every user (mode 777)")
        );
    }
}
