//! The shell reader's integration tests, one test binary with a module per subject.

mod expands;
mod fast;
mod fetched;
mod input;
mod links;
mod structure;
mod subcommands;
mod unreadable;
