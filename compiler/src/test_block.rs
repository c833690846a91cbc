//! Inline `test` blocks (docs/language.md §7): from syntax to runtime events and expectations.
//!
//! Invariant: a [`TestCase`] holds only checked values. Its events are what `rulesc eval`
//! would read from JSON (unset fields empty), so running a test is evaluating its events in
//! order, carrying the metadata of each outcome over to the next event.

use rulesc_grammar::{Ident, ObjectEntry, Span, TestBlock, TestStep, Value};
use rulesc_runtime::{
    Decision, Enumeration, Event, EventField, JsonType, StopReason, Verb, EVENT_FIELDS,
};
use serde_json::{Map, Value as Json};

use crate::codes;
use crate::diagnostic::{Diagnostic, Label};
use crate::literal::{literal, string};
use crate::resolve;
use crate::source::{FileId, LineIndex, SourceFile};

/// One inline test: events evaluated in order as one execution, each with what it expects
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    /// The name after `test`
    pub name: String,
    /// The file's name, as in rule origins
    pub file: String,
    /// The 1-based line of the `test` keyword
    pub line: u32,
    /// Each event with the outcome expected for it
    pub steps: Vec<(Event, Expectation)>,
}

/// What an `expect` line requires of an outcome
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    /// The decision; [`Decision::None`] for `expect none`
    pub decision: Decision,
    /// The stop reason, when the line gives one; otherwise any
    pub stop_reason: Option<StopReason>,
    /// The id `resolved_by` must name, when the line has `by "..."`
    pub by: Option<String>,
}

impl Expectation {
    /// Whether `outcome` meets this expectation
    pub fn is_met_by(&self, outcome: &rulesc_runtime::Outcome) -> bool {
        outcome.resolution.decision == self.decision
            && self
                .stop_reason
                .is_none_or(|reason| outcome.resolution.stop_reason == Some(reason))
            && self
                .by
                .as_ref()
                .is_none_or(|id| outcome.resolution.resolved_by.as_deref() == Some(id.as_str()))
    }
}

/// A lowered test with what `check` verifies across files
#[derive(Debug)]
pub(crate) struct LoweredTest {
    /// The test itself
    pub(crate) case: TestCase,
    /// Where its name is written (duplicate names)
    pub(crate) name_span: Span,
    /// The ids named by `by`, with where each is written (unknown ids)
    pub(crate) by_ids: Vec<(String, Span)>,
}

/// Lowers one test block; `None` when it has errors (all reported in `diags`)
pub(crate) fn lower_test(
    file: FileId,
    source: &SourceFile,
    lines: &LineIndex,
    block: &TestBlock,
    diags: &mut Vec<Diagnostic>,
) -> Option<LoweredTest> {
    let n_before = diags.len();
    let name = string(file, &block.name.raw, block.name.span, diags);
    let mut lowering = TestLowering { file, diags };
    let mut steps = Vec::new();
    let mut by_ids = Vec::new();
    // The last `event` line not yet followed by its `expect`.
    let mut pending: Option<(Option<Event>, Span)> = None;
    for step in &block.steps {
        match step {
            TestStep::Event {
                event,
                fields,
                span,
            } => {
                if let Some((_, previous)) = pending.take() {
                    lowering.event_without_expect(previous);
                }
                pending = Some((lowering.event(event, fields), *span));
            }
            TestStep::Expect {
                verb,
                reason,
                by,
                span,
            } => {
                let expectation = lowering.expectation(verb, reason.as_ref(), by.as_ref());
                let Some((event, _)) = pending.take() else {
                    lowering.diags.push(codes::invalid_test(
                        file,
                        *span,
                        "`expect` has no `event` before it".to_owned(),
                        "no event to expect this of",
                        Some(
                            "write an `event <name> { ... }` line before each `expect`".to_owned(),
                        ),
                    ));
                    continue;
                };
                if let (Some(event), Some((expectation, by_id))) = (event, expectation) {
                    if let Some(by_id) = by_id {
                        by_ids.push(by_id);
                    }
                    steps.push((event, expectation));
                }
            }
        }
    }
    if let Some((_, previous)) = pending {
        lowering.event_without_expect(previous);
    }
    if block.steps.is_empty() {
        diags.push(codes::invalid_test(
            file,
            block.name.span,
            "the test has no events".to_owned(),
            "empty test",
            Some("add an `event <name> { ... }` line and its `expect`".to_owned()),
        ));
    }
    if diags.len() != n_before {
        return None;
    }
    Some(LoweredTest {
        case: TestCase {
            name: name?,
            file: source.name.clone(),
            line: lines.line_column(block.span.start).line,
            steps,
        },
        name_span: block.name.span,
        by_ids,
    })
}

