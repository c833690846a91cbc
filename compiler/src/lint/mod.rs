//! Lints: warnings (`W` codes) about policies that compile but probably do not do what their
//! author meant.
//!
//! One file per lint, each a function from the checked rules to diagnostics, listed in
//! [`LINTS`]. `check` runs every lint on the rules that lowered, so a lint sees only checked
//! runtime rules, with the places lowering kept of their parts (`lower/spans.rs`): never the
//! syntax tree, and no name, field or type resolved again.
//! To add a lint: give it a row and a constructor in `codes.rs` (a `W0xx` code whose name
//! reads as "allow ⟨name⟩"), write `lint/<name>.rs`, add it to [`LINTS`], and add a fixture
//! and a near-miss fixture under `tests/ui/warnings/`.
//!
//! `@allow(W005)` on a rule silences the named lints where they point at that rule: a warning
//! whose primary label lies inside an allowing rule is dropped here, once for every lint.
//! A lint that reports one rule for many (`unbounded-request`) leaves out the rules that
//! allow it before choosing the one to report.
//!
//! Invariant: lints never change the policy; they only add warnings, and their output is
//! independent of the order of rules and files beyond which rule is called "first".

mod conflicting_effects;
mod conflicting_verbs;
mod constant_condition;
mod dead_rule;
mod domain;
mod field_never_filled;
mod host;
mod label_never_attached;
mod metadata;
mod metadata_never_read;
mod metadata_never_set;
mod quantifier_over_scalar;
mod unbounded_request;

pub use host::HostFacts;

use crate::diagnostic::Diagnostic;
use crate::lower::LoweredRule;
use crate::test_block::LoweredTest;

/// What every lint sees: the rules that checked, in file and source order
pub(crate) struct Context<'a> {
    /// The checked rules with where their parts are written
    pub(crate) rules: &'a [LoweredRule],
    /// The inline tests that checked: their events show the metadata the host provides
    pub(crate) tests: &'a [LoweredTest],
    /// The coding agent the policy will run under as a hook, when the user named one
    pub(crate) host: Option<&'a dyn HostFacts>,
}

/// A lint: reads the context, returns its warnings
type Lint = fn(&Context<'_>) -> Vec<Diagnostic>;

/// Every lint `check` runs
const LINTS: &[Lint] = &[
    conflicting_effects::check,
    dead_rule::check,
    constant_condition::check,
    conflicting_verbs::check,
    unbounded_request::check,
    metadata_never_read::check,
    metadata_never_set::check,
    host::check,
    field_never_filled::check,
    quantifier_over_scalar::check,
    label_never_attached::check,
];

/// Runs every lint and keeps the warnings no rule's `@allow` silences
pub(crate) fn run(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let allowing = Allowing::new(ctx.rules);
    LINTS
        .iter()
        .flat_map(|lint| lint(ctx))
        .filter(|diag| !allowing.silences(diag))
        .collect()
}

/// The rules with an `@allow`, sorted by file and start, so the rules that may hold a
/// warning's place are found by a binary search rather than by asking every rule of the set
/// for every warning
struct Allowing<'r> {
    rules: Vec<&'r LoweredRule>,
}

impl<'r> Allowing<'r> {
    fn new(rules: &'r [LoweredRule]) -> Self {
        let mut rules: Vec<&LoweredRule> = rules
            .iter()
            .filter(|lowered| !lowered.allowed.is_empty())
            .collect();
        rules.sort_by_key(|lowered| (lowered.file, lowered.spans.rule.start));
        Allowing { rules }
    }

    /// Whether the rule the warning points at allows its lint
    ///
    /// Rules are items of their file, so their spans never overlap: walking back from the
    /// last rule to start at or before the warning, the rules that end before it starts
    /// cannot hold it, nor can any rule before them.
    fn silences(&self, diag: &Diagnostic) -> bool {
        let at = &diag.primary;
        let after = self.rules.partition_point(|lowered| {
            (lowered.file, lowered.spans.rule.start) <= (at.file, at.span.start)
        });
        self.rules
            .iter()
            .take(after)
            .rev()
            .take_while(|lowered| {
                lowered.file == at.file && lowered.spans.rule.end >= at.span.start
            })
            .any(|lowered| at.span.end <= lowered.spans.rule.end && lowered.allows(diag.code))
    }
}
