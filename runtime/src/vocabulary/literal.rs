//! Literal values written in policies: in comparisons, lists and `set` effects; and the
//! one reading of a duration's text.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// A constant from policy source
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Literal {
    /// `true` or `false`
    Bool(bool),
    /// An integer, suffixes already applied (`200k` is 200000)
    Int(i64),
    /// A duration in milliseconds (`5min` is 300000)
    Duration(u64),
    /// A string, escapes already decoded
    Str(String),
    /// A list of literals
    List(Vec<Literal>),
}

impl Literal {
    /// The literal as JSON, as `set` stores it in metadata (durations become milliseconds)
    pub fn to_json(&self) -> Json {
        match self {
            Literal::Bool(value) => Json::Bool(*value),
            Literal::Int(value) => Json::from(*value),
            Literal::Duration(ms) => Json::from(*ms),
            Literal::Str(value) => Json::String(value.clone()),
            Literal::List(items) => Json::Array(items.iter().map(Literal::to_json).collect()),
        }
    }
}

impl fmt::Display for Literal {
    /// Written as in source; durations in milliseconds (`1500ms`)
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Bool(value) => write!(f, "{value}"),
            Literal::Int(value) => write!(f, "{value}"),
            Literal::Duration(ms) => write!(f, "{ms}ms"),
            Literal::Str(value) => write!(f, "{value:?}"),
            Literal::List(items) => {
                f.write_str("[")?;
                for (idx, item) in items.iter().enumerate() {
                    if idx > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// The units a duration may be written in, with their length in milliseconds
const DURATION_UNITS: [(&str, u64); 5] = [
    ("ms", 1),
    ("s", 1_000),
    ("min", 60_000),
    ("h", 3_600_000),
    ("d", 86_400_000),
];

/// Why a text is not a duration
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DurationError {
    /// No digits before the unit, or something other than digits and `_` there
    NotANumber,
    /// No unit, or one that is not `ms`, `s`, `min`, `h` or `d`
    UnknownUnit(String),
    /// More milliseconds than a `u64` holds
    TooLong,
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurationError::NotANumber => f.write_str("a duration starts with digits"),
            DurationError::UnknownUnit(unit) if unit.is_empty() => {
                f.write_str("a duration needs a unit: `ms`, `s`, `min`, `h` or `d`")
            }
            DurationError::UnknownUnit(unit) => write!(
                f,
                "unknown duration unit `{unit}`: write `ms`, `s`, `min`, `h` or `d`"
            ),
            DurationError::TooLong => f.write_str("the duration is too long"),
        }
    }
}

impl std::error::Error for DurationError {}

/// The milliseconds of `500ms`, `30s`, `5min`, `2h` or `7d`: decimal digits, optionally
/// grouped with `_`, then a unit with no space
///
/// ```
/// use rulesc_runtime::{parse_duration, DurationError};
///
/// assert_eq!(parse_duration("1_500ms"), Ok(1_500));
/// assert_eq!(parse_duration("5min"), Ok(300_000));
/// assert_eq!(parse_duration("7"), Err(DurationError::UnknownUnit(String::new())));
/// ```
pub fn parse_duration(text: &str) -> Result<u64, DurationError> {
    let unit_start = text
        .find(|ch: char| !ch.is_ascii_digit() && ch != '_')
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(unit_start);
    let per_unit = DURATION_UNITS
        .iter()
        .find(|(name, _)| *name == unit)
        .map(|(_, ms)| *ms)
        .ok_or_else(|| DurationError::UnknownUnit(unit.to_owned()))?;
    if !digits.bytes().any(|byte| byte.is_ascii_digit()) {
        return Err(DurationError::NotANumber);
    }
    digits
        .bytes()
        .filter(u8::is_ascii_digit)
        .try_fold(0_u64, |value, digit| {
            value
                .checked_mul(10)
                .and_then(|value| value.checked_add(u64::from(digit - b'0')))
        })
        .and_then(|value| value.checked_mul(per_unit))
        .ok_or(DurationError::TooLong)
}
