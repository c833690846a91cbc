//! The layers of a policy set: what a project's policy may do to the user's own when the
//! two run as one set (docs/layers.md).
//!
//! A project's rules may narrow what the user's allow, never widen it. Decisions cannot
//! widen by construction: every event is resolved by its lattice (`block` over `ask` over
//! `allow`, `forbid` over everything), so a project's `allow` never undoes a user's `block`.
//! Two things could, and are refused (`E066`): a project rule that sets a metadata key the
//! user's rules set or read (it could clear a taint, or grant what the user's rule waits
//! for), and a project `default` weaker than what the user's policy gets without one.
//! And a project never approves a tool call: its `allow`s on `pre_tool_use` are left out
//! of the set ([`without_project_approvals`]).

use std::collections::BTreeMap;

use rulesc_grammar::Span;
use rulesc_runtime::{
    Action, CheckedRule, Condition, Defaults, EventKind, Field, FieldPath, Operand, TraceTerm, Verb,
};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lower::LoweredRule;
use crate::source::{FileId, Layer};

/// A valid `default` declaration
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeclaredDefault {
    pub(crate) event: EventKind,
    pub(crate) verb: Verb,
    pub(crate) file: FileId,
    pub(crate) span: Span,
}

/// `E066` for every rule and default of a project's file that would weaken the user's
/// policy; nothing for a set without a file of the user's layer
pub(crate) fn check(
    layers: &[Layer],
    rules: &[LoweredRule],
    defaults: &[DeclaredDefault],
) -> Vec<Diagnostic> {
    let layer_of = |file: FileId| layers.get(file.index()).copied().unwrap_or_default();
    if !layers.contains(&Layer::User) {
        return Vec::new();
    }
    let (user, project): (Vec<_>, Vec<_>) = rules
        .iter()
        .partition(|lowered| layer_of(lowered.file) == Layer::User);
    // Each key the user's rules keep, with the first rule that keeps it.
    let mut kept: BTreeMap<&FieldPath, &LoweredRule> = BTreeMap::new();
    for lowered in &user {
        let mut keys = Vec::new();
        if let Action::Set { key, .. } | Action::Compute { key, .. } = &lowered.rule.action {
            keys.push(key);
        }
        if let Some(condition) = &lowered.rule.condition {
            metadata_read(condition, &mut keys);
        }
        for key in keys {
            kept.entry(key).or_insert(lowered);
        }
    }
    let mut diags = Vec::new();
    for lowered in &project {
        let (Action::Set { key, .. } | Action::Compute { key, .. }) = &lowered.rule.action else {
            continue;
        };
        let keeper = kept
            .iter()
            .find(|(user_key, _)| overlaps(user_key, key))
            .map(|(_, keeper)| *keeper);
        if let Some(keeper) = keeper {
            diags.push(codes::project_resets_user_state(
                lowered.file,
                lowered.spans.effect,
                (&lowered.rule.id, &keeper.rule.id),
                &key.to_string(),
                (keeper.file, keeper.spans.rule),
            ));
        }
    }
    for default in defaults
        .iter()
        .filter(|default| layer_of(default.file) == Layer::Project)
    {
        let user_default = defaults
            .iter()
            .find(|other| layer_of(other.file) == Layer::User && other.event == default.event);
        // Two different defaults are already an error of their own (E031).
        if user_default.is_some() {
            continue;
        }
        let fallback = fallback(default.event);
        if strength(default.verb) < strength(fallback) {
            diags.push(codes::project_widens_default(
                default.file,
                default.span,
                default.event,
                (default.verb, fallback),
            ));
        }
    }
    diags
}

