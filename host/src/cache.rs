//! Compile once: the compiled policy kept in the state folder, so a hook call costs a few
//! `stat` calls, a file read and a binary decode rather than a walk, a read of every policy
//! file and a full compile.
//!
//! An entry is named by the SHA-256 digest of the rulesc version and the POLICY arguments,
//! made absolute. Its first line is JSON: that digest, the rulesc version, the digest of the
//! files' names and bytes it was compiled from, what was found (below) and a checksum of
//! the rest (XXH3-128: it finds damage; the private folder keeps others' entries out); the compiled policy follows in its compact binary form ([`Policy::to_compact`]),
//! which a hook call, reading one on every call, loads many times faster than the policy's
//! JSON: it decodes the conditions of the rules an event makes candidates, and no other.
//!
//! A stamp is what `stat` says of a file or folder: its device, inode, length, modification
//! time and change time. What was found is the files the walk of the arguments found, the
//! folders it read and the links named `*.rules` it passed over, with the stamps of the
//! files and folders. A call whose files and folders all carry the recorded stamps, and whose
//! links still lead to no file, would walk to the same files with the same bytes: it uses
//! the entry without walking or reading. Any other call walks the arguments, reads every
//! file and compares the digest of their names and bytes. (A folder's times change whenever
//! an entry is added to it, removed or renamed; a file's, whenever it is written.)
//!
//! Stamps are recorded only when taken at least [`SETTLED`] after the file or folder last
//! changed (git's rule for racily clean files): a file system keeps times in ticks, so two
//! writes of the same length within one tick leave the same stamp, and only a stamp taken
//! after that tick has passed tells the second write from the first. An entry whose stamps
//! were taken too soon records nothing found, and is checked by content until a later call
//! records it. A change time cannot be set by an owner (`touch -d` sets the modification
//! time and moves the change time to now), so no edit, however timed, keeps a stamp.
//!
//! Invariant: an entry is used only when its version, its arguments and the checksum of its
//! policy all match, and either everything found is unchanged or the files' digest matches;
//! so an edited policy, an added or removed file, an entry of another rulesc release, a
//! truncated or corrupted file is simply a miss: the policy is compiled again and the entry
//! rewritten, and no damage to the cache can change a decision. Entries are written whole
//! and renamed into place, so concurrent hooks at worst compile twice. Inputs that are not
//! UTF-8 never make a policy (the compiler refuses them), so a broken policy of any kind is
//! never cached and is reported on every call. A policy that compiles larger than a hook
//! keeps leaves an entry that holds no policy, only its size: used as any entry is, it
//! refuses the same files again without compiling them.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rulesc_runtime::Policy;
use serde::{Deserialize, Serialize};

use crate::digest::{checksum, digest};
use crate::private::{self, MAX_ENTRY_BYTES};
use crate::state::write_atomically;
use crate::{waiting, Loader};

/// How long after a file's last change its stamp is trusted: far longer than any file
/// system's tick (at most a few milliseconds on local file systems, one or two seconds on
/// FAT and some network file systems)
const SETTLED: Duration = Duration::from_secs(2);

/// The most an entry's header line may take, besides the policy: its record of the walk
/// names each policy file and folder
const MAX_HEADER_BYTES: u64 = 16 * 1024 * 1024;

/// One `.rules` file a policy is built from, found but not yet read
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The name the loader gives it (rule ids and evaluations use it)
    pub name: String,
    /// Where it is, as the user typed it (joined with the path found below a folder)
    pub path: PathBuf,
}

/// The `.rules` files the POLICY arguments name, and what finding them depended on
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Files {
    /// The files, in the order they are compiled
    pub sources: Vec<Source>,
    /// Every folder the walk read
    pub folders: Vec<PathBuf>,
    /// The links named `*.rules` the walk passed over, their target being no file
    pub passed_over: Vec<PathBuf>,
}

/// One file a policy is built from, as read from disk
///
/// Its identity for the cache is its name and contents, what the compiled policy depends
/// on; the path only serves diagnostics.
#[derive(Debug, Clone)]
pub struct Input {
    /// The name the loader gives it (rule ids and evaluations use it)
    pub name: String,
    /// The path as the user typed it, for diagnostics
    pub path: String,
    /// Its contents
    pub bytes: Vec<u8>,
}

/// The first line of a cache entry; the compiled policy follows
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    /// The rulesc version that compiled it
    rulesc: String,
    /// The digest of the version and the absolute POLICY arguments (its file's name)
    arguments: String,
    /// The digest of the version and the files' names and bytes it was compiled from
    sources: String,
    /// What the walk found when the files were read; none when something had changed too
    /// recently to be known by its stamp
    found: Option<Walk>,
    /// The checksum of the compiled policy after the line (`digest::checksum`)
    checksum: String,
    /// How many bytes the compiled policy took when that was more than a hook keeps: the
    /// entry then holds no policy, and remembers the refusal, so that the same files are
    /// refused without being compiled again
    #[serde(default, skip_serializing_if = "Option::is_none")]
    too_large: Option<u64>,
}

