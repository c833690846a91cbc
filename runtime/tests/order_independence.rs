//! The core claim of docs/language.md §1 and §5, as properties over random policies and events:
//! the outcome never depends on the order of rules, of files or of native hooks; a policy
//! saved as compiled JSON decides exactly as before; a `forbid` always wins.
//!
//! Every order is held to the reference model of `tests/model/` (written from the contract,
//! no shared evaluation code), so the outcome is not only the same in every order but the
//! right one, `resolved_by` included.
//!
//! Policies are built directly from runtime types, with small value pools so that rules
//! match, tie and conflict often. A case's events are one run, so its trace functions
//! (counts, windows, streaks) see the events before each one. Cases default to 256; `PROPTEST_CASES=10000` runs more.

use crate::model;

use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use rulesc_runtime::{
    Act, Action, Arith, ArithOp, Condition, Decision, Defaults, ErrorInfo, EvalOptions, Event,
    EventKind, Field, GlobPattern, HookDecision, Limits, ListQuantifier, Literal, NativeHook,
    Operand, Origin, Outcome, Policy, RegexPattern, Rule, StopDecision, StopReason, TraceState,
    TraceTerm, TraceTest, Verb, Window,
};
use serde_json::{json, Map, Value as Json};

use crate::common::{arg, metadata, op, path};

fn literal() -> impl Strategy<Value = Literal> {
    prop_oneof![
        (0_i64..4).prop_map(Literal::Int),
        select(vec!["bash", "rm", "tool", "a", "tool_blocked"])
            .prop_map(|s| Literal::Str(s.into())),
        any::<bool>().prop_map(Literal::Bool),
        select(vec![0_u64, 1000, 2000]).prop_map(Literal::Duration),
    ]
}

fn field() -> impl Strategy<Value = Field> {
    select(vec![
        Field::Steps,
        Field::Retries,
        Field::Elapsed,
        Field::Tool,
        Field::ToolCalls,
        Field::StopRequests,
        Field::StopDecision,
        Field::ErrorKind,
        Field::Blocked,
        arg("command"),
        arg("n"),
        metadata("a"),
        metadata("tainted"),
    ])
}

#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: a bad fixture fails the test"
)]
fn leaf() -> impl Strategy<Value = Condition> {
    prop_oneof![
        (field(), op(), literal()).prop_map(|(field, op, literal)| Condition::Compare {
            left: Operand::Field(field),
            op,
            right: Operand::Literal(literal),
        }),
        (field(), op(), field()).prop_map(|(left, op, right)| Condition::Compare {
            left: Operand::Field(left),
            op,
            right: Operand::Field(right),
        }),
        (field(), select(vec!["*", "rm*", "b?sh", "[!r]*"])).prop_map(|(field, pattern)| {
            Condition::Glob {
                field,
                pattern: GlobPattern::new(pattern).unwrap(),
            }
        }),
        (field(), select(vec!["a", "^r", "sh$"])).prop_map(|(field, pattern)| {
            Condition::Regex {
                field,
                pattern: RegexPattern::new(pattern).unwrap(),
            }
        }),
        (field(), prop::collection::vec(literal(), 0..3))
            .prop_map(|(field, list)| Condition::In { field, list }),
        (field(), literal()).prop_map(|(field, needle)| Condition::Contains { field, needle }),
        field().prop_map(Condition::Flag),
        (arith(), op(), literal()).prop_map(|(left, op, literal)| Condition::Compare {
            left,
            op,
            right: Operand::Literal(literal),
        }),
        (
            select(vec![ListQuantifier::Any, ListQuantifier::All]),
            field(),
            op(),
            literal()
        )
            .prop_map(|(quantifier, field, op, literal)| Condition::Quantified {
                quantifier,
                condition: Box::new(Condition::Compare {
                    left: Operand::Field(field),
                    op,
                    right: Operand::Literal(literal),
                }),
            }),
        (trace_term(), op(), 0_u64..4).prop_map(|(term, op, bound)| Condition::Trace(Box::new(
            TraceTest::new(term, op, bound)
        ))),
    ]
}

