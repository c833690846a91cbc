//! The rule index decides exactly as the straightforward evaluation: every rule of the event's
//! kind tested one by one.
//!
//! The reference is the model of `tests/model/`, written from the contract and sharing no
//! evaluation code with the runtime: it tests every rule one by one, resolves and applies
//! effects its own way, and its outcome JSON is what the indexed policy must give, to the
//! deciding rule. Random policies lean on
//! what the index keys on (string equality, `in`, literal, prefix, suffix, infix and general globs,
//! thresholds written either way round) and mix in what it does not (`or`, `not`, regexes),
//! with values that sit on every edge (empty strings, newlines, multi-byte characters, a
//! bound plus or minus one). Cases default to 256; `PROPTEST_CASES=10000` runs more.

#![expect(
    clippy::expect_used,
    reason = "helpers of tests: a bad fixture fails the test"
)]

use crate::model;

use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use rulesc_runtime::{
    Action, CompareOp, Condition, Decision, Defaults, ErrorInfo, Event, EventKind, Field,
    GlobPattern, Literal, Operand, Origin, Outcome, Policy, RegexPattern, Rule, Verb,
};
use serde_json::{json, Map};

use crate::common::{arg, cmp, decide, event, op, path, policy, s, when};

/// What the reference model (`tests/model/`, written from the contract, no index) says
/// `policy` gives for `event`, and what the runtime gives, as outcome JSON
fn model_and_runtime(policy: &Policy, event: &Event) -> (serde_json::Value, serde_json::Value) {
    let setting = model::Setting::of(policy.defaults(), policy.limits());
    let expected = model::outcome(policy.user_rules(), &setting, event);
    let actual = serde_json::to_value(policy.evaluate(event)).expect("outcomes serialize");
    (expected, actual)
}

fn assert_agrees(policy: &Policy, event: &Event) {
    let (expected, actual) = model_and_runtime(policy, event);
    assert_eq!(actual, expected, "{event:?}");
}

const TEXTS: [&str; 15] = [
    "",
    "bash",
    "BASH",
    "Mcp__FS__Read",
    "É.ENV",
    "bash_x",
    "rm -rf /",
    "rm\n-rf",
    "a.env",
    "é.env",
    ".env",
    "mcp__fs__read",
    "mcp__git",
    "x/y/z",
    "tool7_run",
];

const GLOBS: [&str; 25] = [
    "bash",
    "Bash*",
    "*.ENV",
    "[A-C]ash",
    "bash*",
    "rm*",
    "rm**",
    "*",
    "*.env",
    "*env",
    "mcp__*",
    "mcp__*__read",
    "*__*",
    "?ash",
    "[br]*",
    r"\*x",
    "a*b*c",
    "*/z",
    "x/*",
    "tool7_*",
    "é*",
    "*rf*",
    "*a*",
    "*as*",
    "*é*",
];

fn text_field() -> impl Strategy<Value = Field> {
    select(vec![Field::Tool, Field::ErrorKind, arg("command")])
}

fn counter_field() -> impl Strategy<Value = Field> {
    select(vec![
        Field::Steps,
        Field::Tokens,
        Field::Elapsed,
        Field::ToolCalls,
        Field::StopRequests,
        arg("n"),
    ])
}

fn number() -> impl Strategy<Value = Literal> {
    prop_oneof![
        (-1_i64..8).prop_map(Literal::Int),
        (0_u64..8).prop_map(Literal::Duration),
    ]
}

fn text() -> impl Strategy<Value = Literal> {
    prop_oneof![
        4 => select(TEXTS.to_vec()).prop_map(s),
        1 => Just(s("timeout")),
    ]
}

/// `field op literal`, or `literal op field`
fn compare(field: Field, op: CompareOp, literal: Literal, flipped: bool) -> Condition {
    let (left, right) = (Operand::Field(field), Operand::Literal(literal));
    let (left, right) = if flipped {
        (right, left)
    } else {
        (left, right)
    };
    Condition::Compare { left, op, right }
}

