//! Codex (openai/codex).
//!
//! Its payloads: `apply_patch` sends the raw patch in `tool_input.command` (the apply_patch
//! hooks change that fixes issue #16732), whose files rules read as `arg.files`. Its answers
//! (`codex-rs/hooks/src/engine/output_parser.rs`, `schema.rs` with `deny_unknown_fields`):
//! `PreToolUse` accepts only a `deny` with a non-empty reason (an `allow` without
//! `updatedInput`, an `ask`, `continue: false`, `stopReason` and `suppressOutput` make the
//! hook fail, and the call runs); `PermissionRequest` takes `decision.behavior` but no
//! universal field of its own; `Stop` has no `hookSpecificOutput`; `continue: false` is
//! accepted on `PostToolUse`, `UserPromptSubmit`, `Stop` and `SessionStart`. Its hooks are
//! in `hooks.json` of a `.codex` layer, the project's or `CODEX_HOME` (`codex-rs/hooks/src/
//! engine/discovery.rs` `load_hooks_json`), and the `[hooks]` table of the `config.toml`
//! beside it (`load_toml_hooks_from_layer`); it runs a hook in the session's folder and
//! names no project root. It runs a hook only once trusted (`trust.rs`); the command line
//! reads and writes that trust in `config.toml` (`src/cli/codex_trust.rs`), since the TOML
//! editor is its own. Its rollouts are read by `transcript.rs`.

pub(super) mod transcript;
pub(super) mod trust;

use rulesc_runtime::{ToolOutput, CODEX_EVENTS};
use serde_json::Value as Json;

use super::{
    no_failure, same_name, Answer, Facts, FinalAnswer, HookTemplate, Payload, Profile,
    ToolDecision, Trust,
};

/// Codex
pub(super) static PROFILE: Profile = Profile {
    flag: "codex",
    title: "Codex",
    events: &CODEX_EVENTS,
    pre_tool_event: "PreToolUse",
    shell_tool: "Bash",
    payload: Payload {
        final_answer: FinalAnswer::LastAssistantMessage,
        tool_name: same_name,
        tool_input,
        tool_output: ToolOutput::from_json,
        failure_in_output: no_failure,
    },
    answer: Answer {
        asks: false,
        refuses_allow: Some("Codex accepts no allow from a hook: its own approval rules decide"),
        tool_decision: ToolDecision::HookSpecificOutput,
        halts_before_tool: false,
        halts_on_permission_request: false,
        refusal: "block",
    },
    facts: Facts {
        never_sends: &[],
        permission_mode: true,
    },
    template: HookTemplate {
        project_file: ".codex/hooks.json",
        user_file: "hooks.json",
        also_read: Some("config.toml"),
        user_home: Some(("CODEX_HOME", ".codex")),
        project_root: None,
        outdated_roots: &[],
        root_variable: None,
        expanded_variables: &[],
        reads_settings_above: true,
        hooks_switch: None,
        trust: Trust::HookHashes,
    },
};

/// The tool's input, with an `apply_patch` patch read for the files it touches
fn tool_input(tool: Option<&str>, input: Json) -> Json {
    if tool == Some("apply_patch") {
        with_patch_files(input)
    } else {
        input
    }
}

/// Codex's `apply_patch` input, `{"command": "<patch>"}`, with the patch also under `patch`
/// and the files it touches under `files`, so path guards apply to it (`arg.files`)
///
/// The patch's `*** Add File: `, `*** Update File: `, `*** Delete File: ` and
/// `*** Move to: ` lines name the files, in order, each once.
fn with_patch_files(input: Json) -> Json {
    let Json::Object(mut object) = input else {
        return input;
    };
    let Some(Json::String(patch)) = object.get("command").cloned() else {
        return Json::Object(object);
    };
    let mut files: Vec<String> = Vec::new();
    for line in patch.lines() {
        let named = [
            "*** Add File: ",
            "*** Update File: ",
            "*** Delete File: ",
            "*** Move to: ",
        ]
        .iter()
        .find_map(|marker| line.strip_prefix(marker));
        if let Some(path) = named.map(str::trim).filter(|path| !path.is_empty()) {
            if !files.iter().any(|known| known == path) {
                files.push(path.to_owned());
            }
        }
    }
    object.insert("patch".to_owned(), Json::String(patch));
    object.insert(
        "files".to_owned(),
        Json::Array(files.into_iter().map(Json::String).collect()),
    );
    Json::Object(object)
}
