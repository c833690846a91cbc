//! The command lines a debugger's own commands run: `gdb -ex 'shell CMD'`, `lldb -o
//! 'platform shell CMD'`, `call system("CMD")` in the program being debugged, from its
//! options, its command files and its input; and the commands whose effect the reader
//! cannot see (`python …`, `source FILE`), known only at run time.

/// A debugger, and how its command language reaches a shell
pub(crate) struct Debugger {
    /// The programs
    pub(crate) programs: &'static [&'static str],
    /// Options whose value is one command (`gdb -ex CMD`, `lldb -o CMD`)
    command_options: &'static [&'static str],
    /// Options whose value is a file of commands (`gdb -x FILE`, `lldb -s FILE`)
    file_options: &'static [&'static str],
    /// Whether a single `-` opens a long option, as getopt_long_only reads gdb's
    long_only: bool,
    /// Commands, as words, whose rest is a command line a shell runs (`shell CMD`, `set
    /// exec-wrapper CMD`); each word may be shortened to a prefix, as the debugger allows
    shell: &'static [&'static [&'static str]],
    /// Commands whose rest are the words of a program a shell runs: `make ARGS`, and `run
    /// ARGS`, whose arguments of the debugged program a shell expands (`run $(CMD)`), read
    /// as words of `:`
    launch: &'static [(&'static [&'static str], &'static str)],
    /// Commands that run code of another language or read more commands (`python`,
    /// `source`, `eval`), which the reader does not read
    opaque: &'static [&'static [&'static str]],
}

/// The debuggers the reader knows (gdb(1), "Invoking GDB"; lldb(1) and its command help)
pub(crate) const DEBUGGERS: &[Debugger] = &[
    Debugger {
        programs: &["gdb", "gdb-multiarch", "cgdb"],
        command_options: &["ex", "eval-command", "iex", "init-eval-command"],
        file_options: &["x", "command", "ix", "init-command"],
        long_only: true,
        shell: &[&["shell"], &["set", "exec-wrapper"]],
        launch: &[
            (&["run"], ":"),
            (&["r"], ":"),
            (&["start"], ":"),
            (&["starti"], ":"),
            (&["make"], "make"),
        ],
        opaque: &[
            &["python"],
            &["py"],
            &["python-interactive"],
            &["pi"],
            &["guile"],
            &["gu"],
            &["guile-repl"],
            &["gr"],
            &["source"],
            &["eval"],
            &["compile"],
            &["expression"],
            &["jit-reader-load"],
            &["pipe"],
        ],
    },
    Debugger {
        programs: &["lldb"],
        command_options: &[
            "o",
            "one-line",
            "O",
            "one-line-before-file",
            "k",
            "one-line-on-crash",
        ],
        file_options: &[
            "s",
            "source",
            "S",
            "source-before-file",
            "K",
            "source-on-crash",
        ],
        long_only: false,
        shell: &[&["platform", "shell"], &["shell"]],
        launch: &[
            (&["run"], ":"),
            (&["r"], ":"),
            (&["process", "launch"], ":"),
        ],
        opaque: &[
            &["script"],
            &["command", "script"],
            &["command", "source"],
            &["command", "regex"],
            &["command", "alias"],
        ],
    },
];

/// The row of [`DEBUGGERS`] for `program`
pub(crate) fn debugger(program: &str) -> Option<&'static Debugger> {
    DEBUGGERS.iter().find(|row| row.programs.contains(&program))
}

/// C functions that run a command line in the program being debugged
const RUNS_A_LINE: &[&str] = &["system", "popen"];

/// C functions that run a program, or load code, in the program being debugged, from words
/// the reader does not assemble
const RUNS_A_PROGRAM: &[&str] = &[
    "execl",
    "execlp",
    "execle",
    "execv",
    "execvp",
    "execve",
    "execvpe",
    "fexecve",
    "posix_spawn",
    "posix_spawnp",
    "dlopen",
];