fn leaf() -> impl Strategy<Value = Condition> {
    prop_oneof![
        3 => (text_field(), select(vec![CompareOp::Eq, CompareOp::Ne, CompareOp::EqIgnoringCase, CompareOp::NeIgnoringCase]), text(), any::<bool>())
            .prop_map(|(field, op, literal, flipped)| compare(field, op, literal, flipped)),
        3 => (counter_field(), op(), number(), any::<bool>())
            .prop_map(|(field, op, literal, flipped)| compare(field, op, literal, flipped)),
        1 => (text_field(), op(), number())
            .prop_map(|(field, op, literal)| compare(field, op, literal, false)),
        2 => (text_field(), prop::collection::vec(prop_oneof![4 => text(), 1 => number()], 0..4))
            .prop_map(|(field, list)| Condition::In { field, list }),
        4 => (text_field(), select(GLOBS.to_vec())).prop_map(|(field, pattern)| {
            Condition::Glob {
                field,
                pattern: GlobPattern::new(pattern).expect("test glob is valid"),
            }
        }),
        2 => (text_field(), select(GLOBS.to_vec())).prop_map(|(field, pattern)| {
            Condition::Glob {
                field,
                pattern: GlobPattern::ignoring_case(pattern).expect("test glob is valid"),
            }
        }),
        1 => (text_field(), select(vec!["sh", "^rm", "env$"])).prop_map(|(field, pattern)| {
            Condition::Regex {
                field,
                pattern: RegexPattern::new(pattern).expect("test regex is valid"),
            }
        }),
        1 => Just(Condition::Flag(Field::ToolError)),
    ]
}

fn condition() -> impl Strategy<Value = Condition> {
    leaf().prop_recursive(3, 10, 3, |inner| {
        prop_oneof![
            3 => prop::collection::vec(inner.clone(), 1..4).prop_map(Condition::All),
            1 => prop::collection::vec(inner.clone(), 1..3).prop_map(Condition::Any),
            1 => inner.prop_map(|part| Condition::Not(Box::new(part))),
        ]
    })
}

/// The events drawn: the ones that carry tools, errors, counters and stops
const KINDS: [EventKind; 6] = [
    EventKind::PreToolUse,
    EventKind::PostToolUse,
    EventKind::OnError,
    EventKind::BeforeStep,
    EventKind::AfterStep,
    EventKind::Stop,
];

fn action() -> impl Strategy<Value = (Vec<EventKind>, Action)> {
    let decide = select(Verb::ALL.to_vec()).prop_flat_map(|verb| {
        let allowed: Vec<EventKind> = KINDS.into_iter().filter(|kind| kind.allows(verb)).collect();
        let n_allowed = allowed.len();
        (
            subsequence(allowed, 1..=n_allowed),
            select(vec!["m1", "m2"]),
        )
            .prop_map(move |(events, message)| {
                let action = Action::Decide {
                    verb,
                    stop_reason: None,
                    message: Some(message.to_owned()),
                };
                (events, action)
            })
    });
    let set = (
        subsequence(KINDS.to_vec(), 1..=2),
        select(vec!["a", "b.c"]),
        0_i64..3,
    )
        .prop_map(|(events, key, value)| {
            let action = Action::Set {
                key: path(key),
                value: Literal::Int(value),
            };
            (events, action)
        });
    prop_oneof![4 => decide, 1 => set]
}

fn rules() -> impl Strategy<Value = Vec<Rule>> {
    let rule = (action(), prop::option::of(condition()), 0_i64..2);
    prop::collection::vec(rule, 0..24).prop_map(|rules| {
        rules
            .into_iter()
            .enumerate()
            .map(|(rule_idx, ((events, action), condition, priority))| Rule {
                id: format!("r{rule_idx}"),
                events,
                condition,
                action,
                priority,
                origin: Some(Origin {
                    file: "p.rules".to_owned(),
                    line: u32::try_from(rule_idx).expect("few rules") + 1,
                    column: 1,
                }),
            })
            .collect()
    })
}

