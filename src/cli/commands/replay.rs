//! `rulesc replay POLICY... TRACE...` and `rulesc replay --diff OLD NEW TRACE...`: runs
//! policies over recorded sessions (docs/replay.md) and prints what they would have
//! decided; warnings about lines that cannot be replayed go to stderr, and a progress bar
//! too when stderr is a terminal.

use std::fs::File;
use std::io::{BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rulesc::replay::{report_human, report_json, Diff};
use rulesc_host::replay::{Replay, Replayed, TraceFormat};
use rulesc_runtime::Policy;

use crate::cli::args::{OutputFormat, ReplayArgs, TraceFormatArg};
use crate::cli::policy as load;
use crate::cli::ExitStatus;

/// Runs `rulesc replay`
pub(crate) fn run(args: &ReplayArgs) -> ExitStatus {
    let limits = super::eval::limits(&args.limits);
    let (policy_paths, traces): (Vec<Vec<PathBuf>>, Vec<PathBuf>) = match &args.diff {
        Some(versions) => (
            versions.iter().map(|path| vec![path.clone()]).collect(),
            args.paths.clone(),
        ),
        None => {
            let (traces, policies): (Vec<PathBuf>, Vec<PathBuf>) =
                args.paths.iter().cloned().partition(|path| is_trace(path));
            (vec![policies], traces)
        }
    };
    if policy_paths.iter().any(Vec::is_empty) {
        crate::cli::print_error("give at least one POLICY before the traces");
        return ExitStatus::Error;
    }
    if traces.is_empty() {
        crate::cli::print_error("give at least one TRACE (a `.jsonl` file or a folder of them)");
        return ExitStatus::Error;
    }
    let mut policies: Vec<Policy> = Vec::new();
    for paths in &policy_paths {
        match load::load_policy(paths) {
            Ok(policy) => policies.push(policy.with_limits(limits)),
            Err(status) => return status,
        }
    }
    let files = match trace_files(&traces) {
        Ok(files) => files,
        Err(reason) => {
            crate::cli::print_error(&reason);
            return ExitStatus::Error;
        }
    };
    let replayed = match replay(&policies, &files, args) {
        Ok(replayed) => replayed,
        Err(reason) => {
            crate::cli::print_error(&reason);
            return ExitStatus::Error;
        }
    };
    for warning in &replayed.warnings {
        crate::cli::print_warning(&warning.to_string());
    }
    let empty = Vec::new();
    let first = replayed.runs.first().unwrap_or(&empty);
    let text = match (&args.diff, args.format) {
        (None, OutputFormat::Json) => report_json(first, &replayed.warnings) + "\n",
        (None, OutputFormat::Human) => report_human(first),
        (Some(_), format) => {
            let second = replayed.runs.get(1).unwrap_or(&empty);
            let diff = Diff::new(first, second);
            match format {
                OutputFormat::Json => diff.to_json(&replayed.warnings) + "\n",
                OutputFormat::Human => diff.render(),
            }
        }
    };
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitStatus::Success,
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(err) => {
            crate::cli::print_error(&format!("cannot write the report: {err}"));
            ExitStatus::Error
        }
    }
}

/// Replays every file, with a progress bar on a terminal
fn replay(policies: &[Policy], files: &[PathBuf], args: &ReplayArgs) -> Result<Replayed, String> {
    let format = args.trace_format.map(|format| match format {
        TraceFormatArg::Claude => TraceFormat::Claude,
        TraceFormatArg::Codex => TraceFormat::Codex,
        TraceFormatArg::Rulesc => TraceFormat::Rulesc,
    });
    let total: u64 = files
        .iter()
        .filter_map(|file| std::fs::metadata(file).ok())
        .map(|meta| meta.len())
        .sum();
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg}") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut replay = Replay::new(policies, args.strict);
    let mut done = 0;
    for file in files {
        let name = file.display().to_string();
        let opened = File::open(file).map_err(|err| format!("cannot read `{name}`: {err}"))?;
        bar.set_message(name.clone());
        let mut progress = |bytes: u64| bar.set_position(done + bytes);
        replay
            .read(&name, BufReader::new(opened), format, &mut progress)
            .map_err(|err| err.to_string())?;
        done += std::fs::metadata(file).map_or(0, |meta| meta.len());
    }
    bar.finish_and_clear();
    Ok(replay.finish())
}

/// Whether a POLICY... TRACE... argument is a trace: a `.jsonl` file, or a folder that
/// holds such files and no `.rules` file
fn is_trace(path: &Path) -> bool {
    if path.is_dir() {
        let mut found = Vec::new();
        collect(path, &mut found, 0);
        let rules = found.iter().any(|file| has_extension(file, "rules"));
        return !rules && found.iter().any(|file| has_extension(file, "jsonl"));
    }
    has_extension(path, "jsonl")
}

fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension().is_some_and(|ext| ext == extension)
}

/// The trace files the arguments name, folders walked in sorted order
fn trace_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            collect(path, &mut found, 0);
            found.retain(|file| has_extension(file, "jsonl"));
            found.sort();
            files.extend(found);
        } else if path.exists() {
            files.push(path.clone());
        } else {
            return Err(format!("cannot read `{}`: no such file", path.display()));
        }
    }
    Ok(files)
}

/// Every file under `dir`, at most 16 folders deep
fn collect(dir: &Path, found: &mut Vec<PathBuf>, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if depth < 16 {
                collect(&path, found, depth + 1);
            }
        } else {
            found.push(path);
        }
    }
}
