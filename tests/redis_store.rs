//! What the Redis store adds to the suite of tests/state_store.rs, held to docs/state.md's
//! "The Redis store": a server that lost data (emptied by `FLUSHALL` or a restart without
//! persistence, or a key evicted) denies tool calls, naming the cause, until the loss is
//! acknowledged, and never answers as if the session were new; a key of the wrong kind is
//! an error in words, and the call it denies writes nothing; a latched `forbid` names the
//! store to reset it in.
//!
//! Each test starts its own `redis-server` (see tests/common/redis_server.rs).

#![expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "helpers of tests: a server or a hook that cannot run fails the test"
)]

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::redis_server::RedisServer;
use serde_json::{json, Value as Json};

/// The session every test uses, unless it needs a second one
const SESSION: &str = "s1";

/// What a denied call's stderr starts with when the store cannot be used
const UNUSABLE: &str =
    "rulesc could not check this call, so it is denied: the hook state is unusable: ";

/// A server, a policy, and one machine's state folder (a second one is another machine)
struct Fixture {
    server: RedisServer,
    _policies: tempfile::TempDir,
    policy: PathBuf,
    machine: tempfile::TempDir,
}

impl Fixture {
    /// Resets the session as the latch's message says, and holds that its next call is
    /// answered afresh
    fn reset_and_start_afresh(&self) {
        let (code, said, _) = self.reset_on(self.machine.path(), &["--session", SESSION]);
        assert_eq!(
            (code, said.as_str()),
            (
                Some(0),
                "session `s1` reset: its next hook call starts afresh"
            )
        );
        assert_eq!(
            self.call(&tool("ls")),
            (Some(0), "{}".to_owned(), String::new())
        );
    }

    fn new() -> Option<Fixture> {
        let server = RedisServer::start()?;
        let policies = tempfile::tempdir().unwrap();
        let policy = policies.path().join("latch.rules");
        std::fs::write(
            &policy,
            "@id(\"no-rm\")\non pre_tool_use when tool == \"rm\" forbid \"rm is not allowed\"\n",
        )
        .unwrap();
        Some(Fixture {
            server,
            _policies: policies,
            policy,
            machine: tempfile::tempdir().unwrap(),
        })
    }

    /// `HOST:PORT/DB`, as messages name the server
    fn name(&self) -> String {
        format!("127.0.0.1:{}/0", self.server.port)
    }

    fn flags(&self, machine: &Path) -> Vec<OsString> {
        vec![
            "--state".into(),
            self.server.url().into(),
            "--state-dir".into(),
            machine.into(),
        ]
    }

    /// The hook on this machine, given `input`
    fn call(&self, input: &[u8]) -> (Option<i32>, String, String) {
        self.call_on(self.machine.path(), input)
    }

    /// The hook on the machine whose state folder is `machine`, given `input`
    fn call_on(&self, machine: &Path, input: &[u8]) -> (Option<i32>, String, String) {
        self.run(machine, &[], input)
    }

    /// The hook on this machine with the flags `extra`, given `input`
    fn call_with(&self, extra: &[&str], input: &[u8]) -> (Option<i32>, String, String) {
        self.run(self.machine.path(), extra, input)
    }

    fn run(&self, machine: &Path, extra: &[&str], input: &[u8]) -> (Option<i32>, String, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
            .arg("hook")
            .arg(&self.policy)
            .args(["--host", "claude"])
            .args(self.flags(machine))
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        transcript(&child.wait_with_output().unwrap())
    }

    /// `rulesc hook reset ARGS...` on the machine whose state folder is `machine`
    fn reset_on(&self, machine: &Path, args: &[&str]) -> (Option<i32>, String, String) {
        let output = Command::new(env!("CARGO_BIN_EXE_rulesc"))
            .args(["hook", "reset"])
            .args(args)
            .args(self.flags(machine))
            .output()
            .unwrap();
        transcript(&output)
    }

    fn redis(&self, args: &[&str]) -> redis::Value {
        let mut cmd = redis::cmd(args[0]);
        for arg in &args[1..] {
            cmd.arg(*arg);
        }
        cmd.query(&mut self.server.connection()).unwrap()
    }

