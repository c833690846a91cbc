//! Who may approve a tool call (docs/layers.md): an explicit `allow` lets a host skip its
//! own permission prompt, so only the user's policy may give one. A set that holds the
//! user's files is compiled without the project's approvals; this is the other half, for a
//! hook whose files are all the project's, run as a command of its own beside the user's.

use std::path::Path;

use crate::Loader;

/// How many entries of the user's folder are looked at for a policy of the user's own: the
/// folder holds a few files, and a look must not cost a hook call its budget
const ENTRIES_LOOKED_AT: usize = 4096;

/// Why this hook's `allow` approves nothing, if it may not: none of its POLICY arguments
/// lies in the user's folder (so every file is the project's), and the user keeps a policy
/// of their own there, which is the one that may approve
pub(crate) fn project_may_not_approve(loader: &dyn Loader) -> Option<String> {
    let folder = std::fs::canonicalize(loader.user_folder()?).ok()?;
    let users = loader.arguments().iter().any(|argument| {
        std::fs::canonicalize(argument).is_ok_and(|path| path.starts_with(&folder))
    });
    if users || !holds_a_policy(&folder) {
        return None;
    }
    Some(format!(
        "every file of this policy is the project's, and the user keeps a policy of their \
         own in `{}`: only that policy may approve a tool call, so this `allow` is answered \
         as no opinion and the host asks as it would without rulesc (docs/layers.md)",
        folder.display()
    ))
}

/// Whether `folder` holds a `.rules` file, in it or below (links to folders not followed)
fn holds_a_policy(folder: &Path) -> bool {
    let mut folders = vec![folder.to_path_buf()];
    let mut looked_at = 0;
    while let Some(next) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&next) else {
            continue;
        };
        for entry in entries.flatten() {
            looked_at += 1;
            if looked_at > ENTRIES_LOOKED_AT {
                // So many entries are no sign of an empty folder: it counts as holding one.
                return true;
            }
            let path = entry.path();
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => folders.push(path),
                Ok(_) if path.extension().is_some_and(|ext| ext == "rules") => return true,
                _ => {}
            }
        }
    }
    false
}
