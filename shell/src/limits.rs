//! The bounds that keep reading a command line cheap, checked before the parser runs
//! where they can be, and the reasons a command line cannot be read.

use std::fmt;
use std::time::Duration;

/// The longest command line read, in bytes: a long here-document still fits, and a
/// larger line is refused before parsing so the cost of a reading stays bounded
pub const MAX_BYTES: usize = 128 * 1024;

/// The deepest nesting of brackets read (`( ( ( ...`), counted before parsing
pub const MAX_NESTING: usize = 128;

/// How many scripts deep `sh -c`, `eval` and scripts fed to a shell are read
pub const MAX_SCRIPT_DEPTH: usize = 8;

/// The most simple commands one command line may hold
pub const MAX_COMMANDS: usize = 4096;

/// The most links "this command reads that one's output" one command line may hold: a
/// pipeline of n commands holds about n²/2 of them
pub const MAX_LINKS: usize = 65_536;

/// The longest a reading may parse, nested scripts included: the bound on its cost that
/// holds on any machine, where the byte and nesting bounds only make it unlikely to matter
pub const MAX_TIME: Duration = Duration::from_millis(50);

/// Why a command line could not be read
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreadable {
    /// Longer than [`MAX_BYTES`]
    TooLong,
    /// Holds a NUL byte, which no shell passes on intact
    Nul,
    /// Nested deeper than [`MAX_NESTING`] brackets or [`MAX_SCRIPT_DEPTH`] scripts
    TooDeep,
    /// More than [`MAX_COMMANDS`] simple commands, or more than [`MAX_LINKS`] links between them
    TooManyCommands,
    /// Not valid shell syntax (a stray keyword, an unclosed bracket)
    Syntax,
    /// Not valid shell syntax from a point on: 1-based line and column
    SyntaxAt {
        /// 1-based line
        line: usize,
        /// 1-based column, in characters
        column: usize,
    },
    /// A quote opened and never closed
    Unterminated {
        /// The quote: `'`, `"` or a backquote
        quote: char,
        /// 1-based line where it opens
        line: usize,
        /// 1-based column where it opens, in characters
        column: usize,
    },
    /// The tool call's `command` is missing or not text
    NotText,
    /// Parsing took longer than [`MAX_TIME`]
    TooSlow,
    /// A line continuation (`\` and a line break) inside a word or an operator, where the
    /// shell joins the two halves into one (`rm -r\<newline>f` is `rm -rf`) but the parser
    /// reads two
    SplitWord,
    /// A word the parser ends where the shell goes on: tree-sitter-bash ends a word at a `\`
    /// right after a quote, so `'r'\m` reads as `r` and `\m` where the shell runs `rm`
    JoinedWord,
    /// A word after a redirect's target that the reader cannot give back to its command: one
    /// holding a substitution, or after a redirect the parser hangs on the command itself
    WordAfterRedirect,
    /// A word the parser leaves out of its command: tree-sitter-bash drops a lone `-` before
    /// a descriptor's redirect, so `cat - 2>&1` would read as `cat` alone
    DroppedWord,
    /// A line the fast reader gives up, in a build without tree-sitter-bash (the crate's
    /// `tree-sitter` feature), which would read it
    NoFullParser,
    /// A file opened for reading and writing (`3<> f`), in a build without tree-sitter-bash:
    /// the fast reader does not read it; 1-based line and column of the `<>`
    ReadWriteRedirect {
        /// 1-based line
        line: usize,
        /// 1-based column, in characters
        column: usize,
    },
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Self::TooLong => "the command line is longer than 128 KiB",
            Self::Nul => "the command line holds a NUL byte",
            Self::TooDeep => "the command line is nested too deeply",
            Self::TooManyCommands => {
                "the command line holds more than 4096 commands, or pipes too many into each other"
            }
            Self::Syntax => "the command line is not valid shell syntax",
            Self::SyntaxAt { line, column } => {
                return write!(
                    f,
                    "the command line is not valid shell syntax at line {line}, column {column}"
                );
            }
            Self::Unterminated {
                quote,
                line,
                column,
            } => {
                return write!(
                    f,
                    "the quote `{quote}` at line {line}, column {column} is never closed"
                );
            }
            Self::NotText => "the tool call's `command` is missing or not text",
            Self::TooSlow => "the command line takes longer than 50 ms to read",
            Self::NoFullParser => {
                "the command line needs the full shell parser, which this build of rulesc leaves out"
            }
            Self::SplitWord => {
                "the command line splits a word with a line continuation (`\\` and a line break)"
            }
            Self::JoinedWord => {
                "the command line glues an escaped character to a quote inside a word (as in `'r'\\m`)"
            }
            Self::ReadWriteRedirect { line, column } => {
                return write!(
                    f,
                    "the command line opens a file for reading and writing (`<>`) at line {line}, column {column}, which needs the full shell parser, left out of this build of rulesc"
                );
            }
            Self::WordAfterRedirect => {
                "the command line puts a word after a redirect's target that cannot be given back to its command (one holding a substitution, as in `x > f $(y)`, or after a compound command), where the shell parser takes it for part of the redirect"
            }
            Self::DroppedWord => {
                "the command line holds a word the shell parser leaves out (a lone `-` before a redirect, as in `cat - 2>&1`)"
            }
        };
        f.write_str(text)
    }
}

