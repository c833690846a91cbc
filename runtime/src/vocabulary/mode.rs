//! Whether a rule is enforced or only watched: `@mode(shadow)` (docs/shadow.md).

use serde::{Deserialize, Serialize};

/// How a rule takes part in an evaluation
///
/// A shadow rule is evaluated like any other and listed in the outcome's `shadow`, but it
/// never decides and its `set` is never applied, so it cannot change an outcome: a team
/// watches what a rule would do before it turns it on.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The rule decides and its effects apply (every rule without `@mode`)
    #[default]
    Enforce,
    /// The rule is evaluated and recorded, never enforced
    Shadow,
}

impl Mode {
    /// Whether this is [`Mode::Enforce`] (what compiled JSON leaves unwritten)
    pub fn is_enforce(&self) -> bool {
        *self == Mode::Enforce
    }
}

super::spelled!(Mode {
    Enforce => "enforce",
    Shadow => "shadow",
});
