//! The structure corpus `tests/shell/structure.txt`: each command line with the simple
//! commands a shell would run for it, written by hand from bash's own reading.
//!
//! Each entry is a `$ ` line (the command line; `\n` stands for a newline), then one line
//! per simple command: `program flags -- paths`, then `> target` per redirect, `?part` per
//! part only known at run time (`command`, `program`, `word`, `redirect`) and `< i,j` when
//! commands feed its input; or `unreadable`. Entries end at a blank line.

use rulesc_shell::{read, Context, Part, Reading, Script};

const CORPUS: &str = include_str!("../../tests/shell/structure.txt");

fn context() -> Context {
    Context {
        cwd: Some("/p".to_owned()),
        home: Some("/h".to_owned()),
        ..Context::default()
    }
}

fn render(script: &Script) -> Vec<String> {
    script
        .commands
        .iter()
        .map(|command| {
            let mut line = command.program.clone();
            for flag in &command.flags {
                line.push(' ');
                line.push_str(flag);
            }
            line.push_str(" --");
            for path in &command.paths {
                line.push(' ');
                line.push_str(path);
            }
            for redirect in &command.redirects {
                line.push_str(&format!(" {} {}", redirect.operator, redirect.target));
            }
            for file in &command.writes {
                line.push_str(&format!(" w {file}"));
            }
            for unknown in &command.unknown {
                line.push_str(match unknown.part {
                    Part::Command => " ?command",
                    Part::Program => " ?program",
                    Part::Word { .. } => " ?word",
                    Part::Redirect(_) => " ?redirect",
                    Part::Write(_) => " ?write",
                });
            }
            if !command.stdin_from.is_empty() {
                let from: Vec<String> = command.stdin_from.iter().map(usize::to_string).collect();
                line.push_str(&format!(" < {}", from.join(",")));
            }
            line
        })
        .collect()
}

#[test]
fn every_entry_reads_as_written() {
    let mut failures = Vec::new();
    let mut entries = 0;
    for entry in CORPUS.split("\n\n") {
        let mut lines = entry.lines().filter(|line| !line.starts_with('#'));
        let Some(command_line) = lines.next().and_then(|line| line.strip_prefix("$ ")) else {
            continue;
        };
        entries += 1;
        let command_line = command_line.replace("\\n", "\n");
        let expected: Vec<String> = lines.map(str::to_owned).collect();
        let actual = match read(&command_line, &context()) {
            Reading::Read(script) => render(&script),
            Reading::Unreadable(_) => vec!["unreadable".to_owned()],
        };
        if actual != expected {
            failures.push(format!(
                "$ {command_line}\n  expected {expected:#?}\n  actual {actual:#?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(entries >= 40, "only {entries} entries");
}

/// The commands of `line` other than the shells that run a nested script, rendered
fn without_shells(line: &str) -> Vec<String> {
    match read(line, &context()) {
        Reading::Read(script) => {
            // The indexes of the commands kept, for the inputs that name them.
            let kept: Vec<usize> = (0..script.commands.len())
                .filter(|at| {
                    script
                        .commands
                        .get(*at)
                        .is_some_and(|command| command.program != "bash")
                })
                .collect();
            let commands = kept
                .iter()
                .filter_map(|at| script.commands.get(*at))
                .map(|command| {
                    let mut command = command.clone();
                    command.stdin_from = command
                        .stdin_from
                        .iter()
                        .filter_map(|from| kept.iter().position(|kept| kept == from))
                        .collect();
                    command
                })
                .collect();
            render(&Script { commands })
        }
        Reading::Unreadable(_) => vec!["unreadable".to_owned()],
    }
}

/// A script given as an ANSI-C string (`$'…'`) is that string decoded, line breaks and
/// all, so a here-document in it is read as the same here-document on a line of its own:
/// each nested line must read as the direct line, but for the `bash` that runs it.
#[test]
fn a_here_document_in_an_ansi_c_script_reads_as_on_its_own_line() {
    let pairs = [
        (
            "bash -c $'sh <<EOF\\nrm -rf ~\\nEOF'",
            "sh <<EOF\nrm -rf ~\nEOF",
        ),
        (
            "bash -c $'cat <<\\'E\\' | sh\\nrm -rf /etc\\nE'",
            "cat <<'E' | sh\nrm -rf /etc\nE",
        ),
    ];
    for (nested, direct) in pairs {
        let direct_reading = without_shells(direct);
        assert!(direct_reading
            .iter()
            .any(|command| command.starts_with("rm ")));
        assert_eq!(without_shells(nested), direct_reading, "{nested}");
    }
    // A script `printf` prints with a redirect in its (quoted) format is read as the text
    // it prints, its escapes made newlines: never taken for none.
    let printed = without_shells("bash -c \"$(printf 'sh <<E\\nrm -rf ~\\nE')\"");
    assert!(
        printed.iter().any(|command| command.starts_with("rm ")),
        "{printed:?}"
    );
}

/// A function that calls itself, here or through others, is called without end (a fork
/// bomb): the call that reaches a function already being called is a command only known at
/// run time, naming the function. Kept out of `structure.txt`, whose lines run under real
/// bash in the shell oracle.
#[test]
fn a_function_that_calls_itself_runs_without_end() {
    let cases = [
        (":(){ :|:& };:", "`:` calls itself without end"),
        (
            "bomb(){ bomb|bomb& };bomb",
            "`bomb` calls itself without end",
        ),
        (
            "a(){ b; }; b(){ a|a& }; a",
            "`a` calls itself through `b` without end",
        ),
    ];
    for (line, why) in cases {
        let Reading::Read(script) = read(line, &context()) else {
            panic!("{line} is unreadable");
        };
        let endless = script.commands.iter().find(|command| {
            command
                .unknown
                .iter()
                .any(|unknown| unknown.part == Part::Command && unknown.why == why)
        });
        assert!(endless.is_some(), "{line}: {:#?}", render(&script));
    }
    // Defined and not called, or calling another function, it ends.
    for line in ["bomb(){ bomb|bomb& }", "a(){ ls; }; b(){ a; a; }; b"] {
        let Reading::Read(script) = read(line, &context()) else {
            panic!("{line} is unreadable");
        };
        let opaque = script
            .commands
            .iter()
            .flat_map(|command| &command.unknown)
            .any(|unknown| unknown.part == Part::Command);
        assert!(!opaque, "{line}: {:#?}", render(&script));
    }
}
