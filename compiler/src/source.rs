//! Source files given to the compiler and the mapping of byte offsets to lines and columns.
//!
//! Invariant: lines and columns are 1-based and columns count bytes, exactly as miette
//! counts them, and [`LineIndex::line_column`] is the only place that computes them, so the
//! human report's `file:line:col` header, the JSON diagnostics and rule origins agree.

/// Whose policy a file belongs to, when a user's and a project's policies run as one set
/// (docs/layers.md)
///
/// A set without a file of the user's layer has no layers: every rule may do what the
/// language allows. With one, the project's files may narrow what the user's allow, never
/// widen it, and may not change the state the user's rules keep (`E066`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Layer {
    /// A project's policy (or a set without layers)
    #[default]
    Project,
    /// The user's own policy, which a project's policy cannot weaken
    User,
}

/// One `.rules` file handed to [`check`](crate::check)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The name used in default rule ids (`name:line`) and in evaluations: the path relative
    /// to the directory argument when the file was found by walking it, else its base name
    pub name: String,
    /// The path as the user typed it, shown in diagnostics
    pub path: String,
    /// The file's text
    pub text: String,
    /// Whose policy it belongs to
    pub layer: Layer,
}

/// The position of a file in the slice given to [`check`](crate::check)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

impl FileId {
    /// The index of the file in the slice given to [`check`](crate::check)
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The id of the file at `index`, saturating at `u32::MAX` (never reached: the loader
    /// refuses more files than that long before)
    pub fn from_index(index: usize) -> FileId {
        FileId(u32::try_from(index).unwrap_or(u32::MAX))
    }
}

/// A 1-based line and 1-based byte column
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineColumn {
    /// 1-based line
    pub line: u32,
    /// 1-based column, counted in bytes from the start of the line
    pub column: u32,
}

impl SourceFile {
    /// A source file from its name, its path as typed and its text
    pub fn new(name: impl Into<String>, path: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            name: name.into(),
            path: path.into(),
            text: text.into(),
            layer: Layer::Project,
        }
    }

    /// This file, as a file of `layer`
    pub fn in_layer(mut self, layer: Layer) -> Self {
        self.layer = layer;
        self
    }

    /// The line and byte column of `offset` (see [`LineIndex::line_column`])
    ///
    /// This builds a [`LineIndex`] for one lookup; build one with [`LineIndex::new`] to look
    /// up many offsets of one file.
    pub fn line_column(&self, offset: u32) -> LineColumn {
        LineIndex::new(&self.text).line_column(offset)
    }
}

/// Where each line of a text starts, to turn byte offsets into lines and columns
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// The offset of the first byte of each line; the first line starts at 0
    line_starts: Vec<u32>,
    /// The text's length
    len: u32,
}

impl LineIndex {
    /// Indexes the lines of `text`: a line ends after `\n`, `\r\n` or a lone `\r`, as the
    /// grammar's `NEWLINE` and miette's snippets have it
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        for (idx, byte) in bytes.iter().enumerate() {
            let ends_line = match byte {
                b'\n' => true,
                b'\r' => bytes.get(idx + 1) != Some(&b'\n'),
                _ => false,
            };
            if ends_line {
                line_starts.push(to_u32(idx + 1));
            }
        }
        LineIndex {
            line_starts,
            len: to_u32(text.len()),
        }
    }

    /// The line and byte column of `offset` (clamped to the text's length)
    ///
    /// The column is the number of bytes since the line's start, plus one. So `xé\tyé `
    /// followed by a span puts the span at column 9 (`é` counts 2 bytes), as miette does.
    pub fn line_column(&self, offset: u32) -> LineColumn {
        let offset = offset.min(self.len);
        let line_idx = self.line_of(offset);
        let line_start = self.line_start(line_idx).unwrap_or_default();
        LineColumn {
            line: to_u32(line_idx).saturating_add(1),
            column: (offset - line_start).saturating_add(1),
        }
    }

    /// The length in bytes of the 1-based line `line`, its line end included; `None` past
    /// the last line
    pub fn line_len(&self, line: u32) -> Option<u32> {
        let line_idx = usize::try_from(line.checked_sub(1)?).ok()?;
        let start = self.line_start(line_idx)?;
        let end = self.line_start(line_idx + 1).unwrap_or(self.len);
        Some(end.saturating_sub(start))
    }

    /// The 0-based line holding `offset`
    pub(crate) fn line_of(&self, offset: u32) -> usize {
        // The last line starting at or before `offset`; line 0 always starts at 0.
        self.line_starts
            .partition_point(|start| *start <= offset)
            .saturating_sub(1)
    }

    /// Where the 0-based line `line` starts, if the text has it
    pub fn line_start(&self, line: usize) -> Option<u32> {
        self.line_starts.get(line).copied()
    }
}

/// `value` as `u32`, saturating (sources are capped far below 4 GiB)
fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, needle: &str) -> LineColumn {
        let file = SourceFile::new("a.rules", "a.rules", text);
        let offset = text.find(needle).unwrap();
        file.line_column(u32::try_from(offset).unwrap())
    }

    #[test]
    fn first_line_first_column() {
        assert_eq!(at("on stop", "on"), LineColumn { line: 1, column: 1 });
    }

    #[test]
    fn columns_count_bytes_after_the_last_newline() {
        assert_eq!(
            at("a\nbc\n  tool", "tool"),
            LineColumn { line: 3, column: 3 }
        );
    }

    #[test]
    fn non_ascii_counts_its_bytes() {
        // `xé\tyé ` is 8 bytes: the span starts at byte 8, column 9.
        assert_eq!(at("xé\tyé tool", "tool"), LineColumn { line: 1, column: 9 });
    }

    #[test]
    fn every_offset_agrees_with_a_plain_count() {
        let text = "a\n\nbé\n  tool\n";
        let index = LineIndex::new(text);
        for offset in 0..=text.len() {
            let before = &text.as_bytes()[..offset];
            let line = before.iter().filter(|byte| **byte == b'\n').count() + 1;
            let column = offset
                - before
                    .iter()
                    .rposition(|byte| *byte == b'\n')
                    .map_or(0, |idx| idx + 1)
                + 1;
            let expected = LineColumn {
                line: u32::try_from(line).unwrap(),
                column: u32::try_from(column).unwrap(),
            };
            assert_eq!(
                index.line_column(u32::try_from(offset).unwrap()),
                expected,
                "{offset}"
            );
        }
    }

    #[test]
    fn carriage_returns_end_lines_as_in_the_grammar() {
        let text = "a\r\nb\rc\n  tool";
        let index = LineIndex::new(text);
        let at =
            |needle: &str| index.line_column(u32::try_from(text.find(needle).unwrap()).unwrap());
        assert_eq!(at("b"), LineColumn { line: 2, column: 1 });
        assert_eq!(at("c"), LineColumn { line: 3, column: 1 });
        assert_eq!(at("tool"), LineColumn { line: 4, column: 3 });
    }

    #[test]
    fn offsets_past_the_end_are_clamped() {
        let file = SourceFile::new("a", "a", "ab\n");
        assert_eq!(file.line_column(99), LineColumn { line: 2, column: 1 });
    }
}
