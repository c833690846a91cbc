//! Limits on the input, checked before the grammar runs so that no input can exhaust the
//! parser's stack, or later the compiler's, which walks the tree recursively.
//!
//! Invariant: a file that passes [`check`] yields a tree no deeper than [`MAX_DEPTH`] nested
//! brackets and `not`s, whatever the grammar makes of it.

use crate::error::ParseError;
use crate::span::Span;

/// The largest file accepted, in bytes (8 MiB)
pub const MAX_FILE_SIZE: usize = 8 * 1024 * 1024;

/// The deepest nesting accepted: open `(`, `[`, `{` plus runs of `not` around a position
pub const MAX_DEPTH: usize = 256;

/// The first limit that `src` exceeds, if any.
///
/// The depth scan knows just enough lexical syntax to agree with the grammar on what is code:
/// strings (one line, with `\` escapes) and comments are skipped whole. A run of `not`s counts
/// one level per `not`, and the run stays open inside a bracket that follows it, because the
/// parser nests `not (not (...))` the same way.
pub(crate) fn check(src: &str) -> Option<ParseError> {
    if src.len() > MAX_FILE_SIZE {
        return Some(ParseError::TooLarge {
            size: src.len(),
            limit: MAX_FILE_SIZE,
        });
    }
    deep_span(src.as_bytes()).map(|span| ParseError::TooDeep {
        span,
        limit: MAX_DEPTH,
    })
}

/// The span of the first bracket or `not` that nests deeper than [`MAX_DEPTH`]
fn deep_span(bytes: &[u8]) -> Option<Span> {
    // For each open bracket, the length of the `not` run just before it.
    let mut open: Vec<usize> = Vec::new();
    // The sum of `open`, kept to avoid summing it at every token.
    let mut open_nots = 0usize;
    // The length of the `not` run ending at the current position.
    let mut nots = 0usize;
    let mut idx = 0usize;
    while let Some(&byte) = bytes.get(idx) {
        let start = idx;
        match byte {
            b'"' => {
                idx = string_end(bytes, idx + 1);
                nots = 0;
            }
            b'#' => idx = line_end(bytes, idx),
            b' ' | b'\t' | b'\r' | b'\n' => idx += 1,
            b'(' | b'[' | b'{' => {
                open.push(nots);
                open_nots += nots;
                nots = 0;
                idx += 1;
                if open.len() + open_nots > MAX_DEPTH {
                    return Some(span(start, idx));
                }
            }
            b')' | b']' | b'}' => {
                if let Some(closed) = open.pop() {
                    open_nots -= closed;
                }
                nots = 0;
                idx += 1;
            }
            _ if is_word_byte(byte) => {
                idx = word_end(bytes, idx);
                if bytes.get(start..idx) == Some(b"not".as_slice()) {
                    nots += 1;
                    if open.len() + open_nots + nots > MAX_DEPTH {
                        return Some(span(start, idx));
                    }
                } else {
                    nots = 0;
                }
            }
            _ => {
                nots = 0;
                idx += 1;
            }
        }
    }
    None
}

/// Whether `byte` continues a word, as the grammar's `word_char`
fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The end of the word starting at `idx`
fn word_end(bytes: &[u8], mut idx: usize) -> usize {
    while bytes.get(idx).is_some_and(|&byte| is_word_byte(byte)) {
        idx += 1;
    }
    idx
}

/// The position of the line break (or the end) at or after `idx`
fn line_end(bytes: &[u8], mut idx: usize) -> usize {
    while bytes
        .get(idx)
        .is_some_and(|&byte| byte != b'\n' && byte != b'\r')
    {
        idx += 1;
    }
    idx
}

/// The position after the string whose text starts at `idx`: after its closing quote, or at
/// the line break or end of file that cut it short
fn string_end(bytes: &[u8], mut idx: usize) -> usize {
    while let Some(&byte) = bytes.get(idx) {
        match byte {
            b'"' => return idx + 1,
            b'\n' | b'\r' => return idx,
            b'\\'
                if bytes
                    .get(idx + 1)
                    .is_some_and(|&next| next != b'\n' && next != b'\r') =>
            {
                idx += 2;
            }
            _ => idx += 1,
        }
    }
    idx
}

/// A span from byte offsets that [`check`] has bounded by [`MAX_FILE_SIZE`]
fn span(start: usize, end: usize) -> Span {
    Span::new(offset(start), offset(end))
}

/// A byte offset as a span bound; offsets are bounded by [`MAX_FILE_SIZE`], far below `u32::MAX`
pub(crate) fn offset(position: usize) -> u32 {
    u32::try_from(position).unwrap_or(u32::MAX)
}
