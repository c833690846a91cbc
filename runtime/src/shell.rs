//! Shell conditions on the command of a shell tool call (docs/shell.md): the command line is
//! read at most once per event, and only when a rule asks.
//!
//! A shell condition is true, false or undecidable: a word it tests that is only known at
//! run time (`rm -rf "$D"`), code made at run time (`eval "$x"`) or a line that cannot be
//! read makes it undecidable, and [`holds`] gives it the value the caller asks for then.
//! The first reason met is kept for the message of the rule that fires on it.

mod by_program;

use std::cell::{OnceCell, RefCell};

use rulesc_shell::{Context, Part, Reading, Script, SimpleCommand};
use serde_json::Value as Json;

use crate::event::Event;
use crate::vocabulary::{GlobShape, Quantifier, ShellCondition, ShellWord, WordTest};
use crate::watched::Watched;
use by_program::{OnProgram, Programs};

/// The tools whose `command` argument is a shell command line when the embedding
/// application declares none: Claude Code's and Codex's `Bash`, Gemini CLI's
/// `run_shell_command`, and the `bash` and `shell` tools of agent frameworks
pub const DEFAULT_SHELL_TOOLS: &[&str] = &["Bash", "run_shell_command", "bash", "shell"];

/// The command line of one event, read on first use
pub(crate) struct CommandLine<'e> {
    event: &'e Event,
    shell_tools: Option<&'e [String]>,
    /// The program names the policy tests, which the reader watches behind unlisted programs
    watched: &'e Watched,
    reading: OnceCell<Option<Reading>>,
    /// The programs of the read line's commands, grouped when a condition first asks
    programs: OnceCell<Programs>,
    /// Why a shell condition was last found undecidable
    why: RefCell<Option<(String, bool)>>,
}

/// Why a shell condition could not be decided
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Undecided {
    /// The command line cannot be read at all
    Unreadable(String),
    /// Something the condition tests is only known at run time
    RunTime(String),
    /// What a command runs is only known at run time (code made at run time, a program
    /// named by an expansion): no rule can tell what it does
    Hidden(String),
}

impl<'e> CommandLine<'e> {
    /// The command line of `event`, whose tool is a shell when `shell_tools` (or, when
    /// `None`, [`DEFAULT_SHELL_TOOLS`]) names it, for a policy that tests the programs
    /// `watched` names
    pub(crate) fn new(
        event: &'e Event,
        shell_tools: Option<&'e [String]>,
        watched: &'e Watched,
    ) -> Self {
        CommandLine {
            event,
            shell_tools,
            watched,
            reading: OnceCell::new(),
            programs: OnceCell::new(),
            why: RefCell::new(None),
        }
    }

    /// The reading of the command; `None` when the event is no shell tool call
    fn reading(&self) -> Option<&Reading> {
        self.reading.get_or_init(|| self.read()).as_ref()
    }

    /// The programs of `script`, this line's reading
    fn programs(&self, script: &Script) -> &Programs {
        self.programs.get_or_init(|| Programs::of(script))
    }

    /// The event whose command line this is
    pub(crate) fn event(&self) -> &'e Event {
        self.event
    }

    /// Whether the call may be a shell call: it is one, or its input could not be read
    /// (what leaves every shell condition undecidable)
    pub(crate) fn may_be_shell_call(&self) -> bool {
        self.event.arg_unreadable || self.reading().is_some()
    }

    /// Whether some command of the line may run a program `runs` holds for: one does, or its
    /// program (or all of it) is only known at run time, or the line or the input holding
    /// it cannot be read
    pub(crate) fn may_run(&self, runs: impl Fn(&str) -> bool) -> bool {
        self.programs_run().is_none_or(|mut names| names.any(runs))
    }

    /// Each distinct program the line's commands run; `None` when they may run any: some
    /// command's program (or all of it) is only known at run time, or the line or the input
    /// holding it cannot be read
    pub(crate) fn programs_run(&self) -> Option<impl Iterator<Item = &str>> {
        match self.reading() {
            Some(Reading::Read(script)) if !self.event.arg_unreadable => {
                let programs = self.programs(script);
                (!programs.hidden()).then(|| programs.names(script))
            }
            _ => None,
        }
    }

    /// Whether some command of the line may write or redirect to a file, as a test of
    /// `written` or `redirect` reads it: one does, or where it writes is only known at run
    /// time, or the line or the input holding it cannot be read
    pub(crate) fn may_write(&self) -> bool {
        match self.reading() {
            Some(Reading::Read(script)) if !self.event.arg_unreadable => {
                script.commands.iter().any(|command| {
                    !command.redirects.is_empty()
                        || !command.writes.is_empty()
                        || command.unknown.iter().any(|unknown| {
                            matches!(
                                unknown.part,
                                Part::Command | Part::Redirect(_) | Part::Write(_)
                            )
                        })
                })
            }
            Some(_) => true,
            None => self.event.arg_unreadable,
        }
    }

    /// Whether the line was read, and could be
    pub(crate) fn was_read(&self) -> bool {
        matches!(self.reading.get(), Some(Some(Reading::Read(_))))
    }

    /// Whether a shell condition may be undecidable on this line: it cannot be read, or
    /// something in it is only known at run time (only asked after a rule did not fire, so
    /// it never reads a line no rule asked about)
    pub(crate) fn may_be_undecidable(&self) -> bool {
        match self.reading.get() {
            Some(Some(Reading::Unreadable(_))) => true,
            Some(Some(Reading::Read(script))) => script
                .commands
                .iter()
                .any(|command| !command.unknown.is_empty()),
            _ => false,
        }
    }

    /// Forgets why a condition was undecidable, before a rule is evaluated again
    pub(crate) fn forget_why(&self) {
        self.why.replace(None);
    }

    /// Why the last undecidable shell condition was undecidable
    pub(crate) fn undecided(&self) -> Option<Undecided> {
        let (why, hidden) = self.why.borrow().clone()?;
        Some(match self.reading.get() {
            Some(Some(Reading::Unreadable(_))) => Undecided::Unreadable(why),
            _ if hidden => Undecided::Hidden(why),
            _ => Undecided::RunTime(why),
        })
    }

    fn note(&self, why: &str, hidden: bool) {
        let mut slot = self.why.borrow_mut();
        if slot.is_none() {
            *slot = Some((why.to_owned(), hidden));
        }
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
        let unreadable = Some(Reading::Unreadable(rulesc_shell::Unreadable::NotText));
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
        let context = Context {
            cwd,
            home: None,
            watched: self.watched.names().clone(),
        };
        Some(rulesc_shell::read(line, &context))
    }
}

