//! `textDocument/documentSymbol` (one symbol per rule, named by its id) and
//! `textDocument/definition` (from a rule id in an inline test's `by "..."` to the rule).
//!
//! Ids are the compiler's ([`rulesc_compiler::outline`]), so a symbol is named as `rulesc
//! check` and `rulesc test` name the rule. One document is read at a time: a `by` naming a
//! rule of another file finds nothing.

use lsp_types::{DocumentSymbol, Location, SymbolKind, Uri};
use rulesc_compiler::SourceFile;

use crate::position::Lines;

/// One symbol per rule of `source`, in source order
pub(crate) fn document_symbols(source: &SourceFile, lines: &Lines<'_>) -> Vec<DocumentSymbol> {
    rulesc_compiler::outline(source)
        .rules
        .into_iter()
        .map(|rule| {
            #[expect(
                deprecated,
                reason = "the protocol's type still has the `deprecated` field; it must be given"
            )]
            DocumentSymbol {
                name: rule.id,
                detail: None,
                kind: SymbolKind::FUNCTION,
                tags: None,
                deprecated: None,
                range: lines.range(rule.span),
                selection_range: lines.range(rule.name_span),
                children: None,
            }
        })
        .collect()
}

/// The rule named by the `by "..."` string at byte `offset`; `None` when the cursor is not
/// on one, or no rule of this document has that id
pub(crate) fn definition(
    uri: &Uri,
    source: &SourceFile,
    lines: &Lines<'_>,
    offset: u32,
) -> Option<Location> {
    let outline = rulesc_compiler::outline(source);
    let reference = outline
        .references
        .iter()
        .find(|reference| reference.span.start <= offset && offset <= reference.span.end)?;
    let rule = outline.rules.iter().find(|rule| rule.id == reference.id)?;
    Some(Location {
        uri: uri.clone(),
        range: lines.range(rule.span),
    })
}
