//! The hook's state folder trusts only what its user made: the built binary, driven as a
//! host drives it, against state folders that another user made or planted things in.
//!
//! What makes a folder or file usable is the rule docs/state.md states (and ssh's
//! `StrictModes`): owned by the user the hook runs as, writable by nobody else, no link, a
//! regular file, within its size bound. Each test plants what a second local user could
//! have planted under the old shared default folder, and checks that a tool call is denied
//! with a reason naming the path and what is wrong, promptly, and that nothing planted is
//! written through. The tests that need a second user run as root (as CI does), which makes
//! one (`rulesc-probe`) and gives it what it plants (`chown`, as its own writes would leave
//! them); run as another user, they say so and pass.

#![cfg(unix)]
#![expect(
    clippy::unwrap_used,
    reason = "helpers of tests: a fixture that cannot be made fails the test"
)]

use std::fs;
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{json, Value as Json};

use crate::common;

/// A policy that blocks `rm -rf /` and remembers each Bash call, so that a tool call reads
/// and writes the session's state
const POLICY: &str = r#"@id("no-rm")
on pre_tool_use when tool == "Bash" and arg.command == "rm -rf /" block "never"
@id("seen")
on pre_tool_use when tool == "Bash" set metadata.seen = true
"#;

/// How long a call may take here before it counts as hung: the calls are given this as
/// `--timeout` too, so a hang shows as the wrong reason, not as a stuck test
const HUNG: Duration = Duration::from_secs(60);

/// A policy file, a state folder for it, and calls of the hook
struct Fixture {
    scratch: tempfile::TempDir,
    policy: PathBuf,
    state: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let scratch = tempfile::tempdir().unwrap();
        // The second user must reach what it plants; the folder stays root's.
        fs::set_permissions(scratch.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let policy = scratch.path().join("guard.rules");
        fs::write(&policy, POLICY).unwrap();
        let state = scratch.path().join("state");
        Fixture {
            scratch,
            policy,
            state,
        }
    }

    /// Runs one hook call with `input` and `extra` flags (`--timeout 60s` unless they say)
    fn call(&self, input: &Json, extra: &[&str]) -> (Output, Duration) {
        let timeout = if extra.contains(&"--timeout") {
            &[][..]
        } else {
            &["--timeout", "60s"][..]
        };
        let started = Instant::now();
        let output = common::output(
            Command::new(env!("CARGO_BIN_EXE_rulesc"))
                .arg("hook")
                .arg(&self.policy)
                .args(["--host", "claude", "--state-dir"])
                .arg(&self.state)
                .args(timeout)
                .args(extra),
            input.to_string().as_bytes(),
        );
        (output, started.elapsed())
    }