/// A count or a streak of past events, with or without a condition and a window; its
/// condition reads one event, so it holds no trace function
fn trace_term() -> impl Strategy<Value = TraceTerm> {
    let kind = select(vec![
        EventKind::PreToolUse,
        EventKind::PostToolUse,
        EventKind::BeforeStep,
        EventKind::OnError,
    ]);
    let when = || {
        prop::option::of((field(), op(), literal()).prop_map(|(field, op, literal)| {
            Box::new(Condition::Compare {
                left: Operand::Field(field),
                op,
                right: Operand::Literal(literal),
            })
        }))
    };
    let within = prop::option::of(prop_oneof![
        (1_u64..4).prop_map(Window::Steps),
        (1_u64..2_000).prop_map(Window::Millis),
    ]);
    prop_oneof![
        (kind.clone(), when(), within).prop_map(|(event, when, within)| TraceTerm::Count {
            event,
            when,
            within
        }),
        (kind, when()).prop_map(|(event, when)| TraceTerm::Streak { event, when }),
    ]
}

/// Arithmetic over fields and literals, a few levels deep
fn arith() -> impl Strategy<Value = Operand> {
    let leaf = prop_oneof![
        field().prop_map(Operand::Field),
        literal().prop_map(Operand::Literal)
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        (
            inner.clone(),
            select(vec![ArithOp::Add, ArithOp::Sub, ArithOp::Mul, ArithOp::Div]),
            inner,
        )
            .prop_map(|(left, op, right)| Operand::Arith(Box::new(Arith { left, op, right })))
    })
}

fn condition() -> impl Strategy<Value = Condition> {
    leaf().prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Condition::All),
            prop::collection::vec(inner.clone(), 0..3).prop_map(Condition::Any),
            inner.prop_map(|part| Condition::Not(Box::new(part))),
        ]
    })
}

fn decision_action() -> impl Strategy<Value = (Vec<EventKind>, Action)> {
    select(Verb::ALL.to_vec()).prop_flat_map(|verb| {
        let allowed = verb.allowed_events();
        let n_allowed = allowed.len();
        let stop_reason = if verb.takes_stop_reason() {
            prop::option::of(select(StopReason::ALL.to_vec())).boxed()
        } else {
            Just(None).boxed()
        };
        (
            subsequence(allowed, 1..=n_allowed),
            stop_reason,
            prop::option::of(select(vec!["m1", "m2"])),
        )
            .prop_map(move |(events, stop_reason, message)| {
                let message = message.map(str::to_owned);
                (
                    events,
                    Action::Decide {
                        verb,
                        stop_reason,
                        message,
                    },
                )
            })
    })
}

fn set_action() -> impl Strategy<Value = (Vec<EventKind>, Action)> {
    (
        subsequence(EventKind::ALL.to_vec(), 1..=EventKind::ALL.len()),
        select(vec!["a", "b", "a.x", "tainted"]),
        prop::option::of(arith()),
        literal(),
    )
        .prop_map(|(events, key, computed, value)| {
            let key = path(key);
            let action = match computed {
                Some(value) => Action::Compute { key, value },
                None => Action::Set { key, value },
            };
            (events, action)
        })
}

/// Rules with unique ids whose byte order differs from their position
fn rules() -> impl Strategy<Value = Vec<Rule>> {
    let rule = (
        prop_oneof![3 => decision_action(), 1 => set_action()],
        prop::option::of(condition()),
        -1_i64..=1,
        select(vec!["b", "a", "p.rules:1", "z"]),
    );
    prop::collection::vec(rule, 0..10).prop_map(|rules| {
        rules
            .into_iter()
            .enumerate()
            .map(
                |(rule_idx, ((events, action), condition, priority, tag))| Rule {
                    id: format!("{tag}{rule_idx}"),
                    events,
                    condition,
                    action,
                    priority,
                    origin: None,
                },
            )
            .collect()
    })
}

