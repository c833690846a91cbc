//! `rulesc lsp` driven as an editor drives it: `Content-Length` framed JSON-RPC on its stdin
//! and stdout, from `initialize` to `exit`.
//!
//! Expected values come from outside the server: diagnostics from `rulesc check --format
//! json` (1-based lines and byte columns, turned into the protocol's 0-based UTF-16
//! positions here, by counting), formatting from what `rulesc fmt` writes, hover texts from
//! `rulesc explain` and docs/language.md's tables, symbols from the ids `rulesc compile` gives.

#![expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "helpers of tests: a server that cannot be driven, or a message not of the shape expected, fails the test"
)]

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

/// How long a test waits for one message before it fails
const PATIENCE: Duration = Duration::from_secs(30);

/// A running `rulesc lsp` and the messages it wrote
struct Editor {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Editor {
    /// Starts the server, without initializing it
    fn start() -> Editor {
        Editor::start_with(&["lsp"])
    }

    /// Starts `rulesc args...`, without initializing it
    fn start_with(args: &[&str]) -> Editor {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulesc"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_frame(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Editor {
            child,
            stdin,
            messages,
            next_id: 0,
        }
    }

    /// Starts the server and initializes it
    fn initialized() -> Editor {
        let mut editor = Editor::start();
        let answer = editor.request("initialize", json!({"capabilities": {}}));
        // Columns count UTF-16 code units, the protocol's default.
        assert_eq!(
            answer["result"]["capabilities"]["positionEncoding"],
            "utf-16"
        );
        editor.notify("initialized", json!({}));
        editor
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    /// Sends a request and returns its response (the whole message), skipping notifications
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response_to(&json!(id))
    }

    /// The response with `id`, skipping notifications
    fn response_to(&mut self, id: &Value) -> Value {
        loop {
            let message = self.next();
            if message.get("method").is_none() {
                assert_eq!(&message["id"], id, "responses come in order: {message}");
                return message;
            }
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message the server wrote
    fn next(&mut self) -> Value {
        self.messages.recv_timeout(PATIENCE).unwrap()
    }

    /// The next notification of `method`, skipping others
    fn notification(&mut self, method: &str) -> Value {
        loop {
            let message = self.next();
            if message["method"] == method {
                return message["params"].clone();
            }
        }
    }

    /// Opens `text` as `uri` and returns the diagnostics published for it
    fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "rules", "version": 1, "text": text}}),
        );
        let published = self.notification("textDocument/publishDiagnostics");
        assert_eq!(published["uri"], uri);
        published["diagnostics"].as_array().unwrap().clone()
    }

    /// `shutdown`, `exit`, and the exit status
    fn shut_down(mut self) -> i32 {
        let answer = self.request("shutdown", Value::Null);
        assert_eq!(answer["result"], Value::Null, "{answer}");
        assert!(answer.get("error").is_none(), "{answer}");
        self.notify("exit", Value::Null);
        self.exit_status()
    }

    fn exit_status(mut self) -> i32 {
        drop(self.stdin);
        self.child.wait().unwrap().code().unwrap()
    }
}

/// One framed message from `reader`; `None` at the end of the stream
fn read_frame(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = Some(value.parse::<usize>().unwrap());
        }
    }
    let mut body = vec![0; length.unwrap()];
    reader.read_exact(&mut body).ok()?;
    Some(serde_json::from_slice(&body).unwrap())
}

/// A `file://` URI for `path`
fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The protocol's position of a 1-based line and 1-based byte column of `text`, counted
/// here from the text itself: lines end after `\n`, `\r\n` or a lone `\r`
fn utf16_position(text: &str, line: u64, column: u64) -> Value {
    let bytes = text.as_bytes();
    let mut line_starts = vec![0];
    for (idx, byte) in bytes.iter().enumerate() {
        if *byte == b'\n' || (*byte == b'\r' && bytes.get(idx + 1) != Some(&b'\n')) {
            line_starts.push(idx + 1);
        }
    }
    let start = line_starts[usize::try_from(line - 1).unwrap()];
    let prefix = &text[start..start + usize::try_from(column - 1).unwrap()];
    json!({"line": line - 1, "character": prefix.encode_utf16().count()})
}

