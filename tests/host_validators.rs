//! The host validators of `tests/host_protocol/` themselves, held to examples from the
//! hosts' own sources and docs, so a validator that accepts too much (and would let a wrong answer of rulesc pass) fails here.
//! Each case names where it comes from.

use crate::host_protocol::{claude, codex, gemini, Answer, Effect, Tool};

fn answer(exit_code: i32, stdout: &str, stderr: &str) -> Answer {
    Answer {
        stdout: stdout.to_owned(),
        stderr: stderr.to_owned(),
        exit_code,
    }
}

fn denied(reason: &str) -> Effect {
    Effect {
        tool: Tool::Denied,
        reason: Some(reason.to_owned()),
        ..Effect::default()
    }
}

#[test]
fn codex_pre_tool_use_as_its_parser_reads_it() {
    // codex-rs/hooks/src/events/pre_tool_use.rs, `permission_decision_deny_blocks_processing`
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"do not run that"}}"#;
    assert_eq!(
        codex::judge("PreToolUse", &answer(0, deny, "")),
        Ok(denied("do not run that"))
    );
    // `permission_decision_allow_without_updated_input_fails_open`, and output_parser.rs's
    // unsupported answers: each fails the hook, so the call runs.
    for rejected in [
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"why"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"  "}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecisionReason":"no decision"}}"#,
        r#"{"continue":false,"stopReason":"halt"}"#,
        r#"{"stopReason":"halt"}"#,
        r#"{"suppressOutput":true}"#,
        r#"{"decision":"approve"}"#,
        r#"{"decision":"block"}"#,
        r#"{"reason":"no decision"}"#,
        r#"{"unknownField":1}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
        r#"{"not json"#,
    ] {
        assert!(
            codex::judge("PreToolUse", &answer(0, rejected, "")).is_err(),
            "{rejected}"
        );
    }
    // The legacy block, and exit 2 with a reason on stderr, block too.
    assert_eq!(
        codex::judge(
            "PreToolUse",
            &answer(0, r#"{"decision":"block","reason":"no"}"#, "")
        ),
        Ok(denied("no"))
    );
    assert_eq!(
        codex::judge("PreToolUse", &answer(2, "", "blocked by policy\n")),
        Ok(denied("blocked by policy"))
    );
    // Exit 2 without a reason, and other exit codes, fail the hook.
    assert!(codex::judge("PreToolUse", &answer(2, "", " ")).is_err());
    assert!(codex::judge("PreToolUse", &answer(1, "", "boom")).is_err());
    // No output, and plain text, are no opinion.
    assert_eq!(
        codex::judge("PreToolUse", &answer(0, "", "")),
        Ok(Effect::default())
    );
    assert_eq!(
        codex::judge("PreToolUse", &answer(0, "all good", "")),
        Ok(Effect::default())
    );
}

#[test]
fn codex_permission_request_as_its_parser_reads_it() {
    // codex-rs/hooks/src/schema.rs `PermissionRequestDecisionWire`, output_parser.rs
    // `parse_permission_request`
    let allow = r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#;
    assert_eq!(
        codex::judge("PermissionRequest", &answer(0, allow, "")),
        Ok(Effect {
            tool: Tool::Allowed,
            ..Effect::default()
        })
    );
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"blocked by policy"}}}"#;
    assert_eq!(
        codex::judge("PermissionRequest", &answer(0, deny, "")),
        Ok(denied("blocked by policy"))
    );
    for rejected in [
        r#"{"continue":false}"#,
        r#"{"stopReason":"x"}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{}}}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","interrupt":true}}}"#,
    ] {
        assert!(
            codex::judge("PermissionRequest", &answer(0, rejected, "")).is_err(),
            "{rejected}"
        );
    }
    // The Python and Swift ports' tests of `parse_permission_request_completed`: exit 2
    // without stderr fails.
    assert!(codex::judge("PermissionRequest", &answer(2, "", "")).is_err());
    assert_eq!(
        codex::judge("PermissionRequest", &answer(2, "", "approval denied")),
        Ok(denied("approval denied"))
    );
}

