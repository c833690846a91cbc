//! `rulesc fmt`: rewrites `.rules` files in one canonical layout.
//!
//! Invariant: formatting changes layout only, never meaning. The syntax tree of the output
//! equals the input's up to spans, every comment is kept, in order, next to the code it was
//! next to, the `on` of every rule without `@id` stays on its line (its id), and formatting
//! formatted text changes nothing. A file with syntax errors, or whose layout would move a
//! rule's id, is never rewritten.

mod layout;
mod writer;

use layout::Layout;
use rulesc_grammar::{Parsed, Span};
use writer::{Moved, Writer};

/// Why a file was not formatted
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatError {
    /// The file has syntax errors (`rulesc check` reports them)
    Syntax,
    /// The canonical layout would move the `on` of a rule without `@id`, whose id is its line,
    /// and no blank line above it could make room
    MovesRuleId {
        /// The 1-based line of the rule's `on`: its id is `<file>:<line>`
        line: u32,
        /// The rule's `on` line in the source
        span: Span,
    },
}

/// The text of `src` in the canonical layout, or why it cannot be formatted
///
/// A rule without `@id` is named by the line of its `on`, so formatting keeps that line
/// where it is: blank lines are added above it when the layout takes fewer lines than the
/// source, and blank lines between it and the rule before are dropped when it takes more.
/// When that is not enough, the file is laid out compactly: no line is broken for its width.
///
/// ```
/// let src = "on   before_step when steps>=20\n  forbid steps_limit_reached  # cap\n";
/// let formatted = rulesc_compiler::format_source(src);
/// assert_eq!(
///     formatted.as_deref(),
///     Ok("on before_step when steps >= 20 forbid steps_limit_reached  # cap\n")
/// );
/// ```
pub fn format_source(src: &str) -> Result<String, FormatError> {
    let parsed = rulesc_grammar::parse(src);
    if !parsed.errors.is_empty() {
        return Err(FormatError::Syntax);
    }
    // The compact layout takes no more lines than the canonical one, so it can keep an id
    // where the canonical one cannot; whether the canonical one can depends only on the items
    // and the lines of the rules named by their line, so formatting stays idempotent.
    write(src, &parsed, false)
        .or_else(|_| write(src, &parsed, true))
        .map_err(|moved| FormatError::MovesRuleId {
            line: moved.line.saturating_add(1),
            span: moved.span,
        })
}

/// `parsed` (the tree of `src`) in the canonical or the `compact` layout, or the first rule
/// named by its line that the layout would move
fn write(src: &str, parsed: &Parsed, compact: bool) -> Result<String, Moved> {
    let layout = Layout::new(src, &parsed.comments, compact);
    let mut writer = Writer::new(src, &parsed.comments);
    let items = &parsed.file.items;
    for (item_idx, item) in items.iter().enumerate() {
        let next_start = items
            .get(item_idx + 1)
            .map_or(u32::try_from(src.len()).unwrap_or(u32::MAX), |next| {
                next.span().start
            });
        writer.item(&layout.item(item), next_start);
    }
    writer.finish()
}