/// What a walk of the POLICY arguments found, with stamps taken after everything settled
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Walk {
    /// The files
    files: Vec<String>,
    /// The folders read
    folders: Vec<String>,
    /// The links passed over
    passed_over: Vec<String>,
    /// The stamps of the files, then of the folders
    stamps: Vec<Stamp>,
}

/// What `stat` says of a file or folder: `[device, inode, length, modified s, modified ns,
/// changed s, changed ns]`
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp([i64; 7]);

/// A policy from the cache or freshly compiled
#[derive(Debug)]
pub(crate) struct Cached {
    /// The policy
    pub(crate) policy: Policy,
    /// Why a fresh compile could not be cached, for stderr
    pub(crate) warning: Option<String>,
}

/// An entry read whole, its checksum verified
struct Entry {
    header: Header,
    /// The file's bytes: the header line, then the policy's compact form; shared with the
    /// policy decoded from them, which reads its parts where they are
    bytes: Arc<Vec<u8>>,
    /// Where the compact form starts in `bytes`
    start: usize,
}

impl Entry {
    /// The policy's compact form
    fn compact(&self) -> &[u8] {
        self.bytes.get(self.start..).unwrap_or_default()
    }
}

/// The policy the POLICY arguments of `loader` name: from the cache in `folder` when an
/// entry matches, else found, read and compiled by `loader`, and then cached
///
/// `loader`'s errors (a path that cannot be read, the policy's diagnostics) are returned as
/// they are, and nothing is cached: a broken policy is compiled, and reported, on every call
/// until it is fixed.
pub(crate) fn load(folder: &Path, loader: &dyn Loader) -> Result<Cached, String> {
    load_at(folder, loader, SystemTime::now(), BOUNDS)
}

/// The most bytes a hook takes in and keeps of a policy
#[derive(Debug, Clone, Copy)]
struct Bounds {
    /// An entry's compiled policy
    entry: u64,
    /// The policy's files together, before they are compiled
    sources: u64,
}

/// The bounds of every hook call: 64 MiB of source is far more than 100,000 rules (the
/// most a policy may have, `E038`) of one condition and message each, about 7 MB, and
/// compiles in about a second; a larger policy, whose compiling alone would take a hook's
/// whole time, is refused before it is compiled, on every call
const BOUNDS: Bounds = Bounds {
    entry: MAX_ENTRY_BYTES,
    sources: 64 * 1024 * 1024,
};

/// [`load`] at the time `now`, which decides whether fresh stamps are recorded, within
/// `bounds`
fn load_at(
    folder: &Path,
    loader: &dyn Loader,
    now: SystemTime,
    bounds: Bounds,
) -> Result<Cached, String> {
    let limit = bounds.entry;
    let arguments = arguments_key(loader.arguments(), loader.user_folder().as_deref());
    let path = folder.join(format!("{arguments}.bin"));
    let entry = read_entry(&path, &arguments, limit).map_err(crate::state_error)?;
    if let Some(entry) = &entry {
        if entry.header.found.as_ref().is_some_and(unchanged) {
            remembered_too_large(&entry.header, limit)?;
            if let Some(policy) = decode(entry) {
                return Ok(Cached {
                    policy,
                    warning: None,
                });
            }
        }
    }
    let files = loader.list()?;
    // Stamped before any file is read: a file changed after its stamp was taken is then
    // read anew by the next call.
    let found = settled(&files, now);
    // Sizes first: files too large to compile are refused before a byte of them is read.
    let listed_bytes = files
        .sources
        .iter()
        .filter_map(|source| std::fs::metadata(&source.path).ok())
        .map(|metadata| metadata.len())
        .fold(0, u64::saturating_add);
    if listed_bytes > bounds.sources {
        return Err(too_big_to_compile(listed_bytes, bounds.sources));
    }
    let inputs = files
        .sources
        .iter()
        .map(|source| loader.read(source))
        .collect::<Result<Vec<Input>, String>>()?;
    let source_bytes: u64 = inputs
        .iter()
        .map(|input| u64::try_from(input.bytes.len()).unwrap_or(u64::MAX))
        .fold(0, u64::saturating_add);
    if source_bytes > bounds.sources {
        return Err(too_big_to_compile(source_bytes, bounds.sources));
    }
    let content = content_key(&inputs);
    if let Some(entry) = entry.filter(|entry| entry.header.sources == content) {
        if let Err(refusal) = remembered_too_large(&entry.header, limit) {
            // Recording what was found spares the next calls the walk and reads too.
            if found.is_some() && entry.header.found != found {
                let header = Header {
                    found,
                    ..entry.header
                };
                return Err(kept_or_not(refusal, write(&path, &header, &[])));
            }
            return Err(refusal);
        }
        if let Some(policy) = decode(&entry) {
            // What was found now, once recorded, spares the next calls the walk and reads.
            let warning = (found.is_some() && entry.header.found != found)
                .then(|| {
                    let compact = entry.bytes.get(entry.start..).unwrap_or_default();
                    let header = Header {
                        found,
                        ..entry.header
                    };
                    write(&path, &header, compact).err().map(cannot_cache)
                })
                .flatten();
            return Ok(Cached { policy, warning });
        }
    }
    let policy = {
        let _waiting = waiting::on("the policy was still being compiled".to_owned());
        loader.compile(&inputs)?
    };
    let compact = policy.to_compact();
    let size = u64::try_from(compact.len()).unwrap_or(u64::MAX);
    let fits = size <= limit;
    let kept: &[u8] = if fits { &compact } else { &[] };
    let header = Header {
        rulesc: env!("CARGO_PKG_VERSION").to_owned(),
        arguments,
        sources: content,
        found,
        checksum: checksum(kept),
        // Uncached, each call would compile it again, and take longer than a hook may: the
        // entry remembers the refusal instead.
        too_large: (!fits).then_some(size),
    };
    let written = write(&path, &header, kept);
    if !fits {
        return Err(kept_or_not(too_large(size, limit), written));
    }
    Ok(Cached {
        policy,
        warning: written.err().map(cannot_cache),
    })
}