/// `rules` and `defaults` without a project's approvals, in a set with a file of the user's
/// layer: only the user's policy may approve a tool call (an explicit `allow`, which a host
/// takes as leave to skip its own prompt), so a project's `allow` rules no longer fire on
/// `pre_tool_use`, and its `default pre_tool_use allow`, which the fallback gives anyway
/// but without approving, is dropped unless the user's policy declares it too
pub(crate) fn without_project_approvals(
    layers: &[Layer],
    rules: Vec<LoweredRule>,
    defaults: Defaults,
    declared: &[DeclaredDefault],
) -> (Vec<LoweredRule>, Defaults) {
    let layer_of = |file: FileId| layers.get(file.index()).copied().unwrap_or_default();
    if !layers.contains(&Layer::User) {
        return (rules, defaults);
    }
    let user_approves = declared.iter().any(|default| {
        layer_of(default.file) == Layer::User
            && default.event == EventKind::PreToolUse
            && default.verb == Verb::Allow
    });
    let defaults = if defaults.pre_tool_use == Some(Verb::Allow) && !user_approves {
        Defaults {
            pre_tool_use: None,
            ..defaults
        }
    } else {
        defaults
    };
    let rules = rules
        .into_iter()
        .filter_map(|mut lowered| {
            let approves = matches!(
                lowered.rule.action,
                Action::Decide {
                    verb: Verb::Allow,
                    ..
                }
            );
            if approves && layer_of(lowered.file) == Layer::Project {
                let mut rule = lowered.rule.clone().into_rule();
                rule.events.retain(|event| *event != EventKind::PreToolUse);
                if rule.events.is_empty() {
                    return None;
                }
                // Fewer events of a checked rule check as it did; were it not so, an
                // `allow` left out approves nothing either.
                lowered.rule = CheckedRule::new(rule).ok()?;
            }
            Some(lowered)
        })
        .collect();
    (rules, defaults)
}

/// What happens on `event` when no rule decided and no default is declared (docs/language.md
/// §5.2, §5.3)
fn fallback(event: EventKind) -> Verb {
    match event {
        EventKind::OnError => Verb::Forbid,
        _ => Verb::Allow,
    }
}

/// How much a default holds the agent back, within the verbs of one event
fn strength(verb: Verb) -> u8 {
    match verb {
        Verb::Block | Verb::Forbid => 2,
        Verb::Ask | Verb::Retry => 1,
        _ => 0,
    }
}

/// Whether two metadata keys name overlapping values: one is the other or holds it
fn overlaps(left: &FieldPath, right: &FieldPath) -> bool {
    left.segments
        .iter()
        .zip(&right.segments)
        .all(|(left, right)| left == right)
}

/// Adds the metadata keys `condition` reads, in trace terms too, to `keys`
fn metadata_read<'r>(condition: &'r Condition, keys: &mut Vec<&'r FieldPath>) {
    let mut pending = vec![condition];
    let mut operands: Vec<&Operand> = Vec::new();
    while let Some(condition) = pending.pop() {
        match condition {
            Condition::All(parts) | Condition::Any(parts) => pending.extend(parts),
            Condition::Not(part) => pending.push(part),
            Condition::Quantified { condition, .. } => pending.push(condition),
            Condition::Compare { left, right, .. } => operands.extend([left, right]),
            Condition::Glob { field, .. }
            | Condition::Regex { field, .. }
            | Condition::In { field, .. }
            | Condition::Contains { field, .. }
            | Condition::Flag(field)
            | Condition::From { field, .. } => keys.extend(metadata_key(field)),
            Condition::Trace(test) => match &test.term {
                TraceTerm::Count { when, .. } | TraceTerm::Streak { when, .. } => {
                    pending.extend(when.as_deref());
                }
                TraceTerm::SameCall => {}
            },
            Condition::Shell { .. } => {}
        }
    }
    while let Some(operand) = operands.pop() {
        match operand {
            Operand::Field(field) => keys.extend(metadata_key(field)),
            Operand::Arith(arith) => operands.extend([&arith.left, &arith.right]),
            Operand::Literal(_) => {}
        }
    }
}

/// The metadata key `field` reads, if it reads one
fn metadata_key(field: &Field) -> Option<&FieldPath> {
    match field {
        Field::Metadata(path) => Some(path),
        _ => None,
    }
}
