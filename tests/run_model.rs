//! One run driven through each front door, the counters each event saw held to one table
//! written from docs/state.md ("What the counters mean"), not from the code.
//!
//! The run: the user asks; the model calls `ls` (it succeeds), `cat` (it fails) and `rm`
//! (a rule blocks it); it answers; a `stop` rule keeps it going once; it answers again and
//! the stop stands. The agent loop runs it from a script, with a native hook that records
//! every event; `rulesc hook` answers it as Claude Code sends it, call by call, and what each
//! event saw is read back from the metadata the policy's `set` rules wrote into the
//! session's state; `rulesc eval`'s session (which the inline tests and the Python bindings
//! share) is given the events the loop fired, and must see what they state.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    reason = "helpers of tests: a failed run or a bad fixture fails the test"
)]

use std::process::Command;
use std::sync::{Arc, Mutex};

use rulesc::events::{read_event, Session};
use rulesc::{compile_str, Event, EventKind, Limits, Script};
use serde_json::{json, Value as Json};

use crate::common;
use crate::recorder::Recorder;

/// The events both front doors see, whose counters the table gives
const COMPARED: [EventKind; 5] = [
    EventKind::BeforeStep,
    EventKind::PreToolUse,
    EventKind::PostToolUse,
    EventKind::OnError,
    EventKind::Stop,
];

/// What an event saw: its kind, `steps`, `failures`, `errors`, and `stop_requests` where
/// the event sees it
type Seen = (EventKind, u64, u64, u64, Option<u64>);

/// One row of the table: the event, `steps` in the loop and under a hook (`None`: a hook
/// never sees this event, a model call beginning), then `failures`, `errors` and
/// `stop_requests`, which mean the same under both
struct Row(EventKind, u64, Option<u64>, u64, u64, Option<u64>);

/// The run's events, as docs/state.md says each counter moves:
/// - `steps`: the loop counts a model call with its tools once it ended, so the answer and
///   the answer after the prevented stop are steps 2 and 3; a hook counts a turn at its
///   `Stop`, and a turn a stop rule kept going is a new one;
/// - `errors` and `failures`: a failed call and a blocked call each add one to both before
///   `post_tool_use`; a step that ends without a failed call resets `failures` (the loop's
///   answer, the hook's `Stop`, which is that answer);
/// - `stop_requests`: the stops prevented in a row, 0 at the first stop, 1 at the next.
fn table() -> Vec<Row> {
    use EventKind::{BeforeStep, OnError, PostToolUse, PreToolUse, Stop};
    vec![
        Row(BeforeStep, 0, Some(0), 0, 0, None),
        Row(PreToolUse, 0, Some(0), 0, 0, None),
        Row(PostToolUse, 0, Some(0), 0, 0, None),
        Row(PreToolUse, 0, Some(0), 0, 0, None),
        Row(PostToolUse, 0, Some(0), 1, 1, None),
        Row(OnError, 0, Some(0), 1, 1, None),
        Row(PreToolUse, 0, Some(0), 1, 1, None),
        Row(PostToolUse, 0, Some(0), 2, 2, None),
        Row(OnError, 0, Some(0), 2, 2, None),
        // The model's answer begins: the step with the failed calls counts, and it failed.
        Row(BeforeStep, 1, None, 2, 2, None),
        // The answer ended without a failed call: `failures` is reset before `stop`.
        Row(Stop, 2, Some(1), 0, 2, Some(0)),
        Row(BeforeStep, 2, None, 0, 2, None),
        Row(Stop, 3, Some(2), 0, 2, Some(1)),
    ]
}

/// What the loop's events must have seen
fn expected_in_the_loop() -> Vec<Seen> {
    table()
        .into_iter()
        .map(|Row(event, steps, _, failures, errors, stop_requests)| {
            (event, steps, failures, errors, stop_requests)
        })
        .collect()
}

