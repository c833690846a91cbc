//! A checked, indexed policy set: what the compiler produces and the evaluator runs.
//!
//! Invariant: a `Policy` is valid by construction. Every rule in a policy is a
//! [`CheckedRule`] (`checked_rule.rs`): `Policy::new` checks each rule it is handed
//! (`from_json` goes through it), and `Policy::from_checked` takes rules the compiler
//! already checked one by one; both then check what only the whole set can tell, so every
//! id is unique. The other constructor reads back what this runtime wrote of such a policy
//! (`from_checked_compact`, for the hook's checksummed cache). A `Policy` is immutable and
//! shares its rules behind an `Arc`; what it builds on first use (each event kind's index,
//! a regular expression, a condition decoded from the compact form) is built once,
//! whichever thread asks first.

use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value as Json};
use tracing::{debug, warn};

use crate::arith;
use crate::bounds;
use crate::checked_rule::CheckedRule;
use crate::encoded::{Conditions, Undecodable};
use crate::evaluate::holds;
use crate::event::Event;
use crate::heads::{EncodedHeads, Heads};
use crate::index::{IndexEntry, RuleIndex};
use crate::native_hook::NativeHook;
use crate::outcome::{Act, EffectRecord, Evaluation, Outcome};
use crate::policy_error::PolicyError;
use crate::prelude;
use crate::programs::{Named, Requirements};
use crate::resolve::{order_effects, resolve_event, sort_evaluations, stop_reason_of};
use crate::shell::{CommandLine, Undecided, DEFAULT_SHELL_TOOLS};
use crate::trace::{self, Reading, TraceSpec, TraceState};
use crate::vocabulary::{
    Action, Condition, Defaults, FieldPath, LabelStep, Limits, Mode, OnUndecidable, PathSegment,
    Rule, StopReason, Verb,
};
use crate::watched::Watched;

/// A checked, indexed policy set, ready to evaluate events
///
/// Cloning is cheap (the rules are shared); `evaluate` takes `&self`, is pure and may run
/// on many threads at once.
///
/// ```
/// use rulesc_runtime::{Decision, Defaults, Event, EventKind, Policy};
///
/// let policy = Policy::new(Vec::new(), Defaults::default())?;
/// let mut event = Event::new(EventKind::AfterStep);
/// event.tool_calls = Some(0);
/// let outcome = policy.evaluate(&event);
/// assert_eq!(outcome.resolution.decision, Decision::AllowStop);
/// assert_eq!(outcome.resolution.resolved_by.as_deref(), Some("prelude:no-tool-calls"));
/// # Ok::<(), rulesc_runtime::PolicyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Policy {
    shared: Arc<Shared>,
    limits: Limits,
    /// The tools whose command shell conditions read; `None` is [`DEFAULT_SHELL_TOOLS`]
    shell_tools: Option<Arc<[String]>>,
    /// Which rules are only watched, never enforced
    shadow: Shadow,
}

/// The rules of a policy that run in shadow mode (docs/shadow.md)
#[derive(Debug, Clone, Default)]
enum Shadow {
    /// Every rule is enforced
    #[default]
    None,
    /// The user's rules of these ids (`@mode(shadow)`)
    Rules(Arc<BTreeSet<String>>),
    /// Every user rule, and the defaults (`rulesc hook --shadow`)
    All,
}

/// What clones of one policy share
#[derive(Debug)]
struct Shared {
    /// The user's rules in the order given, then the prelude; in a policy read from its
    /// compact form, the user's rules' heads are decoded on first use and hold no
    /// condition (see `encoded`)
    rules: Heads,
    /// How many of `rules` are the user's
    n_user_rules: usize,
    defaults: Defaults,
    index: RuleIndex,
    /// The trace terms of the rules, each once, by slot
    trace: Vec<TraceSpec>,
    /// What each user rule's condition requires of a tool call, if anything (`programs.rs`):
    /// a call that does not meet it is not worth testing (nor, in the compact form,
    /// decoding) the condition for
    requirements: Requirements,
    /// The program names the rules' shell conditions test (`watched.rs`)
    watched: Watched,
    /// The conditions of the user's rules and their index entries, for a policy read from
    /// its compact form (`compact.rs`)
    encoded: Option<Encoded>,
}

