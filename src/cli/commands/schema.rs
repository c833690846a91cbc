//! `rulesc schema KIND` and `rulesc schema --list`: the JSON Schema of a document the CLI
//! reads or writes (the kinds are in `src/cli/schema.rs`), pretty-printed with sorted keys,
//! or one line per kind with what it is.

use std::io::Write;

use crate::cli::args::SchemaArgs;
use crate::cli::schema::{lookup, KINDS};
use crate::cli::ExitStatus;

/// Runs `rulesc schema`
pub(crate) fn run(args: &SchemaArgs) -> ExitStatus {
    let text = match &args.kind {
        Some(name) if !args.list => match lookup(name) {
            Some(kind) => schema_text(kind),
            None => {
                let names: Vec<&str> = KINDS.iter().map(|kind| kind.name).collect();
                crate::cli::print_error(&format!(
                    "unknown document `{name}`; the kinds are {}",
                    names.join(", ")
                ));
                return ExitStatus::Error;
            }
        },
        _ => KINDS
            .iter()
            .map(|kind| format!("{:<9} {}\n", kind.name, kind.summary))
            .collect(),
    };
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitStatus::Success,
        Err(_) => ExitStatus::Error,
    }
}

/// The kind's schema as printed: pretty JSON with sorted keys and a final newline
fn schema_text(kind: &crate::cli::schema::Kind) -> String {
    let schema = (kind.schema)().to_value();
    format!("{:#}\n", rulesc::SortedJson(&schema))
}
