//! Whole runs of the agent loop held to the reference model (`tests/model/`): random
//! policies, compiled by the real compiler, run random scripts (model turns that fail or
//! call tools, tools that fail, an approver that denies, retry and stop-request caps), and
//! every event the loop fires must be resolved as the model resolves that event, with the
//! metadata the model's previous outcome left.
//!
//! Besides each event, the contract's bookkeeping is checked against counts made from the
//! run's own event list: `stop_requests` is the number of stops a `request` overturned
//! before, `retries` the retries granted earlier in the step, `steps` at `before_step` the
//! steps before it; after a `forbid` only the stop hook and `execution_end` fire; a blocked
//! call shows `blocked` and then `on_error` of kind `tool_blocked`; the status follows the
//! stop reason (docs/language.md §8).
//!
//! `RULESC_MODEL_CASES` sets the number of cases (10,000 by default, shared with
//! `tests/model_eval.rs`); `RULESC_MODEL_SEED=<seed>` replays one.

use crate::model;

use std::sync::{Arc, Mutex};

use crate::model::gen::{self, Rng};
use crate::recorder::Recorder;
use rulesc::{compile_str, EventKind, Limits, Script};
use serde_json::{json, Value as Json};

/// Records every event the loop fires, and votes nothing
/// A random script of docs/cli.md's shape
fn script(rng: &mut Rng) -> Json {
    let turns: Vec<Json> = (0..rng.below(6))
        .map(|_| {
            if rng.chance(25) {
                json!({"error": {"kind": rng.pick(&["rate_limit", "model", "timeout"]), "message": "failed"}})
            } else {
                let calls: Vec<Json> = (0..rng.below(3))
                    .map(|_| {
                        json!({"name": rng.pick(&["bash", "rm", "deploy", "日本語"]),
                               "args": {"command": rng.pick(&gen::TEXTS)}})
                    })
                    .collect();
                let finish = if calls.is_empty() { "stop" } else { "tool_calls" };
                json!({"response": rng.pick(&gen::TEXTS), "tool_calls": calls, "finish_reason": finish})
            }
        })
        .collect();
    json!({
        "turns": turns,
        "tools": {"bash": {"output": "a.txt"}, "rm": {"output": "gone"},
                  "deploy": {"error": "connection refused"}, "日本語": {"output": "🦀"}},
        "approver": rng.pick(&["allow", "deny"]),
        "max_retries": rng.below(3),
    })
}

/// §8: the status a stop reason gives
fn status_of(stop_reason: &str) -> &'static str {
    match stop_reason {
        "completed" | "finish_reason_received" | "stop_requested" => "completed",
        "error_forbade" | "retry_limit_reached" => "failed",
        _ => "stopped",
    }
}

