//! The conditions on a shell command's structure: `shell(...)` and `shell.all(...)` and the
//! words that may be tested inside them (docs/shell.md).

use rulesc_shell::WatchedName;
use serde::{Deserialize, Serialize};

use super::matcher::{GlobPattern, GlobShape, RegexPattern};
use super::needles::Needles;
use super::words::Words;

/// Which simple commands of a command line a shell condition must hold for
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantifier {
    /// `shell(...)`: at least one
    Any,
    /// `shell.all(...)`: every one, and there is at least one
    All,
}

/// What a guard does on a command line its shell condition cannot decide before it runs
/// (`@undecidable(...)`, docs/shell.md)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnUndecidable {
    /// Ask the approver, whatever the rule's verb
    Ask,
    /// Fire as the rule is written, with its own verb
    Block,
    /// Do not fire: the rule only acts on what it can decide
    Pass,
}

super::spelled!(OnUndecidable {
    Ask => "ask",
    Block => "block",
    Pass => "pass",
});

/// A condition on one simple command
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShellCondition {
    /// Every part holds
    All(Vec<ShellCondition>),
    /// Some part holds
    Any(Vec<ShellCondition>),
    /// The part does not hold
    Not(Box<ShellCondition>),
    /// `flag("-r")`, `flag("--force")`: the command has this flag
    Flag(String),
    /// `outside_cwd`: some operand, as a path, lies outside the working directory
    OutsideCwd,
    /// `outside_cwd_and_tmp`: some operand, as a path, lies outside the working directory
    /// and outside the temporary folders (`/tmp/...`, `/var/tmp/...`)
    OutsideCwdAndTmp,
    /// `whole_cwd`: some operand, as a path, is the working directory itself or everything
    /// it holds (`.`, `*`, `"$PWD"`, `../app` from `app`)
    WholeCwd,
    /// `output_shown`: the command's output reaches the agent: no substitution captures it,
    /// no command reads it and no redirect sends it to a file
    OutputShown,
    /// `program == "rm"`, `arg ~ "of=/dev/*"`: the word (any of them, for a list) matches
    Word {
        /// Which word is tested
        word: ShellWord,
        /// How it is tested
        test: WordTest,
    },
    /// `stdin_from(...)`: some command whose output reaches this one's input satisfies it
    StdinFrom(Box<ShellCondition>),
    /// `stdout_to(...)`: some command that reads this one's output satisfies it
    StdoutTo(Box<ShellCondition>),
}

/// A word of a simple command that a condition can test
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShellWord {
    /// The program's basename
    Program,
    /// The first operand, after the program's own global options (`git -C repo push`)
    Subcommand,
    /// Any word after the program
    Arg,
    /// Any operand (a word that is not a flag)
    Operand,
    /// Any operand as a normalised path
    Path,
    /// Any output redirect target, as a normalised path
    Redirect,
    /// Any file the command writes, as a normalised path: an output redirect's target, or
    /// a destination a writing program's words name (`cp x /etc/hosts`, `dd of=/dev/sda`)
    Written,
    /// Any variable of the environment the command's words expand, by name (`$AWS_KEY`,
    /// through `${!k}`, a reference, or a variable the line copied it into)
    Expands,
}

super::spelled!(ShellWord {
    Program => "program",
    Subcommand => "subcommand",
    Arg => "arg",
    Operand => "operand",
    Path => "path",
    Redirect => "redirect",
    Written => "written",
    Expands => "expands",
});

/// How a word is tested
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WordTest {
    /// `== "x"`
    Equals(String),
    /// `~ "glob"`
    Glob(GlobPattern),
    /// `=~ "regex"`
    Regex(RegexPattern),
    /// `in ["a", "b"]`
    In(Words),
    /// `contains "x"`
    Contains(String),
    /// `program_is("shell")`: the word is a program of a kind the shell reader knows
    /// ([`rulesc_shell::PROGRAM_KINDS`])
    Kind(String),
}

impl WordTest {
    /// Whether `text` passes the test
    pub fn is_match(&self, text: &str) -> bool {
        match self {
            WordTest::Equals(expected) => same_word(text, expected),
            WordTest::Glob(pattern) => pattern.is_match(text),
            WordTest::Regex(pattern) => pattern.is_match(text),
            WordTest::In(members) => members.contains(text),
            WordTest::Contains(needle) => text.contains(needle.as_str()),
            WordTest::Kind(kind) => {
                rulesc_shell::program_kind(kind).is_some_and(|kind| kind.holds(text))
            }
        }
    }
}

impl WordTest {
    /// What every name that passes this test as a program's has, for the shell reader to
    /// watch behind a program it has no row for (`rulesc_shell::WatchedNames`). A test every
    /// name passes (`~ "*"`, `contains ""`) gives nothing: the unlisted program's own
    /// command passes it, with every word it would run. Neither does a kind, whose programs
    /// the reader watches already. A pattern with no literal part to go by gives
    /// [`WatchedName::Any`], the worst case.
    pub(crate) fn watched_names(&self) -> Vec<WatchedName> {
        match self {
            WordTest::Equals(name) => vec![WatchedName::Is(name.as_str().into())],
            WordTest::In(names) => names
                .iter()
                .map(|name| WatchedName::Is(name.into()))
                .collect(),
            WordTest::Contains(needle) if needle.is_empty() => Vec::new(),
            WordTest::Contains(needle) => vec![WatchedName::Holds(needle.as_str().into())],
            WordTest::Kind(_) => Vec::new(),
            WordTest::Glob(pattern) => match pattern.shape() {
                GlobShape::Literal(name) if !pattern.folds_case() => {
                    vec![WatchedName::Is(name.as_str().into())]
                }
                GlobShape::Literal(text)
                | GlobShape::Prefix(text)
                | GlobShape::Suffix(text)
                | GlobShape::Contains(text)
                    if text.is_empty() =>
                {
                    Vec::new()
                }
                // A literal that ignores case: the names that start with it, in any case.
                GlobShape::Literal(start) | GlobShape::Prefix(start) => {
                    vec![WatchedName::StartsWith(start.as_str().into())]
                }
                GlobShape::Suffix(end) => vec![WatchedName::EndsWith(end.as_str().into())],
                GlobShape::Contains(needle) => vec![WatchedName::Holds(needle.as_str().into())],
                GlobShape::Other => held(pattern.needles()),
            },
            WordTest::Regex(pattern) => held(pattern.needles()),
        }
    }
}

/// The names that hold one of `needles`, or any name when none are known
fn held(needles: Option<Needles>) -> Vec<WatchedName> {
    let Some(needles) = needles else {
        return vec![WatchedName::Any];
    };
    needles
        .iter()
        .map(|needle| WatchedName::Holds(String::from_utf8_lossy(needle).into()))
        .collect()
}

/// Whether two words are equal. Asked of every command for every listed program, mostly of
/// short words that differ: the length and first byte settle most of them without a call
/// to compare the rest.
fn same_word(text: &str, expected: &str) -> bool {
    text.len() == expected.len()
        && text.as_bytes().first() == expected.as_bytes().first()
        && text == expected
}

#[cfg(test)]
mod tests {
    use super::same_word;

    #[test]
    fn words_are_the_same_exactly_when_their_text_is() {
        let words = [
            "", "a", "b", "sh", "cd", "git", "zsh", "ash", "rm", "rmdir", "é", "e",
        ];
        for left in words {
            for right in words {
                assert_eq!(same_word(left, right), left.as_bytes() == right.as_bytes());
            }
        }
    }
}
