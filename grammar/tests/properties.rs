//! Properties of `parse` and `print` over generated input.
//!
//! - No input makes `parse` panic, every span it returns (errors, tree, comments) lies inside
//!   the input on character boundaries, errors come in source order and speak user words:
//!   random bytes, random text, and random sequences of the language's own tokens.
//! - For generated trees in the shape `parse` produces, `parse(print(tree))` is the tree again
//!   up to spans, and printing is idempotent.
//! - `parse` reads a file with no syntax error in one pass of the grammar, and a file with one
//!   item by item; both give the same tree, spans and comments. The item-by-item path is
//!   forced on a copy of a valid file by appending an item that breaks at the end of the file
//!   (`on`, which ends the extent of the item before it): the copy must give the same tree and
//!   comments as the original, and that one error.

use proptest::prelude::*;
use proptest::test_runner::Config;
use rulesc_grammar::{
    parse, print, ActionNode, Annotation, Arith, ArithOp, Compare, DefaultDecl, Expr, File, Header,
    Ident, Item, ListQuantifier, Lit, LitKind, ObjectEntry, Op, Operand, ParseError, Path,
    PathSegment, Quantified, RuleDecl, Span, StrLit, TestBlock, TestStep, TraceCall, Value,
};

// ---------------------------------------------------------------------------------------------
// Every span of a tree
// ---------------------------------------------------------------------------------------------

/// Calls `each` on every span in `file`
fn visit_spans(file: &mut File, each: &mut dyn FnMut(&mut Span)) {
    for item in &mut file.items {
        match item {
            Item::Header(header) => {
                visit_str(&mut header.name, each);
                each(&mut header.span);
            }
            Item::Default(default) => {
                each(&mut default.event.span);
                each(&mut default.verb.span);
                each(&mut default.span);
            }
            Item::Rule(rule) => {
                for annotation in &mut rule.annotations {
                    each(&mut annotation.name.span);
                    for arg in &mut annotation.args {
                        visit_lit(arg, each);
                    }
                    each(&mut annotation.span);
                }
                each(&mut rule.on_span);
                for event in &mut rule.events {
                    each(&mut event.span);
                }
                if let Some(condition) = &mut rule.condition {
                    visit_expr(condition, each);
                }
                match &mut rule.action {
                    ActionNode::Verb {
                        verb,
                        reason,
                        message,
                        span,
                    } => {
                        visit_verb(verb, reason.as_mut(), message.as_mut(), each);
                        each(span);
                    }
                    ActionNode::Set {
                        target,
                        value,
                        span,
                    } => {
                        visit_path(target, each);
                        visit_operand(value, each);
                        each(span);
                    }
                    ActionNode::Label {
                        target,
                        label,
                        span,
                    } => {
                        visit_path(target, each);
                        visit_str(label, each);
                        each(span);
                    }
                }
                each(&mut rule.span);
            }
            Item::Test(test) => {
                visit_str(&mut test.name, each);
                for step in &mut test.steps {
                    match step {
                        TestStep::Event {
                            event,
                            fields,
                            span,
                        } => {
                            each(&mut event.span);
                            visit_entries(fields, each);
                            each(span);
                        }
                        TestStep::Expect {
                            verb,
                            reason,
                            by,
                            span,
                        } => {
                            visit_verb(verb, reason.as_mut(), by.as_mut(), each);
                            each(span);
                        }
                    }
                }
                each(&mut test.span);
            }
        }
    }
}

/// A verb, its stop reason and its string: a rule's message or an expectation's `by`
fn visit_verb(
    verb: &mut Ident,
    reason: Option<&mut Ident>,
    string: Option<&mut StrLit>,
    each: &mut dyn FnMut(&mut Span),
) {
    each(&mut verb.span);
    if let Some(reason) = reason {
        each(&mut reason.span);
    }
    if let Some(string) = string {
        visit_str(string, each);
    }
}

fn visit_expr(expr: &mut Expr, each: &mut dyn FnMut(&mut Span)) {
    match expr {
        Expr::Or(parts, span) | Expr::And(parts, span) => {
            for part in parts {
                visit_expr(part, each);
            }
            each(span);
        }
        Expr::Not(inner, span) | Expr::Paren(inner, span) => {
            visit_expr(inner, each);
            each(span);
        }
        Expr::Compare(compare) => visit_compare(compare, each),
        Expr::Quantified(quantified) => {
            each(&mut quantified.quantifier_span);
            visit_compare(&mut quantified.compare, each);
            each(&mut quantified.span);
        }
        Expr::Path(path) => visit_path(path, each),
        Expr::Lit(lit) => visit_lit(lit, each),
        Expr::Call(call) => {
            visit_path(&mut call.name, each);
            visit_expr(&mut call.argument, each);
            each(&mut call.span);
        }
        Expr::Trace(call) => visit_trace(call, each),
    }
}

