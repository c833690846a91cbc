//! `rulesc hook --discover`: the project's policy found from the call's working folder, for
//! hooks in a user's own settings, which the host runs in every folder.
//!
//! The discovered folder becomes one more POLICY argument, so the compiled-policy cache keys
//! on it as on any other: each project gets its own entry, and a call in a project seen
//! before takes the same fast path as a project-level hook.
//!
//! Invariant: the walk reads only the payload's `cwd` and the folders above it, never past
//! the folder holding `.git`, the home folder or `/`; a payload without a usable `cwd` runs
//! the POLICY arguments alone (the hook then reads the payload, and refuses it if it must).

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The folder a project's policy is in
const POLICY_DIR: &str = ".rulesc";

/// The part of a payload the walk reads
#[derive(Deserialize)]
struct Cwd {
    /// The agent's working folder
    cwd: Option<String>,
}

/// The POLICY arguments, then the project's policy folder if one is found from the
/// payload's `cwd` and is not one of them already
pub(crate) fn policies(given: &[PathBuf], payload: &[u8]) -> Vec<PathBuf> {
    let mut policies = given.to_vec();
    let cwd = serde_json::from_slice::<Cwd>(payload)
        .ok()
        .and_then(|payload| payload.cwd)
        .map(PathBuf::from)
        .filter(|cwd| cwd.is_absolute());
    let home = std::env::var_os("HOME").map(PathBuf::from);
    if let Some(found) = cwd.and_then(|cwd| project_policy(&cwd, home.as_deref())) {
        if !policies.contains(&found) {
            policies.push(found);
        }
    }
    policies
}

/// The first `.rulesc/` folder from `cwd` up, stopping after the folder holding `.git`,
/// `home`, or `/`
pub(crate) fn project_policy(cwd: &Path, home: Option<&Path>) -> Option<PathBuf> {
    for folder in cwd.ancestors() {
        let policy = folder.join(POLICY_DIR);
        if policy.is_dir() {
            return Some(policy);
        }
        if folder.join(".git").exists() || Some(folder) == home {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_finds_the_nearest_policy_and_stops_at_the_repository() {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        let deep = repo.join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir_all(root.path().join(POLICY_DIR)).unwrap();
        // Above the repository: not found once `.git` is passed.
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        assert_eq!(project_policy(&deep, None), None);
        std::fs::create_dir_all(repo.join(POLICY_DIR)).unwrap();
        assert_eq!(project_policy(&deep, None), Some(repo.join(POLICY_DIR)));
        // The home folder stops the walk too.
        let other = root.path().join("home/me/x");
        std::fs::create_dir_all(&other).unwrap();
        let home = root.path().join("home/me");
        assert_eq!(project_policy(&other, Some(&home)), None);
    }

    #[test]
    fn the_payload_cwd_adds_the_project_policy() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join(".git")).unwrap();
        std::fs::create_dir_all(root.path().join(POLICY_DIR)).unwrap();
        let payload = serde_json::json!({"cwd": root.path()}).to_string();
        let user = PathBuf::from("/u/rulesc");
        assert_eq!(
            policies(std::slice::from_ref(&user), payload.as_bytes()),
            vec![user.clone(), root.path().join(POLICY_DIR)]
        );
        assert_eq!(
            policies(std::slice::from_ref(&user), b"not json"),
            vec![user]
        );
    }
}
