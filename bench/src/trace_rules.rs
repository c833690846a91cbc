//! The trace workload: 20 rules with `count(...)` (windowed by steps and by time, and not),
//! `seen(...)` and `streak(...)`, and a run of events to feed them, for the cost of the
//! trace state per event as the run grows; and text for provenance, labelled content and
//! an argument to test against it (docs/trace.md).

use rulesc_runtime::{Event, EventKind};
use serde_json::json;

/// The 20 trace rules, and the same rules without their trace tests (the baseline the extra
/// work is measured against)
pub fn sources() -> (String, String) {
    let mut traced = String::new();
    let mut plain = String::new();
    for idx in 0..20 {
        let tool = format!("tool_{}", idx % 5);
        let test = match idx % 5 {
            0 => format!("count(pre_tool_use when tool == \"{tool}\") > 1000"),
            1 => format!("count(pre_tool_use when tool == \"{tool}\" within 10 steps) >= 30"),
            2 => format!("count(post_tool_use when tool == \"{tool}\" within 1min) > 40"),
            3 => format!("streak(post_tool_use when tool == \"{tool}\" and tool_error) >= 3"),
            _ => format!("seen(on_error when tool == \"{tool}\" within 5 steps)"),
        };
        let (event, verb) = if idx % 2 == 0 {
            ("pre_tool_use", "block")
        } else {
            ("post_tool_use", "forbid")
        };
        traced.push_str(&format!(
            "@id(\"t{idx}\") on {event} when tool == \"x{idx}\" or {test} {verb} \"trace {idx}\"\n"
        ));
        plain.push_str(&format!(
            "@id(\"t{idx}\") on {event} when tool == \"x{idx}\" {verb} \"trace {idx}\"\n"
        ));
    }
    (traced, plain)
}

/// Event `idx` of a run: tool calls of five tools, a step every five events, 100 ms apart
pub fn event(idx: u64) -> Event {
    let kind = match idx % 3 {
        0 => EventKind::PreToolUse,
        1 => EventKind::PostToolUse,
        _ => EventKind::OnError,
    };
    let mut event = Event::new(kind);
    event.steps = idx / 5;
    event.step = idx / 5 + 1;
    event.elapsed_ms = idx.saturating_mul(100);
    event.tool = Some(format!("tool_{}", idx % 5));
    event.arg = Some(json!({"n": idx % 7}));
    if kind == EventKind::PostToolUse {
        event.tool_error = Some(idx.is_multiple_of(2));
    }
    event
}

/// The policy of the provenance benchmark: results labelled, `arg.body` tested
pub const PROVENANCE_SOURCE: &str = "on post_tool_use label result \"untrusted\"\n\
    on pre_tool_use when arg.body from \"untrusted\" block\n";

/// `len` bytes of words, lowercase and of 2 to 11 letters, drawn from `seed` (SplitMix64):
/// text with as many distinct fragments as prose of that length
pub fn words(len: usize, mut seed: u64) -> String {
    let mut text = String::with_capacity(len + 16);
    while text.len() < len {
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut value = seed;
        value = (value ^ (value >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        value = (value ^ (value >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        value ^= value >> 31;
        let n_letters = 2 + value % 10;
        for idx in 0..n_letters {
            let letter = b'a' + u8::try_from((value >> (idx * 5)) % 26).unwrap_or(0);
            text.push(char::from(letter));
        }
        text.push(' ');
    }
    text
}
