//! The JSON documents `rulesc` reads and writes, as JSON Schema (draft 2020-12, by schemars),
//! for `rulesc schema KIND` and the files of docs/schemas/.
//!
//! The reports of `check` and `test` are the types those commands serialize
//! ([`rulesc::check_report_schema`], `commands/test/report.rs`); the event is built from
//! the runtime's table of event keys (`EVENT_FIELDS`). The other documents are serialized by
//! runtime types that stay free of schemars (it would be one more dependency of every
//! embedder); they are described here, with every word of the language taken from the
//! runtime's own tables (`EventKind::ALL`, ...). `tests/schema.rs` validates real output of
//! every command against all of them, so a schema that drifts from the code fails a test.
//!
//! docs/cli.md lets keys be added to every document, so objects allow keys they do not name;
//! the keys they name are held to their types, and the required ones to being there.

use std::collections::BTreeMap;

use rulesc_host::Host;
use rulesc_runtime::{
    Decision, ErrorKind, EventKind, FinishReason, JsonType, Status, StopReason, Verb, EVENT_FIELDS,
};
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
    kind::<Outcome>("outcome", "the outcome `rulesc eval` prints for each event"),
    Kind {
        name: "check",
        summary: "the report of `rulesc check --format json`",
        schema: rulesc::check_report_schema,
    },
    kind::<rulesc::test_report::TestReport>("test", "the report of `rulesc test --format json`"),
    kind::<Script>("script", "a run script, input of `rulesc run --script`"),
    kind::<Scenario>("scenario", "a `*.scenario.json` file of `rulesc test`"),
    kind::<RunReport>("run", "the report of `rulesc run` (JSON)"),
    kind::<CompiledPolicy>("policy", "a compiled policy, output of `rulesc compile`"),
    kind::<HookInput>(
        "hook-input",
        "a hook call's payload, the keys `rulesc hook` reads of it",
    ),
    kind::<HookAnswer>(
        "hook-answer",
        "the answer `rulesc hook` prints, in any host's protocol",
    ),
    kind::<ReplayReport>("replay", "the report of `rulesc replay --format json`"),
    kind::<ReplayDiff>(
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

/// The kind named `name` whose schema is `T`'s
const fn kind<T: JsonSchema>(name: &'static str, summary: &'static str) -> Kind {
    Kind {
        name,
        summary,
        schema: schema_of::<T>,
    }
}

/// `T`'s schema
fn schema_of<T: JsonSchema>() -> Schema {
    schemars::schema_for!(T)
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

/// Types whose schema is a string taken from a table of words (`Name = names, "doc";`)
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
    EventName = EventKind::ALL.map(EventKind::name), "An event's name";
    StopReasonName = StopReason::ALL.map(StopReason::name), "A stop reason";
    StatusName = Status::ALL.map(Status::name), "A finished run's status";
    ErrorKindName = ErrorKind::ALL.map(ErrorKind::name), "An error's kind";
    FinishReasonName = FinishReason::ALL.map(FinishReason::name),
        "Why the model stopped";
    DecisionName = Decision::ALL.map(Decision::name), "A resolved decision";
    ActName = Verb::ALL.map(Verb::name).into_iter().chain(["set", "label"]),
        "A matched rule's verb, `set` or `label`";
    ModeName = ["enforce", "shadow"], "Whether a rule is enforced or in shadow mode";
    FindingName = ["block", "ask", "forbid", "request"], "A decision replay reports";
    ApprovalName = ["allow", "deny"], "How the approver answers `ask`";
    FormatName = [rulesc_runtime::FORMAT_NAME], "The format's name";
    HostEventName = host_event_names(), "An event name one of the hosts sends";
    PermissionName = ["allow", "deny", "ask"], "A decision on a tool call";
    BehaviorName = ["allow", "deny"], "An answer to an approval request";
    AnswerDecisionName = ["allow", "deny", "block"], "A top-level decision";
}

/// Any JSON value
type AnyJson = Json;

/// The event JSON `rulesc eval` reads (docs/cli.md `eval`): `event`, and every key of the
/// runtime's event schema with its JSON type
fn event_schema() -> Schema {
    let mut generator = SchemaGenerator::default();
    let mut properties = serde_json::Map::new();
    properties.insert(
        "event".to_owned(),
        EventName::json_schema(&mut generator).to_value(),
    );
    for field in EVENT_FIELDS {
        for key in field.json_keys() {
            properties.insert(key.to_owned(), json_type_schema(field.json).to_value());
        }
    }
    json_schema!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Event",
        "description": "One lifecycle event; only `event` is required, counters default to 0",
        "type": "object",
        "required": ["event"],
        "properties": properties,
    })
}

/// A duration's text as the language writes it (`1_500ms`, `5min`)
const DURATION_PATTERN: &str = "^[0-9][0-9_]*(ms|s|min|h|d)$";

/// The schema of a key of event JSON
fn json_type_schema(json: JsonType) -> Schema {
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
                "kind": one_of(ErrorKind::ALL.map(ErrorKind::name)),
                "message": {"type": "string"},
            },
        }),
        JsonType::Any => json_schema!(true),
        JsonType::OneOf(enumeration) => one_of(enumeration.names()),
    }
}

/// The outcome of one event (docs/cli.md `eval`)
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct Outcome {
    event: EventName,
    decision: DecisionName,
    /// Set for `forbid` and `allow_stop`
    stop_reason: Option<StopReasonName>,
    message: Option<String>,
    /// The deciding rule's id, `default`, or a `host:` limit
    resolved_by: Option<String>,
    /// Every rule that matched, sorted by rule id
    evaluations: Vec<Evaluation>,
    /// Every shadow rule (`@mode(shadow)`) that matched, never enforced; absent when none
    #[schemars(default)]
    shadow: Option<Vec<Evaluation>>,
    /// Every `set` applied, in order
    effects: Vec<Effect>,
    metadata: BTreeMap<String, AnyJson>,
}