/// What a policy read from its compact form keeps of its user rules' conditions
#[derive(Debug)]
struct Encoded {
    /// How each user rule enters the index
    entries: Vec<IndexEntry>,
    /// Each user rule's condition, decoded when an event first needs it
    conditions: Conditions,
    /// Every rule whole, made when [`Policy::rules`] is first asked
    whole: OnceLock<Vec<Rule>>,
}

/// The parts of a policy that a stored form holds (`compact.rs`), for `Policy` to assemble
pub(crate) struct Parts {
    /// The heads of the user's rules, each without its condition (in [`Conditions`])
    pub(crate) heads: EncodedHeads,
    pub(crate) defaults: Defaults,
    pub(crate) trace: Vec<TraceSpec>,
    /// The ids of the user's rules in shadow mode
    pub(crate) shadow: Vec<String>,
    /// The index entry of each user rule
    pub(crate) index: Vec<IndexEntry>,
    pub(crate) conditions: Conditions,
    /// What each user rule requires of a tool call (`programs.rs`)
    pub(crate) requirements: Requirements,
    /// The program names the conditions test
    pub(crate) watched: Watched,
}

impl Policy {
    /// Checks `rules`, adds the prelude (docs/language.md §8) and indexes them
    ///
    /// Each rule is checked as [`CheckedRule::new`] checks it, in the order given, and the
    /// first refusal is the error; then the policy as [`Policy::from_checked`] checks it.
    /// The host limits are [`Limits::default`] until [`Policy::with_limits`].
    pub fn new(rules: Vec<Rule>, defaults: Defaults) -> Result<Policy, PolicyError> {
        // Refused before any rule is checked: checking grows with the number of rules.
        bounds::check_rule_count(rules.len())?;
        let rules = rules
            .into_iter()
            .map(CheckedRule::new)
            .collect::<Result<Vec<_>, _>>()?;
        Policy::assemble(rules, defaults)
    }

    /// The policy of rules already checked one by one: what only the whole set can tell is
    /// checked here (how many rules, an id used twice, the defaults), each rule is not
    /// checked again; then the prelude is added and the rules indexed
    pub fn from_checked(
        rules: Vec<CheckedRule>,
        defaults: Defaults,
    ) -> Result<Policy, PolicyError> {
        bounds::check_rule_count(rules.len())?;
        Policy::assemble(rules, defaults)
    }

    /// [`Policy::from_checked`] once the number of rules is known to be within the bound
    fn assemble(rules: Vec<CheckedRule>, defaults: Defaults) -> Result<Policy, PolicyError> {
        let mut seen = HashSet::with_capacity(rules.len());
        if let Some(rule) = rules.iter().find(|rule| !seen.insert(rule.id.as_str())) {
            return Err(PolicyError::DuplicateId(rule.id.clone()));
        }
        check_defaults(&defaults)?;
        let n_user_rules = rules.len();
        // The prelude is written in canonical form, with ids no user rule may take.
        let mut rules: Vec<Rule> = rules.into_iter().map(CheckedRule::into_rule).collect();
        rules.extend(prelude::rules());
        let trace = trace::assign_slots(&mut rules);
        let requirements = Requirements::of(rules.get(..n_user_rules).unwrap_or_default());
        let watched = Watched::of(rules.iter().filter_map(|rule| rule.condition.as_ref()));
        let rules = Heads::Whole(rules);
        let index = RuleIndex::default();
        index.prepare(&rules, &[]);
        Ok(Policy {
            shared: Arc::new(Shared {
                rules,
                n_user_rules,
                defaults,
                index,
                trace,
                requirements,
                watched,
                encoded: None,
            }),
            limits: Limits::default(),
            shell_tools: None,
            shadow: Shadow::None,
        })
    }

