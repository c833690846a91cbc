//! A line's commands grouped by the program they run, so that a test of a program is asked
//! once per name rather than once per command: the 1 KB line of `bench/` runs 49 commands
//! of 8 programs, and most shell conditions are settled by the program alone.

use std::collections::HashMap;

use rulesc_shell::Script;

use super::hides_program;
use crate::vocabulary::{ShellCondition, ShellWord};

/// The distinct programs of a read line, and which one each command runs
pub(super) struct Programs {
    /// For each distinct name, the index of the first command that runs it
    first: Vec<usize>,
    /// For each command, the index of its name in `first`; `None` when its program is only
    /// known at run time, where every test of a program is undecidable
    of_command: Vec<Option<usize>>,
    /// Whether some command's program is only known at run time
    hidden: bool,
}

impl Programs {
    /// The programs of `script`'s commands
    pub(super) fn of(script: &Script) -> Programs {
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut first = Vec::new();
        let mut hidden = false;
        let of_command = script
            .commands
            .iter()
            .enumerate()
            .map(|(at, command)| {
                if hides_program(command) {
                    hidden = true;
                    return None;
                }
                Some(*index.entry(command.program.as_str()).or_insert_with(|| {
                    first.push(at);
                    first.len() - 1
                }))
            })
            .collect();
        Programs {
            first,
            of_command,
            hidden,
        }
    }

    /// Whether some command's program is only known at run time
    pub(super) fn hidden(&self) -> bool {
        self.hidden
    }

    /// Each distinct program name of `script`, which these are the programs of
    pub(super) fn names<'s>(&'s self, script: &'s Script) -> impl Iterator<Item = &'s str> {
        self.first.iter().map(move |&at| {
            script
                .commands
                .get(at)
                .map_or("", |command| command.program.as_str())
        })
    }

    /// Which distinct program command `at` runs, as [`Programs::names`] counts them; `None`
    /// when it is only known at run time
    pub(super) fn of_command(&self, at: usize) -> Option<usize> {
        self.of_command.get(at).copied().flatten()
    }
}

/// What a shell condition is worth on the commands that run one program, as far as its tests
/// of the program tell
pub(super) enum OnProgram<'c> {
    /// The program settles it (`program == "rm" and ...` on `git`)
    Settled(bool),
    /// The parts of its top `or` (`any`) or `and` that the program leaves open, to walk on
    /// each command; the others are worth what does not change the whole (false parts of an
    /// `or`, true parts of an `and`)
    Open {
        any: bool,
        parts: Vec<&'c ShellCondition>,
    },
}

impl<'c> OnProgram<'c> {
    /// What `condition` is worth on the commands that run `program`
    pub(super) fn of(condition: &'c ShellCondition, program: &str) -> OnProgram<'c> {
        let (any, parts) = match condition {
            ShellCondition::Any(parts) => (true, parts.as_slice()),
            ShellCondition::All(parts) => (false, parts.as_slice()),
            other => {
                return match settled_by(other, program) {
                    Some(value) => OnProgram::Settled(value),
                    None => OnProgram::Open {
                        any: true,
                        parts: vec![other],
                    },
                }
            }
        };
        let mut open = Vec::new();
        for part in parts {
            match settled_by(part, program) {
                Some(value) if value == any => return OnProgram::Settled(any),
                Some(_) => {}
                None => open.push(part),
            }
        }
        if open.is_empty() {
            OnProgram::Settled(!any)
        } else {
            OnProgram::Open { any, parts: open }
        }
    }
}

/// What `condition` is worth on every command whose program is `program`, whatever else the
/// command holds: `Some` when its tests of the program settle it, `None` when its other
/// parts matter. A part other than a test of the program may be undecidable on a command,
/// but never makes a conjunction with a false part, or a disjunction with a true one,
/// anything else.
fn settled_by(condition: &ShellCondition, program: &str) -> Option<bool> {
    match condition {
        ShellCondition::Word {
            word: ShellWord::Program,
            test,
        } => Some(test.is_match(program)),
        ShellCondition::All(parts) => settled_parts(parts, program, false),
        ShellCondition::Any(parts) => settled_parts(parts, program, true),
        ShellCondition::Not(part) => settled_by(part, program).map(|value| !value),
        _ => None,
    }
}

/// What parts joined by `or` (`deciding` true) or `and` (false) are worth on `program`: one
/// part worth `deciding` settles them, and all of them settled the other way do
fn settled_parts(parts: &[ShellCondition], program: &str, deciding: bool) -> Option<bool> {
    let mut settled = Some(!deciding);
    for part in parts {
        match settled_by(part, program) {
            Some(value) if value == deciding => return Some(deciding),
            Some(_) => {}
            None => settled = None,
        }
    }
    settled
}

#[cfg(test)]
mod tests {
    use rulesc_shell::{Part, Script, SimpleCommand, Unknown};

