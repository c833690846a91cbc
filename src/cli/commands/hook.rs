//! `rulesc hook`: reads one hook call on stdin, answers on stdout, explains on stderr.

use std::io::{Read, Write};
use std::path::PathBuf;

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

/// The policy named by the POLICY arguments
struct PolicyFiles<'a>(&'a [PathBuf]);

impl Loader for PolicyFiles<'_> {
    fn read(&self) -> Result<Vec<Input>, String> {
        self.0
            .iter()
            .map(|path| {
                std::fs::read_to_string(path)
                    .map(|text| Input {
                        name: path.display().to_string(),
                        text,
                    })
                    .map_err(|err| format!("cannot read `{}`: {err}", path.display()))
            })
            .collect()
    }

    fn compile(&self, inputs: &[Input]) -> Result<Policy, String> {
        match inputs {
            [single] => Policy::from_json(&single.text).map_err(|err| err.to_string()),
            _ => Err("only one compiled policy is supported".to_owned()),
        }
    }
}
