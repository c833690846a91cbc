//! W006 `metadata-never-read`: a `set` of a metadata key that no condition reads
//! (docs/language.md §6).

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::{metadata, Context};

/// Warns on each `set` whose key no condition reads
pub(super) fn check(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let reads = metadata::reads(ctx);
    let read = metadata::Overlapping::new(reads.iter().map(|read| read.path.as_slice()));
    metadata::sets(ctx)
        .iter()
        .filter(|set| !read.any(&set.path))
        .map(|set| codes::metadata_never_read(set.file, set.span, &set.key()))
        .collect()
}
