//! `textDocument/completion`: what may be typed at the cursor, from the tokens before it.
//!
//! - after `on` and after a comma of its event list: events;
//! - after `when`, `and`, `or`, `not` and `(` in a rule: the fields visible on every event
//!   of the rule and the builtins usable on all of them; inside `shell(...)`, the words of a
//!   command and the builtins written there;
//! - after the rule's events, or after a complete comparison: the verbs allowed on every
//!   event of the rule;
//! - after `default`: the events that take a default, then the verbs that default may name;
//! - in a test block, after `event`: events; in its `{ ... }`: the keys that event takes;
//!   after `expect`: the verbs allowed on the test's last event, and `none`;
//! - after `forbid` or `allow_stop`: the stop reasons.
//!
//! The client filters the items by the word already typed, so that word is not read here.

use lsp_types::{CompletionItem, CompletionItemKind};
use rulesc_runtime::{
    Builtin, BuiltinRow, BuiltinScope, Defaults, EventKind, ShellWord, StopReason, Verb,
};

use crate::tokens::{self, Kind, Token};
use crate::words;

/// The completions at byte `offset` of `text`
pub(crate) fn completions(text: &str, offset: u32) -> Vec<CompletionItem> {
    let found = tokens::tokens(text);
    let mut before: Vec<&Token> = found
        .iter()
        .filter(|token| token.span.end <= offset && token.kind != Kind::Comment)
        .collect();
    if let Some(typed) = before.last() {
        if typed.kind == Kind::Word && typed.span.end == offset {
            before.pop();
        }
    }
    // In a string or a comment nothing is completed.
    if found
        .iter()
        .any(|token| matches!(token.kind, Kind::Str | Kind::Comment) && holds(token, text, offset))
    {
        return Vec::new();
    }
    let words: Vec<Read<'_>> = before.iter().map(|token| Read::of(token, text)).collect();
    match slot(&words) {
        Slot::Events(events) => events.into_iter().map(event_item).collect(),
        Slot::Fields(events) => words::fields_visible_on(&events)
            .into_iter()
            .map(|(label, field)| CompletionItem {
                detail: Some(words::field_detail(&field)),
                label,
                kind: Some(CompletionItemKind::FIELD),
                ..CompletionItem::default()
            })
            .chain(words::builtins_usable_on(BuiltinScope::Condition, &events).map(builtin_item))
            .collect(),
        Slot::ShellCommand(events) => ShellWord::ALL
            .into_iter()
            .map(|word| CompletionItem {
                label: word.name().to_owned(),
                kind: Some(CompletionItemKind::FIELD),
                detail: Some("a word of the command".to_owned()),
                ..CompletionItem::default()
            })
            .chain(words::builtins_usable_on(BuiltinScope::ShellCommand, &events).map(builtin_item))
            .collect(),
        Slot::Verbs(verbs, extra) => verbs
            .into_iter()
            .map(verb_item)
            .chain(extra.iter().map(|keyword| keyword_item(keyword)))
            .collect(),
        Slot::StopReasons => StopReason::ALL
            .into_iter()
            .map(|reason| CompletionItem {
                label: reason.name().to_owned(),
                kind: Some(CompletionItemKind::CONSTANT),
                ..CompletionItem::default()
            })
            .collect(),
        Slot::TestKeys(kind) => words::test_keys_of(kind)
            .map(|field| CompletionItem {
                label: field.test_key.to_owned(),
                kind: Some(CompletionItemKind::FIELD),
                detail: Some(field.json.described()),
                ..CompletionItem::default()
            })
            .collect(),
        Slot::Nothing => Vec::new(),
    }
}

/// Whether the cursor at `offset` is inside `token`: a comment and an unclosed string also
/// hold the cursor at their end, as they run to the line's end
fn holds(token: &Token, text: &str, offset: u32) -> bool {
    let open_ended = match token.kind {
        Kind::Comment => true,
        Kind::Str => {
            let literal = token.text(text);
            literal.len() < 2 || !literal.ends_with('"')
        }
        _ => false,
    };
    token.span.start < offset
        && (offset < token.span.end || (offset == token.span.end && open_ended))
}

