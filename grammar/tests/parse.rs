//! One test per construct of the grammar: the tree it yields, and spans checked by the text
//! they underline; then syntax errors, recovery and comments.

use rulesc_grammar::{
    parse, ActionNode, Expr, File, Item, ListQuantifier, Lit, LitKind, Op, Operand, ParseError,
    PathSegment, RuleDecl, Span, SyntaxError, TestStep, Value,
};

/// The text `span` underlines in `src`
fn text(src: &str, span: Span) -> &str {
    &src[span.range()]
}

/// The tree of `src`, which must parse without errors
fn parse_ok(src: &str) -> File {
    let parsed = parse(src);
    assert_eq!(parsed.errors, [], "errors in {src:?}");
    parsed.file
}

/// The only item of `src`, a rule
#[expect(
    clippy::panic,
    reason = "a helper of tests: an unexpected tree fails the test"
)]
fn only_rule(src: &str) -> RuleDecl {
    let file = parse_ok(src);
    assert_eq!(file.items.len(), 1, "items of {src:?}");
    match file.items.into_iter().next() {
        Some(Item::Rule(rule)) => rule,
        other => panic!("not a rule: {other:?}"),
    }
}

/// The condition of the only rule of `on x when <condition> forbid`
#[expect(
    clippy::expect_used,
    reason = "a helper of tests: an unexpected tree fails the test"
)]
fn condition(condition: &str) -> (String, Expr) {
    let src = format!("on x when {condition} forbid");
    let rule = only_rule(&src);
    (src, rule.condition.expect("a condition"))
}

/// The only error of `src`, a syntax error
#[expect(
    clippy::panic,
    reason = "a helper of tests: an unexpected tree fails the test"
)]
fn only_syntax_error(src: &str) -> SyntaxError {
    let parsed = parse(src);
    assert_eq!(
        parsed.errors.len(),
        1,
        "errors of {src:?}: {:?}",
        parsed.errors
    );
    match parsed.errors.into_iter().next() {
        Some(ParseError::Syntax(error)) => error,
        other => panic!("not a syntax error: {other:?}"),
    }
}

/// The literal on the right of `on x when a == <literal> forbid`
#[expect(
    clippy::panic,
    reason = "a helper of tests: an unexpected tree fails the test"
)]
fn literal(literal: &str) -> (String, Lit) {
    let (src, condition) = condition(&format!("a == {literal}"));
    match condition {
        Expr::Compare(compare) => match compare.right {
            Operand::Lit(lit) => (src, lit),
            other => panic!("not a literal: {other:?}"),
        },
        other => panic!("not a comparison: {other:?}"),
    }
}

