//! Hot reload from source: compile the policy files again and swap the result into a
//! [`PolicyHandle`], or keep the policy in force when they do not compile.
//!
//! ```
//! use rulesc::{reload, Decision, Event, EventKind, PolicyHandle};
//!
//! let handle = PolicyHandle::new(rulesc::compile_str("guard.rules", "on pre_tool_use allow")?);
//! // A broken edit is refused: the old policy stays in force, the diagnostics say why.
//! let err = reload::reload_str(&handle, "guard.rules", "on pre_tool_use blok").unwrap_err();
//! assert_eq!(err.diagnostics()[0].code.id, "E013");
//! assert_eq!(handle.evaluate(&Event::new(EventKind::PreToolUse)).resolution.decision, Decision::Allow);
//! // A good one replaces it.
//! reload::reload_str(&handle, "guard.rules", "on pre_tool_use block")?;
//! assert_eq!(handle.evaluate(&Event::new(EventKind::PreToolUse)).resolution.decision, Decision::Block);
//! # Ok::<(), rulesc::Diagnostics>(())
//! ```
//!
//! [`Watcher`] tells when the files behind POLICY arguments changed on disk, by polling
//! their sizes and modification times (no file-system notification service is needed).
//!
//! Invariant: a handle only ever holds a policy that compiled without error, and a reload
//! keeps the host limits of the policy it replaces (they belong to the host, not to the
//! files).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rulesc_runtime::{Policy, PolicyHandle};

use crate::{CompileError, Diagnostics};

/// Compiles `paths` (POLICY arguments, as [`crate::compile_paths`] reads them) and makes
/// the result the policy in force; on any error the policy in force stays and the error
/// (a file that cannot be read, or the diagnostics) is returned
pub fn reload<P: AsRef<Path>>(handle: &PolicyHandle, paths: &[P]) -> Result<(), CompileError> {
    let policy = crate::compile_paths(paths)?;
    install(handle, policy);
    Ok(())
}

/// [`reload`] from one source text; `name` is as [`crate::compile_str`] takes it
pub fn reload_str(handle: &PolicyHandle, name: &str, source: &str) -> Result<(), Diagnostics> {
    let policy = crate::compile_str(name, source)?;
    install(handle, policy);
    Ok(())
}

/// Puts `policy` in force under the host limits of the policy it replaces
fn install(handle: &PolicyHandle, policy: Policy) {
    let limits = *handle.snapshot().limits();
    handle.replace(policy.with_limits(limits));
}

/// Tells when the files behind POLICY arguments change: a file's size or modification
/// time, or a `.rules` file appearing in or leaving a directory argument
///
/// ```no_run
/// use rulesc::reload::{reload, Watcher};
///
/// let handle = rulesc::PolicyHandle::new(rulesc::compile_paths(&["rules/"])?);
/// let mut watcher = Watcher::new(vec!["rules/".into()]);
/// loop {
///     std::thread::sleep(std::time::Duration::from_millis(500));
///     if watcher.changed() {
///         if let Err(err) = reload(&handle, &["rules/"]) {
///             eprintln!("kept the policy in force:\n{err}");
///         }
///     }
/// }
/// # Ok::<(), rulesc::CompileError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Watcher {
    paths: Vec<PathBuf>,
    stamps: Stamps,
}

/// Each watched file's size and modification time; `None` for a file that cannot be read
type Stamps = BTreeMap<PathBuf, Option<(u64, SystemTime)>>;

impl Watcher {
    /// Watches `paths` from their state now
    pub fn new(paths: Vec<PathBuf>) -> Watcher {
        let stamps = stamps(&paths);
        Watcher { paths, stamps }
    }

    /// Whether anything changed since the watcher was made or last said so
    pub fn changed(&mut self) -> bool {
        let now = stamps(&self.paths);
        if now == self.stamps {
            false
        } else {
            self.stamps = now;
            true
        }
    }
}

/// The stamps of `paths`: each file argument, and every `.rules` or `.json` file below each
/// directory argument
fn stamps(paths: &[PathBuf]) -> Stamps {
    let mut stamps = BTreeMap::new();
    for path in paths {
        if path.is_dir() {
            for suffix in [".rules", ".json"] {
                // A directory that cannot be walked watches as empty; it reappears when it
                // can be read again.
                for file in crate::load::find(path, suffix).unwrap_or_default() {
                    let stamp = stamp(&file);
                    stamps.insert(file, stamp);
                }
            }
        } else {
            stamps.insert(path.clone(), stamp(path));
        }
    }
    stamps
}

fn stamp(path: &Path) -> Option<(u64, SystemTime)> {
    let metadata = std::fs::metadata(path).ok()?;
    Some((metadata.len(), metadata.modified().ok()?))
}