/// A token as the context reads it
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read<'text> {
    Word(&'text str),
    /// A literal that can end a comparison: a string, a number, `true`, `false`, `]`
    Value,
    Punct(char),
    Other,
}

impl<'text> Read<'text> {
    fn of(token: &Token, text: &'text str) -> Read<'text> {
        match token.kind {
            Kind::Word if matches!(token.text(text), "true" | "false") => Read::Value,
            Kind::Word => Read::Word(token.text(text)),
            Kind::Str | Kind::Number | Kind::Punct(']') => Read::Value,
            Kind::Punct(ch) => Read::Punct(ch),
            Kind::Comment => Read::Other,
        }
    }
}

/// What may be typed next
#[derive(Debug, PartialEq)]
enum Slot {
    Events(Vec<EventKind>),
    Fields(Vec<EventKind>),
    /// Inside `shell(...)`: the words of a command and the builtins written there
    ShellCommand(Vec<EventKind>),
    /// Verbs, and keywords that may come instead
    Verbs(Vec<Verb>, &'static [&'static str]),
    /// The stop reasons, after `forbid` or `allow_stop`
    StopReasons,
    /// The keys a test's event of this kind may give
    TestKeys(EventKind),
    Nothing,
}

/// The words that start an item at the top level
const ITEM_STARTS: [&str; 4] = ["on", "default", "test", "policy"];

