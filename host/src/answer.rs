//! The answer to a hook call: what the policy decided ([`Verdict`]), written in the host's
//! own protocol.
//!
//! Invariant: an empty verdict is written as `{}`, "no opinion", so the host's own permission
//! flow goes on; every other answer carries the reason the model or the user sees, naming the
//! rule that decided.

use rulesc_runtime::{Decision, EventKind, Outcome, RESOLVED_BY_DEFAULT};
use serde_json::{json, Map, Value as Json};

use super::Host;

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

impl Permission {
    fn name(self) -> &'static str {
        match self {
            Permission::Allow => "allow",
            Permission::Deny => "deny",
            Permission::Ask => "ask",
        }
    }
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

    /// The answer in `host`'s protocol; `name` is the host's name of the event
    pub(crate) fn to_json(&self, host: Host, name: &str) -> Json {
        let mut answer = Map::new();
        if let Some(reason) = &self.halt {
            answer.insert("continue".to_owned(), Json::Bool(false));
            answer.insert("stopReason".to_owned(), Json::String(reason.clone()));
        }
        match host {
            Host::Claude | Host::Codex => {
                if let Some((permission, reason)) = &self.permission {
                    answer.insert(
                        "hookSpecificOutput".to_owned(),
                        json!({
                            "hookEventName": name,
                            "permissionDecision": permission.name(),
                            "permissionDecisionReason": reason,
                        }),
                    );
                }
                if let Some(reason) = &self.keep_working {
                    answer.insert("decision".to_owned(), Json::String("block".to_owned()));
                    answer.insert("reason".to_owned(), Json::String(reason.clone()));
                }
            }
            Host::Gemini => {
                // Gemini CLI reads one top-level `decision` for both the tool call and the
                // end of a turn: `deny` on `AfterAgent` rejects the answer and sends the
                // reason back as the next prompt, which is what `request` means.
                let decision = self
                    .permission
                    .as_ref()
                    .map(|(permission, reason)| (permission.name(), reason))
                    .or(self.keep_working.as_ref().map(|reason| ("deny", reason)));
                if let Some((decision, reason)) = decision {
                    answer.insert("decision".to_owned(), Json::String(decision.to_owned()));
                    answer.insert("reason".to_owned(), Json::String(reason.clone()));
                }
            }
        }
        Json::Object(answer)
    }
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
        Some(rule) => format!("{text} (rule {rule})"),
        None => text,
    }
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
    fn a_block_is_a_deny_naming_the_rule() {
        let block = verdict(&[outcome(
            EventKind::PreToolUse,
            Decision::Block,
            Some("destructive command"),
            "no-rm",
        )]);
        assert_eq!(
            block.to_json(Host::Claude, "PreToolUse"),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                   "permissionDecision": "deny",
                   "permissionDecisionReason": "destructive command (rule no-rm)"}})
        );
        assert_eq!(
            block.to_json(Host::Gemini, "BeforeTool"),
            json!({"decision": "deny", "reason": "destructive command (rule no-rm)"})
        );
    }

    #[test]
    fn a_forbid_on_a_tool_call_also_denies_it() {
        let forbid = verdict(&[outcome(
            EventKind::PreToolUse,
            Decision::Forbid,
            None,
            "halt",
        )]);
        let reason = "the policy stopped the run (guard_forbade) (rule halt)";
        assert_eq!(
            forbid.to_json(Host::Codex, "PreToolUse"),
            json!({"continue": false, "stopReason": reason,
                   "hookSpecificOutput": {"hookEventName": "PreToolUse",
                   "permissionDecision": "deny", "permissionDecisionReason": reason}})
        );
    }

    #[test]
    fn a_request_on_stop_keeps_the_agent_working() {
        let request = verdict(&[outcome(
            EventKind::Stop,
            Decision::Request,
            Some("go on"),
            "todo",
        )]);
        assert_eq!(
            request.to_json(Host::Claude, "Stop"),
            json!({"decision": "block", "reason": "go on (rule todo)"})
        );
        assert_eq!(
            request.to_json(Host::Gemini, "AfterAgent"),
            json!({"decision": "deny", "reason": "go on (rule todo)"})
        );
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
        assert_eq!(quiet.to_json(Host::Claude, "PostToolUse"), json!({}));
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
