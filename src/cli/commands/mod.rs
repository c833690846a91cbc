//! One module per subcommand.

pub(crate) mod check;
pub(crate) mod compile;
pub(crate) mod completions;
pub(crate) mod doctor;
pub(crate) mod eval;
pub(crate) mod explain;
pub(crate) mod fmt;
pub(crate) mod hook;
mod hook_deadline;
mod hook_discover;
pub(crate) mod init;
pub(crate) mod lsp;
pub(crate) mod replay;
pub(crate) mod run;
pub(crate) mod schema;
pub(crate) mod test;