    /// Calls `rm -rf /` and checks it is denied, in time, for a reason that says `problem`
    /// of `path`
    fn denied(&self, path: &Path, problem: &str) {
        let (output, took) = self.call(&bash("rm -rf /"), &[]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(output.stdout.is_empty(), "{stderr}");
        let said = format!("`{}` {problem}", path.display());
        assert!(stderr.contains(&said), "{said}\n{stderr}");
        assert!(stderr.contains("so it is denied"), "{stderr}");
        assert!(took < HUNG / 2, "took {took:?}");
    }

    /// Calls `ls` and checks it is answered: the state folder is usable
    fn usable(&self) {
        let (output, _) = self.call(&bash("ls"), &[]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
    }

    /// Takes the state folder's lock as another hook process would: the file and its path
    fn hold_lock(&self) -> (fs::File, PathBuf) {
        let path = self.state.join("lock");
        let lock = fs::File::options()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        lock.lock().unwrap();
        (lock, path)
    }

    fn sessions(&self) -> PathBuf {
        self.state.join("sessions")
    }

    fn session_file(&self) -> PathBuf {
        self.sessions().join("s-victim.json")
    }

    /// The one cache entry
    fn entry(&self) -> PathBuf {
        let [entry] = fs::read_dir(self.state.join("policies"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "bin"))
            .collect::<Vec<_>>()
            .try_into()
            .unwrap();
        entry
    }
}

/// A Claude Code `PreToolUse` of a Bash command, in the session `victim`
fn bash(command: &str) -> Json {
    json!({
        "session_id": "victim",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    })
}

/// The uid of a second user, made if missing; `None` (said on stderr) when the tests do
/// not run as root and cannot make one
fn second_user() -> Option<u32> {
    static PROBE: OnceLock<Option<u32>> = OnceLock::new();
    *PROBE.get_or_init(|| {
        if my_uid() != 0 {
            eprintln!("skipped: a second user is made only when the tests run as root");
            return None;
        }
        // Exit 9: it exists already, from an earlier run.
        let made = Command::new("useradd")
            .args(["--system", "--no-create-home", "rulesc-probe"])
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(matches!(made.code(), Some(0 | 9)), "useradd: {made}");
        let id = Command::new("id")
            .args(["-u", "rulesc-probe"])
            .output()
            .unwrap();
        Some(
            String::from_utf8(id.stdout)
                .unwrap()
                .trim()
                .parse()
                .unwrap(),
        )
    })
}

/// The effective uid of the tests, from what they own
fn my_uid() -> u32 {
    let probe = tempfile::tempfile().unwrap();
    probe.metadata().unwrap().uid()
}

/// Makes `path` and everything under it the second user's
fn give(path: &Path, uid: u32) {
    std::os::unix::fs::lchown(path, Some(uid), Some(uid)).unwrap();
    if path.is_dir() && !path.is_symlink() {
        for entry in fs::read_dir(path).unwrap() {
            give(&entry.unwrap().path(), uid);
        }
    }
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .args(["-m", "600"])
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

fn mode(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().mode() & 0o7777
}

#[test]
fn a_state_folder_another_user_made_with_a_planted_entry_is_refused() {
    let Some(probe) = second_user() else { return };
    let fixture = Fixture::new();
    // What the other user leaves: the folder as the victim's hook would fill it, a cache
    // entry included, in folders every user may read (`mkdir` with the usual umask).
    fixture.usable();
    for folder in ["", "sessions", "policies"] {
        let path = fixture.state.join(folder);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    }
    fs::set_permissions(fixture.entry(), fs::Permissions::from_mode(0o644)).unwrap();
    give(&fixture.state, probe);
    let me = my_uid();
    fixture.denied(
        &fixture.state,
        &format!("is owned by uid {probe}, not you (uid {me})"),
    );
    // The root made one's own, a subfolder and then an entry planted are each refused.
    std::os::unix::fs::lchown(&fixture.state, Some(me), Some(me)).unwrap();
    fixture.denied(
        &fixture.state.join("sessions"),
        &format!("is owned by uid {probe}, not you (uid {me})"),
    );
    for folder in ["sessions", "policies"] {
        std::os::unix::fs::lchown(fixture.state.join(folder), Some(me), Some(me)).unwrap();
    }
    fixture.denied(
        &fixture.entry(),
        &format!("is owned by uid {probe}, not you (uid {me})"),
    );
}

#[test]
fn a_folder_or_file_others_may_write_is_refused() {
    let fixture = Fixture::new();
    fixture.usable();
    for (mode, who) in [(0o777, "every user"), (0o770, "its group")] {
        fs::set_permissions(&fixture.state, fs::Permissions::from_mode(mode)).unwrap();
        fixture.denied(
            &fixture.state,
            &format!("may be written by {who} (mode {mode:o})"),
        );
    }
    fs::set_permissions(&fixture.state, fs::Permissions::from_mode(0o700)).unwrap();
    fs::set_permissions(fixture.session_file(), fs::Permissions::from_mode(0o620)).unwrap();
    fixture.denied(
        &fixture.session_file(),
        "may be written by its group (mode 620)",
    );
}

#[test]
fn a_linked_spare_is_refused_and_its_target_left_unchanged() {
    let fixture = Fixture::new();
    fixture.usable();
    let target = fixture.scratch.path().join("victim-file");
    fs::write(&target, "precious").unwrap();
    let spare = fixture.sessions().join(".spare");
    let _ = fs::remove_file(&spare);
    symlink(&target, &spare).unwrap();
    // A new session's first write goes through the spare.
    let mut call = bash("ls");
    call["session_id"] = json!("another");
    let (output, _) = fixture.call(&call, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let said = format!(
        "`{}` is a symbolic link, not a regular file",
        spare.display()
    );
    assert!(stderr.contains(&said), "{stderr}");
    assert_eq!(fs::read_to_string(&target).unwrap(), "precious");
    assert!(!fixture.sessions().join("s-another.json").exists());
}

#[test]
fn fifos_are_refused_at_once_as_session_lock_spare_and_cache_entry() {
    let fixture = Fixture::new();
    fixture.usable();
    let entry = fixture.entry();
    // The spare is used only by a call that writes: the one for it starts a new session.
    let spare = fixture.sessions().join(".spare");
    for path in [
        fixture.session_file(),
        fixture.state.join("lock"),
        entry,
        spare,
    ] {
        let kept = fs::read(&path).ok();
        let _ = fs::remove_file(&path);
        mkfifo(&path);
        if path.ends_with(".spare") {
            let mut call = bash("ls");
            call["session_id"] = json!(format!("new-{}", std::process::id()));
            let (output, took) = fixture.call(&call, &[]);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{stderr}");
            let said = format!("`{}` is a fifo, not a regular file", path.display());
            assert!(stderr.contains(&said), "{stderr}");
            assert!(took < HUNG / 2, "took {took:?}");
        } else {
            fixture.denied(&path, "is a fifo, not a regular file");
        }
        fs::remove_file(&path).unwrap();
        if let Some(kept) = kept {
            fs::write(&path, kept).unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        }
    }
}

#[test]
fn links_to_dev_zero_are_refused_as_session_and_cache_entry() {
    let fixture = Fixture::new();
    fixture.usable();
    for path in [fixture.session_file(), fixture.entry()] {
        let kept = fs::read(&path).unwrap();
        fs::remove_file(&path).unwrap();
        symlink("/dev/zero", &path).unwrap();
        fixture.denied(&path, "is a symbolic link, not a regular file");
        fs::remove_file(&path).unwrap();
        fs::write(&path, kept).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        fixture.usable();
    }
}

#[test]
fn an_oversized_session_file_is_refused_unread() {
    let fixture = Fixture::new();
    fixture.usable();
    let file = fs::File::options()
        .write(true)
        .open(fixture.session_file())
        .unwrap();
    // Sparse: 9 MiB that take no room, past the documented 8 MiB bound.
    file.set_len(9 * 1024 * 1024).unwrap();
    fixture.denied(&fixture.session_file(), "is larger than 8388608 bytes");
}

#[test]
fn everything_the_hook_makes_is_private() {
    let fixture = Fixture::new();
    fixture.usable();
    // A failed call counts in the session's state: a write over the session file, which
    // leaves the old one as the spare.
    let failure = json!({
        "session_id": "victim",
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_input": {"command": "false"},
        "error": "exit 1",
    });
    let fail = || {
        let (output, _) = fixture.call(&failure, &[]);
        assert_eq!(output.status.code(), Some(0));
    };
    fail();
    let sessions = fixture.sessions();
    for folder in [&fixture.state, &sessions, &fixture.state.join("policies")] {
        assert_eq!(mode(folder), 0o700, "{}", folder.display());
    }
    for file in [
        fixture.session_file(),
        sessions.join(".spare"),
        fixture.state.join("lock"),
        fixture.entry(),
    ] {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
    // A spare an older rulesc left readable by every user becomes a private session file
    // at the next write.
    fs::set_permissions(sessions.join(".spare"), fs::Permissions::from_mode(0o644)).unwrap();
    fail();
    assert_eq!(mode(&fixture.session_file()), 0o600);
    let state: Json = serde_json::from_slice(&fs::read(fixture.session_file()).unwrap()).unwrap();
    let runs = state["runs"].as_object().unwrap();
    assert_eq!(runs.values().next().unwrap()["errors"], json!(2), "{state}");
}

#[test]
fn a_symlinked_state_folder_is_refused() {
    let fixture = Fixture::new();
    fixture.usable();
    let link = fixture.scratch.path().join("link");
    symlink(&fixture.state, &link).unwrap();
    let linked = Fixture {
        scratch: tempfile::tempdir().unwrap(),
        policy: fixture.policy.clone(),
        state: link.clone(),
    };
    linked.denied(&link, "is a symbolic link, not a folder");
}

#[test]
fn the_default_folder_is_the_users_own_state_folder() {
    let home = tempfile::tempdir().unwrap();
    let policy = home.path().join("guard.rules");
    fs::write(&policy, POLICY).unwrap();
    let run = |state_home: Option<&Path>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_rulesc"));
        command
            .arg("hook")
            .arg(&policy)
            .args(["--host", "claude", "--timeout", "60s"])
            .env("HOME", home.path())
            .env_remove("XDG_STATE_HOME");
        if let Some(state_home) = state_home {
            command.env("XDG_STATE_HOME", state_home);
        }
        let output = common::output(&mut command, bash("ls").to_string().as_bytes());
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    run(None);
    let default = home.path().join(".local/state/rulesc");
    assert!(default.join("sessions/s-victim.json").is_file());
    assert_eq!(mode(&default), 0o700);
    let state_home = home.path().join("xdg");
    run(Some(&state_home));
    assert!(state_home.join("rulesc/sessions/s-victim.json").is_file());
}

#[test]
fn a_call_waiting_on_a_held_lock_is_denied_within_its_time_saying_so() {
    let fixture = Fixture::new();
    fixture.usable();
    let (lock, lock_path) = fixture.hold_lock();
    let (output, took) = fixture.call(&bash("ls"), &["--timeout", "1s"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let said = format!(
        "it could not answer within 1s (the state folder's lock `{}` is held by another \
         process)",
        lock_path.display()
    );
    assert!(stderr.contains(&said), "{stderr}");
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(20),
        "took {took:?}"
    );
    // `--fail-open` answers no opinion instead, in as little time.
    let (output, _) = fixture.call(&bash("ls"), &["--timeout", "1s", "--fail-open"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "{}");
    drop(lock);
    fixture.usable();
}

/// The deadline is a signal of the hook's own: a host that ignores it (a disposition a
/// process inherits) or never closes stdin still gets its answer within `--timeout`
#[test]
fn the_deadline_holds_when_the_host_ignores_the_alarm_or_never_closes_stdin() {
    let fixture = Fixture::new();
    fixture.usable();
    let (lock, _) = fixture.hold_lock();
    // Released in time to end the test if the deadline never comes.
    std::thread::spawn(move || {
        std::thread::sleep(HUNG / 2);
        drop(lock);
    });
    let started = Instant::now();
    let output = common::output(
        Command::new("sh")
            .args(["-c", "trap '' ALRM; exec \"$0\" \"$@\""])
            .arg(env!("CARGO_BIN_EXE_rulesc"))
            .arg("hook")
            .arg(&fixture.policy)
            .args(["--host", "claude", "--timeout", "700ms", "--state-dir"])
            .arg(&fixture.state),
        bash("ls").to_string().as_bytes(),
    );
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("it could not answer within 700ms (the state folder's lock"),
        "{stderr}"
    );
    assert!(took < Duration::from_secs(20), "took {took:?}");

    // stdin left open: the call cannot even be read, and a tool call may be waiting on it.
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .arg("hook")
        .arg(&fixture.policy)
        .args(["--host", "claude", "--timeout", "700ms", "--state-dir"])
        .arg(&fixture.state)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take();
    std::thread::spawn(move || {
        std::thread::sleep(HUNG / 2);
        drop(stdin);
    });
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty(), "{stderr}");
    assert!(
        stderr.contains(
            "rulesc could not check this call, so it is denied: it could not answer within \
             700ms (the host did not close stdin)"
        ),
        "{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn pruning_many_stale_sessions_holds_up_no_call_and_ends_with_them_removed() {
    const STALE: usize = 5_000;
    let fixture = Fixture::new();
    fixture.usable();
    let old = SystemTime::now() - Duration::from_secs(7200);
    for n in 0..STALE {
        let path = fixture.sessions().join(format!("s-stale-{n}.json"));
        let file = fs::File::create(&path).unwrap();
        file.set_modified(old).unwrap();
    }
    let stale_left = || {
        fs::read_dir(fixture.sessions())
            .unwrap()
            .filter(|entry| {
                let name = entry.as_ref().unwrap().file_name();
                name.to_string_lossy().starts_with("s-stale-")
            })
            .count()
    };
    let prune = ["--prune-older-than", "1h"];
    let pruner = std::thread::scope(|scope| {
        let pruner = scope.spawn(|| {
            let mut calls = 0;
            while stale_left() > 0 && calls < 50 {
                let mut call = bash("ls");
                call["session_id"] = json!("pruner");
                let (output, _) = fixture.call(&call, &prune);
                assert_eq!(output.status.code(), Some(0));
                calls += 1;
            }
            calls
        });
        // Calls made meanwhile are answered as quickly as ever: pruning holds the lock
        // for a few files at a time, and never while a call waits.
        let mut slowest = Duration::ZERO;
        for n in 0..10 {
            let mut call = bash("ls");
            call["session_id"] = json!(format!("busy-{n}"));
            let (output, took) = fixture.call(&call, &[]);
            assert_eq!(output.status.code(), Some(0));
            slowest = slowest.max(took);
        }
        // Generous for a loaded machine: a call takes a fraction of a second here.
        assert!(
            slowest < Duration::from_secs(15),
            "slowest call {slowest:?}"
        );
        pruner.join().unwrap()
    });
    assert_eq!(stale_left(), 0, "after {pruner} pruning calls");
    // A pruning call looks at 1,024 entries, so no call did it all: five calls or a few
    // more go round 5,000.
    assert!((5..=20).contains(&pruner), "{pruner} pruning calls");
    for n in 0..10 {
        let busy = fixture.sessions().join(format!("s-busy-{n}.json"));
        assert!(busy.exists(), "a session just written is kept");
    }
}
