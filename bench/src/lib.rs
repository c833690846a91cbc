//! Workloads for the benchmarks of rulesc against other embeddable policy engines.
//!
//! The benchmarks (`bench/benches/`) and the tests that keep them honest
//! (`bench/tests/agree.rs`) share everything here: one policy shape written in each engine's
//! language ([`tool_rules`]), the engines behind one trait ([`engines`]), threshold
//! policies ([`counter_rules`]), the shipped policies with a step's worth of events
//! ([`shipped`]) and a model and tools that do nothing, to time the agent loop alone
//! ([`noop`]). `bench/report.py` turns criterion's results into `BENCHMARKS.md`.
//!
//! Invariant: every engine answers the same question on the same shape, and a test checks
//! that their answers agree before any number is compared.
//!
//! This member is outside the workspace's `default-members`, so `cargo test` and CI never
//! build cedar-policy, regorus or criterion.

pub mod counter_rules;
pub mod engines;
pub mod noop;
pub mod shell_lines;
pub mod shipped;
pub mod tool_rules;
pub mod trace_rules;

/// What goes wrong while a workload is set up: a peer refused its policy or request
pub type SetupError = Box<dyn std::error::Error + Send + Sync>;

/// The rule counts every shape is measured at
pub const RULE_COUNTS: [usize; 4] = [10, 100, 1_000, 10_000];
