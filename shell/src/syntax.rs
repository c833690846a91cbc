//! The view of a syntax tree the walk reads: tree-sitter-bash's (`bash_tree.rs`), or the
//! fast reader's, which builds the same nodes for the lines it reads.

use std::ops::Range;

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
