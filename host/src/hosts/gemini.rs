//! Gemini CLI (google-gemini/gemini-cli).
//!
//! Its payloads: a failed tool call is an `AfterTool` whose `tool_response` carries an
//! `error`, what the model saw of a tool is the response's `llmContent`, the agent's last
//! answer is `prompt_response`, an MCP tool is described by `mcp_context`, and no call
//! carries a permission mode. Its answers (`packages/core/src/core/coreToolHookTriggers.ts`,
//! `hooks/types.ts`): one top-level `decision`; only `block` and `deny` stop a tool (`ask`
//! is typed but has no effect), `continue: false` stops the agent and is checked first; on
//! `AfterAgent` a `deny` sends the reason back as the next prompt. Its settings are
//! `.gemini/settings.json` (`docs/hooks/reference.md`), and it replaces
//! `$GEMINI_PROJECT_DIR` in a hook command's text with a quoted path before the shell runs
//! it (`expandCommand`), which inside double quotes leaves the quotes in the path: the
//! braced form is left to the shell. Its sub-agents' stops send nothing.

use std::path::Path;

use rulesc_runtime::{EventKind, SortedJson, ToolOutput, GEMINI_EVENTS};
use serde_json::Value as Json;

use super::{
    same_input, text, Answer, Facts, FinalAnswer, HookTemplate, HooksSwitch, Payload, Profile,
    ToolDecision, Trust,
};

/// Gemini CLI
pub(super) static PROFILE: Profile = Profile {
    flag: "gemini",
    title: "Gemini CLI",
    events: &GEMINI_EVENTS,
    pre_tool_event: "BeforeTool",
    shell_tool: "run_shell_command",
    payload: Payload {
        final_answer: FinalAnswer::PromptResponse,
        tool_name: mcp_tool_name,
        tool_input: same_input,
        tool_output,
        failure_in_output: failure,
    },
    answer: Answer {
        asks: false,
        refuses_allow: None,
        tool_decision: ToolDecision::TopLevel,
        halts_before_tool: true,
        halts_on_permission_request: false,
        refusal: "deny",
    },
    facts: Facts {
        never_sends: &[EventKind::SubagentStop],
        permission_mode: false,
    },
    template: HookTemplate {
        project_file: ".gemini/settings.json",
        user_file: ".gemini/settings.json",
        also_read: None,
        user_home: None,
        project_root: Some("\"${GEMINI_PROJECT_DIR}\""),
        outdated_roots: &["\"$GEMINI_PROJECT_DIR\""],
        root_variable: Some("GEMINI_PROJECT_DIR"),
        expanded_variables: &["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
        reads_settings_above: false,
        hooks_switch: Some(HooksSwitch {
            path: &["hooksConfig", "enabled"],
            off: false,
        }),
        trust: Trust::Folders(".gemini/trustedFolders.json"),
    },
};

/// The name Claude Code and Codex give an MCP tool, `mcp__<server>__<tool>`, for a call
/// whose `mcp_context` names its server: Gemini CLI 0.61 names the tool
/// `mcp_<server>_<tool>` (or the tool's bare name) instead, which a rule written for the
/// documented form (`mcp__*__send*`) would not match
fn mcp_tool_name(tool: String, context: Option<&Json>) -> String {
    let Some(server) = context
        .and_then(|context| context.get("server_name"))
        .and_then(Json::as_str)
    else {
        return tool;
    };
    if tool.starts_with("mcp__") {
        return tool;
    }
    let own = context
        .and_then(|context| context.get("tool_name"))
        .and_then(Json::as_str)
        .map(str::to_owned)
        .or_else(|| {
            tool.strip_prefix(&format!("mcp_{server}_"))
                .map(str::to_owned)
        })
        .unwrap_or(tool);
    format!("mcp__{server}__{own}")
}

/// A tool's response, read as the model saw it: its `llmContent` when that is text
fn tool_output(response: Json) -> ToolOutput {
    let seen = match response.get("llmContent") {
        Some(Json::String(content)) => content.clone(),
        _ => text(&response),
    };
    ToolOutput::with_text(response, seen)
}

/// The failure of a tool's response: its `error` (or `error.message`), if set
fn failure(response: &Json) -> Option<String> {
    match response.get("error")? {
        Json::Null => None,
        Json::Object(error) => Some(match error.get("message") {
            Some(Json::String(message)) => message.clone(),
            _ => SortedJson(&Json::Object(error.clone())).to_string(),
        }),
        other => Some(text(other)),
    }
}

/// Whether Gemini CLI's trusted folders (`rules`, the JSON of its file) trust `folder`: a `TRUST_FOLDER` rule on it or a folder above,
/// or a `TRUST_PARENT` rule on a folder whose parent holds it, and no `DO_NOT_TRUST` on it
/// (`packages/cli/src/config/trustedFolders.ts`)
pub fn folder_trusted(rules: &Json, folder: &Path) -> bool {
    let Some(rules) = rules.as_object() else {
        return false;
    };
    let mut trusted = false;
    for (path, level) in rules {
        let path = Path::new(path);
        match level.as_str() {
            Some("DO_NOT_TRUST") if path == folder => return false,
            Some("TRUST_FOLDER") => trusted |= folder.starts_with(path),
            Some("TRUST_PARENT") => {
                trusted |= path
                    .parent()
                    .is_some_and(|parent| folder.starts_with(parent));
            }
            _ => {}
        }
    }
    trusted
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn folder_trust_follows_its_rules() {
        let rules = json!({"/a": "TRUST_FOLDER", "/b/c": "TRUST_PARENT", "/a/no": "DO_NOT_TRUST"});
        assert!(folder_trusted(&rules, Path::new("/a/x")));
        assert!(folder_trusted(&rules, Path::new("/b/d")));
        assert!(!folder_trusted(&rules, Path::new("/a/no")));
        assert!(!folder_trusted(&rules, Path::new("/c")));
        assert!(!folder_trusted(&rules, Path::new("/ab")));
    }
}
