//! Times `rulesc hook` calls beside `rulesc --version`, the process start of the same
//! binary, in one interleaved run, and prints the medians, the 95th percentiles and their
//! ratios (issue goal: a hook call within 1.5x of the process start).
//!
//! Usage: `rulesc-bench-hook RULESC RUNS STATE_DIR POLICY CASE...`, where each CASE is
//! `name=host:payload.json`, or `name=host:payload.json|STATE` to keep sessions in the
//! store `--state STATE` names (a `redis://` URL). Every case is called once first, untimed,
//! so the compiled policy is cached, as it is for every call after a session's first. Runs
//! alternate between the baseline and each case, so drift of the machine hits all alike.
//! The output is one JSON object per line (`bench/run.sh` collects them), then a table for
//! people on stderr.
//!
//! Invariants: a case whose call exits neither 0 nor 2 (a host's answer or denial) stops the
//! benchmark with its stderr, so a broken hook is never timed as a fast one; and each run
//! has a session of its own (the payload's `session_id` with the run's number appended), so
//! each timed call is evaluated and its session's state written, never answered early
//! because earlier runs stopped or throttled the session. Cases whose payloads name one
//! session are, within a run, that session's calls in the order given.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// One command to time
struct Case {
    name: String,
    args: Vec<String>,
    /// The stdin of each run, by run number (none for the baseline)
    stdins: Vec<PathBuf>,
}

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(reason) => {
            eprintln!("error: {reason}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let [rulesc, runs, state_dir, policy, cases @ ..] = args.as_slice() else {
        return Err(
            "usage: rulesc-bench-hook RULESC RUNS STATE_DIR POLICY name=host:payload.json[|STATE]..."
                .to_owned(),
        );
    };
    let runs: usize = runs
        .parse()
        .map_err(|_| format!("`{runs}` is not a number of runs"))?;
    let baseline = Case {
        name: "process start (`rulesc --version`)".to_owned(),
        args: vec!["--version".to_owned()],
        stdins: Vec::new(),
    };
    let mut timed = vec![baseline];
    for (number, case) in cases.iter().enumerate() {
        timed.push(hook_case(case, number, runs, state_dir, policy)?);
    }
    // The untimed first call of each case has a session of its own too (the one after the
    // last run's), so every timed call is its session's first.
    for case in &timed {
        call(rulesc, case, runs)?;
    }
    let mut samples: Vec<Vec<Duration>> = vec![Vec::with_capacity(runs); timed.len()];
    for run in 0..runs {
        for (case, times) in timed.iter().zip(samples.iter_mut()) {
            times.push(call(rulesc, case, run)?);
        }
    }
    let stats: Vec<(f64, f64)> = samples.iter_mut().map(|times| percentiles(times)).collect();
    let (base_median, base_p95) = stats.first().copied().unwrap_or((f64::NAN, f64::NAN));
    for (case, (median, p95)) in timed.iter().zip(&stats) {
        println!(
            "{{\"case\": {:?}, \"runs\": {runs}, \"median_ms\": {median:.3}, \"p95_ms\": {p95:.3}, \"median_ratio\": {:.2}, \"p95_ratio\": {:.2}}}",
            case.name,
            median / base_median,
            p95 / base_p95
        );
        eprintln!(
            "{:<48} median {median:6.3} ms ({:4.2}x)   p95 {p95:6.3} ms ({:4.2}x)",
            case.name,
            median / base_median,
            p95 / base_p95
        );
    }
    Ok(())
}

/// `name=host:payload.json[|STATE]` as a hook call over `policy`, with one payload per run
/// and one for the untimed first call, written under `state_dir`
fn hook_case(
    spec: &str,
    number: usize,
    runs: usize,
    state_dir: &str,
    policy: &str,
) -> Result<Case, String> {
    let (name, call) = spec
        .split_once('=')
        .ok_or_else(|| format!("`{spec}` is not `name=host:payload.json`"))?;
    let (call, store) = match call.split_once('|') {
        Some((call, store)) => (call, Some(store)),
        None => (call, None),
    };
    let (host, payload) = call
        .split_once(':')
        .ok_or_else(|| format!("`{call}` is not `host:payload.json`"))?;
    let mut args: Vec<String> = ["hook", policy, "--host", host, "--state-dir", state_dir]
        .map(str::to_owned)
        .to_vec();
    if let Some(store) = store {
        args.extend(["--state".to_owned(), store.to_owned()]);
    }
    let template = std::fs::read_to_string(payload)
        .map_err(|err| format!("cannot read `{payload}`: {err}"))?;
    let folder = Path::new(state_dir).join(format!("bench-payloads-{number}"));
    std::fs::create_dir_all(&folder)
        .map_err(|err| format!("cannot create `{}`: {err}", folder.display()))?;
    let stdins = (0..=runs)
        .map(|run| {
            let path = folder.join(format!("{run}.json"));
            let text = with_session_suffix(&template, &format!("-run{run}"))
                .ok_or_else(|| format!("`{payload}` has no `\"session_id\": \"...\"`"))?;
            std::fs::write(&path, text)
                .map_err(|err| format!("cannot write `{}`: {err}", path.display()))?;
            Ok(path)
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Case {
        name: name.to_owned(),
        args,
        stdins,
    })
}

/// `payload` with `suffix` appended to its `session_id` string; `None` when it has none
fn with_session_suffix(payload: &str, suffix: &str) -> Option<String> {
    let key = payload.find("\"session_id\"")?;
    let after_key = key + "\"session_id\"".len();
    let open = after_key + payload.get(after_key..)?.find('"')? + 1;
    let close = open + payload.get(open..)?.find('"')?;
    Some(format!(
        "{}{suffix}{}",
        payload.get(..close)?,
        payload.get(close..)?
    ))
}

/// The wall time of run `run` of `case`
fn call(rulesc: &str, case: &Case, run: usize) -> Result<Duration, String> {
    let stdin = match case.stdins.get(run) {
        Some(path) => Stdio::from(open(path)?),
        None => Stdio::null(),
    };
    let started = Instant::now();
    let output = Command::new(rulesc)
        .args(&case.args)
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|err| format!("cannot run `{rulesc}`: {err}"))?;
    let elapsed = started.elapsed();
    match output.status.code() {
        Some(0 | 2) => Ok(elapsed),
        other => Err(format!(
            "`{}` exited with {other:?}: {}",
            case.name,
            String::from_utf8_lossy(&output.stderr)
        )),
    }
}

fn open(path: &Path) -> Result<File, String> {
    File::open(path).map_err(|err| format!("cannot open `{}`: {err}", path.display()))
}

/// The median and the 95th percentile of `times`, in milliseconds
fn percentiles(times: &mut [Duration]) -> (f64, f64) {
    times.sort_unstable();
    let at = |fraction: f64| {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss,
            reason = "an index into a list of at most a few thousand samples"
        )]
        let index = ((times.len().saturating_sub(1)) as f64 * fraction).round() as usize;
        times
            .get(index)
            .map_or(f64::NAN, |time| time.as_secs_f64() * 1000.0)
    };
    (at(0.5), at(0.95))
}
