//! The rows of a knowledge table found by a program's name. Every simple command of a line
//! is looked up in each table, and most names a table is asked for are in none of its rows:
//! a [`NameFilter`] of its names answers those in a few instructions. A name it may hold is
//! then looked for among the table's (name, row) pairs, in the table's order.
//!
//! A hook call is a process of its own, so whatever is built here is built on every call.
//! Sorting the pairs to search them by halves cost a call more than reading a line of a few
//! commands, which asks for a handful of names a table holds: so the pairs are kept as the
//! table lists them, and a name the filter passes is compared with each, by length first.

use std::sync::LazyLock;

use crate::name_filter::NameFilter;

/// A table's rows by each name they list, built once per process
pub(crate) type ByName = LazyLock<Index>;

/// (name, position) pairs in the table's order, and a filter of the names
pub(crate) struct Index {
    pairs: Box<[(&'static str, usize)]>,
    names: NameFilter,
}

/// The positions of `rows` that list each name `names` gives of a row
pub(crate) fn index<T>(
    rows: &'static [T],
    names: impl Fn(&'static T) -> &'static [&'static str],
) -> Index {
    let pairs: Vec<(&'static str, usize)> = rows
        .iter()
        .enumerate()
        .flat_map(|(at, row)| names(row).iter().map(move |name| (*name, at)))
        .collect();
    Index {
        names: pairs.iter().map(|(name, _)| *name).collect(),
        pairs: pairs.into_boxed_slice(),
    }
}

/// The rows of `rows` that list `name`, in the table's order
pub(crate) fn rows<'n, T>(
    rows: &'static [T],
    by_name: &'static ByName,
    name: &'n str,
) -> impl Iterator<Item = &'static T> + 'n {
    positions(by_name, name).filter_map(move |at| rows.get(at))
}

/// The positions of the rows that list `name`, each once, in the table's order
pub(crate) fn positions<'n>(
    by_name: &'static ByName,
    name: &'n str,
) -> impl Iterator<Item = usize> + 'n {
    let pairs = if by_name.names.may_hold(name) {
        &by_name.pairs[..]
    } else {
        &[]
    };
    // A row's pairs are next to each other: a row that lists a name twice gives it once.
    let mut last = None;
    pairs
        .iter()
        .filter(move |(listed, _)| listed.len() == name.len() && *listed == name)
        .map(|(_, at)| *at)
        .filter(move |at| last.replace(*at) != Some(*at))
}

/// The order of sorted name lists: by length, then by bytes. Most names a search passes
/// differ in length, so it compares bytes only among names as long as the one it looks for.
pub(crate) fn by_length(one: &str, other: &str) -> std::cmp::Ordering {
    one.len().cmp(&other.len()).then_with(|| one.cmp(other))
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
    }
}