fn defaults() -> impl Strategy<Value = Defaults> {
    (
        prop::option::of(select(vec![Verb::Allow, Verb::Ask, Verb::Block])),
        prop::option::of(select(vec![Verb::Forbid, Verb::Retry, Verb::Ignore])),
    )
        .prop_map(|(pre_tool_use, on_error)| Defaults {
            pre_tool_use,
            on_error,
        })
}

fn limits() -> impl Strategy<Value = Limits> {
    (0_u64..4, 0_u64..4).prop_map(|(max_retries, max_stop_requests)| Limits {
        max_steps: 100,
        max_retries,
        max_stop_requests,
    })
}

fn json_value() -> impl Strategy<Value = Json> {
    prop_oneof![
        (0_i64..4).prop_map(Json::from),
        Just(json!(2.5)),
        select(vec!["bash", "rm -rf", "a"]).prop_map(Json::from),
        any::<bool>().prop_map(Json::from),
        Just(json!(["rm", 1])),
        Just(json!({"x": 1})),
    ]
}

fn event() -> impl Strategy<Value = Event> {
    (
        select(EventKind::ALL.to_vec()),
        (0_u64..4, 0_u64..5, select(vec![0_u64, 1000, 5000])),
        prop::option::of(select(vec!["bash", "rm", "read"])),
        prop::option::of(0_u64..3),
        prop::option::of((json_value(), json_value())),
        prop::collection::btree_map(select(vec!["a", "b", "tainted"]), json_value(), 0..3),
        prop::option::of(select(vec!["tool", "tool_blocked", "model"])),
        (
            prop::option::of(select(vec![StopDecision::AllowStop, StopDecision::Forbid])),
            prop::option::of(select(StopReason::ALL.to_vec())),
            prop::option::of(0_u64..5),
            prop::option::of(any::<bool>()),
        ),
    )
        .prop_map(
            |(kind, (steps, retries, elapsed_ms), tool, tool_calls, arg, meta, error, stop)| {
                let mut event = Event::new(kind);
                event.steps = steps;
                event.step = steps + 1;
                event.retries = retries;
                event.elapsed_ms = elapsed_ms;
                event.tool = tool.map(str::to_owned);
                event.tool_calls = tool_calls;
                event.arg = arg.map(|(command, n)| json!({"command": command, "n": n}));
                event.metadata = meta
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect::<Map<_, _>>();
                event.error = error.map(|kind| ErrorInfo {
                    kind: kind.to_owned(),
                    message: String::new(),
                });
                (
                    event.stop_decision,
                    event.stop_reason,
                    event.stop_requests,
                    event.blocked,
                ) = stop;
                event
            },
        )
}

/// A native hook with a fixed answer, fired when the tool matches (or always)
#[derive(Debug, Clone)]
struct TestHook {
    id: String,
    events: Vec<EventKind>,
    priority: i64,
    decision: HookDecision,
    only_tool: Option<&'static str>,
}

impl NativeHook for TestHook {
    fn id(&self) -> &str {
        &self.id
    }
    fn events(&self) -> &[EventKind] {
        &self.events
    }
    fn priority(&self) -> i64 {
        self.priority
    }
    fn evaluate(&self, event: &Event) -> Option<HookDecision> {
        match self.only_tool {
            Some(tool) if event.tool.as_deref() != Some(tool) => None,
            _ => Some(self.decision.clone()),
        }
    }
}

/// Hooks with unique ids; their verbs are any verb, so some are invalid on their events
fn hooks() -> impl Strategy<Value = Vec<TestHook>> {
    let hook = (
        subsequence(EventKind::ALL.to_vec(), 1..=EventKind::ALL.len()),
        -1_i64..=1,
        select(Verb::ALL.to_vec()),
        prop::option::of(select(StopReason::ALL.to_vec())),
        prop::option::of(select(vec!["h1", "h2"])),
        prop::option::of(select(vec!["bash", "rm"])),
    );
    prop::collection::vec(hook, 0..4).prop_map(|hooks| {
        hooks
            .into_iter()
            .enumerate()
            .map(
                |(hook_idx, (events, priority, verb, stop_reason, message, only_tool))| TestHook {
                    id: format!("host:{}", hook_idx * 7 % 5),
                    events,
                    priority,
                    decision: HookDecision {
                        verb,
                        stop_reason,
                        message: message.map(str::to_owned),
                    },
                    only_tool,
                },
            )
            .collect()
    })
}

