//! The command lines database clients run from the statements they are given: meta-commands
//! that hand a line to a shell (`psql`'s `\! rm -rf ~`, `sqlite3`'s `.shell rm -rf ~`),
//! output piped into a command (`\o |cmd`, `.once |cmd`), and `COPY ... PROGRAM 'cmd'`.
//! The statements come from a client's options (`psql -c`, `mysql -e`, `sqlite3 -cmd`),
//! the words after the database (`sqlite3 app.db '.shell ...'`) or a literal input (a
//! here-document, `echo ... |`).

use crate::knowledge::{self, Escape};

/// The command lines `program` runs from its statements in `args` and `stdin`; `None` when
/// `program` is no database client the table knows
pub(crate) fn command_lines(
    program: &str,
    args: &[String],
    stdin: Option<&str>,
) -> Option<Vec<String>> {
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
    let mut lines = Vec::new();
    for statement in statements {
        for line in statement.lines() {
            lines.extend(line_escapes(client.escapes, line));
        }
    }
    Some(lines)
}

/// The command lines one line of statements hands to a shell
fn line_escapes(escapes: &[Escape], line: &str) -> Vec<String> {
    let trimmed = line.trim_start();
    let mut found = Vec::new();
    for escape in escapes {
        match escape {
            // `\!` may follow a statement on its line, and takes the rest of it.
            Escape::Anywhere(mark) => {
                if let Some((_, rest)) = line.split_once(mark) {
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
                if let Some(command) = rest.and_then(|rest| rest.strip_prefix('|')) {
                    found.push(command.trim().trim_end_matches(['\'', '"']).to_owned());
                }
            }
            Escape::Program => found.extend(programs(line)),
        }
    }
    found.retain(|line| !line.is_empty());
    found
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

    fn lines(program: &str, args: &[&str], stdin: Option<&str>) -> Vec<String> {
        let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
        command_lines(program, &args, stdin).unwrap_or_default()
    }

    #[test]
    fn each_escape_of_the_table_yields_its_command_line() {
        assert_eq!(lines("psql", &["-c", "\\! rm -rf ~"], None), ["rm -rf ~"]);
        assert_eq!(lines("psql", &["--command=select 1 \\! id"], None), ["id"]);
        assert_eq!(lines("psql", &[], Some("\\o | sh\nselect 1;")), ["sh"]);
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
        assert_eq!(lines("sqlite3", &["a.db"], Some(".once '|sh'")), ["sh"]);
        assert_eq!(lines("duckdb", &[], Some("  .SHELL id")), ["id"]);
    }

    #[test]
    fn statements_without_escapes_run_nothing() {
        assert!(lines("psql", &["-c", "select * from programs"], None).is_empty());
        assert!(lines("sqlite3", &["app.db", "select shell from t"], None).is_empty());
        assert!(lines("mysql", &["-e", "select 1"], Some("show tables;")).is_empty());
        assert!(lines("sqlite3", &["app.db"], Some(".output out.txt")).is_empty());
        assert_eq!(command_lines("ls", &[], None), None);
    }
}
