//! A forgiving tokenizer of `.rules` text, for what an editor asks about the text around
//! the cursor: which word is under it, and what may be typed there.
//!
//! The text being edited is often not valid, so this reads tokens, not the syntax tree:
//! words, strings, numbers, comments and single punctuation characters, each with its span.
//! It never fails: an unclosed string ends at its line's end, as the grammar's strings do.

use rulesc_grammar::Span;

/// What a token is
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A word: a keyword, a name, a dotted field (`error.kind`, `arg.command`)
    Word,
    /// A number, a duration or a size (`20`, `5min`, `200k`)
    Number,
    /// A string, quotes included
    Str,
    /// A comment, `#` to the line's end
    Comment,
    /// Any other character
    Punct(char),
}

/// A token and where it is
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    /// What it is
    pub(crate) kind: Kind,
    /// Its bytes
    pub(crate) span: Span,
}

impl Token {
    /// The token's text in `text`
    pub(crate) fn text<'text>(&self, text: &'text str) -> &'text str {
        text.get(self.span.start as usize..self.span.end as usize)
            .unwrap_or_default()
    }
}

/// Every token of `text`, in order
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    let mut found = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, ch)) = chars.next() {
        let kind = match ch {
            _ if ch.is_whitespace() => continue,
            '#' => {
                while chars.next_if(|(_, ch)| !is_line_end(*ch)).is_some() {}
                Kind::Comment
            }
            '"' => {
                while let Some((_, ch)) = chars.next_if(|(_, ch)| !is_line_end(*ch)) {
                    match ch {
                        '"' => break,
                        '\\' => {
                            chars.next_if(|(_, ch)| !is_line_end(*ch));
                        }
                        _ => {}
                    }
                }
                Kind::Str
            }
            _ if is_word_char(ch) => {
                while chars.next_if(|(_, ch)| is_word_char(*ch)).is_some() {}
                if ch.is_ascii_digit() {
                    Kind::Number
                } else {
                    Kind::Word
                }
            }
            _ => Kind::Punct(ch),
        };
        let end = chars.peek().map_or(text.len(), |(idx, _)| *idx);
        found.push(Token {
            kind,
            span: Span::new(to_u32(start), to_u32(end)),
        });
    }
    found
}

/// Whether `ch` continues a word: field paths keep their dots (`error.kind`)
pub(crate) fn is_word_char(ch: char) -> bool {
    ch.is_ascii_alphanumeric() || ch == '_' || ch == '.'
}

fn is_line_end(ch: char) -> bool {
    ch == '\n' || ch == '\r'
}

/// The token that holds byte `offset`, or ends at it (a cursor just after a word is on it)
pub(crate) fn token_at(tokens: &[Token], offset: u32) -> Option<&Token> {
    tokens
        .iter()
        .find(|token| token.span.start <= offset && offset < token.span.end)
        .or_else(|| tokens.iter().find(|token| token.span.end == offset))
}

/// The word of a comment around byte `offset` of `text`
pub(crate) fn word_in_comment(text: &str, comment: &Token, offset: u32) -> Option<Span> {
    let comment_text = comment.text(text);
    let at = (offset.checked_sub(comment.span.start)? as usize).min(comment_text.len());
    let before = comment_text.get(..at)?;
    let after = comment_text.get(at..)?;
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, ch)| is_word_char(*ch))
        .last()
        .map_or(at, |(idx, _)| idx);
    let end = after
        .char_indices()
        .find(|(_, ch)| !is_word_char(*ch))
        .map_or(comment_text.len(), |(idx, _)| at + idx);
    (start < end).then(|| {
        Span::new(
            comment.span.start.saturating_add(to_u32(start)),
            comment.span.start.saturating_add(to_u32(end)),
        )
    })
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds_and_texts(text: &str) -> Vec<(Kind, &str)> {
        tokens(text)
            .iter()
            .map(|token| (token.kind, token.text(text)))
            .collect()
    }

    #[test]
    fn words_keep_their_dots_and_strings_their_escapes() {
        let text = "on on_error when error.kind == \"a\\\"b\" # E012 here\nforbid 5min";
        assert_eq!(
            kinds_and_texts(text),
            [
                (Kind::Word, "on"),
                (Kind::Word, "on_error"),
                (Kind::Word, "when"),
                (Kind::Word, "error.kind"),
                (Kind::Punct('='), "="),
                (Kind::Punct('='), "="),
                (Kind::Str, "\"a\\\"b\""),
                (Kind::Comment, "# E012 here"),
                (Kind::Word, "forbid"),
                (Kind::Number, "5min"),
            ]
        );
    }

    #[test]
    fn an_unclosed_string_ends_at_its_line() {
        let text = "block \"é\u{1F600}\non stop";
        let found = kinds_and_texts(text);
        assert_eq!(found[1], (Kind::Str, "\"é\u{1F600}"));
        assert_eq!(found[2], (Kind::Word, "on"));
    }

    #[test]
    fn a_word_of_a_comment_is_found_around_the_cursor() {
        let text = "# see W005, it";
        let found = tokens(text);
        let span = word_in_comment(text, &found[0], 8).unwrap();
        assert_eq!(&text[span.start as usize..span.end as usize], "W005");
        assert_eq!(word_in_comment(text, &found[0], 1), None);
    }
}