impl Debugger {
    /// The values of the options in `args` that carry one command, and of those that name
    /// a file of commands, before the debugged program's own words (`gdb --args`, `--`)
    pub(crate) fn given<'a>(&self, args: &'a [String]) -> (Vec<&'a str>, Vec<&'a str>) {
        let mut commands = Vec::new();
        let mut files = Vec::new();
        let mut words = args.iter();
        while let Some(arg) = words.next() {
            if arg == "--" || arg == "--args" {
                break;
            }
            let Some(option) = arg.strip_prefix('-') else {
                continue;
            };
            let long = option.strip_prefix('-');
            let body = long.unwrap_or(option);
            let (name, glued) = match body.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (body, None),
            };
            // Whether `name` is an option carrying a command (`true`) or a file (`false`).
            let which = |name: &str, short: bool| {
                if self.stands_for(name, short, self.command_options) {
                    Some(true)
                } else if self.stands_for(name, short, self.file_options) {
                    Some(false)
                } else {
                    None
                }
            };
            // The word whole, as a long option (`--one-line`, gdb's `-ex`, lldb's
            // `-one-line`); else, where short options exist, its first letter with the value
            // glued on (`-oCMD`).
            let short = || {
                if long.is_some() || self.long_only {
                    return None;
                }
                let first = option.chars().next()?;
                let rest = option
                    .get(first.len_utf8()..)
                    .filter(|rest| !rest.is_empty());
                which(&option[..first.len_utf8()], true).map(|kind| (kind, rest))
            };
            let Some((carries_command, value)) =
                which(name, false).map(|kind| (kind, glued)).or_else(short)
            else {
                continue;
            };
            let value = value.or_else(|| words.next().map(String::as_str));
            if carries_command {
                commands.extend(value);
            } else {
                files.extend(value);
            }
        }
        (commands, files)
    }

    /// Whether the option `name` is one of `options`: itself, or a long option shortened
    /// to a prefix, which the debugger takes for that option or refuses as ambiguous
    fn stands_for(&self, name: &str, short: bool, options: &[&str]) -> bool {
        let all = || self.command_options.iter().chain(self.file_options);
        options.contains(&name)
            || (!short
                && name.len() > 1
                && !all().any(|option| *option == name)
                && options.iter().any(|option| option.starts_with(name)))
    }

    /// What one line of the debugger's commands runs: the command lines it hands a shell,
    /// and, as `Err`, why what it runs is only known when it runs
    pub(crate) fn line_scripts(&self, program: &str, line: &str) -> Vec<Result<String, String>> {
        let line = line.trim();
        let mut found = called_lines(program, line);
        if let Some(rest) = line.strip_prefix('!') {
            found.push(Ok(rest.to_owned()));
            return found;
        }
        if line.starts_with('|') {
            found.push(Err(format!(
                "`{program}` pipes a command's output into a command line it builds as it runs"
            )));
            return found;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let launched = self
            .launch
            .iter()
            .find(|(command, _)| starts(command, &words));
        if let Some(command) = self.shell.iter().find(|command| starts(command, &words)) {
            found.push(Ok(after_words(line, command.len()).to_owned()));
        } else if let Some((command, runs)) = launched {
            found.push(Ok(format!("{runs} {}", after_words(line, command.len()))));
        } else if let Some(command) = self.opaque.iter().find(|command| starts(command, &words)) {
            found.push(Err(format!(
                "`{program}` runs `{}`, whose code or commands are only known when it runs",
                command.join(" ")
            )));
        }
        found
    }
}

/// Whether `words` start with `command`, each of its words given whole or shortened to a
/// prefix of two characters or more, or one for a one-letter command
fn starts(command: &[&str], words: &[&str]) -> bool {
    command.len() <= words.len()
        && command.iter().zip(words).all(|(name, word)| {
            let word = word.to_ascii_lowercase();
            *name == word || (word.len() > 1 && name.starts_with(word.as_str()))
        })
}

/// The text of `line` after its first `count` words
fn after_words(line: &str, count: usize) -> &str {
    let mut rest = line;
    for _ in 0..count {
        rest = rest.trim_start();
        rest = &rest[rest.find(char::is_whitespace).unwrap_or(rest.len())..];
    }
    rest.trim_start()
}

/// The command lines a command's calls of C functions run in the debugged program
/// (`call system("CMD")`, `print popen("CMD", "r")`): a plain string literal is read, any
/// other argument, or a function that runs a program, is only known when it runs
fn called_lines(program: &str, line: &str) -> Vec<Result<String, String>> {
    let mut found = Vec::new();
    for (at, _) in line.match_indices('(') {
        let before = &line[..at];
        let name_start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |at| at + 1);
        let name = before[name_start..].trim_start_matches('_');
        let name = name.strip_prefix("libc_").unwrap_or(name);
        if RUNS_A_LINE.contains(&name) {
            found.push(string_literal(&line[at + 1..]).ok_or_else(|| {
                format!("`{program}` calls `{name}` with a command line built when it runs")
            }));
        } else if RUNS_A_PROGRAM.contains(&name) {
            found.push(Err(format!(
                "`{program}` calls `{name}` in the program it debugs, which runs what only run time knows"
            )));
        }
    }
    found
}

