//! A coding agent's hook configuration with `rulesc hook` in it: which file, which events,
//! which command, and how it is merged into a file the user already has. Which files and how
//! a command names the project are the host's own (`Host::hook_template`, in the host's
//! module of `host/src/hosts/`); this module builds the command and merges it.
//!
//! The three hosts read one shape, `{"hooks": {EVENT: [{"matcher"?, "hooks": [{"type":
//! "command", "command": ...}]}]}}` (Claude Code's "Configuration"; Codex `HooksFile` of
//! `codex-rs/config/src/hook_config.rs`; Gemini CLI `HookDefinition` and
//! `CommandHookConfig` of `packages/core/src/hooks/types.ts`).
//!
//! A group without `matcher` runs on every tool for all three (Claude Code's reference; Codex
//! `matcher_pattern_for_event` takes `None` as every tool; Gemini CLI `hookPlanner.ts`
//! `matchesContext`: "No matcher means match all"), so none is written.
//!
//! Invariant: a merge never drops or changes what it did not write. It adds one group per
//! event that has no `rulesc hook` command yet; a different `rulesc hook` command of an event
//! is a conflict that only `force` replaces; a key of the wrong JSON type is refused.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value as Json};

use rulesc_host::Host;

/// The folder, inside the project, where `rulesc init` puts the starter policy
pub(crate) const POLICY_DIR: &str = ".rulesc";

/// How every command `rulesc init` writes starts; a handler whose command starts so is ours
const COMMAND_PREFIX: &str = "rulesc hook ";

/// What `rulesc init` writes into a host's configuration
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HookConfig {
    /// The host
    pub(crate) host: Host,
    /// The folder [`HookConfig::file`] is relative to: the project, or for the user's own
    /// settings the host's folder of them ([`UserDirs::home_of`])
    pub(crate) base: PathBuf,
    /// The configuration file, relative to [`HookConfig::base`]
    pub(crate) file: String,
    /// The host events that get the command
    pub(crate) events: Vec<&'static str>,
    /// The command run on each of them
    pub(crate) command: String,
    /// Another file, relative to [`HookConfig::base`], whose hooks the host runs as well and
    /// which `init` reads but never writes (Codex's `config.toml`)
    pub(crate) also_read: Option<String>,
    /// Commands earlier releases of `init` wrote that did not work everywhere: replaced
    /// without `--force`
    pub(crate) outdated: Vec<String>,
    /// Whether these are the user's own settings (`init --user`), which apply everywhere
    pub(crate) user: bool,
}

/// The user's folders a user-level install reads and writes
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UserDirs {
    /// `HOME`
    pub(crate) home: PathBuf,
    /// The folders of the user's settings of the hosts that keep them elsewhere than in
    /// `HOME` (Codex: `CODEX_HOME`, else `~/.codex`)
    pub(crate) host_homes: Vec<(Host, PathBuf)>,
    /// rulesc's own settings: `$XDG_CONFIG_HOME/rulesc`, else `~/.config/rulesc`
    pub(crate) policy: PathBuf,
}

impl UserDirs {
    /// The folders from the environment; `None` without `HOME`
    pub(crate) fn from_env() -> Option<UserDirs> {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|value| !value.is_empty())
                .map(PathBuf::from)
                .filter(|path| path.is_absolute())
        };
        let home = var("HOME")?;
        Some(UserDirs {
            host_homes: Host::ALL
                .into_iter()
                .filter_map(|host| {
                    let (variable, default) = host.hook_template().user_home?;
                    Some((host, var(variable).unwrap_or_else(|| home.join(default))))
                })
                .collect(),
            policy: var("XDG_CONFIG_HOME")
                .unwrap_or_else(|| home.join(".config"))
                .join("rulesc"),
            home,
        })
    }

    /// The folder of `host`'s user settings
    pub(crate) fn home_of(&self, host: Host) -> &Path {
        self.host_homes
            .iter()
            .find(|(known, _)| *known == host)
            .map_or(&self.home, |(_, home)| home)
    }
}

