//! Programs that run another program given in their own words (`sudo rm`, `env X=1 sh`,
//! `timeout 5 curl`), and where that program's words begin.

use std::sync::LazyLock;

use crate::by_name::{self, ByName};

/// How a wrapper's own options are read before the program it runs
struct Wrapper {
    /// The wrapper's name
    name: &'static str,
    /// Short options that take a value (`-u root`, `-uroot`)
    short_valued: &'static str,
    /// Long options that take a value (`--user root`, `--user=root`)
    long_valued: &'static [&'static str],
    /// Words after the options that are the wrapper's own (the duration of `timeout`)
    positionals: usize,
    /// Whether `NAME=value` words may come before the program (`env`, `sudo`)
    assignments: bool,
    /// Short options that make the wrapper look a program up instead of running it (`command -v`)
    lookup: &'static str,
    /// Whether a name may come before the compound command it runs (`coproc NAME { …; }`)
    named: bool,
}

const fn wrapper(name: &'static str, short_valued: &'static str) -> Wrapper {
    Wrapper {
        name,
        short_valued,
        long_valued: &[],
        positionals: 0,
        assignments: false,
        lookup: "",
        named: false,
    }
}

/// The words that open a compound command, which a name given to `coproc` comes before
const COMPOUND_OPENERS: &[&str] = &[
    "{", "(", "((", "[[", "while", "until", "if", "for", "select", "case",
];

