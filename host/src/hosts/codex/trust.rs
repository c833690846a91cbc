//! The trust Codex needs before it runs a non-managed command hook: the user's `config.toml`
//! (in `CODEX_HOME`) must record its hash as trusted, under `[hooks.state."<key>"]
//! trusted_hash = "sha256:<hex>"` (openai/codex `codex-rs/hooks/src/engine/discovery.rs`: a
//! hook runs when it is enabled and its status is `Trusted` or `Managed`, or under
//! `--dangerously-bypass-hook-trust`). This module says which key and hash each hook needs;
//! the command line reads and writes them in the TOML file.
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
pub struct TrustEntry {
    /// The host event (`PreToolUse`)
    pub event: String,
    /// The `[hooks.state]` key
    pub key: String,
    /// The hash Codex compares with `trusted_hash`
    pub hash: String,
}

impl TrustEntry {
    /// The `rulesc hook` handlers of a Codex hooks file (`settings`, read from `hooks_file`),
    /// with their keys and hashes; handlers with a matcher or a status message are Codex's
    /// to hash and are left out
    pub fn of(hooks_file: &Path, settings: &Json) -> Vec<TrustEntry> {
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
                    if !command.starts_with("rulesc hook ")
                        || handler.get("statusMessage").is_some()
                    {
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
}

/// `PreToolUse` as Codex's keys name it: `pre_tool_use`
fn event_key(event: &str) -> String {
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
fn hook_hash(event: &str, command: &str, timeout: Option<u64>) -> String {
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
    fn rulesc_handlers_get_their_keys() {
        let settings = json!({"hooks": {"Stop": [
            {"hooks": [{"type": "command", "command": "other"}, {"type": "command", "command": "rulesc hook /p --host codex"}]}]}});
        let entries = TrustEntry::of(Path::new("/p/.codex/hooks.json"), &settings);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].key, "/p/.codex/hooks.json:stop:0:1");
    }
}
