//! What runs: the program a hook command starts, found on `PATH` as the host's shell finds
//! it; the policy compiling; and the command itself answering two test calls.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rulesc::load::{self, Sources};
use rulesc_host::Host;
use serde_json::{json, Value as Json};

use super::Line;
use crate::cli::hook_config;

/// How long a test call may take before it counts as hung; the hosts' own limits are longer
/// (Claude Code 60 s, Codex 600 s), and a hook that runs past them lets the call through
const CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// The program a command starts (its first word), found on `PATH`
pub(super) fn program(command: &str) -> Line {
    let name = command.split_whitespace().next().unwrap_or_default();
    let running = std::env::current_exe().ok();
    let fix = match &running {
        Some(exe) => format!(
            "put the folder holding `{name}` on the `PATH` the agent starts with, or link it: `ln -s {} ~/.local/bin/{name}`",
            hook_config::shell_quote(&exe.to_string_lossy())
        ),
        None => format!("put the folder holding `{name}` on the `PATH` the agent starts with"),
    };
    let Some(found) = on_path(name) else {
        return Line::error(format!(
            "`{name}` is not on `PATH`, so the host cannot start the hook and lets every call through; {fix}"
        ));
    };
    let same = |path: &Path| path.canonicalize().ok();
    match running {
        Some(exe) if same(&found) != same(&exe) => Line::warning(format!(
            "`{name}` on `PATH` is `{}`, not `{}` that runs this check, so the host runs another build; make sure it is the one you mean",
            found.display(),
            exe.display()
        )),
        _ => Line::ok(format!("`{name}` on `PATH` is `{}`", found.display())),
    }
}

/// The first executable file `name` names on `PATH` (a name with a `/` is a path)
fn on_path(name: &str) -> Option<PathBuf> {
    if name.is_empty() {
        return None;
    }
    if name.contains('/') {
        let path = PathBuf::from(name);
        return is_executable(&path).then_some(path);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|folder| !folder.as_os_str().is_empty())
        .map(|folder| folder.join(name))
        .find(|candidate| is_executable(candidate))
}

/// Whether `path` is a file the shell would run
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// Whether the policy folder compiles
pub(super) fn compiles(policy: &Path) -> Line {
    let shown = policy.display();
    let compiled = match load::read_sources(&[policy]) {
        Err(err) => Err(format!(
            "{err}; run `rulesc init` to write the starter policy"
        )),
        Ok(Sources::Rules(files)) => crate::cli::policy::compile_one_line(files)
            .map(drop)
            .map_err(|reason| format!("{reason}; run `rulesc check {shown}` and fix it")),
        Ok(compiled @ Sources::Compiled(_)) => load::compile(compiled)
            .map(drop)
            .map_err(|_| format!("run `rulesc check {shown}` and fix it")),
    };
    match compiled {
        Ok(()) => Line::ok(format!("the policy `{shown}` compiles")),
        Err(reason) => Line::error(format!(
            "the policy `{shown}` cannot be used, so the hook denies every tool call: {reason}"
        )),
    }
}

/// The configured command, run as the host runs it, on a harmless call and on `rm -rf /`
pub(super) fn answers(host: Host, project: &Path, shown: &str, command: &str) -> Line {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.subsec_nanos());
    let state = std::env::temp_dir().join(format!("rulesc-doctor-{}-{nanos}", std::process::id()));
    let harmless = call(host, project, shown, command, &state, "ls");
    let destructive = call(host, project, shown, command, &state, "rm -rf /");
    // Only this check's own folder, named by the process and the time, is removed.
    let _ = std::fs::remove_dir_all(&state);
    let fix = format!(
        "run `{}` on a test call yourself to see why",
        command
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    );
    match (harmless, destructive) {
        (Err(reason), _) | (_, Err(reason)) => Line::error(format!(
            "the hook of `{shown}` did not answer a test call: {reason}; {fix}"
        )),
        (Ok(Answer::Denied(reason)), _) => Line::error(format!(
            "the hook of `{shown}` denies even `ls`: {reason}"
        )),
        (Ok(Answer::Allowed), Ok(Answer::Allowed)) => Line::error(format!(
            "the hook of `{shown}` lets `rm -rf /` through; check that the policy has a rule against it (the starter policy `safe-shell.rules` does)"
        )),
        (Ok(Answer::Allowed), Ok(Answer::Denied(_))) => Line::ok(format!(
            "the hook of `{shown}` allows `ls` and denies `rm -rf /`"
        )),
    }
}

/// What a test call got
enum Answer {
    /// The tool runs
    Allowed,
    /// The tool is refused, for this reason
    Denied(String),
}

