//! The answer to a hook call: what the policy decided ([`Verdict`]), written in the host's
//! own protocol, in a shape that host accepts.
//!
//! Invariant: every answer written is one the host's parser accepts for that event, and
//! where a host cannot express what the policy decided, the answer takes the fail-closed
//! effect and says so in the reason. An empty verdict is written as `{}`, "no opinion", so
//! the host's own permission flow goes on. The table of every cell, with the host sources
//! it follows, is in examples/claude-code/README.md, examples/codex/README.md and
//! examples/gemini-cli/README.md; `tests/host_answers.rs` checks each cell with validators
//! written from those sources.
//!
//! What decides the shape is each host's profile, with the sources it follows (`hosts/`).

use rulesc_runtime::{Act, Decision, EventKind, HostEvent, Outcome, RESOLVED_BY_DEFAULT};
use serde_json::{json, Map, Value as Json};

use crate::hosts::{Host, ToolDecision};

/// The permission decision on a tool call
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Permission {
    /// Run it without asking
    Allow,
    /// Refuse it; the model sees the reason
    Deny,
    /// Ask the user
    Ask,
}

/// What the policy said about one hook call, whatever the host
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// The decision on the tool call, with its reason (`pre_tool_use` only)
    pub(crate) permission: Option<(Permission, String)>,
    /// The agent is about to stop but must keep working, for this reason (`request` on stop)
    pub(crate) keep_working: Option<String>,
    /// The session must stop, for this reason (`forbid`)
    pub(crate) halt: Option<String>,
}

impl Verdict {
    /// Adds what `outcome` decided; the first permission and the first halt stand
    pub(crate) fn absorb(&mut self, outcome: &Outcome) {
        let reason = || reason(outcome);
        match outcome.resolution.decision {
            Decision::Forbid => {
                if outcome.event == EventKind::PreToolUse && self.permission.is_none() {
                    self.permission = Some((Permission::Deny, reason()));
                }
                if self.halt.is_none() {
                    self.halt = Some(reason());
                }
            }
            Decision::Block | Decision::Ask | Decision::Allow
                if outcome.event == EventKind::PreToolUse && self.permission.is_none() =>
            {
                let permission = match outcome.resolution.decision {
                    Decision::Block => Permission::Deny,
                    Decision::Ask => Permission::Ask,
                    _ => Permission::Allow,
                };
                self.permission = Some((permission, reason()));
            }
            Decision::Request if outcome.event.is_stop() && self.keep_working.is_none() => {
                self.keep_working = Some(reason());
            }
            // The rest changes nothing a host can be told: `allow_stop`, `retry` and `ignore`
            // leave the host's own flow alone, as `none` does.
            _ => {}
        }
    }

    /// A verdict that denies a tool call, and refuses a prompt, for `reason`: a session a
    /// `forbid` stopped
    pub(crate) fn stopped(reason: String) -> Verdict {
        Verdict {
            permission: Some((Permission::Deny, reason.clone())),
            keep_working: None,
            halt: Some(reason),
        }
    }

    /// The answer in `host`'s protocol to `event`, and a note for stderr when the host
    /// cannot express the decision and a stricter one was written instead
    pub(crate) fn answer(&self, host: Host, event: HostEvent) -> (Json, Option<String>) {
        let shape = &host.profile().answer;
        let mut answer = Map::new();
        let mut note = None;
        match event {
            HostEvent::PreTool => {
                if let Some((permission, reason)) = &self.permission {
                    let (permission, reason) = match permission {
                        // A host that cannot ask from a hook would ignore an `ask`: that is
                        // a call nobody approved, so it is denied, and the reason says why.
                        Permission::Ask if !shape.asks => {
                            note = Some(format!(
                                "{} hooks cannot ask for approval, so the call is denied: {reason}",
                                host.title()
                            ));
                            (Permission::Deny, approval_needed(host, reason))
                        }
                        _ => (*permission, reason.clone()),
                    };
                    tool_decision(host, permission, &reason, &mut answer);
                }
                if shape.halts_before_tool {
                    halt(self.halt.as_deref(), &mut answer);
                }
            }
            HostEvent::PermissionRequest => {
                if let Some((permission @ (Permission::Allow | Permission::Deny), reason)) =
                    &self.permission
                {
                    let mut decision = Map::new();
                    let behavior = if *permission == Permission::Allow {
                        "allow"
                    } else {
                        "deny"
                    };
                    decision.insert("behavior".to_owned(), json!(behavior));
                    if *permission == Permission::Deny {
                        decision.insert("message".to_owned(), json!(reason));
                    }
                    answer.insert(
                        "hookSpecificOutput".to_owned(),
                        json!({"hookEventName": "PermissionRequest", "decision": decision}),
                    );
                }
                // A host that refuses `continue` and `stopReason` on this event (Codex) has
                // the denial stand for the stop, and the session remembers the forbid.
                if shape.halts_on_permission_request {
                    halt(self.halt.as_deref(), &mut answer);
                }
            }
            HostEvent::PromptSubmit => {
                if let Some(reason) = &self.halt {
                    answer.insert("decision".to_owned(), json!(shape.refusal));
                    answer.insert("reason".to_owned(), json!(reason));
                }
                halt(self.halt.as_deref(), &mut answer);
            }
            HostEvent::Stop | HostEvent::SubagentStop => match (&self.halt, &self.keep_working) {
                (Some(reason), _) => halt(Some(reason), &mut answer),
                (None, Some(reason)) => {
                    answer.insert("decision".to_owned(), json!(shape.refusal));
                    answer.insert("reason".to_owned(), json!(reason));
                }
                (None, None) => {}
            },
            HostEvent::SessionStart | HostEvent::PostTool | HostEvent::PostToolFailure => {
                halt(self.halt.as_deref(), &mut answer);
            }
            HostEvent::SessionEnd => {}
        }
        (Json::Object(answer), note)
    }
}