/// The state of lowering one test block
struct TestLowering<'a> {
    file: FileId,
    diags: &'a mut Vec<Diagnostic>,
}

/// The literal a test field takes, for messages
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    Int,
    Duration,
    Str,
    Bool,
    Object,
    Any,
}

impl Expected {
    /// What an inline test writes for a key of event JSON of this type
    fn of(json: JsonType) -> Expected {
        match json {
            JsonType::Count => Expected::Int,
            JsonType::Milliseconds => Expected::Duration,
            JsonType::Text | JsonType::OneOf(_) => Expected::Str,
            JsonType::Flag => Expected::Bool,
            JsonType::Object | JsonType::Error => Expected::Object,
            JsonType::Any => Expected::Any,
        }
    }

    fn described(self) -> &'static str {
        match self {
            Expected::Int => "an integer",
            Expected::Duration => "a duration such as `30s`",
            Expected::Str => "a string",
            Expected::Bool => "`true` or `false`",
            Expected::Object => "an object `{ ... }`",
            Expected::Any => "a value",
        }
    }
}

impl TestLowering<'_> {
    fn fail(&mut self, span: Span, message: String, label: &str, help: Option<String>) {
        self.diags
            .push(codes::invalid_test(self.file, span, message, label, help));
    }

    fn event_without_expect(&mut self, span: Span) {
        self.fail(
            span,
            "this `event` has no `expect`".to_owned(),
            "event without expectation",
            Some("add `expect <verb>` (or `expect none`) after it".to_owned()),
        );
    }

    /// The runtime event of an `event` line
    fn event(&mut self, name: &Ident, fields: &[ObjectEntry]) -> Option<Event> {
        let kind = resolve::event(self.file, name, self.diags);
        let mut object = Map::new();
        let mut ok = true;
        let mut seen: Vec<(&str, Span)> = Vec::new();
        for entry in fields {
            let key = entry.key.name.as_str();
            if let Some((_, first)) = seen.iter().find(|(seen_key, _)| *seen_key == key) {
                let diag = codes::invalid_test(
                    self.file,
                    entry.key.span,
                    format!("field `{key}` is given twice"),
                    "second value",
                    Some(format!("keep one `{key}`")),
                )
                .with_secondary(Label::new(self.file, *first, "first value"));
                self.diags.push(diag);
                ok = false;
                continue;
            }
            seen.push((key, entry.key.span));
            let Some(schema) = EventField::by_test_key(key) else {
                // Event JSON's name of a field (`elapsed_ms`) is told apart from a typo.
                let suggestion = match EventField::by_key(key) {
                    Some(field) if field.json == JsonType::Milliseconds => Some(format!(
                        "a test gives `{}` as a duration: `{}: 5min`",
                        field.test_key, field.test_key
                    )),
                    _ => resolve::suggest(key, EVENT_FIELDS.iter().map(|field| field.test_key))
                        .map(|name| format!("did you mean `{name}`?")),
                };
                self.fail(
                    entry.key.span,
                    format!("unknown field `{key}` in a test event"),
                    "not an event field",
                    suggestion,
                );
                ok = false;
                continue;
            };
            if let (Some(kind), Some(field)) = (kind, schema.field()) {
                if !field.visible_on(kind) {
                    let visible = field.visible_events();
                    self.fail(
                        entry.key.span,
                        format!("`{kind}` events have no field `{key}`"),
                        "not in this event",
                        Some(format!(
                            "`{key}` exists only in {}",
                            codes::and_list(
                                &visible.iter().map(|kind| kind.name()).collect::<Vec<_>>()
                            )
                        )),
                    );
                    ok = false;
                    continue;
                }
            }
            match self.value(key, Expected::of(schema.json), &entry.value) {
                Some(json) if self.takes(schema.json, key, &json, &entry.value) => {
                    object.insert(schema.key.to_owned(), json);
                }
                _ => ok = false,
            }
        }
        let kind = kind.filter(|_| ok)?;
        object.insert("event".to_owned(), Json::String(kind.name().to_owned()));
        // Every value was checked against the schema above, so the event reads as
        // `rulesc eval` would read the same JSON.
        serde_json::from_value(Json::Object(object)).ok()
    }

    /// The JSON of a field's value, checked against the type the field takes
    fn value(&mut self, key: &str, expected: Expected, value: &Value) -> Option<Json> {
        let json = self.json(value)?;
        let fits = match (expected, value) {
            (Expected::Any, _) => true,
            (Expected::Object, Value::Object(..)) => true,
            (Expected::Object, Value::Lit(_)) => false,
            (_, Value::Object(..)) => false,
            (Expected::Int, Value::Lit(lit)) => {
                matches!(lit.kind, rulesc_grammar::LitKind::Int(_))
            }
            (Expected::Duration, Value::Lit(lit)) => {
                matches!(lit.kind, rulesc_grammar::LitKind::Duration(_))
            }
            (Expected::Str, _) => json.is_string(),
            (Expected::Bool, _) => json.is_boolean(),
        };
        if !fits {
            self.fail(
                value.span(),
                format!("`{key}` takes {}", expected.described()),
                "wrong type",
                None,
            );
            return None;
        }
        Some(json)
    }

    /// A literal or object as JSON (durations in milliseconds)
    fn json(&mut self, value: &Value) -> Option<Json> {
        match value {
            Value::Lit(lit) => literal(self.file, lit, self.diags).map(|lit| lit.to_json()),
            Value::Object(entries, _) => {
                let mut map = Map::new();
                let mut ok = true;
                for entry in entries {
                    if map.contains_key(&entry.key.name) {
                        self.fail(
                            entry.key.span,
                            format!("key `{}` is given twice", entry.key.name),
                            "second value",
                            None,
                        );
                        ok = false;
                    }
                    match self.json(&entry.value) {
                        Some(json) => {
                            map.insert(entry.key.name.clone(), json);
                        }
                        None => ok = false,
                    }
                }
                ok.then_some(Json::Object(map))
            }
        }
    }

    /// Whether `json`, of the right literal type, is a value `key` takes: one of its
    /// enumeration, or an error object with string `kind` and `message`
    fn takes(&mut self, json_type: JsonType, key: &str, json: &Json, value: &Value) -> bool {
        match json_type {
            JsonType::Error => self.takes_error(json, value),
            JsonType::OneOf(Enumeration::StopReason) => {
                let name = Ident {
                    name: json.as_str().unwrap_or_default().to_owned(),
                    span: value.span(),
                };
                resolve::stop_reason(self.file, &name, self.diags).is_some()
            }
            JsonType::OneOf(values) => {
                let text = json.as_str().unwrap_or_default();
                let names = values.names();
                if names.contains(&text) {
                    return true;
                }
                let noun = key.replace('_', " ");
                let quoted: Vec<String> =
                    names.iter().map(|name| format!("`\"{name}\"`")).collect();
                self.fail(
                    value.span(),
                    format!("unknown {noun} `{text}`"),
                    &format!("not a {noun}"),
                    Some(format!("write {}", codes::or_list(&quoted))),
                );
                false
            }
            _ => true,
        }
    }

    /// `error: { kind: "...", message: "..." }`
    fn takes_error(&mut self, json: &Json, value: &Value) -> bool {
        let Json::Object(map) = json else {
            return false;
        };
        for (key, part) in map {
            if !matches!((key.as_str(), part), ("kind" | "message", Json::String(_))) {
                self.fail(
                    value.span(),
                    format!("`error` takes string `kind` and `message`, not `{key}` of this type"),
                    "invalid error",
                    Some(
                        "write `error: { kind: \"tool\", message: \"exit status 1\" }`".to_owned(),
                    ),
                );
                return false;
            }
        }
        true
    }

    /// The expectation of an `expect` line, with the `by` id and its span
    fn expectation(
        &mut self,
        verb: &Ident,
        reason: Option<&Ident>,
        by: Option<&rulesc_grammar::StrLit>,
    ) -> Option<(Expectation, Option<(String, Span)>)> {
        let decision = if verb.name == "none" {
            Some(Decision::None)
        } else {
            match Verb::from_name(&verb.name) {
                Some(known) => Some(Decision::from(known)),
                None => {
                    let candidates = Verb::ALL.iter().map(|verb| verb.name()).chain(["none"]);
                    let suggestion = crate::hint::verb_alias(&verb.name)
                        .map(Verb::name)
                        .or_else(|| resolve::suggest(&verb.name, candidates));
                    self.diags.push(codes::unknown_verb(
                        self.file, verb.span, &verb.name, suggestion,
                    ));
                    None
                }
            }
        };
        let takes_reason = matches!(decision, Some(Decision::Forbid | Decision::AllowStop));
        let stop_reason = match reason {
            Some(reason) if decision.is_some() && !takes_reason => {
                self.diags.push(codes::unexpected_stop_reason(
                    self.file,
                    reason.span,
                    &verb.name,
                    verb.span,
                ));
                return None;
            }
            Some(reason) => Some(resolve::stop_reason(self.file, reason, self.diags)?),
            None => None,
        };
        let by = match by {
            Some(text) => Some((
                string(self.file, &text.raw, text.span, self.diags)?,
                text.span,
            )),
            None => None,
        };
        Some((
            Expectation {
                decision: decision?,
                stop_reason,
                by: by.as_ref().map(|(id, _)| id.clone()),
            },
            by,
        ))
    }
}
