//! `Policy::new` checks and canonical forms, and the versioned compiled JSON of `format.rs`.

use crate::common::*;
use rulesc_runtime::{
    Action, CompareOp, Condition, Decision, Defaults, Event, EventKind, Field, FieldPath,
    GlobPattern, Literal, LoadError, PathSegment, Policy, PolicyError, StopReason, Verb,
};
use serde_json::json;

use EventKind::{AfterStep, OnError, PostToolUse, PreToolUse};

#[test]
fn duplicate_ids_are_rejected() {
    let twice = vec![
        decide("a", &[PreToolUse], Verb::Allow),
        decide("a", &[OnError], Verb::Ignore),
    ];
    assert_eq!(
        Policy::new(twice, Defaults::default()).unwrap_err(),
        PolicyError::DuplicateId("a".into())
    );
}

#[test]
fn ids_that_name_the_runtimes_own_decisions_are_reserved() {
    // docs/language.md §5.5 and §8: `default`, the prelude's rules and the host's limits appear
    // in `resolved_by`; a rule of the same name would make an outcome ambiguous.
    for id in [
        "default",
        "prelude:no-tool-calls",
        "prelude:mine",
        "host:max_steps",
        "host:x",
    ] {
        let rules = vec![decide(id, &[AfterStep], Verb::Allow)];
        assert_eq!(
            Policy::new(rules, Defaults::default()).unwrap_err(),
            PolicyError::ReservedId(id.into()),
            "{id}"
        );
    }
    for id in ["defaults", "my-prelude:x", "hosts:x", "Default"] {
        let rules = vec![decide(id, &[AfterStep], Verb::Allow)];
        assert!(Policy::new(rules, Defaults::default()).is_ok(), "{id}");
    }
}

#[test]
fn a_verb_must_be_allowed_on_every_event_of_its_rule() {
    let rule = decide("r", &[PreToolUse, PostToolUse], Verb::Block);
    let err = Policy::new(vec![rule], Defaults::default()).unwrap_err();
    assert_eq!(
        err,
        PolicyError::VerbNotAllowed {
            rule: "r".into(),
            verb: Verb::Block,
            event: PostToolUse
        }
    );
    assert_eq!(
        err.to_string(),
        "rule `r`: `block` is not allowed on `post_tool_use`"
    );
}

#[test]
fn a_rule_needs_an_event() {
    let err = Policy::new(vec![decide("r", &[], Verb::Allow)], Defaults::default()).unwrap_err();
    assert_eq!(err.to_string(), "rule `r` fires on no event");
}

#[test]
fn stop_reasons_belong_to_forbid_and_allow_stop_only() {
    let rule = reason(
        decide("r", &[PreToolUse], Verb::Block),
        StopReason::Completed,
    );
    let err = Policy::new(vec![rule], Defaults::default()).unwrap_err();
    assert_eq!(err.to_string(), "rule `r`: `block` takes no stop reason");
}

#[test]
fn defaults_must_fit_their_event() {
    let bad = Defaults {
        pre_tool_use: Some(Verb::Retry),
        on_error: None,
    };
    assert_eq!(
        Policy::new(vec![], bad).unwrap_err().to_string(),
        "`default pre_tool_use retry` is not allowed"
    );
    let bad = Defaults {
        pre_tool_use: None,
        on_error: Some(Verb::Ask),
    };
    assert!(Policy::new(vec![], bad).is_err());
}

#[test]
fn set_keys_name_object_keys() {
    let mut rule = set("r", PreToolUse, "a", Literal::Int(1));
    rule.action = Action::Set {
        key: FieldPath::default(),
        value: Literal::Int(1),
    };
    assert!(matches!(
        Policy::new(vec![rule.clone()], Defaults::default()),
        Err(PolicyError::InvalidSetKey { .. })
    ));
    rule.action = Action::Set {
        key: FieldPath {
            segments: vec![PathSegment::Key("a".into()), PathSegment::Index(0)],
        },
        value: Literal::Int(1),
    };
    let err = Policy::new(vec![rule], Defaults::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "rule `r`: `metadata.a[0]` cannot be set, name an object key"
    );
}

#[test]
fn rules_are_brought_to_a_canonical_form() {
    let rule = decide("r", &[PostToolUse, AfterStep, PostToolUse], Verb::Forbid);
    let policy = policy(vec![rule]);
    let stored = &policy.user_rules()[0];
    assert_eq!(stored.events, [PostToolUse, AfterStep]);
    assert!(matches!(
        stored.action,
        Action::Decide {
            stop_reason: Some(StopReason::GuardForbade),
            ..
        }
    ));
    assert_eq!(policy.rules().len(), 3, "the user's rule, then the prelude");
    assert_eq!(policy.rules()[1].id, "prelude:no-tool-calls");
}

