//! Where metadata keys are read, set and declared: what `metadata-never-read` and
//! `metadata-never-set` compare.
//!
//! A key is read by a condition (`metadata.tainted`), set by a `set` rule, and declared by
//! the host when a test event gives it (`event before_step { metadata: { role: "admin" } }`):
//! the test documents what the host provides. Paths match when one is a prefix of the
//! other, so setting `metadata.a` serves a read of `metadata.a.b`, and the other way round.

use std::collections::HashSet;

use rulesc_grammar::Span;
use rulesc_runtime::{Action, Field, FieldPath, PathSegment};

use crate::lint::Context;
use crate::lower::FieldRead;
use crate::source::FileId;

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
pub(super) fn reads(ctx: &Context<'_>) -> Vec<Access> {
    let mut reads = Vec::new();
    for lowered in ctx.rules {
        let found = &lowered.spans.found;
        reads.extend(
            found
                .reads
                .iter()
                .filter_map(|read| access(lowered.file, read)),
        );
        // A computed `set` reads the keys it adds up (`metadata.total + 1`), but a counter's
        // read of its own key is no use of it.
        if let Action::Compute { key, .. } = &lowered.rule.action {
            reads.extend(
                found
                    .value_reads
                    .iter()
                    .filter_map(|read| access(lowered.file, read))
                    .filter(|access| access.path != key.segments),
            );
        }
    }
    reads
}

/// Every metadata path a `set` rule writes, in file and source order
pub(super) fn sets(ctx: &Context<'_>) -> Vec<Access> {
    ctx.rules
        .iter()
        .filter_map(|lowered| match (&lowered.rule.action, lowered.spans.set) {
            (Action::Set { key, .. } | Action::Compute { key, .. }, Some((target, _))) => {
                Some(Access {
                    path: key.segments.clone(),
                    file: lowered.file,
                    span: target,
                })
            }
            _ => None,
        })
        .collect()
}

/// Every top-level metadata key a test event gives, as the host would
pub(super) fn declared(ctx: &Context<'_>) -> Vec<Vec<PathSegment>> {
    ctx.tests
        .iter()
        .flat_map(|test| &test.case.steps)
        .flat_map(|(event, _)| event.metadata.keys())
        .map(|key| vec![PathSegment::Key(key.clone())])
        .collect()
}

/// The metadata access `read` is, if it reads below `metadata`
fn access(file: FileId, read: &FieldRead) -> Option<Access> {
    match &read.field {
        Field::Metadata(path) if !path.segments.is_empty() => Some(Access {
            path: path.segments.clone(),
            file,
            span: read.span,
        }),
        _ => None,
    }
}
