//! The codes of trace functions (`E05x`, docs/trace.md): `count(...)`, `seen(...)`,
//! `streak(...)` and `same_call_count`, each row with its constructor below it.

use rulesc_grammar::Span;
use rulesc_runtime::{EventKind, Field};

use crate::diagnostic::{Code, Diagnostic, Label, Severity};
use crate::source::FileId;

/// E050: a window that holds no event, or a window where none is taken
pub const INVALID_WINDOW: Code = Code {
    id: "E050",
    name: "invalid-window",
    severity: Severity::Error,
    summary: "the window of a trace function is empty or not allowed",
    what: "A `within` window of 0 steps or 0 milliseconds, or a window on `streak(...)`, \
           which counts events in a row ending now and so has no window.",
    why: "A window of 0 holds no event, so the count would always be 0 and the rule would \
          never fire as written.",
    wrong: "on before_step when count(on_error within 0 steps) >= 4 forbid",
    right: "on before_step when count(on_error within 5 steps) >= 4 forbid",
};

/// Builds E050 at the window `span`
pub(crate) fn invalid_window(file: FileId, span: Span, message: String, help: &str) -> Diagnostic {
    Diagnostic::new(
        INVALID_WINDOW,
        message,
        Label::new(file, span, "this window"),
    )
    .with_help(help)
}

/// E051: a trace function used as what it is not
pub const INVALID_TRACE_TEST: Code = Code {
    id: "E051",
    name: "invalid-trace-test",
    severity: Severity::Error,
    summary: "a trace count is not compared with a count it can have",
    what: "A count (`count(...)`, `streak(...)`, `same_call_count`) compared with something \
           other than a whole number from 0 to 100000, compared so that the answer never \
           depends on the run (`< 0`, `>= 0`: a count is never negative), or used alone as a \
           condition; or `seen(...)`, which is a condition, compared like a number.",
    why: "A count is a whole number of events, at least 0; a windowed count keeps one entry \
          per counted event up to the number it is compared with, which bounds its memory.",
    wrong: "on pre_tool_use when count(pre_tool_use) < 0 block",
    right: "on pre_tool_use when count(pre_tool_use) > 20 block",
};

/// Builds E051 at `span`
pub(crate) fn invalid_trace_test(
    file: FileId,
    span: Span,
    message: String,
    label: &str,
    help: String,
) -> Diagnostic {
    Diagnostic::new(INVALID_TRACE_TEST, message, Label::new(file, span, label)).with_help(help)
}

/// E052: a field the counted event kind never has, in a trace function's condition
pub const TRACE_FIELD_NOT_VISIBLE: Code = Code {
    id: "E052",
    name: "trace-field-not-visible",
    severity: Severity::Error,
    summary: "the condition of a trace function reads a field its event does not have",
    what: "A field in the `when` of `count(E when ...)`, `seen(...)` or `streak(...)` that \
           events of kind E never carry: `tool` in `count(before_step when tool == \"x\")`. The \
           condition is read on each past event of kind E, not on the rule's own event.",
    why: "The field would always be missing on the counted events, so nothing would ever \
          be counted.",
    wrong: "on before_step when count(before_step when tool == \"deploy\") > 3 forbid",
    right: "on before_step when count(pre_tool_use when tool == \"deploy\") > 3 forbid",
};

/// Builds E052: `field` at `span` is not visible on `kind`, the event counted (at `event_span`)
pub(crate) fn trace_field_not_visible(
    file: FileId,
    span: Span,
    field: &Field,
    kind: EventKind,
    event_span: Span,
) -> Diagnostic {
    Diagnostic::new(
        TRACE_FIELD_NOT_VISIBLE,
        format!("field `{field}` is not visible in `{kind}`, the event this counts"),
        Label::new(file, span, "not visible here"),
    )
    .with_secondary(Label::new(file, event_span, format!("counts `{kind}`")))
    .with_help(format!(
        "`{field}` exists only in {}; count one of those events",
        super::plain_events(&field.visible_events())
    ))
}

/// E053: a trace function inside the condition of another
pub const NESTED_TRACE: Code = Code {
    id: "E053",
    name: "nested-trace",
    severity: Severity::Error,
    summary: "a trace function is inside the condition of another",
    what: "`count(...)`, `seen(...)`, `streak(...)` or `same_call_count` inside the `when` of \
           another trace function.",
    why: "The condition of a trace function is read on each past event as it was, and a past \
          event has no run of its own to count; a counter of counters would also need memory \
          that grows with the run.",
    wrong: "on pre_tool_use when seen(post_tool_use when count(on_error) > 2) block",
    right: "on pre_tool_use when seen(post_tool_use when tool_error) and count(on_error) > 2 block",
};