/// Why a configuration cannot be merged
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MergeError {
    /// A key on the way to the hook list holds another JSON type than the host reads
    Shape {
        /// The key's path, such as `hooks.PreToolUse`
        key: String,
        /// The JSON type the host reads there
        expected: &'static str,
    },
    /// An event already runs another `rulesc hook` command
    Conflict {
        /// The host event
        event: String,
        /// The command configured today
        existing: String,
    },
    /// An event runs another `rulesc hook` command from a file `init` does not write
    Elsewhere {
        /// That file
        file: String,
        /// The host event
        event: String,
        /// The command configured there
        existing: String,
    },
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::Shape { key, expected } => {
                write!(f, "`{key}` is not {expected}, as the host reads it")
            }
            MergeError::Conflict { event, existing } => write!(
                f,
                "`{event}` already runs `{existing}`; pass `--force` to replace it"
            ),
            MergeError::Elsewhere {
                file,
                event,
                existing,
            } => write!(
                f,
                "`{file}` runs `{existing}` on `{event}`; change it there, `rulesc init` does not edit that file"
            ),
        }
    }
}

impl HookConfig {
    /// The configuration of `host` for the project folder `project` (absolute, used only
    /// where the host offers no variable naming the project)
    pub(crate) fn new(host: Host, project: &Path) -> HookConfig {
        let template = host.hook_template();
        let policy = match template.project_root {
            Some(root) => format!("{root}/{POLICY_DIR}"),
            None => shell_quote(&project.join(POLICY_DIR).to_string_lossy()),
        };
        let command = |policy: &str| format!("{COMMAND_PREFIX}{policy} --host {}", host.flag());
        HookConfig {
            host,
            base: project.to_path_buf(),
            file: template.project_file.to_owned(),
            events: host.hook_events().collect(),
            command: command(&policy),
            also_read: also_read(template.project_file, template.also_read),
            outdated: template
                .outdated_roots
                .iter()
                .map(|root| command(&format!("{root}/{POLICY_DIR}")))
                .collect(),
            user: false,
        }
    }

    /// The configuration of `host` in the user's own settings, which the host reads in every
    /// folder: the hook runs the user's policy and finds the project's `.rulesc/` from the
    /// payload's `cwd` (`rulesc hook --discover`)
    pub(crate) fn user(host: Host, dirs: &UserDirs) -> HookConfig {
        let template = host.hook_template();
        let policy = shell_quote(&dirs.policy.to_string_lossy());
        HookConfig {
            host,
            base: dirs.home_of(host).to_path_buf(),
            file: template.user_file.to_owned(),
            events: host.hook_events().collect(),
            command: format!("{COMMAND_PREFIX}{policy} --discover --host {}", host.flag()),
            also_read: also_read(template.user_file, template.also_read),
            outdated: Vec::new(),
            user: true,
        }
    }

    /// The file's absolute path
    pub(crate) fn path(&self) -> PathBuf {
        self.base.join(&self.file)
    }

    /// The file as messages name it: relative to the project, or the whole path for the
    /// user's settings
    pub(crate) fn shown(&self) -> String {
        if self.user {
            self.path().display().to_string()
        } else {
            self.file.clone()
        }
    }

    /// `existing` (the file's JSON, `None` when there is no file) with the command on every
    /// event; `Ok(None)` when it is there already. `elsewhere` is the settings of
    /// [`HookConfig::also_read`] as JSON, when there is such a file: an event it already
    /// gives the command needs nothing more, and another `rulesc hook` command there is a
    /// conflict that `force` cannot settle, since that file is not written.
    pub(crate) fn merge(
        &self,
        existing: Option<Json>,
        elsewhere: Option<Json>,
        force: bool,
    ) -> Result<Option<Json>, MergeError> {
        let mut elsewhere = elsewhere.unwrap_or_else(|| json!({}));
        let mut root = existing.unwrap_or_else(|| json!({}));
        let settings = object(&mut root, "the file")?;
        let hooks = object(
            settings
                .entry("hooks")
                .or_insert_with(|| Json::Object(Map::new())),
            "hooks",
        )?;
        let mut changed = false;
        for event in &self.events {
            // Hooks there of a shape the host cannot read are ignored by the host too
            // (Codex warns and skips them), so they are nothing to run twice.
            let there = self
                .commands_elsewhere(&mut elsewhere, event)
                .unwrap_or_default();
            if there.contains(&self.command) {
                continue;
            }
            if let (Some(file), Some(existing)) = (&self.also_read, there.into_iter().next()) {
                return Err(MergeError::Elsewhere {
                    file: file.clone(),
                    event: (*event).to_owned(),
                    existing,
                });
            }
            let key = format!("hooks.{event}");
            let groups = array(
                hooks
                    .entry(*event)
                    .or_insert_with(|| Json::Array(Vec::new())),
                &key,
            )?;
            changed |= self.merge_event(event, groups, force)?;
        }
        Ok(changed.then_some(root))
    }

