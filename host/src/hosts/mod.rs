//! The coding agents `rulesc hook` serves, one module each: everything rulesc knows of a
//! host is its module — its [`Profile`] (its names, its event table, how its payload departs
//! from the others', the shape of its answers, what it sends and fills, the hook
//! configuration `rulesc init` writes for it and the trust it asks for), and, where the host
//! needs them, the reader of its recorded sessions (`transcript.rs`, for `rulesc replay`)
//! and the rules of its trust (`codex/trust.rs`). The code that reads payloads
//! (`payload.rs`), writes answers (`answer.rs`) and states facts (`facts.rs`) is the same for
//! every host and asks the profile wherever hosts differ; the command line does the I/O of
//! the configuration and the trust.
//!
//! One part of a host lives elsewhere: its event table is in the runtime
//! (`runtime/src/vocabulary/host_events.rs`), because the compiler names events by it and may
//! not import this crate; the profile points at it.
//!
//! Adding a host: a module here with its `PROFILE`, a variant of [`Host`] with its line in
//! [`Host::ALL`] and [`Host::profile`], and its event table in the runtime (with its line in
//! `ALL_HOST_EVENTS`); a host whose sessions `rulesc replay` reads adds its reader here and
//! its line in `replay::TraceFormat`.

mod claude;
mod codex;
mod gemini;

pub(crate) use claude::transcript::ClaudeTranscript;
pub(crate) use codex::transcript::CodexRollout;
pub use codex::trust::TrustEntry;
pub use gemini::folder_trusted;
use rulesc_runtime::{EventKind, HostEventName, SortedJson, ToolOutput};
use serde_json::Value as Json;

/// The coding agent whose hook protocol is spoken
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    /// Claude Code
    Claude,
    /// Gemini CLI
    Gemini,
    /// Codex (Claude Code's protocol)
    Codex,
}

impl Host {
    /// Every host
    pub const ALL: [Host; 3] = [Host::Claude, Host::Gemini, Host::Codex];

    /// What rulesc knows of the host
    pub(crate) fn profile(self) -> &'static Profile {
        match self {
            Host::Claude => &claude::PROFILE,
            Host::Gemini => &gemini::PROFILE,
            Host::Codex => &codex::PROFILE,
        }
    }

    /// The host `--host` names `flag` (`claude`, `gemini`, `codex`), if any
    pub fn from_flag(flag: &str) -> Option<Host> {
        Host::ALL.into_iter().find(|host| host.flag() == flag)
    }

    /// The host's name for people
    pub fn title(self) -> &'static str {
        self.profile().title
    }

    /// The host's name as `--host` takes it
    pub fn flag(self) -> &'static str {
        self.profile().flag
    }

    /// The hook configuration `rulesc init` writes for the host
    pub fn hook_template(self) -> &'static HookTemplate {
        &self.profile().template
    }

    /// The host's name of the event that gates a tool call before it runs
    pub fn pre_tool_event(self) -> &'static str {
        self.profile().pre_tool_event
    }

    /// The host's name of its shell tool
    pub fn shell_tool(self) -> &'static str {
        self.profile().shell_tool
    }
}

/// What rulesc knows of one host
pub(crate) struct Profile {
    /// The host's name as `--host` takes it
    pub(crate) flag: &'static str,
    /// The host's name for people
    pub(crate) title: &'static str,
    /// Every event the host sends, mapped or not (the runtime's table)
    pub(crate) events: &'static [(&'static str, HostEventName)],
    /// The host's name of the event that gates a tool call before it runs
    pub(crate) pre_tool_event: &'static str,
    /// The host's name of its shell tool
    pub(crate) shell_tool: &'static str,
    /// How its payloads depart from the fields every host shares
    pub(crate) payload: Payload,
    /// What its answers can say, and where
    pub(crate) answer: Answer,
    /// What it never sends or fills
    pub(crate) facts: Facts,
    /// The hook configuration `rulesc init` writes for it
    pub(crate) template: HookTemplate,
}

/// How a host's payload departs from the fields every host shares
pub(crate) struct Payload {
    /// Where a stop event carries the agent's last answer
    pub(crate) final_answer: FinalAnswer,
    /// The tool's name as rules know it, from the host's name and its `mcp_context`
    pub(crate) tool_name: fn(String, Option<&Json>) -> String,
    /// The tool's input as rules read it, from the host's name of the tool and its input
    pub(crate) tool_input: fn(Option<&str>, Json) -> Json,
    /// The tool's output as rules read it, from its `tool_response`
    pub(crate) tool_output: fn(Json) -> ToolOutput,
    /// The failure a `tool_response` reports, for a host that sends a failed call as a
    /// successful one's event
    pub(crate) failure_in_output: fn(&Json) -> Option<String>,
}

/// The payload field that holds the agent's last answer on a stop event
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FinalAnswer {
    /// `last_assistant_message`
    LastAssistantMessage,
    /// `prompt_response`
    PromptResponse,
}

