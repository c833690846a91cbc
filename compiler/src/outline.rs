//! The rules of one file as `check` names them, and the rule ids its inline tests name in
//! `by "..."`: what an editor shows as the file's symbols and follows to a definition.
//!
//! Invariant: ids come from the same function `check` names rules with (`@id`, else
//! `<file name>:<line>` of the `on` keyword), so an editor never shows an id that
//! `rulesc check` or `rulesc test` would spell differently.

use rulesc_grammar::{Item, Span, TestStep};

use crate::check::declared_id;
use crate::source::{FileId, LineIndex, SourceFile};
use crate::types::decode_str;

/// The rules of a file and the rule ids its inline tests name
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    /// Every rule that parsed and has a well-formed id, in source order
    pub rules: Vec<RuleSymbol>,
    /// Every `by "..."` of an inline test whose string decodes, in source order
    pub references: Vec<RuleReference>,
}

/// A rule with its id
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSymbol {
    /// The id `check` gives the rule
    pub id: String,
    /// The whole rule, annotations included
    pub span: Span,
    /// What names it: the `@id` string, or the `on` keyword of a rule named by its line
    pub name_span: Span,
}

/// A rule id named in an inline test's `by "..."`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleReference {
    /// The id, its escapes decoded
    pub id: String,
    /// The string literal, quotes included
    pub span: Span,
}

/// The outline of `source`, read on its own: default ids use its [`SourceFile::name`], as
/// when `rulesc check` is given that one file
pub fn outline(source: &SourceFile) -> Outline {
    let parsed = rulesc_grammar::parse(&source.text);
    let lines = LineIndex::new(&source.text);
    let mut outline = Outline::default();
    for item in &parsed.file.items {
        match item {
            Item::Rule(decl) => {
                if let Some(declared) = declared_id(FileId(0), source, &lines, decl) {
                    outline.rules.push(RuleSymbol {
                        id: declared.id,
                        span: decl.span,
                        name_span: declared.span,
                    });
                }
            }
            Item::Test(test) => {
                let named = test.steps.iter().filter_map(|step| match step {
                    TestStep::Expect { by: Some(by), .. } => Some(by),
                    _ => None,
                });
                for by in named {
                    if let Ok(id) = decode_str(&by.raw, by.span) {
                        outline.references.push(RuleReference { id, span: by.span });
                    }
                }
            }
            _ => {}
        }
    }
    outline
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(text: &str, span: Span) -> &str {
        &text[span.start as usize..span.end as usize]
    }

    #[test]
    fn rules_are_named_by_their_id_or_file_and_line() {
        let text = "@id(\"no-rm\")\non pre_tool_use when tool ~ \"rm*\" block\n\n\
                    on stop request\n\
                    test \"t\" {\n  event stop {}\n  expect request by \"guard.rules:4\"\n}\n";
        let outline = outline(&SourceFile::new("guard.rules", "dir/guard.rules", text));
        let ids: Vec<&str> = outline.rules.iter().map(|rule| rule.id.as_str()).collect();
        assert_eq!(ids, ["no-rm", "guard.rules:4"]);
        assert_eq!(text_of(text, outline.rules[0].name_span), "\"no-rm\"");
        assert_eq!(text_of(text, outline.rules[1].name_span), "on");
        assert_eq!(text_of(text, outline.rules[1].span), "on stop request");
        assert_eq!(outline.references.len(), 1);
        assert_eq!(outline.references[0].id, "guard.rules:4");
        assert_eq!(
            text_of(text, outline.references[0].span),
            "\"guard.rules:4\""
        );
    }

    #[test]
    fn a_malformed_id_names_no_rule() {
        let text = "@id(3)\non stop request\n";
        let outline = outline(&SourceFile::new("a.rules", "a.rules", text));
        assert!(outline.rules.is_empty());
    }
}
