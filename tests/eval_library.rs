//! The library surface of docs/cli.md, line for line: compile, read an event, evaluate, write the
//! outcome; the JSON is the outcome example of docs/cli.md's `rulesc eval`.

use serde_json::json;

const SOURCE: &str = r#"# p.rules
@id("no-rm")
on pre_tool_use when arg.command ~ "rm *" block "destructive command"

@id("taint")
on pre_tool_use when tool == "bash" set metadata.tainted = true
"#;

#[test]
fn the_embedding_example_of_cli_md_runs_as_written() -> Result<(), Box<dyn std::error::Error>> {
    let Ok(policy) = rulesc::compile_str("p.rules", SOURCE) else {
        return Err("the example policy does not compile".into());
    };
    let json = r#"{"event": "pre_tool_use", "tool": "bash", "arg": {"command": "rm -rf /"},
        "steps": 3, "tokens": 1200, "input_tokens": 1000, "output_tokens": 200,
        "elapsed_ms": 5000, "failures": 0, "errors": 0, "retries": 0,
        "metadata": {"tainted": true}}"#;
    let event: rulesc::Event = serde_json::from_str(json)?;
    let outcome: rulesc::Outcome = policy.evaluate(&event);
    let written = serde_json::to_string(&outcome)?;
    let value: serde_json::Value = serde_json::from_str(&written)?;
    assert_eq!(
        value,
        json!({"event": "pre_tool_use", "decision": "block", "stop_reason": null,
               "message": "destructive command", "resolved_by": "no-rm",
               "evaluations": [{"rule": "no-rm", "verb": "block", "stop_reason": null,
                                "message": "destructive command", "file": "p.rules", "line": 3,
                                "priority": 0},
                               // docs/cli.md: "every rule that matched", `set` rules too.
                               {"rule": "taint", "verb": "set", "stop_reason": null,
                                "message": null, "file": "p.rules", "line": 6,
                                "priority": 0}],
               "effects": [{"rule": "taint", "key": "tainted", "value": true}],
               "metadata": {"tainted": true}})
    );
    // An outcome read back from its JSON is the same outcome.
    assert_eq!(serde_json::from_str::<rulesc::Outcome>(&written)?, outcome);
    Ok(())
}

#[test]
fn policies_are_shared_across_threads() {
    fn assert_send_sync<T: Send + Sync + Clone>() {}
    assert_send_sync::<rulesc::Policy>();
}

/// docs/trace.md, "Output that cannot be read": with the tool's name unknown, every test of
/// `tool` fails closed, from the whole policy and from the compact form alike, whatever
/// rule index keys the rules by the tool
#[test]
fn a_post_tool_event_whose_tool_is_unknown_fails_closed_on_every_rule_that_reads_it() {
    let source = r#"@id("label")
on post_tool_use when tool == "web_fetch" label result "web"
@id("taint")
on post_tool_use when tool == "web_fetch" set metadata.tainted = true
@id("guard")
on post_tool_use when tool ~ "mcp__*" forbid "unknown mcp"
on pre_tool_use when metadata.tainted block "tainted"
"#;
    let policy = rulesc::compile_str("p.rules", source).unwrap();
    let compact = rulesc::Policy::from_checked_compact(&policy.to_compact()).unwrap();
    let mut event: rulesc::Event =
        serde_json::from_value(json!({"event": "post_tool_use", "result": "ok"})).unwrap();
    event.unknown_fields = vec![rulesc::Field::Tool];
    for policy in [&policy, &compact] {
        let outcome = policy.evaluate(&event);
        let fired: Vec<&str> = outcome
            .evaluations
            .iter()
            .map(|evaluation| evaluation.rule.as_str())
            .collect();
        // A label and a guard fire; a `set` does not.
        assert_eq!(fired, ["guard", "label"], "{outcome:?}");
    }
}
