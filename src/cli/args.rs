//! The command line, as clap reads it (docs/cli.md).

use std::ffi::OsStr;
use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, StringValueParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use rulesc::parse_duration;
use rulesc_host::Host;

/// Check, test, compile and run `.rules` policies for AI-agent flow control
#[derive(Debug, Parser)]
#[command(name = "rulesc", version, about, long_about = None)]
pub(crate) struct Cli {
    /// What to do
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Parse, validate and lint policies
    Check(CheckArgs),
    /// Print the long explanation of a diagnostic code
    Explain(ExplainArgs),
    /// Rewrite `.rules` files in the canonical layout
    Fmt(FmtArgs),
    /// Write the compiled policy set as JSON
    Compile(CompileArgs),
    /// Evaluate one event or a JSON Lines stream of events
    Eval(EvalArgs),
    /// Run the inline tests and the scenario files of policies
    Test(TestArgs),
    /// Run the agent loop with a scripted model and scripted tools
    Run(RunArgs),
    /// Answer one hook call of Claude Code, Codex or Gemini CLI (JSON on stdin)
    Hook(HookArgs),
    /// Write a starter policy and a coding agent's hook configuration into a folder
    Init(InitArgs),
    /// Check that a coding agent will run `rulesc hook` and that it answers, and say how to
    /// fix what is wrong
    Doctor(DoctorArgs),
    /// Print a shell's completion script for `rulesc`
    Completions(CompletionsArgs),
    /// Print the JSON Schema of a JSON document `rulesc` reads or writes
    Schema(SchemaArgs),
    /// Run the language server for editors, over stdin and stdout
    Lsp(LspArgs),
    /// Run policies over recorded sessions and report what they would have decided
    Replay(ReplayArgs),
}

/// `rulesc replay`
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// The policies (`.rules` files or directories, compiled JSON policies), then the
    /// traces (Claude Code transcripts, Codex rollouts, rulesc event JSON Lines): a `.jsonl`
    /// file, or a folder of them without `.rules` files, is a trace; with `--diff`, every
    /// PATH is a trace
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// Replay two versions of a policy and report only what they decide differently
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"])]
    pub(crate) diff: Option<Vec<PathBuf>>,
    /// Read every trace in this format instead of the one its first line shows
    #[arg(long, value_enum)]
    pub(crate) trace_format: Option<TraceFormatArg>,
    /// Output format
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub(crate) format: OutputFormat,
    /// Fail (exit 2) on the first line that cannot be replayed instead of warning
    #[arg(long)]
    pub(crate) strict: bool,
    /// Host limits
    #[command(flatten)]
    pub(crate) limits: LimitArgs,
}

/// `--trace-format`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TraceFormatArg {
    /// A Claude Code transcript
    Claude,
    /// A Codex session rollout
    Codex,
    /// rulesc event JSON Lines
    Rulesc,
}

/// Output formats of `check`, `test`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Reports for people
    Human,
    /// One JSON document
    Json,
}

/// `rulesc check`
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// `.rules` files or directories (searched recursively), or compiled JSON policies
    #[arg(required = true, value_name = "POLICY")]
    pub(crate) policies: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// Exit with 1 when any warning is found
    #[arg(long)]
    pub(crate) deny_warnings: bool,
    /// Keep running: check again whenever a policy file changes (its size or modification
    /// time, polled every 250 ms, or a `.rules` file added to or removed from a directory);
    /// stop with Ctrl-C
    #[arg(long)]
    pub(crate) watch: bool,
    /// The coding agent the policy will run under as a hook: also warn about rules it can
    /// never honour (events it never sends, decisions it cannot carry, fields it never fills)
    #[arg(long, value_parser = host_parser())]
    pub(crate) host: Option<Host>,
    /// With `--host`: what the hook will answer a call it cannot check; `allow` (fail open)
    /// is reported as a warning
    #[arg(long, value_enum, requires = "host")]
    pub(crate) on_error: Option<OnError>,
}

/// `rulesc explain`
#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// A diagnostic code such as `E003`, or its name (`field-not-visible`)
    #[arg(
        value_name = "CODE",
        required_unless_present = "list",
        value_parser = Offered(code_values),
        hide_possible_values = true
    )]
    pub(crate) code: Option<String>,
    /// List every code, one line each: its id, severity, name and what it flags
    #[arg(long, conflicts_with = "code")]
    pub(crate) list: bool,
}