/// A shell condition's value: true, false, or undecidable before the command runs
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Truth {
    False,
    Unknown,
    True,
}

impl Truth {
    fn from(value: bool) -> Self {
        if value {
            Truth::True
        } else {
            Truth::False
        }
    }

    fn not(self) -> Self {
        match self {
            Truth::True => Truth::False,
            Truth::False => Truth::True,
            Truth::Unknown => Truth::Unknown,
        }
    }

    /// True when `known` holds; else false when no word only run time knows `may` pass,
    /// true when one `must` whatever its rest, and undecidable otherwise (asked in that
    /// order: `must` only of a test some word may pass)
    fn decided(known: bool, may: impl FnOnce() -> bool, must: impl FnOnce() -> bool) -> Self {
        if known {
            Truth::True
        } else if !may() {
            Truth::False
        } else if must() {
            Truth::True
        } else {
            Truth::Unknown
        }
    }

    /// `true`, or `false` when it might be (an undecidable part)
    fn or_unknown(value: bool, unknown: bool) -> Self {
        match (value, unknown) {
            (true, _) => Truth::True,
            (false, true) => Truth::Unknown,
            (false, false) => Truth::False,
        }
    }
}

/// Whether a shell condition holds; `undecidable` is its value when it cannot be decided
/// (the line cannot be read, or what it tests is only known at run time), and the reason
/// is kept on `line`
pub(crate) fn holds(
    quantifier: Quantifier,
    condition: &ShellCondition,
    line: &CommandLine<'_>,
    undecidable: bool,
) -> bool {
    let script = match line.reading() {
        None => return false,
        Some(Reading::Unreadable(reason)) => {
            line.note(&unreadable_reason(*reason), false);
            return undecidable;
        }
        Some(Reading::Read(script)) => script,
    };
    let cwd = line.event.cwd.as_deref();
    // Most conditions are settled by a command's program alone (most commands run none of
    // the programs they name): that is asked once per program the line runs, and only the
    // commands it leaves open are walked.
    let programs = line.programs(script);
    let on_programs: Vec<OnProgram<'_>> = programs
        .names(script)
        .map(|program| OnProgram::of(condition, program))
        .collect();
    // Asked whether it holds for sure, a condition stops at the first part that does not:
    // an undecidable part already decides that (no pattern after it is compiled), and why it
    // is undecidable is kept by the evaluation that asks for it (`undecidable` true).
    let only_true = !undecidable;
    let mut why: Option<(String, bool)> = None;
    let mut truth_of = |at: usize, command: &SimpleCommand| -> Truth {
        let truth = match programs
            .of_command(at)
            .and_then(|program| on_programs.get(program))
        {
            Some(OnProgram::Settled(value)) => return Truth::from(*value),
            Some(OnProgram::Open { any, parts }) => {
                joined(parts.iter().copied(), *any, command, script, cwd, only_true)
            }
            None => command_truth(condition, command, script, cwd, only_true),
        };
        if truth == Truth::Unknown && why.is_none() && !only_true {
            why = reason_of(command, script).map(|(why, hidden)| (why.to_owned(), hidden));
        }
        truth
    };
    let truth = match quantifier {
        Quantifier::Any => {
            let mut truth = Truth::False;
            for (at, command) in script.commands.iter().enumerate() {
                match truth_of(at, command) {
                    Truth::True => {
                        truth = Truth::True;
                        break;
                    }
                    Truth::Unknown => truth = Truth::Unknown,
                    Truth::False => {}
                }
            }
            truth
        }
        Quantifier::All => {
            let mut truth = Truth::from(!script.commands.is_empty());
            for (at, command) in script.commands.iter().enumerate() {
                match truth_of(at, command) {
                    Truth::False => {
                        truth = Truth::False;
                        break;
                    }
                    Truth::Unknown if only_true => return false,
                    Truth::Unknown => truth = Truth::Unknown,
                    Truth::True => {}
                }
            }
            truth
        }
    };
    match truth {
        Truth::True => true,
        Truth::False => false,
        Truth::Unknown if only_true => false,
        Truth::Unknown => {
            match &why {
                Some((why, hidden)) => line.note(why, *hidden),
                None => line.note("part of the command is only known at run time", false),
            }
            undecidable
        }
    }
}

