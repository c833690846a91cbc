//! The `.rules` grammar and its syntax tree.
//!
//! [`parse`] turns source text into a [`File`] with spans, plus every [`ParseError`] and
//! every [`Comment`]; [`print()`] turns a [`File`] back into canonical source text, and the
//! [`print`](mod@print) module's per-node functions ([`print::expr`], [`print::action`], ...)
//! give the text of one node on one line, as [`print()`] writes it.
//!
//! ```
//! use rulesc_grammar::{parse, print, Item, ParseError};
//!
//! let parsed = parse("on before_step when steps >= 20 forbid steps_limit_reached\n");
//! assert!(parsed.errors.is_empty());
//! let Some(Item::Rule(rule)) = parsed.file.items.first() else { unreachable!() };
//! assert_eq!(rule.events[0].name, "before_step");
//! assert_eq!(print(&parsed.file), "on before_step when steps >= 20 forbid steps_limit_reached\n");
//!
//! // Errors are data in user words; parsing goes on after them.
//! let parsed = parse("on stop when forbid\non stop request\n");
//! let ParseError::Syntax(error) = &parsed.errors[0] else { unreachable!() };
//! assert_eq!(error.found, "`on`");
//! assert_eq!(parsed.file.items.len(), 1);
//! ```
//!
//! # Errors
//!
//! `Parsed::errors` holds [`ParseError`]s in source order:
//!
//! - [`ParseError::Syntax`]: a [`SyntaxError`] `{ span, expected, found }`. `span` is the
//!   offending token (an empty span at the end of the file if it ended early); `expected` lists
//!   what would have been accepted as user words (`` `when` ``, "an event name", "a condition",
//!   "a string", `` `)` ``), sorted, without duplicates, possibly empty; `found` is the token in
//!   backticks (`` `foo` ``, long ones cut with `...`), or "end of file" / "end of line". A string
//!   with a bad escape or no closing quote is reported as such, whatever was expected there.
//!   Each item is parsed on its own, inside its extent: its annotations, its first token and
//!   everything up to the next token that starts an item (`@`, `on`, `test`, `default`,
//!   `policy`) outside strings, comments and braces. A broken item gives one error and is
//!   skipped whole (so a rule with a broken annotation is dropped, not kept without it);
//!   parsing goes on with the next item, so every broken item is reported and every good one
//!   kept. Braces never closed end at a line that starts with an item.
//! - [`ParseError::TooDeep`]: `(`, `[`, `{` and runs of `not` nested deeper than [`MAX_DEPTH`];
//!   the span is the first bracket or `not` past the limit.
//! - [`ParseError::TooLarge`]: a file larger than [`MAX_FILE_SIZE`] bytes.
//!
//! Limits are checked before the grammar runs; when one is exceeded the tree is empty and that
//! is the only error.
//!
//! # What is left to the compiler
//!
//! The tree is syntax only. Literals keep their source text (`200k`, `-5`, `"a\n"`): decoding
//! escapes, numbers and units is the compiler's job. Verbs, event names and stop reasons are
//! any non-keyword identifier, so the compiler reports unknown ones with its own messages. A
//! `policy` header is accepted anywhere, any number of times; the compiler enforces "at most
//! one, first item".
//!
//! Invariant: this crate knows syntax only: no error codes, no runtime types, no rendering.

#![deny(clippy::print_stdout, clippy::print_stderr)]

mod ast;
mod error;
mod limits;
mod parse;
pub mod print;
mod span;

pub use ast::*;
pub use error::{ParseError, SyntaxError};
pub use limits::{MAX_DEPTH, MAX_FILE_SIZE};
pub use parse::{parse, Comment, Parsed};
pub use print::print;
pub use span::Span;