/// `rulesc lsp`
#[derive(Debug, Args)]
pub(crate) struct LspArgs {
    /// Talk over stdin and stdout: the only transport, accepted because editor clients pass it
    #[arg(long)]
    pub(crate) stdio: bool,
}

/// `rulesc fmt`
#[derive(Debug, Args)]
pub(crate) struct FmtArgs {
    /// `.rules` files or directories (searched recursively)
    #[arg(required = true, value_name = "POLICY")]
    pub(crate) policies: Vec<PathBuf>,
    /// Change nothing; exit with 1 when a file is not formatted
    #[arg(long)]
    pub(crate) check: bool,
}

/// `rulesc compile`
#[derive(Debug, Args)]
pub(crate) struct CompileArgs {
    /// `.rules` files or directories, or compiled JSON policies
    #[arg(required = true, value_name = "POLICY")]
    pub(crate) policies: Vec<PathBuf>,
    /// Where to write the JSON (stdout by default)
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
}

/// Host limits shared by `eval` and `run`
#[derive(Debug, Clone, Args)]
pub(crate) struct LimitArgs {
    /// Forced continuations on `stop` in a row before `request` loses its power
    #[arg(long, value_name = "N")]
    pub(crate) max_stop_requests: Option<u64>,
    /// Retries per step; a `retry` beyond becomes `forbid retry_limit_reached`
    #[arg(long, value_name = "N")]
    pub(crate) max_retries: Option<u64>,
    /// Steps a run may take at most
    #[arg(long, value_name = "N")]
    pub(crate) max_steps: Option<u64>,
}

/// `rulesc eval`
#[derive(Debug, Args)]
pub(crate) struct EvalArgs {
    /// `.rules` files or directories, or compiled JSON policies
    #[arg(required = true, value_name = "POLICY")]
    pub(crate) policies: Vec<PathBuf>,
    /// The event JSON, or JSON Lines, in a file or `-` for stdin
    #[arg(long, value_name = "FILE|-")]
    pub(crate) event: PathBuf,
    /// Output format
    #[arg(long, value_enum, default_value_t = OutputFormat::Json)]
    pub(crate) format: OutputFormat,
    /// Make each unknown key in the event JSON an error (exit 2) instead of a warning
    #[arg(long)]
    pub(crate) strict: bool,
    /// Host limits
    #[command(flatten)]
    pub(crate) limits: LimitArgs,
}

/// `rulesc test`
#[derive(Debug, Args)]
pub(crate) struct TestArgs {
    /// `.rules` files or directories (searched recursively for `*.rules` and
    /// `*.scenario.json`), `*.scenario.json` files, or a compiled JSON policy
    #[arg(required = true, value_name = "POLICY")]
    pub(crate) policies: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// Make each unknown key in a scenario file an error (exit 2) instead of a warning
    #[arg(long)]
    pub(crate) strict: bool,
}

/// `rulesc run`
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// `.rules` files or directories, or compiled JSON policies
    #[arg(required = true, value_name = "POLICY")]
    pub(crate) policies: Vec<PathBuf>,
    /// The run script (JSON)
    #[arg(long, value_name = "FILE")]
    pub(crate) script: PathBuf,
    /// Output format
    #[arg(long, value_enum, default_value_t = OutputFormat::Json)]
    pub(crate) format: OutputFormat,
    /// Make each unknown key in the run script an error (exit 2) instead of a warning
    #[arg(long)]
    pub(crate) strict: bool,
    /// Host limits
    #[command(flatten)]
    pub(crate) limits: LimitArgs,
}

/// Output formats of `eval` and `run`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutputFormat {
    /// Machine-readable JSON
    Json,
    /// A stable, readable text (fit for snapshot tests)
    Human,
}

