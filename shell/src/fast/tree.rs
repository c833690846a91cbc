//! The fast reader's syntax tree: nodes in one vector, each naming its children by index.

use std::ops::Range;

use crate::syntax::Syntax;

/// A syntax tree built by the fast reader; its first node is the root
#[derive(Debug, Default)]
pub(crate) struct Tree {
    nodes: Vec<Entry>,
}

/// One node as stored
#[derive(Debug)]
struct Entry {
    kind: &'static str,
    named: bool,
    range: Range<usize>,
    /// The field the node fills in its parent (`body`, `redirect`)
    field: Option<&'static str>,
    children: Vec<usize>,
}

/// A node of a [`Tree`]
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fast<'t> {
    tree: &'t Tree,
    index: usize,
}

impl Tree {
    /// Adds a node with no children yet and returns its index
    pub(crate) fn add(&mut self, kind: &'static str, named: bool, range: Range<usize>) -> usize {
        self.nodes.push(Entry {
            kind,
            named,
            range,
            field: None,
            children: Vec::new(),
        });
        self.nodes.len() - 1
    }

    /// Makes `child` the last child of `parent`, filling `field` when given
    pub(crate) fn adopt(&mut self, parent: usize, child: usize, field: Option<&'static str>) {
        if let Some(entry) = self.nodes.get_mut(child) {
            entry.field = field;
        }
        if let Some(entry) = self.nodes.get_mut(parent) {
            entry.children.push(child);
        }
    }

    /// Where the node at `index` lies
    pub(crate) fn range(&self, index: usize) -> Range<usize> {
        self.nodes
            .get(index)
            .map_or(0..0, |entry| entry.range.clone())
    }

    /// Stretches the node at `index` to end at `end`
    pub(crate) fn extend(&mut self, index: usize, end: usize) {
        if let Some(entry) = self.nodes.get_mut(index) {
            entry.range.end = end;
        }
    }

    /// How many children, anonymous ones too, the node at `index` has
    pub(crate) fn children_count(&self, index: usize) -> usize {
        self.nodes
            .get(index)
            .map_or(0, |entry| entry.children.len())
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

impl Fast<'_> {
    fn entry(&self) -> Option<&Entry> {
        self.tree.entry(self.index)
    }

    /// The children that pass `keep`
    fn children_where(&self, keep: impl Fn(&Entry) -> bool) -> Vec<Self> {
        let children = self.entry().map(|entry| entry.children.as_slice());
        children
            .unwrap_or_default()
            .iter()
            .filter(|index| self.tree.entry(**index).is_some_and(&keep))
            .map(|index| Fast {
                tree: self.tree,
                index: *index,
            })
            .collect()
    }
}

impl Syntax for Fast<'_> {
    fn kind(&self) -> &'static str {
        self.entry().map_or("ERROR", |entry| entry.kind)
    }

    fn is_named(&self) -> bool {
        self.entry().is_some_and(|entry| entry.named)
    }

    fn byte_range(&self) -> Range<usize> {
        self.tree.range(self.index)
    }

    fn children(&self) -> Vec<Self> {
        self.children_where(|_| true)
    }

    fn named_children(&self) -> Vec<Self> {
        self.children_where(|entry| entry.named)
    }

    fn field(&self, field: &'static str) -> Vec<Self> {
        self.children_where(|entry| entry.field == Some(field))
    }
}
