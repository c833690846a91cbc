//! Codex's reading of a hook's answer.
//!
//! Sources (openai/codex): `codex-rs/hooks/src/schema.rs` — every output wire struct is
//! `deny_unknown_fields`, with the universal fields `continue`, `stopReason`,
//! `suppressOutput`, `systemMessage`; `codex-rs/hooks/src/engine/output_parser.rs` — what
//! each event accepts; `codex-rs/hooks/src/events/pre_tool_use.rs` and siblings — exit codes
//! (0 reads stdout, 2 blocks with stderr as the reason when stderr is not empty, anything
//! else fails the hook), and stdout that is not JSON (ignored on `PreToolUse` unless it
//! looks like JSON, which fails the hook; refused on `Stop`).

use serde_json::{Map, Value};

use super::{json_object, trimmed, Answer, Effect, Rejected, Tool};

/// The universal output fields of `HookUniversalOutputWire`
const UNIVERSAL: [&str; 4] = ["continue", "stopReason", "suppressOutput", "systemMessage"];

/// What Codex does with `answer` to `event`
pub(crate) fn judge(event: &str, answer: &Answer) -> Result<Effect, Rejected> {
    match answer.exit_code {
        0 => {}
        2 => {
            let reason = trimmed(&answer.stderr).ok_or_else(|| {
                Rejected(format!(
                    "{event} hook exited with code 2 but wrote no reason"
                ))
            })?;
            return Ok(match event {
                "PreToolUse" | "PermissionRequest" => Effect {
                    tool: Tool::Denied,
                    reason: Some(reason),
                    ..Effect::default()
                },
                "Stop" | "SubagentStop" => Effect {
                    keeps_working: true,
                    reason: Some(reason),
                    ..Effect::default()
                },
                "UserPromptSubmit" => Effect {
                    refuses_prompt: true,
                    reason: Some(reason),
                    ..Effect::default()
                },
                _ => Effect {
                    reason: Some(reason),
                    ..Effect::default()
                },
            });
        }
        other => return Err(Rejected(format!("hook exited with code {other}"))),
    }
    let object = match json_object(answer) {
        Ok(Some(object)) => object,
        Ok(None) => return Ok(Effect::default()),
        // On `PreToolUse`, plain text is ignored and only text that looks like JSON fails
        // (`looks_like_json`); `Stop` refuses any stdout that is not its JSON.
        Err(rejected) => {
            let looks_like_json =
                matches!(answer.stdout.trim_start().chars().next(), Some('{' | '['));
            return if event == "PreToolUse" && !looks_like_json {
                Ok(Effect::default())
            } else {
                Err(rejected)
            };
        }
    };
    let universal = universal(&object)?;
    match event {
        "PreToolUse" => pre_tool_use(&object, &universal),
        "PermissionRequest" => permission_request(&object, &universal),
        "PostToolUse" => block_event(
            event,
            &object,
            &universal,
            &["additionalContext", "updatedMCPToolOutput"],
        ),
        "UserPromptSubmit" => block_event(event, &object, &universal, &["additionalContext"]),
        "Stop" | "SubagentStop" => block_event(event, &object, &universal, &[]),
        "SessionStart" => {
            only_keys(&object, &["hookSpecificOutput"])?;
            hook_specific(&object, event, &["additionalContext"])?;
            Ok(universal.effect())
        }
        other => Err(Rejected(format!("Codex sends no `{other}` event"))),
    }
}

/// The universal fields as read
struct Universal {
    proceed: bool,
    stop_reason: Option<String>,
    suppress_output: bool,
}

impl Universal {
    fn effect(&self) -> Effect {
        Effect {
            stops_agent: !self.proceed,
            reason: (!self.proceed).then(|| self.stop_reason.clone()).flatten(),
            ..Effect::default()
        }
    }
}

fn universal(object: &Map<String, Value>) -> Result<Universal, Rejected> {
    let flag = |key: &str, default: bool| match object.get(key) {
        None => Ok(default),
        Some(Value::Bool(value)) => Ok(*value),
        Some(_) => Err(Rejected(format!("`{key}` is not a boolean"))),
    };
    let stop_reason = match object.get("stopReason") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(_) => return Err(Rejected("`stopReason` is not a string".to_owned())),
    };
    Ok(Universal {
        proceed: flag("continue", true)?,
        stop_reason,
        suppress_output: flag("suppressOutput", false)?,
    })
}