    /// The policy of user rules read from a stored form, their conditions kept encoded
    /// (with their index entries): assembled as it was built, its checks not made again
    /// (see [`Policy::from_checked_compact`])
    pub(crate) fn from_encoded(parts: Parts) -> Policy {
        let Parts {
            heads,
            defaults,
            trace,
            shadow,
            index: entries,
            conditions,
            requirements,
            watched,
        } = parts;
        let n_user_rules = heads.len();
        let rules = Heads::Encoded {
            user: heads,
            prelude: prelude::rules().into(),
        };
        let shadow = if shadow.is_empty() {
            Shadow::None
        } else {
            Shadow::Rules(Arc::new(shadow.into_iter().collect()))
        };
        Policy {
            shared: Arc::new(Shared {
                rules,
                n_user_rules,
                defaults,
                index: RuleIndex::default(),
                trace,
                requirements,
                watched,
                encoded: Some(Encoded {
                    entries,
                    conditions,
                    whole: OnceLock::new(),
                }),
            }),
            limits: Limits::default(),
            shell_tools: None,
            shadow,
        }
    }

    /// The trace terms of the policy's rules, each once, by slot
    pub(crate) fn trace_specs(&self) -> &[TraceSpec] {
        &self.shared.trace
    }

    /// The program names the policy's shell conditions test (`watched.rs`)
    pub(crate) fn watched(&self) -> &Watched {
        &self.shared.watched
    }

    /// The condition of the rule at `index` of [`Policy::rules`], whose head (any field but
    /// its condition) is `rule`: decoded now if the policy was read from its compact form
    /// and no event needed it yet
    fn condition_of(&self, index: usize) -> Result<Option<&Condition>, Undecodable> {
        match &self.shared.encoded {
            Some(encoded) if index < self.shared.n_user_rules => {
                encoded.conditions.get(index, &self.shared.trace)
            }
            _ => Ok(self.shared.rules.condition(index)),
        }
    }

    /// Whether user rule `index` may hold on the call of `line`, as far as what its
    /// condition requires tells, without decoding or testing the condition; `named` is
    /// what the line's programs name, kept for the call
    fn may_hold_on(&self, index: usize, line: &CommandLine<'_>, named: &Named) -> bool {
        self.shared.requirements.may_hold_on(index, line, named)
    }

    /// How many of the user's rules' conditions were decoded from the compact form so far
    #[cfg(test)]
    pub(crate) fn decoded_conditions(&self) -> usize {
        self.shared
            .encoded
            .as_ref()
            .map_or(0, |encoded| encoded.conditions.decoded())
    }

    /// How many of the user's rules' requirements were decoded from the compact form so far
    #[cfg(test)]
    pub(crate) fn decoded_requirements(&self) -> usize {
        self.shared.requirements.decoded()
    }

    /// The index entries of the user's rules, when their conditions are encoded
    fn index_entries(&self) -> &[IndexEntry] {
        self.shared
            .encoded
            .as_ref()
            .map_or(&[], |encoded| &encoded.entries)
    }

    /// The same policy under the host limits `limits`
    #[must_use]
    pub fn with_limits(self, limits: Limits) -> Policy {
        Policy { limits, ..self }
    }