    /// Every key of the database, sorted
    fn keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = redis::cmd("KEYS")
            .arg("*")
            .query(&mut self.server.connection())
            .unwrap();
        keys.sort();
        keys
    }

    fn exists(&self, key: &str) -> bool {
        self.redis(&["EXISTS", key]) == redis::Value::Int(1)
    }

    /// Latches the forbid of session `SESSION` and checks that it holds
    fn latch(&self) {
        let (code, _, stderr) = self.call(&tool("rm"));
        assert_eq!(code, Some(0), "{stderr}");
        assert!(denied(&self.call(&tool("ls"))), "latched");
    }
}

/// A Claude Code `PreToolUse` of `SESSION` for `tool`
fn tool(tool: &str) -> Vec<u8> {
    payload("PreToolUse", json!({"tool_name": tool, "tool_input": {}}))
}

fn payload(event: &str, fields: Json) -> Vec<u8> {
    let mut payload = json!({"session_id": SESSION, "hook_event_name": event});
    payload
        .as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    payload.to_string().into_bytes()
}

fn transcript(output: &Output) -> (Option<i32>, String, String) {
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).trim().to_owned(),
        String::from_utf8_lossy(&output.stderr).trim().to_owned(),
    )
}

/// The call was answered with Claude Code's deny of a tool call
fn denied(transcript: &(Option<i32>, String, String)) -> bool {
    let (code, stdout, _) = transcript;
    if *code != Some(0) || stdout.is_empty() {
        return false;
    }
    let answer: Json = serde_json::from_str(stdout).unwrap();
    answer["hookSpecificOutput"]["permissionDecision"] == json!("deny")
}

/// The hook's answer when the store lost data, naming `cause`, and what the acknowledgement
/// says: the tool call is denied (exit 2) and nothing is answered
fn refused(transcript: &(Option<i32>, String, String), reason: &str) {
    assert_eq!(
        transcript,
        &(Some(2), String::new(), format!("{UNUSABLE}{reason}"))
    );
}

/// What docs/state.md says a server that lost data answers
fn lost(fixture: &Fixture, cause: &str) -> String {
    format!(
        "redis `{}` lost data: {cause}; check the server's persistence and eviction settings \
         (docs/state.md), then run `rulesc hook reset --lost --state redis://{}` to go on \
         with what it kept",
        fixture.name(),
        fixture.name()
    )
}

const GONE: &str = "its epoch key `rulesc:epoch` is gone (a restart without persistence, \
                    `FLUSHALL` or eviction), and with it the state of every session there, a \
                    latched forbid included";

#[test]
fn the_latch_names_the_store_to_reset_it_in() {
    let Some(fixture) = Fixture::new() else {
        return;
    };
    fixture.latch();
    let (_, stdout, _) = fixture.call(&tool("ls"));
    let answer: Json = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecisionReason"],
        json!(format!(
            "this session was stopped: rm is not allowed (rule no-rm); run `rulesc hook reset \
             --session {SESSION} --state redis://{}` to clear it",
            fixture.name()
        ))
    );
    // Following the message clears the latch.
    fixture.reset_and_start_afresh();
}

#[test]
fn a_flushed_server_denies_until_the_loss_is_acknowledged() {
    let Some(fixture) = Fixture::new() else {
        return;
    };
    fixture.latch();
    fixture.redis(&["FLUSHALL"]);
    let reason = lost(&fixture, GONE);
    refused(&fixture.call(&tool("ls")), &reason);
    refused(&fixture.call(&tool("ls")), &reason);
    assert!(!fixture.exists("rulesc:session:s1"), "nothing written");
    // Other events are not denied, but say why they could not be checked.
    assert_eq!(
        fixture.call(&payload("Stop", json!({}))),
        (
            Some(0),
            "{}".to_owned(),
            format!("rulesc could not check this call: the hook state is unusable: {reason}")
        )
    );
    let (code, said, stderr) = fixture.reset_on(fixture.machine.path(), &["--lost"]);
    assert_eq!(
        (code, said, stderr),
        (
            Some(0),
            format!(
                "redis `{}`: the loss of data is acknowledged; hook calls go on with the 0 \
                 sessions it lists (0 listed sessions whose state was gone are forgotten)",
                fixture.name()
            ),
            String::new()
        )
    );
    // What was lost is lost: the session starts afresh, once the loss is acknowledged.
    assert_eq!(
        fixture.call(&tool("ls")),
        (Some(0), "{}".to_owned(), String::new())
    );
}

