//! Shell conditions on the command of a shell tool call (docs/shell.md): the command line is
//! read at most once per event, and only when a rule asks.

use std::cell::OnceCell;

use rulesc_shell::{Context, Reading, Script, SimpleCommand};
use serde_json::Value as Json;

use crate::event::Event;
use crate::vocabulary::{Quantifier, ShellCondition, ShellWord, WordTest};

/// The tools whose `command` argument is a shell command line when the embedding
/// application declares none: Claude Code's and Codex's `Bash`, Gemini CLI's
/// `run_shell_command`, and the `bash` and `shell` tools of agent frameworks
pub const DEFAULT_SHELL_TOOLS: &[&str] = &["Bash", "run_shell_command", "bash", "shell"];

/// The command line of one event, read on first use
pub(crate) struct CommandLine<'e> {
    event: &'e Event,
    shell_tools: Option<&'e [String]>,
    reading: OnceCell<Option<Reading>>,
}

impl<'e> CommandLine<'e> {
    /// The command line of `event`, whose tool is a shell when `shell_tools` (or, when
    /// `None`, [`DEFAULT_SHELL_TOOLS`]) names it
    pub(crate) fn new(event: &'e Event, shell_tools: Option<&'e [String]>) -> Self {
        CommandLine {
            event,
            shell_tools,
            reading: OnceCell::new(),
        }
    }

    /// The reading of the command; `None` when the event is no shell tool call
    fn reading(&self) -> Option<&Reading> {
        self.reading.get_or_init(|| self.read()).as_ref()
    }

    fn read(&self) -> Option<Reading> {
        let tool = self.event.tool.as_deref()?;
        let is_shell = match self.shell_tools {
            Some(tools) => tools.iter().any(|name| name == tool),
            None => DEFAULT_SHELL_TOOLS.contains(&tool),
        };
        if !is_shell {
            return None;
        }
        // A shell call whose command line is missing or not text (an argument vector, a
        // number) cannot be judged, so it is unreadable: guards hold, allows fail.
        let unreadable = Some(Reading::Unreadable(rulesc_shell::Unreadable::Syntax));
        let Some(arg) = self.event.arg.as_ref() else {
            return unreadable;
        };
        let Some(Json::String(line)) = arg.get("command") else {
            return unreadable;
        };
        // Gemini CLI runs a command in `dir_path` when it gives one, relative to the project.
        let cwd = match (arg.get("dir_path").and_then(Json::as_str), &self.event.cwd) {
            (Some(dir), _) if dir.starts_with('/') => Some(dir.to_owned()),
            (Some(dir), Some(cwd)) => Some(format!("{cwd}/{dir}")),
            (_, cwd) => cwd.clone(),
        };
        let context = Context { cwd, home: None };
        Some(rulesc_shell::read(line, &context))
    }
}

/// Whether a shell condition holds; `unreadable` is its value when the command line
/// cannot be read (fail closed: the value that lets a guard hold, or an `allow` fail)
pub(crate) fn holds(
    quantifier: Quantifier,
    condition: &ShellCondition,
    line: &CommandLine<'_>,
    unreadable: bool,
) -> bool {
    let script = match line.reading() {
        None => return false,
        Some(Reading::Unreadable(_)) => return unreadable,
        Some(Reading::Read(script)) => script,
    };
    let cwd = line.event.cwd.as_deref();
    let program = program_test(condition);
    // Most conditions begin with a test of the program, which most commands fail: it is
    // asked first and alone, so those commands cost one test instead of the whole walk.
    let holds_for = |command: &SimpleCommand| {
        program.is_none_or(|test| test.is_match(&command.program))
            && command_holds(condition, command, script, cwd)
    };
    let mut commands = script.commands.iter();
    match quantifier {
        Quantifier::Any => commands.any(holds_for),
        Quantifier::All => !script.commands.is_empty() && commands.all(holds_for),
    }
}

/// The test of the program a condition requires to hold: the condition itself or the first
/// of the parts all of which must hold (`program == "rm" and ...`)
fn program_test(condition: &ShellCondition) -> Option<&WordTest> {
    let first = match condition {
        ShellCondition::All(parts) => parts.first()?,
        other => other,
    };
    match first {
        ShellCondition::Word {
            word: ShellWord::Program,
            test,
        } => Some(test),
        _ => None,
    }
}