/// What `rulesc check --format json FILE` reports, in the protocol's terms: code, severity
/// (1 error, 2 warning), message with its help line, range
fn checked_as_lsp(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    let (_, stdout, _) = common::rulesc(
        path.parent().unwrap(),
        &[
            "check",
            "--format",
            "json",
            path.file_name().unwrap().to_str().unwrap(),
        ],
    );
    let report: Value = serde_json::from_str(&stdout).unwrap();
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|diag| {
            let message = match diag["help"].as_str() {
                Some(help) => format!("{}\nhelp: {help}", diag["message"].as_str().unwrap()),
                None => diag["message"].as_str().unwrap().to_owned(),
            };
            json!({
                "code": diag["code"],
                "severity": if diag["severity"] == "error" { 1 } else { 2 },
                "message": message,
                "range": {
                    "start": utf16_position(&text, diag["line"].as_u64().unwrap(), diag["column"].as_u64().unwrap()),
                    "end": utf16_position(&text, diag["end_line"].as_u64().unwrap(), diag["end_column"].as_u64().unwrap()),
                },
            })
        })
        .collect()
}

/// The fields of a published diagnostic that `checked_as_lsp` gives
fn comparable(diag: &Value) -> Value {
    json!({
        "code": diag["code"],
        "severity": diag["severity"],
        "message": diag["message"],
        "range": diag["range"],
    })
}

/// Every `.rules` fixture of the ui tests, and the non-ASCII ones
fn fixtures() -> Vec<PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|ext| ext == "rules") {
                found.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui"),
        &mut found,
    );
    found.sort();
    found
}

#[test]
fn diagnostics_are_what_check_reports_on_every_ui_fixture() {
    let mut editor = Editor::initialized();
    let mut n_compared = 0;
    for path in fixtures() {
        // The protocol carries text: a file that is not UTF-8 cannot be opened.
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let published = editor.open(&uri_of(&path), &text);
        let published: Vec<Value> = published.iter().map(comparable).collect();
        assert_eq!(published, checked_as_lsp(&path), "{}", path.display());
        n_compared += published.len();
    }
    assert!(n_compared > 100, "only {n_compared} diagnostics compared");
    assert_eq!(editor.shut_down(), 0);
}

/// A policy whose mistakes follow non-ASCII and astral-plane text on their lines
const NON_ASCII: &str = "# règles: 😀 ok\n\
    on before_step when metadata.cafe == \"é😀\" and tool == \"x\" forbid \"arrêt 😀\"\n\
    @id(\"😀\")\r\non stop when response ~ \"[\" request\n";

#[test]
fn ranges_count_utf16_units_after_non_ascii_and_astral_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unicode.rules");
    std::fs::write(&path, NON_ASCII).unwrap();
    let mut editor = Editor::initialized();
    let published = editor.open(&uri_of(&path), NON_ASCII);
    let expected = checked_as_lsp(&path);
    assert_eq!(
        published.iter().map(comparable).collect::<Vec<_>>(),
        expected
    );
    // `tool` on line 2: 50 bytes before it, 47 UTF-16 units (`é` is 2 bytes, 1 unit;
    // `😀` is 4 bytes, 2 units).
    let tool = published
        .iter()
        .find(|diag| diag["code"] == "E012")
        .unwrap();
    assert_eq!(
        tool["range"],
        json!({"start": {"line": 1, "character": 47}, "end": {"line": 1, "character": 51}})
    );
    assert_eq!(editor.shut_down(), 0);
}

#[test]
fn a_change_publishes_the_new_diagnostics_with_its_version() {
    let mut editor = Editor::initialized();
    let uri = "file:///policies/guard.rules";
    let published = editor.open(uri, "on before_step when tool == \"x\" forbid\n");
    assert_eq!(published.len(), 1);
    editor.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"text": "on pre_tool_use when tool == \"x\" block\n"}]}),
    );
    let published = editor.notification("textDocument/publishDiagnostics");
    assert_eq!(published["version"], 2);
    assert_eq!(published["diagnostics"], json!([]));
    editor.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let published = editor.notification("textDocument/publishDiagnostics");
    assert_eq!(published["diagnostics"], json!([]));
    // Closed: requests about it are refused.
    let answer = editor.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(editor.shut_down(), 0);
}

