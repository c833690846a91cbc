//! The command's integration tests, one test binary with a module per subject: one link
//! instead of forty keeps `cargo test` fast and its target folder small. Helpers shared by
//! several subjects are declared here once.

mod common;
#[path = "fuzz/gen.rs"]
mod gen;
#[path = "fuzz/harness.rs"]
mod harness;
mod host_protocol;
mod model;
#[path = "../compiler/tests/policy_gen/mod.rs"]
mod policy_gen;
#[path = "common/recorder.rs"]
mod recorder;
#[path = "common/redis_server.rs"]
mod redis_server;

mod agentdojo;
mod check;
mod checkpoint;
mod compact_shell;
mod completions;
mod docs;
mod doctor;
mod eval;
mod eval_library;
mod event_fields;
mod fmt;
mod fmt_meaning;
mod fuzz_compile;
mod fuzz_eval;
mod fuzz_hook;
mod fuzz_json;
mod hook;
mod hook_arithmetic;
mod host_answers;
mod host_facts;
mod host_validators;
mod hostile;
mod init;
mod library;
mod lsp;
mod model_eval;
mod model_run;
mod module_circles;
mod progress;
mod redis_store;
mod refusal;
mod reload;
mod replay;
mod run_model;
mod scenarios;
mod schema;
mod shell_corpus;
mod shell_oracle;
mod shell_watched;
mod state_store;
mod state_trust;
mod test_command;
mod trace_schema;
mod ui;
mod unknown_keys;