/// Whether `condition` holds for one simple command of `script`
fn command_holds(
    condition: &ShellCondition,
    command: &SimpleCommand,
    script: &Script,
    cwd: Option<&str>,
) -> bool {
    match condition {
        ShellCondition::All(parts) => parts
            .iter()
            .all(|part| command_holds(part, command, script, cwd)),
        ShellCondition::Any(parts) => parts
            .iter()
            .any(|part| command_holds(part, command, script, cwd)),
        ShellCondition::Not(part) => !command_holds(part, command, script, cwd),
        ShellCondition::Flag(flag) => command.has_flag(flag),
        ShellCondition::OutsideCwd => command.paths.iter().any(|path| outside(path, cwd)),
        ShellCondition::Word { word, test } => match word {
            ShellWord::Program => test.is_match(&command.program),
            ShellWord::Arg => command.args.iter().any(|arg| test.is_match(arg)),
            ShellWord::Operand => command.operands.iter().any(|arg| test.is_match(arg)),
            ShellWord::Path => command.paths.iter().any(|path| test.is_match(path)),
            ShellWord::Redirect => command
                .redirects
                .iter()
                .any(|redirect| test.is_match(&redirect.target)),
        },
        ShellCondition::StdinFrom(inner) => command
            .stdin_from
            .iter()
            .filter_map(|index| script.commands.get(*index))
            .any(|upstream| command_holds(inner, upstream, script, cwd)),
    }
}

/// Whether a normalised path lies outside the working directory; without one, whether it
/// leaves wherever the command runs (absolute, under `~`, or starting with `..`)
fn outside(path: &str, cwd: Option<&str>) -> bool {
    match cwd.filter(|cwd| cwd.starts_with('/')) {
        Some(cwd) => {
            let root = cwd.trim_end_matches('/');
            let inside = path == root
                || path
                    .strip_prefix(root)
                    .is_some_and(|rest| rest.starts_with('/'));
            !inside
        }
        None => {
            path.starts_with('/')
                || path.starts_with('~')
                || path == ".."
                || path.starts_with("../")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{outside, program_test};
    use crate::vocabulary::{ShellCondition, ShellWord, WordTest};

    #[test]
    fn only_a_program_test_every_command_must_pass_is_asked_first() {
        let program = |name: &str| ShellCondition::Word {
            word: ShellWord::Program,
            test: WordTest::Equals(name.to_owned()),
        };
        let rm = WordTest::Equals("rm".to_owned());
        let flag = ShellCondition::Flag("-r".to_owned());
        assert_eq!(program_test(&program("rm")), Some(&rm));
        let all = ShellCondition::All(vec![program("rm"), flag.clone()]);
        assert_eq!(program_test(&all), Some(&rm));
        // Either part may hold, the program need not; nor when it comes second, or negated.
        assert_eq!(
            program_test(&ShellCondition::Any(vec![program("rm"), flag.clone()])),
            None
        );
        assert_eq!(
            program_test(&ShellCondition::All(vec![flag, program("rm")])),
            None
        );
        assert_eq!(
            program_test(&ShellCondition::Not(Box::new(program("rm")))),
            None
        );
        assert_eq!(program_test(&ShellCondition::All(Vec::new())), None);
        let operand = ShellCondition::Word {
            word: ShellWord::Operand,
            test: WordTest::Equals("rm".to_owned()),
        };
        assert_eq!(program_test(&operand), None);
    }

    #[test]
    fn outside_means_not_under_the_working_directory() {
        let cwd = Some("/home/u/project/");
        assert!(!outside("/home/u/project", cwd));
        assert!(!outside("/home/u/project/target", cwd));
        assert!(outside("/home/u/project-other", cwd));
        assert!(outside("/home/u", cwd));
        assert!(outside("/", cwd));
        assert!(outside("~/x", cwd));
        assert!(!outside("/anything", Some("/")));
        assert!(outside("../x", None));
        assert!(outside("/etc", None));
        assert!(!outside("target", None));
    }
}