#[test]
fn header() {
    let src = r#"policy "safe-shell""#;
    let file = parse_ok(src);
    let Some(Item::Header(header)) = file.items.first() else {
        panic!("{file:?}")
    };
    assert_eq!(header.name.raw, "safe-shell");
    assert_eq!(text(src, header.name.span), r#""safe-shell""#);
    assert_eq!(text(src, header.span), src);
}

#[test]
fn default_declaration() {
    let src = "default pre_tool_use ask  # when nothing decided";
    let file = parse_ok(src);
    let Some(Item::Default(default)) = file.items.first() else {
        panic!("{file:?}")
    };
    assert_eq!(text(src, default.event.span), "pre_tool_use");
    assert_eq!(default.verb.name, "ask");
    assert_eq!(text(src, default.span), "default pre_tool_use ask");
}

#[test]
fn rule_with_annotations_events_condition_and_message() {
    let src = "@id(\"no-rm\")\n@priority(-5)\n@flag\non pre_tool_use, post_tool_use when tool ~ \"rm*\" block \"no\"  # why\n";
    let rule = only_rule(src);
    let names: Vec<_> = rule
        .annotations
        .iter()
        .map(|a| a.name.name.as_str())
        .collect();
    assert_eq!(names, ["id", "priority", "flag"]);
    assert_eq!(text(src, rule.annotations[0].span), "@id(\"no-rm\")");
    assert_eq!(
        rule.annotations[0].args[0].kind,
        LitKind::Str("no-rm".into())
    );
    assert_eq!(rule.annotations[1].args[0].kind, LitKind::Int("-5".into()));
    assert_eq!(text(src, rule.annotations[1].args[0].span), "-5");
    assert_eq!(rule.annotations[2].args, []);
    assert_eq!(text(src, rule.on_span), "on");
    let events: Vec<_> = rule
        .events
        .iter()
        .map(|event| text(src, event.span))
        .collect();
    assert_eq!(events, ["pre_tool_use", "post_tool_use"]);
    assert_eq!(
        text(src, rule.condition.expect("a condition").span()),
        "tool ~ \"rm*\""
    );
    let ActionNode::Verb {
        verb,
        reason,
        message,
        span,
    } = rule.action
    else {
        panic!()
    };
    assert_eq!(verb.name, "block");
    assert_eq!(reason, None);
    assert_eq!(message.map(|m| m.raw), Some("no".to_owned()));
    assert_eq!(text(src, span), "block \"no\"");
    assert!(text(src, rule.span).starts_with("@id"));
    assert!(text(src, rule.span).ends_with("block \"no\""));
}

#[test]
fn annotation_arguments_are_literals_and_negative_integers() {
    let src = "@tags(\"a\", 3, -2k, true, [1],) on x allow";
    let rule = only_rule(src);
    let args: Vec<_> = rule.annotations[0]
        .args
        .iter()
        .map(|arg| text(src, arg.span))
        .collect();
    assert_eq!(args, ["\"a\"", "3", "-2k", "true", "[1]"]);
}

#[test]
fn rule_without_condition_spans_lines() {
    let src = "on\n  before_step\n  forbid\n  steps_limit_reached\n  \"at most 20 steps\"\non stop request";
    let file = parse_ok(src);
    assert_eq!(file.items.len(), 2);
    let Some(Item::Rule(rule)) = file.items.first() else {
        panic!()
    };
    assert_eq!(rule.condition, None);
    let ActionNode::Verb { reason, .. } = &rule.action else {
        panic!()
    };
    assert_eq!(
        reason.as_ref().map(|r| text(src, r.span)),
        Some("steps_limit_reached")
    );
    assert!(text(src, rule.span).ends_with("\"at most 20 steps\""));
}

#[test]
fn set_action() {
    let src = "on post_tool_use when tool == \"fetch\" set metadata.tainted = true";
    let rule = only_rule(src);
    let ActionNode::Set {
        target,
        value,
        span,
    } = rule.action
    else {
        panic!()
    };
    assert_eq!(text(src, target.span), "metadata.tainted");
    assert!(matches!(
        value,
        Operand::Lit(Lit {
            kind: LitKind::Bool(true),
            ..
        })
    ));
    assert_eq!(text(src, span), "set metadata.tainted = true");
}

/// The operand of `on x when <operand> > 0 forbid`, printed with a pair of parentheses around
/// every operation, so the test reads the tree's shape
#[expect(
    clippy::panic,
    reason = "a helper of tests: an unexpected tree fails the test"
)]
fn arith_shape(operand: &str) -> String {
    fn shape(src: &str, operand: &Operand) -> String {
        match operand {
            Operand::Arith(arith) => format!(
                "({} {} {})",
                shape(src, &arith.left),
                arith.op.symbol(),
                shape(src, &arith.right)
            ),
            Operand::Group(inner, _) => shape(src, inner),
            other => text(src, other.span()).to_owned(),
        }
    }
    let (src, condition) = condition(&format!("{operand} > 0"));
    let Expr::Compare(compare) = condition else {
        panic!("not a comparison: {condition:?}");
    };
    shape(&src, &compare.left)
}

#[test]
fn arithmetic_binds_as_in_school_and_joins_from_the_left() {
    assert_eq!(arith_shape("a + b * c"), "(a + (b * c))");
    assert_eq!(arith_shape("a * b + c"), "((a * b) + c)");
    assert_eq!(arith_shape("a - b - c"), "((a - b) - c)");
    assert_eq!(arith_shape("a / b / c"), "((a / b) / c)");
    assert_eq!(arith_shape("(a + b) * c"), "((a + b) * c)");
    assert_eq!(arith_shape("a - (b - c)"), "(a - (b - c))");
    assert_eq!(arith_shape("metadata.x*2-1"), "((metadata.x * 2) - 1)");
    assert_eq!(arith_shape("((a))"), "a");
}

#[test]
fn a_parenthesised_sum_is_arithmetic_and_a_parenthesised_condition_is_not() {
    let (_, expr) = condition("(steps) > 1");
    assert!(matches!(expr, Expr::Compare(_)), "{expr:?}");
    let (_, expr) = condition("(blocked)");
    assert!(matches!(expr, Expr::Paren(..)), "{expr:?}");
    let (_, expr) = condition("((a or b) and (c + 1) * 2 > 3)");
    assert!(matches!(expr, Expr::Paren(..)), "{expr:?}");
}

