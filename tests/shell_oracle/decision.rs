//! The guard's decision on a line: the shipped `rules/safe-shell.rules`, evaluated by the
//! runtime on a `pre_tool_use` event of Claude Code's `Bash` tool in the sandbox's project.

use std::sync::OnceLock;

use rulesc::{Decision, Event, Policy};
use serde_json::json;

use super::sandbox::PROJECT;

/// The shipped shell policy, compiled once
fn policy() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/safe-shell.rules");
        rulesc::compile_paths(&[path]).unwrap_or_else(|_| panic!("{path} does not compile"))
    })
}

/// Whether the guard stops `line`: the policy blocks it, asks about it or forbids the run
pub(crate) fn stopped(line: &str) -> bool {
    let event: Event = serde_json::from_value(json!({
        "event": "pre_tool_use",
        "tool": "Bash",
        "arg": {"command": line},
        "cwd": PROJECT,
    }))
    .unwrap_or_else(|error| panic!("the event of {line:?} is not an event: {error}"));
    matches!(
        policy().evaluate(&event).resolution.decision,
        Decision::Block | Decision::Ask | Decision::Forbid
    )
}