    /// The same policy with `tools` as the tools whose `command` argument is a shell
    /// command line, for `shell(...)` conditions (docs/shell.md); an application that
    /// embeds the runtime declares its own here, else [`DEFAULT_SHELL_TOOLS`] apply
    #[must_use]
    pub fn with_shell_tools<I, S>(self, tools: I) -> Policy
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let tools: Vec<String> = tools.into_iter().map(Into::into).collect();
        Policy {
            shell_tools: Some(tools.into()),
            ..self
        }
    }

    /// The same policy with the user's rules named in `ids` in shadow mode
    /// (`@mode(shadow)`): evaluated and listed in [`Outcome::shadow`], never enforced
    ///
    /// Ids of no user rule are ignored; the prelude is always enforced.
    #[must_use]
    pub fn with_shadow_rules<I, S>(self, ids: I) -> Policy
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let user: BTreeSet<&str> = self.user_heads().map(|rule| rule.id.as_str()).collect();
        let ids: BTreeSet<String> = ids
            .into_iter()
            .map(Into::into)
            .filter(|id| user.contains(id.as_str()))
            .collect();
        let shadow = if ids.is_empty() {
            Shadow::None
        } else {
            Shadow::Rules(Arc::new(ids))
        };
        Policy { shadow, ..self }
    }

    /// The same policy with every user rule and the defaults in shadow mode (`rulesc hook
    /// --shadow`): it is evaluated and recorded, and decides nothing; the prelude still runs
    #[must_use]
    pub fn in_shadow(self) -> Policy {
        Policy {
            shadow: Shadow::All,
            ..self
        }
    }

    /// How the rule `id` takes part in evaluations
    pub fn mode(&self, id: &str) -> Mode {
        let shadowed = match &self.shadow {
            Shadow::None => false,
            Shadow::Rules(ids) => ids.contains(id),
            Shadow::All => self.user_heads().any(|rule| rule.id == id),
        };
        if shadowed {
            Mode::Shadow
        } else {
            Mode::Enforce
        }
    }

    /// The mode compiled JSON keeps for the rule `id`: its `@mode`; `--shadow` is the
    /// host's choice, not the policy's, and is not written
    pub(crate) fn written_mode(&self, id: &str) -> Mode {
        match &self.shadow {
            Shadow::Rules(ids) if ids.contains(id) => Mode::Shadow,
            _ => Mode::Enforce,
        }
    }

    /// Whether the rule at `index` of [`Policy::rules`] is in shadow mode
    fn shadows(&self, index: usize, rule: &Rule) -> bool {
        match &self.shadow {
            Shadow::None => false,
            Shadow::Rules(ids) => index < self.shared.n_user_rules && ids.contains(&rule.id),
            Shadow::All => index < self.shared.n_user_rules,
        }
    }

    /// The tools whose command shell conditions read
    pub fn shell_tools(&self) -> Vec<&str> {
        match &self.shell_tools {
            Some(tools) => tools.iter().map(String::as_str).collect(),
            None => DEFAULT_SHELL_TOOLS.to_vec(),
        }
    }

    /// Every rule evaluated: the user's rules in the order given, then the prelude
    ///
    /// A policy read from its compact form decodes every condition the first time this is
    /// asked.
    pub fn rules(&self) -> &[Rule] {
        match &self.shared.rules {
            Heads::Whole(rules) => rules,
            Heads::Encoded { .. } => self.whole_rules(),
        }
    }

    /// Every rule whole, in a policy read from its compact form: each head and condition
    /// decoded the first time this is asked
    fn whole_rules(&self) -> &[Rule] {
        let Some(encoded) = &self.shared.encoded else {
            return &[];
        };
        encoded.whole.get_or_init(|| {
            self.heads()
                .iter()
                .enumerate()
                .map(|(index, head)| {
                    let condition = match self.condition_of(index) {
                        Ok(condition) => condition.cloned(),
                        // Shown as it decides: a guard fires, anything else does not.
                        Err(Undecodable) if head.action.fails_closed() => {
                            Some(Condition::All(Vec::new()))
                        }
                        Err(Undecodable) => Some(Condition::Any(Vec::new())),
                    };
                    Rule {
                        condition,
                        ..head.clone()
                    }
                })
                .collect()
        })
    }

    /// The user's rules only, in the order given (what compiled JSON stores)
    pub fn user_rules(&self) -> &[Rule] {
        self.rules()
            .get(..self.shared.n_user_rules)
            .unwrap_or_default()
    }

    /// Every rule as [`Policy::rules`] lists them, with every field but, in a policy read
    /// from its compact form, the user's rules' conditions ([`Policy::condition_of`])
    fn heads(&self) -> &Heads {
        &self.shared.rules
    }

    /// The user's rules as [`Policy::heads`] holds them
    fn user_heads(&self) -> impl Iterator<Item = &Rule> {
        self.heads().iter().take(self.shared.n_user_rules)
    }

    /// The policy's defaults (docs/language.md §5.4)
    pub fn defaults(&self) -> &Defaults {
        &self.shared.defaults
    }

    /// The host limits in force
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Evaluates one event alone: every matching rule fires, and their decisions resolve once
    ///
    /// Trace tests see a run of this one event; [`Policy::evaluate_with`] evaluates an
    /// event of a longer run, or with native hooks.
    pub fn evaluate(&self, event: &Event) -> Outcome {
        self.evaluate_with(event, EvalOptions::default())
    }

    /// Evaluates one event as `options` say: in a run, with native hooks voting alongside
    /// the rules, carrying metadata over from the previous outcome
    ///
    /// With [`EvalOptions::default`] it is [`Policy::evaluate`].
    ///
    /// ```
    /// use rulesc_runtime::{Defaults, EvalOptions, Event, EventKind, Policy, TraceState};
    ///
    /// let policy = Policy::new(Vec::new(), Defaults::default())?;
    /// let mut trace = TraceState::default();
    /// let mut metadata = serde_json::Map::new();
    /// let mut start = Event::new(EventKind::ExecutionStart);
    /// start.metadata.insert("ticket".to_owned(), "T-1".into());
    /// for event in [start, Event::new(EventKind::BeforeStep)] {
    ///     let options = EvalOptions::default()
    ///         .trace(&mut trace)
    ///         .carry_metadata(&mut metadata);
    ///     let outcome = policy.evaluate_with(&event, options);
    ///     assert_eq!(outcome.metadata.get("ticket"), Some(&"T-1".into()));
    /// }
    /// # Ok::<(), rulesc_runtime::PolicyError>(())
    /// ```
    pub fn evaluate_with(&self, event: &Event, options: EvalOptions<'_>) -> Outcome {
        let EvalOptions {
            trace,
            hooks,
            metadata,
            limits,
        } = options;
        let mut alone = TraceState::default();
        let trace = trace.unwrap_or(&mut alone);
        let limits = limits.unwrap_or(&self.limits);
        let Some(metadata) = metadata else {
            return self.evaluate_under(limits, event, hooks, trace);
        };
        let mut carried = event.clone();
        let own = std::mem::replace(&mut carried.metadata, std::mem::take(metadata));
        carried.metadata.extend(own);
        trace.carry_prompt(&mut carried);
        let outcome = self.evaluate_under(limits, &carried, hooks, trace);
        metadata.clone_from(&outcome.metadata);
        outcome
    }

    /// Evaluates `event` under the host limits `limits`, with `hooks`, and adds it to the
    /// run's `trace`
    fn evaluate_under(
        &self,
        limits: &Limits,
        event: &Event,
        hooks: &[&dyn NativeHook],
        trace: &mut TraceState,
    ) -> Outcome {
        let line = CommandLine::new(event, self.shell_tools.as_deref(), &self.shared.watched);
        let reading = trace.observe(&self.shared.trace, event, &|when| {
            holds(when, event, &line, false, &Reading::default())
        });
        let mut labels = Vec::new();
        let outcome = self.evaluate_reading(limits, event, hooks, &line, &reading, &mut labels);
        // Labels attach after the event: its own `from` tests read the run before it.
        if let Some(result) = &event.result {
            for (label, path) in labels {
                if result.is_unreadable() {
                    trace.attach_unknown(label);
                } else if path.is_empty() {
                    trace.attach(label, result.text());
                } else if let Some(json) = result.json() {
                    crate::trace::each_labelled(json, path, |value| match value {
                        Json::String(text) => trace.attach(label, text),
                        other => trace.attach(label, &other.to_string()),
                    });
                }
            }
        }
        outcome
    }

    /// Evaluates `event`, whose trace terms read `trace`
    fn evaluate_reading<'p>(
        &'p self,
        limits: &Limits,
        event: &Event,
        hooks: &[&dyn NativeHook],
        line: &CommandLine<'_>,
        trace: &Reading<'_>,
        labels: &mut Vec<(&'p str, &'p [LabelStep])>,
    ) -> Outcome {
        // Invariant: when no rule matches, nothing below allocates (empty vectors, an empty
        // metadata map cloned); `runtime/tests/index_alloc.rs` holds it to that.
        let mut evaluations = Vec::new();
        let mut shadow = Vec::new();
        let mut effects = Vec::new();
        let rules = self.heads();
        let entries = self.index_entries();
        let named = Named::default();
        // A tool's output, input or other field that could not be read is undecidable as a
        // shell line can be.
        let output_unknown = event.arg_unreadable
            || !event.unknown_fields.is_empty()
            || event
                .result
                .as_ref()
                .is_some_and(crate::event::ToolOutput::is_unreadable);
        self.shared
            .index
            .for_each_candidate(rules, entries, event, |candidate| {
                // A rule's head is decoded only once its condition holds, or when a guard
                // would fire on an undecidable line: most candidates do neither.
                let fails_closed = || {
                    rules
                        .get(candidate.rule)
                        .is_some_and(|rule| rule.action.fails_closed())
                };
                let mut undecided = None;
                let matches = candidate.proven
                    || self.may_hold_on(candidate.rule, line, &named)
                        && match self.condition_of(candidate.rule) {
                            Ok(None) => true,
                            Ok(Some(condition)) => {
                                line.forget_why();
                                // A guard whose shell condition cannot be decided fires as its
                                // `@undecidable(...)` says (docs/shell.md); nothing else does.
                                holds(condition, event, line, false, trace)
                                    || ((line.may_be_undecidable() || output_unknown)
                                        && fails_closed()
                                        && !passes_read_line(
                                            condition,
                                            event,
                                            line,
                                            output_unknown,
                                        )
                                        && holds(condition, event, line, true, trace)
                                        && {
                                            undecided = line
                                                .undecided()
                                                .map(|why| (why, shell_undecidable(condition)));
                                            !matches!(
                                                undecided,
                                                Some((
                                                    Undecided::RunTime(_) | Undecided::Hidden(_),
                                                    Some(OnUndecidable::Pass)
                                                ))
                                            )
                                        })
                            }
                            Err(Undecodable) => fails_closed(),
                        };
                if !matches {
                    return;
                }
                let Some(rule) = rules.get(candidate.rule) else {
                    return;
                };
                let shadowed = self.shadows(candidate.rule, rule);
                let matched_undecided = undecided.is_some();
                let (verb, stop_reason, message) = match &rule.action {
                    Action::Decide {
                        verb,
                        stop_reason,
                        message,
                    } => match undecided {
                        Some((why, choice)) => {
                            let (verb, message) =
                                undecided_decision(rule, *verb, message.as_deref(), why, choice);
                            (Act::Decide(verb), *stop_reason, Some(message))
                        }
                        None => (Act::Decide(*verb), *stop_reason, message.clone()),
                    },
                    Action::Set { key, value } => {
                        if !shadowed {
                            effects.push((rule, key, value.to_json()));
                        }
                        (Act::Set, None, None)
                    }
                    Action::Compute { key, value } => {
                        // Computed now, from the event as it came: effects of the same event
                        // never see each other (docs/language.md §4.3). No value, no effect.
                        let computed = arith::number(value, event).filter(|_| !shadowed);
                        if let Some(value) = computed {
                            effects.push((rule, key, Json::from(value)));
                        }
                        (Act::Set, None, None)
                    }
                    Action::Label { label, path } => {
                        // A shadow label would change what a later `from` decides.
                        if !shadowed {
                            labels.push((label.as_str(), path.as_slice()));
                        }
                        (Act::Label, None, None)
                    }
                };
                // A shadow rule is recorded apart, so resolution never sees it.
                let recorded = if shadowed {
                    &mut shadow
                } else {
                    &mut evaluations
                };
                // A `set` rule matched too: docs/cli.md lists every rule that matched.
                recorded.push(Evaluation {
                    rule: rule.id.clone(),
                    verb,
                    stop_reason,
                    message,
                    file: rule.origin.as_ref().map(|origin| origin.file.clone()),
                    line: rule.origin.as_ref().map(|origin| origin.line),
                    priority: rule.priority,
                    undecided: matched_undecided,
                });
            });
        evaluations.extend(hooks.iter().filter_map(|hook| evaluate_hook(*hook, event)));
        sort_evaluations(&mut evaluations);
        sort_evaluations(&mut shadow);
        for evaluation in &evaluations {
            debug!(
                target: "rulesc::decision",
                event = event.kind.name(),
                rule = evaluation.rule.as_str(),
                verb = evaluation.verb.name(),
                stop_reason = evaluation.stop_reason.map(StopReason::name),
                rule_message = evaluation.message.as_deref(),
                "matched"
            );
        }
        let defaults = match self.shadow {
            Shadow::All => &NO_DEFAULTS,
            Shadow::None | Shadow::Rules(_) => &self.shared.defaults,
        };
        let resolution = resolve_event(event, &evaluations, defaults, limits);

        // Effects apply after every condition was evaluated (docs/language.md §4.3).
        order_effects(&mut effects, |(rule, _, _)| {
            (rule.priority, rule.id.as_str())
        });
        // Most events set nothing: skip the copy of the metadata and the collection then,
        // which cost more than the rest of an unmatched evaluation.
        let (metadata, effects) = if effects.is_empty() {
            let metadata = if event.metadata.is_empty() {
                Map::new()
            } else {
                event.metadata.clone()
            };
            (metadata, Vec::new())
        } else {
            let mut metadata = event.metadata.clone();
            let effects = effects
                .into_iter()
                .map(|(rule, key, value)| {
                    set_metadata(&mut metadata, key, value.clone());
                    EffectRecord {
                        rule: rule.id.clone(),
                        key: dotted(key),
                        value,
                    }
                })
                .collect();
            (metadata, effects)
        };

        Outcome {
            event: event.kind,
            resolution,
            evaluations,
            shadow,
            effects,
            metadata,
        }
    }
}

