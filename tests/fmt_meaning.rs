//! `rulesc fmt` never changes meaning: `check`, `test` and `compile` say the same before and
//! after formatting, rule ids included, for random policies and for every shipped policy of
//! `rules/` (as it is, with its layout spoilt first, and with its rules named by their lines).
//!
//! Only source positions may differ (the layout moves code), so lines and columns are left
//! out of what is compared; rule ids are kept, and a rule without `@id` is named by its line.

#![expect(
    clippy::unwrap_used,
    reason = "a policy that cannot be read or an outcome that cannot be written should stop the test"
)]

use crate::policy_gen;

use std::fmt::Write as _;
use std::path::Path;

use proptest::prelude::*;
use rulesc_compiler::{format_source, FormatError};
use serde_json::Value;

/// What `check`, `compile` and `test` report for `src` named `name`, positions left out
fn meaning(name: &str, src: &str) -> String {
    let output = rulesc::check_source(name, src);
    let mut out = String::from("check:\n");
    for diag in output.diagnostics.diagnostics() {
        writeln!(out, "  {} {} / {:?}", diag.code.id, diag.message, diag.help).unwrap();
    }
    let Some(policy) = &output.policy else {
        return out;
    };
    let compiled = serde_json::from_str(&policy.to_json()).unwrap();
    writeln!(out, "compile:\n  {}", without_positions(compiled)).unwrap();
    out.push_str("test:\n");
    for case in &output.tests {
        let events: Vec<rulesc::Event> =
            case.steps.iter().map(|(event, _)| event.clone()).collect();
        let outcomes = rulesc::events::evaluate_execution(policy, &events);
        for ((_, expected), outcome) in case.steps.iter().zip(&outcomes) {
            let json = without_positions(serde_json::to_value(outcome).unwrap());
            let verdict = if expected.is_met_by(outcome) {
                "passed"
            } else {
                "failed"
            };
            writeln!(out, "  {} {verdict} {json}", case.name).unwrap();
        }
    }
    out
}

/// `value` without its `line` and `column` keys, at any depth
fn without_positions(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(key, _)| key != "line" && key != "column")
                .map(|(key, value)| (key, without_positions(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_positions).collect()),
        other => other,
    }
}

/// Checks that formatting `src` (named `name`) keeps its meaning; `false` when fmt refused
/// because its layout would move a rule's id
fn formatting_keeps_meaning(name: &str, src: &str) -> Result<bool, TestCaseError> {
    match format_source(src) {
        Ok(formatted) => {
            prop_assert_eq!(
                meaning(name, &formatted),
                meaning(name, src),
                "before:\n{}\nafter:\n{}",
                src,
                formatted
            );
            Ok(true)
        }
        Err(FormatError::MovesRuleId { .. }) => Ok(false),
        Err(err) => Err(TestCaseError::fail(format!("{err:?} for\n{src}"))),
    }
}

proptest! {
    #[test]
    fn random_policies_mean_the_same_after_fmt(src in policy_gen::any_policy()) {
        formatting_keeps_meaning("p.rules", &src)?;
    }
}

/// Every policy of `rules/`: its name and text
fn shipped_policies() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let mut policies: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rules"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    policies.sort();
    policies
}

/// `src` with its layout spoilt but its meaning kept: every line indented, blanks doubled
/// between tokens at the start of a line, and every blank line tripled (which moves ids, the
/// same way for both sides of the comparison)
fn spoilt(src: &str) -> String {
    let mut out = String::new();
    for line in src.lines() {
        if line.trim().is_empty() {
            out.push_str("\n\n\n");
        } else {
            out.push_str("   ");
            out.push_str(line);
            out.push_str("  \n");
        }
    }
    out
}

/// `src` with its `@id` lines dropped and the `by` of its `expect` lines cut, so that every
/// rule is named by its line and the tests still run
fn without_ids(src: &str) -> String {
    let mut out = String::new();
    for line in src.lines() {
        if line.trim_start().starts_with("@id(") {
            continue;
        }
        match line.split_once(" by \"") {
            Some((expect, _)) if line.trim_start().starts_with("expect ") => out.push_str(expect),
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

#[test]
fn shipped_policies_mean_the_same_after_fmt() {
    let policies = shipped_policies();
    assert!(policies.len() >= 5, "{policies:?}");
    for (name, src) in policies {
        let line_ids = without_ids(&src);
        for text in [
            src.clone(),
            spoilt(&src),
            line_ids.clone(),
            spoilt(&line_ids),
        ] {
            match formatting_keeps_meaning(&name, &text) {
                Ok(formatted) => assert!(formatted, "fmt refused {name}:\n{text}"),
                Err(err) => panic!("{name}: {err}"),
            }
        }
    }
}

#[test]
fn meaning_sees_rule_ids() {
    let src = "on stop forbid\n";
    assert_ne!(
        meaning("p.rules", src),
        meaning("p.rules", &format!("\n{src}"))
    );
    assert_eq!(
        meaning("p.rules", src),
        meaning("p.rules", "on   stop\n  forbid\n")
    );
}
