//! Codex's trust of the hooks `rulesc init` writes, in the user's `config.toml`
//! (`$CODEX_HOME/config.toml`, else `~/.codex/config.toml`): read and written with the TOML
//! editor, keeping the rest of the file. Which key and hash each hook needs is Codex's own
//! knowledge, in `rulesc-host` ([`TrustEntry`], `host/src/hosts/codex/trust.rs`).

use std::path::Path;

use rulesc_host::TrustEntry;

/// What the user's `config.toml` says of one hook
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TrustStatus {
    /// Its hash is trusted: Codex runs it
    Trusted,
    /// No trust recorded: Codex skips it
    Untrusted,
    /// Another hash is trusted (the command changed): Codex skips it
    Modified,
    /// Trusted but `enabled = false`: Codex skips it
    Disabled,
}

/// What `config` (the user's `config.toml`, parsed) says of `entry`
pub(crate) fn status(config: &toml_edit::DocumentMut, entry: &TrustEntry) -> TrustStatus {
    let state = config
        .get("hooks")
        .and_then(|hooks| hooks.get("state"))
        .and_then(|state| state.get(&entry.key));
    let Some(state) = state else {
        return TrustStatus::Untrusted;
    };
    let trusted = state.get("trusted_hash").and_then(|hash| hash.as_str());
    if trusted.map(str::trim) != Some(entry.hash.as_str()) {
        return match trusted {
            Some(_) => TrustStatus::Modified,
            None => TrustStatus::Untrusted,
        };
    }
    if state.get("enabled").and_then(|enabled| enabled.as_bool()) == Some(false) {
        TrustStatus::Disabled
    } else {
        TrustStatus::Trusted
    }
}

/// Records every entry as trusted in `config`, keeping everything else (other keys, an
/// `enabled` already there, comments); whether anything changed
pub(crate) fn trust(config: &mut toml_edit::DocumentMut, entries: &[TrustEntry]) -> bool {
    let mut changed = false;
    for entry in entries {
        let current = status(config, entry);
        if current == TrustStatus::Trusted {
            continue;
        }
        let Some(state) = table(config.as_table_mut(), "hooks")
            .and_then(|hooks| table(hooks, "state"))
            .and_then(|state| table(state, &entry.key))
        else {
            continue;
        };
        state.insert("trusted_hash", toml_edit::value(entry.hash.clone()));
        if current == TrustStatus::Disabled {
            state.insert("enabled", toml_edit::value(true));
        }
        changed = true;
    }
    changed
}

/// Records the project at `project` as trusted (`[projects."<path>"] trust_level =
/// "trusted"`), as Codex's own prompt does: Codex reads no `.codex/` of a project it does
/// not trust, so its hooks would not run at all; whether anything changed (a project
/// already given a trust level, trusted or not, is left as the user set it)
pub(crate) fn trust_project(config: &mut toml_edit::DocumentMut, project: &Path) -> bool {
    let key = project.to_string_lossy();
    let Some(entry) =
        table(config.as_table_mut(), "projects").and_then(|projects| table(projects, &key))
    else {
        return false;
    };
    if entry.contains_key("trust_level") {
        return false;
    }
    entry.insert("trust_level", toml_edit::value("trusted"));
    true
}

/// The table `key` of `parent`, created (without a header of its own when it only holds
/// tables) if missing; `None` when `key` holds something else
fn table<'a>(parent: &'a mut toml_edit::Table, key: &str) -> Option<&'a mut toml_edit::Table> {
    let item = parent.entry(key).or_insert_with(|| {
        let mut table = toml_edit::Table::new();
        table.set_implicit(true);
        toml_edit::Item::Table(table)
    });
    item.as_table_mut()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn trust_is_written_and_read_back_keeping_the_rest() {
        let settings = json!({"hooks": {"Stop": [
            {"hooks": [{"type": "command", "command": "other"}, {"type": "command", "command": "rulesc hook /p --host codex"}]}]}});
        let entries = TrustEntry::of(Path::new("/p/.codex/hooks.json"), &settings);
        let mut config: toml_edit::DocumentMut = "# mine\nmodel = \"m\"\n".parse().unwrap();
        assert_eq!(status(&config, &entries[0]), TrustStatus::Untrusted);
        assert!(trust(&mut config, &entries));
        assert!(!trust(&mut config, &entries));
        let text = config.to_string();
        assert!(text.starts_with("# mine\nmodel = \"m\"\n"), "{text}");
        assert!(
            text.contains("[hooks.state.\"/p/.codex/hooks.json:stop:0:1\"]"),
            "{text}"
        );
        let reread: toml_edit::DocumentMut = text.parse().unwrap();
        assert_eq!(status(&reread, &entries[0]), TrustStatus::Trusted);
    }
}