fn visit_compare(compare: &mut Compare, each: &mut dyn FnMut(&mut Span)) {
    visit_operand(&mut compare.left, each);
    visit_operand(&mut compare.right, each);
    each(&mut compare.op_span);
    each(&mut compare.span);
}

fn visit_operand(operand: &mut Operand, each: &mut dyn FnMut(&mut Span)) {
    match operand {
        Operand::Path(path) => visit_path(path, each),
        Operand::Lit(lit) => visit_lit(lit, each),
        Operand::Trace(call) => visit_trace(call, each),
        Operand::Group(inner, span) => {
            visit_operand(inner, each);
            each(span);
        }
        Operand::Arith(arith) => {
            visit_operand(&mut arith.left, each);
            visit_operand(&mut arith.right, each);
            each(&mut arith.op_span);
            each(&mut arith.span);
        }
    }
}

fn visit_trace(call: &mut TraceCall, each: &mut dyn FnMut(&mut Span)) {
    each(&mut call.name.span);
    each(&mut call.event.span);
    if let Some(when) = &mut call.when {
        visit_expr(when, each);
    }
    if let Some(window) = &mut call.within {
        visit_lit(&mut window.amount, each);
        each(&mut window.span);
    }
    each(&mut call.span);
}

fn visit_path(path: &mut Path, each: &mut dyn FnMut(&mut Span)) {
    for segment in &mut path.segments {
        match segment {
            PathSegment::Name(name) => each(&mut name.span),
            PathSegment::Quoted { key, span } => {
                each(&mut key.span);
                each(span);
            }
            PathSegment::Index { span, .. } => each(span),
        }
    }
    each(&mut path.span);
}

fn visit_lit(lit: &mut Lit, each: &mut dyn FnMut(&mut Span)) {
    if let LitKind::List(items) = &mut lit.kind {
        for item in items {
            visit_lit(item, each);
        }
    }
    each(&mut lit.span);
}

fn visit_str(string: &mut StrLit, each: &mut dyn FnMut(&mut Span)) {
    each(&mut string.span);
}

fn visit_entries(entries: &mut [ObjectEntry], each: &mut dyn FnMut(&mut Span)) {
    for entry in entries {
        each(&mut entry.key.span);
        match &mut entry.value {
            Value::Lit(lit) => visit_lit(lit, each),
            Value::Object(inner, span) => {
                visit_entries(inner, each);
                each(span);
            }
        }
        each(&mut entry.span);
    }
}

/// `file` with every span zeroed, to compare trees up to spans
fn without_spans(file: &File) -> File {
    let mut file = file.clone();
    visit_spans(&mut file, &mut |span| *span = Span::default());
    file
}

/// Checks that everything `parse` returns for `src` points inside it, in order, in user words
fn check_parse(src: &str) {
    let parsed = parse(src);
    let mut spans = Vec::new();
    let mut file = parsed.file.clone();
    visit_spans(&mut file, &mut |span| spans.push(*span));
    spans.extend(parsed.errors.iter().map(ParseError::span));
    spans.extend(parsed.comments.iter().map(|comment| comment.span));
    for span in spans {
        assert!(span.start <= span.end, "{span:?} is reversed in {src:?}");
        assert!(
            src.get(span.range()).is_some(),
            "{span:?} is outside {src:?}"
        );
    }
    let starts: Vec<_> = parsed
        .errors
        .iter()
        .map(|error| error.span().start)
        .collect();
    assert!(
        starts.is_sorted(),
        "errors out of order in {src:?}: {:?}",
        parsed.errors
    );
}

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

const KEYWORDS: [&str; 16] = [
    "on", "when", "and", "or", "not", "in", "true", "false", "policy", "default", "test", "expect",
    "event", "by", "set", "contains",
];

fn ident_text() -> impl Strategy<Value = String> {
    "[a-z_][a-z0-9_]{0,7}".prop_filter("not a keyword", |word| !KEYWORDS.contains(&word.as_str()))
}

