//! The program names the loaded policies test, which the reader watches as its own tables'.
//!
//! Behind a program the reader has no row for, the words are read as a command from the
//! first that names a program a guard watches (`unlisted.rs`). What a guard watches is
//! what its conditions test: a policy that tests `program == "terraform"` must see
//! `terraform destroy` in `eatmydata terraform destroy`, though no table of the reader
//! names `terraform`. So the policies' tests of the program, as far as their literal
//! parts tell, come with the [`Context`](crate::Context) of each reading.

use std::sync::Arc;

/// What a policy's test of a program tells of the names it passes: every name it passes
/// passes this
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WatchedName {
    /// This name, as written (`program == "terraform"`, `program in [...]`)
    Is(Box<str>),
    /// A name that starts with this text, ASCII case ignored (`program ~ "kafka-*"`)
    StartsWith(Box<str>),
    /// A name that ends with this text, ASCII case ignored (`program ~ "*-nuke"`)
    EndsWith(Box<str>),
    /// A name that holds this text, ASCII case ignored (a needle of `program =~ "..."`)
    Holds(Box<str>),
    /// Any name: a test with no literal part to go by (`program =~ "^[a-z]{3}$"`)
    Any,
}

/// The names the loaded policies watch; cheap to clone, and empty by default
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchedNames(Option<Arc<Names>>);

/// The names of [`WatchedNames`]. A hook call reads them from its cache each time it reads a
/// command line, hundreds of exact names, and most lines ask for none: so these are one
/// string, kept as read, and a name is found in it by a substring search, not an index
/// built first (which cost a Bash call more than reading its line).
#[derive(Debug, PartialEq, Eq)]
struct Names {
    /// The exact names, each ended by a NUL (no program's name holds one), after a NUL that
    /// starts the first: a name is listed when `NUL name NUL` is found
    exact: Box<str>,
    /// The other kinds, sorted, each once
    parts: Box<[WatchedName]>,
}

/// What ends each name of [`Names::exact`]
const END: char = '\0';

impl WatchedNames {
    /// The names `watched` gives, in any order
    pub fn new(watched: impl IntoIterator<Item = WatchedName>) -> WatchedNames {
        let mut exact = Vec::new();
        let mut parts = Vec::new();
        for name in watched {
            match name {
                WatchedName::Is(name) => exact.push(name),
                other => parts.push(other),
            }
        }
        exact.sort_unstable();
        exact.dedup();
        let mut joined = String::new();
        for name in &exact {
            joined.push_str(name);
            joined.push(END);
        }
        WatchedNames::joined(&joined, parts)
    }

    /// The names of a text as [`WatchedNames::exact`] writes it and `parts`, of the other
    /// kinds
    pub fn joined(exact: &str, parts: impl IntoIterator<Item = WatchedName>) -> WatchedNames {
        let mut parts: Vec<WatchedName> = parts.into_iter().collect();
        parts.sort_unstable();
        parts.dedup();
        if exact.is_empty() && parts.is_empty() {
            return WatchedNames::default();
        }
        let mut ended = String::with_capacity(exact.len() + 2);
        ended.push(END);
        ended.push_str(exact);
        if !exact.is_empty() && !exact.ends_with(END) {
            ended.push(END);
        }
        WatchedNames(Some(Arc::new(Names {
            exact: ended.into_boxed_str(),
            parts: parts.into_boxed_slice(),
        })))
    }

    /// The exact names, each ended by a NUL, as [`WatchedNames::joined`] reads them (sorted,
    /// when [`WatchedNames::new`] made them)
    pub fn exact(&self) -> &str {
        self.0
            .as_deref()
            .and_then(|names| names.exact.get(END.len_utf8()..))
            .unwrap_or_default()
    }

    /// The names of every other kind, sorted
    pub fn parts(&self) -> &[WatchedName] {
        self.0.as_deref().map_or(&[], |names| &names.parts)
    }

