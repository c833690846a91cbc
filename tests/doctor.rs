//! `rulesc doctor`: each check against a real setup in a temporary home folder, with the
//! fault the check exists for put in by hand: hooks the host would not run (missing, not
//! trusted, outside a trusted folder), a `rulesc` the host cannot find, a policy that does
//! not compile. The trust Codex asks for is held to its definition (a SHA-256 of the hook's
//! identity, written out here by hand), not to rulesc's code.

#![expect(
    clippy::unwrap_used,
    reason = "helpers of tests: a fixture that cannot be read or run should fail the test"
)]

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};

/// A home folder and a project in it, under one temporary folder
struct Setup {
    _root: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

impl Setup {
    /// A project named `name` (with a `.git`, as a repository) in a fresh home
    fn new(name: &str) -> Setup {
        let root = tempfile::tempdir().unwrap();
        let base = root.path().canonicalize().unwrap();
        let home = base.join("home");
        let project = home.join(name);
        std::fs::create_dir_all(project.join(".git")).unwrap();
        Setup {
            _root: root,
            home,
            project,
        }
    }

    /// `rulesc args...` in `dir`, with this home, no other settings folders, and `path` as
    /// `PATH`
    fn rulesc_with_path(&self, dir: &Path, args: &[&str], path: &str) -> (i32, String, String) {
        let mut command = common::command(dir, args);
        command
            .env("HOME", &self.home)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("CODEX_HOME")
            .env("PATH", path);
        common::run(&mut command, "")
    }

    /// `rulesc args...` in the project, with `rulesc` on `PATH`
    fn rulesc(&self, args: &[&str]) -> (i32, String, String) {
        self.rulesc_with_path(&self.project, args, &path_with_rulesc())
    }

    /// `rulesc doctor --host HOST` in the project
    fn doctor(&self, host: &str) -> (i32, String, String) {
        self.rulesc(&["doctor", "--host", host])
    }

    fn read_json(&self, file: &str) -> Json {
        serde_json::from_str(&std::fs::read_to_string(self.project.join(file)).unwrap()).unwrap()
    }

    fn write_json(&self, file: &str, json: &Json) {
        std::fs::write(self.project.join(file), json.to_string()).unwrap();
    }
}

/// `PATH` with the folder of the `rulesc` under test first
fn path_with_rulesc() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_rulesc")).parent().unwrap();
    format!("{}:/usr/bin:/bin", bin.display())
}

/// The lines of a level (`ok`, `warning`, `error`)
fn lines<'a>(stdout: &'a str, level: &str) -> Vec<&'a str> {
    let prefix = format!("{level}: ");
    stdout
        .lines()
        .filter(|line| line.starts_with(&prefix))
        .collect()
}

/// Every line is `ok`, and there are lines for settings, `PATH`, policy and the test call
fn assert_all_ok(host: &str, (code, stdout, stderr): &(i32, String, String)) {
    assert_eq!(*code, 0, "{host}: {stdout}{stderr}");
    let ok = lines(stdout, "ok");
    assert_eq!(ok.len(), stdout.lines().count(), "{host}: {stdout}");
    for expected in [
        "on all",
        "on `PATH` is",
        "compiles",
        "allows `ls` and denies `rm -rf /`",
    ] {
        assert!(
            ok.iter().any(|line| line.contains(expected)),
            "{host}: no line with `{expected}`:\n{stdout}"
        );
    }
}

/// The one error line that contains `needle`, with exit 1
fn assert_error(what: &str, (code, stdout, _): &(i32, String, String), needle: &str) {
    assert_eq!(*code, 1, "{what}: {stdout}");
    assert!(
        lines(stdout, "error")
            .iter()
            .any(|line| line.contains(needle)),
        "{what}: no error with `{needle}`:\n{stdout}"
    );
}

#[test]
fn a_project_set_up_by_init_is_all_ok_for_every_host() {
    for host in ["claude", "codex", "gemini"] {
        let setup = Setup::new("app");
        if host == "codex" {
            // Codex loads a project's `.codex/` only for a trusted project; that trust is the
            // user's, and `init` keeps it.
            let config = setup.home.join(".codex/config.toml");
            std::fs::create_dir_all(config.parent().unwrap()).unwrap();
            let trusted = format!(
                "[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
                setup.project.display()
            );
            std::fs::write(&config, trusted).unwrap();
        }
        let (code, stdout, stderr) = setup.rulesc(&["init", "--host", host, "--trust"]);
        assert_eq!(code, 0, "{stderr}");
        // `init` ends with the doctor's lines.
        assert!(stdout.contains("doctor:\n  ok: "), "{stdout}");
        assert_all_ok(host, &setup.doctor(host));
    }
}

