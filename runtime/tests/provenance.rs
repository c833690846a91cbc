//! `from` measured on real text (docs/trace.md "Provenance"): the repository's docs are the
//! labelled content; excerpts of them must be found (recall), and paragraphs of the README
//! files of the crates this workspace builds on, text unrelated to rulesc, must not be
//! (false positives). The numbers print with `--nocapture`.

#![expect(
    clippy::print_stdout,
    reason = "the measured rates are the output a reader of this test wants"
)]
#![expect(
    clippy::unwrap_used,
    reason = "helpers of tests: a file that cannot be read fails the test"
)]

use std::path::{Path, PathBuf};

use crate::common;

use rulesc_runtime::{
    Action, Condition, Decision, EvalOptions, Event, EventKind, Policy, ToolOutput, TraceState,
    Verb,
};
use serde_json::json;

/// How much of the docs is labelled: the false positive rate grows with the labelled
/// content (more of its five-word phrases are common ones), so the rate is measured, and
/// documented in docs/trace.md, for this much, whatever the docs grow to
const LABELLED_BYTES: usize = 64 * 1024;

/// The first [`LABELLED_BYTES`] of the repository's docs and README
fn docs() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut text = String::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    files.push(root.join("README.md"));
    files.sort();
    for file in files {
        text.push_str(&std::fs::read_to_string(file).unwrap());
    }
    let mut end = LABELLED_BYTES.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text
}