/// `rulesc hook`
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct HookArgs {
    /// What to do instead of answering a hook call
    #[command(subcommand)]
    pub(crate) action: Option<HookAction>,
    /// `.rules` files or directories, or compiled JSON policies
    #[arg(required = true, value_name = "POLICY")]
    pub(crate) policies: Vec<PathBuf>,
    /// Whose hook protocol to read and answer
    #[arg(long, required = true, value_parser = host_parser())]
    pub(crate) host: Option<Host>,
    /// Also run the project's policy: the first `.rulesc/` folder found walking up from the
    /// call's `cwd`, up to the folder holding `.git`, the home folder or `/`
    #[arg(long)]
    pub(crate) discover: bool,
    /// Where session state and compiled policies are kept (default: `$XDG_STATE_HOME/rulesc`,
    /// else `~/.local/state/rulesc`); it must be yours alone
    #[arg(long, value_name = "DIR")]
    pub(crate) state_dir: Option<PathBuf>,
    /// Where session state is kept: a folder (the same as `--state-dir`) or a Redis server,
    /// `redis://HOST:PORT/DB` (compiled policies then stay in `--state-dir`)
    #[arg(long, value_name = "DIR|URL")]
    pub(crate) state: Option<String>,
    /// What a call that cannot be checked (a broken policy, malformed input, unusable state)
    /// gets: `deny` refuses tool calls (the default); `allow` answers "no opinion", so the
    /// host runs them
    #[arg(long, value_enum, default_value_t = OnError::Deny)]
    pub(crate) on_error: OnError,
    /// The same as `--on-error allow`
    #[arg(long)]
    pub(crate) fail_open: bool,
    /// Evaluate and record every rule, enforce none: the answer is always "no opinion",
    /// and what the policy would have decided goes to stderr
    #[arg(long)]
    pub(crate) shadow: bool,
    /// After answering, remove session state not written for this long (`12h`, `7d`)
    #[arg(long, value_name = "DURATION", value_parser = age)]
    pub(crate) prune_older_than: Option<Duration>,
    /// Answer within this time (`5s`, `500ms`), or fail as a call that cannot be checked
    /// does, saying what was slow: keep it below the host's hook timeout
    #[arg(long, value_name = "DURATION", value_parser = timeout, default_value = "5s")]
    pub(crate) timeout: Duration,
    /// Host limits
    #[command(flatten)]
    pub(crate) limits: LimitArgs,
}

/// What `rulesc hook` does with a call it cannot check
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OnError {
    /// Deny tool calls (fail closed)
    Deny,
    /// Answer "no opinion" (fail open): the host runs the call
    Allow,
}

/// `rulesc hook`'s other actions
#[derive(Debug, Subcommand)]
pub(crate) enum HookAction {
    /// Forget what the hook keeps of a session (counters, metadata, a latched forbid)
    Reset(HookResetArgs),
}

/// `rulesc hook reset`
#[derive(Debug, Args)]
pub(crate) struct HookResetArgs {
    /// The host's session id (`session_id` of its hook calls)
    #[arg(long, value_name = "ID", required_unless_present = "lost")]
    pub(crate) session: Option<String>,
    /// Instead of a session: accept that the Redis server lost data, which denies hook
    /// calls until acknowledged, and go on with what it kept
    #[arg(long, conflicts_with = "session")]
    pub(crate) lost: bool,
    /// The state folder the hook uses (default: `$XDG_STATE_HOME/rulesc`, else
    /// `~/.local/state/rulesc`)
    #[arg(long, value_name = "DIR")]
    pub(crate) state_dir: Option<PathBuf>,
    /// The `--state` the hook uses: a folder or `redis://HOST:PORT/DB`
    #[arg(long, value_name = "DIR|URL")]
    pub(crate) state: Option<String>,
}

/// `rulesc init`
#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// The coding agent whose hook configuration to write
    #[arg(long, value_parser = host_parser(), default_value = "claude")]
    pub(crate) host: Host,
    /// The project folder to set up (the current folder by default)
    #[arg(value_name = "DIR", default_value = ".")]
    pub(crate) dir: PathBuf,
    /// Replace entries of an existing configuration that disagree with what `init` writes
    #[arg(long)]
    pub(crate) force: bool,
    /// Guard every folder: write the hooks into the user's own settings of the host, with
    /// the user's policy (`$XDG_CONFIG_HOME/rulesc`, else `~/.config/rulesc`) and each
    /// project's `.rulesc/` found from where the agent works
    #[arg(long, conflicts_with = "dir")]
    pub(crate) user: bool,
    /// Record the hooks as trusted where the host asks for it: Codex's `[hooks.state]` in
    /// the user's `config.toml`, Gemini CLI's `~/.gemini/trustedFolders.json` for the project
    #[arg(long)]
    pub(crate) trust: bool,
}

/// `rulesc doctor`
#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// The coding agent to check (by default every one whose settings run `rulesc hook`)
    #[arg(long, value_parser = host_parser())]
    pub(crate) host: Option<Host>,
    /// The project folder the agent starts in (the current folder by default)
    #[arg(value_name = "DIR", default_value = ".")]
    pub(crate) dir: PathBuf,
}

