//! The command line, as clap reads it (CLI.md).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Check, test, compile and run `.rules` policies for AI-agent flow control
#[derive(Debug, Parser)]
#[command(name = "rulesc", version, about, long_about = None)]
pub struct Cli {
    /// What to do
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands
#[derive(Debug, Subcommand)]
pub enum Command {
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
}

/// Output formats of `check`, `test`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Reports for people
    Human,
    /// One JSON document
    Json,
}

/// `rulesc check`
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// `.rules` files or directories (searched recursively), or compiled JSON policies
    #[arg(required = true, value_name = "POLICY")]
    pub policies: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Exit with 1 when any warning is found
    #[arg(long)]
    pub deny_warnings: bool,
    /// Keep running: check again whenever a policy file changes (its size or modification
    /// time, polled every 250 ms, or a `.rules` file added to or removed from a directory);
    /// stop with Ctrl-C
    #[arg(long)]
    pub watch: bool,
}

/// `rulesc explain`
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A diagnostic code such as `E003`
    #[arg(value_name = "CODE", required_unless_present = "list")]
    pub code: Option<String>,
    /// Explain every code
    #[arg(long, conflicts_with = "code")]
    pub list: bool,
}

/// `rulesc fmt`
#[derive(Debug, Args)]
pub struct FmtArgs {
    /// `.rules` files or directories (searched recursively)
    #[arg(required = true, value_name = "POLICY")]
    pub policies: Vec<PathBuf>,
    /// Change nothing; exit with 1 when a file is not formatted
    #[arg(long)]
    pub check: bool,
}

/// `rulesc compile`
#[derive(Debug, Args)]
pub struct CompileArgs {
    /// `.rules` files or directories, or compiled JSON policies
    #[arg(required = true, value_name = "POLICY")]
    pub policies: Vec<PathBuf>,
    /// Where to write the JSON (stdout by default)
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Host limits shared by `eval` and `run`
#[derive(Debug, Clone, Args)]
pub struct LimitArgs {
    /// Forced continuations on `stop` in a row before `request` loses its power
    #[arg(long, value_name = "N")]
    pub max_stop_requests: Option<u64>,
    /// Retries per step; a `retry` beyond becomes `forbid retry_limit_reached`
    #[arg(long, value_name = "N")]
    pub max_retries: Option<u64>,
    /// Steps a run may take at most
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
}

/// `rulesc eval`
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// `.rules` files or directories, or compiled JSON policies
    #[arg(required = true, value_name = "POLICY")]
    pub policies: Vec<PathBuf>,
    /// The event JSON, or JSON Lines, in a file or `-` for stdin
    #[arg(long, value_name = "FILE|-")]
    pub event: PathBuf,
    /// Output format
    #[arg(long, value_enum, default_value_t = OutputFormat::Json)]
    pub format: OutputFormat,
    /// Host limits
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// `rulesc test`
#[derive(Debug, Args)]
pub struct TestArgs {
    /// `.rules` files or directories (searched recursively for `*.rules` and
    /// `*.scenario.json`), `*.scenario.json` files, or a compiled JSON policy
    #[arg(required = true, value_name = "POLICY")]
    pub policies: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// `rulesc run`
#[derive(Debug, Args)]
pub struct RunArgs {
    /// `.rules` files or directories, or compiled JSON policies
    #[arg(required = true, value_name = "POLICY")]
    pub policies: Vec<PathBuf>,
    /// The run script (JSON)
    #[arg(long, value_name = "FILE")]
    pub script: PathBuf,
    /// Output format
    #[arg(long, value_enum, default_value_t = OutputFormat::Json)]
    pub format: OutputFormat,
    /// Host limits
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Output formats of `eval` and `run`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Machine-readable JSON
    Json,
    /// A stable, readable text (fit for snapshot tests)
    Human,
}

/// `rulesc hook`
#[derive(Debug, Args)]
pub struct HookArgs {
    /// `.rules` files or directories, or compiled JSON policies
    #[arg(required = true, value_name = "POLICY")]
    pub policies: Vec<PathBuf>,
    /// Whose hook protocol to read and answer
    #[arg(long, value_enum)]
    pub host: Host,
    /// Where session state and compiled policies are kept (default: `rulesc` in the
    /// system's temporary folder)
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    /// When the policy cannot be checked, answer "no opinion" instead of denying tool calls
    #[arg(long)]
    pub fail_open: bool,
    /// After answering, remove session state not written for this long (`12h`, `7d`)
    #[arg(long, value_name = "DURATION", value_parser = crate::hook::parse_age)]
    pub prune_older_than: Option<std::time::Duration>,
    /// Host limits
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Coding agents whose hook protocol `rulesc hook` speaks
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Host {
    /// Claude Code
    Claude,
    /// Gemini CLI
    Gemini,
    /// Codex (Claude Code's protocol)
    Codex,
}
