//! What rules see of a tool's output and of a host's session (docs/semantics.md, "Events"):
//! `result` is the output's text, `result.<path>` reads into output that is JSON, and `cwd`,
//! `permission_mode`, `session_id` and `prompt` are there when a host gives them.

#![expect(
    clippy::unwrap_used,
    clippy::panic,
    reason = "helpers of tests: a policy or event that does not load fails the test"
)]

use rulesc::{compile_str, Decision, Event, Outcome};
use serde_json::{json, Value as Json};

fn outcome(source: &str, event: Json) -> Outcome {
    let policy = match compile_str("p.rules", source) {
        Ok(policy) => policy,
        Err(diagnostics) => panic!("{diagnostics}"),
    };
    let event: Event = serde_json::from_value(event).unwrap();
    policy.evaluate(&event)
}

fn forbids(source: &str, event: Json) -> bool {
    outcome(source, event).resolution.decision == Decision::Forbid
}

#[test]
fn result_paths_read_into_structured_output() {
    let rule = r#"on post_tool_use when result.stdout contains "BEGIN RSA" forbid"#;
    let bash = |stdout: &str| {
        json!({"event": "post_tool_use", "tool": "Bash",
               "result": {"stdout": stdout, "stderr": "", "interrupted": false}})
    };
    assert!(forbids(rule, bash("-----BEGIN RSA PRIVATE KEY-----")));
    assert!(!forbids(rule, bash("hello")));
    let exit = r"on post_tool_use when result.exit_code != 0 forbid";
    assert!(forbids(
        exit,
        json!({"event": "post_tool_use", "result": {"exit_code": 2}})
    ));
    assert!(!forbids(
        exit,
        json!({"event": "post_tool_use", "result": {"exit_code": 0}})
    ));
}

#[test]
fn result_alone_is_the_outputs_text_as_in_v1() {
    // A v1 policy matched the JSON text of an object response; it still does.
    let rule = r#"on post_tool_use when result ~ "*PRIVATE KEY*" forbid"#;
    assert!(forbids(
        rule,
        json!({"event": "post_tool_use", "result": {"stdout": "a PRIVATE KEY"}})
    ));
    assert!(forbids(
        rule,
        json!({"event": "post_tool_use", "result": "a PRIVATE KEY"})
    ));
    let exact = r#"on post_tool_use when result == "{\"a\":1}" forbid"#;
    assert!(forbids(
        exact,
        json!({"event": "post_tool_use", "result": {"a": 1}})
    ));
}

#[test]
fn text_output_that_is_json_can_be_read_by_its_keys() {
    let rule = r#"on post_tool_use when result.status == "failed" forbid"#;
    let text = |result: &str| json!({"event": "post_tool_use", "result": result});
    assert!(forbids(rule, text(r#"{"status": "failed"}"#)));
    assert!(!forbids(rule, text("status: failed")));
    // Text that only looks like JSON stays text, and a path reads nothing: false.
    assert!(!forbids(rule, text(r#"{"status": "failed""#)));
}

#[test]
fn host_session_fields_are_seen_on_every_event_and_the_prompt_on_a_turns_start() {
    let cwd = r#"on before_step when cwd ~ "/home/*" forbid"#;
    assert!(forbids(
        cwd,
        json!({"event": "before_step", "cwd": "/home/u/p"})
    ));
    // Not under a host: absent, so every comparison is false.
    assert!(!forbids(cwd, json!({"event": "before_step"})));
    let mode = r#"on pre_tool_use when permission_mode == "bypassPermissions" forbid"#;
    assert!(forbids(
        mode,
        json!({"event": "pre_tool_use", "permission_mode": "bypassPermissions"})
    ));
    let prompt = r#"on before_step when prompt contains "rm -rf" forbid"#;
    assert!(forbids(
        prompt,
        json!({"event": "before_step", "prompt": "please rm -rf the build"})
    ));
    let session = r#"on stop when session_id == "s-1" forbid"#;
    assert!(forbids(
        session,
        json!({"event": "stop", "session_id": "s-1"})
    ));
}

#[test]
fn the_prompt_is_seen_on_every_event_of_its_turn() {
    let policy = compile_str(
        "p.rules",
        r#"on pre_tool_use when prompt ~* "*deploy*" block
on stop when prompt ~* "*deploy*" forbid"#,
    )
    .unwrap();
    let events: Vec<rulesc::Event> = [
        json!({"event": "pre_tool_use", "tool": "x"}),
        json!({"event": "before_step", "prompt": "Deploy it"}),
        json!({"event": "pre_tool_use", "tool": "x"}),
        json!({"event": "stop"}),
        json!({"event": "before_step", "prompt": "now the docs"}),
        json!({"event": "pre_tool_use", "tool": "x"}),
    ]
    .into_iter()
    .map(|event| rulesc::events::read_event(event).unwrap())
    .collect();
    let decisions: Vec<String> = rulesc::events::evaluate_execution(&policy, &events)
        .iter()
        .map(|outcome| outcome.resolution.decision.to_string())
        .collect();
    assert_eq!(
        decisions,
        ["none", "none", "block", "forbid", "none", "none"],
        "before a prompt there is none; the turn's events see its prompt, until the next"
    );
    let err = compile_str("p.rules", r#"on pre_tool_use when result.x == 1 block"#).unwrap_err();
    assert_eq!(err.codes(), ["E012"]);
}