    /// The `rulesc hook` commands `event` runs from [`HookConfig::also_read`]
    fn commands_elsewhere(
        &self,
        elsewhere: &mut Json,
        event: &str,
    ) -> Result<Vec<String>, MergeError> {
        let groups = match (&self.also_read, hooks_of(elsewhere, "hooks")?) {
            (Some(_), Some(hooks)) => hooks.get_mut(event),
            _ => None,
        };
        let Some(groups) = groups else {
            return Ok(Vec::new());
        };
        let commands = rulesc_commands(event, array(groups, &format!("hooks.{event}"))?)?;
        Ok(commands
            .into_iter()
            .filter_map(|command| command.as_str().map(str::to_owned))
            .collect())
    }

    /// Puts the command into one event's groups; whether anything changed
    fn merge_event(
        &self,
        event: &str,
        groups: &mut Vec<Json>,
        force: bool,
    ) -> Result<bool, MergeError> {
        let ours = rulesc_commands(event, groups)?;
        if ours
            .iter()
            .any(|command| command.as_str() == Some(&self.command))
        {
            return Ok(false);
        }
        let outdated = |command: &Json| {
            command
                .as_str()
                .is_some_and(|text| self.outdated.iter().any(|old| old == text))
        };
        if let Some(existing) = ours.first() {
            if !force && !ours.iter().all(|command| outdated(command)) {
                return Err(MergeError::Conflict {
                    event: event.to_owned(),
                    existing: existing.as_str().unwrap_or_default().to_owned(),
                });
            }
            for command in ours {
                *command = Json::String(self.command.clone());
            }
            return Ok(true);
        }
        groups.push(json!({"hooks": [{"type": "command", "command": self.command}]}));
        Ok(true)
    }
}

/// The file named `name` in the folder of the settings file `file`
fn also_read(file: &str, name: Option<&str>) -> Option<String> {
    name.map(|name| match file.rsplit_once('/') {
        Some((folder, _)) => format!("{folder}/{name}"),
        None => name.to_owned(),
    })
}

/// The `hooks` object of a settings document, if it has one
fn hooks_of<'a>(
    settings: &'a mut Json,
    key: &str,
) -> Result<Option<&'a mut Map<String, Json>>, MergeError> {
    match object(settings, "the file")?.get_mut(key) {
        Some(hooks) => object(hooks, key).map(Some),
        None => Ok(None),
    }
}

/// The `rulesc hook` commands among one event's groups, to read or replace
fn rulesc_commands<'a>(
    event: &str,
    groups: &'a mut [Json],
) -> Result<Vec<&'a mut Json>, MergeError> {
    let mut found = Vec::new();
    for (group_idx, group) in groups.iter_mut().enumerate() {
        let key = format!("hooks.{event}[{group_idx}]");
        let Some(handlers) = object(group, &key)?.get_mut("hooks") else {
            continue;
        };
        for handler in array(handlers, &format!("{key}.hooks"))? {
            if let Some(command) = handler.get_mut("command") {
                if command
                    .as_str()
                    .is_some_and(|text| text.starts_with(COMMAND_PREFIX))
                {
                    found.push(command);
                }
            }
        }
    }
    Ok(found)
}

/// `value` as an object, or the error that `key` is not one
fn object<'a>(value: &'a mut Json, key: &str) -> Result<&'a mut Map<String, Json>, MergeError> {
    value.as_object_mut().ok_or_else(|| MergeError::Shape {
        key: key.to_owned(),
        expected: "an object",
    })
}

/// `value` as an array, or the error that `key` is not one
fn array<'a>(value: &'a mut Json, key: &str) -> Result<&'a mut Vec<Json>, MergeError> {
    value.as_array_mut().ok_or_else(|| MergeError::Shape {
        key: key.to_owned(),
        expected: "an array",
    })
}

/// A TOML item as the JSON serde would read it into; dates become their text
pub(crate) fn toml_to_json(item: &toml_edit::Item) -> Json {
    match item {
        toml_edit::Item::None => Json::Null,
        toml_edit::Item::Value(inner) => toml_value_to_json(inner),
        toml_edit::Item::Table(table) => toml_table_to_json(table),
        toml_edit::Item::ArrayOfTables(tables) => {
            Json::Array(tables.iter().map(toml_table_to_json).collect())
        }
    }
}