    use super::{settled_by, OnProgram, Programs};
    use crate::shell::{command_truth, joined, Truth};
    use crate::vocabulary::{RegexPattern, ShellCondition, ShellWord, WordTest};

    fn program(name: &str) -> ShellCondition {
        ShellCondition::Word {
            word: ShellWord::Program,
            test: WordTest::Equals(name.to_owned()),
        }
    }

    fn flag(name: &str) -> ShellCondition {
        ShellCondition::Flag(name.to_owned())
    }

    fn written(regex: &str) -> ShellCondition {
        ShellCondition::Word {
            word: ShellWord::Written,
            test: WordTest::Regex(RegexPattern::new(regex).expect("the pattern compiles")),
        }
    }

    fn command(program: &str, flags: &[&str], unknown: Vec<Part>) -> SimpleCommand {
        SimpleCommand {
            program: program.to_owned(),
            flags: flags.iter().map(|flag| (*flag).to_owned()).collect(),
            unknown: unknown
                .into_iter()
                .map(|part| Unknown {
                    part,
                    why: "set at run time".to_owned(),
                })
                .collect(),
            ..SimpleCommand::default()
        }
    }

    /// A word after the program only known at run time, which may be any flag
    fn unknown_word() -> Part {
        Part::Word {
            prefix: String::new(),
            suffix: String::new(),
            split: true,
            name: false,
            dir: None,
        }
    }

    #[test]
    fn the_program_settles_what_tests_it_and_leaves_the_rest_open() {
        let rm_r = ShellCondition::All(vec![program("rm"), flag("-r")]);
        assert_eq!(settled_by(&rm_r, "git"), Some(false));
        assert_eq!(settled_by(&rm_r, "rm"), None);
        let either = ShellCondition::Any(vec![rm_r.clone(), written("^/etc/")]);
        assert_eq!(settled_by(&either, "git"), None);
        let alternatives = ShellCondition::Any(vec![
            rm_r,
            ShellCondition::All(vec![program("chmod"), flag("-R")]),
        ]);
        assert_eq!(settled_by(&alternatives, "git"), Some(false));
        assert_eq!(settled_by(&alternatives, "chmod"), None);
        let rm_or_written = ShellCondition::Any(vec![program("rm"), written("^/etc/")]);
        assert_eq!(settled_by(&rm_or_written, "rm"), Some(true));
        let not_ls = ShellCondition::Not(Box::new(program("ls")));
        assert_eq!(settled_by(&not_ls, "ls"), Some(false));
        assert_eq!(settled_by(&not_ls, "rm"), Some(true));
        // `stdin_from(...)` tests the commands feeding this one, not its own program.
        let fed = ShellCondition::StdinFrom(Box::new(program("curl")));
        assert_eq!(settled_by(&fed, "curl"), None);
        assert_eq!(
            settled_by(&ShellCondition::All(Vec::new()), "rm"),
            Some(true)
        );
        assert_eq!(
            settled_by(&ShellCondition::Any(Vec::new()), "rm"),
            Some(false)
        );
    }

