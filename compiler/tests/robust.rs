//! `check` on arbitrary token soup: it never panics, the policy exists exactly when there is
//! no error, diagnostics come sorted, and every label points inside its file on character
//! boundaries (what a renderer needs to draw it without panicking).

use proptest::prelude::*;
use rulesc_compiler::{check, Diagnostic, SourceFile};

include!("../../grammar/tests/common/lexicon.rs");

/// Tokens the checker cares about beyond the shared lexicon: names of every kind, bad
/// patterns and literals, annotations
const CHECKER_TOKENS: &[&str] = &[
    "@id(\"y\")",
    "@priority(3)",
    "@priority(-2)",
    "@prio(1)",
    "before_step",
    "post_tool_use",
    "stop",
    "on_error",
    "steps",
    "elapsed",
    "arg.a[0]",
    "metadata.k",
    "error.kind",
    "\"[a\"",
    "\"(\"",
    "\"é\\u{D800}\"",
    "3",
    "99999999999999999999",
    "request",
    "allow_stop",
    "ask",
    "retry",
    "completed",
    "guard_forbade",
    "\"p\"",
    "\"t\"",
    "none",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select([LEXICON, CHECKER_TOKENS].concat()),
        0..48,
    )
    .prop_map(|tokens| tokens.join(" "))
}

/// Rules that parse, built from parts that may not fit together (the checker's job)
fn rules() -> impl Strategy<Value = String> {
    let events = prop::sample::select(
        &[
            "pre_tool_use",
            "before_step",
            "stop",
            "on_error",
            "after_step",
            "execution_end",
            "pre_tool_use, stop",
            "bogus",
        ][..],
    );
    let fields = prop::sample::select(
        &[
            "tool",
            "steps",
            "elapsed",
            "blocked",
            "arg.cmd",
            "metadata.k",
            "error.kind",
            "stpes",
            "response",
            "metadata",
        ][..],
    );
    let ops = prop::sample::select(&["==", "!=", "<", ">=", "~", "=~", "in", "contains"][..]);
    let values = prop::sample::select(
        &[
            "3",
            "\"rm*\"",
            "\"[a\"",
            "\"(x\"",
            "5min",
            "[\"a\", 2]",
            "true",
            "tool",
            "200k",
            "\"\\u{110000}\"",
        ][..],
    );
    let actions = prop::sample::select(
        &[
            "block",
            "forbid",
            "forbid completed",
            "request",
            "allow_stop",
            "ask \"why\"",
            "retry",
            "deny",
            "set metadata.k = 1",
            "set tool = 1",
            "block completed",
        ][..],
    );
    let rule =
        (events, fields, ops, values, actions).prop_map(|(event, field, op, value, action)| {
            format!("on {event} when {field} {op} {value} {action}\n")
        });
    prop::collection::vec(rule, 0..6).prop_map(|rules| rules.concat())
}

fn labels_fit(diag: &Diagnostic, files: &[SourceFile]) -> bool {
    std::iter::once(&diag.primary)
        .chain(&diag.secondary)
        .all(|label| {
            let Some(file) = files.get(label.file.index()) else {
                return false;
            };
            let range = label.span.range();
            range.start <= range.end
                && range.end <= file.text.len()
                && file.text.is_char_boundary(range.start)
                && file.text.is_char_boundary(range.end)
        })
}

proptest! {
    #[test]
    fn check_is_total_and_consistent(first in soup(), second in rules()) {
        let files = [
            SourceFile::new("a.rules", "a.rules", first),
            SourceFile::new("b.rules", "dir/b.rules", second),
        ];
        let checked = check(&files);
        let has_errors = checked.diagnostics.iter().any(Diagnostic::is_error);
        prop_assert_eq!(checked.policy.is_some(), !has_errors);
        let keys: Vec<_> = checked.diagnostics.iter().map(Diagnostic::sort_key).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        prop_assert_eq!(keys, sorted);
        for diag in &checked.diagnostics {
            prop_assert!(labels_fit(diag, &files), "{:?}", diag);
            prop_assert!(!diag.message.is_empty() && !diag.message.ends_with('.'));
        }
    }
}
