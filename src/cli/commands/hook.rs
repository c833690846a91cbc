//! `rulesc hook`: reads one hook call on stdin, answers on stdout, explains on stderr.

use std::io::Write;
use std::path::PathBuf;

use rulesc_compiler::SourceBytes;
use rulesc_runtime::Policy;

use crate::cli::args::{HookArgs, Host};
use crate::cli::input;
use crate::cli::load::{self, Sources};
use crate::cli::ExitStatus;
use crate::hook::{self, Input, Loader, Options, PolicySource};

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
        limits: super::eval::limits(&args.limits),
    };
    let reply = match input::read_stdin() {
        Ok(call) => hook::handle(&call, &options, &PolicyFiles(&args.policies)),
        // The event is unknown, so this is refused as input that is not JSON is.
        Err(err) => hook::unreadable_input(&format!("stdin is unreadable: {err}"), &options),
    };
    let mut stderr = std::io::stderr().lock();
    for line in &reply.stderr {
        // Nothing is left to tell if stderr itself is gone.
        let _ = writeln!(stderr, "{}", crate::cli::report::one_line(line));
    }
    if let Some(answer) = &reply.stdout {
        if writeln!(std::io::stdout().lock(), "{answer}").is_err() {
            return ExitStatus::Error;
        }
    }
    reply.status
}

/// The policy named by the POLICY arguments, read by the loader every command shares
struct PolicyFiles<'a>(&'a [PathBuf]);

impl Loader for PolicyFiles<'_> {
    fn read(&self) -> Result<PolicySource, String> {
        let files = match load::read_sources(self.0).map_err(|err| err.to_string())? {
            Sources::Compiled(policy) => return Ok(PolicySource::Loaded(policy)),
            Sources::Rules(files) => files,
        };
        let mut inputs = Vec::with_capacity(files.len());
        for file in &files {
            match String::from_utf8(file.bytes.clone()) {
                Ok(text) => inputs.push(Input {
                    name: file.name.clone(),
                    path: file.path.clone(),
                    text,
                }),
                // Not text: the compiler reports it (`E004`), and a policy that does not
                // compile is never cached, so compile it here.
                Err(_) => return compile(files).map(PolicySource::Loaded),
            }
        }
        Ok(PolicySource::Files(inputs))
    }

    fn compile(&self, inputs: &[Input]) -> Result<Policy, String> {
        compile(
            inputs
                .iter()
                .map(|input| SourceBytes {
                    name: input.name.clone(),
                    path: input.path.clone(),
                    bytes: input.text.clone().into_bytes(),
                })
                .collect(),
        )
    }
}

/// Compiles `.rules` files; a policy with errors is one line: the first error with its
/// place, and how many follow
fn compile(files: Vec<SourceBytes>) -> Result<Policy, String> {
    let diagnostics = match load::compile(Sources::Rules(files)) {
        Ok(loaded) => return Ok(loaded.policy),
        Err(diagnostics) => diagnostics,
    };
    let mut errors = diagnostics
        .diagnostics()
        .iter()
        .filter(|diag| diag.is_error());
    let Some(first) = errors.next() else {
        return Err("the policy does not compile".to_owned());
    };
    let place = first
        .location(diagnostics.files())
        .map_or_else(String::new, |location| {
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
    Err(format!(
        "the policy does not compile: {place}{} [{}]{more}",
        first.message, first.code.id
    ))
}
