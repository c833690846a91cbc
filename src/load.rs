//! Loading the POLICY arguments every command takes (docs/cli.md): `.rules` files, directories
//! searched recursively for `*.rules`, or one compiled JSON policy.
//!
//! Two halves, so each caller reports in its own way: [`read_sources`] reads (a path that
//! cannot be read is a [`LoadError`], one line), [`compile`] compiles (a policy with errors
//! is its [`Diagnostics`]).
//!
//! Decisions:
//! - a file found by walking a directory is named by its path relative to that directory
//!   (with `/` separators), any other file by its base name; the name makes default rule
//!   ids (`name:line`); diagnostics show the path as typed (joined with the relative path);
//! - directory entries are visited in sorted order and symbolic links to directories are
//!   not followed (no cycles); a directory without any `*.rules` file is an error;
//! - a file ending in `.json` is a compiled policy, and must be the only POLICY argument;
//!   any other file is `.rules` source, whatever its extension;
//! - a file that is not UTF-8 is not a read error but a diagnostic (`E004`), reported
//!   with the policy's other errors;
//! - a file under the user's rulesc folder ([`user_folder`]) belongs to the user's layer,
//!   every other to the project's (docs/layers.md).

use std::fmt;
use std::path::{Path, PathBuf};

use rulesc_compiler::{Layer, SourceBytes, TestCase};
use rulesc_runtime::Policy;

use crate::input;
use crate::Diagnostics;

/// Why POLICY arguments could not be read: a missing or unreadable path, an empty
/// directory, or a compiled JSON policy that does not load
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    reason: String,
}

impl LoadError {
    fn new(reason: String) -> LoadError {
        LoadError { reason }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for LoadError {}

/// What POLICY arguments hold, read but not yet compiled
#[derive(Debug, Clone)]
pub enum Sources {
    /// `.rules` files, as bytes, in argument order (each directory's files sorted)
    Rules(Vec<SourceBytes>),
    /// One compiled JSON policy, loaded
    Compiled(Policy),
}

/// A policy set loaded from POLICY arguments
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The policy, under the default host limits
    pub policy: Policy,
    /// The inline tests of its `.rules` files (none for a compiled JSON policy)
    pub tests: Vec<TestCase>,
}

/// Compiles what [`read_sources`] read; `Err` holds every diagnostic (warnings too)
pub fn compile(sources: Sources) -> Result<Loaded, Diagnostics> {
    match sources {
        Sources::Compiled(policy) => Ok(Loaded {
            policy,
            tests: Vec::new(),
        }),
        Sources::Rules(inputs) => {
            let output = crate::check_sources(inputs);
            match output.policy {
                Some(policy) => Ok(Loaded {
                    policy,
                    tests: output.tests,
                }),
                None => Err(output.diagnostics),
            }
        }
    }
}

/// What POLICY arguments name, found without reading any file
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listing {
    /// `.rules` files
    Rules(Found),
    /// One compiled JSON policy
    Compiled(PathBuf),
}

/// The `.rules` files POLICY arguments name, and what finding them depended on
///
/// Which files a directory holds is decided by the directories read and by the links named
/// `*.rules` that were passed over (a link whose target is no file): a cache that sees these
/// unchanged knows the same walk would find the same files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// The files, in argument order (each directory's files sorted)
    pub files: Vec<Listed>,
    /// Every directory read, the arguments' own first
    pub folders: Vec<PathBuf>,
    /// The links named `*.rules` whose target was no file when they were passed over
    pub passed_over: Vec<PathBuf>,
}

/// One `.rules` file a POLICY argument names
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// Its name: the base name of a file given, the path below the folder of a file found
    /// by walking it (default rule ids and evaluations use it)
    pub name: String,
    /// Where it is: as typed, joined with the path found below a folder
    pub path: PathBuf,
}

/// Reads POLICY arguments: walks directories, reads files, loads a compiled JSON policy
pub fn read_sources(paths: &[impl AsRef<Path>]) -> Result<Sources, LoadError> {
    match list_sources(paths)? {
        Listing::Rules(found) => found
            .files
            .iter()
            .map(|file| read_listed(&file.name, &file.path))
            .collect::<Result<_, _>>()
            .map(Sources::Rules),
        Listing::Compiled(json) => load_compiled(&json).map(Sources::Compiled),
    }
}

