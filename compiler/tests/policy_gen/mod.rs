//! Random policy files that parse: token sequences of every item kind joined by random
//! blanks, line breaks and comments, so a formatter sees every kind of messy input the
//! grammar accepts; and policies on `pre_tool_use` that check, with inline tests, so the
//! outcomes of their tests can be compared. Shared by the formatter's properties (`compiler/tests/fmt_props.rs`) and
//! the test that formatting keeps meaning (`tests/fmt_meaning.rs`).

use proptest::prelude::*;

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
        r#"arg["pullNumber"]"#,
        r#"arg["x.y"][0]"#,
        r#"metadata["a-b"]"#,
        r#"arg["command"]"#,
    ])
}

/// A field or a literal, or arithmetic over them, parenthesised at random
fn operand() -> impl Strategy<Value = Tokens> {
    let leaf = prop_oneof![path().prop_map(|word| vec![word]), literal()];
    leaf.prop_recursive(2, 8, 2, |inner| {
        prop_oneof![
            (inner.clone(), one_of(&["+", "-", "*", "/"]), inner.clone()).prop_map(
                |(left, op, right)| {
                    let mut tokens = left;
                    tokens.push(op);
                    tokens.extend(right);
                    tokens
                }
            ),
            inner.prop_map(|tokens| {
                let mut out = toks(&["("]);
                out.extend(tokens);
                out.push(")".to_owned());
                out
            }),
        ]
    })
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
        1 => (one_of(&["any", "all"]), path(), one_of(&["==", "~", "in", "<"]), operand()).prop_map(
            |(word, left, op, right)| {
                let mut tokens = vec![word, left, op];
                tokens.extend(right);
                tokens
            }
        ),
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
        (path(), prop_oneof![literal(), operand()]).prop_map(|(target, value)| {
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

/// A whole policy file that parses (most do not check: fields on events that lack them,
/// verbs where they are not allowed, duplicate ids)
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

/// A condition a `pre_tool_use` rule can have: comparisons of its fields joined by `and`,
/// `or` and `not`, some with strings long enough to break the line
fn tool_condition() -> impl Strategy<Value = Tokens> {
    let tool = prop_oneof![
        one_of(&[r#""rm""#, r#""ls""#, r#""gh""#]),
        "[a-z ]{40,70}".prop_map(|text| format!("\"{text}\"")),
    ];
    let leaf = prop_oneof![
        tool.prop_map(|tool| vec!["tool".to_owned(), "==".to_owned(), tool]),
        Just(toks(&["tool", "~", r#""r*""#])),
        Just(toks(&["arg.command", "contains", r#""rm""#])),
        Just(toks(&[r#"arg["pullNumber"]"#, "==", "1"])),
        Just(toks(&["metadata.tainted"])),
        Just(toks(&["steps", ">", "2"])),
        Just(toks(&[
            "metadata.fetched",
            "*",
            "2",
            "+",
            "(",
            "steps",
            "-",
            "1",
            ")",
            "/",
            "3",
            ">",
            "10"
        ])),
        Just(toks(&["any", "arg.to", "~", r#""*@evil.example""#])),
        Just(toks(&["all", "arg.sizes", "<", "1000"])),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|tokens| {
                let mut out = toks(&["not", "("]);
                out.extend(tokens);
                out.push(")".to_owned());
                out
            }),
            (inner.clone(), one_of(&["and", "or"]), inner).prop_map(|(left, joiner, right)| {
                let mut out = toks(&["("]);
                out.extend(left);
                out.push(joiner);
                out.extend(right);
                out.push(")".to_owned());
                out
            }),
        ]
    })
}

/// A `pre_tool_use` rule that checks; `@id` gets a unique name when the policy is assembled
fn tool_rule() -> impl Strategy<Value = Tokens> {
    let action = prop_oneof![
        (
            one_of(&["block", "ask", "allow", "forbid"]),
            proptest::option::of(string_lit())
        )
            .prop_map(|(verb, message)| {
                let mut tokens = vec![verb];
                tokens.extend(message);
                tokens
            }),
        Just(toks(&["set", "metadata.tainted", "=", "true"])),
    ];
    (
        proptest::option::of(Just(toks(&["@", "id", "(", "ID", ")"]))),
        proptest::option::of(Just(toks(&["@", "priority", "(", "3", ")"]))),
        proptest::option::of(tool_condition()),
        action,
    )
        .prop_map(|(id, priority, condition, action)| {
            let mut tokens: Tokens = id.into_iter().chain(priority).flatten().collect();
            tokens.extend(toks(&["on", "pre_tool_use"]));
            if let Some(condition) = condition {
                tokens.push("when".to_owned());
                tokens.extend(condition);
            }
            tokens.extend(action);
            tokens
        })
}

/// A test of `pre_tool_use` events, each followed by an expectation that may or may not hold
fn tool_test() -> impl Strategy<Value = Tokens> {
    let step = (
        one_of(&[r#""rm""#, r#""ls""#, r#""gh""#]),
        one_of(&[r#""rm -rf /""#, r#""ls""#]),
        one_of(&["1", "2"]),
        one_of(&["block", "ask", "allow", "forbid", "none"]),
    )
        .prop_map(|(tool, command, number, verb)| {
            let mut tokens = toks(&["event", "pre_tool_use", "{", "tool", ":"]);
            tokens.push(tool);
            tokens.extend(toks(&[",", "arg", ":", "{", "command", ":"]));
            tokens.push(command);
            tokens.extend(toks(&[",", r#""pullNumber""#, ":"]));
            tokens.push(number);
            tokens.extend(toks(&["}", "}", "expect"]));
            tokens.push(verb);
            tokens
        });
    proptest::collection::vec(step, 1..4).prop_map(|steps| {
        let mut tokens = toks(&["test", "TEST", "{"]);
        tokens.extend(steps.into_iter().flatten());
        tokens.push("}".to_owned());
        tokens
    })
}

/// A policy of `pre_tool_use` rules and tests that checks (but for lints): items on lines of
/// their own, with random blank lines and comments between them and random blanks and line
/// breaks inside them
fn tool_policy() -> impl Strategy<Value = String> {
    let item = prop_oneof![3 => tool_rule(), 1 => tool_test()];
    let between = one_of(&["\n", "\n\n", "\n\n\n\n", "\n# a note\n", "  # after\n\n"]);
    let inside = prop_oneof![
        8 => Just(" ".to_owned()),
        1 => Just("\n  ".to_owned()),
        1 => Just("\n\n    ".to_owned()),
    ];
    (
        proptest::collection::vec((item, between), 1..7),
        proptest::collection::vec(inside, 1..32),
    )
        .prop_map(|(items, insides)| {
            let mut src = String::new();
            let mut n_tokens = 0_usize;
            for (item_idx, (tokens, after)) in items.into_iter().enumerate() {
                for (token_idx, token) in tokens.iter().enumerate() {
                    if token_idx > 0 {
                        n_tokens += 1;
                        let sep = insides
                            .get(n_tokens % insides.len())
                            .map_or(" ", String::as_str);
                        src.push_str(sep);
                    }
                    match token.as_str() {
                        "ID" => src.push_str(&format!("\"r{item_idx}\"")),
                        "TEST" => src.push_str(&format!("\"t{item_idx}\"")),
                        _ => src.push_str(token),
                    }
                }
                src.push_str(&after);
            }
            src
        })
}

/// A policy file that parses: one that mostly does not check, or one that checks and has
/// tests
pub(crate) fn any_policy() -> impl Strategy<Value = String> {
    prop_oneof![policy(), tool_policy()]
}