/// `deny_unknown_fields`: the object holds only the universal fields and `keys`
fn only_keys(object: &Map<String, Value>, keys: &[&str]) -> Result<(), Rejected> {
    match object
        .keys()
        .find(|key| !UNIVERSAL.contains(&key.as_str()) && !keys.contains(&key.as_str()))
    {
        Some(key) => Err(Rejected(format!("unknown field `{key}`"))),
        None => Ok(()),
    }
}

/// `hookSpecificOutput`, which must name the event and hold only `keys`
fn hook_specific<'a>(
    object: &'a Map<String, Value>,
    event: &str,
    keys: &[&str],
) -> Result<Option<&'a Map<String, Value>>, Rejected> {
    let Some(specific) = object.get("hookSpecificOutput") else {
        return Ok(None);
    };
    let Value::Object(specific) = specific else {
        return Err(Rejected("`hookSpecificOutput` is not an object".to_owned()));
    };
    if specific.get("hookEventName") != Some(&Value::String(event.to_owned())) {
        return Err(Rejected(format!(
            "`hookSpecificOutput.hookEventName` is not `{event}`"
        )));
    }
    if let Some(key) = specific
        .keys()
        .find(|key| *key != "hookEventName" && !keys.contains(&key.as_str()))
    {
        return Err(Rejected(format!(
            "unknown field `hookSpecificOutput.{key}`"
        )));
    }
    Ok(Some(specific))
}

fn string<'a>(object: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>, Rejected> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(Rejected(format!("`{key}` is not a string"))),
    }
}

/// `parse_pre_tool_use`: only a deny with a reason (or the legacy block) acts
fn pre_tool_use(object: &Map<String, Value>, universal: &Universal) -> Result<Effect, Rejected> {
    only_keys(object, &["decision", "reason", "hookSpecificOutput"])?;
    let specific = hook_specific(
        object,
        "PreToolUse",
        &[
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        ],
    )?;
    if !universal.proceed {
        return Err(Rejected(
            "PreToolUse hook returned unsupported continue:false".to_owned(),
        ));
    }
    if universal.stop_reason.is_some() {
        return Err(Rejected(
            "PreToolUse hook returned unsupported stopReason".to_owned(),
        ));
    }
    if universal.suppress_output {
        return Err(Rejected(
            "PreToolUse hook returned unsupported suppressOutput".to_owned(),
        ));
    }
    let decides = specific.is_some_and(|specific| {
        [
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
        ]
        .iter()
        .any(|key| specific.contains_key(*key))
    });
    if let (true, Some(specific)) = (decides, specific) {
        let reason = string(specific, "permissionDecisionReason")?.and_then(trimmed);
        return match string(specific, "permissionDecision")? {
            Some("deny") => match reason {
                Some(reason) => Ok(Effect {
                    tool: Tool::Denied,
                    reason: Some(reason),
                    ..Effect::default()
                }),
                None => Err(Rejected("deny without a non-empty reason".to_owned())),
            },
            Some("allow") if specific.contains_key("updatedInput") => Ok(Effect {
                tool: Tool::Allowed,
                ..Effect::default()
            }),
            Some("allow") => Err(Rejected("unsupported permissionDecision:allow".to_owned())),
            Some("ask") => Err(Rejected("unsupported permissionDecision:ask".to_owned())),
            Some(other) => Err(Rejected(format!("unknown permissionDecision `{other}`"))),
            None if specific.contains_key("updatedInput") => Err(Rejected(
                "updatedInput without permissionDecision:allow".to_owned(),
            )),
            None => Err(Rejected(
                "permissionDecisionReason without permissionDecision".to_owned(),
            )),
        };
    }
    let reason = string(object, "reason")?;
    match string(object, "decision")? {
        Some("block") => match reason.and_then(trimmed) {
            Some(reason) => Ok(Effect {
                tool: Tool::Denied,
                reason: Some(reason),
                ..Effect::default()
            }),
            None => Err(Rejected(
                "decision:block without a non-empty reason".to_owned(),
            )),
        },
        Some("approve") => Err(Rejected("unsupported decision:approve".to_owned())),
        Some(other) => Err(Rejected(format!("unknown decision `{other}`"))),
        None if reason.is_some() => Err(Rejected("reason without decision".to_owned())),
        None => Ok(Effect::default()),
    }
}

