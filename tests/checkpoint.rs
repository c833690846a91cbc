//! Crash-safe runs: a scripted run interrupted at any driver call, any number of times, and
//! resumed from its last checkpoint ends exactly as the run that was never interrupted.
//!
//! A crash is simulated faithfully: every driver call (model, tool, approver, checkpoint
//! save) is a tick; after the crash tick nothing more is saved, so all that survives is the
//! last checkpoint, as after a killed process. The next attempt starts from that checkpoint
//! with new drivers and a new loop.

#![expect(
    clippy::panic,
    reason = "helpers of tests: a broken fixture or a run that does not end fails the test"
)]

use std::cell::Cell;
use std::rc::Rc;

use proptest::prelude::*;
use rulesc::checkpoint::FileCheckpointer;
use rulesc::{
    Approval, Approver, CheckpointError, Checkpointer, ExecutionState, InferenceResponse, Limits,
    Message, Model, ModelError, Policy, Script, ToolCall, ToolError, ToolExecutor,
};
use serde_json::json;

/// Rules a generated policy picks from: guards, retries, blocks, asks, taint tracking,
/// stop hooks, time and token budgets, and trace functions, whose state a checkpoint keeps
/// (counts, windows by steps and by time, streaks, repeated calls, labels)
const RULES: [&str; 19] = [
    "on before_step when steps >= 4 forbid steps_limit_reached",
    "on on_error when error.kind == \"rate_limit\" retry",
    "on on_error when error.kind == \"timeout\" ignore",
    "on on_error when error.kind == \"tool\" retry",
    "on pre_tool_use when tool == \"rm\" block \"no rm\"",
    "on pre_tool_use when tool == \"deploy\" ask",
    "on post_tool_use when tool == \"fetch\" set metadata.tainted = true",
    "on pre_tool_use when metadata.tainted == true and tool == \"send\" block",
    "on stop when stop_requests < 2 request",
    "on after_step when tool_calls > 1 request",
    "on before_step when elapsed >= 300ms forbid time_limit_reached",
    "on before_step when tokens > 600 forbid token_limit_reached",
    "on post_tool_use when tool == \"finish\" forbid completed",
    "on pre_tool_use when tool == \"ls\" and count(pre_tool_use when tool == \"ls\") > 2 block \"ls budget\"",
    "on pre_tool_use when same_call_count >= 3 block \"repeated call\"",
    "on before_step when count(on_error within 2 steps) >= 2 forbid \"error storm\"",
    "on before_step when count(pre_tool_use within 200ms) >= 4 forbid \"too fast\"",
    "on pre_tool_use when tool == \"send\" and streak(post_tool_use when tool_error) >= 2 ask",
    "on post_tool_use when tool == \"fetch\" label result \"web\"",
];

const TOOLS: [&str; 7] = ["ls", "rm", "deploy", "fetch", "send", "finish", "flaky"];

fn policy_of(picked: &[bool]) -> Policy {
    let source: String = RULES
        .iter()
        .zip(picked)
        .filter(|(_, keep)| **keep)
        .map(|(rule, _)| format!("{rule}\n"))
        .collect();
    match rulesc::compile_str("p.rules", &source) {
        Ok(policy) => policy,
        Err(diagnostics) => panic!("{diagnostics}"),
    }
}

/// A turn: an error, or an answer with some tool calls and some tokens
fn turn() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        1 => prop::sample::select(vec!["rate_limit", "timeout", "model"])
            .prop_map(|kind| json!({"error": {"kind": kind, "message": "failed"}})),
        4 => (prop::collection::vec(prop::sample::select(TOOLS.to_vec()), 0..3), 0_u64..200)
            .prop_map(|(tools, tokens)| {
                let calls: Vec<_> = tools
                    .iter()
                    .map(|name| json!({"name": name, "args": {"path": "/tmp"}}))
                    .collect();
                json!({"response": "step", "tool_calls": calls,
                       "usage": {"input": tokens, "output": 10}})
            }),
    ]
}

fn script() -> impl Strategy<Value = Script> {
    (
        prop::collection::vec(turn(), 0..9),
        any::<bool>(),
        0_u64..3,
        0_u64..150,
        any::<bool>(),
    )
        .prop_map(|(turns, allow, max_retries, ms_per_step, subagent)| {
            let text = json!({
                "turns": turns,
                "tools": {
                    "ls": {"output": "a.txt"}, "rm": {"output": ""}, "deploy": {"output": "ok"},
                    "fetch": {"output": "<html>"}, "send": {"output": "sent"},
                    "finish": {"output": "bye"}, "flaky": {"error": "connection reset"}
                },
                "approver": if allow { "allow" } else { "deny" },
                "max_retries": max_retries,
                "clock_ms_per_step": ms_per_step,
                "subagent": subagent,
                "metadata": {"user": "ci"}
            })
            .to_string();
            match Script::from_json(&text) {
                Ok(script) => script,
                Err(err) => panic!("{err}: {text}"),
            }
        })
}