/// Runs `command` through `sh -c` on a tool call of `shell`, with the environment the host
/// gives hooks, its session state in `state`
fn call(
    host: Host,
    project: &Path,
    shown: &str,
    command: &str,
    state: &Path,
    shell: &str,
) -> Result<Answer, String> {
    let folder = project.to_string_lossy().into_owned();
    let (event, tool) = (host.pre_tool_event(), host.shell_tool());
    let payload = json!({
        "session_id": format!("rulesc-doctor-{}", std::process::id()),
        "transcript_path": null,
        "cwd": folder,
        "hook_event_name": event,
        "permission_mode": "default",
        "tool_name": tool,
        "tool_input": {"command": shell},
        "tool_use_id": "rulesc-doctor",
    });
    let text = expand(command, &folder, host.hook_template().expanded_variables);
    let script = format!(
        "{text} --state-dir {}",
        hook_config::shell_quote(&state.to_string_lossy())
    );
    let mut shell = Command::new("sh");
    shell.args(["-c", &script]).current_dir(project);
    // Every host's variable, as a command copied from another host's settings may use it.
    for host in Host::ALL {
        if let Some(variable) = host.hook_template().root_variable {
            shell.env(variable, &folder);
        }
    }
    let mut child = shell
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| format!("`sh` cannot be started: {err}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A hook that exits before reading its input is judged by its exit below.
        let _ = stdin.write_all(payload.to_string().as_bytes());
    }
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() > CALL_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "`{shown}`'s command ran past {} s",
                    CALL_TIMEOUT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(err) => return Err(format!("waiting for the hook failed: {err}")),
        }
    }
    let output = child
        .wait_with_output()
        .map_err(|err| format!("the hook's output cannot be read: {err}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first = stderr.lines().next().unwrap_or_default().to_owned();
    match output.status.code() {
        Some(0) => Ok(match denial(&stdout) {
            Some(reason) => Answer::Denied(reason),
            None => Answer::Allowed,
        }),
        Some(2) => Ok(Answer::Denied(first)),
        Some(code) => Err(format!(
            "exit {code} (the host lets the call through): {first}"
        )),
        None => Err("the hook was killed by a signal".to_owned()),
    }
}

/// The reason of a deny on stdout, in any of the hosts' shapes
fn denial(stdout: &str) -> Option<String> {
    let answer: Json = serde_json::from_str(stdout.trim()).ok()?;
    let specific = answer.get("hookSpecificOutput");
    let decision = specific
        .and_then(|specific| specific.get("permissionDecision"))
        .or_else(|| answer.get("decision"))
        .and_then(Json::as_str)?;
    matches!(decision, "deny" | "block").then(|| {
        specific
            .and_then(|specific| specific.get("permissionDecisionReason"))
            .or_else(|| answer.get("reason"))
            .and_then(Json::as_str)
            .unwrap_or(decision)
            .to_owned()
    })
}

/// `command` as the host hands it to the shell: the plain `$NAME` (not the braced form) of
/// each of `variables` replaced by the folder, quoted (Gemini CLI's `expandCommand`)
fn expand(command: &str, folder: &str, variables: &[&str]) -> String {
    let quoted = hook_config::shell_quote(folder);
    let mut text = command.to_owned();
    for variable in variables {
        let name = format!("${variable}");
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(at) = rest.find(&name) {
            let (before, after) = rest.split_at(at);
            let tail = after.get(name.len()..).unwrap_or_default();
            out.push_str(before);
            if tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                out.push_str(&name);
            } else {
                out.push_str(&quoted);
            }
            rest = tail;
        }
        out.push_str(rest);
        text = out;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemini_replaces_the_plain_variable_only() {
        let expand_gemini = |command: &str, folder: &str| {
            expand(
                command,
                folder,
                Host::Gemini.hook_template().expanded_variables,
            )
        };
        assert_eq!(
            expand_gemini(r#"rulesc hook "$GEMINI_PROJECT_DIR"/.rulesc"#, "/a b"),
            r#"rulesc hook "'/a b'"/.rulesc"#
        );
        assert_eq!(
            expand_gemini(r#"rulesc hook "${GEMINI_PROJECT_DIR}"/.rulesc"#, "/a b"),
            r#"rulesc hook "${GEMINI_PROJECT_DIR}"/.rulesc"#
        );
        assert_eq!(
            expand_gemini("$GEMINI_PROJECT_DIRX", "/a"),
            "$GEMINI_PROJECT_DIRX"
        );
    }

    #[test]
    fn denials_are_read_in_every_shape() {
        let claude = r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
        assert_eq!(denial(claude).as_deref(), Some("no"));
        assert_eq!(
            denial(r#"{"decision":"deny","reason":"r"}"#).as_deref(),
            Some("r")
        );
        assert_eq!(denial("{}"), None);
        assert_eq!(denial(""), None);
    }
}
