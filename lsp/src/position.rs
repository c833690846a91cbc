//! Byte offsets of the compiler's spans to and from LSP positions.
//!
//! LSP positions are a 0-based line and a 0-based column counted in UTF-16 code units (the
//! protocol's default encoding, and the only one every client speaks); the compiler counts
//! bytes. Lines end as the compiler's [`LineIndex`] ends them (`\n`, `\r\n`, a lone `\r`),
//! which is how the protocol ends them too.
//!
//! Invariant: [`Lines::position`] and [`Lines::offset`] are the only conversions, and each is
//! the other's inverse on every character boundary.

use lsp_types::{Position, Range};
use rulesc_compiler::LineIndex;
use rulesc_grammar::Span;

/// A text with its lines indexed, to convert between byte offsets and positions
#[derive(Debug)]
pub(crate) struct Lines<'text> {
    text: &'text str,
    index: LineIndex,
}

impl<'text> Lines<'text> {
    /// Indexes the lines of `text`
    pub(crate) fn new(text: &'text str) -> Lines<'text> {
        Lines {
            text,
            index: LineIndex::new(text),
        }
    }

    /// The position of byte `offset` (clamped to the text, and back to a character boundary)
    pub(crate) fn position(&self, offset: u32) -> Position {
        let mut offset = (offset as usize).min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line_column = self.index.line_column(to_u32(offset));
        let line_start = offset.saturating_sub(line_column.column.saturating_sub(1) as usize);
        let character = self
            .text
            .get(line_start..offset)
            .map_or(0, |before| before.encode_utf16().count());
        Position {
            line: line_column.line.saturating_sub(1),
            character: to_u32(character),
        }
    }

    /// The range a span covers
    pub(crate) fn range(&self, span: Span) -> Range {
        Range {
            start: self.position(span.start),
            end: self.position(span.end),
        }
    }

    /// The range of the whole text
    pub(crate) fn whole(&self) -> Range {
        self.range(Span::new(0, to_u32(self.text.len())))
    }

    /// The byte offset of `position`; `None` when its line is past the text's last line
    ///
    /// A column past the line's end means the line's end, as the protocol says; a column
    /// inside a character (between the two halves of a surrogate pair) means that character.
    pub(crate) fn offset(&self, position: Position) -> Option<u32> {
        let line_start = self.index.line_start(position.line as usize)?;
        let line_len = self
            .index
            .line_len(position.line.saturating_add(1))
            .unwrap_or_default();
        let line = self
            .text
            .get(line_start as usize..line_start.saturating_add(line_len) as usize)
            .unwrap_or_default();
        let content = line.trim_end_matches(['\r', '\n']);
        let mut units = 0_u32;
        for (idx, ch) in content.char_indices() {
            let next = units.saturating_add(to_u32(ch.len_utf16()));
            if next > position.character {
                return Some(line_start.saturating_add(to_u32(idx)));
            }
            units = next;
        }
        Some(line_start.saturating_add(to_u32(content.len())))
    }
}

/// `value` as `u32`, saturating (documents are far smaller)
fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    fn offset_of(text: &str, needle: &str) -> u32 {
        u32::try_from(text.find(needle).unwrap()).unwrap()
    }

    #[test]
    fn ascii_columns_are_bytes() {
        let text = "on stop\non before_step forbid\n";
        let lines = Lines::new(text);
        assert_eq!(lines.position(offset_of(text, "forbid")), pos(1, 15));
        assert_eq!(lines.offset(pos(1, 15)), Some(offset_of(text, "forbid")));
    }

    #[test]
    fn non_ascii_text_counts_utf16_units() {
        // `é` is 2 bytes and 1 unit, `€` 3 bytes and 1 unit.
        let text = "# é€\non stop when response == \"é€\" forbid\n";
        let lines = Lines::new(text);
        let forbid = offset_of(text, "forbid");
        // 30 units before `forbid`, 33 bytes.
        assert_eq!(forbid - offset_of(text, "on"), 33);
        assert_eq!(lines.position(forbid), pos(1, 30));
        assert_eq!(lines.offset(pos(1, 30)), Some(forbid));
        assert_eq!(lines.position(offset_of(text, "€\n")), pos(0, 3));
    }

    #[test]
    fn astral_characters_count_two_units() {
        // U+1F600 is 4 bytes and 2 units (a surrogate pair).
        let text = "on stop when response == \"\u{1F600}x\" forbid";
        let lines = Lines::new(text);
        let x = offset_of(text, "x\"");
        assert_eq!(lines.position(x), pos(0, 28));
        assert_eq!(lines.offset(pos(0, 28)), Some(x));
        // Inside the pair: the character itself.
        assert_eq!(lines.offset(pos(0, 27)), Some(x - 4));
    }

    #[test]
    fn line_ends_of_every_kind_end_lines() {
        let text = "a\r\nb\rc\nd";
        let lines = Lines::new(text);
        for (needle, line) in [("b", 1), ("c", 2), ("d", 3)] {
            assert_eq!(lines.position(offset_of(text, needle)), pos(line, 0));
            assert_eq!(lines.offset(pos(line, 0)), Some(offset_of(text, needle)));
        }
    }

    #[test]
    fn a_column_past_the_end_is_the_line_end_and_a_line_past_the_end_is_none() {
        let text = "on stop\r\nx\n";
        let lines = Lines::new(text);
        assert_eq!(lines.offset(pos(0, 99)), Some(7));
        assert_eq!(lines.offset(pos(2, 0)), Some(11));
        assert_eq!(lines.offset(pos(3, 0)), None);
        assert_eq!(lines.whole().end, pos(2, 0));
    }

    /// The position of `offset` counted here by hand: lines end after `\n`, `\r\n` or a
    /// lone `\r`; the column is the UTF-16 length of the line's text before the offset
    fn counted(text: &str, offset: usize) -> Position {
        let before = &text[..offset];
        let mut line = 0;
        let mut line_start = 0;
        let bytes = text.as_bytes();
        for (idx, byte) in before.bytes().enumerate() {
            let ends = byte == b'\n' || (byte == b'\r' && bytes.get(idx + 1) != Some(&b'\n'));
            if ends {
                line += 1;
                line_start = idx + 1;
            }
        }
        pos(
            line,
            u32::try_from(text[line_start..offset].encode_utf16().count()).unwrap(),
        )
    }

    proptest::proptest! {
        #[test]
        fn every_character_is_where_counting_puts_it(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec!["a", "é", "€", "\u{1F600}", "\n", "\r", "\r\n", " "]),
                0..30,
            ),
        ) {
            let text = pieces.concat();
            let lines = Lines::new(&text);
            for (idx, _) in text.char_indices().chain([(text.len(), ' ')]) {
                let offset = u32::try_from(idx).unwrap();
                let position = lines.position(offset);
                proptest::prop_assert_eq!(position, counted(&text, idx));
                // Between `\r` and `\n` is no place of the protocol: it reads as the line end.
                let inside_line_end = text[..idx].ends_with('\r') && text[idx..].starts_with('\n');
                if !inside_line_end {
                    proptest::prop_assert_eq!(lines.offset(position), Some(offset));
                }
            }
        }
    }
}