/// Counts every driver call of one attempt
#[derive(Clone, Default)]
struct Ticks(Rc<Cell<u64>>);

impl Ticks {
    fn tick(&self) -> u64 {
        let now = self.0.get() + 1;
        self.0.set(now);
        now
    }
}

struct Counted<T> {
    inner: T,
    ticks: Ticks,
}

impl<M: Model> Model for Counted<M> {
    fn infer(&mut self, messages: &[Message]) -> Result<InferenceResponse, ModelError> {
        self.ticks.tick();
        self.inner.infer(messages)
    }
}

impl<T: ToolExecutor> ToolExecutor for Counted<T> {
    fn execute(&mut self, call: &ToolCall) -> Result<String, ToolError> {
        self.ticks.tick();
        self.inner.execute(call)
    }
}

impl<A: Approver> Approver for Counted<A> {
    fn approve(&mut self, call: &ToolCall, message: Option<&str>) -> Approval {
        self.ticks.tick();
        self.inner.approve(call, message)
    }
}

/// A checkpointer that stops saving once the crash tick has passed
struct Crashing<'store> {
    inner: Box<dyn Checkpointer + 'store>,
    ticks: Ticks,
    crash_after: Option<u64>,
}

impl Checkpointer for Crashing<'_> {
    fn save(&mut self, state: &ExecutionState) -> Result<(), CheckpointError> {
        let now = self.ticks.tick();
        if self.crash_after.is_some_and(|crash| now > crash) {
            return Err(CheckpointError::new("the process was killed"));
        }
        self.inner.save(state)
    }
}

/// Checkpoints kept in memory, in their JSON form (as a file would hold them)
#[derive(Default)]
struct Memory {
    json: Option<String>,
}

impl Checkpointer for &mut Memory {
    fn save(&mut self, state: &ExecutionState) -> Result<(), CheckpointError> {
        self.json = Some(state.to_checkpoint_json()?);
        Ok(())
    }
}

/// Where attempts find the last checkpoint and leave theirs
trait Store {
    fn load(&mut self) -> Option<ExecutionState>;
    fn checkpointer(&mut self) -> Box<dyn Checkpointer + '_>;
}

impl Store for Memory {
    fn load(&mut self) -> Option<ExecutionState> {
        self.json.as_deref().map(|json| {
            ExecutionState::from_checkpoint_json(json).unwrap_or_else(|err| panic!("{err}"))
        })
    }

    fn checkpointer(&mut self) -> Box<dyn Checkpointer + '_> {
        Box::new(self)
    }
}

impl Store for FileCheckpointer {
    fn load(&mut self) -> Option<ExecutionState> {
        FileCheckpointer::load(self).unwrap_or_else(|err| panic!("{err}"))
    }

    fn checkpointer(&mut self) -> Box<dyn Checkpointer + '_> {
        Box::new(self.clone())
    }
}

/// One attempt: from the store's checkpoint (or from the start), crashing after
/// `crash_after` ticks if given; the final state when it ended, and the ticks it took
fn attempt(
    script: &Script,
    policy: &Policy,
    store: &mut dyn Store,
    crash_after: Option<u64>,
) -> (Option<ExecutionState>, u64) {
    let ticks = Ticks::default();
    let saved = store.load();
    let model = match &saved {
        Some(state) => script.model_resumed(state),
        None => script.model(),
    };
    let mut model = Counted {
        inner: model,
        ticks: ticks.clone(),
    };
    let mut tools = Counted {
        inner: script.tools(),
        ticks: ticks.clone(),
    };
    let mut approver = Counted {
        inner: script.approver(),
        ticks: ticks.clone(),
    };
    let mut checkpointer = Crashing {
        inner: store.checkpointer(),
        ticks: ticks.clone(),
        crash_after,
    };
    let mut agent_loop = script.agent_loop(policy.clone(), script.limits(Limits::default()));
    let result = match saved {
        Some(state) => agent_loop.resume(
            state,
            &mut model,
            &mut tools,
            &mut approver,
            &mut checkpointer,
        ),
        None => agent_loop.execute_checkpointed(
            &mut model,
            &mut tools,
            &mut approver,
            &mut checkpointer,
        ),
    };
    (result.ok(), ticks.0.get())
}