fn slot(words: &[Read<'_>]) -> Slot {
    let mut depth = 0_i32;
    let mut item_start = None;
    let mut test_event = None;
    for (idx, word) in words.iter().enumerate() {
        match word {
            Read::Punct('{') => depth += 1,
            Read::Punct('}') => depth -= 1,
            Read::Word(name) if depth <= 0 && ITEM_STARTS.contains(name) => {
                depth = 0;
                item_start = Some(idx);
                test_event = None;
            }
            Read::Word("event") if depth == 1 => test_event = words.get(idx + 1).copied(),
            _ => {}
        }
    }
    let Some(start) = item_start else {
        return Slot::Nothing;
    };
    let item = words.get(start..).unwrap_or_default();
    // A rule's action and a test's `expect` take a stop reason after their verb; a
    // `default` takes none.
    if let (Some(Read::Word(last)), false) =
        (words.last(), item.first() == Some(&Read::Word("default")))
    {
        if Verb::from_name(last).is_some_and(Verb::takes_stop_reason) {
            return Slot::StopReasons;
        }
    }
    let last = words.last().copied();
    match item.first() {
        Some(Read::Word("test")) if depth > 0 => {
            let event = match test_event {
                Some(Read::Word(name)) => EventKind::from_name(name),
                _ => None,
            };
            match last {
                Some(Read::Word("event")) if depth == 1 => Slot::Events(EventKind::ALL.to_vec()),
                Some(Read::Word("expect")) if depth == 1 => {
                    let events: Vec<EventKind> = event.into_iter().collect();
                    Slot::Verbs(words::verbs_allowed_on(&events), &["none"])
                }
                Some(Read::Punct('{' | ',')) if depth == 2 => {
                    event.map_or(Slot::Nothing, Slot::TestKeys)
                }
                _ => Slot::Nothing,
            }
        }
        Some(Read::Word("default")) => match item.get(1..) {
            Some([]) => Slot::Events(
                EventKind::ALL
                    .into_iter()
                    .filter(|kind| Defaults::verbs_for(*kind).is_some())
                    .collect(),
            ),
            Some([Read::Word(event)]) => EventKind::from_name(event)
                .and_then(Defaults::verbs_for)
                .map_or(Slot::Nothing, |verbs| Slot::Verbs(verbs.to_vec(), &[])),
            _ => Slot::Nothing,
        },
        Some(Read::Word("on")) => rule_slot(item.get(1..).unwrap_or_default()),
        _ => Slot::Nothing,
    }
}

/// The slot inside a rule, from the tokens after its `on`
fn rule_slot(after_on: &[Read<'_>]) -> Slot {
    let mut events = Vec::new();
    let mut rest = after_on;
    let mut expects_event = true;
    while let Some((first, tail)) = rest.split_first() {
        match (first, expects_event) {
            (Read::Word(name), true) => {
                events.extend(EventKind::from_name(name));
                expects_event = false;
            }
            (Read::Punct(','), false) => expects_event = true,
            _ => break,
        }
        rest = tail;
    }
    if expects_event {
        return Slot::Events(EventKind::ALL.to_vec());
    }
    let verbs = words::verbs_allowed_on(&events);
    let Some((Read::Word("when"), condition)) = rest.split_first() else {
        return if rest.is_empty() {
            Slot::Verbs(verbs, &["when"])
        } else {
            Slot::Nothing
        };
    };
    match condition.last() {
        None | Some(Read::Word("and" | "or" | "not") | Read::Punct('(')) if in_shell(condition) => {
            Slot::ShellCommand(events)
        }
        None | Some(Read::Word("and" | "or" | "not") | Read::Punct('(')) => Slot::Fields(events),
        Some(Read::Value | Read::Punct(')')) => Slot::Verbs(verbs, &["and", "or"]),
        _ => Slot::Nothing,
    }
}

/// Whether the end of `condition` is inside the parentheses of `shell(...)` or `shell.all(...)`
fn in_shell(condition: &[Read<'_>]) -> bool {
    // Each open parenthesis, and whether it opened a shell condition.
    let mut open = Vec::new();
    let mut before = None;
    for word in condition {
        match word {
            Read::Punct('(') => open.push(before.is_some_and(|name| {
                BuiltinRow::named(name)
                    .is_some_and(|row| matches!(row.builtin, Builtin::Shell | Builtin::ShellAll))
            })),
            Read::Punct(')') => {
                open.pop();
            }
            _ => {}
        }
        before = match word {
            Read::Word(name) => Some(*name),
            _ => None,
        };
    }
    open.contains(&true)
}

fn builtin_item(row: &BuiltinRow) -> CompletionItem {
    CompletionItem {
        label: row.name.to_owned(),
        kind: Some(CompletionItemKind::FUNCTION),
        detail: Some(row.signature()),
        documentation: Some(lsp_types::Documentation::String(row.doc.to_owned())),
        ..CompletionItem::default()
    }
}

fn event_item(kind: EventKind) -> CompletionItem {
    CompletionItem {
        label: kind.name().to_owned(),
        kind: Some(CompletionItemKind::EVENT),
        detail: Some(format!("fires {}", kind.doc())),
        ..CompletionItem::default()
    }
}

fn verb_item(verb: Verb) -> CompletionItem {
    CompletionItem {
        label: verb.name().to_owned(),
        kind: Some(CompletionItemKind::ENUM_MEMBER),
        detail: Some(verb.doc().to_owned()),
        ..CompletionItem::default()
    }
}

fn keyword_item(keyword: &str) -> CompletionItem {
    CompletionItem {
        label: keyword.to_owned(),
        kind: Some(CompletionItemKind::KEYWORD),
        ..CompletionItem::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The labels offered where `|` is
    fn labels(marked: &str) -> Vec<String> {
        let offset = marked.find('|').unwrap();
        let text = marked.replace('|', "");
        completions(&text, u32::try_from(offset).unwrap())
            .into_iter()
            .map(|item| item.label)
            .collect()
    }

    #[test]
    fn events_after_on_and_its_commas() {
        assert_eq!(labels("on |").len(), EventKind::ALL.len());
        assert_eq!(labels("on stop, pre_t|").len(), EventKind::ALL.len());
    }

    #[test]
    fn fields_of_the_rules_events_after_when() {
        let offered = labels("on pre_tool_use, post_tool_use when |");
        assert!(offered.contains(&"tool".to_owned()));
        assert!(offered.contains(&"arg.".to_owned()));
        assert!(!offered.contains(&"result".to_owned()), "{offered:?}");
        let offered = labels("on before_step when steps > 3 and (|");
        assert!(offered.contains(&"steps".to_owned()));
        assert!(!offered.contains(&"tool".to_owned()));
    }

    #[test]
    fn verbs_allowed_on_the_rules_events() {
        assert_eq!(
            labels("on pre_tool_use when tool == \"x\" |"),
            ["forbid", "allow", "block", "ask", "and", "or"]
        );
        assert_eq!(
            labels("on on_error |"),
            ["forbid", "allow", "retry", "ignore", "when"]
        );
    }

    #[test]
    fn builtins_where_a_condition_starts() {
        let offered = labels("on stop when |");
        for name in ["count", "seen", "streak", "any", "all"] {
            assert!(offered.contains(&name.to_owned()), "{name}: {offered:?}");
        }
        assert!(!offered.contains(&"shell".to_owned()), "{offered:?}");
        assert!(
            !offered.contains(&"same_call_count".to_owned()),
            "{offered:?}"
        );
        let offered = labels("on pre_tool_use when tool == \"Bash\" and |");
        for name in ["shell", "shell.all", "same_call_count"] {
            assert!(offered.contains(&name.to_owned()), "{name}: {offered:?}");
        }
        assert!(!offered.contains(&"flag".to_owned()), "{offered:?}");
    }

    #[test]
    fn the_words_of_a_command_inside_shell() {
        let offered = labels("on pre_tool_use when shell(program == \"rm\" and |");
        for name in [
            "program",
            "operand",
            "flag",
            "program_is",
            "stdin_from",
            "stdout_to",
            "output_shown",
            "outside_cwd",
        ] {
            assert!(offered.contains(&name.to_owned()), "{name}: {offered:?}");
        }
        assert!(!offered.contains(&"tool".to_owned()), "{offered:?}");
        assert!(!offered.contains(&"count".to_owned()), "{offered:?}");
        let offered = labels("on pre_tool_use when shell.all(program == \"ls\") and |");
        assert!(offered.contains(&"tool".to_owned()), "{offered:?}");
        assert!(!offered.contains(&"flag".to_owned()), "{offered:?}");
    }

    #[test]
    fn defaults_and_tests() {
        assert_eq!(labels("default |"), ["pre_tool_use", "on_error"]);
        assert_eq!(labels("default on_error |"), ["forbid", "retry", "ignore"]);
        let offered = labels("test \"t\" {\n  event stop { response: \"x\" }\n  expect |\n}");
        assert_eq!(offered, ["forbid", "request", "allow", "none"]);
    }

    #[test]
    fn the_keys_of_a_test_event() {
        let offered = labels("test \"t\" {\n  event pre_tool_use { tool: \"rm\", |");
        for key in ["tool", "arg", "steps", "elapsed", "metadata"] {
            assert!(offered.contains(&key.to_owned()), "{key}: {offered:?}");
        }
        assert!(!offered.contains(&"result".to_owned()), "{offered:?}");
        assert!(labels("test \"t\" {\n  event stop { metadata: { |").is_empty());
    }

    #[test]
    fn stop_reasons_after_the_verbs_that_take_one() {
        let offered = labels("on before_step when steps >= 20 forbid |");
        assert_eq!(offered.len(), StopReason::ALL.len());
        assert!(offered.contains(&"steps_limit_reached".to_owned()));
        let offered = labels("test \"t\" {\n  event after_step {}\n  expect allow_stop |");
        assert!(offered.contains(&"completed".to_owned()));
        assert!(labels("on pre_tool_use block |").is_empty());
        assert!(labels("default on_error forbid |").is_empty());
    }

    #[test]
    fn nothing_in_strings_and_comments() {
        assert!(labels("on stop when response == \"a |").is_empty());
        assert!(labels("on stop # when |").is_empty());
    }
}
