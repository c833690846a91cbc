//! `rulesc hook`: reads one hook call on stdin, answers on stdout, explains on stderr, all
//! within `--timeout`.

use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};

use rulesc::load::{self, Listing};
use rulesc::{input, Policy, SourceBytes};
use rulesc_host::{Files, Input, Loader, Options, OutOfTime, Reply, Source, StateLocation};

use super::hook_deadline::{self, Rendered};

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
    // The deadline starts before stdin is read: a host that never closes it is out of time.
    hook_deadline::prepare(Rendered::new(
        &OutOfTime::new(None, &options, args.timeout).reply(None),
    ));
    if let Err(err) = hook_deadline::start(args.timeout) {
        // Without a deadline, nothing keeps the call within its time.
        let reason = format!("rulesc hook could not start its timer: {err}");
        return hook_deadline::give(&Rendered::new(&rulesc_host::unreadable_input(
            &reason, &options,
        )));
    }
    // Whatever fails while answering fails closed; `handle` catches its own panics, this
    // catches the rest (reading stdin, discovering the policies).
    let reply = std::panic::catch_unwind(AssertUnwindSafe(|| reply(args, &options)))
        .unwrap_or_else(|_| {
            rulesc_host::unreadable_input("rulesc hook failed internally", &options)
        });
    let status = hook_deadline::give(&Rendered::new(&reply));
    // Pruning comes after the answer, and ends with the time (the deadline ends the
    // process): what it did not reach, a later call prunes.
    if options.prune_older_than.is_some() {
        let notes = rulesc_host::prune(&options);
        let mut stderr = std::io::stderr().lock();
        for line in notes {
            let _ = writeln!(stderr, "{}", rulesc::one_line(&line));
        }
    }
    status
}

/// The reply to the call on stdin; the answer out of time follows what the call waits on
fn reply(args: &HookArgs, options: &Options) -> Reply {
    let input = match input::read_stdin() {
        Ok(input) => input,
        // The event is unknown, so this is refused as input that is not JSON is.
        Err(err) => {
            let reason = format!("stdin is unreadable: {err}");
            return rulesc_host::unreadable_input(&reason, options);
        }
    };
    let out_of_time = OutOfTime::new(Some(&input), options, args.timeout);
    let listened = rulesc_host::when_waiting_changes(move |cause| {
        hook_deadline::prepare(Rendered::new(&out_of_time.reply(cause)));
    });
    if let Err(reason) = listened {
        return rulesc_host::unreadable_input(&reason, options);
    }
    let arguments = if args.discover {
        super::hook_discover::policies(&args.policies, &input)
    } else {
        args.policies.clone()
    };
    let files = PolicyFiles {
        arguments: &arguments,
        drop_repeated: args.discover,
    };
    rulesc_host::handle(&input, options, &files)
}

/// Runs `rulesc hook reset`
fn run_reset(args: &HookResetArgs) -> ExitStatus {
    let location = match state_location(args.state.as_deref(), args.state_dir.as_deref()) {
        Ok(location) => location,
        Err(status) => return status,
    };
    let said = match &args.session {
        Some(session) => rulesc_host::reset(&location, session).map(|removed| {
            if removed {
                format!("session `{session}` reset: its next hook call starts afresh")
            } else {
                format!("session `{session}` has no state to reset")
            }
        }),
        None => rulesc_host::acknowledge_loss(&location),
    };
    match said {
        Ok(said) => {
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
    /// Whether a file of a later argument that repeats a file of an earlier one (the same
    /// name, its path below its folder, and the same bytes) is left out: with `--discover`,
    /// a project's starter `safe-shell.rules` repeats the user's, and would define each
    /// rule twice. A project's file that differs is kept beside the user's, never in its
    /// place: a project's policy may not drop the user's rules (docs/layers.md).
    drop_repeated: bool,
}

impl Loader for PolicyFiles<'_> {
    fn arguments(&self) -> &[PathBuf] {
        self.arguments
    }

    fn user_folder(&self) -> Option<PathBuf> {
        load::user_folder()
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
                let files = if self.drop_repeated {
                    drop_repeated(found.files)
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
                layer: load::layer_of(Path::new(&input.path)),
            })
            .collect();
        crate::cli::policy::compile_one_line(files)
    }
}

/// `files` without those that repeat an earlier file: the same name and the same bytes
fn drop_repeated(files: Vec<load::Listed>) -> Vec<load::Listed> {
    let mut kept: Vec<load::Listed> = Vec::with_capacity(files.len());
    for file in files {
        let repeats = kept.iter().any(|earlier| {
            earlier.name == file.name
                && matches!(
                    (input::read_file(&earlier.path), input::read_file(&file.path)),
                    (Ok(earlier), Ok(later)) if earlier == later
                )
        });
        if !repeats {
            kept.push(file);
        }
    }
    kept
}
