//! `rulesc init [--host claude|codex|gemini] [--force] [DIR]`: sets a project up for
//! `rulesc hook`: the shipped `safe-shell` policy in `DIR/.rulesc/`, and the host's hook
//! configuration running `rulesc hook` on every event it maps (docs/init.md).
//!
//! Invariant: nothing is written unless everything can be. Every file is read and merged
//! first; a malformed file, a key of the wrong type or a conflict (without `--force`) stops
//! the command with exit 2 before any write, so a user's configuration is never lost or
//! half-changed. A second run finds everything in place and writes nothing.

use std::io::Write;
use std::path::{Path, PathBuf};

use rulesc_host::durable::{replace_file, Durability};
use rulesc_host::{folder_trusted, Trust, TrustEntry};
use serde_json::Value as Json;

use crate::cli::args::InitArgs;
use crate::cli::codex_trust;
use crate::cli::doctor;
use crate::cli::hook_config::{self, HookConfig, UserDirs, POLICY_DIR};
use crate::cli::ExitStatus;

/// The starter policy's file name in the policy folder
const POLICY_FILE: &str = "safe-shell.rules";

/// The starter policy: the shipped file itself, so a change to it reaches `init`
const STARTER_POLICY: &str = include_str!("../../../rules/safe-shell.rules");

/// A file `init` will write
struct PlannedFile {
    /// Relative to the project folder, for messages
    shown: String,
    /// Where it goes
    path: PathBuf,
    /// Its new contents
    bytes: Vec<u8>,
    /// Whether a file is there already
    exists: bool,
}

/// Runs `rulesc init`
pub(crate) fn run(args: &InitArgs) -> ExitStatus {
    let dirs = UserDirs::from_env();
    let (config, policy_dir, project) = if args.user {
        let Some(dirs) = &dirs else {
            return fail("`HOME` is not set, so the user's settings cannot be found; set it and run `rulesc init --user` again");
        };
        (HookConfig::user(args.host, dirs), dirs.policy.clone(), None)
    } else {
        let project = match std::path::absolute(&args.dir) {
            // Hosts read the real path of the folder they start in (`getcwd`), and Codex's
            // trust keys name it.
            Ok(project) => project.canonicalize().unwrap_or(project),
            Err(err) => return fail(&format!("cannot use `{}`: {err}", args.dir.display())),
        };
        (
            HookConfig::new(args.host, &project),
            project.join(POLICY_DIR),
            Some(project),
        )
    };
    let shown_policy = if args.user {
        policy_dir.join(POLICY_FILE).display().to_string()
    } else {
        format!("{POLICY_DIR}/{POLICY_FILE}")
    };
    let plan = plan_policy(&policy_dir, shown_policy, args.force).and_then(|policy| {
        let (settings, merged) = plan_config(&config, args.force)?;
        let trust = if args.trust {
            plan_trust(&config, &merged, project.as_deref(), dirs.as_ref())?
        } else {
            None
        };
        Ok([policy, settings, trust])
    });
    let writes: Vec<PlannedFile> = match plan {
        Ok(writes) => writes.into_iter().flatten().collect(),
        Err(reason) => return fail(&reason),
    };
    let mut text = String::new();
    for write in &writes {
        if let Err(err) = write_file(write) {
            return fail(&format!("cannot write `{}`: {err}", write.shown));
        }
        let verb = if write.exists { "updated" } else { "created" };
        text.push_str(&format!("{verb} {}\n", write.shown));
    }
    let title = args.host.title();
    if writes.is_empty() {
        text.push_str(&format!(
            "nothing to do: the policy and the {title} hooks are in place\n"
        ));
    } else {
        let checked = if args.user {
            policy_dir.display().to_string()
        } else {
            args.dir.join(POLICY_DIR).display().to_string()
        };
        text.push_str(&format!(
            "next: `rulesc check {checked}` after each edit of the policy; {title} runs `rulesc hook` on {}\n",
            config.events.join(", ")
        ));
    }
    if !args.trust && args.host.hook_template().trust == Trust::HookHashes {
        let dir = project.as_deref().map_or_else(String::new, |project| {
            format!(" {}", hook_config::shell_quote(&project.to_string_lossy()))
        });
        let user = if args.user { " --user" } else { "" };
        text.push_str(&format!(
            "{title} runs these hooks only once you trust them: run `rulesc init --host {}{user} --trust{dir}` (it records their hashes in {title}'s `config.toml`), or review them in {title}'s `/hooks`\n",
            args.host.flag()
        ));
    }
    text.push_str("doctor:\n");
    let start = project
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from("."));
    for line in doctor::diagnose(Some(args.host), &start, dirs.as_ref()) {
        text.push_str(&format!("  {}\n", line.render()));
    }
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitStatus::Success,
        Err(_) => ExitStatus::Error,
    }
}

/// The starter policy in `folder`, unless the same file is there; another file there is a
/// conflict
fn plan_policy(folder: &Path, shown: String, force: bool) -> Result<Option<PlannedFile>, String> {
    let path = folder.join(POLICY_FILE);
    let existing = read(&path, &shown)?;
    match existing {
        Some(text) if text == STARTER_POLICY.as_bytes() => Ok(None),
        Some(_) if !force => Err(format!(
            "`{shown}` exists and differs from the starter policy; pass `--force` to replace it"
        )),
        existing => Ok(Some(PlannedFile {
            shown,
            path,
            bytes: STARTER_POLICY.as_bytes().to_vec(),
            exists: existing.is_some(),
        })),
    }
}