/// The text of a C string literal at the start of `text`, when it holds no escape
fn string_literal(text: &str) -> Option<String> {
    let rest = text.trim_start().strip_prefix('"')?;
    let end = rest.find(['"', '\\'])?;
    rest[end..].starts_with('"').then(|| rest[..end].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    fn gdb() -> &'static Debugger {
        debugger("gdb").expect("gdb is known")
    }

    fn lldb() -> &'static Debugger {
        debugger("lldb").expect("lldb is known")
    }

    /// gdb(1): `-ex`, `--eval-command=`, `-x FILE`; getopt_long_only takes a unique prefix
    #[test]
    fn gdb_options_carry_commands_and_files() {
        let args = words(
            "-q -batch -ex bt --eval-command=info -x a.gdb -command=b.gdb -eval-comm c -p 1 --args ./app -ex d",
        );
        let (commands, files) = gdb().given(&args);
        assert_eq!(commands, ["bt", "info", "c"]);
        assert_eq!(files, ["a.gdb", "b.gdb"]);
        assert_eq!(gdb().given(&words("-batch -p 1 ./app")), (vec![], vec![]));
    }

    /// lldb(1): `-o CMD`, `--one-line CMD`, `-s FILE`, `-oCMD`; its long options take one
    /// dash too (`-one-line CMD`)
    #[test]
    fn lldb_options_carry_commands_and_files() {
        let args = words(
            "-b -o run --one-line=bt -obt -one-line c -s a.lldb --source b.lldb ./app -- -o x",
        );
        let (commands, files) = lldb().given(&args);
        assert_eq!(commands, ["run", "bt", "bt", "c"]);
        assert_eq!(files, ["a.lldb", "b.lldb"]);
    }

    fn read(debugger: &Debugger, line: &str) -> Vec<Result<String, String>> {
        debugger.line_scripts("dbg", line)
    }

    #[test]
    fn shell_commands_are_read_shortened_or_whole() {
        assert_eq!(read(gdb(), "shell rm -rf ~"), [Ok("rm -rf ~".to_owned())]);
        assert_eq!(read(gdb(), "she rm x"), [Ok("rm x".to_owned())]);
        assert_eq!(read(gdb(), "!rm x"), [Ok("rm x".to_owned())]);
        assert_eq!(read(gdb(), "make -C /"), [Ok("make -C /".to_owned())]);
        assert_eq!(
            read(gdb(), "set exec-wrapper rm -rf"),
            [Ok("rm -rf".to_owned())]
        );
        assert_eq!(read(gdb(), "run $(id)"), [Ok(": $(id)".to_owned())]);
        assert_eq!(read(lldb(), "pla sh rm x"), [Ok("rm x".to_owned())]);
        assert_eq!(read(lldb(), "platform shell rm x"), [Ok("rm x".to_owned())]);
        for line in [
            "bt",
            "info registers",
            "p x",
            "show version",
            "set pagination off",
        ] {
            assert_eq!(read(gdb(), line), [], "{line}");
        }
    }

    #[test]
    fn code_of_other_languages_is_unknown() {
        for line in [
            "python import os",
            "py os.system('x')",
            "pi",
            "source x.gdb",
            "| bt | sh",
        ] {
            let found = read(gdb(), line);
            assert!(
                !found.is_empty() && found.iter().all(Result::is_err),
                "{line}"
            );
        }
        for line in ["script import os", "command script import x.py", "com so x"] {
            assert!(matches!(read(lldb(), line).as_slice(), [Err(_)]), "{line}");
        }
    }

    #[test]
    fn calls_in_the_debugged_program_run_their_lines() {
        assert_eq!(
            read(gdb(), r#"call system("rm -rf ~")"#),
            [Ok("rm -rf ~".to_owned())]
        );
        assert_eq!(
            read(lldb(), r#"expr (int)__libc_system("id")"#),
            [Ok("id".to_owned())]
        );
        assert!(matches!(
            read(gdb(), "print system(cmd)").as_slice(),
            [Err(_)]
        ));
        assert!(matches!(
            read(gdb(), r#"call system("a\x20b")"#).as_slice(),
            [Err(_)]
        ));
        assert!(matches!(
            read(gdb(), r#"call execl("/bin/sh", 0)"#).as_slice(),
            [Err(_)]
        ));
        assert_eq!(read(gdb(), "call getpid()"), []);
    }
}
