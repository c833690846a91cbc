//! The policies shipped in `rules/`, all compiled together, and the events of a realistic
//! step they are measured on.

use std::path::PathBuf;

use rulesc::{Event, Policy};

use crate::SetupError;

/// The repository's `rules/` folder
pub fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../rules")
}

/// Every shipped policy, compiled as `rulesc check rules/` would
///
/// # Errors
///
/// When a shipped policy does not compile.
pub fn policy() -> Result<Policy, SetupError> {
    Ok(rulesc::compile_paths(&[rules_dir()])?)
}

/// Named events of one step of a coding agent, with the decision each gets
///
/// # Errors
///
/// Never, unless an event below is malformed.
pub fn events() -> Result<Vec<(&'static str, Event)>, SetupError> {
    let events = [
        (
            "before_step",
            r#"{"event": "before_step", "step": 4, "steps": 3, "elapsed_ms": 60000}"#,
        ),
        (
            "before_inference",
            r#"{"event": "before_inference", "tokens": 42000, "messages": 9}"#,
        ),
        (
            "after_inference",
            r#"{"event": "after_inference", "response": "Running the tests.", "finish_reason": "tool_calls", "tool_calls": 1}"#,
        ),
        (
            "pre_tool_use_allowed",
            r#"{"event": "pre_tool_use", "tool": "bash", "arg": {"command": "cargo test --workspace"}}"#,
        ),
        (
            "pre_tool_use_blocked",
            r#"{"event": "pre_tool_use", "tool": "bash", "arg": {"command": "rm -rf /"}}"#,
        ),
        (
            "post_tool_use",
            r#"{"event": "post_tool_use", "tool": "bash", "arg": {"command": "cargo test"}, "result": "ok", "tool_error": false, "blocked": false}"#,
        ),
        (
            "after_step",
            r#"{"event": "after_step", "response": "", "tool_calls": 1}"#,
        ),
        (
            "stop",
            r#"{"event": "stop", "stop_reason": "completed", "stop_decision": "allow_stop", "stop_requests": 0, "response": "All tests pass."}"#,
        ),
    ];
    events
        .into_iter()
        .map(|(name, json)| Ok((name, serde_json::from_str(json)?)))
        .collect()
}
