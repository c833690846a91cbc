//! The lattices of docs/language.md §5: how the decisions of every matching rule and native hook
//! become one outcome, and in which order `set` effects apply.
//!
//! Invariant: order independence lives here and only here. Every function takes its input
//! as an unordered collection and either sorts it by a total key or picks from it by a
//! total key, so the result never depends on the order of rules, files or hooks.
//!
//! Per event, strongest first:
//! - `pre_tool_use`: `forbid` > `block` > `ask` > `allow`, else the default, else `none`;
//! - `on_error`: `forbid` > `retry` > `ignore` > `allow`, else the default, else `none`
//!   (which the loop reads as `forbid error_forbade`). `allow` is legal on every event but
//!   drives nothing, so it ranks below `ignore`. A default `forbid` stops for
//!   `error_forbade`. A winning `retry`, by rule or default, with `retries >= max_retries`
//!   becomes `forbid retry_limit_reached`, resolved by `host:max_retries`;
//! - `stop`, `subagent_stop`: the verdict on the pending stop (§5.6), see [`resolve_stop`];
//! - every other event: `forbid` > `request` > `allow_stop` > `allow` > `none`, as
//!   [`resolve_continuation`] resolves a whole step.
//!
//! The deciding evaluation among those with the winning verb has the highest priority, then
//! matched on what a shell line says rather than on a part only known at run time, then has
//! the smallest rule id in byte order. An outcome has a stop reason exactly when its
//! decision is `forbid` or `allow_stop` (the verb's default when the rule gave none).

use std::cmp::Reverse;

use tracing::debug;

use crate::event::Event;
use crate::outcome::{Act, Decision, Evaluation, Resolution};
use crate::vocabulary::{
    Defaults, EventKind, Limits, StopDecision, StopReason, Verb, RESOLVED_BY_DEFAULT,
};

/// `resolved_by` when the host's `max_steps` ended the run
pub const RESOLVED_BY_MAX_STEPS: &str = "host:max_steps";
/// `resolved_by` when the host's `max_retries` turned a `retry` into a `forbid`
pub const RESOLVED_BY_MAX_RETRIES: &str = "host:max_retries";
/// `resolved_by` when the host's `max_stop_requests` took a `request` on `stop` its power
pub const RESOLVED_BY_MAX_STOP_REQUESTS: &str = "host:max_stop_requests";

/// Continuation verbs, strongest first (§5.1)
const CONTINUATION: [Verb; 4] = [Verb::Forbid, Verb::Request, Verb::AllowStop, Verb::Allow];
/// Tool verbs, strongest first (§5.2)
const TOOL: [Verb; 4] = [Verb::Forbid, Verb::Block, Verb::Ask, Verb::Allow];
/// Error verbs, strongest first (§5.3); `allow` drives nothing, so it ranks last
const ERROR: [Verb; 4] = [Verb::Forbid, Verb::Retry, Verb::Ignore, Verb::Allow];

/// Resolves the continuation decisions gathered over all events of one step (§5.1)
///
/// `forbid` > `request` > `allow_stop` > `allow` > `none`. The agent loop calls this once
/// after `after_step` with the evaluations of every event of the step; verbs that are not
/// continuation verbs (`block`, `retry`, ...) are ignored. The deciding evaluation is the
/// one with the highest priority, then the smallest rule id (after the module's tie rule).
pub fn resolve_continuation(evaluations: &[Evaluation]) -> Resolution {
    strongest(evaluations, &CONTINUATION).map_or_else(Resolution::none, decided_by)
}

/// Resolves the decisions of one event, with the policy's defaults and the host's limits
pub(crate) fn resolve_event(
    event: &Event,
    evaluations: &[Evaluation],
    defaults: &Defaults,
    limits: &Limits,
) -> Resolution {
    let resolution = match event.kind {
        EventKind::PreToolUse => strongest(evaluations, &TOOL)
            .map(decided_by)
            .or_else(|| defaults.get(event.kind).map(by_default))
            .unwrap_or_else(Resolution::none),
        EventKind::OnError => {
            let resolution = strongest(evaluations, &ERROR)
                .map(decided_by)
                .or_else(|| defaults.get(event.kind).map(by_default))
                .unwrap_or_else(Resolution::none);
            cap_retry(resolution, event.retries, limits.max_retries)
        }
        EventKind::Stop | EventKind::SubagentStop => resolve_stop(event, evaluations, limits),
        _ => resolve_continuation(evaluations),
    };
    debug!(
        target: "rulesc::decision",
        event = event.kind.name(),
        decision = resolution.decision.name(),
        stop_reason = resolution.stop_reason.map(StopReason::name),
        rule_message = resolution.message.as_deref(),
        resolved_by = resolution.resolved_by.as_deref(),
        "resolved"
    );
    resolution
}

/// A `retry` is granted while `retries < max_retries`; beyond, it becomes
/// `forbid retry_limit_reached`, resolved by the host
fn cap_retry(resolution: Resolution, retries: u64, max_retries: u64) -> Resolution {
    if resolution.decision == Decision::Retry && retries >= max_retries {
        Resolution::stop(
            StopDecision::Forbid,
            StopReason::RetryLimitReached,
            Some(RESOLVED_BY_MAX_RETRIES),
        )
    } else {
        resolution
    }
}

