//! rulesc for coding-agent hosts: a policy as a hook command of Claude Code, Codex or
//! Gemini CLI.
//!
//! One call reads the host's JSON (`payload.rs`), loads the policy through the compile
//! cache (`cache.rs`), and, in one transaction of the session's store (`store/`: files
//! under the state folder's lock, or Redis), maps the call to rulesc events and evaluates
//! them against the session's state (`mapping.rs`, `state.rs`) and saves the state; then it
//! writes the verdict in the host's protocol (`answer.rs`). The `rulesc hook` command reads
//! stdin, calls [`handle`] and writes its [`Reply`]; this crate does no other IO than the
//! state folder and the store, and prints nothing.
//!
//! Invariant: a hook never lets a tool call through because it failed. Any internal failure
//! on a tool call (the policy does not compile, the input is malformed, the state cannot be
//! read or written), and input whose event cannot be known, is answered with exit 2 and the
//! reason on stderr, which every host reads as "deny"; `--fail-open` turns that into `{}`.
//! On other events a failure answers `{}` (no opinion) with the reason on stderr: a broken
//! guard must not trap the agent in a turn it cannot end.

#![deny(clippy::print_stdout, clippy::print_stderr)]

mod answer;
mod approval;
mod cache;
mod digest;
pub mod durable;
mod facts;
mod hosts;
mod mapping;
mod payload;
mod private;
pub mod replay;
mod session;
mod state;
mod store;
mod transcript;
mod waiting;

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub use cache::{Files, Input, Source};
pub use hosts::{folder_trusted, HookTemplate, HooksSwitch, Host, Trust, TrustEntry};
use payload::Received;
use rulesc_runtime::{Limits, Policy, SortedJson};
use state::StateDir;
pub use store::{SessionStore, StateLocation};

/// How a hook call is answered
#[derive(Debug, Clone)]
pub struct Options {
    /// Whose protocol
    pub host: Host,
    /// Where compiled policies live, and sessions' state with [`SessionStore::Folder`]
    pub state_dir: PathBuf,
    /// Where sessions' state lives
    pub sessions: SessionStore,
    /// Answer `{}` instead of denying a tool call when something fails
    pub fail_open: bool,
    /// Remove sessions not written for longer than this, after answering ([`prune`]); a
    /// store that expires sessions itself (Redis) also gives each write this expiry
    pub prune_older_than: Option<Duration>,
    /// The host limits the policy runs under
    pub limits: Limits,
    /// Enforce nothing: every rule runs in shadow mode (`rulesc hook --shadow`)
    pub shadow: bool,
}

/// Where the policy comes from: the files it is built from, and how to build it
pub trait Loader {
    /// The POLICY arguments as given, which name the policy's cache entry
    fn arguments(&self) -> &[PathBuf];

    /// The folder whose files are the user's layer (docs/layers.md), `None` when no folder
    /// is: the one thing beside the files that decides what they compile to, so it names
    /// the cache entry too, and moving it (`XDG_CONFIG_HOME`) compiles the policy anew
    fn user_folder(&self) -> Option<PathBuf>;

    /// Finds the files the POLICY arguments name (`.rules` files, or one compiled JSON
    /// policy), without reading them: the cache asks only when it cannot vouch for what it
    /// found before, and reads the files only then; the error is one line for stderr
    fn list(&self) -> Result<Files, String>;

    /// Reads one file [`Loader::list`] found; the error is one line for stderr
    fn read(&self, source: &Source) -> Result<Input, String>;

    /// Builds the policy of the files [`Loader::read`] read: compiles `.rules` files, or
    /// loads and checks a compiled JSON policy; the error is one line for stderr
    fn compile(&self, inputs: &[Input]) -> Result<Policy, String>;
}

/// What to print and how to exit
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The answer for stdout, if any
    pub stdout: Option<String>,
    /// Lines for stderr
    pub stderr: Vec<String>,
    /// How the process exits
    pub exit: Exit,
}

/// How a hook process exits: every host reads exit 2 with the reason on stderr as "deny"
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Exit 0: the answer is on stdout
    Answer,
    /// Exit 2: the call is refused, for the reason on stderr
    Deny,
}

impl Exit {
    /// The process exit code
    pub fn code(self) -> u8 {
        match self {
            Exit::Answer => 0,
            Exit::Deny => 2,
        }
    }
}