#[test]
fn codex_stop_and_prompt_as_its_parser_reads_them() {
    // output_parser.rs `parse_stop`: block needs a reason; `StopCommandOutputWire` has no
    // `hookSpecificOutput`; continue:false stops and wins.
    let keep = codex::judge(
        "Stop",
        &answer(0, r#"{"decision":"block","reason":"more"}"#, ""),
    );
    assert_eq!(
        keep,
        Ok(Effect {
            keeps_working: true,
            reason: Some("more".to_owned()),
            ..Effect::default()
        })
    );
    let halt = codex::judge(
        "Stop",
        &answer(
            0,
            r#"{"continue":false,"stopReason":"done","decision":"block","reason":"more"}"#,
            "",
        ),
    )
    .unwrap();
    assert!(halt.stops_agent && !halt.keeps_working);
    for rejected in [
        r#"{"decision":"block"}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"Stop"}}"#,
        "plain text",
    ] {
        assert!(
            codex::judge("Stop", &answer(0, rejected, "")).is_err(),
            "{rejected}"
        );
    }
    let refused = codex::judge(
        "UserPromptSubmit",
        &answer(0, r#"{"decision":"block","reason":"not that"}"#, ""),
    )
    .unwrap();
    assert!(refused.refuses_prompt);
}

#[test]
fn claude_code_as_its_hooks_reference_describes() {
    // code.claude.com/docs/en/hooks, "PreToolUse decision control"
    for (decision, tool) in [
        ("allow", Tool::Allowed),
        ("deny", Tool::Denied),
        ("ask", Tool::Asks),
    ] {
        let json = format!(
            r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"{decision}","permissionDecisionReason":"r"}}}}"#
        );
        assert_eq!(
            claude::judge("PreToolUse", &answer(0, &json, ""))
                .unwrap()
                .tool,
            tool
        );
    }
    // "Exit code 2": blocks the tool call, refuses the prompt, keeps the agent working.
    assert_eq!(
        claude::judge("PreToolUse", &answer(2, "", "no")),
        Ok(denied("no"))
    );
    assert!(
        claude::judge("UserPromptSubmit", &answer(2, "", "no"))
            .unwrap()
            .refuses_prompt
    );
    assert!(
        claude::judge("Stop", &answer(2, "", "go on"))
            .unwrap()
            .keeps_working
    );
    // Other exit codes are non-blocking errors.
    assert!(claude::judge("PreToolUse", &answer(1, "", "oops")).is_err());
    // `continue: false` takes precedence.
    let halt = claude::judge(
        "Stop",
        &answer(
            0,
            r#"{"continue":false,"stopReason":"bye","decision":"block","reason":"more"}"#,
            "",
        ),
    )
    .unwrap();
    assert!(halt.stops_agent && !halt.keeps_working);
    assert_eq!(halt.reason.as_deref(), Some("bye"));
    // A block needs its reason; a decision for another event is refused.
    assert!(claude::judge("Stop", &answer(0, r#"{"decision":"block"}"#, "")).is_err());
    let mismatched =
        r#"{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"deny"}}"#;
    assert!(claude::judge("PreToolUse", &answer(0, mismatched, "")).is_err());
}

#[test]
fn gemini_cli_as_its_hook_runner_reads_it() {
    // hookRunner.ts: exit 2 with stderr is a deny; without stderr, nothing.
    assert_eq!(
        gemini::judge("BeforeTool", &answer(2, "", "blocked")),
        Ok(denied("blocked"))
    );
    assert!(gemini::judge("BeforeTool", &answer(2, "", "")).is_err());
    assert!(gemini::judge("BeforeTool", &answer(1, "", "warn")).is_err());
    // types.ts `isBlockingDecision`: block and deny block, ask and allow do not.
    for (decision, tool) in [
        ("deny", Tool::Denied),
        ("block", Tool::Denied),
        ("ask", Tool::Unchanged),
        ("allow", Tool::Unchanged),
    ] {
        let json = format!(r#"{{"decision":"{decision}","reason":"r"}}"#);
        assert_eq!(
            gemini::judge("BeforeTool", &answer(0, &json, ""))
                .unwrap()
                .tool,
            tool
        );
    }
    // coreToolHookTriggers.ts: continue:false stops the agent, the tool does not run, and
    // the stop reason wins over the reason.
    let halt = gemini::judge(
        "BeforeTool",
        &answer(
            0,
            r#"{"continue":false,"stopReason":"halt","decision":"allow","reason":"r"}"#,
            "",
        ),
    )
    .unwrap();
    assert!(halt.stops_agent);
    assert_eq!(halt.tool, Tool::Denied);
    assert_eq!(halt.reason.as_deref(), Some("halt"));
    // A double-encoded answer is read; plain text is an allowing message.
    let double = r#""{\"decision\":\"deny\",\"reason\":\"twice\"}""#;
    assert_eq!(
        gemini::judge("BeforeTool", &answer(0, double, "")),
        Ok(denied("twice"))
    );
    assert_eq!(
        gemini::judge("BeforeTool", &answer(0, "hello", "")),
        Ok(Effect::default())
    );
    // docs/hooks/reference.md: AfterAgent deny is a retry with the reason.
    assert!(
        gemini::judge(
            "AfterAgent",
            &answer(0, r#"{"decision":"deny","reason":"more"}"#, "")
        )
        .unwrap()
        .keeps_working
    );
}