/// `rulesc completions`
#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete in
    #[arg(value_enum, value_name = "SHELL")]
    pub(crate) shell: clap_complete::Shell,
}

/// `rulesc schema`
#[derive(Debug, Args)]
pub(crate) struct SchemaArgs {
    /// The document, one of the names `--list` prints
    #[arg(
        value_name = "KIND",
        required_unless_present = "list",
        value_parser = Offered(schema_values),
        hide_possible_values = true
    )]
    pub(crate) kind: Option<String>,
    /// Print the name and a one-line description of every document
    #[arg(long, conflicts_with = "kind")]
    pub(crate) list: bool,
}

/// `--host`: the hosts by the names `Host::flag` gives them
fn host_parser() -> impl TypedValueParser<Value = Host> {
    let names = Host::ALL.map(|host| PossibleValue::new(host.flag()).help(host.title()));
    PossibleValuesParser::new(names).try_map(|name| Host::from_flag(&name).ok_or("unknown host"))
}

/// A value that completion scripts offer from a list, and that the command itself reads:
/// the command takes other spellings (a code's name, any case) and says in one line what is
/// wrong with a value off the list, where clap's own check would print the whole list
#[derive(Clone)]
struct Offered(fn() -> Vec<PossibleValue>);

impl TypedValueParser for Offered {
    type Value = String;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(command, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.0)().into_iter()))
    }
}

/// `rulesc explain`'s codes, from the compiler's table, each with its name and summary
fn code_values() -> Vec<PossibleValue> {
    rulesc_compiler::codes::ALL
        .iter()
        .map(|code| PossibleValue::new(code.id).help(format!("{}: {}", code.name, code.summary)))
        .collect()
}

/// `rulesc schema`'s kinds, from the table of documents, each with its summary
fn schema_values() -> Vec<PossibleValue> {
    crate::cli::schema::KINDS
        .iter()
        .map(|kind| PossibleValue::new(kind.name).help(kind.summary))
        .collect()
}

/// `--prune-older-than`: a duration such as `30min`, `12h` or `7d`
fn age(text: &str) -> Result<Duration, String> {
    parse_duration(text)
        .map(Duration::from_millis)
        .map_err(|err| format!("`{text}` is not a duration such as `30min`, `12h` or `7d`: {err}"))
}

/// `--timeout`: a duration such as `5s` or `500ms`, more than nothing
fn timeout(text: &str) -> Result<Duration, String> {
    match age(text)? {
        Duration::ZERO => Err(format!("`{text}` is no time: give the hook at least `1ms`")),
        budget => Ok(budget),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_take_the_language_units_and_days() {
        assert_eq!(age("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(age("5min"), Ok(Duration::from_secs(300)));
        assert_eq!(age("7d"), Ok(Duration::from_secs(7 * 86_400)));
        assert!(age("7").unwrap_err().contains("needs a unit"));
        assert!(age("d").is_err());
        assert!(age("99999999999999999d").is_err());
    }

    #[test]
    fn the_hook_answers_within_5s_unless_told_otherwise_and_never_within_nothing() {
        let hook = |extra: &[&str]| {
            let args = ["rulesc", "hook", "p.rules", "--host", "claude"];
            match Cli::try_parse_from(args.iter().chain(extra)) {
                Ok(Cli {
                    command: Command::Hook(args),
                }) => Ok(args.timeout),
                Ok(_) => Err(String::new()),
                Err(err) => Err(err.to_string()),
            }
        };
        assert_eq!(hook(&[]), Ok(Duration::from_secs(5)));
        assert_eq!(
            hook(&["--timeout", "500ms"]),
            Ok(Duration::from_millis(500))
        );
        assert!(hook(&["--timeout", "0s"])
            .unwrap_err()
            .contains("is no time"));
    }

    #[test]
    fn hosts_are_named_by_their_flags() {
        for host in Host::ALL {
            let cli = Cli::try_parse_from(["rulesc", "hook", "p.rules", "--host", host.flag()]);
            assert!(
                matches!(cli, Ok(Cli { command: Command::Hook(args) }) if args.host == Some(host)),
                "{}",
                host.flag()
            );
        }
        assert!(Cli::try_parse_from(["rulesc", "hook", "p.rules", "--host", "cursor"]).is_err());
    }
}