/// What could not be read of a line, as a message says it
fn unreadable_reason(reason: rulesc_shell::Unreadable) -> String {
    format!("the command line cannot be read: {reason}")
}

/// Why a command is undecidable: its own first unknown part, or that of a command feeding
/// it; and whether that part hides what the command is (its program, or all of it)
fn reason_of<'s>(command: &'s SimpleCommand, script: &'s Script) -> Option<(&'s str, bool)> {
    command
        .unknown
        .first()
        .or_else(|| {
            command
                .stdin_from
                .iter()
                .filter_map(|index| script.commands.get(*index))
                .find_map(|upstream| upstream.unknown.first())
        })
        .map(|unknown| {
            let hidden = matches!(unknown.part, Part::Command | Part::Program);
            (unknown.why.as_str(), hidden)
        })
}

/// Whether what `command` runs is only known at run time: its program, or all of it.
/// Every test of a program is undecidable there and decided everywhere else.
fn hides_program(command: &SimpleCommand) -> bool {
    command
        .unknown
        .iter()
        .any(|unknown| matches!(unknown.part, Part::Command | Part::Program))
}

/// Whether `condition` holds for one simple command of `script`; with `only_true`, only
/// whether it is true matters, and a conjunction stops at its first part that is not
fn command_truth(
    condition: &ShellCondition,
    command: &SimpleCommand,
    script: &Script,
    cwd: Option<&str>,
    only_true: bool,
) -> Truth {
    // Asked only by the parts that can be undecidable, after their own test.
    let opaque = || {
        command
            .unknown
            .iter()
            .any(|unknown| unknown.part == Part::Command)
    };
    match condition {
        ShellCondition::All(parts) => joined(parts, false, command, script, cwd, only_true),
        ShellCondition::Any(parts) => joined(parts, true, command, script, cwd, only_true),
        // Whether the part is false decides, so it is asked exactly.
        ShellCondition::Not(part) => command_truth(part, command, script, cwd, false).not(),
        ShellCondition::Flag(flag) => Truth::or_unknown(
            command.has_flag(flag),
            opaque() || unknown_words(command).any(|word| word.may_be_the_flag(flag)),
        ),
        ShellCondition::OutsideCwd | ShellCondition::OutsideCwdAndTmp => {
            let tmp_inside = matches!(condition, ShellCondition::OutsideCwdAndTmp);
            Truth::or_unknown(
                command
                    .paths
                    .iter()
                    .any(|path| outside(path, cwd) && !(tmp_inside && in_tmp(path))),
                opaque() || unknown_words(command).any(|word| word.may_be_outside(cwd, tmp_inside)),
            )
        }
        ShellCondition::OutputShown => Truth::from(
            !command.captured
                && !command.redirects.iter().any(sends_output_away)
                && downstream(script, command).next().is_none(),
        ),
        ShellCondition::WholeCwd => Truth::or_unknown(
            command.paths.iter().any(|path| whole(path, cwd)),
            opaque() || unknown_words(command).any(|word| word.may_be_whole(cwd)),
        ),
        ShellCondition::Word { word, test } => match word {
            ShellWord::Program => {
                if hides_program(command) {
                    Truth::Unknown
                } else {
                    Truth::from(test.is_match(&command.program))
                }
            }
            ShellWord::Subcommand => match &command.subcommand {
                Some(subcommand) => Truth::from(test.is_match(subcommand)),
                None => Truth::or_unknown(
                    false,
                    opaque() || unknown_words(command).any(|word| word.may_match(test)),
                ),
            },
            ShellWord::Arg => Truth::decided(
                command.args.iter().any(|arg| test.is_match(arg)),
                || opaque() || unknown_words(command).any(|word| word.may_match(test)),
                || unknown_words(command).any(|word| word.must_match(test)),
            ),
            ShellWord::Operand => Truth::or_unknown(
                command.operands.iter().any(|arg| test.is_match(arg)),
                opaque()
                    || unknown_words(command).any(|word| !word.is_flag() && word.may_match(test)),
            ),
            ShellWord::Path => Truth::decided(
                command.paths.iter().any(|path| test.is_match(path)),
                || {
                    opaque()
                        || unknown_words(command)
                            .any(|word| !word.is_flag() && word.may_be_path_matching(test))
                },
                || unknown_words(command).any(|word| word.must_be_path_matching(test)),
            ),
            ShellWord::Redirect => Truth::decided(
                command
                    .redirects
                    .iter()
                    .any(|redirect| test.is_match(&redirect.target)),
                || {
                    opaque()
                        || unknown_targets(command, false)
                            .any(|file| file.may_be_path_matching(test))
                },
                || unknown_targets(command, false).any(|file| file.must_be_path_matching(test)),
            ),
            ShellWord::Written => Truth::decided(
                command
                    .redirects
                    .iter()
                    .map(|redirect| redirect.target.as_str())
                    .chain(command.writes.iter().map(String::as_str))
                    .any(|file| test.is_match(file)),
                || {
                    opaque()
                        || unknown_targets(command, true)
                            .any(|file| file.may_be_path_matching(test))
                },
                || unknown_targets(command, true).any(|file| file.must_be_path_matching(test)),
            ),
            // The names a line's words expand are all in its text, whatever else only run
            // time knows: a name only run time gives (`${!k}`) is the reader's to read as
            // the whole environment, and code made at run time is another rule's unknown.
            ShellWord::Expands => {
                Truth::from(command.expands.iter().any(|name| test.is_match(name)))
            }
        },
        ShellCondition::StdinFrom(inner) => some_command(
            inner,
            command
                .stdin_from
                .iter()
                .filter_map(|index| script.commands.get(*index)),
            script,
            cwd,
            only_true,
        ),
        ShellCondition::StdoutTo(inner) => {
            some_command(inner, downstream(script, command), script, cwd, only_true)
        }
    }
}

