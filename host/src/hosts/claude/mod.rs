//! Claude Code (code.claude.com/docs/en/hooks).
//!
//! Its payloads are the shape the others follow. Its answers: `PreToolUse` takes
//! `hookSpecificOutput.permissionDecision` `allow`, `deny` or `ask` with a reason;
//! `PermissionRequest` takes `hookSpecificOutput.decision.behavior` `allow` or `deny`;
//! `UserPromptSubmit`, `PostToolUse` and `Stop` take `decision: "block"` with a reason;
//! `continue: false` with `stopReason` stops Claude on any event. Its project settings are
//! `.claude/settings.json` ("Configuration"), and it sets `CLAUDE_PROJECT_DIR` for hook
//! commands, so the hook finds the policy from any working folder. Its transcripts are
//! read by `transcript.rs`.

pub(super) mod transcript;

use rulesc_runtime::{ToolOutput, CLAUDE_EVENTS};

use super::{
    no_failure, same_input, same_name, Answer, Facts, FinalAnswer, HookTemplate, HooksSwitch,
    Payload, Profile, ToolDecision, Trust,
};

/// Claude Code
pub(super) static PROFILE: Profile = Profile {
    flag: "claude",
    title: "Claude Code",
    events: &CLAUDE_EVENTS,
    pre_tool_event: "PreToolUse",
    shell_tool: "Bash",
    payload: Payload {
        final_answer: FinalAnswer::LastAssistantMessage,
        tool_name: same_name,
        tool_input: same_input,
        tool_output: ToolOutput::from_json,
        failure_in_output: no_failure,
    },
    answer: Answer {
        asks: true,
        refuses_allow: None,
        tool_decision: ToolDecision::HookSpecificOutput,
        halts_before_tool: true,
        halts_on_permission_request: true,
        refusal: "block",
    },
    facts: Facts {
        never_sends: &[],
        permission_mode: true,
    },
    template: HookTemplate {
        project_file: ".claude/settings.json",
        user_file: ".claude/settings.json",
        also_read: None,
        user_home: None,
        project_root: Some("\"$CLAUDE_PROJECT_DIR\""),
        outdated_roots: &[],
        root_variable: Some("CLAUDE_PROJECT_DIR"),
        expanded_variables: &[],
        reads_settings_above: false,
        hooks_switch: Some(HooksSwitch {
            path: &["disableAllHooks"],
            off: true,
        }),
        trust: Trust::Nothing,
    },
};
