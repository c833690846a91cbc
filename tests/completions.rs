//! `rulesc completions SHELL`: each shell's script offers every subcommand, by the names
//! docs/cli.md gives them, every document `rulesc schema --list` prints and every diagnostic code
//! of the compiler's table; bash, run on its script, completes them.

#![expect(
    clippy::unwrap_used,
    reason = "a script that cannot be written or run should fail the test"
)]

use crate::common;

/// docs/cli.md's commands and the ones added since (README.md lists them all)
const SUBCOMMANDS: [&str; 11] = [
    "check",
    "explain",
    "fmt",
    "compile",
    "eval",
    "test",
    "run",
    "hook",
    "init",
    "completions",
    "schema",
];

#[test]
fn every_shell_script_names_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let (code, stdout, stderr) = common::rulesc(".", &["completions", shell]);
        assert_eq!(code, 0, "{shell}: {stderr}");
        assert!(stderr.is_empty(), "{shell}: {stderr}");
        for subcommand in SUBCOMMANDS {
            let word = regex::Regex::new(&format!(r"\b{subcommand}\b")).unwrap();
            assert!(
                word.is_match(&stdout),
                "{shell} does not complete `{subcommand}`"
            );
        }
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let (code, stdout, stderr) = common::rulesc(".", &["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.contains("tcsh"), "{stderr}");
}

/// The kinds `rulesc schema --list` prints, the first word of each line
fn schema_kinds() -> Vec<String> {
    let (code, stdout, stderr) = common::rulesc(".", &["schema", "--list"]);
    assert_eq!(code, 0, "{stderr}");
    let kinds: Vec<String> = stdout
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    assert!(kinds.len() > 10, "{stdout}");
    kinds
}

/// The ids of every diagnostic code
fn code_ids() -> Vec<String> {
    rulesc::codes::ALL
        .iter()
        .map(|code| code.id.to_owned())
        .collect()
}

#[test]
fn every_shell_script_names_every_schema_kind_and_code() {
    let kinds = schema_kinds();
    let codes = code_ids();
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let (_, stdout, _) = common::rulesc(".", &["completions", shell]);
        for value in kinds.iter().chain(&codes) {
            let word = regex::Regex::new(&format!(r"(^|[^\w-]){value}([^\w-]|$)")).unwrap();
            assert!(
                stdout.lines().any(|line| word.is_match(line)),
                "{shell} does not offer `{value}`"
            );
        }
    }
}

/// What bash offers for the last of `words` (`""` for a new word), with the function of
/// the script `rulesc completions bash` prints, as bash's completion would call it
fn bash_offers(words: &[&str]) -> Vec<String> {
    let (_, script, _) = common::rulesc(".", &["completions", "bash"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rulesc.bash");
    std::fs::write(&path, script).unwrap();
    let quoted: Vec<String> = words.iter().map(|word| format!("'{word}'")).collect();
    let program = format!(
        "source '{}'\n\
         COMP_WORDS=({})\n\
         COMP_CWORD={}\n\
         COMP_LINE=\"${{COMP_WORDS[*]}}\"\n\
         COMP_POINT=${{#COMP_LINE}}\n\
         _rulesc rulesc \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        path.display(),
        quoted.join(" "),
        words.len() - 1,
    );
    let output = std::process::Command::new("bash")
        .arg("-c")
        .arg(program)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn bash_completes_schema_kinds_and_codes() {
    let mut kinds = schema_kinds();
    kinds.sort();
    let mut offered = bash_offers(&["rulesc", "schema", ""]);
    offered.retain(|word| !word.starts_with('-'));
    offered.sort();
    assert_eq!(offered, kinds);

    let mut codes = code_ids();
    codes.sort();
    let mut offered = bash_offers(&["rulesc", "explain", ""]);
    offered.retain(|word| !word.starts_with('-'));
    offered.sort();
    assert_eq!(offered, codes);

    let e01: Vec<String> = code_ids()
        .into_iter()
        .filter(|id| id.starts_with("E01"))
        .collect();
    assert_eq!(bash_offers(&["rulesc", "explain", "E01"]), e01);
    assert_eq!(
        bash_offers(&["rulesc", "schema", "hook-a"]),
        ["hook-answer"]
    );
}
