//! W020 `label-never-attached`: `X from "L"` where no rule of the policy set attaches L
//! (docs/trace.md), so the test never holds.

use std::collections::HashSet;

use rulesc_grammar::{Compare, Expr, Lit, LitKind, Op, Operand};
use rulesc_runtime::Action;

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::Context;
use crate::types::decode_str;

pub(super) fn check(ctx: &Context<'_, '_>) -> Vec<Diagnostic> {
    let attached: HashSet<&str> = ctx
        .rules
        .iter()
        .filter_map(|lowered| match &lowered.rule.action {
            Action::Label { label, .. } => Some(label.as_str()),
            _ => None,
        })
        .collect();
    let mut diags = Vec::new();
    for lowered in ctx.rules {
        let Some(condition) = &lowered.decl.condition else {
            continue;
        };
        for_each_from(condition, &mut |lit| {
            let LitKind::Str(raw) = &lit.kind else {
                return;
            };
            let Ok(label) = decode_str(raw, lit.span) else {
                return;
            };
            if !attached.contains(label.as_str()) {
                diags.push(codes::label_never_attached(lowered.file, lit.span, &label));
            }
        });
    }
    diags
}

/// [`for_each_from`] over a comparison: its own label, and those inside a trace function on
/// a side
fn compare_from(compare: &Compare, found: &mut impl FnMut(&Lit)) {
    if let (Op::From, Operand::Lit(lit)) = (compare.op, &compare.right) {
        found(lit);
    }
    for side in [&compare.left, &compare.right] {
        if let Operand::Trace(call) = side {
            if let Some(when) = &call.when {
                for_each_from(when, found);
            }
        }
    }
}

/// Calls `found` with the label of every `from` test in `expr`, trace functions included
fn for_each_from(expr: &Expr, found: &mut impl FnMut(&Lit)) {
    match expr {
        Expr::Or(parts, _) | Expr::And(parts, _) => {
            for part in parts {
                for_each_from(part, found);
            }
        }
        Expr::Not(inner, _) | Expr::Paren(inner, _) => for_each_from(inner, found),
        Expr::Compare(compare) => compare_from(compare, found),
        Expr::Quantified(quantified) => compare_from(&quantified.compare, found),
        Expr::Trace(call) => {
            if let Some(when) = &call.when {
                for_each_from(when, found);
            }
        }
        Expr::Path(_) | Expr::Lit(_) | Expr::Call(_) => {}
    }
}