/// The default state folder: `rulesc` in `$XDG_STATE_HOME`, else in `~/.local/state`; none
/// when neither is known
///
/// One folder per user, never a name every user shares: another user who made the shared
/// folder first could plant what the hook reads. The XDG state folder outlives a logout and
/// a restart, as a latched `forbid` must (docs/state.md says why not `$XDG_RUNTIME_DIR`).
/// A relative `XDG_STATE_HOME` is ignored, as the XDG specification asks.
pub fn default_state_dir() -> Option<PathBuf> {
    let state_home = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|path| path.is_absolute())
        .or_else(|| {
            std::env::home_dir()
                .filter(|home| home.is_absolute())
                .map(|home| home.join(".local").join("state"))
        });
    state_home.map(|folder| folder.join("rulesc"))
}

/// Answers one hook call: `input` is what the host wrote on stdin
pub fn handle(input: &[u8], options: &Options, loader: &dyn Loader) -> Reply {
    let mut notes = Vec::new();
    let call = match payload::read(input, options.host) {
        Ok(Received::Call(call)) => call,
        Ok(Received::Unmapped(name)) => {
            notes.push(format!(
                "`{name}` is not an event rulesc hook maps; no opinion"
            ));
            return answer("{}".to_owned(), notes);
        }
        Err(err) => return failed(&err.to_string(), err.gates_tool_call(), options, notes),
    };
    for (field, why) in &call.unread {
        let labels = if field == "tool_response" {
            ", and a label attached to it holds every value from now on"
        } else {
            ""
        };
        notes.push(format!(
            "the `{field}` of this `{}` call could not be read ({why}); it is taken as unknown: \
             tests of it fail closed{labels}",
            call.name
        ));
    }
    let gates_tool_call = call.event.gates_tool_call();
    // A guard that crashes must not let a tool through: the host could read the panic's exit
    // status as "no opinion", so a panic is a failure like any other and fails closed.
    let responded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut call_notes = Vec::new();
        let verdict = respond(&call, options, loader, &mut call_notes);
        (verdict, call_notes)
    }));
    match responded {
        Ok((Ok(mut verdict), call_notes)) => {
            notes.extend(call_notes);
            if matches!(verdict.permission, Some((answer::Permission::Allow, _))) {
                if let Some(why) = approval::project_may_not_approve(loader) {
                    verdict.permission = None;
                    notes.push(why);
                }
            }
            if let Some(why) = call.not_json.as_deref().filter(|_| !options.fail_open) {
                return not_whole_json(&call.name, why, &verdict, options, notes);
            }
            let (json, note) = verdict.answer(options.host, call.event);
            notes.extend(note);
            answer(SortedJson(&json).to_string(), notes)
        }
        Ok((Err(reason), call_notes)) => {
            notes.extend(call_notes);
            failed(&reason, gates_tool_call, options, notes)
        }
        Err(_) => failed(
            "rulesc hook failed internally",
            gates_tool_call,
            options,
            notes,
        ),
    }
}

/// The answer to a call whose input is no whole JSON (`not_json` says why), once what
/// could be read of it has been recorded: refused, as for any input no reader can tell a
/// tool call from, with the policy's own reasons on stderr
fn not_whole_json(
    name: &str,
    not_json: &str,
    verdict: &answer::Verdict,
    options: &Options,
    mut notes: Vec<String>,
) -> Reply {
    let reasons = [
        // An approval is void here, so its reason ("allowed by …") is not repeated.
        &verdict
            .permission
            .as_ref()
            .filter(|(permission, _)| *permission != answer::Permission::Allow)
            .map(|(_, reason)| reason.clone()),
        &verdict.halt,
        &verdict.keep_working,
    ];
    notes.extend(
        reasons
            .into_iter()
            .flatten()
            .map(|reason| format!("the policy says: {reason}")),
    );
    let reason = format!(
        "the hook input is not JSON ({not_json}); what could be read of this `{name}` call \
         was recorded, with the rest taken as unknown"
    );
    failed(&reason, true, options, notes)
}

/// Forgets what the store at `location` keeps of `session_id` (its counters, metadata and
/// a latched forbid), so its next hook call starts afresh; `Ok(false)` when there was
/// nothing to forget
pub fn reset(location: &StateLocation, session_id: &str) -> Result<bool, String> {
    let dir = StateDir::open(&location.dir).map_err(state_error)?;
    let mut store = store::open(&location.sessions, dir, None).map_err(state_error)?;
    store.reset(session_id).map_err(state_error)
}

/// Accepts that the store at `location` lost data (a Redis server emptied or evicting), so
/// hook calls, denied since the loss was seen, go on with what it kept; what was done
pub fn acknowledge_loss(location: &StateLocation) -> Result<String, String> {
    let dir = StateDir::open(&location.dir).map_err(state_error)?;
    let mut store = store::open(&location.sessions, dir, None).map_err(state_error)?;
    store.acknowledge_loss().map_err(state_error)
}

