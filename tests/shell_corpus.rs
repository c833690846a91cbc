//! The shell corpus: every command of `tests/shell/evasions.txt` is denied, every command of
//! `tests/shell/undecidable.txt` and `tests/shell/root.txt` stopped (denied or asked), and
//! every command of `tests/shell/benign.txt` left alone by `rules/safe-shell.rules`, each run
//! as Claude Code runs the hook (`rulesc hook --host claude`) for a `Bash` call in
//! /home/user/project (or, for `root.txt`, the directory each line names). The threats and
//! benign classes are those the policy's header lists. The lines of the shell packs
//! (`tests/shell/packs-stopped.txt`, `packs-everyday.txt`) run with every policy of `rules/`.

#![expect(
    clippy::unwrap_used,
    reason = "a test that cannot run the hook should fail"
)]

use crate::common;

use std::path::Path;

use serde_json::{json, Value as Json};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The commands of a corpus file: one per line, `\n` standing for a newline
fn commands(name: &str) -> Vec<String> {
    std::fs::read_to_string(format!("{ROOT}/tests/shell/{name}"))
        .unwrap()
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.replace("\\n", "\n"))
        .collect()
}

/// Whether the hook denies `command`, and its answer
fn denied(state: &Path, command: &str) -> (bool, Json) {
    decided(state, command, "/home/user/project")
}

/// Whether the hook denies `command` run in `cwd`, and its answer
fn decided(state: &Path, command: &str, cwd: &str) -> (bool, Json) {
    decided_by(state, command, cwd, "rules/safe-shell.rules")
}

/// Whether the hook running `policy` (a path under the repository) denies `command` run in
/// `cwd`, and its answer
fn decided_by(state: &Path, command: &str, cwd: &str, policy: &str) -> (bool, Json) {
    let payload = json!({
        "session_id": "corpus",
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "t1",
    });
    let policy = format!("{ROOT}/{policy}");
    let state = state.display().to_string();
    // The first call compiles every pack, in a debug build on a machine that may be busy:
    // these tests are about decisions, not the hook's deadline (tests/state_trust.rs).
    let args = [
        "hook",
        &policy,
        "--host",
        "claude",
        "--state-dir",
        &state,
        "--timeout",
        "60s",
    ];
    let (code, stdout, stderr) =
        common::run(&mut common::command(ROOT, &args), &payload.to_string());
    assert_eq!(code, 0, "hook failed on {command:?}: {stderr}");
    let answer: Json = serde_json::from_str(&stdout).unwrap();
    let decision = answer.pointer("/hookSpecificOutput/permissionDecision");
    (decision == Some(&json!("deny")), answer)
}

#[test]
fn every_evasion_is_denied() {
    let state = tempfile::tempdir().unwrap();
    let evasions = commands("evasions.txt");
    assert!(evasions.len() >= 100, "only {} evasions", evasions.len());
    let missed: Vec<String> = evasions
        .iter()
        .filter(|command| !denied(state.path(), command).0)
        .map(|command| format!("{command:?}"))
        .collect();
    assert!(missed.is_empty(), "not denied:\n{}", missed.join("\n"));
}

/// Whether an answer stops the call: a deny, or an ask for the user's approval
fn stops(answer: &Json) -> bool {
    let decision = answer.pointer("/hookSpecificOutput/permissionDecision");
    decision == Some(&json!("deny")) || decision == Some(&json!("ask"))
}

#[test]
fn every_command_known_only_at_run_time_is_stopped() {
    let state = tempfile::tempdir().unwrap();
    let commands = commands("undecidable.txt");
    assert!(commands.len() >= 70, "only {} commands", commands.len());
    let missed: Vec<String> = commands
        .iter()
        .filter(|command| !stops(&denied(state.path(), command).1))
        .map(|command| format!("{command:?}"))
        .collect();
    assert!(missed.is_empty(), "not stopped:\n{}", missed.join("\n"));
}

#[test]
fn the_root_and_the_home_are_outside_even_as_the_project() {
    let state = tempfile::tempdir().unwrap();
    let missed: Vec<String> = commands("root.txt")
        .iter()
        .filter(|line| {
            let (cwd, command) = line.split_once('\t').unwrap();
            !stops(&decided(state.path(), command, cwd).1)
        })
        .map(|line| format!("{line:?}"))
        .collect();
    assert!(missed.is_empty(), "not stopped:\n{}", missed.join("\n"));
}

#[test]
fn every_benign_command_is_left_alone() {
    let state = tempfile::tempdir().unwrap();
    let benign = commands("benign.txt");
    assert!(benign.len() >= 100, "only {} benign commands", benign.len());
    let touched: Vec<String> = benign
        .iter()
        .filter_map(|command| {
            let (_, answer) = denied(state.path(), command);
            (answer != json!({})).then(|| format!("{command:?} => {answer}"))
        })
        .collect();
    assert!(
        touched.is_empty(),
        "not left alone:\n{}",
        touched.join("\n")
    );
}

#[test]
fn a_path_known_only_at_run_time_is_decided_by_where_its_known_start_leads() {
    let policy = rulesc::compile_str(
        "devices.rules",
        "on pre_tool_use when shell(path ~ \"/dev/sd*\") block \"writing to a disk\"\n\
         on pre_tool_use when shell(path =~ \"^/dev/sd\") block \"writing to a disk\"\n",
    )
    .unwrap();
    let decide = |line: &str| {
        let mut event = rulesc::Event::new(rulesc::EventKind::PreToolUse);
        event.tool = Some("Bash".to_owned());
        event.cwd = Some("/home/user/project".to_owned());
        event.arg = Some(json!({ "command": line }));
        policy.evaluate(&event).resolution.decision
    };
    // Inside the project, whatever the run-time end: no disk.
    assert_eq!(
        decide("tee \"logs/diff $(date +%s).log\""),
        rulesc::Decision::None
    );
    // A start that may lead to a disk cannot be decided: the guard asks.
    for line in [
        "tee \"/dev/sd$X\"",
        "cd / && tee \"dev/sd$X\"",
        "cd \"$Y\" && tee \"x$Z\"",
        "tee $W",
    ] {
        assert_eq!(decide(line), rulesc::Decision::Ask, "{line}");
    }
}

#[test]
fn the_packs_stop_their_lines_and_let_everyday_lines_pass() {
    // One session per line: a session of many denials is stopped by `rules/error-policy.rules`.
    let run = |command: &String| {
        let state = tempfile::tempdir().unwrap();
        decided_by(state.path(), command, "/home/user/project", "rules/").1
    };
    let missed: Vec<String> = commands("packs-stopped.txt")
        .iter()
        .filter(|command| !stops(&run(command)))
        .map(|command| format!("{command:?}"))
        .collect();
    assert!(missed.is_empty(), "not stopped:\n{}", missed.join("\n"));
    let touched: Vec<String> = commands("packs-everyday.txt")
        .iter()
        .filter_map(|command| {
            let answer = run(command);
            stops(&answer).then(|| format!("{command:?} => {answer}"))
        })
        .collect();
    assert!(touched.is_empty(), "stopped:\n{}", touched.join("\n"));
}
