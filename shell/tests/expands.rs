//! The variables of the environment a command's words expand, held to bash: real bash runs
//! each line with every watched variable set, and again with one of them changed; the words
//! bash gives the marked command (`printf '<%s>\0' WORDS…`) depend on the variable exactly
//! when the reader lists it among what that command expands.

use std::collections::BTreeSet;
use std::process::Command;

use rulesc_shell::{read, Context, Reading};

/// The format of the command whose words are compared, which marks it among the others
const MARK: &str = "<%s>\\0";

/// The variables the lines may read from the environment
const WATCHED: [&str; 3] = ["SECRET_A", "TOKEN_B", "OTHER_C"];

/// Lines whose marked `printf` expands some of [`WATCHED`], or none, however it is spelled
/// or reached
const CASES: &[&str] = &[
    r#"printf '<%s>\0' "$SECRET_A" x"#,
    r#"pr""intf '<%s>\0' "k=${TOKEN_B}" "${OTHER_C:-d}""#,
    r#"v=$SECRET_A; printf '<%s>\0' "$v""#,
    r#"v=$SECRET_A; v=ok; printf '<%s>\0' "$v""#,
    r#"SECRET_A=mine; printf '<%s>\0' "$SECRET_A""#,
    r#"export V="x:$TOKEN_B"; printf '<%s>\0' "$V""#,
    r#"V=a; V+="$OTHER_C"; printf '<%s>\0' "$V""#,
    r#"k=TOKEN_B; printf '<%s>\0' "${!k}""#,
    r#"declare -n r=OTHER_C; printf '<%s>\0' "$r""#,
    r#"a=("$SECRET_A" x); printf '<%s>\0' "${a[@]}""#,
    r#"for v in "$TOKEN_B" b; do printf '<%s>\0' "$v"; done"#,
    r#"printf -v q '%s' "$OTHER_C"; printf '<%s>\0' "$q""#,
    r#"read -r w <<< "$SECRET_A"; printf '<%s>\0' "$w""#,
    r#"env printf '<%s>\0' "$TOKEN_B""#,
    r#"printf '<%s>\0' "$(echo "$SECRET_A")""#,
    r#"f(){ printf '<%s>\0' "$1"; }; f "$OTHER_C""#,
];

/// bash running `line` with the watched variables set, `changed` to another value
fn bash(line: &str, changed: Option<&str>) -> Command {
    let mut bash = Command::new("bash");
    bash.args(["--norc", "--noprofile", "-c", line])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    for name in WATCHED {
        let value = if changed == Some(name) {
            "changed"
        } else {
            "value"
        };
        bash.env(name, value);
    }
    bash
}

/// The watched variables the reader says every marked `printf` of `line` expands
fn read_as(line: &str) -> Result<BTreeSet<String>, String> {
    match read(line, &Context::default()) {
        Reading::Read(script) => Ok(script
            .commands
            .into_iter()
            .filter(|command| {
                command.program == "printf"
                    && command.args.first().is_some_and(|format| format == MARK)
            })
            .flat_map(|command| command.expands)
            .filter(|name| WATCHED.contains(&name.as_str()))
            .collect()),
        Reading::Unreadable(why) => Err(format!("unreadable: {why}")),
    }
}

#[test]
fn a_command_expands_the_variables_its_words_depend_on_in_bash() {
    let mut failures = Vec::new();
    for line in CASES {
        let words = |changed| {
            let output = bash(line, changed).output().expect("bash runs");
            assert!(output.status.success(), "{line}: {output:?}");
            output.stdout
        };
        let base = words(None);
        assert!(!base.is_empty(), "{line}: bash printed nothing");
        let bash: BTreeSet<String> = WATCHED
            .iter()
            .filter(|name| words(Some(name)) != base)
            .map(|name| (*name).to_owned())
            .collect();
        let reader = read_as(line);
        if reader.as_ref() != Ok(&bash) {
            failures.push(format!("{line}\n  bash: {bash:?}\n  read: {reader:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
