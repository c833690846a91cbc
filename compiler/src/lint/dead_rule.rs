//! W002 `dead-rule`: a rule that can never change an outcome (LANGUAGE.md §6).
//!
//! A rule is dead when, on every event it fires on, one of these holds:
//!
//! - another rule always matches there and always wins over it: a stronger verb in the
//!   event's precedence (§5), or the same verb with a higher `@priority` (or an equal one and
//!   a smaller id), so this rule never decides (rules with the same events and condition but
//!   different verbs are left to `conflicting-verbs`);
//! - the event is never reached: a rule always forbids on an event that fires before it in
//!   every step (`execution_start`, then `before_step`, then `before_inference`);
//! - it is a `request` on `stop` or `subagent_stop` and every stop comes from a `forbid`,
//!   which is final (§5.6): a rule always forbids on `execution_start`, `before_step`,
//!   `before_inference` or `after_step`, so no step ever ends with `allow_stop`.
//!
//! "Always matches" means no condition, or one that `constant-condition` finds always true.

use rulesc_runtime::{Action, EventKind, Verb};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::conflicting_verbs::verb_span;
use crate::lint::{domain, Context};
use crate::lower::LoweredRule;

/// Warns on each rule that is dead on every event it fires on
pub(super) fn check(ctx: &Context<'_, '_>) -> Vec<Diagnostic> {
    let always: Vec<&LoweredRule<'_>> = ctx
        .rules
        .iter()
        .filter(|lowered| domain::is_unconditional(lowered.rule.condition.as_ref()))
        .collect();
    let mut diags = Vec::new();
    for lowered in ctx.rules {
        // A rule that never matches is `constant-condition`'s to report.
        if lowered
            .rule
            .condition
            .as_ref()
            .is_some_and(|condition| domain::always(condition) == Some(false))
        {
            continue;
        }
        let mut killers = lowered
            .rule
            .events
            .iter()
            .map(|event| killer(lowered, *event, &always));
        let Some(Some(first)) = killers.next() else {
            continue;
        };
        if killers.all(|other| other.is_some()) {
            let (winner, why) = first;
            diags.push(codes::dead_rule(
                (lowered.file, verb_span(lowered)),
                (winner.file, verb_span(winner)),
                (&lowered.rule.id, &winner.rule.id),
                why,
            ));
        }
    }
    diags
}

/// The rule that keeps `lowered` from mattering on `event`, with what it does there
fn killer<'r, 'ast>(
    lowered: &LoweredRule<'ast>,
    event: EventKind,
    always: &[&'r LoweredRule<'ast>],
) -> Option<(&'r LoweredRule<'ast>, String)> {
    let verb = match &lowered.rule.action {
        Action::Decide { verb, .. } => Some(*verb),
        Action::Set { .. } | Action::Compute { .. } | Action::Label { .. } => None,
    };
    always.iter().copied().find_map(|other| {
        if std::ptr::eq(other, lowered) {
            return None;
        }
        let Action::Decide {
            verb: other_verb, ..
        } = &other.rule.action
        else {
            return None;
        };
        let forbids = |events: &[EventKind]| {
            *other_verb == Verb::Forbid
                && other.rule.events.iter().any(|fired| events.contains(fired))
        };
        if forbids(always_before(event)) {
            return Some((other, format!("always ends the run before `{event}`")));
        }
        if verb == Some(Verb::Request) && event.is_stop() && forbids(&FINAL_STOPS) {
            return Some((other, "makes every stop final".to_owned()));
        }
        let verb = verb?;
        if !other.rule.events.contains(&event) || conflicting(lowered, other, verb, *other_verb) {
            return None;
        }
        let stronger = rank(event, *other_verb) > rank(event, verb);
        let first_among_equals = *other_verb == verb
            && (other.rule.priority, std::cmp::Reverse(&other.rule.id))
                > (lowered.rule.priority, std::cmp::Reverse(&lowered.rule.id));
        (stronger || first_among_equals)
            .then(|| (other, format!("always matches and wins on `{event}`")))
    })
}

/// Events where an unconditional `forbid` leaves no step ending with `allow_stop`
const FINAL_STOPS: [EventKind; 4] = [
    EventKind::ExecutionStart,
    EventKind::BeforeStep,
    EventKind::BeforeInference,
    EventKind::AfterStep,
];

/// Whether `conflicting-verbs` reports this pair: same events, same condition, other verbs
fn conflicting(
    lowered: &LoweredRule<'_>,
    other: &LoweredRule<'_>,
    verb: Verb,
    other_verb: Verb,
) -> bool {
    verb != other_verb
        && lowered.rule.events == other.rule.events
        && domain::shape(lowered.rule.condition.as_ref())
            == domain::shape(other.rule.condition.as_ref())
}

/// The events that fire before `event` in every step that reaches it
fn always_before(event: EventKind) -> &'static [EventKind] {
    use EventKind as E;
    match event {
        E::BeforeStep => &[E::ExecutionStart],
        E::BeforeInference => &[E::ExecutionStart, E::BeforeStep],
        E::AfterInference | E::PreToolUse | E::PostToolUse | E::AfterStep | E::OnError => {
            &[E::ExecutionStart, E::BeforeStep, E::BeforeInference]
        }
        // `stop`, `subagent_stop` and `execution_end` fire however the run ended.
        _ => &[],
    }
}

/// How strongly `verb` wins on `event` (LANGUAGE.md §5.1 to §5.3, §5.6): higher wins
fn rank(event: EventKind, verb: Verb) -> u8 {
    match (event, verb) {
        (_, Verb::Forbid) => 4,
        (EventKind::PreToolUse, Verb::Block)
        | (EventKind::OnError, Verb::Retry)
        | (_, Verb::Request) => 3,
        (EventKind::PreToolUse, Verb::Ask)
        | (EventKind::OnError, Verb::Ignore)
        | (_, Verb::AllowStop) => 2,
        (_, Verb::Allow) => 1,
        // Verbs an event does not allow never reach here: the compiler rejects them.
        _ => 0,
    }
}
