//! What a coding agent does with a policy run as its hook, told to the compiler's host
//! lints (`rulesc check --host`): the facts of `rulesc-host`, which follow its mapping and
//! answers, seen through the compiler's [`HostFacts`].

use rulesc_compiler::HostFacts;
use rulesc_host::Host;
use rulesc_runtime::{EventKind, Field, Verb};

/// A host, as the compiler's host lints ask about it
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostProfile(pub Host);

impl HostFacts for HostProfile {
    fn name(&self) -> &str {
        self.0.title()
    }

    fn sends(&self, kind: EventKind) -> bool {
        self.0.sends(kind)
    }

    fn honours(&self, kind: EventKind, verb: Verb) -> Result<(), String> {
        self.0.honours(kind, verb).map_err(str::to_owned)
    }

    fn fills(&self, field: &Field, kind: EventKind) -> bool {
        self.0.fills(field, kind)
    }
}
