//! Arithmetic and list quantifiers at run time (docs/expressions.md): the values each
//! expression must take, worked out by hand from the document, and what a `set` of one stores.

use crate::common::*;
use rulesc_runtime::{
    Action, Arith, ArithOp, CompareOp, Condition, Defaults, EventKind, Field, GlobPattern,
    ListQuantifier, Literal, Operand, Policy, PolicyError, Verb,
};
use serde_json::{json, Value};

fn field(field: Field) -> Operand {
    Operand::Field(field)
}

fn int(value: i64) -> Operand {
    Operand::Literal(Literal::Int(value))
}

fn arith(left: Operand, op: ArithOp, right: Operand) -> Operand {
    Operand::Arith(Box::new(Arith { left, op, right }))
}

/// What `set metadata.out = <value>` stores on a `pre_tool_use` with `fields`; `None` when
/// it stores nothing
fn computed(value: Operand, fields: Value) -> Option<Value> {
    let mut rule = set("r", EventKind::PreToolUse, "out", Literal::Bool(true));
    rule.action = Action::Compute {
        key: path("out"),
        value,
    };
    let outcome = policy(vec![rule]).evaluate(&event(EventKind::PreToolUse, fields));
    outcome.metadata.get("out").cloned()
}

/// Whether `left op right` holds on a `pre_tool_use` with `fields`
fn holds(left: Operand, op: CompareOp, right: Operand, fields: Value) -> bool {
    Condition::Compare { left, op, right }.holds(&event(EventKind::PreToolUse, fields))
}

#[test]
fn operators_compute_integers_truncating_division_toward_zero() {
    let fetched = || field(metadata("fetched"));
    let fields = json!({"metadata": {"fetched": 7}});
    let cases = [
        (arith(fetched(), ArithOp::Add, int(1)), 8),
        (arith(fetched(), ArithOp::Sub, int(10)), -3),
        (arith(fetched(), ArithOp::Mul, int(2)), 14),
        (arith(fetched(), ArithOp::Div, int(2)), 3),
        (
            arith(int(0), ArithOp::Sub, arith(fetched(), ArithOp::Div, int(2))),
            -3,
        ),
        (
            arith(arith(int(0), ArithOp::Sub, fetched()), ArithOp::Div, int(2)),
            -3,
        ),
    ];
    for (value, expected) in cases {
        assert_eq!(computed(value, fields.clone()), Some(json!(expected)));
    }
}

#[test]
fn a_missing_metadata_key_is_zero_in_arithmetic_only() {
    let plus_one = arith(field(metadata("fetched")), ArithOp::Add, int(1));
    assert_eq!(computed(plus_one, json!({})), Some(json!(1)));
    // Without arithmetic the v1 reading stands: a missing key compares false.
    assert!(!holds(
        field(metadata("fetched")),
        CompareOp::Le,
        int(0),
        json!({})
    ));
    assert!(holds(
        arith(field(metadata("fetched")), ArithOp::Add, int(0)),
        CompareOp::Le,
        int(0),
        json!({})
    ));
}

#[test]
fn overflow_saturates_at_the_bounds_of_64_bits() {
    let max = || int(i64::MAX);
    assert_eq!(
        computed(arith(max(), ArithOp::Add, int(1)), json!({})),
        Some(json!(i64::MAX))
    );
    assert_eq!(
        computed(arith(max(), ArithOp::Mul, max()), json!({})),
        Some(json!(i64::MAX))
    );
    let min = arith(arith(int(0), ArithOp::Sub, max()), ArithOp::Sub, int(5));
    assert_eq!(computed(min, json!({})), Some(json!(i64::MIN)));
    // A JSON integer beyond 64 bits reads as the bound.
    let huge = json!({"metadata": {"n": u64::MAX}});
    assert_eq!(
        computed(arith(field(metadata("n")), ArithOp::Sub, int(1)), huge),
        Some(json!(i64::MAX - 1))
    );
    let min_by_minus_one = arith(
        arith(arith(int(0), ArithOp::Sub, max()), ArithOp::Sub, int(1)),
        ArithOp::Div,
        arith(int(0), ArithOp::Sub, int(1)),
    );
    assert_eq!(computed(min_by_minus_one, json!({})), Some(json!(i64::MAX)));
}

#[test]
fn no_value_makes_every_comparison_false_and_every_set_store_nothing() {
    let by_zero = || arith(int(1), ArithOp::Div, field(metadata("zero")));
    let fields = json!({"metadata": {"zero": 0, "text": "many", "float": 1.5, "null": null}});
    assert_eq!(computed(by_zero(), fields.clone()), None);
    for key in ["text", "float", "null"] {
        let value = arith(field(metadata(key)), ArithOp::Add, int(1));
        assert_eq!(computed(value.clone(), fields.clone()), None, "{key}");
        for op in [CompareOp::Eq, CompareOp::Ne, CompareOp::Lt, CompareOp::Ge] {
            assert!(!holds(value.clone(), op, int(1), fields.clone()), "{key}");
        }
    }
    // A missing `arg.*` path is no 0: only metadata is.
    let arg_value = arith(field(arg("n")), ArithOp::Add, int(1));
    assert!(!holds(
        arg_value.clone(),
        CompareOp::Ge,
        int(0),
        json!({"arg": {}})
    ));
    assert!(holds(
        arg_value,
        CompareOp::Eq,
        int(3),
        json!({"arg": {"n": 2}})
    ));
}

