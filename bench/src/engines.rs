//! The engines compared, behind one trait: each compiles the tool-rules shape once,
//! prepares a request once, then decides it as often as a benchmark asks.
//!
//! Only [`Engine::blocks`] is timed. Preparing a request (an event, a Cedar request, a Rego
//! input, a string) is left out for every engine alike.

use std::str::FromStr;

use cedar_policy::{Authorizer, Context, Entities, EntityUid, PolicySet};
use globset::{Glob, GlobSet, GlobSetBuilder};
use rulesc::{Decision, Event, EventKind, Policy};

use crate::tool_rules;
use crate::SetupError;

/// A policy engine holding the tool-rules shape
pub trait Engine: Sized {
    /// A request ready to decide
    type Prepared;

    /// The engine's name in benchmark ids and in the report
    const NAME: &'static str;

    /// Compiles the shape with `n_rules` rules
    ///
    /// # Errors
    ///
    /// When the engine refuses the generated policy.
    fn new(n_rules: usize) -> Result<Self, SetupError>;

    /// The request that calls `tool`
    ///
    /// # Errors
    ///
    /// When the engine refuses the request.
    fn prepare(&self, tool: &str) -> Result<Self::Prepared, SetupError>;

    /// Whether the call is blocked: one decision
    fn blocks(&mut self, request: &Self::Prepared) -> bool;
}

/// rulesc: the shape compiled from `.rules` source, decided by [`Policy::evaluate`]
#[derive(Debug, Clone)]
pub struct Rulesc {
    policy: Policy,
}

impl Rulesc {
    /// The compiled policy
    pub fn policy(&self) -> &Policy {
        &self.policy
    }
}

impl Engine for Rulesc {
    type Prepared = Event;

    const NAME: &'static str = "rulesc";

    fn new(n_rules: usize) -> Result<Rulesc, SetupError> {
        let policy = rulesc::compile_str("tools.rules", &tool_rules::rulesc_source(n_rules))?;
        Ok(Rulesc { policy })
    }

    fn prepare(&self, tool: &str) -> Result<Event, SetupError> {
        let mut event = Event::new(EventKind::PreToolUse);
        event.tool = Some(tool.to_owned());
        Ok(event)
    }

    fn blocks(&mut self, request: &Event) -> bool {
        self.policy.evaluate(request).resolution.decision == Decision::Block
    }
}

/// cedar-policy: `forbid` policies with `like`, decided by `Authorizer::is_authorized`
#[derive(Debug)]
pub struct Cedar {
    authorizer: Authorizer,
    policies: PolicySet,
    entities: Entities,
}

impl Engine for Cedar {
    type Prepared = cedar_policy::Request;

    const NAME: &'static str = "cedar";

    fn new(n_rules: usize) -> Result<Cedar, SetupError> {
        Ok(Cedar {
            authorizer: Authorizer::new(),
            policies: PolicySet::from_str(&tool_rules::cedar_source(n_rules))?,
            entities: Entities::empty(),
        })
    }

    fn prepare(&self, tool: &str) -> Result<cedar_policy::Request, SetupError> {
        let context = Context::from_json_value(serde_json::json!({ "tool": tool }), None)?;
        Ok(cedar_policy::Request::new(
            EntityUid::from_str(r#"Agent::"agent""#)?,
            EntityUid::from_str(r#"Action::"call""#)?,
            EntityUid::from_str(r#"Tool::"tool""#)?,
            context,
            None,
        )?)
    }

    fn blocks(&mut self, request: &cedar_policy::Request) -> bool {
        let response = self
            .authorizer
            .is_authorized(request, &self.policies, &self.entities);
        response.decision() == cedar_policy::Decision::Deny
    }
}

/// regorus: a Rego partial set `deny` with `startswith`, decided by the interpreter
pub struct Rego {
    engine: regorus::Engine,
}

impl std::fmt::Debug for Rego {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rego").finish_non_exhaustive()
    }
}

/// The rule regorus evaluates
const REGO_RULE: &str = "data.agent.deny";

impl Engine for Rego {
    type Prepared = regorus::Value;

    const NAME: &'static str = "regorus";

    fn new(n_rules: usize) -> Result<Rego, SetupError> {
        let mut engine = regorus::Engine::new();
        engine.add_policy("tools.rego".to_owned(), tool_rules::rego_source(n_rules))?;
        Ok(Rego { engine })
    }

    fn prepare(&self, tool: &str) -> Result<regorus::Value, SetupError> {
        Ok(regorus::Value::from(serde_json::json!({ "tool": tool })))
    }

    /// Sets the input, then evaluates `deny`: regorus takes its input per evaluation
    fn blocks(&mut self, request: &regorus::Value) -> bool {
        self.engine.set_input(request.clone());
        self.engine
            .eval_rule(REGO_RULE.to_owned())
            .ok()
            .and_then(|deny| deny.as_set().ok().map(|set| !set.is_empty()))
            .unwrap_or(false)
    }
}

/// The floor: the shape's globs in one `globset::GlobSet`, asked which of them match
#[derive(Debug, Clone)]
pub struct GlobsetFloor {
    set: GlobSet,
    matched: Vec<usize>,
}

impl Engine for GlobsetFloor {
    type Prepared = String;

    const NAME: &'static str = "globset";

    fn new(n_rules: usize) -> Result<GlobsetFloor, SetupError> {
        let mut builder = GlobSetBuilder::new();
        for glob in tool_rules::globs(n_rules) {
            builder.add(Glob::new(&glob)?);
        }
        Ok(GlobsetFloor {
            set: builder.build()?,
            matched: Vec::new(),
        })
    }

    fn prepare(&self, tool: &str) -> Result<String, SetupError> {
        Ok(tool.to_owned())
    }

    /// Which globs match, into a buffer kept between calls (no allocation)
    fn blocks(&mut self, request: &String) -> bool {
        self.set.matches_into(request, &mut self.matched);
        !self.matched.is_empty()
    }
}