/// The refusal of a policy whose compiled form takes `size` bytes, more than `limit`
fn too_large(size: u64, limit: u64) -> String {
    format!(
        "the compiled policy takes {size} bytes, more than the {limit} a hook keeps compiled \
         in its state folder; merge rules that do the same (`tool in [..]`), or shorten long \
         messages"
    )
}

/// The refusal an entry remembers of its files, if it still holds under `limit`
///
/// A bound raised since (a later rulesc has its own entries; a test lowers it) no longer
/// refuses: the files are compiled again.
fn remembered_too_large(header: &Header, limit: u64) -> Result<(), String> {
    match header.too_large {
        Some(size) if size > limit => Err(format!(
            "{}; measured when these files were last compiled, and not compiled again until \
             they change",
            too_large(size, limit)
        )),
        _ => Ok(()),
    }
}

/// `refusal`, followed by why the entry that remembers it could not be written, if it
/// could not
fn kept_or_not(refusal: String, written: Result<(), String>) -> String {
    match written {
        Ok(()) => refusal,
        Err(err) => format!("{refusal} (this could not be recorded for the next calls: {err})"),
    }
}

/// Writes the entry of `header` and `compact` at `path`; why not, when it cannot
fn write(path: &Path, header: &Header, compact: &[u8]) -> Result<(), String> {
    let mut entry = serde_json::to_vec(header).map_err(|err| err.to_string())?;
    // Compact JSON holds no raw line break, so the first one ends the header.
    entry.push(b'\n');
    entry.extend_from_slice(compact);
    write_atomically(path, &entry).map_err(|err| err.to_string())
}

/// The warning of a compiled policy that could not be cached, for `err`
fn cannot_cache(err: String) -> String {
    format!("the compiled policy could not be cached: {err}")
}

/// Why files of `bytes` in all are not compiled, `bound` being what a hook compiles
fn too_big_to_compile(bytes: u64, bound: u64) -> String {
    format!(
        "the policy's files take {bytes} bytes, more than the {bound} a hook compiles \
         (compiling them would take longer than a hook may); merge rules that do the same \
         (`tool in [..]`), or shorten long messages"
    )
}

/// The digest that names the entry of the POLICY arguments `arguments` whose user's layer
/// is `user_folder`, for this rulesc
///
/// Relative arguments are taken from the working folder, so that hooks of two projects
/// that name their policies alike (`.rulesc/`) keep an entry each; without a working folder
/// they are taken as they are, and the stamps (inodes) of what they name still tell the
/// projects apart. The user's folder comes last, after a byte no path holds, so no list of
/// arguments can spell it.
fn arguments_key(arguments: &[PathBuf], user_folder: Option<&Path>) -> String {
    let working = std::env::current_dir().unwrap_or_default();
    let absolute: Vec<PathBuf> = arguments.iter().map(|path| working.join(path)).collect();
    let user_folder = user_folder.map_or(&[][..], |folder| folder.as_os_str().as_encoded_bytes());
    digest(
        std::iter::once(env!("CARGO_PKG_VERSION").as_bytes())
            .chain(
                absolute
                    .iter()
                    .map(|path| path.as_os_str().as_encoded_bytes()),
            )
            .chain([&b"\0"[..], user_folder]),
    )
}