fn ident() -> impl Strategy<Value = Ident> {
    ident_text().prop_map(|name| Ident {
        name,
        span: Span::default(),
    })
}

/// A word after a `.` or as a key, keywords included
fn word() -> impl Strategy<Value = Ident> {
    "[a-z_][a-z0-9_]{0,7}".prop_map(|name| Ident {
        name,
        span: Span::default(),
    })
}

/// The raw text of a string: plain characters and every kind of escape
fn raw_string() -> impl Strategy<Value = String> {
    r#"([a-zA-Z0-9 #*./{}()é-]|\\[nt"\\]|\\u\{[0-9a-fA-F]{1,6}\}){0,8}"#
}

fn str_lit() -> impl Strategy<Value = StrLit> {
    raw_string().prop_map(|raw| StrLit {
        raw,
        span: Span::default(),
    })
}

fn lit_of(kind: LitKind) -> Lit {
    Lit {
        kind,
        span: Span::default(),
    }
}

fn lit() -> impl Strategy<Value = Lit> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(LitKind::Bool),
        "[0-9]{1,3}(_[0-9]{3})?[km]?".prop_map(LitKind::Int),
        "[0-9]{1,4}(ms|s|min|h)".prop_map(LitKind::Duration),
        raw_string().prop_map(LitKind::Str),
    ]
    .prop_map(lit_of);
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop::collection::vec(inner, 0..3).prop_map(|items| lit_of(LitKind::List(items)))
    })
}

fn path() -> impl Strategy<Value = Path> {
    let segment = prop_oneof![
        word().prop_map(PathSegment::Name),
        // A quoted key that is a word prints dotted, as a name: only others stay quoted.
        raw_string()
            .prop_filter("a word prints as a name", |raw| !print::is_word(raw))
            .prop_map(|name| PathSegment::Quoted {
                key: Ident {
                    name,
                    span: Span::default(),
                },
                span: Span::default(),
            }),
        "[0-9]{1,3}".prop_map(|text| PathSegment::Index {
            text,
            span: Span::default(),
        }),
    ];
    (ident(), prop::collection::vec(segment, 0..3)).prop_map(|(root, rest)| {
        let mut segments = vec![PathSegment::Name(root)];
        segments.extend(rest);
        Path {
            segments,
            span: Span::default(),
        }
    })
}

/// Operands in the shape `parse` produces: arithmetic joined from the left, parentheses
/// wherever precedence needs them
fn operand() -> impl Strategy<Value = Operand> {
    let leaf = prop_oneof![path().prop_map(Operand::Path), lit().prop_map(Operand::Lit)];
    leaf.prop_recursive(3, 12, 2, |inner| {
        let arith_op =
            prop::sample::select(vec![ArithOp::Add, ArithOp::Sub, ArithOp::Mul, ArithOp::Div]);
        prop_oneof![
            inner
                .clone()
                .prop_map(|operand| Operand::Group(Box::new(operand), Span::default())),
            (inner.clone(), arith_op, inner).prop_map(|(left, op, right)| {
                let group = |operand| Operand::Group(Box::new(operand), Span::default());
                let left = match left {
                    Operand::Arith(left)
                        if op.is_multiplicative() && !left.op.is_multiplicative() =>
                    {
                        group(Operand::Arith(left))
                    }
                    other => other,
                };
                let right = match right {
                    right @ Operand::Arith(_) => group(right),
                    other => other,
                };
                Operand::Arith(Box::new(Arith {
                    left,
                    op,
                    op_span: Span::default(),
                    right,
                    span: Span::default(),
                }))
            }),
        ]
    })
}

fn op() -> impl Strategy<Value = Op> {
    prop::sample::select(vec![
        Op::Eq,
        Op::Ne,
        Op::Lt,
        Op::Le,
        Op::Gt,
        Op::Ge,
        Op::Glob,
        Op::Regex,
        Op::In,
        Op::Contains,
    ])
}

/// `expr` as an operand of `and` or `not`: in parentheses unless it binds as tightly
fn tight(expr: Expr) -> Expr {
    match expr {
        Expr::Or(..) | Expr::And(..) => Expr::Paren(Box::new(expr), Span::default()),
        other => other,
    }
}

/// `expr` as an operand of `or`: in parentheses if it is an `or`
fn or_part(expr: Expr) -> Expr {
    match expr {
        Expr::Or(..) => Expr::Paren(Box::new(expr), Span::default()),
        other => other,
    }
}

