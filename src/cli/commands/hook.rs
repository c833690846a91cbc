//! `rulesc hook`: reads one hook call on stdin, answers on stdout, explains on stderr.

use std::io::Write;
use std::path::{Path, PathBuf};

use rulesc::load::{self, Listing, Sources};
use rulesc::{input, Policy, SourceBytes};
use rulesc_host::{Exit, Files, Input, Loader, Options, Source, StateLocation};

use crate::cli::args::{HookAction, HookArgs, HookResetArgs, OnError};
use crate::cli::ExitStatus;

/// Runs `rulesc hook`
pub(crate) fn run(args: &HookArgs) -> ExitStatus {
    if let Some(HookAction::Reset(reset)) = &args.action {
        return run_reset(reset);
    }
    // clap requires `--host` unless a subcommand was given.
    let Some(host) = args.host else {
        crate::cli::print_error("`--host` is required");
        return ExitStatus::Error;
    };
    let location = match state_location(args.state.as_deref(), args.state_dir.as_deref()) {
        Ok(location) => location,
        Err(status) => return status,
    };
    let options = Options {
        host,
        state_dir: location.dir,
        sessions: location.sessions,
        fail_open: args.fail_open || args.on_error == OnError::Allow,
        prune_older_than: args.prune_older_than,
        limits: super::eval::limits(&args.limits),
        shadow: args.shadow,
    };
    let reply = match input::read_stdin() {
        Ok(call) if args.discover => {
            let policies = super::hook_discover::policies(&args.policies, &call);
            let files = PolicyFiles {
                arguments: &policies,
                later_names_win: true,
            };
            rulesc_host::handle(&call, &options, &files)
        }
        Ok(call) => {
            let files = PolicyFiles {
                arguments: &args.policies,
                later_names_win: false,
            };
            rulesc_host::handle(&call, &options, &files)
        }
        // The event is unknown, so this is refused as input that is not JSON is.
        Err(err) => rulesc_host::unreadable_input(&format!("stdin is unreadable: {err}"), &options),
    };
    let mut stderr = std::io::stderr().lock();
    for line in &reply.stderr {
        // Nothing is left to tell if stderr itself is gone.
        let _ = writeln!(stderr, "{}", rulesc::one_line(line));
    }
    if let Some(answer) = &reply.stdout {
        if writeln!(std::io::stdout().lock(), "{answer}").is_err() {
            return ExitStatus::Error;
        }
    }
    match reply.exit {
        Exit::Answer => ExitStatus::Success,
        Exit::Deny => ExitStatus::Error,
    }
}

/// Runs `rulesc hook reset`
fn run_reset(args: &HookResetArgs) -> ExitStatus {
    let location = match state_location(args.state.as_deref(), args.state_dir.as_deref()) {
        Ok(location) => location,
        Err(status) => return status,
    };
    match rulesc_host::reset(&location, &args.session) {
        Ok(removed) => {
            let said = if removed {
                format!(
                    "session `{}` reset: its next hook call starts afresh",
                    args.session
                )
            } else {
                format!("session `{}` has no state to reset", args.session)
            };
            let _ = writeln!(std::io::stdout().lock(), "{said}");
            ExitStatus::Success
        }
        Err(reason) => {
            crate::cli::print_error(&reason);
            ExitStatus::Error
        }
    }
}

/// Where the hook keeps its state, from `--state` and `--state-dir`; a contradiction is
/// reported, and refuses the call (exit 2) as any flag error does
fn state_location(
    state: Option<&str>,
    state_dir: Option<&std::path::Path>,
) -> Result<StateLocation, ExitStatus> {
    StateLocation::from_flags(state, state_dir, rulesc_host::default_state_dir()).map_err(
        |reason| {
            crate::cli::print_error(&reason);
            ExitStatus::Error
        },
    )
}

/// The policy named by the POLICY arguments, read by the loader every command shares
struct PolicyFiles<'a> {
    /// The POLICY arguments
    arguments: &'a [PathBuf],
    /// Whether a file of a later argument replaces a file of the same name (its path below
    /// its folder) of an earlier one: with `--discover`, a project's `safe-shell.rules`
    /// replaces the user's, so the two starter policies do not define each rule twice
    later_names_win: bool,
}

impl Loader for PolicyFiles<'_> {
    fn arguments(&self) -> &[PathBuf] {
        self.arguments
    }

    fn list(&self) -> Result<Files, String> {
        match load::list_sources(self.arguments).map_err(|err| err.to_string())? {
            // Cached as `.rules` files are: checked when first read, then kept compact.
            Listing::Compiled(json) => Ok(Files {
                sources: vec![Source {
                    name: json.display().to_string(),
                    path: json,
                }],
                folders: Vec::new(),
                passed_over: Vec::new(),
            }),
            Listing::Rules(found) => {
                let files = if self.later_names_win {
                    later_names_win(found.files)
                } else {
                    found.files
                };
                Ok(Files {
                    sources: files
                        .into_iter()
                        .map(|file| Source {
                            name: file.name,
                            path: file.path,
                        })
                        .collect(),
                    folders: found.folders,
                    passed_over: found.passed_over,
                })
            }
        }
    }

    fn read(&self, source: &Source) -> Result<Input, String> {
        let file = load::read_listed(&source.name, &source.path).map_err(|err| err.to_string())?;
        Ok(Input {
            name: file.name,
            path: file.path,
            bytes: file.bytes,
        })
    }

    fn compile(&self, inputs: &[Input]) -> Result<Policy, String> {
        // `list` found a compiled JSON policy alone, or `.rules` files.
        if let [input] = inputs {
            let path = Path::new(&input.path);
            if load::is_compiled(path) {
                return load::compiled_from_bytes(path, input.bytes.clone())
                    .map_err(|err| err.to_string());
            }
        }
        let files = inputs
            .iter()
            .map(|input| SourceBytes {
                name: input.name.clone(),
                path: input.path.clone(),
                bytes: input.bytes.clone(),
            })
            .collect();
        compile(files)
    }
}

/// `files` without those a later file of the same name replaces
fn later_names_win(files: Vec<load::Listed>) -> Vec<load::Listed> {
    let mut kept: Vec<load::Listed> = Vec::with_capacity(files.len());
    for file in files.into_iter().rev() {
        if !kept.iter().any(|later| later.name == file.name) {
            kept.push(file);
        }
    }
    kept.reverse();
    kept
}

/// Compiles `.rules` files; a policy with errors is one line: the first error with its
/// place, and how many follow
pub(crate) fn compile(files: Vec<SourceBytes>) -> Result<Policy, String> {
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
