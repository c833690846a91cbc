//! Compile once: the compiled policy kept in the state folder, so a hook call costs a few
//! `stat` calls, a file read and a binary decode rather than a full compile.
//!
//! An entry is named by the SHA-256 digest of the rulesc version and the listing of the
//! policy's files (each one's name and absolute path). Its first line is JSON: that
//! listing's digest, the rulesc version, the digest of the files' names and bytes it was
//! compiled from, the files' stamps (see below) and the SHA-256 of the rest; the compiled
//! policy follows in postcard's binary form ([`Policy::to_compact`]), which a hook call,
//! reading one on every call, loads several times faster than the policy's JSON.
//!
//! A stamp is what `stat` says of a file: its device, inode, length, modification time and
//! change time. A call whose files all carry the entry's stamps uses the entry without
//! reading them; any other call reads every file and compares the digest of their names and
//! bytes. Stamps are trusted only when taken at least [`SETTLED`] after the file last
//! changed (git's rule for racily clean files): a file system keeps times in ticks, so two
//! writes of the same length within one tick leave the same stamp, and only a stamp taken
//! after that tick has passed tells the second write from the first. An entry whose stamps
//! were taken too soon holds none, and is checked by content until a later call stamps it.
//! A file's change time cannot be set by its owner (`touch -d` sets the modification time
//! and moves the change time to now), so no edit, however timed, keeps a file's stamp.
//!
//! Invariant: an entry is used only when its version, its listing and the checksum of its
//! policy all match, and either every stamp matches or the files' digest does; so an edited
//! policy, an entry of another rulesc release, a truncated or corrupted file is simply a
//! miss: the policy is compiled again and the entry rewritten, and no damage to the cache can
//! change a decision. Entries are written whole and renamed into place, so concurrent hooks
//! at worst compile twice. Inputs that are not UTF-8 never make a policy (the compiler
//! refuses them), so a broken policy of any kind is never cached and is reported on every
//! call.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use postcard::ser_flavors::Flavor;
use rulesc_runtime::Policy;
use serde::{Deserialize, Serialize};

use crate::digest::digest;
use crate::state::write_atomically;
use crate::Loader;

/// How long after a file's last change its stamp is trusted: far longer than any file
/// system's tick (at most a few milliseconds on local file systems, one or two seconds on
/// FAT and some network file systems)
const SETTLED: Duration = Duration::from_secs(2);

/// One `.rules` file a policy is built from, found but not yet read
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The name the loader gives it (rule ids and evaluations use it)
    pub name: String,
    /// Where it is, as the user typed it (joined with the path found below a folder)
    pub path: PathBuf,
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
    /// The digest of the version and the files' names and absolute paths (its file's name)
    listing: String,
    /// The digest of the version and the files' names and bytes it was compiled from
    sources: String,
    /// The files' stamps when they were read, by position; none when some file had changed
    /// too recently to be known by its stamp
    stamps: Option<Vec<Stamp>>,
    /// The SHA-256 of the compiled policy after the line
    checksum: String,
}

/// What `stat` says of a file: `[device, inode, length, modified s, modified ns, changed s,
/// changed ns]`
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
    compact: Vec<u8>,
}

/// The policy built from `sources`: from the cache in `folder` when an entry matches, else
/// compiled by `loader`, and then cached
///
/// `loader`'s errors (a file that cannot be read, the policy's diagnostics) are returned as
/// they are, and nothing is cached: a broken policy is compiled, and reported, on every call
/// until it is fixed.
pub(crate) fn load(
    folder: &Path,
    sources: &[Source],
    loader: &dyn Loader,
) -> Result<Cached, String> {
    load_at(folder, sources, loader, SystemTime::now())
}

/// [`load`] at the time `now`, which decides whether fresh stamps are trusted
fn load_at(
    folder: &Path,
    sources: &[Source],
    loader: &dyn Loader,
    now: SystemTime,
) -> Result<Cached, String> {
    let listing = listing_key(sources);
    let path = folder.join(format!("{listing}.bin"));
    // Taken before any file is read: a file changed after its stamp was taken is then
    // read anew by the next call.
    let stamps = settled_stamps(sources, now);
    let entry = read_entry(&path, &listing);
    if let Some(entry) = &entry {
        if stamps.is_some() && entry.header.stamps == stamps {
            if let Some(policy) = decode(entry) {
                return Ok(Cached {
                    policy,
                    warning: None,
                });
            }
        }
    }
    let inputs = sources
        .iter()
        .map(|source| loader.read(source))
        .collect::<Result<Vec<Input>, String>>()?;
    let content = content_key(&inputs);
    if let Some(entry) = entry.filter(|entry| entry.header.sources == content) {
        if let Some(policy) = decode(&entry) {
            // Stamps taken now let the next calls skip reading the files.
            let warning = (stamps.is_some() && entry.header.stamps != stamps)
                .then(|| {
                    let header = Header {
                        stamps,
                        ..entry.header
                    };
                    write(&path, &header, &entry.compact)
                })
                .flatten();
            return Ok(Cached { policy, warning });
        }
    }
    let policy = loader.compile(&inputs)?;
    let warning = compact(&policy)
        .and_then(|compact| {
            let header = Header {
                rulesc: env!("CARGO_PKG_VERSION").to_owned(),
                listing,
                sources: content,
                stamps,
                checksum: digest([compact.as_slice()]),
            };
            write(&path, &header, &compact).map_or(Ok(()), Err)
        })
        .err();
    Ok(Cached { policy, warning })
}

