//! `rulesc test`: inline test blocks and scenario files, passing and failing, in both output
//! formats, and the exit codes of docs/cli.md. Fixtures live in `tests/test_command/`; the
//! command runs in `tests/` so that paths stay relative.

use crate::common;

const TESTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");

/// Exit code, stdout and stderr of `rulesc args...` run in `tests/`, under headers
fn transcript(args: &[&str]) -> String {
    common::transcript(args, common::rulesc(TESTS, args))
}

macro_rules! snapshot {
    ($name:literal, $args:expr) => {
        insta::with_settings!({prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_snapshot!($name, transcript(&$args));
        })
    };
}

#[test]
fn passing_tests_and_scenarios() {
    snapshot!("test_passing", ["test", "test_command/passing"]);
}

#[test]
fn failing_tests_name_the_step_or_key_with_expected_and_actual() {
    snapshot!("test_failing", ["test", "test_command/failing"]);
}

#[test]
fn failing_tests_as_json() {
    snapshot!(
        "test_failing_json",
        ["test", "--format", "json", "test_command/failing"]
    );
}

#[test]
fn a_scenario_given_by_name_runs_against_the_policy_given() {
    snapshot!(
        "test_scenario_by_name",
        [
            "test",
            "test_command/failing/guard.rules",
            "test_command/passing/finish.scenario.json"
        ]
    );
}

#[test]
fn a_policy_with_errors_runs_no_test() {
    snapshot!("test_policy_errors", ["test", "test_command/broken"]);
}

#[test]
fn malformed_scenarios_and_missing_policies_are_usage_errors() {
    snapshot!(
        "test_malformed_scenario",
        [
            "test",
            "test_command/passing/guard.rules",
            "test_command/malformed.scenario.json"
        ]
    );
    snapshot!(
        "test_no_policy",
        ["test", "test_command/passing/finish.scenario.json"]
    );
}
