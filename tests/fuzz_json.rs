//! Fuzz target: the JSON loaders, and what runs on what they load. Every input is given to
//! each of them: `Policy::from_json` (compiled policies), `Event` (the event JSON of
//! `rulesc eval`), `Script::from_json` (run scripts, then run under a policy that retries
//! every error) and `ExecutionState::from_checkpoint_json` (checkpoints, then resumed).
//!
//! For any input: no panic, no slow case; a refusal says why; a loaded policy writes
//! the JSON it was read from (up to layout) and evaluates; a script's run ends within the
//! host's step limit; a resumed checkpoint ends. Inputs: the corpus, the repository's JSON
//! fixtures, generated compiled policies, events, scripts and checkpoints, each mutated
//! structurally or byte by byte, and arbitrary JSON and bytes. (Hook calls are fuzzed
//! through the command itself, in `fuzz_hook.rs`.)

#![expect(
    clippy::panic,
    reason = "the target's fixed policy and script must build"
)]

use crate::gen;
use crate::harness;

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rulesc::{
    Event, EventKind, ExecutionState, Limits, Policy, RunReport, Script, ScriptedModel,
    SourceBytes, StepClock,
};
use serde_json::{json, Value as Json};

/// Folders whose files seed this target besides its corpus
const SEEDS: [&str; 6] = [
    "tests/hostile/compiled",
    "tests/hostile/events",
    "tests/hostile/scripts",
    "tests/scenarios",
    "rules/scenarios",
    "tests/eval",
];

/// The shipped rules and a rule that retries every error: what scripts run under
fn policy() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| {
        let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        let mut sources: Vec<SourceBytes> = harness::files_below(&rules)
            .into_iter()
            .filter(|(path, _)| path.ends_with(".rules"))
            .map(|(path, bytes)| SourceBytes {
                name: path.clone(),
                path,
                bytes,
                layer: rulesc::Layer::Project,
            })
            .collect();
        sources.push(SourceBytes {
            name: "retry-all.rules".to_owned(),
            path: "retry-all.rules".to_owned(),
            bytes: b"@id(\"retry-all\")\non on_error retry\n".to_vec(),
            layer: rulesc::Layer::Project,
        });
        match rulesc::check_sources(sources).policy {
            Some(policy) => policy,
            None => panic!("the fuzz policy does not compile"),
        }
    })
}

/// A refusal says why. (Its text may quote the input, line breaks included: the command
/// line escapes them when it prints the reason, `tests/hostile.rs` checks that.)
fn refused(what: &str, message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.trim().is_empty(), "{} error is empty", what);
    Ok(())
}

fn check_compiled(text: &str) -> Result<(), TestCaseError> {
    match Policy::from_json(text) {
        Ok(policy) => {
            let written = policy.to_json();
            let again = Policy::from_json(&written).map_err(|err| {
                TestCaseError::fail(format!("written policy does not load: {err}"))
            })?;
            prop_assert_eq!(again.to_json(), written);
            for kind in EventKind::ALL {
                let _ = policy.evaluate(&Event::new(kind));
            }
            Ok(())
        }
        Err(err) => refused("compiled policy", &err.to_string()),
    }
}

fn check_event(text: &str) -> Result<(), TestCaseError> {
    match serde_json::from_str::<Event>(text) {
        Ok(event) => {
            let outcome = policy().evaluate(&event);
            prop_assert_eq!(outcome.event, event.kind);
            Ok(())
        }
        Err(err) => refused("event", &err.to_string()),
    }
}

fn check_script(text: &str) -> Result<(), TestCaseError> {
    let script = match Script::from_json(text) {
        Ok(script) => script,
        Err(err) => return refused("script", &err.to_string()),
    };
    let limits = script.limits(Limits::default());
    let report = script.run(policy().clone(), Limits::default());
    prop_assert!(report.steps <= limits.max_steps);
    prop_assert_eq!(report.status, report.stop_reason.status());
    let json = serde_json::to_string(&report)
        .map_err(|err| TestCaseError::fail(format!("report JSON: {err}")))?;
    let back: RunReport = serde_json::from_str(&json)
        .map_err(|err| TestCaseError::fail(format!("report JSON reads back: {err}")))?;
    prop_assert_eq!(back, report);
    Ok(())
}