#[test]
fn a_set_that_stores_nothing_keeps_the_old_value() {
    let mut rule = set("r", EventKind::PreToolUse, "n", Literal::Bool(true));
    rule.action = Action::Compute {
        key: path("n"),
        value: arith(field(metadata("n")), ArithOp::Add, int(1)),
    };
    let outcome = policy(vec![rule]).evaluate(&event(
        EventKind::PreToolUse,
        json!({"metadata": {"n": "corrupt"}}),
    ));
    assert_eq!(outcome.metadata.get("n"), Some(&json!("corrupt")));
    assert!(outcome.effects.is_empty());
    assert_eq!(
        outcome.evaluations.len(),
        1,
        "the rule matched all the same"
    );
}

#[test]
fn durations_are_milliseconds() {
    let elapsed = || field(Field::Elapsed);
    let fields = json!({"elapsed_ms": 1500});
    let plus = arith(
        elapsed(),
        ArithOp::Add,
        Operand::Literal(Literal::Duration(500)),
    );
    assert!(holds(
        plus,
        CompareOp::Eq,
        Operand::Literal(Literal::Duration(2000)),
        fields.clone()
    ));
    let ratio = arith(
        elapsed(),
        ArithOp::Div,
        Operand::Literal(Literal::Duration(500)),
    );
    assert!(holds(ratio, CompareOp::Eq, int(3), fields));
}

#[test]
fn two_counters_on_one_event_read_the_metadata_from_before_it() {
    let counter = |id: &str, add: i64, priority: i64| {
        let mut rule = set(id, EventKind::PreToolUse, "n", Literal::Bool(true));
        rule.action = Action::Compute {
            key: path("n"),
            value: arith(field(metadata("n")), ArithOp::Add, int(add)),
        };
        prio(rule, priority)
    };
    let fields = json!({"metadata": {"n": 4}});
    // Applied high priority first, so the lowest priority is stored last and wins.
    let outcome = policy(vec![counter("a", 1, 0), counter("b", 2, 1)])
        .evaluate(&event(EventKind::PreToolUse, fields.clone()));
    assert_eq!(outcome.metadata.get("n"), Some(&json!(5)));
    let outcome = policy(vec![counter("a", 1, 1), counter("b", 2, 0)])
        .evaluate(&event(EventKind::PreToolUse, fields));
    assert_eq!(outcome.metadata.get("n"), Some(&json!(6)));
}

#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: a bad fixture fails the test"
)]
fn quantified(quantifier: ListQuantifier, glob: &str) -> Condition {
    Condition::Quantified {
        quantifier,
        condition: Box::new(Condition::Glob {
            field: arg("to"),
            pattern: GlobPattern::new(glob).unwrap(),
        }),
    }
}

#[test]
fn any_and_all_go_over_lists_and_apply_to_other_values_themselves() {
    let any = || quantified(ListQuantifier::Any, "*@evil.example");
    let all = || quantified(ListQuantifier::All, "*@corp.example");
    let to = |value: Value| json!({"tool": "send_email", "arg": {"to": value}});
    let cases = [
        (json!(["a@corp.example", "b@evil.example"]), true, false),
        (json!(["a@corp.example", "b@corp.example"]), false, true),
        (json!("x@evil.example"), true, false),
        (json!("x@corp.example"), false, true),
        // As `shell.all(...)` on a line with no command: no element, no allow.
        (json!([]), false, false),
        (json!([1, true, null]), false, false),
        (json!([["b@evil.example"]]), false, false),
    ];
    for (value, any_holds, all_holds) in cases {
        assert_eq!(
            pre_fires(any(), to(value.clone())),
            any_holds,
            "any {value}"
        );
        assert_eq!(
            pre_fires(all(), to(value.clone())),
            all_holds,
            "all {value}"
        );
    }
    let missing = json!({"tool": "send_email", "arg": {}});
    assert!(!pre_fires(any(), missing.clone()));
    assert!(!pre_fires(all(), missing));
}

#[test]
fn a_quantified_comparison_reads_numbers_of_each_element() {
    let all_small = Condition::Quantified {
        quantifier: ListQuantifier::All,
        condition: Box::new(cmp(arg("sizes"), CompareOp::Lt, Literal::Int(1000))),
    };
    assert!(pre_fires(
        all_small.clone(),
        json!({"arg": {"sizes": [1, 999.5]}})
    ));
    assert!(!pre_fires(
        all_small.clone(),
        json!({"arg": {"sizes": [1, 1000]}})
    ));
    assert!(!pre_fires(all_small, json!({"arg": {"sizes": [1, "2"]}})));
}

fn pre_fires(condition: Condition, fields: Value) -> bool {
    condition.holds(&event(EventKind::PreToolUse, fields))
}

#[test]
fn a_quantifier_over_anything_but_one_field_test_is_refused() {
    let over = |condition: Condition| {
        let rule = when(
            decide("r", &[EventKind::PreToolUse], Verb::Block),
            Condition::Quantified {
                quantifier: ListQuantifier::Any,
                condition: Box::new(condition),
            },
        );
        Policy::new(vec![rule], Defaults::default())
    };
    let literal_first = Condition::Compare {
        left: int(1),
        op: CompareOp::Eq,
        right: field(arg("to")),
    };
    for bad in [
        Condition::All(vec![]),
        Condition::Flag(arg("to")),
        literal_first,
    ] {
        assert_eq!(
            over(bad).err(),
            Some(PolicyError::InvalidQuantifier("r".to_owned()))
        );
    }
    assert!(over(cmp(arg("to"), CompareOp::Eq, Literal::Int(1))).is_ok());
}