/// The host's configuration with the hooks merged in, unless they are there already, and
/// the configuration as it will be
fn plan_config(config: &HookConfig, force: bool) -> Result<(Option<PlannedFile>, Json), String> {
    let shown = config.shown();
    let existing = read_settings(&config.path(), &shown)?;
    let elsewhere = match &config.also_read {
        Some(file) => read_settings(&config.base.join(file), file)?,
        None => None,
    };
    let exists = existing.is_some();
    let merged = config
        .merge(existing.clone(), elsewhere, force)
        .map_err(|err| format!("`{shown}`: {err}; nothing was changed"))?;
    let Some(merged) = merged else {
        return Ok((None, existing.unwrap_or(Json::Null)));
    };
    // The user's key order is kept as far as serde_json keeps it: this file is theirs, not
    // one of rulesc's outputs, so it is not sorted on purpose.
    let mut bytes = serde_json::to_vec_pretty(&merged).map_err(|err| err.to_string())?;
    bytes.push(b'\n');
    Ok((
        Some(PlannedFile {
            shown,
            path: config.path(),
            bytes,
            exists,
        }),
        merged,
    ))
}

/// The host's record that the hooks are trusted, with the user's consent (`--trust`), by
/// the host's kind of [`Trust`]: `[hooks.state]` entries for every `rulesc hook` handler of
/// `settings` (the configuration as it will be) in `config.toml` (Codex); a trusted folder
/// for a project (Gemini CLI); nothing for a host that asks for no trust (Claude Code)
fn plan_trust(
    config: &HookConfig,
    settings: &Json,
    project: Option<&Path>,
    dirs: Option<&UserDirs>,
) -> Result<Option<PlannedFile>, String> {
    let Some(dirs) = dirs else {
        return Err("`HOME` is not set, so the host's trust cannot be recorded; set it, or run `rulesc init` without `--trust`".to_owned());
    };
    match config.host.hook_template().trust {
        Trust::HookHashes => {
            let path = dirs.home_of(config.host).join("config.toml");
            let shown = path.display().to_string();
            let (mut document, exists) = match read(&path, &shown)? {
                Some(bytes) => {
                    let text = String::from_utf8(bytes).map_err(|_| refuse_toml(&shown, 1))?;
                    (parse_toml(&text, &shown)?, true)
                }
                None => (toml_edit::DocumentMut::new(), false),
            };
            let entries = TrustEntry::of(&config.path(), settings);
            let hooks_trusted = codex_trust::trust(&mut document, &entries);
            let project_trusted =
                project.is_some_and(|project| codex_trust::trust_project(&mut document, project));
            if !hooks_trusted && !project_trusted {
                return Ok(None);
            }
            Ok(Some(PlannedFile {
                shown,
                path,
                bytes: document.to_string().into_bytes(),
                exists,
            }))
        }
        Trust::Folders(file) => {
            let Some(project) = project else {
                return Ok(None);
            };
            let path = dirs.home.join(file);
            let shown = path.display().to_string();
            let existing = read_settings(&path, &shown)?;
            let exists = existing.is_some();
            let mut rules = existing.unwrap_or_else(|| Json::Object(serde_json::Map::new()));
            if folder_trusted(&rules, project) {
                return Ok(None);
            }
            let Some(map) = rules.as_object_mut() else {
                return Err(format!("`{shown}` is not a JSON object, as Gemini CLI reads it; fix it, nothing was changed"));
            };
            map.insert(
                project.to_string_lossy().into_owned(),
                Json::String("TRUST_FOLDER".to_owned()),
            );
            let mut bytes = serde_json::to_vec_pretty(&rules).map_err(|err| err.to_string())?;
            bytes.push(b'\n');
            Ok(Some(PlannedFile {
                shown,
                path,
                bytes,
                exists,
            }))
        }
        Trust::Nothing => Ok(None),
    }
}

/// A TOML document, refused with its line when it does not parse
fn parse_toml(text: &str, shown: &str) -> Result<toml_edit::DocumentMut, String> {
    text.parse::<toml_edit::DocumentMut>().map_err(|err| {
        let offset = err.span().map_or(0, |span| span.start);
        refuse_toml(
            shown,
            1 + text.get(..offset).unwrap_or_default().matches('\n').count(),
        )
    })
}

/// The refusal of a file that is not TOML
fn refuse_toml(shown: &str, line: usize) -> String {
    format!(
        "`{shown}` is not valid TOML (line {line}); fix it and run `rulesc init` again, nothing was changed"
    )
}

/// A host's settings file as JSON (a `.toml` file read as TOML), `None` when there is none;
/// a file that does not parse is refused with its line
fn read_settings(path: &Path, shown: &str) -> Result<Option<Json>, String> {
    let Some(bytes) = read(path, shown)? else {
        return Ok(None);
    };
    if shown.ends_with(".toml") {
        let text = String::from_utf8(bytes).map_err(|_| refuse_toml(shown, 1))?;
        let document = parse_toml(&text, shown)?;
        return Ok(Some(hook_config::toml_to_json(document.as_item())));
    }
    serde_json::from_slice(&bytes).map(Some).map_err(|err| {
        format!(
            "`{shown}` is not valid JSON (line {}); fix it and run `rulesc init` again, nothing was changed",
            err.line()
        )
    })
}

/// The file's bytes, `None` when there is none
fn read(path: &Path, shown: &str) -> Result<Option<Vec<u8>>, String> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(format!("cannot read `{shown}`: {err}")),
    }
}

/// Writes one planned file, with its folder, atomically
fn write_file(write: &PlannedFile) -> std::io::Result<()> {
    if let Some(parent) = write.path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    replace_file(&write.path, &write.bytes, Durability::Durable)
}

/// Prints `reason` and returns exit 2
fn fail(reason: &str) -> ExitStatus {
    crate::cli::print_error(reason);
    ExitStatus::Error
}