/// The digest of what `inputs` compile to, for this rulesc
fn content_key(inputs: &[Input]) -> String {
    digest(
        std::iter::once(env!("CARGO_PKG_VERSION").as_bytes()).chain(
            inputs
                .iter()
                .flat_map(|input| [input.name.as_bytes(), input.bytes.as_slice()]),
        ),
    )
}

/// What `files` records, stamped at `now`; none when something cannot be stamped or
/// recorded (a path that is not UTF-8), or changed less than [`SETTLED`] before `now` (or
/// after it, by a clock set back)
fn settled(files: &Files, now: SystemTime) -> Option<Walk> {
    let now = now.duration_since(UNIX_EPOCH).ok()?;
    let settled_before = i128::try_from(now.checked_sub(SETTLED)?.as_nanos()).ok()?;
    let text = |path: &Path| path.to_str().map(str::to_owned);
    let paths = files
        .sources
        .iter()
        .map(|source| &source.path)
        .chain(&files.folders);
    let stamps = paths
        .map(|path| {
            let stamp = stamp(path)?;
            let [.., modified_s, modified_ns, changed_s, changed_ns] = stamp.0;
            let nanos = |s: i64, ns: i64| i128::from(s) * 1_000_000_000 + i128::from(ns);
            let last_change = nanos(modified_s, modified_ns).max(nanos(changed_s, changed_ns));
            (last_change < settled_before).then_some(stamp)
        })
        .collect::<Option<Vec<Stamp>>>()?;
    Some(Walk {
        files: files
            .sources
            .iter()
            .map(|source| text(&source.path))
            .collect::<Option<_>>()?,
        folders: files
            .folders
            .iter()
            .map(|path| text(path))
            .collect::<Option<_>>()?,
        passed_over: files
            .passed_over
            .iter()
            .map(|path| text(path))
            .collect::<Option<_>>()?,
        stamps,
    })
}

/// Whether the walk would find what `found` records: every file and folder carries its
/// stamp, and no link passed over leads to a file
fn unchanged(found: &Walk) -> bool {
    let paths = found.files.iter().chain(&found.folders);
    let stamped = paths.clone().count() == found.stamps.len()
        && paths
            .zip(&found.stamps)
            .all(|(path, recorded)| stamp(Path::new(path)) == Some(*recorded));
    stamped
        && !found
            .passed_over
            .iter()
            .any(|link| Path::new(link).is_file())
}

/// The stamp of the file or folder at `path`, following links as reading it does
#[cfg(unix)]
fn stamp(path: &Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let metadata = fs::metadata(path).ok()?;
    let unsigned = |value: u64| i64::try_from(value).ok();
    Some(Stamp([
        unsigned(metadata.dev())?,
        unsigned(metadata.ino())?,
        unsigned(metadata.size())?,
        metadata.mtime(),
        metadata.mtime_nsec(),
        metadata.ctime(),
        metadata.ctime_nsec(),
    ]))
}

/// Without a change time that owners cannot set, files are always read
#[cfg(not(unix))]
fn stamp(_path: &Path) -> Option<Stamp> {
    None
}

/// The entry at `path`, if it is whole and was written by this rulesc for the POLICY
/// arguments whose digest is `arguments`
///
/// An entry that is not a private regular file of the user's, or whose policy would be
/// larger than `limit`, is refused (`private.rs`): someone else put it there. Any other
/// failure to read it is a miss: the policy is compiled again and the entry rewritten.
fn read_entry(path: &Path, arguments: &str, limit: u64) -> std::io::Result<Option<Entry>> {
    // The header line comes on top of the policy's bytes.
    let bytes = match private::read(path, limit.saturating_add(MAX_HEADER_BYTES)) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(None),
        Err(err) if err.kind() == std::io::ErrorKind::PermissionDenied => return Err(err),
        Err(_) => return Ok(None),
    };
    let Some(line_end) = bytes.iter().position(|byte| *byte == b'\n') else {
        return Ok(None);
    };
    let header = bytes
        .get(..line_end)
        .and_then(|line| serde_json::from_slice::<Header>(line).ok());
    let Some(header) = header else {
        return Ok(None);
    };
    // The policy's bytes stay where they were read: no second buffer to allocate and fault
    // in, no move to the front.
    let entry = Entry {
        header,
        bytes: Arc::new(bytes),
        start: line_end + 1,
    };
    let whole = entry.header.rulesc == env!("CARGO_PKG_VERSION")
        && entry.header.arguments == arguments
        && entry.header.checksum == checksum(entry.compact());
    Ok(whole.then_some(entry))
}

