//! `textDocument/hover`: what the event, verb, field, builtin or diagnostic code under the
//! cursor means. Codes are explained in comments too (`# allow W005: ...`); nothing is explained
//! inside a string.

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

use crate::position::Lines;
use crate::tokens::{self, Kind};
use crate::words::Word;

/// The hover at byte `offset` of `text`; `None` when the cursor is on no word of the language
pub(crate) fn hover(text: &str, lines: &Lines<'_>, offset: u32) -> Option<Hover> {
    let found = tokens::tokens(text);
    let token = tokens::token_at(&found, offset)?;
    let (word, span) = match token.kind {
        Kind::Word => (Word::named(token.text(text))?, token.span),
        Kind::Comment => {
            let span = tokens::word_in_comment(text, token, offset)?;
            let word = text.get(span.start as usize..span.end as usize)?;
            match Word::named(word)? {
                code @ Word::Code(_) => (code, span),
                _ => return None,
            }
        }
        Kind::Number | Kind::Str | Kind::Punct(_) => return None,
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: word.describe(),
        }),
        range: Some(lines.range(span)),
    })
}
