//! "Did you mean" for the mistakes people make first: words of other tools and other
//! languages where `.rules` has its own (`=` for `==`, `'rm'`, `deny`, `PreToolUse`,
//! `arg.pullNumber`).
//!
//! Invariant: a hint only ever names something that is valid where the mistake is, and every
//! hint is one line of help for the report; the message itself stays the parser's or the
//! resolver's.

use rulesc_grammar::SyntaxError;
use rulesc_runtime::{
    BuiltinArguments, BuiltinRow, EventKind, HostEventName, Verb, ALL_HOST_EVENTS,
};

/// Words other policy languages and hooks use for a decision, and the verb that makes it
const VERB_ALIASES: [(&str, Verb); 19] = [
    ("deny", Verb::Block),
    ("reject", Verb::Block),
    ("refuse", Verb::Block),
    ("disallow", Verb::Block),
    ("prevent", Verb::Block),
    ("stop", Verb::Forbid),
    ("halt", Verb::Forbid),
    ("abort", Verb::Forbid),
    ("kill", Verb::Forbid),
    ("terminate", Verb::Forbid),
    ("approve", Verb::Allow),
    ("permit", Verb::Allow),
    ("accept", Verb::Allow),
    ("confirm", Verb::Ask),
    ("prompt", Verb::Ask),
    ("continue", Verb::Request),
    ("proceed", Verb::Request),
    ("skip", Verb::Ignore),
    ("repeat", Verb::Retry),
];

/// The event a host's name for it stands for: `PreToolUse`, `BeforeTool`, `preToolUse`,
/// `pre_tool_use` (names compared lowercased without `_`), from the hosts' table that
/// `rulesc hook` maps events by
pub(crate) fn host_event(name: &str) -> Option<EventKind> {
    let key = squashed(name);
    ALL_HOST_EVENTS
        .into_iter()
        .flatten()
        .find_map(|(host_name, meaning)| match meaning {
            HostEventName::Mapped(event) if squashed(host_name) == key => {
                Some(event.rulesc_event())
            }
            _ => None,
        })
        .or_else(|| {
            EventKind::ALL
                .into_iter()
                .find(|kind| squashed(kind.name()) == key)
        })
}

/// The verb another tool's word stands for: `deny` is `block`, `Block` is `block`
pub(crate) fn verb_alias(name: &str) -> Option<Verb> {
    let lower = name.to_ascii_lowercase();
    VERB_ALIASES
        .iter()
        .find(|(alias, _)| *alias == lower)
        .map(|(_, verb)| *verb)
        .or_else(|| Verb::from_name(&lower))
}

/// `name` lowercased, without `_`
fn squashed(name: &str) -> String {
    name.chars()
        .filter(|char| *char != '_')
        .map(|char| char.to_ascii_lowercase())
        .collect()
}

/// The help line for a syntax error in `src`, when the mistake is a common one, or else when
/// a builtin's parentheses hold too many or too few arguments: how that builtin is written
pub(crate) fn syntax_help(src: &str, error: &SyntaxError) -> Option<String> {
    common_mistake(src, error).or_else(|| {
        let found = src.get(error.span.range())?;
        if matches!(found, "," | ")") {
            builtin_call(src, error.span.start as usize)
        } else {
            None
        }
    })
}

