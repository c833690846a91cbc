//! The session stores of `rulesc hook`, one suite run against each: the file store
//! (`--state DIR`) and the Redis store (`--state redis://...`) on a real `redis-server` that
//! each test starts on a free loopback port, in a temporary folder of its own, and stops.
//!
//! What is held to docs/state.md: parallel hook processes of one session lose no update,
//! stored state that is damaged or of another version is refused (tool calls denied, other
//! events answered `{}`) and kept until `rulesc hook reset`, a store that cannot be used
//! denies tool calls with a reason naming it, and `--prune-older-than` forgets sessions
//! not written for that long.
//!
//! The Redis tests need `redis-server` (Debian package `redis-server`): without it they
//! fail and say how to install it. `RULESC_SKIP_REDIS=1` skips them (CI never sets it).

#![expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "helpers of tests: a server or a hook that cannot run fails the test"
)]

use std::ffi::OsString;
use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::redis_server::{free_port, RedisServer};
use serde_json::{json, Value as Json};

/// How many hook processes run at once in the test of lost updates
const PARALLEL: usize = 20;

/// The session every test uses, unless it needs a second one
const SESSION: &str = "store-session";

/// A store under test, and how the hook and the test reach it
enum Backend {
    /// `--state DIR`
    File(tempfile::TempDir),
    /// `--state redis://...`, with compiled policies in `--state-dir DIR`
    Redis {
        server: RedisServer,
        policies: tempfile::TempDir,
    },
}

impl Backend {
    fn file() -> Backend {
        Backend::File(tempfile::tempdir().unwrap())
    }

    fn redis() -> Option<Backend> {
        Some(Backend::Redis {
            server: RedisServer::start()?,
            policies: tempfile::tempdir().unwrap(),
        })
    }

    /// The flags that point `rulesc hook` at this store
    fn flags(&self) -> Vec<OsString> {
        match self {
            Backend::File(dir) => vec!["--state".into(), dir.path().into()],
            Backend::Redis { server, policies } => vec![
                "--state".into(),
                server.url().into(),
                "--state-dir".into(),
                policies.path().into(),
            ],
        }
    }

    /// What `rulesc hook reset` needs after `--session ID` to reach this store
    fn reset_flags(&self) -> String {
        match self {
            Backend::File(dir) => format!(" --state-dir {}", dir.path().display()),
            Backend::Redis { server, .. } => format!(" --state {}", server.url()),
        }
    }

    /// Where a session's state is, as docs/state.md says errors name it
    fn place(&self, session: &str) -> String {
        match self {
            Backend::File(dir) => format!("`{}`", self.session_file(dir.path(), session).display()),
            Backend::Redis { server, .. } => format!(
                "redis `127.0.0.1:{}/0` (key `rulesc:session:{session}`)",
                server.port
            ),
        }
    }

    fn session_file(&self, dir: &Path, session: &str) -> PathBuf {
        dir.join("sessions").join(format!("s-{session}.json"))
    }

    /// The stored state of `session`, as bytes, if there is any
    fn read(&self, session: &str) -> Option<Vec<u8>> {
        match self {
            Backend::File(dir) => std::fs::read(self.session_file(dir.path(), session)).ok(),
            Backend::Redis { server, .. } => redis::cmd("GET")
                .arg(format!("rulesc:session:{session}"))
                .query(&mut server.connection())
                .unwrap(),
        }
    }

    /// Replaces the stored state of `session` with `bytes`
    fn write(&self, session: &str, bytes: &[u8]) {
        match self {
            Backend::File(dir) => {
                std::fs::write(self.session_file(dir.path(), session), bytes).unwrap();
            }
            Backend::Redis { server, .. } => redis::cmd("SET")
                .arg(format!("rulesc:session:{session}"))
                .arg(bytes)
                .exec(&mut server.connection())
                .unwrap(),
        }
    }
}

/// Runs the test `$name(&Backend)` once per store
macro_rules! on_both_stores {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[test]
            fn file() {
                super::$name(&super::Backend::file());
            }

            #[test]
            fn redis() {
                if let Some(backend) = super::Backend::redis() {
                    super::$name(&backend);
                }
            }
        }
    )*};
}

