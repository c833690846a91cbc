//! Gemini CLI's reading of a hook's answer.
//!
//! Sources (google-gemini/gemini-cli): `packages/core/src/hooks/hookRunner.ts` — exit 0
//! with stdout parses it as JSON (a JSON string holding JSON is parsed again), and stdout
//! that is not JSON becomes `{decision: "allow", systemMessage}`; a non-zero exit with
//! stderr becomes `{decision: "deny", reason: stderr}` for exit 2 (the blocking error) and
//! an allowing warning for any other code; a non-zero exit without stderr gives no output.
//! `packages/core/src/hooks/types.ts` — `isBlockingDecision` is `block` or `deny`,
//! `shouldStopExecution` is `continue === false`, the reason is `stopReason`, else
//! `reason`, else "No reason provided". `packages/core/src/core/coreToolHookTriggers.ts` —
//! on `BeforeTool` the stop is checked first, then a blocking decision denies the tool;
//! `ask` and `allow` change nothing; on `AfterTool` a blocking decision replaces the
//! result. docs/hooks/reference.md — on `BeforeAgent` a blocking decision discards the
//! prompt, on `AfterAgent` it sends the reason back as the next prompt.

use serde_json::{Map, Value};

use super::{json_object, trimmed, Answer, Effect, Rejected, Tool};

/// What Gemini CLI does with `answer` to `event`
pub(crate) fn judge(event: &str, answer: &Answer) -> Result<Effect, Rejected> {
    let output = match answer.exit_code {
        0 => match json_object(answer) {
            Ok(Some(object)) => object,
            Ok(None) => return Ok(Effect::default()),
            Err(_) => match double_encoded(&answer.stdout) {
                Some(object) => object,
                // Plain text: an allowing system message.
                None => return Ok(Effect::default()),
            },
        },
        code => match trimmed(&answer.stderr) {
            Some(reason) if code == 2 => {
                let mut output = Map::new();
                output.insert("decision".to_owned(), Value::String("deny".to_owned()));
                output.insert("reason".to_owned(), Value::String(reason));
                output
            }
            Some(_) => return Err(Rejected(format!("exit code {code}: a warning"))),
            None => return Err(Rejected(format!("exit code {code} without stderr"))),
        },
    };
    let string = |key: &str| output.get(key).and_then(Value::as_str).map(str::to_owned);
    let reason = string("stopReason")
        .or_else(|| string("reason"))
        .unwrap_or_else(|| "No reason provided".to_owned());
    let blocks = matches!(string("decision").as_deref(), Some("block" | "deny"));
    let stops = output.get("continue") == Some(&Value::Bool(false));
    let mut effect = Effect::default();
    if stops {
        effect.stops_agent = true;
        effect.reason = Some(reason.clone());
    }
    match event {
        "BeforeTool" if stops || blocks => {
            effect.tool = Tool::Denied;
            effect.reason = Some(reason);
        }
        "BeforeAgent" if blocks => {
            effect.refuses_prompt = true;
            effect.reason = Some(reason);
        }
        "AfterAgent" if blocks && !stops => {
            effect.keeps_working = true;
            effect.reason = Some(reason);
        }
        "AfterTool" if blocks => effect.reason = Some(reason),
        _ => {}
    }
    Ok(effect)
}

/// A JSON string whose text is a JSON object, as `hookRunner.ts` parses it twice
fn double_encoded(stdout: &str) -> Option<Map<String, Value>> {
    let Value::String(inner) = serde_json::from_str(stdout.trim()).ok()? else {
        return None;
    };
    match serde_json::from_str(&inner).ok()? {
        Value::Object(object) => Some(object),
        _ => None,
    }
}