/// The verdict on a pending stop (§5.6)
///
/// The pending stop is the event's `stop_decision` (`allow_stop` when absent) with its
/// `stop_reason` (that decision's default when absent). A `forbid` rule makes the stop
/// final with the rule's reason. Else a `request` overturns an `allow_stop` while
/// `stop_requests < max_stop_requests`; past the cap the pending stop stands, resolved by
/// `host:max_stop_requests`; against a pending `forbid` a request has no power. Otherwise
/// the pending stop stands with `resolved_by` null.
fn resolve_stop(event: &Event, evaluations: &[Evaluation], limits: &Limits) -> Resolution {
    let pending = event
        .pending_stop_decision()
        .unwrap_or(StopDecision::AllowStop);
    let pending_stands = |resolved_by: Option<&str>| {
        let reason = event
            .pending_stop_reason()
            .unwrap_or_else(|| pending.default_reason());
        Resolution::stop(pending, reason, resolved_by)
    };
    if let Some(forbid) = strongest(evaluations, &[Verb::Forbid]) {
        return decided_by(forbid);
    }
    match strongest(evaluations, &[Verb::Request]) {
        // A stop that came from a guard is final: a request has no power over it.
        Some(_) if pending == StopDecision::Forbid => pending_stands(None),
        Some(_) if event.stop_requests.unwrap_or(0) >= limits.max_stop_requests => {
            pending_stands(Some(RESOLVED_BY_MAX_STOP_REQUESTS))
        }
        Some(request) => decided_by(request),
        None => pending_stands(None),
    }
}

/// The deciding evaluation among those with the strongest verb of `lattice`
///
/// `set` evaluations decide nothing, so no lattice holds them.
fn strongest<'a>(evaluations: &'a [Evaluation], lattice: &[Verb]) -> Option<Decided<'a>> {
    lattice.iter().find_map(|verb| {
        evaluations
            .iter()
            .filter(|evaluation| evaluation.verb == Act::Decide(*verb))
            .min_by(|left, right| choice_key(left).cmp(&choice_key(right)))
            .map(|evaluation| Decided {
                verb: *verb,
                evaluation,
            })
    })
}

/// The evaluation that decided, with its verb
#[derive(Clone, Copy)]
struct Decided<'a> {
    verb: Verb,
    evaluation: &'a Evaluation,
}

/// Highest priority first, then a rule that matched on what the line says before one that
/// matched because part of it is known only at run time (its reason names that part, not
/// the rule's own), then the smallest rule id (byte order); the stop reason and message only
/// break ties between evaluations that share an id (a hook named like a rule)
fn choice_key(
    evaluation: &Evaluation,
) -> (Reverse<i64>, bool, &[u8], Option<StopReason>, Option<&str>) {
    (
        Reverse(evaluation.priority),
        evaluation.undecided,
        evaluation.rule.as_bytes(),
        evaluation.stop_reason,
        evaluation.message.as_deref(),
    )
}

fn decided_by(Decided { verb, evaluation }: Decided<'_>) -> Resolution {
    Resolution {
        decision: verb.into(),
        stop_reason: stop_reason_of(verb, evaluation.stop_reason),
        message: evaluation.message.clone(),
        resolved_by: Some(evaluation.rule.clone()),
    }
}

/// A `default` decides: `forbid` on `on_error` stops for `error_forbade`
fn by_default(verb: Verb) -> Resolution {
    let stop_reason = match verb {
        Verb::Forbid => Some(StopReason::ErrorForbade),
        other => StopReason::default_for(other),
    };
    Resolution {
        decision: verb.into(),
        stop_reason,
        message: None,
        resolved_by: Some(RESOLVED_BY_DEFAULT.to_owned()),
    }
}

/// The stop reason an outcome carries for `verb`: only `forbid` and `allow_stop` have one
pub(crate) fn stop_reason_of(verb: Verb, given: Option<StopReason>) -> Option<StopReason> {
    if verb.takes_stop_reason() {
        given.or_else(|| StopReason::default_for(verb))
    } else {
        None
    }
}

/// Sorts evaluations by rule id, with a total tie-break so equal ids stay deterministic
pub(crate) fn sort_evaluations(evaluations: &mut [Evaluation]) {
    evaluations.sort_by(|left, right| {
        left.rule
            .as_bytes()
            .cmp(right.rule.as_bytes())
            .then_with(|| choice_key(left).cmp(&choice_key(right)))
            .then_with(|| left.verb.cmp(&right.verb))
            .then_with(|| (&left.file, left.line).cmp(&(&right.file, right.line)))
    });
}

/// Sorts matched `set` effects into application order: priority descending, then rule id
/// ascending, so the last one applied (the lowest priority, then the largest id) wins
pub(crate) fn order_effects<T>(effects: &mut [T], key: impl Fn(&T) -> (i64, &str)) {
    effects.sort_by(|left, right| {
        let (left_priority, left_id) = key(left);
        let (right_priority, right_id) = key(right);
        right_priority
            .cmp(&left_priority)
            .then_with(|| left_id.as_bytes().cmp(right_id.as_bytes()))
    });
}