on_both_stores!(
    parallel_hook_processes_lose_no_update,
    damaged_state_is_refused_and_kept_until_reset,
    state_of_another_version_is_refused,
    prune_forgets_sessions_not_written_for_longer_than_the_age,
);

/// A policy that latches `metadata.tN` when tool `tN` fails, and asks on tool `check` once
/// all `PARALLEL` tools failed, each once
fn counting_policy(dir: &Path) -> PathBuf {
    let mut text = String::new();
    for n in 0..PARALLEL {
        text.push_str(&format!(
            "on post_tool_use when tool == \"t{n}\" set metadata.t{n} = true\n"
        ));
    }
    let latched: Vec<String> = (0..PARALLEL)
        .map(|n| format!("metadata.t{n} == true"))
        .collect();
    text.push_str(&format!(
        "@id(\"counted\")\non pre_tool_use when tool == \"check\" and errors == {PARALLEL} \
         and {} ask \"all counted\"\n",
        latched.join(" and ")
    ));
    let path = dir.join("count.rules");
    std::fs::write(&path, text).unwrap();
    path
}

/// A Claude Code hook payload of `session`
fn payload(session: &str, event: &str, fields: Json) -> Vec<u8> {
    let mut payload = json!({"session_id": session, "hook_event_name": event});
    payload
        .as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    payload.to_string().into_bytes()
}

fn failure(tool: &str) -> Vec<u8> {
    payload(
        SESSION,
        "PostToolUseFailure",
        json!({"tool_name": tool, "tool_input": {}, "error": "exit 1"}),
    )
}

fn check() -> Vec<u8> {
    payload(
        SESSION,
        "PreToolUse",
        json!({"tool_name": "check", "tool_input": {}}),
    )
}

/// `rulesc hook POLICY --host claude FLAGS...`, started with `input` on stdin
fn spawn_hook(policy: &Path, flags: &[OsString], input: &[u8]) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .arg("hook")
        .arg(policy)
        .args(["--host", "claude"])
        .args(flags)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child
}

/// The hook on `backend`, with `extra` flags, started
fn spawn(backend: &Backend, policy: &Path, extra: &[&str], input: &[u8]) -> Child {
    let mut flags = backend.flags();
    flags.extend(extra.iter().map(OsString::from));
    spawn_hook(policy, &flags, input)
}

fn call(backend: &Backend, policy: &Path, extra: &[&str], input: &[u8]) -> Output {
    spawn(backend, policy, extra, input)
        .wait_with_output()
        .unwrap()
}

/// Exit code, stdout and stderr, for comparing with what a call must give
fn transcript(output: &Output) -> (Option<i32>, String, String) {
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).trim().to_owned(),
        String::from_utf8_lossy(&output.stderr).trim().to_owned(),
    )
}

fn asks(output: &Output) -> bool {
    let answer: Json = serde_json::from_slice(&output.stdout).unwrap();
    answer["hookSpecificOutput"]["permissionDecisionReason"] == json!("all counted (rule counted)")
}

fn parallel_hook_processes_lose_no_update(backend: &Backend) {
    let policies = tempfile::tempdir().unwrap();
    let policy = counting_policy(policies.path());
    // The first call compiles and caches the policy, so the parallel ones all race on the
    // session rather than on compiling.
    assert!(
        !asks(&call(backend, &policy, &[], &check())),
        "nothing failed yet"
    );
    let children: Vec<Child> = (0..PARALLEL)
        .map(|n| spawn(backend, &policy, &[], &failure(&format!("t{n}"))))
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert_eq!(
            transcript(&output),
            (Some(0), "{}".to_owned(), String::new())
        );
    }
    let stored: Json = serde_json::from_slice(&backend.read(SESSION).unwrap()).unwrap();
    // One policy called: the session holds its run alone.
    let runs = stored["runs"].as_object().unwrap();
    assert_eq!(runs.len(), 1, "{stored}");
    let run = runs.values().next().unwrap();
    assert_eq!(run["errors"], json!(PARALLEL), "{stored}");
    for n in 0..PARALLEL {
        assert_eq!(run["metadata"][format!("t{n}")], json!(true), "{stored}");
    }
    assert!(
        asks(&call(backend, &policy, &[], &check())),
        "every failure counted"
    );
    if let Backend::Redis { policies, .. } = backend {
        // Sessions live on the server; `--state-dir` keeps only the compiled policy.
        let entries = |folder: &str| {
            std::fs::read_dir(policies.path().join(folder))
                .unwrap()
                .count()
        };
        assert_eq!((entries("sessions"), entries("policies")), (0, 1));
    }
}