/// The decision on a tool call before it runs; an `allow` the host takes none of is no
/// opinion there
fn tool_decision(host: Host, permission: Permission, reason: &str, answer: &mut Map<String, Json>) {
    let shape = &host.profile().answer;
    if permission == Permission::Allow && shape.refuses_allow.is_some() {
        return;
    }
    match shape.tool_decision {
        ToolDecision::HookSpecificOutput => {
            let decision = match permission {
                Permission::Allow => "allow",
                Permission::Deny => "deny",
                Permission::Ask => "ask",
            };
            answer.insert(
                "hookSpecificOutput".to_owned(),
                json!({"hookEventName": "PreToolUse", "permissionDecision": decision,
                       "permissionDecisionReason": reason}),
            );
        }
        ToolDecision::TopLevel => {
            let decision = if permission == Permission::Allow {
                "allow"
            } else {
                "deny"
            };
            answer.insert("decision".to_owned(), json!(decision));
            answer.insert("reason".to_owned(), json!(reason));
        }
    }
}

/// `continue: false` with the reason, which stops the agent
fn halt(reason: Option<&str>, answer: &mut Map<String, Json>) {
    if let Some(reason) = reason {
        answer.insert("continue".to_owned(), Json::Bool(false));
        answer.insert("stopReason".to_owned(), json!(reason));
    }
}

/// The reason of a denial that stands for an approval the host cannot ask for
fn approval_needed(host: Host, reason: &str) -> String {
    format!(
        "this call needs the user's approval ({reason}), which {} cannot ask for from a hook, so it is denied",
        host.title()
    )
}

/// The reason shown for an outcome: the deciding rule's message and who decided
///
/// `destructive command (rule no-rm)`; a default reads `(policy default)`, a host limit
/// names itself (`(host:max_stop_requests)`).
pub(crate) fn reason(outcome: &Outcome) -> String {
    let text = outcome.resolution.message.clone().unwrap_or_else(|| {
        match (outcome.resolution.decision, outcome.resolution.stop_reason) {
            (Decision::Forbid, Some(stop_reason)) => {
                format!("the policy stopped the run ({stop_reason})")
            }
            (Decision::Block, _) => "the policy blocks this tool call".to_owned(),
            (Decision::Ask, _) => "the policy asks for approval of this tool call".to_owned(),
            (Decision::Request, _) => "the policy asks to keep working".to_owned(),
            (Decision::Allow, _) => "allowed by the policy".to_owned(),
            (decision, _) => format!("the policy decided `{}`", decision.name()),
        }
    });
    match outcome.resolution.resolved_by.as_deref() {
        Some(RESOLVED_BY_DEFAULT) => format!("{text} (policy default)"),
        Some(limit) if limit.starts_with("host:") => format!("{text} ({limit})"),
        Some(rule) => match alike(outcome, rule) {
            // A line no rule can read, or whose code is only known when it runs, stops
            // every guard alike: the rule named is one of them, not the reason.
            0 => format!("{text} (rule {rule})"),
            1 => format!("{text} (rule {rule} and 1 other rule)"),
            others => format!("{text} (rule {rule} and {others} other rules)"),
        },
        None => text,
    }
}

/// How many rules other than `rule` reached the outcome's decision with its message
fn alike(outcome: &Outcome, rule: &str) -> usize {
    let Some(message) = outcome.resolution.message.as_deref() else {
        return 0;
    };
    outcome
        .evaluations
        .iter()
        .filter(|evaluation| {
            evaluation.rule != rule
                && evaluation.message.as_deref() == Some(message)
                && matches!(evaluation.verb, Act::Decide(_))
        })
        .count()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use rulesc_runtime::{Resolution, StopReason};

    use super::*;

    fn outcome(event: EventKind, decision: Decision, message: Option<&str>, by: &str) -> Outcome {
        Outcome {
            event,
            resolution: Resolution {
                decision,
                stop_reason: (decision == Decision::Forbid).then_some(StopReason::GuardForbade),
                message: message.map(str::to_owned),
                resolved_by: Some(by.to_owned()),
            },
            evaluations: Vec::new(),
            shadow: Vec::new(),
            effects: Vec::new(),
            metadata: Map::new(),
        }
    }

    fn verdict(outcomes: &[Outcome]) -> Verdict {
        let mut verdict = Verdict::default();
        for outcome in outcomes {
            verdict.absorb(outcome);
        }
        verdict
    }

    #[test]
    fn decisions_hosts_cannot_hear_are_no_opinion() {
        let quiet = verdict(&[
            outcome(
                EventKind::OnError,
                Decision::Ignore,
                None,
                "prelude:tool-errors-to-model",
            ),
            outcome(EventKind::PostToolUse, Decision::Request, None, "more"),
            outcome(EventKind::BeforeStep, Decision::Allow, None, "fine"),
        ]);
        for host in Host::ALL {
            assert_eq!(quiet.answer(host, HostEvent::PostTool), (json!({}), None));
        }
    }

    #[test]
    fn defaults_and_host_limits_name_themselves() {
        let by_default = outcome(EventKind::PreToolUse, Decision::Ask, None, "default");
        assert_eq!(
            reason(&by_default),
            "the policy asks for approval of this tool call (policy default)"
        );
        let capped = outcome(
            EventKind::Stop,
            Decision::AllowStop,
            Some("done"),
            "host:max_stop_requests",
        );
        assert_eq!(reason(&capped), "done (host:max_stop_requests)");
    }
}