/// What a host's answers can say, and where
pub(crate) struct Answer {
    /// Whether a hook can ask the user to approve a tool call
    pub(crate) asks: bool,
    /// Why a hook's `allow` of a tool call is not taken, for a host that takes none
    pub(crate) refuses_allow: Option<&'static str>,
    /// Where the decision on a tool call goes
    pub(crate) tool_decision: ToolDecision,
    /// Whether `continue: false` may go with the answer to the tool-call event
    pub(crate) halts_before_tool: bool,
    /// Whether `continue: false` may go with the answer to `PermissionRequest`
    pub(crate) halts_on_permission_request: bool,
    /// The `decision` that refuses a prompt or an agent's stop
    pub(crate) refusal: &'static str,
}

/// Where a host reads the decision on a tool call before it runs
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ToolDecision {
    /// `hookSpecificOutput.permissionDecision`, with `permissionDecisionReason`
    HookSpecificOutput,
    /// A top-level `decision`, `allow` or `deny`, with `reason`
    TopLevel,
}

/// What a host never sends or fills, beyond what no hook sees
pub(crate) struct Facts {
    /// The rulesc events its hooks never fire
    pub(crate) never_sends: &'static [EventKind],
    /// Whether its calls carry `permission_mode`
    pub(crate) permission_mode: bool,
}

/// The hook configuration `rulesc init` writes for a host: its files and how the command
/// names the policy
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookTemplate {
    /// The project's settings file, relative to the project
    pub project_file: &'static str,
    /// The user's settings file, relative to [`HookTemplate::user_home`]
    pub user_file: &'static str,
    /// Another file in the settings file's folder, by its name, whose hooks the host runs as
    /// well, which `init` reads but never writes
    pub also_read: Option<&'static str>,
    /// The variable naming the folder of the user's settings, with its default under the
    /// home folder; `None`: they are under the home folder
    pub user_home: Option<(&'static str, &'static str)>,
    /// The project's root in a hook command, as the shell must see it: a variable the host
    /// sets; `None` when the host names no root, and the path is written whole
    pub project_root: Option<&'static str>,
    /// Spellings of the project's root that earlier releases of `init` wrote and that did
    /// not work everywhere: commands with them are replaced without `--force`
    pub outdated_roots: &'static [&'static str],
    /// The variable the host sets to the project's root for a hook command, if any
    pub root_variable: Option<&'static str>,
    /// The variables whose plain `$NAME` the host replaces, with the root quoted, in a
    /// command's text before its shell runs it
    pub expanded_variables: &'static [&'static str],
    /// Whether the host finds a project's settings in the folders above the one it starts
    /// in, not only in that folder
    pub reads_settings_above: bool,
    /// The setting that turns every hook off, if the host has one
    pub hooks_switch: Option<HooksSwitch>,
    /// What the host must trust before it runs a hook `init` wrote
    pub trust: Trust,
}

/// A setting that turns every hook of a host off
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HooksSwitch {
    /// Its keys, from the settings' root
    pub path: &'static [&'static str],
    /// The value that turns the hooks off
    pub off: bool,
}

/// What a host must trust before it runs a hook of its settings
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    /// Nothing
    Nothing,
    /// Each hook, by the hash of its command, and the project, both recorded in the
    /// `config.toml` of the user's settings folder (Codex's `[hooks.state]` and `[projects]`)
    HookHashes,
    /// The project's folder, in a JSON file of trusted folders, by its path under `HOME`
    Folders(&'static str),
}

/// The tool's name as the host gave it
fn same_name(tool: String, _mcp_context: Option<&Json>) -> String {
    tool
}

/// The tool's input as the host gave it
fn same_input(_tool: Option<&str>, input: Json) -> Json {
    input
}

/// No failure: the host sends a failed call as an event of its own
fn no_failure(_response: &Json) -> Option<String> {
    None
}

/// JSON as the text a condition reads: a string as itself, anything else as compact JSON
pub(crate) fn text(json: &Json) -> String {
    match json {
        Json::String(text) => text.clone(),
        // Sorted keys: the text v1 policies matched, whatever serde_json's features.
        other => SortedJson(other).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use rulesc_runtime::HostEvent;

    use super::*;

    #[test]
    fn each_profile_names_its_tool_call_event_as_its_table_does() {
        for host in Host::ALL {
            let profile = host.profile();
            let gating = profile
                .events
                .iter()
                .find(|(name, _)| *name == profile.pre_tool_event);
            assert_eq!(
                gating.map(|(_, event)| *event),
                Some(HostEventName::Mapped(HostEvent::PreTool)),
                "{}",
                profile.title
            );
        }
    }

    #[test]
    fn each_host_has_a_flag_of_its_own() {
        for host in Host::ALL {
            assert_eq!(Host::from_flag(host.flag()), Some(host));
        }
    }
}
