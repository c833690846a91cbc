//! Literal values and their types: decoding integers, durations and strings from source text.
//!
//! Invariant: decoding never wraps, truncates or drops anything. An integer that overflows
//! `i64`, a duration that overflows `u64` milliseconds, an unknown escape or a `\u{..}` that
//! is not a Unicode scalar value is an error with the span of the offending part.

use rulesc_grammar::{Lit, LitKind, Span};
use rulesc_runtime::{parse_duration, DurationError, Field, FieldType, Literal, MAX_STRING_LEN};

/// The type of a value in a condition: a field's static type or a literal's
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Type {
    /// A whole number
    Int,
    /// A span of time
    Duration,
    /// Text
    Str,
    /// `true` / `false`
    Bool,
    /// A list literal
    List,
    /// `arg.*`, `metadata.*`: typed at run time, compatible with everything
    Any,
}

impl Type {
    /// The static type of `field`
    pub(crate) fn of_field(field: &Field) -> Type {
        match field.ty() {
            FieldType::Int => Type::Int,
            FieldType::Duration => Type::Duration,
            FieldType::Str => Type::Str,
            FieldType::Bool => Type::Bool,
            FieldType::Dynamic => Type::Any,
        }
    }

    /// The type of `literal`
    pub(crate) fn of_literal(literal: &Literal) -> Type {
        match literal {
            Literal::Bool(_) => Type::Bool,
            Literal::Int(_) => Type::Int,
            Literal::Duration(_) => Type::Duration,
            Literal::Str(_) => Type::Str,
            Literal::List(_) => Type::List,
        }
    }

    /// The type's name with its article, for messages: `an integer`, `a string`
    pub(crate) fn described(self) -> &'static str {
        match self {
            Type::Int => "an integer",
            Type::Duration => "a duration",
            Type::Str => "a string",
            Type::Bool => "a bool",
            Type::List => "a list",
            Type::Any => "a value of any type",
        }
    }

    /// Whether values of the two types can be compared for equality
    pub(crate) fn compatible(self, other: Type) -> bool {
        self == other || self == Type::Any || other == Type::Any
    }

    /// Whether values of this type have an order (`<`, `>=`)
    pub(crate) fn is_ordered(self) -> bool {
        matches!(self, Type::Int | Type::Duration | Type::Any)
    }
}

/// A literal that cannot be decoded
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LiteralError {
    /// The offending part: the whole number, or one escape inside a string
    pub(crate) span: Span,
    /// What is wrong, one lowercase line
    pub(crate) message: String,
    /// What to write instead
    pub(crate) help: Option<String>,
    /// The decoded length of a string longer than [`MAX_STRING_LEN`] (E024, not E021)
    pub(crate) too_long: Option<usize>,
}

impl LiteralError {
    fn new(span: Span, message: String, help: &str) -> LiteralError {
        LiteralError {
            span,
            message,
            help: Some(help.to_owned()),
            too_long: None,
        }
    }
}

/// Decodes a literal; a list reports every bad element
pub(crate) fn lower_literal(lit: &Lit) -> Result<Literal, Vec<LiteralError>> {
    match &lit.kind {
        LitKind::Bool(value) => Ok(Literal::Bool(*value)),
        LitKind::Int(text) => decode_int(text, lit.span)
            .map(Literal::Int)
            .map_err(|err| vec![err]),
        LitKind::Duration(text) => decode_duration(text, lit.span)
            .map(Literal::Duration)
            .map_err(|err| vec![err]),
        LitKind::Str(raw) => decode_str(raw, lit.span).map(Literal::Str),
        // The grammar reads a bare word only as an annotation argument, which is no value.
        LitKind::Word(word) => Err(vec![LiteralError::new(
            lit.span,
            format!("`{word}` is not a value"),
            "write a string, a number, a duration, `true`, `false` or a list",
        )]),
        LitKind::List(items) => {
            let mut values = Vec::with_capacity(items.len());
            let mut errors = Vec::new();
            for item in items {
                match lower_literal(item) {
                    Ok(value) => values.push(value),
                    Err(mut errs) => errors.append(&mut errs),
                }
            }
            if errors.is_empty() {
                Ok(Literal::List(values))
            } else {
                Err(errors)
            }
        }
    }
}

/// Largest integer, for the help of an overflow
const INT_HELP: &str = "integers go up to 9223372036854775807";

