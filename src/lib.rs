//! rulesc: a declarative policy language for AI-agent flow control.
//!
//! This crate is the command line and a thin facade over the compiler and the runtime.

pub mod cli;
mod hook;

pub use rulesc_runtime::*;
