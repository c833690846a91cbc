//! The known disagreements, checked in as `tests/shell_oracle/expected.txt`: one per line,
//! `KIND<TAB>SOURCE<TAB>LINE<TAB>REASON`, where KIND is `miss` (bash ran a program the reader
//! did not see) or `flip` (the guard allows a rewrite of a line it stops), SOURCE where the
//! line comes from, LINE the command line (`\n`, `\t` and `\\` escaped) and REASON why the
//! reader disagrees today. The test compares KIND and LINE; `RULESC_ORACLE_BLESS=1` writes
//! the file anew from a run, keeping the reasons of the entries that stay and giving new ones
//! the reason `?`, which the test refuses until a person writes one.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// The file's path
pub(crate) fn path() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/shell_oracle/expected.txt"
    ))
}

/// One known disagreement
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Entry {
    /// `miss` or `flip`
    pub(crate) kind: String,
    /// Where the line comes from: a corpus file, or `rewrite FAMILY`
    pub(crate) source: String,
    /// The command line
    pub(crate) line: String,
    /// Why the reader disagrees on it today
    pub(crate) reason: String,
}

impl Entry {
    /// What the test compares: the kind and the line
    pub(crate) fn key(&self) -> (String, String) {
        (self.kind.clone(), self.line.clone())
    }
}

/// The entries of the file, by key
pub(crate) fn read() -> BTreeMap<(String, String), Entry> {
    let text = std::fs::read_to_string(path()).unwrap_or_default();
    text.lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut fields = line.splitn(4, '\t');
            let mut next = || fields.next().unwrap_or_default().to_owned();
            let (kind, source, line, reason) = (next(), next(), unescape(&next()), next());
            let entry = Entry {
                kind,
                source,
                line,
                reason,
            };
            (entry.key(), entry)
        })
        .collect()
}

/// Writes `entries` as the file, with its header
pub(crate) fn write(entries: &[Entry]) -> std::io::Result<()> {
    let mut text = String::from(
        "# Known disagreements of the shell oracle (tests/shell_oracle.rs, docs/shell.md):\n\
         # KIND<TAB>SOURCE<TAB>LINE<TAB>REASON. `miss`: bash ran a program the reader did not\n\
         # see; `flip`: rules/safe-shell.rules allows a rewrite of a line it stops. A line that\n\
         # leaves this list, or joins it, fails the test until the list is updated.\n",
    );
    for entry in entries {
        text.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            entry.kind,
            entry.source,
            escape(&entry.line),
            entry.reason
        ));
    }
    std::fs::write(path(), text)
}

fn escape(line: &str) -> String {
    line.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\t', "\\t")
}

fn unescape(field: &str) -> String {
    let mut line = String::new();
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            line.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => line.push('\n'),
            Some('t') => line.push('\t'),
            Some(other) => line.push(other),
            None => line.push('\\'),
        }
    }
    line
}
