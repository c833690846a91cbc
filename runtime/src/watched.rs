//! The program names a policy's shell conditions test, which the shell reader watches behind
//! a program it has no row for (`rulesc_shell::WatchedNames`): `eatmydata terraform destroy`
//! runs `terraform destroy` as far as a policy that tests `program == "terraform"` can tell.
//!
//! They are worked out once, when a policy is built, from every test of the program in a
//! positive place of its conditions (a test under `not` holds of the unlisted program's own
//! command already). The compact form keeps them apart, encoded, and a call decodes them
//! only when it reads a command line: a call of another tool never does.

use std::sync::OnceLock;

use rulesc_shell::{WatchedName, WatchedNames};

use crate::shared_bytes::SharedPart;
use crate::vocabulary::{Condition, ShellCondition, ShellWord, TraceTerm};

/// A policy's watched names, worked out or encoded
#[derive(Debug)]
pub(crate) struct Watched {
    /// The names as [`Watched::encode`] wrote them, when read from the compact form
    encoded: SharedPart,
    names: OnceLock<WatchedNames>,
}

/// How each kind of [`WatchedName`] but the exact one is written
const STARTS_WITH: u8 = 1;
const ENDS_WITH: u8 = 2;
const HOLDS: u8 = 3;
const ANY: u8 = 4;

impl Watched {
    /// The names `conditions` test, worked out now
    pub(crate) fn of<'c>(conditions: impl IntoIterator<Item = &'c Condition>) -> Watched {
        let mut names = Vec::new();
        for condition in conditions {
            tested(condition, true, &mut names);
        }
        Watched {
            encoded: SharedPart::default(),
            names: OnceLock::from(WatchedNames::new(names)),
        }
    }

    /// The names [`Watched::encode`] wrote, decoded when first asked
    pub(crate) fn encoded(encoded: SharedPart) -> Watched {
        Watched {
            encoded,
            names: OnceLock::new(),
        }
    }

    /// The names. Bytes that do not decode (which the compact form's checksum rules out)
    /// give any name: every word behind an unlisted program is read as a command.
    pub(crate) fn names(&self) -> &WatchedNames {
        self.names.get_or_init(|| {
            postcard::from_bytes::<(&str, Vec<(u8, &str)>)>(self.encoded.bytes()).map_or_else(
                |_| WatchedNames::new([WatchedName::Any]),
                |(exact, parts)| {
                    let parts = parts.into_iter().map(|(kind, text)| match kind {
                        STARTS_WITH => WatchedName::StartsWith(text.into()),
                        ENDS_WITH => WatchedName::EndsWith(text.into()),
                        HOLDS => WatchedName::Holds(text.into()),
                        _ => WatchedName::Any,
                    });
                    WatchedNames::joined(exact, parts)
                },
            )
        })
    }

    /// The bytes the compact form keeps of the names: the exact ones as one text, then each
    /// other with its kind
    pub(crate) fn encode(&self) -> Result<Vec<u8>, postcard::Error> {
        let names = self.names();
        let parts: Vec<(u8, &str)> = names
            .parts()
            .iter()
            .map(|name| match name {
                WatchedName::StartsWith(text) => (STARTS_WITH, &**text),
                WatchedName::EndsWith(text) => (ENDS_WITH, &**text),
                WatchedName::Holds(text) => (HOLDS, &**text),
                WatchedName::Is(_) | WatchedName::Any => (ANY, ""),
            })
            .collect();
        postcard::to_allocvec(&(names.exact(), parts))
    }
}

/// Adds the names the program tests of `condition` pass, where they would make it hold
/// (`positive` is false under an odd number of `not`)
fn tested(condition: &Condition, positive: bool, names: &mut Vec<WatchedName>) {
    match condition {
        Condition::All(parts) | Condition::Any(parts) => {
            for part in parts {
                tested(part, positive, names);
            }
        }
        Condition::Not(part) => tested(part, !positive, names),
        Condition::Shell { condition, .. } => shell_tested(condition, positive, names),
        // A counted event's command is read as the event's own is.
        Condition::Trace(test) => match &test.term {
            TraceTerm::Count {
                when: Some(when), ..
            }
            | TraceTerm::Streak {
                when: Some(when), ..
            } => tested(when, true, names),
            _ => {}
        },
        _ => {}
    }
}

