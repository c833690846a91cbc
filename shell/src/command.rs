//! The structure a command line is read into.

/// Every simple command of a command line, in source order (wrappers before what they run)
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Script {
    /// The simple commands; [`SimpleCommand::stdin_from`] indexes into this list
    pub commands: Vec<SimpleCommand>,
}

/// One program run with its words, as the shell would run it
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SimpleCommand {
    /// The program's basename after quote removal (`/usr/bin/rm`, `"rm"` and `r\m` are `rm`);
    /// empty when the name is only known at run time (`$cmd`)
    pub program: String,
    /// Every word after the program, after quote removal, in order
    pub args: Vec<String>,
    /// Flags: short clusters split (`-rf` is `-r` and `-f`), long flags without their value
    /// (`--force=yes` is `--force`); nothing after `--` is a flag
    pub flags: Vec<String>,
    /// The words that are not flags
    pub operands: Vec<String>,
    /// The first operand after the program's own global options (`push` in
    /// `git -C repo push`); `None` when there is none, or a word before it is only known
    /// at run time
    pub subcommand: Option<String>,
    /// The operands as paths, normalised lexically against the home and working directory
    pub paths: Vec<String>,
    /// Where output is redirected, with the target normalised as a path
    pub redirects: Vec<Redirect>,
    /// The files the command writes besides its redirects, normalised as paths: the
    /// destinations of writing programs (`cp x /etc/hosts`, `dd of=/dev/sda`, `sort -o F`,
    /// `tee F`), with `DIR/*` for what lands anywhere in a folder (`tar -x -C DIR`, `cp -r
    /// x DIR`)
    pub writes: Vec<String>,
    /// Indexes of the commands whose output reaches this command's input, directly or
    /// through other commands (pipelines, process and command substitution), sorted
    pub stdin_from: Vec<usize>,
    /// Whether the command's output becomes a word of the line (`$( … )`, backticks,
    /// `<( … )`) rather than the line's own output: `x=$(gh auth token)` prints nothing
    pub captured: bool,
    /// The variables of the environment its words (and a here-string) expand, by name:
    /// spelled (`$AWS_SECRET_ACCESS_KEY`), resolved through `${!k}` or a reference, or
    /// carried by a variable the line set from one (`v=$AWS_SECRET_ACCESS_KEY; "$v"`); not
    /// those the line sets itself, nor one named only at run time
    pub expands: Vec<String>,
    /// What about the command is only known when it runs; the words and redirects listed
    /// here are in none of the lists above
    pub unknown: Vec<Unknown>,
}

/// A part of a command only known when it runs, and why
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// Which part
    pub part: Part,
    /// Why it is unknown, for a message: "`$D` is set at run time"
    pub why: String,
}

/// Which part of a command is only known when it runs
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// All of it: code made at run time (`eval "$x"`, `base64 -d | sh`), or interpreter code
    /// that evaluates code, runs a command built at run time, or cannot be seen through
    /// (`python3 -c 'exec(...)'`)
    Command,
    /// The program (`$cmd -rf /`, `/???/???/sud?`)
    Program,
    /// A word after the program
    Word {
        /// The text the word is known to start with
        prefix: String,
        /// The text the word is known to end with, after its last part only known at run
        /// time (`.log` of `logs/$(date +%s).log`)
        suffix: String,
        /// Whether it may be several words, flags among them (an unquoted expansion)
        split: bool,
        /// Whether what lies between the prefix and the suffix is a name: no `/`, not
        /// starting with `-`, `+` or `:` (`$(date +%s)`), and no `..` after it
        name: bool,
        /// The folder the command runs in, as far as the line tells (after a `cd`): where a
        /// relative word would lead; `None` when that is known only at run time
        dir: Option<String>,
    },
    /// The target of an output redirect
    Redirect(Target),
    /// A file a writing program's words name (`cp x "$D"`)
    Write(Target),
}

/// What is known of a file a command writes whose path is only known when it runs
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The text the path is known to start with (`logs/` of `logs/$(date +%s).log`)
    pub prefix: String,
    /// The text the path is known to end with, after its last part only known at run time
    /// (`.log` of `logs/$(date +%s).log`)
    pub suffix: String,
    /// Whether what lies between the prefix and the suffix is a name: no `/`, not starting
    /// with `-`, `+` or `:`, and no `..` after it
    pub name: bool,
    /// The folder the command runs in, as far as the line tells
    pub dir: Option<String>,
}

/// One redirection of a command's output to a file
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The operator as written (`>`, `>>`, `&>`, `2>`, `>|`)
    pub operator: String,
    /// The target, normalised as a path
    pub target: String,
}

impl SimpleCommand {
    /// Whether the command has this flag (`-r` or `--force`), as [`SimpleCommand::flags`] lists them
    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags.iter().any(|own| own == flag)
    }
}
