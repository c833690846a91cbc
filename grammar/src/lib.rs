//! The `.rules` grammar and its syntax tree.
//!
//! Invariant: this crate knows syntax only: no error codes, no runtime types, no rendering.

mod ast;
mod error;
mod limits;
mod parse;
mod span;

pub use ast::*;
pub use error::{ParseError, SyntaxError};
pub use limits::{MAX_DEPTH, MAX_FILE_SIZE};
pub use parse::{parse, Comment, Parsed};
pub use span::Span;
