//! Where metadata keys are read, set and declared: what `metadata-never-read` and
//! `metadata-never-set` compare.
//!
//! A key is read by a condition (`metadata.tainted`), set by a `set` rule, and declared by
//! the host when a test event gives it (`event before_step { metadata: { role: "admin" } }`):
//! the test documents what the host provides. Paths match when one is a prefix of the
//! other, so setting `metadata.a` serves a read of `metadata.a.b`, and the other way round.

use std::collections::HashSet;

use rulesc_grammar::{
    ActionNode, Compare, Expr, Operand, Path, PathSegment as Segment, Span, TraceCall,
};
use rulesc_runtime::{Action, FieldPath, PathSegment};

use crate::lint::Context;
use crate::source::FileId;
use crate::types::decode_str;

/// A metadata path written in a rule
pub(super) struct Access {
    /// The path below `metadata`
    pub(super) path: Vec<PathSegment>,
    /// The file it was written in
    pub(super) file: FileId,
    /// Where it is written (the whole `metadata.…` path)
    pub(super) span: Span,
}

impl Access {
    /// The path as written after `metadata`: `.tainted`, `.a.b[0]`, `["a-b"]`
    pub(super) fn key(&self) -> String {
        FieldPath {
            segments: self.path.clone(),
        }
        .to_string()
    }

    /// The entry of a test event's `metadata` object that gives this path:
    /// `tainted: true`, `a: { b: true }`, `"a-b": true` (an index ends it)
    pub(super) fn test_entry(&self) -> String {
        let keys: Vec<&str> = self
            .path
            .iter()
            .map_while(|segment| match segment {
                PathSegment::Key(key) => Some(key.as_str()),
                PathSegment::Index(_) => None,
            })
            .collect();
        keys.iter().rev().fold("true".to_owned(), |value, key| {
            let key = if rulesc_grammar::print::is_word(key) {
                (*key).to_owned()
            } else {
                format!("\"{key}\"")
            };
            if value == "true" {
                format!("{key}: {value}")
            } else {
                format!("{key}: {{ {value} }}")
            }
        })
    }
}

/// A set of paths, asked whether any of them overlaps a path in one look-up per prefix of
/// that path, rather than one comparison per path of the set
pub(super) struct Overlapping<'p> {
    /// The paths
    whole: HashSet<&'p [PathSegment]>,
    /// Every prefix of every path, the path itself and the empty one included
    prefixes: HashSet<&'p [PathSegment]>,
}

impl<'p> Overlapping<'p> {
    /// The set of `paths`
    pub(super) fn new(paths: impl IntoIterator<Item = &'p [PathSegment]>) -> Self {
        let mut whole = HashSet::new();
        let mut prefixes = HashSet::new();
        for path in paths {
            whole.insert(path);
            prefixes.extend((0..=path.len()).filter_map(|len| path.get(..len)));
        }
        Overlapping { whole, prefixes }
    }

    /// Whether a path of the set and `path` name the same value or one holds the other:
    /// `path` is a prefix of one, or one is a prefix of `path`
    pub(super) fn any(&self, path: &[PathSegment]) -> bool {
        self.prefixes.contains(path)
            || (0..=path.len())
                .filter_map(|len| path.get(..len))
                .any(|prefix| self.whole.contains(prefix))
    }
}

/// Every metadata path a condition reads, in file and source order
pub(super) fn reads(ctx: &Context<'_, '_>) -> Vec<Access> {
    let mut reads = Vec::new();
    for lowered in ctx.rules {
        let mut found = |path: &Path| {
            if let Some(access) = access(lowered.file, path) {
                reads.push(access);
            }
        };
        if let Some(condition) = &lowered.decl.condition {
            read_paths(condition, &mut found);
        }
        // A computed `set` reads the keys it adds up (`metadata.total + 1`), but a counter's
        // read of its own key is no use of it.
        if let (ActionNode::Set { value, .. }, Action::Compute { key, .. }) =
            (&lowered.decl.action, &lowered.rule.action)
        {
            operand_paths(value, &mut |path: &Path| {
                if let Some(access) = access(lowered.file, path) {
                    if access.path != key.segments {
                        reads.push(access);
                    }
                }
            });
        }
    }
    reads
}

