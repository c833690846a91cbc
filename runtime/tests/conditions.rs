//! Condition evaluation (docs/language.md §4.4): typed fields, run-time typed `arg.*` and
//! `metadata.*`, and the rule that a missing value or a type mismatch is always false.

use crate::common::*;
use rulesc_runtime::{
    CompareOp, Condition, EventKind, Field, GlobPattern, Literal, Operand, RegexPattern, Verb,
};
use serde_json::json;

/// Whether a rule `on <kind> allow when <condition>` fires on the event
fn fires(condition: Condition, kind: EventKind, fields: serde_json::Value) -> bool {
    let policy = policy(vec![when(decide("r", &[kind], Verb::Allow), condition)]);
    let outcome = policy.evaluate(&event(kind, fields));
    outcome
        .evaluations
        .iter()
        .any(|evaluation| evaluation.rule == "r")
}

fn pre(condition: Condition, fields: serde_json::Value) -> bool {
    fires(condition, EventKind::PreToolUse, fields)
}

#[test]
fn integer_fields_compare_numerically() {
    let steps = |op, n| cmp(Field::Steps, op, Literal::Int(n));
    assert!(pre(steps(CompareOp::Ge, 20), json!({"steps": 20})));
    assert!(!pre(steps(CompareOp::Ge, 20), json!({"steps": 19})));
    assert!(!pre(steps(CompareOp::Lt, 0), json!({"steps": 0})));
    assert!(pre(steps(CompareOp::Ne, 3), json!({"steps": 4})));
    assert!(
        pre(steps(CompareOp::Eq, 0), json!({})),
        "counters default to 0"
    );
    assert!(
        pre(steps(CompareOp::Gt, -1), json!({"steps": 0})),
        "negative literals"
    );
}

#[test]
fn elapsed_compares_with_durations_in_milliseconds() {
    let elapsed = |op, ms| cmp(Field::Elapsed, op, Literal::Duration(ms));
    assert!(pre(
        elapsed(CompareOp::Ge, 300_000),
        json!({"elapsed_ms": 300_000})
    ));
    assert!(!pre(
        elapsed(CompareOp::Gt, 300_000),
        json!({"elapsed_ms": 299_999})
    ));
}

#[test]
fn strings_compare_for_equality_only() {
    assert!(pre(
        cmp(Field::Tool, CompareOp::Eq, s("bash")),
        json!({"tool": "bash"})
    ));
    assert!(!pre(
        cmp(Field::Tool, CompareOp::Eq, s("Bash")),
        json!({"tool": "bash"})
    ));
    assert!(pre(
        cmp(Field::Tool, CompareOp::Ne, s("rm")),
        json!({"tool": "bash"})
    ));
    // Strings have no order: E020 refuses `tool < "c"` in source, and a compiled policy
    // that says it anyway never holds (docs/semantics.md).
    for op in [CompareOp::Lt, CompareOp::Le, CompareOp::Gt, CompareOp::Ge] {
        assert!(!pre(cmp(Field::Tool, op, s("c")), json!({"tool": "bash"})));
        assert!(!pre(
            cmp(Field::Tool, op, s("bash")),
            json!({"tool": "bash"})
        ));
    }
}

#[test]
fn a_field_the_event_lacks_is_false_for_every_operator() {
    for op in [CompareOp::Eq, CompareOp::Ne, CompareOp::Lt, CompareOp::Ge] {
        assert!(!pre(cmp(Field::Tool, op, s("bash")), json!({})), "{op:?}");
    }
    assert!(!pre(
        Condition::In {
            field: Field::Tool,
            list: vec![s("bash")]
        },
        json!({})
    ));
    assert!(!pre(
        Condition::Contains {
            field: Field::Tool,
            needle: s("b")
        },
        json!({})
    ));
    assert!(!pre(glob_on(Field::Tool, "*"), json!({})));
    assert!(!pre(regex_on(Field::Tool, ""), json!({})));
    assert!(pre(
        Condition::Not(Box::new(cmp(Field::Tool, CompareOp::Eq, s("bash")))),
        json!({})
    ));
}