/// How [`Policy::evaluate_with`] evaluates an event beyond the event itself
///
/// Each option borrows what it reads or changes for the one evaluation; the default is an
/// event alone, as [`Policy::evaluate`] evaluates it.
#[derive(Default)]
pub struct EvalOptions<'run> {
    trace: Option<&'run mut TraceState>,
    hooks: &'run [&'run dyn NativeHook],
    metadata: Option<&'run mut Map<String, Json>>,
    limits: Option<&'run Limits>,
}

impl<'run> EvalOptions<'run> {
    /// The event is the next of a run whose trace so far is `trace`, which it is added to
    ///
    /// `count(...)`, `seen(...)`, `streak(...)` and `same_call_count` read the run through
    /// it (docs/trace.md); without it they see a run of this one event.
    #[must_use]
    pub fn trace(self, trace: &'run mut TraceState) -> EvalOptions<'run> {
        EvalOptions {
            trace: Some(trace),
            ..self
        }
    }

    /// Native hooks vote alongside the rules
    ///
    /// Their order never changes the outcome. A hook whose verb is not allowed on the event
    /// is left out, with a warning under the `rulesc::hook` tracing target.
    #[must_use]
    pub fn hooks(self, hooks: &'run [&'run dyn NativeHook]) -> EvalOptions<'run> {
        EvalOptions { hooks, ..self }
    }

    /// The event carries over what the previous outcome left, as `rulesc eval` reads a
    /// stream and `rulesc replay` a recorded session
    ///
    /// The event starts from `metadata`, with its own `metadata` keys laid over it at the
    /// top level, and from the run's prompt when it has none of its own; `metadata` then
    /// holds what this outcome leaves. The event is copied to carry them.
    #[must_use]
    pub fn carry_metadata(self, metadata: &'run mut Map<String, Json>) -> EvalOptions<'run> {
        EvalOptions {
            metadata: Some(metadata),
            ..self
        }
    }

    /// The host limits `limits` rather than the policy's own: what [`Policy::with_limits`]
    /// gives, without a copy of the policy per event
    #[must_use]
    pub(crate) fn limits(self, limits: &'run Limits) -> EvalOptions<'run> {
        EvalOptions {
            limits: Some(limits),
            ..self
        }
    }
}

impl std::fmt::Debug for EvalOptions<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hooks: Vec<&str> = self.hooks.iter().map(|hook| hook.id()).collect();
        formatter
            .debug_struct("EvalOptions")
            .field("trace", &self.trace)
            .field("hooks", &hooks)
            .field("metadata", &self.metadata)
            .field("limits", &self.limits)
            .finish()
    }
}

