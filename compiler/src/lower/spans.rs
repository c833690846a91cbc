//! Where each part of a lowered rule is written: the spans a checked rule keeps beside its
//! runtime [`Rule`](rulesc_runtime::Rule), gathered while the rule is lowered.
//!
//! Invariant: lints and the layers' check read a rule's places here and its meaning in the
//! runtime rule, never the syntax tree; every field here was resolved once, by lowering.

use rulesc_grammar::{ActionNode, Expr, RuleDecl, Span};
use rulesc_runtime::{EventKind, Field};

/// Where a lowered rule and its parts are written
#[derive(Debug)]
pub(crate) struct RuleSpans {
    /// The whole rule, annotations included
    pub(crate) rule: Span,
    /// Each event as written, with the kind it names, in source order (the runtime rule's
    /// are sorted); a name that is no event was refused before any lint reads these
    pub(crate) events: Vec<(EventKind, Span)>,
    /// The verb of a decision; the whole effect of a `set` or a `label`
    pub(crate) effect: Span,
    /// A `set`'s target (`metadata.key`) and value
    pub(crate) set: Option<(Span, Span)>,
    /// The condition's `and`, `or` and `not`, nested as the runtime condition's are
    pub(crate) condition: Option<ConditionSpans>,
    /// What the condition and the effect read, as lowering met it
    pub(crate) found: Found,
}

impl RuleSpans {
    /// The places of `decl`'s parts, with what lowering `found` in it
    pub(super) fn new(decl: &RuleDecl, mut found: Found) -> RuleSpans {
        // Lowering may meet a comparison's sides out of order; lints report reads in the
        // order they are written.
        found.reads.sort_by_key(|read| read.span.start);
        found.value_reads.sort_by_key(|read| read.span.start);
        let (effect, set) = match &decl.action {
            ActionNode::Verb { verb, .. } => (verb.span, None),
            ActionNode::Set {
                target,
                value,
                span,
            } => (*span, Some((target.span, value.span()))),
            ActionNode::Label { span, .. } => (*span, None),
        };
        RuleSpans {
            rule: decl.span,
            events: decl
                .events
                .iter()
                .filter_map(|ident| Some((EventKind::from_name(&ident.name)?, ident.span)))
                .collect(),
            effect,
            set,
            condition: decl.condition.as_ref().map(ConditionSpans::of),
            found,
        }
    }
}

/// Where a condition is written, and its parts when it is an `and`, an `or` or a `not`
/// (lowering keeps their shape and drops parentheses, as this does)
#[derive(Debug)]
pub(crate) struct ConditionSpans {
    /// The condition, without the parentheses around it
    pub(crate) span: Span,
    /// The parts of an `and` or an `or`, or the one part of a `not`; empty for a leaf
    pub(crate) parts: Vec<ConditionSpans>,
}

impl ConditionSpans {
    /// The spans of `expr`
    fn of(expr: &Expr) -> ConditionSpans {
        let mut expr = expr;
        while let Expr::Paren(inner, _) = expr {
            expr = inner;
        }
        let parts = match expr {
            Expr::Or(parts, _) | Expr::And(parts, _) => parts.iter().map(Self::of).collect(),
            Expr::Not(inner, _) => vec![Self::of(inner)],
            _ => Vec::new(),
        };
        ConditionSpans {
            span: expr.span(),
            parts,
        }
    }
}

/// A field read where it is written
#[derive(Debug, Clone)]
pub(crate) struct FieldRead {
    /// The field, as lowering resolved it
    pub(crate) field: Field,
    /// The path as written (`arg.to`)
    pub(crate) text: String,
    /// Where it is written
    pub(crate) span: Span,
}

/// A list quantifier where it is written
#[derive(Debug)]
pub(crate) struct QuantifierSpan {
    /// `any` or `all`
    pub(crate) word: &'static str,
    /// The word's span
    pub(crate) span: Span,
    /// The list field it goes over
    pub(crate) field: FieldRead,
}

