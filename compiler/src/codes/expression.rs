//! The codes of arithmetic and list quantifiers (docs/expressions.md): `E06x` errors and
//! `W025` lint, each row with its constructor right below it.

use rulesc_grammar::Span;

use crate::diagnostic::{Code, Diagnostic, Label, Severity};
use crate::source::FileId;

/// E060: arithmetic on a value that is no number
pub const ARITHMETIC_ON_NON_NUMBER: Code = Code {
    id: "E060",
    name: "arithmetic-on-non-number",
    severity: Severity::Error,
    summary: "`+`, `-`, `*` or `/` on a string, a bool or a list",
    what: "An operand of arithmetic that can never be a number: a string, bool or list \
           literal, or a field of one of those types (`tool`, `blocked`). Arithmetic works on \
           integers and durations; `arg.*`, `result.*` and `metadata.*` are typed at run time \
           and are accepted.",
    why: "Such arithmetic has no value, so the comparison that holds it could never be true \
          and the `set` that stores it would never store anything.",
    wrong: "on pre_tool_use when tool + 1 > 2 block",
    right: "on pre_tool_use when metadata.fetched + 1 > 2 block",
};

/// Builds E060: the operand at `span`, described as `what` (`a string`), under `symbol`
pub(crate) fn arithmetic_on_non_number(
    file: FileId,
    span: Span,
    symbol: &str,
    what: &str,
    plural: &str,
) -> Diagnostic {
    Diagnostic::new(
        ARITHMETIC_ON_NON_NUMBER,
        format!("`{symbol}` works on integers and durations, not {plural}"),
        Label::new(file, span, what),
    )
    .with_help("compute with numeric fields, integers, durations or `metadata.*` keys")
}

/// E061: an integer added to or subtracted from a duration
pub const MIXED_UNITS: Code = Code {
    id: "E061",
    name: "mixed-units",
    severity: Severity::Error,
    summary: "an integer added to a duration, or subtracted from one",
    what: "`+` or `-` between a duration (`elapsed`, `30s`) and an integer (`steps`, `5`). \
           A duration has a unit and a plain integer does not, so the sum has no meaning.",
    why: "`elapsed + 5` could mean five milliseconds or five minutes; rulesc refuses to guess.",
    wrong: "on before_step when elapsed + 5 > 10min forbid",
    right: "on before_step when elapsed + 5min > 10min forbid",
};

/// Builds E061 at the integer side `span`, the duration at `other`
pub(crate) fn mixed_units(file: FileId, span: Span, symbol: &str, other: Span) -> Diagnostic {
    Diagnostic::new(
        MIXED_UNITS,
        format!("`{symbol}` between a duration and an integer has no unit"),
        Label::new(file, span, "an integer"),
    )
    .with_secondary(Label::new(file, other, "a duration"))
    .with_help("write the integer as a duration with its unit, such as `5s` or `5min`")
}

/// E062: durations multiplied together, or an integer divided by a duration
pub const DURATION_PRODUCT: Code = Code {
    id: "E062",
    name: "duration-product",
    severity: Severity::Error,
    summary: "two durations multiplied, or an integer divided by a duration",
    what: "`*` between two durations, or `/` with a duration on its right and an integer on \
           its left. A duration times an integer is a duration, a duration divided by an \
           integer is a duration, and a duration divided by a duration is an integer; \
           nothing else is defined.",
    why: "Squared time and \"per millisecond\" are no values a policy can compare with.",
    wrong: "on before_step when elapsed * 1s > 10min forbid",
    right: "on before_step when elapsed * 2 > 10min forbid",
};

/// Builds E062 at the operator `span`
pub(crate) fn duration_product(file: FileId, span: Span, message: &str) -> Diagnostic {
    Diagnostic::new(
        DURATION_PRODUCT,
        message.to_owned(),
        Label::new(file, span, "no unit for this"),
    )
    .with_help("multiply or divide a duration by an integer, such as `elapsed * 2`")
}

/// E063: a division by the literal zero
pub const DIVISION_BY_ZERO: Code = Code {
    id: "E063",
    name: "division-by-zero",
    severity: Severity::Error,
    summary: "a division by the literal `0`",
    what: "`/ 0` or `/ 0s`. A division by zero has no value: at run time (a divisor that is \
           a field or a metadata key holding 0) the comparison is false and the `set` stores \
           nothing; written as a literal it is always so.",
    why: "The rule could never fire.",
    wrong: "on pre_tool_use when metadata.fetched / 0 > 1 block",
    right: "on pre_tool_use when metadata.fetched / 2 > 1 block",
};

