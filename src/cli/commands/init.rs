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
use serde_json::Value as Json;

use crate::cli::args::InitArgs;
use crate::cli::hook_config::{self, HookConfig, POLICY_DIR};
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
    let project = match std::path::absolute(&args.dir) {
        Ok(project) => project,
        Err(err) => return fail(&format!("cannot use `{}`: {err}", args.dir.display())),
    };
    let config = HookConfig::new(args.host, &project);
    let plan = plan_policy(&project, args.force)
        .and_then(|policy| Ok([policy, plan_config(&project, &config, args.force)?]));
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
    if writes.is_empty() {
        text.push_str(&format!(
            "nothing to do: the policy and the {} hooks are in place\n",
            args.host.title()
        ));
    } else {
        text.push_str(&format!(
            "next: `rulesc check {}` after each edit of the policy; {} runs `rulesc hook` on {}\n",
            args.dir.join(POLICY_DIR).display(),
            args.host.title(),
            config.events.join(", ")
        ));
    }
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitStatus::Success,
        Err(_) => ExitStatus::Error,
    }
}

/// The starter policy, unless the same file is there; another file there is a conflict
fn plan_policy(project: &Path, force: bool) -> Result<Option<PlannedFile>, String> {
    let shown = format!("{POLICY_DIR}/{POLICY_FILE}");
    let path = project.join(POLICY_DIR).join(POLICY_FILE);
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

/// The host's configuration with the hooks merged in, unless they are there already
fn plan_config(
    project: &Path,
    config: &HookConfig,
    force: bool,
) -> Result<Option<PlannedFile>, String> {
    let path = project.join(config.file);
    let existing = read_settings(project, config.file)?;
    let elsewhere = match config.also_read {
        Some(file) => read_settings(project, file)?,
        None => None,
    };
    let exists = existing.is_some();
    let merged = config
        .merge(existing, elsewhere, force)
        .map_err(|err| format!("`{}`: {err}; nothing was changed", config.file))?;
    let Some(merged) = merged else {
        return Ok(None);
    };
    // The user's key order is kept as far as serde_json keeps it: this file is theirs, not
    // one of rulesc's outputs, so it is not sorted on purpose.
    let mut bytes = serde_json::to_vec_pretty(&merged).map_err(|err| err.to_string())?;
    bytes.push(b'\n');
    Ok(Some(PlannedFile {
        shown: config.file.to_owned(),
        path,
        bytes,
        exists,
    }))
}

/// A host's settings file as JSON (a `.toml` file read as TOML), `None` when there is none;
/// a file that does not parse is refused with its line
fn read_settings(project: &Path, shown: &str) -> Result<Option<Json>, String> {
    let Some(bytes) = read(&project.join(shown), shown)? else {
        return Ok(None);
    };
    let refuse = |language: &str, line: usize| {
        format!(
            "`{shown}` is not valid {language} (line {line}); fix it and run `rulesc init` again, nothing was changed"
        )
    };
    if shown.ends_with(".toml") {
        let text = String::from_utf8(bytes).map_err(|_| refuse("TOML", 1))?;
        let document = text.parse::<toml_edit::DocumentMut>().map_err(|err| {
            let offset = err.span().map_or(0, |span| span.start);
            refuse(
                "TOML",
                1 + text.get(..offset).unwrap_or_default().matches('\n').count(),
            )
        })?;
        return Ok(Some(hook_config::toml_to_json(document.as_item())));
    }
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|err| refuse("JSON", err.line()))
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