/// The reason a hook call or a reset fails on an error of the state
pub(crate) fn state_error(err: std::io::Error) -> String {
    format!("the hook state is unusable: {err}")
}

/// The answer when stdin itself could not be read: the event is unknown, so it is refused
pub fn unreadable_input(reason: &str, options: &Options) -> Reply {
    failed(reason, true, options, Vec::new())
}

/// The answer when [`handle`] does not answer within `budget` (`rulesc hook --timeout`),
/// ready before it is needed: a deadline that ends the process from a signal handler can
/// only write what was prepared
///
/// It fails as any call that cannot be checked does: a tool call is denied (unless
/// `fail_open`), any other event gets no opinion, and the reason says what the call was
/// waiting on when it ran out of time, when that is known ([`when_waiting_changes`]).
#[derive(Debug, Clone)]
pub struct OutOfTime {
    /// Whether the call gates a tool call; `None` while stdin is still being read
    gates_tool_call: Option<bool>,
    options: Options,
    budget: Duration,
}

impl OutOfTime {
    /// The answer out of time of the call whose stdin is `input`, if all of it was read
    pub fn new(input: Option<&[u8]>, options: &Options, budget: Duration) -> OutOfTime {
        let gates_tool_call = input.map(|input| match payload::read(input, options.host) {
            Ok(Received::Call(call)) => call.event.gates_tool_call(),
            Ok(Received::Unmapped(_)) => false,
            Err(err) => err.gates_tool_call(),
        });
        OutOfTime {
            gates_tool_call,
            options: options.clone(),
            budget,
        }
    }

    /// The answer, when the call runs out of time while waiting on `cause`
    pub fn reply(&self, cause: Option<&str>) -> Reply {
        let (gates_tool_call, cause) = match self.gates_tool_call {
            Some(gates) => (
                gates,
                cause.unwrap_or("the policy or the state folder was too slow"),
            ),
            None => (true, "the host did not close stdin"),
        };
        let reason = format!(
            "it could not answer within {} ({cause}); `--timeout` sets the time",
            duration_text(self.budget)
        );
        failed(&reason, gates_tool_call, &self.options, Vec::new())
    }
}

/// Has `listener` told what the call waits on now, and again each time that changes
/// (`None`: nothing said), for as long as the process lives; a second listener is refused
pub fn when_waiting_changes(
    listener: impl Fn(Option<&str>) + Send + Sync + 'static,
) -> Result<(), String> {
    waiting::listen(Box::new(listener))
}

/// Forgets the sessions (and compiled policies) not written for longer than
/// `options.prune_older_than`, a bounded part of them per call (docs/state.md); what went
/// wrong, for stderr
///
/// Separate from [`handle`], so that the answer never waits for it: the `rulesc hook`
/// command answers first, then prunes within what is left of its time.
pub fn prune(options: &Options) -> Vec<String> {
    let Some(age) = options.prune_older_than else {
        return Vec::new();
    };
    let pruned = StateDir::open(&options.state_dir).and_then(|dir| {
        let policies = dir.policies();
        store::open(&options.sessions, dir, Some(age))?.prune(age)?;
        state::prune_folder(&policies, age, None)
    });
    match pruned {
        Ok(_) => Vec::new(),
        Err(err) => vec![format!("old sessions could not be pruned: {err}")],
    }
}

/// `duration` as `--timeout` takes it: `5s`, `1500ms`
fn duration_text(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{}s", millis / 1000)
    } else {
        format!("{millis}ms")
    }
}

/// Loads the policy and the session, evaluates the call and saves the session
fn respond(
    call: &payload::HookCall,
    options: &Options,
    loader: &dyn Loader,
    notes: &mut Vec<String>,
) -> Result<answer::Verdict, String> {
    let _waiting = waiting::on(format!(
        "the state folder `{}` or the policy files were too slow to read",
        options.state_dir.display()
    ));
    let dir = StateDir::open(&options.state_dir).map_err(state_error)?;
    let policies = dir.policies();
    let cached = cache::load(&policies, loader)?;
    notes.extend(cached.warning);
    let policy = cached.policy;
    let policy = policy.with_limits(options.limits);
    let policy = if options.shadow {
        policy.in_shadow()
    } else {
        policy
    };
    let policy_key = session::policy_key(loader.arguments());
    let now_ms = now_ms();
    let _waiting = waiting::on(match &options.sessions {
        SessionStore::Folder => format!(
            "the state folder `{}` was too slow",
            options.state_dir.display()
        ),
        SessionStore::Redis(_) => "the redis store did not answer".to_owned(),
    });
    let mut store =
        store::open(&options.sessions, dir, options.prune_older_than).map_err(state_error)?;
    if !call.event.gates_tool_call() {
        store.ahead_of_tool_calls();
    }
    let reset_flags = store.reset_flags();
    let mut verdict = None;
    let mut outcomes = Vec::new();
    store
        .update(&call.session_id, now_ms, &mut |session, now_ms| {
            // A store may run the update again when another process wrote meanwhile: only
            // the last run's outcomes are what happened.
            outcomes.clear();
            verdict = Some(mapping::respond_recorded(
                &policy,
                &policy_key,
                call,
                session,
                now_ms,
                &reset_flags,
                Some(&mut outcomes),
            ));
        })
        .map_err(state_error)?;
    notes.extend(
        outcomes
            .iter()
            .flat_map(|(_, outcome)| shadow_notes(outcome)),
    );
    verdict.ok_or_else(|| "the session's state was never loaded".to_owned())
}

