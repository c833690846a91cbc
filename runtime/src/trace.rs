//! The run's trace state: what `count(...)`, `streak(...)` and `same_call_count` need to
//! know of the events so far, kept incrementally (docs/trace.md).
//!
//! Invariant: observing an event costs O(1) per trace term of the policy (amortized for
//! windows), whatever the length of the run, and the memory of a term is bounded: a counter
//! for an unwindowed count or a streak, the last call's hash for `same_call_count`, and for
//! a windowed count one position per counted event up to the largest bound it is compared
//! with (at most [`crate::vocabulary::MAX_TRACE_BOUND`] + 1). A policy without trace terms
//! observes nothing and allocates nothing.
//!
//! The trace clock never goes back: an event's position is the largest `steps` and
//! `elapsed_ms` seen so far in the run, so events given out of order still count in order.

mod provenance;
mod same_call;
mod window;

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::vocabulary::{Condition, EventKind, LabelStep, Rule, TraceTerm, TraceTest, Window};
use provenance::Fragments;
use same_call::call_hash;
use serde_json::Value as Json;
use window::WindowCount;

/// What the trace terms of a policy remember of one run (serialized with the execution's
/// state, a checkpoint and a hook session)
///
/// Each term's memory is keyed by the term itself, so a policy that is reloaded keeps the
/// counts of the terms it still has.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceState {
    /// The largest `steps` seen in the run
    #[serde(default)]
    steps: u64,
    /// The largest `elapsed_ms` seen in the run
    #[serde(default)]
    elapsed_ms: u64,
    /// Each term's memory, by the term's canonical JSON
    #[serde(default)]
    terms: BTreeMap<String, TermState>,
    /// The fragments of content each label was attached to (`label result "L"`), and of the
    /// run's prompts under [`PROMPT_SOURCE`]
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    labels: BTreeMap<String, Fragments>,
    /// The prompt of the turn under way: every event of the turn sees it
    #[serde(default, skip_serializing_if = "Option::is_none")]
    prompt: Option<String>,
}

/// The label `from prompt` reads: the prompts of the run, attached as each turn starts
/// (labels starting with `rulesc:` are the runtime's own; a policy cannot write one)
pub const PROMPT_SOURCE: &str = "rulesc:prompt";

/// One term's memory
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum TermState {
    /// Events counted so far
    Count(u64),
    /// The latest counted events of a windowed count
    Window(WindowCount),
    /// Events in a row for which the condition held
    Streak(u64),
    /// The last tool call's hash and how many calls in a row had it
    SameCall {
        /// The hash of the last `pre_tool_use`'s call
        last: u64,
        /// Calls in a row with that hash
        count: u64,
    },
}

/// A trace term of a policy, with where its value goes
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct TraceSpec {
    /// The term's canonical JSON: its key in [`TraceState`]
    key: String,
    term: TraceTerm,
    /// The most counted events a windowed count keeps
    horizon: u64,
}

/// The value of each trace term of a policy for one event, by slot, and the run's labels
#[derive(Debug, Default)]
pub(crate) struct Reading<'a> {
    values: Vec<u64>,
    labels: Option<&'a BTreeMap<String, Fragments>>,
}

impl Reading<'_> {
    /// The value of the term in `slot`; `None` for an event that was not observed
    pub(crate) fn value(&self, slot: usize) -> Option<u64> {
        self.values.get(slot).copied()
    }

    /// Whether `text` holds a fragment of content labelled `label` earlier in the run
    pub(crate) fn is_from(&self, text: &str, label: &str) -> bool {
        self.labels
            .and_then(|labels| labels.get(label))
            .is_some_and(|fragments| fragments.found_in(text))
    }
}

