//! The JSON documents `rulesc` reads and writes, as JSON Schema (draft 2020-12, by schemars),
//! for `rulesc schema KIND` and the files of docs/schemas/.
//!
//! A document one type writes or reads is described by that very type: the runtime's
//! outcome, run report, run script and compiled policy (its `schema` feature, off for
//! embedders, who need no schemars), the host's replay findings, and this crate's reports of
//! `check`, `test` and `replay`. A written document's schema is that of what serializing
//! writes (a `None` is written as `null`, so its key is required), a read one's that of
//! what is accepted (a key with a default may be left out).
//!
//! Three documents have no such type and are described here: the event, built from the
//! runtime's table of event keys (`EVENT_FIELDS`); a hook's payload, whose keys the host
//! crate reads one by one and loosely (a key it cannot read is dropped with a warning);
//! and a hook's answer, built as JSON per host and event. Their words of the language come
//! from the runtime's types, the hosts' event names from the hosts' table. The trace
//! format's schema is a file written beside its manual. `tests/schema.rs` validates real
//! output of every command against all of them, so a schema that drifts from the code
//! fails a test.
//!
//! docs/cli.md lets keys be added to every document, so objects allow keys they do not name
//! (no type described denies unknown fields but the hook answer, which hosts hold to its
//! keys; `tests/schema.rs` checks it); the keys they name are held to their types, and the
//! required ones to being there.

use std::collections::BTreeMap;

use rulesc_host::Host;
use rulesc_runtime::{ErrorKind, EventKind, JsonType, Policy, RunReport, Script, EVENT_FIELDS};
use schemars::generate::SchemaSettings;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::Value as Json;

/// One kind of document: its name for `rulesc schema`, what it is, and its schema
pub(crate) struct Kind {
    /// The name `rulesc schema` takes
    pub(crate) name: &'static str,
    /// What the document is, for `--list`
    pub(crate) summary: &'static str,
    /// Its schema
    pub(crate) schema: fn() -> Schema,
}

/// Every document, one line each
pub(crate) const KINDS: &[Kind] = &[
    Kind {
        name: "event",
        summary: "an event, input of `rulesc eval --event` (one per line)",
        schema: event_schema,
    },
    written::<rulesc_runtime::Outcome>(
        "outcome",
        "the outcome `rulesc eval` prints for each event",
    ),
    Kind {
        name: "check",
        summary: "the report of `rulesc check --format json`",
        schema: check_schema,
    },
    written::<rulesc::test_report::TestReport>("test", "the report of `rulesc test --format json`"),
    read::<Script>("script", "a run script, input of `rulesc run --script`"),
    read::<Scenario>("scenario", "a `*.scenario.json` file of `rulesc test`"),
    written::<RunReport>("run", "the report of `rulesc run` (JSON)"),
    written::<Policy>("policy", "a compiled policy, output of `rulesc compile`"),
    described::<HookInput>(
        "hook-input",
        "a hook call's payload, the keys `rulesc hook` reads of it",
    ),
    described::<HookAnswer>(
        "hook-answer",
        "the answer `rulesc hook` prints, in any host's protocol",
    ),
    written::<rulesc::replay::ReplayReport<'static>>(
        "replay",
        "the report of `rulesc replay --format json`",
    ),
    written::<rulesc::replay::DiffReport<'static>>(
        "replay-diff",
        "the report of `rulesc replay --diff OLD NEW --format json`",
    ),
    Kind {
        name: "trace",
        summary: "a line of a rulesc trace, input of `rulesc replay` (docs/replay.md)",
        schema: trace_schema,
    },
];

/// The rulesc trace format's schema, written by hand beside its manual and held to the
/// sample traces and the runtime's table of event keys by `tests/trace_schema.rs`
const TRACE_SCHEMA: &str = include_str!("../../docs/schemas/trace.json");

/// [`TRACE_SCHEMA`], read; the schema that refuses everything if it were not JSON, which
/// `tests/schema.rs` would report
fn trace_schema() -> Schema {
    serde_json::from_str(TRACE_SCHEMA).unwrap_or_else(|_| Schema::from(false))
}

/// The kind named `name`, a document rulesc writes, whose schema is `T`'s
const fn written<T: JsonSchema>(name: &'static str, summary: &'static str) -> Kind {
    Kind {
        name,
        summary,
        schema: written_schema::<T>,
    }
}

/// The kind named `name`, a document rulesc reads, whose schema is `T`'s
const fn read<T: JsonSchema>(name: &'static str, summary: &'static str) -> Kind {
    Kind {
        name,
        summary,
        schema: read_schema::<T>,
    }
}

/// The kind named `name`, whose schema is `T`'s, a description written here: its `Option`
/// keys may be left out, as in a document read
const fn described<T: JsonSchema>(name: &'static str, summary: &'static str) -> Kind {
    read::<T>(name, summary)
}

/// The generator of a written document's schema: what serializing writes, so a key that is
/// always written is required, `null` or not
fn writer() -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
}

/// The schema of the document `T` writes
fn written_schema<T: JsonSchema>() -> Schema {
    writer().into_root_schema_for::<T>()
}

/// The schema of the document `T` reads
fn read_schema<T: JsonSchema>() -> Schema {
    SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator()
        .into_root_schema_for::<T>()
}

/// The schema of `rulesc check --format json`, whose type the library keeps to itself
fn check_schema() -> Schema {
    rulesc::check_report_schema(writer())
}

/// The kind called `name`, if any
pub(crate) fn lookup(name: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|kind| kind.name == name)
}

/// A string that is one of `names`
fn one_of(names: impl IntoIterator<Item = &'static str>) -> Schema {
    let names: Vec<&str> = names.into_iter().collect();
    json_schema!({"type": "string", "enum": names})
}

