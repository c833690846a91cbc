//! `Outcome::render`: the stable text of `rulesc eval --format human`.

use crate::common::*;
use rulesc_runtime::{EventKind, Literal, StopReason, Verb};
use serde_json::json;

#[test]
fn renders_every_part_that_has_something_to_say() {
    let rules = vec![
        prio(
            decide_msg("no-rm", EventKind::PreToolUse, Verb::Block, "say \"no\""),
            2,
        ),
        decide("zz", &[EventKind::PreToolUse], Verb::Allow),
        set(
            "taint",
            EventKind::PreToolUse,
            "web.tainted",
            Literal::Bool(true),
        ),
    ];
    let ev = event(EventKind::PreToolUse, json!({"metadata": {"b": [1, "x"]}}));
    let text = policy(rules).evaluate(&ev).render();
    assert_eq!(
        text,
        "pre_tool_use => block\n\
         \x20 resolved_by: no-rm\n\
         \x20 message: \"say \\\"no\\\"\"\n\
         \x20 evaluations:\n\
         \x20   no-rm (p.rules:1): block \"say \\\"no\\\"\" @priority(2)\n\
         \x20   taint: set\n\
         \x20   zz (p.rules:1): allow\n\
         \x20 effects:\n\
         \x20   taint: web.tainted = true\n\
         \x20 metadata: {\"b\":[1,\"x\"],\"web\":{\"tainted\":true}}\n"
    );
}

#[test]
fn renders_stop_reasons_and_leaves_out_what_is_empty() {
    let forbid = reason(
        decide("budget", &[EventKind::BeforeStep], Verb::Forbid),
        StopReason::StepsLimitReached,
    );
    let outcome = policy(vec![forbid]).evaluate(&event(EventKind::BeforeStep, json!({})));
    assert_eq!(
        outcome.render(),
        "before_step => forbid steps_limit_reached\n\
         \x20 resolved_by: budget\n\
         \x20 evaluations:\n\
         \x20   budget (p.rules:1): forbid steps_limit_reached\n"
    );
    let none = policy(vec![]).evaluate(&event(EventKind::ExecutionStart, json!({})));
    assert_eq!(none.render(), "execution_start => none\n");
}
