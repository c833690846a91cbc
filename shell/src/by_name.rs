//! The rows of a knowledge table found by a program's name. Every simple command of a line
//! is looked up in each table, and most names a table is asked for are in none of its rows.
//!
//! A hook call is a process of its own, so whatever is built here is built on every call:
//! sorting the pairs to search them by halves cost a call more than reading a line of a few
//! commands. So the (name, row) pairs are put in buckets by their name's hash, a counting
//! sort that keeps the table's order within a bucket and costs one hash per pair. A lookup
//! hashes the name once and compares it with the few pairs of its bucket, by length first.

use std::hash::BuildHasher;
use std::sync::LazyLock;

use foldhash::fast::FixedState;

/// A table's rows by each name they list, built once per process
pub(crate) type ByName = LazyLock<Index>;

/// The same hash in every process
const HASH: FixedState = FixedState::with_seed(0x7275_6c65_7363_0002);

/// (name, position) pairs grouped by bucket, each bucket in the table's order, and where
/// each bucket starts
pub(crate) struct Index {
    pairs: Box<[(&'static str, usize)]>,
    /// `starts[b]..starts[b + 1]` are bucket `b`'s pairs; one more entry than buckets
    starts: Box<[usize]>,
}

impl Index {
    /// The bucket of `name`: the high bits of its hash, as many as the buckets need
    fn bucket(&self, name: &str) -> usize {
        let buckets = self.starts.len() - 1;
        // Buckets are a power of two: the mask keeps the hash's low bits.
        (HASH.hash_one(name.as_bytes()) as usize) & (buckets - 1)
    }

    /// The pairs that may list `name`: those of its bucket
    fn candidates(&self, name: &str) -> &[(&'static str, usize)] {
        let bucket = self.bucket(name);
        match (self.starts.get(bucket), self.starts.get(bucket + 1)) {
            (Some(&start), Some(&end)) => self.pairs.get(start..end).unwrap_or_default(),
            _ => &[],
        }
    }
}

/// The positions of `rows` that list each name `names` gives of a row
pub(crate) fn index<T>(
    rows: &'static [T],
    names: impl Fn(&'static T) -> &'static [&'static str],
) -> Index {
    let listed: Vec<(&'static str, usize)> = rows
        .iter()
        .enumerate()
        .flat_map(|(at, row)| names(row).iter().map(move |name| (*name, at)))
        .collect();
    // About one pair per bucket: a lookup compares a name with one or two pairs.
    let buckets = listed.len().max(1).next_power_of_two();
    let mut index = Index {
        pairs: Box::default(),
        starts: vec![0; buckets + 1].into_boxed_slice(),
    };
    let in_bucket: Vec<usize> = listed.iter().map(|(name, _)| index.bucket(name)).collect();
    let mut counts = vec![0usize; buckets + 1];
    for &bucket in &in_bucket {
        if let Some(count) = counts.get_mut(bucket + 1) {
            *count += 1;
        }
    }
    for at in 1..counts.len() {
        let before = counts.get(at - 1).copied().unwrap_or(0);
        if let Some(count) = counts.get_mut(at) {
            *count += before;
        }
    }
    let mut next = counts.clone();
    let mut pairs = vec![("", 0); listed.len()];
    for (pair, bucket) in listed.into_iter().zip(in_bucket) {
        if let Some(slot) = next.get_mut(bucket) {
            if let Some(place) = pairs.get_mut(*slot) {
                *place = pair;
            }
            *slot += 1;
        }
    }
    index.pairs = pairs.into_boxed_slice();
    index.starts = counts.into_boxed_slice();
    index
}

/// The rows of `rows` that list `name`, in the table's order
pub(crate) fn rows<'n, T>(
    rows: &'static [T],
    by_name: &'static Index,
    name: &'n str,
) -> impl Iterator<Item = &'static T> + 'n {
    positions(by_name, name).filter_map(move |at| rows.get(at))
}

/// The positions of the rows that list `name`, each once, in the table's order
pub(crate) fn positions<'n>(
    by_name: &'static Index,
    name: &'n str,
) -> impl Iterator<Item = usize> + 'n {
    // A row's pairs are next to each other in its bucket: a row that lists a name twice
    // gives it once.
    let mut last = None;
    by_name
        .candidates(name)
        .iter()
        .filter(move |(listed, _)| listed.len() == name.len() && *listed == name)
        .map(|(_, at)| *at)
        .filter(move |at| last.replace(*at) != Some(*at))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Row {
        names: &'static [&'static str],
    }

    static TABLE: &[Row] = &[
        Row {
            names: &["cp", "gcp"],
        },
        Row { names: &["tee"] },
        Row {
            names: &["cp", "cp"],
        },
    ];

    static BY_NAME: ByName = LazyLock::new(|| index(TABLE, |row| row.names));
    static EMPTY: ByName = LazyLock::new(|| index(&[] as &[Row], |row| row.names));

    fn positions(name: &str) -> Vec<usize> {
        rows(TABLE, &BY_NAME, name)
            .map(|row| {
                TABLE
                    .iter()
                    .position(|other| std::ptr::eq(other, row))
                    .unwrap_or(usize::MAX)
            })
            .collect()
    }

    #[test]
    fn a_name_finds_every_row_listing_it_once_in_the_tables_order() {
        assert_eq!(positions("cp"), vec![0, 2]);
        assert_eq!(positions("gcp"), vec![0]);
        assert_eq!(positions("tee"), vec![1]);
        assert_eq!(positions("c"), Vec::<usize>::new());
        assert_eq!(positions(""), Vec::<usize>::new());
        assert_eq!(super::positions(&EMPTY, "cp").count(), 0);
    }

    proptest::proptest! {
        /// Every name finds the rows that list it, in order, as a scan of the table does
        #[test]
        fn a_lookup_finds_what_a_scan_finds(
            table in proptest::collection::vec(proptest::collection::vec("[a-d]{0,3}", 0..4), 0..60),
            asked in "[a-d]{0,3}",
        ) {
            let table: &'static [Vec<&'static str>] = table
                .into_iter()
                .map(|names| names.into_iter().map(|name| &*name.leak()).collect())
                .collect::<Vec<_>>()
                .leak();
            let by_name: &'static Index = Box::leak(Box::new(index(table, |names| names.as_slice())));
            let scanned: Vec<usize> = table
                .iter()
                .enumerate()
                .filter(|(_, names)| names.contains(&asked.as_str()))
                .map(|(at, _)| at)
                .collect();
            let found: Vec<usize> = super::positions(by_name, &asked).collect();
            proptest::prop_assert_eq!(found, scanned);
        }
    }
}