/// Applies whole-text edits, as an editor does (the server sends at most one)
fn apply(text: &str, edits: &[Value]) -> String {
    match edits {
        [] => text.to_owned(),
        [edit] => {
            assert_eq!(edit["range"]["start"], json!({"line": 0, "character": 0}));
            let n_lines = text.lines().count();
            let end = &edit["range"]["end"];
            assert!(end["line"].as_u64().unwrap() >= u64::try_from(n_lines).unwrap() - 1);
            edit["newText"].as_str().unwrap().to_owned()
        }
        _ => panic!("more than one edit: {edits:?}"),
    }
}

#[test]
fn formatting_gives_what_rulesc_fmt_writes() {
    let dir = tempfile::tempdir().unwrap();
    let sources = [
        "on   before_step when steps>=20\n  forbid steps_limit_reached  # cap\n",
        "@id(\"no-rm\")  @priority(2)\non pre_tool_use when tool ~ \"rm*\" and arg.command contains \"-rf\" or tool == \"é😀\" block \"non\"\n\ntest \"t\" { event pre_tool_use { tool: \"rm\" } expect block by \"no-rm\" }\n",
        "@id(\"ok\")\non stop request\n",
    ];
    let mut editor = Editor::initialized();
    for (idx, source) in sources.iter().enumerate() {
        let path = dir.path().join(format!("p{idx}.rules"));
        std::fs::write(&path, source).unwrap();
        let uri = uri_of(&path);
        editor.open(&uri, source);
        let answer = editor.request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
        );
        let edits = answer["result"].as_array().unwrap();
        let (code, _, stderr) = common::rulesc(dir.path(), &["fmt", &format!("p{idx}.rules")]);
        assert_eq!(code, 0, "{stderr}");
        let written = std::fs::read_to_string(&path).unwrap();
        assert_eq!(apply(source, edits), written);
        assert_eq!(edits.is_empty(), written == *source);
    }
    let uri = "file:///broken.rules";
    editor.open(uri, "on stop when\n");
    let answer = editor.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(answer["error"]["code"], -32803, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        "cannot format `broken.rules`: it has syntax errors"
    );
    assert_eq!(editor.shut_down(), 0);
}

const GUARD: &str = "@id(\"no-rm\")\n\
    @allow(W005)\n\
    on pre_tool_use when tool ~ \"rm*\" block \"destructive\"\n\
    on before_step when steps >= 20 forbid steps_limit_reached\n\
    \n\
    test \"rm is blocked\" {\n\
    \x20 event pre_tool_use { tool: \"rm\" }\n\
    \x20 expect block by \"no-rm\"\n\
    \x20 event before_step { steps: 20 }\n\
    \x20 expect forbid by \"guard.rules:4\"\n\
    }\n";

/// The position of the `nth` occurrence of `needle` in `text` (0-based), plus `shift`
/// characters, in an ASCII text
fn position_of(text: &str, needle: &str, shift: usize) -> Value {
    let offset = text.find(needle).unwrap() + shift;
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let character = offset - before.rfind('\n').map_or(0, |idx| idx + 1);
    json!({"line": line, "character": character})
}

fn at(uri: &str, position: Value) -> Value {
    json!({"textDocument": {"uri": uri}, "position": position})
}

