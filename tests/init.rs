//! `rulesc init`: the files it writes, held to the shipped policy and to the shapes each
//! host reads its hook configuration in (modelled below from the hosts' sources, not from
//! rulesc), and the promises of a merge: no key lost, a second run a no-op, conflicts only
//! replaced under `--force`, malformed files left untouched.

#![expect(
    clippy::unwrap_used,
    reason = "helpers of tests: a fixture that cannot be read or run should fail the test"
)]

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::{json, Value as Json};

/// The commands each event of a configuration runs, by event
type Commands = BTreeMap<String, Vec<String>>;

/// What each host calls the events the event table of docs/hosts.md maps, and the file it reads hooks
/// from
struct HostFacts {
    flag: &'static str,
    file: &'static str,
    events: &'static [&'static str],
    /// Reads the file as the host does; an error is a file the host would refuse
    read: fn(&str) -> Result<Commands, String>,
}

/// the event table of docs/hosts.md, with PermissionRequest (judged as the tool call it approves) and
/// the events each host names in its own sources (tests/host_protocol)
const HOSTS: [HostFacts; 3] = [
    HostFacts {
        flag: "claude",
        file: ".claude/settings.json",
        events: &[
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PermissionRequest",
            "PostToolUse",
            "PostToolUseFailure",
            "Stop",
            "SubagentStop",
            "SessionEnd",
        ],
        read: claude::read,
    },
    HostFacts {
        flag: "codex",
        file: ".codex/hooks.json",
        events: &[
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PermissionRequest",
            "PostToolUse",
            "Stop",
            "SubagentStop",
            "SessionEnd",
        ],
        read: codex::read,
    },
    HostFacts {
        flag: "gemini",
        file: ".gemini/settings.json",
        events: &[
            "SessionStart",
            "BeforeAgent",
            "BeforeTool",
            "AfterTool",
            "AfterAgent",
            "SessionEnd",
        ],
        read: gemini::read,
    },
];

/// The commands of every event, from each group's commands that run on every tool
fn by_event<G>(hooks: BTreeMap<String, Vec<G>>, commands: impl Fn(G) -> Vec<String>) -> Commands {
    hooks
        .into_iter()
        .map(|(event, groups)| (event, groups.into_iter().flat_map(&commands).collect()))
        .collect()
}

/// Claude Code's settings (code.claude.com/docs/en/hooks, "Configuration"): `hooks` maps an
/// event to matcher groups `{matcher?, hooks: [{type: "command", command, timeout?}]}`
mod claude {
    use super::*;

    #[derive(Deserialize)]
    struct Settings {
        #[serde(default)]
        hooks: BTreeMap<String, Vec<Group>>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Group {
        #[serde(default)]
        matcher: Option<String>,
        hooks: Vec<Handler>,
    }

    #[derive(Deserialize)]
    #[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
    enum Handler {
        Command {
            command: String,
            #[serde(default, rename = "timeout")]
            _timeout: Option<u64>,
        },
    }

    pub(super) fn read(text: &str) -> Result<Commands, String> {
        let settings: Settings = serde_json::from_str(text).map_err(|err| err.to_string())?;
        Ok(by_event(settings.hooks, |group: Group| {
            let every_tool = group
                .matcher
                .as_deref()
                .is_none_or(|m| m.is_empty() || m == "*");
            let commands = group.hooks.into_iter();
            let commands = commands.map(|Handler::Command { command, .. }| command);
            if every_tool {
                commands.collect()
            } else {
                Vec::new()
            }
        }))
    }
}

/// Codex's `hooks.json` (openai/codex `codex-rs/config/src/hook_config.rs`: `HooksFile`,
/// `MatcherGroup`, `HookHandlerConfig` tagged by `type`; `deny_unknown_fields` on
/// `HooksFile` in one revision). A group without `matcher` matches every tool.
mod codex {
    use super::*;

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct HooksFile {
        #[serde(default)]
        hooks: BTreeMap<String, Vec<MatcherGroup>>,
    }

    #[derive(Deserialize)]
    struct MatcherGroup {
        #[serde(default)]
        matcher: Option<String>,
        #[serde(default)]
        hooks: Vec<HookHandlerConfig>,
    }

    #[derive(Deserialize)]
    #[serde(tag = "type")]
    enum HookHandlerConfig {
        #[serde(rename = "command")]
        Command {
            command: String,
            #[serde(default, rename = "timeout")]
            _timeout_sec: Option<u64>,
            #[serde(default, rename = "async")]
            _async: bool,
            #[serde(default, rename = "statusMessage")]
            _status_message: Option<String>,
        },
        #[serde(rename = "prompt")]
        Prompt {},
        #[serde(rename = "agent")]
        Agent {},
    }