/// The hooks as the rules they stand for: a hook votes like a rule with its id, priority
/// and decision, on the events whose verbs allow its decision, when its tool matches
fn hook_rules(hooks: &[TestHook]) -> Vec<Rule> {
    hooks
        .iter()
        .map(|hook| {
            let verb = hook.decision.verb;
            let takes_reason = matches!(verb, Verb::Forbid | Verb::AllowStop);
            Rule {
                id: hook.id.clone(),
                events: hook
                    .events
                    .iter()
                    .copied()
                    .filter(|kind| model::gen::verbs_on(*kind).contains(&verb.name()))
                    .collect(),
                condition: hook.only_tool.map(|tool| Condition::Compare {
                    left: Operand::Field(Field::Tool),
                    op: rulesc_runtime::CompareOp::Eq,
                    right: Operand::Literal(Literal::Str(tool.to_owned())),
                }),
                action: Action::Decide {
                    verb,
                    stop_reason: hook.decision.stop_reason.filter(|_| takes_reason),
                    message: hook.decision.message.clone(),
                },
                priority: hook.priority,
                origin: None,
            }
        })
        .collect()
}

/// What the reference model (`tests/model/`) says each event gives, as outcome JSON
fn expected(
    rules: &[Rule],
    defaults: &Defaults,
    limits: &Limits,
    events: &[Event],
    hooks: &[TestHook],
) -> Vec<Json> {
    let setting = model::Setting::of(defaults, limits);
    let mut all = rules.to_vec();
    all.extend(hook_rules(hooks));
    model_run(&all, &setting, events)
}

/// The model's outcomes of `events` as one run: each sees the events before it and the
/// content labelled before it
fn model_run(rules: &[Rule], setting: &model::Setting, events: &[Event]) -> Vec<Json> {
    let mut labels = Vec::new();
    (1..=events.len())
        .filter_map(|len| {
            let history = events.get(..len)?;
            let event = history.last()?;
            let run = model::Run {
                history,
                labels: &labels,
            };
            let outcome = model::outcome_in(rules, setting, event, &run);
            labels.extend(model::labelled(rules, &outcome, event));
            Some(outcome)
        })
        .collect()
}

#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: an outcome that cannot be written fails the test"
)]
fn as_json(outcomes: Vec<Outcome>) -> Vec<Json> {
    outcomes
        .into_iter()
        .map(|outcome| serde_json::to_value(outcome).unwrap())
        .collect()
}

fn outcomes(policy: &Policy, events: &[Event], hooks: &[TestHook]) -> Vec<Outcome> {
    let hooks: Vec<&dyn NativeHook> = hooks.iter().map(|hook| hook as &dyn NativeHook).collect();
    // One run: the trace functions see the events before each one.
    let mut trace = TraceState::default();
    events
        .iter()
        .map(|event| {
            let options = EvalOptions::default().trace(&mut trace).hooks(&hooks);
            policy.evaluate_with(event, options)
        })
        .collect()
}

#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: a bad fixture fails the test"
)]
fn build(rules: Vec<Rule>, defaults: Defaults, limits: Limits) -> Policy {
    Policy::new(rules, defaults).unwrap().with_limits(limits)
}

/// A policy, the same rules shuffled, and events to try
fn shuffled_case() -> impl Strategy<Value = (Vec<Rule>, Vec<Rule>, Defaults, Limits, Vec<Event>)> {
    (
        rules(),
        defaults(),
        limits(),
        prop::collection::vec(event(), 1..5),
    )
        .prop_flat_map(|(rules, defaults, limits, events)| {
            (
                Just(rules.clone()),
                Just(rules).prop_shuffle(),
                Just(defaults),
                Just(limits),
                Just(events),
            )
        })
}