impl TraceState {
    /// Adds `event` to the run and reads every term of `specs` with it included; `holds`
    /// says whether a term's `when` condition holds for the event (the engine evaluates it:
    /// a trace term is a condition's input, never its evaluator)
    pub(crate) fn observe(
        &mut self,
        specs: &[TraceSpec],
        event: &Event,
        holds: &dyn Fn(&Condition) -> bool,
    ) -> Reading<'_> {
        if specs.is_empty() {
            return Reading {
                values: Vec::new(),
                labels: Some(&self.labels),
            };
        }
        self.steps = self.steps.max(event.steps);
        self.elapsed_ms = self.elapsed_ms.max(event.elapsed_ms);
        let (steps, elapsed_ms) = (self.steps, self.elapsed_ms);
        let mut values = Vec::with_capacity(specs.len());
        for spec in specs {
            // One lookup per term and event: keys are terms' JSON, long and alike at the start.
            let value = match self.terms.get_mut(&spec.key) {
                Some(state) if state.fits(&spec.term) => {
                    state.observe(spec, event, holds, steps, elapsed_ms)
                }
                _ => {
                    let mut state = TermState::new(&spec.term);
                    let value = state.observe(spec, event, holds, steps, elapsed_ms);
                    self.terms.insert(spec.key.clone(), state);
                    value
                }
            };
            values.push(value);
        }
        if self.terms.len() > specs.len() {
            // Terms of a policy no longer in force: forget them, so memory stays bounded.
            self.terms
                .retain(|key, _| specs.iter().any(|spec| spec.key == *key));
        }
        Reading {
            values,
            labels: Some(&self.labels),
        }
    }

    /// Attaches `label` to the fragments of `text` (a `label result "L"` rule matched)
    pub(crate) fn attach(&mut self, label: &str, text: &str) {
        match self.labels.get_mut(label) {
            Some(fragments) => fragments.attach(text),
            None => {
                let mut fragments = Fragments::default();
                fragments.attach(text);
                self.labels.insert(label.to_owned(), fragments);
            }
        }
    }
}

impl TraceState {
    /// Gives `event` the prompt of the turn it belongs to: an event that carries a prompt
    /// starts a turn (its prompt is remembered, and attached to [`PROMPT_SOURCE`] for
    /// `from prompt`); one that carries none gets the prompt of the turn under way
    pub fn carry_prompt(&mut self, event: &mut Event) {
        match &event.prompt {
            Some(prompt) if self.prompt.as_ref() != Some(prompt) => {
                self.attach(PROMPT_SOURCE, prompt);
                self.prompt = Some(prompt.clone());
            }
            Some(_) => {}
            None => event.prompt.clone_from(&self.prompt),
        }
    }

    /// Attaches `label` to content that could not be read: it may have held any string, so
    /// from now on every string counts as from `label` (fail closed for provenance)
    pub(crate) fn attach_unknown(&mut self, label: &str) {
        self.labels
            .entry(label.to_owned())
            .or_default()
            .hold_everything();
    }
}

/// Calls `each` with every value of `json` at `path` (`label result.items[*].body`): a key
/// of an object, an element of a list, or every element; a step that finds nothing ends
/// its branch, so a missing field labels nothing
///
/// Without recursion, and in order; the values are at most the nodes of `json`, which a
/// readable output holds to a bounded depth.
pub(crate) fn each_labelled<'j>(
    json: &'j Json,
    path: &[LabelStep],
    mut each: impl FnMut(&'j Json),
) {
    let mut pending: Vec<(&'j Json, usize)> = vec![(json, 0)];
    while let Some((value, step)) = pending.pop() {
        let Some(next) = path.get(step) else {
            each(value);
            continue;
        };
        match (next, value) {
            (LabelStep::Key(key), Json::Object(object)) => {
                pending.extend(object.get(key).map(|found| (found, step + 1)));
            }
            (LabelStep::Index(index), Json::Array(items)) => {
                let found = usize::try_from(*index).ok().and_then(|at| items.get(at));
                pending.extend(found.map(|found| (found, step + 1)));
            }
            (LabelStep::Each, Json::Array(items)) => {
                pending.extend(items.iter().rev().map(|item| (item, step + 1)));
            }
            _ => {}
        }
    }
}

impl TermState {
    fn new(term: &TraceTerm) -> TermState {
        match term {
            TraceTerm::Count { within: None, .. } => TermState::Count(0),
            TraceTerm::Count {
                within: Some(_), ..
            } => TermState::Window(WindowCount::default()),
            TraceTerm::Streak { .. } => TermState::Streak(0),
            TraceTerm::SameCall => TermState::SameCall { last: 0, count: 0 },
        }
    }

    /// Whether this memory is of the shape `term` keeps (a session written by another
    /// build could hold another)
    fn fits(&self, term: &TraceTerm) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(&TermState::new(term))
    }

    /// Adds `event` and returns the term's value with it
    fn observe(
        &mut self,
        spec: &TraceSpec,
        event: &Event,
        holds: &dyn Fn(&Condition) -> bool,
        steps: u64,
        elapsed_ms: u64,
    ) -> u64 {
        let counted = |kind: EventKind, when: Option<&Condition>| {
            event.kind == kind && when.is_none_or(holds)
        };
        match (self, &spec.term) {
            (
                TermState::Count(count),
                TraceTerm::Count {
                    event: kind, when, ..
                },
            ) => {
                if counted(*kind, when.as_deref()) {
                    *count = count.saturating_add(1);
                }
                *count
            }
            (
                TermState::Window(window),
                TraceTerm::Count {
                    event: kind,
                    when,
                    within: Some(within),
                },
            ) => {
                let (now, width) = match within {
                    Window::Steps(width) => (steps, *width),
                    Window::Millis(width) => (elapsed_ms, *width),
                };
                if counted(*kind, when.as_deref()) {
                    window.push(now, spec.horizon);
                }
                window.count(now, width)
            }
            (TermState::Streak(streak), TraceTerm::Streak { event: kind, when }) => {
                if event.kind == *kind {
                    *streak = if counted(*kind, when.as_deref()) {
                        streak.saturating_add(1)
                    } else {
                        0
                    };
                }
                *streak
            }
            (TermState::SameCall { last, count }, TraceTerm::SameCall) => {
                if event.kind == EventKind::PreToolUse {
                    let hash = call_hash(event.tool.as_deref(), event.arg.as_ref());
                    *count = if *count > 0 && *last == hash {
                        count.saturating_add(1)
                    } else {
                        1
                    };
                    *last = hash;
                }
                *count
            }
            // Invariant: `fits` made the memory of the term's shape before this is called.
            _ => 0,
        }
    }
}

