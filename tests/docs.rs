//! The documentation stays true: every repository path that ARCHITECTURE.md names in
//! backticks, and every relative link of README.md and docs/ (with its anchor), exists; every
//! `rules` example of docs/ checks without errors and its inline tests pass; the tables of
//! docs/language.md and docs/cli.md are the runtime's own tables, and docs/cli.md names every
//! command, flag and value clap defines; the tutorial runs as written; and nothing in the
//! repository cites a file users never get.

#![expect(
    clippy::unwrap_used,
    reason = "a test helper that cannot read the docs should fail the test"
)]

use crate::common;

use std::path::Path;

use rulesc::{EventKind, Field, FieldPath, Host, StopReason, Verb, EVENT_FIELDS};

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

/// A fenced code block: the words after its language (```` ```rules file=a.rules ````)
/// and its text
#[derive(Debug, PartialEq)]
struct Block {
    lang: String,
    attrs: Vec<String>,
    text: String,
}

impl Block {
    /// The value of `key=value` among the block's words
    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find_map(|attr| attr.strip_prefix(key)?.strip_prefix('='))
    }

    /// Whether the block's words hold `flag`
    fn has(&self, flag: &str) -> bool {
        self.attrs.iter().any(|attr| attr == flag)
    }
}

/// Every fenced code block of `text`, in order
fn code_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut current: Option<Block> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        match &mut current {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let mut words = info.split_whitespace().map(str::to_owned);
                    current = Some(Block {
                        lang: words.next().unwrap_or_default(),
                        attrs: words.collect(),
                        text: String::new(),
                    });
                }
            }
            Some(block) if trimmed == "```" => {
                blocks.push(std::mem::replace(
                    block,
                    Block {
                        lang: String::new(),
                        attrs: Vec::new(),
                        text: String::new(),
                    },
                ));
                current = None;
            }
            Some(block) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
        }
    }
    blocks
}

/// The code blocks of `text` fenced as ```` ```rules ````
fn rules_blocks(text: &str) -> Vec<Block> {
    code_blocks(text)
        .into_iter()
        .filter(|block| block.lang == "rules")
        .collect()
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
            std::fs::write(dir.path().join("example.rules"), &block.text).unwrap();
            let (code, stdout, stderr) = common::rulesc(dir.path(), &["check", "example.rules"]);
            // An example marked `fails` shows an error, and must be one
            let expected = if block.has("fails") { 1 } else { 0 };
            assert_eq!(
                code, expected,
                "docs/{name} example {block_idx}:\n{stdout}{stderr}"
            );
            if expected == 0 && block.text.contains("test \"") {
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
    let text =
        "a\n```rules\non stop forbid\n```\n```text\nx\n```\n```rules file=a.rules fails\n```\n";
    let blocks = rules_blocks(text);
    let texts: Vec<&str> = blocks.iter().map(|block| block.text.as_str()).collect();
    assert_eq!(texts, ["on stop forbid\n", ""]);
    assert_eq!(blocks[1].attr("file"), Some("a.rules"));
    assert!(blocks[1].has("fails") && !blocks[0].has("fails"));
}

/// The rows of the Markdown table of `text` headed `| a | b |`, each cell trimmed
fn table(text: &str, header: &[&str]) -> Vec<Vec<String>> {
    let head = format!("| {} |", header.join(" | "));
    let mut lines = text.lines().skip_while(|line| line.trim() != head);
    assert!(lines.next().is_some(), "no table headed {head}");
    lines
        .skip(1)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            line.trim()
                .trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_owned())
                .collect()
        })
        .collect()
}

fn code(word: &str) -> String {
    format!("`{word}`")
}

