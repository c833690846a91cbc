//! Where each part of a lowered rule is written: the spans a checked rule keeps beside its
//! runtime [`Rule`](rulesc_runtime::Rule), gathered while the rule is lowered.
//!
//! Invariant: lints and the layers' check read a rule's places here and its meaning in the
//! runtime rule, never the syntax tree; every field here was resolved once, by lowering.

use rulesc_grammar::{ActionNode, Expr, RuleDecl, Span};
use rulesc_runtime::Field;

/// Where a lowered rule and its parts are written
#[derive(Debug)]
pub(crate) struct RuleSpans {
    /// The whole rule, annotations included
    pub(crate) rule: Span,
    /// Each event as written, in source order (the runtime rule's are sorted)
    pub(crate) events: Vec<Span>,
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
            events: decl.events.iter().map(|ident| ident.span).collect(),
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