    pub(super) fn read(text: &str) -> Result<Commands, String> {
        let file: HooksFile = serde_json::from_str(text).map_err(|err| err.to_string())?;
        Ok(by_event(file.hooks, |group: MatcherGroup| {
            if group.matcher.is_some() {
                return Vec::new();
            }
            group
                .hooks
                .into_iter()
                .filter_map(|handler| match handler {
                    HookHandlerConfig::Command { command, .. } => Some(command),
                    HookHandlerConfig::Prompt {} | HookHandlerConfig::Agent {} => None,
                })
                .collect()
        }))
    }
}

/// Gemini CLI's settings (google-gemini/gemini-cli `packages/core/src/hooks/types.ts`:
/// `HookDefinition {matcher?, sequential?, hooks: CommandHookConfig[]}`,
/// `CommandHookConfig {type: "command", command, timeout?}`)
mod gemini {
    use super::*;

    #[derive(Deserialize)]
    struct Settings {
        #[serde(default)]
        hooks: BTreeMap<String, Json>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct HookDefinition {
        #[serde(default)]
        matcher: Option<String>,
        #[serde(default)]
        #[expect(dead_code, reason = "read to hold the shape, not used")]
        sequential: Option<bool>,
        hooks: Vec<CommandHookConfig>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct CommandHookConfig {
        r#type: String,
        command: String,
        #[serde(default)]
        #[expect(dead_code, reason = "read to hold the shape, not used")]
        timeout: Option<u64>,
    }

    pub(super) fn read(text: &str) -> Result<Commands, String> {
        let settings: Settings = serde_json::from_str(text).map_err(|err| err.to_string())?;
        let mut events = BTreeMap::new();
        for (event, value) in settings.hooks {
            // `hooks` also holds switches such as `enabled` in some releases.
            let Ok(definitions) = serde_json::from_value::<Vec<HookDefinition>>(value) else {
                continue;
            };
            let mut commands = Vec::new();
            for definition in definitions {
                if definition
                    .matcher
                    .as_deref()
                    .is_some_and(|m| !m.is_empty() && m != "*")
                {
                    continue;
                }
                for hook in definition.hooks {
                    if hook.r#type != "command" {
                        return Err(format!("hook type `{}`", hook.r#type));
                    }
                    commands.push(hook.command);
                }
            }
            events.insert(event, commands);
        }
        Ok(events)
    }
}

fn init(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut full = vec!["init"];
    full.extend_from_slice(args);
    let dir_text = dir.to_str().unwrap();
    full.push(dir_text);
    common::rulesc(".", &full)
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap()
}

/// The rulesc commands each event of the host's file runs
fn rulesc_commands(host: &HostFacts, dir: &Path) -> Commands {
    let mut events = (host.read)(&read(dir, host.file)).unwrap();
    for commands in events.values_mut() {
        commands.retain(|command| command.starts_with("rulesc "));
    }
    events.retain(|_, commands| !commands.is_empty());
    events
}

#[test]
fn a_fresh_folder_gets_the_shipped_policy_and_a_hook_on_every_event() {
    let shipped = std::fs::read_to_string("rules/safe-shell.rules").unwrap();
    for host in &HOSTS {
        let dir = tempfile::tempdir().unwrap();
        let (code, stdout, stderr) = init(dir.path(), &["--host", host.flag]);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stdout.contains(&format!("created {}", host.file)),
            "{stdout}"
        );
        assert_eq!(read(dir.path(), ".rulesc/safe-shell.rules"), shipped);
        let events = rulesc_commands(host, dir.path());
        let names: Vec<&str> = events.keys().map(String::as_str).collect();
        let mut expected = host.events.to_vec();
        expected.sort_unstable();
        assert_eq!(names, expected, "{}", host.flag);
        for commands in events.values() {
            assert_eq!(commands.len(), 1);
            assert!(commands[0].ends_with(&format!(" --host {}", host.flag)));
        }
        let policy = dir.path().join(".rulesc");
        let (code, _, stderr) = common::rulesc(
            ".",
            &[
                "check",
                "--deny-warnings",
                "--host",
                host.flag,
                policy.to_str().unwrap(),
            ],
        );
        assert_eq!(code, 0, "{stderr}");
    }
}

/// The configured command, run by a shell as the host runs it, guards the project
#[test]
fn the_configured_command_denies_a_destructive_call() {
    let bin = Path::new(env!("CARGO_BIN_EXE_rulesc")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (host, tool, pre_tool) in [
        (&HOSTS[0], "Bash", "PreToolUse"),
        (&HOSTS[1], "Bash", "PreToolUse"),
        (&HOSTS[2], "run_shell_command", "BeforeTool"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let state = tempfile::tempdir().unwrap();
        assert_eq!(init(dir.path(), &["--host", host.flag]).0, 0);
        let command = rulesc_commands(host, dir.path())[pre_tool][0].clone();
        let payload = json!({"session_id": "s", "hook_event_name": pre_tool, "cwd": dir.path(),
            "transcript_path": null, "tool_name": tool, "tool_input": {"command": "sudo rm -rf /"}});
        let mut shell = std::process::Command::new("sh");
        shell
            .args([
                "-c",
                &format!("{command} --state-dir {}", state.path().display()),
            ])
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("CLAUDE_PROJECT_DIR", dir.path())
            .env("GEMINI_PROJECT_DIR", dir.path());
        let (code, stdout, stderr) = common::run(&mut shell, &payload.to_string());
        let denied = code == 2 || stdout.contains("\"deny\"");
        assert!(
            denied,
            "{}: exit {code}, stdout {stdout}, stderr {stderr}",
            host.flag
        );
    }
}

#[test]
fn a_second_run_changes_no_byte() {
    for host in &HOSTS {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(init(dir.path(), &["--host", host.flag]).0, 0);
        let before = (
            read(dir.path(), host.file),
            read(dir.path(), ".rulesc/safe-shell.rules"),
        );
        let (code, stdout, _) = init(dir.path(), &["--host", host.flag]);
        assert_eq!(code, 0);
        assert!(stdout.starts_with("nothing to do"), "{stdout}");
        let after = (
            read(dir.path(), host.file),
            read(dir.path(), ".rulesc/safe-shell.rules"),
        );
        assert_eq!(before, after);
    }
}

#[test]
fn an_existing_configuration_keeps_every_key() {
    let existing = json!({
        "model": "opus",
        "permissions": {"allow": ["Bash(ls:*)"], "deny": []},
        "hooks": {
            "PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]}],
            "Notification": [{"hooks": [{"type": "command", "command": "notify.sh"}]}]
        }
    });
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".claude")).unwrap();
    std::fs::write(
        dir.path().join(".claude/settings.json"),
        existing.to_string(),
    )
    .unwrap();
    let (code, stdout, stderr) = init(dir.path(), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("updated .claude/settings.json"), "{stdout}");
    let merged: Json = serde_json::from_str(&read(dir.path(), ".claude/settings.json")).unwrap();
    assert_eq!(merged["model"], existing["model"]);
    assert_eq!(merged["permissions"], existing["permissions"]);
    assert_eq!(
        merged["hooks"]["Notification"],
        existing["hooks"]["Notification"]
    );
    assert_eq!(
        merged["hooks"]["PreToolUse"][0],
        existing["hooks"]["PreToolUse"][0]
    );
    assert_eq!(merged["hooks"]["PreToolUse"].as_array().unwrap().len(), 2);
    assert_eq!(
        rulesc_commands(&HOSTS[0], dir.path()).len(),
        HOSTS[0].events.len()
    );
}

#[test]
fn a_conflict_is_replaced_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let other = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "rulesc hook other.rules --host claude"}]}]}})
    .to_string();
    std::fs::create_dir(dir.path().join(".claude")).unwrap();
    std::fs::write(dir.path().join(".claude/settings.json"), &other).unwrap();
    let (code, _, stderr) = init(dir.path(), &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("`Stop` already runs `rulesc hook other.rules --host claude`"),
        "{stderr}"
    );
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(read(dir.path(), ".claude/settings.json"), other);
    assert!(
        !dir.path().join(".rulesc").exists(),
        "nothing is written before a refusal"
    );

    let (code, _, stderr) = init(dir.path(), &["--force"]);
    assert_eq!(code, 0, "{stderr}");
    let stop = &rulesc_commands(&HOSTS[0], dir.path())["Stop"];
    assert_eq!(stop.len(), 1);
    assert!(stop[0].contains(".rulesc --host claude"), "{stop:?}");
}