/// Decodes `20`, `100_000`, `200k` (×1,000) or `2m` (×1,000,000); a leading `-` (allowed
/// by the grammar in annotation arguments: `@priority(-5)`) makes it negative
pub(crate) fn decode_int(text: &str, span: Span) -> Result<i64, LiteralError> {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (digits, multiplier) = match unsigned.as_bytes().last() {
        Some(b'k') => (
            unsigned.get(..unsigned.len() - 1).unwrap_or_default(),
            1_000,
        ),
        Some(b'm') => (
            unsigned.get(..unsigned.len() - 1).unwrap_or_default(),
            1_000_000,
        ),
        _ => (unsigned, 1),
    };
    let magnitude = decode_digits(digits, span)?.checked_mul(multiplier);
    let value = magnitude.and_then(|magnitude| {
        let magnitude = i128::from(magnitude);
        i64::try_from(if negative { -magnitude } else { magnitude }).ok()
    });
    value.ok_or_else(|| {
        let bound = if negative {
            "integers go down to -9223372036854775808"
        } else {
            INT_HELP
        };
        LiteralError::new(span, format!("integer `{text}` is too large"), bound)
    })
}

/// Decodes `500ms`, `30s`, `5min`, `2h` into milliseconds (the grammar admits no other
/// unit), with the runtime's one reading of durations
pub(crate) fn decode_duration(text: &str, span: Span) -> Result<u64, LiteralError> {
    parse_duration(text).map_err(|err| match err {
        DurationError::UnknownUnit(unit) => LiteralError::new(
            span,
            format!("unknown duration unit `{unit}` in `{text}`"),
            "write the unit as `ms`, `s`, `min` or `h`",
        ),
        DurationError::NotANumber => LiteralError::new(
            span,
            format!("`{text}` has no digits"),
            "write at least one digit",
        ),
        DurationError::TooLong => LiteralError::new(
            span,
            format!("duration `{text}` is too long"),
            "durations go up to 18446744073709551615ms",
        ),
    })
}

/// Decodes decimal digits with `_` separators into a `u64`
fn decode_digits(digits: &str, span: Span) -> Result<u64, LiteralError> {
    let mut seen_digit = false;
    let mut value: u64 = 0;
    for ch in digits.chars() {
        if ch == '_' {
            continue;
        }
        let digit = ch.to_digit(10).ok_or_else(|| {
            LiteralError::new(
                span,
                format!("`{digits}` is not a number"),
                "write digits, optionally grouped with `_`",
            )
        })?;
        seen_digit = true;
        value = value
            .checked_mul(10)
            .and_then(|value| value.checked_add(u64::from(digit)))
            .ok_or_else(|| {
                LiteralError::new(span, format!("integer `{digits}` is too large"), INT_HELP)
            })?;
    }
    if seen_digit {
        Ok(value)
    } else {
        Err(LiteralError::new(
            span,
            format!("`{digits}` has no digits"),
            "write at least one digit",
        ))
    }
}

/// The help of every bad escape
const ESCAPE_HELP: &str = "the escapes are `\\\"`, `\\\\`, `\\n`, `\\t` and `\\u{1F600}`";

