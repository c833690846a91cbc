//! `rulesc hook`: reads one hook call on stdin, answers on stdout, explains on stderr.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use rulesc_compiler::{Diagnostic, SourceFile};
use rulesc_runtime::{Limits, Policy};

use crate::cli::args::{HookArgs, Host, LimitArgs};
use crate::cli::ExitStatus;
use crate::hook::{self, Input, Loader, Options};

/// Runs `rulesc hook`
pub(crate) fn run(args: &HookArgs) -> ExitStatus {
    let options = Options {
        host: match args.host {
            Host::Claude => hook::Host::Claude,
            Host::Gemini => hook::Host::Gemini,
            Host::Codex => hook::Host::Codex,
        },
        state_dir: args
            .state_dir
            .clone()
            .unwrap_or_else(hook::default_state_dir),
        fail_open: args.fail_open,
        prune_older_than: args.prune_older_than,
        limits: limits(&args.limits),
    };
    let mut input = Vec::new();
    let reply = match std::io::stdin().read_to_end(&mut input) {
        Ok(_) => hook::handle(&input, &options, &PolicyFiles(&args.policies)),
        // The event is unknown, so this is refused as input that is not JSON is.
        Err(err) => hook::unreadable_input(&format!("stdin is unreadable: {err}"), &options),
    };
    let mut stderr = std::io::stderr().lock();
    for line in &reply.stderr {
        // Nothing is left to tell if stderr itself is gone.
        let _ = writeln!(stderr, "{line}");
    }
    if let Some(answer) = &reply.stdout {
        if writeln!(std::io::stdout().lock(), "{answer}").is_err() {
            return ExitStatus::Error;
        }
    }
    reply.status
}

/// The host limits given on the command line, over their defaults
fn limits(args: &LimitArgs) -> Limits {
    let defaults = Limits::default();
    Limits {
        max_steps: args.max_steps.unwrap_or(defaults.max_steps),
        max_retries: args.max_retries.unwrap_or(defaults.max_retries),
        max_stop_requests: args.max_stop_requests.unwrap_or(defaults.max_stop_requests),
    }
}

/// The policy named by the POLICY arguments: `.rules` files, folders searched recursively
/// for `*.rules` (in sorted order), or one compiled JSON policy
struct PolicyFiles<'a>(&'a [PathBuf]);

impl Loader for PolicyFiles<'_> {
    fn read(&self) -> Result<Vec<Input>, String> {
        let mut inputs = Vec::new();
        for path in self.0 {
            if path.is_dir() {
                let mut found = Vec::new();
                walk(path, &mut found)?;
                found.sort();
                for file in found {
                    let name = file
                        .strip_prefix(path)
                        .unwrap_or(&file)
                        .components()
                        .map(|part| part.as_os_str().to_string_lossy())
                        .collect::<Vec<_>>()
                        .join("/");
                    inputs.push(read_input(&file, name)?);
                }
            } else {
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |name| name.to_string_lossy().into_owned(),
                );
                inputs.push(read_input(path, name)?);
            }
        }
        Ok(inputs)
    }

    fn compile(&self, inputs: &[Input]) -> Result<Policy, String> {
        let is_json = |input: &Input| input.path.ends_with(".json");
        match inputs {
            [single] if is_json(single) => {
                Policy::from_json(&single.text).map_err(|err| format!("`{}`: {err}", single.path))
            }
            _ if inputs.iter().any(is_json) => {
                Err("a compiled JSON policy cannot be combined with other policies".to_owned())
            }
            _ => {
                let files: Vec<SourceFile> = inputs
                    .iter()
                    .map(|input| SourceFile::new(&input.name, &input.path, &input.text))
                    .collect();
                let checked = rulesc_compiler::check(&files);
                checked
                    .policy
                    .ok_or_else(|| compile_errors(&checked.diagnostics, &files))
            }
        }
    }
}

/// One policy file, read
fn read_input(path: &Path, name: String) -> Result<Input, String> {
    std::fs::read_to_string(path)
        .map(|text| Input {
            name,
            path: path.display().to_string(),
            text,
        })
        .map_err(|err| format!("cannot read `{}`: {err}", path.display()))
}

/// Every `*.rules` file below `dir`
fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|err| format!("cannot read `{}`: {err}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|err| format!("cannot read `{}`: {err}", dir.display()))?
            .path();
        if path.is_dir() {
            walk(&path, found)?;
        } else if path.extension().is_some_and(|ext| ext == "rules") {
            found.push(path);
        }
    }
    Ok(())
}

/// The policy's errors as one line: the first one with its place, and how many follow
fn compile_errors(diagnostics: &[Diagnostic], files: &[SourceFile]) -> String {
    let mut errors = diagnostics.iter().filter(|diag| diag.is_error());
    let Some(first) = errors.next() else {
        return "the policy does not compile".to_owned();
    };
    let place = first.location(files).map_or_else(String::new, |location| {
        format!(
            "{}:{}:{}: ",
            location.path, location.start.line, location.start.column
        )
    });
    let more = match errors.count() {
        0 => String::new(),
        1 => " (and 1 more error)".to_owned(),
        n => format!(" (and {n} more errors)"),
    };
    format!(
        "the policy does not compile: {place}{} [{}]{more}",
        first.message, first.code.id
    )
}
