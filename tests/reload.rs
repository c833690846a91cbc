//! Hot reload from source: a broken reload keeps the policy in force and returns the
//! diagnostics, a good one replaces it under the same host limits; the watcher sees edits,
//! and `rulesc check --watch` checks again after each one.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

use rulesc::reload::{reload, reload_str, Watcher};
use rulesc::{CompileError, Decision, Event, EventKind, Limits, PolicyHandle};

fn tool_call() -> Event {
    let mut event = Event::new(EventKind::PreToolUse);
    event.tool = Some("bash".to_owned());
    event
}

#[test]
fn a_reload_that_does_not_compile_keeps_the_policy_in_force() {
    let handle =
        PolicyHandle::new(rulesc::compile_str("g.rules", "on pre_tool_use allow").unwrap());
    let err = reload_str(&handle, "g.rules", "on pre_tool_use when tool > 3 block").unwrap_err();
    assert_eq!(err.diagnostics()[0].code.id, "E020");
    assert_eq!(handle.generation(), 0);
    assert_eq!(
        handle.evaluate(&tool_call()).resolution.decision,
        Decision::Allow
    );
}

#[test]
fn a_reload_keeps_the_host_limits() {
    let limits = Limits {
        max_steps: 7,
        max_retries: 1,
        max_stop_requests: 2,
    };
    let policy = rulesc::compile_str("g.rules", "on pre_tool_use allow").unwrap();
    let handle = PolicyHandle::new(policy.with_limits(limits));
    reload_str(&handle, "g.rules", "on pre_tool_use block").unwrap();
    assert_eq!(handle.generation(), 1);
    assert_eq!(
        handle.evaluate(&tool_call()).resolution.decision,
        Decision::Block
    );
    assert_eq!(*handle.snapshot().limits(), limits);
}

#[test]
fn reloading_files_reads_them_again() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("guard.rules");
    std::fs::write(&file, "on pre_tool_use allow\n").unwrap();
    let handle = PolicyHandle::new(rulesc::compile_paths(&[dir.path()]).unwrap());

    std::fs::write(&file, "on pre_tool_use blok\n").unwrap();
    let Err(CompileError::Invalid(diagnostics)) = reload(&handle, &[dir.path()]) else {
        panic!("a broken file must not reload")
    };
    assert_eq!(diagnostics.diagnostics()[0].code.id, "E013");
    assert_eq!(
        handle.evaluate(&tool_call()).resolution.decision,
        Decision::Allow
    );

    std::fs::remove_file(&file).unwrap();
    assert!(matches!(
        reload(&handle, &[dir.path()]),
        Err(CompileError::Load(_))
    ));
    assert_eq!(
        handle.evaluate(&tool_call()).resolution.decision,
        Decision::Allow
    );

    std::fs::write(&file, "on pre_tool_use ask\n").unwrap();
    reload(&handle, &[dir.path()]).unwrap();
    assert_eq!(
        handle.evaluate(&tool_call()).resolution.decision,
        Decision::Ask
    );
}

/// Writes `text` to `path` with a modification time `seconds` after the epoch, so that an
/// edit is seen whatever the file system's time resolution
#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: a failure fails the test"
)]
fn write_at(path: &Path, text: &str, seconds: u64) {
    // Written beside and renamed over, so a watcher never sees the new text with the old
    // time (and reports the same edit twice)
    let staged = path.with_extension("staged");
    std::fs::write(&staged, text).unwrap();
    let file = std::fs::File::options().write(true).open(&staged).unwrap();
    file.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
        .unwrap();
    drop(file);
    std::fs::rename(&staged, path).unwrap();
}

#[test]
fn the_watcher_sees_edits_new_files_and_removed_files() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("a.rules");
    write_at(&first, "on stop request\n", 1_000);
    let mut watcher = Watcher::new(vec![dir.path().to_path_buf()]);
    assert!(!watcher.changed());

    // Same size, new time.
    write_at(&first, "on stop forbid\n", 2_000);
    assert!(watcher.changed());
    assert!(!watcher.changed(), "a change is told once");

    std::fs::write(dir.path().join("notes.txt"), "not a policy").unwrap();
    assert!(!watcher.changed(), "other files are not watched");

    let second = dir.path().join("sub").join("b.rules");
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    write_at(&second, "on stop forbid\n", 1_000);
    assert!(watcher.changed());

    std::fs::remove_file(&second).unwrap();
    assert!(watcher.changed());
}

#[test]
fn a_watched_file_may_disappear_and_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.rules");
    write_at(&file, "on stop request\n", 1_000);
    let mut watcher = Watcher::new(vec![file.clone()]);
    std::fs::remove_file(&file).unwrap();
    assert!(watcher.changed());
    write_at(&file, "on stop request\n", 1_000);
    assert!(watcher.changed());
}

/// Reads lines of a child's stdout in a thread, so the test can wait with a timeout
fn lines_of(stdout: std::process::ChildStdout) -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// The lines up to and including the next count line (`N errors, M warnings`)
#[expect(
    clippy::expect_used,
    reason = "a helper of tests: a timeout fails the test"
)]
fn next_report(lines: &mpsc::Receiver<String>) -> Vec<String> {
    let mut report = Vec::new();
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(60))
            .expect("`check --watch` printed a report within a minute");
        let done = line.contains(" errors, ") || line.contains(" error, ");
        report.push(line);
        if done {
            return report;
        }
    }
}

#[test]
fn check_watch_checks_again_after_each_edit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("guard.rules");
    write_at(&file, "on pre_tool_use allow\n", 1_000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .args(["check", "--watch"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lines = lines_of(child.stdout.take().unwrap());
    let first = next_report(&lines);
    assert_eq!(first, ["0 errors, 0 warnings"]);

    write_at(&file, "on pre_tool_use blok\n", 2_000);
    let second = next_report(&lines);
    assert!(
        second.iter().any(|line| line.contains("E013")),
        "{second:#?}"
    );
    assert_eq!(second.last().unwrap(), "1 error, 0 warnings");

    write_at(&file, "on pre_tool_use block\n", 3_000);
    assert_eq!(next_report(&lines), ["0 errors, 0 warnings"]);

    assert!(child.try_wait().unwrap().is_none(), "still watching");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn check_help_documents_watch() {
    let output = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .args(["check", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(help.contains("--watch"), "{help}");
    assert!(help.contains("Ctrl-C"), "{help}");
}