    /// Every name, the exact ones first
    pub fn iter(&self) -> impl Iterator<Item = WatchedName> + '_ {
        self.exact()
            .split_terminator(END)
            .map(|name| WatchedName::Is(name.into()))
            .chain(self.parts().iter().cloned())
    }

    /// Whether a test of the policies may pass `name`. A name outside ASCII passes every
    /// part: the needles of a regular expression speak only for ASCII texts.
    pub(crate) fn may_pass(&self, name: &str) -> bool {
        let Some(names) = self.0.as_deref() else {
            return false;
        };
        // A NUL ends every listed name, so no name that holds one is listed.
        let listed = || {
            if name.contains(END) {
                return false;
            }
            let mut needle = String::with_capacity(name.len() + 2);
            needle.push(END);
            needle.push_str(name);
            needle.push(END);
            memchr::memmem::find(names.exact.as_bytes(), needle.as_bytes()).is_some()
        };
        if listed() {
            return true;
        }
        names.parts.iter().any(|part| match part {
            WatchedName::Is(_) => false,
            WatchedName::Any => true,
            _ if !name.is_ascii() => true,
            WatchedName::StartsWith(start) => name
                .get(..start.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(start)),
            WatchedName::EndsWith(end) => name
                .len()
                .checked_sub(end.len())
                .and_then(|at| name.get(at..))
                .is_some_and(|tail| tail.eq_ignore_ascii_case(end)),
            WatchedName::Holds(needle) => {
                needle.is_empty()
                    || name
                        .as_bytes()
                        .windows(needle.len())
                        .any(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
            }
        })
    }
}

impl FromIterator<WatchedName> for WatchedNames {
    fn from_iter<I: IntoIterator<Item = WatchedName>>(watched: I) -> WatchedNames {
        WatchedNames::new(watched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watched(names: &[WatchedName]) -> WatchedNames {
        names.iter().cloned().collect()
    }

    fn is(name: &str) -> WatchedName {
        WatchedName::Is(name.into())
    }

    #[test]
    fn nothing_is_watched_by_default() {
        let none = WatchedNames::default();
        assert!(!none.may_pass("terraform"));
        assert_eq!(watched(&[]), none);
    }

    #[test]
    fn an_exact_name_passes_itself_alone() {
        let names = watched(&[is("terraform"), is("kubectl"), is("helm"), is("kubectl")]);
        for name in ["terraform", "kubectl", "helm"] {
            assert!(names.may_pass(name), "{name}");
        }
        for name in [
            "Terraform",
            "terraform2",
            "kube",
            "",
            "make",
            "terraform destroy",
        ] {
            assert!(!names.may_pass(name), "{name}");
        }
        assert_eq!(names.iter().count(), 3, "each once");
    }

    #[test]
    fn parts_pass_the_names_their_globs_could() {
        let names = watched(&[
            WatchedName::StartsWith("kafka-delete-records".into()),
            WatchedName::EndsWith("-nuke".into()),
            WatchedName::Holds("typeorm".into()),
        ]);
        for name in [
            "kafka-delete-records",
            "kafka-delete-records.sh",
            "aws-nuke",
            "cloud-NUKE",
            "npx-typeorm-cli",
            "tëst",
        ] {
            assert!(names.may_pass(name), "{name}");
        }
        for name in ["kafka-topics", "nuke", "nuke-aws", "typeor", "make", ""] {
            assert!(!names.may_pass(name), "{name}");
        }
    }

    #[test]
    fn names_joined_in_any_order_pass_themselves_alone() {
        let read = WatchedNames::joined("terraform\0helm\0helm\0", []);
        let unended = WatchedNames::joined("helm\0terraform", []);
        for names in [&read, &unended] {
            for name in ["helm", "terraform"] {
                assert!(names.may_pass(name), "{name}");
            }
            for name in ["hel", "elm", "m", "", "helm\0terraform", "terraform\0"] {
                assert!(!names.may_pass(name), "{name:?}");
            }
        }
        assert_eq!(unended.exact(), "helm\0terraform\0");
        assert_eq!(
            watched(&[is("terraform"), is("helm")]).exact(),
            "helm\0terraform\0"
        );
    }

    #[test]
    fn any_passes_every_name() {
        let names = watched(&[WatchedName::Any]);
        assert!(names.may_pass("make"));
        assert!(names.may_pass(""));
    }
}
