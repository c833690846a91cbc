//! The compiler's integration tests, one test binary with a module per subject. `scale`
//! stays a binary of its own: it compares times, which other tests running beside it in one
//! process would skew.

mod policy_gen;

mod builtins;
mod fmt_props;
mod robust;