/// Finds what POLICY arguments name: walks directories for `.rules` files, and checks that
/// a compiled JSON policy comes alone; no file is read
pub fn list_sources(paths: &[impl AsRef<Path>]) -> Result<Listing, LoadError> {
    let mut rules = Found::default();
    let mut compiled = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let metadata = std::fs::metadata(path).map_err(|err| cannot_read(path, &err))?;
        if metadata.is_dir() {
            let mut walked = Walked::default();
            walk(path, path, ".rules", &mut walked)?;
            rules.folders.extend(walked.folders);
            rules.passed_over.extend(walked.passed_over);
            let mut found = walked.files;
            if found.is_empty() {
                return Err(LoadError::new(format!(
                    "no `.rules` file in `{}`",
                    path.display()
                )));
            }
            found.sort();
            for relative in found {
                let name = relative
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                rules.files.push(Listed {
                    name,
                    path: path.join(&relative),
                });
            }
        } else if is_compiled(path) {
            compiled.push(path);
        } else {
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |name| name.to_string_lossy().into_owned(),
            );
            rules.files.push(Listed {
                name,
                path: path.to_path_buf(),
            });
        }
    }
    match (compiled.as_slice(), rules.files.is_empty()) {
        ([], _) => Ok(Listing::Rules(rules)),
        ([json], true) => Ok(Listing::Compiled(json.to_path_buf())),
        _ => Err(LoadError::new(
            "a compiled JSON policy must be the only POLICY argument".to_owned(),
        )),
    }
}

/// Reads the `.rules` file at `path`, named `name`, as bytes
pub fn read_listed(name: &str, path: &Path) -> Result<SourceBytes, LoadError> {
    let bytes = input::read_file(path).map_err(|err| cannot_read(path, &err))?;
    Ok(SourceBytes {
        name: name.to_owned(),
        path: path.display().to_string(),
        bytes,
        layer: layer_of(path),
    })
}

/// The user's own rulesc folder: `$XDG_CONFIG_HOME/rulesc`, else `~/.config/rulesc`;
/// `None` without a home
pub fn user_folder() -> Option<PathBuf> {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|path| path.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".config")))?;
    Some(config.join("rulesc"))
}

/// The layer of the policy file at `path`: the user's when it lies in [`user_folder`]
/// (links resolved on both sides), else the project's
pub fn layer_of(path: &Path) -> Layer {
    let resolved = |path: &Path| std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let in_user_folder = user_folder()
        .map(|folder| resolved(&folder))
        .is_some_and(|folder| resolved(path).starts_with(folder));
    if in_user_folder {
        Layer::User
    } else {
        Layer::Project
    }
}

/// Whether the POLICY argument `path` is a compiled JSON policy rather than `.rules` source
pub fn is_compiled(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext == "json")
}

/// Loads the compiled JSON policy at `json`
pub fn load_compiled(json: &Path) -> Result<Policy, LoadError> {
    let bytes = input::read_file(json).map_err(|err| cannot_read(json, &err))?;
    compiled_from_bytes(json, bytes)
}

/// Loads the compiled JSON policy `bytes`, read from `json`
pub fn compiled_from_bytes(json: &Path, bytes: Vec<u8>) -> Result<Policy, LoadError> {
    let text = input::text(bytes).map_err(|err| cannot_read(json, &err))?;
    Policy::from_json(&text).map_err(|err| LoadError::new(format!("`{}`: {err}", json.display())))
}

/// The paths of every file below `dir` whose name ends in `suffix` (and is longer), sorted;
/// `rulesc test` finds its `*.scenario.json` files with it
pub fn find(dir: &Path, suffix: &str) -> Result<Vec<PathBuf>, LoadError> {
    let mut walked = Walked::default();
    walk(dir, dir, suffix, &mut walked)?;
    let mut found = walked.files;
    found.sort();
    Ok(found
        .into_iter()
        .map(|relative| dir.join(relative))
        .collect())
}

/// What a walk found: the files, relative to the walk's root, and what it depended on
#[derive(Debug, Default)]
struct Walked {
    files: Vec<PathBuf>,
    /// Every directory read
    folders: Vec<PathBuf>,
    /// Links whose name ends in the suffix, but whose target is no file
    passed_over: Vec<PathBuf>,
}

/// Collects the paths of every file below `dir` whose name ends in `suffix`, relative to
/// `root`
fn walk(root: &Path, dir: &Path, suffix: &str, walked: &mut Walked) -> Result<(), LoadError> {
    let entries = std::fs::read_dir(dir).map_err(|err| cannot_read(dir, &err))?;
    walked.folders.push(dir.to_path_buf());
    for entry in entries {
        let entry = entry.map_err(|err| cannot_read(dir, &err))?;
        let path = entry.path();
        let file_type = entry.file_type().map_err(|err| cannot_read(&path, &err))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if file_type.is_dir() {
            walk(root, &path, suffix, walked)?;
        } else if name.len() > suffix.len() && name.ends_with(suffix) {
            // The entry's own type is known without a call; only a link needs its target's.
            if file_type.is_file() || (file_type.is_symlink() && path.is_file()) {
                walked
                    .files
                    .push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
            } else if file_type.is_symlink() {
                walked.passed_over.push(path);
            }
        }
    }
    Ok(())
}