#[test]
fn missing_arg_and_metadata_paths_are_false_even_for_not_equal() {
    let command = || arg("command");
    assert!(!pre(
        cmp(command(), CompareOp::Ne, s("ls")),
        json!({"arg": {}})
    ));
    assert!(!pre(cmp(command(), CompareOp::Ne, s("ls")), json!({})));
    assert!(!pre(
        cmp(metadata("tainted"), CompareOp::Ne, Literal::Bool(true)),
        json!({})
    ));
    assert!(!pre(
        cmp(metadata("a.b"), CompareOp::Eq, Literal::Int(1)),
        json!({"metadata": {"a": 1}})
    ));
}

#[test]
fn run_time_type_mismatches_are_false_even_for_not_equal() {
    let fields = json!({"arg": {"count": "3", "flag": 1, "list": [1, 2]}});
    assert!(!pre(
        cmp(arg("count"), CompareOp::Eq, Literal::Int(3)),
        fields.clone()
    ));
    assert!(!pre(
        cmp(arg("count"), CompareOp::Ne, Literal::Int(3)),
        fields.clone()
    ));
    assert!(!pre(
        cmp(arg("count"), CompareOp::Gt, Literal::Int(1)),
        fields.clone()
    ));
    assert!(!pre(
        cmp(arg("flag"), CompareOp::Ne, Literal::Bool(true)),
        fields.clone()
    ));
    assert!(!pre(
        cmp(arg("list"), CompareOp::Ne, s("x")),
        fields.clone()
    ));
    assert!(!pre(glob_on(arg("flag"), "*"), fields.clone()));
    assert!(!pre(regex_on(arg("list"), ""), fields.clone()));
    assert!(!pre(Condition::Flag(arg("flag")), fields));
}

#[test]
fn json_numbers_compare_numerically_with_integers() {
    let fields = json!({"arg": {"n": 3, "f": 2.5, "big": 18_446_744_073_709_551_615_u64}});
    assert!(pre(
        cmp(arg("n"), CompareOp::Eq, Literal::Int(3)),
        fields.clone()
    ));
    assert!(pre(
        cmp(arg("f"), CompareOp::Gt, Literal::Int(2)),
        fields.clone()
    ));
    assert!(pre(
        cmp(arg("f"), CompareOp::Lt, Literal::Int(3)),
        fields.clone()
    ));
    assert!(pre(
        cmp(arg("f"), CompareOp::Ne, Literal::Int(2)),
        fields.clone()
    ));
    assert!(pre(
        cmp(arg("big"), CompareOp::Gt, Literal::Int(i64::MAX)),
        fields
    ));
    let float_three = json!({"arg": {"n": 3.0}});
    assert!(pre(
        cmp(arg("n"), CompareOp::Eq, Literal::Int(3)),
        float_three
    ));
}

#[test]
fn durations_meet_json_numbers_in_milliseconds() {
    let fields = json!({"metadata": {"budget": 5000}});
    assert!(pre(
        cmp(metadata("budget"), CompareOp::Eq, Literal::Duration(5000)),
        fields
    ));
    let compare_fields = Condition::Compare {
        left: Operand::Field(Field::Elapsed),
        op: CompareOp::Ge,
        right: Operand::Field(metadata("budget")),
    };
    assert!(pre(
        compare_fields.clone(),
        json!({"elapsed_ms": 5000, "metadata": {"budget": 5000}})
    ));
    assert!(!pre(
        compare_fields,
        json!({"elapsed_ms": 4999, "metadata": {"budget": 5000}})
    ));
}

