//! Links made on a line, held to the file system: real bash runs each line's setup (`ln`,
//! `cp -s`, `mkdir`, `cd`) in a scratch folder, then `realpath` says where an operand leads;
//! the reader, given the same line with `ls` on the operand, must give that path.

use std::path::{Path, PathBuf};
use std::process::Command;

use rulesc_shell::{read, Context, Reading};

/// A setup line, then the operand a command after it names
const CASES: &[(&str, &str)] = &[
    ("ln -s ~ x", "x/"),
    ("ln -s ~ x", "x/.ssh/id"),
    ("ln -sfn ../.. up", "up/w"),
    ("mkdir d && ln -s ~ d", "d/h/x"),
    ("mkdir d && ln -st d ~", "d/h/"),
    ("mkdir d && ln -s ~ d/", "d/h/x"),
    ("mkdir d && cd d && ln -s ~ .", "h/x"),
    ("ln -s -T ~ t", "t/a"),
    ("mkdir sub && ln -s -r .. sub/up", "sub/up/x"),
    ("mkdir sub && ln -s .. sub/up", "sub/up/x"),
    ("ln -s ~ a && ln -s a/ b", "b/x"),
    ("mkdir -p ../q d && ln -s ~ ../q d", "d/q/x"),
    ("ln -s ~ x; cd x", "y"),
    ("ln -s ~ x; cd x/..", "y"),
    ("touch ~/f && cp -s ~/f l", "l"),
    ("ln --symbolic --no-target-directory .. u", "u/p"),
    ("ln -s ~ x && ln -s x/ y && cd y", "z"),
];

#[test]
fn a_path_through_a_link_made_on_the_line_is_where_the_file_system_leads() {
    let scratch = Scratch::new("symbolic-links").expect("a scratch folder");
    let mut failures = Vec::new();
    for (index, (setup, operand)) in CASES.iter().enumerate() {
        let case = scratch.case(index).expect("a case's folders");
        let script = format!("{setup}; realpath -m -- {operand}");
        let output = case.bash(&script).output().expect("bash runs");
        assert!(output.status.success(), "{script}: {output:?}");
        let real = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        let line = format!("{setup}; ls -d -- {operand}");
        let read = match read(&line, &case.context) {
            Reading::Read(script) => script
                .commands
                .last()
                .and_then(|command| command.paths.first().cloned()),
            Reading::Unreadable(why) => Some(format!("unreadable: {why}")),
        };
        if read.as_deref() != Some(real.as_str()) {
            failures.push(format!("{line}\n  bash: {real}\n  read: {read:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Hard links made on a line, then a file written through one: `-ef` (same file) of bash
/// holds between the file the line writes and the path the reader gives its redirect
const HARD_LINKS: &[(&str, &str)] = &[
    ("touch ~/.bashrc && ln ~/.bashrc b", "b"),
    ("mkdir -p ../q && touch ../q/f && ln ../q/f sub", "sub"),
    ("touch ~/.profile && cp -l ~/.profile p", "p"),
    ("mkdir d && touch ~/f && ln ~/f d", "d/f"),
];

#[test]
fn a_file_written_through_a_hard_link_made_on_the_line_is_its_target() {
    let scratch = Scratch::new("hard-links").expect("a scratch folder");
    let mut failures = Vec::new();
    for (index, (setup, written)) in HARD_LINKS.iter().enumerate() {
        let case = scratch.case(index).expect("a case's folders");
        let line = format!("{setup}; : > {written}");
        let target = match read(&line, &case.context) {
            Reading::Read(script) => script
                .commands
                .last()
                .and_then(|command| command.redirects.first())
                .map(|redirect| redirect.target.clone()),
            Reading::Unreadable(_) => None,
        };
        let Some(target) = target else {
            failures.push(format!("{line}: no redirect read"));
            continue;
        };
        let check = format!(
            "{setup}; [ {written} -ef '{target}' ] && [ '{target}' != \"$PWD/{written}\" ]"
        );
        let same = case.bash(&check).status().expect("bash runs");
        if !same.success() {
            failures.push(format!("{line}: the reader writes {target}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A setup line, then a command that follows the links below its operand `c`: each path
/// `find -L c` reaches (real bash, on the scratch's files) lies at or below a path the
/// reader gives the command
const FOLLOWED: &[(&str, &str)] = &[
    (
        "mkdir -p c ~/d && touch ~/d/f && ln -s ~/d c/h",
        "find -L c -delete",
    ),
    ("mkdir -p c/x ~/d && ln -s ~/d c/x/h", "find c -follow"),
    (
        "mkdir -p c ~/.ssh && touch ~/.ssh/k && ln -s ~/.ssh c/s",
        "grep -Rn k c",
    ),
    (
        "mkdir -p c ../o && touch ../o/f && ln -s ../../o c/o",
        "chmod -R -L 700 c",
    ),
    (
        "mkdir -p c ~/d && ln -s ~ ~/d/h && ln -s ~/d c/d",
        "tar -czhf /dev/null c",
    ),
];

#[test]
fn a_command_that_follows_links_reaches_what_a_link_made_below_its_operand_leads_to() {
    let scratch = Scratch::new("followed-links").expect("a scratch folder");
    let mut failures = Vec::new();
    for (index, (setup, command)) in FOLLOWED.iter().enumerate() {
        let case = scratch.case(index).expect("a case's folders");
        let script =
            format!("{setup}; find -L c -maxdepth 4 -exec realpath -m -- {{}} + 2>/dev/null");
        let output = case.bash(&script).output().expect("bash runs");
        let reached = String::from_utf8_lossy(&output.stdout).into_owned();
        let line = format!("{setup}; {command}");
        let paths = match read(&line, &case.context) {
            Reading::Read(script) => script
                .commands
                .last()
                .map(|command| command.paths.clone())
                .unwrap_or_default(),
            Reading::Unreadable(why) => vec![format!("unreadable: {why}")],
        };
        let covered = |real: &str| {
            paths.iter().any(|path| {
                real.strip_prefix(path.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
        };
        let missed: Vec<&str> = reached.lines().filter(|real| !covered(real)).collect();
        if reached.lines().count() < 2 || !missed.is_empty() {
            failures.push(format!(
                "{line}\n  bash reached, unread: {missed:?}\n  read: {paths:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A folder of its own per case, removed at the end
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> std::io::Result<Self> {
        let root = std::env::temp_dir().join(format!("rulesc-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&root)?;
        // The reader knows no link made before the line: the scratch's own path must have none.
        Ok(Scratch(root.canonicalize()?))
    }

    /// The home `h` and the project `w/p` of case `index`, each folder of its own
    fn case(&self, index: usize) -> std::io::Result<Case> {
        let folder = |path: &str| -> std::io::Result<PathBuf> {
            let folder = self.0.join(index.to_string()).join(path);
            std::fs::create_dir_all(&folder)?;
            Ok(folder)
        };
        let (home, project) = (folder("h")?, folder("w/p")?);
        let context = Context {
            cwd: Some(project.display().to_string()),
            home: Some(home.display().to_string()),
            ..Context::default()
        };
        Ok(Case {
            home,
            project,
            context,
        })
    }
}

/// The folders of one case, and the context the reader is given for them
struct Case {
    home: PathBuf,
    project: PathBuf,
    context: Context,
}

impl Case {
    /// bash running `script` in the case's project, with its home
    fn bash(&self, script: &str) -> Command {
        let mut bash = Command::new("bash");
        bash.args(["--norc", "--noprofile", "-c", script])
            .current_dir(&self.project)
            .env("HOME", &self.home);
        bash
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(Path::new(&self.0));
    }
}