/// What the hook's events must have seen
fn expected_under_a_hook() -> Vec<Seen> {
    table()
        .into_iter()
        .filter_map(|Row(event, _, steps, failures, errors, stop_requests)| {
            steps.map(|steps| (event, steps, failures, errors, stop_requests))
        })
        .collect()
}

/// The policy: `rm` is blocked, a stop is prevented once, and every compared event writes
/// what it saw into `metadata.<event>`
fn policy_text() -> String {
    let mut text = String::from(
        "@id(\"no-rm\")\non pre_tool_use when tool == \"rm\" block \"not here\"\n\n\
         @id(\"check-once\")\non stop when stop_requests < 1 request \"check it once more\"\n",
    );
    for event in COMPARED {
        let name = event.name();
        for counter in ["steps", "failures", "errors"] {
            text.push_str(&format!(
                "on {name} set metadata.{name}.{counter} = {counter}\n"
            ));
        }
    }
    text.push_str("on stop set metadata.stop.stop_requests = stop_requests\n");
    text
}

/// What an event saw, from the event itself
fn seen_in(event: &Event) -> Seen {
    (
        event.kind,
        event.steps,
        event.failures,
        event.errors,
        event.stop_requests,
    )
}

/// What an event of kind `event` saw, from the metadata its `set` rules wrote
fn seen_in_metadata(metadata: &Json, event: EventKind) -> Seen {
    let written = &metadata[event.name()];
    let count = |counter: &str| {
        written[counter]
            .as_u64()
            .expect("every compared event writes what it saw")
    };
    let stop_requests = (event == EventKind::Stop).then(|| count("stop_requests"));
    (
        event,
        count("steps"),
        count("failures"),
        count("errors"),
        stop_requests,
    )
}

/// The run in the agent loop: every event it fired, in order
fn run_in_the_loop() -> Vec<Event> {
    let script = Script::from_json(
        &json!({
            "prompt": "tidy the folder",
            "turns": [
                {"response": "Let me look.", "finish_reason": "tool_calls", "tool_calls": [
                    {"name": "ls", "args": {"path": "."}},
                    {"name": "cat", "args": {"path": "gone.txt"}},
                    {"name": "rm", "args": {"path": "old.txt"}}
                ]},
                {"response": "Done.", "finish_reason": "stop"}
            ],
            "tools": {"ls": {"output": "a.txt"}, "cat": {"error": "no such file"}}
        })
        .to_string(),
    )
    .unwrap();
    let policy = compile_str("run.rules", &policy_text()).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut agent_loop = script
        .agent_loop(policy, script.limits(Limits::default()))
        .with_hook(Recorder {
            seen: Arc::clone(&seen),
        });
    agent_loop.execute(
        &mut script.model(),
        &mut script.tools(),
        &mut script.approver(),
    );
    let events = seen.lock().unwrap().clone();
    events
}

/// A Claude Code payload of the run's session
fn payload(event: &str, fields: Json) -> Vec<u8> {
    let mut payload = json!({
        "session_id": "run-model",
        "transcript_path": "/home/dev/.claude/projects/app/run-model.jsonl",
        "cwd": "/home/dev/app",
        "permission_mode": "default",
        "hook_event_name": event,
    });
    if let (Json::Object(payload), Json::Object(fields)) = (&mut payload, fields) {
        payload.extend(fields);
    }
    serde_json::to_vec(&payload).unwrap()
}