/// Events as the tables write them: `every event`, `every event but `x``, or a list
fn event_list(events: &[EventKind]) -> String {
    let all = EventKind::ALL;
    let missing: Vec<&EventKind> = all.iter().filter(|kind| !events.contains(kind)).collect();
    match missing.as_slice() {
        [] => "every event".to_owned(),
        [one] if events.len() > 1 => format!("every event but {}", code(one.name())),
        _ => events
            .iter()
            .map(|kind| code(kind.name()))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn words(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| code(name))
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn the_language_reference_lists_the_runtime_s_events_fields_verbs_and_stop_reasons() {
    let text = read("docs/language.md");

    let events: Vec<Vec<String>> = EventKind::ALL
        .iter()
        .map(|kind| vec![code(kind.name()), kind.doc().to_owned()])
        .collect();
    assert_eq!(table(&text, &["event", "fires"]), events);

    let mut fields: Vec<(String, Field)> = Field::names()
        .map(|name| (code(name), Field::from_name(name).unwrap()))
        .collect();
    fields.push(("`arg.<path>`".into(), Field::Arg(FieldPath::default())));
    fields.push((
        "`result.<path>`".into(),
        Field::ResultPath(FieldPath::default()),
    ));
    fields.push((
        "`metadata.<key>`".into(),
        Field::Metadata(FieldPath::default()),
    ));
    let rows: Vec<Vec<String>> = fields
        .iter()
        .map(|(name, field)| {
            vec![
                name.clone(),
                field.ty().name().to_owned(),
                event_list(&field.visible_events()),
                field.doc().to_owned(),
            ]
        })
        .collect();
    assert_eq!(table(&text, &["field", "type", "seen on", "meaning"]), rows);

    let values: Vec<Vec<String>> = Field::names()
        .filter_map(|name| {
            let values = Field::from_name(name)?.values()?;
            Some(vec![code(name), words(&values.names())])
        })
        .collect();
    assert_eq!(table(&text, &["field", "values"]), values);

    let verbs: Vec<Vec<String>> = Verb::ALL
        .iter()
        .map(|verb| {
            vec![
                code(verb.name()),
                verb.doc().to_owned(),
                event_list(&verb.allowed_events()),
            ]
        })
        .collect();
    assert_eq!(table(&text, &["verb", "meaning", "allowed on"]), verbs);

    let reasons: Vec<(String, String)> = table(&text, &["stop reason", "meaning", "status"])
        .into_iter()
        .map(|row| {
            assert!(!row[1].is_empty(), "a stop reason without meaning: {row:?}");
            (row[0].clone(), row[2].clone())
        })
        .collect();
    let expected: Vec<(String, String)> = StopReason::ALL
        .iter()
        .map(|reason| (code(reason.name()), code(reason.status().name())))
        .collect();
    assert_eq!(reasons, expected);
}

#[test]
fn the_cli_reference_lists_the_keys_of_event_json() {
    let rows: Vec<Vec<String>> = EVENT_FIELDS
        .iter()
        .map(|field| {
            vec![
                code(field.key),
                field.json.described(),
                code(field.test_key),
            ]
        })
        .collect();
    assert_eq!(
        table(
            &read("docs/cli.md"),
            &["key", "JSON type", "inline test key"]
        ),
        rows
    );
}

#[test]
fn the_table_reader_reads_cells_of_the_named_table_only() {
    let text = "| a | b |\n|---|---|\n| x | y |\n\n| a | c |\n|---|---|\n| `1` | 2 |\nafter\n";
    assert_eq!(table(text, &["a", "c"]), [["`1`", "2"]]);
    assert_eq!(
        event_list(&[EventKind::Stop, EventKind::SubagentStop]),
        "`stop`, `subagent_stop`"
    );
}

/// What `rulesc ARGS --help` lists
#[derive(Default)]
struct Help {
    /// `--flags`, but `--help` and `--version`
    flags: Vec<String>,
    /// The values the flags and arguments take (`human`, `claude`, `bash`)
    values: Vec<String>,
    /// The subcommands, but `help`
    commands: Vec<String>,
}

fn help(args: &[&str]) -> Help {
    let mut full = args.to_vec();
    full.push("--help");
    let (code, stdout, stderr) = common::rulesc(ROOT, &full);
    assert_eq!(code, 0, "{stderr}");
    let mut help = Help::default();
    let mut section = "";
    for line in stdout.lines() {
        if line.is_empty() {
            continue;
        }
        if !line.starts_with(' ') {
            section = line;
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let first = line.split_whitespace().next().unwrap_or_default();
        if section == "Commands:" && indent == 2 && first != "help" {
            help.commands.push(first.to_owned());
        }
        if section == "Options:" && indent <= 6 && first.starts_with('-') {
            for word in line.split_whitespace().take(3) {
                let flag: String = word
                    .chars()
                    .take_while(|ch| ch.is_ascii_lowercase() || *ch == '-')
                    .collect();
                if flag.starts_with("--") && flag != "--help" && flag != "--version" {
                    help.flags.push(flag);
                }
            }
        }
        // `- claude: Claude Code` under `Possible values:`, or `[possible values: a, b]`
        if let Some(value) = line.trim_start().strip_prefix("- ") {
            if indent > 6 {
                help.values
                    .push(value.split(':').next().unwrap_or_default().to_owned());
            }
        }
        if let Some((_, list)) = line.split_once("[possible values: ") {
            let list = list.split(']').next().unwrap_or_default();
            help.values.extend(list.split(", ").map(str::to_owned));
        }
    }
    help
}

/// Whether `word` stands in `text` as a word of its own (`--watch`, not `--watcher`)
fn names(text: &str, word: &str) -> bool {
    let part = |ch: char| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_';
    text.match_indices(word)
        .any(|(at, _)| !text[at + word.len()..].starts_with(part) && !text[..at].ends_with(part))
}

/// The text of the section of `text` headed `heading`, up to the next heading of its level
/// or above
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text.find(&format!("\n{heading}\n"));
    assert!(start.is_some(), "no heading {heading:?}");
    let start = start.unwrap();
    let level = heading.split(' ').next().unwrap_or_default();
    let body = &text[start + heading.len() + 2..];
    let end = body
        .match_indices("\n#")
        .find(|(at, _)| {
            let hashes = body[at + 1..].chars().take_while(|ch| *ch == '#').count();
            hashes <= level.len()
        })
        .map_or(body.len(), |(at, _)| at);
    &body[..end]
}

#[test]
fn the_cli_reference_names_every_command_and_flag() {
    let text = read("docs/cli.md");
    let commands = help(&[]).commands;
    assert!(commands.len() >= 10, "too few commands found: {commands:?}");
    let mut missing = Vec::new();
    let mut paths: Vec<Vec<String>> = commands.into_iter().map(|name| vec![name]).collect();
    while let Some(path) = paths.pop() {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        let level = if path.len() == 1 { "##" } else { "###" };
        let heading = format!("{level} `rulesc {}`", args.join(" "));
        if !text.contains(&format!("\n{heading}\n")) {
            missing.push(heading);
            continue;
        }
        let body = section(&text, &heading);
        let help = help(&args);
        for word in help.flags.iter().chain(&help.values) {
            if !names(body, word) {
                missing.push(format!("{heading}: {word}"));
            }
        }
        for sub in help.commands {
            let mut longer = path.clone();
            longer.push(sub);
            paths.push(longer);
        }
    }
    assert!(missing.is_empty(), "docs/cli.md misses: {missing:#?}");
}

/// Files of the repository a reader may open: everything but build output, git's own
/// folder and installed packages
fn repository_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            if !matches!(
                name.as_ref(),
                "target" | ".git" | "node_modules" | "__pycache__"
            ) {
                repository_files(&path, files);
            }
        } else {
            files.push(path);
        }
    }
}

