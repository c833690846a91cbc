//! Claude Code's reading of a hook's answer.
//!
//! Source: the Claude Code hooks reference (code.claude.com/docs/en/hooks), "Hook output":
//! exit 0 reads stdout as JSON when it is JSON (plain text is shown, or added as context on
//! `UserPromptSubmit` and `SessionStart`); exit 2 is a blocking error whose stderr is the
//! reason — it blocks a `PreToolUse` call, denies a `PermissionRequest`, refuses a
//! `UserPromptSubmit` prompt, keeps a `Stop`/`SubagentStop` from stopping, and is only shown
//! on events that cannot be blocked; any other exit code is a non-blocking error and the
//! call proceeds. In JSON, `continue: false` stops Claude and takes precedence over every
//! decision; `PreToolUse` takes `hookSpecificOutput.permissionDecision` (`allow`, `deny`,
//! `ask`) with `permissionDecisionReason`; `PermissionRequest` takes
//! `hookSpecificOutput.decision.behavior` (`allow`, `deny`) with `message`; `Stop`,
//! `SubagentStop`, `UserPromptSubmit` and `PostToolUse` take `decision: "block"` with a
//! `reason`. `hookSpecificOutput.hookEventName` names the event.

use serde_json::{Map, Value};

use super::{json_object, trimmed, Answer, Effect, Rejected, Tool};

/// What Claude Code does with `answer` to `event`
pub(crate) fn judge(event: &str, answer: &Answer) -> Result<Effect, Rejected> {
    match answer.exit_code {
        0 => {}
        2 => {
            let reason = trimmed(&answer.stderr);
            return Ok(match event {
                "PreToolUse" | "PermissionRequest" => Effect {
                    tool: Tool::Denied,
                    reason,
                    ..Effect::default()
                },
                "UserPromptSubmit" => Effect {
                    refuses_prompt: true,
                    reason,
                    ..Effect::default()
                },
                "Stop" | "SubagentStop" => Effect {
                    keeps_working: true,
                    reason,
                    ..Effect::default()
                },
                _ => Effect {
                    reason,
                    ..Effect::default()
                },
            });
        }
        other => return Err(Rejected(format!("non-blocking error: exit code {other}"))),
    }
    let object = match json_object(answer) {
        Ok(Some(object)) => object,
        // Plain text on stdout is shown to the user (or added as context): no decision.
        Ok(None) | Err(_) => return Ok(Effect::default()),
    };
    let specific = match object.get("hookSpecificOutput") {
        None => None,
        Some(Value::Object(specific)) => {
            if specific.get("hookEventName") != Some(&Value::String(event.to_owned())) {
                return Err(Rejected(format!(
                    "`hookSpecificOutput.hookEventName` is not `{event}`"
                )));
            }
            Some(specific)
        }
        Some(_) => return Err(Rejected("`hookSpecificOutput` is not an object".to_owned())),
    };
    let mut effect = match event {
        "PreToolUse" => pre_tool_use(specific)?,
        "PermissionRequest" => permission_request(specific)?,
        "Stop" | "SubagentStop" | "UserPromptSubmit" | "PostToolUse" => block(event, &object)?,
        _ => Effect::default(),
    };
    if object.get("continue") == Some(&Value::Bool(false)) {
        effect.stops_agent = true;
        effect.keeps_working = false;
        if let Some(Value::String(reason)) = object.get("stopReason") {
            effect.reason = Some(reason.clone());
        }
    }
    Ok(effect)
}

fn string<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str)
}

fn pre_tool_use(specific: Option<&Map<String, Value>>) -> Result<Effect, Rejected> {
    let Some(specific) = specific else {
        return Ok(Effect::default());
    };
    let reason = string(specific, "permissionDecisionReason").map(str::to_owned);
    let tool = match string(specific, "permissionDecision") {
        None => return Ok(Effect::default()),
        Some("allow") => Tool::Allowed,
        Some("deny") => Tool::Denied,
        Some("ask") => Tool::Asks,
        Some(other) => return Err(Rejected(format!("unknown permissionDecision `{other}`"))),
    };
    Ok(Effect {
        tool,
        reason,
        ..Effect::default()
    })
}

fn permission_request(specific: Option<&Map<String, Value>>) -> Result<Effect, Rejected> {
    let Some(decision) = specific.and_then(|specific| specific.get("decision")) else {
        return Ok(Effect::default());
    };
    let Value::Object(decision) = decision else {
        return Err(Rejected("`decision` is not an object".to_owned()));
    };
    let tool = match string(decision, "behavior") {
        Some("allow") => Tool::Allowed,
        Some("deny") => Tool::Denied,
        _ => {
            return Err(Rejected(
                "`decision.behavior` is not `allow` or `deny`".to_owned(),
            ))
        }
    };
    Ok(Effect {
        tool,
        reason: string(decision, "message").map(str::to_owned),
        ..Effect::default()
    })
}

fn block(event: &str, object: &Map<String, Value>) -> Result<Effect, Rejected> {
    match string(object, "decision") {
        None => Ok(Effect::default()),
        Some("block") => {
            let reason = string(object, "reason")
                .and_then(trimmed)
                .ok_or_else(|| Rejected("decision:block needs a reason".to_owned()))?;
            Ok(Effect {
                keeps_working: matches!(event, "Stop" | "SubagentStop"),
                refuses_prompt: event == "UserPromptSubmit",
                reason: Some(reason),
                ..Effect::default()
            })
        }
        Some(other) => Err(Rejected(format!("unknown decision `{other}`"))),
    }
}
