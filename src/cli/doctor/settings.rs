//! The hook configuration as the host reads it: which files, which events run `rulesc
//! hook`, and whether the host will run them (enabled, trusted).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rulesc_host::{folder_trusted, Host, Trust, TrustEntry};
use serde_json::Value as Json;

use super::Line;
use crate::cli::codex_trust::{self, TrustStatus};
use crate::cli::hook_config::{self, HookConfig, UserDirs};

/// One configuration file that is there, with the `rulesc hook` commands of each event
pub(super) struct Found {
    /// What `init` would write there
    pub(super) config: HookConfig,
    /// The file as messages name it
    pub(super) shown: String,
    /// The file's JSON (Codex's `config.toml` folded in under `toml`)
    pub(super) settings: Json,
    /// Codex's `config.toml` of the same layer, as JSON, if there is one
    pub(super) toml: Option<Json>,
    /// The `rulesc hook` commands, by event
    pub(super) commands: BTreeMap<String, Vec<String>>,
}

/// Whether the project's or the user's settings of `host` run `rulesc hook` anywhere
pub(super) fn configured(host: Host, project: &Path, dirs: Option<&UserDirs>) -> bool {
    let mut configs = vec![HookConfig::new(host, project)];
    configs.extend(dirs.map(|dirs| HookConfig::user(host, dirs)));
    configs
        .iter()
        .any(|config| matches!(read(config), Ok(Some(found)) if !found.commands.is_empty()))
}

/// The configuration file of `config`, `None` when neither it nor its `config.toml` is
/// there; a file the host cannot read is an error line's text
pub(super) fn read(config: &HookConfig) -> Result<Option<Found>, String> {
    let settings = read_json(&config.path(), &config.shown())?;
    let toml = match &config.also_read {
        Some(file) => read_toml(&config.base.join(file))?,
        None => None,
    };
    if settings.is_none() && toml.is_none() {
        return Ok(None);
    }
    let settings = settings.unwrap_or(Json::Null);
    let mut commands = BTreeMap::new();
    for source in [Some(&settings), toml.as_ref()].into_iter().flatten() {
        for (event, list) in rulesc_commands(source) {
            commands.entry(event).or_insert_with(Vec::new).extend(list);
        }
    }
    Ok(Some(Found {
        shown: config.shown(),
        config: config.clone(),
        settings,
        toml,
        commands,
    }))
}

/// A JSON file, `None` when it is not there
fn read_json(path: &Path, shown: &str) -> Result<Option<Json>, String> {
    let Some(bytes) = read_bytes(path)? else {
        return Ok(None);
    };
    serde_json::from_slice(&bytes).map(Some).map_err(|err| {
        format!(
            "`{shown}` is not valid JSON (line {}), so the host runs none of its hooks; fix the file",
            err.line()
        )
    })
}

/// A TOML file as JSON, `None` when it is not there
pub(super) fn read_toml(path: &Path) -> Result<Option<Json>, String> {
    Ok(read_document(path)?.map(|document| hook_config::toml_to_json(document.as_item())))
}

/// A TOML document, `None` when it is not there
pub(super) fn read_document(path: &Path) -> Result<Option<toml_edit::DocumentMut>, String> {
    let Some(bytes) = read_bytes(path)? else {
        return Ok(None);
    };
    String::from_utf8(bytes)
        .ok()
        .and_then(|text| text.parse::<toml_edit::DocumentMut>().ok())
        .map(Some)
        .ok_or_else(|| {
            format!(
                "`{}` is not valid TOML, so Codex stops reading it; fix the file",
                path.display()
            )
        })
}

/// A file's bytes, `None` when it is not there
fn read_bytes(path: &Path) -> Result<Option<Vec<u8>>, String> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(format!("cannot read `{}`: {err}", path.display())),
    }
}

/// The `rulesc hook` commands of a settings document, by event; what the host could not
/// read as hooks is passed over, as the host passes it over
fn rulesc_commands(settings: &Json) -> BTreeMap<String, Vec<String>> {
    let mut found = BTreeMap::new();
    let Some(hooks) = settings.get("hooks").and_then(Json::as_object) else {
        return found;
    };
    for (event, groups) in hooks {
        let commands: Vec<String> = groups
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|group| group.get("hooks").and_then(Json::as_array))
            .flatten()
            .filter_map(|handler| handler.get("command").and_then(Json::as_str))
            .filter(|command| command.starts_with("rulesc hook "))
            .map(str::to_owned)
            .collect();
        if !commands.is_empty() {
            found.insert(event.clone(), commands);
        }
    }
    found
}

