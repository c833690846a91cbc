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
    let scratch = Scratch::new().expect("a scratch folder");
    let mut failures = Vec::new();
    for (index, (setup, operand)) in CASES.iter().enumerate() {
        let home = scratch.folder(index, "h").expect("a home");
        let project = scratch.folder(index, "w/p").expect("a project");
        let script = format!("{setup}; realpath -m -- {operand}");
        let output = Command::new("bash")
            .args(["--norc", "--noprofile", "-c", &script])
            .current_dir(&project)
            .env("HOME", &home)
            .output()
            .expect("bash runs");
        assert!(output.status.success(), "{script}: {output:?}");
        let real = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        let context = Context {
            cwd: Some(project.display().to_string()),
            home: Some(home.display().to_string()),
        };
        let line = format!("{setup}; ls -d -- {operand}");
        let read = match read(&line, &context) {
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

/// A folder of its own per case, removed at the end
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Self> {
        let root = std::env::temp_dir().join(format!("rulesc-links-{}", std::process::id()));
        std::fs::create_dir_all(&root)?;
        // The reader knows no link made before the line: the scratch's own path must have none.
        Ok(Scratch(root.canonicalize()?))
    }

    fn folder(&self, case: usize, path: &str) -> std::io::Result<PathBuf> {
        let folder = self.0.join(case.to_string()).join(path);
        std::fs::create_dir_all(&folder)?;
        Ok(folder)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(Path::new(&self.0));
    }
}
