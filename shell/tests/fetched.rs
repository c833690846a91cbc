//! The folders a clone writes, held to git: real git clones a local repository, or adds it
//! as a submodule, in a scratch project, and the folder it made must be the one the reader
//! says the command writes (with all below it), which a program run there then runs from.

use std::path::{Path, PathBuf};
use std::process::Command;

use rulesc_shell::{read, Context, Reading};

/// Each command, `SRC` standing for the repository's path, then the folder git makes
const CASES: &[(&str, &str)] = &[
    ("git clone SRC", "lib"),
    ("git clone -q --depth 1 file://SRC d", "d"),
    ("git -c protocol.file.allow=always submodule add SRC", "lib"),
    (
        "git -c protocol.file.allow=always submodule add -q SRC vendor/x",
        "vendor/x",
    ),
    (
        "git -c protocol.file.allow=always submodule add -b main --name n --depth 1 file://SRC v",
        "v",
    ),
    (
        "git -c protocol.file.allow=always submodule add --force --reference SRC SRC w",
        "w",
    ),
];

/// bash running `script` in `folder`, with no settings of the machine's or a user's
fn bash(folder: &Path, script: &str) -> Command {
    let mut bash = Command::new("bash");
    bash.args(["--norc", "--noprofile", "-c", script])
        .current_dir(folder)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", folder);
    bash
}

#[test]
fn a_clone_writes_the_folder_git_makes() {
    let scratch = std::env::temp_dir().join(format!("rulesc-fetched-{}", std::process::id()));
    let source = scratch.join("src").join("lib.git");
    std::fs::create_dir_all(&source).expect("a scratch folder");
    let init =
        "git init -q -b main && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m t";
    let made = bash(&source, init).output().expect("bash runs");
    assert!(made.status.success(), "{made:?}");
    let mut failures = Vec::new();
    for (index, (command, made)) in CASES.iter().enumerate() {
        let project: PathBuf = scratch.join(format!("p{index}"));
        std::fs::create_dir_all(&project).expect("a project folder");
        let command = command.replace("SRC", &source.to_string_lossy());
        let cloned = bash(&project, &format!("git init -q && {command}"))
            .output()
            .expect("bash runs");
        assert!(cloned.status.success(), "{command}: {cloned:?}");
        let expected = project.join(made);
        assert!(expected.join(".git").exists(), "{command}: no {made}");
        let context = Context {
            cwd: Some(project.to_string_lossy().into_owned()),
            ..Context::default()
        };
        let expected = expected.to_string_lossy().into_owned();
        let written = match read(&command, &context) {
            Reading::Read(script) => script
                .commands
                .into_iter()
                .flat_map(|command| command.writes)
                .collect(),
            Reading::Unreadable(why) => vec![format!("unreadable: {why}")],
        };
        if written != [expected.clone(), format!("{expected}/*")] {
            failures.push(format!("{command}\n  git: {expected}\n  read: {written:?}"));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
