//! The size bounds of a policy, each at its limit (accepted) and just past it (refused with
//! a clear reason), through `Policy::new` and through compiled JSON.

use crate::common::{arg, cmp, decide, decide_msg, policy, s, set, when};
use rulesc_runtime::{
    CompareOp, Defaults, EventKind, GlobPattern, Literal, Policy, PolicyError, RegexPattern, Rule,
    Verb, MAX_PATH_SEGMENTS, MAX_PATTERN_LEN, MAX_RULES, MAX_STRING_LEN,
};

use EventKind as E;

fn rules(count: usize) -> Vec<Rule> {
    (0..count)
        .map(|idx| decide(&format!("r{idx}"), &[E::Stop], Verb::Request))
        .collect()
}

/// The JSON of a policy with `count` rules, written by hand (no policy of that size can be
/// built to write it)
fn compiled_json(count: usize) -> String {
    let rule = |idx: usize| {
        serde_json::json!({"id": format!("r{idx}"), "events": ["stop"],
            "action": {"decide": {"verb": "request", "stop_reason": null, "message": null}}})
    };
    serde_json::json!({"format": "rulesc-policy", "version": 1,
        "rules": (0..count).map(rule).collect::<Vec<_>>()})
    .to_string()
}

#[test]
fn rules_up_to_the_limit() {
    let at = Policy::new(rules(MAX_RULES), Defaults::default()).unwrap();
    assert_eq!(at.user_rules().len(), MAX_RULES);
    let err = Policy::new(rules(MAX_RULES + 1), Defaults::default()).unwrap_err();
    assert_eq!(
        err,
        PolicyError::TooManyRules {
            count: MAX_RULES + 1,
            limit: MAX_RULES
        }
    );
    assert_eq!(
        err.to_string(),
        "the policy has 100001 rules, more than the limit of 100000"
    );
    assert!(Policy::from_json(&compiled_json(MAX_RULES)).is_ok());
    let err = Policy::from_json(&compiled_json(MAX_RULES + 1)).unwrap_err();
    assert!(err.to_string().contains("100001 rules"), "{err}");
}

#[test]
fn compiled_json_is_measured() {
    let long = "x".repeat(MAX_STRING_LEN + 1);
    let json = compiled_json(1).replace("\"message\":null", &format!("\"message\":\"{long}\""));
    let err = Policy::from_json(&json).unwrap_err();
    assert!(err.to_string().contains("longer than the limit"), "{err}");
}

/// Whether a policy of `rule` builds, else its error's text
fn builds(rule: Rule) -> Result<(), String> {
    Policy::new(vec![rule], Defaults::default())
        .map(|_| ())
        .map_err(|err| err.to_string())
}

#[test]
fn strings_up_to_the_limit() {
    let at = "x".repeat(MAX_STRING_LEN);
    let past = "x".repeat(MAX_STRING_LEN + 1);
    let message = |text: &str| decide_msg("m", E::Stop, Verb::Request, text);
    let needle = |text: &str| {
        when(
            decide("c", &[E::PreToolUse], Verb::Block),
            cmp(arg("cmd"), CompareOp::Eq, s(text)),
        )
    };
    let listed = |text: &str| {
        set(
            "l",
            E::Stop,
            "seen",
            Literal::List(vec![Literal::List(vec![s("a"), s(text)])]),
        )
    };
    let id = |text: &str| decide(text, &[E::Stop], Verb::Request);
    for make in [&message as &dyn Fn(&str) -> Rule, &needle, &listed, &id] {
        assert_eq!(builds(make(&at)), Ok(()));
        let err = builds(make(&past)).unwrap_err();
        assert!(
            err.ends_with("a string of 4097 bytes is longer than the limit of 4096"),
            "{err}"
        );
    }
}

#[test]
fn field_paths_up_to_the_limit() {
    let dotted = |n: usize| vec!["k"; n].join(".");
    let key = |n: usize| set("s", E::Stop, &dotted(n), Literal::Bool(true));
    let read = |n: usize| {
        when(
            decide("r", &[E::PreToolUse], Verb::Block),
            cmp(arg(&dotted(n)), CompareOp::Eq, s("x")),
        )
    };
    for make in [&key as &dyn Fn(usize) -> Rule, &read] {
        assert_eq!(builds(make(MAX_PATH_SEGMENTS)), Ok(()));
        let err = builds(make(MAX_PATH_SEGMENTS + 1)).unwrap_err();
        assert!(
            err.ends_with("a field path of 33 parts is longer than the limit of 32"),
            "{err}"
        );
    }
    // The bound keeps metadata shallow enough for every JSON reader: a deep key's value
    // serializes and reads back.
    let policy = policy(vec![key(MAX_PATH_SEGMENTS)]);
    let outcome = policy.evaluate(&rulesc_runtime::Event::new(E::Stop));
    let json = serde_json::to_string(&outcome).unwrap();
    let back: rulesc_runtime::Outcome = serde_json::from_str(&json).unwrap();
    assert_eq!(back, outcome);
}

#[test]
fn patterns_up_to_the_limit() {
    let at = "a".repeat(MAX_PATTERN_LEN);
    let past = "a".repeat(MAX_PATTERN_LEN + 1);
    assert!(GlobPattern::new(&at).is_ok());
    assert!(RegexPattern::new(&at).is_ok());
    for err in [
        GlobPattern::new(&past).unwrap_err(),
        RegexPattern::new(&past).unwrap_err(),
    ] {
        assert_eq!(err.message, "pattern is longer than 4096 bytes");
    }
}

#[test]
fn regular_expressions_up_to_their_compiled_size() {
    // `\w{n}` grows with `n` once compiled, far past what its text says: find the largest
    // `n` that fits the regex crate's size limit, and check that one more does not.
    let compiles = |n: usize| RegexPattern::new(&format!(r"\w{{{n}}}"));
    let (mut fits, mut too_big) = (1_usize, 4_000_usize);
    assert!(compiles(fits).is_ok());
    let err = compiles(too_big).unwrap_err();
    assert_eq!(
        err.message,
        "regular expression is too large once compiled (limit 1048576 bytes)"
    );
    while too_big - fits > 1 {
        let middle = (fits + too_big) / 2;
        if compiles(middle).is_ok() {
            fits = middle;
        } else {
            too_big = middle;
        }
    }
    assert!(compiles(fits).is_ok(), "\\w{{{fits}}} is at the limit");
    assert!(
        compiles(fits + 1)
            .unwrap_err()
            .message
            .contains("too large once compiled"),
        "\\w{{{}}} is past it",
        fits + 1
    );
}