#[test]
fn a_restart_without_persistence_denies_until_the_loss_is_acknowledged() {
    let Some(mut fixture) = Fixture::new() else {
        return;
    };
    fixture.latch();
    fixture.server.restart();
    refused(&fixture.call(&tool("ls")), &lost(&fixture, GONE));
    fixture.reset_on(fixture.machine.path(), &["--lost"]);
    assert_eq!(
        fixture.call(&tool("ls")),
        (Some(0), "{}".to_owned(), String::new())
    );
}

#[test]
fn every_machine_that_knew_the_server_sees_the_loss_and_one_acknowledgement_serves_all() {
    let Some(fixture) = Fixture::new() else {
        return;
    };
    let other = tempfile::tempdir().unwrap();
    fixture.latch();
    // The other machine sees the server once before it is emptied.
    assert!(denied(&fixture.call_on(other.path(), &tool("ls"))));
    fixture.redis(&["FLUSHALL"]);
    refused(
        &fixture.call_on(other.path(), &tool("ls")),
        &lost(&fixture, GONE),
    );
    fixture.reset_on(fixture.machine.path(), &["--lost"]);
    let fresh = (Some(0), "{}".to_owned(), String::new());
    assert_eq!(fixture.call_on(other.path(), &tool("ls")), fresh);
    // A machine that never saw the server cannot tell it from a new one.
    let new = tempfile::tempdir().unwrap();
    assert_eq!(fixture.call_on(new.path(), &tool("ls")), fresh);
}

#[test]
fn an_emptied_server_that_another_client_started_again_is_a_loss() {
    let Some(fixture) = Fixture::new() else {
        return;
    };
    fixture.latch();
    let epoch = |fixture: &Fixture| match fixture.redis(&["HGET", "rulesc:epoch", "id"]) {
        redis::Value::BulkString(bytes) => String::from_utf8(bytes).unwrap(),
        other => panic!("no epoch: {other:?}"),
    };
    let was = epoch(&fixture);
    fixture.redis(&["FLUSHALL"]);
    // A machine that never saw the server writes first.
    let new = tempfile::tempdir().unwrap();
    let (code, _, _) = fixture.call_on(new.path(), &tool("rm"));
    assert_eq!(code, Some(0));
    let now = epoch(&fixture);
    assert_ne!(was, now);
    let cause = format!(
        "its epoch is `{now}`, not `{was}` as this machine last saw it (it was emptied by a \
         restart without persistence or `FLUSHALL`, and started again), and with it the \
         state of every session there, a latched forbid included"
    );
    refused(&fixture.call(&tool("ls")), &lost(&fixture, &cause));
}

#[test]
fn an_evicted_session_key_denies_that_session_until_it_is_reset() {
    let Some(fixture) = Fixture::new() else {
        return;
    };
    fixture.latch();
    fixture.redis(&["DEL", "rulesc:session:s1"]);
    let reason = format!(
        "redis `{0}` lost the state of session `s1`: its key `rulesc:session:s1` is gone while \
         `rulesc:sessions` lists it (eviction, or a key deleted by hand), a latched forbid \
         included; check the server's eviction settings (docs/state.md), then run `rulesc \
         hook reset --session s1 --state redis://{0}` to start the session afresh",
        fixture.name()
    );
    refused(&fixture.call(&tool("ls")), &reason);
    assert!(!fixture.exists("rulesc:session:s1"), "nothing written");
    fixture.reset_and_start_afresh();
}

