//! Unknown keys in the JSON a user writes (event JSON, run scripts, scenarios): each is a
//! warning naming the key, where it is and the nearest known key, and the command goes on;
//! under `--strict` each is an error and the command exits 2 with no output. The expected
//! lines are written from the inputs in `tests/unknown_keys/`, not read off the program.

use crate::common;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/unknown_keys");

fn rulesc(args: &[&str]) -> (i32, String, String) {
    common::rulesc(FIXTURES, args)
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

#[test]
fn eval_warns_about_each_unknown_key_with_its_line() {
    let (code, stdout, stderr) = rulesc(&["eval", "p.rules", "--event", "typos.jsonl"]);
    assert_eq!(code, 0, "{stderr}");
    // The typo reads as absent: `elapsd_ms` is not `elapsed_ms`, so the time limit stays quiet.
    let decisions: Vec<String> = stdout
        .lines()
        .map(|line| {
            serde_json::from_str::<serde_json::Value>(line).unwrap()["decision"].to_string()
        })
        .collect();
    assert_eq!(decisions, ["\"none\"", "\"block\""]);
    assert_eq!(
        lines(&stderr),
        [
            "warning: `typos.jsonl` line 1: unknown key `elapsd_ms`, did you mean `elapsed_ms`?",
            "warning: `typos.jsonl` line 2: unknown key `agr`, did you mean `arg`?",
        ]
    );
}

#[test]
fn eval_from_stdin_names_stdin() {
    let mut command = common::command(FIXTURES, &["eval", "p.rules", "--event", "-"]);
    let (code, _, stderr) = common::run(&mut command, "{\"event\": \"stop\", \"stop_requsts\": 1}");
    assert_eq!(code, 0);
    assert_eq!(
        lines(&stderr),
        ["warning: stdin line 1: unknown key `stop_requsts`, did you mean `stop_requests`?"]
    );
}

#[test]
fn eval_strict_refuses_unknown_keys_before_any_outcome() {
    let (code, stdout, stderr) = rulesc(&["eval", "p.rules", "--event", "typos.jsonl", "--strict"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(
        lines(&stderr),
        [
            "error: `typos.jsonl` line 1: unknown key `elapsd_ms`, did you mean `elapsed_ms`?",
            "error: `typos.jsonl` line 2: unknown key `agr`, did you mean `arg`?",
        ]
    );
}

#[test]
fn run_warns_with_the_json_path_of_each_unknown_key() {
    let (code, stdout, stderr) = rulesc(&["run", "p.rules", "--script", "typos.json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"status\""), "{stdout}");
    assert_eq!(
        lines(&stderr),
        [
            "warning: `typos.json`: unknown key `clock_ms_per_steps`, did you mean `clock_ms_per_step`?",
            "warning: `typos.json`: unknown key `tools.bash.outptu`, did you mean `output`?",
            "warning: `typos.json`: unknown key `turns[0].finsh_reason`, did you mean `finish_reason`?",
            "warning: `typos.json`: unknown key `turns[0].tool_calls[0].arguments`, which nothing reads",
            "warning: `typos.json`: unknown key `turns[1].usage.ouput`, did you mean `output`?",
        ]
    );
    let (code, stdout, _) = rulesc(&["run", "p.rules", "--script", "typos.json", "--strict"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
}

#[test]
fn test_warns_about_a_scenario_whose_expect_key_is_misspelt() {
    let (code, stdout, stderr) = rulesc(&["test", "p.rules", "typos.scenario.json"]);
    // The misspelt key compares `null` with the expected value, so the scenario fails too.
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_eq!(
        lines(&stderr),
        ["warning: `typos.scenario.json`: unknown key `expect.stop_reson`, did you mean `stop_reason`?"]
    );
    let (code, _, stderr) = rulesc(&["test", "--strict", "p.rules", "typos.scenario.json"]);
    assert_eq!(code, 2);
    assert_eq!(
        lines(&stderr),
        [
            "error: `typos.scenario.json`: unknown key `expect.stop_reson`, did you mean `stop_reason`?",
            "error: `typos.scenario.json`: unknown keys are errors under `--strict`",
        ]
    );
}