/// The help line for a syntax error in `src` that is a common mistake
fn common_mistake(src: &str, error: &SyntaxError) -> Option<String> {
    let found = src.get(error.span.range())?;
    let expects = |words: &str| error.expected.iter().any(|expected| expected == words);
    if found == "=" && expects("an operator") {
        return Some("did you mean `==`? a single `=` only assigns, in `set`".to_owned());
    }
    if let Some(help) = arithmetic_help(src, error, found) {
        return Some(help);
    }
    if found.starts_with('"') && error.expected == ["`\"`"] {
        return Some(
            "this string is never closed: a string ends with `\"` on the line it starts on"
                .to_owned(),
        );
    }
    if found.starts_with('\'') {
        let rest = src.get(error.span.start as usize + 1..).unwrap_or_default();
        let line = rest.lines().next().unwrap_or_default();
        return Some(match line.split_once('\'') {
            Some((text, _)) if !text.contains('"') => {
                format!("did you mean `\"{text}\"`? strings take double quotes")
            }
            _ => "strings take double quotes: `\"rm\"`".to_owned(),
        });
    }
    let word: String = found
        .chars()
        .take_while(|char| char.is_ascii_alphanumeric() || *char == '_')
        .collect();
    if word.is_empty() {
        return None;
    }
    if expects("an event name") {
        if let Some(kind) = host_event(&word) {
            return Some(did_you_mean(kind.name()));
        }
    }
    if expects("a verb") {
        if let Some(verb) = verb_alias(&word) {
            return Some(did_you_mean(verb.name()));
        }
    }
    if expects("a field name") {
        return quoted_key_help(src, error.span.start as usize, found, &word);
    }
    if expects("a value") && word.len() == found.len() {
        // A field is a lowercase word, so a word that is none where a value may stand is
        // text the author meant: `tool == Read`.
        return Some(format!(
            "did you mean `\"{word}\"`? text is written in double quotes"
        ));
    }
    if expects("a key") && word.len() == found.len() {
        return Some(format!(
            "did you mean `\"{word}\"`? a key that is not a lowercase word is quoted"
        ));
    }
    None
}

/// `+=`, `++` and a leading `-`, which other languages have and `.rules` does not
/// (docs/expressions.md)
fn arithmetic_help(src: &str, error: &SyntaxError, found: &str) -> Option<String> {
    let op = found.chars().next().filter(|char| "+-*/".contains(*char))?;
    let after = src.get(error.span.start as usize + 1..).unwrap_or_default();
    let before = src
        .get(..error.span.start as usize)
        .unwrap_or_default()
        .trim_end();
    // `x++` stops at its second `+`, `x +=` at the `+`.
    let increment = op == '+' && (after.starts_with('+') || before.ends_with('+'));
    let operand = before
        .trim_end_matches('+')
        .rsplit(char::is_whitespace)
        .next()
        .filter(|word| word.starts_with("metadata"))
        .unwrap_or("metadata.count");
    if after.starts_with('=') {
        return Some(format!(
            "`set` has no `{op}=`: write the value whole, `set {operand} = {operand} {op} 1`"
        ));
    }
    if increment {
        return Some(format!(
            "there is no `++`: count in a rule of its own, `set {operand} = {operand} + 1`"
        ));
    }
    if op == '-'
        && error
            .expected
            .iter()
            .any(|words| words == "a condition" || words == "a field")
    {
        return Some("there is no unary minus: write `0 - x`".to_owned());
    }
    None
}

/// `arg.pullNumber` → `arg["pullNumber"]`: the path before the `.` at `start`, then `word`
/// quoted, then the rest of the `found` token
fn quoted_key_help(src: &str, start: usize, found: &str, word: &str) -> Option<String> {
    let before = src.get(..start)?.strip_suffix('.')?;
    let path_start = before
        .rfind(|char: char| !(char.is_ascii_alphanumeric() || "_.[]\"".contains(char)))
        .map_or(0, |idx| idx + 1);
    let path = before.get(path_start..)?;
    if path.is_empty() {
        return None;
    }
    let rest = found.get(word.len()..).unwrap_or_default();
    Some(format!(
        "did you mean `{path}[\"{word}\"]{rest}`? a key that is not a lowercase word is quoted"
    ))
}

/// How a builtin is written, for a call of it that is not: its signature and what goes in
/// its parentheses
pub(crate) fn written_as(row: &BuiltinRow) -> String {
    let signature = row.signature();
    match row.arguments {
        BuiltinArguments::Nothing => format!("`{signature}` is written alone, without parentheses"),
        BuiltinArguments::Counted { .. } => {
            format!("write it as `{signature}`, an event's name first")
        }
        BuiltinArguments::Condition => format!("write it as `{signature}`, with one condition"),
        BuiltinArguments::Text(_) => format!("write it as `{signature}`, with one string"),
        BuiltinArguments::Comparison => {
            format!("write it as `{signature}`, the comparison after the word without parentheses")
        }
    }
}

/// How far back a call's name is looked for: far enough for any call written by hand, near
/// enough that a file of thousands of errors on one long line is reported in linear time
const CALL_REACH: usize = 1024;

