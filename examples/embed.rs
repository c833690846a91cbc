//! Embedding rulesc: a host application runs its own agent under shipped policies.
//!
//! The host brings a model driver (here a small deterministic planner standing in for a
//! real model API), its tools (a shell over an in-memory file system), an approver and a
//! native hook, and lets `rulesc::AgentLoop` drive the run under `rules/safe-shell.rules`
//! and `rules/budgets.rules`. Run it with `cargo run --example embed`.

use std::collections::BTreeSet;
use std::process::ExitCode;

use rulesc::{
    AgentLoop, Approval, Event, EventKind, FinishReason, HookDecision, InferenceResponse, Message,
    ModelError, NativeHook, RunReport, ToolCall, ToolError, ToolExecutor, Usage, Verb,
};

/// The shipped policies this host adopts, compiled together as one policy set
const POLICIES: [&str; 2] = [
    concat!(env!("CARGO_MANIFEST_DIR"), "/rules/safe-shell.rules"),
    concat!(env!("CARGO_MANIFEST_DIR"), "/rules/budgets.rules"),
];

fn main() -> ExitCode {
    let policy = match rulesc::compile_paths(&POLICIES) {
        Ok(policy) => policy,
        Err(err) => {
            eprintln!("error: the policies do not load: {err}");
            return ExitCode::FAILURE;
        }
    };
    let mut model = Planner;
    let mut shell = Shell {
        files: ["build/app", "build/app.o", "src/main.c"]
            .into_iter()
            .map(str::to_owned)
            .collect(),
    };
    let mut approver = |call: &ToolCall, message: Option<&str>| {
        println!(
            "approver: {} {} ({}): denied",
            call.name,
            call.args,
            message.unwrap_or("no reason given")
        );
        Approval::Deny
    };
    let mut agent = AgentLoop::new(policy)
        .with_hook(AskBeforeCommit)
        .with_messages(vec![Message::User {
            text: "Clean the build folder, then commit.".to_owned(),
        }]);
    let state = agent.execute(&mut model, &mut shell, &mut approver);
    let Some(report) = RunReport::from_state(&state) else {
        eprintln!("error: the run did not end");
        return ExitCode::FAILURE;
    };

    println!(
        "run {} ({}) after {} steps, {} tokens, {} errors",
        report.status.name(),
        report.stop_reason,
        report.steps,
        report.tokens,
        report.errors
    );
    for call in &report.tool_calls {
        let outcome = match (&call.error, call.executed) {
            (None, _) => "ran".to_owned(),
            (Some(error), true) => format!("failed: {error}"),
            (Some(error), false) => format!("not run: {error}"),
        };
        println!(
            "  step {}: {} => {}, {outcome}",
            call.step,
            call.tool,
            call.decision.name()
        );
    }
    let left: Vec<&str> = shell.files.iter().map(String::as_str).collect();
    println!("files left: {}", left.join(", "));
    ExitCode::SUCCESS
}

/// A stand-in for a real model: it plans from the transcript alone, as a model would
struct Planner;

impl rulesc::Model for Planner {
    fn infer(&mut self, messages: &[Message]) -> Result<InferenceResponse, ModelError> {
        let n_answers = messages
            .iter()
            .filter(|message| matches!(message, Message::Assistant { .. }))
            .count();
        let last_error = match messages.last() {
            Some(Message::Tool {
                content,
                is_error: true,
                ..
            }) => Some(content.as_str()),
            _ => None,
        };
        let (text, command) = match (n_answers, last_error) {
            (0, _) => ("Let me see what is there.", Some("ls build")),
            (1, _) => ("Removing the folder.", Some("rm -rf build")),
            // The policy blocked `rm -rf` and said why: delete the files by name instead.
            (2, Some(_)) => (
                "Deleting the files by name.",
                Some("rm build/app build/app.o"),
            ),
            (3, _) => ("Committing.", Some("git commit -am 'clean build'")),
            _ => (
                "The build folder is clean; the commit needs your approval.",
                None,
            ),
        };
        let tool_calls: Vec<ToolCall> = command
            .map(|command| ToolCall {
                id: format!("call_{n_answers}"),
                name: "bash".to_owned(),
                args: serde_json::json!({ "command": command }),
            })
            .into_iter()
            .collect();
        let input = messages.iter().map(message_tokens).sum::<u64>() + 50;
        Ok(InferenceResponse {
            text: text.to_owned(),
            finish_reason: if tool_calls.is_empty() {
                FinishReason::Stop
            } else {
                FinishReason::ToolCalls
            },
            tool_calls,
            usage: Usage { input, output: 20 },
        })
    }
}

/// A rough token count: a token per four bytes
fn message_tokens(message: &Message) -> u64 {
    let bytes = match message {
        Message::User { text } | Message::Assistant { text, .. } => text.len(),
        Message::Tool { content, .. } => content.len(),
    };
    u64::try_from(bytes / 4).unwrap_or(u64::MAX)
}

/// A shell over an in-memory file system that knows `ls`, `rm` and `git commit`
struct Shell {
    files: BTreeSet<String>,
}

impl ToolExecutor for Shell {
    fn execute(&mut self, call: &ToolCall) -> Result<String, ToolError> {
        let command = call
            .args
            .get("command")
            .and_then(|command| command.as_str())
            .unwrap_or_default();
        let mut words = command.split_whitespace();
        match words.next() {
            Some("ls") => {
                let dir = words.next().unwrap_or("");
                let listed: Vec<&str> = self
                    .files
                    .iter()
                    .filter(|file| file.starts_with(dir))
                    .map(String::as_str)
                    .collect();
                Ok(listed.join("\n"))
            }
            Some("rm") => {
                for file in words.filter(|word| !word.starts_with('-')) {
                    if !self.files.remove(file) {
                        return Err(ToolError {
                            message: format!("rm: {file}: no such file"),
                        });
                    }
                }
                Ok(String::new())
            }
            Some("git") => Ok("[main 1a2b3c4] clean build".to_owned()),
            _ => Err(ToolError {
                message: format!("{command}: command not found"),
            }),
        }
    }
}

/// A host rule written in Rust: commits need the approver, whatever the policy says
struct AskBeforeCommit;

impl NativeHook for AskBeforeCommit {
    fn id(&self) -> &str {
        "host:ask-before-commit"
    }

    fn events(&self) -> &[EventKind] {
        &[EventKind::PreToolUse]
    }

    fn evaluate(&self, event: &Event) -> Option<HookDecision> {
        let command = event.arg.as_ref()?.get("command")?.as_str()?;
        command
            .starts_with("git commit")
            .then(|| HookDecision::new(Verb::Ask).with_message("commits are reviewed by a person"))
    }
}