/// The defaults of a policy whose own are in shadow mode
const NO_DEFAULTS: Defaults = Defaults {
    pre_tool_use: None,
    on_error: None,
};

/// The evaluation a hook contributes, if it fires on this event with an allowed verb
fn evaluate_hook(hook: &dyn NativeHook, event: &Event) -> Option<Evaluation> {
    if !hook.events().contains(&event.kind) {
        return None;
    }
    let decision = hook.evaluate(event)?;
    if !event.kind.allows(decision.verb) {
        warn!(
            target: "rulesc::hook",
            hook = hook.id(),
            verb = decision.verb.name(),
            event = event.kind.name(),
            "native hook decision ignored: verb not allowed on this event"
        );
        return None;
    }
    Some(Evaluation {
        rule: hook.id().to_owned(),
        verb: Act::Decide(decision.verb),
        stop_reason: stop_reason_of(decision.verb, decision.stop_reason),
        message: decision.message,
        file: None,
        line: None,
        priority: hook.priority(),
        undecided: false,
    })
}

/// Checks that each default is a verb its event allows (docs/language.md §5.4)
fn check_defaults(defaults: &Defaults) -> Result<(), PolicyError> {
    for (event, verb) in defaults.declared() {
        let allowed = Defaults::verbs_for(event).unwrap_or_default();
        if !allowed.contains(&verb) {
            return Err(PolicyError::DefaultNotAllowed { event, verb });
        }
    }
    Ok(())
}