/// `policy` written in its compact form ([`Policy::to_compact`]) and read back
#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: a policy that does not come back fails the test"
)]
fn through_compact(policy: &Policy) -> Policy {
    Policy::from_checked_compact(&policy.to_compact()).unwrap()
}

proptest! {
    #[test]
    fn shuffling_rules_never_changes_an_outcome(
        (rules, shuffled, defaults, limits, events) in shuffled_case()
    ) {
        let model = expected(&rules, &defaults, &limits, &events, &[]);
        let original = outcomes(&build(rules, defaults, limits), &events, &[]);
        let reordered = outcomes(&build(shuffled, defaults, limits), &events, &[]);
        prop_assert_eq!(as_json(original), model.clone());
        prop_assert_eq!(as_json(reordered), model);
    }

    #[test]
    fn splitting_rules_across_files_in_any_order_never_changes_an_outcome(
        (rules, defaults, limits, events, n_files, file_order) in
            (rules(), defaults(), limits(), prop::collection::vec(event(), 1..5), 1_usize..4)
                .prop_flat_map(|(rules, defaults, limits, events, n_files)| {
                    let order = Just((0..n_files).collect::<Vec<_>>()).prop_shuffle();
                    (Just(rules), Just(defaults), Just(limits), Just(events), Just(n_files), order)
                })
    ) {
        // Rule i goes to file i % n_files, keeping its place within the file, as the
        // compiler would number it.
        let files: Vec<Vec<Rule>> = (0..n_files)
            .map(|file_idx| {
                rules
                    .iter()
                    .enumerate()
                    .filter(|(rule_idx, _)| rule_idx % n_files == file_idx)
                    .map(|(rule_idx, rule)| Rule {
                        origin: Some(Origin {
                            file: format!("f{file_idx}.rules"),
                            line: u32::try_from(rule_idx).unwrap() + 1,
                            column: 1,
                        }),
                        ..rule.clone()
                    })
                    .collect()
            })
            .collect();
        let in_order: Vec<Rule> = files.iter().flatten().cloned().collect();
        let reordered: Vec<Rule> = file_order.iter().flat_map(|idx| files[*idx].clone()).collect();
        let model = expected(&in_order, &defaults, &limits, &events, &[]);
        prop_assert_eq!(as_json(outcomes(&build(in_order, defaults, limits), &events, &[])), model.clone());
        prop_assert_eq!(as_json(outcomes(&build(reordered, defaults, limits), &events, &[])), model);
    }

    #[test]
    fn interleaving_native_hooks_never_changes_an_outcome(
        ((rules, shuffled, defaults, limits, events), (hooks, shuffled_hooks)) in (
            shuffled_case(),
            hooks().prop_flat_map(|hooks| (Just(hooks.clone()), Just(hooks).prop_shuffle())),
        )
    ) {
        let model = expected(&rules, &defaults, &limits, &events, &hooks);
        let original = outcomes(&build(rules, defaults, limits), &events, &hooks);
        let reordered = outcomes(&build(shuffled, defaults, limits), &events, &shuffled_hooks);
        prop_assert_eq!(as_json(original), model.clone());
        prop_assert_eq!(as_json(reordered), model);
    }

    #[test]
    fn shadow_rules_never_change_an_outcome(
        ((rules, shuffled, defaults, limits, events), picks) in
            (shuffled_case(), prop::collection::vec(any::<bool>(), 12))
    ) {
        let shadow: Vec<String> = rules
            .iter()
            .zip(&picks)
            .filter(|(_, picked)| **picked)
            .map(|(rule, _)| rule.id.clone())
            .collect();
        let mut setting = model::Setting::of(&defaults, &limits);
        setting.shadow.clone_from(&shadow);
        let model = model_run(&rules, &setting, &events);
        let enforced: Vec<Rule> = rules.iter().filter(|rule| !shadow.contains(&rule.id)).cloned().collect();
        let policy = build(rules, defaults, limits).with_shadow_rules(shadow.clone());
        let original = outcomes(&policy, &events, &[]);
        let reordered = outcomes(&build(shuffled, defaults, limits).with_shadow_rules(shadow), &events, &[]);
        let loaded = Policy::from_json(&policy.to_json()).unwrap().with_limits(limits);
        let compact = through_compact(&policy).with_limits(limits);
        prop_assert_eq!(as_json(original.clone()), model.clone());
        prop_assert_eq!(as_json(reordered), model.clone());
        prop_assert_eq!(as_json(outcomes(&loaded, &events, &[])), model.clone());
        prop_assert_eq!(as_json(outcomes(&compact, &events, &[])), model);
        // Decisions, effects and metadata are those of the policy without its shadow rules.
        let without = outcomes(&build(enforced, defaults, limits), &events, &[]);
        for (with, without) in original.into_iter().zip(without) {
            prop_assert_eq!(Outcome { shadow: Vec::new(), ..with }, without);
        }
    }

    #[test]
    fn compiled_json_and_compact_forms_decide_every_event_identically(
        rules in rules(), defaults in defaults(), limits in limits(),
        events in prop::collection::vec(event(), 1..5),
    ) {
        let policy = build(rules, defaults, limits);
        let loaded = Policy::from_json(&policy.to_json()).unwrap().with_limits(limits);
        prop_assert_eq!(loaded.to_json(), policy.to_json());
        prop_assert_eq!(outcomes(&policy, &events, &[]), outcomes(&loaded, &events, &[]));
        // Evaluated first, so each condition is decoded when an event needs it, then whole.
        let compact = through_compact(&policy).with_limits(limits);
        prop_assert_eq!(outcomes(&policy, &events, &[]), outcomes(&compact, &events, &[]));
        prop_assert_eq!(compact.to_json(), policy.to_json());
    }

    #[test]
    fn a_forbid_among_the_evaluations_always_decides_forbid(
        rules in rules(), defaults in defaults(), limits in limits(), hooks in hooks(),
        events in prop::collection::vec(event(), 1..5),
    ) {
        let policy = build(rules, defaults, limits);
        for outcome in outcomes(&policy, &events, &hooks) {
            if outcome.evaluations.iter().any(|evaluation| evaluation.verb == Act::Decide(Verb::Forbid)) {
                prop_assert_eq!(outcome.resolution.decision, Decision::Forbid);
                let winner = outcome.evaluations.iter().find(|e| Some(&e.rule) == outcome.resolution.resolved_by.as_ref());
                prop_assert_eq!(winner.map(|e| e.verb), Some(Act::Decide(Verb::Forbid)));
            }
        }
    }

    #[test]
    fn every_outcome_keeps_the_contract_invariants(
        rules in rules(), defaults in defaults(), limits in limits(), hooks in hooks(),
        events in prop::collection::vec(event(), 1..5),
    ) {
        let policy = build(rules, defaults, limits);
        for outcome in outcomes(&policy, &events, &hooks) {
            let ids: Vec<&str> = outcome.evaluations.iter().map(|e| e.rule.as_str()).collect();
            let mut sorted = ids.clone();
            sorted.sort_unstable();
            prop_assert_eq!(&ids, &sorted);
            let stops = matches!(outcome.resolution.decision, Decision::Forbid | Decision::AllowStop);
            prop_assert_eq!(outcome.resolution.stop_reason.is_some(), stops);
            for evaluation in &outcome.evaluations {
                let verb = evaluation.verb.verb();
                prop_assert!(verb.is_none_or(|verb| outcome.event.allows(verb)));
                prop_assert_eq!(evaluation.stop_reason.is_some(), verb.is_some_and(Verb::takes_stop_reason));
            }
            match outcome.resolution.resolved_by.as_deref() {
                None | Some("default" | "host:max_retries" | "host:max_stop_requests") => {}
                Some(rule) => prop_assert!(ids.contains(&rule), "{} decided but did not match", rule),
            }
            if outcome.resolution.decision == Decision::None {
                prop_assert_eq!(outcome.resolution.resolved_by, None);
            }
        }
    }
}