/// Which events run `rulesc hook`, from the project's and the user's settings together
pub(super) fn coverage(host: Host, project: &Path, found: &[Found]) -> Vec<Line> {
    let title = host.title();
    let flag = host.flag();
    let init = format!(
        "run `rulesc init --host {flag} {}` (or `rulesc init --user --host {flag}`)",
        quoted(project)
    );
    let mut lines: Vec<Line> = above(host, project, found).into_iter().collect();
    let events: Vec<&str> = host.hook_events().collect();
    let missing: Vec<&str> = events
        .iter()
        .copied()
        .filter(|event| {
            !found
                .iter()
                .any(|found| found.commands.contains_key(*event))
        })
        .collect();
    if missing.len() == events.len() {
        let files: Vec<String> = [HookConfig::new(host, project)]
            .iter()
            .map(|config| format!("`{}`", config.path().display()))
            .collect();
        lines.push(Line::error(format!(
            "{title}: no settings run `rulesc hook` (read {} and the user's settings), so nothing is guarded; {init}",
            files.join(", ")
        )));
        return lines;
    }
    if missing.is_empty() {
        let files: Vec<String> = found
            .iter()
            .filter(|found| !found.commands.is_empty())
            .map(|found| format!("`{}`", found.shown))
            .collect();
        let verb = if files.len() == 1 { "runs" } else { "run" };
        lines.push(Line::ok(format!(
            "{title}: {} {verb} `rulesc hook` on all {} events",
            files.join(" and "),
            events.len()
        )));
    } else {
        lines.push(Line::error(format!(
            "{title}: no `rulesc hook` on {}, so those go unguarded; {init}",
            missing.join(", ")
        )));
    }
    let twice: Vec<&str> = events
        .iter()
        .copied()
        .filter(|event| {
            found
                .iter()
                .filter(|found| found.commands.contains_key(*event))
                .count()
                > 1
                || found.iter().any(|found| {
                    found
                        .commands
                        .get(*event)
                        .is_some_and(|list| list.len() > 1)
                })
        })
        .collect();
    if !twice.is_empty() {
        lines.push(Line::warning(format!(
            "{title}: `rulesc hook` runs more than once on {} (the project's and the user's settings), so every step counts twice; keep one of them",
            twice.join(", ")
        )));
    }
    lines
}