fn check_checkpoint(text: &str) -> Result<(), TestCaseError> {
    let state = match ExecutionState::from_checkpoint_json(text) {
        Ok(state) => state,
        Err(err) => return refused("checkpoint", &err.message),
    };
    let script = empty_script();
    let mut model: ScriptedModel = script.model_resumed(&state);
    let resumed = rulesc::AgentLoop::new(policy().clone())
        .with_clock(StepClock::new(10))
        .resume(
            state,
            &mut model,
            &mut script.tools(),
            &mut script.approver(),
            &mut |_: &ExecutionState| Ok(()),
        );
    match resumed {
        // A state too deep to save again stops at once; anything else ends.
        Ok(state) => prop_assert!(state.end().is_some()),
        Err(interrupted) => refused("resumed checkpoint", &interrupted.error.message)?,
    }
    Ok(())
}

/// A script with no turns and no tools, for resumed checkpoints
fn empty_script() -> Script {
    match Script::from_json("{}") {
        Ok(script) => script,
        Err(err) => panic!("{err}"),
    }
}

fn check(input: Vec<u8>) -> Result<(), TestCaseError> {
    let text = String::from_utf8_lossy(&input);
    check_compiled(&text)?;
    check_event(&text)?;
    check_script(&text)?;
    check_checkpoint(&text)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Generated JSON

/// Compiled policies of generated source
fn compiled() -> impl Strategy<Value = Json> {
    gen::clean_source().prop_filter_map("compiles", |source| {
        let policy = rulesc::compile_str("gen.rules", &source).ok()?;
        serde_json::from_str(&policy.to_json()).ok()
    })
}

/// Run scripts: turns that answer, call tools or fail, tools that answer or fail
fn script() -> impl Strategy<Value = Json> {
    let call = (
        prop::sample::select(vec!["ls", "rm", "fetch", "send", "flaky", "missing"]),
        gen::json_value(),
    )
        .prop_map(|(name, args)| json!({"name": name, "args": args}));
    let turn = prop_oneof![
        3 => (prop::collection::vec(call, 0..4), "\\PC{0,10}", 0_u64..500)
            .prop_map(|(calls, text, tokens)| json!({"response": text, "tool_calls": calls,
                "usage": {"input": tokens, "output": 1}})),
        1 => prop::sample::select(vec!["rate_limit", "timeout", "model", "unknown", "tool"])
            .prop_map(|kind| json!({"error": {"kind": kind, "message": "failed"}})),
    ];
    (
        prop::collection::vec(turn, 0..8),
        prop::option::of(prop_oneof![0_u64..5, 995_u64..1_005]),
        prop::option::of(0_u64..100_000),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(turns, max_retries, clock, allow, subagent)| {
            json!({
                "turns": turns,
                "tools": {"ls": {"output": "a"}, "rm": {"output": ""}, "fetch": {"output": "<html>"},
                          "send": {"output": "ok"}, "flaky": {"error": "reset"}},
                "approver": if allow { "allow" } else { "deny" },
                "max_retries": max_retries,
                "clock_ms_per_step": clock,
                "subagent": subagent,
            })
        })
}

/// Checkpoints of generated scripts, taken at some step of their run
fn checkpoint() -> impl Strategy<Value = Json> {
    (script(), any::<prop::sample::Index>()).prop_filter_map("runs", |(script, pick)| {
        let script = Script::from_json(&script.to_string()).ok()?;
        let mut saved = Vec::new();
        let state = script
            .agent_loop(policy().clone(), script.limits(Limits::default()))
            .execute_checkpointed(
                &mut script.model(),
                &mut script.tools(),
                &mut script.approver(),
                &mut |state: &ExecutionState| {
                    saved.push(state.to_checkpoint_json()?);
                    Ok(())
                },
            );
        drop(state);
        let json = saved.get(pick.index(saved.len().max(1)))?;
        serde_json::from_str(json).ok()
    })
}

/// Every seed file, to mutate byte by byte
fn seed_files() -> Vec<Vec<u8>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seeds: Vec<Vec<u8>> = harness::files_below(&harness::corpus_dir("json"))
        .into_iter()
        .map(|(_, bytes)| bytes)
        .collect();
    for folder in SEEDS {
        seeds.extend(
            harness::files_below(&root.join(folder))
                .into_iter()
                .filter(|(path, bytes)| {
                    (path.ends_with(".json") || path.ends_with(".jsonl")) && bytes.len() < 100_000
                })
                .map(|(_, bytes)| bytes),
        );
    }
    seeds
}

#[test]
fn fuzz_json() {
    let inputs = prop_oneof![
        2 => gen::mutated_json(compiled()),
        2 => gen::mutated_json(gen::event_json()),
        2 => gen::mutated_json(script()),
        1 => gen::mutated_json(checkpoint()),
        2 => gen::mutated(seed_files()),
        1 => gen::json_value().prop_map(|value| value.to_string().into_bytes()),
        1 => gen::bytes(),
    ];
    harness::fuzz("json", file!(), 1, &SEEDS, inputs, check);
}
