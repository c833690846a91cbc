//! Literal values written in policies: in comparisons, lists and `set` effects.

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
