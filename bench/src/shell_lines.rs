//! Shell command lines of about 1 KB, the shipped safe-shell policy that reads them as
//! structure, and the same kind of guard written as plain globs on the command text.

use rulesc::{Event, Policy};

use crate::shipped::rules_dir;
use crate::SetupError;

/// A realistic command line of a coding agent, 1 KB or a little more: a chain of builds,
/// pipelines, quoting, a substitution and a here-string
pub fn line_1kb() -> String {
    let part = "cd /home/user/project && git status --short && git diff --stat HEAD~3 \
                | tee \"logs/diff $(date +%s).log\" && cargo build --release 2>&1 \
                | grep -E 'warning|error' | head -n 50; ";
    let mut line = String::new();
    while line.len() < 1024 {
        line.push_str(part);
    }
    line.push_str("echo done <<< \"finished\"");
    line
}

/// Short lines an agent runs all day, whose reading must not pay for what long lines need
pub const EVERYDAY_LINES: [&str; 3] = ["ls -la", "git status", "cargo test -q"];

/// An agent's inline Python one-liner (reads JSON, calls a command, deletes a build folder),
/// and the same line with `echo` in place of the interpreter, which parses no code
pub fn inline_python_lines() -> (String, String) {
    let code = "import json, os, shutil, subprocess; data = json.load(open('package.json')); \
                print(data['name'], subprocess.check_output(['git', 'rev-parse', 'HEAD']).decode()); \
                shutil.rmtree('build', ignore_errors=True)";
    (format!("python3 -c \"{code}\""), format!("echo \"{code}\""))
}

/// `line` as a Claude Code `Bash` call in the project
pub fn bash_event(line: &str) -> Event {
    let mut event = Event::new(rulesc::EventKind::PreToolUse);
    event.tool = Some("Bash".to_owned());
    event.cwd = Some("/home/user/project".to_owned());
    event.arg = Some(serde_json::json!({ "command": line }));
    event
}

/// An event of a tool that is no shell, with the same text in its `command` argument
pub fn other_tool_event(line: &str) -> Event {
    let mut event = bash_event(line);
    event.tool = Some("Read".to_owned());
    event
}

/// The shipped `rules/safe-shell.rules`
///
/// # Errors
///
/// When the policy does not compile.
pub fn safe_shell() -> Result<Policy, SetupError> {
    Ok(rulesc::compile_paths(&[
        rules_dir().join("safe-shell.rules")
    ])?)
}

/// Seven guards like safe-shell's, as globs on the command text (what the former policy did
/// with regular expressions): the floor a structural reading is compared with
///
/// # Errors
///
/// Never, unless the source below stops compiling.
pub fn glob_guards() -> Result<Policy, SetupError> {
    let source = r#"
on pre_tool_use when tool == "Bash" and arg.command ~ "*rm -*r*f*" block
on pre_tool_use when tool == "Bash" and arg.command ~ "*sudo *" block
on pre_tool_use when tool == "Bash" and arg.command ~ "*curl *|*sh*" block
on pre_tool_use when tool == "Bash" and arg.command ~ "*git push *-f*" block
on pre_tool_use when tool == "Bash" and arg.command ~ "*mkfs*" block
on pre_tool_use when tool == "Bash" and arg.command ~ "*dd *of=/dev/*" block
on pre_tool_use when tool == "Bash" and arg.command ~ "*chmod -R *" block
"#;
    Ok(rulesc::compile_str("globs.rules", source)?)
}
