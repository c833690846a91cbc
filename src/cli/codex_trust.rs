//! Codex's trust of a non-managed command hook: Codex runs such a hook only when the user's
//! `config.toml` (`$CODEX_HOME/config.toml`, else `~/.codex/config.toml`) records its hash
//! as trusted, under `[hooks.state."<key>"] trusted_hash = "sha256:<hex>"` (openai/codex
//! `codex-rs/hooks/src/engine/discovery.rs`: a hook runs when it is enabled and its status
//! is `Trusted` or `Managed`, or under `--dangerously-bypass-hook-trust`).
//!
//! - The key is `<hooks file>:<event>:<group index>:<handler index>`, the event in snake
//!   case (`pre_tool_use`), the file the absolute path of the `hooks.json` it is in.
//! - The hash is `version_for_toml` (`codex-rs/config/src/fingerprint.rs`) of the hook's
//!   normalized identity: `{"event_name", "matcher"?, "hooks": [{"type": "command",
//!   "command", "timeout", "async": false}]}`, keys sorted at every level, as compact JSON,
//!   SHA-256 in lowercase hex after `sha256:`. The timeout is the one Codex runs the hook
//!   with: 600 seconds when none is given, and for `SessionEnd` 1, at most 3.
//!
//! The hash covers the command's text, so a command that changes (a project moved, then
//! `rulesc init --force`) is no longer trusted until trusted again.

use std::path::Path;

use serde_json::{json, Map, Value as Json};
use sha2::{Digest, Sha256};

/// One `rulesc hook` handler of a Codex hooks file, with the trust it needs
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TrustEntry {
    /// The host event (`PreToolUse`)
    pub(crate) event: String,
    /// The `[hooks.state]` key
    pub(crate) key: String,
    /// The hash Codex compares with `trusted_hash`
    pub(crate) hash: String,
}

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

/// `PreToolUse` as Codex's keys name it: `pre_tool_use`
pub(crate) fn event_key(event: &str) -> String {
    let mut key = String::with_capacity(event.len() + 4);
    for (at, ch) in event.chars().enumerate() {
        if ch.is_ascii_uppercase() && at > 0 {
            key.push('_');
        }
        key.push(ch.to_ascii_lowercase());
    }
    key
}

/// The hash Codex trusts a command hook by, for a handler without `timeout`, `matcher` or
/// `statusMessage` (as `rulesc init` writes it)
pub(crate) fn hook_hash(event: &str, command: &str, timeout: Option<u64>) -> String {
    let timeout = if event == "SessionEnd" {
        timeout.unwrap_or(1).clamp(1, 3)
    } else {
        timeout.unwrap_or(600).max(1)
    };
    let identity = json!({
        "event_name": event_key(event),
        "hooks": [{"type": "command", "command": command, "timeout": timeout, "async": false}],
    });
    let canonical = serde_json::to_vec(&sorted(identity)).unwrap_or_default();
    let mut text = String::from("sha256:");
    for byte in Sha256::digest(&canonical) {
        text.push_str(&format!("{byte:02x}"));
    }
    text
}

/// `value` with every object's keys in sorted order, whatever order the map keeps
fn sorted(value: Json) -> Json {
    match value {
        Json::Object(map) => {
            let mut entries: Vec<(String, Json)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let mut out = Map::new();
            for (key, inner) in entries {
                out.insert(key, sorted(inner));
            }
            Json::Object(out)
        }
        Json::Array(items) => Json::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// The `rulesc hook` handlers of a Codex hooks file (`settings`, read from `hooks_file`),
/// with their keys and hashes; handlers with a matcher or a status message are Codex's to
/// hash and are left out
pub(crate) fn entries(hooks_file: &Path, settings: &Json) -> Vec<TrustEntry> {
    let mut found = Vec::new();
    let Some(hooks) = settings.get("hooks").and_then(Json::as_object) else {
        return found;
    };
    for (event, groups) in hooks {
        let Some(groups) = groups.as_array() else {
            continue;
        };
        for (group_at, group) in groups.iter().enumerate() {
            if group.get("matcher").is_some() {
                continue;
            }
            let handlers = group.get("hooks").and_then(Json::as_array);
            for (handler_at, handler) in handlers.into_iter().flatten().enumerate() {
                let Some(command) = handler.get("command").and_then(Json::as_str) else {
                    continue;
                };
                if !command.starts_with("rulesc hook ") || handler.get("statusMessage").is_some() {
                    continue;
                }
                let timeout = handler.get("timeout").and_then(Json::as_u64);
                found.push(TrustEntry {
                    event: event.clone(),
                    key: format!(
                        "{}:{}:{group_at}:{handler_at}",
                        hooks_file.display(),
                        event_key(event)
                    ),
                    hash: hook_hash(event, command, timeout),
                });
            }
        }
    }
    found
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
    use super::*;

    #[test]
    fn event_keys_are_snake_case() {
        assert_eq!(event_key("PreToolUse"), "pre_tool_use");
        assert_eq!(event_key("SessionStart"), "session_start");
        assert_eq!(event_key("Stop"), "stop");
    }

    /// The hash of the identity Codex hashes, written out by hand and hashed by `sha256sum`:
    /// `printf '%s' '{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"echo hi","timeout":600,"type":"command"}]}' | sha256sum`
    #[test]
    fn the_hash_is_of_the_sorted_compact_identity() {
        assert_eq!(
            hook_hash("PreToolUse", "echo hi", None),
            "sha256:c2ab198fe0750494126041254c4d031ad06f4b267edca02168d8a6745e4141c5"
        );
    }

    #[test]
    fn trust_is_written_and_read_back_keeping_the_rest() {
        let settings = json!({"hooks": {"Stop": [
            {"hooks": [{"type": "command", "command": "other"}, {"type": "command", "command": "rulesc hook /p --host codex"}]}]}});
        let entries = entries(Path::new("/p/.codex/hooks.json"), &settings);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].key, "/p/.codex/hooks.json:stop:0:1");
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