/// The run never interrupted, without any checkpointer
fn uninterrupted(script: &Script, policy: &Policy) -> ExecutionState {
    script
        .agent_loop(policy.clone(), script.limits(Limits::default()))
        .execute(
            &mut script.model(),
            &mut script.tools(),
            &mut script.approver(),
        )
}

/// Runs with a crash after each tick in `crashes` (one per attempt, each taken modulo the
/// ticks of an uninterrupted attempt), then once more without a crash
fn interrupted(
    script: &Script,
    policy: &Policy,
    store: &mut dyn Store,
    crashes: &[u64],
    total_ticks: u64,
) -> ExecutionState {
    for crash in crashes {
        let (ended, _) = attempt(script, policy, store, Some(crash % (total_ticks + 1)));
        if let Some(state) = ended {
            // The crash came after the last save: the run had ended.
            return state;
        }
    }
    match attempt(script, policy, store, None) {
        (Some(state), _) => state,
        (None, _) => panic!("an attempt without a crash must end"),
    }
}

proptest! {
    #[test]
    fn a_run_interrupted_anywhere_and_resumed_ends_as_the_uninterrupted_one(
        picked in prop::collection::vec(any::<bool>(), RULES.len()),
        script in script(),
        crashes in prop::collection::vec(any::<u64>(), 1..4),
    ) {
        let policy = policy_of(&picked);
        let expected = uninterrupted(&script, &policy);
        let mut store = Memory::default();
        let (checkpointed, total_ticks) = attempt(&script, &policy, &mut store, None);
        prop_assert_eq!(checkpointed.as_ref(), Some(&expected), "checkpointing changed the run");
        let mut store = Memory::default();
        let resumed = interrupted(&script, &policy, &mut store, &crashes, total_ticks);
        prop_assert_eq!(&resumed, &expected);
        // The last checkpoint is the finished run; resuming it again changes nothing.
        let (again, ticks) = attempt(&script, &policy, &mut store, None);
        prop_assert_eq!(again.as_ref(), Some(&expected));
        prop_assert_eq!(ticks, 0);
    }
}

/// A script that takes every path: tools that run, fail, are blocked or asked about, model
/// errors retried and ignored, taint, a stop hook, and a clock
const RICH_SCRIPT: &str = r#"{
  "turns": [
    {"response": "look", "tool_calls": [{"name": "ls"}, {"name": "fetch"}],
     "usage": {"input": 100, "output": 10}},
    {"error": {"kind": "rate_limit", "message": "429"}},
    {"response": "send", "tool_calls": [{"name": "send"}, {"name": "deploy"}, {"name": "flaky"}],
     "usage": {"input": 120, "output": 10}},
    {"error": {"kind": "timeout", "message": "slow"}},
    {"response": "clean", "tool_calls": [{"name": "rm"}], "usage": {"input": 50, "output": 5}},
    {"response": "Done. TODO: more"}
  ],
  "tools": {"ls": {"output": "a.txt"}, "fetch": {"output": "<html>"}, "send": {"output": "ok"},
            "deploy": {"output": "deployed"}, "rm": {"output": ""},
            "flaky": {"error": "connection reset"}},
  "approver": "allow",
  "max_retries": 2,
  "clock_ms_per_step": 40
}"#;

/// Every rule but the retry of failed tools, which would end [`RICH_SCRIPT`] at its flaky
/// tool, and the error-storm and speed limits, which would end it in its first steps
fn rich_policy() -> Policy {
    let mut picked = [true; RULES.len()];
    picked[3] = false;
    picked[15] = false;
    picked[16] = false;
    policy_of(&picked)
}

#[test]
fn a_run_crashed_at_every_single_tick_resumes_from_its_file() {
    let script = Script::from_json(RICH_SCRIPT).unwrap();
    let policy = rich_policy();
    let expected = uninterrupted(&script, &policy);
    let dir = tempfile::tempdir().unwrap();
    let mut store = FileCheckpointer::new(dir.path().join("fresh.json"));
    let (checkpointed, total_ticks) = attempt(&script, &policy, &mut store, None);
    assert_eq!(checkpointed.as_ref(), Some(&expected));
    assert!(
        total_ticks >= 15,
        "the script exercises the loop: {total_ticks} ticks"
    );
    for crash in 0..=total_ticks {
        let mut store = FileCheckpointer::new(dir.path().join(format!("run-{crash}.json")));
        let resumed = interrupted(&script, &policy, &mut store, &[crash], total_ticks);
        assert_eq!(resumed, expected, "crash after tick {crash}");
        assert_eq!(store.load(), Ok(Some(expected.clone())));
    }
    // Only whole checkpoints are left: no temporary file survives a save.
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".tmp-"))
        .collect();
    assert_eq!(leftovers, Vec::<String>::new());
}

