//! The command lines in Vim script given to an editor on its command line (`vim -c CMD`,
//! `+CMD`, `--cmd CMD`): `:!CMD`, `:r !CMD`, `system("CMD")`, `delete(PATH, "rf")`, and the
//! calls whose command line or path only run time knows.

/// Vim's functions that run a command line or code of another language, or delete a
/// path, and the Ex commands that run code of another language (`:lua`, `:py3`): read
/// where [`literal_runs`] can, else what they do is only known at run time
const RUNNERS: &[&str] = &[
    "system(",
    "systemlist(",
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
    let mut scripts = Vec::new();
    // `:!CMD`, `:r !CMD`, `:w !CMD`, `:%!CMD`: what follows the bang is a shell's.
    if let Some((_, command)) = value.split_once('!') {
        scripts.push(Ok(command.trim().to_owned()));
    }
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

/// The runners [`literal_runs`] reads
const LITERAL: &[&str] = &["system(", "systemlist(", "delete("];

/// The command lines of the calls given literal arguments: `system("CMD")`,
/// `systemlist("CMD")`, and `delete(PATH, FLAGS)` as `rm`; and whether every such call was
/// given one
fn literal_runs(value: &str) -> (Vec<String>, bool) {
    let mut runs = Vec::new();
    let mut all_read = true;
    for function in LITERAL {
        for rest in calls(value, function) {
            let rest = rest.trim_start();
            let run = if *function == "delete(" {
                deletion(rest)
            } else {
                literal(rest).map(|(command, _)| command)
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

/// The arguments of `delete()` as `rm`: `delete(PATH)` is `rm PATH`, `delete(PATH, "rf")`
/// `rm -rf PATH`, `delete(PATH, "d")` `rmdir PATH`
fn deletion(arguments: &str) -> Option<String> {
    let (path, rest) = path(arguments)?;
    let flags = rest
        .trim_start()
        .strip_prefix(',')
        .and_then(|rest| literal(rest.trim_start()))
        .map(|(flags, _)| flags)
        .unwrap_or_default();
    let program = match flags.as_str() {
        "rf" => "rm -rf --",
        "d" => "rmdir --",
        _ => "rm --",
    };
    Some(format!("{program} {path}"))
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
    use super::{scripts, sourced_files};

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
        ];
        for (value, expected) in cases {
            assert_eq!(scripts(value), [Ok(expected.to_owned())], "{value}");
        }
        for value in ["wq", "set ft=python", "call mysystem('x')", "%s/a/b/g"] {
            assert_eq!(scripts(value), [], "{value}");
        }
        for value in [
            "call system(g:cmd)",
            "call jobstart(['rm', '-rf', '~'])",
            "call delete(g:dir, 'rf')",
            "lua os.execute('rm -rf ~')",
            "call termopen(x)",
            "call system('ls') | call system(g:x)",
        ] {
            assert!(scripts(value).iter().any(Result::is_err), "{value}");
        }
    }
}