/// What lowering meets in a rule, each where it is written
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// Every field the condition reads, trace functions' conditions included, in the
    /// order written
    pub(crate) reads: Vec<FieldRead>,
    /// Every field a computed `set` value reads, in the order written
    pub(crate) value_reads: Vec<FieldRead>,
    /// Every `any` and `all`
    pub(crate) quantifiers: Vec<QuantifierSpan>,
    /// The label of every `from "L"`, with the label's span
    pub(crate) labels: Vec<(String, Span)>,
}

#[cfg(test)]
mod tests {
    use rulesc_grammar::Item;

    use super::*;
    use crate::lower::lower_rule;
    use crate::source::{FileId, LineIndex, SourceFile};

    /// The text of `src` at `span`
    fn at(src: &str, span: Span) -> &str {
        src.get(span.range()).unwrap()
    }

    /// The spans of the one rule of `src`, which must lower
    fn spans_of(src: &str) -> RuleSpans {
        let parsed = rulesc_grammar::parse(src);
        let Some(Item::Rule(decl)) = parsed.file.items.first() else {
            unreachable!("the source is one rule");
        };
        let source = SourceFile::new("t.rules", "t.rules", src);
        let mut diags = Vec::new();
        let lowered = lower_rule(FileId(0), &source, &LineIndex::new(src), decl, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        lowered.unwrap().spans
    }

    #[test]
    fn reads_quantifiers_and_labels_point_at_their_text() {
        let src = "on post_tool_use when (not blocked) and any arg.to ~ \"*@x\" \
                   and arg.body from \"web\" and count(pre_tool_use when tool == \"a\") > 2 \
                   forbid";
        let spans = spans_of(src);
        let reads: Vec<(&str, &str)> = spans
            .found
            .reads
            .iter()
            .map(|read| (at(src, read.span), read.text.as_str()))
            .collect();
        assert_eq!(
            reads,
            [
                ("blocked", "blocked"),
                ("arg.to", "arg.to"),
                ("arg.body", "arg.body"),
                ("tool", "tool")
            ]
        );
        let [quantifier] = spans.found.quantifiers.as_slice() else {
            unreachable!("one quantifier");
        };
        assert_eq!(
            (
                quantifier.word,
                at(src, quantifier.span),
                at(src, quantifier.field.span)
            ),
            ("any", "any", "arg.to")
        );
        let labels: Vec<(&str, &str)> = spans
            .found
            .labels
            .iter()
            .map(|(label, span)| (label.as_str(), at(src, *span)))
            .collect();
        assert_eq!(labels, [("web", "\"web\"")]);
        assert_eq!(at(src, spans.effect), "forbid");
    }

    #[test]
    fn the_condition_keeps_its_and_or_not_without_parentheses() {
        let src = "on after_step when steps > 1 and ((not (tokens < 2)) or elapsed > 1s) forbid";
        let condition = spans_of(src).condition.unwrap();
        let [left, right] = condition.parts.as_slice() else {
            unreachable!("an `and` of two parts");
        };
        assert_eq!(at(src, left.span), "steps > 1");
        assert_eq!(at(src, right.span), "(not (tokens < 2)) or elapsed > 1s");
        let [not, _] = right.parts.as_slice() else {
            unreachable!("an `or` of two parts");
        };
        assert_eq!(at(src, not.span), "not (tokens < 2)");
        let inner: Vec<&str> = not.parts.iter().map(|part| at(src, part.span)).collect();
        assert_eq!(inner, ["tokens < 2"]);
    }

    #[test]
    fn a_computed_set_reads_apart_from_the_condition() {
        let src = "on post_tool_use when metadata.n > 0 set metadata.total = metadata.total + 1";
        let spans = spans_of(src);
        let texts = |reads: &[FieldRead]| -> Vec<String> {
            reads
                .iter()
                .map(|read| at(src, read.span).to_owned())
                .collect()
        };
        assert_eq!(texts(&spans.found.reads), ["metadata.n"]);
        assert_eq!(texts(&spans.found.value_reads), ["metadata.total"]);
        let (target, value) = spans.set.unwrap();
        assert_eq!(
            (at(src, target), at(src, value)),
            ("metadata.total", "metadata.total + 1")
        );
        let events: Vec<&str> = spans
            .events
            .iter()
            .map(|(_, span)| at(src, *span))
            .collect();
        assert_eq!(events, ["post_tool_use"]);
    }
}
