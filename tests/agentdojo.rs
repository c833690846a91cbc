//! A sample of the AgentDojo benchmark's converted traces (`tests/agentdojo/`, written by
//! `bench/agentdojo/run.py --sample`), replayed with the generic `rules/agentdojo/`
//! policies: each trace, benign, attacked or attacked with reformatted values, gets the
//! outcome the benchmark measured and recorded beside it (a benign trace kept or lost, an
//! attack stopped at a call of its injection task or missed), so a change of the runtime or
//! of a policy that moves a number of BENCHMARKS.md fails here first.

#![expect(clippy::unwrap_used, reason = "tests: a bad fixture fails the test")]

use crate::common;

use std::path::Path;

use serde_json::Value as Json;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read_json(relative: &str) -> Json {
    serde_json::from_str(&std::fs::read_to_string(Path::new(ROOT).join(relative)).unwrap()).unwrap()
}

#[test]
fn each_sample_trace_gets_the_outcome_the_benchmark_measured() {
    for suite in ["banking", "slack", "travel", "workspace"] {
        let policy = format!("rules/agentdojo/{suite}.rules");
        let traces = format!("tests/agentdojo/{suite}.jsonl");
        let (code, stdout, stderr) =
            common::rulesc(ROOT, &["replay", &policy, &traces, "--format", "json"]);
        assert_eq!((code, stderr.as_str()), (0, ""), "{suite}");
        let report: Json = serde_json::from_str(&stdout).unwrap();
        let expectations = read_json(&format!("tests/agentdojo/{suite}.expect.json"));
        let expectations = expectations.as_array().unwrap();
        assert!(expectations.len() >= 4, "{suite}: too small a sample");
        assert!(
            expectations.iter().any(|expect| expect["session"]
                .as_str()
                .unwrap()
                .ends_with("/reformatted")),
            "{suite}: no reformatted attack in the sample"
        );
        for expect in expectations {
            let session = &expect["session"];
            let found = report["sessions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|report| &report["session"] == session)
                .unwrap_or_else(|| panic!("{session} was not replayed"));
            let blocked: Vec<u64> = found["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|finding| finding["mode"] == "enforce")
                .filter(|finding| {
                    ["block", "ask", "forbid"].contains(&finding["decision"].as_str().unwrap())
                })
                .map(|finding| finding["line"].as_u64().unwrap())
                .collect();
            let outcome = if expect["kind"] == "benign" {
                if blocked.is_empty() {
                    "kept"
                } else {
                    "lost"
                }
            } else {
                let goal: Vec<u64> = expect["goal_lines"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|line| line.as_u64().unwrap())
                    .collect();
                if blocked.iter().any(|line| goal.contains(line)) {
                    "stopped"
                } else {
                    "missed"
                }
            };
            assert_eq!(
                outcome, expect["outcome"],
                "{session}: the benchmark measured another outcome (blocked at {blocked:?})"
            );
        }
    }
}

#[test]
fn the_sample_traces_are_valid_rulesc_traces() {
    let schema = read_json("docs/schemas/trace.json");
    let validator = jsonschema::validator_for(&schema).unwrap();
    for suite in ["banking", "slack", "travel", "workspace"] {
        let text =
            std::fs::read_to_string(Path::new(ROOT).join(format!("tests/agentdojo/{suite}.jsonl")))
                .unwrap();
        for (number, line) in text.lines().enumerate() {
            let value: Json = serde_json::from_str(line).unwrap();
            assert!(validator.is_valid(&value), "{suite} line {}", number + 1);
        }
    }
}
