//! Trace terms computed the naive way, by scanning the run's history (docs/trace.md): an
//! independent reference for the runtime's incremental state.

#![allow(
    clippy::indexing_slicing,
    reason = "a test model over bounded word lists"
)]

use rulesc_runtime::{Event, EventKind, TraceTerm, Window};
use serde_json::Value as Json;

/// Whether `text` is from content labelled with `contents` (docs/trace.md): it holds a
/// fragment of one of them, or it is a value of at most 8 words, with 4 letters and digits
/// or more, found whole: glued, it is a word of the content or groups glued there, or each
/// two of its words in a row are two words in a row of the content
pub fn is_from(contents: &[&str], text: &str) -> bool {
    if contents.is_empty() {
        return false;
    }
    let fragments_of_text = fragments(text);
    if contents.iter().any(|content| {
        fragments(content)
            .iter()
            .any(|f| fragments_of_text.contains(f))
    }) {
        return true;
    }
    let value = words(text);
    let glued: String = value.iter().map(|(word, _)| word.as_str()).collect();
    if value.is_empty() || value.len() > 8 || glued.chars().count() < 4 {
        return false;
    }
    let content_words: Vec<Vec<(String, bool)>> = contents.iter().map(|c| words(c)).collect();
    let glued_in = |list: &[(String, bool)]| {
        (0..list.len()).any(|start| {
            // One word, or groups of at most 6 characters, each after one space, dash or
            // dot, with a digit among them.
            let mut joined = String::new();
            let mut digit = false;
            for (count, (word, tight)) in list[start..].iter().enumerate() {
                let group = word.chars().count() <= 6;
                if count > 0 && (!group || !*tight || count >= 8) {
                    break;
                }
                if count == 0 && !group {
                    return *word == glued;
                }
                joined.push_str(word);
                digit |= word.chars().any(char::is_numeric);
                if joined == glued && (count == 0 || digit) {
                    return true;
                }
            }
            false
        })
    };
    if content_words.iter().any(|list| glued_in(list)) {
        return true;
    }
    value.len() >= 2
        && value.windows(2).all(|pair| {
            content_words.iter().any(|list| {
                list.windows(2)
                    .any(|other| other[0].0 == pair[0].0 && other[1].0 == pair[1].0)
            })
        })
}

/// The words of `text` as `from` reads them: the URL forms removed, ASCII percent escapes
/// decoded, case folded, each with whether one space, dash or dot alone comes before it
fn words(text: &str) -> Vec<(String, bool)> {
    let decoded = percent_decode(text);
    let mut out: Vec<(String, bool)> = Vec::new();
    let chars: Vec<char> = decoded.chars().collect();
    let mut i = 0;
    let mut gap = String::new();
    let mut seen_word = false;
    while i < chars.len() {
        if chars[i].is_alphanumeric() {
            let start = i;
            while i < chars.len() && chars[i].is_alphanumeric() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let folded: String = word
                .chars()
                .flat_map(char::to_uppercase)
                .flat_map(char::to_lowercase)
                .collect();
            let rest: String = chars[i..].iter().take(3).collect();
            let scheme = (folded == "http" || folded == "https") && rest.starts_with("://");
            let www = folded == "www" && rest.starts_with('.');
            if scheme || www {
                gap.clear();
                seen_word = false;
                if scheme {
                    i += 3;
                } else {
                    i += 1;
                }
                continue;
            }
            let tight =
                seen_word && gap.chars().count() == 1 && matches!(gap.as_str(), " " | "-" | ".");
            out.push((folded, tight));
            gap.clear();
            seen_word = true;
        } else {
            gap.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// `%XY` escapes of ASCII characters decoded
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(byte) = hex.and_then(|hex| u8::from_str_radix(hex, 16).ok()) {
                if byte.is_ascii() {
                    out.push(byte);
                    i += 3;
                    continue;
                }
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn fragments(text: &str) -> Vec<String> {
    let words: Vec<String> = words(text).into_iter().map(|(word, _)| word).collect();
    let mut found: Vec<String> = words
        .iter()
        .filter(|word| word.chars().count() >= 6 && word.chars().any(char::is_numeric))
        .map(|word| format!("#{word}"))
        .collect();
    for window in words.windows(5) {
        if window
            .iter()
            .map(|word| word.chars().count())
            .sum::<usize>()
            >= 16
        {
            found.push(window.join(" "));
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
