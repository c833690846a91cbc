//! `rulesc fmt`: rewrites `.rules` files in one canonical layout.
//!
//! Invariant: formatting changes layout only. The syntax tree of the output equals the
//! input's up to spans, every comment is kept, in order, next to the code it was next to, and
//! formatting formatted text changes nothing. A file with syntax errors is never rewritten.

mod layout;
mod writer;

use layout::Layout;
use writer::Writer;

/// The text of `src` in the canonical layout, or `None` when `src` has syntax errors
///
/// ```
/// let src = "on   before_step when steps>=20\n  forbid steps_limit_reached  # cap\n";
/// let formatted = rulesc_compiler::format_source(src);
/// assert_eq!(
///     formatted.as_deref(),
///     Some("on before_step when steps >= 20 forbid steps_limit_reached  # cap\n")
/// );
/// ```
pub fn format_source(src: &str) -> Option<String> {
    let parsed = rulesc_grammar::parse(src);
    if !parsed.errors.is_empty() {
        return None;
    }
    let layout = Layout::new(&parsed.comments);
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
    Some(writer.finish())
}