/// The one-line reason for an IO error on `path`
fn cannot_read(path: &Path, err: &std::io::Error) -> LoadError {
    let reason = match err.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => err.to_string(),
    };
    LoadError::new(format!("cannot read `{}`: {reason}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(sources: &Sources) -> Vec<(String, String)> {
        match sources {
            Sources::Rules(files) => files
                .iter()
                .map(|file| (file.name.clone(), file.path.clone()))
                .collect(),
            Sources::Compiled(_) => Vec::new(),
        }
    }

    #[test]
    fn directories_are_walked_in_sorted_order_with_relative_names() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        for file in ["b.rules", "a.rules", "sub/c.rules", "notes.txt"] {
            std::fs::write(dir.path().join(file), "").unwrap();
        }
        let sources = read_sources(&[dir.path()]).unwrap();
        let found: Vec<String> = names(&sources).into_iter().map(|(name, _)| name).collect();
        assert_eq!(found, ["a.rules", "b.rules", "sub/c.rules"]);
    }

    #[cfg(unix)]
    #[test]
    fn links_to_files_are_read_and_links_to_directories_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::write(elsewhere.path().join("real.rules"), "").unwrap();
        std::fs::create_dir(elsewhere.path().join("inner")).unwrap();
        std::fs::write(elsewhere.path().join("inner/deep.rules"), "").unwrap();
        std::fs::write(dir.path().join("own.rules"), "").unwrap();
        let link = |target: &str, name: &str| {
            std::os::unix::fs::symlink(elsewhere.path().join(target), dir.path().join(name))
                .unwrap();
        };
        link("real.rules", "linked.rules");
        link("inner", "folder.rules");
        link("missing.rules", "dangling.rules");
        let sources = read_sources(&[dir.path()]).unwrap();
        let found: Vec<String> = names(&sources).into_iter().map(|(name, _)| name).collect();
        assert_eq!(found, ["linked.rules", "own.rules"]);
        // What the walk depended on: the folder it read, and the links it did not take.
        let Listing::Rules(mut listed) = list_sources(&[dir.path()]).unwrap() else {
            panic!("a folder of rules")
        };
        listed.passed_over.sort();
        assert_eq!(listed.folders, [dir.path()]);
        assert_eq!(
            listed.passed_over,
            [
                dir.path().join("dangling.rules"),
                dir.path().join("folder.rules")
            ]
        );
    }

    #[test]
    fn every_folder_read_is_listed_the_arguments_first() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::write(dir.path().join("a/b/x.rules"), "").unwrap();
        let Listing::Rules(listed) = list_sources(&[dir.path()]).unwrap() else {
            panic!("a folder of rules")
        };
        let mut folders = listed.folders.clone();
        assert_eq!(folders.first().map(PathBuf::as_path), Some(dir.path()));
        folders.sort();
        assert_eq!(
            folders,
            [
                dir.path().to_path_buf(),
                dir.path().join("a"),
                dir.path().join("a/b")
            ]
        );
        assert!(listed.passed_over.is_empty());
    }

    #[test]
    fn a_file_is_named_by_its_base_name_and_shown_as_typed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("guard.rules");
        std::fs::write(&path, "").unwrap();
        let sources = read_sources(&[&path]).unwrap();
        assert_eq!(
            names(&sources),
            [("guard.rules".to_owned(), path.display().to_string())]
        );
    }

    #[test]
    fn missing_paths_and_empty_directories_are_load_errors() {
        let err = read_sources(&["/no/such/file.rules"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot read `/no/such/file.rules`: no such file or directory"
        );
        let dir = tempfile::tempdir().unwrap();
        let err = read_sources(&[dir.path()]).unwrap_err();
        assert!(err.to_string().starts_with("no `.rules` file in"), "{err}");
    }

    #[test]
    fn compiled_json_must_come_alone() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("p.json");
        let rules = dir.path().join("p.rules");
        std::fs::write(&rules, "on stop request").unwrap();
        let policy = match compile(read_sources(&[&rules]).unwrap()) {
            Ok(loaded) => loaded.policy,
            Err(diagnostics) => panic!("{diagnostics}"),
        };
        std::fs::write(&json, policy.to_json()).unwrap();
        assert!(matches!(read_sources(&[&json]), Ok(Sources::Compiled(_))));
        let err = read_sources(&[&json, &rules]).unwrap_err();
        assert!(err.to_string().contains("only POLICY argument"), "{err}");
    }
}