#[test]
fn a_checkpoint_file_that_is_not_a_checkpoint_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    let store = FileCheckpointer::new(&path);
    assert_eq!(store.load(), Ok(None));
    for (text, reason) in [
        (
            "{\"format\": \"rulesc-policy\", \"version\": 1}",
            "not a checkpoint",
        ),
        (
            "{\"format\": \"rulesc-checkpoint\", \"version\": 2, \"state\": {}}",
            "version 2",
        ),
        (
            "{\"format\": \"rulesc-checkpoint\", \"version\": 1",
            "invalid checkpoint",
        ),
        (
            &format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000)),
            "invalid checkpoint",
        ),
    ] {
        std::fs::write(&path, text).unwrap();
        let err = store.load().unwrap_err();
        assert!(err.message.contains(reason), "{err}");
    }
}

#[test]
fn a_failing_checkpointer_interrupts_the_run_with_its_state() {
    let script = Script::from_json(RICH_SCRIPT).unwrap();
    let policy = rich_policy();
    let mut saves = 0;
    let mut checkpointer = |_: &ExecutionState| {
        saves += 1;
        if saves == 3 {
            Err(CheckpointError::new("disk full"))
        } else {
            Ok(())
        }
    };
    let interrupted = script
        .agent_loop(policy.clone(), script.limits(Limits::default()))
        .execute_checkpointed(
            &mut script.model(),
            &mut script.tools(),
            &mut script.approver(),
            &mut checkpointer,
        )
        .unwrap_err();
    assert_eq!(interrupted.error.message, "disk full");
    assert_eq!(interrupted.state.end(), None);
    assert_eq!(
        interrupted.state.step(),
        2,
        "stopped before the third step began"
    );
    // The state it returns resumes like a saved one.
    let resumed = script
        .agent_loop(policy.clone(), script.limits(Limits::default()))
        .resume(
            *interrupted.state.clone(),
            &mut script.model_resumed(&interrupted.state),
            &mut script.tools(),
            &mut script.approver(),
            &mut |_: &ExecutionState| Ok(()),
        )
        .unwrap();
    assert_eq!(resumed, uninterrupted(&script, &policy));
}

#[test]
fn a_panicking_checkpointer_interrupts_the_run() {
    let script = Script::from_json(RICH_SCRIPT).unwrap();
    let policy = rich_policy();
    let mut checkpointer = |state: &ExecutionState| -> Result<(), CheckpointError> {
        assert!(state.step() < 1, "no room left on the device");
        Ok(())
    };
    let interrupted = script
        .agent_loop(policy, script.limits(Limits::default()))
        .execute_checkpointed(
            &mut script.model(),
            &mut script.tools(),
            &mut script.approver(),
            &mut checkpointer,
        )
        .unwrap_err();
    assert!(
        interrupted
            .error
            .message
            .contains("no room left on the device"),
        "{}",
        interrupted.error
    );
    assert_eq!(interrupted.state.step(), 1);
}

#[test]
fn a_state_too_deep_to_read_back_is_never_saved() {
    // A model whose tool call arguments nest 122 levels, as deep as a script can give them:
    // the checkpoint holding them would nest one level more than serde_json reads.
    let script = Script::from_json(&format!(
        r#"{{"turns": [{{"response": "a", "tool_calls": [{{"name": "t", "args": {}{}}}]}}],
            "tools": {{"t": {{"output": "ok"}}}}}}"#,
        "[".repeat(122),
        "]".repeat(122)
    ))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut checkpointer = FileCheckpointer::new(dir.path().join("run.json"));
    let interrupted = script
        .agent_loop(policy_of(&[false; RULES.len()]), Limits::default())
        .execute_checkpointed(
            &mut script.model(),
            &mut script.tools(),
            &mut script.approver(),
            &mut checkpointer,
        )
        .unwrap_err();
    assert!(
        interrupted
            .error
            .message
            .contains("more than a checkpoint can be read back with (127)"),
        "{}",
        interrupted.error
    );
    // The last checkpoint saved is whole and readable: the run before the step that made
    // the deep call; the run stopped before the next step, with its state.
    let saved = checkpointer.load().unwrap().unwrap();
    assert_eq!(saved.step(), 0);
    assert_eq!(
        (interrupted.state.step(), interrupted.state.steps()),
        (1, 1)
    );
}
