//! The one diagnostic type every check and lint produces, the code it carries, and its
//! miette view.
//!
//! Invariant: a [`Diagnostic`] is plain data (code, message, labels, help; its severity is
//! its code's); it is rendered only at the edge. The human form goes through [`Report`], the single
//! `miette::Diagnostic` implementation, and the JSON form through the same fields and
//! [`LineIndex::line_column`], so both always agree.

use std::fmt;

use rulesc_grammar::Span;

use crate::source::{FileId, LineColumn, LineIndex, SourceFile};

/// How serious a diagnostic is
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The policy cannot be compiled
    Error,
    /// The policy compiles but is probably not what its author meant
    Warning,
}

impl Severity {
    /// `error` or `warning`, as written in JSON
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A diagnostic code with its documentation: one row of the table
#[derive(Debug, Clone, Copy)]
pub struct Code {
    /// The stable code: `E012`, `W001`
    pub id: &'static str,
    /// The kebab-case name, read as "allow ⟨name⟩" for lints: `field-not-visible`
    pub name: &'static str,
    /// Error or warning
    pub severity: Severity,
    /// One line saying what the code flags
    pub summary: &'static str,
    /// What it flags, in a few sentences
    pub what: &'static str,
    /// Why it matters
    pub why: &'static str,
    /// A policy that produces the code
    pub wrong: &'static str,
    /// The same policy fixed: it does not produce the code
    pub right: &'static str,
}

impl PartialEq for Code {
    fn eq(&self, other: &Code) -> bool {
        self.id == other.id
    }
}

impl Eq for Code {}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id)
    }
}

impl Code {
    /// The long explanation `rulesc explain` prints
    pub fn explain(&self) -> String {
        format!(
            "{id} ({name}, {severity}): {summary}\n\n\
             ## What it flags\n\n{what}\n\n\
             ## Why it matters\n\n{why}\n\n\
             ## Wrong\n\n{wrong}\n\n\
             ## Right\n\n{right}\n",
            id = self.id,
            name = self.name,
            severity = self.severity.name(),
            summary = self.summary,
            what = self.what,
            why = self.why,
            wrong = indent(self.wrong),
            right = indent(self.right),
        )
    }
}

