//! `rulesc doctor`: the chain from a coding agent to `rulesc hook`, checked the way the host
//! will walk it, one line per check with what to do about each problem.
//!
//! For each host: the hook configuration, read from the files the host reads (the
//! project's and the user's own); the trust the host asks for before it runs a hook
//! (Codex's `[hooks.state]`, Gemini CLI's trusted folders and `hooksConfig.enabled`); the
//! `rulesc` program the configured command starts, found on `PATH`; the policy compiling;
//! and the configured command itself, run through `sh -c` as the host runs it, allowing a
//! harmless call and denying `rm -rf /`.
//!
//! Invariant: a check never changes the user's files; the test calls keep their session
//! state in a folder of their own, removed afterwards.

mod probe;
mod settings;

use std::path::{Path, PathBuf};

use rulesc_host::Host;

use crate::cli::hook_config::{HookConfig, UserDirs, POLICY_DIR};
use settings::Found;

/// How a check came out
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// Nothing to do
    Ok,
    /// Works, but may not be what is meant
    Warning,
    /// The guard will not run, or will not decide
    Error,
}

/// One check's line
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    /// How it came out
    pub(crate) level: Level,
    /// What was found, and what to do when it is not ok
    pub(crate) text: String,
}

impl Line {
    fn ok(text: impl Into<String>) -> Line {
        Line {
            level: Level::Ok,
            text: text.into(),
        }
    }

    fn warning(text: impl Into<String>) -> Line {
        Line {
            level: Level::Warning,
            text: text.into(),
        }
    }

    fn error(text: impl Into<String>) -> Line {
        Line {
            level: Level::Error,
            text: text.into(),
        }
    }

    /// `ok: ...`, `warning: ...` or `error: ...`, on one line
    pub(crate) fn render(&self) -> String {
        let level = match self.level {
            Level::Ok => "ok",
            Level::Warning => "warning",
            Level::Error => "error",
        };
        format!("{level}: {}", rulesc::one_line(&self.text))
    }
}

/// Every check of `host` (of each host whose settings run `rulesc hook`, when `None`) for
/// an agent started in `project`; `dirs` are the user's folders, `None` without `HOME`
pub(crate) fn diagnose(host: Option<Host>, project: &Path, dirs: Option<&UserDirs>) -> Vec<Line> {
    let project = project
        .canonicalize()
        .unwrap_or_else(|_| project.to_path_buf());
    let hosts = match host {
        Some(host) => vec![host],
        None => {
            let found: Vec<Host> = Host::ALL
                .into_iter()
                .filter(|host| settings::configured(*host, &project, dirs))
                .collect();
            if found.is_empty() {
                vec![Host::Claude]
            } else {
                found
            }
        }
    };
    let mut lines = Vec::new();
    for host in hosts {
        lines.extend(diagnose_host(host, &project, dirs));
    }
    lines
}

/// The checks of one host
fn diagnose_host(host: Host, project: &Path, dirs: Option<&UserDirs>) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut configs = vec![HookConfig::new(host, project)];
    configs.extend(dirs.map(|dirs| HookConfig::user(host, dirs)));
    let found: Vec<Found> = configs
        .iter()
        .filter_map(|config| match settings::read(config) {
            Ok(found) => found,
            Err(reason) => {
                lines.push(Line::error(reason));
                None
            }
        })
        .collect();
    lines.extend(settings::coverage(host, project, &found));
    lines.extend(settings::enabled(host, &found, dirs));
    lines.extend(settings::trust(host, project, &found, dirs));
    let commands = distinct_commands(&found);
    lines.extend(commands.iter().map(|command| probe::program(command)));
    for policy in policies(&found, dirs) {
        lines.push(probe::compiles(&policy));
    }
    for found in found.iter().filter(|found| !found.commands.is_empty()) {
        if let Some(command) = settings::pre_tool_command(host, found) {
            lines.push(probe::answers(host, project, &found.shown, &command));
        }
    }
    lines
}

/// The `rulesc hook` commands configured, each once
fn distinct_commands(found: &[Found]) -> Vec<String> {
    let mut commands: Vec<String> = found
        .iter()
        .flat_map(|found| found.commands.values().flatten().cloned())
        .collect();
    commands.sort();
    commands.dedup();
    commands
}

/// The policy folders the configured commands run: the project's for a project's settings,
/// the user's (and the project's, when there is one) for the user's settings
fn policies(found: &[Found], dirs: Option<&UserDirs>) -> Vec<PathBuf> {
    let mut policies = Vec::new();
    for found in found.iter().filter(|found| !found.commands.is_empty()) {
        if found.config.user {
            policies.extend(dirs.map(|dirs| dirs.policy.clone()));
        } else {
            policies.push(found.config.base.join(POLICY_DIR));
        }
    }
    policies.sort();
    policies.dedup();
    policies
}