#[test]
fn a_rulesc_the_host_cannot_find_is_an_error() {
    let setup = Setup::new("app");
    assert_eq!(setup.rulesc(&["init"]).0, 0);
    let doctor = Path::new(env!("CARGO_BIN_EXE_rulesc"));
    let result = setup.rulesc_with_path(
        &setup.project,
        &["doctor", "--host", "claude"],
        "/usr/bin:/bin",
    );
    assert_error("no rulesc", &result, "`rulesc` is not on `PATH`");
    // The fix names the program running the check.
    assert!(
        result.1.contains(&doctor.display().to_string()),
        "{}",
        result.1
    );
    // The test call fails too: the shell cannot start the command.
    assert_error("no rulesc", &result, "did not answer a test call");
}

#[test]
fn a_policy_that_does_not_compile_is_an_error() {
    let setup = Setup::new("app");
    assert_eq!(setup.rulesc(&["init"]).0, 0);
    std::fs::write(
        setup.project.join(".rulesc/broken.rules"),
        "on pre_tool_use when nope block\n",
    )
    .unwrap();
    let result = setup.doctor("claude");
    assert_error("broken policy", &result, "does not compile");
    assert_error("broken policy", &result, "denies even `ls`");
}

#[test]
fn a_missing_hook_entry_is_an_error_naming_the_event() {
    let setup = Setup::new("app");
    assert_eq!(setup.rulesc(&["init"]).0, 0);
    let mut settings = setup.read_json(".claude/settings.json");
    settings["hooks"]
        .as_object_mut()
        .unwrap()
        .remove("PreToolUse");
    setup.write_json(".claude/settings.json", &settings);
    let result = setup.doctor("claude");
    assert_error("missing entry", &result, "no `rulesc hook` on PreToolUse");
    // Without a PreToolUse hook there is no command to put a test call to.
    assert!(!result.1.contains("denies `rm -rf /`"), "{}", result.1);
}

/// Codex's trust hash of a command hook without matcher, timeout or status message, from
/// its definition: the normalized identity as compact JSON with sorted keys, SHA-256
fn codex_hash(event_key: &str, command: &str) -> String {
    let identity = format!(
        r#"{{"event_name":"{event_key}","hooks":[{{"async":false,"command":{},"timeout":600,"type":"command"}}]}}"#,
        Json::String(command.to_owned())
    );
    let mut text = String::from("sha256:");
    for byte in Sha256::digest(identity.as_bytes()) {
        text.push_str(&format!("{byte:02x}"));
    }
    text
}

#[test]
fn codex_hooks_run_only_once_trusted_by_their_hash() {
    let setup = Setup::new("my app");
    let (code, stdout, _) = setup.rulesc(&["init", "--host", "codex"]);
    assert_eq!(code, 0);
    // Without `--trust`, nothing is trusted, and `init` says how.
    assert!(stdout.contains("--trust"), "{stdout}");
    assert!(!setup.home.join(".codex/config.toml").exists());
    assert_error("untrusted", &setup.doctor("codex"), "are not trusted");

    let (code, _, stderr) = setup.rulesc(&["init", "--host", "codex", "--trust"]);
    assert_eq!(code, 0, "{stderr}");
    let config = std::fs::read_to_string(setup.home.join(".codex/config.toml")).unwrap();
    let command = setup.read_json(".codex/hooks.json")["hooks"]["PreToolUse"][0]["hooks"][0]
        ["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let key = format!(
        "[hooks.state.\"{}/.codex/hooks.json:pre_tool_use:0:0\"]",
        setup.project.display()
    );
    let entry = format!(
        "{key}\ntrusted_hash = \"{}\"",
        codex_hash("pre_tool_use", &command)
    );
    assert!(config.contains(&entry), "{entry}\nnot in\n{config}");
    let (code, stdout, _) = setup.doctor("codex");
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("ok: Codex: the hooks of"), "{stdout}");

    // A command changed by hand is no longer trusted.
    let mut hooks = setup.read_json(".codex/hooks.json");
    hooks["hooks"]["Stop"][0]["hooks"][0]["command"] = json!(format!("{command} --fail-open"));
    setup.write_json(".codex/hooks.json", &hooks);
    assert_error(
        "modified",
        &setup.doctor("codex"),
        "on Stop are not trusted",
    );
}

