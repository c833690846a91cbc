//! Programs the reader has no row for that may run the command in their words.
//!
//! The wrapper table names the programs known to run another (`nice rm`, `flock F rm`), but
//! there are always more: `eatmydata rm -rf ~`, `trickle -d 10 rm -rf ~`, `ip netns exec ns1
//! rm -rf ~`, a project script that ends in `exec "$@"`. Whether an unlisted program runs its
//! words is only known to that program, so the worst case is taken: from the first word that
//! names a program a guard watches, the words are also read as the command they would be.
//! Programs whose words name programs as data (`man rm`, `which sudo`, `pkill curl`,
//! `apt-get install curl`) are listed here, as are those the reader already reads.

use std::sync::LazyLock;

use crate::by_name;
use crate::knowledge;
use crate::wrapper;

/// Programs whose words name other programs without running them: manuals and lookups,
/// process finders, searchers, package managers and service managers (a package or a unit
/// is often named as its program is)
const NAMES_AS_DATA: &[&str] = &[
    // manuals and lookups
    "man",
    "info",
    "tldr",
    "whatis",
    "apropos",
    "help",
    "which",
    "whereis",
    "type",
    "hash",
    "alias",
    "unalias",
    "unset",
    "complete",
    "compgen",
    "declare",
    "typeset",
    "export",
    "readonly",
    "local",
    // builtins whose words are no command
    "cd",
    "pushd",
    "popd",
    "set",
    "shopt",
    "test",
    "[",
    "[[",
    "read",
    "wait",
    "jobs",
    "fg",
    "bg",
    "disown",
    "shift",
    "ulimit",
    "umask",
    "let",
    "exit",
    "return",
    "true",
    "false",
    // processes
    "pgrep",
    "pkill",
    "killall",
    "pidof",
    "ps",
    "lsof",
    // searchers and printers
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ack",
    "locate",
    "plocate",
    "echo",
    "printf",
    "cat",
    "ls",
    "file",
    "stat",
    "ldd",
    "strings",
    "readlink",
    "realpath",
    "basename",
    "dirname",
    "diff",
    "cmp",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "b2sum",
    "cksum",
    // package and service managers
    "apt",
    "apt-get",
    "apt-cache",
    "aptitude",
    "dpkg",
    "dpkg-query",
    "rpm",
    "dnf",
    "yum",
    "zypper",
    "pacman",
    "apk",
    "brew",
    "port",
    "snap",
    "flatpak",
    "nix-env",
    "pip",
    "pip3",
    "pipx",
    "gem",
    "cargo",
    "go",
    "rustup",
    "yarn",
    "update-alternatives",
    "systemctl",
    "service",
    "journalctl",
];

/// Programs the reader reads in their own way (their subcommands, their scripts) that a guard
/// does not watch as such (`git` and `find` are in [`WATCHED`])
const READ_ELSEWHERE: &[&str] = &["fd", "fdfind", "ssh", "make"];

/// Programs a guard watches whatever runs them: those of the program kinds, deleters,
/// writers and wrappers, and the core commands that delete, move or change permissions
const WATCHED: &[&str] = &[
    "rm", "rmdir", "unlink", "mv", "cp", "dd", "chmod", "chown", "chgrp", "ln", "truncate", "git",
    "find", "kill", "tee",
];

/// [`NAMES_AS_DATA`] and [`READ_ELSEWHERE`], sorted as the name indexes are: a hook call is
/// a process of its own, so this is built in each, and kept small
static NOT_WRAPPERS: LazyLock<Box<[&'static str]>> = LazyLock::new(|| {
    let mut names: Vec<&'static str> = NAMES_AS_DATA
        .iter()
        .chain(READ_ELSEWHERE)
        .copied()
        .collect();
    names.sort_unstable_by(|one, other| by_name::by_length(one, other));
    names.dedup();
    names.into_boxed_slice()
});

/// Whether `program`'s words name programs as data, or the reader reads them its own way
fn not_a_wrapper(program: &str) -> bool {
    NOT_WRAPPERS
        .binary_search_by(|listed| by_name::by_length(listed, program))
        .is_ok()
}

/// Whether a guard watches `name` when it runs: a name of the program kinds (an interpreter
/// with its version, `python3.12`; a file system maker, `mkfs.ext4`), of the deleters, the
/// writers or the wrappers, or a core command that deletes, moves or changes permissions.
/// Each table's own index is searched: the reading builds them anyway.
fn watched(name: &str) -> bool {
    WATCHED.contains(&name)
        || crate::PROGRAM_KINDS.iter().any(|kind| kind.holds(name))
        || knowledge::is_deleter(name)
        || knowledge::writers(name).next().is_some()
        || wrapper::is_wrapper(name)
}

/// The words from which `program`, which the reader has no row for, may run a program a guard
/// watches (`trickle -d 10 rm -rf ~` gives `rm -rf ~`); `None` for a program the reader
/// knows, or whose words name no such program. A path names its program as a name does
/// (`eatmydata /bin/rm ~/.bashrc`): the programs that name programs' files as data
/// (checksums, listings) are in [`NAMES_AS_DATA`].
pub(crate) fn may_run(program: &str, args: &[String]) -> Option<Vec<String>> {
    if program.is_empty() || not_a_wrapper(program) || watched(program) {
        return None;
    }
    let at = args.iter().position(|word| {
        let name = word.rsplit('/').next().unwrap_or(word);
        !word.starts_with('-') && !name.is_empty() && watched(name)
    })?;
    args.get(at..).map(<[String]>::to_vec)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    fn run(line: &str) -> Option<String> {
        let mut words = words(line);
        let program = words.remove(0);
        may_run(&program, &words).map(|run| run.join(" "))
    }

    #[test]
    fn an_unlisted_program_may_run_a_watched_program_in_its_words() {
        assert_eq!(run("eatmydata rm -rf ~").as_deref(), Some("rm -rf ~"));
        assert_eq!(run("trickle -d 10 rm -rf ~").as_deref(), Some("rm -rf ~"));
        // `exec` is a wrapper: read in turn, it runs `ns1`, which may run `sh -c x`.
        assert_eq!(
            run("ip netns exec ns1 sh -c x").as_deref(),
            Some("exec ns1 sh -c x")
        );
        assert_eq!(
            run("lckdo /tmp/l dd of=/dev/sda").as_deref(),
            Some("dd of=/dev/sda")
        );
        assert_eq!(
            run("daemonize /bin/rm -rf ~").as_deref(),
            Some("/bin/rm -rf ~")
        );
        assert_eq!(run("./run.sh sudo id").as_deref(), Some("sudo id"));
        assert_eq!(
            run("eatmydata /bin/rm ~/.bashrc").as_deref(),
            Some("/bin/rm ~/.bashrc")
        );
    }

    #[test]
    fn words_that_name_no_watched_program_run_nothing() {
        assert_eq!(run("eatmydata make build"), None);
        assert_eq!(run("pytest -k remove tests"), None);
        assert_eq!(run("sha256sum /bin/rm /bin/ls"), None);
        assert_eq!(run("tool --rm=x"), None);
    }

    #[test]
    fn programs_that_name_programs_as_data_or_are_read_elsewhere_run_nothing() {
        for line in [
            "man rm",
            "which sudo",
            "pkill curl",
            "apt-get install -y curl",
            "grep -rn sudo docs",
            "systemctl restart docker",
            "git rm -r old",
            "find . -name rm",
            "sudo rm x",
            "rm -rf sh",
        ] {
            assert_eq!(run(line), None, "{line}");
        }
    }
}