/// Every metadata path a `set` rule writes, in file and source order
pub(super) fn sets(ctx: &Context<'_, '_>) -> Vec<Access> {
    ctx.rules
        .iter()
        .filter_map(
            |lowered| match (&lowered.rule.action, &lowered.decl.action) {
                (
                    Action::Set { key, .. } | Action::Compute { key, .. },
                    ActionNode::Set { target, .. },
                ) => Some(Access {
                    path: key.segments.clone(),
                    file: lowered.file,
                    span: target.span,
                }),
                _ => None,
            },
        )
        .collect()
}

/// Every top-level metadata key a test event gives, as the host would
pub(super) fn declared(ctx: &Context<'_, '_>) -> Vec<Vec<PathSegment>> {
    ctx.tests
        .iter()
        .flat_map(|test| &test.case.steps)
        .flat_map(|(event, _)| event.metadata.keys())
        .map(|key| vec![PathSegment::Key(key.clone())])
        .collect()
}

/// Calls `found` with each path the condition reads
pub(super) fn read_paths(condition: &Expr, found: &mut impl FnMut(&Path)) {
    match condition {
        Expr::Or(parts, _) | Expr::And(parts, _) => {
            for part in parts {
                read_paths(part, found);
            }
        }
        Expr::Not(inner, _) | Expr::Paren(inner, _) => read_paths(inner, found),
        Expr::Compare(compare) => compare_paths(compare, found),
        Expr::Quantified(quantified) => compare_paths(&quantified.compare, found),
        Expr::Path(path) => found(path),
        Expr::Trace(call) => trace_paths(call, found),
        // The words inside `shell(...)` are a command's, never metadata.
        Expr::Lit(_) | Expr::Call(_) => {}
    }
}

/// Calls `found` with each path the comparison reads, arithmetic included
fn compare_paths(compare: &Compare, found: &mut impl FnMut(&Path)) {
    operand_paths(&compare.left, found);
    operand_paths(&compare.right, found);
}

/// Calls `found` with each path `operand` reads: itself, or those inside its arithmetic
pub(super) fn operand_paths(operand: &Operand, found: &mut impl FnMut(&Path)) {
    match operand {
        Operand::Path(path) => found(path),
        Operand::Lit(_) => {}
        Operand::Trace(call) => trace_paths(call, found),
        Operand::Group(inner, _) => operand_paths(inner, found),
        Operand::Arith(arith) => {
            operand_paths(&arith.left, found);
            operand_paths(&arith.right, found);
        }
    }
}

/// Calls `found` with each path a trace function's condition reads on past events
fn trace_paths(call: &TraceCall, found: &mut impl FnMut(&Path)) {
    if let Some(when) = &call.when {
        read_paths(when, found);
    }
}

/// The metadata access `path` is, if it starts with `metadata.`
fn access(file: FileId, path: &Path) -> Option<Access> {
    let mut segments = path.segments.iter();
    match segments.next() {
        Some(Segment::Name(root)) if root.name == "metadata" => {}
        _ => return None,
    }
    let path_below: Option<Vec<PathSegment>> = segments
        .map(|segment| match segment {
            Segment::Name(name) => Some(PathSegment::Key(name.name.clone())),
            Segment::Quoted { key, .. } => {
                decode_str(&key.name, key.span).ok().map(PathSegment::Key)
            }
            Segment::Index { text, .. } => text.parse().ok().map(PathSegment::Index),
        })
        .collect();
    let path_below = path_below.filter(|below| !below.is_empty())?;
    Some(Access {
        path: path_below,
        file,
        span: path.span,
    })
}