#[test]
fn an_edited_policy_is_replaced_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".rulesc")).unwrap();
    let mine = "policy \"mine\"\n";
    std::fs::write(dir.path().join(".rulesc/safe-shell.rules"), mine).unwrap();
    let (code, _, stderr) = init(dir.path(), &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("`.rulesc/safe-shell.rules` exists and differs"),
        "{stderr}"
    );
    assert_eq!(read(dir.path(), ".rulesc/safe-shell.rules"), mine);
    assert!(!dir.path().join(".claude").exists());
    assert_eq!(init(dir.path(), &["--force"]).0, 0);
    assert_ne!(read(dir.path(), ".rulesc/safe-shell.rules"), mine);
}

#[test]
fn a_malformed_file_is_left_untouched() {
    for (text, line) in [
        ("{\n  \"model\": \"opus\",\n}\n", 3),
        ("{\"hooks\": []}", 0),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".gemini")).unwrap();
        std::fs::write(dir.path().join(".gemini/settings.json"), text).unwrap();
        let (code, stdout, stderr) = init(dir.path(), &["--host", "gemini", "--force"]);
        assert_eq!(code, 2, "{stdout}");
        assert!(
            stderr.starts_with("error: `.gemini/settings.json`"),
            "{stderr}"
        );
        if line > 0 {
            assert!(stderr.contains(&format!("line {line}")), "{stderr}");
        }
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert_eq!(read(dir.path(), ".gemini/settings.json"), text);
        assert!(!dir.path().join(".rulesc").exists());
    }
}

