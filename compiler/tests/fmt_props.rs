//! Properties of `rulesc fmt` on random valid policies: the layout changes, nothing else does.
//!
//! Policies are generated as token sequences joined by random blanks, line breaks and
//! comments, so the formatter sees every kind of messy input the grammar accepts.

use proptest::prelude::*;
use rulesc_compiler::format_source;
use rulesc_grammar::parse;

/// A list of tokens, later joined by random separators
type Tokens = Vec<String>;

fn toks(words: &[&str]) -> Tokens {
    words.iter().map(|word| (*word).to_owned()).collect()
}

fn one_of(words: &'static [&'static str]) -> impl Strategy<Value = String> {
    proptest::sample::select(words).prop_map(str::to_owned)
}

fn string_lit() -> impl Strategy<Value = String> {
    prop_oneof![
        one_of(&[
            r#""rm""#,
            r#""a b""#,
            r#""say \"hi\"\n""#,
            r#""é ✓ \u{1F600}""#,
            r#""*TODO*""#,
            r#""""#,
        ]),
        "[a-z ]{40,90}".prop_map(|text| format!("\"{text}\"")),
    ]
}

fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        one_of(&["20", "100_000", "2k", "3m", "0", "500ms", "5min", "2h", "30s", "true", "false"]),
        string_lit(),
    ]
}

fn literal() -> impl Strategy<Value = Tokens> {
    prop_oneof![
        3 => scalar().prop_map(|word| vec![word]),
        1 => (proptest::collection::vec(scalar(), 0..4), any::<bool>()).prop_map(|(items, trailing)| {
            let mut tokens = vec!["[".to_owned()];
            for (idx, item) in items.iter().enumerate() {
                if idx > 0 {
                    tokens.push(",".to_owned());
                }
                tokens.push(item.clone());
            }
            if trailing && !items.is_empty() {
                tokens.push(",".to_owned());
            }
            tokens.push("]".to_owned());
            tokens
        }),
    ]
}

fn path() -> impl Strategy<Value = String> {
    one_of(&[
        "steps",
        "tool",
        "blocked",
        "elapsed",
        "error.kind",
        "arg.command",
        "arg.paths[0]",
        "arg.event",
        "metadata.tainted",
        "metadata.a.b[2]",
    ])
}

fn operand() -> impl Strategy<Value = Tokens> {
    prop_oneof![path().prop_map(|word| vec![word]), literal()]
}

fn condition() -> impl Strategy<Value = Tokens> {
    let op = one_of(&[
        "==", "!=", "<", "<=", ">", ">=", "~", "=~", "in", "contains",
    ]);
    let leaf = prop_oneof![
        4 => (operand(), op, operand()).prop_map(|(left, op, right)| {
            let mut tokens = left;
            tokens.push(op);
            tokens.extend(right);
            tokens
        }),
        1 => path().prop_map(|word| vec![word]),
        1 => literal(),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|tokens| {
                let mut out = toks(&["not"]);
                out.extend(tokens);
                out
            }),
            inner.clone().prop_map(|tokens| {
                let mut out = toks(&["("]);
                out.extend(tokens);
                out.push(")".to_owned());
                out
            }),
            (inner.clone(), one_of(&["and", "or"]), inner).prop_map(|(left, joiner, right)| {
                let mut out = left;
                out.push(joiner);
                out.extend(right);
                out
            }),
        ]
    })
}

fn event() -> impl Strategy<Value = String> {
    one_of(&[
        "pre_tool_use",
        "post_tool_use",
        "stop",
        "before_step",
        "on_error",
    ])
}

fn annotation() -> impl Strategy<Value = Tokens> {
    prop_oneof![
        string_lit().prop_map(|id| {
            let mut tokens = toks(&["@", "id", "("]);
            tokens.push(id);
            tokens.push(")".to_owned());
            tokens
        }),
        Just(toks(&["@", "priority", "(", "-5", ",", ")"])),
        Just(toks(&["@", "tag"])),
    ]
}