/// Whether a redirect sends a command's output (its descriptor 1) into a file the agent
/// does not see: `> f`, `1>> f`, `&> f`; not `2> f`, and not the terminal or the error
/// stream, which the agent is shown
fn sends_output_away(redirect: &rulesc_shell::Redirect) -> bool {
    let operator = redirect
        .operator
        .strip_prefix('1')
        .unwrap_or(&redirect.operator);
    let sends = operator.starts_with('>') || operator.starts_with("&>");
    sends
        && !matches!(
            redirect.target.as_str(),
            "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "/dev/fd/1" | "/dev/fd/2"
        )
}

/// The commands that read the output of `command`, one of the script's
fn downstream<'s>(
    script: &'s Script,
    command: &SimpleCommand,
) -> impl Iterator<Item = &'s SimpleCommand> {
    // Every command tested is one of the script's, so its place is its address.
    let at = script
        .commands
        .iter()
        .position(|other| std::ptr::eq(other, command));
    script
        .commands
        .iter()
        .filter(move |other| at.is_some_and(|at| other.stdin_from.contains(&at)))
}

/// Whether `condition` holds for one of `commands`: true at the first that satisfies it,
/// undecidable if none does and one may
fn some_command<'s>(
    condition: &ShellCondition,
    commands: impl Iterator<Item = &'s SimpleCommand>,
    script: &Script,
    cwd: Option<&str>,
    only_true: bool,
) -> Truth {
    let mut truth = Truth::False;
    for other in commands {
        match command_truth(condition, other, script, cwd, only_true) {
            Truth::True => return Truth::True,
            Truth::Unknown => truth = Truth::Unknown,
            Truth::False => {}
        }
    }
    truth
}

/// What `parts` joined by `or` (`any`) or `and` are worth on `command`; with `only_true`, a
/// conjunction stops at its first part that is not true
fn joined<'c>(
    parts: impl IntoIterator<Item = &'c ShellCondition>,
    any: bool,
    command: &SimpleCommand,
    script: &Script,
    cwd: Option<&str>,
    only_true: bool,
) -> Truth {
    let mut truth = Truth::from(!any);
    for part in parts {
        match command_truth(part, command, script, cwd, only_true) {
            Truth::True if any => return Truth::True,
            Truth::False if !any => return Truth::False,
            Truth::Unknown if only_true && !any => return Truth::Unknown,
            Truth::Unknown => truth = Truth::Unknown,
            Truth::True | Truth::False => {}
        }
    }
    truth
}

/// A word of a command only known at run time, and what is known of it
struct UnknownWord<'c> {
    prefix: &'c str,
    /// The text it is known to end with, after its last unknown part
    suffix: &'c str,
    split: bool,
    name: bool,
    /// The folder the command runs in, when the line tells it
    dir: Option<&'c str>,
}

/// The words of `command` only known at run time
fn unknown_words(command: &SimpleCommand) -> impl Iterator<Item = UnknownWord<'_>> {
    command
        .unknown
        .iter()
        .filter_map(|unknown| match &unknown.part {
            Part::Word {
                prefix,
                suffix,
                split,
                name,
                dir,
            } => Some(UnknownWord {
                prefix,
                suffix,
                split: *split,
                name: *name,
                dir: dir.as_deref(),
            }),
            _ => None,
        })
}

/// The files `command` writes whose paths are only known at run time: its redirects', and
/// with `writes`, the destinations of a writing program
fn unknown_targets(command: &SimpleCommand, writes: bool) -> impl Iterator<Item = UnknownWord<'_>> {
    command
        .unknown
        .iter()
        .filter_map(move |unknown| match &unknown.part {
            Part::Redirect(target) => Some(target),
            Part::Write(target) if writes => Some(target),
            _ => None,
        })
        .map(|target| UnknownWord {
            prefix: &target.prefix,
            suffix: &target.suffix,
            split: false,
            name: target.name,
            dir: target.dir.as_deref(),
        })
}