/// Stores `value` at `key`, creating objects along the way; a non-object in the way is
/// replaced by an object
fn set_metadata(metadata: &mut Map<String, Json>, key: &FieldPath, value: Json) {
    let mut keys = key.segments.iter().filter_map(|segment| match segment {
        PathSegment::Key(key) => Some(key.as_str()),
        PathSegment::Index(_) => None,
    });
    let Some(first) = keys.next() else {
        return;
    };
    let mut slot = metadata.entry(first.to_owned()).or_insert(Json::Null);
    for key in keys {
        if !slot.is_object() {
            *slot = Json::Object(Map::new());
        }
        let Json::Object(object) = slot else {
            return;
        };
        slot = object.entry(key.to_owned()).or_insert(Json::Null);
    }
    *slot = value;
}

/// `a.b` for the path `.a.b`
fn dotted(key: &FieldPath) -> String {
    let text = key.to_string();
    text.strip_prefix('.')
        .map_or_else(|| text.clone(), str::to_owned)
}

/// Whether a rule with `condition` passes whatever its shell conditions leave undecided on
/// `line`: it says `@undecidable(pass)`, and all that may be undecided is in a line that
/// was read (an unreadable line, input or output fires even such a rule). Asked before the
/// condition is evaluated again as undecidable, which may compile every pattern it holds.
fn passes_read_line(
    condition: &Condition,
    event: &Event,
    line: &CommandLine<'_>,
    output_unknown: bool,
) -> bool {
    !output_unknown
        && !event.arg_unreadable
        && line.was_read()
        && shell_undecidable(condition) == Some(OnUndecidable::Pass)
}

