//! Conditions in postfix order: how both stored forms of a policy (JSON and compact) write
//! a condition, so that reading one back needs no recursion, however deep it nests.

use serde::{Deserialize, Serialize};

use crate::policy_error::MAX_CONDITION_DEPTH;
use crate::vocabulary::Condition;

/// One step of a postfix condition
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Node<C> {
    /// A test that is not a connective (a comparison, a pattern, a flag ...)
    Leaf(C),
    /// `and` of the last `n` conditions
    All(usize),
    /// `or` of the last `n` conditions
    Any(usize),
    /// `not` of the last condition
    Not,
}

/// `condition` in postfix order, without recursion
pub(crate) fn flatten(condition: &Condition) -> Vec<Node<&Condition>> {
    // Each stack entry is a condition and whether its operands were already pushed.
    let mut pending = vec![(condition, false)];
    let mut nodes = Vec::new();
    while let Some((condition, expanded)) = pending.pop() {
        match (condition, expanded) {
            (Condition::All(parts), true) => nodes.push(Node::All(parts.len())),
            (Condition::Any(parts), true) => nodes.push(Node::Any(parts.len())),
            (Condition::Not(_), true) => nodes.push(Node::Not),
            (Condition::All(parts) | Condition::Any(parts), false) => {
                pending.push((condition, true));
                pending.extend(parts.iter().rev().map(|part| (part, false)));
            }
            (Condition::Not(part), false) => {
                pending.push((condition, true));
                pending.push((part, false));
            }
            (leaf, _) => nodes.push(Node::Leaf(leaf)),
        }
    }
    nodes
}

/// The condition a postfix list describes; `None` when the list is not one condition, a
/// leaf holds a connective (the canonical form never nests them), or the condition nests
/// deeper than [`MAX_CONDITION_DEPTH`] (checked while building, so no deep value is ever
/// built, nor dropped recursively)
///
/// `stack` is scratch space, left empty on success; each entry is a condition and its depth.
pub(crate) fn unflatten(
    nodes: Vec<Node<Condition>>,
    stack: &mut Vec<(Condition, usize)>,
) -> Option<Condition> {
    stack.clear();
    for node in nodes {
        let entry = match node {
            Node::Leaf(Condition::All(_) | Condition::Any(_) | Condition::Not(_)) => return None,
            Node::Leaf(leaf) => (leaf, 1),
            Node::All(n_parts) | Node::Any(n_parts) => {
                let from = stack.len().checked_sub(n_parts)?;
                let mut parts = Vec::with_capacity(n_parts);
                let mut depth = 0;
                for (part, part_depth) in stack.drain(from..) {
                    depth = depth.max(part_depth);
                    parts.push(part);
                }
                match node {
                    Node::All(_) => (Condition::All(parts), depth + 1),
                    _ => (Condition::Any(parts), depth + 1),
                }
            }
            Node::Not => {
                let (part, depth) = stack.pop()?;
                (Condition::Not(Box::new(part)), depth + 1)
            }
        };
        if entry.1 > MAX_CONDITION_DEPTH {
            return None;
        }
        stack.push(entry);
    }
    let (condition, _) = stack.pop()?;
    stack.is_empty().then_some(condition)
}
