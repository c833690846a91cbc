//! Observability: every matching decision and every resolution is a `tracing` debug event
//! under the `rulesc::decision` target, and an ignored hook verb a warning under
//! `rulesc::hook`. A minimal subscriber records them. Fields: `event`, `rule`, `verb`,
//! `stop_reason`, `rule_message` (not `message`, which tracing keeps for the event's own
//! text), and on resolution `decision` and `resolved_by`; absent values are left out.
//!
//! A binary of its own, with one test: tracing caches each call site's interest for the whole
//! process, and a test thread that registers a call site while this test's subscriber is being
//! set can cache it as of no interest to anyone, so the subscriber would miss its events.

mod common;

use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use common::*;
use rulesc_runtime::{EvalOptions, Event, EventKind, HookDecision, NativeHook, Verb};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Level, Metadata, Subscriber};

/// One recorded event: target, level and its fields as `name=value` text
type Recorded = (String, Level, Vec<String>);

#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<Recorded>>>);

struct Fields(Vec<String>);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.push(format!("{}={value:?}", field.name()));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push(format!("{}={value}", field.name()));
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _metadata: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _span: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _span: &Id, _values: &Record<'_>) {}
    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = Fields(Vec::new());
        event.record(&mut fields);
        let metadata = event.metadata();
        // A poisoned lock means another test thread panicked; keep recording regardless.
        let mut recorded = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        recorded.push((metadata.target().to_owned(), *metadata.level(), fields.0));
    }
    fn enter(&self, _span: &Id) {}
    fn exit(&self, _span: &Id) {}
}

struct RetryOnTools;

impl NativeHook for RetryOnTools {
    fn id(&self) -> &str {
        "host:retry"
    }
    fn events(&self) -> &[EventKind] {
        &[EventKind::PreToolUse]
    }
    fn evaluate(&self, _event: &Event) -> Option<HookDecision> {
        Some(HookDecision::new(Verb::Retry))
    }
}

#[test]
fn decisions_and_ignored_hooks_are_traced() {
    let recorder = Recorder::default();
    let policy = policy(vec![decide_msg(
        "no-rm",
        EventKind::PreToolUse,
        Verb::Block,
        "destructive",
    )]);
    let evaluate = || {
        policy.evaluate_with(
            &Event::new(EventKind::PreToolUse),
            EvalOptions::default().hooks(&[&RetryOnTools]),
        )
    };
    tracing::subscriber::with_default(recorder.clone(), evaluate);
    let recorded = recorder.0.lock().unwrap().clone();
    let find = |target: &str, needle: &str| {
        recorded
            .iter()
            .find(|(t, _, fields)| t == target && fields.iter().any(|f| f == needle))
            .cloned()
    };
    let (_, level, fields) = find("rulesc::decision", "rule=no-rm").expect("a matched event");
    assert_eq!(level, Level::DEBUG);
    assert!(fields.contains(&"verb=block".to_owned()), "{fields:?}");
    assert!(
        fields.contains(&"rule_message=destructive".to_owned()),
        "{fields:?}"
    );
    let (_, _, fields) = find("rulesc::decision", "resolved_by=no-rm").expect("a resolution");
    assert!(fields.contains(&"decision=block".to_owned()), "{fields:?}");
    let (_, level, _) = find("rulesc::hook", "hook=host:retry").expect("a warning");
    assert_eq!(level, Level::WARN);
}
