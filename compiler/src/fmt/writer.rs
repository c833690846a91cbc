//! Writes laid-out lines and puts every comment of the source back next to the code it was
//! next to.
//!
//! Invariant: every comment is written exactly once, in source order. A comment that ended a
//! source line after some code stays at the end of the line holding that code; any other
//! comment goes on its own line, before the first line whose code ends after it. Blank lines
//! are kept (at most one) only where a line allows it; nothing else of the source's
//! whitespace survives.

use rulesc_grammar::{Comment, Span};

/// One output line: its text, and the source bytes its code came from
#[derive(Debug, Clone)]
pub(super) struct Line {
    /// Spaces before the text
    pub(super) indent: usize,
    /// Spaces before comments that go on their own lines before this one
    pub(super) comment_indent: usize,
    /// The code
    pub(super) text: String,
    /// From the start of the first token to the end of the last token the line holds
    pub(super) span: Span,
    /// Whether a blank line of the source before this line (or its comments) is kept
    pub(super) blank: Blank,
}

impl Line {
    /// A line whose comments take its own indent, with no blank line before it
    pub(super) fn new(indent: usize, text: String, span: Span) -> Line {
        Line {
            indent,
            comment_indent: indent,
            text,
            span,
            blank: Blank::Drop,
        }
    }

    /// The same line, keeping a blank line of the source before it
    pub(super) fn keep_blank(self) -> Line {
        Line {
            blank: Blank::Keep,
            ..self
        }
    }

    /// The same line, with its comments at `indent` (a closing brace's comments stay inside)
    pub(super) fn comments_at(self, indent: usize) -> Line {
        Line {
            comment_indent: indent,
            ..self
        }
    }
}

/// What becomes of blank lines of the source before a line
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Blank {
    /// One blank line is written where the source had one or more
    Keep,
    /// No blank line
    Drop,
}

/// The output being written, and the comments not written yet
pub(super) struct Writer<'src> {
    /// The source text
    src: &'src str,
    /// The comments, sorted by position
    comments: &'src [Comment],
    /// How many comments were written
    n_written: usize,
    /// Where, in the source, the last thing written ended
    last_end: usize,
    /// The text so far
    out: String,
}

impl<'src> Writer<'src> {
    /// A writer over `src`, whose comments are `comments` (in source order)
    pub(super) fn new(src: &'src str, comments: &'src [Comment]) -> Writer<'src> {
        Writer {
            src,
            comments,
            n_written: 0,
            last_end: 0,
            out: String::new(),
        }
    }

    /// Writes the lines of one item; `next_start` is where the next item begins in the source
    pub(super) fn item(&mut self, lines: &[Line], next_start: u32) {
        let mut lines = lines.iter().peekable();
        while let Some(line) = lines.next() {
            let until = lines.peek().map_or(next_start, |next| next.span.start);
            self.line(line, until);
        }
    }

    /// Writes the comments left after the last item, and returns the text
    pub(super) fn finish(mut self) -> String {
        while let Some(comment) = self.comments.get(self.n_written) {
            self.own_line_comment(comment, 0, Blank::Keep);
        }
        self.out
    }

    /// Writes `line` with the comments before it and the one at its end; the code of the
    /// line after it starts at `until` in the source
    fn line(&mut self, line: &Line, until: u32) {
        while let Some(comment) = self.comments.get(self.n_written) {
            if comment.span.start >= line.span.end {
                break;
            }
            self.own_line_comment(comment, line.comment_indent, line.blank);
        }
        self.blank_line_before(line.span.start, line.blank);
        push_indent(&mut self.out, line.indent);
        self.out.push_str(&line.text);
        self.last_end = self.last_end.max(line.span.end as usize);
        if let Some(comment) = self.comments.get(self.n_written) {
            let gap = self
                .src
                .get(line.span.end as usize..comment.span.start as usize);
            let same_line = gap.is_some_and(|gap| !gap.contains('\n'));
            if comment.span.start < until && same_line {
                self.out.push_str("  ");
                self.out.push_str(self.comment_text(comment));
                self.consume(comment);
            }
        }
        self.out.push('\n');
    }

    /// Writes `comment` on a line of its own
    fn own_line_comment(&mut self, comment: &Comment, indent: usize, blank: Blank) {
        self.blank_line_before(comment.span.start, blank);
        push_indent(&mut self.out, indent);
        self.out.push_str(self.comment_text(comment));
        self.out.push('\n');
        self.consume(comment);
    }

    /// Marks `comment` as written
    fn consume(&mut self, comment: &Comment) {
        self.n_written += 1;
        self.last_end = self.last_end.max(comment.span.end as usize);
    }

    /// Writes a blank line when `blank` keeps one and the source has an empty line between
    /// the last thing written and `start`
    fn blank_line_before(&mut self, start: u32, blank: Blank) {
        if blank == Blank::Drop || self.out.is_empty() {
            return;
        }
        let gap = self.src.get(self.last_end..start as usize).unwrap_or("");
        if gap.matches('\n').count() >= 2 {
            self.out.push('\n');
        }
    }

    /// The comment as written, without trailing blanks
    fn comment_text(&self, comment: &Comment) -> &'src str {
        self.src
            .get(comment.span.range())
            .unwrap_or_default()
            .trim_end()
    }
}

/// Appends `indent` spaces
fn push_indent(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}