/// What a shell condition of `condition` says a rule does when it cannot be decided
fn shell_undecidable(condition: &Condition) -> Option<OnUndecidable> {
    match condition {
        Condition::Shell { on_undecidable, .. } => *on_undecidable,
        Condition::All(parts) | Condition::Any(parts) => parts.iter().find_map(shell_undecidable),
        Condition::Not(part) => shell_undecidable(part),
        _ => None,
    }
}

/// The verb and message of a guard whose shell condition could not be decided: on a line
/// that cannot be read, the rule's verb with the reason; on one whose value is only known
/// at run time, `ask` (or the rule's verb, where its events take no `ask`, or where
/// `@undecidable(block)` says so), naming what could not be known
fn undecided_decision(
    rule: &Rule,
    verb: Verb,
    message: Option<&str>,
    why: Undecided,
    choice: Option<OnUndecidable>,
) -> (Verb, String) {
    let asks = rule.events.iter().all(|kind| kind.allows(Verb::Ask));
    let undecided_verb = match choice {
        Some(OnUndecidable::Block) => verb,
        _ if asks => Verb::Ask,
        _ => verb,
    };
    match why {
        Undecided::Unreadable(reason) => (verb, reason),
        Undecided::Hidden(why) => (
            undecided_verb,
            format!("cannot tell before it runs what this command does: {why}"),
        ),
        Undecided::RunTime(why) => {
            let message = match message {
                Some(message) => format!("cannot tell before it runs ({why}): {message}"),
                None => format!("cannot tell before it runs ({why})"),
            };
            (undecided_verb, message)
        }
    }
}