/// `parse_permission_request`: `decision.behavior` answers the approval prompt
fn permission_request(
    object: &Map<String, Value>,
    universal: &Universal,
) -> Result<Effect, Rejected> {
    only_keys(object, &["hookSpecificOutput"])?;
    let specific = hook_specific(object, "PermissionRequest", &["decision"])?;
    if !universal.proceed || universal.stop_reason.is_some() || universal.suppress_output {
        return Err(Rejected(
            "PermissionRequest hook returned an unsupported universal field".to_owned(),
        ));
    }
    let Some(decision) = specific.and_then(|specific| specific.get("decision")) else {
        return Ok(Effect::default());
    };
    let Value::Object(decision) = decision else {
        return Err(Rejected("`decision` is not an object".to_owned()));
    };
    let allowed = [
        "behavior",
        "updatedInput",
        "updatedPermissions",
        "message",
        "interrupt",
    ];
    if let Some(key) = decision.keys().find(|key| !allowed.contains(&key.as_str())) {
        return Err(Rejected(format!("unknown field `decision.{key}`")));
    }
    for unsupported in ["updatedInput", "updatedPermissions"] {
        if decision.contains_key(unsupported) {
            return Err(Rejected(format!("unsupported {unsupported}")));
        }
    }
    if decision.get("interrupt") == Some(&Value::Bool(true)) {
        return Err(Rejected("unsupported interrupt:true".to_owned()));
    }
    match string(decision, "behavior")? {
        Some("allow") => Ok(Effect {
            tool: Tool::Allowed,
            ..Effect::default()
        }),
        Some("deny") => Ok(Effect {
            tool: Tool::Denied,
            reason: Some(
                string(decision, "message")?
                    .and_then(trimmed)
                    .unwrap_or_else(|| "PermissionRequest hook denied approval".to_owned()),
            ),
            ..Effect::default()
        }),
        _ => Err(Rejected(
            "`decision.behavior` is not `allow` or `deny`".to_owned(),
        )),
    }
}

/// `PostToolUse`, `UserPromptSubmit` and `Stop`: `decision: "block"` with a reason, and
/// `continue: false`, which wins
fn block_event(
    event: &str,
    object: &Map<String, Value>,
    universal: &Universal,
    specific_keys: &[&str],
) -> Result<Effect, Rejected> {
    let keys: &[&str] = if specific_keys.is_empty() {
        &["decision", "reason"]
    } else {
        &["decision", "reason", "hookSpecificOutput"]
    };
    only_keys(object, keys)?;
    hook_specific(object, event, specific_keys)?;
    if event == "PostToolUse" && universal.suppress_output {
        return Err(Rejected(
            "PostToolUse hook returned unsupported suppressOutput".to_owned(),
        ));
    }
    let reason = string(object, "reason")?;
    let block = match string(object, "decision")? {
        Some("block") => match reason.and_then(trimmed) {
            Some(reason) => Some(reason),
            None => {
                return Err(Rejected(
                    "decision:block without a non-empty reason".to_owned(),
                ))
            }
        },
        Some(other) => return Err(Rejected(format!("unknown decision `{other}`"))),
        None if event == "PostToolUse" && universal.proceed && reason.is_some() => {
            return Err(Rejected("reason without decision".to_owned()))
        }
        None => None,
    };
    let mut effect = match (event, block) {
        (_, None) => Effect::default(),
        ("Stop" | "SubagentStop", Some(reason)) => Effect {
            keeps_working: true,
            reason: Some(reason),
            ..Effect::default()
        },
        ("UserPromptSubmit", Some(reason)) => Effect {
            refuses_prompt: true,
            reason: Some(reason),
            ..Effect::default()
        },
        (_, Some(reason)) => Effect {
            reason: Some(reason),
            ..Effect::default()
        },
    };
    // `continue: false` stops the agent, and on a stop it overrides a block.
    if !universal.proceed {
        effect.stops_agent = true;
        effect.keeps_working = false;
        effect.reason = universal.stop_reason.clone().or(effect.reason);
    }
    Ok(effect)
}