/// Indents an example by four spaces, as a Markdown code block
fn indent(example: &str) -> String {
    example
        .lines()
        .map(|line| {
            if line.is_empty() {
                String::new()
            } else {
                format!("    {line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A place in a source file with a short noun phrase saying what is there
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// The file the span points into
    pub file: FileId,
    /// The bytes underlined
    pub span: Span,
    /// What the span is, as a short noun phrase (`not visible here`)
    pub message: String,
}

impl Label {
    /// A label on `span` of `file`
    pub fn new(file: FileId, span: Span, message: impl Into<String>) -> Label {
        Label {
            file,
            span,
            message: message.into(),
        }
    }
}

/// A problem found in a policy, with a stable code and the place it points at
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The code from the table in `codes.rs` (`E012`, `W001`)
    pub code: Code,
    /// One lowercase line, no final period, user text in backticks
    pub message: String,
    /// The culprit: the `file:line:col` header points here
    pub primary: Label,
    /// The other parties: the event, the earlier duplicate
    pub secondary: Vec<Label>,
    /// What to do, in the imperative
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic of `code` with its message and primary label
    pub fn new(code: Code, message: impl Into<String>, primary: Label) -> Diagnostic {
        Diagnostic {
            code,
            message: message.into(),
            primary,
            secondary: Vec::new(),
            help: None,
        }
    }

    /// Adds a secondary label
    #[must_use]
    pub fn with_secondary(mut self, label: Label) -> Diagnostic {
        self.secondary.push(label);
        self
    }

    /// Sets the help line
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Error or warning: always the code's own severity
    pub fn severity(&self) -> Severity {
        self.code.severity
    }

    /// Whether this diagnostic is an error
    pub fn is_error(&self) -> bool {
        self.severity() == Severity::Error
    }

    /// The key diagnostics are reported in: file, offset, then code
    pub fn sort_key(&self) -> (FileId, u32, &'static str) {
        (self.primary.file, self.primary.span.start, self.code.id)
    }

    /// Where the primary label starts and ends in `files`, 1-based lines and byte columns;
    /// `None` when the label's file is not in `files`
    pub fn location(&self, files: &[SourceFile]) -> Option<Location> {
        let file = files.get(self.primary.file.index())?;
        Some(self.location_in(file, &LineIndex::new(&file.text)))
    }

    /// [`Diagnostic::location`] with the primary label's file and its lines already indexed
    pub fn location_in(&self, file: &SourceFile, lines: &LineIndex) -> Location {
        Location {
            path: file.path.clone(),
            start: lines.line_column(self.primary.span.start),
            end: lines.line_column(self.primary.span.end),
        }
    }
}

/// Where a diagnostic points, as the JSON report writes it
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file's path as typed
    pub path: String,
    /// The first byte of the primary label
    pub start: LineColumn,
    /// One past its last byte
    pub end: LineColumn,
}

/// Counts of errors and warnings, rendered as the closing line (`2 errors, 1 warning`)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Number of errors
    pub errors: usize,
    /// Number of warnings
    pub warnings: usize,
}

impl Summary {
    /// Counts the diagnostics by severity
    pub fn of(diagnostics: &[Diagnostic]) -> Summary {
        let errors = diagnostics.iter().filter(|diag| diag.is_error()).count();
        Summary {
            errors,
            warnings: diagnostics.len() - errors,
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |count: usize, word: &str| {
            if count == 1 {
                format!("{count} {word}")
            } else {
                format!("{count} {word}s")
            }
        };
        write!(
            f,
            "{}, {}",
            plural(self.errors, "error"),
            plural(self.warnings, "warning")
        )
    }
}

/// A diagnostic together with the sources it points into: what miette renders
///
/// Labels near the primary label (same file, at most `SNIPPET_REACH` lines away) are drawn
/// on its snippet; labels in other files (the first of two conflicting defaults in another
/// file) or far away in the same one become related notes with their own snippet, so a
/// report shows a few lines per label however far apart the labels are.
pub struct Report<'a> {
    diagnostic: &'a Diagnostic,
    source: Option<NamedText<'a>>,
    here: Vec<&'a Label>,
    elsewhere: Vec<Elsewhere<'a>>,
}

/// How many lines away from the primary label a secondary label may be and still be drawn on
/// the primary snippet; miette draws every line between two labels of one snippet
const SNIPPET_REACH: usize = 8;

impl<'a> Report<'a> {
    /// Borrows `diagnostic`, the files its labels point into and their line indexes (one per
    /// file, in the same order: build them once with [`LineIndex::new`] to render many
    /// diagnostics, so each snippet costs the lines it shows, not the whole file)
    pub fn new(
        diagnostic: &'a Diagnostic,
        files: &'a [SourceFile],
        lines: &'a [LineIndex],
    ) -> Report<'a> {
        let named = |file: FileId| {
            let source = files.get(file.index())?;
            let lines = lines.get(file.index())?;
            Some(NamedText {
                name: &source.path,
                text: &source.text,
                lines,
            })
        };
        let primary = &diagnostic.primary;
        let near = |label: &Label| {
            label.file == primary.file
                && lines.get(primary.file.index()).is_some_and(|index| {
                    index
                        .line_of(label.span.start)
                        .abs_diff(index.line_of(primary.span.start))
                        <= SNIPPET_REACH
                })
        };
        let (here, far): (Vec<&Label>, Vec<&Label>) =
            diagnostic.secondary.iter().partition(|label| near(label));
        let elsewhere = far
            .into_iter()
            .filter_map(|label| {
                named(label.file).map(|source| Elsewhere {
                    code: diagnostic.code.id,
                    label,
                    source,
                })
            })
            .collect();
        Report {
            diagnostic,
            source: named(primary.file),
            here,
            elsewhere,
        }
    }
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.diagnostic, f)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diagnostic.code.id))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity() {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diagnostic
            .help
            .as_ref()
            .map(|help| Box::new(help) as Box<dyn fmt::Display + 'b>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source
            .as_ref()
            .map(|source| source as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.source.as_ref()?;
        let primary = &self.diagnostic.primary;
        let here = self
            .here
            .iter()
            .map(|label| miette::LabeledSpan::new_with_span(label_text(label), to_miette(label)));
        let primary_span =
            miette::LabeledSpan::new_primary_with_span(label_text(primary), to_miette(primary));
        Some(Box::new(std::iter::once(primary_span).chain(here)))
    }

    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn miette::Diagnostic> + 'b>> {
        if self.elsewhere.is_empty() {
            return None;
        }
        Some(Box::new(
            self.elsewhere
                .iter()
                .map(|note| note as &dyn miette::Diagnostic),
        ))
    }
}

