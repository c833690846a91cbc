//! The fast reader's syntax tree: nodes in one vector, linked to their first child and
//! next sibling by index, so building a tree allocates only as the vector grows.

use std::ops::Range;

use crate::syntax::Syntax;

/// A syntax tree built by the fast reader; its first node is the root
#[derive(Debug)]
pub(crate) struct Tree {
    nodes: Vec<Entry>,
}

/// One node as stored; positions and links are `u32` (a line the reader reads is far
/// shorter, see [`Tree::for_line`]) so that a tree of a long line stays small
#[derive(Debug)]
struct Entry {
    kind: &'static str,
    named: bool,
    start: u32,
    end: u32,
    /// The field the node fills in its parent (`body`, `redirect`)
    field: Option<&'static str>,
    first_child: Option<u32>,
    last_child: Option<u32>,
    next_sibling: Option<u32>,
    children: u32,
}

/// `value` as stored in an [`Entry`]
fn narrow(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// A node of a [`Tree`]
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fast<'t> {
    tree: &'t Tree,
    index: usize,
}

impl Tree {
    /// An empty tree for a line of `length` bytes, with room for the nodes it likely has;
    /// `None` for a line too long for the positions of an [`Entry`]
    pub(crate) fn for_line(length: usize) -> Option<Self> {
        u32::try_from(length).ok()?;
        Some(Self {
            nodes: Vec::with_capacity(length / 2 + 8),
        })
    }

    /// Adds a node with no children yet and returns its index
    pub(crate) fn add(&mut self, kind: &'static str, named: bool, range: Range<usize>) -> usize {
        self.nodes.push(Entry {
            kind,
            named,
            start: narrow(range.start),
            end: narrow(range.end),
            field: None,
            first_child: None,
            last_child: None,
            next_sibling: None,
            children: 0,
        });
        self.nodes.len() - 1
    }

    /// Makes `child` the last child of `parent`, filling `field` when given
    pub(crate) fn adopt(&mut self, parent: usize, child: usize, field: Option<&'static str>) {
        if let Some(entry) = self.nodes.get_mut(child) {
            entry.field = field;
        }
        let Some(entry) = self.nodes.get_mut(parent) else {
            return;
        };
        let child = narrow(child);
        let previous = entry.last_child.replace(child);
        entry.first_child.get_or_insert(child);
        entry.children += 1;
        if let Some(previous) = previous.and_then(|index| self.nodes.get_mut(index as usize)) {
            previous.next_sibling = Some(child);
        }
    }

    /// Where the node at `index` lies
    pub(crate) fn range(&self, index: usize) -> Range<usize> {
        self.nodes
            .get(index)
            .map_or(0..0, |entry| entry.start as usize..entry.end as usize)
    }

    /// Stretches the node at `index` to end at `end`
    pub(crate) fn extend(&mut self, index: usize, end: usize) {
        if let Some(entry) = self.nodes.get_mut(index) {
            entry.end = narrow(end);
        }
    }

    /// How many children, anonymous ones too, the node at `index` has
    pub(crate) fn children_count(&self, index: usize) -> usize {
        self.nodes
            .get(index)
            .map_or(0, |entry| entry.children as usize)
    }

    /// The root node
    pub(crate) fn root(&self) -> Fast<'_> {
        Fast {
            tree: self,
            index: 0,
        }
    }

    fn entry(&self, index: usize) -> Option<&Entry> {
        self.nodes.get(index)
    }
}

/// Which children a [`Children`] iterator yields
#[derive(Debug, Clone, Copy)]
enum Keep {
    All,
    Named,
    Field(&'static str),
}

/// The children of a node of a [`Tree`], read along the sibling links
#[derive(Debug, Clone)]
pub(crate) struct Children<'t> {
    tree: &'t Tree,
    next: Option<usize>,
    keep: Keep,
}

impl<'t> Iterator for Children<'t> {
    type Item = Fast<'t>;

    fn next(&mut self) -> Option<Self::Item> {
        while let Some(index) = self.next {
            let entry = self.tree.entry(index)?;
            self.next = entry.next_sibling.map(|next| next as usize);
            let kept = match self.keep {
                Keep::All => true,
                Keep::Named => entry.named,
                Keep::Field(field) => entry.field == Some(field),
            };
            if kept {
                return Some(Fast {
                    tree: self.tree,
                    index,
                });
            }
        }
        None
    }
}

impl<'t> Fast<'t> {
    fn entry(&self) -> Option<&'t Entry> {
        self.tree.entry(self.index)
    }

    fn children_where(&self, keep: Keep) -> Children<'t> {
        Children {
            tree: self.tree,
            next: self
                .entry()
                .and_then(|entry| entry.first_child)
                .map(|first| first as usize),
            keep,
        }
    }
}

impl<'t> Syntax for Fast<'t> {
    type Children = Children<'t>;

    fn kind(&self) -> &'static str {
        self.entry().map_or("ERROR", |entry| entry.kind)
    }

    fn is_named(&self) -> bool {
        self.entry().is_some_and(|entry| entry.named)
    }

    fn byte_range(&self) -> Range<usize> {
        self.tree.range(self.index)
    }

    fn children(&self) -> Self::Children {
        self.children_where(Keep::All)
    }

    fn named_children(&self) -> Self::Children {
        self.children_where(Keep::Named)
    }

    fn field(&self, field: &'static str) -> Self::Children {
        self.children_where(Keep::Field(field))
    }
}
