//! W020 `label-never-attached`: `X from "L"` where no rule of the policy set attaches L
//! (docs/trace.md), so the test never holds.

use std::collections::HashSet;

use rulesc_runtime::Action;

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::Context;

/// Warns at each `from "L"` whose label no rule attaches
pub(super) fn check(ctx: &Context<'_>) -> Vec<Diagnostic> {
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
        for (label, span) in &lowered.spans.found.labels {
            if !attached.contains(label.as_str()) {
                diags.push(codes::label_never_attached(lowered.file, *span, label));
            }
        }
    }
    diags
}
