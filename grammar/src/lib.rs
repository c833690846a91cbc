//! The `.rules` grammar and its syntax tree.
//!
//! Invariant: this crate knows syntax only: no error codes, no runtime types, no rendering.

mod ast;
mod span;

pub use ast::*;
pub use span::Span;
