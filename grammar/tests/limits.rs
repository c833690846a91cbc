//! Hostile inputs: deep nesting, long chains and huge files give their limit errors quickly,
//! and never overflow the stack.

use std::time::{Duration, Instant};

use rulesc_grammar::{parse, Expr, Item, ParseError, Parsed, MAX_DEPTH, MAX_FILE_SIZE};

/// Parses `src`, checking it takes well under the time a hang would
fn parse_quickly(src: &str) -> Parsed {
    let start = Instant::now();
    let parsed = parse(src);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
    parsed
}

/// The text underlined by the only error of `parsed`, which must be `TooDeep`
#[expect(
    clippy::panic,
    reason = "a helper of tests: another error fails the test"
)]
fn too_deep<'s>(src: &'s str, parsed: &Parsed) -> &'s str {
    assert_eq!(parsed.file.items, []);
    match parsed.errors.as_slice() {
        [ParseError::TooDeep { span, limit }] => {
            assert_eq!(*limit, MAX_DEPTH);
            &src[span.range()]
        }
        other => panic!("not one TooDeep error: {other:?}"),
    }
}

#[test]
fn ten_thousand_nested_parens_are_too_deep() {
    let src = format!(
        "on x when {}a{} forbid",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    let parsed = parse_quickly(&src);
    let ParseError::TooDeep { span, .. } = &parsed.errors[0] else {
        panic!()
    };
    assert_eq!(span.start as usize, "on x when ".len() + MAX_DEPTH);
    assert_eq!(too_deep(&src, &parsed), "(");
}

#[test]
fn nesting_up_to_the_limit_parses() {
    for (open, close) in [("(", ")"), ("[", "]")] {
        let body = if open == "(" { "a" } else { "1" };
        let operator = if open == "(" { "" } else { "a in " };
        let src = format!(
            "on x when {operator}{}{body}{} forbid",
            open.repeat(MAX_DEPTH),
            close.repeat(MAX_DEPTH)
        );
        let parsed = parse_quickly(&src);
        assert_eq!(parsed.errors, [], "{open}");
    }
}

#[test]
fn a_run_of_nots_counts_as_nesting() {
    let src = format!("on x when {}a forbid", "not ".repeat(MAX_DEPTH));
    assert_eq!(parse_quickly(&src).errors, []);
    let src = format!("on x when {}a forbid", "not ".repeat(MAX_DEPTH + 1));
    let parsed = parse_quickly(&src);
    assert_eq!(too_deep(&src, &parsed), "not");
    // A run of `not`s stays open inside the parentheses after it.
    let half = MAX_DEPTH / 2;
    let src = format!(
        "on x when {}a{} forbid",
        "not (".repeat(half),
        ")".repeat(half)
    );
    assert_eq!(parse_quickly(&src).errors, []);
    let src = format!(
        "on x when {}a{} forbid",
        "not (".repeat(half + 1),
        ")".repeat(half + 1)
    );
    assert_eq!(too_deep(&src, &parse_quickly(&src)), "not");
}

#[test]
fn nots_and_brackets_after_a_closed_one_do_not_add_up() {
    let unit = "not (a) and ";
    let src = format!("on x when {}a forbid", unit.repeat(10_000));
    let parsed = parse_quickly(&src);
    assert_eq!(parsed.errors, []);
}

#[test]
fn nested_objects_count_as_nesting() {
    // The test block is one level; the event's object is the outermost of `object`.
    let object = |depth: usize| format!("{}1{}", "{ a: ".repeat(depth), " }".repeat(depth));
    let src = format!("test \"t\" {{ event x {} }}", object(MAX_DEPTH - 1));
    assert_eq!(parse_quickly(&src).errors, []);
    let src = format!("test \"t\" {{ event x {} }}", object(MAX_DEPTH));
    assert_eq!(too_deep(&src, &parse_quickly(&src)), "{");
}

#[test]
fn brackets_in_strings_and_comments_do_not_count() {
    let src = format!(
        "on x when a == \"{}\" forbid # {}\n",
        "(".repeat(10_000),
        "[".repeat(10_000)
    );
    assert_eq!(parse_quickly(&src).errors, []);
}

#[test]
fn long_and_or_chains_are_flat() {
    let src = format!("on x when a{} forbid", " and a or a".repeat(20_000));
    let parsed = parse_quickly(&src);
    assert_eq!(parsed.errors, []);
    let Some(Item::Rule(rule)) = parsed.file.items.first() else {
        panic!()
    };
    let Some(Expr::Or(parts, _)) = &rule.condition else {
        panic!()
    };
    assert_eq!(parts.len(), 20_001);
}

#[test]
fn a_file_over_the_size_limit_is_refused_at_once() {
    let src = "# padding\n".repeat(9 * 1024 * 1024 / 10 + 1);
    assert!(src.len() > 9 * 1024 * 1024 - 10);
    let parsed = parse_quickly(&src);
    assert_eq!(
        parsed.errors,
        [ParseError::TooLarge {
            size: src.len(),
            limit: MAX_FILE_SIZE
        }]
    );
    assert_eq!(parsed.file.items, []);
}

#[test]
fn many_errors_on_one_long_line_stay_fast() {
    // pest copies the line an error points at. Each item is parsed alone, so that copy is as
    // long as the item, not the rest of the line.
    let padding = "a".repeat(200);
    let src = format!("on x when ) forbid \"{padding}\" ").repeat(1_000);
    assert_eq!(parse_quickly(&src).errors.len(), 1_000);
    let src = format!("on x when a == \"\\q{padding}\" forbid ").repeat(1_000);
    assert_eq!(parse_quickly(&src).errors.len(), 1_000);
    let src = "@x y ".repeat(20_000);
    let parsed = parse_quickly(&src);
    assert_eq!(
        parsed.errors.len(),
        1,
        "annotations and all belong to one item"
    );
}

#[test]
fn unclosed_braces_are_skipped_without_backtracking() {
    let src = format!("test \"t\" {} x\non y allow", "{ a: ".repeat(MAX_DEPTH - 1));
    let parsed = parse_quickly(&src);
    assert_eq!(parsed.errors.len(), 1);
    assert_eq!(parsed.file.items.len(), 1);
}

#[test]
fn deep_input_on_a_small_stack_fails_cleanly() {
    // pest checks the stack it has left; on a small thread it gives up before the depth limit
    // and that is reported as nesting too deep, never as a crash.
    let src = format!(
        "on x when {}a{} forbid",
        "(".repeat(MAX_DEPTH),
        ")".repeat(MAX_DEPTH)
    );
    let errors = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || parse(&src).errors)
        .unwrap()
        .join()
        .unwrap();
    assert!(
        errors.is_empty() || matches!(errors.as_slice(), [ParseError::TooDeep { .. }]),
        "{errors:?}"
    );
}