#[test]
fn a_quantifier_reads_the_comparison_after_it() {
    let (src, expr) = condition("any arg.to ~ \"*@evil.example\"");
    let Expr::Quantified(quantified) = expr else {
        panic!("not a quantifier: {expr:?}");
    };
    assert_eq!(quantified.quantifier, ListQuantifier::Any);
    assert_eq!(text(&src, quantified.quantifier_span), "any");
    assert_eq!(text(&src, quantified.compare.left.span()), "arg.to");
    assert_eq!(
        text(&src, quantified.span),
        "any arg.to ~ \"*@evil.example\""
    );
    // Not a keyword: `all` and `any` stay field names wherever no comparison follows.
    let (_, expr) = condition("all");
    assert!(matches!(expr, Expr::Path(_)), "{expr:?}");
    let (_, expr) = condition("any == 1");
    assert!(matches!(expr, Expr::Compare(_)), "{expr:?}");
}

#[test]
fn deep_arithmetic_parentheses_parse_in_reasonable_time() {
    let depth = 200;
    let text = format!("{}a + 1{} > 2", "(".repeat(depth), ")".repeat(depth));
    let started = std::time::Instant::now();
    let (_, condition) = condition(&text);
    assert!(matches!(condition, Expr::Compare(_)), "{condition:?}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn or_binds_looser_than_and() {
    let (src, expr) = condition("a or b and c or d");
    let Expr::Or(parts, span) = &expr else {
        panic!("{expr:?}")
    };
    assert_eq!(text(&src, *span), "a or b and c or d");
    assert_eq!(parts.len(), 3);
    let Expr::And(inner, inner_span) = &parts[1] else {
        panic!("{parts:?}")
    };
    assert_eq!(inner.len(), 2);
    assert_eq!(text(&src, *inner_span), "b and c");
}

#[test]
fn not_runs_nest_from_the_inside_out() {
    let (src, expr) = condition("not not blocked and x");
    let Expr::And(parts, _) = &expr else {
        panic!("{expr:?}")
    };
    let Expr::Not(inner, outer_span) = &parts[0] else {
        panic!("{parts:?}")
    };
    assert_eq!(text(&src, *outer_span), "not not blocked");
    let Expr::Not(path, inner_span) = &**inner else {
        panic!("{inner:?}")
    };
    assert_eq!(text(&src, *inner_span), "not blocked");
    assert!(matches!(**path, Expr::Path(_)));
}

#[test]
fn not_binds_looser_than_a_comparison() {
    let (src, expr) = condition("not steps > 3");
    let Expr::Not(inner, _) = &expr else {
        panic!("{expr:?}")
    };
    assert_eq!(text(&src, inner.span()), "steps > 3");
}

#[test]
fn parentheses_are_kept() {
    let (src, expr) = condition("(a or b) and c");
    let Expr::And(parts, _) = &expr else {
        panic!("{expr:?}")
    };
    let Expr::Paren(inner, span) = &parts[0] else {
        panic!("{parts:?}")
    };
    assert_eq!(text(&src, *span), "(a or b)");
    assert!(matches!(**inner, Expr::Or(..)));
}

#[test]
fn every_operator() {
    for (symbol, op) in [
        ("==", Op::Eq),
        ("!=", Op::Ne),
        ("<", Op::Lt),
        ("<=", Op::Le),
        (">", Op::Gt),
        (">=", Op::Ge),
        ("~", Op::Glob),
        ("=~", Op::Regex),
        ("in", Op::In),
        ("contains", Op::Contains),
    ] {
        let (src, expr) = condition(&format!("x {symbol} y"));
        let Expr::Compare(compare) = expr else {
            panic!("{expr:?}")
        };
        assert_eq!(compare.op, op);
        assert_eq!(text(&src, compare.op_span), symbol);
        assert_eq!(text(&src, compare.span), format!("x {symbol} y"));
        assert_eq!(op.symbol(), symbol);
    }
}

#[test]
fn operators_need_no_blanks() {
    let (src, expr) = condition("steps>=20");
    let Expr::Compare(compare) = expr else {
        panic!("{expr:?}")
    };
    assert_eq!(text(&src, compare.left.span()), "steps");
    assert_eq!(text(&src, compare.right.span()), "20");
}

#[test]
fn bare_path_and_bare_literal_conditions() {
    let (src, expr) = condition("metadata.tainted");
    let Expr::Path(path) = expr else {
        panic!("{expr:?}")
    };
    assert_eq!(text(&src, path.span), "metadata.tainted");
    let (src, expr) = condition("true");
    let Expr::Lit(lit) = expr else {
        panic!("{expr:?}")
    };
    assert_eq!(
        (text(&src, lit.span), lit.kind),
        ("true", LitKind::Bool(true))
    );
}

#[test]
fn paths_with_members_and_indexes() {
    let (src, expr) = condition("arg.paths[0].event == 1");
    let Expr::Compare(compare) = expr else {
        panic!("{expr:?}")
    };
    let Operand::Path(path) = &compare.left else {
        panic!()
    };
    assert_eq!(text(&src, path.span), "arg.paths[0].event");
    let segments: Vec<_> = path
        .segments
        .iter()
        .map(|segment| match segment {
            PathSegment::Name(name) => (name.name.clone(), text(&src, name.span)),
            PathSegment::Quoted { .. } => panic!("{segment:?}"),
            PathSegment::Index { text: digits, span } => (digits.clone(), text(&src, *span)),
        })
        .collect();
    assert_eq!(
        segments,
        [
            ("arg".to_owned(), "arg"),
            ("paths".to_owned(), "paths"),
            ("0".to_owned(), "[0]"),
            ("event".to_owned(), "event"),
        ]
    );
}

/// A quoted key is one key, dots and all, with the span of its string and of its brackets
#[test]
fn quoted_keys_are_one_key_each() {
    let (src, expr) = condition(r#"arg["x.y"]["pullNumber"][0]["a\"b"] == 1"#);
    let Expr::Compare(compare) = expr else {
        panic!("{expr:?}")
    };
    let Operand::Path(path) = &compare.left else {
        panic!()
    };
    assert_eq!(
        text(&src, path.span),
        r#"arg["x.y"]["pullNumber"][0]["a\"b"]"#
    );
    let segments: Vec<_> = path
        .segments
        .iter()
        .map(|segment| match segment {
            PathSegment::Name(name) => (name.name.clone(), text(&src, name.span), ""),
            PathSegment::Quoted { key, span } => {
                (key.name.clone(), text(&src, key.span), text(&src, *span))
            }
            PathSegment::Index { text: digits, span } => (digits.clone(), text(&src, *span), ""),
        })
        .collect();
    assert_eq!(
        segments,
        [
            ("arg".to_owned(), "arg", ""),
            ("x.y".to_owned(), r#""x.y""#, r#"["x.y"]"#),
            (
                "pullNumber".to_owned(),
                r#""pullNumber""#,
                r#"["pullNumber"]"#
            ),
            ("0".to_owned(), "[0]", ""),
            (r#"a\"b"#.to_owned(), r#""a\"b""#, r#"["a\"b"]"#),
        ]
    );
}

#[test]
fn a_keyword_never_starts_a_path() {
    let error = only_syntax_error("on x when event == 1 forbid");
    assert_eq!(error.found, "`event`");
    assert_eq!(error.expected, ["a condition"]);
    let src = "on x set true = 1";
    let error = only_syntax_error(src);
    assert_eq!(text(src, error.span), "true");
    assert_eq!(error.expected, ["a field"]);
}

#[test]
fn strings_keep_their_raw_text() {
    let (src, lit) = literal(r#""say \"hi\"\\\n\t\u{1F600} é""#);
    assert_eq!(
        lit.kind,
        LitKind::Str(r#"say \"hi\"\\\n\t\u{1F600} é"#.into())
    );
    assert_eq!(text(&src, lit.span), r#""say \"hi\"\\\n\t\u{1F600} é""#);
    let (_, lit) = literal(r##""# not a comment""##);
    assert_eq!(lit.kind, LitKind::Str("# not a comment".into()));
}

#[test]
fn integers_and_durations() {
    for (written, kind) in [
        ("20", LitKind::Int("20".into())),
        ("100_000", LitKind::Int("100_000".into())),
        ("200k", LitKind::Int("200k".into())),
        ("3m", LitKind::Int("3m".into())),
        ("500ms", LitKind::Duration("500ms".into())),
        ("30s", LitKind::Duration("30s".into())),
        ("5min", LitKind::Duration("5min".into())),
        ("2h", LitKind::Duration("2h".into())),
        ("false", LitKind::Bool(false)),
    ] {
        let (src, lit) = literal(written);
        assert_eq!(lit.kind, kind);
        assert_eq!(text(&src, lit.span), written);
    }
}

#[test]
fn a_literal_does_not_run_into_a_word() {
    for bad in ["5mx", "1_", "20kb", "5msx", "2H"] {
        let src = format!("on x when a == {bad} forbid");
        let error = only_syntax_error(&src);
        assert_eq!(text(&src, error.span), bad);
        assert_eq!(error.found, format!("`{bad}`"));
    }
}

#[test]
fn lists_nest_and_allow_a_trailing_comma() {
    let (src, lit) = literal(r#"["git", ["ls"],]"#);
    let LitKind::List(items) = &lit.kind else {
        panic!("{lit:?}")
    };
    assert_eq!(items.len(), 2);
    assert_eq!(text(&src, items[1].span), r#"["ls"]"#);
    assert_eq!(text(&src, lit.span), r#"["git", ["ls"],]"#);
    let (_, lit) = literal("[]");
    assert_eq!(lit.kind, LitKind::List(Vec::new()));
}

#[test]
fn test_block() {
    let src = r#"test "rm is blocked" {
  event pre_tool_use { tool: "rm", arg: { path: "/", "filePath": 5min, }, }
  expect block by "no-rm"
  event stop {}
  expect forbid steps_limit_reached
  expect none
}"#;
    let file = parse_ok(src);
    let Some(Item::Test(test)) = file.items.first() else {
        panic!("{file:?}")
    };
    assert_eq!(test.name.raw, "rm is blocked");
    assert_eq!(text(src, test.span), src);
    assert_eq!(test.steps.len(), 5);
    let TestStep::Event {
        event,
        fields,
        span,
    } = &test.steps[0]
    else {
        panic!()
    };
    assert_eq!(event.name, "pre_tool_use");
    assert!(text(src, *span).starts_with("event pre_tool_use {"));
    assert_eq!(text(src, fields[0].span), "tool: \"rm\"");
    let Value::Object(inner, object_span) = &fields[1].value else {
        panic!()
    };
    assert_eq!(
        text(src, *object_span),
        "{ path: \"/\", \"filePath\": 5min, }"
    );
    assert_eq!(inner[1].key.name, "filePath");
    assert_eq!(text(src, inner[1].key.span), "\"filePath\"");
    let TestStep::Expect {
        verb,
        reason,
        by,
        span,
    } = &test.steps[1]
    else {
        panic!()
    };
    assert_eq!((verb.name.as_str(), reason), ("block", &None));
    assert_eq!(by.as_ref().map(|by| by.raw.as_str()), Some("no-rm"));
    assert_eq!(text(src, *span), "expect block by \"no-rm\"");
    let TestStep::Event { fields, .. } = &test.steps[2] else {
        panic!()
    };
    assert_eq!(fields, &[]);
    let TestStep::Expect { reason, .. } = &test.steps[3] else {
        panic!()
    };
    assert_eq!(
        reason.as_ref().map(|r| r.name.as_str()),
        Some("steps_limit_reached")
    );
}

#[test]
fn keys_may_be_keywords() {
    let file = parse_ok("test \"t\" { event x { on: 1, event: 2 } }");
    let Some(Item::Test(test)) = file.items.first() else {
        panic!()
    };
    let TestStep::Event { fields, .. } = &test.steps[0] else {
        panic!()
    };
    assert_eq!(fields[0].key.name, "on");
}

#[test]
fn verbs_and_events_are_any_identifier() {
    let rule = only_rule("on someday frobnicate whenever");
    assert_eq!(rule.events[0].name, "someday");
    let ActionNode::Verb { verb, reason, .. } = rule.action else {
        panic!()
    };
    assert_eq!(
        (verb.name.as_str(), reason.map(|r| r.name)),
        ("frobnicate", Some("whenever".into()))
    );
}

#[test]
fn comments_are_collected_everywhere() {
    let src = "# head\non x # after on\n  when a == \"#\" # in a rule\n  forbid\n@ # in a broken item\non y allow\n# tail";
    let parsed = parse(src);
    let texts: Vec<_> = parsed.comments.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            " head",
            " after on",
            " in a rule",
            " in a broken item",
            " tail"
        ]
    );
    for comment in &parsed.comments {
        assert_eq!(text(src, comment.span), format!("#{}", comment.text));
    }
    assert_eq!(parsed.file.items.len(), 2);
}

#[test]
fn line_breaks_may_be_crlf() {
    let file = parse_ok("on x when a == 1 # c\r\n  forbid\r\non y allow\r\n");
    assert_eq!(file.items.len(), 2);
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let src = "\u{feff}on x allow";
    let rule = only_rule(src);
    assert_eq!(text(src, rule.on_span), "on");
}

#[test]
fn an_empty_file_has_no_items() {
    assert_eq!(parse_ok(""), File::default());
    assert_eq!(parse_ok("  # only a comment\n\n"), File::default());
}

#[test]
fn syntax_errors_name_what_was_expected_in_user_words() {
    for (src, underlined, expected, found) in [
        ("on when x forbid", "when", &["an event name"][..], "`when`"),
        (
            "on x",
            "x",
            &["`,`", "`label`", "`set`", "`when`", "a verb"],
            "end of file",
        ),
        ("on x when", "when", &["a condition"], "end of file"),
        (
            "on x when (a forbid",
            "forbid",
            &["`)`", "`and`", "`or`", "an operator"],
            "`forbid`",
        ),
        (
            "on x when a = 1 forbid",
            "=",
            &["`and`", "`label`", "`or`", "`set`", "a verb", "an operator"],
            "`=`",
        ),
        ("on x set metadata.a == 1", "==", &["`=`"], "`==`"),
        (
            "on x when a.b. == 1 forbid",
            "==",
            &["a field name"],
            "`==`",
        ),
        (
            "on x when a[x] == 1 forbid",
            "x",
            &["a string", "an index"],
            "`x`",
        ),
        (
            "on x when a in [1, forbid",
            "forbid",
            &["`]`", "a value"],
            "`forbid`",
        ),
        (
            "foo",
            "foo",
            &["`@`", "`default`", "`on`", "`policy`", "`test`"],
            "`foo`",
        ),
        ("@id(\"x\") forbid", "forbid", &["`@`", "`on`"], "`forbid`"),
        ("policy foo", "foo", &["a string"], "`foo`"),
        ("default x", "x", &["a verb"], "end of file"),
        ("test \"x\" { event x }", "}", &["`{`"], "`}`"),
        ("test \"x\" { event x { a } }", "}", &["`:`"], "`}`"),
        ("test \"x\" { expect block by }", "}", &["a string"], "`}`"),
        (
            "test \"x\" { foo }",
            "foo",
            &["`event`", "`expect`", "`}`"],
            "`foo`",
        ),
        (
            "on x forbid r \"m\" more",
            "more",
            &[
                "`@`",
                "`default`",
                "`on`",
                "`policy`",
                "`test`",
                "end of file",
            ],
            "`more`",
        ),
    ] {
        let error = only_syntax_error(src);
        assert_eq!(text(src, error.span), underlined, "span in {src:?}");
        assert_eq!(error.expected, expected, "expected in {src:?}");
        assert_eq!(error.found, found, "found in {src:?}");
    }
}

#[test]
fn an_error_at_the_end_of_a_file_without_a_line_break_points_at_the_last_token() {
    let src = "on x when a ==";
    let error = only_syntax_error(src);
    assert_eq!(text(src, error.span), "==");
    assert_eq!(error.found, "end of file");
}

/// When the file ends early, the error points just after the item's last token, not at the
/// end of the file below it: blanks, comments and a comment that looks like code are skipped
#[test]
fn an_error_at_the_end_points_after_the_last_token() {
    for (src, before) in [
        (
            "on pre_tool_use when tool ~ \"rm*\"\n",
            "on pre_tool_use when tool ~ \"rm*\"",
        ),
        ("on x when a # == 1 forbid\n\n# more\n  \n", "on x when a"),
        ("on x when\n", "on x when"),
        (
            "test \"t\" {\n  expect none\n\n",
            "test \"t\" {\n  expect none",
        ),
        ("on x forbid\n@id(\"x\")\r\n", "on x forbid\n@id(\"x\")"),
    ] {
        let error = only_syntax_error(src);
        let at = u32::try_from(before.len()).unwrap();
        assert_eq!(error.span, Span::new(at, at), "in {src:?}");
        assert_eq!(error.found, "end of file", "in {src:?}");
    }
}

#[test]
fn a_bad_escape_is_reported_at_the_escape() {
    let src = r#"on x when a == "ok \n, bad \q" forbid"#;
    let error = only_syntax_error(src);
    assert_eq!(text(src, error.span), r"\q");
    assert_eq!(error.found, r"`\q`");
    assert_eq!(
        error.expected,
        ["`\\\"`", "`\\\\`", "`\\n`", "`\\t`", "`\\u{...}`"]
    );
    let src = r#"on x when a == "\u{}" forbid"#;
    assert_eq!(text(src, only_syntax_error(src).span), r"\u");
}

#[test]
fn an_unterminated_string_is_reported_whole() {
    let src = "on x forbid \"at most\non y allow\n";
    let parsed = parse(src);
    let [ParseError::Syntax(error)] = &parsed.errors[..] else {
        panic!("{parsed:?}")
    };
    assert_eq!(text(src, error.span), "\"at most");
    assert_eq!(error.expected, ["`\"`"]);
    assert_eq!(error.found, "end of line");
    assert_eq!(parsed.file.items.len(), 1, "the next line still parses");
    let error = only_syntax_error("policy \"x");
    assert_eq!(error.found, "end of file");
}

#[test]
fn long_and_unprintable_tokens_are_shown_short() {
    let long = "a".repeat(100);
    let error = only_syntax_error(&format!("on {long}!"));
    assert_eq!(error.found, "`!`");
    let error = only_syntax_error(&format!("policy {long}"));
    assert_eq!(error.found, format!("`{}...`", "a".repeat(40)));
    let error = only_syntax_error("policy \u{7}");
    assert_eq!(error.found, "`\\u{7}`");
    let error = only_syntax_error("policy \u{a0}\"x\"");
    assert_eq!(error.found, "`\\u{a0}`");
    let src = "on x forbid é";
    let error = only_syntax_error(src);
    assert_eq!((text(src, error.span), error.found.as_str()), ("é", "`é`"));
}

#[test]
fn every_broken_item_is_reported_and_every_good_one_kept() {
    let src = "\
on a when forbid
on b allow
on c when (x forbid
@id(\"d\") on d allow
test \"t\" { event x { a: 1 b: 2, on: 3 } }
default pre_tool_use
on e allow
";
    let parsed = parse(src);
    let found: Vec<_> = parsed
        .errors
        .iter()
        .map(|error| match error {
            ParseError::Syntax(error) => error.found.as_str(),
            other => panic!("{other:?}"),
        })
        .collect();
    // `forbid` is a field there, so the rule runs into the next `on`; braces are skipped
    // whole, so the `on` key inside the test block does not restart parsing.
    assert_eq!(found, ["`on`", "`forbid`", "`b`", "`on`"]);
    let events: Vec<_> = parsed
        .file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Rule(rule) => Some(rule.events[0].name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(events, ["b", "d", "e"]);
}

#[test]
fn a_broken_annotation_skips_its_rule() {
    let src = "@id(\"x\") @priority(=) on y forbid\non z allow";
    let parsed = parse(src);
    assert_eq!(parsed.errors.len(), 1);
    assert_eq!(parsed.file.items.len(), 1);
    let parsed = parse("@@ on z forbid");
    assert_eq!(parsed.errors.len(), 1);
    assert_eq!(parsed.file.items, []);
}

#[test]
fn annotations_before_another_item_do_not_swallow_it() {
    let src = "@id(\"x\")\ndefault pre_tool_use ask";
    let parsed = parse(src);
    let [ParseError::Syntax(error)] = &parsed.errors[..] else {
        panic!("{parsed:?}")
    };
    assert_eq!(text(src, error.span), "default");
    assert_eq!(error.expected, ["`@`", "`on`"]);
    assert!(matches!(parsed.file.items[..], [Item::Default(_)]));
}

#[test]
fn unclosed_braces_end_at_a_line_that_starts_an_item() {
    let src = "test \"t\" { event x { a: 1\n  on: 2\non y allow";
    let parsed = parse(src);
    assert_eq!(parsed.errors.len(), 1);
    assert_eq!(parsed.file.items.len(), 1);
    // A key named like a keyword at the start of a line stays inside its braces.
    let src = "test \"t\" {\nevent x {\non: 1,\ntest : 2 }\n}\non y allow";
    assert_eq!(parse_ok(src).items.len(), 2);
}