/// A host that reads a project's settings only in the folder it starts in (Claude Code,
/// Gemini CLI): settings with `rulesc hook` in a folder above `project` (up to the
/// repository's root or the home folder) do not apply to an agent started in `project`
fn above(host: Host, project: &Path, found: &[Found]) -> Option<Line> {
    if host.hook_template().reads_settings_above || found.iter().any(|found| !found.config.user) {
        return None;
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    for folder in project.ancestors() {
        if folder != project {
            let config = HookConfig::new(host, folder);
            if matches!(read(&config), Ok(Some(settings)) if !settings.commands.is_empty()) {
                return Some(Line::warning(format!(
                    "{title}: `{}` runs `rulesc hook`, but {title} started in `{}` reads only that folder's project settings; start the agent in `{}`, or run `rulesc init --user --host {}` to guard every folder",
                    config.path().display(),
                    project.display(),
                    folder.display(),
                    host.flag(),
                    title = host.title(),
                )));
            }
        }
        if folder.join(".git").exists() || Some(folder) == home.as_deref() {
            break;
        }
    }
    None
}

/// Whether the host runs hooks at all: Claude Code's `disableAllHooks`, Gemini CLI's
/// `hooksConfig.enabled`
pub(super) fn enabled(host: Host, found: &[Found], dirs: Option<&UserDirs>) -> Vec<Line> {
    let Some(switch) = host.hook_template().hooks_switch else {
        return Vec::new();
    };
    let key = switch.path.join(".");
    let off = |settings: &Json| {
        let value = switch
            .path
            .iter()
            .try_fold(settings, |json, key| json.get(*key));
        value == Some(&Json::Bool(switch.off))
    };
    // The user's settings count even when they hold no hooks of their own.
    let mut documents: Vec<(String, Json)> = found
        .iter()
        .map(|found| (found.shown.clone(), found.settings.clone()))
        .collect();
    if let Some(dirs) = dirs {
        let user = HookConfig::user(host, dirs);
        if !found.iter().any(|found| found.config.user) {
            if let Ok(Some(settings)) = read_json(&user.path(), &user.shown()) {
                documents.push((user.shown(), settings));
            }
        }
    }
    documents
        .iter()
        .filter(|(_, settings)| off(settings))
        .map(|(shown, _)| {
            Line::error(format!(
                "`{shown}` sets `{key}` so {} runs no hook; remove that key",
                host.title()
            ))
        })
        .collect()
}

/// Whether the host trusts what it must before it runs the hooks
pub(super) fn trust(
    host: Host,
    project: &Path,
    found: &[Found],
    dirs: Option<&UserDirs>,
) -> Vec<Line> {
    match host.hook_template().trust {
        Trust::HookHashes => hook_hashes(host, project, found, dirs),
        Trust::Folders(file) => trusted_folders(host, project, found, dirs, file),
        Trust::Nothing => Vec::new(),
    }
}

/// [`Trust::HookHashes`] (Codex): every `rulesc hook` handler trusted by its hash in the
/// user's `config.toml`, and a project's `.codex/` loaded only for a trusted project
fn hook_hashes(host: Host, project: &Path, found: &[Found], dirs: Option<&UserDirs>) -> Vec<Line> {
    let title = host.title();
    let Some(dirs) = dirs else {
        return vec![Line::warning(format!(
            "{title}: `HOME` is not set, so the trust of its hooks cannot be checked"
        ))];
    };
    let config_path = dirs.home_of(host).join("config.toml");
    let config = match read_document(&config_path) {
        Ok(config) => config.unwrap_or_default(),
        Err(reason) => return vec![Line::error(reason)],
    };
    let mut lines = Vec::new();
    for found in found.iter().filter(|found| !found.commands.is_empty()) {
        let mut entries = TrustEntry::of(&found.config.path(), &found.settings);
        if let (Some(toml), Some(file)) = (&found.toml, &found.config.also_read) {
            entries.extend(TrustEntry::of(&found.config.base.join(file), toml));
        }
        let untrusted: Vec<&str> = entries
            .iter()
            .filter(|entry| codex_trust::status(&config, entry) != TrustStatus::Trusted)
            .map(|entry| entry.event.as_str())
            .collect();
        let user = if found.config.user { " --user" } else { "" };
        let dir = if found.config.user {
            String::new()
        } else {
            format!(" {}", quoted(project))
        };
        if untrusted.is_empty() {
            lines.push(Line::ok(format!(
                "{title}: the hooks of `{}` are trusted in `{}`",
                found.shown,
                config_path.display()
            )));
        } else {
            lines.push(Line::error(format!(
                "{title}: the hooks of `{}` on {} are not trusted (or their command changed), so {title} skips them without a word; run `rulesc init --host {}{user} --trust{dir}`, or trust them in {title}'s `/hooks`",
                found.shown,
                untrusted.join(", "),
                host.flag()
            )));
        }
        if !found.config.user && !codex_project_trusted(&config, project) {
            lines.push(Line::warning(format!(
                "{title}: `{}` is not a trusted project in `{}`, so {title} does not load its `.codex/`; trust the folder when {title} asks, or add `[projects.\"{}\"]` with `trust_level = \"trusted\"`",
                project.display(),
                config_path.display(),
                project.display()
            )));
        }
    }
    lines
}

/// Whether `project` or a folder above it is trusted in Codex's `[projects]`
fn codex_project_trusted(config: &toml_edit::DocumentMut, project: &Path) -> bool {
    let Some(projects) = config.get("projects") else {
        return false;
    };
    project.ancestors().any(|folder| {
        projects
            .get(folder.to_string_lossy().as_ref())
            .and_then(|entry| entry.get("trust_level"))
            .and_then(|level| level.as_str())
            == Some("trusted")
    })
}

/// [`Trust::Folders`] (Gemini CLI): a project's hooks run only in a folder trusted in
/// `file` (under `HOME`)
fn trusted_folders(
    host: Host,
    project: &Path,
    found: &[Found],
    dirs: Option<&UserDirs>,
    file: &str,
) -> Vec<Line> {
    let title = host.title();
    if !found
        .iter()
        .any(|found| !found.config.user && !found.commands.is_empty())
    {
        return Vec::new();
    }
    let Some(dirs) = dirs else {
        return vec![Line::warning(format!(
            "{title}: `HOME` is not set, so its trusted folders cannot be checked"
        ))];
    };
    let file = dirs.home.join(file);
    let rules = match read_json(&file, &file.display().to_string()) {
        Ok(rules) => rules.unwrap_or(Json::Null),
        Err(reason) => return vec![Line::error(reason)],
    };
    if folder_trusted(&rules, project) {
        vec![Line::ok(format!(
            "{title}: `{}` is a trusted folder",
            project.display()
        ))]
    } else {
        vec![Line::error(format!(
            "{title}: `{}` is not a trusted folder in `{}`, so {title} runs none of the project's hooks; run `rulesc init --host {} --trust {}`, or trust the folder when {title} asks",
            project.display(),
            file.display(),
            host.flag(),
            quoted(project)
        ))]
    }
}

/// The command a found file runs on the host's tool-call event
pub(super) fn pre_tool_command(host: Host, found: &Found) -> Option<String> {
    found.commands.get(host.pre_tool_event())?.first().cloned()
}

/// A folder as one shell word
fn quoted(path: &Path) -> String {
    hook_config::shell_quote(&path.to_string_lossy())
}
