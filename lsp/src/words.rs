//! The words of the language as an editor shows them: what each event, verb, field and
//! builtin means and where it may be used, read from the runtime's vocabulary, schema and
//! table of builtins, and the explanations of diagnostic codes from the compiler's table
//! (what `rulesc explain` prints).
//!
//! Invariant: no text about the language is written here; every sentence comes from the
//! runtime's vocabulary or the compiler's code table, so hover and completion cannot drift
//! from `rulesc check` and `rulesc explain`.

use rulesc_compiler::codes;
use rulesc_runtime::{
    BuiltinRow, BuiltinScope, EventField, EventKind, Field, FieldPath, Verb, EVENT_FIELDS,
};

/// A word of the language
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Word {
    /// An event name
    Event(EventKind),
    /// A verb
    Verb(Verb),
    /// A condition field, with its spelling as written
    Field(Field, String),
    /// A builtin: `count`, `shell.all`, `same_call_count`
    Builtin(&'static BuiltinRow),
    /// A diagnostic code (`E012`)
    Code(rulesc_compiler::Code),
}

impl Word {
    /// What `text` names, if it is a word of the language
    pub(crate) fn named(text: &str) -> Option<Word> {
        if let Some(kind) = EventKind::from_name(text) {
            return Some(Word::Event(kind));
        }
        if let Some(verb) = Verb::from_name(text) {
            return Some(Word::Verb(verb));
        }
        if let Some(row) = BuiltinRow::named(text) {
            return Some(Word::Builtin(row));
        }
        if let Some(field) = field_named(text) {
            return Some(Word::Field(field, text.to_owned()));
        }
        code_named(text).map(Word::Code)
    }

    /// The hover text, in Markdown
    pub(crate) fn describe(&self) -> String {
        match self {
            Word::Event(kind) => format!(
                "`{kind}` (event): fires {}\n\nfields: {}\n\nverbs: {}",
                kind.doc(),
                quoted(fields_visible_on(&[*kind]).into_iter().map(|(name, _)| {
                    // A path prefix (`arg.`) reads any path: `arg.*`, as docs/language.md writes it.
                    if name.ends_with('.') {
                        format!("{name}*")
                    } else {
                        name
                    }
                })),
                quoted(verbs_allowed_on(&[*kind]).into_iter().map(Verb::name)),
            ),
            Word::Verb(verb) => format!(
                "`{verb}` (verb): {}\n\nallowed on: {}",
                verb.doc(),
                quoted(verb.allowed_events().into_iter().map(EventKind::name)),
            ),
            Word::Field(field, spelling) => {
                let mut text = format!(
                    "`{spelling}` (field, {})\n\nvisible on: {}",
                    field_detail(field),
                    quoted(field.visible_events().into_iter().map(EventKind::name)),
                );
                if let Some(values) = field.values() {
                    text.push_str(&format!("\n\nvalues: {}", quoted(values.names())));
                }
                text
            }
            Word::Builtin(row) => format!(
                "`{}` (builtin, {}): {}\n\nwritten {}\n\nusable on: {}\n\n```rules\n{}\n```",
                row.signature(),
                row.result.name(),
                row.doc,
                row.scope.described(),
                usable_on(row),
                row.example,
            ),
            // The explanation is Markdown already: headings and indented examples.
            Word::Code(code) => code.explain(),
        }
    }
}

/// The field spelled `text`: a fixed name (`steps`, `error.kind`), or a path into a tool's
/// input, its output or the metadata (`arg.command`, `metadata.tainted`)
fn field_named(text: &str) -> Option<Field> {
    if let Some(field) = Field::from_name(text) {
        return Some(field);
    }
    let (head, rest) = text.split_once('.')?;
    if rest.is_empty() {
        return None;
    }
    path_field(head)
}

/// The words that start a path into JSON: `arg.command`, `result.status`, `metadata.key`
const PATH_PREFIXES: [&str; 3] = ["arg", "result", "metadata"];

/// The field a path starting with `prefix` reads (any path: visibility, type and meaning do
/// not depend on it)
fn path_field(prefix: &str) -> Option<Field> {
    match prefix {
        "arg" => Some(Field::Arg(FieldPath::default())),
        "result" => Some(Field::ResultPath(FieldPath::default())),
        "metadata" => Some(Field::Metadata(FieldPath::default())),
        _ => None,
    }
}

/// The code with the id `text` (`E012`, `w003`); names (`dead-rule`) are not words here
fn code_named(text: &str) -> Option<rulesc_compiler::Code> {
    let is_id = text.len() == 4
        && text.starts_with(['E', 'W', 'e', 'w'])
        && text.chars().skip(1).all(|ch| ch.is_ascii_digit());
    if is_id {
        codes::lookup(text)
    } else {
        None
    }
}

/// The condition fields visible on every one of `events`, each as a condition starts it:
/// fixed names (`tool`), then the path prefixes (`arg.`)
pub(crate) fn fields_visible_on(events: &[EventKind]) -> Vec<(String, Field)> {
    let visible = |field: &Field| events.iter().all(|kind| field.visible_on(*kind));
    let named = Field::names().filter_map(|name| {
        Field::from_name(name)
            .filter(|field| visible(field))
            .map(|field| (name.to_owned(), field))
    });
    let paths = PATH_PREFIXES.iter().filter_map(|prefix| {
        path_field(prefix)
            .filter(|field| visible(field))
            .map(|field| (format!("{prefix}."), field))
    });
    named.chain(paths).collect()
}

/// What a field is, in one line: its type and meaning
pub(crate) fn field_detail(field: &Field) -> String {
    format!("{}: {}", field.ty().name(), field.doc())
}

/// The keys an inline test's event of `kind` may give: those whose field it sees
pub(crate) fn test_keys_of(kind: EventKind) -> impl Iterator<Item = &'static EventField> {
    EVENT_FIELDS
        .iter()
        .filter(move |field| field.field().is_none_or(|visible| visible.visible_on(kind)))
}

