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
    /// The 0-based line this line must be written on: the `on` line of a rule whose id is
    /// its line
    pub(super) anchor: Option<u32>,
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
            anchor: None,
        }
    }

    /// The same line, which must be written on the 0-based line `line` of the output
    pub(super) fn anchored(self, line: u32) -> Line {
        Line {
            anchor: Some(line),
            ..self
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
    /// How many line breaks `out` holds up to `n_counted` bytes
    n_breaks: usize,
    /// How far `n_breaks` has counted
    n_counted: usize,
    /// Where, in `out`, the item being written starts
    item_start: usize,
    /// Where, in `out`, the last anchored line ends: blank lines after it may be dropped
    anchor_end: usize,
    /// The first anchored line that could not be written on its line, if any
    moved: Option<Moved>,
}

/// Where a [`Writer`] was, to go back to
#[derive(Debug, Clone)]
pub(super) struct Checkpoint {
    n_written: usize,
    last_end: usize,
    /// The text after the last anchored line: nothing before it changes any more, and what
    /// comes after may lose blank lines, so it is kept rather than a length
    tail: String,
    n_breaks: usize,
    item_start: usize,
    anchor_end: usize,
    moved: Option<Moved>,
}

/// An anchored line that the canonical layout puts below its place
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Moved {
    /// The line's code in the source
    pub(super) span: Span,
    /// Its 0-based line in the source
    pub(super) line: u32,
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
            n_breaks: 0,
            n_counted: 0,
            item_start: 0,
            anchor_end: 0,
            moved: None,
        }
    }

    /// Writes the lines of one item; `next_start` is where the next item begins in the source
    pub(super) fn item(&mut self, lines: &[Line], next_start: u32) {
        self.item_start = self.out.len();
        let mut lines = lines.iter().peekable();
        while let Some(line) = lines.next() {
            let until = lines.peek().map_or(next_start, |next| next.span.start);
            self.line(line, until);
        }
    }

    /// Where the writer is now; it costs a copy of the text since the last anchored line
    pub(super) fn checkpoint(&mut self) -> Checkpoint {
        Checkpoint {
            n_written: self.n_written,
            last_end: self.last_end,
            tail: self
                .out
                .get(self.anchor_end..)
                .unwrap_or_default()
                .to_owned(),
            n_breaks: self.out_line(),
            item_start: self.item_start,
            anchor_end: self.anchor_end,
            moved: self.moved,
        }
    }

    /// Goes back to `checkpoint`, forgetting everything written since.
    ///
    /// Invariant: the writer changes nothing before its last anchored line, so the text up to
    /// the checkpoint's is as it was.
    pub(super) fn restore(&mut self, checkpoint: &Checkpoint) {
        self.out.truncate(checkpoint.anchor_end);
        self.out.push_str(&checkpoint.tail);
        self.n_written = checkpoint.n_written;
        self.last_end = checkpoint.last_end;
        self.n_breaks = checkpoint.n_breaks;
        self.n_counted = self.out.len();
        self.item_start = checkpoint.item_start;
        self.anchor_end = checkpoint.anchor_end;
        self.moved = checkpoint.moved;
    }

    /// Whether an anchored line could not be kept on its line
    pub(super) fn has_moved(&self) -> bool {
        self.moved.is_some()
    }

    /// Writes the comments left after the last item, and returns the text, or the first
    /// anchored line that could not be kept on its line
    pub(super) fn finish(mut self) -> Result<String, Moved> {
        while let Some(comment) = self.comments.get(self.n_written) {
            self.own_line_comment(comment, 0, Blank::Keep);
        }
        match self.moved {
            Some(moved) => Err(moved),
            None => Ok(self.out),
        }
    }

    /// The 0-based line of `out` the next text goes on
    fn out_line(&mut self) -> usize {
        let uncounted = self.out.get(self.n_counted..).unwrap_or_default();
        self.n_breaks += uncounted.matches('\n').count();
        self.n_counted = self.out.len();
        self.n_breaks
    }

    /// Brings the line about to be written to the 0-based line `anchor`: blank lines are
    /// added above it, or, when the layout took more lines than the source, blank lines
    /// written since the last anchored line are dropped
    fn move_to(&mut self, anchor: u32, span: Span) {
        let target = anchor as usize;
        let current = self.out_line();
        if current < target {
            let padding = "\n".repeat(target - current);
            // The padding widens the item's last blank line, if it has one, so the comments
            // above the rule stay with it; else it goes before the item, unless that is the
            // top of the file.
            let item = self
                .out
                .get(self.item_start.saturating_sub(1)..)
                .unwrap_or_default();
            let at = match item.rfind("\n\n") {
                Some(blank) => self.item_start.saturating_sub(1) + blank + 1,
                None if self.item_start > 0 => self.item_start,
                None => self.out.len(),
            };
            self.out.insert_str(at, &padding);
            self.n_breaks += padding.len();
            self.n_counted += padding.len();
            return;
        }
        for _ in target..current {
            // The region starts after a line break, so a break at its start or after another
            // break ends an empty line.
            let region = self.out.get(self.anchor_end..).unwrap_or_default();
            let blank = if region.starts_with('\n') {
                Some(0)
            } else {
                region.find("\n\n")
            };
            let Some(at) = blank else {
                self.moved.get_or_insert(Moved { span, line: anchor });
                return;
            };
            self.out.remove(self.anchor_end + at);
            self.n_breaks -= 1;
            self.n_counted -= 1;
        }
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
        if let Some(anchor) = line.anchor {
            self.move_to(anchor, line.span);
        }
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
        if line.anchor.is_some() {
            self.anchor_end = self.out.len();
        }
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