fn action() -> impl Strategy<Value = Tokens> {
    prop_oneof![
        (
            one_of(&["forbid", "block", "request", "allow"]),
            proptest::option::of(one_of(&["completed", "steps_limit_reached"])),
            proptest::option::of(string_lit()),
        )
            .prop_map(|(verb, reason, message)| {
                let mut tokens = vec![verb];
                tokens.extend(reason);
                tokens.extend(message);
                tokens
            }),
        (path(), literal()).prop_map(|(target, value)| {
            let mut tokens = toks(&["set"]);
            tokens.push(target);
            tokens.push("=".to_owned());
            tokens.extend(value);
            tokens
        }),
    ]
}

fn rule() -> impl Strategy<Value = Tokens> {
    (
        proptest::collection::vec(annotation(), 0..3),
        proptest::collection::vec(event(), 1..4),
        proptest::option::of(condition()),
        action(),
    )
        .prop_map(|(annotations, events, condition, action)| {
            let mut tokens: Tokens = annotations.into_iter().flatten().collect();
            tokens.push("on".to_owned());
            for (idx, event) in events.into_iter().enumerate() {
                if idx > 0 {
                    tokens.push(",".to_owned());
                }
                tokens.push(event);
            }
            if let Some(condition) = condition {
                tokens.push("when".to_owned());
                tokens.extend(condition);
            }
            tokens.extend(action);
            tokens
        })
}

fn object() -> impl Strategy<Value = Tokens> {
    let key = prop_oneof![
        one_of(&["tool", "arg", "event", "stop_requests", "command"]),
        Just(r#""filePath""#.to_owned()),
    ];
    let leaf = (key.clone(), literal())
        .prop_map(|(key, value)| {
            let mut tokens = vec![key, ":".to_owned()];
            tokens.extend(value);
            tokens
        })
        .boxed();
    let entries = |entry: BoxedStrategy<Tokens>| {
        (proptest::collection::vec(entry, 0..4), any::<bool>()).prop_map(|(entries, trailing)| {
            let mut tokens = toks(&["{"]);
            for (idx, entry) in entries.iter().enumerate() {
                if idx > 0 {
                    tokens.push(",".to_owned());
                }
                tokens.extend(entry.iter().cloned());
            }
            if trailing && !entries.is_empty() {
                tokens.push(",".to_owned());
            }
            tokens.push("}".to_owned());
            tokens
        })
    };
    let nested = (key, entries(leaf.clone())).prop_map(|(key, object)| {
        let mut tokens = vec![key, ":".to_owned()];
        tokens.extend(object);
        tokens
    });
    entries(prop_oneof![3 => leaf, 1 => nested].boxed())
}

fn test_block() -> impl Strategy<Value = Tokens> {
    let event_step = (event(), object()).prop_map(|(event, object)| {
        let mut tokens = vec!["event".to_owned(), event];
        tokens.extend(object);
        tokens
    });
    let expect_step = (
        one_of(&["none", "block", "forbid"]),
        proptest::option::of(one_of(&["completed"])),
        proptest::option::of(string_lit()),
    )
        .prop_map(|(verb, reason, by)| {
            let mut tokens = vec!["expect".to_owned(), verb];
            tokens.extend(reason);
            if let Some(by) = by {
                tokens.push("by".to_owned());
                tokens.push(by);
            }
            tokens
        });
    (
        string_lit(),
        proptest::collection::vec(prop_oneof![event_step, expect_step], 0..4),
    )
        .prop_map(|(name, steps)| {
            let mut tokens = vec!["test".to_owned(), name, "{".to_owned()];
            tokens.extend(steps.into_iter().flatten());
            tokens.push("}".to_owned());
            tokens
        })
}

fn item() -> impl Strategy<Value = Tokens> {
    prop_oneof![
        4 => rule(),
        2 => test_block(),
        1 => (event(), one_of(&["ask", "retry"])).prop_map(|(event, verb)| {
            vec!["default".to_owned(), event, verb]
        }),
    ]
}

/// What goes between two tokens
fn separator() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => Just(" ".to_owned()),
        2 => Just("\n".to_owned()),
        1 => Just("\n\n\n  ".to_owned()),
        1 => Just("\t ".to_owned()),
        1 => "[a-z ]{0,12}".prop_map(|text| format!(" #{text}\n")),
        1 => "[a-z ]{0,12}".prop_map(|text| format!("\n\n# {text}\n\n")),
    ]
}

