//! The versioned compiled-policy JSON written by `rulesc compile` and loaded wherever a
//! policy is accepted.
//!
//! ```json
//! {"format": "rulesc-policy", "version": 2, "defaults": {...}, "rules": [...]}
//! ```
//!
//! Invariant: loading goes through `Policy::new`, so a loaded policy is checked exactly as a
//! compiled one, its patterns are compiled again, and it gets the prelude of the loading
//! runtime (the JSON holds the user's rules only). serde_json's recursion limit stays on,
//! so hostile nesting is an error, not a stack overflow.
//!
//! A rule's `condition` is written flat, in postfix order: each leaf test as
//! `{"leaf": {...}}`, each connective after its operands as `{"all": n}`, `{"any": n}` or
//! `"not"`. `steps > 3 and not blocked` is
//! `[{"leaf": <steps > 3>}, {"leaf": <blocked>}, "not", {"all": 2}]`. So however deeply a
//! policy nests its conditions (the language allows hundreds of levels), its JSON nests a
//! fixed few levels, well within the reader's recursion limit, and reading it back needs
//! no recursion.
//!
//! The hook's cache keeps policies in a compact binary form of its own (`compact.rs`,
//! [`Policy::to_compact`]), which writes each condition in the same postfix nodes. In a
//! binary format every field is written, in order, with no name: types whose JSON leaves a
//! field out (an enforced rule's `mode`, a count without `when`) or reads a value by its
//! shape (a path step, a key or an index) ask the serializer whether it is human-readable
//! and write every field, tagged, when it is not.

use std::fmt;

use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

use crate::policy::Policy;
use crate::policy_error::{PolicyError, MAX_CONDITION_DEPTH};
use crate::postfix::{flatten, unflatten, Node};
use crate::vocabulary::{Action, Condition, Defaults, EventKind, Mode, Origin, Rule};

/// The `format` key of compiled policies
pub const FORMAT_NAME: &str = "rulesc-policy";
/// The `version` this runtime writes; it reads this one and every earlier one
/// (from version 1), whose policies mean what they meant
///
/// Version 2 added the tests that ignore case (`==*`, `!=*`, a glob written
/// `{"ignoring_case": "..."}`), and labels on fields of a result.
pub const FORMAT_VERSION: u64 = 2;

/// The oldest `version` this runtime reads: a policy of version 1 is one of version 2
/// that uses none of its additions
const OLDEST_FORMAT_VERSION: u64 = 1;

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
                "compiled policy version {found} is not supported (this rulesc reads versions {OLDEST_FORMAT_VERSION} to {FORMAT_VERSION})"
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

/// A compiled policy as written (docs/cli.md `compile`): the envelope, the defaults and the
/// user's rules
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "CompiledPolicy"))]
struct Written<'a> {
    /// Always `rulesc-policy`
    #[cfg_attr(feature = "schema", schemars(extend("const" = FORMAT_NAME)))]
    format: &'static str,
    /// The version this runtime writes
    #[cfg_attr(feature = "schema", schemars(extend("const" = FORMAT_VERSION)))]
    version: u64,
    defaults: &'a Defaults,
    rules: Vec<FlatRule<&'a str, &'a Condition>>,
}

/// The JSON of a policy is the compiled policy [`Policy::to_json`] writes
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Policy {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        Written::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        Written::json_schema(generator)
    }
}

/// The identification of a versioned JSON envelope (a compiled policy, a checkpoint), read
/// before anything else so a foreign or newer file is refused with a clear reason
#[derive(Deserialize)]
pub(crate) struct Header {
    /// The `format` key
    #[serde(default)]
    pub(crate) format: Option<String>,
    /// The `version` key
    #[serde(default)]
    pub(crate) version: Option<u64>,
}

/// The whole policy: its envelope (as [`Header`] reads it) and what it holds
#[derive(Deserialize)]
struct Body {
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    defaults: Defaults,
    rules: Vec<FlatRule<String, Condition>>,
}

/// A rule as written: a [`Rule`] whose condition is a postfix list of [`Node`]s
#[derive(Deserialize)]
#[serde(bound(deserialize = "S: Deserialize<'de>, C: Deserialize<'de>"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        rename = "CompiledRule",
        bound = "S: schemars::JsonSchema",
        description = "A compiled rule; its `condition` and `action` are the runtime's own form"
    )
)]
struct FlatRule<S, C> {
    id: S,
    events: Vec<EventKind>,
    // The schema leaves a condition's nodes and an action to the runtime's reader: describing
    // every test would take the whole vocabulary, for a document only rulesc writes.
    /// The condition, flat in postfix order: each test as `{"leaf": ...}`, each connective
    /// after its operands (`{"all": n}`, `{"any": n}`, `"not"`); `null` when there is none
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Option<Vec<serde_json::Value>>"))]
    condition: Option<Vec<Node<C>>>,
    /// What the rule does, in the runtime's own form
    #[cfg_attr(feature = "schema", schemars(with = "serde_json::Value"))]
    action: Action,
    #[serde(default)]
    priority: i64,
    #[serde(default)]
    origin: Option<Origin>,
    /// `@mode(shadow)`; absent from the JSON of an enforced rule, so older JSON keeps its
    /// bytes
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(skip_serializing_if = "Mode::is_enforce"))]
    mode: Mode,
}