const WRAPPERS: &[Wrapper] = &[
    Wrapper {
        long_valued: &[
            "user",
            "group",
            "host",
            "prompt",
            "role",
            "type",
            "close-from",
            "chdir",
            "other-user",
            "command-timeout",
            "chroot",
        ],
        assignments: true,
        ..wrapper("sudo", "ughprtCDUTR")
    },
    wrapper("doas", "uC"),
    Wrapper {
        long_valued: &[
            "setuid",
            "setgid",
            "root",
            "wd",
            "map-user",
            "map-group",
            "propagation",
        ],
        ..wrapper("unshare", "SGRw")
    },
    // Package runners: the package's program runs with the words after it.
    Wrapper {
        long_valued: &[
            "package",
            "call",
            "node-options",
            "userconfig",
            "cache",
            "registry",
        ],
        ..wrapper("npx", "pc")
    },
    Wrapper {
        long_valued: &["package"],
        ..wrapper("pnpx", "p")
    },
    Wrapper {
        long_valued: &["package"],
        ..wrapper("bunx", "p")
    },
    Wrapper {
        long_valued: &["user"],
        ..wrapper("pkexec", "")
    },
    Wrapper {
        long_valued: &[
            "unset",
            "chdir",
            "split-string",
            "block-signal",
            "default-signal",
            "ignore-signal",
        ],
        assignments: true,
        ..wrapper("env", "uCS")
    },
    Wrapper {
        long_valued: &["adjustment"],
        ..wrapper("nice", "n")
    },
    wrapper("nohup", ""),
    wrapper("setsid", ""),
    Wrapper {
        long_valued: &["signal", "kill-after"],
        positionals: 1,
        ..wrapper("timeout", "sk")
    },
    Wrapper {
        long_valued: &[
            "arg-file",
            "delimiter",
            "eof",
            "replace",
            "max-lines",
            "max-args",
            "max-procs",
            "max-chars",
            "process-slot-var",
        ],
        ..wrapper("xargs", "adEILnPs")
    },
    Wrapper {
        lookup: "vV",
        ..wrapper("command", "")
    },
    wrapper("builtin", ""),
    wrapper("exec", "a"),
    Wrapper {
        long_valued: &["format", "output"],
        ..wrapper("time", "fo")
    },
    Wrapper {
        long_valued: &["input", "output", "error"],
        ..wrapper("stdbuf", "ioe")
    },
    Wrapper {
        long_valued: &["class", "classdata", "pid", "pgid", "uid"],
        ..wrapper("ionice", "cnpPu")
    },
    Wrapper {
        long_valued: &["user", "machine", "host"],
        ..wrapper("run0", "uM")
    },
    Wrapper {
        long_valued: &["sched-runtime", "sched-period", "sched-deadline"],
        positionals: 1,
        ..wrapper("chrt", "TPD")
    },
    Wrapper {
        positionals: 1,
        ..wrapper("taskset", "")
    },
    Wrapper {
        long_valued: &["timeout", "wait", "conflict-exit-code"],
        positionals: 1,
        ..wrapper("flock", "wE")
    },
    Wrapper {
        long_valued: &[
            "output",
            "trace",
            "signal",
            "string-limit",
            "user",
            "env",
            "attach",
        ],
        ..wrapper("strace", "abeEIoOpPsSuUX")
    },
    Wrapper {
        long_valued: &["output", "library", "user"],
        ..wrapper("ltrace", "aAeEnopsSuXxF")
    },
    Wrapper {
        long_valued: &["lib", "faked", "unknown-is-real", "fd-base"],
        ..wrapper("fakeroot", "lsib")
    },
    Wrapper {
        long_valued: &[
            "jobs",
            "sshlogin",
            "arg-file",
            "delimiter",
            "results",
            "joblog",
            "timeout",
            "env",
        ],
        ..wrapper("parallel", "jSadI")
    },
    wrapper("screen", "Sctphe"),
    wrapper("busybox", ""),
    Wrapper {
        named: true,
        ..wrapper("coproc", "")
    },
    // Reserved words tree-sitter-bash reads as a program's name where bash opens a compound
    // command after `coproc`, `time` or `!` (`coproc { rm -rf ~; }`, `time while …; do rm …`,
    // which it does not parse as bash does): the command after them is what runs.
    wrapper("{", ""),
    wrapper("while", ""),
    wrapper("until", ""),
    wrapper("if", ""),
    wrapper("do", ""),
    wrapper("then", ""),
    wrapper("else", ""),
    wrapper("elif", ""),
    wrapper("proxychains", "f"),
    wrapper("proxychains4", "f"),
    wrapper("torsocks", "uaP"),
    wrapper("torify", ""),
    wrapper("unbuffer", ""),
    Wrapper {
        long_valued: &["interval"],
        ..wrapper("watch", "n")
    },
    Wrapper {
        long_valued: &[
            "unit",
            "property",
            "description",
            "slice",
            "uid",
            "gid",
            "nice",
            "working-directory",
            "setenv",
            "on-calendar",
            "on-active",
            "host",
            "machine",
            "service-type",
        ],
        ..wrapper("systemd-run", "pEMH")
    },
    Wrapper {
        long_valued: &[
            "target", "mount", "uts", "ipc", "net", "pid", "user", "setuid", "setgid", "root", "wd",
        ],
        ..wrapper("nsenter", "tSGrw")
    },
    Wrapper {
        long_valued: &["userspec", "groups"],
        positionals: 1,
        ..wrapper("chroot", "")
    },
];

/// Where the program a wrapper runs begins in its arguments (`args` excludes the wrapper's
/// own name); `None` when `program` is no wrapper or runs nothing (`command -v sudo`)
pub(crate) fn wrapped(program: &str, args: &[String]) -> Option<usize> {
    static BY_NAME: ByName =
        LazyLock::new(|| by_name::index(WRAPPERS, |spec| std::slice::from_ref(&spec.name)));
    let spec = by_name::rows(WRAPPERS, &BY_NAME, program).next()?;
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        if arg == "--" {
            index += 1;
            break;
        }
        if spec.assignments && is_assignment(arg) {
            index += 1;
        } else if let Some(long) = arg.strip_prefix("--") {
            let takes_value = !long.contains('=') && spec.long_valued.contains(&long);
            index += if takes_value { 2 } else { 1 };
        } else if let Some(cluster) = arg.strip_prefix('-').filter(|rest| !rest.is_empty()) {
            if cluster.chars().any(|flag| spec.lookup.contains(flag)) {
                return None;
            }
            index += short_cluster_width(cluster, spec.short_valued);
        } else {
            break;
        }
    }
    // `coproc NAME { …; }`: bash takes a name only before a compound command.
    if spec.named
        && args
            .get(index + 1)
            .is_some_and(|next| COMPOUND_OPENERS.contains(&next.as_str()))
    {
        index += 1;
    }
    index += spec.positionals;
    while spec.assignments && args.get(index).is_some_and(|arg| is_assignment(arg)) {
        index += 1;
    }
    (index < args.len()).then_some(index)
}