#[test]
fn nothing_in_the_repository_cites_a_file_outside_it() {
    // Spelled in two halves, so that this file does not cite them itself
    let outside = [
        concat!("LANGUAGE", ".md"),
        concat!("CLI", ".md"),
        concat!("shared", "/spec"),
        concat!("shared", "/STYLE"),
        concat!("shared", "/hosts"),
        concat!("shared", "/shell-threats"),
    ];
    let mut files = Vec::new();
    repository_files(Path::new(ROOT), &mut files);
    assert!(files.len() > 100, "too few files found: {}", files.len());
    let mut citing = Vec::new();
    for file in files {
        let relative = file
            .strip_prefix(ROOT)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for (number, line) in text.lines().enumerate() {
            if outside.iter().any(|name| line.contains(name)) {
                citing.push(format!("{relative}:{}: {line}", number + 1));
            }
        }
    }
    assert!(
        citing.is_empty(),
        "these lines cite files users never get; cite the page of docs/ instead:\n{}",
        citing.join("\n")
    );
}

/// Whether `actual` reads as `expected`, where a line `...` stands for any lines and `...`
/// inside a line for any text
fn matches_transcript(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|skip| {
            actual
                .get(skip..)
                .is_some_and(|tail| matches_transcript(rest, tail))
        }),
        Some((line, rest)) => actual.split_first().is_some_and(|(first, others)| {
            let fits = match line.split_once("...") {
                Some((start, end)) => {
                    first.len() >= start.len() + end.len()
                        && first.starts_with(start)
                        && first.ends_with(end)
                }
                None => line == first,
            };
            fits && matches_transcript(rest, others)
        }),
    }
}