#[test]
fn paths_reach_into_objects_and_arrays() {
    let paths0 = rulesc_runtime::Field::Arg(rulesc_runtime::FieldPath {
        segments: vec![
            rulesc_runtime::PathSegment::Key("paths".to_owned()),
            rulesc_runtime::PathSegment::Index(0),
        ],
    });
    let fields = json!({"arg": {"paths": ["/etc/passwd", "b"]}});
    assert!(pre(glob_on(paths0.clone(), "/etc/*"), fields));
    assert!(!pre(
        glob_on(paths0, "/etc/*"),
        json!({"arg": {"paths": []}})
    ));
    assert!(pre(
        cmp(metadata("a.b"), CompareOp::Eq, s("x")),
        json!({"metadata": {"a": {"b": "x"}}})
    ));
}

#[test]
fn in_tests_membership_with_run_time_types() {
    let kinds = || Condition::In {
        field: Field::ErrorKind,
        list: vec![s("tool"), s("tool_blocked")],
    };
    let on_error = |fields| fires(kinds(), EventKind::OnError, fields);
    assert!(on_error(json!({"error": {"kind": "tool_blocked"}})));
    assert!(!on_error(json!({"error": {"kind": "model"}})));
    assert!(!on_error(json!({})));
    let numbers = Condition::In {
        field: arg("n"),
        list: vec![Literal::Int(1), Literal::Int(2)],
    };
    assert!(pre(numbers.clone(), json!({"arg": {"n": 2}})));
    assert!(!pre(numbers, json!({"arg": {"n": "2"}})));
}

#[test]
fn contains_is_substring_on_strings_and_membership_on_arrays() {
    let sudo = |field| Condition::Contains {
        field,
        needle: s("sudo"),
    };
    assert!(pre(
        sudo(arg("command")),
        json!({"arg": {"command": "sudo rm"}})
    ));
    assert!(!pre(
        sudo(arg("command")),
        json!({"arg": {"command": "rm"}})
    ));
    assert!(pre(
        sudo(arg("tags")),
        json!({"arg": {"tags": ["a", "sudo"]}})
    ));
    assert!(
        !pre(
            sudo(arg("tags")),
            json!({"arg": {"tags": ["a", "sudoers"]}})
        ),
        "membership, not substring"
    );
    assert!(!pre(
        sudo(arg("tags")),
        json!({"arg": {"tags": {"sudo": 1}}})
    ));
    let number = Condition::Contains {
        field: arg("ids"),
        needle: Literal::Int(7),
    };
    assert!(pre(number, json!({"arg": {"ids": [1, 7.0]}})));
    let text_needs_text = Condition::Contains {
        field: arg("command"),
        needle: Literal::Int(1),
    };
    assert!(!pre(text_needs_text, json!({"arg": {"command": "1"}})));
}

#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: a bad fixture fails the test"
)]
fn glob_on(field: Field, pattern: &str) -> Condition {
    Condition::Glob {
        field,
        pattern: GlobPattern::new(pattern).unwrap(),
    }
}

#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: a bad fixture fails the test"
)]
fn regex_on(field: Field, pattern: &str) -> Condition {
    Condition::Regex {
        field,
        pattern: RegexPattern::new(pattern).unwrap(),
    }
}

#[test]
fn glob_is_whole_string_and_regex_unanchored() {
    assert!(pre(glob_on(Field::Tool, "rm*"), json!({"tool": "rm -rf"})));
    assert!(!pre(glob_on(Field::Tool, "rm"), json!({"tool": "rm -rf"})));
    assert!(pre(regex_on(Field::Tool, "rf"), json!({"tool": "rm -rf"})));
    assert!(!pre(
        regex_on(Field::Tool, "^rf"),
        json!({"tool": "rm -rf"})
    ));
    assert!(pre(
        regex_on(arg("url"), r"https?://"),
        json!({"arg": {"url": "http://x"}})
    ));
}

#[test]
fn a_bare_field_is_true_only_for_true() {
    let blocked = || Condition::Flag(Field::Blocked);
    let post = |fields| fires(blocked(), EventKind::PostToolUse, fields);
    assert!(post(json!({"blocked": true})));
    assert!(!post(json!({"blocked": false})));
    assert!(!post(json!({})));
    assert!(pre(
        Condition::Flag(metadata("tainted")),
        json!({"metadata": {"tainted": true}})
    ));
    for value in [json!("true"), json!(1), json!([true]), json!(null)] {
        assert!(!pre(
            Condition::Flag(metadata("tainted")),
            json!({"metadata": {"tainted": value}})
        ));
    }
}