fn events() -> impl Strategy<Value = Event> {
    let tool = prop::option::weighted(0.9, select(TEXTS.to_vec()));
    let command = prop_oneof![
        select(TEXTS.to_vec()).prop_map(|text| Some(json!({ "command": text, "n": 3 }))),
        Just(Some(json!({ "command": 3, "n": 2.5 }))),
        Just(None),
    ];
    let error = prop::option::weighted(0.5, select(vec!["tool", "timeout", "bash"]));
    let counters = (0_u64..8, 0_u64..8, 0_u64..8);
    let optional_counters = (prop::option::of(0_u64..3), prop::option::of(0_u64..3));
    (
        select(KINDS.to_vec()),
        tool,
        command,
        error,
        counters,
        optional_counters,
        prop::option::of(any::<bool>()),
    )
        .prop_map(|(kind, tool, arg, error, counters, optional, tool_error)| {
            let mut event = Event::new(kind);
            event.tool = tool.map(str::to_owned);
            event.arg = arg;
            event.error = error.map(|kind| ErrorInfo {
                kind: kind.to_owned(),
                message: String::new(),
            });
            (event.steps, event.tokens, event.elapsed_ms) = counters;
            (event.tool_calls, event.stop_requests) = optional;
            event.tool_error = tool_error;
            event
        })
}

proptest! {
    #[test]
    fn indexed_evaluation_agrees_with_the_reference(
        rules in rules(),
        pre_tool_use in prop::option::of(select(vec![Verb::Allow, Verb::Ask, Verb::Block])),
        events in prop::collection::vec(events(), 1..12),
    ) {
        let defaults = Defaults { pre_tool_use, on_error: None };
        let policy = Policy::new(rules, defaults).expect("generated policy is valid");
        for event in &events {
            let (expected, actual) = model_and_runtime(&policy, event);
            prop_assert_eq!(actual, expected);
        }
    }
}

/// `on pre_tool_use when <condition> block`, with id `id`
fn block_when(id: &str, condition: Condition) -> Rule {
    when(decide(id, &[EventKind::PreToolUse], Verb::Block), condition)
}

fn glob(field: Field, pattern: &str) -> Condition {
    Condition::Glob {
        field,
        pattern: GlobPattern::new(pattern).expect("test glob is valid"),
    }
}

fn tool_event(tool: &str) -> Event {
    event(EventKind::PreToolUse, json!({ "tool": tool }))
}

/// The ids of the rules whose decision matched
fn deciders(outcome: &Outcome) -> Vec<&str> {
    outcome
        .evaluations
        .iter()
        .map(|evaluation| evaluation.rule.as_str())
        .collect()
}

#[test]
fn many_prefix_globs_find_exactly_the_rule_that_matches() {
    let rules = (0..1000)
        .map(|idx| {
            block_when(
                &format!("r{idx}"),
                glob(Field::Tool, &format!("tool{idx}_*")),
            )
        })
        .collect();
    let policy = policy(rules);
    let outcome = policy.evaluate(&tool_event("tool42_run"));
    assert_eq!(deciders(&outcome), ["r42"]);
    assert_eq!(outcome.resolution.decision, Decision::Block);
    assert!(deciders(&policy.evaluate(&tool_event("tool1000_run"))).is_empty());
    // A prefix that other prefixes extend (`tool4_` and `tool42_`) still matches alone.
    assert_eq!(deciders(&policy.evaluate(&tool_event("tool4_"))), ["r4"]);
}