fn name<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|json| json.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn case(seed: u64) -> Result<bool, String> {
    let mut rng = Rng::new(seed);
    let (source, setting) = gen::policy(&mut rng);
    let Ok(policy) = compile_str("p.rules", &source) else {
        return Ok(false);
    };
    let script_json = script(&mut rng);
    let script = Script::from_json(&script_json.to_string()).map_err(|err| err.to_string())?;
    let limits = script.limits(Limits {
        max_stop_requests: setting.max_stop_requests,
        ..Limits::default()
    });
    let setting = model::Setting {
        max_retries: limits.max_retries,
        ..setting
    };
    let seen = Arc::new(Mutex::new(Vec::new()));
    let report = script
        .agent_loop(policy.clone(), limits)
        .with_hook(Recorder {
            seen: Arc::clone(&seen),
        })
        .run(
            &mut script.model(),
            &mut script.tools(),
            &mut script.approver(),
        );
    let events = seen.lock().map(|seen| seen.clone()).unwrap_or_default();
    let fail = |what: String| {
        Err(format!(
            "seed {seed}\npolicy:\n{source}\nscript: {script_json}\n{what}"
        ))
    };
    if events.len() != report.events.len() {
        return fail(format!(
            "{} events fired, {} reported",
            events.len(),
            report.events.len()
        ));
    }
    let mut metadata = serde_json::Map::new();
    let mut history = Vec::new();
    let mut labels = Vec::new();
    let mut stops_overturned = 0_u64;
    let mut retries_in_step = (0_u64, 0_u64);
    let mut forbidden = false;
    let mut blocked_call = false;
    // How the run must end, once an event decides it: the first forbid (or unhandled
    // error) outside the stop hooks
    let mut end: Option<(Json, Json, Json)> = None;
    let mut tool_decisions = Vec::new();
    for (event, reported) in events.iter().zip(&report.events) {
        let at = format!(
            "event: {}",
            serde_json::to_string(event).unwrap_or_default()
        );
        if event.kind != reported.event || event.step != reported.step {
            return fail(format!(
                "{at}\nreported as {:?} at step {}",
                reported.event, reported.step
            ));
        }
        if event.metadata != metadata {
            return fail(format!(
                "{at}\nmetadata {:?}, the model left {:?}",
                event.metadata, metadata
            ));
        }
        // The loop's bookkeeping, counted from the run itself.
        let stop_hook = matches!(event.kind, EventKind::Stop | EventKind::SubagentStop);
        if stop_hook && event.stop_requests != Some(stops_overturned) {
            return fail(format!(
                "{at}\n{stops_overturned} stops were overturned before"
            ));
        }
        if event.kind == EventKind::BeforeStep && event.steps + 1 != event.step {
            return fail(format!("{at}\na step begins after `steps` steps"));
        }
        if retries_in_step.0 != event.step {
            retries_in_step = (event.step, 0);
        }
        if event.kind == EventKind::OnError && event.retries != retries_in_step.1 {
            return fail(format!(
                "{at}\n{} retries were granted in this step",
                retries_in_step.1
            ));
        }
        if forbidden && !stop_hook && event.kind != EventKind::ExecutionEnd {
            return fail(format!("{at}\nfired after a forbid"));
        }
        if blocked_call {
            let shows = match event.kind {
                EventKind::PostToolUse => event.blocked == Some(true),
                EventKind::OnError => {
                    event.error.as_ref().map(|error| error.kind.as_str()) == Some("tool_blocked")
                }
                _ => false,
            };
            if !shows {
                return fail(format!("{at}\na blocked call must show it"));
            }
            blocked_call = event.kind == EventKind::PostToolUse;
        }

        history.push(event.clone());
        let run = model::Run {
            history: &history,
            labels: &labels,
        };
        let expected = model::outcome_in(policy.user_rules(), &setting, event, &run);
        labels.extend(model::labelled(policy.user_rules(), &expected, event));
        let decision = expected.get("decision").cloned().unwrap_or_default();
        let resolved_by = expected.get("resolved_by").cloned().unwrap_or_default();
        if decision != json!(name(&reported.decision)) || resolved_by != json!(reported.resolved_by)
        {
            return fail(format!(
                "{at}\nmodel:   {decision} by {resolved_by}\nruntime: {:?} by {:?}",
                reported.decision, reported.resolved_by
            ));
        }
        metadata = expected
            .get("metadata")
            .and_then(Json::as_object)
            .cloned()
            .unwrap_or_default();
        let denies = script_json.get("approver") == Some(&json!("deny"));
        let field = |key: &str| expected.get(key).cloned().unwrap_or_default();
        if end.is_none() && !stop_hook {
            if decision == json!("forbid") {
                end = Some((field("stop_reason"), field("resolved_by"), field("message")));
            } else if event.kind == EventKind::OnError && decision == json!("none") {
                // docs/semantics.md: no decision at all stops the run, `error_forbade`
                // by nobody.
                end = Some((json!("error_forbade"), Json::Null, Json::Null));
            }
        }
        if event.kind == EventKind::PreToolUse {
            tool_decisions.push((decision.clone(), denies));
        }
        match decision.as_str() {
            Some("forbid") => {
                forbidden = true;
                blocked_call = false;
            }
            Some("request") if stop_hook => stops_overturned += 1,
            Some("retry") if event.kind == EventKind::OnError => retries_in_step.1 += 1,
            Some("block") => blocked_call = true,
            Some("ask") if denies => blocked_call = true,
            _ => {}
        }
    }
    if report.metadata != metadata {
        return fail(format!(
            "the run ended with {:?}, the model with {metadata:?}",
            report.metadata
        ));
    }
    if let Some((stop_reason, resolved_by, message)) = end {
        let actual = (
            json!(name(&report.stop_reason)),
            json!(report.resolved_by),
            json!(report.message),
        );
        if actual != (stop_reason.clone(), resolved_by.clone(), message.clone()) {
            return fail(format!(
                "the run ended {actual:?}, the model says {stop_reason} by {resolved_by} ({message})"
            ));
        }
    }
    // Every tool call the loop judged is reported, decided as the model decided it, and
    // ran exactly when §5.2 lets it: allowed (or undecided), or asked and approved.
    if report.tool_calls.len() != tool_decisions.len() {
        return fail(format!(
            "{} tool calls reported, {} judged",
            report.tool_calls.len(),
            tool_decisions.len()
        ));
    }
    for (call, (decision, denies)) in report.tool_calls.iter().zip(&tool_decisions) {
        let runs = match decision.as_str() {
            Some("allow" | "none") => true,
            Some("ask") => !denies,
            _ => false,
        };
        let reported = json!(name(&call.decision));
        let undecided_runs = *decision == json!("none") && reported == json!("allow");
        if (reported != *decision && !undecided_runs) || call.executed != runs {
            return fail(format!(
                "tool call {call:?}: the model decided {decision} (approver denies: {denies})"
            ));
        }
    }
    let stop_reason = name(&report.stop_reason);
    if name(&report.status) != status_of(&stop_reason) {
        return fail(format!("status {:?} for {stop_reason}", report.status));
    }
    Ok(true)
}

#[test]
fn runs_agree_with_the_model() {
    if let Err(report) = gen::check_cases(0x0000_0000_0052_554E, case) {
        panic!("{report}");
    }
}