fn damaged_state_is_refused_and_kept_until_reset(backend: &Backend) {
    let policies = tempfile::tempdir().unwrap();
    let policy = counting_policy(policies.path());
    call(backend, &policy, &[], &failure("t0"));
    let damaged = b"{\"errors\": tru";
    backend.write(SESSION, damaged);
    let denied = call(backend, &policy, &[], &check());
    let (code, stdout, stderr) = transcript(&denied);
    assert_eq!((code, stdout.as_str()), (Some(2), ""), "{stderr}");
    let prefix = format!(
        "rulesc could not check this call, so it is denied: the hook state is unusable: \
         the state of session `{SESSION}` in {} cannot be read: it is damaged (",
        backend.place(SESSION)
    );
    let suffix = format!(
        "); run `rulesc hook reset --session {SESSION}{}` to start the session afresh",
        backend.reset_flags()
    );
    assert!(
        stderr.starts_with(&prefix) && stderr.ends_with(&suffix),
        "{stderr}"
    );
    // Another event is not denied, but says why it could not be checked.
    let stop = call(backend, &policy, &[], &payload(SESSION, "Stop", json!({})));
    let (code, stdout, stop_stderr) = transcript(&stop);
    assert_eq!((code, stdout.as_str()), (Some(0), "{}"));
    assert_eq!(
        stop_stderr,
        stderr.replace(", so it is denied: ", ": "),
        "the same reason"
    );
    assert_eq!(backend.read(SESSION).as_deref(), Some(&damaged[..]), "kept");

    let mut reset = Command::new(env!("CARGO_BIN_EXE_rulesc"));
    reset
        .args(["hook", "reset", "--session", SESSION])
        .args(backend.flags());
    let output = reset.output().unwrap();
    assert_eq!(
        transcript(&output),
        (
            Some(0),
            format!("session `{SESSION}` reset: its next hook call starts afresh"),
            String::new()
        )
    );
    assert_eq!(backend.read(SESSION), None);
    let fresh = call(backend, &policy, &[], &check());
    assert_eq!(
        transcript(&fresh),
        (Some(0), "{}".to_owned(), String::new())
    );
    // The fresh call started the session's clock, so it has state again.
    assert!(backend.read(SESSION).is_some());
    reset.output().unwrap();
    let output = reset.output().unwrap();
    assert_eq!(
        transcript(&output),
        (
            Some(0),
            format!("session `{SESSION}` has no state to reset"),
            String::new()
        )
    );
}

fn state_of_another_version_is_refused(backend: &Backend) {
    let policies = tempfile::tempdir().unwrap();
    let policy = counting_policy(policies.path());
    call(backend, &policy, &[], &failure("t0"));
    let mut stored: Json = serde_json::from_slice(&backend.read(SESSION).unwrap()).unwrap();
    stored["version"] = json!(99);
    let foreign = stored.to_string();
    backend.write(SESSION, foreign.as_bytes());
    let (code, stdout, stderr) = transcript(&call(backend, &policy, &[], &check()));
    assert_eq!((code, stdout.as_str()), (Some(2), ""), "{stderr}");
    let expected = format!(
        "the state of session `{SESSION}` in {} cannot be read: it is of version 99, this \
         rulesc reads version ",
        backend.place(SESSION)
    );
    assert!(stderr.contains(&expected), "{stderr}");
    assert_eq!(backend.read(SESSION), Some(foreign.into_bytes()), "kept");
}