impl UnknownWord<'_> {
    /// Whether it may be (or split into) a flag
    fn may_be_flag(&self) -> bool {
        self.split || self.prefix.starts_with('-') || (self.prefix.is_empty() && !self.name)
    }

    /// Whether it may be (or split into) `flag`: a long option whose name is known
    /// (`--tag=app:$V`) is that option alone, and one that is long is no cluster of short
    /// ones. Its name may abbreviate the flag's, as getopt reads a unique prefix.
    fn may_be_the_flag(&self, flag: &str) -> bool {
        if !self.may_be_flag() {
            return false;
        }
        if self.split || !self.prefix.starts_with("--") {
            return true;
        }
        match self.prefix.split_once('=') {
            Some((name, _)) => flag.starts_with(name),
            None => flag.starts_with(self.prefix),
        }
    }

    /// Whether it is known to be a flag (`--out=$X`), never an operand
    fn is_flag(&self) -> bool {
        !self.split && self.prefix.starts_with('-')
    }

    /// Whether the word passes `test` whatever its run-time rest: its known start holds a
    /// match of a regular expression (a search, which the rest cannot undo) or the text a
    /// test looks for. Splitting leaves the known start at the start of the first word.
    fn must_match(&self, test: &WordTest) -> bool {
        match test {
            WordTest::Regex(pattern) => pattern.must_match_starting_with(self.prefix),
            WordTest::Contains(needle) => self.prefix.contains(needle.as_str()),
            WordTest::Equals(_) | WordTest::Glob(_) | WordTest::In(_) | WordTest::Kind(_) => false,
        }
    }

    /// Whether the word (or a word it splits into) may pass `test`
    fn may_match(&self, test: &WordTest) -> bool {
        if self.split {
            return true;
        }
        let fits = |candidate: &str| {
            candidate.starts_with(self.prefix)
                && (!self.name || {
                    // What lies between the known start and end is a name.
                    let rest = candidate.get(self.prefix.len()..).unwrap_or_default();
                    rest.strip_suffix(self.suffix).is_some_and(|middle| {
                        !(middle.contains('/')
                            || self.prefix.is_empty() && middle.starts_with(['-', '+', ':']))
                    })
                })
        };
        match test {
            WordTest::Equals(expected) => fits(expected),
            WordTest::In(members) => members.iter().any(fits),
            WordTest::Glob(pattern) => {
                let literal = pattern.as_str();
                !(self.name && self.prefix.is_empty() && literal.starts_with(['-', '+', ':', '/']))
                    && pattern.may_match_starting_with(self.prefix)
            }
            WordTest::Regex(pattern) => pattern.may_match_starting_with(self.prefix),
            WordTest::Contains(_) | WordTest::Kind(_) => true,
        }
    }

    /// Whether the word, as a path made absolute against the folder its command runs in,
    /// may pass `test`: a path whose known start is followed by a name (`logs/$(date).log`
    /// in a project, `/tmp/tmp.$X` of `mktemp`) cannot pass a glob that starts with literal
    /// text leading elsewhere (`/dev/sd*`), nor a regular expression no name can complete a
    /// match of (`^/dev/`, `(^|/)\.github/workflows/`); every other test may
    fn may_be_path_matching(&self, test: &WordTest) -> bool {
        let decidable = match test {
            WordTest::Regex(_) => true,
            // A glob that ignores case has the shape of the folded glob: its start says
            // nothing of the path as written.
            WordTest::Glob(pattern) => {
                !pattern.folds_case()
                    && matches!(pattern.shape(),
                        GlobShape::Literal(text) | GlobShape::Prefix(text) if !text.is_empty())
            }
            WordTest::Equals(_) | WordTest::In(_) | WordTest::Contains(_) | WordTest::Kind(_) => {
                false
            }
        };
        if !decidable {
            return true;
        }
        let prefix = self.prefix;
        // Only a name after the known start stays below it: any other unknown part may hold
        // `/../` and lead anywhere (`/tmp/$X` may be `/dev/sda`).
        if self.split
            || !self.name
            || prefix.is_empty()
            || prefix.starts_with('~')
            || prefix.contains("..")
        {
            return true;
        }
        let start = if prefix.starts_with('/') {
            prefix.to_owned()
        } else {
            match self.dir {
                Some(cwd) if cwd.starts_with('/') => format!(
                    "{}/{}",
                    cwd.trim_end_matches('/'),
                    prefix.trim_start_matches("./")
                ),
                _ => return true,
            }
        };
        // A last `/` is dropped as the path is read (`"$d"/` is `$d`). Other lexical folding
        // (`//`, `/./`, a last `.`) could bring the two together: only a plain start and end
        // are compared.
        let suffix = self.suffix.strip_suffix('/').unwrap_or(self.suffix);
        let folds = |text: &str| text.contains("//") || text.contains("/./");
        if folds(&start) || folds(suffix) || suffix.ends_with(['/', '.']) {
            return true;
        }
        match test {
            // Its literal start alone often decides, with no automaton built.
            WordTest::Regex(pattern) => match pattern.anchored_prefix() {
                Some(literal) if !(start.starts_with(&literal) || literal.starts_with(&start)) => {
                    false
                }
                _ => pattern.may_match_named(&start, suffix),
            },
            WordTest::Glob(pattern) => match pattern.shape() {
                GlobShape::Literal(literal) | GlobShape::Prefix(literal) => {
                    start.starts_with(literal.as_str()) || literal.starts_with(&start)
                }
                _ => true,
            },
            WordTest::Equals(_) | WordTest::In(_) | WordTest::Contains(_) | WordTest::Kind(_) => {
                true
            }
        }
    }

    /// Whether the word, as a path, passes `test` whatever its run-time rest: a name after
    /// an absolute known start (no `/` can follow to lead elsewhere) whose start holds a
    /// match of a regular expression (`/dev/sd?` of `^/dev/(sd|hd)`)
    fn must_be_path_matching(&self, test: &WordTest) -> bool {
        let plain = !self.split
            && self.name
            && self.prefix.starts_with('/')
            && !self.prefix.contains("..")
            && !self.prefix.contains("//")
            && !self.prefix.contains("/./");
        let WordTest::Regex(pattern) = test else {
            return false;
        };
        if !plain {
            return false;
        }
        if pattern.must_match_starting_with(self.prefix) {
            return true;
        }
        // A name that goes on with the last part of the start (`/tmp/tmp.` and a name) is
        // never `.` or `..`: every such path, with the known end, is walked. A last `/` is
        // dropped as a path is read.
        let suffix = self.suffix.strip_suffix('/').unwrap_or(self.suffix);
        !self.prefix.ends_with('/')
            && !suffix.contains("//")
            && !suffix.contains("/./")
            && !suffix.ends_with(['/', '.'])
            && pattern.must_match_named(self.prefix, suffix)
    }

    /// Whether the word, as a path, may be the working directory itself or all it holds:
    /// what is known of it must lead there (`"$X"`, `./$X`, `../$X`, `/home/u/$X` for a
    /// working directory `/home/u/app`), with a name or nothing after it
    fn may_be_whole(&self, cwd: Option<&str>) -> bool {
        if !self.name {
            return true;
        }
        let base = self.prefix;
        if base.starts_with('/') {
            cwd.is_some_and(|cwd| {
                let folder = format!("{}/", cwd.trim_end_matches('/'));
                folder
                    .strip_prefix(base)
                    .is_some_and(|rest| !rest.trim_end_matches('/').contains('/'))
            })
        } else {
            base.trim_start_matches("./").is_empty()
                || base.starts_with('~')
                || base.split('/').any(|part| part == "..")
        }
    }

    /// Whether the word, as a path, may lie outside the working directory: a name after a
    /// prefix inside it cannot
    fn may_be_outside(&self, cwd: Option<&str>, tmp_inside: bool) -> bool {
        if !self.name {
            return true;
        }
        let base = self.prefix;
        // The name ends a folder's path (`/tmp/`), or goes on from a start of a child's name
        // (`/tmp/tmp.` of `mktemp`), which makes it that folder's child.
        let (parent, start) = base.rsplit_once('/').unwrap_or(("", base));
        let child = !start.is_empty() && !start.contains(['*', '?', '[']);
        let folder = base.is_empty() || base.ends_with('/') || child;
        let inside = if base.starts_with('/') {
            let known = if child && parent.is_empty() {
                "/"
            } else if child {
                parent
            } else {
                base.trim_end_matches('/')
            };
            // `/tmp/build/$(date +%s)` is in a temporary folder, as `./$(date +%s)` is in the
            // project: what is known of it names a folder inside, and the rest is a name
            // (`/tmp/$(date +%s)` names no folder below `/tmp`, so it may be outside).
            (tmp_inside && in_tmp(base)) || cwd.is_some_and(|cwd| !outside(known, Some(cwd)))
        } else {
            !base.starts_with('~') && !base.split('/').any(|part| part == "..")
        };
        !(folder && inside)
    }
}

