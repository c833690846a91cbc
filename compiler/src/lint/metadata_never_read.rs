//! W006 `metadata-never-read`: a `set` of a metadata key that no condition reads
//! (LANGUAGE.md §6).

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::{metadata, Context};

/// Warns on each `set` whose key no condition reads
pub(super) fn check(ctx: &Context<'_, '_>) -> Vec<Diagnostic> {
    let reads = metadata::reads(ctx);
    metadata::sets(ctx)
        .iter()
        .filter(|set| !reads.iter().any(|read| set.overlaps(&read.path)))
        .map(|set| codes::metadata_never_read(set.file, set.span, &set.key()))
        .collect()
}