/// A label's text, `None` when empty so miette draws a bare underline
fn label_text(label: &Label) -> Option<String> {
    (!label.message.is_empty()).then(|| label.message.clone())
}

/// A label's span as miette's
fn to_miette(label: &Label) -> miette::SourceSpan {
    miette::SourceSpan::new(
        (label.span.start as usize).into(),
        label.span.len() as usize,
    )
}

/// A secondary label in another file than the primary one, or far from it, shown as a
/// related note
struct Elsewhere<'a> {
    /// The code of the report the note belongs to: miette heads a note with its code, and a
    /// note without one would open an empty "Advice:" section
    code: &'static str,
    label: &'a Label,
    source: NamedText<'a>,
}

impl fmt::Debug for Elsewhere<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.label, f)
    }
}

impl fmt::Display for Elsewhere<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label.message)
    }
}

impl std::error::Error for Elsewhere<'_> {}

impl miette::Diagnostic for Elsewhere<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Advice)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_primary_with_span(
                label_text(self.label),
                to_miette(self.label),
            ),
        )))
    }
}

/// A file's text with the path miette prints in the snippet header
#[derive(Debug, Clone, Copy)]
struct NamedText<'a> {
    name: &'a str,
    text: &'a str,
    lines: &'a LineIndex,
}

impl miette::SourceCode for NamedText<'_> {
    /// miette's own reading of `str`, run on a window of whole lines around the span and
    /// shifted back, so the result is the same as on the whole text but costs only the
    /// lines around the span
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let start = u32::try_from(span.offset()).unwrap_or(u32::MAX);
        let end = u32::try_from(span.offset() + span.len()).unwrap_or(u32::MAX);
        let first_line = self
            .lines
            .line_of(start)
            .saturating_sub(context_lines_before);
        // Two lines more than shown, so miette's scan stops where it would on the whole text.
        let past_line = self.lines.line_of(end) + context_lines_after + 2;
        let window_start = self.lines.line_start(first_line).unwrap_or_default() as usize;
        let window_end = self
            .lines
            .line_start(past_line)
            .map_or(self.text.len(), |offset| offset as usize);
        let window = self
            .text
            .get(window_start..window_end)
            .ok_or(miette::MietteError::OutOfBounds)?;
        let shifted = miette::SourceSpan::new(
            span.offset().saturating_sub(window_start).into(),
            span.len(),
        );
        let inner = window.read_span(&shifted, context_lines_before, context_lines_after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.to_owned(),
            inner.data(),
            miette::SourceSpan::new(
                (inner.span().offset() + window_start).into(),
                inner.span().len(),
            ),
            inner.line() + first_line,
            inner.column(),
            inner.line_count() + first_line,
        )))
    }
}
