//! Claude Code transcripts (the JSON Lines files under `~/.claude/projects/<project>/`) as
//! the hook calls Claude Code made while recording them.
//!
//! What a line is, from the transcript's own shape: `type` `user` or `assistant` with a
//! `message` whose `content` is a string (a prompt) or a list of blocks, `tool_use` blocks
//! (`id`, `name`, `input`) in assistant messages and `tool_result` blocks (`tool_use_id`,
//! `content`, `is_error`) in user messages; `sessionId`, `cwd`, `timestamp`, `isMeta`
//! (text the client added, not typed by the user) and `isSidechain` (a sub-agent's line)
//! beside it; a user line's `toolUseResult` holds the structured result that the hook's
//! `tool_response` carries. Lines of other types (`summary`, `system`,
//! `file-history-snapshot`, ...) record no hook call.

use serde_json::{json, Map, Value as Json};

use crate::transcript::{parse_rfc3339, Emit, Reader, ToolCall, Turns};

/// Line types that record no hook call
const QUIET: [&str; 5] = [
    "summary",
    "system",
    "file-history-snapshot",
    "queue-operation",
    "progress",
];

/// The reader of one transcript file
#[derive(Default)]
pub(crate) struct ClaudeTranscript {
    turns: Turns,
}

impl Reader for ClaudeTranscript {
    fn line(&mut self, line: Map<String, Json>, emit: &mut Emit) -> Result<(), String> {
        let kind = line.get("type").and_then(Json::as_str).unwrap_or_default();
        if QUIET.contains(&kind) {
            return Ok(());
        }
        if kind != "user" && kind != "assistant" {
            return Err(format!("unknown transcript line type `{kind}`"));
        }
        let session = line.get("sessionId").and_then(Json::as_str);
        let at_ms = line
            .get("timestamp")
            .and_then(Json::as_str)
            .and_then(parse_rfc3339);
        let cwd = line.get("cwd").and_then(Json::as_str);
        self.turns.locate(session, cwd, at_ms, emit);
        let sidechain = line.get("isSidechain").and_then(Json::as_bool) == Some(true);
        let Some(message) = line.get("message").and_then(Json::as_object) else {
            return Err(format!("a `{kind}` line without a `message` object"));
        };
        match message.get("content") {
            Some(Json::String(text)) if kind == "user" => {
                let meta = line.get("isMeta").and_then(Json::as_bool) == Some(true);
                if !meta && !sidechain {
                    self.turns.prompt(text, emit);
                }
                Ok(())
            }
            Some(Json::String(text)) => {
                self.turns.said(text);
                Ok(())
            }
            Some(Json::Array(blocks)) => {
                self.blocks(kind, blocks, &line, sidechain, emit);
                Ok(())
            }
            _ => Err(format!("a `{kind}` message without content")),
        }
    }

    fn finish(&mut self, emit: &mut Emit) {
        self.turns.finish(emit);
    }
}

impl ClaudeTranscript {
    fn blocks(
        &mut self,
        kind: &str,
        blocks: &[Json],
        line: &Map<String, Json>,
        sidechain: bool,
        emit: &mut Emit,
    ) {
        let mut prompt = String::new();
        for block in blocks {
            let block_type = block.get("type").and_then(Json::as_str).unwrap_or_default();
            match (kind, block_type) {
                ("assistant", "text") => {
                    if let Some(text) = block.get("text").and_then(Json::as_str) {
                        self.turns.said(text);
                    }
                }
                ("assistant", "tool_use") => {
                    let id = block.get("id").and_then(Json::as_str).unwrap_or_default();
                    let name = block.get("name").and_then(Json::as_str).unwrap_or_default();
                    let input = block.get("input").cloned().unwrap_or_else(|| json!({}));
                    self.turns.tool_use(
                        id,
                        ToolCall {
                            name: name.to_owned(),
                            input,
                        },
                        emit,
                    );
                }
                ("user", "tool_result") => {
                    let id = block
                        .get("tool_use_id")
                        .and_then(Json::as_str)
                        .unwrap_or_default();
                    let failed = block.get("is_error").and_then(Json::as_bool) == Some(true);
                    // The structured result, when the client kept one, is what the hook saw.
                    let response = match line.get("toolUseResult") {
                        Some(structured @ Json::Object(_)) => structured.clone(),
                        _ => block.get("content").cloned().unwrap_or(Json::Null),
                    };
                    self.turns.tool_result(id, response, failed, emit);
                }
                ("user", "text") if !sidechain => {
                    if let Some(text) = block.get("text").and_then(Json::as_str) {
                        prompt.push_str(text);
                    }
                }
                _ => {}
            }
        }
        let meta = line.get("isMeta").and_then(Json::as_bool) == Some(true);
        if !prompt.is_empty() && !meta {
            self.turns.prompt(&prompt, emit);
        }
    }
}