/// The run under `rulesc hook --host claude`: each call with the events it fires
fn calls() -> Vec<(Vec<u8>, Vec<EventKind>)> {
    use EventKind::{BeforeStep, OnError, PostToolUse, PreToolUse, Stop};
    let tool = |name: &str| json!({"tool_name": name, "tool_input": {"path": "x"}});
    let with = |mut fields: Json, more: Json| {
        if let (Json::Object(fields), Json::Object(more)) = (&mut fields, more) {
            fields.extend(more);
        }
        fields
    };
    vec![
        (
            payload("UserPromptSubmit", json!({"prompt": "tidy the folder"})),
            vec![BeforeStep],
        ),
        (payload("PreToolUse", tool("ls")), vec![PreToolUse]),
        (
            payload(
                "PostToolUse",
                with(tool("ls"), json!({"tool_response": "a.txt"})),
            ),
            vec![PostToolUse],
        ),
        (payload("PreToolUse", tool("cat")), vec![PreToolUse]),
        (
            payload(
                "PostToolUseFailure",
                with(tool("cat"), json!({"error": "no such file"})),
            ),
            vec![PostToolUse, OnError],
        ),
        (
            payload("PreToolUse", tool("rm")),
            vec![PreToolUse, PostToolUse, OnError],
        ),
        (
            payload(
                "Stop",
                json!({"stop_hook_active": false, "last_assistant_message": "Done."}),
            ),
            vec![Stop],
        ),
        (
            payload(
                "Stop",
                json!({"stop_hook_active": true, "last_assistant_message": "Done."}),
            ),
            vec![Stop],
        ),
    ]
}

/// The run under `rulesc hook`: what each event saw, read from the session's state after
/// each call
fn run_under_a_hook() -> Vec<Seen> {
    let folder = tempfile::tempdir().unwrap();
    let policy = folder.path().join("run.rules");
    std::fs::write(&policy, policy_text()).unwrap();
    let state = folder.path().join("state");
    let mut seen = Vec::new();
    for (input, events) in calls() {
        let mut command = Command::new(env!("CARGO_BIN_EXE_rulesc"));
        command
            .arg("hook")
            .arg(&policy)
            .args(["--host", "claude", "--state-dir"])
            .arg(&state);
        let output = common::output(&mut command, &input);
        assert!(
            output.status.code() == Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let session: Json = serde_json::from_slice(
            &std::fs::read(state.join("sessions/s-run-model.json")).unwrap(),
        )
        .unwrap();
        let runs = session["runs"].as_object().unwrap();
        assert_eq!(runs.len(), 1, "one policy, one run");
        let metadata = &runs.values().next().unwrap()["metadata"];
        seen.extend(
            events
                .into_iter()
                .map(|event| seen_in_metadata(metadata, event)),
        );
    }
    seen
}

#[test]
fn the_agent_loop_counts_as_the_table_says() {
    let seen: Vec<Seen> = run_in_the_loop()
        .iter()
        .filter(|event| COMPARED.contains(&event.kind))
        .map(seen_in)
        .collect();
    assert_eq!(seen, expected_in_the_loop());
}

#[test]
fn a_hook_counts_as_the_table_says() {
    assert_eq!(run_under_a_hook(), expected_under_a_hook());
}

/// An event stream states its counters (docs/cli.md, "Event input"): given the loop's
/// events, each sees what the loop's did, and an event that leaves them out reads 0
#[test]
fn an_event_stream_sees_the_counters_it_states() {
    let policy = compile_str("run.rules", &policy_text()).unwrap();
    let mut session = Session::default();
    let mut seen = Vec::new();
    for event in run_in_the_loop() {
        let read = read_event(serde_json::to_value(&event).unwrap()).unwrap();
        let outcome = session.observe(&policy, &read);
        if COMPARED.contains(&event.kind) {
            seen.push(seen_in_metadata(
                &Json::Object(outcome.metadata),
                event.kind,
            ));
        }
    }
    assert_eq!(seen, expected_in_the_loop());
    let bare = read_event(json!({"event": "on_error"})).unwrap();
    let outcome = session.observe(&policy, &bare);
    assert_eq!(
        seen_in_metadata(&Json::Object(outcome.metadata), EventKind::OnError),
        (EventKind::OnError, 0, 0, 0, None),
        "a stream's counters are its own: the session derives none"
    );
}