/// A TOML table as a JSON object
fn toml_table_to_json(table: &toml_edit::Table) -> Json {
    Json::Object(
        table
            .iter()
            .map(|(key, inner)| (key.to_owned(), toml_to_json(inner)))
            .collect(),
    )
}

/// A TOML value as JSON
fn toml_value_to_json(value: &toml_edit::Value) -> Json {
    use toml_edit::Value;
    match value {
        Value::String(text) => Json::String(text.value().clone()),
        Value::Integer(number) => json!(number.value()),
        Value::Float(number) => json!(number.value()),
        Value::Boolean(flag) => Json::Bool(*flag.value()),
        Value::Datetime(date) => Json::String(date.value().to_string()),
        Value::Array(items) => Json::Array(items.iter().map(toml_value_to_json).collect()),
        Value::InlineTable(table) => Json::Object(
            table
                .iter()
                .map(|(key, inner)| (key.to_owned(), toml_value_to_json(inner)))
                .collect(),
        ),
    }
}

/// `text` as one word of a POSIX shell: as is when it holds only safe characters, else in
/// single quotes (a quote inside written `'\''`)
pub(crate) fn shell_quote(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+:,@%".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claude() -> HookConfig {
        HookConfig::new(Host::Claude, std::path::Path::new("/p"))
    }

    #[test]
    fn a_fresh_file_gets_one_group_per_event() {
        let merged = claude().merge(None, None, false).unwrap().unwrap();
        let hooks = merged["hooks"].as_object().unwrap();
        assert_eq!(hooks.len(), claude().events.len());
        assert_eq!(
            merged["hooks"]["PreToolUse"],
            json!([{"hooks": [{"type": "command",
                "command": "rulesc hook \"$CLAUDE_PROJECT_DIR\"/.rulesc --host claude"}]}])
        );
    }

    #[test]
    fn a_merged_file_merges_to_nothing() {
        let merged = claude().merge(None, None, false).unwrap();
        assert_eq!(claude().merge(merged, None, false), Ok(None));
    }

    #[test]
    fn other_groups_and_keys_are_kept() {
        let existing = json!({"model": "x", "hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]}]}});
        let merged = claude()
            .merge(Some(existing), None, false)
            .unwrap()
            .unwrap();
        assert_eq!(merged["model"], "x");
        let groups = merged["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0]["hooks"][0]["command"], "lint.sh");
    }

    #[test]
    fn another_rulesc_command_is_replaced_only_by_force() {
        let existing = json!({"hooks": {"Stop": [
            {"hooks": [{"type": "command", "command": "rulesc hook old.rules --host claude"}]}]}});
        let err = claude()
            .merge(Some(existing.clone()), None, false)
            .unwrap_err();
        assert!(err
            .to_string()
            .contains("`Stop` already runs `rulesc hook old.rules"));
        let merged = claude().merge(Some(existing), None, true).unwrap().unwrap();
        assert_eq!(
            merged["hooks"]["Stop"][0]["hooks"][0]["command"],
            claude().command
        );
        assert_eq!(merged["hooks"]["Stop"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn wrong_types_are_refused_even_with_force() {
        for existing in [
            json!([]),
            json!({"hooks": []}),
            json!({"hooks": {"Stop": {}}}),
        ] {
            let err = claude().merge(Some(existing), None, true).unwrap_err();
            assert!(matches!(err, MergeError::Shape { .. }), "{err}");
        }
    }

    #[test]
    fn gemini_commands_use_the_braced_variable_and_replace_the_old_form() {
        let gemini = HookConfig::new(Host::Gemini, std::path::Path::new("/p"));
        assert_eq!(
            gemini.command,
            "rulesc hook \"${GEMINI_PROJECT_DIR}\"/.rulesc --host gemini"
        );
        let old = json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command",
            "command": "rulesc hook \"$GEMINI_PROJECT_DIR\"/.rulesc --host gemini"}]}]}});
        let merged = gemini.merge(Some(old), None, false).unwrap().unwrap();
        assert_eq!(
            merged["hooks"]["BeforeTool"][0]["hooks"][0]["command"],
            gemini.command
        );
    }

    #[test]
    fn user_commands_discover_the_project() {
        let dirs = UserDirs {
            home: "/h".into(),
            host_homes: vec![(Host::Codex, "/h/.codex".into())],
            policy: "/h/my config/rulesc".into(),
        };
        let codex = HookConfig::user(Host::Codex, &dirs);
        assert_eq!(codex.path(), std::path::Path::new("/h/.codex/hooks.json"));
        assert_eq!(
            codex.command,
            "rulesc hook '/h/my config/rulesc' --discover --host codex"
        );
    }

    #[test]
    fn codex_paths_are_quoted_for_the_shell() {
        let config = HookConfig::new(Host::Codex, std::path::Path::new("/a b/it's"));
        assert_eq!(
            config.command,
            r"rulesc hook '/a b/it'\''s/.rulesc' --host codex"
        );
        assert_eq!(shell_quote("/plain/path"), "/plain/path");
    }

    #[test]
    fn toml_reads_as_the_json_serde_would_see() {
        let text = "a = 1\nb = [true, 1.5]\nc = { d = \"e\" }\n[[t]]\nx = 1979-05-27\n";
        let document = text.parse::<toml_edit::DocumentMut>().unwrap();
        assert_eq!(
            toml_to_json(document.as_item()),
            json!({"a": 1, "b": [true, 1.5], "c": {"d": "e"}, "t": [{"x": "1979-05-27"}]})
        );
    }

    #[test]
    fn hooks_read_elsewhere_count_and_conflict_even_under_force() {
        let codex = HookConfig::new(Host::Codex, std::path::Path::new("/p"));
        let same = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": codex.command}]}]}});
        let merged = codex.merge(None, Some(same), false).unwrap().unwrap();
        assert!(merged["hooks"]
            .get("Stop")
            .is_none_or(|groups| groups == &json!([])));
        let other =
            json!({"hooks": {"Stop": [{"hooks": [{"command": "rulesc hook x --host codex"}]}]}});
        let err = codex.merge(None, Some(other), true).unwrap_err();
        assert!(
            matches!(
                err,
                MergeError::Elsewhere { ref file, .. } if file == ".codex/config.toml"
            ),
            "{err}"
        );
    }

    /// Any JSON, a few levels deep, with keys from a small alphabet so they collide
    fn any_json() -> impl proptest::strategy::Strategy<Value = Json> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            "[a-c ]{0,4}".prop_map(Json::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
                prop::collection::btree_map("[a-c]{1,2}", inner, 0..4)
                    .prop_map(|map| Json::Object(map.into_iter().collect())),
            ]
        })
    }

    /// Settings with other keys, and hooks of the host's events holding other commands
    fn any_settings() -> impl proptest::strategy::Strategy<Value = Json> {
        use proptest::prelude::*;
        let events = claude().events;
        let group = (any_json(), "[a-z. ]{1,8}").prop_map(|(extra, command)| {
            json!({"matcher": "Bash", "x": extra, "hooks": [{"type": "command", "command": command}]})
        });
        let hooks = prop::collection::btree_map(
            prop::sample::select(events),
            prop::collection::vec(group, 0..3),
            0..4,
        );
        (
            prop::collection::btree_map("[d-f]{1,2}", any_json(), 0..4),
            hooks,
        )
            .prop_map(|(other, hooks)| {
                let mut settings: Map<String, Json> = other.into_iter().collect();
                let hooks = hooks
                    .into_iter()
                    .map(|(event, groups)| (event.to_owned(), json!(groups)));
                settings.insert("hooks".to_owned(), Json::Object(hooks.collect()));
                Json::Object(settings)
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Taking the groups a merge appended back out gives the file as it was, and a
        /// second merge finds nothing to do
        #[test]
        fn a_merge_only_appends_one_group_per_event(settings in any_settings()) {
            let config = claude();
            let merged = config.merge(Some(settings.clone()), None, false).unwrap().unwrap();
            proptest::prop_assert_eq!(config.merge(Some(merged.clone()), None, false), Ok(None));
            let mut restored = merged;
            let hooks = restored["hooks"].as_object_mut().unwrap();
            for event in &config.events {
                let groups = hooks[*event].as_array_mut().unwrap();
                let ours = groups.pop().unwrap();
                proptest::prop_assert_eq!(&ours["hooks"][0]["command"], &json!(config.command));
                if groups.is_empty() && settings["hooks"].get(*event).is_none() {
                    hooks.remove(*event);
                }
            }
            proptest::prop_assert_eq!(restored, settings);
        }
    }
}
