//! The table of builtins (`BUILTINS`, runtime/src/vocabulary/builtin.rs) against the grammar
//! and the compiler: each row's example compiles, each row is refused on the events it is not
//! usable on, and the words the grammar reads as trace functions and quantifiers are the
//! table's, both ways.

#![expect(
    clippy::unwrap_used,
    clippy::panic,
    reason = "helpers of tests: a grammar file that cannot be read or is not the shape expected fails the test"
)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use rulesc_compiler::{check, Checked, SourceFile};
use rulesc_grammar::{parse, Expr, Item, Operand};
use rulesc_runtime::{BuiltinArguments, EventKind, BUILTINS};

fn checked(text: &str) -> Checked {
    check(&[SourceFile::new("builtin.rules", "builtin.rules", text)])
}

#[test]
fn every_example_compiles_without_a_diagnostic() {
    for row in &BUILTINS {
        let checked = checked(row.example);
        assert!(
            checked.policy.is_some() && checked.diagnostics.is_empty(),
            "`{}`: {:?}",
            row.example,
            checked.diagnostics
        );
    }
}

#[test]
fn every_builtin_is_refused_on_the_events_it_is_not_usable_on() {
    for row in &BUILTINS {
        for kind in EventKind::ALL
            .into_iter()
            .filter(|kind| !row.usable_on(*kind))
        {
            let example = row
                .example
                .replacen("on pre_tool_use ", &format!("on {kind} "), 1);
            let checked = checked(&example);
            assert!(
                checked
                    .diagnostics
                    .iter()
                    .any(|diag| diag.message.contains(&format!("not visible in `{kind}`"))),
                "`{example}`: {:?}",
                checked.diagnostics
            );
        }
    }
}

/// The words of the pest rule `name`, written `name = @{ ("a" | "b") ~ ... }` in
/// grammar/src/rules.pest
fn grammar_words(name: &str) -> BTreeSet<String> {
    let pest = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../grammar/src/rules.pest"),
    )
    .unwrap();
    let line = pest
        .lines()
        .find(|line| line.starts_with(&format!("{name} = @{{ (")))
        .unwrap_or_else(|| panic!("no rule `{name}` in rules.pest"));
    let (_, alternatives) = line.split_once('(').unwrap();
    let (alternatives, _) = alternatives.split_once(')').unwrap();
    alternatives
        .split('|')
        .map(|word| word.trim().trim_matches('"').to_owned())
        .collect()
}

fn table_words(arguments: fn(BuiltinArguments) -> bool) -> BTreeSet<String> {
    BUILTINS
        .iter()
        .filter(|row| arguments(row.arguments))
        .map(|row| row.name.to_owned())
        .collect()
}

/// The condition of the only rule of `text`
fn condition(text: &str) -> Expr {
    let parsed = parse(text);
    assert!(parsed.errors.is_empty(), "`{text}`: {:?}", parsed.errors);
    match parsed.file.items.into_iter().next() {
        Some(Item::Rule(rule)) => rule.condition.unwrap(),
        other => panic!("`{text}` is no rule: {other:?}"),
    }
}

#[test]
fn the_grammars_trace_functions_are_the_tables() {
    let counted = |arguments| matches!(arguments, BuiltinArguments::Counted { .. });
    assert_eq!(grammar_words("trace_name"), table_words(counted));
    for row in BUILTINS.iter().filter(|row| counted(row.arguments)) {
        let text = format!("on stop when {}(stop) >= 1 forbid", row.name);
        let Expr::Compare(compare) = condition(&text) else {
            panic!("`{text}` is no comparison");
        };
        assert!(matches!(compare.left, Operand::Trace(_)), "`{text}`");
    }
}

#[test]
fn the_grammars_quantifiers_are_the_tables() {
    let comparison = |arguments| arguments == BuiltinArguments::Comparison;
    assert_eq!(grammar_words("quantifier"), table_words(comparison));
    for row in BUILTINS.iter().filter(|row| comparison(row.arguments)) {
        let text = format!("on stop when {} metadata.a == 1 forbid", row.name);
        assert!(matches!(condition(&text), Expr::Quantified(_)), "`{text}`");
    }
}

#[test]
fn the_other_builtins_are_read_as_calls_and_names() {
    for row in &BUILTINS {
        let written = match row.arguments {
            BuiltinArguments::Condition => format!("{}(program == \"rm\")", row.name),
            BuiltinArguments::Text(_) => format!("{}(\"x\")", row.name),
            BuiltinArguments::Nothing => row.name.to_owned(),
            BuiltinArguments::Counted { .. } | BuiltinArguments::Comparison => continue,
        };
        let text = format!("on pre_tool_use when {written} block");
        let expected = match condition(&text) {
            Expr::Call(call) => {
                row.is_call() && rulesc_grammar::print::path(&call.name) == row.name
            }
            Expr::Path(path) => !row.is_call() && rulesc_grammar::print::path(&path) == row.name,
            _ => false,
        };
        assert!(expected, "`{text}`");
    }
}

/// The help of the only diagnostic of `text`
fn help(text: &str) -> String {
    let checked = checked(text);
    let [diag] = checked.diagnostics.as_slice() else {
        panic!("`{text}`: {:?}", checked.diagnostics);
    };
    diag.help.clone().unwrap_or_default()
}

#[test]
fn a_misplaced_or_misspelt_builtin_is_named_with_how_it_is_written() {
    assert_eq!(
        help("on pre_tool_use when flag(\"-r\") block"),
        "`flag(FLAG)` is written inside `shell(...)` or `shell.all(...)`"
    );
    assert_eq!(
        help("on pre_tool_use when shell(same_call_count(\"x\")) block"),
        "`same_call_count` is written in a rule's condition, outside `shell(...)`"
    );
    assert_eq!(
        help("on pre_tool_use when shell(outside_cwd(\"x\")) block"),
        "`outside_cwd` is written alone, without parentheses"
    );
    assert_eq!(
        help("on pre_tool_use when count(tool == \"x\") block"),
        "write it as `count(EVENT when CONDITION within WINDOW)`, an event's name first"
    );
    assert_eq!(
        help("on pre_tool_use when shel(program == \"rm\") block"),
        "did you mean `shell(...)`?"
    );
    assert_eq!(
        help("on pre_tool_use when shell(stdin_form(program == \"curl\")) block"),
        "did you mean `stdin_from(...)`?"
    );
}