/// Builds E053 at the inner trace function's `span`
pub(crate) fn nested_trace(file: FileId, span: Span) -> Diagnostic {
    Diagnostic::new(
        NESTED_TRACE,
        "a trace function cannot be inside the condition of another",
        Label::new(file, span, "inside a trace function"),
    )
    .with_help("test it beside the other, joined with `and`")
}

/// E054: `same_call_count` on an event other than `pre_tool_use`
pub const SAME_CALL_NOT_VISIBLE: Code = Code {
    id: "E054",
    name: "same-call-not-visible",
    severity: Severity::Error,
    summary: "`same_call_count` is read only on `pre_tool_use`",
    what: "`same_call_count` in a rule that fires on another event than `pre_tool_use`.",
    why: "It counts the identical tool calls in a row up to the call about to run, which \
          only `pre_tool_use` has.",
    wrong: "on post_tool_use when same_call_count >= 3 forbid",
    right: "on pre_tool_use when same_call_count >= 3 block",
};

/// Builds E054: `same_call_count` at `span` in a rule on `kind` (written at `event_span`)
pub(crate) fn same_call_not_visible(
    file: FileId,
    span: Span,
    kind: EventKind,
    event_span: Span,
) -> Diagnostic {
    Diagnostic::new(
        SAME_CALL_NOT_VISIBLE,
        format!("`same_call_count` is not visible in `{kind}`"),
        Label::new(file, span, "not visible here"),
    )
    .with_secondary(Label::new(
        file,
        event_span,
        format!("rule fires on `{kind}`"),
    ))
    .with_help("move this condition to a `pre_tool_use` rule")
}

/// E055: `from` on a value that is not a string, or with no label
pub const INVALID_FROM: Code = Code {
    id: "E055",
    name: "invalid-from",
    severity: Severity::Error,
    summary: "`from` tests a string field against a label",
    what: "`X from \"L\"` where X is not a field that can hold text (`steps`, `blocked`, a \
           literal) or where the right side is not a label written as a string.",
    why: "`from` looks for fragments of labelled content in text; a number of steps or a flag \
          holds none, so the test could never hold as written.",
    wrong: "on pre_tool_use when steps from \"untrusted\" block",
    right: "on pre_tool_use when arg.body from \"untrusted\" block",
};

/// Builds E055 at `span`
pub(crate) fn invalid_from(
    file: FileId,
    span: Span,
    message: String,
    label: String,
    help: &str,
) -> Diagnostic {
    Diagnostic::new(INVALID_FROM, message, Label::new(file, span, label)).with_help(help)
}

/// E056: a `label` effect on something else than a tool's result
pub const INVALID_LABEL: Code = Code {
    id: "E056",
    name: "invalid-label",
    severity: Severity::Error,
    summary: "`label` attaches a label to a tool's result on `post_tool_use`",
    what: "`label X \"L\"` where X is not `result` or a path into it (`result.sender`, \
           `result.items[*].body`), or in a rule that fires on another event than \
           `post_tool_use`.",
    why: "Labels mark content that came into the run from a tool; only `post_tool_use` has a \
          tool's result.",
    wrong: "on pre_tool_use when tool ~ \"web_*\" label result \"untrusted\"",
    right: "on post_tool_use when tool ~ \"web_*\" label result \"untrusted\"",
};

/// Builds E056 at `span`
pub(crate) fn invalid_label(file: FileId, span: Span, message: String, help: &str) -> Diagnostic {
    Diagnostic::new(
        INVALID_LABEL,
        message,
        Label::new(file, span, "not labelled"),
    )
    .with_help(help)
}

/// W020: `from` a label no rule attaches
pub const LABEL_NEVER_ATTACHED: Code = Code {
    id: "W020",
    name: "label-never-attached",
    severity: Severity::Warning,
    summary: "a `from` test names a label no rule attaches",
    what: "`X from \"L\"` where no rule of the policy set has `label result \"L\"`.",
    why: "Nothing is ever labelled L, so the test never holds: usually a misspelt label, or \
          the labelling rule is in a file that was not given.",
    wrong: "on pre_tool_use when arg.body from \"untrusted\" block",
    right: "on post_tool_use when tool ~ \"web_*\" label result \"untrusted\"\non pre_tool_use when arg.body from \"untrusted\" block",
};

/// Builds W020: the label `label` at `span` is attached by no rule
pub(crate) fn label_never_attached(file: FileId, span: Span, label: &str) -> Diagnostic {
    Diagnostic::new(
        LABEL_NEVER_ATTACHED,
        format!("no rule attaches the label `{label}`"),
        Label::new(file, span, "never attached"),
    )
    .with_help(format!(
        "add a rule such as `on post_tool_use when tool ~ \"web_*\" label result \"{label}\"`, or fix the label's spelling"
    ))
}