/// Codex also runs the `[hooks]` of `.codex/config.toml` (openai/codex
/// `codex-rs/hooks/src/engine/discovery.rs`, `load_toml_hooks_from_layer`): `init` reads it,
/// never writes it, and adds nothing that would run twice
#[test]
fn codex_hooks_in_config_toml_are_respected_and_never_written() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(init(dir.path(), &["--host", "codex"]).0, 0);
    let ours = rulesc_commands(&HOSTS[1], dir.path())["PreToolUse"][0].clone();
    std::fs::remove_file(dir.path().join(".codex/hooks.json")).unwrap();

    let toml = format!(
        "# my settings\nmodel = \"o3\"\n\n[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\n",
        json!(ours)
    );
    std::fs::write(dir.path().join(".codex/config.toml"), &toml).unwrap();
    let (code, _, stderr) = init(dir.path(), &["--host", "codex"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read(dir.path(), ".codex/config.toml"), toml);
    let events = rulesc_commands(&HOSTS[1], dir.path());
    assert!(!events.contains_key("PreToolUse"), "{events:?}");
    assert_eq!(events.len(), HOSTS[1].events.len() - 1);

    let other = toml.replace(&ours, "rulesc hook old.rules --host codex");
    std::fs::write(dir.path().join(".codex/config.toml"), &other).unwrap();
    std::fs::remove_file(dir.path().join(".codex/hooks.json")).unwrap();
    let (code, _, stderr) = init(dir.path(), &["--host", "codex", "--force"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(
            "`.codex/config.toml` runs `rulesc hook old.rules --host codex` on `PreToolUse`"
        ),
        "{stderr}"
    );
    assert_eq!(read(dir.path(), ".codex/config.toml"), other);
    assert!(!dir.path().join(".codex/hooks.json").exists());

    let broken = "model = \"o3\"\n[hooks\n";
    std::fs::write(dir.path().join(".codex/config.toml"), broken).unwrap();
    let (code, _, stderr) = init(dir.path(), &["--host", "codex"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("`.codex/config.toml` is not valid TOML (line 2)"),
        "{stderr}"
    );
    assert_eq!(read(dir.path(), ".codex/config.toml"), broken);
}

/// `--user` writes into the user's own settings, which each host reads in every folder
/// (`~/.claude/settings.json`, `~/.gemini/settings.json`, `$CODEX_HOME/hooks.json`), and
/// the starter policy into `$XDG_CONFIG_HOME/rulesc/`; each command runs that folder and
/// discovers the project's
#[test]
fn user_settings_get_hooks_that_discover_the_project() {
    let root = tempfile::tempdir().unwrap();
    let home = root.path().join("home");
    let xdg = root.path().join("xdg");
    let codex_home = root.path().join("codex home");
    let shipped = std::fs::read_to_string("rules/safe-shell.rules").unwrap();
    for (host, file) in [
        (&HOSTS[0], home.join(".claude/settings.json")),
        (&HOSTS[1], codex_home.join("hooks.json")),
        (&HOSTS[2], home.join(".gemini/settings.json")),
    ] {
        let mut command = common::command(".", &["init", "--user", "--host", host.flag]);
        command
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", &xdg)
            .env("CODEX_HOME", &codex_home);
        let (code, stdout, stderr) = common::run(&mut command, "");
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stdout.contains(&format!("created {}", file.display())),
            "{stdout}"
        );
        let events = (host.read)(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let mut names: Vec<&str> = events.keys().map(String::as_str).collect();
        names.sort_unstable();
        let mut expected = host.events.to_vec();
        expected.sort_unstable();
        assert_eq!(names, expected, "{}", host.flag);
        let policy = xdg.join("rulesc");
        for commands in events.values() {
            assert_eq!(
                commands,
                &[format!(
                    "rulesc hook {} --discover --host {}",
                    policy.display(),
                    host.flag
                )]
            );
        }
        assert_eq!(
            std::fs::read_to_string(policy.join("safe-shell.rules")).unwrap(),
            shipped
        );
    }
}