/// The events a builtin may be used on, or "every event"
fn usable_on(row: &BuiltinRow) -> String {
    if EventKind::ALL.iter().all(|kind| row.usable_on(*kind)) {
        "every event".to_owned()
    } else {
        quoted(row.events.iter().map(|kind| kind.name()))
    }
}

/// The builtins of `scope` usable on every one of `events`, in the table's order
pub(crate) fn builtins_usable_on(
    scope: BuiltinScope,
    events: &[EventKind],
) -> impl Iterator<Item = &'static BuiltinRow> + '_ {
    BuiltinRow::in_scope(scope).filter(|row| events.iter().all(|kind| row.usable_on(*kind)))
}

/// The verbs allowed on every one of `events`, in declaration order
pub(crate) fn verbs_allowed_on(events: &[EventKind]) -> Vec<Verb> {
    Verb::ALL
        .into_iter()
        .filter(|verb| events.iter().all(|kind| kind.allows(*verb)))
        .collect()
}

/// `a`, `b`, `c` in backticks, or "none"
fn quoted<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> String {
    let words: Vec<String> = words
        .into_iter()
        .map(|word| format!("`{}`", word.as_ref()))
        .collect();
    if words.is_empty() {
        "none".to_owned()
    } else {
        words.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_builtin_is_described_by_its_row() {
        let Some(Word::Builtin(row)) = Word::named("same_call_count") else {
            panic!("`same_call_count` is no builtin word");
        };
        assert_eq!(row.name, "same_call_count");
        let text = Word::Builtin(row).describe();
        assert!(
            text.starts_with("`same_call_count` (builtin, integer): "),
            "{text}"
        );
        assert!(text.contains("usable on: `pre_tool_use`\n"), "{text}");
        let text = Word::named("count").unwrap().describe();
        assert!(
            text.starts_with("`count(EVENT when CONDITION within WINDOW)` (builtin, integer)"),
            "{text}"
        );
        assert!(text.contains("usable on: every event"), "{text}");
        let text = Word::named("shell.all").unwrap().describe();
        assert!(
            text.contains("usable on: `pre_tool_use`, `post_tool_use`"),
            "{text}"
        );
        assert!(
            text.contains("```rules\non pre_tool_use when shell.all("),
            "{text}"
        );
    }

    #[test]
    fn builtins_of_a_scope_usable_on_every_event_of_a_rule() {
        let names = |scope, events: &[EventKind]| -> Vec<&str> {
            builtins_usable_on(scope, events)
                .map(|row| row.name)
                .collect()
        };
        assert_eq!(
            names(BuiltinScope::Condition, &[EventKind::Stop]),
            ["count", "seen", "streak", "any", "all"]
        );
        assert_eq!(
            names(
                BuiltinScope::Condition,
                &[EventKind::PreToolUse, EventKind::PostToolUse]
            ),
            [
                "count",
                "seen",
                "streak",
                "any",
                "all",
                "shell",
                "shell.all"
            ]
        );
        assert!(names(BuiltinScope::ShellCommand, &[EventKind::PreToolUse]).contains(&"flag"));
    }
}
