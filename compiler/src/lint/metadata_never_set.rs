//! W007 `metadata-never-set`: a condition reads a metadata key that no rule sets and no test
//! event gives (docs/language.md §6: "unless the host declares it"; a test event giving the key
//! is how a policy declares what the host provides).
//!
//! One warning per key, at its first read; the other reads of the key are labelled.

use std::collections::BTreeMap;

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lint::{metadata, Context};

/// Warns once per metadata key read but never set nor declared
pub(super) fn check(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let sets = metadata::sets(ctx);
    let declared = metadata::declared(ctx);
    let mut unset: BTreeMap<String, Vec<metadata::Access>> = BTreeMap::new();
    let given = metadata::Overlapping::new(
        sets.iter()
            .map(|set| set.path.as_slice())
            .chain(declared.iter().map(Vec::as_slice)),
    );
    for read in metadata::reads(ctx) {
        if !given.any(&read.path) {
            unset.entry(read.key()).or_default().push(read);
        }
    }
    unset
        .iter()
        .filter_map(|(key, reads)| {
            let (first, others) = reads.split_first()?;
            let others = others.iter().map(|read| (read.file, read.span)).collect();
            Some(codes::metadata_never_set(
                (first.file, first.span),
                (key, &first.test_entry()),
                others,
            ))
        })
        .collect()
}