/// Decodes the text between a string literal's quotes; `lit_span` includes the quotes
///
/// Every bad escape is reported, each at its own span.
pub(crate) fn decode_str(raw: &str, lit_span: Span) -> Result<String, Vec<LiteralError>> {
    let base = lit_span.start.saturating_add(1);
    let at = |start: usize, end: usize| {
        Span::new(
            base.saturating_add(to_u32(start)),
            base.saturating_add(to_u32(end)),
        )
    };
    let mut out = String::with_capacity(raw.len());
    let mut errors = Vec::new();
    let mut chars = raw.char_indices().peekable();
    while let Some((start, ch)) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some((_, '"')) => out.push('"'),
            Some((_, '\\')) => out.push('\\'),
            Some((_, 'n')) => out.push('\n'),
            Some((_, 't')) => out.push('\t'),
            Some((_, 'u')) => {
                let mut end = start + 2;
                let mut hex = String::new();
                let mut closed = false;
                if chars.peek().map(|(_, ch)| *ch) == Some('{') {
                    end += 1;
                    chars.next();
                    while let Some((idx, ch)) = chars.peek().copied() {
                        if ch == '}' {
                            closed = true;
                            end = idx + 1;
                            chars.next();
                            break;
                        }
                        if !ch.is_ascii_hexdigit() || hex.len() >= 6 {
                            break;
                        }
                        hex.push(ch);
                        end = idx + 1;
                        chars.next();
                    }
                }
                let escape = raw.get(start..end).unwrap_or_default();
                match decode_unicode(&hex, closed) {
                    Ok(ch) => out.push(ch),
                    Err(why) => errors.push(LiteralError::new(
                        at(start, end),
                        format!("invalid escape `{escape}`: {why}"),
                        "write `\\u{` then 1 to 6 hex digits of a Unicode scalar value, then `}`",
                    )),
                }
            }
            Some((idx, other)) => errors.push(LiteralError::new(
                at(start, idx + other.len_utf8()),
                format!("unknown escape `\\{other}`"),
                ESCAPE_HELP,
            )),
            None => errors.push(LiteralError::new(
                at(start, start + 1),
                "a string cannot end with a lone `\\`".to_owned(),
                ESCAPE_HELP,
            )),
        }
    }
    if errors.is_empty() && out.len() > MAX_STRING_LEN {
        errors.push(LiteralError {
            span: lit_span,
            message: format!("string of {} bytes", out.len()),
            help: None,
            too_long: Some(out.len()),
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The character of a `\u{..}` escape's hex digits, or why there is none
fn decode_unicode(hex: &str, closed: bool) -> Result<char, &'static str> {
    if !closed {
        return Err("expected `{`, 1 to 6 hex digits and `}`");
    }
    if hex.is_empty() {
        return Err("no hex digits");
    }
    u32::from_str_radix(hex, 16)
        .ok()
        .and_then(char::from_u32)
        .ok_or("not a Unicode scalar value")
}

/// `value` as `u32`, saturating (sources are capped far below 4 GiB)
fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPAN: Span = Span { start: 10, end: 20 };

    #[test]
    fn integers_with_separators_and_suffixes() {
        assert_eq!(decode_int("20", SPAN), Ok(20));
        assert_eq!(decode_int("100_000", SPAN), Ok(100_000));
        assert_eq!(decode_int("200k", SPAN), Ok(200_000));
        assert_eq!(decode_int("2m", SPAN), Ok(2_000_000));
        assert_eq!(decode_int("9223372036854775807", SPAN), Ok(i64::MAX));
        assert_eq!(decode_int("-5", SPAN), Ok(-5));
        assert_eq!(decode_int("-9223372036854775808", SPAN), Ok(i64::MIN));
    }

    #[test]
    fn integer_overflow_is_an_error_not_a_wrap() {
        for text in [
            "9223372036854775808",
            "99999999999999999999999",
            "9223372036854776k",
        ] {
            let err = decode_int(text, SPAN).unwrap_err();
            assert!(err.message.contains("too large"), "{text}: {}", err.message);
            assert_eq!(err.span, SPAN);
        }
    }

    #[test]
    fn durations_in_milliseconds() {
        assert_eq!(decode_duration("500ms", SPAN), Ok(500));
        assert_eq!(decode_duration("30s", SPAN), Ok(30_000));
        assert_eq!(decode_duration("5min", SPAN), Ok(300_000));
        assert_eq!(decode_duration("2h", SPAN), Ok(7_200_000));
        assert_eq!(decode_duration("1_500ms", SPAN), Ok(1_500));
    }

    #[test]
    fn bad_durations() {
        assert!(decode_duration("5sec", SPAN)
            .unwrap_err()
            .message
            .contains("unit `sec`"));
        assert!(decode_duration("99999999999999999999h", SPAN).is_err());
        assert!(decode_duration("9999999999999999h", SPAN)
            .unwrap_err()
            .message
            .contains("too long"));
        assert!(decode_duration("ms", SPAN).is_err());
    }

    fn string(raw: &str) -> Result<String, Vec<LiteralError>> {
        decode_str(raw, Span::new(0, u32::try_from(raw.len()).unwrap() + 2))
    }

    #[test]
    fn escapes() {
        assert_eq!(string(r#"a\"b\\c\nd\te"#).unwrap(), "a\"b\\c\nd\te");
        assert_eq!(string(r"\u{1F600}x").unwrap(), "\u{1F600}x");
        assert_eq!(string("é").unwrap(), "é");
    }

    #[test]
    fn each_bad_escape_is_reported_at_its_span() {
        let source = r#""a\qb\u{D800}c\u{}""#;
        let raw = &source[1..source.len() - 1];
        let errors = string(raw).unwrap_err();
        let underlined: Vec<&str> = errors.iter().map(|err| &source[err.span.range()]).collect();
        assert_eq!(underlined, [r"\q", r"\u{D800}", r"\u{}"]);
        assert!(errors[1].message.contains("not a Unicode scalar value"));
    }

    #[test]
    fn unclosed_unicode_escape() {
        let errors = string(r"\u{12345678}").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].message.contains("expected `{`"),
            "{}",
            errors[0].message
        );
    }

    #[test]
    fn types_compare() {
        assert!(Type::Int.compatible(Type::Any));
        assert!(!Type::Int.compatible(Type::Duration));
        assert!(!Type::Str.is_ordered());
        assert_eq!(Type::of_field(&Field::Elapsed), Type::Duration);
    }
}
