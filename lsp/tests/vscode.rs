//! The VS Code extension in `editors/vscode/`: its JSON files parse, it contributes the
//! `.rules` language with the TextMate grammar and launches `rulesc lsp`, and the grammar's
//! word lists are the language's, read from the grammar (`rules.pest`, its `kw_` rules) and
//! the runtime's vocabulary and table of builtins, so highlighting cannot drift from the
//! language.

#![expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "helpers of tests: a file that cannot be read, or a grammar that is not the shape expected, fails the test"
)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use rulesc_runtime::{EventKind, StopReason, Verb, BUILTINS};
use serde_json::Value;

fn extension_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../editors/vscode")
}

fn json_file(name: &str) -> Value {
    let text = std::fs::read_to_string(extension_dir().join(name)).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|err| panic!("`{name}` is not JSON: {err}"))
}

/// The TextMate grammar's pattern `name` of its repository
fn pattern(name: &str) -> String {
    let grammar = json_file("syntaxes/rules.tmLanguage.json");
    grammar["repository"][name]["match"]
        .as_str()
        .unwrap_or_else(|| panic!("the grammar has no `{name}` pattern"))
        .to_owned()
}

/// The words of a `\b(a|b|c)\b` pattern (a `\.` in one is a dot), each checked to be
/// matched whole by it
fn words_of(name: &str) -> BTreeSet<String> {
    let source = pattern(name);
    let inner = source
        .strip_prefix("\\b(")
        .and_then(|rest| rest.strip_suffix(")\\b"))
        .unwrap_or_else(|| panic!("`{name}` is not a list of words: {source}"));
    let regex = regex::Regex::new(&format!("^(?:{source})$")).unwrap();
    inner
        .split('|')
        .map(|word| {
            let word = word.replace("\\.", ".");
            assert!(regex.is_match(&word), "`{name}` does not match `{word}`");
            word
        })
        .collect()
}

fn set<'a>(words: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    words.into_iter().map(str::to_owned).collect()
}

/// The keywords of the grammar: the words of its `kw_<word> = @{ "<word>" ... }` rules
fn grammar_keywords() -> BTreeSet<String> {
    let pest = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../grammar/src/rules.pest"),
    )
    .unwrap();
    let found: BTreeSet<String> = pest
        .lines()
        .filter_map(|line| line.strip_prefix("kw_"))
        .filter_map(|rest| rest.split_once(" = @{ \""))
        .filter_map(|(_, rest)| rest.split_once('"'))
        .map(|(word, _)| word.to_owned())
        .collect();
    assert!(found.len() >= 16, "too few keywords read: {found:?}");
    found
}

#[test]
fn the_keyword_lists_are_the_grammars() {
    let highlighted: BTreeSet<String> = words_of("keywords")
        .into_iter()
        .chain(words_of("booleans"))
        .collect();
    let keywords = grammar_keywords();
    let missing: Vec<&String> = keywords.difference(&highlighted).collect();
    assert!(
        missing.is_empty(),
        "keywords of grammar/src/rules.pest missing from \
         editors/vscode/syntaxes/rules.tmLanguage.json: {missing:?}"
    );
    let extra: Vec<&String> = highlighted.difference(&keywords).collect();
    assert!(
        extra.is_empty(),
        "highlighted as keywords but none in grammar/src/rules.pest: {extra:?}"
    );
}

#[test]
fn the_events_verbs_and_stop_reasons_are_the_runtimes() {
    assert_eq!(words_of("events"), set(EventKind::ALL.map(EventKind::name)));
    assert_eq!(words_of("verbs"), set(Verb::ALL.map(Verb::name)));
    assert_eq!(
        words_of("stop-reasons"),
        set(StopReason::ALL.map(StopReason::name))
    );
}

#[test]
fn the_builtins_are_the_tables_and_win_over_fields() {
    assert_eq!(
        words_of("builtins"),
        set(BUILTINS.iter().map(|row| row.name))
    );
    let builtins = regex::Regex::new(&pattern("builtins")).unwrap();
    for (text, found) in [
        ("shell.all(program == \"ls\")", "shell.all"),
        ("outside_cwd_and_tmp)", "outside_cwd_and_tmp"),
        ("count(stop)", "count"),
    ] {
        assert_eq!(builtins.find(text).unwrap().as_str(), found);
    }
    // At one place the first pattern of the list wins, so builtins come before fields.
    let grammar = json_file("syntaxes/rules.tmLanguage.json");
    let order: Vec<&str> = grammar["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|include| include["include"].as_str().unwrap())
        .collect();
    let position = |name: &str| order.iter().position(|include| *include == name).unwrap();
    assert!(position("#builtins") < position("#fields"), "{order:?}");
}

/// Every regular expression of a grammar node, at any depth
fn regexes(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("match" | "begin" | "end", Value::String(source)) => {
                        found.push(source.clone());
                    }
                    _ => regexes(value, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| regexes(item, found)),
        _ => {}
    }
}

#[test]
fn every_pattern_compiles_and_every_include_is_defined() {
    let grammar = json_file("syntaxes/rules.tmLanguage.json");
    assert_eq!(grammar["scopeName"], "source.rules");
    let repository = grammar["repository"].as_object().unwrap();
    for include in grammar["patterns"].as_array().unwrap() {
        let name = include["include"].as_str().unwrap();
        let name = name.strip_prefix('#').unwrap();
        assert!(repository.contains_key(name), "`#{name}` is not defined");
    }
    let mut found = Vec::new();
    regexes(&grammar, &mut found);
    assert!(found.len() > 10);
    for source in found {
        if let Err(err) = regex::Regex::new(&source) {
            panic!("`{source}`: {err}");
        }
    }
    let comment = regex::Regex::new(&pattern("comment")).unwrap();
    assert_eq!(
        comment.find("on stop request # W005").unwrap().as_str(),
        "# W005"
    );
    let numbers = regex::Regex::new(&pattern("numbers")).unwrap();
    for literal in ["20", "100_000", "200k", "5min", "500ms", "2h"] {
        assert_eq!(numbers.find(literal).unwrap().as_str(), literal);
    }
}

#[test]
fn the_extension_contributes_the_language_and_launches_the_server() {
    let package = json_file("package.json");
    let language = &package["contributes"]["languages"][0];
    assert_eq!(language["id"], "rules");
    assert_eq!(language["extensions"][0], ".rules");
    let grammar = &package["contributes"]["grammars"][0];
    assert_eq!(grammar["language"], "rules");
    assert_eq!(grammar["scopeName"], "source.rules");
    let relative = |key: &Value| extension_dir().join(key.as_str().unwrap());
    assert!(relative(&grammar["path"]).is_file());
    assert!(relative(&language["configuration"]).is_file());
    assert!(relative(&package["main"]).is_file());
    let properties = &package["contributes"]["configuration"]["properties"];
    assert_eq!(properties["rulesc.server.path"]["default"], "rulesc");
    assert_eq!(
        properties["rulesc.server.args"]["default"],
        serde_json::json!(["lsp"])
    );
    assert!(package["dependencies"]["vscode-languageclient"].is_string());
    let configuration = json_file("language-configuration.json");
    assert_eq!(configuration["comments"]["lineComment"], "#");
}
