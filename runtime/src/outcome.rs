//! The result of evaluating one event: the decision, who made it, and everything that fired.
//!
//! `Outcome` is the JSON contract of `rulesc eval` (docs/cli.md). A decision and who made it is
//! one [`Resolution`]; whatever else records a decision (a step, a run's end, a pending
//! stop, an event of a run) holds one.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::vocabulary::{spelled, EventKind, StopDecision, StopReason, Verb};

/// The resolved decision of one event (docs/cli.md `decision`)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Stop the run
    Forbid,
    /// Take another step
    Request,
    /// The work is done
    AllowStop,
    /// Permitted
    Allow,
    /// The tool call is refused
    Block,
    /// The tool call needs approval
    Ask,
    /// Retry the failed call
    Retry,
    /// Ignore the error
    Ignore,
    /// No rule decided and no default applied
    None,
}

spelled!(Decision {
    Forbid => "forbid",
    Request => "request",
    AllowStop => "allow_stop",
    Allow => "allow",
    Block => "block",
    Ask => "ask",
    Retry => "retry",
    Ignore => "ignore",
    None => "none",
});

impl From<Verb> for Decision {
    fn from(verb: Verb) -> Decision {
        match verb {
            Verb::Forbid => Decision::Forbid,
            Verb::Request => Decision::Request,
            Verb::AllowStop => Decision::AllowStop,
            Verb::Allow => Decision::Allow,
            Verb::Block => Decision::Block,
            Verb::Ask => Decision::Ask,
            Verb::Retry => Decision::Retry,
            Verb::Ignore => Decision::Ignore,
        }
    }
}

impl From<StopDecision> for Decision {
    fn from(decision: StopDecision) -> Decision {
        decision.verb().into()
    }
}

/// A resolved decision with the rule (or default, or host limit) behind it
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Resolution {
    /// The winning decision
    pub decision: Decision,
    /// Set for `forbid` and `allow_stop`, `null` otherwise
    pub stop_reason: Option<StopReason>,
    /// The deciding rule's message
    pub message: Option<String>,
    /// The deciding rule's id, `"default"`, a `host:` limit, or `null`
    pub resolved_by: Option<String>,
}

impl Resolution {
    /// No rule decided and no default applied
    pub fn none() -> Resolution {
        Resolution {
            decision: Decision::None,
            stop_reason: None,
            message: None,
            resolved_by: None,
        }
    }

    /// A stop: `decision` for `stop_reason`, decided by `resolved_by` (a rule id, a `host:`
    /// limit, or nobody)
    pub fn stop(
        decision: StopDecision,
        stop_reason: StopReason,
        resolved_by: Option<&str>,
    ) -> Resolution {
        Resolution {
            decision: decision.into(),
            stop_reason: Some(stop_reason),
            message: None,
            resolved_by: resolved_by.map(str::to_owned),
        }
    }
}

/// What a matched rule does, as its evaluation shows it: decide with a verb, or `set` a
/// metadata key (which decides nothing)
///
/// In JSON it is one word: the verb's name, or `set`.
///
/// ```
/// use rulesc_runtime::{Act, Verb};
///
/// assert_eq!(serde_json::to_string(&Act::Decide(Verb::AllowStop))?, r#""allow_stop""#);
/// assert_eq!(serde_json::from_str::<Act>(r#""set""#)?, Act::Set);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Act {
    /// A decision with this verb
    Decide(Verb),
    /// A `set` effect
    Set,
    /// A `label result` effect
    Label,
}

impl Act {
    /// The verb of a decision; `None` for `set`
    pub fn verb(self) -> Option<Verb> {
        match self {
            Act::Decide(verb) => Some(verb),
            Act::Set | Act::Label => None,
        }
    }

    /// The word in JSON and in the human rendering
    pub fn name(self) -> &'static str {
        match self {
            Act::Decide(verb) => verb.name(),
            Act::Set => "set",
            Act::Label => "label",
        }
    }
}

impl fmt::Display for Act {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<Verb> for Act {
    fn from(verb: Verb) -> Act {
        Act::Decide(verb)
    }
}

impl Serialize for Act {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Act {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        if name == "set" {
            return Ok(Act::Set);
        }
        if name == "label" {
            return Ok(Act::Label);
        }
        Verb::from_name(&name).map(Act::Decide).ok_or_else(|| {
            serde::de::Error::custom(format!("`{name}` is neither a verb nor `set`"))
        })
    }
}

/// One word, as `Serialize` writes it
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Act {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Act".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = Verb::ALL
            .into_iter()
            .map(Act::Decide)
            .chain([Act::Set, Act::Label])
            .map(Act::name)
            .collect();
        schemars::json_schema!({
            "description": "A matched rule's verb, `set` or `label`",
            "type": "string",
            "enum": names,
        })
    }
}

/// A rule (or native hook) that matched the event: its decision, or its `set`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Evaluation {
    /// The rule's id
    pub rule: String,
    /// Its verb, or `set`
    pub verb: Act,
    /// Its stop reason (set for `forbid` and `allow_stop`, `null` for `set`)
    pub stop_reason: Option<StopReason>,
    /// Its message (`null` for `set`)
    pub message: Option<String>,
    /// The file it was written in; `null` for the prelude and native hooks
    pub file: Option<String>,
    /// The line of its `on` keyword; `null` for the prelude and native hooks
    pub line: Option<u32>,
    /// Its `@priority`
    #[serde(default)]
    pub priority: i64,
    /// Whether it matched only because part of a shell line is known only when it runs
    /// (docs/shell.md): a rule that matched on what the line says decides before it
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undecided: bool,
}

/// A `set` effect that was applied
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EffectRecord {
    /// The rule that set it
    pub rule: String,
    /// The metadata path, dotted (`tainted`, `a.b`)
    pub key: String,
    /// The value stored
    pub value: Json,
}

/// The resolved result of one event
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Outcome {
    /// The event that was evaluated
    pub event: EventKind,
    /// The resolved decision and who made it (in JSON, its keys sit beside `event`)
    #[serde(flatten)]
    pub resolution: Resolution,
    /// Every matching rule, deciding or `set`, sorted by rule id
    pub evaluations: Vec<Evaluation>,
    /// Every matching rule in shadow mode (`@mode(shadow)`), sorted by rule id: what it
    /// would have decided or set, never applied; absent from JSON when empty
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shadow: Vec<Evaluation>,
    /// Every `set` applied, in application order
    pub effects: Vec<EffectRecord>,
    /// The execution's metadata after the effects
    #[serde(serialize_with = "crate::vocabulary::sorted_map")]
    pub metadata: Map<String, Json>,
}