/// Builds E063 at the zero
pub(crate) fn division_by_zero(file: FileId, span: Span) -> Diagnostic {
    Diagnostic::new(
        DIVISION_BY_ZERO,
        "division by zero has no value".to_owned(),
        Label::new(file, span, "zero"),
    )
    .with_help("divide by a number other than zero")
}

/// E064: `any` or `all` without a field on the left of its comparison
pub const QUANTIFIER_WITHOUT_FIELD: Code = Code {
    id: "E064",
    name: "quantifier-without-field",
    severity: Severity::Error,
    summary: "`any` or `all` before a comparison that does not start with a field",
    what: "A quantifier tests each element of the list its comparison's left side holds, so \
           that side must be a field (`arg.to`), not a literal or arithmetic.",
    why: "A literal or a computed number is no list: the quantifier would have nothing to go \
          over.",
    wrong: "on pre_tool_use when any \"a@evil.example\" == arg.to block",
    right: "on pre_tool_use when any arg.to == \"a@evil.example\" block",
};

/// Builds E064 at the left side `span` of the quantified comparison
pub(crate) fn quantifier_without_field(file: FileId, span: Span, word: &str) -> Diagnostic {
    Diagnostic::new(
        QUANTIFIER_WITHOUT_FIELD,
        format!("`{word}` needs a field on the left of its comparison"),
        Label::new(file, span, "not a field"),
    )
    .with_help(format!(
        "write the list field first: `{word} arg.to ~ \"*@corp.example\"`"
    ))
}

/// E065: `set` of a value that is neither a literal nor a number
pub const SET_VALUE_NOT_A_NUMBER: Code = Code {
    id: "E065",
    name: "set-value-not-a-number",
    severity: Severity::Error,
    summary: "`set` of a field or arithmetic that is not a number",
    what: "The value of a `set` is a literal (stored as written) or arithmetic over numbers \
           and durations (computed when the rule fires). A field of another type (`tool`, \
           `blocked`) cannot be stored.",
    why: "rulesc stores computed numbers only, so that a counter or a budget always holds a \
          number that later arithmetic can read.",
    wrong: "on pre_tool_use set metadata.last = tool",
    right: "on pre_tool_use set metadata.last_step = step",
};

/// Builds E065 at the value `span`, of type `ty` (`a string`), labelled `what`
pub(crate) fn set_value_not_a_number(file: FileId, span: Span, ty: &str, what: &str) -> Diagnostic {
    Diagnostic::new(
        SET_VALUE_NOT_A_NUMBER,
        format!("`set` stores literals and numbers, not {ty}"),
        Label::new(file, span, what),
    )
    .with_help("set a literal, or arithmetic over numbers and durations")
}

/// W025: `any` or `all` over a field that is never a list
pub const QUANTIFIER_OVER_SCALAR: Code = Code {
    id: "W025",
    name: "quantifier-over-scalar",
    severity: Severity::Warning,
    summary: "`any` or `all` over a field that is never a list",
    what: "A quantifier over a field whose type is fixed and not a list (`tool`, `steps`): \
           only `arg.*`, `result.*` and `metadata.*` can hold lists. On a value that is no \
           list the quantifier applies the comparison to the value itself, so it changes \
           nothing.",
    why: "The quantifier suggests a list where there is none; the field may be a typo for \
          an `arg.*` path.",
    wrong: "on pre_tool_use when any tool == \"send_email\" block",
    right: "on pre_tool_use when any arg.to == \"a@evil.example\" block",
};

/// Builds W025 at the quantifier `span`, over `field`
pub(crate) fn quantifier_over_scalar(
    file: FileId,
    span: Span,
    word: &str,
    field: &str,
    field_span: Span,
) -> Diagnostic {
    Diagnostic::new(
        QUANTIFIER_OVER_SCALAR,
        format!("`{field}` is never a list, so `{word}` changes nothing"),
        Label::new(file, span, "no list to go over"),
    )
    .with_secondary(Label::new(file, field_span, "never a list"))
    .with_help(format!("remove `{word}`, or quantify over an `arg.*` list"))
}
