//! The versioned compiled-policy JSON written by `rulesc compile` and loaded wherever a
//! policy is accepted.
//!
//! ```json
//! {"format": "rulesc-policy", "version": 1, "defaults": {...}, "rules": [...]}
//! ```
//!
//! Invariant: loading goes through `Policy::new`, so a loaded policy is checked exactly as a
//! compiled one, its patterns are compiled again, and it gets the prelude of the loading
//! runtime (the JSON holds the user's rules only). serde_json's recursion limit stays on,
//! so hostile nesting is an error, not a stack overflow.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::policy::{Defaults, Policy, PolicyError, Rule};

/// The `format` key of compiled policies
pub const FORMAT_NAME: &str = "rulesc-policy";
/// The `version` this runtime writes and reads
pub const FORMAT_VERSION: u64 = 1;

/// Why a compiled policy could not be loaded
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadError {
    /// The text is not JSON of the compiled-policy shape
    Json(String),
    /// The `format` key is missing or names another format
    Format(Option<String>),
    /// The `version` key is missing or not one this runtime reads
    Version(Option<u64>),
    /// The rules do not form a valid policy
    Policy(PolicyError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Json(reason) => write!(f, "invalid compiled policy: {reason}"),
            LoadError::Format(None) => {
                write!(f, "not a compiled policy: `format` is missing")
            }
            LoadError::Format(Some(found)) => write!(
                f,
                "not a compiled policy: `format` is `{found}`, expected `{FORMAT_NAME}`"
            ),
            LoadError::Version(None) => {
                write!(f, "invalid compiled policy: `version` is missing")
            }
            LoadError::Version(Some(found)) => write!(
                f,
                "compiled policy version {found} is not supported (this rulesc reads version {FORMAT_VERSION})"
            ),
            LoadError::Policy(err) => write!(f, "invalid compiled policy: {err}"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Policy(err) => Some(err),
            LoadError::Json(_) | LoadError::Format(_) | LoadError::Version(_) => None,
        }
    }
}

/// The envelope as written
#[derive(Serialize)]
struct Written<'a> {
    format: &'static str,
    version: u64,
    defaults: &'a Defaults,
    rules: &'a [Rule],
}

/// The envelope's identification, read before anything else
#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    version: Option<u64>,
}

/// The body, once the envelope is known to be ours
#[derive(Deserialize)]
struct Body {
    #[serde(default)]
    defaults: Defaults,
    rules: Vec<Rule>,
}

impl Policy {
    /// The compiled-policy JSON of this policy: its defaults and the user's rules
    ///
    /// Host limits are not part of a policy and are not written.
    pub fn to_json(&self) -> String {
        // Invariant: every type written is plain data with string map keys, which
        // serde_json always serializes.
        serde_json::to_string(&self.written()).unwrap_or_default()
    }

    /// [`Policy::to_json`] indented for people, as `rulesc compile` writes it
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(&self.written()).unwrap_or_default()
    }

    fn written(&self) -> Written<'_> {
        Written {
            format: FORMAT_NAME,
            version: FORMAT_VERSION,
            defaults: self.defaults(),
            rules: self.user_rules(),
        }
    }

    /// Loads a policy written by [`Policy::to_json`], checking it as [`Policy::new`] does
    pub fn from_json(json: &str) -> Result<Policy, LoadError> {
        let header: Header = serde_json::from_str(json).map_err(json_error)?;
        match header.format {
            Some(format) if format == FORMAT_NAME => {}
            other => return Err(LoadError::Format(other)),
        }
        match header.version {
            Some(FORMAT_VERSION) => {}
            other => return Err(LoadError::Version(other)),
        }
        let body: Body = serde_json::from_str(json).map_err(json_error)?;
        Policy::new(body.rules, body.defaults).map_err(LoadError::Policy)
    }
}

fn json_error(err: serde_json::Error) -> LoadError {
    LoadError::Json(err.to_string())
}
