//! Programs the reader has no row for that may run the command in their words.
//!
//! The wrapper table names the programs known to run another (`nice rm`, `flock F rm`), but
//! there are always more: `eatmydata rm -rf ~`, `trickle -d 10 rm -rf ~`, `ip netns exec ns1
//! rm -rf ~`, a project script that ends in `exec "$@"`. Whether an unlisted program runs its
//! words is only known to that program, so the worst case is taken: from the first word that
//! names a program a guard watches, the words are also read as the command they would be.
//! A guard watches the programs of the reader's tables and those the loaded policies test
//! (`watched.rs`): what a guard tests is what the reader looks for.
//! Programs whose words name programs as data (`man rm`, `which sudo`, `pkill curl`,
//! `apt-get install curl`) are listed here, as are those the reader already reads, and the
//! machine managers whose subcommands bear the names of the programs that power a machine
//! off (`vagrant halt`, `virsh reboot vm1`).

use std::sync::LazyLock;

use crate::by_name::{self, ByName};
use crate::knowledge;
use crate::watched::WatchedNames;
use crate::wrapper;

/// Programs whose words name other programs without running them: manuals and lookups,
/// process finders, searchers, package managers and service managers (a package or a unit
/// is often named as its program is), and machine managers, whose `halt`, `reboot` or
/// `shutdown` acts on the machine they manage, not on the one they run on
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
    // a system database's entries: `getent passwd dev`, `getent group sudo`
    "getent",
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
    // machine managers
    "vagrant",
    "virsh",
    "VBoxManage",
    "vboxmanage",
    "prlctl",
    "qm",
    "pct",
    "xl",
    "multipass",
    "lxc",
    "incus",
    "openstack",
    "hcloud",
    "doctl",
    "scw",
    "linode-cli",
    "civo",
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

/// Whether `program`'s words name programs as data, or the reader reads them its own way
fn not_a_wrapper(program: &str) -> bool {
    // Found by name, as the knowledge tables' rows are: one hash and a pair or two compared,
    // where a search by halves compared many names of the same length byte by byte.
    static AS_DATA: ByName = LazyLock::new(|| by_name::index(NAMES_AS_DATA, std::slice::from_ref));
    READ_ELSEWHERE.contains(&program) || by_name::positions(&AS_DATA, program).next().is_some()
}

/// Whether a guard watches `name` when it runs: a name of the program kinds (an interpreter
/// with its version, `python3.12`; a file system maker, `mkfs.ext4`), of the deleters, the
/// writers or the wrappers, or a core command that deletes, moves or changes permissions.
/// Each table's own index is searched: the reading builds them anyway.
fn watched(name: &str) -> bool {
    WATCHED.contains(&name)
        || crate::ProgramKind::any_holds(name)
        || knowledge::is_deleter(name)
        || knowledge::writers(name).next().is_some()
        || wrapper::is_wrapper(name)
}

/// The words from which `program`, which the reader has no row for, may run a program a guard
/// watches (`trickle -d 10 rm -rf ~` gives `rm -rf ~`), its own or one of the names the
/// policies test, `policies`; `None` for a program the reader knows, or whose words name no
/// such program. A program only a policy names is read as unlisted (`kubectl exec pod --
/// rm -rf /`). A path names its program as a name does (`eatmydata /bin/rm ~/.bashrc`):
/// the programs that name programs' files as data (checksums, listings) are in
/// [`NAMES_AS_DATA`]. A word holding a blank names no program: it is quoted text
/// (`notify "terraform destroy done"`); nor does `.` or `..`, a folder (`jq .`), which
/// a program cannot run, though a policy may test bash's `.`.
pub(crate) fn may_run(
    program: &str,
    args: &[String],
    policies: &WatchedNames,
) -> Option<Vec<String>> {
    if program.is_empty() || not_a_wrapper(program) || watched(program) {
        return None;
    }
    let at = args.iter().position(|word| {
        let name = crate::path::basename(word);
        !word.starts_with('-')
            && !matches!(name, "" | "." | "..")
            && !word.contains(char::is_whitespace)
            && (watched(name) || policies.may_pass(name))
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
        run_watching(line, &WatchedNames::default())
    }

    fn run_watching(line: &str, policies: &WatchedNames) -> Option<String> {
        let mut words = words(line);
        let program = words.remove(0);
        may_run(&program, &words, policies).map(|run| run.join(" "))
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
            "getent passwd dev",
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

    #[test]
    fn a_machine_manager_powers_off_the_machines_it_manages() {
        let power: WatchedNames = ["halt", "reboot", "shutdown", "poweroff"]
            .into_iter()
            .map(|name| crate::WatchedName::Is(name.into()))
            .collect();
        for line in [
            "vagrant halt",
            "virsh reboot vm1",
            "VBoxManage controlvm vm1 poweroff",
            "vboxmanage controlvm vm1 poweroff",
            "prlctl reboot vm1",
            "qm shutdown 100",
            "pct reboot 100",
            "xl shutdown vm1",
            "multipass exec vm1 -- reboot",
            "lxc exec c1 -- halt",
            "incus exec c1 -- reboot",
            "openstack server reboot vm1",
            "hcloud server shutdown vm1",
            "doctl compute droplet-action reboot 1",
            "scw instance server reboot 1",
            "linode-cli linodes reboot 1",
            "civo instance reboot vm1",
        ] {
            assert_eq!(run_watching(line, &power), None, "{line}");
        }
        assert_eq!(
            run_watching("eatmydata reboot", &power).as_deref(),
            Some("reboot")
        );
    }

    #[test]
    fn a_program_a_policy_tests_is_watched_as_the_tables_programs_are() {
        let terraform: WatchedNames = ["terraform", ".", ".."]
            .into_iter()
            .map(|name| crate::WatchedName::Is(name.into()))
            .collect();
        let line = "eatmydata terraform destroy";
        assert_eq!(
            run_watching(line, &terraform).as_deref(),
            Some("terraform destroy")
        );
        assert_eq!(run(line), None, "no policy tests `terraform`");
        assert_eq!(
            run_watching("trickle -d 10 /usr/bin/terraform destroy", &terraform).as_deref(),
            Some("/usr/bin/terraform destroy")
        );
        let kubectl: WatchedNames = [crate::WatchedName::Is("kubectl".into())]
            .into_iter()
            .collect();
        assert_eq!(
            run_watching("eatmydata terraform destroy", &kubectl),
            None,
            "only the names given"
        );
        // `notify "terraform destroy"`: a quoted word of several words is text.
        for line in [
            &["echo", "terraform", "destroy"][..],
            &["man", "terraform"],
            &["which", "terraform"],
            &["apt-get", "install", "terraform"],
            &["eatmydata", "make", "build"],
            &["notify", "terraform destroy"],
            &["jq", "."],
            &["tool", "..", "x"],
            &["tool", "--terraform", "destroy"],
        ] {
            let words: Vec<String> = line.iter().map(|word| (*word).to_owned()).collect();
            assert_eq!(
                may_run(&words[0], &words[1..], &terraform),
                None,
                "{line:?}"
            );
        }
    }
}