#[test]
fn gemini_hooks_outside_a_trusted_folder_are_an_error() {
    let setup = Setup::new("app");
    assert_eq!(setup.rulesc(&["init", "--host", "gemini"]).0, 0);
    let result = setup.doctor("gemini");
    assert_error("untrusted folder", &result, "is not a trusted folder");
    // Trusting the folder above the project, as Gemini CLI's own rules allow, is enough.
    let folders = json!({ setup.home.display().to_string(): "TRUST_FOLDER" });
    std::fs::create_dir_all(setup.home.join(".gemini")).unwrap();
    std::fs::write(
        setup.home.join(".gemini/trustedFolders.json"),
        folders.to_string(),
    )
    .unwrap();
    assert_all_ok("gemini", &setup.doctor("gemini"));
    // Hooks turned off in the user's settings are an error again.
    std::fs::write(
        setup.home.join(".gemini/settings.json"),
        r#"{"hooksConfig": {"enabled": false}}"#,
    )
    .unwrap();
    assert_error("disabled", &setup.doctor("gemini"), "`hooksConfig.enabled`");
}

/// Gemini CLI replaces `$GEMINI_PROJECT_DIR` in the command's text with a quoted path: in a
/// folder with a space, the form earlier releases of `init` wrote denies every call, and the
/// doctor, which runs the command as the host does, sees it
#[test]
fn gemini_commands_work_in_a_folder_with_a_space() {
    let setup = Setup::new("my app");
    assert_eq!(setup.rulesc(&["init", "--host", "gemini", "--trust"]).0, 0);
    assert_all_ok("gemini", &setup.doctor("gemini"));
    let mut settings = setup.read_json(".gemini/settings.json");
    for groups in settings["hooks"].as_object_mut().unwrap().values_mut() {
        groups[0]["hooks"][0]["command"] =
            json!("rulesc hook \"$GEMINI_PROJECT_DIR\"/.rulesc --host gemini");
    }
    setup.write_json(".gemini/settings.json", &settings);
    assert_error("old form", &setup.doctor("gemini"), "denies even `ls`");
    // `init` replaces the old form without `--force`.
    let (code, stdout, stderr) = setup.rulesc(&["init", "--host", "gemini"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("updated .gemini/settings.json"), "{stdout}");
    assert_all_ok("gemini", &setup.doctor("gemini"));
}

/// `init --user` guards an agent started in any folder of any project: the user's policy,
/// and the project's `.rulesc/` found from the call's folder
#[test]
fn user_hooks_guard_a_subfolder_with_the_project_policy() {
    let setup = Setup::new("app");
    let (code, stdout, stderr) = setup.rulesc(&["init", "--user", "--host", "claude"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!(
            "created {}",
            setup.home.join(".config/rulesc/safe-shell.rules").display()
        )),
        "{stdout}"
    );
    // The project's own policy blocks what the user's does not.
    std::fs::create_dir_all(setup.project.join(".rulesc")).unwrap();
    std::fs::write(
        setup.project.join(".rulesc/project.rules"),
        "on pre_tool_use when tool == \"Bash\" and arg.command == \"make deploy\" block \"not from here\"\n",
    )
    .unwrap();
    let deep = setup.project.join("src/deep");
    std::fs::create_dir_all(&deep).unwrap();
    let result =
        setup.rulesc_with_path(&deep, &["doctor", "--host", "claude"], &path_with_rulesc());
    assert_all_ok("user", &result);

    let settings: Json = serde_json::from_str(
        &std::fs::read_to_string(setup.home.join(".claude/settings.json")).unwrap(),
    )
    .unwrap();
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    let state = tempfile::tempdir().unwrap();
    for (call, denied) in [("ls", false), ("make deploy", true), ("rm -rf /", true)] {
        let payload = json!({"session_id": "s", "hook_event_name": "PreToolUse", "cwd": deep,
            "transcript_path": null, "tool_name": "Bash", "tool_input": {"command": call}});
        let mut shell = std::process::Command::new("sh");
        shell
            .args([
                "-c",
                &format!("{command} --state-dir {}", state.path().display()),
            ])
            .current_dir(&deep)
            .env("HOME", &setup.home)
            .env("PATH", path_with_rulesc());
        let (code, stdout, stderr) = common::run(&mut shell, &payload.to_string());
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(stdout.contains("\"deny\""), denied, "{call}: {stdout}");
    }
}
