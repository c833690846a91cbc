//! The table of diagnostic codes: one row per code, with its constructor right below it.
//!
//! Invariant: codes are permanent. A code is never renumbered or reused; a retired code
//! stays in [`ALL`] with its explanation saying so. Every diagnostic the compiler emits is
//! built by the constructor next to its row, so a search for `E012` finds everything about
//! it. Messages follow STYLE §2.3: lowercase, no final period, user text in backticks.
//!
//! Numbering: `E00x` input and syntax, `E01x` names, `E02x` types and literals, `E03x` the
//! structure of files and policy sets, `E04x` shell conditions, `E05x` trace functions
//! (`codes/trace.rs`), `E06x` arithmetic and list quantifiers (`codes/expression.rs`); `W0xx`
//! are lints (see `lint/`).

use rulesc_grammar::Span;
use rulesc_runtime::{EventKind, Field, PolicyError, StopReason, Verb};

use crate::diagnostic::{Code, Diagnostic, Label, Severity};
use crate::source::FileId;

mod expression;
mod trace;

pub(crate) use expression::{
    arithmetic_on_non_number, division_by_zero, duration_product, mixed_units,
    quantifier_over_scalar, quantifier_without_field, set_value_not_a_number,
};
pub use expression::{
    ARITHMETIC_ON_NON_NUMBER, DIVISION_BY_ZERO, DURATION_PRODUCT, MIXED_UNITS,
    QUANTIFIER_OVER_SCALAR, QUANTIFIER_WITHOUT_FIELD, SET_VALUE_NOT_A_NUMBER,
};

pub(crate) use trace::{
    invalid_from, invalid_label, invalid_trace_test, invalid_window, label_never_attached,
    nested_trace, same_call_not_visible, trace_field_not_visible,
};
pub use trace::{
    INVALID_FROM, INVALID_LABEL, INVALID_TRACE_TEST, INVALID_WINDOW, LABEL_NEVER_ATTACHED,
    NESTED_TRACE, SAME_CALL_NOT_VISIBLE, TRACE_FIELD_NOT_VISIBLE,
};

/// Every code, in code order
pub const ALL: &[Code] = &[
    SYNTAX_ERROR,
    NESTING_TOO_DEEP,
    FILE_TOO_LARGE,
    INVALID_UTF8,
    UNKNOWN_EVENT,
    UNKNOWN_FIELD,
    FIELD_NOT_VISIBLE,
    UNKNOWN_VERB,
    VERB_NOT_ALLOWED,
    UNKNOWN_STOP_REASON,
    UNEXPECTED_STOP_REASON,
    PATH_TOO_LONG,
    TYPE_MISMATCH,
    INVALID_LITERAL,
    INVALID_GLOB,
    INVALID_REGEX,
    STRING_TOO_LONG,
    DUPLICATE_RULE_ID,
    CONFLICTING_DEFAULTS,
    INVALID_DEFAULT,
    INVALID_ANNOTATION,
    MISPLACED_HEADER,
    INVALID_SET_TARGET,
    INVALID_TEST,
    POLICY_REJECTED,
    TOO_MANY_RULES,
    INVALID_SHELL_CONDITION,
    INVALID_WINDOW,
    INVALID_TRACE_TEST,
    TRACE_FIELD_NOT_VISIBLE,
    NESTED_TRACE,
    SAME_CALL_NOT_VISIBLE,
    INVALID_FROM,
    INVALID_LABEL,
    ARITHMETIC_ON_NON_NUMBER,
    MIXED_UNITS,
    DURATION_PRODUCT,
    DIVISION_BY_ZERO,
    QUANTIFIER_WITHOUT_FIELD,
    SET_VALUE_NOT_A_NUMBER,
    PROJECT_WIDENS_USER_POLICY,
    CONFLICTING_EFFECTS,
    DEAD_RULE,
    CONSTANT_CONDITION,
    CONFLICTING_VERBS,
    UNBOUNDED_REQUEST,
    METADATA_NEVER_READ,
    METADATA_NEVER_SET,
    EVENT_NOT_SENT_BY_HOST,
    VERB_NOT_HONOURED_BY_HOST,
    FIELD_NOT_FILLED_BY_HOST,
    LITERAL_BRACES_IN_GLOB,
    FIELD_NEVER_FILLED,
    LABEL_NEVER_ATTACHED,
    QUANTIFIER_OVER_SCALAR,
    GLOB_SPELLS_BOTH_CASES,
];

/// The code spelled `id` (`E012`, case-insensitive) or named `name` (`field-not-visible`)
pub fn lookup(id_or_name: &str) -> Option<Code> {
    ALL.iter()
        .find(|code| code.id.eq_ignore_ascii_case(id_or_name) || code.name == id_or_name)
        .copied()
}

/// `a`, `a and b`, `a, b and c`
pub(crate) fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    joined_list(items, "and")
}

