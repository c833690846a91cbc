//! Trace terms computed the naive way, by scanning the run's history (docs/trace.md): an
//! independent reference for the runtime's incremental state.

use rulesc_runtime::{Event, EventKind, TraceTerm, Window};
use serde_json::Value as Json;

/// Whether `text` holds a fragment of `content`: 5 words in a row of 16 characters or more
/// in all, or a word of 6 characters or more with a digit (words: runs of letters and
/// digits, without case), compared as text
pub fn shares_a_fragment(content: &str, text: &str) -> bool {
    let of = fragments(content);
    fragments(text).iter().any(|fragment| of.contains(fragment))
}

fn fragments(text: &str) -> Vec<String> {
    let words: Vec<&str> = text
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    let lower = |word: &str| {
        word.chars()
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let mut found: Vec<String> = words
        .iter()
        .filter(|word| word.chars().count() >= 6 && word.chars().any(char::is_numeric))
        .map(|word| format!("#{}", lower(word)))
        .collect();
    for window in words.windows(5) {
        if window
            .iter()
            .map(|word| word.chars().count())
            .sum::<usize>()
            >= 16
        {
            let joined: Vec<String> = window.iter().map(|word| lower(word)).collect();
            found.push(joined.join(" "));
        }
    }
    found
}

/// The value of `term` at the last event of `history`, the run so far
pub fn value(term: &TraceTerm, history: &[Event]) -> u64 {
    let counted = |event: &Event, kind: EventKind, when: Option<&rulesc_runtime::Condition>| {
        event.kind == kind && when.is_none_or(|when| super::holds(when, event))
    };
    match term {
        TraceTerm::Count {
            event: kind,
            when,
            within,
        } => {
            // The trace clock: the largest `steps` and `elapsed_ms` seen up to each event.
            let mut clock = Vec::with_capacity(history.len());
            let (mut steps, mut elapsed) = (0, 0);
            for event in history {
                steps = event.steps.max(steps);
                elapsed = event.elapsed_ms.max(elapsed);
                clock.push((steps, elapsed));
            }
            let now = (steps, elapsed);
            let in_window = |at: (u64, u64)| match within {
                None => true,
                Some(Window::Steps(width)) => now.0 - at.0 < *width,
                Some(Window::Millis(width)) => now.1 - at.1 < *width,
            };
            history
                .iter()
                .zip(clock)
                .filter(|(event, at)| counted(event, *kind, when.as_deref()) && in_window(*at))
                .count() as u64
        }
        TraceTerm::Streak { event: kind, when } => history
            .iter()
            .rev()
            .filter(|event| event.kind == *kind)
            .take_while(|event| counted(event, *kind, when.as_deref()))
            .count() as u64,
        TraceTerm::SameCall => {
            let call = |event: &Event| {
                (
                    event.tool.clone().unwrap_or_default(),
                    event.arg.clone().unwrap_or(Json::Null),
                )
            };
            let mut calls = history
                .iter()
                .rev()
                .filter(|event| event.kind == EventKind::PreToolUse)
                .map(call);
            let Some(last) = calls.next() else {
                return 0;
            };
            1 + calls.take_while(|other| *other == last).count() as u64
        }
    }
}
