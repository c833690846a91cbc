//! Properties of `rulesc fmt` on random valid policies: the layout changes, nothing else does.
//!
//! Policies come from `policy_gen`: token sequences joined by random blanks, line breaks and
//! comments, so the formatter sees every kind of messy input the grammar accepts.

use crate::policy_gen::any_policy;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rulesc_compiler::{format_source, FormatError};
use rulesc_grammar::{parse, Item};

/// Copies of syntax trees with every span zeroed: formatting must keep everything else
mod erase {
    use rulesc_grammar::{
        ActionNode, Annotation, Arith, Call, Compare, DefaultDecl, Expr, File, Header, Ident, Item,
        Lit, LitKind, ObjectEntry, Operand, Path, PathSegment, Quantified, RuleDecl, Span, StrLit,
        TestBlock, TestStep, TraceCall, Value, WindowNode,
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
                // fmt writes a quoted key that is a word dotted: the same key.
                PathSegment::Quoted { key, .. } if rulesc_grammar::print::is_word(&key.name) => {
                    PathSegment::Name(ident(key))
                }
                PathSegment::Quoted { key, .. } => PathSegment::Quoted {
                    key: ident(key),
                    span: Span::default(),
                },
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
            Operand::Group(inner, _) => {
                Operand::Group(Box::new(self::operand(inner)), Span::default())
            }
            Operand::Arith(arith) => Operand::Arith(Box::new(Arith {
                left: self::operand(&arith.left),
                op: arith.op,
                op_span: Span::default(),
                right: self::operand(&arith.right),
                span: Span::default(),
            })),
            Operand::Trace(call) => Operand::Trace(Box::new(trace(call))),
        }
    }

    fn compare(compare: &Compare) -> Compare {
        Compare {
            left: operand(&compare.left),
            op: compare.op,
            op_span: Span::default(),
            right: operand(&compare.right),
            span: Span::default(),
        }
    }

    fn trace(call: &TraceCall) -> TraceCall {
        TraceCall {
            name: ident(&call.name),
            event: ident(&call.event),
            when: call.when.as_ref().map(self::expr),
            within: call.within.as_ref().map(|window| WindowNode {
                amount: lit(&window.amount),
                steps: window.steps,
                span: Span::default(),
            }),
            span: Span::default(),
        }
    }

    fn expr(expr: &Expr) -> Expr {
        let none = Span::default();
        match expr {
            Expr::Or(parts, _) => Expr::Or(parts.iter().map(self::expr).collect(), none),
            Expr::And(parts, _) => Expr::And(parts.iter().map(self::expr).collect(), none),
            Expr::Not(inner, _) => Expr::Not(Box::new(self::expr(inner)), none),
            Expr::Paren(inner, _) => Expr::Paren(Box::new(self::expr(inner)), none),
            Expr::Compare(compare) => Expr::Compare(Box::new(self::compare(compare))),
            Expr::Quantified(quantified) => Expr::Quantified(Box::new(Quantified {
                quantifier: quantified.quantifier,
                quantifier_span: none,
                compare: self::compare(&quantified.compare),
                span: none,
            })),
            Expr::Path(field) => Expr::Path(path(field)),
            Expr::Lit(literal) => Expr::Lit(lit(literal)),
            Expr::Call(call) => Expr::Call(Box::new(Call {
                name: path(&call.name),
                argument: self::expr(&call.argument),
                span: none,
            })),
            Expr::Trace(call) => Expr::Trace(Box::new(trace(call))),
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
                        value: operand(value),
                        span: none,
                    },
                    ActionNode::Label { target, label, .. } => ActionNode::Label {
                        target: path(target),
                        label: str_lit(label),
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

/// `src` formatted, or `None` when fmt refused because the layout would move the `on` of a
/// rule without `@id` (its id): the refusal must name such a rule's line
fn formatted(src: &str) -> Result<Option<String>, TestCaseError> {
    match format_source(src) {
        Ok(formatted) => Ok(Some(formatted)),
        Err(FormatError::MovesRuleId { line, span }) => {
            prop_assert!(
                id_lines(src).contains(&line),
                "line {line} holds no rule named by its line:\n{src}"
            );
            prop_assert!(span.start <= span.end);
            Ok(None)
        }
        Err(err) => Err(TestCaseError::fail(format!("{err:?}\n{src}"))),
    }
}

/// The line breaks of `text` as rule ids count them: `\n`, `\r\n` or a lone `\r`
fn line_breaks(text: &str) -> u32 {
    let n_breaks =
        text.matches('\n').count() + text.matches('\r').count() - text.matches("\r\n").count();
    u32::try_from(n_breaks).unwrap_or(u32::MAX)
}

proptest! {
    #[test]
    fn generated_policies_parse(src in any_policy()) {
        let parsed = parse(&src);
        prop_assert!(parsed.errors.is_empty(), "{:?}\n{src}", parsed.errors);
    }

    #[test]
    fn formatting_keeps_the_tree(src in any_policy()) {
        let Some(formatted) = formatted(&src)? else { return Ok(()) };
        let reparsed = parse(&formatted);
        prop_assert!(reparsed.errors.is_empty(), "{:?}\n{formatted}", reparsed.errors);
        prop_assert_eq!(erase::file(&reparsed.file), erase::file(&parse(&src).file));
    }

    #[test]
    fn formatting_keeps_every_comment_in_order(src in any_policy()) {
        let Some(formatted) = formatted(&src)? else { return Ok(()) };
        prop_assert_eq!(comment_texts(&formatted), comment_texts(&src));
    }

    #[test]
    fn formatting_is_idempotent(src in any_policy()) {
        let Some(formatted) = formatted(&src)? else { return Ok(()) };
        prop_assert_eq!(format_source(&formatted), Ok(formatted));
    }

    /// Independent of the formatter's code: each rule without `@id` is on the same line before
    /// and after, counted from the text
    #[test]
    fn formatting_keeps_the_line_of_every_rule_without_an_id(src in any_policy()) {
        let Some(formatted) = formatted(&src)? else { return Ok(()) };
        prop_assert_eq!(id_lines(&formatted), id_lines(&src), "formatted:\n{}", formatted);
    }
}

/// The 1-based line of the `on` of each rule without `@id`, in order
fn id_lines(src: &str) -> Vec<u32> {
    parse(src)
        .file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Rule(rule)
                if !rule
                    .annotations
                    .iter()
                    .any(|annotation| annotation.name.name == "id") =>
            {
                Some(line_breaks(src.get(..rule.on_span.start as usize).unwrap_or_default()) + 1)
            }
            _ => None,
        })
        .collect()
}