/// Refuses what must not reach the parser: oversized lines, NUL bytes, deep nesting
pub(crate) fn check(line: &str) -> Result<(), Unreadable> {
    if line.len() > MAX_BYTES {
        return Err(Unreadable::TooLong);
    }
    if line.contains('\0') {
        return Err(Unreadable::Nul);
    }
    if nests_too_deep(line) {
        return Err(Unreadable::TooDeep);
    }
    if splits_a_word(line) {
        return Err(Unreadable::SplitWord);
    }
    Ok(())
}

/// Whether `line` nests brackets deeper than [`MAX_NESTING`]. Brackets are counted without
/// regard to quotes: a quoted bracket only makes the count larger, so a line that passes is
/// nested no deeper than the bound.
fn nests_too_deep(line: &str) -> bool {
    // Most lines open fewer brackets than the bound, which one count tells before any
    // depth is followed: a count without an early exit, which compiles to vector code.
    let opened = line
        .bytes()
        .filter(|byte| matches!(byte, b'(' | b'{'))
        .count();
    if opened <= MAX_NESTING {
        return false;
    }
    let mut depth = 0usize;
    for byte in line.bytes() {
        match byte {
            b'(' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return true;
                }
            }
            b')' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Whether a line continuation stands between two characters that are not blanks: the
/// shell removes it before it splits words, so the two halves are one word (or one
/// operator), which tree-sitter-bash reads as two. Quotes are not tracked: a continuation
/// inside single quotes or a comment is refused too, which only fails closed.
fn splits_a_word(line: &str) -> bool {
    // Most lines have no line break, which a byte search rules out at once.
    if !line.contains('\n') {
        return false;
    }
    let blank = |byte: u8| matches!(byte, b' ' | b'\t' | b'\n');
    let bytes = line.as_bytes();
    bytes.iter().enumerate().any(|(at, byte)| {
        if *byte != b'\n' {
            return false;
        }
        // The backslashes right before the line break; an even run escapes itself.
        let before = bytes.get(..at).unwrap_or_default();
        let backslashes = before.iter().rev().take_while(|b| **b == b'\\').count();
        let joined_before = before
            .len()
            .checked_sub(backslashes + 1)
            .and_then(|i| bytes.get(i));
        backslashes % 2 == 1
            && joined_before.is_some_and(|b| !blank(*b))
            && bytes.get(at + 1).is_some_and(|b| !blank(*b))
    })
}

/// Where a line that does not parse opens a file for reading and writing (`<>`), valid
/// shell that the fast reader does not read, so a build without tree-sitter-bash names it
/// in its refusal
#[cfg(not(feature = "tree-sitter"))]
pub(crate) fn read_write_redirect(line: &str) -> Option<Unreadable> {
    let at = line.find("<>")?;
    let before = line.get(..at)?;
    Some(Unreadable::ReadWriteRedirect {
        line: before.matches('\n').count() + 1,
        column: before.rsplit('\n').next().unwrap_or(before).chars().count() + 1,
    })
}

/// Where a line's syntax goes wrong when a quote is left open: the quote and where it opens.
/// Lines with a here-document are not judged: its body may hold any quote.
pub(crate) fn unterminated(line: &str) -> Option<Unreadable> {
    if line.contains("<<") {
        return None;
    }
    let mut open: Option<(char, usize)> = None;
    let mut chars = line.char_indices().peekable();
    let mut word_start = true;
    while let Some((at, ch)) = chars.next() {
        match (open, ch) {
            (Some(('\'', _)), '\'') => open = None,
            (Some(('\'', _)), _) => {}
            (Some((quote, _)), '\\') if quote != '\'' => {
                chars.next();
            }
            (Some((quote, _)), c) if c == quote => open = None,
            (Some(_), _) => {}
            (None, '\\') => {
                chars.next();
            }
            (None, '#') if word_start => {
                // A comment runs to the end of its line.
                for (_, next) in chars.by_ref() {
                    if next == '\n' {
                        break;
                    }
                }
            }
            (None, '\'' | '"' | '`') => open = Some((ch, at)),
            _ => {}
        }
        word_start = matches!(ch, ' ' | '\t' | '\n' | ';' | '&' | '|' | '(');
    }
    let (quote, at) = open?;
    let before = line.get(..at)?;
    let line_number = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or(before).chars().count() + 1;
    Some(Unreadable::Unterminated {
        quote,
        line: line_number,
        column,
    })
}