#[test]
fn booleans_and_lists_compare_only_for_equality() {
    let fields = json!({"metadata": {"on": true, "list": ["a", 1]}});
    assert!(pre(
        cmp(metadata("on"), CompareOp::Eq, Literal::Bool(true)),
        fields.clone()
    ));
    assert!(!pre(
        cmp(metadata("on"), CompareOp::Gt, Literal::Bool(false)),
        fields.clone()
    ));
    let list = Literal::List(vec![s("a"), Literal::Int(1)]);
    assert!(pre(
        cmp(metadata("list"), CompareOp::Eq, list.clone()),
        fields.clone()
    ));
    assert!(!pre(
        cmp(metadata("list"), CompareOp::Ne, list),
        fields.clone()
    ));
    let other = Literal::List(vec![s("a"), Literal::Int(2)]);
    assert!(pre(cmp(metadata("list"), CompareOp::Ne, other), fields));
}

#[test]
fn connectives_combine_as_written() {
    let tool_is = |name| cmp(Field::Tool, CompareOp::Eq, s(name));
    let fields = json!({"tool": "bash"});
    assert!(pre(
        Condition::Any(vec![tool_is("rm"), tool_is("bash")]),
        fields.clone()
    ));
    assert!(!pre(
        Condition::All(vec![tool_is("rm"), tool_is("bash")]),
        fields.clone()
    ));
    assert!(
        pre(Condition::All(vec![]), fields.clone()),
        "an empty `and` holds"
    );
    assert!(
        !pre(Condition::Any(vec![]), fields.clone()),
        "an empty `or` does not"
    );
    assert!(pre(Condition::Not(Box::new(tool_is("rm"))), fields));
}

#[test]
fn stop_fields_default_to_the_pending_stop_resolution_sees() {
    let stop = |condition, fields| fires(condition, EventKind::Stop, fields);
    assert!(stop(
        cmp(Field::StopDecision, CompareOp::Eq, s("allow_stop")),
        json!({})
    ));
    assert!(stop(
        cmp(Field::StopReason, CompareOp::Eq, s("completed")),
        json!({})
    ));
    assert!(stop(
        cmp(Field::StopRequests, CompareOp::Eq, Literal::Int(0)),
        json!({})
    ));
    assert!(stop(
        cmp(Field::StopReason, CompareOp::Eq, s("guard_forbade")),
        json!({"stop_decision": "forbid"})
    ));
    assert!(stop(
        cmp(Field::StopReason, CompareOp::Eq, s("steps_limit_reached")),
        json!({"stop_decision": "forbid", "stop_reason": "steps_limit_reached"})
    ));
}

#[test]
fn execution_end_conditions_drive_effects() {
    // `execution_end` allows no verb, so its fields are read through a `set` rule.
    let failed = cmp(Field::Status, CompareOp::Eq, s("failed"));
    let rule = when(
        set(
            "mark",
            EventKind::ExecutionEnd,
            "failed",
            Literal::Bool(true),
        ),
        failed,
    );
    let policy = policy(vec![rule]);
    let end = |fields| {
        policy
            .evaluate(&event(EventKind::ExecutionEnd, fields))
            .effects
            .len()
    };
    assert_eq!(end(json!({"status": "failed"})), 1);
    assert_eq!(end(json!({"status": "completed"})), 0);
    assert_eq!(end(json!({})), 0);
}

#[test]
fn status_and_finish_reason_read_as_strings() {
    let after = |fields| {
        fires(
            cmp(Field::FinishReason, CompareOp::Eq, s("length")),
            EventKind::AfterInference,
            fields,
        )
    };
    assert!(after(json!({"finish_reason": "length"})));
    assert!(!after(json!({})));
}

