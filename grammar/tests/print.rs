//! The printer's canonical layout, and parentheses where a tree built by hand needs them.

use rulesc_grammar::{
    parse, print, ActionNode, Expr, File, Ident, Item, Lit, LitKind, ObjectEntry, Path,
    PathSegment, RuleDecl, Span, StrLit, TestBlock, TestStep, Value,
};

/// `src`'s tree printed; `src` must parse without errors
fn reprint(src: &str) -> String {
    let parsed = parse(src);
    assert_eq!(parsed.errors, [], "errors in {src:?}");
    print(&parsed.file)
}

#[test]
fn canonical_layout() {
    let src = r#"policy   "safe-shell"   # header
default pre_tool_use    ask
@id( "no-rm" )   @priority(-10)
on pre_tool_use,post_tool_use
   when tool~"rm*" and not( a.b[0]in[ "x" ,"y", ] or blocked)
   block "destructive command"
on before_step when steps>=20 forbid steps_limit_reached
on post_tool_use set metadata.tainted=true
test "rm is blocked" { event pre_tool_use { tool : "rm", arg:{"path":"/", n: 5min,} }
expect block by "no-rm" event stop { } expect none }
"#;
    let expected = r#"policy "safe-shell"
default pre_tool_use ask
@id("no-rm")
@priority(-10)
on pre_tool_use, post_tool_use when tool ~ "rm*" and not (a.b[0] in ["x", "y"] or blocked) block "destructive command"
on before_step when steps >= 20 forbid steps_limit_reached
on post_tool_use set metadata.tainted = true
test "rm is blocked" {
  event pre_tool_use { tool: "rm", arg: { path: "/", n: 5min } }
  expect block by "no-rm"
  event stop {}
  expect none
}
"#;
    assert_eq!(reprint(src), expected);
    assert_eq!(reprint(expected), expected, "printing is idempotent");
}

#[test]
fn strings_and_keys_are_written_from_raw_text() {
    let src = "test \"a\\tb\" { event x { \"file-path\": \"\\u{1F600}\\\"\", \"ok\": 1 } }\n";
    assert_eq!(
        reprint(src),
        "test \"a\\tb\" {\n  event x { \"file-path\": \"\\u{1F600}\\\"\", ok: 1 }\n}\n"
    );
}

/// A quoted key is written dotted when it is a lowercase word, quoted otherwise
#[test]
fn quoted_keys_are_dotted_only_when_they_are_words() {
    let src =
        r#"on x when arg["command"]["pullNumber"]["x.y"][0]["on"]["a-b"] set metadata["k"] = 1"#;
    assert_eq!(
        reprint(src),
        "on x when arg.command[\"pullNumber\"][\"x.y\"][0].on[\"a-b\"] set metadata.k = 1\n"
    );
}

#[test]
fn an_empty_file_prints_nothing() {
    assert_eq!(print(&File::default()), "");
}

fn name(name: &str) -> Ident {
    Ident {
        name: name.to_owned(),
        span: Span::default(),
    }
}

fn field(field: &str) -> Expr {
    Expr::Path(Path {
        segments: vec![PathSegment::Name(name(field))],
        span: Span::default(),
    })
}

/// A file of one rule `on x when <condition> allow`
fn rule_with(condition: Expr) -> File {
    File {
        items: vec![Item::Rule(RuleDecl {
            annotations: Vec::new(),
            on_span: Span::default(),
            events: vec![name("x")],
            condition: Some(condition),
            action: ActionNode::Verb {
                verb: name("allow"),
                reason: None,
                message: None,
                span: Span::default(),
            },
            span: Span::default(),
        })],
    }
}

#[test]
fn parentheses_are_added_where_precedence_needs_them() {
    let span = Span::default();
    let or = Expr::Or(vec![field("a"), field("b")], span);
    let and = Expr::And(vec![or.clone(), field("c")], span);
    assert_eq!(
        print(&rule_with(and.clone())),
        "on x when (a or b) and c allow\n"
    );
    let not = Expr::Not(Box::new(and), span);
    assert_eq!(
        print(&rule_with(not)),
        "on x when not ((a or b) and c) allow\n"
    );
    let nested_or = Expr::Or(vec![or, field("d")], span);
    assert_eq!(
        print(&rule_with(nested_or)),
        "on x when (a or b) or d allow\n"
    );
    let not_not = Expr::Not(Box::new(Expr::Not(Box::new(field("a")), span)), span);
    assert_eq!(print(&rule_with(not_not)), "on x when not not a allow\n");
}

#[test]
fn a_test_with_no_steps_and_keys_that_are_not_words() {
    let span = Span::default();
    let file = File {
        items: vec![Item::Test(TestBlock {
            name: StrLit {
                raw: "t".to_owned(),
                span,
            },
            steps: vec![TestStep::Event {
                event: name("x"),
                fields: vec![ObjectEntry {
                    key: name("Tool Name"),
                    value: Value::Lit(Lit {
                        kind: LitKind::List(Vec::new()),
                        span,
                    }),
                    span,
                }],
                span,
            }],
            span,
        })],
    };
    assert_eq!(
        print(&file),
        "test \"t\" {\n  event x { \"Tool Name\": [] }\n}\n"
    );
}