/// The temporary folders that `outside_cwd_and_tmp` counts as inside (macOS's `/tmp` is
/// `/private/tmp`); `$TMPDIR` is known at run time only
const TMP_FOLDERS: &[&str] = &["/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp"];

/// Whether `path` (normalised) lies in a temporary folder, below it: `/tmp/build`,
/// `/tmp/build/x` and a pattern with a literal start (`/tmp/build-*`) do; `/tmp` itself does
/// not, nor a glob over all it holds (`/tmp/*`), nor one that may match `..` (`/tmp/.*`), nor
/// `/tmp/` written as a prefix that a word known only at run time goes on from
fn in_tmp(path: &str) -> bool {
    TMP_FOLDERS.iter().any(|folder| {
        path.strip_prefix(folder)
            .and_then(|rest| rest.strip_prefix('/'))
            .and_then(|rest| rest.split('/').next())
            .is_some_and(|first| {
                let literal = first
                    .find(['*', '?', '['])
                    .map_or(first, |at| first.get(..at).unwrap_or_default());
                !literal.is_empty() && !"..".starts_with(literal)
            })
    })
}

/// Whether `path` is the working directory itself or everything it holds (`DIR/*`); never
/// without a working directory, which leaves `.` as it is
fn whole(path: &str, cwd: Option<&str>) -> bool {
    cwd.filter(|cwd| cwd.starts_with('/')).is_some_and(|cwd| {
        let root = cwd.trim_end_matches('/');
        let root = if root.is_empty() { "/" } else { root };
        path == root
            || path
                .strip_suffix("/*")
                .is_some_and(|dir| dir == root || (dir.is_empty() && root == "/"))
    }) || path == "."
        || path == "./*"
        || path == "*"
}