/// [`tested`] for the condition on one simple command
fn shell_tested(condition: &ShellCondition, positive: bool, names: &mut Vec<WatchedName>) {
    match condition {
        ShellCondition::All(parts) | ShellCondition::Any(parts) => {
            for part in parts {
                shell_tested(part, positive, names);
            }
        }
        ShellCondition::Not(part) => shell_tested(part, !positive, names),
        ShellCondition::StdinFrom(other) | ShellCondition::StdoutTo(other) => {
            shell_tested(other, positive, names)
        }
        ShellCondition::Word {
            word: ShellWord::Program,
            test,
        } if positive => names.extend(test.watched_names()),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::programs::tests::{program, shell};
    use crate::vocabulary::{GlobPattern, RegexPattern, WordTest};

    fn glob(source: &str) -> WordTest {
        WordTest::Glob(GlobPattern::new(source).unwrap())
    }

    fn names_of(conditions: &[Condition]) -> Vec<WatchedName> {
        Watched::of(conditions).names().iter().collect()
    }

    fn is(name: &str) -> WatchedName {
        WatchedName::Is(name.into())
    }

    #[test]
    fn exact_names_and_the_literal_ends_of_globs_are_watched() {
        let condition = shell(ShellCondition::All(vec![
            ShellCondition::Any(vec![
                program(WordTest::Equals("terraform".to_owned())),
                program(WordTest::In(["helm", "kubectl"].iter().collect())),
                program(glob("kafka-delete-records*")),
                program(glob("*-nuke")),
                program(glob("aws")),
            ]),
            ShellCondition::Flag("-f".to_owned()),
        ]));
        assert_eq!(
            names_of(&[condition]),
            [
                is("aws"),
                is("helm"),
                is("kubectl"),
                is("terraform"),
                WatchedName::StartsWith("kafka-delete-records".into()),
                WatchedName::EndsWith("-nuke".into()),
            ]
        );
    }

    #[test]
    fn a_pattern_gives_what_every_match_holds_or_any_name() {
        let regex = |source: &str| program(WordTest::Regex(RegexPattern::new(source).unwrap()));
        assert_eq!(
            names_of(&[shell(regex("^(psql|mysql)$"))]),
            [
                WatchedName::Holds("mysql".into()),
                WatchedName::Holds("psql".into())
            ]
        );
        assert_eq!(names_of(&[shell(regex("^[a-z]{3}$"))]), [WatchedName::Any]);
        assert_eq!(
            names_of(&[shell(program(glob("dropdb-?")))]),
            [WatchedName::Holds("dropdb-".into())]
        );
    }

    #[test]
    fn tests_every_name_passes_kinds_and_tests_under_not_watch_nothing() {
        let conditions = [
            shell(program(glob("*"))),
            shell(program(WordTest::Contains(String::new()))),
            shell(program(WordTest::Kind("shell".to_owned()))),
            shell(ShellCondition::Not(Box::new(program(WordTest::Equals(
                "echo".to_owned(),
            ))))),
            Condition::Not(Box::new(shell(program(WordTest::Equals("ls".to_owned()))))),
            shell(ShellCondition::Word {
                word: ShellWord::Operand,
                test: WordTest::Equals("terraform".to_owned()),
            }),
        ];
        assert_eq!(names_of(&conditions), []);
        let twice = Condition::Not(Box::new(shell(ShellCondition::Not(Box::new(program(
            WordTest::Equals("rm".to_owned()),
        ))))));
        assert_eq!(names_of(&[twice]), [is("rm")]);
    }

    #[test]
    fn the_encoded_names_decode_to_the_names() {
        let condition = shell(ShellCondition::Any(vec![
            program(WordTest::In(["helm", "terraform"].iter().collect())),
            program(glob("*-nuke")),
            program(WordTest::Regex(RegexPattern::new("^[a-z]{3}$").unwrap())),
        ]));
        let watched = Watched::of([&condition]);
        let read = Watched::encoded(SharedPart::copied(&watched.encode().unwrap()));
        assert_eq!(read.names(), watched.names());
        assert_eq!(
            Watched::encoded(SharedPart::copied(b"\xff"))
                .names()
                .iter()
                .count(),
            1,
            "any name"
        );
    }
}