#[test]
fn hover_explains_events_verbs_fields_and_codes() {
    let mut editor = Editor::initialized();
    let uri = "file:///p/guard.rules";
    editor.open(uri, GUARD);
    let hover = |editor: &mut Editor, needle: &str| {
        let answer = editor.request("textDocument/hover", at(uri, position_of(GUARD, needle, 1)));
        answer["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    // docs/language.md §4.1 and §4.2.
    let event = hover(&mut editor, "pre_tool_use when");
    assert!(event.contains("before each tool call"), "{event}");
    for visible in ["`tool`", "`arg.*`", "`steps`"] {
        assert!(event.contains(visible), "{visible}: {event}");
    }
    assert!(!event.contains("`result`"), "{event}");
    let verb = hover(&mut editor, "block \"");
    assert!(verb.contains("refuse this tool call"), "{verb}");
    assert!(verb.contains("`pre_tool_use`"), "{verb}");
    let field = hover(&mut editor, "steps >=");
    assert!(field.contains("steps completed so far"), "{field}");
    assert!(field.contains("int"), "{field}");
    // `rulesc explain W005`, word for word.
    let (_, explained, _) = common::rulesc(".", &["explain", "W005"]);
    assert_eq!(hover(&mut editor, "W005"), explained);
    // Nothing in a string.
    let answer = editor.request(
        "textDocument/hover",
        at(uri, position_of(GUARD, "destructive", 2)),
    );
    assert_eq!(answer["result"], Value::Null, "{answer}");
    assert_eq!(editor.shut_down(), 0);
}

/// The labels offered at the end of `text`
fn completion_labels(editor: &mut Editor, uri: &str, text: &str) -> Vec<String> {
    editor.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 9}, "contentChanges": [{"text": text}]}),
    );
    let last_line = text.lines().count().saturating_sub(1);
    let character = text.lines().last().unwrap_or_default().len();
    let answer = editor.request(
        "textDocument/completion",
        at(uri, json!({"line": last_line, "character": character})),
    );
    answer["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["label"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn completion_offers_events_then_visible_fields_then_allowed_verbs() {
    let mut editor = Editor::initialized();
    let uri = "file:///p/new.rules";
    editor.open(uri, "");
    let events = completion_labels(&mut editor, uri, "on ");
    assert_eq!(events.len(), 11, "{events:?}");
    assert!(events.contains(&"subagent_stop".to_owned()));
    // docs/language.md §4.1: `tool` and `arg.*` on pre_tool_use, `result` only after the call.
    let fields = completion_labels(&mut editor, uri, "on pre_tool_use when ");
    for field in ["tool", "arg.", "steps", "metadata."] {
        assert!(fields.contains(&field.to_owned()), "{field}: {fields:?}");
    }
    assert!(!fields.contains(&"result".to_owned()), "{fields:?}");
    // docs/language.md §4.2: the verbs allowed on pre_tool_use.
    let verbs = completion_labels(&mut editor, uri, "on pre_tool_use when tool == \"rm\" ");
    let mut verbs: Vec<&str> = verbs
        .iter()
        .map(String::as_str)
        .filter(|label| !["and", "or"].contains(label))
        .collect();
    verbs.sort_unstable();
    assert_eq!(verbs, ["allow", "ask", "block", "forbid"]);
    assert_eq!(editor.shut_down(), 0);
}