impl<S: Serialize, C: Serialize> Serialize for FlatRule<S, C> {
    fn serialize<W: Serializer>(&self, serializer: W) -> Result<W::Ok, W::Error> {
        let mode = !serializer.is_human_readable() || !self.mode.is_enforce();
        let mut rule = serializer.serialize_struct("FlatRule", 6 + usize::from(mode))?;
        rule.serialize_field("id", &self.id)?;
        rule.serialize_field("events", &self.events)?;
        rule.serialize_field("condition", &self.condition)?;
        rule.serialize_field("action", &self.action)?;
        rule.serialize_field("priority", &self.priority)?;
        rule.serialize_field("origin", &self.origin)?;
        if mode {
            rule.serialize_field("mode", &self.mode)?;
        } else {
            rule.skip_field("mode")?;
        }
        rule.end()
    }
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
        let rules = self
            .user_rules()
            .iter()
            .map(|rule| FlatRule {
                id: rule.id.as_str(),
                events: rule.events.clone(),
                condition: rule.condition.as_ref().map(flatten),
                action: rule.action.clone(),
                priority: rule.priority,
                origin: rule.origin.clone(),
                mode: self.written_mode(&rule.id),
            })
            .collect();
        Written {
            format: FORMAT_NAME,
            version: FORMAT_VERSION,
            defaults: self.defaults(),
            rules,
        }
    }

    /// Loads a policy written by [`Policy::to_json`], checking it as [`Policy::new`] does
    pub fn from_json(json: &str) -> Result<Policy, LoadError> {
        // One pass over a policy of this format (the hook reads one on every call); the
        // envelope alone is read again only to say why a file that is not one is refused.
        let body: Body = match serde_json::from_str(json) {
            Ok(body) => body,
            Err(err) => {
                let header: Header = serde_json::from_str(json).map_err(json_error)?;
                check_envelope(header.format, header.version)?;
                return Err(json_error(err));
            }
        };
        check_envelope(body.format, body.version)?;
        Policy::from_flat(body.rules, body.defaults)
    }

    /// The policy of `rules` as written, checked as [`Policy::new`] checks
    fn from_flat(
        rules: Vec<FlatRule<String, Condition>>,
        defaults: Defaults,
    ) -> Result<Policy, LoadError> {
        let mut shadow = Vec::new();
        // One stack for every condition, so a policy of many rules allocates it once.
        let mut stack = Vec::new();
        let rules = rules
            .into_iter()
            .map(|rule| {
                if rule.mode == Mode::Shadow {
                    shadow.push(rule.id.clone());
                }
                let condition = match rule.condition {
                    Some(nodes) => Some(unflatten(nodes, &mut stack).ok_or_else(|| {
                        LoadError::Json(format!(
                            "the condition of rule `{}` is malformed or nests deeper than {MAX_CONDITION_DEPTH} levels",
                            rule.id
                        ))
                    })?),
                    None => None,
                };
                Ok(Rule {
                    id: rule.id,
                    events: rule.events,
                    condition,
                    action: rule.action,
                    priority: rule.priority,
                    origin: rule.origin,
                })
            })
            .collect::<Result<Vec<Rule>, LoadError>>()?;
        let policy = Policy::new(rules, defaults).map_err(LoadError::Policy)?;
        Ok(if shadow.is_empty() {
            policy
        } else {
            policy.with_shadow_rules(shadow)
        })
    }
}

/// Refuses a policy of another format, or of a version this runtime does not read
fn check_envelope(format: Option<String>, version: Option<u64>) -> Result<(), LoadError> {
    match format {
        Some(format) if format == FORMAT_NAME => {}
        other => return Err(LoadError::Format(other)),
    }
    match version {
        Some(OLDEST_FORMAT_VERSION..=FORMAT_VERSION) => Ok(()),
        other => Err(LoadError::Version(other)),
    }
}

fn json_error(err: serde_json::Error) -> LoadError {
    LoadError::Json(err.to_string())
}
