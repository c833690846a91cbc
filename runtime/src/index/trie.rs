//! A byte trie over literal strings: in one walk over a text, every string of the set that
//! starts it, or (built over reversed strings and walked backwards) every one that ends it.
//!
//! Invariant: each string of the set ends at exactly one node, so a walk reports each
//! matching string once. Nothing is allocated after the trie is built.

use std::collections::BTreeMap;

/// Literal strings with a payload each, searched by prefix of a text (or by suffix)
#[derive(Debug, Clone)]
pub(super) struct Trie<T> {
    /// Node 0 is the root (the empty string); every other node is reached by one edge
    nodes: Vec<Node>,
    /// Each node's edge bytes, consecutive and sorted; `children` runs alongside
    bytes: Vec<u8>,
    /// The node each edge leads to
    children: Vec<u32>,
    /// Each node's payloads, consecutive
    payloads: Vec<T>,
}

/// Where a node's edges and payloads sit in the flat vectors
#[derive(Debug, Clone, Copy)]
struct Node {
    edges_from: u32,
    edges_to: u32,
    payloads_from: u32,
    payloads_to: u32,
}

/// Which end of the text the strings are anchored at
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Anchor {
    /// Strings that start the text
    Start,
    /// Strings that end the text
    End,
}

impl<T: Copy> Trie<T> {
    /// The trie of `strings`, each with its payloads, anchored at `anchor`; `None` when it
    /// would hold more nodes or payloads than 32-bit positions count
    pub(super) fn new(strings: &BTreeMap<&str, Vec<T>>, anchor: Anchor) -> Option<Trie<T>> {
        // Built as a tree of maps first, then laid out flat, nodes in creation order.
        let mut children: Vec<BTreeMap<u8, usize>> = vec![BTreeMap::new()];
        let mut node_payloads: Vec<Vec<T>> = vec![Vec::new()];
        for (text, payloads) in strings {
            let node = match anchor {
                Anchor::Start => add_path(&mut children, &mut node_payloads, text.bytes()),
                Anchor::End => add_path(&mut children, &mut node_payloads, text.bytes().rev()),
            }?;
            node_payloads.get_mut(node)?.extend(payloads);
        }
        let n_edges = children.len().saturating_sub(1);
        let mut trie = Trie {
            nodes: Vec::with_capacity(children.len()),
            bytes: Vec::with_capacity(n_edges),
            children: Vec::with_capacity(n_edges),
            payloads: Vec::new(),
        };
        for (edges, payloads) in children.into_iter().zip(node_payloads) {
            let edges_from = u32::try_from(trie.bytes.len()).ok()?;
            for (byte, child) in edges {
                trie.bytes.push(byte);
                trie.children.push(u32::try_from(child).ok()?);
            }
            let payloads_from = u32::try_from(trie.payloads.len()).ok()?;
            trie.payloads.extend(payloads);
            trie.nodes.push(Node {
                edges_from,
                edges_to: u32::try_from(trie.bytes.len()).ok()?,
                payloads_from,
                payloads_to: u32::try_from(trie.payloads.len()).ok()?,
            });
        }
        Some(trie)
    }

    /// Visits the payloads of every string that starts `text` (for [`Anchor::Start`]) or
    /// ends it (for [`Anchor::End`]), shortest string first
    pub(super) fn visit(&self, text: &str, anchor: Anchor, visit: &mut impl FnMut(T)) {
        match anchor {
            Anchor::Start => self.walk(text.bytes(), visit),
            Anchor::End => self.walk(text.bytes().rev(), visit),
        }
    }

    fn walk(&self, bytes: impl Iterator<Item = u8>, visit: &mut impl FnMut(T)) {
        let Some(mut node) = self.nodes.first().copied() else {
            return;
        };
        for byte in bytes {
            let (from, to) = (node.edges_from as usize, node.edges_to as usize);
            let Some(offset) = self
                .bytes
                .get(from..to)
                .and_then(|edges| edges.binary_search(&byte).ok())
            else {
                return;
            };
            let Some(child) = self.children.get(from + offset) else {
                return;
            };
            let Some(reached) = self.nodes.get(*child as usize).copied() else {
                return;
            };
            node = reached;
            if node.payloads_from != node.payloads_to {
                let payloads = self
                    .payloads
                    .get(node.payloads_from as usize..node.payloads_to as usize);
                payloads
                    .into_iter()
                    .flatten()
                    .copied()
                    .for_each(&mut *visit);
            }
        }
    }
}

/// The node `bytes` lead to from the root, made along the way where missing; `None` when a
/// node is missing from `children`, which holds every node made
fn add_path<T>(
    children: &mut Vec<BTreeMap<u8, usize>>,
    node_payloads: &mut Vec<Vec<T>>,
    bytes: impl Iterator<Item = u8>,
) -> Option<usize> {
    let mut node = 0;
    for byte in bytes {
        let next = children.len();
        let child = *children.get_mut(node)?.entry(byte).or_insert(next);
        if child == next {
            children.push(BTreeMap::new());
            node_payloads.push(Vec::new());
        }
        node = child;
    }
    Some(node)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trie(strings: &[&str], anchor: Anchor) -> Trie<usize> {
        let strings = strings
            .iter()
            .enumerate()
            .map(|(idx, text)| (*text, vec![idx]))
            .collect();
        Trie::new(&strings, anchor).unwrap()
    }

    fn found(trie: &Trie<usize>, text: &str, anchor: Anchor) -> Vec<usize> {
        let mut found = Vec::new();
        trie.visit(text, anchor, &mut |idx| found.push(idx));
        found
    }

    #[test]
    fn finds_every_prefix_once_shortest_first() {
        let prefixes = trie(&["tool4_", "tool42_", "t", "x", "tool4"], Anchor::Start);
        assert_eq!(found(&prefixes, "tool42_run", Anchor::Start), [2, 4, 1]);
        assert_eq!(found(&prefixes, "tool4_", Anchor::Start), [2, 4, 0]);
        assert_eq!(found(&prefixes, "toolbox", Anchor::Start), [2]);
        assert!(found(&prefixes, "", Anchor::Start).is_empty());
        assert!(found(&prefixes, "atool4_", Anchor::Start).is_empty());
    }

    #[test]
    fn finds_every_suffix_walking_backwards() {
        let suffixes = trie(&[".env", "env", "é.env", "v"], Anchor::End);
        assert_eq!(found(&suffixes, "é.env", Anchor::End), [3, 1, 0, 2]);
        assert_eq!(found(&suffixes, "a.env", Anchor::End), [3, 1, 0]);
        assert!(found(&suffixes, ".envx", Anchor::End).is_empty());
    }

    #[test]
    fn payloads_of_one_string_are_kept_together() {
        let mut strings = BTreeMap::new();
        strings.insert("ab", vec![1, 2]);
        strings.insert("a", vec![3]);
        let prefixes = Trie::new(&strings, Anchor::Start).unwrap();
        assert_eq!(found(&prefixes, "abc", Anchor::Start), [3, 1, 2]);
    }
}