/// Conditions in the shape `parse` produces: `and`/`or` with two parts or more, parentheses
/// wherever precedence needs them
fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (operand(), op(), operand()).prop_map(|(left, op, right)| {
            Expr::Compare(Box::new(Compare {
                left,
                op,
                op_span: Span::default(),
                right,
                span: Span::default(),
            }))
        }),
        (any::<bool>(), path(), op(), operand()).prop_map(|(all, left, op, right)| {
            Expr::Quantified(Box::new(Quantified {
                quantifier: if all {
                    ListQuantifier::All
                } else {
                    ListQuantifier::Any
                },
                quantifier_span: Span::default(),
                compare: Compare {
                    left: Operand::Path(left),
                    op,
                    op_span: Span::default(),
                    right,
                    span: Span::default(),
                },
                span: Span::default(),
            }))
        }),
        path().prop_map(Expr::Path),
        lit().prop_map(Expr::Lit),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            inner
                .clone()
                .prop_map(|e| Expr::Paren(Box::new(e), Span::default())),
            inner
                .clone()
                .prop_map(|e| Expr::Not(Box::new(tight(e)), Span::default())),
            prop::collection::vec(inner.clone().prop_map(tight), 2..4)
                .prop_map(|parts| Expr::And(parts, Span::default())),
            prop::collection::vec(inner.prop_map(or_part), 2..4)
                .prop_map(|parts| Expr::Or(parts, Span::default())),
        ]
    })
}

/// A verb, maybe a stop reason, maybe a string: a rule's message or an expectation's `by`
fn verb_parts() -> impl Strategy<Value = (Ident, Option<Ident>, Option<StrLit>)> {
    (
        ident(),
        prop::option::of(ident()),
        prop::option::of(str_lit()),
    )
}

fn action() -> impl Strategy<Value = ActionNode> {
    prop_oneof![
        verb_parts().prop_map(|(verb, reason, message)| ActionNode::Verb {
            verb,
            reason,
            message,
            span: Span::default(),
        }),
        (path(), operand()).prop_map(|(target, value)| ActionNode::Set {
            target,
            value,
            span: Span::default(),
        }),
    ]
}

fn annotation() -> impl Strategy<Value = Annotation> {
    let arg = prop_oneof![
        lit(),
        "-[0-9]{1,3}[km]?".prop_map(|text| lit_of(LitKind::Int(text))),
    ];
    (ident(), prop::collection::vec(arg, 0..3)).prop_map(|(name, args)| Annotation {
        name,
        args,
        span: Span::default(),
    })
}

fn rule() -> impl Strategy<Value = RuleDecl> {
    (
        prop::collection::vec(annotation(), 0..3),
        prop::collection::vec(ident(), 1..3),
        prop::option::of(expr()),
        action(),
    )
        .prop_map(|(annotations, events, condition, action)| RuleDecl {
            annotations,
            on_span: Span::default(),
            events,
            condition,
            action,
            span: Span::default(),
        })
}

fn entries() -> impl Strategy<Value = Vec<ObjectEntry>> {
    let key = prop_oneof![
        word(),
        raw_string().prop_map(|name| Ident {
            name,
            span: Span::default()
        }),
    ];
    let value = lit().prop_map(Value::Lit).prop_recursive(2, 8, 3, |inner| {
        prop::collection::vec((word(), inner), 0..3)
            .prop_map(|pairs| Value::Object(object(pairs), Span::default()))
    });
    prop::collection::vec((key, value), 0..3).prop_map(object)
}

/// The entries of an object with these keys and values
fn object(pairs: Vec<(Ident, Value)>) -> Vec<ObjectEntry> {
    pairs
        .into_iter()
        .map(|(key, value)| ObjectEntry {
            key,
            value,
            span: Span::default(),
        })
        .collect()
}

fn test_block() -> impl Strategy<Value = TestBlock> {
    let step = prop_oneof![
        (ident(), entries()).prop_map(|(event, fields)| TestStep::Event {
            event,
            fields,
            span: Span::default(),
        }),
        verb_parts().prop_map(|(verb, reason, by)| TestStep::Expect {
            verb,
            reason,
            by,
            span: Span::default(),
        }),
    ];
    (str_lit(), prop::collection::vec(step, 0..4)).prop_map(|(name, steps)| TestBlock {
        name,
        steps,
        span: Span::default(),
    })
}