/// How many words a short option cluster spans: two when its last option takes a value
/// from the next word (`-u root`), else one (`-uroot`, `-nH`)
fn short_cluster_width(cluster: &str, valued: &str) -> usize {
    match cluster
        .char_indices()
        .find(|(_, flag)| valued.contains(*flag))
    {
        Some((at, flag)) if at + flag.len_utf8() == cluster.len() => 2,
        _ => 1,
    }
}

/// Whether a word is a `NAME=value` assignment
pub(crate) fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|ch: char| ch.is_ascii_digit())
            && name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::wrapped;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn finds_the_program_a_wrapper_runs() {
        let cases = [
            ("sudo", "rm -rf /", Some(0)),
            ("sudo", "-u root -E rm", Some(3)),
            ("sudo", "-uroot rm", Some(1)),
            ("sudo", "--user=root rm", Some(1)),
            ("sudo", "--user root rm", Some(2)),
            ("env", "-i A=1 B=2 sh", Some(3)),
            ("env", "-u HOME -- sh", Some(3)),
            ("env", "A=1", None),
            ("timeout", "-s KILL 5 curl x", Some(3)),
            ("timeout", "5", None),
            ("nice", "-n 10 rm", Some(2)),
            ("xargs", "-0 -I {} rm {}", Some(3)),
            ("command", "-v sudo", None),
            ("command", "-p rm", Some(1)),
            ("stdbuf", "-oL sh", Some(1)),
            ("ls", "-la", None),
            ("chrt", "-f 99 rm", Some(2)),
            ("taskset", "-c 0 rm", Some(2)),
            ("flock", "-w 5 /tmp/l rm", Some(3)),
            ("strace", "-f -o log rm", Some(3)),
            ("ltrace", "-o log rm", Some(2)),
            ("fakeroot", "-- rm", Some(1)),
            ("parallel", "-j 4 rm ::: a", Some(2)),
            ("screen", "-S s -dm rm", Some(3)),
            ("busybox", "rm -rf /", Some(0)),
            ("coproc", "rm", Some(0)),
            ("coproc", "{ rm", Some(0)),
            ("coproc", "NAME { rm", Some(1)),
            ("coproc", "NAME while true", Some(1)),
            ("coproc", "NAME", Some(0)),
            ("{", "rm -rf ~", Some(0)),
            ("do", "rm", Some(0)),
            ("then", "rm", Some(0)),
            ("proxychains", "-f conf rm", Some(2)),
            ("proxychains4", "-q rm", Some(1)),
            ("torsocks", "-u me rm", Some(2)),
            ("torify", "rm", Some(0)),
            ("unbuffer", "rm", Some(0)),
            ("watch", "-n 1 rm", Some(2)),
            ("systemd-run", "--unit x -p A=b rm", Some(4)),
            ("nsenter", "-t 1 -m rm", Some(3)),
            ("chroot", "/ rm", Some(1)),
            ("run0", "-u root rm", Some(2)),
            ("pkexec", "--user root rm", Some(2)),
            ("doas", "-u root rm", Some(2)),
            ("setsid", "rm", Some(0)),
            ("nohup", "rm", Some(0)),
            ("builtin", "exec rm", Some(0)),
            ("exec", "-a name rm", Some(2)),
            ("time", "-f %e rm", Some(2)),
            ("ionice", "-c 3 rm", Some(2)),
        ];
        for (program, args, expected) in cases {
            assert_eq!(wrapped(program, &words(args)), expected, "{program} {args}");
        }
    }
}
