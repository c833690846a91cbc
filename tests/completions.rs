//! `rulesc completions SHELL`: each shell's script offers every subcommand, by the names
//! CLI.md gives them.

mod common;

/// CLI.md's commands and the ones added since (README.md lists them all)
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