fn file() -> impl Strategy<Value = File> {
    let item = prop_oneof![
        1 => str_lit().prop_map(|name| Item::Header(Header {
            name,
            span: Span::default()
        })),
        1 => (ident(), ident()).prop_map(|(event, verb)| Item::Default(DefaultDecl {
            event,
            verb,
            span: Span::default(),
        })),
        4 => rule().prop_map(Item::Rule),
        2 => test_block().prop_map(Item::Test),
    ];
    prop::collection::vec(item, 0..5).prop_map(|items| File { items })
}

/// Blanks and comments that can stand for a blank between tokens: at least one blank, line
/// break or comment (which ends its line)
fn blanks() -> impl Strategy<Value = String> {
    let blank = prop_oneof![
        Just(" ".to_owned()),
        Just("\t".to_owned()),
        Just("\n".to_owned()),
        Just("\r\n".to_owned()),
        "#[ -~é]{0,12}".prop_map(|comment| comment + "\n"),
    ];
    prop::collection::vec(blank, 1..4).prop_map(|blanks| blanks.concat())
}

/// `printed` with each blank between tokens (outside strings) replaced by the next of `blanks`,
/// in turn
fn with_blanks(printed: &str, blanks: &[String]) -> String {
    let mut src = String::new();
    let mut next_blank = blanks.iter().cycle();
    let mut in_string = false;
    let mut chars = printed.chars();
    while let Some(char) = chars.next() {
        match char {
            '"' => in_string = !in_string,
            '\\' if in_string => {
                src.push(char);
                src.extend(chars.next());
                continue;
            }
            ' ' | '\n' if !in_string => {
                src.push_str(next_blank.next().map_or(" ", String::as_str));
                continue;
            }
            _ => {}
        }
        src.push(char);
    }
    src
}

/// Valid files with blanks and comments between tokens, maybe a byte order mark and blanks
/// before the first item
fn commented_file() -> impl Strategy<Value = String> {
    (
        file(),
        prop::collection::vec(blanks(), 1..8),
        prop::option::of(blanks()),
        any::<bool>(),
    )
        .prop_map(|(file, blanks, leading, bom)| {
            let mut src = if bom {
                "\u{feff}".to_owned()
            } else {
                String::new()
            };
            src.extend(leading);
            src + &with_blanks(&print(&file), &blanks)
        })
}

include!("common/lexicon.rs");

/// Tokens of the language, good and bad, to build near-miss sources from
fn token() -> impl Strategy<Value = String> {
    let fixed = prop::sample::select(LEXICON);
    prop_oneof![
        4 => fixed.prop_map(str::to_owned),
        1 => "[a-z_]{1,6}",
        1 => "[0-9]{1,4}",
    ]
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(Config::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check_parse(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_text_never_panics(src in "\\PC{0,200}") {
        check_parse(&src);
    }

    #[test]
    fn random_token_sequences_never_panic(
        tokens in prop::collection::vec((token(), prop::sample::select(vec!["", " ", "\n"])), 0..40)
    ) {
        let src: String = tokens.into_iter().map(|(token, blank)| token + blank).collect();
        check_parse(&src);
    }

    #[test]
    fn printed_trees_parse_back_to_themselves(file in file()) {
        let printed = print(&file);
        let parsed = parse(&printed);
        prop_assert_eq!(&parsed.errors, &[], "errors in:\n{}", printed);
        prop_assert_eq!(without_spans(&parsed.file), without_spans(&file), "printed:\n{}", printed);
        prop_assert_eq!(print(&parsed.file), printed.clone());
        check_parse(&printed);
    }
}

proptest! {
    #![proptest_config(Config::with_cases(256))]

    #[test]
    fn one_pass_and_item_by_item_agree(src in commented_file()) {
        let parsed = parse(&src);
        prop_assert_eq!(&parsed.errors, &[], "errors in:\n{}", src);
        let broken_src = format!("{src}\non");
        let broken = parse(&broken_src);
        prop_assert_eq!(&broken.file, &parsed.file, "in:\n{}", src);
        prop_assert_eq!(&broken.comments, &parsed.comments, "in:\n{}", src);
        prop_assert_eq!(broken.errors.len(), 1, "in:\n{}", src);
        // The file ends right after the broken item's last token, which the error points at.
        let last_token = broken_src.len() - "on".len()..broken_src.len();
        prop_assert_eq!(broken.errors.first().map(|error| error.span().range()), Some(last_token));
        check_parse(&src);
    }
}