    #[test]
    fn only_the_parts_the_program_leaves_open_are_walked() {
        let disks = ShellCondition::Any(vec![
            ShellCondition::All(vec![program("sfdisk"), flag("-f")]),
            program("sg_format"),
            written("^/dev/sd"),
        ]);
        let open = |on: OnProgram<'_>| match on {
            OnProgram::Open { any, parts } => Some((any, parts.len())),
            OnProgram::Settled(_) => None,
        };
        assert_eq!(open(OnProgram::of(&disks, "git")), Some((true, 1)));
        assert_eq!(open(OnProgram::of(&disks, "sfdisk")), Some((true, 2)));
        assert!(matches!(
            OnProgram::of(&disks, "sg_format"),
            OnProgram::Settled(true)
        ));
        let rm_r = ShellCondition::All(vec![program("rm"), flag("-r")]);
        assert!(matches!(
            OnProgram::of(&rm_r, "git"),
            OnProgram::Settled(false)
        ));
        assert_eq!(open(OnProgram::of(&rm_r, "rm")), Some((false, 1)));
        assert_eq!(open(OnProgram::of(&flag("-r"), "rm")), Some((true, 1)));
    }

    #[test]
    fn what_the_program_leaves_is_what_the_whole_command_is_worth() {
        let conditions = [
            ShellCondition::All(vec![flag("-r"), program("rm")]),
            ShellCondition::Any(vec![
                ShellCondition::All(vec![flag("-f"), program("rm")]),
                program("sudo"),
                flag("-x"),
            ]),
            ShellCondition::Not(Box::new(ShellCondition::All(vec![
                program("git"),
                flag("--force"),
            ]))),
            ShellCondition::Any(vec![
                flag("-x"),
                ShellCondition::Not(Box::new(program("rm"))),
            ]),
            ShellCondition::All(vec![
                ShellCondition::Not(Box::new(program("ls"))),
                flag("-r"),
                ShellCondition::Any(vec![program("rm"), flag("-f")]),
            ]),
        ];
        // Commands whose other parts are true, false and undecidable (an unknown word may
        // be any flag).
        let commands = [
            command("rm", &["-r", "-f", "-x"], Vec::new()),
            command("rm", &[], Vec::new()),
            command("rm", &[], vec![unknown_word()]),
            command("git", &["--force"], vec![unknown_word()]),
            command("sudo", &["-r"], Vec::new()),
            command("ls", &["-r"], Vec::new()),
        ];
        let script = Script {
            commands: commands.to_vec(),
        };
        for condition in &conditions {
            for command in &commands {
                for only_true in [false, true] {
                    let walked = command_truth(condition, command, &script, None, only_true);
                    let left = match OnProgram::of(condition, &command.program) {
                        OnProgram::Settled(value) => Truth::from(value),
                        OnProgram::Open { any, parts } => {
                            joined(parts, any, command, &script, None, only_true)
                        }
                    };
                    // Asked only whether it is true, false and undecidable are the same.
                    let same = if only_true {
                        (walked == Truth::True) == (left == Truth::True)
                    } else {
                        walked == left
                    };
                    assert!(
                        same,
                        "{condition:?} on {command:?}: walked {walked:?}, left {left:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn commands_are_grouped_by_their_program() {
        let script = Script {
            commands: vec![
                command("rm", &[], Vec::new()),
                command("git", &[], Vec::new()),
                command("rm", &["-r"], Vec::new()),
                command("", &[], vec![Part::Program]),
            ],
        };
        let programs = Programs::of(&script);
        assert_eq!(programs.names(&script).collect::<Vec<_>>(), ["rm", "git"]);
        let of: Vec<_> = (0..5).map(|at| programs.of_command(at)).collect();
        assert_eq!(of, [Some(0), Some(1), Some(0), None, None]);
        assert!(programs.hidden());
        let plain = Script {
            commands: script.commands[..3].to_vec(),
        };
        assert!(!Programs::of(&plain).hidden());
    }
}
