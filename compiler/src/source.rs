//! Source files given to the compiler and the mapping of byte offsets to lines and columns.
//!
//! Invariant: lines and columns are 1-based and columns count bytes, exactly as miette
//! counts them, and [`SourceFile::line_column`] is the only place that computes them, so the
//! human report's `file:line:col` header, the JSON diagnostics and rule origins agree.

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
        }
    }

    /// The line and byte column of `offset` (clamped to the text's length)
    ///
    /// A line ends after `\n`; the column is the number of bytes since the line's start,
    /// plus one. So `xé\tyé ` followed by a span puts the span at column 9 (`é` counts 2).
    pub fn line_column(&self, offset: u32) -> LineColumn {
        let offset = (offset as usize).min(self.text.len());
        let before = self.text.as_bytes().get(..offset).unwrap_or_default();
        let line_start = before
            .iter()
            .rposition(|byte| *byte == b'\n')
            .map_or(0, |newline| newline + 1);
        let newlines = before.iter().filter(|byte| **byte == b'\n').count();
        LineColumn {
            line: to_u32(newlines).saturating_add(1),
            column: to_u32(offset - line_start).saturating_add(1),
        }
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
    fn offsets_past_the_end_are_clamped() {
        let file = SourceFile::new("a", "a", "ab\n");
        assert_eq!(file.line_column(99), LineColumn { line: 2, column: 1 });
    }
}