/// The last policy this process decoded, with the checksum of the bytes it was decoded from
///
/// Decoding is a function of those bytes alone, so a process that answers several calls (a
/// test, an embedding application) decodes an entry once. A hook process answers one call
/// and ends: the policy kept here is released with the process, not freed allocation by
/// allocation, which would cost it a third as much again as decoding did.
static DECODED: Mutex<Option<(String, Policy)>> = Mutex::new(None);

/// The policy of a whole entry
fn decode(entry: &Entry) -> Option<Policy> {
    // A thread that panicked holding the lock left a value that is still whole.
    let mut decoded = DECODED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((checksum, policy)) = decoded.as_ref() {
        if *checksum == entry.header.checksum {
            return Some(policy.clone());
        }
    }
    // The entry holds a policy this rulesc built, and the checksum proves it unchanged, so
    // the checks its rules passed then are not made again.
    let policy = Policy::from_checked_compact_at(Arc::clone(&entry.bytes), entry.start).ok()?;
    *decoded = Some((entry.header.checksum.clone(), policy.clone()));
    Some(policy)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use rulesc_runtime::Defaults;

    use super::*;

    /// A policy folder of `*.rules` files (no subfolders, no links), listed, read and
    /// compiled into a policy that asks on every tool call, counting each step; files that
    /// are not UTF-8, or that say `broken`, do not compile
    struct Folder {
        arguments: Vec<PathBuf>,
        user_folder: Option<PathBuf>,
        lists: Cell<u32>,
        reads: Cell<u32>,
        compiles: Cell<u32>,
    }

    impl Folder {
        fn new(path: &Path) -> Folder {
            Folder {
                arguments: vec![path.to_path_buf()],
                user_folder: None,
                lists: Cell::new(0),
                reads: Cell::new(0),
                compiles: Cell::new(0),
            }
        }

        /// How many times it was listed, read (a file each) and compiled
        fn counts(&self) -> (u32, u32, u32) {
            (self.lists.get(), self.reads.get(), self.compiles.get())
        }
    }

    impl Loader for Folder {
        fn arguments(&self) -> &[PathBuf] {
            &self.arguments
        }

        fn user_folder(&self) -> Option<PathBuf> {
            self.user_folder.clone()
        }

        fn list(&self) -> Result<Files, String> {
            self.lists.set(self.lists.get() + 1);
            let folder = &self.arguments[0];
            let mut sources: Vec<Source> = fs::read_dir(folder)
                .map_err(|err| err.to_string())?
                .map(|entry| entry.unwrap().path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "rules"))
                .map(|path| Source {
                    name: path.file_name().unwrap().to_string_lossy().into_owned(),
                    path,
                })
                .collect();
            sources.sort_by(|a, b| a.name.cmp(&b.name));
            Ok(Files {
                sources,
                folders: vec![folder.clone()],
                passed_over: Vec::new(),
            })
        }

        fn read(&self, source: &Source) -> Result<Input, String> {
            self.reads.set(self.reads.get() + 1);
            let bytes = fs::read(&source.path).map_err(|err| err.to_string())?;
            Ok(Input {
                name: source.name.clone(),
                path: source.path.display().to_string(),
                bytes,
            })
        }

        fn compile(&self, inputs: &[Input]) -> Result<Policy, String> {
            self.compiles.set(self.compiles.get() + 1);
            for input in inputs {
                match std::str::from_utf8(&input.bytes) {
                    Ok(text) if !text.contains("broken") => {}
                    _ => return Err("1 error".to_owned()),
                }
            }
            let ask = Defaults {
                pre_tool_use: Some(rulesc_runtime::Verb::Ask),
                on_error: None,
            };
            Policy::new(Vec::new(), ask).map_err(|err| err.to_string())
        }
    }

    /// A folder of policy files and a cache folder
    struct Fixture {
        files: tempfile::TempDir,
        cache: tempfile::TempDir,
        changes: Cell<u64>,
    }

    impl Fixture {
        fn new() -> Fixture {
            Fixture {
                files: tempfile::tempdir().unwrap(),
                cache: tempfile::tempdir().unwrap(),
                changes: Cell::new(0),
            }
        }

        /// Writes the policy file `name`
        fn write(&self, name: &str, bytes: &[u8]) {
            let path = self.files.path().join(name);
            fs::write(&path, bytes).unwrap();
            self.changed(&path);
        }

        /// Gives `path` and the folder a modification time of their own, as if this change
        /// came long after the last: the tests stand for calls far apart (`later`), and a
        /// file system may give changes within one tick the same time
        fn changed(&self, path: &Path) {
            self.changes.set(self.changes.get() + 1);
            let time = UNIX_EPOCH + Duration::from_secs(3600 * self.changes.get());
            for path in [path, self.files.path()] {
                let file = fs::File::open(path).unwrap();
                file.set_modified(time).unwrap();
            }
        }

        fn loader(&self) -> Folder {
            Folder::new(self.files.path())
        }

        fn load(&self, loader: &dyn Loader, now: SystemTime) -> Cached {
            load_at(self.cache.path(), loader, now, BOUNDS).unwrap()
        }

        fn entries(&self) -> Vec<PathBuf> {
            fs::read_dir(self.cache.path())
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .collect()
        }

        /// The header of the one entry
        fn header(&self) -> Header {
            let [entry] = self.entries().try_into().unwrap();
            let bytes = fs::read(entry).unwrap();
            let line_end = bytes.iter().position(|byte| *byte == b'\n').unwrap();
            serde_json::from_slice(&bytes[..line_end]).unwrap()
        }
    }

    /// A moment long after every file of the test was written
    fn later() -> SystemTime {
        SystemTime::now() + Duration::from_secs(60)
    }

    #[test]
    fn another_users_folder_compiles_the_same_files_anew() {
        // Which files are the user's layer decides what the same files compile to.
        let fixture = Fixture::new();
        fixture.write("a.rules", b"a");
        let loader = fixture.loader();
        fixture.load(&loader, later());
        fixture.load(&loader, later());
        assert_eq!(loader.counts(), (1, 1, 1));
        let mut moved = fixture.loader();
        moved.user_folder = Some(fixture.files.path().to_owned());
        fixture.load(&moved, later());
        assert_eq!(
            moved.counts(),
            (1, 1, 1),
            "a moved user folder is compiled anew"
        );
        fixture.load(&moved, later());
        assert_eq!(moved.counts(), (1, 1, 1), "and then kept");
        assert_eq!(fixture.entries().len(), 2);
    }

    #[test]
    fn a_second_load_walks_and_reads_nothing_and_an_edit_is_compiled() {
        let fixture = Fixture::new();
        let loader = fixture.loader();
        fixture.write("guard.rules", b"a");
        let first = fixture.load(&loader, later());
        assert_eq!(first.warning, None);
        assert_eq!(loader.counts(), (1, 1, 1));
        fixture.load(&loader, later());
        assert_eq!(
            loader.counts(),
            (1, 1, 1),
            "all stamps match: no walk, no read"
        );
        fixture.write("guard.rules", b"b");
        fixture.load(&loader, later());
        assert_eq!(loader.counts(), (2, 2, 2));
        assert_eq!(fixture.entries().len(), 1, "the edit replaced the entry");
    }

    #[test]
    fn a_file_added_or_removed_is_seen_by_the_next_call() {
        let fixture = Fixture::new();
        let loader = fixture.loader();
        fixture.write("a.rules", b"a");
        fixture.load(&loader, later());
        fixture.write("b.rules", b"b");
        fixture.load(&loader, later());
        assert_eq!(
            loader.counts(),
            (2, 3, 2),
            "walked again: a new file, compiled with a"
        );
        fs::remove_file(fixture.files.path().join("b.rules")).unwrap();
        fixture.changed(fixture.files.path());
        fixture.load(&loader, later());
        assert_eq!(loader.counts(), (3, 4, 3));
        // A file renamed keeps its bytes, but not its name: rule ids would change.
        let renamed = fixture.files.path().join("c.rules");
        fs::rename(fixture.files.path().join("a.rules"), &renamed).unwrap();
        fixture.changed(&renamed);
        fixture.load(&loader, later());
        assert_eq!(loader.counts(), (4, 5, 4));
        // A file that is not a policy file changes the folder too: walked again, not compiled.
        fixture.write("notes.txt", b"");
        fixture.load(&loader, later());
        assert_eq!(loader.counts(), (5, 6, 4));
        fixture.load(&loader, later());
        assert_eq!(loader.counts(), (5, 6, 4));
    }

    #[test]
    fn nothing_is_recorded_until_everything_has_settled() {
        let fixture = Fixture::new();
        let loader = fixture.loader();
        fixture.write("guard.rules", b"a");
        let now = SystemTime::now();
        fixture.load(&loader, now);
        assert_eq!(fixture.header().found, None, "too recent to be trusted");
        // Within the file system's tick, a write of the same length could leave the stamp
        // as it is: so the files are found and read on every call ...
        fixture.load(&loader, now);
        fixture.load(&loader, now);
        assert_eq!(loader.counts(), (3, 3, 1));
        // ... until a call comes late enough to record them, after which none reads them.
        fixture.load(&loader, later());
        assert!(fixture.header().found.is_some());
        fixture.load(&loader, later());
        assert_eq!(loader.counts(), (4, 4, 1));
    }

    #[cfg(unix)]
    #[test]
    fn a_stamp_taken_within_the_settling_time_of_a_change_is_not_recorded() {
        use std::os::unix::fs::MetadataExt;
        // The file and the folder changed last at `changed`; stamps are recorded only when
        // taken at least SETTLED later, so a stamp can never be shared by two writes of one
        // tick.
        let fixture = Fixture::new();
        fs::write(fixture.files.path().join("guard.rules"), "a").unwrap();
        let files = fixture.loader().list().unwrap();
        let changed = [&files.sources[0].path, &files.folders[0]]
            .into_iter()
            .flat_map(|path| {
                let metadata = fs::metadata(path).unwrap();
                [
                    (metadata.mtime(), metadata.mtime_nsec()),
                    (metadata.ctime(), metadata.ctime_nsec()),
                ]
            })
            .max()
            .unwrap();
        let changed = UNIX_EPOCH
            + Duration::from_secs(u64::try_from(changed.0).unwrap())
            + Duration::from_nanos(u64::try_from(changed.1).unwrap());
        let just_before = changed + SETTLED - Duration::from_millis(1);
        assert_eq!(settled(&files, just_before), None);
        assert_eq!(settled(&files, changed - Duration::from_secs(60)), None);
        let after = changed + SETTLED + Duration::from_millis(100);
        assert!(settled(&files, after).is_some());
    }

    #[test]
    fn a_touched_file_is_read_again_but_not_compiled() {
        let fixture = Fixture::new();
        let loader = fixture.loader();
        fixture.write("guard.rules", b"a");
        fixture.load(&loader, later());
        // `touch -d`: the modification time goes back, the change time forward.
        let file = fs::File::open(fixture.files.path().join("guard.rules")).unwrap();
        file.set_modified(UNIX_EPOCH).unwrap();
        fixture.load(&loader, later());
        assert_eq!(loader.counts(), (2, 2, 1));
        fixture.load(&loader, later());
        assert_eq!(loader.counts(), (2, 2, 1), "recorded again");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_passed_over_that_comes_to_lead_to_a_file_is_seen() {
        let fixture = Fixture::new();
        fixture.write("a.rules", b"a");
        let link = fixture.files.path().join("later.rules");
        let target = fixture.files.path().join("target");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let mut found = settled(
            &Files {
                sources: Vec::new(),
                folders: vec![fixture.files.path().to_path_buf()],
                passed_over: vec![link],
            },
            later(),
        )
        .unwrap();
        assert!(unchanged(&found));
        fs::write(&target, "b").unwrap();
        assert!(!unchanged(&found), "the link now leads to a file");
        found.passed_over.clear();
        assert!(!unchanged(&found), "and the folder changed too");
    }

    #[test]
    fn a_damaged_or_foreign_entry_is_a_miss_and_is_rewritten() {
        let fixture = Fixture::new();
        let loader = fixture.loader();
        fixture.write("guard.rules", b"a");
        fixture.load(&loader, later());
        let [path] = fixture.entries().try_into().unwrap();
        let written = fs::read(&path).unwrap();
        let line = |entry: &[u8]| entry.iter().position(|byte| *byte == b'\n').unwrap() + 1;
        // Another policy, one that allows every tool call, under this entry's header.
        let allowing = Policy::new(
            Vec::new(),
            Defaults {
                pre_tool_use: Some(rulesc_runtime::Verb::Allow),
                on_error: None,
            },
        )
        .unwrap();
        let swapped = [&written[..line(&written)], allowing.to_compact().as_slice()].concat();
        let replaced = |from: &str, to: &str| {
            String::from_utf8_lossy(&written)
                .replacen(from, to, 1)
                .into_bytes()
        };
        let damages = [
            // A decision changed inside the policy: the checksum no longer matches.
            swapped,
            // Another entry's arguments: the entry of other files, renamed.
            replaced("\"arguments\":\"", "\"arguments\":\"0"),
            // Another release's entry.
            replaced(env!("CARGO_PKG_VERSION"), "0.0.0-other"),
            // Truncated.
            written[..written.len() / 2].to_vec(),
        ];
        for (attempt, damaged) in damages.into_iter().enumerate() {
            assert_ne!(damaged, written, "damage {attempt} changed nothing");
            fs::write(&path, damaged).unwrap();
            let before = loader.compiles.get();
            let loaded = fixture.load(&loader, later());
            assert_eq!(
                loader.compiles.get(),
                before + 1,
                "damage {attempt} was used"
            );
            assert_eq!(
                loaded.policy.defaults().pre_tool_use,
                Some(rulesc_runtime::Verb::Ask)
            );
            assert_eq!(fs::read(&path).unwrap(), written);
        }
    }

    #[test]
    fn an_entry_holds_the_policy_whole() {
        let fixture = Fixture::new();
        fixture.write("guard.rules", b"a");
        let loader = fixture.loader();
        let first = fixture.load(&loader, later());
        let hit = fixture.load(&loader, later());
        assert_eq!(loader.counts(), (1, 1, 1));
        assert_eq!(hit.policy.to_json(), first.policy.to_json());
        assert_eq!(hit.policy.defaults(), first.policy.defaults());
    }

    #[test]
    fn policies_that_do_not_compile_are_compiled_every_time_and_never_cached() {
        for bytes in [b"broken".as_slice(), &[0xff, 0xfe]] {
            let fixture = Fixture::new();
            let loader = fixture.loader();
            fixture.write("guard.rules", bytes);
            for _ in 0..2 {
                let err = load_at(fixture.cache.path(), &loader, later(), BOUNDS).unwrap_err();
                assert_eq!(err, "1 error");
            }
            assert_eq!(loader.compiles.get(), 2);
            assert!(fixture.entries().is_empty());
        }
    }

    #[test]
    fn a_policy_too_large_to_keep_is_refused_and_not_compiled_again_until_it_changes() {
        let fixture = Fixture::new();
        let loader = fixture.loader();
        fixture.write("guard.rules", b"a");
        let policy = fixture.loader().compile(&[]).unwrap();
        let size = u64::try_from(policy.to_compact().len()).unwrap();
        let refusal = format!(
            "the compiled policy takes {size} bytes, more than the {} a hook keeps compiled in \
             its state folder; merge rules that do the same (`tool in [..]`), or shorten long \
             messages",
            size - 1
        );
        let refuse = |now: SystemTime| {
            load_at(fixture.cache.path(), &loader, now, entries_of(size - 1)).unwrap_err()
        };
        // Too recent to be known by its stamps: the second call reads the files, and finds
        // the refusal by their digest; the third, by their stamps, reads nothing.
        assert_eq!(refuse(SystemTime::now()), refusal);
        let remembered = format!(
            "{refusal}; measured when these files were last compiled, and not compiled again \
             until they change"
        );
        assert_eq!(refuse(later()), remembered);
        assert_eq!(refuse(later()), remembered);
        assert_eq!(loader.counts(), (2, 2, 1), "compiled once");
        assert_eq!(fixture.header().too_large, Some(size));
        // An edit is compiled again, and refused again.
        fixture.write("guard.rules", b"b");
        assert_eq!(refuse(later()), refusal);
        assert_eq!(refuse(later()), remembered);
        assert_eq!(loader.counts(), (3, 3, 2));
        // A bound it fits in compiles it once more, and keeps it.
        load_at(fixture.cache.path(), &loader, later(), entries_of(size)).unwrap();
        load_at(fixture.cache.path(), &loader, later(), entries_of(size)).unwrap();
        assert_eq!(loader.compiles.get(), 3, "kept, then loaded");
        assert_eq!(fixture.header().too_large, None);
    }

    fn entries_of(entry: u64) -> Bounds {
        Bounds { entry, ..BOUNDS }
    }

    #[test]
    fn files_too_large_to_compile_in_time_are_refused_before_compiling_on_every_call() {
        let fixture = Fixture::new();
        let loader = fixture.loader();
        fixture.write("guard.rules", b"on pre_tool_use block \"x\"\n");
        let bounds = Bounds {
            sources: 25,
            ..BOUNDS
        };
        for _ in 0..2 {
            let err = load_at(fixture.cache.path(), &loader, later(), bounds).unwrap_err();
            assert_eq!(
                err,
                "the policy's files take 26 bytes, more than the 25 a hook compiles (compiling \
                 them would take longer than a hook may); merge rules that do the same \
                 (`tool in [..]`), or shorten long messages"
            );
        }
        assert_eq!(loader.compiles.get(), 0, "refused before compiling");
        let fits = Bounds {
            sources: 26,
            ..BOUNDS
        };
        load_at(fixture.cache.path(), &loader, later(), fits).unwrap();
        assert_eq!(loader.compiles.get(), 1);
    }

    #[test]
    fn projects_that_name_their_policies_alike_keep_an_entry_each() {
        let cache = tempfile::tempdir().unwrap();
        let (one, two) = (Fixture::new(), Fixture::new());
        one.write("guard.rules", b"a");
        two.write("guard.rules", b"a");
        let (first, second) = (one.loader(), two.loader());
        for loader in [&first, &second, &first, &second] {
            load_at(cache.path(), loader, later(), BOUNDS).unwrap();
        }
        assert_eq!(fs::read_dir(cache.path()).unwrap().count(), 2);
        assert_eq!(first.counts(), (1, 1, 1));
        assert_eq!(second.counts(), (1, 1, 1));
    }
}
