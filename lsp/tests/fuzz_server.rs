//! Random sessions against the server in process: documents of random text (non-ASCII,
//! astral characters, line ends of every kind), requests of every method with random
//! positions and parameters, and frames that are not JSON-RPC. The server must answer every
//! request exactly once, never panic, and end only at `exit`.
//!
//! `PROPTEST_CASES` sets the number of sessions (256 by default, as in `.ci/run`).

#![expect(
    clippy::unwrap_used,
    reason = "helpers of tests: a session that cannot be read back fails the test"
)]

use std::io::{BufRead, Read};

use proptest::prelude::*;
use serde_json::{json, Value};

const URI: &str = "file:///fuzz/policy.rules";

const METHODS: [&str; 8] = [
    "textDocument/hover",
    "textDocument/completion",
    "textDocument/definition",
    "textDocument/formatting",
    "textDocument/documentSymbol",
    "textDocument/rename",
    "initialize",
    "workspace/symbol",
];

/// One thing the client sends
#[derive(Debug, Clone)]
enum Sent {
    /// A request of `METHODS[method]` at a position, or with parameters that are not one
    Request {
        method: usize,
        line: i64,
        character: i64,
        bad_params: bool,
    },
    /// The document's new text
    Change(String),
    /// Bytes framed as a message body
    Garbage(Vec<u8>),
}

fn text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "on ",
        "pre_tool_use",
        " when ",
        "tool",
        " ~ ",
        "\"rm*\"",
        " block",
        "\n",
        "\r\n",
        "\r",
        "é",
        "😀",
        "@id(\"a\")",
        "test \"t\" {",
        "expect block by \"a\"",
        "}",
        "#",
        " and ",
        "(",
        "[",
        "steps >= 20",
        " forbid",
        "default ",
        "\"",
        "\\",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|pieces| pieces.concat())
}

fn sent() -> impl Strategy<Value = Sent> {
    prop_oneof![
        4 => (0..METHODS.len(), -2_i64..30, -2_i64..90, prop::bool::weighted(0.1)).prop_map(
            |(method, line, character, bad_params)| Sent::Request {
                method,
                line,
                character,
                bad_params,
            }
        ),
        2 => text().prop_map(Sent::Change),
        1 => prop::collection::vec(any::<u8>(), 0..40).prop_map(Sent::Garbage),
    ]
}

fn framed(body: &[u8]) -> Vec<u8> {
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(body);
    frame
}

fn message(value: &Value) -> Vec<u8> {
    framed(value.to_string().as_bytes())
}

/// Every message the server wrote
fn read_all(mut output: &[u8]) -> Vec<Value> {
    let mut found = Vec::new();
    loop {
        let mut header = String::new();
        if output.read_line(&mut header).unwrap() == 0 {
            return found;
        }
        let length: usize = header
            .trim_end()
            .strip_prefix("Content-Length: ")
            .unwrap()
            .parse()
            .unwrap();
        let mut blank = String::new();
        output.read_line(&mut blank).unwrap();
        let mut body = vec![0; length];
        output.read_exact(&mut body).unwrap();
        found.push(serde_json::from_slice(&body).unwrap());
    }
}

proptest! {
    #[test]
    fn every_request_is_answered_once_and_the_server_ends_only_at_exit(
        opened in text(),
        session in prop::collection::vec(sent(), 0..12),
    ) {
        let mut input = message(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}));
        input.extend(message(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": URI, "languageId": "rules", "version": 1, "text": opened}}})));
        let mut ids = vec![0_i64];
        for (idx, step) in session.iter().enumerate() {
            let id = i64::try_from(idx).unwrap() + 1;
            match step {
                Sent::Request { method, line, character, bad_params } => {
                    let params = if *bad_params {
                        json!([line, character])
                    } else {
                        json!({"textDocument": {"uri": URI},
                               "position": {"line": line, "character": character},
                               "options": {"tabSize": 2, "insertSpaces": true},
                               "capabilities": {}, "query": ""})
                    };
                    input.extend(message(&json!({"jsonrpc": "2.0", "id": id, "method": METHODS[*method], "params": params})));
                    ids.push(id);
                }
                Sent::Change(text) => input.extend(message(&json!({"jsonrpc": "2.0",
                    "method": "textDocument/didChange",
                    "params": {"textDocument": {"uri": URI, "version": id},
                               "contentChanges": [{"text": text}]}}))),
                Sent::Garbage(bytes) => input.extend(framed(bytes)),
            }
        }
        let last = i64::try_from(session.len()).unwrap() + 1;
        input.extend(message(&json!({"jsonrpc": "2.0", "id": last, "method": "shutdown"})));
        input.extend(message(&json!({"jsonrpc": "2.0", "method": "exit"})));
        ids.push(last);
        let mut output = Vec::new();
        let end = rulesc_lsp::run(input.as_slice(), &mut output).unwrap();
        prop_assert_eq!(end, rulesc_lsp::End::Clean);
        let answered: Vec<i64> = read_all(&output)
            .iter()
            .filter(|written| written.get("method").is_none())
            .filter_map(|response| response["id"].as_i64())
            .collect();
        prop_assert_eq!(answered, ids);
    }
}