#[test]
fn an_evicted_index_entry_or_epoch_is_a_loss() {
    let Some(fixture) = Fixture::new() else {
        return;
    };
    fixture.latch();
    // The session's entry in the index goes (its key stays): the count disagrees.
    fixture.redis(&["ZREM", "rulesc:sessions", "s1"]);
    let cause = "its index `rulesc:sessions` lists 0 sessions where its epoch recorded 1 \
                 (eviction, or a key deleted by hand), so the state of a session, a latched \
                 forbid included, may be gone";
    refused(&fixture.call(&tool("ls")), &lost(&fixture, cause));
    // The epoch goes while sessions stay: seen even by a machine that never saw the server.
    fixture.redis(&["ZADD", "rulesc:sessions", "1", "s1"]);
    fixture.redis(&["DEL", "rulesc:epoch"]);
    let new = tempfile::tempdir().unwrap();
    let cause = "its epoch key `rulesc:epoch` is gone while sessions are kept (eviction, a key \
                 deleted by hand, or sessions of an older rulesc, which kept no epoch), and \
                 with it the state of sessions, a latched forbid included";
    refused(
        &fixture.call_on(new.path(), &tool("ls")),
        &lost(&fixture, cause),
    );
    // Acknowledged, the sessions kept go on: the latch held on.
    let (code, said, _) = fixture.reset_on(fixture.machine.path(), &["--lost"]);
    assert_eq!(
        (code, said),
        (
            Some(0),
            format!(
                "redis `{}`: the loss of data is acknowledged; hook calls go on with the 1 \
                 sessions it lists (0 listed sessions whose state was gone are forgotten)",
                fixture.name()
            )
        )
    );
    assert!(denied(&fixture.call(&tool("ls"))), "still latched");
    assert!(
        denied(&fixture.call_on(new.path(), &tool("ls"))),
        "still latched"
    );
}

#[test]
fn the_file_store_has_no_loss_to_acknowledge() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_rulesc"))
        .args(["hook", "reset", "--lost", "--state"])
        .arg(dir.path())
        .output()
        .unwrap();
    let (code, stdout, stderr) = transcript(&output);
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert!(
        stderr.ends_with(
            "the hook state is unusable: `--lost` acknowledges a loss of data on a redis \
             server (`--state redis://...`); the file store has none to acknowledge"
        ),
        "{stderr}"
    );
}

/// A key of the wrong kind: the call is denied in words, and writes nothing
fn wrong_kind(key: &str, set: &[&str], found: &str, expected: &str) {
    let Some(fixture) = Fixture::new() else {
        return;
    };
    fixture.redis(set);
    let before = fixture.keys();
    let reason = format!(
        "redis `{}` failed: key `{key}` holds the wrong kind of value (WRONGTYPE): {found} \
         where rulesc keeps {expected}; delete the key, or give rulesc a database of its own",
        fixture.name()
    );
    // The latching call would write the session, were the store usable.
    refused(&fixture.call(&tool("rm")), &reason);
    let failure = payload(
        "PostToolUseFailure",
        json!({"tool_name": "ls", "tool_input": {}, "error": "exit 1"}),
    );
    assert_eq!(
        fixture.call(&failure),
        (
            Some(0),
            "{}".to_owned(),
            format!("rulesc could not check this call: the hook state is unusable: {reason}")
        )
    );
    assert_eq!(fixture.keys(), before, "nothing written");
}

#[test]
fn a_wrong_kind_of_index_is_an_error_in_words() {
    wrong_kind(
        "rulesc:sessions",
        &["SET", "rulesc:sessions", "x"],
        "a string",
        "a sorted set",
    );
}

#[test]
fn a_wrong_kind_of_epoch_is_an_error_in_words() {
    wrong_kind(
        "rulesc:epoch",
        &["SET", "rulesc:epoch", "x"],
        "a string",
        "a hash",
    );
}

#[test]
fn a_wrong_kind_of_session_key_is_an_error_in_words() {
    wrong_kind(
        "rulesc:session:s1",
        &["HSET", "rulesc:session:s1", "a", "b"],
        "a hash",
        "a string",
    );
}

#[test]
fn sessions_are_scored_and_pruned_by_the_servers_clock() {
    let Some(fixture) = Fixture::new() else {
        return;
    };
    let time = |fixture: &Fixture| -> u64 {
        let (secs, micros): (u64, u64) = redis::cmd("TIME")
            .query(&mut fixture.server.connection())
            .unwrap();
        secs * 1_000 + micros / 1_000
    };
    let before = time(&fixture);
    fixture.latch();
    let after = time(&fixture);
    let score: u64 = redis::cmd("ZSCORE")
        .arg("rulesc:sessions")
        .arg(SESSION)
        .query(&mut fixture.server.connection())
        .unwrap();
    assert!(
        (before..=after).contains(&score),
        "{before} {score} {after}"
    );
    // A session written 8 days ago by the server's clock, as its index and epoch say.
    let old = (before - 8 * 24 * 3_600 * 1_000).to_string();
    fixture.redis(&["SET", "rulesc:session:old", "{}"]);
    fixture.redis(&["ZADD", "rulesc:sessions", &old, "old"]);
    fixture.redis(&["HINCRBY", "rulesc:epoch", "sessions", "1"]);
    let output = fixture.call_with(&["--prune-older-than", "7d"], &tool("ls"));
    assert!(denied(&output), "still latched: {output:?}");
    assert!(!fixture.exists("rulesc:session:old"), "8 days old: pruned");
    assert!(fixture.exists("rulesc:session:s1"), "just written: kept");
    // The count of sessions followed: the next call sees no loss.
    assert!(denied(&fixture.call(&tool("ls"))));
}