#[test]
fn hover_and_completion_know_the_builtins() {
    let mut editor = Editor::initialized();
    let uri = "file:///p/trace.rules";
    let text = "on pre_tool_use when streak(post_tool_use when tool_error) >= 3 and \
                shell.all(flag(\"-r\")) ask\n";
    editor.open(uri, text);
    let hover = |editor: &mut Editor, needle: &str| {
        let answer = editor.request("textDocument/hover", at(uri, position_of(text, needle, 1)));
        answer["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    // docs/trace.md, "The functions": a streak counts events in a row, and has no window.
    let streak = hover(&mut editor, "streak(");
    assert!(
        streak.contains("`streak(EVENT when CONDITION)`"),
        "{streak}"
    );
    assert!(streak.contains("in a row, ending now"), "{streak}");
    assert!(streak.contains("usable on: every event"), "{streak}");
    // docs/shell.md: shell conditions read a tool call's command.
    let shell_all = hover(&mut editor, "shell.all(");
    assert!(
        shell_all.contains("`pre_tool_use`, `post_tool_use`"),
        "{shell_all}"
    );
    let flag = hover(&mut editor, "flag(");
    assert!(flag.contains("inside `shell(...)`"), "{flag}");
    let offered = completion_labels(&mut editor, uri, "on stop when ");
    for name in ["count", "seen", "streak", "any", "all"] {
        assert!(offered.contains(&name.to_owned()), "{name}: {offered:?}");
    }
    assert!(!offered.contains(&"shell".to_owned()), "{offered:?}");
    assert_eq!(editor.shut_down(), 0);
}

#[test]
fn symbols_are_the_rule_ids_and_by_goes_to_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("guard.rules");
    std::fs::write(&path, GUARD).unwrap();
    let (_, compiled, _) = common::rulesc(dir.path(), &["compile", "guard.rules"]);
    let compiled: Value = serde_json::from_str(&compiled).unwrap();
    let ids: Vec<&str> = compiled["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["id"].as_str().unwrap())
        .filter(|id| !id.starts_with("prelude:"))
        .collect();
    let mut editor = Editor::initialized();
    let uri = uri_of(&path);
    editor.open(&uri, GUARD);
    let answer = editor.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let names: Vec<&str> = answer["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|symbol| symbol["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ids);
    for (by, line) in [("\"no-rm\"\n  event", 0), ("\"guard.rules:4\"", 3)] {
        let answer = editor.request(
            "textDocument/definition",
            at(&uri, position_of(GUARD, by, 3)),
        );
        assert_eq!(answer["result"]["uri"], uri, "{answer}");
        assert_eq!(
            answer["result"]["range"]["start"],
            json!({"line": line, "character": 0})
        );
    }
    let answer = editor.request(
        "textDocument/definition",
        at(&uri, position_of(GUARD, "steps: 20", 0)),
    );
    assert_eq!(answer["result"], Value::Null);
    assert_eq!(editor.shut_down(), 0);
}

#[test]
fn malformed_input_gets_an_error_and_the_server_goes_on() {
    let mut editor = Editor::start();
    // A request before `initialize`.
    let answer = editor.request(
        "textDocument/hover",
        at("file:///a.rules", json!({"line": 0, "character": 0})),
    );
    assert_eq!(answer["error"]["code"], -32002, "{answer}");
    let answer = editor.request("initialize", json!({"capabilities": {}}));
    assert!(answer["result"].is_object());
    editor.notify("initialized", json!({}));
    // Not JSON; a header that is not a length; not a JSON-RPC message.
    for garbage in [
        "Content-Length: 9\r\n\r\n{not json".to_owned(),
        "Content-Length: nine\r\n\r\n".to_owned(),
        "Content-Length: 2\r\n\r\n[]".to_owned(),
    ] {
        editor.send_raw(garbage.as_bytes());
        let answer = editor.next();
        assert_eq!(answer["id"], Value::Null, "{answer}");
        assert!(
            [-32700, -32600].contains(&answer["error"]["code"].as_i64().unwrap()),
            "{answer}"
        );
    }
    // Unknown method; bad parameters; a document never opened.
    let answer = editor.request("textDocument/rename", json!({}));
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    let answer = editor.request("textDocument/hover", json!("not an object"));
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let answer = editor.request(
        "textDocument/hover",
        at("file:///never.rules", json!({"line": 0, "character": 0})),
    );
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    // A second `initialize`.
    let answer = editor.request("initialize", json!({"capabilities": {}}));
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    // Positions past the document.
    let uri = "file:///p/guard.rules";
    editor.open(uri, GUARD);
    for position in [
        json!({"line": 99, "character": 0}),
        json!({"line": 4_000_000_000_u64, "character": 0}),
    ] {
        let answer = editor.request("textDocument/hover", at(uri, position));
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
    }
    let answer = editor.request(
        "textDocument/completion",
        at(uri, json!({"line": 0, "character": 10_000})),
    );
    assert!(answer["result"].is_array(), "{answer}");
    let answer = editor.request(
        "textDocument/hover",
        at(uri, json!({"line": -1, "character": 0})),
    );
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    // A notification with bad parameters is reported in the log.
    editor.notify("textDocument/didOpen", json!({"textDocument": 3}));
    let logged = editor.notification("window/logMessage");
    assert_eq!(logged["type"], 1);
    assert!(logged["message"]
        .as_str()
        .unwrap()
        .starts_with("ignored `textDocument/didOpen`"));
    // Still serving.
    let answer = editor.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(answer["result"].as_array().unwrap().len(), 2, "{answer}");
    // After `shutdown`, requests are refused; `exit` then ends with 0.
    let answer = editor.request("shutdown", Value::Null);
    assert_eq!(answer["result"], Value::Null);
    let answer = editor.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    editor.notify("exit", Value::Null);
    assert_eq!(editor.exit_status(), 0);
}

#[test]
fn the_stdio_flag_editor_clients_pass_is_accepted() {
    let mut editor = Editor::start_with(&["lsp", "--stdio"]);
    let answer = editor.request("initialize", json!({"capabilities": {}}));
    assert!(answer["result"]["capabilities"].is_object(), "{answer}");
    assert_eq!(editor.shut_down(), 0);
}

#[test]
fn exit_without_shutdown_or_a_closed_stream_ends_with_1() {
    let mut editor = Editor::initialized();
    editor.notify("exit", Value::Null);
    assert_eq!(editor.exit_status(), 1);
    let editor = Editor::initialized();
    assert_eq!(editor.exit_status(), 1);
}