/// How the builtin is written whose parentheses, opened on the line of byte `offset` of
/// `src` and at most [`CALL_REACH`] bytes before it, are still open there: `flag(FLAG)` for
/// `flag("-r", "-f")`
fn builtin_call(src: &str, offset: usize) -> Option<String> {
    let reach_start =
        (offset.saturating_sub(CALL_REACH)..=offset).find(|idx| src.is_char_boundary(*idx))?;
    let reach = src.get(reach_start..offset)?;
    let line = match reach.rfind(['\n', '\r']) {
        Some(idx) => reach.get(idx + 1..)?,
        None if reach_start == 0 => reach,
        None => return None,
    };
    // The name before each parenthesis still open, outside strings and comments.
    let mut open: Vec<&str> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    for (idx, char) in line.char_indices() {
        match (in_string, char) {
            (true, _) if escaped => escaped = false,
            (true, '\\') => escaped = true,
            (_, '"') => in_string = !in_string,
            (true, _) => {}
            (false, '#') => return None,
            (false, '(') => {
                let head = line.get(..idx).unwrap_or_default();
                let name_start = head
                    .rfind(|char: char| {
                        !(char.is_ascii_alphanumeric() || char == '_' || char == '.')
                    })
                    .map_or(0, |idx| idx + 1);
                open.push(head.get(name_start..).unwrap_or_default());
            }
            (false, ')') => {
                open.pop();
            }
            (false, _) => {}
        }
    }
    BuiltinRow::named(open.last()?).map(written_as)
}

/// `did you mean `x`?`
fn did_you_mean(name: &str) -> String {
    format!("did you mean `{name}`?")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_event_names_in_any_case_find_their_event() {
        for (name, kind) in [
            ("PreToolUse", EventKind::PreToolUse),
            ("preToolUse", EventKind::PreToolUse),
            ("BeforeTool", EventKind::PreToolUse),
            ("before_tool", EventKind::PreToolUse),
            ("AfterAgent", EventKind::Stop),
            ("PostToolUseFailure", EventKind::OnError),
            ("UserPromptSubmit", EventKind::BeforeStep),
            ("ExecutionStart", EventKind::ExecutionStart),
        ] {
            assert_eq!(host_event(name), Some(kind), "{name}");
        }
        assert_eq!(host_event("Whatever"), None);
        // Sent by a host, but mapped to no rulesc event by `rulesc hook`: no hint either.
        assert_eq!(host_event("BeforeModel"), None);
        assert_eq!(host_event("Notification"), None);
    }

    #[test]
    fn other_tools_verbs_find_a_verb() {
        assert_eq!(verb_alias("deny"), Some(Verb::Block));
        assert_eq!(verb_alias("Block"), Some(Verb::Block));
        assert_eq!(verb_alias("stop"), Some(Verb::Forbid));
        assert_eq!(verb_alias("maybe"), None);
    }

    #[test]
    fn a_syntax_error_inside_a_builtins_parentheses_says_how_it_is_written() {
        let help = |text: &str| {
            let offset = text.find('|').unwrap();
            builtin_call(&text.replace('|', ""), offset)
        };
        assert_eq!(
            help("on pre_tool_use when shell(flag(\"-r\"|, \"-f\")) block").as_deref(),
            Some("write it as `flag(FLAG)`, with one string")
        );
        assert_eq!(
            help("on stop when seen(stop|, stop) forbid").as_deref(),
            Some("write it as `seen(EVENT when CONDITION within WINDOW)`, an event's name first")
        );
        assert_eq!(
            help("on pre_tool_use when shell(outside_cwd(|)) block").as_deref(),
            Some("`outside_cwd` is written alone, without parentheses")
        );
        // A parenthesis in a string, a closed call, another line or a comment opens nothing.
        assert_eq!(
            help("on pre_tool_use when shell(flag(\"(\")) and tool |== block").as_deref(),
            None
        );
        assert_eq!(help("on stop when count(stop\n|, stop) forbid"), None);
        assert_eq!(help("on stop # count(|"), None);
        let far = format!(
            "on stop when count(stop{}|, stop) forbid",
            " ".repeat(CALL_REACH)
        );
        assert_eq!(help(&far), None);
        assert_eq!(
            help("on pre_tool_use when shell(flag(\"\\\"(\") |").as_deref(),
            Some("write it as `shell(CONDITION)`, with one condition")
        );
    }
}