#[test]
fn only_stop_hooks_lend_a_missing_stop_reason_its_default() {
    let completed = || cmp(Field::StopReason, CompareOp::Eq, s("completed"));
    // docs/language.md §5.6: a stop hook's pending stop is `allow_stop`, for `completed`.
    assert!(fires(completed(), EventKind::Stop, json!({})));
    // `execution_end` cannot see `stop_decision` (§4.1), so a stray one lends no reason.
    // No verb is allowed there; a `set` rule shows whether its condition held.
    let at_end = |fields| {
        let rule = when(
            set("r", EventKind::ExecutionEnd, "x", Literal::Int(1)),
            completed(),
        );
        let outcome = policy(vec![rule]).evaluate(&event(EventKind::ExecutionEnd, fields));
        !outcome.effects.is_empty()
    };
    assert!(!at_end(json!({"stop_decision": "allow_stop"})));
    assert!(at_end(json!({"stop_reason": "completed"})));
}

#[test]
fn json_null_equals_null_and_nothing_else() {
    let both = |op| Condition::Compare {
        left: Operand::Field(Field::Arg(path("a"))),
        op,
        right: Operand::Field(Field::Metadata(path("m"))),
    };
    let nulls = json!({"arg": {"a": null}, "metadata": {"m": null}});
    assert!(pre(both(CompareOp::Eq), nulls.clone()));
    assert!(!pre(both(CompareOp::Ne), nulls));
    let null_and_zero = json!({"arg": {"a": null}, "metadata": {"m": 0}});
    assert!(!pre(both(CompareOp::Eq), null_and_zero.clone()));
    assert!(
        !pre(both(CompareOp::Ne), null_and_zero),
        "a type mismatch is false"
    );
}

#[test]
fn an_error_without_a_kind_is_of_kind_unknown() {
    let unknown = || cmp(Field::ErrorKind, CompareOp::Eq, s("unknown"));
    let on_error = |fields| fires(unknown(), EventKind::OnError, fields);
    assert!(on_error(json!({"error": {"message": "boom"}})));
    assert!(on_error(json!({"error": {"kind": "", "message": "boom"}})));
    assert!(
        on_error(json!({})),
        "an on_error event with no error at all"
    );
    assert!(!on_error(json!({"error": {"kind": "tool"}})));
    // Only `on_error` reports an error: elsewhere the field is absent, so false.
    assert!(!pre(unknown(), json!({})));
}

#[test]
fn tokens_is_the_total_given_or_the_sum_of_its_parts() {
    let tokens = |n| cmp(Field::Tokens, CompareOp::Eq, Literal::Int(n));
    let parts = json!({"input_tokens": 1000, "output_tokens": 200});
    assert!(pre(tokens(1200), parts));
    let all = json!({"tokens": 1500, "input_tokens": 1000, "output_tokens": 200});
    assert!(pre(tokens(1500), all), "a total given is read as given");
    assert!(pre(tokens(0), json!({})));
}

/// docs/semantics.md "Conditions": a field absent from its event compares false for every
/// operator, `!=` included, as a missing `arg.*` path does
#[test]
fn a_field_absent_from_its_event_compares_false() {
    // A failed model call's `on_error` has no `tool`.
    let model_failure = json!({"error": {"kind": "rate_limit", "message": "429"}});
    for op in [CompareOp::Eq, CompareOp::Ne] {
        assert!(!fires(
            cmp(Field::Tool, op, s("deploy")),
            EventKind::OnError,
            model_failure.clone()
        ));
    }
    // A blocked call's `post_tool_use` has no `result`.
    let blocked = json!({"tool": "rm", "blocked": true});
    assert!(!fires(
        cmp(Field::Result, CompareOp::Ne, s("ok")),
        EventKind::PostToolUse,
        blocked
    ));
    // Outside a hook, `prompt` is absent.
    assert!(!fires(
        cmp(Field::Prompt, CompareOp::Ne, s("")),
        EventKind::BeforeStep,
        json!({})
    ));
}
