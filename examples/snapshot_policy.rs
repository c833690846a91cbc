//! Snapshot-testing a policy from your own crate.
//!
//! `Outcome::render` and `RunReport::render` give a stable text (no times, paths or hash
//! order), so a policy change that alters a decision shows up as a reviewable snapshot diff.
//! Put tests like the ones below in your crate's `tests/` with `insta` as a dev-dependency;
//! `cargo run --example snapshot_policy` prints the same texts, and `cargo test` runs the
//! tests of this example against the snapshots in `examples/snapshots/`.

use std::process::ExitCode;

use rulesc::{Limits, Outcome, Policy, RunReport, Script};

/// The policy under test: the shipped safe-shell and budget policies
fn policy() -> Result<Policy, rulesc::CompileError> {
    rulesc::compile_paths(&[
        concat!(env!("CARGO_MANIFEST_DIR"), "/rules/safe-shell.rules"),
        concat!(env!("CARGO_MANIFEST_DIR"), "/rules/budgets.rules"),
    ])
}

/// Decides one event given as the event JSON of `rulesc eval`
fn decide(policy: &Policy, event_json: &str) -> Result<Outcome, serde_json::Error> {
    Ok(policy.evaluate(&serde_json::from_str(event_json)?))
}

/// Runs a whole scripted agent (the script JSON of `rulesc run`)
fn run(policy: &Policy, script_json: &str) -> Result<RunReport, rulesc::ScriptError> {
    Ok(Script::from_json(script_json)?.run(policy.clone(), Limits::default()))
}

const RM_EVENT: &str =
    r#"{"event": "pre_tool_use", "tool": "bash", "arg": {"command": "rm -rf /"}}"#;

const SCRIPT: &str = r#"{
  "turns": [
    {"tool_calls": [{"name": "bash", "args": {"command": "sudo make install"}}],
     "usage": {"input": 100, "output": 20}},
    {"response": "Installed into ~/.local instead.", "usage": {"input": 150, "output": 10}}
  ],
  "tools": {"bash": {"output": "ok"}}
}"#;

fn main() -> ExitCode {
    let policy = match policy() {
        Ok(policy) => policy,
        Err(err) => {
            eprintln!("error: the policies do not load: {err}");
            return ExitCode::FAILURE;
        }
    };
    match (decide(&policy, RM_EVENT), run(&policy, SCRIPT)) {
        (Ok(outcome), Ok(report)) => {
            print!("{}\n{}", outcome.render(), report.render());
            ExitCode::SUCCESS
        }
        (Err(err), _) => {
            eprintln!("error: bad event: {err}");
            ExitCode::FAILURE
        }
        (_, Err(err)) => {
            eprintln!("error: bad script: {err}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rm_rf_is_blocked() {
        let outcome = decide(&policy().unwrap(), RM_EVENT).unwrap();
        insta::assert_snapshot!(outcome.render());
    }

    #[test]
    fn sudo_is_refused_and_the_agent_finishes() {
        let report = run(&policy().unwrap(), SCRIPT).unwrap();
        insta::assert_snapshot!(report.render());
    }
}