/// The policy in its compact form
fn compact(policy: &Policy) -> Result<Vec<u8>, String> {
    let mut serializer = postcard::Serializer {
        output: postcard::ser_flavors::AllocVec::new(),
    };
    policy
        .to_compact(&mut serializer)
        .and_then(|()| serializer.output.finalize())
        .map_err(|err| cannot_cache(&err))
}

/// Writes the entry of `header` and `compact` at `path`; the warning when it cannot
fn write(path: &Path, header: &Header, compact: &[u8]) -> Option<String> {
    let mut entry = match serde_json::to_vec(header) {
        Ok(line) => line,
        Err(err) => return Some(cannot_cache(&err)),
    };
    // Compact JSON holds no raw line break, so the first one ends the header.
    entry.push(b'\n');
    entry.extend_from_slice(compact);
    write_atomically(path, &entry)
        .err()
        .map(|err| cannot_cache(&err))
}

fn cannot_cache(err: &dyn std::fmt::Display) -> String {
    format!("the compiled policy could not be cached: {err}")
}

/// The digest that names the entry of the files `sources`, for this rulesc
///
/// Paths are made absolute so that hooks of two projects that name their policies alike
/// keep two entries; a path that cannot be made absolute is taken as it is, and the files'
/// stamps (their inodes) still tell the projects apart.
fn listing_key(sources: &[Source]) -> String {
    let paths: Vec<PathBuf> = sources
        .iter()
        .map(|source| std::path::absolute(&source.path).unwrap_or_else(|_| source.path.clone()))
        .collect();
    digest(std::iter::once(env!("CARGO_PKG_VERSION").as_bytes()).chain(
        sources.iter().zip(&paths).flat_map(|(source, path)| {
            [source.name.as_bytes(), path.as_os_str().as_encoded_bytes()]
        }),
    ))
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

/// The stamps of `sources` at `now`; none when a file cannot be stamped, or changed less
/// than [`SETTLED`] before `now` (or after it, by a clock set back)
fn settled_stamps(sources: &[Source], now: SystemTime) -> Option<Vec<Stamp>> {
    let now = now.duration_since(UNIX_EPOCH).ok()?;
    let settled_before = i128::try_from(now.checked_sub(SETTLED)?.as_nanos()).ok()?;
    sources
        .iter()
        .map(|source| {
            let stamp = stamp(&source.path)?;
            let [.., modified_s, modified_ns, changed_s, changed_ns] = stamp.0;
            let nanos = |s: i64, ns: i64| i128::from(s) * 1_000_000_000 + i128::from(ns);
            let last_change = nanos(modified_s, modified_ns).max(nanos(changed_s, changed_ns));
            (last_change < settled_before).then_some(stamp)
        })
        .collect()
}

/// The stamp of the file at `path`, following links as reading it does
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

/// The entry at `path`, if it is whole and was written by this rulesc for the files whose
/// listing digest is `listing`
fn read_entry(path: &Path, listing: &str) -> Option<Entry> {
    // Any failure to read the entry is a miss: the policy is compiled again and the entry
    // rewritten.
    let mut bytes = fs::read(path).ok()?;
    let line_end = bytes.iter().position(|byte| *byte == b'\n')?;
    let header: Header = serde_json::from_slice(bytes.get(..line_end)?).ok()?;
    let compact = bytes.split_off(line_end + 1);
    let whole = header.rulesc == env!("CARGO_PKG_VERSION")
        && header.listing == listing
        && header.checksum == digest([compact.as_slice()]);
    whole.then_some(Entry { header, compact })
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
    let policy =
        Policy::from_checked_compact(&mut postcard::Deserializer::from_bytes(&entry.compact))
            .ok()?;
    *decoded = Some((entry.header.checksum.clone(), policy.clone()));
    Some(policy)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use rulesc_runtime::Defaults;

    use super::*;

    /// The bytes of `source`, as the CLI's loader reads them
    fn read_file(source: &Source) -> Result<Input, String> {
        let bytes = fs::read(&source.path).map_err(|err| err.to_string())?;
        Ok(Input {
            name: source.name.clone(),
            path: source.path.display().to_string(),
            bytes,
        })
    }

    /// Files read from disk and compiled into an empty policy, counting both; files that
    /// are not UTF-8, or that say `broken`, do not compile
    #[derive(Default)]
    struct Counting {
        reads: Cell<u32>,
        compiles: Cell<u32>,
    }

    impl Counting {
        fn counts(&self) -> (u32, u32) {
            (self.reads.get(), self.compiles.get())
        }
    }

    impl Loader for Counting {
        fn list(&self) -> Result<crate::PolicySource, String> {
            unreachable!("the cache is given what was listed")
        }

        fn read(&self, source: &Source) -> Result<Input, String> {
            self.reads.set(self.reads.get() + 1);
            read_file(source)
        }

        fn compile(&self, inputs: &[Input]) -> Result<Policy, String> {
            self.compiles.set(self.compiles.get() + 1);
            for input in inputs {
                match std::str::from_utf8(&input.bytes) {
                    Ok(text) if !text.contains("broken") => {}
                    _ => return Err("1 error".to_owned()),
                }
            }
            Policy::new(Vec::new(), Defaults::default()).map_err(|err| err.to_string())
        }
    }

    /// A folder of policy files and a cache folder
    struct Fixture {
        files: tempfile::TempDir,
        cache: tempfile::TempDir,
    }

    impl Fixture {
        fn new() -> Fixture {
            Fixture {
                files: tempfile::tempdir().unwrap(),
                cache: tempfile::tempdir().unwrap(),
            }
        }

        /// Writes the one policy file, and lists it
        fn write(&self, bytes: &[u8]) -> Vec<Source> {
            let path = self.files.path().join("guard.rules");
            fs::write(&path, bytes).unwrap();
            vec![Source {
                name: "guard.rules".to_owned(),
                path,
            }]
        }

        fn load(&self, sources: &[Source], loader: &dyn Loader, now: SystemTime) -> Cached {
            load_at(self.cache.path(), sources, loader, now).unwrap()
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
    fn a_second_load_reads_nothing_and_an_edit_is_compiled() {
        let fixture = Fixture::new();
        let build = Counting::default();
        let sources = fixture.write(b"a");
        let first = fixture.load(&sources, &build, later());
        assert_eq!(first.warning, None);
        assert_eq!(build.counts(), (1, 1));
        fixture.load(&sources, &build, later());
        assert_eq!(build.counts(), (1, 1), "the stamps match: nothing is read");
        let sources = fixture.write(b"b");
        fixture.load(&sources, &build, later());
        assert_eq!(build.counts(), (2, 2));
        assert_eq!(fixture.entries().len(), 1, "the edit replaced the entry");
    }

    #[test]
    fn a_stamp_is_kept_only_once_its_file_has_settled() {
        let fixture = Fixture::new();
        let build = Counting::default();
        let sources = fixture.write(b"a");
        let now = SystemTime::now();
        fixture.load(&sources, &build, now);
        assert_eq!(fixture.header().stamps, None, "too recent to be trusted");
        // Within the file system's tick, a write of the same length could leave the stamp
        // as it is: so the file is read on every call ...
        fixture.load(&sources, &build, now);
        fixture.load(&sources, &build, now);
        assert_eq!(build.counts(), (3, 1));
        // ... until a call comes late enough to stamp it, after which none reads it.
        fixture.load(&sources, &build, later());
        assert!(fixture.header().stamps.is_some());
        fixture.load(&sources, &build, later());
        assert_eq!(build.counts(), (4, 1));
    }

    #[test]
    fn a_stamp_taken_before_the_tick_of_the_last_change_is_not_kept() {
        // The file changed at `changed`; stamps are kept only when taken at least SETTLED
        // later, so a stamp can never be shared by two writes of one tick.
        let fixture = Fixture::new();
        let sources = fixture.write(b"a");
        let changed = fs::metadata(&sources[0].path).unwrap().modified().unwrap();
        let just_before = changed + SETTLED - Duration::from_millis(1);
        assert_eq!(settled_stamps(&sources, just_before), None);
        assert_eq!(
            settled_stamps(&sources, changed - Duration::from_secs(60)),
            None
        );
        let after = changed + SETTLED + Duration::from_millis(100);
        assert!(settled_stamps(&sources, after).is_some());
    }

    #[test]
    fn a_touched_file_is_read_again_but_not_compiled() {
        let fixture = Fixture::new();
        let build = Counting::default();
        let sources = fixture.write(b"a");
        fixture.load(&sources, &build, later());
        // `touch -d`: the modification time goes back, the change time forward.
        let file = fs::File::options()
            .write(true)
            .open(&sources[0].path)
            .unwrap();
        file.set_modified(SystemTime::now() - Duration::from_secs(3600))
            .unwrap();
        fixture.load(&sources, &build, later());
        assert_eq!(build.counts(), (2, 1));
        fixture.load(&sources, &build, later());
        assert_eq!(build.counts(), (2, 1), "stamped again");
    }

    #[test]
    fn a_damaged_or_foreign_entry_is_a_miss_and_is_rewritten() {
        let fixture = Fixture::new();
        let build = Counting::default();
        let sources = fixture.write(b"a");
        fixture.load(&sources, &build, later());
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
        let swapped = [&written[..line(&written)], &compact(&allowing).unwrap()].concat();
        let replaced = |from: &str, to: &str| {
            String::from_utf8_lossy(&written)
                .replacen(from, to, 1)
                .into_bytes()
        };
        let damages = [
            // A decision changed inside the policy: the checksum no longer matches.
            swapped,
            // Another listing: the entry of other files, renamed.
            replaced("\"listing\":\"", "\"listing\":\"0"),
            // Another release's entry.
            replaced(env!("CARGO_PKG_VERSION"), "0.0.0-other"),
            // Truncated.
            written[..written.len() / 2].to_vec(),
        ];
        for (attempt, damaged) in damages.into_iter().enumerate() {
            assert_ne!(damaged, written, "damage {attempt} changed nothing");
            fs::write(&path, damaged).unwrap();
            let before = build.compiles.get();
            fixture.load(&sources, &build, later());
            assert_eq!(
                build.compiles.get(),
                before + 1,
                "damage {attempt} was used"
            );
            assert_eq!(fs::read(&path).unwrap(), written);
        }
    }

    #[test]
    fn an_entry_holds_the_policy_whole() {
        struct Given(Policy);
        impl Loader for Given {
            fn list(&self) -> Result<crate::PolicySource, String> {
                unreachable!("the cache is given what was listed")
            }
            fn read(&self, source: &Source) -> Result<Input, String> {
                read_file(source)
            }
            fn compile(&self, _inputs: &[Input]) -> Result<Policy, String> {
                Ok(self.0.clone())
            }
        }
        struct Never;
        impl Loader for Never {
            fn list(&self) -> Result<crate::PolicySource, String> {
                unreachable!("the cache is given what was listed")
            }
            fn read(&self, _source: &Source) -> Result<Input, String> {
                panic!("a hit reads nothing")
            }
            fn compile(&self, _inputs: &[Input]) -> Result<Policy, String> {
                panic!("a hit compiles nothing")
            }
        }
        let fixture = Fixture::new();
        let sources = fixture.write(b"a");
        let policy = Policy::new(
            Vec::new(),
            Defaults {
                pre_tool_use: Some(rulesc_runtime::Verb::Ask),
                on_error: Some(rulesc_runtime::Verb::Retry),
            },
        )
        .unwrap();
        let first = fixture.load(&sources, &Given(policy.clone()), later());
        let hit = fixture.load(&sources, &Never, later());
        assert_eq!(hit.policy.to_json(), first.policy.to_json());
        assert_eq!(hit.policy.defaults(), policy.defaults());
    }

    #[test]
    fn policies_that_do_not_compile_are_compiled_every_time_and_never_cached() {
        for bytes in [b"broken".as_slice(), &[0xff, 0xfe]] {
            let fixture = Fixture::new();
            let build = Counting::default();
            let sources = fixture.write(bytes);
            for _ in 0..2 {
                let err = load_at(fixture.cache.path(), &sources, &build, later()).unwrap_err();
                assert_eq!(err, "1 error");
            }
            assert_eq!(build.compiles.get(), 2);
            assert!(fixture.entries().is_empty());
        }
    }

    #[test]
    fn projects_that_name_their_policies_alike_keep_an_entry_each() {
        let cache = tempfile::tempdir().unwrap();
        let build = Counting::default();
        let (one, two) = (Fixture::new(), Fixture::new());
        for fixture in [&one, &two, &one, &two] {
            let sources = fixture.write(b"a");
            load_at(cache.path(), &sources, &build, later()).unwrap();
        }
        assert_eq!(fs::read_dir(cache.path()).unwrap().count(), 2);
        assert_eq!(
            build.counts(),
            (4, 2),
            "written again, so read again; compiled once each"
        );
    }
}