#[test]
fn every_key_kind_finds_its_rules_and_only_them() {
    let rules = vec![
        block_when("exact", cmp(Field::Tool, CompareOp::Eq, s("bash"))),
        block_when(
            "listed",
            Condition::In {
                field: Field::Tool,
                list: vec![s("bash"), s("sh"), s("bash")],
            },
        ),
        block_when("literal-glob", glob(Field::Tool, "bash")),
        block_when("prefix", glob(Field::Tool, "ba*")),
        block_when("suffix", glob(Field::Tool, "*sh")),
        block_when("general", glob(Field::Tool, "b?s*")),
        block_when("any", glob(Field::Tool, "*")),
        block_when(
            "residual",
            Condition::All(vec![glob(Field::Tool, "ba*"), glob(arg("command"), "rm*")]),
        ),
        block_when("steps", cmp(Field::Steps, CompareOp::Ge, Literal::Int(3))),
        block_when(
            "elapsed",
            Condition::Compare {
                left: Operand::Literal(Literal::Duration(1000)),
                op: CompareOp::Gt,
                right: Operand::Field(Field::Elapsed),
            },
        ),
    ];
    let policy = policy(rules);

    let bash = event(
        EventKind::PreToolUse,
        json!({ "tool": "bash", "arg": { "command": "ls" }, "steps": 3, "elapsed_ms": 1000 }),
    );
    assert_eq!(
        deciders(&policy.evaluate(&bash)),
        [
            "any",
            "exact",
            "general",
            "listed",
            "literal-glob",
            "prefix",
            "steps",
            "suffix"
        ]
    );
    let zsh = event(
        EventKind::PreToolUse,
        json!({ "tool": "zsh", "arg": { "command": "rm x" }, "steps": 2, "elapsed_ms": 999 }),
    );
    assert_eq!(
        deciders(&policy.evaluate(&zsh)),
        ["any", "elapsed", "suffix"]
    );
    let bare = event(
        EventKind::PreToolUse,
        json!({ "tool": "bash", "arg": { "command": "rm x" } }),
    );
    assert!(deciders(&policy.evaluate(&bare)).contains(&"residual"));
    for event in [bash, zsh, bare] {
        assert_agrees(&policy, &event);
    }
}

#[test]
fn thresholds_find_the_rules_whose_bound_is_passed() {
    let rules = (1..=100)
        .map(|bound| {
            when(
                decide(
                    &format!("s{bound:03}"),
                    &[EventKind::BeforeStep],
                    Verb::Forbid,
                ),
                cmp(Field::Steps, CompareOp::Ge, Literal::Int(bound * 10)),
            )
        })
        .collect();
    let policy = policy(rules);
    let at = |steps: u64| {
        let outcome = policy.evaluate(&event(EventKind::BeforeStep, json!({ "steps": steps })));
        deciders(&outcome).len()
    };
    assert_eq!(at(9), 0);
    assert_eq!(at(10), 1);
    assert_eq!(at(19), 1);
    assert_eq!(at(20), 2);
    assert_eq!(at(1000), 100);
    assert_eq!(at(u64::MAX), 100);
}

#[test]
fn a_rule_on_several_events_is_found_on_each() {
    let rule = when(
        decide(
            "both",
            &[EventKind::PreToolUse, EventKind::PostToolUse],
            Verb::Forbid,
        ),
        glob(Field::Tool, "rm*"),
    );
    let policy = policy(vec![rule]);
    for kind in [EventKind::PreToolUse, EventKind::PostToolUse] {
        let outcome = policy.evaluate(&event(kind, json!({ "tool": "rm -rf /" })));
        assert_eq!(deciders(&outcome), ["both"]);
    }
    let other = event(EventKind::OnError, json!({ "tool": "rm -rf /" }));
    assert!(policy.evaluate(&other).evaluations.is_empty());
}

#[test]
fn set_rules_found_through_the_index_apply_their_effects() {
    let mut rule = when(
        decide("taint", &[EventKind::PostToolUse], Verb::Allow),
        glob(Field::Tool, "web_*"),
    );
    rule.action = Action::Set {
        key: path("tainted"),
        value: Literal::Bool(true),
    };
    let policy = policy(vec![rule]);
    let outcome = policy.evaluate(&event(
        EventKind::PostToolUse,
        json!({ "tool": "web_fetch" }),
    ));
    let mut expected = Map::new();
    expected.insert("tainted".to_owned(), json!(true));
    assert_eq!(outcome.metadata, expected);
    let outcome = policy.evaluate(&event(EventKind::PostToolUse, json!({ "tool": "bash" })));
    assert!(outcome.metadata.is_empty());
}
