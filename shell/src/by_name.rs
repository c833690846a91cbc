//! The rows of a knowledge table found by a program's name. Every simple command of a line
//! is looked up in each table; scanning a table's rows and their lists of names cost a
//! command more than reading its words, so each table is indexed by name once per process.

use std::collections::HashMap;
use std::sync::LazyLock;

/// A table's rows by each name they list, in the table's order
pub(crate) type ByName = LazyLock<HashMap<&'static str, Box<[usize]>>>;

/// The positions of `rows` that list each name `names` gives of a row
pub(crate) fn index<T>(
    rows: &'static [T],
    names: impl Fn(&'static T) -> &'static [&'static str],
) -> HashMap<&'static str, Box<[usize]>> {
    let mut by_name: HashMap<&'static str, Vec<usize>> = HashMap::new();
    for (at, row) in rows.iter().enumerate() {
        for name in names(row) {
            let positions = by_name.entry(name).or_default();
            if positions.last() != Some(&at) {
                positions.push(at);
            }
        }
    }
    by_name
        .into_iter()
        .map(|(name, positions)| (name, positions.into_boxed_slice()))
        .collect()
}

/// The rows of `rows` that list `name`, in the table's order
pub(crate) fn rows<'n, T>(
    rows: &'static [T],
    by_name: &'static ByName,
    name: &'n str,
) -> impl Iterator<Item = &'static T> + 'n {
    by_name
        .get(name)
        .into_iter()
        .flat_map(|positions| positions.iter())
        .filter_map(move |at| rows.get(*at))
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