#[expect(
    clippy::unwrap_used,
    reason = "a helper of tests: a bad fixture fails the test"
)]
fn sample() -> Policy {
    let rm = Condition::Glob {
        field: Field::Tool,
        pattern: GlobPattern::new("rm*").unwrap(),
    };
    let rules = vec![
        prio(
            when(
                decide_msg("no-rm", PreToolUse, Verb::Block, "destructive command"),
                rm,
            ),
            10,
        ),
        when(
            reason(
                decide("budget", &[EventKind::BeforeStep], Verb::Forbid),
                StopReason::StepsLimitReached,
            ),
            cmp(Field::Steps, CompareOp::Ge, Literal::Int(20)),
        ),
        set("taint", PostToolUse, "web.tainted", Literal::Bool(true)),
    ];
    Policy::new(
        rules,
        Defaults {
            pre_tool_use: Some(Verb::Ask),
            on_error: Some(Verb::Retry),
        },
    )
    .unwrap()
}

#[test]
fn compiled_json_is_versioned_and_holds_the_user_rules_only() {
    let json: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
    assert_eq!(json["format"], "rulesc-policy");
    assert_eq!(json["version"], 2);
    assert_eq!(
        json["defaults"],
        json!({"pre_tool_use": "ask", "on_error": "retry"})
    );
    let ids: Vec<_> = json["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].clone())
        .collect();
    assert_eq!(ids, [json!("no-rm"), json!("budget"), json!("taint")]);
}

#[test]
fn compiled_json_loads_back_to_the_same_policy() {
    let policy = sample();
    let loaded = Policy::from_json(&policy.to_json()).unwrap();
    assert_eq!(loaded.rules(), policy.rules());
    assert_eq!(loaded.defaults(), policy.defaults());
    assert_eq!(loaded.to_json(), policy.to_json());
    let pretty = Policy::from_json(&policy.to_json_pretty()).unwrap();
    assert_eq!(pretty.to_json(), policy.to_json());
    let ev = event(PreToolUse, json!({"tool": "rm -rf"}));
    assert_eq!(loaded.evaluate(&ev), policy.evaluate(&ev));
    assert_eq!(loaded.evaluate(&ev).resolution.decision, Decision::Block);
}

#[test]
fn loading_rejects_other_formats_and_versions() {
    let reject = |text: &str| Policy::from_json(text).unwrap_err();
    assert_eq!(
        reject(r#"{"version": 1, "rules": []}"#),
        LoadError::Format(None)
    );
    assert_eq!(
        reject(r#"{"format": "opa", "version": 1, "rules": []}"#).to_string(),
        "not a compiled policy: `format` is `opa`, expected `rulesc-policy`"
    );
    assert_eq!(
        reject(r#"{"format": "rulesc-policy", "version": 3, "rules": []}"#).to_string(),
        "compiled policy version 3 is not supported (this rulesc reads versions 1 to 2)"
    );
    // A policy of version 1 is one of version 2 that uses none of its additions.
    assert!(Policy::from_json(r#"{"format": "rulesc-policy", "version": 1, "rules": []}"#).is_ok());
    assert_eq!(
        reject(r#"{"format": "rulesc-policy", "rules": []}"#),
        LoadError::Version(None)
    );
    // A foreign envelope is named as such even when the rest is not a policy's shape.
    assert_eq!(
        reject(r#"{"format": "opa", "version": 1, "rules": 5}"#),
        LoadError::Format(Some("opa".to_owned()))
    );
    assert_eq!(
        reject(r#"{"format": "rulesc-policy", "version": 3, "rules": {}}"#),
        LoadError::Version(Some(3))
    );
    assert!(matches!(reject("[1, 2"), LoadError::Json(_)));
    assert!(matches!(
        reject(r#"{"format": "rulesc-policy", "version": 1}"#),
        LoadError::Json(_)
    ));
}

#[test]
fn loading_checks_the_rules_and_recompiles_patterns() {
    let mut json: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
    json["rules"][0]["condition"][0]["leaf"]["glob"]["pattern"] = json!("[a");
    let err = Policy::from_json(&json.to_string()).unwrap_err();
    assert!(matches!(err, LoadError::Json(_)), "{err}");
    let mut json: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
    json["rules"][1]["id"] = json!("no-rm");
    let err = Policy::from_json(&json.to_string()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid compiled policy: rule id `no-rm` is used twice"
    );
}

#[test]
fn loading_compiles_every_regular_expression_but_the_compact_form_defers_them() {
    let rule = when(
        decide("grep", &[PreToolUse], Verb::Block),
        Condition::Regex {
            field: Field::Tool,
            pattern: rulesc_runtime::RegexPattern::new("^rm$").unwrap(),
        },
    );
    let built = policy(vec![rule]);
    let written = built.to_json();
    let invalid = written.replace("^rm$", "(unclosed");
    assert_ne!(invalid, written);
    let err = Policy::from_json(&invalid).unwrap_err().to_string();
    assert!(
        err.starts_with("invalid compiled policy: rule `grep`:"),
        "{err}"
    );
    // The compact form this runtime wrote of a checked policy compiles its patterns on
    // first use ...
    let compact = built.to_compact();
    let deferred = Policy::from_checked_compact(&compact).unwrap();
    let mut rm = Event::new(PreToolUse);
    rm.tool = Some("rm".into());
    assert_eq!(deferred.evaluate(&rm).resolution.decision, Decision::Block);
    // ... and a pattern that cannot compile then matches nothing, whatever the rule says.
    let broken = replace_bytes(&compact, b"^rm$", b"(rm$");
    let broken = Policy::from_checked_compact(&broken).unwrap();
    assert_eq!(broken.evaluate(&rm).resolution.decision, Decision::None);
}

/// `bytes` with every `from` replaced by `to`, of the same length
fn replace_bytes(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut replaced = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix(from) {
            replaced.extend_from_slice(to);
            rest = after;
        } else if let Some((first, after)) = rest.split_first() {
            replaced.push(*first);
            rest = after;
        }
    }
    assert_ne!(replaced, bytes, "`from` is in `bytes`");
    replaced
}

#[test]
fn globs_of_every_shape_decide_alike_when_built_or_read_from_the_compact_form() {
    // One rule per shape the matcher and the index tell apart: literal, prefix, suffix,
    // contains, and the general kind (matched by the index's set of globs).
    let globs = [
        ("literal", "bash"),
        ("prefix", "mcp__*"),
        ("suffix", "*_file"),
        ("contains", "*send*"),
        ("general", "r?ad*[0-9]"),
    ];
    let rules = globs
        .iter()
        .map(|(id, glob)| {
            when(
                decide(id, &[PreToolUse], Verb::Block),
                Condition::Glob {
                    field: Field::Tool,
                    pattern: rulesc_runtime::GlobPattern::new(glob).unwrap(),
                },
            )
        })
        .collect();
    let checked = policy(rules);
    let deferred = Policy::from_checked_compact(&checked.to_compact()).unwrap();
    // What each tool name must be blocked by, read off the globs by hand
    let expected = [
        ("bash", Some("literal")),
        ("bash2", None),
        ("mcp__github__pr", Some("prefix")),
        ("write_file", Some("suffix")),
        ("resend_mail", Some("contains")),
        ("réad_2", Some("general")),
        ("read", None),
        ("", None),
    ];
    for (tool, by) in expected {
        let mut event = Event::new(PreToolUse);
        event.tool = Some(tool.into());
        for loaded in [&checked, &deferred] {
            let outcome = loaded.evaluate(&event);
            assert_eq!(outcome.resolution.resolved_by.as_deref(), by, "{tool}");
        }
    }
}

/// `not (tool == "a" or not (tool == "a" or ... blocked))`, `levels` deep
fn nested(levels: usize) -> Condition {
    (0..levels).fold(Condition::Flag(Field::Blocked), |inner, _| {
        Condition::Not(Box::new(Condition::Any(vec![
            cmp(
                Field::Tool,
                CompareOp::Eq,
                rulesc_runtime::Literal::Str("a".into()),
            ),
            inner,
        ])))
    })
}

#[test]
fn deeply_nested_conditions_are_written_flat_and_load_back() {
    let rule = when(decide("deep", &[PostToolUse], Verb::Forbid), nested(400));
    let policy = policy(vec![rule]);
    let json = policy.to_json();
    let loaded = Policy::from_json(&json).unwrap();
    assert_eq!(loaded.rules(), policy.rules());
    let condition =
        &serde_json::from_str::<serde_json::Value>(&json).unwrap()["rules"][0]["condition"];
    assert_eq!(
        condition[0],
        json!({"leaf": {"compare": {"left": {"field": "tool"}, "op": "==", "right": {"literal": {"str": "a"}}}}})
    );
    assert_eq!(condition.as_array().unwrap().last(), Some(&json!("not")));
    for fields in [
        json!({"tool": "b", "blocked": true}),
        json!({"tool": "a"}),
        json!({"tool": "b"}),
    ] {
        let ev = event(PostToolUse, fields);
        assert_eq!(loaded.evaluate(&ev), policy.evaluate(&ev));
    }
}

#[test]
fn conditions_deeper_than_the_limit_are_rejected() {
    let limit = rulesc_runtime::MAX_CONDITION_DEPTH;
    let ok = when(
        decide("ok", &[PostToolUse], Verb::Allow),
        nested(limit / 2 - 1),
    );
    assert!(Policy::new(vec![ok], Defaults::default()).is_ok());
    let deep = when(
        decide("deep", &[PostToolUse], Verb::Allow),
        nested(limit / 2),
    );
    let err = Policy::new(vec![deep], Defaults::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("rule `deep`: the condition nests deeper than {limit} levels")
    );
    // Postfix JSON cannot smuggle one in either, however long.
    let nots = vec![json!("not"); 100_000];
    let mut nodes = vec![json!({"leaf": {"flag": "blocked"}})];
    nodes.extend(nots);
    let text = json!({"format": "rulesc-policy", "version": 1, "rules": [{
        "id": "r", "events": ["post_tool_use"], "condition": nodes,
        "action": {"decide": {"verb": "allow", "stop_reason": null, "message": null}},
    }]})
    .to_string();
    let err = Policy::from_json(&text).unwrap_err().to_string();
    assert!(err.contains("nests deeper than"), "{err}");
}

#[test]
fn malformed_postfix_conditions_are_rejected() {
    let with_condition = |nodes: serde_json::Value| {
        json!({"format": "rulesc-policy", "version": 1, "rules": [{
            "id": "r", "events": ["post_tool_use"], "condition": nodes,
            "action": {"decide": {"verb": "allow", "stop_reason": null, "message": null}},
        }]})
        .to_string()
    };
    let blocked = json!({"leaf": {"flag": "blocked"}});
    for nodes in [
        json!([]),
        json!(["not"]),
        json!([blocked, blocked]),
        json!([blocked, {"all": 2}]),
        json!([{"leaf": {"not": {"flag": "blocked"}}}]),
    ] {
        let err = Policy::from_json(&with_condition(nodes.clone())).unwrap_err();
        assert!(matches!(err, LoadError::Json(_)), "{nodes}: {err}");
    }
    assert!(Policy::from_json(&with_condition(json!([blocked, blocked, {"any": 2}]))).is_ok());
    assert!(
        Policy::from_json(&with_condition(json!([{"all": 0}]))).is_ok(),
        "an empty `and`"
    );
}

#[test]
fn load_errors_are_one_lowercase_line() {
    // Nested list literals are the one recursive shape left in the format.
    let deep_json = json!({"format": "rulesc-policy", "version": 1, "rules": [{
        "id": "r", "events": ["pre_tool_use"],
        "condition": [{"leaf": {"in": {"field": "tool", "list": [
            (0..200).fold(json!({"str": "x"}), |inner, _| json!({"list": [inner]}))
        ]}}}],
        "action": {"decide": {"verb": "allow", "stop_reason": null, "message": null}},
    }]})
    .to_string();
    for text in ["", "{", "null", r#"{"format": 3}"#, deep_json.as_str()] {
        let message = Policy::from_json(text).unwrap_err().to_string();
        assert!(!message.contains('\n'), "{message}");
        assert!(message.starts_with(|c: char| c.is_lowercase()), "{message}");
    }
    let message = Policy::from_json(&deep_json).unwrap_err().to_string();
    assert!(message.contains("recursion limit"), "{message}");
}

#[test]
fn limits_are_the_hosts_and_not_saved() {
    let limits = rulesc_runtime::Limits {
        max_steps: 5,
        max_retries: 0,
        max_stop_requests: 1,
    };
    let policy = sample().with_limits(limits);
    assert_eq!(*policy.limits(), limits);
    let loaded = Policy::from_json(&policy.to_json()).unwrap();
    assert_eq!(*loaded.limits(), rulesc_runtime::Limits::default());
    let _ = Event::new(PreToolUse);
}
