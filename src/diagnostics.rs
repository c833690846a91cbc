//! Diagnostics with the files they point into, rendered for people (miette reports) and for
//! programs (the JSON of docs/cli.md).
//!
//! Invariant: both forms come from the same [`Diagnostic`] values, and every line and column
//! of the JSON comes from [`LineIndex::line_column`] (1-based lines, 1-based byte columns, as
//! miette counts them), so the human `file:line:col` header and the JSON always agree
//! (`tests/ui.rs` checks it on every fixture).

use std::fmt;
use std::io::IsTerminal;

use miette::{GraphicalReportHandler, GraphicalTheme};
use rulesc_compiler::{Diagnostic, LineIndex, Report, SourceFile, Summary};
use serde::Serialize;

/// Diagnostics together with the files they point into, so they can be rendered
#[derive(Debug, Clone)]
pub struct Diagnostics {
    files: Vec<SourceFile>,
    diagnostics: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Diagnostics whose labels point into `files` (by position: [`FileId`](rulesc_compiler::FileId))
    pub fn new(files: Vec<SourceFile>, diagnostics: Vec<Diagnostic>) -> Diagnostics {
        Diagnostics { files, diagnostics }
    }

    /// The files, in the order the diagnostics' [`FileId`](rulesc_compiler::FileId)s count
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// Every diagnostic, sorted by file, offset and code
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The codes of every diagnostic, in order (`["E012", "W002"]`)
    pub fn codes(&self) -> Vec<&'static str> {
        self.diagnostics.iter().map(|diag| diag.code.id).collect()
    }

    /// The number of errors and warnings
    pub fn summary(&self) -> Summary {
        Summary::of(&self.diagnostics)
    }

    /// The same files with the errors only
    #[must_use]
    pub fn errors_only(&self) -> Diagnostics {
        Diagnostics {
            files: self.files.clone(),
            diagnostics: self
                .diagnostics
                .iter()
                .filter(|diag| diag.is_error())
                .cloned()
                .collect(),
        }
    }

    /// The human form: one miette report per diagnostic, then `N errors, M warnings`
    pub fn render(&self, options: RenderOptions) -> String {
        render_human(&self.diagnostics, &self.files, options)
    }

    /// The JSON form of `rulesc check --format json` (docs/cli.md), pretty-printed
    pub fn to_json(&self) -> String {
        to_json(&self.diagnostics, &self.files)
    }
}

impl fmt::Display for Diagnostics {
    /// The human form without colour, [`FIXED_WIDTH`] columns wide
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(RenderOptions::plain()))
    }
}

impl std::error::Error for Diagnostics {}

/// The width of human reports when it is fixed (not a terminal, and in tests)
pub const FIXED_WIDTH: usize = 100;

/// How human reports are drawn
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// Colours (ANSI escapes)
    pub color: bool,
    /// Columns to wrap messages at
    pub width: usize,
}

impl RenderOptions {
    /// No colour, [`FIXED_WIDTH`] columns: stable text for files, pipes and snapshots
    pub fn plain() -> RenderOptions {
        RenderOptions {
            color: false,
            width: FIXED_WIDTH,
        }
    }

    /// Colour only when `stream` is a terminal and `NO_COLOR` is not set (no-color.org)
    pub fn for_stream(stream: &impl IsTerminal) -> RenderOptions {
        let color = stream.is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty());
        RenderOptions {
            color,
            ..RenderOptions::plain()
        }
    }

    fn handler(self) -> GraphicalReportHandler {
        let theme = if self.color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        GraphicalReportHandler::new_themed(theme)
            .with_width(self.width)
            .with_links(false)
    }
}

/// Every diagnostic as a miette report, followed by the count line (`2 errors, 1 warning`)
fn render_human(
    diagnostics: &[Diagnostic],
    files: &[SourceFile],
    options: RenderOptions,
) -> String {
    let handler = options.handler();
    let lines: Vec<LineIndex> = files
        .iter()
        .map(|file| LineIndex::new(&file.text))
        .collect();
    let mut out = String::new();
    for diagnostic in diagnostics {
        let report = Report::new(diagnostic, files, &lines);
        if !drawable(diagnostic, &lines) || handler.render_report(&mut out, &report).is_err() {
            // Rendering into a String only fails if a label lies outside its source; the
            // diagnostic is then still shown, without its snippet.
            out.push_str(&plain_line(diagnostic, files));
        }
        out.push('\n');
    }
    out.push_str(&Summary::of(diagnostics).to_string());
    out.push('\n');
    out
}

/// The longest line, in bytes, drawn in a snippet
///
/// miette pads a label's underline to its column with a width argument, which Rust's
/// formatting caps at 65,535 and panics past (a tab or a wide character takes up to four
/// columns per byte), and it prints every line of a snippet whole, for every diagnostic.
/// A diagnostic whose snippet would show a longer line (a policy written on one very long
/// line) is shown in its one-line form instead, so the report stays as small as its input.
const MAX_DRAWN_LINE: u32 = 16_000;

