//! W008 `event-not-sent-by-host`, W009 `verb-not-honoured-by-host`, W010
//! `field-not-filled-by-host`: rules a coding agent can never honour when the policy runs
//! as its hook (`rulesc check --host <h>`).
//!
//! The compiler knows no host: the front end passes what the host does as [`HostFacts`]
//! (the `rulesc` command reads them from `rulesc-host`, which follows its own mapping and
//! answers). Without a host, these lints are silent.

use rulesc_runtime::{Action, EventKind, Field, Verb};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::Context;

/// What a coding agent does with a policy run as its hook
pub trait HostFacts {
    /// The host's name for people (`Codex`)
    fn name(&self) -> &str;
    /// Whether its hook ever fires `kind`
    fn sends(&self, kind: EventKind) -> bool;
    /// Whether its answer can carry `verb` decided on `kind`; `Err` says what it does
    /// instead
    fn honours(&self, kind: EventKind, verb: Verb) -> Result<(), String>;
    /// Whether its calls give `field` a value on `kind`
    fn fills(&self, field: &Field, kind: EventKind) -> bool;
}

/// The host lints of every rule
pub(super) fn check(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let Some(host) = ctx.host else {
        return Vec::new();
    };
    let fired: Vec<EventKind> = EventKind::ALL
        .into_iter()
        .filter(|kind| host.sends(*kind))
        .collect();
    let mut diags = Vec::new();
    for lowered in ctx.rules {
        let rule = &lowered.rule;
        let sent: Vec<EventKind> = rule
            .events
            .iter()
            .copied()
            .filter(|kind| host.sends(*kind))
            .collect();
        for (kind, span) in &lowered.spans.events {
            if !host.sends(*kind) {
                diags.push(codes::event_not_sent_by_host(
                    lowered.file,
                    *span,
                    *kind,
                    host.name(),
                    &fired,
                ));
            }
        }
        if let Action::Decide { verb, .. } = rule.action {
            let refused = sent.iter().find_map(|kind| {
                host.honours(*kind, verb)
                    .err()
                    .map(|instead| (*kind, instead))
            });
            if let Some((kind, instead)) = refused {
                diags.push(codes::verb_not_honoured_by_host(
                    lowered.file,
                    lowered.spans.effect,
                    verb,
                    kind,
                    host.name(),
                    &instead,
                ));
            }
        }
        for read in &lowered.spans.found.reads {
            if let Some(kind) = sent.iter().find(|kind| !host.fills(&read.field, **kind)) {
                diags.push(codes::field_not_filled_by_host(
                    lowered.file,
                    read.span,
                    &read.text,
                    *kind,
                    host.name(),
                ));
            }
        }
    }
    diags
}
