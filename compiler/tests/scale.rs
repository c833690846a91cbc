//! Checking grows linearly with the number of rules: for each shape of policy that once
//! made a lint or a check compare every rule with every other, checking four times the rules
//! takes at most eight times as long (a quadratic check takes sixteen times as long).
//!
//! Each size is timed several times, interleaved, and the fastest run of each is compared,
//! so a busy machine slows a run without changing the ratio much; the margin from the four
//! times of linear growth to the eight allowed is what noise may take.

use std::time::{Duration, Instant};

use rulesc_compiler::{check, Checked, SourceFile};

/// The smaller size of each shape; the larger is four times as many rules
const RULES: usize = 4_000;

/// Runs of each size; the fastest counts
const RUNS: usize = 3;

/// The largest ratio allowed between the fastest check of `4 * RULES` and of `RULES` rules
const MAX_RATIO: f64 = 8.0;

/// A policy of `count` rules, the `i`-th of which `rule(i, count)` writes
fn policy(count: usize, rule: fn(usize, usize) -> String) -> Vec<SourceFile> {
    let text: String = (0..count).map(|idx| rule(idx, count) + "\n").collect();
    vec![SourceFile::new("scale.rules", "scale.rules", text)]
}

fn timed(files: &[SourceFile]) -> (Duration, Checked) {
    let start = Instant::now();
    let checked = check(files);
    (start.elapsed(), checked)
}

/// How many of `checked`'s diagnostics have `code`
fn with_code(checked: &Checked, code: &str) -> usize {
    checked
        .diagnostics
        .iter()
        .filter(|diag| diag.code.id == code)
        .count()
}

/// Checks the shape at both sizes, asserts on each result with `expect`, and returns the
/// ratio of the fastest times
fn ratio(rule: fn(usize, usize) -> String, expect: fn(usize, &Checked)) -> f64 {
    let small = policy(RULES, rule);
    let large = policy(4 * RULES, rule);
    let mut fastest = [Duration::MAX; 2];
    for _ in 0..RUNS {
        for (slot, (count, files)) in fastest
            .iter_mut()
            .zip([(RULES, &small), (4 * RULES, &large)])
        {
            let (took, checked) = timed(files);
            expect(count, &checked);
            *slot = (*slot).min(took);
        }
    }
    let [small, large] = fastest;
    large.as_secs_f64() / small.as_secs_f64().max(1e-9)
}

fn assert_linear(name: &str, rule: fn(usize, usize) -> String, expect: fn(usize, &Checked)) {
    let ratio = ratio(rule, expect);
    assert!(
        ratio < MAX_RATIO,
        "{name}: checking 4x the rules took {ratio:.1}x the time, more than {MAX_RATIO}x"
    );
}

#[test]
fn identical_rules() {
    // Every rule but the first is dead (W002), one request warns for all (W005).
    assert_linear(
        "identical rules",
        |_, _| "on stop request".to_owned(),
        |count, checked| {
            assert!(checked.policy.is_some());
            assert_eq!(with_code(checked, "W002"), count - 1);
            assert_eq!(with_code(checked, "W005"), 1);
        },
    );
}

#[test]
fn identical_rules_that_allow_their_warning() {
    // `@allow(W002)` silences each rule's own warning, wherever it is in the file.
    assert_linear(
        "allowing rules",
        |_, _| "@allow(W002)\non stop request".to_owned(),
        |_, checked| {
            assert!(checked.policy.is_some());
            assert_eq!(with_code(checked, "W002"), 0);
        },
    );
}

#[test]
fn rules_that_set_one_key_alike() {
    // Equal `set`s never conflict (W001).
    assert_linear(
        "equal sets",
        |idx, _| {
            if idx == 0 {
                "on pre_tool_use when metadata.trust == \"low\" block".to_owned()
            } else {
                "on post_tool_use when tool == \"web_fetch\" set metadata.trust = \"low\""
                    .to_owned()
            }
        },
        |_, checked| {
            assert!(checked.policy.is_some());
            assert_eq!(with_code(checked, "W001"), 0);
        },
    );
}

#[test]
fn rules_that_set_and_read_their_own_keys() {
    // Each key is set by one rule and read by another: none is never read (W006) or never
    // set (W007).
    assert_linear(
        "set and read",
        |idx, _| {
            let key = idx / 2;
            if idx % 2 == 0 {
                format!("on post_tool_use set metadata.k{key} = 1")
            } else {
                format!("on pre_tool_use when metadata.k{key} == 1 block")
            }
        },
        |_, checked| {
            assert!(checked.policy.is_some());
            for code in ["W006", "W007"] {
                assert_eq!(with_code(checked, code), 0, "{code}");
            }
        },
    );
}

#[test]
fn rules_whose_ids_descend() {
    // The winner among equals is the rule with the smallest id, here the last one: every
    // other rule is dead (W002).
    assert_linear(
        "descending ids",
        |idx, count| format!("@id(\"r{:06}\")\non stop request", count - idx),
        |count, checked| {
            assert!(checked.policy.is_some());
            assert_eq!(with_code(checked, "W002"), count - 1);
        },
    );
}

#[test]
fn rules_with_distinct_trace_terms() {
    // Each rule counts its own tool: as many terms as rules.
    assert_linear(
        "distinct trace terms",
        |idx, _| {
            format!("on pre_tool_use when count(pre_tool_use when tool == \"t{idx}\") > 2 block")
        },
        |_, checked| {
            assert!(checked.policy.is_some());
        },
    );
}
