//! `rulesc compile POLICY... [-o FILE]`: writes the compiled policy set as versioned JSON,
//! indented for people to read and diff.
//!
//! The JSON is checked to load back before it is written, so `compile` never produces a
//! file that `eval`, `run` or `hook` would refuse (a condition nested beyond the JSON
//! reader's depth limit is reported here instead).

use std::io::Write;

use rulesc_runtime::Policy;

use crate::cli::args::CompileArgs;
use crate::cli::policy as load;
use crate::cli::ExitStatus;

/// Runs `rulesc compile`
pub(crate) fn run(args: &CompileArgs) -> ExitStatus {
    let policy = match load::load_policy(&args.policies) {
        Ok(policy) => policy,
        Err(status) => return status,
    };
    let mut json = policy.to_json_pretty();
    if let Err(err) = Policy::from_json(&json) {
        report_error(&format!("the compiled policy cannot be loaded back: {err}"));
        return ExitStatus::Failure;
    }
    json.push('\n');
    let written = match &args.output {
        Some(path) => std::fs::write(path, &json).map_err(|err| {
            let reason = match err.kind() {
                std::io::ErrorKind::NotFound => "its folder does not exist".to_owned(),
                std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
                other => other.to_string(),
            };
            format!("cannot write `{}`: {reason}", path.display())
        }),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(json.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|err| format!("cannot write the compiled policy: {err}"))
        }
    };
    match written {
        Ok(()) => ExitStatus::Success,
        Err(reason) => {
            report_error(&reason);
            ExitStatus::Error
        }
    }
}

fn report_error(reason: &str) {
    crate::cli::print_error(reason);
}
