//! The documentation stays true: every repository path that ARCHITECTURE.md names in
//! backticks, and every relative link of README.md and docs/, exists; every `rules` example
//! of docs/ checks without errors and its inline tests pass.

#![expect(
    clippy::unwrap_used,
    reason = "a test helper that cannot read the docs should fail the test"
)]

mod common;

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

/// The file names of the pages of docs/ (`docs/schemas/` holds data, not pages)
fn doc_pages() -> Vec<String> {
    std::fs::read_dir(Path::new(ROOT).join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
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
    for name in doc_pages() {
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

/// The code blocks of `text` fenced as ```` ```rules ````
fn rules_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match &mut current {
            None if line.trim_start() == "```rules" => current = Some(String::new()),
            Some(block) if line.trim_start() == "```" => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    blocks
}

#[test]
fn every_rules_example_of_the_docs_checks_and_passes_its_tests() {
    let mut n_blocks = 0;
    for name in doc_pages() {
        for (block_idx, block) in rules_blocks(&read(&format!("docs/{name}")))
            .into_iter()
            .enumerate()
        {
            n_blocks += 1;
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("example.rules"), &block).unwrap();
            let (code, stdout, stderr) = common::rulesc(dir.path(), &["check", "example.rules"]);
            assert_eq!(
                code, 0,
                "docs/{name} example {block_idx}:\n{stdout}{stderr}"
            );
            if block.contains("test \"") {
                let (code, stdout, stderr) = common::rulesc(dir.path(), &["test", "example.rules"]);
                assert_eq!(
                    code, 0,
                    "docs/{name} example {block_idx}:\n{stdout}{stderr}"
                );
            }
        }
    }
    assert!(n_blocks > 0, "no `rules` example found in docs/");
}

#[test]
fn the_block_finder_sees_rules_blocks_only() {
    let text = "a\n```rules\non stop forbid\n```\n```text\nx\n```\n```rules\n```\n";
    assert_eq!(rules_blocks(text), ["on stop forbid\n", ""]);
}
