//! The view of a syntax tree the walk reads: tree-sitter-bash's, or the fast reader's,
//! which builds the same nodes for the lines it reads.

use std::ops::Range;

use tree_sitter::Node;

/// One node of a shell syntax tree, with tree-sitter-bash's kinds and fields
pub(crate) trait Syntax: Copy {
    /// The children of a node, one after the other
    type Children: Iterator<Item = Self>;

    /// The node's kind (`command`, `word`, ...), or an anonymous node's text (`&&`, `>`)
    fn kind(&self) -> &'static str;
    /// Whether the node is named (a construct) rather than anonymous (an operator)
    fn is_named(&self) -> bool;
    /// Where the node's text lies in the command line
    fn byte_range(&self) -> Range<usize>;
    /// Every child, anonymous ones too, in source order
    fn children(&self) -> Self::Children;
    /// The named children, in source order
    fn named_children(&self) -> Self::Children;
    /// The children under `field` (`redirect`, `body`), in source order
    fn field(&self, field: &'static str) -> Self::Children;
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
