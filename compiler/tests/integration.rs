//! The compiler's integration tests, one test binary with a module per subject.

mod policy_gen;

mod fmt_props;
mod robust;
mod scale;
