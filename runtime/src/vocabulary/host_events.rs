//! The events of the hosts `rulesc hook` serves (Claude Code, Codex, Gemini CLI): each
//! host's names and what each one is to rulesc. One table for the hook, which maps them
//! (each host's module of `host/src/hosts/` names its table), and the compiler, which names
//! the rulesc event a policy that writes a host's name means ([`ALL_HOST_EVENTS`]).
//!
//! The tables live here, below both, because the compiler may not import `rulesc-host`
//! (ARCHITECTURE.md); everything else about a host lives in its module of `host/src/hosts/`.
//!
//! The event names, by host (each list from the host's own source):
//! - Claude Code: the hooks reference, code.claude.com/docs/en/hooks;
//! - Codex: openai/codex `codex-rs/hooks/src/schema.rs` (`HookEventNameWire`) and
//!   `codex-rs/hooks/src/events/` (one module per event);
//! - Gemini CLI: google-gemini/gemini-cli `packages/core/src/hooks/types.ts`
//!   (`HookEventName`).

use super::EventKind;

/// A host event `rulesc hook` maps to rulesc events (the event table of docs/hosts.md)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostEvent {
    /// `SessionStart`: `execution_start`
    SessionStart,
    /// `UserPromptSubmit` (Gemini CLI: `BeforeAgent`): `before_step`
    PromptSubmit,
    /// `PreToolUse` (`BeforeTool`): `pre_tool_use`
    PreTool,
    /// `PermissionRequest` (Claude Code, Codex): the host is about to ask its user to approve
    /// a tool call; judged by the `pre_tool_use` rules, without counting as another call
    PermissionRequest,
    /// `PostToolUse` (`AfterTool`): `post_tool_use`
    PostTool,
    /// `PostToolUseFailure` (Gemini CLI: an `AfterTool` whose response carries an `error`):
    /// `post_tool_use` with `tool_error`, then `on_error`
    PostToolFailure,
    /// `Stop` (`AfterAgent`): `stop`
    Stop,
    /// `SubagentStop`: `subagent_stop`
    SubagentStop,
    /// `SessionEnd`: `execution_end`
    SessionEnd,
}

impl HostEvent {
    /// Whether the host runs a tool, or approves one, on the answer to this event
    pub fn gates_tool_call(self) -> bool {
        matches!(self, HostEvent::PreTool | HostEvent::PermissionRequest)
    }

    /// The rulesc event a policy names for it: the one `rulesc hook` fires for it, or for a
    /// failed tool call (`post_tool_use` with `tool_error`, then `on_error`) the last
    pub fn rulesc_event(self) -> EventKind {
        match self {
            HostEvent::SessionStart => EventKind::ExecutionStart,
            HostEvent::PromptSubmit => EventKind::BeforeStep,
            HostEvent::PreTool | HostEvent::PermissionRequest => EventKind::PreToolUse,
            HostEvent::PostTool => EventKind::PostToolUse,
            HostEvent::PostToolFailure => EventKind::OnError,
            HostEvent::Stop => EventKind::Stop,
            HostEvent::SubagentStop => EventKind::SubagentStop,
            HostEvent::SessionEnd => EventKind::ExecutionEnd,
        }
    }
}

/// What an event a host sends is to rulesc
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostEventName {
    /// Mapped to rulesc events
    Mapped(HostEvent),
    /// Sent by the host, but nothing a policy speaks of: no opinion
    Unmapped,
}

/// Every host's events, for what reads a name whatever the host (the compiler's hints)
pub const ALL_HOST_EVENTS: [&[(&str, HostEventName)]; 3] =
    [&CLAUDE_EVENTS, &CODEX_EVENTS, &GEMINI_EVENTS];

/// Claude Code's events (code.claude.com/docs/en/hooks, "Hook events")
pub const CLAUDE_EVENTS: [(&str, HostEventName); 13] = [
    (
        "SessionStart",
        HostEventName::Mapped(HostEvent::SessionStart),
    ),
    (
        "UserPromptSubmit",
        HostEventName::Mapped(HostEvent::PromptSubmit),
    ),
    ("PreToolUse", HostEventName::Mapped(HostEvent::PreTool)),
    (
        "PermissionRequest",
        HostEventName::Mapped(HostEvent::PermissionRequest),
    ),
    ("PostToolUse", HostEventName::Mapped(HostEvent::PostTool)),
    (
        "PostToolUseFailure",
        HostEventName::Mapped(HostEvent::PostToolFailure),
    ),
    ("Stop", HostEventName::Mapped(HostEvent::Stop)),
    (
        "SubagentStop",
        HostEventName::Mapped(HostEvent::SubagentStop),
    ),
    ("SessionEnd", HostEventName::Mapped(HostEvent::SessionEnd)),
    ("Notification", HostEventName::Unmapped),
    ("PreCompact", HostEventName::Unmapped),
    ("PostCompact", HostEventName::Unmapped),
    ("SubagentStart", HostEventName::Unmapped),
];

/// Codex's events (openai/codex `codex-rs/hooks/src/events/`)
pub const CODEX_EVENTS: [(&str, HostEventName); 12] = [
    (
        "SessionStart",
        HostEventName::Mapped(HostEvent::SessionStart),
    ),
    (
        "UserPromptSubmit",
        HostEventName::Mapped(HostEvent::PromptSubmit),
    ),
    ("PreToolUse", HostEventName::Mapped(HostEvent::PreTool)),
    (
        "PermissionRequest",
        HostEventName::Mapped(HostEvent::PermissionRequest),
    ),
    ("PostToolUse", HostEventName::Mapped(HostEvent::PostTool)),
    ("Stop", HostEventName::Mapped(HostEvent::Stop)),
    (
        "SubagentStop",
        HostEventName::Mapped(HostEvent::SubagentStop),
    ),
    ("SessionEnd", HostEventName::Mapped(HostEvent::SessionEnd)),
    ("PreCompact", HostEventName::Unmapped),
    ("PostCompact", HostEventName::Unmapped),
    ("SubagentStart", HostEventName::Unmapped),
    ("StopFailure", HostEventName::Unmapped),
];

/// Gemini CLI's events (google-gemini/gemini-cli `packages/core/src/hooks/types.ts`); a
/// failed `AfterTool` is told apart by its response
pub const GEMINI_EVENTS: [(&str, HostEventName); 11] = [
    (
        "SessionStart",
        HostEventName::Mapped(HostEvent::SessionStart),
    ),
    (
        "BeforeAgent",
        HostEventName::Mapped(HostEvent::PromptSubmit),
    ),
    ("BeforeTool", HostEventName::Mapped(HostEvent::PreTool)),
    ("AfterTool", HostEventName::Mapped(HostEvent::PostTool)),
    ("AfterAgent", HostEventName::Mapped(HostEvent::Stop)),
    ("SessionEnd", HostEventName::Mapped(HostEvent::SessionEnd)),
    ("Notification", HostEventName::Unmapped),
    ("PreCompress", HostEventName::Unmapped),
    ("BeforeModel", HostEventName::Unmapped),
    ("AfterModel", HostEventName::Unmapped),
    ("BeforeToolSelection", HostEventName::Unmapped),
];