/// Whether the snippet of `diagnostic` shows no line longer than [`MAX_DRAWN_LINE`]: the
/// lines of each label and one on either side (miette's context)
fn drawable(diagnostic: &Diagnostic, lines: &[LineIndex]) -> bool {
    std::iter::once(&diagnostic.primary)
        .chain(&diagnostic.secondary)
        .all(|label| {
            let Some(lines) = lines.get(label.file.index()) else {
                return true;
            };
            let first = lines.line_column(label.span.start).line.saturating_sub(1);
            let last = lines.line_column(label.span.end).line.saturating_add(1);
            (first..=last).all(|line| lines.line_len(line).is_none_or(|len| len <= MAX_DRAWN_LINE))
        })
}

/// `text` on one line: line breaks and other control characters (but tabs) escaped as
/// Rust writes them (`\n`, `\u{1b}`), so echoed input can neither break a line nor drive a
/// terminal
pub fn one_line(text: &str) -> String {
    // Most texts hold no control character, which the bytes tell: C0 and DEL are single
    // bytes, and the C1 controls are the 0xC2 sequences (as are some printable characters,
    // which take the slow way).
    if !text
        .bytes()
        .any(|byte| byte < 0x20 && byte != b'\t' || byte == 0x7f || byte == 0xc2)
    {
        return text.to_owned();
    }
    let mut line = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch.is_control() && ch != '\t' {
            line.extend(ch.escape_default());
        } else {
            line.push(ch);
        }
    }
    line
}

/// `file:line:col: E012 message`, the one-line form of a diagnostic
fn plain_line(diagnostic: &Diagnostic, files: &[SourceFile]) -> String {
    let place = diagnostic
        .location(files)
        .map_or_else(String::new, |location| {
            format!(
                "{}:{}:{}: ",
                location.path, location.start.line, location.start.column
            )
        });
    format!("{place}{} {}\n", diagnostic.code.id, diagnostic.message)
}

/// The JSON document of `rulesc check --format json` (docs/cli.md), pretty-printed, keys in the
/// order docs/cli.md lists them
fn to_json(diagnostics: &[Diagnostic], files: &[SourceFile]) -> String {
    let summary = Summary::of(diagnostics);
    let lines: Vec<LineIndex> = files
        .iter()
        .map(|file| LineIndex::new(&file.text))
        .collect();
    let document = JsonReport {
        diagnostics: diagnostics
            .iter()
            .map(|diagnostic| JsonDiagnostic::new(diagnostic, files, &lines))
            .collect(),
        errors: summary.errors,
        warnings: summary.warnings,
    };
    // Serializing plain strings and numbers cannot fail; an empty document is never printed.
    serde_json::to_string_pretty(&document).unwrap_or_default()
}

/// The whole JSON document
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(title = "CheckReport")]
struct JsonReport<'a> {
    diagnostics: Vec<JsonDiagnostic<'a>>,
    errors: usize,
    warnings: usize,
}

/// The JSON Schema of the report `to_json` writes (`rulesc check --format json`), from the
/// very type it serializes, made by `generator` (whose settings say, for one, that the
/// schema is of what is written)
pub fn check_report_schema(generator: schemars::SchemaGenerator) -> schemars::Schema {
    generator.into_root_schema_for::<JsonReport<'static>>()
}

/// One diagnostic in JSON; the place is `null` only if its file is unknown
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "Diagnostic")]
struct JsonDiagnostic<'a> {
    code: &'static str,
    severity: &'static str,
    message: &'a str,
    file: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
    end_line: Option<u32>,
    end_column: Option<u32>,
    help: Option<&'a str>,
}

impl<'a> JsonDiagnostic<'a> {
    fn new(
        diagnostic: &'a Diagnostic,
        files: &[SourceFile],
        lines: &[LineIndex],
    ) -> JsonDiagnostic<'a> {
        let index = diagnostic.primary.file.index();
        let location = files
            .get(index)
            .zip(lines.get(index))
            .map(|(file, lines)| diagnostic.location_in(file, lines));
        JsonDiagnostic {
            code: diagnostic.code.id,
            severity: diagnostic.severity().name(),
            message: &diagnostic.message,
            line: location.as_ref().map(|location| location.start.line),
            column: location.as_ref().map(|location| location.start.column),
            end_line: location.as_ref().map(|location| location.end.line),
            end_column: location.as_ref().map(|location| location.end.column),
            file: location.map(|location| location.path),
            help: diagnostic.help.as_deref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::one_line;

    /// Every character as the contract of `one_line` says, one by one
    fn escaped_one_by_one(text: &str) -> String {
        text.chars()
            .map(|ch| {
                if ch.is_control() && ch != '\t' {
                    ch.escape_default().collect()
                } else {
                    ch.to_string()
                }
            })
            .collect()
    }

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        for text in [
            "plain",
            "tab\tkept",
            "line\nbreak",
            "\u{1b}[31mred",
            "del\u{7f}",
            "c1 \u{85} and \u{9b}",
            "© 20° ½",
            "emoji 🦀",
            "",
        ] {
            assert_eq!(one_line(text), escaped_one_by_one(text), "{text:?}");
        }
    }

    proptest! {
        #[test]
        fn any_text_is_escaped_as_character_by_character(text in any::<String>()) {
            prop_assert_eq!(one_line(&text), escaped_one_by_one(&text));
        }
    }
}