/// A rule that matched
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct Evaluation {
    rule: String,
    verb: ActName,
    stop_reason: Option<StopReasonName>,
    message: Option<String>,
    file: Option<String>,
    line: Option<u32>,
    priority: i64,
}

/// A `set` applied
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct Effect {
    rule: String,
    key: String,
    value: AnyJson,
}

/// A run script (docs/cli.md `run`)
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct Script {
    turns: Option<Vec<Turn>>,
    tools: Option<BTreeMap<String, Tool>>,
    approver: Option<ApprovalName>,
    max_retries: Option<u64>,
    metadata: Option<BTreeMap<String, AnyJson>>,
    clock_ms_per_step: Option<u64>,
    /// Run as a sub-agent: stop hooks fire `subagent_stop`
    subagent: Option<bool>,
    /// The user's prompt that starts the run; every event sees it as `prompt`
    prompt: Option<String>,
}

/// A scenario file: a run script and what its run must report
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct Scenario {
    #[serde(flatten)]
    script: Script,
    /// Keys of the run's report and the values they must have
    expect: BTreeMap<String, AnyJson>,
}

/// One model call of a script: an answer, or an `error`
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct Turn {
    response: Option<String>,
    tool_calls: Option<Vec<ToolCall>>,
    finish_reason: Option<FinishReasonName>,
    usage: Option<Usage>,
    error: Option<ScriptError>,
}

/// A tool call the model makes
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct ToolCall {
    id: Option<String>,
    name: String,
    args: Option<AnyJson>,
}

/// Tokens a model call used
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct Usage {
    input: Option<u64>,
    output: Option<u64>,
}

/// A failing model call
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct ScriptError {
    kind: ErrorKindName,
    message: Option<String>,
}

/// A scripted tool: `output` or `error`
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct Tool {
    output: Option<String>,
    error: Option<String>,
}

/// The report of a run (docs/cli.md `run`)
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct RunReport {
    status: StatusName,
    stop_reason: StopReasonName,
    resolved_by: Option<String>,
    message: Option<String>,
    steps: u64,
    tokens: u64,
    errors: u64,
    tool_calls: Vec<ToolCallReport>,
    events: Vec<EventReport>,
    metadata: BTreeMap<String, AnyJson>,
}

/// A tool call attempt
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct ToolCallReport {
    step: u64,
    tool: String,
    decision: DecisionName,
    executed: bool,
    error: Option<String>,
}

/// An event that fired
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct EventReport {
    step: u64,
    event: EventName,
    decision: DecisionName,
    resolved_by: Option<String>,
}

/// The compiled policy (`{"format": "rulesc-policy", "version": 2}`); conditions are the
/// runtime's own postfix form, described only as JSON
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct CompiledPolicy {
    format: FormatName,
    version: FormatVersion,
    defaults: Option<BTreeMap<String, AnyJson>>,
    rules: Vec<CompiledRule>,
}

/// The format's version
struct FormatVersion;

impl JsonSchema for FormatVersion {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "FormatVersion".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"const": rulesc_runtime::FORMAT_VERSION})
    }
}

/// One compiled rule
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct CompiledRule {
    id: String,
    events: Vec<EventName>,
    condition: Option<Vec<AnyJson>>,
    action: AnyJson,
    priority: Option<i64>,
    origin: Option<AnyJson>,
}

/// Every event name a host sends, once each
fn host_event_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = Host::ALL.into_iter().flat_map(Host::event_names).collect();
    names.sort_unstable();
    names.dedup();
    names
}

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

/// The report of a replay (docs/replay.md)
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct ReplayReport {
    /// Every replayed session, in the order read
    sessions: Vec<ReplaySession>,
    /// Per rule id, its mode and how many times it decided each verb
    rules: BTreeMap<String, ReplayRule>,
    totals: ReplayTotals,
    /// Lines that could not be replayed
    warnings: Vec<ReplayWarning>,
}

/// One replayed session
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct ReplaySession {
    /// The trace, as named on the command line
    file: String,
    session: String,
    /// The rulesc events evaluated
    events: u64,
    findings: Vec<ReplayFinding>,
}

/// What the policy decided on one replayed event
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct ReplayFinding {
    /// The trace line that made the event
    line: u64,
    step: u64,
    event: EventName,
    tool: Option<String>,
    /// The call, on tool events: its key argument (the command, the file path, the URL),
    /// else its arguments as JSON, on one line of at most 80 characters (`…` when cut)
    call: Option<String>,
    decision: FindingName,
    rule: Option<String>,
    message: Option<String>,
    mode: ModeName,
}

/// What one rule decided over a replay
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct ReplayRule {
    mode: ModeName,
    /// How many times it decided each verb
    decisions: BTreeMap<String, u64>,
}

/// The replay's counts
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct ReplayTotals {
    sessions: u64,
    events: u64,
    findings: u64,
}

/// A line of a trace that could not be replayed
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct ReplayWarning {
    file: String,
    /// From 1; 0 for the file as a whole
    line: u64,
    reason: String,
}

/// What two versions of a policy decide differently over the same sessions
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct ReplayDiff {
    /// The sessions where they differ
    sessions: Vec<DiffSession>,
    warnings: Vec<ReplayWarning>,
}

/// One session where two versions differ
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a description for schemars, never built")]
struct DiffSession {
    file: String,
    session: String,
    /// What only the old version decided
    only_old: Vec<ReplayFinding>,
    /// What only the new version decided
    only_new: Vec<ReplayFinding>,
}