/// A whole valid policy file
fn policy() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        proptest::collection::vec(item(), 0..6),
        proptest::collection::vec(separator(), 1..64),
        any::<bool>(),
    )
        .prop_map(|(header, items, separators, final_comment)| {
            let mut tokens = Vec::new();
            if header {
                tokens.extend(toks(&["policy", r#""p""#]));
            }
            tokens.extend(items.into_iter().flatten());
            let mut src = String::new();
            for (idx, token) in tokens.iter().enumerate() {
                if idx > 0 {
                    let sep = separators
                        .get(idx % separators.len())
                        .map_or(" ", String::as_str);
                    src.push_str(sep);
                }
                src.push_str(token);
            }
            if final_comment {
                src.push_str("  # the end");
            }
            src
        })
}

/// Copies of syntax trees with every span zeroed: formatting must keep everything else
mod erase {
    use rulesc_grammar::{
        ActionNode, Annotation, Call, Compare, DefaultDecl, Expr, File, Header, Ident, Item, Lit,
        LitKind, ObjectEntry, Operand, Path, PathSegment, RuleDecl, Span, StrLit, TestBlock,
        TestStep, Value,
    };

    fn ident(ident: &Ident) -> Ident {
        Ident {
            name: ident.name.clone(),
            span: Span::default(),
        }
    }

    fn str_lit(lit: &StrLit) -> StrLit {
        StrLit {
            raw: lit.raw.clone(),
            span: Span::default(),
        }
    }

    fn lit(lit: &Lit) -> Lit {
        let kind = match &lit.kind {
            LitKind::List(items) => LitKind::List(items.iter().map(self::lit).collect()),
            other => other.clone(),
        };
        Lit {
            kind,
            span: Span::default(),
        }
    }

    fn path(path: &Path) -> Path {
        let segments = path
            .segments
            .iter()
            .map(|segment| match segment {
                PathSegment::Name(name) => PathSegment::Name(ident(name)),
                PathSegment::Index { text, .. } => PathSegment::Index {
                    text: text.clone(),
                    span: Span::default(),
                },
            })
            .collect();
        Path {
            segments,
            span: Span::default(),
        }
    }

    fn operand(operand: &Operand) -> Operand {
        match operand {
            Operand::Path(field) => Operand::Path(path(field)),
            Operand::Lit(literal) => Operand::Lit(lit(literal)),
        }
    }

    fn expr(expr: &Expr) -> Expr {
        let none = Span::default();
        match expr {
            Expr::Or(parts, _) => Expr::Or(parts.iter().map(self::expr).collect(), none),
            Expr::And(parts, _) => Expr::And(parts.iter().map(self::expr).collect(), none),
            Expr::Not(inner, _) => Expr::Not(Box::new(self::expr(inner)), none),
            Expr::Paren(inner, _) => Expr::Paren(Box::new(self::expr(inner)), none),
            Expr::Compare(compare) => Expr::Compare(Box::new(Compare {
                left: operand(&compare.left),
                op: compare.op,
                op_span: none,
                right: operand(&compare.right),
                span: none,
            })),
            Expr::Path(field) => Expr::Path(path(field)),
            Expr::Lit(literal) => Expr::Lit(lit(literal)),
            Expr::Call(call) => Expr::Call(Box::new(Call {
                name: path(&call.name),
                argument: self::expr(&call.argument),
                span: none,
            })),
        }
    }

    fn entries(entries: &[ObjectEntry]) -> Vec<ObjectEntry> {
        entries
            .iter()
            .map(|entry| ObjectEntry {
                key: ident(&entry.key),
                value: match &entry.value {
                    Value::Lit(literal) => Value::Lit(lit(literal)),
                    Value::Object(inner, _) => Value::Object(self::entries(inner), Span::default()),
                },
                span: Span::default(),
            })
            .collect()
    }

    fn item(item: &Item) -> Item {
        let none = Span::default();
        match item {
            Item::Header(header) => Item::Header(Header {
                name: str_lit(&header.name),
                span: none,
            }),
            Item::Default(default) => Item::Default(DefaultDecl {
                event: ident(&default.event),
                verb: ident(&default.verb),
                span: none,
            }),
            Item::Rule(rule) => Item::Rule(RuleDecl {
                annotations: rule
                    .annotations
                    .iter()
                    .map(|annotation| Annotation {
                        name: ident(&annotation.name),
                        args: annotation.args.iter().map(lit).collect(),
                        span: none,
                    })
                    .collect(),
                on_span: none,
                events: rule.events.iter().map(ident).collect(),
                condition: rule.condition.as_ref().map(expr),
                action: match &rule.action {
                    ActionNode::Verb {
                        verb,
                        reason,
                        message,
                        ..
                    } => ActionNode::Verb {
                        verb: ident(verb),
                        reason: reason.as_ref().map(ident),
                        message: message.as_ref().map(str_lit),
                        span: none,
                    },
                    ActionNode::Set { target, value, .. } => ActionNode::Set {
                        target: path(target),
                        value: lit(value),
                        span: none,
                    },
                },
                span: none,
            }),
            Item::Test(test) => Item::Test(TestBlock {
                name: str_lit(&test.name),
                steps: test
                    .steps
                    .iter()
                    .map(|step| match step {
                        TestStep::Event { event, fields, .. } => TestStep::Event {
                            event: ident(event),
                            fields: entries(fields),
                            span: none,
                        },
                        TestStep::Expect {
                            verb, reason, by, ..
                        } => TestStep::Expect {
                            verb: ident(verb),
                            reason: reason.as_ref().map(ident),
                            by: by.as_ref().map(str_lit),
                            span: none,
                        },
                    })
                    .collect(),
                span: none,
            }),
        }
    }

    pub(super) fn file(file: &File) -> File {
        File {
            items: file.items.iter().map(item).collect(),
        }
    }
}

fn comment_texts(src: &str) -> Vec<String> {
    parse(src)
        .comments
        .into_iter()
        .map(|comment| comment.text.trim_end().to_owned())
        .collect()
}

proptest! {
    #[test]
    fn generated_policies_parse(src in policy()) {
        let parsed = parse(&src);
        prop_assert!(parsed.errors.is_empty(), "{:?}\n{src}", parsed.errors);
    }

    #[test]
    fn formatting_keeps_the_tree(src in policy()) {
        let formatted = format_source(&src).unwrap();
        let reparsed = parse(&formatted);
        prop_assert!(reparsed.errors.is_empty(), "{:?}\n{formatted}", reparsed.errors);
        prop_assert_eq!(erase::file(&reparsed.file), erase::file(&parse(&src).file));
    }

    #[test]
    fn formatting_keeps_every_comment_in_order(src in policy()) {
        let formatted = format_source(&src).unwrap();
        prop_assert_eq!(comment_texts(&formatted), comment_texts(&src));
    }

    #[test]
    fn formatting_is_idempotent(src in policy()) {
        let formatted = format_source(&src).unwrap();
        prop_assert_eq!(format_source(&formatted).unwrap(), formatted);
    }
}
