//! W002 `dead-rule`: a rule that can never change an outcome (docs/language.md §6).
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

use std::cmp::Reverse;
use std::collections::BTreeMap;

use rulesc_runtime::{Action, EventKind, Verb};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::{domain, Context};
use crate::lower::LoweredRule;

/// Warns on each rule that is dead on every event it fires on
pub(super) fn check(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let always = Always::new(ctx.rules);
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
            .map(|event| always.killer(lowered, *event));
        let Some(Some(first)) = killers.next() else {
            continue;
        };
        if killers.all(|other| other.is_some()) {
            let (winner, why) = first;
            diags.push(codes::dead_rule(
                (lowered.file, lowered.spans.effect),
                (winner.file, winner.spans.effect),
                (&lowered.rule.id, &winner.rule.id),
                why,
            ));
        }
    }
    diags
}

/// The rules that always match, in file and source order, indexed by event so that the
/// first of them to keep a rule from mattering is found in a few look-ups: asking each of
/// them about each rule costs the square of the rules
struct Always<'r> {
    rules: Vec<&'r LoweredRule>,
    /// By event, the first two positions of the rules that forbid there (one may be the rule
    /// asked about)
    forbids: BTreeMap<EventKind, Vec<usize>>,
    /// By event and verb, the rules that decide so there
    deciders: BTreeMap<(EventKind, Verb), Deciders>,
}

/// The rules that always match and decide one verb on one event
struct Deciders {
    /// The position of the first
    first: usize,
    /// Its events and the shape of its condition: the rules `conflicting-verbs` pairs it with
    first_shape: String,
    /// The position of the first whose events or shape differ from the first's
    other: Option<usize>,
    /// Each rule's rank among rules of one verb, (priority, reversed id), with its position,
    /// sorted by rank
    ranked: Vec<((i64, Reverse<String>), usize)>,
    /// For each entry of `ranked`, the smallest position from it to the end
    first_from: Vec<usize>,
}

impl<'r> Always<'r> {
    fn new(rules: &'r [LoweredRule]) -> Self {
        let rules: Vec<&LoweredRule> = rules
            .iter()
            .filter(|lowered| domain::is_unconditional(lowered.rule.condition.as_ref()))
            .collect();
        let mut forbids: BTreeMap<EventKind, Vec<usize>> = BTreeMap::new();
        let mut deciders: BTreeMap<(EventKind, Verb), Deciders> = BTreeMap::new();
        for (position, lowered) in rules.iter().enumerate() {
            let Action::Decide { verb, .. } = &lowered.rule.action else {
                continue;
            };
            let shape = events_and_shape(lowered);
            let rank = (lowered.rule.priority, Reverse(lowered.rule.id.clone()));
            for event in &lowered.rule.events {
                if *verb == Verb::Forbid {
                    let first_two = forbids.entry(*event).or_default();
                    if first_two.len() < 2 && first_two.last() != Some(&position) {
                        first_two.push(position);
                    }
                }
                let entry = deciders.entry((*event, *verb)).or_insert_with(|| Deciders {
                    first: position,
                    first_shape: shape.clone(),
                    other: None,
                    ranked: Vec::new(),
                    first_from: Vec::new(),
                });
                if entry.other.is_none() && entry.first_shape != shape {
                    entry.other = Some(position);
                }
                entry.ranked.push((rank.clone(), position));
            }
        }
        for entry in deciders.values_mut() {
            entry.ranked.sort();
            entry.first_from = entry
                .ranked
                .iter()
                .rev()
                .scan(usize::MAX, |first, (_, position)| {
                    *first = (*first).min(*position);
                    Some(*first)
                })
                .collect();
            entry.first_from.reverse();
        }
        Always {
            rules,
            forbids,
            deciders,
        }
    }