/// Gives every trace test of `rules` the slot of its term, and returns the terms, each
/// once, in slot order
pub(crate) fn assign_slots(rules: &mut [Rule]) -> Vec<TraceSpec> {
    let mut specs: Vec<TraceSpec> = Vec::new();
    // The slots of the terms with each key: equal terms have equal keys, so a term is
    // compared only with the few that share its key, not with every term so far.
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    for condition in rules.iter_mut().filter_map(|rule| rule.condition.as_mut()) {
        for_each_test(condition, |test| {
            let key = key_of(&test.term);
            let slots = by_key.entry(key.clone()).or_default();
            let known = slots
                .iter()
                .copied()
                .find(|slot| specs.get(*slot).is_some_and(|spec| spec.term == test.term));
            let slot = match known {
                Some(slot) => slot,
                None => {
                    slots.push(specs.len());
                    specs.push(TraceSpec {
                        key,
                        term: test.term.clone(),
                        horizon: 0,
                    });
                    specs.len().saturating_sub(1)
                }
            };
            if let Some(spec) = specs.get_mut(slot) {
                spec.horizon = spec.horizon.max(test.horizon());
            }
            test.set_slot(slot);
            Some(())
        });
    }
    specs
}

/// Gives every trace test of `condition` the slot of its term among `specs`, as
/// [`assign_slots`] gave them to the rules `specs` came from; `false` when a term is not
/// among them
pub(crate) fn point_at_slots(condition: &mut Condition, specs: &[TraceSpec]) -> bool {
    for_each_test(condition, |test| {
        let slot = specs.iter().position(|spec| spec.term == test.term)?;
        test.set_slot(slot);
        Some(())
    })
    .is_some()
}

/// Calls `visit` on every trace test of `condition`, without recursion, until it returns
/// `None`; `None` when it did
fn for_each_test(
    condition: &mut Condition,
    mut visit: impl FnMut(&mut TraceTest) -> Option<()>,
) -> Option<()> {
    let mut pending = vec![condition];
    while let Some(condition) = pending.pop() {
        match condition {
            Condition::All(parts) | Condition::Any(parts) => pending.extend(parts.iter_mut()),
            Condition::Not(part) => pending.push(part),
            Condition::Trace(test) => visit(test)?,
            _ => {}
        }
    }
    Some(())
}

/// The canonical JSON of `term`, its key in [`TraceState`]
fn key_of(term: &TraceTerm) -> String {
    // A term holds no map with keys that are not strings, so this cannot fail; if it did,
    // the term would only share its memory with another that failed the same way.
    serde_json::to_string(term).unwrap_or_default()
}
