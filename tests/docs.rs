//! The documentation stays true: every repository path that ARCHITECTURE.md names in
//! backticks, and every relative link of README.md and docs/, exists.

#![expect(
    clippy::unwrap_used,
    reason = "a test helper that cannot read the docs should fail the test"
)]

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Backticked spans that look like repository paths (`runtime/src/resolve.rs`, `rules/`)
fn backticked_paths(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            span.contains('/')
                && !span.contains(' ')
                && !span.contains("://")
                && !span.starts_with('/')
                && span
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || "/._-".contains(ch))
        })
        .collect()
}

/// Targets of Markdown links `[text](target)` that are not web addresses or anchors
fn relative_links(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|target| target.split('#').next().unwrap_or(target))
        .filter(|target| !target.is_empty() && !target.contains("://"))
        .collect()
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(relative)).unwrap()
}

#[test]
fn every_path_named_in_architecture_exists() {
    let text = read("ARCHITECTURE.md");
    let paths = backticked_paths(&text);
    assert!(paths.len() > 10, "too few paths found: {paths:?}");
    let missing: Vec<&str> = paths
        .into_iter()
        .filter(|path| !Path::new(ROOT).join(path).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names missing paths: {missing:?}"
    );
}

#[test]
fn every_relative_link_of_the_docs_exists() {
    let mut docs = vec!["README.md".to_owned()];
    for entry in std::fs::read_dir(Path::new(ROOT).join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        docs.push(format!("docs/{name}"));
    }
    for doc in docs {
        let base = Path::new(ROOT).join(&doc);
        let dir = base.parent().unwrap();
        for link in relative_links(&read(&doc)) {
            assert!(dir.join(link).exists(), "{doc} links to missing `{link}`");
        }
    }
}

#[test]
fn the_link_finder_sees_links_and_skips_web_addresses() {
    let text = "see [a](docs/a.md#x), [b](https://example.com) and [c](../c.md)";
    assert_eq!(relative_links(text), ["docs/a.md", "../c.md"]);
    let text = "`runtime/src/resolve.rs` and `forbid > allow` and `rules/`";
    assert_eq!(backticked_paths(text), ["runtime/src/resolve.rs", "rules/"]);
}

/// The ```` ```rules ```` blocks of a Markdown text
fn rules_blocks(text: &str) -> Vec<&str> {
    text.split("```rules\n")
        .skip(1)
        .filter_map(|rest| rest.split("\n```").next())
        .collect()
}

#[test]
fn every_policy_example_of_the_docs_checks_and_passes_its_tests() {
    let mut n_tests = 0;
    for entry in std::fs::read_dir(Path::new(ROOT).join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let doc = format!("docs/{name}");
        for (idx, block) in rules_blocks(&read(&doc)).into_iter().enumerate() {
            let example = format!("{doc} example {}", idx + 1);
            let checked = rulesc::check_source("example.rules", block);
            let found = checked.diagnostics.diagnostics().len();
            assert_eq!(found, 0, "{example} has diagnostics");
            let policy = checked.policy.unwrap();
            for test in &checked.tests {
                for (event, expectation) in &test.steps {
                    let outcome = policy.evaluate(event);
                    assert!(
                        expectation.is_met_by(&outcome),
                        "{example}, test {:?}: got {:?}",
                        test.name,
                        outcome.resolution
                    );
                    n_tests += 1;
                }
            }
        }
    }
    assert!(n_tests >= 8, "only {n_tests} example tests ran");
}