#[test]
fn the_transcript_matcher_takes_dots_for_lines_and_text() {
    assert!(matches_transcript(
        &["a", "...", "z"],
        &["a", "b", "c", "z"]
    ));
    assert!(matches_transcript(&["a", "...", "z"], &["a", "z"]));
    assert!(matches_transcript(
        &["... passed, 0 failed"],
        &["3 passed, 0 failed"]
    ));
    assert!(!matches_transcript(
        &["... passed, 0 failed"],
        &["3 passed, 1 failed"]
    ));
    assert!(!matches_transcript(&["a"], &["a", "b"]));
}

/// Each command of a ```` ```console ```` block with the lines it prints: a `$ ` line, and
/// the lines after it while it ends with `\` or leaves a `'` open
fn console_commands(text: &str) -> Vec<(String, Vec<&str>)> {
    let mut commands: Vec<(String, Vec<&str>)> = Vec::new();
    let mut continued = false;
    for line in text.lines() {
        if continued {
            if let Some((command, _)) = commands.last_mut() {
                command.push('\n');
                command.push_str(line);
            }
        } else if let Some(command) = line.strip_prefix("$ ") {
            commands.push((command.to_owned(), Vec::new()));
        } else if let Some((_, output)) = commands.last_mut() {
            output.push(line);
        }
        continued = commands.last().is_some_and(|(command, output)| {
            output.is_empty() && (command.ends_with('\\') || command.matches('\'').count() % 2 == 1)
        });
    }
    commands
}

#[test]
fn the_command_finder_joins_continued_lines() {
    let text = "$ echo '{\"a\":\n  1}' \\\n  | cat\n{\"a\":\n  1}\n$ ls\n";
    assert_eq!(
        console_commands(text),
        [
            (
                "echo '{\"a\":\n  1}' \\\n  | cat".to_owned(),
                vec!["{\"a\":", "  1}"]
            ),
            ("ls".to_owned(), vec![])
        ]
    );
}

/// Runs each command of a ```` ```console ```` block of `page` in `dir` with `sh`, the
/// `rulesc` under test first on the `PATH` and `home` as `HOME`, and compares what it prints
/// (stdout and stderr) with the block; the number of commands run
fn run_console(page: &str, block: &str, dir: &Path, home: &Path) -> usize {
    let bin = Path::new(env!("CARGO_BIN_EXE_rulesc")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let commands = console_commands(block);
    for (command, expected) in &commands {
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("{command} 2>&1"))
            .current_dir(dir)
            .env("PATH", &path)
            .env("HOME", home)
            .env("NO_COLOR", "1")
            .env_remove("XDG_STATE_HOME")
            .env_remove("XDG_CONFIG_HOME")
            .output()
            .unwrap();
        let actual = String::from_utf8(output.stdout).unwrap();
        let actual: Vec<&str> = actual.lines().collect();
        assert!(
            matches_transcript(expected, &actual),
            "{page}: `{command}` printed\n{}\nnot\n{}",
            actual.join("\n"),
            expected.join("\n")
        );
    }
    commands.len()
}

#[test]
fn the_tutorial_runs_as_written() {
    let text = read("docs/tutorial.md");
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let (mut n_files, mut n_commands) = (0, 0);
    for block in code_blocks(&text) {
        if let Some(file) = block.attr("file") {
            std::fs::write(dir.path().join(file), &block.text).unwrap();
            n_files += 1;
        }
        if block.lang == "console" {
            n_commands += run_console("docs/tutorial.md", &block.text, dir.path(), &home);
        }
    }
    assert!(
        n_files >= 3 && n_commands >= 5,
        "too little of the tutorial ran: {n_files} files, {n_commands} commands"
    );
}

/// The ```` ```console run ```` blocks of `page`
fn runnable_consoles(page: &str) -> Vec<String> {
    code_blocks(&read(page))
        .into_iter()
        .filter(|block| block.lang == "console" && block.has("run"))
        .map(|block| block.text)
        .collect()
}