/// Types whose schema is a string taken from a table of words (`Name = names, "doc";`), for
/// the documents no type of rulesc describes
macro_rules! words {
    ($($doc:ident = $names:expr, $what:literal;)+) => {$(
        #[doc = $what]
        struct $doc;

        impl JsonSchema for $doc {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($doc).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                one_of($names)
            }
        }
    )+};
}

words! {
    HostEventName = host_event_names(), "An event name one of the hosts sends";
    PermissionName = ["allow", "deny", "ask"], "A decision on a tool call";
    BehaviorName = ["allow", "deny"], "An answer to an approval request";
    AnswerDecisionName = ["allow", "deny", "block"], "A top-level decision";
}

/// Any JSON value
type AnyJson = Json;

/// The event JSON `rulesc eval` reads (docs/cli.md `eval`): `event`, and every key of the
/// runtime's event schema with its JSON type; no type reads it whole, each key is read by
/// that table
fn event_schema() -> Schema {
    let mut generator = SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator();
    let mut properties = serde_json::Map::new();
    properties.insert(
        "event".to_owned(),
        generator.subschema_for::<EventKind>().to_value(),
    );
    for field in EVENT_FIELDS {
        for key in field.json_keys() {
            properties.insert(
                key.to_owned(),
                json_type_schema(&mut generator, field.json).to_value(),
            );
        }
    }
    json_schema!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Event",
        "description": "One lifecycle event; only `event` is required, counters default to 0",
        "type": "object",
        "required": ["event"],
        "properties": properties,
        "$defs": generator.take_definitions(true),
    })
}

/// A duration's text as the language writes it (`1_500ms`, `5min`)
const DURATION_PATTERN: &str = "^[0-9][0-9_]*(ms|s|min|h|d)$";

/// The schema of a key of event JSON
fn json_type_schema(generator: &mut SchemaGenerator, json: JsonType) -> Schema {
    match json {
        JsonType::Count => json_schema!({"type": "integer", "minimum": 0}),
        JsonType::Milliseconds => json_schema!({"anyOf": [
            {"type": "integer", "minimum": 0},
            {"type": "string", "pattern": DURATION_PATTERN},
        ]}),
        JsonType::Text => json_schema!({"type": "string"}),
        JsonType::Flag => json_schema!({"type": "boolean"}),
        JsonType::Object => json_schema!({"type": "object"}),
        JsonType::Error => json_schema!({
            "type": "object",
            "properties": {
                "kind": generator.subschema_for::<ErrorKind>(),
                "message": {"type": "string"},
            },
        }),
        JsonType::Any => json_schema!(true),
        JsonType::OneOf(enumeration) => one_of(enumeration.names()),
    }
}

// `rulesc test` reads a scenario as a `Script` once `expect` is taken out, so it has no type
// of its own; this one is made of the real `Script`.
/// A scenario file: a run script and what its run must report
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct Scenario {
    #[serde(flatten)]
    script: Script,
    /// Keys of the run's report and the values they must have
    expect: BTreeMap<String, AnyJson>,
}

/// Every event name a host sends, once each
fn host_event_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = Host::ALL.into_iter().flat_map(Host::event_names).collect();
    names.sort_unstable();
    names.dedup();
    names
}

// No type reads a payload whole: the host crate reads `hook_event_name` first, to know the
// event, then the other keys loosely (a key it cannot read is dropped with a warning rather
// than failing the call), so the payload is described here.
/// A hook call's payload: the keys `rulesc hook` reads of what Claude Code, Codex or Gemini
/// CLI send (they send more, which it ignores)
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct HookInput {
    hook_event_name: HostEventName,
    session_id: Option<String>,
    /// Required, non-empty, on the events that gate a tool call
    tool_name: Option<String>,
    /// Required on the events that gate a tool call
    tool_input: Option<BTreeMap<String, AnyJson>>,
    tool_response: Option<AnyJson>,
    /// Claude Code's failure text (`PostToolUseFailure`)
    error: Option<AnyJson>,
    error_message: Option<AnyJson>,
    stop_hook_active: Option<bool>,
    /// Claude Code's and Codex's final answer
    last_assistant_message: Option<String>,
    /// Gemini CLI's final answer
    prompt_response: Option<String>,
    cwd: Option<String>,
    permission_mode: Option<String>,
    prompt: Option<String>,
}

// No type writes an answer: the host crate builds it as JSON, its keys chosen per host and
// event, so the answer is described here.
/// What `rulesc hook` answers on stdout; the keys each host accepts on each event are in
/// examples/claude-code, examples/codex and examples/gemini-cli, and no other key is ever
/// written (Codex refuses unknown keys)
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct HookAnswer {
    /// `false` stops the agent
    #[serde(rename = "continue")]
    keep_going: Option<bool>,
    /// Why the agent stops
    #[serde(rename = "stopReason")]
    stop_reason: Option<String>,
    /// `block` (Claude Code, Codex) or `deny` (Gemini CLI): the prompt, stop or tool call is
    /// refused with `reason`
    decision: Option<AnswerDecisionName>,
    reason: Option<String>,
    #[serde(rename = "hookSpecificOutput")]
    hook_specific_output: Option<HookSpecificOutput>,
}

/// The event-specific part of a Claude Code or Codex answer
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct HookSpecificOutput {
    #[serde(rename = "hookEventName")]
    hook_event_name: HostEventName,
    /// `PreToolUse`
    #[serde(rename = "permissionDecision")]
    permission_decision: Option<PermissionName>,
    #[serde(rename = "permissionDecisionReason")]
    permission_decision_reason: Option<String>,
    /// `PermissionRequest`
    decision: Option<ApprovalDecision>,
}

/// The answer to an approval request
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct ApprovalDecision {
    behavior: BehaviorName,
    message: Option<String>,
}