    /// The rule that keeps `lowered` from mattering on `event`, with what it does there: the
    /// first rule [`kills`] says so of, found as the smallest of the positions where each of
    /// its reasons first holds
    fn killer(&self, lowered: &LoweredRule, event: EventKind) -> Option<(&'r LoweredRule, String)> {
        let verb = match &lowered.rule.action {
            Action::Decide { verb, .. } => Some(*verb),
            Action::Set { .. } | Action::Compute { .. } | Action::Label { .. } => None,
        };
        let mut candidates: Vec<usize> = Vec::new();
        candidates.extend(self.first_forbid(lowered, always_before(event)));
        if verb == Some(Verb::Request) && event.is_stop() {
            candidates.extend(self.first_forbid(lowered, &FINAL_STOPS));
        }
        if let Some(verb) = verb {
            let mut shape = None;
            for other_verb in Verb::ALL {
                let Some(deciders) = self.deciders.get(&(event, other_verb)) else {
                    continue;
                };
                if other_verb == verb {
                    let mine = (lowered.rule.priority, Reverse(lowered.rule.id.clone()));
                    let above = deciders.ranked.partition_point(|(rank, _)| *rank <= mine);
                    candidates.extend(deciders.first_from.get(above));
                } else if rank(event, other_verb) > rank(event, verb) {
                    let shape = shape.get_or_insert_with(|| events_and_shape(lowered));
                    if *shape == deciders.first_shape {
                        candidates.extend(deciders.other);
                    } else {
                        candidates.push(deciders.first);
                    }
                }
            }
        }
        let first = candidates.into_iter().min()?;
        let other = self.rules.get(first)?;
        kills(lowered, event, other).map(|why| (*other, why))
    }

    /// The position of the first rule other than `lowered` that forbids on one of `events`
    fn first_forbid(&self, lowered: &LoweredRule, events: &[EventKind]) -> Option<usize> {
        events
            .iter()
            .filter_map(|event| self.forbids.get(event))
            .filter_map(|first_two| {
                first_two.iter().copied().find(|position| {
                    self.rules
                        .get(*position)
                        .is_some_and(|other| !std::ptr::eq(*other, lowered))
                })
            })
            .min()
    }
}

/// A rule's events and the shape of its condition, as one text: what makes two rules of
/// other verbs a pair for `conflicting-verbs`
fn events_and_shape(lowered: &LoweredRule) -> String {
    let events: Vec<&str> = lowered
        .rule
        .events
        .iter()
        .map(|event| event.name())
        .collect();
    format!(
        "{}\n{}",
        events.join(","),
        domain::shape(lowered.rule.condition.as_ref())
    )
}

/// What `other`, a rule that always matches, does that keeps `lowered` from mattering on
/// `event`, if anything
fn kills(lowered: &LoweredRule, event: EventKind, other: &LoweredRule) -> Option<String> {
    let verb = match &lowered.rule.action {
        Action::Decide { verb, .. } => Some(*verb),
        Action::Set { .. } | Action::Compute { .. } | Action::Label { .. } => None,
    };
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
        *other_verb == Verb::Forbid && other.rule.events.iter().any(|fired| events.contains(fired))
    };
    if forbids(always_before(event)) {
        return Some(format!("always ends the run before `{event}`"));
    }
    if verb == Some(Verb::Request) && event.is_stop() && forbids(&FINAL_STOPS) {
        return Some("makes every stop final".to_owned());
    }
    let verb = verb?;
    if !other.rule.events.contains(&event) || conflicting(lowered, other, verb, *other_verb) {
        return None;
    }
    let stronger = rank(event, *other_verb) > rank(event, verb);
    let first_among_equals = *other_verb == verb
        && (other.rule.priority, std::cmp::Reverse(&other.rule.id))
            > (lowered.rule.priority, std::cmp::Reverse(&lowered.rule.id));
    (stronger || first_among_equals).then(|| format!("always matches and wins on `{event}`"))
}

/// Events where an unconditional `forbid` leaves no step ending with `allow_stop`
const FINAL_STOPS: [EventKind; 4] = [
    EventKind::ExecutionStart,
    EventKind::BeforeStep,
    EventKind::BeforeInference,
    EventKind::AfterStep,
];

/// Whether `conflicting-verbs` reports this pair: same events, same condition, other verbs
fn conflicting(lowered: &LoweredRule, other: &LoweredRule, verb: Verb, other_verb: Verb) -> bool {
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

/// How strongly `verb` wins on `event` (docs/language.md §5.1 to §5.3, §5.6): higher wins
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
