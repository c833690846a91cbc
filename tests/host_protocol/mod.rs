//! What each coding agent does with a hook's answer, modelled on the hosts' own sources so
//! that tests can check `rulesc hook`'s answers against the hosts, not against rulesc.
//!
//! Invariant: nothing here reads rulesc's code or output shapes; every rule cites the host
//! source it comes from (see each module), so a wrong answer of rulesc fails a test instead
//! of being copied into the expectation.

#![allow(
    dead_code,
    reason = "each test binary uses the validators of the hosts it checks"
)]

pub(crate) mod claude;
pub(crate) mod codex;
pub(crate) mod gemini;

/// What a hook process gave the host
#[derive(Debug, Clone)]
pub(crate) struct Answer {
    /// Its stdout
    pub(crate) stdout: String,
    /// Its stderr
    pub(crate) stderr: String,
    /// Its exit code
    pub(crate) exit_code: i32,
}

/// What the tool call an answer concerns does next
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Tool {
    /// The host's own permission flow goes on (no opinion)
    #[default]
    Unchanged,
    /// Runs without the host asking its user
    Allowed,
    /// The host asks its user
    Asks,
    /// Does not run; the model is told why
    Denied,
}

/// What the host does with an answer it accepts
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Effect {
    /// The tool call's fate (tool events, approval requests)
    pub(crate) tool: Tool,
    /// The agent stops
    pub(crate) stops_agent: bool,
    /// The agent does not stop, and goes on with the reason as its next instruction
    pub(crate) keeps_working: bool,
    /// The user's prompt is refused
    pub(crate) refuses_prompt: bool,
    /// The reason shown to the model or the user, when there is one
    pub(crate) reason: Option<String>,
}

/// The host reports the hook as failed, and goes on as if it had said nothing (fail open)
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rejected(pub(crate) String);

/// The answer's stdout as a JSON object; `None` when it is empty
pub(crate) fn json_object(
    answer: &Answer,
) -> Result<Option<serde_json::Map<String, serde_json::Value>>, Rejected> {
    let trimmed = answer.stdout.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    match serde_json::from_str::<serde_json::Value>(trimmed) {
        Ok(serde_json::Value::Object(object)) => Ok(Some(object)),
        Ok(_) => Err(Rejected("stdout is JSON but not an object".to_owned())),
        Err(err) => Err(Rejected(format!("stdout is not JSON: {err}"))),
    }
}

/// A non-empty, trimmed text
pub(crate) fn trimmed(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}