#[test]
fn the_console_examples_marked_run_print_what_they_show() {
    let home = tempfile::tempdir().unwrap();
    let mut n_commands = 0;
    // README.md's run in the repository, on the shipped policies
    for block in runnable_consoles("README.md") {
        n_commands += run_console("README.md", &block, Path::new(ROOT), home.path());
    }
    // Each host's example runs in a project whose `.rulesc/` holds that example's policy
    for host in ["claude-code", "codex", "gemini-cli"] {
        let page = format!("examples/{host}/README.md");
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir(project.path().join(".rulesc")).unwrap();
        std::fs::copy(
            Path::new(ROOT).join(format!("examples/{host}/guard.rules")),
            project.path().join(".rulesc/guard.rules"),
        )
        .unwrap();
        for block in runnable_consoles(&page) {
            n_commands += run_console(&page, &block, project.path(), home.path());
        }
    }
    assert!(n_commands >= 4, "only {n_commands} commands ran");
}

#[test]
fn the_index_of_the_docs_names_every_page() {
    let index = read("docs/README.md");
    let links = relative_links(&index);
    let missing: Vec<String> = doc_pages()
        .into_iter()
        .filter(|page| page != "README.md" && !links.contains(&page.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/README.md does not link {missing:?}"
    );
}

/// The anchors GitHub gives the headings of a Markdown page (outside code blocks)
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut anchors = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            let heading = line.trim_start_matches('#').trim();
            anchors.push(
                heading
                    .to_lowercase()
                    .chars()
                    .filter(|ch| ch.is_alphanumeric() || matches!(ch, ' ' | '-' | '_'))
                    .map(|ch| if ch == ' ' { '-' } else { ch })
                    .collect(),
            );
        }
    }
    anchors
}

#[test]
fn every_anchor_the_docs_link_exists() {
    let mut pages = vec!["README.md".to_owned(), "ARCHITECTURE.md".to_owned()];
    pages.extend(doc_pages().into_iter().map(|name| format!("docs/{name}")));
    let mut broken = Vec::new();
    for page in &pages {
        let text = read(page);
        let dir = Path::new(page).parent().unwrap();
        for target in text
            .split("](")
            .skip(1)
            .filter_map(|rest| rest.split(')').next())
        {
            let Some((file, anchor)) = target.split_once('#') else {
                continue;
            };
            if file.contains("://") || !(file.is_empty() || file.ends_with(".md")) {
                continue;
            }
            let linked = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file).to_string_lossy().into_owned()
            };
            if !anchors(&read(&linked)).iter().any(|known| known == anchor) {
                broken.push(format!("{page} links to {target}"));
            }
        }
    }
    assert!(broken.is_empty(), "links to missing headings: {broken:#?}");
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let text = "# A `rulesc hook` page\n```sh\n# not a heading\n```\n### 4.2 Verbs (decisions), and `--user`\n";
    assert_eq!(
        anchors(text),
        ["a-rulesc-hook-page", "42-verbs-decisions-and---user"]
    );
}

/// The backticked words of `text` that start with a capital letter: a host's event names
fn host_event_names(text: &str) -> std::collections::BTreeSet<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| word.starts_with(|ch: char| ch.is_ascii_uppercase()))
        .collect()
}

#[test]
fn the_hook_protocol_lists_each_host_s_events() {
    let text = read("docs/hosts.md");
    let rows = table(
        &text,
        &[
            "rulesc event",
            "Claude Code",
            "Codex",
            "Gemini CLI",
            "what the policy sees",
        ],
    );
    let protocol = section(&text, "## The hook protocol per host");
    for (host, column) in [(Host::Claude, 1), (Host::Codex, 2), (Host::Gemini, 3)] {
        let documented: std::collections::BTreeSet<&str> = rows
            .iter()
            .flat_map(|row| host_event_names(&row[column]))
            .collect();
        let mapped: std::collections::BTreeSet<&str> = host.hook_events().collect();
        assert_eq!(
            documented, mapped,
            "{host:?}: the events docs/hosts.md maps"
        );
        for name in host.event_names() {
            assert!(
                names(protocol, &format!("`{name}`")),
                "{host:?}: docs/hosts.md does not say what becomes of `{name}`"
            );
        }
    }
}
