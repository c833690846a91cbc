//! Problems found while parsing, as data: user words, never grammar rule names.
//!
//! Invariant: `expected` and `found` read as plain English for users (`` `when` ``, "a
//! condition", "end of file"); rendering them into messages is the compiler's job.

use crate::span::Span;

/// A problem that kept part of a file from being parsed
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Text that does not follow the grammar
    Syntax(SyntaxError),
    /// Brackets, braces, parentheses and `not`s nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH)
    TooDeep {
        /// The first bracket or `not` past the limit
        span: Span,
        /// The limit that was exceeded
        limit: usize,
    },
    /// A file larger than [`MAX_FILE_SIZE`](crate::MAX_FILE_SIZE) bytes
    TooLarge {
        /// The file's size in bytes
        size: usize,
        /// The limit that was exceeded
        limit: usize,
    },
}

impl ParseError {
    /// Where the problem is; an empty span at the start of the file for [`ParseError::TooLarge`]
    pub fn span(&self) -> Span {
        match self {
            ParseError::Syntax(syntax) => syntax.span,
            ParseError::TooDeep { span, .. } => *span,
            ParseError::TooLarge { .. } => Span::default(),
        }
    }
}

/// Text that does not follow the grammar: what the parser expected and what it found instead
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// The offending token (an empty span at the end of the file when the file ended early)
    pub span: Span,
    /// What would have been accepted, as user words, sorted and without duplicates:
    /// `` `when` ``, "an event name", "a condition", "a string", `` `)` ``; may be empty
    pub expected: Vec<String>,
    /// What was found instead: the token in backticks (`` `foo` ``, `` `@` ``) or
    /// "end of file" / "end of line"
    pub found: String,
}