/// Whether a normalised path lies outside the working directory; without one, whether it
/// leaves wherever the command runs (absolute, under `~`, or starting with `..`). Whatever
/// the working directory, `/`, every folder at the root, a home directory and what is in a
/// system folder the working directory is not inside are outside (docs/shell.md).
fn outside(path: &str, cwd: Option<&str>) -> bool {
    if protected(path, cwd) {
        return true;
    }
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

/// Whether `path` is outside every project: `/`, `~`, a folder or glob at the root, a home
/// (`/home/<user>`, `/Users/<user>`), or a path in a system folder when `cwd` is not in it
fn protected(path: &str, cwd: Option<&str>) -> bool {
    if path == "/" || path == "~" {
        return true;
    }
    let Some(rest) = path.strip_prefix('/') else {
        return false;
    };
    let mut parts = rest.split('/');
    let (first, second, third) = (parts.next(), parts.next(), parts.next());
    match (first, second, third) {
        (Some(_), None, _) => true,
        (Some("home" | "Users"), Some(_), None) => true,
        (Some(folder), Some(_), _) if rulesc_shell::is_system_folder(folder) => {
            // A project in a system folder (`/opt/app`, `/var/www/site`) owns what is in it.
            let project_in_folder = cwd
                .and_then(|cwd| cwd.strip_prefix('/'))
                .and_then(|cwd| cwd.strip_prefix(folder))
                .is_some_and(|rest| rest.starts_with('/') && rest.len() > 1);
            !project_in_folder
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{in_tmp, outside, UnknownWord};
    use crate::vocabulary::WordTest;

    #[test]
    fn only_a_name_after_a_known_folder_stays_in_it() {
        let dev = WordTest::Regex(crate::vocabulary::RegexPattern::new("^/dev/").unwrap());
        let word = |prefix, name| UnknownWord {
            prefix,
            suffix: "",
            split: false,
            name,
            dir: Some("/home/u/p"),
        };
        // `/tmp/$(date +%s)` is below `/tmp`; `/tmp/$X` may be `/tmp/../dev/sda`.
        assert!(!word("/tmp/", true).may_be_path_matching(&dev));
        assert!(word("/tmp/", false).may_be_path_matching(&dev));
        assert!(!word("logs/", true).may_be_path_matching(&dev));
        assert!(word("", true).may_be_path_matching(&dev));
        assert!(word("/dev/", true).may_be_path_matching(&dev));
        // A pattern not anchored at the start: walked over a name and the known end.
        let workflows = r"(^|/)\.github/workflows/";
        let workflows = WordTest::Regex(crate::vocabulary::RegexPattern::new(workflows).unwrap());
        let ending = |suffix| UnknownWord {
            prefix: "/tmp/tmp.",
            suffix,
            split: false,
            name: true,
            dir: Some("/home/u/p"),
        };
        assert!(!ending("").may_be_path_matching(&workflows));
        assert!(!ending("/page.html").may_be_path_matching(&workflows));
        assert!(ending("/.github/workflows/ci.yml").may_be_path_matching(&workflows));
        assert!(ending("/.github//workflows/ci.yml").may_be_path_matching(&workflows));
        // A last `/` is dropped as a path is read: `"$(mktemp -d)"/` is the folder itself.
        let device = r"^/dev/[^/]+/.";
        let device = WordTest::Regex(crate::vocabulary::RegexPattern::new(device).unwrap());
        assert!(!ending("/").may_be_path_matching(&device));
        assert!(!ending("/").may_be_path_matching(&workflows));
        assert!(ending("/.").may_be_path_matching(&device));
        let below_dev = UnknownWord {
            prefix: "/dev/",
            suffix: "/",
            split: false,
            name: true,
            dir: None,
        };
        assert!(below_dev.may_be_path_matching(&dev));
        // Every such path is outside the home's hidden folders: decided, not undecidable.
        let plain = r"(?s)^(?:[^~/].*|/(?:[^rhU].*)?|/home(?:[^/].*)?|/home/[^/]*/(?:[^.].*)?)$";
        let plain = WordTest::Regex(crate::vocabulary::RegexPattern::new(plain).unwrap());
        assert!(ending("/").must_be_path_matching(&plain));
        assert!(ending("").must_be_path_matching(&plain));
        let in_home = |prefix| UnknownWord {
            prefix,
            suffix: "",
            split: false,
            name: true,
            dir: None,
        };
        assert!(!in_home("/home/u/").must_be_path_matching(&plain));
        assert!(!in_home("/home/u/.").must_be_path_matching(&plain));
        assert!(in_home("/home/u/x").must_be_path_matching(&plain));
    }

    #[test]
    fn a_word_may_be_a_flag_its_known_start_allows() {
        let word = |prefix, split| UnknownWord {
            prefix,
            suffix: "",
            split,
            name: false,
            dir: None,
        };
        // `--tag=app:$V` is the option `--tag`; getopt takes `--pu` for `--push`.
        assert!(!word("--tag=app:", false).may_be_the_flag("--push"));
        assert!(word("--tag=app:", false).may_be_the_flag("--tag"));
        assert!(word("--pu=", false).may_be_the_flag("--push"));
        assert!(word("--pu", false).may_be_the_flag("--push"));
        assert!(!word("--pull", false).may_be_the_flag("--push"));
        // A long option is no cluster of short ones; `-$X` may be any cluster.
        assert!(!word("--recursive=", false).may_be_the_flag("-r"));
        assert!(word("-", false).may_be_the_flag("-r"));
        assert!(word("-x", false).may_be_the_flag("-r"));
        // Unquoted, it may split into words of any kind; with no known start, be any word.
        assert!(word("--tag=app:", true).may_be_the_flag("--push"));
        assert!(word("", false).may_be_the_flag("--push"));
        assert!(!word("app:", false).may_be_the_flag("--push"));
    }

    /// A regular expression or a glob on a word whose known start leaves it can never
    /// hold; one the rest may still satisfy may
    #[test]
    fn a_pattern_the_known_start_rules_out_cannot_match() {
        let regex = |source| WordTest::Regex(crate::vocabulary::RegexPattern::new(source).unwrap());
        let glob = |source| WordTest::Glob(crate::vocabulary::GlobPattern::new(source).unwrap());
        let word = |prefix| UnknownWord {
            prefix,
            suffix: "",
            split: false,
            name: false,
            dir: None,
        };
        assert!(!word("feature/").may_match(&regex("^--?(force|delete)$")));
        assert!(word("--for").may_match(&regex("^--?(force|delete)$")));
        assert!(word("feature/").may_match(&regex("(force|delete)")));
        assert!(!word("main").may_match(&glob("+*")));
        assert!(word("+").may_match(&glob("+*")));
        assert!(!word("-var=").may_match(&glob("-auto-approve*")));
        assert!(!word("x").may_match(&glob("[0-9]*[a-z]")));
        assert!(word("1").may_match(&glob("[0-9]*[a-z]")));
    }

    /// A match in the known start decides a search whatever follows; one at its end does
    /// not, since `$` or `\b` there look at what follows
    #[test]
    fn a_match_within_the_known_start_holds_whatever_follows() {
        let regex = |source| WordTest::Regex(crate::vocabulary::RegexPattern::new(source).unwrap());
        let word = |prefix| UnknownWord {
            prefix,
            suffix: "",
            split: true,
            name: false,
            dir: None,
        };
        assert!(word("DROP TABLE ").must_match(&regex("(?i)\\bdrop\\s+table\\b")));
        assert!(!word("DROP TABLE").must_match(&regex("(?i)\\bdrop\\s+table\\b")));
        assert!(!word("DROP TABLE ").must_match(&regex("(?i)^drop\\s+table\\s*$")));
        assert!(!word("DELETE FROM ").must_match(&regex("(?i)^delete\\s+from\\s+\\w+\\s*$")));
        assert!(word("x--force=").must_match(&WordTest::Contains("--force".to_owned())));
    }

    proptest::proptest! {
        /// Held to the regex crate: a word that must match does, whatever its rest
        #[test]
        fn a_word_that_must_match_matches_every_rest(
            prefix in "[ab \\n-]{0,6}",
            rest in "[ab \\n-]{0,4}",
            source in proptest::sample::select(vec![
                "a", "a$", "^a", "^a$", "\\ba\\b", "a\\B", "(?m)a$", "ab|b$", "a\\s", "^-+",
                "a(b|$)", "\\bb", "(?m)^b", "a+$", "[ab]{2}\\b",
            ]),
        ) {
            let test = WordTest::Regex(crate::vocabulary::RegexPattern::new(source).unwrap());
            let unknown = UnknownWord { prefix: &prefix, suffix: "", split: false, name: false, dir: None };
            if unknown.must_match(&test) {
                let whole = format!("{prefix}{rest}");
                proptest::prop_assert!(
                    regex::Regex::new(source).unwrap().is_match(&whole),
                    "{:?} on {:?}", source, whole
                );
            }
        }
    }

    #[test]
    fn a_name_going_on_from_a_childs_start_is_that_child() {
        let word = |prefix| UnknownWord {
            prefix,
            suffix: "",
            split: false,
            name: true,
            dir: Some("/home/u/p"),
        };
        let cwd = Some("/home/u/p");
        // `/tmp/tmp.` of `mktemp`, `build-` in the project: below their folders.
        assert!(!word("/tmp/tmp.").may_be_outside(cwd, true));
        assert!(!word("/home/u/p/build-").may_be_outside(cwd, false));
        assert!(!word("build-").may_be_outside(cwd, false));
        // `/tmp/` may be `/tmp` itself; `/home/u/p` may go on as `/home/u/pX`; `/tmp.` is at
        // the root.
        assert!(word("/tmp/").may_be_outside(cwd, true));
        assert!(word("/home/u/p").may_be_outside(cwd, false));
        assert!(word("/tmp.").may_be_outside(cwd, true));
        assert!(word("/tmp/tmp.").may_be_outside(cwd, false));
    }

    #[test]
    fn a_temporary_folder_holds_what_is_below_it_only() {
        for path in [
            "/tmp/build",
            "/tmp/build/x",
            "/var/tmp/cache",
            "/private/tmp/a.b",
            "/tmp/build-*",
            "/tmp/.b*",
        ] {
            assert!(in_tmp(path), "{path}");
        }
        for path in [
            "/tmp",
            "/tmp/",
            "/tmp/*",
            "/tmp/[ab]",
            "/tmp/.*",
            "/tmp/..*",
            "/tmp/?uild",
            "/tmpx/a",
            "/var/tmpx",
            "/etc",
            "~/tmp/x",
            "tmp/x",
        ] {
            assert!(!in_tmp(path), "{path}");
        }
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
        // Whatever the working directory, the root, its folders and homes are outside.
        assert!(outside("/", Some("/")));
        assert!(outside("/usr", Some("/")));
        assert!(outside("/etc/nginx", Some("/")));
        assert!(outside("/home/u", Some("/home/u")));
        assert!(!outside("/home/u/x", Some("/home/u")));
        assert!(outside("/*", Some("/")));
        assert!(!outside("/opt/app/build", Some("/opt/app")));
        assert!(outside("/opt/other", Some("/opt/app")));
        assert!(!outside("/srv/site/cache", Some("/srv/site")));
        assert!(outside("../x", None));
        assert!(outside("/etc", None));
        assert!(!outside("target", None));
    }
}