/// `items` separated by commas, the last two by `conjunction`
fn joined_list<S: AsRef<str>>(items: &[S], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [only] => only.as_ref().to_owned(),
        [init @ .., last] => format!(
            "{} {conjunction} {}",
            init.iter()
                .map(|item| item.as_ref())
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

/// Each event name in backticks, joined with `and_list`
fn ticked_events(events: &[EventKind]) -> String {
    and_list(
        &events
            .iter()
            .map(|event| format!("`{event}`"))
            .collect::<Vec<_>>(),
    )
}

/// Event names without backticks, joined with `and_list` (for help lines)
fn plain_events(events: &[EventKind]) -> String {
    and_list(&events.iter().map(|event| event.name()).collect::<Vec<_>>())
}

/// ` (did you mean `x`?)` help for a name that is close to a known one
fn did_you_mean(suggestion: Option<&str>) -> Option<String> {
    suggestion.map(|name| format!("did you mean `{name}`?"))
}

// ---------------------------------------------------------------------------------------
// E00x: input and syntax

/// E001: the text does not follow the grammar
pub const SYNTAX_ERROR: Code = Code {
    id: "E001",
    name: "syntax-error",
    severity: Severity::Error,
    summary: "the text is not valid `.rules` syntax",
    what: "Text the parser cannot read: a missing verb, an unclosed string or bracket, a \
           keyword in the wrong place. The parser skips to the next item (`@`, `on`, `test`, \
           `default`, `policy`) and goes on, so every syntax error of a file is reported.",
    why: "A rule that cannot be parsed cannot guard anything; the policy is not compiled \
          until every file parses.",
    wrong: "on pre_tool_use when tool ~ \"rm*\" \"destructive command\"",
    right: "on pre_tool_use when tool ~ \"rm*\" block \"destructive command\"",
};

/// Builds E001 from what the parser expected and what it found (both in user words)
pub(crate) fn syntax_error(
    file: FileId,
    span: Span,
    expected: &[String],
    found: &str,
) -> Diagnostic {
    let wanted = expected_words(expected);
    Diagnostic::new(
        SYNTAX_ERROR,
        format!("expected {wanted}, found {found}"),
        Label::new(file, span, format!("expected {wanted}")),
    )
}

/// The parser's expectations as one phrase: `a condition`, `` `when` or a verb ``
fn expected_words(expected: &[String]) -> String {
    if expected.is_empty() {
        "something else".to_owned()
    } else {
        or_list(expected)
    }
}

/// `a`, `a or b`, `a, b or c`
pub(crate) fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    joined_list(items, "or")
}

/// E002: conditions, lists or objects nested too deep
pub const NESTING_TOO_DEEP: Code = Code {
    id: "E002",
    name: "nesting-too-deep",
    severity: Severity::Error,
    summary: "parentheses, lists or objects are nested deeper than the parser allows",
    what: "A condition, list or test object nested more than 256 levels deep.",
    why: "No policy needs such depth, and bounding it keeps the compiler from exhausting its \
          stack on hostile input.",
    wrong: "# a condition opened by 300 parentheses\n\
            on before_step when ((((((((( ... steps > 1 ... ))))))))) forbid",
    right: "on before_step when steps > 1 forbid",
};

/// Builds E002 at the place where the limit was crossed
pub(crate) fn nesting_too_deep(file: FileId, span: Span, limit: usize) -> Diagnostic {
    Diagnostic::new(
        NESTING_TOO_DEEP,
        format!("nesting is deeper than {limit} levels"),
        Label::new(file, span, "too deep here"),
    )
    .with_help("split the condition into several rules or flatten it")
}

/// E003: the file is larger than the parser accepts
pub const FILE_TOO_LARGE: Code = Code {
    id: "E003",
    name: "file-too-large",
    severity: Severity::Error,
    summary: "the file is larger than the compiler accepts",
    what: "A source file larger than 8 MiB. It is not parsed at all.",
    why: "Policies are small; a file this large is almost surely not a policy, and bounding \
          the size bounds the compiler's time and memory.",
    wrong: "# a 9 MiB file of rules",
    right: "# the same rules split over several files in one directory",
};

/// Builds E003
pub(crate) fn file_too_large(file: FileId, size: usize, limit: usize) -> Diagnostic {
    Diagnostic::new(
        FILE_TOO_LARGE,
        format!("the file has {size} bytes, more than the limit of {limit}"),
        Label::new(file, Span::new(0, 0), "file starts here"),
    )
    .with_help("split the policy into several files in one directory")
}

/// E004: the file is not UTF-8
pub const INVALID_UTF8: Code = Code {
    id: "E004",
    name: "invalid-utf8",
    severity: Severity::Error,
    summary: "the file is not valid UTF-8",
    what: "A source file whose bytes are not UTF-8 text (for example a Latin-1 file, or a \
           binary file). The first invalid byte is shown; the file is not parsed.",
    why: "Policies compare strings byte for byte; guessing an encoding would make `tool == \
          \"café\"` match something else than what was written.",
    wrong: "# a file saved as Latin-1: `é` is the single byte 0xE9\n\
            on pre_tool_use when tool == \"caf\\xE9\" block",
    right: "on pre_tool_use when tool == \"café\" block",
};

/// Builds E004 at the first invalid byte
pub(crate) fn invalid_utf8(file: FileId, offset: u32) -> Diagnostic {
    Diagnostic::new(
        INVALID_UTF8,
        "the file is not valid UTF-8",
        Label::new(file, Span::new(offset, offset), "first invalid byte"),
    )
    .with_help("save the file as UTF-8")
}

// ---------------------------------------------------------------------------------------
// E01x: names

/// E010: an event name that does not exist
pub const UNKNOWN_EVENT: Code = Code {
    id: "E010",
    name: "unknown-event",
    severity: Severity::Error,
    summary: "the event name does not exist",
    what: "A name after `on`, `default` or `event` (in a test) that is not one of the \
           lifecycle events: execution_start, before_step, before_inference, \
           after_inference, pre_tool_use, post_tool_use, after_step, on_error, stop, \
           subagent_stop, execution_end.",
    why: "A rule on an event that never fires would never guard anything.",
    wrong: "on pre_tool when tool ~ \"rm*\" block",
    right: "on pre_tool_use when tool ~ \"rm*\" block",
};

/// Builds E010 with the nearest event name as help
pub(crate) fn unknown_event(
    file: FileId,
    span: Span,
    name: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let names = EventKind::ALL.map(EventKind::name);
    let label = Label::new(file, span, "not an event");
    unknown_name(UNKNOWN_EVENT, "event", label, name, suggestion, &names)
}

/// E011: a field name that does not exist
pub const UNKNOWN_FIELD: Code = Code {
    id: "E011",
    name: "unknown-field",
    severity: Severity::Error,
    summary: "the field does not exist",
    what: "A name in a condition that is not a field of any event (docs/language.md §4.1), a \
           field written with a path it does not have (`tool.name`), or `arg` and \
           `metadata` without a key.",
    why: "A condition on a field that does not exist could never be evaluated.",
    wrong: "on before_step when step_count > 20 forbid",
    right: "on before_step when steps > 20 forbid",
};

/// Builds E011; `help` is the suggestion or the reason the path is wrong
pub(crate) fn unknown_field(
    file: FileId,
    span: Span,
    name: &str,
    help: Option<String>,
) -> Diagnostic {
    let diag = Diagnostic::new(
        UNKNOWN_FIELD,
        format!("unknown field `{name}`"),
        Label::new(file, span, "not a field"),
    );
    match help {
        Some(help) => diag.with_help(help),
        None => diag,
    }
}

/// The help of E011 for a name close to a known field
pub(crate) fn unknown_field_help(suggestion: Option<&str>) -> Option<String> {
    did_you_mean(suggestion)
}

/// E012: a field used on an event that cannot see it
pub const FIELD_NOT_VISIBLE: Code = Code {
    id: "E012",
    name: "field-not-visible",
    severity: Severity::Error,
    summary: "the field is not visible on the rule's event",
    what: "A field that exists, used in a rule on an event that does not carry it: `tool` on \
           `before_step`, `response` on `pre_tool_use`. On a rule with several events the \
           field must be visible on every one of them.",
    why: "The field would always be missing there, so the condition could never hold as \
          written.",
    wrong: "on before_step when tool ~ \"rm*\" forbid",
    right: "on pre_tool_use when tool ~ \"rm*\" forbid",
};

/// Builds E012: `field` at `span` is not visible on `events` (written at `event_spans`)
pub(crate) fn field_not_visible(
    file: FileId,
    span: Span,
    field: &Field,
    events: &[(EventKind, Span)],
) -> Diagnostic {
    let kinds: Vec<EventKind> = events.iter().map(|(kind, _)| *kind).collect();
    let mut diag = Diagnostic::new(
        FIELD_NOT_VISIBLE,
        format!(
            "field `{field}` is not visible in {}",
            ticked_events(&kinds)
        ),
        Label::new(file, span, "not visible here"),
    );
    for (kind, event_span) in events {
        diag = diag.with_secondary(Label::new(
            file,
            *event_span,
            format!("rule fires on `{kind}`"),
        ));
    }
    let visible = field.visible_events();
    diag.with_help(format!(
        "`{field}` exists only in {}; move this condition to {}",
        plain_events(&visible),
        if visible.len() == 1 {
            "that event"
        } else {
            "one of those events"
        }
    ))
}

/// E013: a verb that does not exist
pub const UNKNOWN_VERB: Code = Code {
    id: "E013",
    name: "unknown-verb",
    severity: Severity::Error,
    summary: "the verb does not exist",
    what: "A word in the place of a verb, in a rule, a `default` or an `expect`, that is not \
           one of forbid, request, allow_stop, allow, block, ask, retry, ignore (or `none` \
           in an `expect`).",
    why: "The rule would not say what to do.",
    wrong: "on pre_tool_use when tool ~ \"rm*\" deny",
    right: "on pre_tool_use when tool ~ \"rm*\" block",
};

/// Builds E013 with the nearest verb as help
pub(crate) fn unknown_verb(
    file: FileId,
    span: Span,
    name: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let names = Verb::ALL.map(Verb::name);
    let label = Label::new(file, span, "not a verb");
    unknown_name(UNKNOWN_VERB, "verb", label, name, suggestion, &names)
}

/// E014: a verb on an event that does not allow it
pub const VERB_NOT_ALLOWED: Code = Code {
    id: "E014",
    name: "verb-not-allowed",
    severity: Severity::Error,
    summary: "the verb is not allowed on the rule's event",
    what:
        "A verb used on an event where it means nothing (docs/language.md §4.2): `block` outside \
           `pre_tool_use`, `retry` outside `on_error`, any verb on `execution_end`. On a rule \
           with several events the verb must be allowed on every one of them.",
    why: "The decision could never take effect there; the rule would silently do nothing.",
    wrong: "on before_step when steps > 20 block",
    right: "on before_step when steps > 20 forbid",
};

/// Builds E014: `verb` at `span` is not allowed on `events` (written at their spans)
pub(crate) fn verb_not_allowed(
    file: FileId,
    span: Span,
    verb: Verb,
    events: &[(EventKind, Span)],
) -> Diagnostic {
    let kinds: Vec<EventKind> = events.iter().map(|(kind, _)| *kind).collect();
    let mut diag = Diagnostic::new(
        VERB_NOT_ALLOWED,
        format!("`{verb}` is not allowed on {}", ticked_events(&kinds)),
        Label::new(file, span, "not allowed here"),
    );
    for (kind, event_span) in events {
        diag = diag.with_secondary(Label::new(
            file,
            *event_span,
            format!("rule fires on `{kind}`"),
        ));
    }
    let allowed = verb.allowed_events();
    diag.with_help(format!(
        "`{verb}` is allowed only on {}",
        plain_events(&allowed)
    ))
}

/// E015: a stop reason that does not exist
pub const UNKNOWN_STOP_REASON: Code = Code {
    id: "E015",
    name: "unknown-stop-reason",
    severity: Severity::Error,
    summary: "the stop reason does not exist",
    what: "A word after `forbid` or `allow_stop` (or in an `expect`) that is not one of the \
           stop reasons: completed, steps_limit_reached, token_limit_reached, \
           time_limit_reached, retry_limit_reached, error_forbade, finish_reason_received, \
           guard_forbade, stop_requested, user_requested.",
    why: "The stop reason decides the status of the finished run; an unknown one has no \
          status.",
    wrong: "on before_step when steps >= 20 forbid step_limit",
    right: "on before_step when steps >= 20 forbid steps_limit_reached",
};

/// Builds E015 with the nearest stop reason as help
pub(crate) fn unknown_stop_reason(
    file: FileId,
    span: Span,
    name: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let names = StopReason::ALL.map(StopReason::name);
    let label = Label::new(file, span, "not a stop reason");
    unknown_name(
        UNKNOWN_STOP_REASON,
        "stop reason",
        label,
        name,
        suggestion,
        &names,
    )
}

/// A name that is no known `kind`: the nearest known name as help, else every known one
fn unknown_name(
    code: Code,
    kind: &str,
    label: Label,
    name: &str,
    suggestion: Option<&str>,
    known: &[&str],
) -> Diagnostic {
    let help = did_you_mean(suggestion).unwrap_or_else(|| format!("use one of {}", or_list(known)));
    Diagnostic::new(code, format!("unknown {kind} `{name}`"), label).with_help(help)
}

/// E016: a stop reason after a verb that takes none
pub const UNEXPECTED_STOP_REASON: Code = Code {
    id: "E016",
    name: "unexpected-stop-reason",
    severity: Severity::Error,
    summary: "the verb takes no stop reason",
    what: "A stop reason after a verb other than `forbid` or `allow_stop` (or after `none` \
           in an `expect`).",
    why: "Only decisions that stop the run have a stop reason; on any other verb it would \
          be ignored.",
    wrong: "on pre_tool_use when tool == \"rm\" block completed",
    right: "on pre_tool_use when tool == \"rm\" block \"no rm\"",
};

/// Builds E016: `verb` (at `verb_span`) has a stop reason at `span`
pub(crate) fn unexpected_stop_reason(
    file: FileId,
    span: Span,
    verb: &str,
    verb_span: Span,
) -> Diagnostic {
    Diagnostic::new(
        UNEXPECTED_STOP_REASON,
        format!("`{verb}` takes no stop reason"),
        Label::new(file, span, "stop reason"),
    )
    .with_secondary(Label::new(
        file,
        verb_span,
        "this verb does not stop the run",
    ))
    .with_help("remove the stop reason; only `forbid` and `allow_stop` take one")
}

/// E017: a field path with more parts than the runtime accepts
pub const PATH_TOO_LONG: Code = Code {
    id: "E017",
    name: "path-too-long",
    severity: Severity::Error,
    summary: "the field path has more parts than the limit",
    what: "A path under `arg` or `metadata` with more than 32 parts after its root \
           (`arg.a.b[0]` has three), in a condition or as the target of `set`.",
    why: "Each part of a `set` key is one level of nested JSON in the execution's metadata; \
          bounding them keeps metadata readable by every JSON reader, checkpoints and hook \
          state included, and keeps hostile policies from exhausting a stack.",
    wrong: "on post_tool_use set metadata.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a = true",
    right: "on post_tool_use set metadata.seen.web = true",
};

/// Builds E017 for the `n_parts` parts at `span`
pub(crate) fn path_too_long(file: FileId, span: Span, n_parts: usize, limit: usize) -> Diagnostic {
    Diagnostic::new(
        PATH_TOO_LONG,
        format!("the field path has {n_parts} parts, more than the limit of {limit}"),
        Label::new(file, span, "too many parts"),
    )
    .with_help("test or set a shorter key; have the host flatten deep values into shorter keys")
}

// ---------------------------------------------------------------------------------------
// E02x: types and literals

/// E020: values of different types compared, or an operator used on the wrong type
pub const TYPE_MISMATCH: Code = Code {
    id: "E020",
    name: "type-mismatch",
    severity: Severity::Error,
    summary: "the operand does not have the type the operator needs",
    what: "A comparison whose sides have different types (`tool > 3`, `elapsed > 30` where a \
           duration such as `30s` is needed), an ordering (`<`, `>`) on strings or bools, `~` \
           or `=~` on a field that is not a string or with a pattern that is not a string \
           literal, `in` without a list literal, `contains` on a number, or a bare field \
           used as a condition that is not a bool. `arg.*` and `metadata.*` are typed at run time and never mismatch here.",
    why: "Such a comparison could never hold (or would hold by accident), so the rule would \
          not do what it says.",
    wrong: "on pre_tool_use when tool > 3 block",
    right: "on pre_tool_use when tool == \"deploy\" block",
};

/// Builds E020: `found` (a type description) at `span` where `message` explains the need
pub(crate) fn type_mismatch(
    file: FileId,
    span: Span,
    message: String,
    label: String,
    other: Option<(Span, String)>,
    help: Option<String>,
) -> Diagnostic {
    let mut diag = Diagnostic::new(TYPE_MISMATCH, message, Label::new(file, span, label));
    if let Some((other_span, other_label)) = other {
        diag = diag.with_secondary(Label::new(file, other_span, other_label));
    }
    match help {
        Some(help) => diag.with_help(help),
        None => diag,
    }
}

/// E021: a literal that cannot be decoded
pub const INVALID_LITERAL: Code = Code {
    id: "E021",
    name: "invalid-literal",
    severity: Severity::Error,
    summary: "the literal cannot be read",
    what: "An integer larger than 9223372036854775807 (after its `k` or `m` suffix), a \
           duration longer than the runtime counts or with an unknown unit, a string with an \
           unknown escape (only `\\\" \\\\ \\n \\t \\u{..}` exist) or a `\\u{..}` that is not a \
           Unicode scalar value.",
    why: "The compiler never guesses a value: a silently wrapped number or a dropped escape \
          would make the rule test something else than what was written.",
    wrong: "on before_step when tokens > 99999999999999999999 forbid",
    right: "on before_step when tokens > 200k forbid",
};

/// Builds E021 at the offending part of the literal
pub(crate) fn invalid_literal(
    file: FileId,
    span: Span,
    message: String,
    help: Option<String>,
) -> Diagnostic {
    let diag = Diagnostic::new(
        INVALID_LITERAL,
        message,
        Label::new(file, span, "invalid literal"),
    );
    match help {
        Some(help) => diag.with_help(help),
        None => diag,
    }
}

/// E022: a glob that does not compile
pub const INVALID_GLOB: Code = Code {
    id: "E022",
    name: "invalid-glob",
    severity: Severity::Error,
    summary: "the glob pattern after `~` is invalid",
    what: "A pattern after `~` that is not a valid glob: an unclosed class `[a`, an invalid \
           range `[z-a]`. (A pattern longer than 4096 bytes is E024.)",
    why: "An invalid pattern cannot match anything; it is rejected at compile time so it \
          never fails at run time.",
    wrong: "on pre_tool_use when tool ~ \"[a\" block",
    right: "on pre_tool_use when tool ~ \"[a]*\" block",
};

/// Builds E022 with the glob compiler's reason
pub(crate) fn invalid_glob(file: FileId, span: Span, reason: &str) -> Diagnostic {
    Diagnostic::new(
        INVALID_GLOB,
        format!("invalid glob pattern: {reason}"),
        Label::new(file, span, "invalid glob"),
    )
    .with_help("write `*`, `?`, `[abc]`, `[a-z]` or `[!a]`; escape a literal `*` as `\\\\*`")
}

/// E023: a regular expression that does not compile
pub const INVALID_REGEX: Code = Code {
    id: "E023",
    name: "invalid-regex",
    severity: Severity::Error,
    summary: "the regular expression after `=~` is invalid",
    what: "A pattern after `=~` that is not a valid Rust `regex` expression (an unclosed \
           group, a look-around, which the linear-time engine does not support), or one that \
           compiles to more than the size limit.",
    why: "An invalid pattern cannot match anything; it is rejected at compile time so it \
          never fails at run time.",
    wrong: "on pre_tool_use when arg.command =~ \"(rm|mv\" block",
    right: "on pre_tool_use when arg.command =~ \"(rm|mv) \" block",
};

/// Builds E023 with the regex compiler's reason
pub(crate) fn invalid_regex(file: FileId, span: Span, reason: &str) -> Diagnostic {
    Diagnostic::new(
        INVALID_REGEX,
        format!("invalid regular expression: {reason}"),
        Label::new(file, span, "invalid regular expression"),
    )
    .with_help("use Rust `regex` syntax; look-around and backreferences are not supported")
}

/// E024: a string longer than the runtime accepts
pub const STRING_TOO_LONG: Code = Code {
    id: "E024",
    name: "string-too-long",
    severity: Severity::Error,
    summary: "the string is longer than the limit",
    what: "A string literal longer than 4096 bytes once its escapes are decoded: a message, \
           an id, a value compared or set, a glob or a regular expression.",
    why: "Messages are copied into every outcome that names their rule, and patterns are \
          compiled and run on every event; bounding strings keeps outcomes small and \
          evaluation fast, whatever a policy file holds.",
    wrong: "# a rule whose message is a 5,000-character string\n\
            on pre_tool_use when tool == \"rm\" block \"...\"",
    right: "on pre_tool_use when tool == \"rm\" block \"no rm: see the runbook\"",
};

/// Builds E024 for the string at `span`, `len` bytes once decoded
pub(crate) fn string_too_long(file: FileId, span: Span, len: usize, limit: usize) -> Diagnostic {
    Diagnostic::new(
        STRING_TOO_LONG,
        format!("the string has {len} bytes, more than the limit of {limit}"),
        Label::new(file, span, "string too long"),
    )
    .with_help("shorten it; keep long texts with the host and name them in the policy")
}

// ---------------------------------------------------------------------------------------
// E03x: structure of files and policy sets

/// E030: two rules with the same id
pub const DUPLICATE_RULE_ID: Code = Code {
    id: "E030",
    name: "duplicate-rule-id",
    severity: Severity::Error,
    summary: "two rules have the same id",
    what: "Two rules of one policy set, in the same file or in different files, with the \
           same `@id(..)`, or an `@id` equal to another rule's default id (`file:line`).",
    why: "Outcomes name the rule that decided by its id; with two rules of one id, an \
          outcome could not say which one it was.",
    wrong: "@id(\"no-rm\")\non pre_tool_use when tool == \"rm\" block\n\n\
            @id(\"no-rm\")\non pre_tool_use when tool == \"rmdir\" block",
    right: "@id(\"no-rm\")\non pre_tool_use when tool == \"rm\" block\n\n\
            @id(\"no-rmdir\")\non pre_tool_use when tool == \"rmdir\" block",
};

/// Builds E030: `id` at `span` was first used at `first`
pub(crate) fn duplicate_rule_id(
    file: FileId,
    span: Span,
    id: &str,
    first: (FileId, Span),
) -> Diagnostic {
    Diagnostic::new(
        DUPLICATE_RULE_ID,
        format!("rule id `{id}` is used twice"),
        Label::new(file, span, "second use"),
    )
    .with_secondary(Label::new(first.0, first.1, "first used here"))
    .with_help("give each rule its own `@id`")
}

/// E031: two different defaults for one event
pub const CONFLICTING_DEFAULTS: Code = Code {
    id: "E031",
    name: "conflicting-defaults",
    severity: Severity::Error,
    summary: "two different defaults for the same event",
    what: "Two `default` lines for one event with different verbs, in one file or across the \
           files of a policy set. The same default written twice is accepted.",
    why: "A default applies when no rule decided; with two of them the policy would depend on \
          which one wins, and outcomes must never depend on the order of files.",
    wrong: "default pre_tool_use ask\ndefault pre_tool_use block",
    right: "default pre_tool_use ask",
};

/// Builds E031: the default at `span` conflicts with the one at `first`
pub(crate) fn conflicting_defaults(
    file: FileId,
    span: Span,
    event: EventKind,
    verbs: (Verb, Verb),
    first: (FileId, Span),
) -> Diagnostic {
    let (first_verb, verb) = verbs;
    Diagnostic::new(
        CONFLICTING_DEFAULTS,
        format!("conflicting defaults for `{event}`: `{first_verb}` and `{verb}`"),
        Label::new(file, span, format!("default `{verb}`")),
    )
    .with_secondary(Label::new(
        first.0,
        first.1,
        format!("default `{first_verb}` first set here"),
    ))
    .with_help(format!("keep one default for `{event}`"))
}

/// E066: a project's policy that would weaken the user's own in one set
pub const PROJECT_WIDENS_USER_POLICY: Code = Code {
    id: "E066",
    name: "project-widens-user-policy",
    severity: Severity::Error,
    summary: "a project's policy changes the state the user's policy keeps, or weakens a default",
    what: "In a policy set with files of the user's own policy (under the user's rulesc \
           folder, `~/.config/rulesc/`) and of a project's: a project rule that sets a \
           metadata key that a rule of the user's policy sets or reads, or a project \
           `default` weaker than what the user's policy gets without one (`default on_error \
           ignore` where an unhandled error would stop the run). docs/layers.md has the model.",
    why: "A project's policy comes with the code the agent works on, and may be written by \
          anyone who can write to that code. It may add guards, but if it could rewrite the \
          user's state it could clear a taint the user's policy set (`set metadata.tainted = \
          false`) or grant what a user's rule waits for, and the user's guard would let \
          through what it was written to stop.",
    wrong: "# ~/.config/rulesc/guard.rules\n\
            on post_tool_use when tool == \"web_fetch\" set metadata.tainted = true\n\
            # .rulesc/project.rules\n\
            on post_tool_use set metadata.tainted = false",
    right: "on post_tool_use when tool == \"web_fetch\" set metadata.tainted = true\n\
            on post_tool_use when tool == \"web_fetch\" set metadata.project_fetched = true",
};

/// Builds E066 at the `set` of `rules.0` (a project's), on `key` (a path after `metadata`),
/// which `rules.1` of the user's policy, at `keeper`, sets or reads
pub(crate) fn project_resets_user_state(
    file: FileId,
    span: Span,
    rules: (&str, &str),
    key: &str,
    keeper: (FileId, Span),
) -> Diagnostic {
    let (rule, user_rule) = rules;
    Diagnostic::new(
        PROJECT_WIDENS_USER_POLICY,
        format!(
            "rule `{rule}` of the project's policy sets `metadata{key}`, which the user's policy keeps"
        ),
        Label::new(file, span, "changes the user's state"),
    )
    .with_secondary(Label::new(
        keeper.0,
        keeper.1,
        format!("rule `{user_rule}` of the user's policy"),
    ))
    .with_help("a project's policy may add guards, not change the user's state: give this value a key of its own")
}

/// Builds E066 at a project's `default` on `event` of `verbs.0`, weaker than `verbs.1`,
/// what the user's policy gets without a default
pub(crate) fn project_widens_default(
    file: FileId,
    span: Span,
    event: EventKind,
    verbs: (Verb, Verb),
) -> Diagnostic {
    let (verb, fallback) = verbs;
    Diagnostic::new(
        PROJECT_WIDENS_USER_POLICY,
        format!(
            "the project's `default {event} {verb}` is weaker than `{fallback}`, what the user's policy gets on `{event}`"
        ),
        Label::new(file, span, "weakens the user's policy"),
    )
    .with_help(format!(
        "declare the default in the user's policy, or leave it out of the project's (without one, `{event}` gets `{fallback}`)"
    ))
}

/// E032: a default on an event or with a verb that has no default
pub const INVALID_DEFAULT: Code = Code {
    id: "E032",
    name: "invalid-default",
    severity: Severity::Error,
    summary: "the default is not allowed",
    what: "A `default` on an event other than `pre_tool_use` and `on_error`, or with a verb \
           that is not a default of that event: `pre_tool_use` takes allow, ask or block; \
           `on_error` takes forbid, retry or ignore.",
    why: "Only tool calls and errors have a decision when no rule decided; anywhere else a \
          default would mean nothing.",
    wrong: "default pre_tool_use retry",
    right: "default pre_tool_use ask",
};

/// Builds E032 for an event that has no default
pub(crate) fn event_without_default(file: FileId, span: Span, event: EventKind) -> Diagnostic {
    Diagnostic::new(
        INVALID_DEFAULT,
        format!("`{event}` has no default"),
        Label::new(file, span, "no default for this event"),
    )
    .with_help("defaults exist only for pre_tool_use (allow, ask, block) and on_error (forbid, retry, ignore)")
}

/// Builds E032 for a verb that is not a default of `event`
pub(crate) fn verb_not_default(
    file: FileId,
    span: Span,
    event: EventKind,
    verb: Verb,
    allowed: &[Verb],
) -> Diagnostic {
    Diagnostic::new(
        INVALID_DEFAULT,
        format!("`{verb}` cannot be the default of `{event}`"),
        Label::new(file, span, "not a default of this event"),
    )
    .with_help(format!(
        "the default of `{event}` is one of {}",
        or_list(&allowed.iter().map(|verb| verb.name()).collect::<Vec<_>>())
    ))
}

/// E033: an annotation that does not exist or is misused
pub const INVALID_ANNOTATION: Code = Code {
    id: "E033",
    name: "invalid-annotation",
    severity: Severity::Error,
    summary: "the annotation is unknown or misused",
    what: "An annotation other than `@id`, `@priority`, `@allow`, `@mode` and `@undecidable`, \
           one with the wrong arguments (`@id` takes one non-empty string, `@priority` one \
           integer, `@allow` one or more lints by code or name: `@allow(W005, dead-rule)`, \
           `@mode` the word `shadow` or `enforce`, `@undecidable` the word `ask`, `block` or \
           `pass`), an `@undecidable` on a rule that is no `block`, `ask` or `forbid`, has no \
           `shell(...)`, or asks on an event that takes no `ask`, an `@allow` of an \
           unknown lint or of an error code, the same annotation twice on one rule, or an \
           `@id` that uses a reserved name (`default`, or a name starting with `prelude:` or \
           `host:`, which name the runtime's own decisions).",
    why: "Ids and priorities decide which rule is named in an outcome; a misread annotation \
          would name the wrong one.",
    wrong: "@priority(\"high\")\non pre_tool_use when tool == \"rm\" block",
    right: "@priority(10)\non pre_tool_use when tool == \"rm\" block",
};

/// Builds E033 with its message, label and help
pub(crate) fn invalid_annotation(
    file: FileId,
    span: Span,
    message: String,
    label: &str,
    help: Option<String>,
) -> Diagnostic {
    let diag = Diagnostic::new(INVALID_ANNOTATION, message, Label::new(file, span, label));
    match help {
        Some(help) => diag.with_help(help),
        None => diag,
    }
}

/// Builds E033 for an annotation written twice on one rule
pub(crate) fn duplicate_annotation(
    file: FileId,
    span: Span,
    name: &str,
    first: Span,
) -> Diagnostic {
    Diagnostic::new(
        INVALID_ANNOTATION,
        format!("`@{name}` is given twice"),
        Label::new(file, span, "second one"),
    )
    .with_secondary(Label::new(file, first, "first one"))
    .with_help(format!("keep one `@{name}`"))
}

/// E034: a `policy` header that is not the first item, or a second one
pub const MISPLACED_HEADER: Code = Code {
    id: "E034",
    name: "misplaced-header",
    severity: Severity::Error,
    summary: "the `policy` header is not the first item of its file",
    what: "A `policy \"name\"` line after a rule, default or test, or a second one in the \
           same file.",
    why: "The header names the whole file; in the middle of it, a reader would take it for \
          the start of a new policy, which it is not.",
    wrong: "on stop when stop_requests < 3 request\npolicy \"stop-hygiene\"",
    right: "policy \"stop-hygiene\"\non stop when stop_requests < 3 request",
};

/// Builds E034 for a header after other items
pub(crate) fn header_not_first(file: FileId, span: Span, first_item: Span) -> Diagnostic {
    Diagnostic::new(
        MISPLACED_HEADER,
        "the `policy` header must be the first item of its file",
        Label::new(file, span, "header here"),
    )
    .with_secondary(Label::new(file, first_item, "first item"))
    .with_help("move the header to the top of the file")
}

/// Builds E034 for a second header in one file
pub(crate) fn repeated_header(file: FileId, span: Span, first: Span) -> Diagnostic {
    Diagnostic::new(
        MISPLACED_HEADER,
        "a file has at most one `policy` header",
        Label::new(file, span, "second header"),
    )
    .with_secondary(Label::new(file, first, "first header"))
    .with_help("remove one of the headers, or split the file in two")
}

/// E035: `set` on something else than `metadata.<key>`
pub const INVALID_SET_TARGET: Code = Code {
    id: "E035",
    name: "invalid-set-target",
    severity: Severity::Error,
    summary: "`set` can only write `metadata.<key>`",
    what: "A `set` effect whose target is an event field (`tool`, `steps`), `arg.*`, \
           `metadata` without a key, or a path with an index (`metadata.seen[0]`).",
    why: "Event fields describe what happened and are read-only; only the execution's \
          metadata remembers values for later rules.",
    wrong: "on post_tool_use when tool == \"web_fetch\" set tainted = true",
    right: "on post_tool_use when tool == \"web_fetch\" set metadata.tainted = true",
};

/// Builds E035
pub(crate) fn invalid_set_target(file: FileId, span: Span, target: &str) -> Diagnostic {
    Diagnostic::new(
        INVALID_SET_TARGET,
        format!("cannot set `{target}`"),
        Label::new(file, span, "not a metadata key"),
    )
    .with_help("`set` writes a key of the execution's metadata: `set metadata.<key> = <value>`")
}

/// E036: a test block that cannot run
pub const INVALID_TEST: Code = Code {
    id: "E036",
    name: "invalid-test",
    severity: Severity::Error,
    summary: "the inline test is malformed",
    what: "A `test` block with an `expect` before any `event`, an `event` without its \
           `expect`, no event at all, a field its event does not have or with a value of the \
           wrong type, a rule id in `by` that no rule has, or a name used by another test.",
    why: "A test that cannot run, or that names a rule that does not exist, would pass or \
          fail for the wrong reason.",
    wrong: "on pre_tool_use when tool == \"rm\" block\n\
            test \"rm is blocked\" {\n  expect block\n}",
    right: "on pre_tool_use when tool == \"rm\" block\n\
            test \"rm is blocked\" {\n  event pre_tool_use { tool: \"rm\" }\n  expect block\n}",
};

/// Builds E036 with its message, label and help
pub(crate) fn invalid_test(
    file: FileId,
    span: Span,
    message: String,
    label: &str,
    help: Option<String>,
) -> Diagnostic {
    let diag = Diagnostic::new(INVALID_TEST, message, Label::new(file, span, label));
    match help {
        Some(help) => diag.with_help(help),
        None => diag,
    }
}

/// E037, retired: the runtime refused a policy every check accepted
///
/// The compiler now builds its policy from rules the runtime's own check accepted one by
/// one, and reports a refusal with the code of the problem (`refused`).
pub const POLICY_REJECTED: Code = Code {
    id: "E037",
    name: "policy-rejected",
    severity: Severity::Error,
    summary: "retired: no longer reported",
    what: "Retired. This code was reported when the runtime refused a policy set that had \
           passed every check of the compiler. The compiler now has the runtime check each \
           rule as it is checked, and reports any refusal with the code of the problem \
           itself, at the rule, so this code is never reported.",
    why: "Codes are never reused: this number stays reserved so an old report that names it \
          still points here.",
    wrong: "# no policy produces this code",
    right: "# no policy produces this code",
};

/// What the runtime's check refused in a rule that lowering accepted, or in the set of
/// such rules, at `span`: reported with the code that names the same problem in source
///
/// Lowering reports each of these problems first, at its own span, so a refusal here means
/// the two disagree; the runtime's reason says which rule and why.
pub(crate) fn refused(file: FileId, span: Span, err: &PolicyError) -> Diagnostic {
    let code = match err {
        PolicyError::DuplicateId(_) => DUPLICATE_RULE_ID,
        PolicyError::ReservedId(_) => INVALID_ANNOTATION,
        PolicyError::VerbNotAllowed { .. } => VERB_NOT_ALLOWED,
        // The grammar has no rule without an event.
        PolicyError::NoEvents(_) => SYNTAX_ERROR,
        PolicyError::StopReasonNotAllowed { .. } => UNEXPECTED_STOP_REASON,
        PolicyError::DefaultNotAllowed { .. } => INVALID_DEFAULT,
        PolicyError::TooDeep(_) => NESTING_TOO_DEEP,
        PolicyError::InvalidTrace { .. } => INVALID_TRACE_TEST,
        PolicyError::TooManyRules { .. } => TOO_MANY_RULES,
        PolicyError::StringTooLong { .. } => STRING_TOO_LONG,
        PolicyError::PathTooLong { .. } => PATH_TOO_LONG,
        PolicyError::InvalidSetKey { .. } => INVALID_SET_TARGET,
        PolicyError::InvalidQuantifier(_) => QUANTIFIER_WITHOUT_FIELD,
        // A glob is matched as the regular expression it is translated to.
        PolicyError::InvalidPattern { .. } => INVALID_REGEX,
    };
    Diagnostic::new(
        code,
        format!("the runtime refused the policy: {err}"),
        Label::new(file, span, "refused here"),
    )
    .with_help("this is a bug in rulesc; please report it with this policy")
}

/// E038: more rules than the runtime accepts
pub const TOO_MANY_RULES: Code = Code {
    id: "E038",
    name: "too-many-rules",
    severity: Severity::Error,
    summary: "the policy set has more rules than the limit",
    what: "A policy set (all its files together) with more than 100,000 rules. The rules past \
           the limit are not checked further; the first of them is shown.",
    why: "Checking and evaluating grow with the number of rules; bounding it keeps the \
          compiler and every evaluation fast, whatever the files hold.",
    wrong: "# 100,001 rules in the files of one policy set",
    right: "# one rule for many tools: on pre_tool_use when tool in [\"rm\", \"dd\"] block",
};

/// Builds E038 at the `on` of the first rule past the limit
pub(crate) fn too_many_rules(file: FileId, span: Span, count: usize, limit: usize) -> Diagnostic {
    Diagnostic::new(
        TOO_MANY_RULES,
        format!("the policy set has {count} rules, more than the limit of {limit}"),
        Label::new(file, span, "first rule past the limit"),
    )
    .with_help("merge rules that do the same (`tool in [..]`), or split the policy set")
}

/// E040: a `shell(...)` condition that cannot be read
pub const INVALID_SHELL_CONDITION: Code = Code {
    id: "E040",
    name: "invalid-shell-condition",
    severity: Severity::Error,
    summary: "a `shell(...)` condition is not written as one",
    what: "Inside `shell(...)` or `shell.all(...)`: a word that is not `program`, `arg`, \
           `operand`, `path` or `redirect`; a comparison with something else than a string \
           (or a list of strings for `in`); an ordering (`<`, `>`); `flag(...)` without a \
           flag written with its dashes; `program_is(...)` without the name of a kind of \
           program the reader knows (`\"shell\"`, `\"interpreter\"`, `\"download\"`, \
           `\"stdin_runner\"`, `\"privilege\"`, `\"disk_formatter\"`, `\"archiver\"`, \
           `\"printer\"`); a call other than \
           `flag(...)`, `program_is(...)`, `stdin_from(...)` and `stdout_to(...)`; or a \
           call such as \
           `shell.any(...)` that does not exist.",
    why: "A shell condition tests the words of one simple command; anything else would \
          never hold, and a guard that never holds lets every command through.",
    wrong: "on pre_tool_use when shell(program == \"rm\" and flag(\"rf\")) block",
    right: "on pre_tool_use when shell(program == \"rm\" and flag(\"-r\") and flag(\"-f\")) block",
};

/// Builds E040 at the part of a shell condition at fault
pub(crate) fn invalid_shell_condition(
    file: FileId,
    span: Span,
    message: String,
    label: &str,
    help: &str,
) -> Diagnostic {
    Diagnostic::new(
        INVALID_SHELL_CONDITION,
        message,
        Label::new(file, span, label),
    )
    .with_help(help)
}

// ---------------------------------------------------------------------------------------
// W0xx: lints (one file per lint in `lint/`)

/// W001: two rules set one metadata key to different values on one event
pub const CONFLICTING_EFFECTS: Code = Code {
    id: "W001",
    name: "conflicting-effects",
    severity: Severity::Warning,
    summary: "two rules set the same metadata key to different values on one event",
    what: "Two `set` rules that fire on a common event, write the same metadata key and write \
           different values. When both match, they are applied in `@priority` order (higher \
           first, then rule id) and the last one wins (docs/language.md §4.3).",
    why: "The value kept depends on priorities and ids rather than on what the rules say. \
          Rules whose conditions exclude each other (`tool == \"a\"` and `tool == \"b\"`, \
          `steps < 5` and `steps >= 5`) never match one event and are not flagged; when the \
          compiler cannot tell, it warns.",
    wrong: "on post_tool_use when tool == \"web_fetch\" set metadata.trust = \"low\"\n\
            on post_tool_use when tool ~ \"web_*\" set metadata.trust = \"medium\"",
    right: "on post_tool_use when tool ~ \"web_*\" set metadata.trust = \"low\"\n\
            on pre_tool_use when metadata.trust == \"low\" and tool == \"deploy\" block",
};

/// Builds W001: the effect at `span` on `key` (a path after `metadata`: `.a`, `["a-b"]`)
/// conflicts with `first` on `events`
pub(crate) fn conflicting_effects(
    file: FileId,
    span: Span,
    key: &str,
    rules: (&str, &str),
    events: &[EventKind],
    first: (FileId, Span),
) -> Diagnostic {
    let (first_rule, rule) = rules;
    Diagnostic::new(
        CONFLICTING_EFFECTS,
        format!(
            "rules `{first_rule}` and `{rule}` set `metadata{key}` to different values on {}",
            ticked_events(events)
        ),
        Label::new(file, span, "second value"),
    )
    .with_secondary(Label::new(first.0, first.1, "first value"))
    .with_help(
        "set the key from one rule, or give each value its own key; when both rules match, the \
         effect applied last (lower `@priority`, then larger rule id) wins",
    )
}

/// W002: a rule that can never change an outcome
pub const DEAD_RULE: Code = Code {
    id: "W002",
    name: "dead-rule",
    severity: Severity::Warning,
    summary: "a rule that can never change an outcome",
    what: "A rule that never decides anything. On every event it fires on, another rule \
           always matches and always wins over it (a stronger verb, or the same verb with a \
           higher `@priority`), or an unconditional `forbid` on an earlier event ends every \
           run before it is reached. A `request` on `stop` is also dead when every stop comes \
           from a `forbid`, since such a stop is final (docs/language.md §5.6).",
    why: "The rule reads as if it mattered, but removing it changes nothing; usually the rule \
          that wins lacks a condition.",
    wrong: "on pre_tool_use forbid \"no tools at all\"\n\
            on pre_tool_use when tool == \"ls\" allow",
    right: "on pre_tool_use when tool == \"rm\" forbid \"no rm\"\n\
            on pre_tool_use when tool == \"ls\" allow",
};

/// Builds W002: `rule` (its verb at `at`) never matters because of `winner` (at `by`)
pub(crate) fn dead_rule(
    at: (FileId, Span),
    by: (FileId, Span),
    rules: (&str, &str),
    why: String,
) -> Diagnostic {
    let (rule, winner) = rules;
    Diagnostic::new(
        DEAD_RULE,
        format!("rule `{rule}` can never change an outcome"),
        Label::new(at.0, at.1, "never decides"),
    )
    .with_secondary(Label::new(by.0, by.1, why))
    .with_help(format!("give `{winner}` a condition, or remove `{rule}`"))
}

/// W003: a condition that is always true or always false
pub const CONSTANT_CONDITION: Code = Code {
    id: "W003",
    name: "constant-condition",
    severity: Severity::Warning,
    summary: "a condition, or a part of one, that is always true or always false",
    what: "A condition whose value does not depend on the event: bounds that exclude each \
           other (`steps >= 5 and steps < 3`), a counter below zero (`steps < 0`), one field \
           equal to two values (`tool == \"a\" and tool == \"b\"`), a value a field never takes \
           (`error.kind == \"ratelimit\"`), or a test and its negation. The largest constant \
           part is reported.",
    why: "A rule whose condition is always false never fires, and a part that is always true \
          or always false tests nothing: either way the policy does not do what it says.",
    wrong: "on before_step when steps >= 5 and steps < 3 forbid",
    right: "on before_step when steps >= 3 and steps < 5 forbid",
};

/// Builds W003: the condition (or part, unless `whole`) at `span` always has `value`
pub(crate) fn constant_condition(file: FileId, span: Span, value: bool, whole: bool) -> Diagnostic {
    let (message, label) = if value {
        ("this condition is always true", "always holds")
    } else {
        ("this condition is always false", "never holds")
    };
    let help = match (whole, value) {
        (true, false) => "the rule never fires: check the bounds and values it compares",
        (true, true) => "remove `when` and the condition: a rule without one matches every event",
        (false, false) => "this part never holds: fix its bounds and values, or remove it",
        (false, true) => "this part always holds: remove it",
    };
    Diagnostic::new(CONSTANT_CONDITION, message, Label::new(file, span, label)).with_help(help)
}

/// W004: two rules with the same events and condition but different verbs
pub const CONFLICTING_VERBS: Code = Code {
    id: "W004",
    name: "conflicting-verbs",
    severity: Severity::Warning,
    summary: "two rules with the same events and the same condition but different verbs",
    what: "Two rules that fire on the same events under the same condition (the order of the \
           parts of an `and` or an `or` does not matter) and decide different things. Both \
           always match together, so the precedence of docs/language.md §5 picks one verb every \
           time and the other never takes effect.",
    why: "The policy says two things at once; which one wins is decided by precedence, not by \
          what its author meant.",
    wrong: "on pre_tool_use when tool == \"deploy\" ask\n\
            on pre_tool_use when tool == \"deploy\" block",
    right: "on pre_tool_use when tool == \"deploy\" and steps < 10 ask\n\
            on pre_tool_use when tool == \"deploy\" and steps >= 10 block",
};

/// Builds W004: the verb at `at` conflicts with the earlier rule's verb at `first`
pub(crate) fn conflicting_verbs(
    at: (FileId, Span),
    first: (FileId, Span),
    rules: (&str, &str),
    verbs: (Verb, Verb),
) -> Diagnostic {
    let (first_rule, rule) = rules;
    let (first_verb, verb) = verbs;
    Diagnostic::new(
        CONFLICTING_VERBS,
        format!(
            "rules `{first_rule}` and `{rule}` fire on the same events under the same \
             condition but decide `{first_verb}` and `{verb}`"
        ),
        Label::new(at.0, at.1, format!("`{verb}`")),
    )
    .with_secondary(Label::new(first.0, first.1, format!("`{first_verb}`")))
    .with_help("keep one of the two rules, or make their conditions differ")
}

/// W005: a `request` with no `forbid` guard on steps, tokens or time
pub const UNBOUNDED_REQUEST: Code = Code {
    id: "W005",
    name: "unbounded-request",
    severity: Severity::Warning,
    summary: "a `request` that may keep a run going, with no `forbid` guard on steps, tokens \
              or time",
    what: "The policy set asks for more steps (`request` on `stop`, `subagent_stop` or \
           `after_step`) but no `forbid` rule stops the run once it took a number of steps, \
           used an amount of tokens or ran for some time (a condition such as `steps >= 50`, \
           `tokens > 2m` or `elapsed >= 30min`). The whole policy set is checked, so one \
           budget file bounds every other file compiled with it. A `request` whose own \
           condition stops holding once a counter grew bounds itself and is not flagged: \
           `stop_requests < 2` on `stop` (the count of prevented stops, never reset) or \
           `steps < 20`.",
    why: "A request that keeps matching keeps the run going until the host's own limits end \
          it, spending tokens all the way (docs/language.md §8).",
    wrong: "on stop when response ~ \"*TODO*\" request \"finish the TODOs\"",
    right: "on stop when response ~ \"*TODO*\" request \"finish the TODOs\"\n\
            on before_step when steps >= 50 forbid steps_limit_reached",
};

/// Builds W005: the first unbounded `request` is `rule`, at `at`; `others` request too
pub(crate) fn unbounded_request(
    at: (FileId, Span),
    rule: &str,
    others: Vec<(FileId, Span)>,
) -> Diagnostic {
    let diag = Diagnostic::new(
        UNBOUNDED_REQUEST,
        format!(
            "rule `{rule}` may keep the run going forever: no `forbid` guards steps, tokens \
             or time"
        ),
        Label::new(at.0, at.1, "asks for another step"),
    )
    .with_help(
        "add a budget, such as `on before_step when steps >= 50 forbid steps_limit_reached`",
    );
    others.into_iter().fold(diag, |diag, (file, span)| {
        diag.with_secondary(Label::new(file, span, "asks for another step too"))
    })
}

/// W006: a metadata key that is set but never read
pub const METADATA_NEVER_READ: Code = Code {
    id: "W006",
    name: "metadata-never-read",
    severity: Severity::Warning,
    summary: "a `set` of a metadata key that no condition reads",
    what: "A `set metadata.<key> = ...` rule whose key no condition of the policy set tests \
           (a read of `metadata.a.b` counts as a read of `metadata.a`, and the other way \
           round).",
    why: "Metadata exists so that later events can test what happened (docs/language.md §5.7); a \
          key nobody reads is usually a misspelling of the key a condition tests.",
    wrong: "on post_tool_use when tool == \"web_fetch\" set metadata.tainted = true\n\
            on pre_tool_use when metadata.taint and tool == \"send_email\" block",
    right: "on post_tool_use when tool == \"web_fetch\" set metadata.tainted = true\n\
            on pre_tool_use when metadata.tainted and tool == \"send_email\" block",
};

/// Builds W006: the key `key` set at `span` is never read
pub(crate) fn metadata_never_read(file: FileId, span: Span, key: &str) -> Diagnostic {
    Diagnostic::new(
        METADATA_NEVER_READ,
        format!("`metadata{key}` is set but never read"),
        Label::new(file, span, "set here"),
    )
    .with_help(format!(
        "test it in a condition (`when metadata{key}`), or remove this rule"
    ))
}

/// W007: a metadata key that is read but never set
pub const METADATA_NEVER_SET: Code = Code {
    id: "W007",
    name: "metadata-never-set",
    severity: Severity::Warning,
    summary: "a condition reads a metadata key that nothing sets",
    what: "A condition tests `metadata.<key>` but no `set` rule of the policy set writes it, \
           and no test event gives it. A key the host application sets is declared by giving \
           it in a test event (`event before_step { metadata: { role: \"admin\" } }`), which \
           also documents what the host must provide.",
    why: "A missing key makes every test of it false (docs/language.md §4.4), so the rule never \
          fires; usually the key is misspelled.",
    wrong: "on pre_tool_use when metadata.taint and tool == \"send_email\" block",
    right: "on post_tool_use when tool == \"web_fetch\" set metadata.taint = true\n\
            on pre_tool_use when metadata.taint and tool == \"send_email\" block",
};

/// Builds W007: the path `key` after `metadata` (`.a`, `["a-b"]`), first read at `at`, is
/// never set; `entry` gives it in a test event's `metadata` (`"a-b": true`); `others` read it
/// too
pub(crate) fn metadata_never_set(
    at: (FileId, Span),
    (key, entry): (&str, &str),
    others: Vec<(FileId, Span)>,
) -> Diagnostic {
    let diag = Diagnostic::new(
        METADATA_NEVER_SET,
        format!("`metadata{key}` is read but never set"),
        Label::new(at.0, at.1, "read here"),
    )
    .with_help(format!(
        "set it with a rule (`set metadata{key} = true`), or, if the host sets it, give it in \
         a test event (`metadata: {{ {entry} }}`)"
    ));
    others.into_iter().fold(diag, |diag, (file, span)| {
        diag.with_secondary(Label::new(file, span, "read here too"))
    })
}

/// W008: under `rulesc check --host`, a rule fires on an event the host's hook never sends
pub const EVENT_NOT_SENT_BY_HOST: Code = Code {
    id: "W008",
    name: "event-not-sent-by-host",
    severity: Severity::Warning,
    summary: "a rule on an event the host's hook never fires",
    what: "Checked with `--host`, the rule names an event that `rulesc hook` never fires for \
           that host: a hook sees no model call and no step boundary, so `before_inference`, \
           `after_inference` and `after_step` never fire, and Gemini CLI sends nothing for a \
           sub-agent's stop.",
    why: "The rule never matches under that host, so the guard it was written for is not \
          there.",
    wrong: "# rulesc check --host claude\n\
            on after_step when tool_calls == 0 allow_stop",
    right: "# rulesc check --host claude\n\
            on stop when response ~ \"*TODO*\" request \"finish the TODOs\"\n\
            on before_step when steps >= 50 forbid steps_limit_reached",
};

/// Builds W008: the event `event` at `span` is never sent by `host`
pub(crate) fn event_not_sent_by_host(
    file: FileId,
    span: Span,
    event: EventKind,
    host: &str,
    sent: &[EventKind],
) -> Diagnostic {
    let sent: Vec<String> = sent.iter().map(|kind| format!("`{kind}`")).collect();
    Diagnostic::new(
        EVENT_NOT_SENT_BY_HOST,
        format!("{host}'s hook never fires `{event}`"),
        Label::new(file, span, "never fired"),
    )
    .with_help(format!(
        "under {host}, rules fire on {}: move the rule to one of them",
        and_list(&sent)
    ))
}

/// W009: under `rulesc check --host`, a decision the host's answer cannot carry
pub const VERB_NOT_HONOURED_BY_HOST: Code = Code {
    id: "W009",
    name: "verb-not-honoured-by-host",
    severity: Severity::Warning,
    summary: "a decision the host's hook answer cannot carry",
    what: "Checked with `--host`, the rule decides something the host cannot be told from a \
           hook: Codex and Gemini CLI cannot ask for approval (`ask` becomes a deny), Codex \
           accepts no `allow`, no host retries or hides a failed call for a hook (`retry`, \
           `ignore`), and a hook decides whether to go on only at `stop` (`request` and \
           `allow_stop` elsewhere change nothing).",
    why: "The policy reads as if it did one thing while the host does another: a call the \
          author wanted a person to approve is refused, or a retry never happens.",
    wrong: "# rulesc check --host codex\n\
            on pre_tool_use when tool == \"Bash\" ask \"a person should look\"",
    right: "# rulesc check --host codex\n\
            on pre_tool_use when tool == \"Bash\" block \"run this yourself\"",
};

/// Builds W009: `verb` at `span` on `event` is not honoured by `host`, which does `instead`
pub(crate) fn verb_not_honoured_by_host(
    file: FileId,
    span: Span,
    verb: Verb,
    event: EventKind,
    host: &str,
    instead: &str,
) -> Diagnostic {
    Diagnostic::new(
        VERB_NOT_HONOURED_BY_HOST,
        format!("{host} cannot honour `{verb}` on `{event}` from a hook"),
        Label::new(file, span, "not carried to the host"),
    )
    .with_help(format!("{instead}; choose a decision {host} honours"))
}

/// W010: under `rulesc check --host`, a condition reads a field the host never fills
pub const FIELD_NOT_FILLED_BY_HOST: Code = Code {
    id: "W010",
    name: "field-not-filled-by-host",
    severity: Severity::Warning,
    summary: "a condition on a field the host's hook calls never fill",
    what: "Checked with `--host`, the condition reads a field the host never gives a value: \
           hooks see no model call, so `tokens`, `input_tokens`, `output_tokens` and `retries` \
           stay 0, and Gemini CLI sends no `permission_mode`.",
    why: "A budget on tokens never trips under a hook, and a condition on an absent field is \
          always false: the guard is not there.",
    wrong: "# rulesc check --host claude\n\
            on before_step when tokens > 2m forbid token_limit_reached",
    right: "# rulesc check --host claude\n\
            on before_step when steps >= 50 forbid steps_limit_reached",
};

/// Builds W010: the field `field`, read at `span`, is never filled by `host` on `event`
pub(crate) fn field_not_filled_by_host(
    file: FileId,
    span: Span,
    field: &str,
    event: EventKind,
    host: &str,
) -> Diagnostic {
    Diagnostic::new(
        FIELD_NOT_FILLED_BY_HOST,
        format!("{host}'s hook calls never fill `{field}` on `{event}`"),
        Label::new(file, span, "never filled"),
    )
    .with_help("guard on what the host reports instead: `steps`, `elapsed`, `errors`, `failures`")
}

/// W011: a glob with `{a,b}`, which rulesc matches literally
pub const LITERAL_BRACES_IN_GLOB: Code = Code {
    id: "W011",
    name: "literal-braces-in-glob",
    severity: Severity::Warning,
    summary: "a glob with `{a,b}`, which matches the braces and the comma literally",
    what: "A `~` pattern holds `{` ... `,` ... `}`, which a shell or an editor reads as \
           \"either a or b\", but a rulesc glob (docs/language.md §4.4) has no alternation: it \
           matches the text `{a,b}` itself.",
    why: "A guard written as `tool ~ \"{Bash,Shell}\"` matches neither tool, so the rule \
          never fires.",
    wrong: "on pre_tool_use when tool ~ \"{Bash,Shell}\" ask \"a shell command\"",
    right: "on pre_tool_use when tool in [\"Bash\", \"Shell\"] ask \"a shell command\"",
};

/// Builds W011: the glob `glob` at `span` holds braces that read as alternation
pub(crate) fn literal_braces_in_glob(file: FileId, span: Span, glob: &str) -> Diagnostic {
    Diagnostic::new(
        LITERAL_BRACES_IN_GLOB,
        format!("`{glob}` matches `{{`, `,` and `}}` literally: globs have no alternation"),
        Label::new(file, span, "braces match themselves"),
    )
    .with_help(
        "to match one of several values, use `in [\"a\", \"b\"]` or one rule each; to match \
         the braces, escape them: `\\\\{`",
    )
}

/// W026: a `~` glob with `[Ii]`-style classes, where `~*` ignores case
pub const GLOB_SPELLS_BOTH_CASES: Code = Code {
    id: "W026",
    name: "glob-spells-both-cases",
    severity: Severity::Warning,
    summary: "a glob spells letters in both cases by hand where `~*` ignores case",
    what: "A `~` pattern holds a class of one letter in both cases, such as `[Ii]`: it is \
           written to match a word whatever its case.",
    why: "Only the letters spelt so ignore case: `*[Ii]nvite*` misses `INVITE` and \
          `InViTe`. `~*` compares the whole glob and text case folded (`==*` and `!=*` do \
          the same for equality).",
    wrong: "on pre_tool_use when arg.subject ~ \"*[Ii]nvite*\" ask \"an invitation\"",
    right: "on pre_tool_use when arg.subject ~* \"*invite*\" ask \"an invitation\"",
};

/// Builds W026: the glob at `span` spells both cases by hand; `~* "suggested"` ignores case
pub(crate) fn glob_spells_both_cases(file: FileId, span: Span, suggested: &str) -> Diagnostic {
    Diagnostic::new(
        GLOB_SPELLS_BOTH_CASES,
        "this glob spells letters in both cases by hand, and only those ignore case".to_owned(),
        Label::new(file, span, "cases spelt by hand"),
    )
    .with_help(format!(
        "write `~* \"{suggested}\"`: it ignores the case of every letter"
    ))
}

/// W012: a field its event sees, but never has under the rest of the condition
pub const FIELD_NEVER_FILLED: Code = Code {
    id: "W012",
    name: "field-never-filled",
    severity: Severity::Warning,
    summary: "a condition reads a field that the rest of its `and` leaves without a value",
    what: "A field that its event sees only on some occurrences, read together (`and`) with a \
           test that rules those occurrences out: `tool` on `on_error` when `error.kind` is a \
           model failure (`model`, `rate_limit`, `timeout`, `validation`, `unknown`; only a \
           failed or blocked tool call has a tool), or `result` on a `blocked` call's \
           `post_tool_use` (the tool never ran).",
    why: "An absent field compares false, for every operator: the condition can never hold, \
          and the rule never fires.",
    wrong: "on on_error when error.kind == \"rate_limit\" and tool == \"deploy\" retry",
    right: "on on_error when error.kind == \"tool\" and tool == \"deploy\" retry",
};

/// Builds W012: `field`, read at `span`, never has a value, `because` of the rest of the
/// condition
pub(crate) fn field_never_filled(
    file: FileId,
    span: Span,
    field: &str,
    because: &str,
) -> Diagnostic {
    Diagnostic::new(
        FIELD_NEVER_FILLED,
        format!("`{field}` never has a value here, so this test is always false"),
        Label::new(file, span, "never filled"),
    )
    .with_help(format!(
        "{because}; remove the test, or the condition that rules the value out"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_sorted_and_named_in_kebab_case() {
        let ids: Vec<&str> = ALL.iter().map(|code| code.id).collect();
        let mut sorted = ids.clone();
        sorted.sort_by_key(|id| (id.starts_with('W'), *id));
        sorted.dedup();
        assert_eq!(ids, sorted, "codes must be unique and in order");
        for code in ALL {
            assert!(
                code.name
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch == '-' || ch.is_ascii_digit()),
                "{}",
                code.name
            );
            let expected = if code.id.starts_with('E') {
                Severity::Error
            } else {
                Severity::Warning
            };
            assert_eq!(code.severity, expected, "{}", code.id);
        }
    }

    #[test]
    fn lookup_by_id_any_case_or_name() {
        assert_eq!(lookup("e012"), Some(FIELD_NOT_VISIBLE));
        assert_eq!(lookup("field-not-visible"), Some(FIELD_NOT_VISIBLE));
        assert_eq!(lookup("E999"), None);
    }

    #[test]
    fn explain_has_the_four_sections() {
        let text = TYPE_MISMATCH.explain();
        for section in [
            "## What it flags",
            "## Why it matters",
            "## Wrong",
            "## Right",
        ] {
            assert!(text.contains(section), "{section} missing in\n{text}");
        }
        assert!(text.contains("    on pre_tool_use when tool > 3 block"));
    }

    #[test]
    fn lists_read_as_english() {
        assert_eq!(and_list(&["a"]), "a");
        assert_eq!(and_list(&["a", "b"]), "a and b");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
    }
}
