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

impl FormatError {
    /// Why a file named `name` (as in default rule ids) was not formatted, in words a user
    /// reads after "cannot format `<file>`: "
    pub fn reason(&self, name: &str) -> String {
        match self {
            FormatError::Syntax => "it has syntax errors".to_owned(),
            FormatError::MovesRuleId { line, .. } => format!(
                "the layout would move the rule on line {line}, whose id `{name}:{line}` is its \
                 line; give it an `@id`"
            ),
        }
    }
}

/// The text of `src` in the canonical layout, or why it cannot be formatted
///
/// A rule without `@id` is named by the line of its `on`, so formatting keeps that line
/// where it is: blank lines are added above it when the layout takes fewer lines than the
/// source, and blank lines between it and the rule before are dropped when it takes more.
/// When that is not enough, the rules before it since the last rule named by its line are laid
/// out compactly: no line is broken for its width.
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
    write(src, &parsed).map_err(|moved| FormatError::MovesRuleId {
        line: moved.line.saturating_add(1),
        span: moved.span,
    })
}

/// `parsed` (the tree of `src`) laid out, or the first rule named by its line that no layout
/// keeps on its line.
///
/// The items from one rule named by its line to the next (both included) are written in the
/// canonical layout, or, when that would move the second rule, written again in the compact
/// one, which takes no more lines. Whether the canonical layout fits depends only on those
/// items and on the lines of the two rules, which formatting keeps, so formatting formatted
/// text makes the same choice: it stays idempotent.
fn write(src: &str, parsed: &Parsed) -> Result<String, Moved> {
    let canonical = Layout::new(src, &parsed.comments, false);
    let compact = Layout::new(src, &parsed.comments, true);
    let mut writer = Writer::new(src, &parsed.comments);
    let items = &parsed.file.items;
    let next_start = |item_idx: usize| {
        items
            .get(item_idx + 1)
            .map_or(u32::try_from(src.len()).unwrap_or(u32::MAX), |next| {
                next.span().start
            })
    };
    // A region runs from one rule named by its line (whose lines after its `on` take room
    // there) to the next, both included.
    let mut region_start = 0;
    let mut checkpoint = writer.checkpoint();
    for (item_idx, item) in items.iter().enumerate() {
        let lines = canonical.item(item);
        if !lines.iter().any(|line| line.anchor.is_some()) {
            writer.item(&lines, next_start(item_idx));
            continue;
        }
        let mut before_item = writer.checkpoint();
        writer.item(&lines, next_start(item_idx));
        if writer.has_moved() {
            writer.restore(&checkpoint);
            let region = items
                .iter()
                .enumerate()
                .take(item_idx + 1)
                .skip(region_start);
            for (idx, again) in region {
                if idx == item_idx {
                    before_item = writer.checkpoint();
                }
                writer.item(&compact.item(again), next_start(idx));
            }
        }
        checkpoint = before_item;
        region_start = item_idx;
    }
    writer.finish()
}