/// The log lines of what shadow rules would have decided on one event; none when no
/// shadow rule decided
fn shadow_notes(outcome: &rulesc_runtime::Outcome) -> impl Iterator<Item = String> + '_ {
    outcome.shadow.iter().filter_map(move |evaluation| {
        let rulesc_runtime::Act::Decide(verb) = evaluation.verb else {
            return None;
        };
        let message = evaluation
            .message
            .as_deref()
            .map_or_else(String::new, |message| format!(": {message}"));
        Some(format!(
            "shadow: rule `{}` would have decided `{verb}` on `{}`{message}",
            evaluation.rule, outcome.event
        ))
    })
}

/// A normal answer
fn answer(stdout: String, notes: Vec<String>) -> Reply {
    Reply {
        stdout: Some(stdout),
        stderr: notes,
        exit: Exit::Answer,
    }
}

/// The answer when the call could not be judged: deny a tool call (exit 2), else no opinion
fn failed(reason: &str, gates_tool_call: bool, options: &Options, mut notes: Vec<String>) -> Reply {
    if gates_tool_call && !options.fail_open {
        notes.push(format!(
            "rulesc could not check this call, so it is denied: {reason}"
        ));
        return Reply {
            stdout: None,
            stderr: notes,
            exit: Exit::Deny,
        };
    }
    notes.push(format!("rulesc could not check this call: {reason}"));
    answer("{}".to_owned(), notes)
}

/// Milliseconds since the Unix epoch (0 on a clock set before 1970)
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loader that crashes, standing in for any internal failure
    struct Crashing;

    impl Loader for Crashing {
        fn arguments(&self) -> &[PathBuf] {
            &[]
        }

        fn user_folder(&self) -> Option<PathBuf> {
            None
        }

        fn list(&self) -> Result<Files, String> {
            panic!("the loader crashed")
        }

        fn read(&self, _source: &Source) -> Result<Input, String> {
            panic!("the reader crashed")
        }

        fn compile(&self, _inputs: &[Input]) -> Result<Policy, String> {
            panic!("the compiler crashed")
        }
    }

    fn options(state_dir: &std::path::Path, fail_open: bool) -> Options {
        Options {
            host: Host::Claude,
            state_dir: state_dir.to_path_buf(),
            sessions: SessionStore::Folder,
            fail_open,
            prune_older_than: None,
            limits: Limits::default(),
            shadow: false,
        }
    }

    const PRE_TOOL_USE: &[u8] = br#"{"session_id": "s", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}"#;

    #[test]
    fn a_panic_while_checking_a_tool_call_denies_it() {
        let dir = tempfile::tempdir().unwrap();
        let reply = handle(PRE_TOOL_USE, &options(dir.path(), false), &Crashing);
        assert_eq!(reply.exit, Exit::Deny);
        assert_eq!(reply.stdout, None);
        assert!(
            reply
                .stderr
                .iter()
                .any(|line| line.contains("failed internally")),
            "{:?}",
            reply.stderr
        );
    }

    #[test]
    fn a_panic_on_another_event_gives_no_opinion() {
        let dir = tempfile::tempdir().unwrap();
        let stop = br#"{"session_id": "s", "hook_event_name": "Stop"}"#;
        let reply = handle(stop, &options(dir.path(), false), &Crashing);
        assert_eq!(reply.exit, Exit::Answer);
        assert_eq!(reply.stdout.as_deref(), Some("{}"));
    }

    #[test]
    fn fail_open_answers_no_opinion_even_after_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let reply = handle(PRE_TOOL_USE, &options(dir.path(), true), &Crashing);
        assert_eq!(reply.stdout.as_deref(), Some("{}"));
    }
}
