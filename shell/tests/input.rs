//! What reaches a command as its input or its arguments, held to bash: real bash runs each
//! line, whose last command, fed by `xargs` or reading a script from its input, is `printf
//! '<%s>\0' WORDS…`; the words it prints must be those the reader gives that command (the
//! reader lists the commands one `xargs` runs in an order of its own, so the words are
//! compared sorted).

use std::process::Command;

use rulesc_shell::{read, Context, Reading};

/// The format of the command whose words are compared, which marks it among the others
const MARK: &str = "<%s>\\0";

/// Lines whose marked `printf` gets its words through `xargs -0`/`-d`, or runs from the
/// literal input of a shell's `-c` script, a group or a function
const CASES: &[&str] = &[
    // xargs(1): `-0` splits at NULs and `-d` at its character, quotes and blanks kept.
    r#"printf '%s\0' a 'b c' "d'e" | xargs -0 printf '<%s>\0'"#,
    r"printf 'a\nb\0c' | xargs -0 printf '<%s>\0'",
    r"printf 'x,,y,' | xargs -d , printf '<%s>\0'",
    r"printf '%s\n' 'a b' c | xargs -d '\n' printf '<%s>\0'",
    r"printf '%s\n' 'a b' c | xargs --delimiter='\n' printf '<%s>\0'",
    r"printf 'a\0b\0' | xargs --null -n1 printf '<%s>\0'",
    r"printf 'a\0STOP\0b' | xargs -0 -E STOP printf '<%s>\0'",
    r"printf '%s\0' a b | xargs -0 -I{} printf '<%s>\0' 'x{}'",
    // A shell's literal input is the input of its script's commands, wherever they stand.
    r#"bash -c 'cd /tmp && source /dev/stdin' <<< "printf '<%s>\0' a 'b c'""#,
    r#"echo "printf '<%s>\0' x" | bash -c 'if true; then sh; fi'"#,
    r#"bash -c 'eval "$(cat)"' <<< "printf '<%s>\0' y z""#,
    r#"sh -c '. /dev/fd/0' <<'EOF'
printf '<%s>\0' here
EOF"#,
    r#"{ true; bash -s; } <<< "printf '<%s>\0' g""#,
    r#"f(){ sh; }; f <<< "printf '<%s>\0' h""#,
    r#"echo "printf '<%s>\0' e" | eval 'bash -s'"#,
];

/// bash running `line` in `home`, its home
fn bash(line: &str, home: &str) -> Command {
    let mut bash = Command::new("bash");
    bash.args(["--norc", "--noprofile", "-c", line])
        .current_dir(home)
        .env("HOME", home);
    bash
}

/// The words a marked `printf` printed in `output`, sorted
fn printed(output: &[u8]) -> Vec<String> {
    let mut words: Vec<String> = String::from_utf8_lossy(output)
        .split('\0')
        .filter(|item| !item.is_empty())
        .map(|item| {
            item.trim_start_matches('<')
                .trim_end_matches('>')
                .to_owned()
        })
        .collect();
    words.sort();
    words
}

/// The words the reader gives every marked `printf` of `line`, sorted
fn read_as(line: &str, context: &Context) -> Result<Vec<String>, String> {
    match read(line, context) {
        Reading::Read(script) => {
            let mut words: Vec<String> = script
                .commands
                .into_iter()
                .filter(|command| {
                    command.program == "printf"
                        && command.args.first().is_some_and(|format| format == MARK)
                })
                .flat_map(|command| command.args.into_iter().skip(1))
                .collect();
            words.sort();
            Ok(words)
        }
        Reading::Unreadable(why) => Err(format!("unreadable: {why}")),
    }
}

#[test]
fn a_command_is_given_the_words_and_the_input_bash_gives_it() {
    let home = std::env::temp_dir();
    let home = home.to_string_lossy();
    let context = Context {
        cwd: Some(home.to_string()),
        home: Some(home.to_string()),
        ..Context::default()
    };
    let mut failures = Vec::new();
    for line in CASES {
        let output = bash(line, &home).output().expect("bash runs");
        assert!(output.status.success(), "{line}: {output:?}");
        let bash = printed(&output.stdout);
        assert!(!bash.is_empty(), "{line}: bash printed nothing");
        let reader = read_as(line, &context);
        if reader.as_ref() != Ok(&bash) {
            failures.push(format!("{line}\n  bash: {bash:?}\n  read: {reader:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
