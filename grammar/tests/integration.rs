//! The grammar's integration tests, one test binary with a module per subject.

mod limits;
mod parse;
mod print;
mod properties;
