//! tree-sitter-bash: the parser of the lines the fast reader gives up, and its tree as the
//! walk reads it ([`Syntax`]). Built only with the `tree-sitter` feature: without it, such
//! lines are unreadable.

use std::ops::Range;
use std::time::Instant;

use tree_sitter::{Node, ParseOptions, ParseState, Parser, Tree};

use crate::limits::{self, Unreadable};
use crate::syntax::Syntax;

/// A parser of tree-sitter-bash
pub(crate) fn parser() -> Result<Parser, Unreadable> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .map_err(|_| Unreadable::Syntax)?;
    Ok(parser)
}

/// The tree of `source`, parsed by `parser` until `deadline`; why it cannot be read when it
/// holds a syntax error or takes too long
pub(crate) fn parse(
    parser: &mut Parser,
    source: &str,
    deadline: Instant,
) -> Result<Tree, Unreadable> {
    // tree-sitter-bash's scanner hands characters to C's `isdigit`, which reads out of
    // bounds (and can crash the process) beyond one byte. No byte past ASCII is special
    // to the shell, so the parser reads each as `%`, a plain word character, byte for
    // byte: every node keeps its range, and every word is taken from the text itself.
    let bytes: Vec<u8> = source
        .bytes()
        .map(|byte| if byte.is_ascii() { byte } else { b'%' })
        .collect();
    let mut chunk = |offset: usize, _| bytes.get(offset..).unwrap_or_default();
    // tree-sitter asks this now and then while it parses; `true` stops it.
    let mut too_slow = |_: &ParseState| Instant::now() > deadline;
    let options = ParseOptions::new().progress_callback(&mut too_slow);
    let parsed = parser.parse_with_options(&mut chunk, None, Some(options));
    let tree = match parsed {
        Some(tree) => tree,
        None if Instant::now() > deadline => return Err(Unreadable::TooSlow),
        None => return Err(Unreadable::Syntax),
    };
    let root = tree.root_node();
    if root.has_error() {
        return Err(limits::unterminated(source)
            .or_else(|| limits::read_write_redirect(source))
            .unwrap_or_else(|| first_error(root)));
    }
    Ok(tree)
}

/// Where the first syntax error of a tree lies
fn first_error(root: Node<'_>) -> Unreadable {
    let mut cursor = root.walk();
    let mut node = root;
    loop {
        let erroneous = node
            .children(&mut cursor)
            .find(|child| child.is_error() || child.is_missing() || child.has_error());
        match erroneous {
            Some(child) if !child.is_error() && !child.is_missing() => node = child,
            Some(child) => {
                let point = child.start_position();
                return Unreadable::SyntaxAt {
                    line: point.row + 1,
                    column: point.column + 1,
                };
            }
            None => return Unreadable::Syntax,
        }
    }
}

impl Syntax for Node<'_> {
    // tree-sitter lends children through a cursor that must outlive them: they are collected.
    type Children = std::vec::IntoIter<Self>;

    fn kind(&self) -> &'static str {
        Node::kind(self)
    }

    fn is_named(&self) -> bool {
        Node::is_named(self)
    }

    fn byte_range(&self) -> Range<usize> {
        Node::byte_range(self)
    }

    fn children(&self) -> Self::Children {
        let mut cursor = self.walk();
        let children: Vec<Self> = Node::children(self, &mut cursor).collect();
        children.into_iter()
    }

    // `Node::named_child(i)` starts over from the first child each time, which makes a
    // loop over it quadratic: a cursor reads them in one pass.
    fn named_children(&self) -> Self::Children {
        let mut cursor = self.walk();
        let children: Vec<Self> = Node::named_children(self, &mut cursor).collect();
        children.into_iter()
    }

    fn field(&self, field: &'static str) -> Self::Children {
        let mut cursor = self.walk();
        let children: Vec<Self> = self.children_by_field_name(field, &mut cursor).collect();
        children.into_iter()
    }
}