#[test]
fn a_large_prune_goes_in_bounded_parts_and_holds_up_no_call() {
    let Some(fixture) = Fixture::new() else {
        return;
    };
    assert_eq!(fixture.call(&tool("ls")).0, Some(0));
    // 50,000 sessions written two days ago by the server's clock, as the index and the
    // epoch's count say.
    let (secs, _): (u64, u64) = redis::cmd("TIME")
        .query(&mut fixture.server.connection())
        .unwrap();
    let old = (secs - 2 * 24 * 3_600) * 1_000;
    let stale = 50_000;
    let mut pipe = redis::pipe();
    for n in 0..stale {
        pipe.cmd("SET")
            .arg(format!("rulesc:session:old{n}"))
            .arg("{}")
            .ignore();
        pipe.cmd("ZADD")
            .arg("rulesc:sessions")
            .arg(old)
            .arg(format!("old{n}"))
            .ignore();
    }
    pipe.cmd("HINCRBY")
        .arg("rulesc:epoch")
        .arg("sessions")
        .arg(stale)
        .ignore();
    pipe.query::<()>(&mut fixture.server.connection()).unwrap();
    let listed = |fixture: &Fixture| -> u64 {
        redis::cmd("ZCARD")
            .arg("rulesc:sessions")
            .query(&mut fixture.server.connection())
            .unwrap()
    };
    // A call answered while others prune is answered as ever (docs/state.md, Pruning).
    std::thread::scope(|scope| {
        let pruning: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| fixture.call_with(&["--prune-older-than", "1h"], &tool("ls"))))
            .collect();
        for _ in 0..5 {
            let answered = fixture.call(&tool("ls"));
            assert_eq!(answered, (Some(0), "{}".to_owned(), String::new()));
        }
        for prune in pruning {
            assert_eq!(prune.join().unwrap().0, Some(0));
        }
    });
    // Each call forgets a bounded part, 16 scripts of 256 sessions at most; later calls go on.
    let left = listed(&fixture);
    assert!(
        (1 + stale - 2 * 4_096..=1 + stale - 4_096).contains(&left),
        "{left} listed after two calls"
    );
    fixture.call_with(&["--prune-older-than", "1h"], &tool("ls"));
    assert!(listed(&fixture) < left);
    // The count of sessions followed: the next call sees no loss.
    assert_eq!(fixture.call(&tool("ls")).0, Some(0));
    assert!(!denied(&fixture.call(&tool("ls"))));
}

#[test]
fn a_full_server_refuses_the_write_in_words_and_loses_nothing() {
    let Some(fixture) = Fixture::new() else {
        return;
    };
    fixture.latch();
    let before = fixture.keys();
    fixture.redis(&["CONFIG", "SET", "maxmemory-policy", "noeviction"]);
    fixture.redis(&["CONFIG", "SET", "maxmemory", "1"]);
    // A call that changes nothing only reads: the latch still answers.
    assert!(denied(&fixture.call(&tool("ls"))));
    let other = payload("PreToolUse", json!({"tool_name": "rm", "tool_input": {}}));
    let other = String::from_utf8(other)
        .unwrap()
        .replace("\"s1\"", "\"s2\"");
    refused(
        &fixture.call(other.as_bytes()),
        &format!(
            "redis `{}` failed: it is out of memory (OOM: `maxmemory` is reached and nothing \
             may be evicted), so nothing was written; raise `maxmemory` or prune old sessions",
            fixture.name()
        ),
    );
    fixture.redis(&["CONFIG", "SET", "maxmemory", "0"]);
    assert_eq!(fixture.keys(), before, "nothing written");
}
