//! Inline `test` blocks (LANGUAGE.md §7): from syntax to runtime events and expectations.
//!
//! Invariant: a [`TestCase`] holds only checked values. Its events are what `rulesc eval`
//! would read from JSON (unset fields empty), so running a test is evaluating its events in
//! order, carrying the metadata of each outcome over to the next event.

use rulesc_grammar::{Ident, ObjectEntry, Span, TestBlock, TestStep, Value};
use rulesc_runtime::{Decision, ErrorInfo, Event, Field, Status, StopDecision, StopReason, Verb};
use serde_json::{Map, Value as Json};

use crate::codes;
use crate::diagnostic::{Diagnostic, Label};
use crate::lower::{literal, string};
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
        outcome.decision == self.decision
            && self
                .stop_reason
                .is_none_or(|reason| outcome.stop_reason == Some(reason))
            && self
                .by
                .as_ref()
                .is_none_or(|id| outcome.resolved_by.as_deref() == Some(id.as_str()))
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

/// The JSON type a test field takes, for messages
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

/// The fields a test event may set, with the type each takes (LANGUAGE.md §4.1)
const TEST_FIELDS: [(&str, Expected); 24] = [
    ("step", Expected::Int),
    ("steps", Expected::Int),
    ("tokens", Expected::Int),
    ("input_tokens", Expected::Int),
    ("output_tokens", Expected::Int),
    ("elapsed", Expected::Duration),
    ("failures", Expected::Int),
    ("errors", Expected::Int),
    ("retries", Expected::Int),
    ("metadata", Expected::Object),
    ("messages", Expected::Int),
    ("response", Expected::Str),
    ("finish_reason", Expected::Str),
    ("tool_calls", Expected::Int),
    ("tool", Expected::Str),
    ("arg", Expected::Any),
    ("result", Expected::Str),
    ("tool_error", Expected::Bool),
    ("blocked", Expected::Bool),
    ("error", Expected::Object),
    ("stop_reason", Expected::Str),
    ("stop_decision", Expected::Str),
    ("stop_requests", Expected::Int),
    ("status", Expected::Str),
];

/// The condition field whose visibility a test field follows
fn visibility_of(key: &str) -> Option<Field> {
    match key {
        "error" => Some(Field::ErrorKind),
        "arg" => Some(Field::Arg(rulesc_runtime::FieldPath::default())),
        "metadata" => Some(Field::Metadata(rulesc_runtime::FieldPath::default())),
        _ => Field::from_name(key),
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
        let mut event = kind.map(Event::new);
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
            let Some((_, expected)) = TEST_FIELDS.iter().find(|(name, _)| *name == key) else {
                let suggestion = resolve::suggest(key, TEST_FIELDS.iter().map(|(name, _)| *name));
                self.fail(
                    entry.key.span,
                    format!("unknown field `{key}` in a test event"),
                    "not an event field",
                    suggestion.map(|name| format!("did you mean `{name}`?")),
                );
                ok = false;
                continue;
            };
            if let (Some(kind), Some(field)) = (kind, visibility_of(key)) {
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
            match (self.value(key, *expected, &entry.value), event.as_mut()) {
                (Some(value), Some(event)) => ok &= self.set_field(event, key, value, &entry.value),
                (Some(_), None) => {}
                (None, _) => ok = false,
            }
        }
        if ok {
            event
        } else {
            None
        }
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

    /// Stores a checked value in the event; `false` when the value is not one the field takes
    fn set_field(&mut self, event: &mut Event, key: &str, json: Json, value: &Value) -> bool {
        let count = json.as_u64().unwrap_or_default();
        let text = || json.as_str().unwrap_or_default().to_owned();
        match key {
            "step" => event.step = count,
            "steps" => event.steps = count,
            "tokens" => event.tokens = count,
            "input_tokens" => event.input_tokens = count,
            "output_tokens" => event.output_tokens = count,
            "elapsed" => event.elapsed_ms = count,
            "failures" => event.failures = count,
            "errors" => event.errors = count,
            "retries" => event.retries = count,
            "messages" => event.messages = Some(count),
            "tool_calls" => event.tool_calls = Some(count),
            "stop_requests" => event.stop_requests = Some(count),
            "response" => event.response = Some(text()),
            "finish_reason" => event.finish_reason = Some(text()),
            "tool" => event.tool = Some(text()),
            "result" => event.result = Some(text()),
            "tool_error" => event.tool_error = json.as_bool(),
            "blocked" => event.blocked = json.as_bool(),
            "arg" => event.arg = Some(json),
            "metadata" => {
                if let Json::Object(map) = json {
                    event.metadata = map;
                }
            }
            "error" => return self.set_error(event, json, value),
            "stop_reason" => {
                let name = Ident {
                    name: text(),
                    span: value.span(),
                };
                match resolve::stop_reason(self.file, &name, self.diags) {
                    Some(reason) => event.stop_reason = Some(reason),
                    None => return false,
                }
            }
            "stop_decision" => match text().as_str() {
                "allow_stop" => event.stop_decision = Some(StopDecision::AllowStop),
                "forbid" => event.stop_decision = Some(StopDecision::Forbid),
                other => {
                    self.fail(
                        value.span(),
                        format!("unknown stop decision `{other}`"),
                        "not a stop decision",
                        Some("write `\"allow_stop\"` or `\"forbid\"`".to_owned()),
                    );
                    return false;
                }
            },
            "status" => {
                let status = [Status::Completed, Status::Stopped, Status::Failed]
                    .into_iter()
                    .find(|status| status.name() == text());
                match status {
                    Some(status) => event.status = Some(status),
                    None => {
                        self.fail(
                            value.span(),
                            format!("unknown status `{}`", text()),
                            "not a status",
                            Some("write `\"completed\"`, `\"stopped\"` or `\"failed\"`".to_owned()),
                        );
                        return false;
                    }
                }
            }
            // Invariant: `TEST_FIELDS` lists exactly the keys handled above.
            _ => return false,
        }
        true
    }

    /// `error: { kind: "...", message: "..." }`
    fn set_error(&mut self, event: &mut Event, json: Json, value: &Value) -> bool {
        let Json::Object(map) = json else {
            return false;
        };
        let mut error = ErrorInfo::default();
        for (key, part) in map {
            match (key.as_str(), part) {
                ("kind", Json::String(kind)) => error.kind = kind,
                ("message", Json::String(message)) => error.message = message,
                (other, _) => {
                    self.fail(
                        value.span(),
                        format!(
                            "`error` takes string `kind` and `message`, not `{other}` of this type"
                        ),
                        "invalid error",
                        Some(
                            "write `error: { kind: \"tool\", message: \"exit status 1\" }`"
                                .to_owned(),
                        ),
                    );
                    return false;
                }
            }
        }
        event.error = Some(error);
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
                    let suggestion = resolve::suggest(&verb.name, candidates);
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