fn prune_forgets_sessions_not_written_for_longer_than_the_age(backend: &Backend) {
    let policies = tempfile::tempdir().unwrap();
    let policy = counting_policy(policies.path());
    let prune = ["--prune-older-than", "1s"];
    let fail = |session: &str, extra: &[&str]| {
        let input = payload(
            session,
            "PostToolUseFailure",
            json!({"tool_name": "t1", "tool_input": {}, "error": "exit 1"}),
        );
        let output = call(backend, &policy, extra, &input);
        assert_eq!(
            transcript(&output),
            (Some(0), "{}".to_owned(), String::new())
        );
    };
    fail("unflagged", &[]);
    fail("flagged", &prune);
    assert!(backend.read("unflagged").is_some() && backend.read("flagged").is_some());
    std::thread::sleep(Duration::from_millis(1_500));
    if let Backend::Redis { .. } = backend {
        // Written with the flag, the key expired on the server by itself.
        assert_eq!(backend.read("flagged"), None);
    }
    fail("fresh", &prune);
    assert_eq!(
        backend.read("unflagged"),
        None,
        "not written for 1.5 s: forgotten"
    );
    assert_eq!(
        backend.read("flagged"),
        None,
        "not written for 1.5 s: forgotten"
    );
    assert!(backend.read("fresh").is_some(), "just written: kept");
}

#[test]
fn a_redis_server_nobody_listens_on_denies_tool_calls() {
    let policies = tempfile::tempdir().unwrap();
    let policy = counting_policy(policies.path());
    let port = free_port();
    let url = format!("redis://127.0.0.1:{port}/3");
    let flags: Vec<OsString> = vec![
        "--state".into(),
        url.into(),
        "--state-dir".into(),
        policies.path().into(),
    ];
    let hook = |input: &[u8]| {
        transcript(
            &spawn_hook(&policy, &flags, input)
                .wait_with_output()
                .unwrap(),
        )
    };
    let reason = format!(
        "the hook state is unusable: redis `127.0.0.1:{port}/3` cannot be reached: the \
         connection was refused"
    );
    assert_eq!(
        hook(&check()),
        (
            Some(2),
            String::new(),
            format!("rulesc could not check this call, so it is denied: {reason}")
        )
    );
    assert_eq!(
        hook(&payload(SESSION, "Stop", json!({}))),
        (
            Some(0),
            "{}".to_owned(),
            format!("rulesc could not check this call: {reason}")
        )
    );
}

#[test]
fn a_redis_server_that_never_answers_denies_tool_calls_in_time() {
    let policies = tempfile::tempdir().unwrap();
    let policy = counting_policy(policies.path());
    // Accepts connections (the kernel does, for the backlog) and never answers.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let flags: Vec<OsString> = vec![
        "--state".into(),
        format!("redis://127.0.0.1:{port}/0").into(),
        "--state-dir".into(),
        policies.path().into(),
    ];
    let started = Instant::now();
    let output = spawn_hook(&policy, &flags, &check())
        .wait_with_output()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        transcript(&output),
        (
            Some(2),
            String::new(),
            format!(
                "rulesc could not check this call, so it is denied: the hook state is \
                 unusable: redis `127.0.0.1:{port}/0` cannot be reached: it did not answer \
                 in time"
            )
        )
    );
    drop(silent);
}

#[cfg(unix)]
#[test]
fn a_folder_every_user_may_write_denies_tool_calls() {
    use std::os::unix::fs::PermissionsExt;
    let policies = tempfile::tempdir().unwrap();
    let policy = counting_policy(policies.path());
    let backend = Backend::file();
    let Backend::File(dir) = &backend else {
        unreachable!("a file backend")
    };
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    assert_eq!(
        transcript(&call(&backend, &policy, &[], &check())),
        (
            Some(2),
            String::new(),
            format!(
                "rulesc could not check this call, so it is denied: the hook state is \
                 unusable: `{}` may be written by every user (mode 777); the state folder \
                 must hold only your own files and folders: remove it, or pass a \
                 `--state-dir` of your own",
                dir.path().display()
            )
        )
    );
}

#[test]
fn contradicting_state_flags_are_refused() {
    let policies = tempfile::tempdir().unwrap();
    let policy = counting_policy(policies.path());
    let output = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .arg("hook")
        .arg(&policy)
        .args(["--host", "claude", "--state", "one", "--state-dir", "two"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim(),
        "error: `--state one` and `--state-dir two` name different folders; give one"
    );
}
