//! The runtime's integration tests, one test binary with a module per subject: one link
//! instead of eighteen. `index_alloc` stays a binary of its own, as it counts the
//! allocations of its whole process, and so does `observability`, as a tracing call site's
//! interest is cached for the whole process.

mod common;
#[path = "../../tests/model/mod.rs"]
mod model;

mod agent_loop;
mod agent_loop_forbid;
mod architecture;
mod arithmetic;
mod bounds;
mod conditions;
mod handle;
mod index;
mod order_independence;
mod panics;
mod policy;
mod provenance;
mod render;
mod resolution;
mod schema;
mod shell;