/// Paragraphs of at least 200 bytes from the README of every crate in the local registry
fn unrelated_paragraphs() -> Vec<String> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .unwrap();
    let mut readmes = Vec::new();
    for index in std::fs::read_dir(home.join("registry/src")).unwrap() {
        for krate in std::fs::read_dir(index.unwrap().path()).unwrap() {
            let readme = krate.unwrap().path().join("README.md");
            if readme.exists() {
                readmes.push(readme);
            }
        }
    }
    readmes.sort();
    readmes
        .iter()
        .filter_map(|readme| std::fs::read_to_string(readme).ok())
        .flat_map(|text| {
            text.split("\n\n")
                .map(str::to_owned)
                .filter(|paragraph| paragraph.len() >= 200)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A policy that labels every result "docs" and blocks a call whose body is from it
fn policy() -> Policy {
    let mut label = common::decide("label", &[EventKind::PostToolUse], Verb::Allow);
    label.action = Action::Label {
        label: "docs".to_owned(),
        path: Vec::new(),
    };
    let guard = common::when(
        common::decide("guard", &[EventKind::PreToolUse], Verb::Block),
        Condition::From {
            field: common::arg("body"),
            label: "docs".to_owned(),
        },
    );
    common::policy(vec![label, guard])
}

/// The run after a tool read `labelled`, which the policy labels
fn after_reading(policy: &Policy, labelled: &str) -> TraceState {
    let mut trace = TraceState::default();
    let mut post = Event::new(EventKind::PostToolUse);
    post.result = Some(ToolOutput::from_text(labelled));
    policy.evaluate_with(&post, EvalOptions::default().trace(&mut trace));
    trace
}

/// Whether the policy blocks a mail whose body is `body` in the run `trace`, as from the
/// label; a clone of the run, so each question is asked of the same run
fn blocks_mail(policy: &Policy, trace: &TraceState, body: &str) -> bool {
    let mut call = Event::new(EventKind::PreToolUse);
    call.tool = Some("send_email".to_owned());
    call.arg = Some(json!({ "body": body }));
    let mut trace = trace.clone();
    let outcome = policy.evaluate_with(&call, EvalOptions::default().trace(&mut trace));
    outcome.resolution.decision == Decision::Block
}

#[test]
fn docs_excerpts_are_found_and_unrelated_readmes_are_not() {
    let policy = policy();
    let labelled = docs();
    let trace = after_reading(&policy, &labelled);
    let is_from = |body: &str| blocks_mail(&policy, &trace, body);

    // Excerpts of 80 characters, every 500 bytes, quoted inside text of their own.
    let chars: Vec<char> = labelled.chars().collect();
    let excerpts: Vec<String> = (0..chars.len().saturating_sub(80))
        .step_by(500)
        .map(|start| chars[start..start + 80].iter().collect())
        .collect();
    let found = excerpts
        .iter()
        .filter(|excerpt| is_from(&format!("As the page said: {excerpt} Regards.")))
        .count();
    let paragraphs = unrelated_paragraphs();
    let false_positives = paragraphs
        .iter()
        .filter(|paragraph| is_from(paragraph))
        .count();
    let recall = found as f64 / excerpts.len() as f64;
    let false_rate = false_positives as f64 / paragraphs.len() as f64;
    println!(
        "labelled {} bytes; excerpts found {found}/{} ({:.1}%); unrelated paragraphs flagged {false_positives}/{} ({:.2}%)",
        labelled.len(),
        excerpts.len(),
        recall * 100.0,
        paragraphs.len(),
        false_rate * 100.0,
    );
    assert!(excerpts.len() >= 100 && paragraphs.len() >= 1000);
    assert!(recall >= 0.95, "recall {recall}");
    assert!(false_rate <= 0.005, "false positive rate {false_rate}");
}

/// The URLs and e-mail addresses of `text`, without the punctuation around them
fn addresses(text: &str) -> Vec<String> {
    let mut found: Vec<String> = text
        .split_whitespace()
        .map(|token| token.trim_matches(|ch: char| !ch.is_alphanumeric() && ch != '/'))
        .filter(|token| {
            (token.starts_with("http") && token.contains("://"))
                || token
                    .split_once('@')
                    .is_some_and(|(user, host)| !user.is_empty() && host.contains('.'))
        })
        .map(str::to_owned)
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Every 97th run of three words in a row of `text`: values such as a name or a title
fn triples(text: &str) -> Vec<String> {
    let words: Vec<&str> = text
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    words
        .windows(3)
        .step_by(97)
        .map(|triple| triple.join(" "))
        .collect()
}

/// Only the letters and digits of `text`, lowercase: where a value occurs in it as text
fn squeezed(text: &str) -> String {
    text.chars()
        .filter(|ch| ch.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[test]
fn values_of_the_docs_are_found_in_any_spelling_and_values_elsewhere_are_not() {
    let policy = policy();
    let labelled = docs();
    let trace = after_reading(&policy, &labelled);
    let is_from = |value: &str| blocks_mail(&policy, &trace, value);

    // Each value of the docs, respelt as an attacker would: upper case, and an URL without
    // its scheme or with `www.`.
    let mut respelt = Vec::new();
    for value in addresses(&labelled).into_iter().chain(triples(&labelled)) {
        respelt.push(value.to_uppercase());
        if let Some((_, rest)) = value.split_once("://") {
            respelt.push(rest.trim_start_matches("www.").to_owned());
            respelt.push(format!("www.{}/", rest.trim_start_matches("www.")));
        }
    }
    let found = respelt.iter().filter(|value| is_from(value)).count();

    // Values of unrelated READMEs that the docs do not hold as text (their letters and
    // digits are not in a row in the docs' letters and digits), which must not be found.
    let docs_squeezed = squeezed(&labelled);
    let paragraphs = unrelated_paragraphs();
    let mut elsewhere: Vec<String> = paragraphs
        .iter()
        .flat_map(|paragraph| addresses(paragraph).into_iter().chain(triples(paragraph)))
        .filter(|value| {
            let squeezed = squeezed(value);
            squeezed.len() >= 4 && !docs_squeezed.contains(&squeezed)
        })
        .collect();
    elsewhere.sort();
    elsewhere.dedup();
    let flagged: Vec<&String> = elsewhere.iter().filter(|value| is_from(value)).collect();

    let recall = found as f64 / respelt.len() as f64;
    let false_rate = flagged.len() as f64 / elsewhere.len() as f64;
    println!(
        "values of the docs respelt found {found}/{} ({:.1}%); values elsewhere flagged {}/{} ({:.2}%), such as {:?}",
        respelt.len(),
        recall * 100.0,
        flagged.len(),
        elsewhere.len(),
        false_rate * 100.0,
        flagged.iter().take(8).collect::<Vec<_>>(),
    );
    assert!(respelt.len() >= 100 && elsewhere.len() >= 1000);
    assert!(recall >= 0.99, "recall {recall}");
    assert!(false_rate <= 0.02, "false positive rate {false_rate}");
}
