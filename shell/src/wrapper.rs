//! Programs that run another program given in their own words (`sudo rm`, `env X=1 sh`,
//! `timeout 5 curl`), and where that program's words begin.

use std::sync::LazyLock;

use crate::by_name::{self, ByName};
use crate::unknown_word::UnknownWord;

/// How a wrapper's own options are read before the program it runs
struct Wrapper {
    /// The wrapper's name
    name: &'static str,
    /// Short options that take a value (`-u root`, `-uroot`)
    short_valued: &'static str,
    /// Long options that take a value (`--user root`, `--user=root`)
    long_valued: &'static [&'static str],
    /// Whether `long_valued` lists every long option that takes the next word, so that an
    /// other one just before the program (`xargs --null rm`) takes none
    long_complete: bool,
    /// Long options that take two words (`nix --arg NAME EXPR`)
    long_paired: &'static [&'static str],
    /// Words after the options that are the wrapper's own (the duration of `timeout`)
    positionals: usize,
    /// Whether `NAME=value` words may come before the program (`env`, `sudo`)
    assignments: bool,
    /// Short options that make the wrapper look a program up instead of running it (`command -v`)
    lookup: &'static str,
    /// The array of descriptors it sets, named by a name before the compound command it
    /// runs or else by this default (bash(1), Coprocesses: `coproc NAME { …; }` sets
    /// `NAME`, `coproc cmd` sets `COPROC`)
    named: Option<&'static str>,
    /// Whether a single `-` opens a long option, as getopt_long_only reads them (`gdb -ex
    /// CMD`)
    long_only: bool,
    /// The subcommands under which the wrapper runs a program, after its global options
    /// (`limactl shell INSTANCE CMD…`, `uv run CMD…`), words apart for a subcommand of a
    /// subcommand, each after its own options (`docker compose -f F exec SERVICE CMD…`);
    /// empty when it always does
    subcommands: &'static [&'static str],
    /// Options whose value is the program it runs, the first given winning, with its words
    /// after the wrapper's options (`start-stop-daemon --exec /bin/x -- ARGS`)
    program_options: &'static [&'static str],
    /// Whether its operands may come between its options, until `--` (getopt's permuting
    /// and LLVM's reading): the program and its words are all of them, then all after `--`
    interleaved: bool,
    /// The words after which, and only after which, the program comes past the subcommand:
    /// `--` for `kubectl exec POD -c C -- CMD…`, `-c` for `nix shell INSTALLABLE -c CMD…`;
    /// empty when the program follows the wrapper's options
    ends_with: &'static [&'static str],
    /// The subcommands whose operand is an image that may run the rest of the words as its
    /// entry point's (`docker run bitnami/kubectl delete ns x`)
    images: &'static [&'static str],
}

/// The program a wrapper runs, found in its words
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Wrapped {
    /// Where the wrapper's own words end: the rest are the program's (or its words); all of
    /// them for a wrapper whose operands mix with its options
    pub(crate) at: usize,
    /// The words that come before the rest: the program an option names, and the operands
    /// of an interleaving wrapper (empty for most)
    pub(crate) leading: Vec<String>,
    /// Where the program begins instead if the long option just before it, which the
    /// wrapper's row does not list, takes a value (`uv run --new-option X rm …`): which
    /// one bash hands the program to is only known to the wrapper, so both are read
    pub(crate) or_at: Option<usize>,
    /// The command line of the image's entry point, when the wrapper runs an image named
    /// after a program: the image's name, then the words after it
    pub(crate) entry: Option<Vec<String>>,
}

/// The subcommands under which `docker` and `podman` run a command in a container
const CONTAINER_RUNS: &[&str] = &[
    "run",
    "exec",
    "container run",
    "container exec",
    "compose run",
    "compose exec",
];

/// The subcommands of [`CONTAINER_RUNS`] whose operand is an image, not a container
const CONTAINER_IMAGES: &[&str] = &["run", "container run"];

/// Images named after the program they run where the name is not the program's: the last
/// segment of the image's name, without its tag and a `-cli` suffix (`amazon/aws-cli` runs
/// `aws` by that reading already)
const IMAGE_PROGRAMS: &[(&str, &str)] = &[
    ("cloud-sdk", "gcloud"),
    ("google-cloud", "gcloud"),
    ("azure", "az"),
    ("github", "gh"),
];

/// The long options of `docker` and `podman` (their own, then those of `run` and `exec`, and
/// of compose and its `run` and `exec`) that take the next word as their value
const CONTAINER_VALUED: &[&str] = &[
    // docker's own options before the subcommand
    "context",
    "host",
    "config",
    "log-level",
    "tlscacert",
    "tlscert",
    "tlskey",
    "add-host",
    "annotation",
    "attach",
    "blkio-weight",
    "cap-add",
    "cap-drop",
    "cgroup-parent",
    "cgroupns",
    "cidfile",
    "cpu-period",
    "cpu-quota",
    "cpu-shares",
    "cpus",
    "cpuset-cpus",
    "cpuset-mems",
    "detach-keys",
    "device",
    "dns",
    "dns-option",
    "dns-search",
    "domainname",
    "entrypoint",
    "env",
    "env-file",
    "expose",
    "gpus",
    "group-add",
    "health-cmd",
    "health-interval",
    "health-retries",
    "health-start-period",
    "health-timeout",
    "hostname",
    "ip",
    "ip6",
    "ipc",
    "isolation",
    "label",
    "label-file",
    "link",
    "log-driver",
    "log-opt",
    "mac-address",
    "memory",
    "memory-reservation",
    "memory-swap",
    "mount",
    "name",
    "network",
    "network-alias",
    "pid",
    "pids-limit",
    "platform",
    "publish",
    "pull",
    "restart",
    "runtime",
    "security-opt",
    "shm-size",
    "stop-signal",
    "stop-timeout",
    "storage-opt",
    "sysctl",
    "tmpfs",
    "ulimit",
    "user",
    "userns",
    "uts",
    "volume",
    "volumes-from",
    "workdir",
    "pod",
    // compose's own options, then those of its `run` and `exec`
    "file",
    "project-name",
    "project-directory",
    "profile",
    "parallel",
    "progress",
    "ansi",
    "index",
    "env-from-file",
];

/// The long options of `nix` that take the next word as their value (nix3(1)'s common
/// options)
const NIX_VALUED: &[&str] = &["include", "file", "expr", "profile", "system"];

/// The long options of `nix` that take the next two words (`--arg NAME EXPR`, `--option
/// NAME VALUE`, `--override-input INPUT REF`)
const NIX_PAIRED: &[&str] = &["arg", "argstr", "option", "override-input"];

/// The long options of `kubectl` (and `oc`) before its subcommand that take the next word as
/// their value (`kubectl options`)
const KUBECTL_VALUED: &[&str] = &[
    "context",
    "namespace",
    "kubeconfig",
    "cluster",
    "user",
    "server",
    "token",
    "as",
    "as-group",
    "as-uid",
    "cache-dir",
    "certificate-authority",
    "client-certificate",
    "client-key",
    "request-timeout",
    "tls-server-name",
    "profile",
    "profile-output",
    "password",
    "username",
];

const fn wrapper(name: &'static str, short_valued: &'static str) -> Wrapper {
    Wrapper {
        name,
        short_valued,
        long_valued: &[],
        long_complete: false,
        long_paired: &[],
        positionals: 0,
        assignments: false,
        lookup: "",
        named: None,
        long_only: false,
        subcommands: &[],
        program_options: &[],
        interleaved: false,
        ends_with: &[],
        images: &[],
    }
}

/// The words that open a compound command, which a name given to `coproc` comes before
const COMPOUND_OPENERS: &[&str] = &[
    "{", "(", "((", "[[", "while", "until", "if", "for", "select", "case",
];

/// GNU coreutils 9's `env` long options, the [`ENV_VALUED`] that take a value first; getopt
/// takes any unique prefix of one (`--split` is `--split-string`)
pub(crate) const ENV_LONG_OPTIONS: &[&str] = &[
    "unset",
    "chdir",
    "split-string",
    "block-signal",
    "default-signal",
    "ignore-signal",
    "ignore-environment",
    "null",
    "list-signal-handling",
    "debug",
    "help",
    "version",
];

/// How many of [`ENV_LONG_OPTIONS`], at its start, take a value
const ENV_VALUED: usize = 6;

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
    // please(1), a sudo of its own rules: its options before the program it runs (its
    // getopts table, `-g`/`--group` since 0.5).
    Wrapper {
        long_valued: &[
            "allowenv", "check", "dir", "group", "reason", "target", "user",
        ],
        ..wrapper("please", "acdgrtu")
    },
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
        long_valued: ENV_LONG_OPTIONS.split_at(ENV_VALUED).0,
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
    // GNU xargs' long options: those listed take the next word, `--eof`, `--replace` and
    // `--max-lines` only a glued value, the others (`--null`, `--verbose`, …) none.
    Wrapper {
        long_valued: &[
            "arg-file",
            "delimiter",
            "max-args",
            "max-procs",
            "max-chars",
            "process-slot-var",
        ],
        long_complete: true,
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
    // strace(1): the long options that require a value (`--help`).
    Wrapper {
        long_valued: &[
            "output",
            "trace",
            "signal",
            "status",
            "string-limit",
            "user",
            "env",
            "attach",
            "detach-on",
            "interruptible",
            "trace-path",
            "columns",
            "abbrev",
            "verbose",
            "raw",
            "read",
            "write",
            "kvm",
            "inject",
            "fault",
            "const-print-style",
            "summary-syscall-overhead",
            "summary-sort-by",
            "summary-columns",
        ],
        ..wrapper("strace", "abeEIoOpPsSuUX")
    },
    // nix3-run(1): `nix run INSTALLABLE -- ARGS` runs the installable's main program, which
    // is named after its last attribute (`nixpkgs#terraform` runs `terraform`), with ARGS.
    Wrapper {
        long_valued: NIX_VALUED,
        long_paired: NIX_PAIRED,
        subcommands: &["run"],
        images: &["run"],
        positionals: 1,
        ..wrapper("nix", "If")
    },
    // nix3-shell(1), nix3-develop(1): `-c CMD…`/`--command CMD…` runs CMD, with the rest
    // of the words, in the environment the installables make.
    Wrapper {
        long_valued: NIX_VALUED,
        long_paired: NIX_PAIRED,
        subcommands: &["shell", "develop"],
        ends_with: &["-c", "--command"],
        ..wrapper("nix", "If")
    },
    // cmake(1) command mode: `cmake -E env [--unset=NAME]… [NAME=VALUE]… COMMAND…` and
    // `cmake -E time COMMAND…` run COMMAND; `cmake -E chdir DIR COMMAND…` runs it in DIR.
    Wrapper {
        subcommands: &["env", "time"],
        assignments: true,
        ..wrapper("cmake", "SBCDGTAU")
    },
    Wrapper {
        subcommands: &["chdir"],
        positionals: 1,
        ..wrapper("cmake", "SBCDGTAU")
    },
    // entr(1) runs its utility, with its words, each time a file it watches changes.
    wrapper("entr", ""),
    // ltrace(1): `-S` (system calls too) is a flag.
    Wrapper {
        long_valued: &["align", "config", "indent", "library", "output", "where"],
        ..wrapper("ltrace", "aADeFlnopsuwx")
    },
    // Debuggers and checkers run the program they are given: gdb's first operand (after
    // `--args`, with its words), read as getopt_long_only reads `-ex CMD` (gdb --help).
    Wrapper {
        long_valued: &[
            "ex",
            "eval-command",
            "iex",
            "init-eval-command",
            "x",
            "command",
            "ix",
            "init-command",
            "p",
            "pid",
            "c",
            "core",
            "e",
            "exec",
            "s",
            "symbols",
            "se",
            "d",
            "directory",
            "cd",
            "b",
            "l",
            "D",
            "data-directory",
            "i",
            "interpreter",
            "tty",
        ],
        long_only: true,
        ..wrapper("gdb", "")
    },
    // lldb(1): the program is `--file`'s value or the first operand, its words the other
    // operands, options and operands mixed until `--`, after which all are its words.
    Wrapper {
        long_valued: &[
            "attach-name",
            "attach-pid",
            "one-line-on-crash",
            "source-on-crash",
            "one-line-before-file",
            "source-before-file",
            "one-line",
            "source",
            "file",
            "core",
            "arch",
            "script-language",
            "repl-language",
            "capture-path",
            "replay",
        ],
        program_options: &["-f", "--file"],
        interleaved: true,
        ..wrapper("lldb", "nkKOSosfcalR")
    },
    // java(1): the archive of `-jar` (a flag here, so the archive is the first operand) or
    // the main class runs, with the words after it; the launcher's options are single-dash
    // words.
    Wrapper {
        long_valued: &[
            "cp",
            "classpath",
            "class-path",
            "p",
            "module-path",
            "upgrade-module-path",
            "add-modules",
            "limit-modules",
            "m",
            "module",
        ],
        long_only: true,
        ..wrapper("java", "")
    },
    wrapper("valgrind", ""),
    wrapper("catchsegv", ""),
    // start-stop-daemon(8): `--startas`, else `--exec`, is what starts, with the operands
    // and the words after `--` (getopt permutes them).
    Wrapper {
        long_valued: &[
            "pid",
            "ppid",
            "pidfile",
            "exec",
            "name",
            "user",
            "group",
            "chuid",
            "signal",
            "startas",
            "chroot",
            "chdir",
            "nicelevel",
            "procsched",
            "iosched",
            "umask",
            "notify-timeout",
            "output",
            "retry",
        ],
        program_options: &["-a", "--startas", "-x", "--exec"],
        interleaved: true,
        ..wrapper("start-stop-daemon", "pxnugcsardNPIkOR")
    },
    // A container's command: `docker run IMAGE CMD…` and `docker exec CONTAINER CMD…` run
    // CMD in the container (or hand it to the image's entry point, which may be a shell: read
    // as a program either way), as `ssh HOST CMD…` runs it on the host. Podman takes
    // docker's command line.
    // Compose runs a command in a service's container the same way (`docker compose exec
    // SERVICE CMD…`, `run`), and `docker-compose`, `podman-compose` are its older names.
    Wrapper {
        long_valued: CONTAINER_VALUED,
        subcommands: CONTAINER_RUNS,
        images: CONTAINER_IMAGES,
        positionals: 1,
        ..wrapper("docker", "acefhlmpuvwH")
    },
    Wrapper {
        long_valued: CONTAINER_VALUED,
        subcommands: CONTAINER_RUNS,
        images: CONTAINER_IMAGES,
        positionals: 1,
        ..wrapper("podman", "acefhlmpuvwH")
    },
    Wrapper {
        long_valued: CONTAINER_VALUED,
        subcommands: CONTAINER_RUNS,
        images: CONTAINER_IMAGES,
        positionals: 1,
        ..wrapper("nerdctl", "acefhlmpuvwH")
    },
    Wrapper {
        long_valued: CONTAINER_VALUED,
        subcommands: &["run", "exec"],
        positionals: 1,
        ..wrapper("docker-compose", "acefhlmpuvwH")
    },
    Wrapper {
        long_valued: CONTAINER_VALUED,
        subcommands: &["run", "exec"],
        positionals: 1,
        ..wrapper("podman-compose", "acefhlmpuvwH")
    },
    // Kubernetes: `kubectl exec POD -- CMD…` runs CMD in the pod's container, `kubectl run
    // NAME --image=I -- CMD…` and `kubectl debug … -- CMD…` in a new one; OpenShift's `oc`
    // takes the same command line. The command is only ever after `--`.
    Wrapper {
        long_valued: KUBECTL_VALUED,
        subcommands: &["exec", "run", "debug"],
        ends_with: &["--"],
        ..wrapper("kubectl", "cnfs")
    },
    Wrapper {
        long_valued: KUBECTL_VALUED,
        subcommands: &["exec", "run", "debug"],
        ends_with: &["--"],
        ..wrapper("oc", "cnfs")
    },
    // Lima: `lima CMD…` is `limactl shell default CMD…`, which runs CMD in the virtual
    // machine with its words quoted, after `NAME=value` words.
    Wrapper {
        assignments: true,
        ..wrapper("lima", "")
    },
    Wrapper {
        long_valued: &["workdir", "shell", "log-level", "log-format"],
        subcommands: &["shell"],
        positionals: 1,
        assignments: true,
        ..wrapper("limactl", "")
    },
    // Project and environment runners: a subcommand runs a program of the project's
    // environment with its words (uv(1) `run`, poetry `run`, Bundler `exec`, `npm exec`,
    // …). The options that take a value are those of each runner's own help.
    Wrapper {
        long_valued: &[
            "with",
            "with-editable",
            "with-requirements",
            "extra",
            "group",
            "no-group",
            "only-group",
            "package",
            "env-file",
            "index",
            "default-index",
            "index-url",
            "extra-index-url",
            "find-links",
            "index-strategy",
            "keyring-provider",
            "resolution",
            "prerelease",
            "exclude-newer",
            "python",
            "directory",
            "project",
            "config-file",
            "config-setting",
            "cache-dir",
            "color",
            "link-mode",
            "refresh-package",
            "reinstall-package",
            "upgrade-package",
            "no-build-package",
            "no-binary-package",
            "allow-insecure-host",
            "python-platform",
        ],
        subcommands: &["run"],
        ..wrapper("uv", "pfCP")
    },
    Wrapper {
        long_valued: &["directory", "project", "platform"],
        subcommands: &["run"],
        ..wrapper("poetry", "CP")
    },
    Wrapper {
        long_valued: &["python"],
        subcommands: &["run"],
        ..wrapper("pipenv", "")
    },
    Wrapper {
        long_valued: &["project", "venv"],
        subcommands: &["run"],
        ..wrapper("pdm", "p")
    },
    Wrapper {
        long_valued: &["pyproject"],
        subcommands: &["run"],
        ..wrapper("rye", "")
    },
    Wrapper {
        long_valued: &["gemfile"],
        subcommands: &["exec"],
        ..wrapper("bundle", "")
    },
    Wrapper {
        long_valued: &["package", "call", "workspace", "prefix"],
        subcommands: &["exec", "x"],
        ..wrapper("npm", "pcw")
    },
    Wrapper {
        long_valued: &[
            "dir",
            "filter",
            "filter-prod",
            "workspace-concurrency",
            "reporter",
            "package",
        ],
        subcommands: &["exec", "dlx"],
        ..wrapper("pnpm", "Cc")
    },
    // corepack(8) runs the package manager it names with the words after it.
    wrapper("corepack", ""),
    Wrapper {
        long_valued: &["name", "prefix", "cwd"],
        subcommands: &["run"],
        ..wrapper("conda", "np")
    },
    Wrapper {
        long_valued: &["name", "prefix", "cwd"],
        subcommands: &["run"],
        ..wrapper("mamba", "np")
    },
    Wrapper {
        long_valued: &["name", "prefix", "cwd", "root-prefix", "attach", "label"],
        subcommands: &["run"],
        ..wrapper("micromamba", "npr")
    },
    Wrapper {
        long_valued: &["manifest-path", "environment", "color"],
        subcommands: &["run", "exec"],
        ..wrapper("pixi", "e")
    },
    Wrapper {
        subcommands: &["exec"],
        ..wrapper("rbenv", "")
    },
    // `rustup run TOOLCHAIN CMD…` runs the command with that toolchain.
    Wrapper {
        subcommands: &["run"],
        positionals: 1,
        ..wrapper("rustup", "")
    },
    // `yarn run BIN` and `yarn dlx PKG` run a package's program, named as the package is.
    Wrapper {
        long_valued: &[
            "cwd",
            "cache-folder",
            "modules-folder",
            "global-folder",
            "package",
        ],
        subcommands: &["run", "dlx"],
        ..wrapper("yarn", "p")
    },
    // `gem exec COMMAND` runs a gem's program, installing the gem first if need be.
    Wrapper {
        long_valued: &["gem", "version"],
        subcommands: &["exec"],
        ..wrapper("gem", "gv")
    },
    Wrapper {
        subcommands: &["exec"],
        ..wrapper("pyenv", "")
    },
    Wrapper {
        subcommands: &["exec"],
        ..wrapper("asdf", "")
    },
    Wrapper {
        subcommands: &["exec"],
        positionals: 1,
        ..wrapper("direnv", "")
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
    // Multi-call programs: `busybox rm …`, `toybox rm …` run their applet.
    wrapper("busybox", ""),
    wrapper("toybox", ""),
    // Programs that run a command under something they set up first: ssh-agent(1) with an
    // agent, dbus-run-session(1) with a bus, chronic (moreutils) quietly, faketime(1) at
    // another time (its first operand), cpulimit(1) throttled, perf(1)'s `stat`, `record`
    // and `trace` measured, and `mise exec`/`rtx exec` in a tool environment.
    wrapper("ssh-agent", "aEPt"),
    Wrapper {
        long_valued: &["config-file", "dbus-daemon"],
        ..wrapper("dbus-run-session", "")
    },
    wrapper("chronic", ""),
    Wrapper {
        positionals: 1,
        ..wrapper("faketime", "")
    },
    Wrapper {
        long_valued: &["limit", "pid", "exe", "path"],
        ..wrapper("cpulimit", "lpe")
    },
    Wrapper {
        long_valued: &[
            "event",
            "output",
            "repeat",
            "pid",
            "tid",
            "cpu",
            "cgroup",
            "delay",
            "field-separator",
            "post",
            "pre",
            "call-graph",
            "freq",
        ],
        subcommands: &["stat", "record", "trace"],
        ..wrapper("perf", "eorptCGDFc")
    },
    Wrapper {
        long_valued: &["cd", "jobs", "env", "command"],
        subcommands: &["exec", "x"],
        ends_with: &["--"],
        ..wrapper("mise", "CjEc")
    },
    Wrapper {
        long_valued: &["cd", "jobs", "env", "command"],
        subcommands: &["exec", "x"],
        ends_with: &["--"],
        ..wrapper("rtx", "CjEc")
    },
    Wrapper {
        named: Some("COPROC"),
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
    // gosu(1) and su-exec(1), the sudo of container entrypoints: `USER[:GROUP] CMD…`, no
    // options of their own.
    Wrapper {
        positionals: 1,
        ..wrapper("gosu", "")
    },
    Wrapper {
        positionals: 1,
        ..wrapper("su-exec", "")
    },
];

/// [`WRAPPERS`] by name
static BY_NAME: ByName =
    LazyLock::new(|| by_name::index(WRAPPERS, |spec| std::slice::from_ref(&spec.name)));

/// Whether `program` has a row in the wrapper table, whether or not its words run anything
pub(crate) fn is_wrapper(program: &str) -> bool {
    by_name::positions(&BY_NAME, program).next().is_some()
}

/// Whether `program` gives what it runs arguments it reads from its input or a file:
/// `xargs`, and `parallel` given no argument source (`:::`, `::::`) and no `--pipe`
pub(crate) fn feeds_arguments(program: &str, args: &[String]) -> bool {
    match program {
        "xargs" => true,
        "parallel" => !args
            .iter()
            .any(|arg| arg.starts_with(":::") || arg == "--pipe" || arg == "--pipepart"),
        _ => false,
    }
}

/// The program a wrapper runs in its arguments (`args` excludes the wrapper's own name);
/// `None` when `program` is no wrapper or runs nothing (`command -v sudo`)
pub(crate) fn wrapped(program: &str, args: &[String]) -> Option<Wrapped> {
    by_name::rows(WRAPPERS, &BY_NAME, program).find_map(|spec| wrapped_by(spec, args))
}

/// The array of descriptors `program` sets when run with `args`, if it is a wrapper that
/// sets one (`coproc`)
pub(crate) fn descriptor_array<'a>(program: &str, args: &'a [String]) -> Option<&'a str> {
    by_name::rows(WRAPPERS, &BY_NAME, program).find_map(|spec| {
        let default = spec.named?;
        let named = wrapped_by(spec, args).is_some_and(|wrapped| wrapped.at == 1);
        Some(
            args.first()
                .filter(|_| named)
                .map_or(default, String::as_str),
        )
    })
}

/// The program `spec`'s wrapper runs in `args`, as that row reads them
fn wrapped_by(spec: &Wrapper, args: &[String]) -> Option<Wrapped> {
    if spec.interleaved {
        return interleaved(spec, args);
    }
    let mut index = own_options(spec, args, 0)?;
    let mut image = false;
    if !spec.subcommands.is_empty() {
        let (path, after) = spec
            .subcommands
            .iter()
            .find_map(|path| subcommand_path(spec, args, index, path).map(|after| (path, after)))?;
        index = after;
        image = spec.images.contains(path);
    }
    if !spec.ends_with.is_empty() {
        let ends = |word: &String| spec.ends_with.contains(&word.as_str());
        // The options may have ended at the `--` already (`mise exec -- CMD`).
        let ended = index
            .checked_sub(1)
            .and_then(|before| args.get(before))
            .is_some_and(ends);
        let at = if ended {
            index
        } else {
            index + args.get(index..)?.iter().position(ends)? + 1
        };
        return (at < args.len()).then_some(Wrapped {
            at,
            leading: Vec::new(),
            or_at: None,
            entry: None,
        });
    }
    // `coproc NAME { …; }`: bash takes a name only before a compound command.
    if spec.named.is_some()
        && args
            .get(index + 1)
            .is_some_and(|next| COMPOUND_OPENERS.contains(&next.as_str()))
    {
        index += 1;
    }
    index += spec.positionals;
    let image_at = index.checked_sub(1);
    // `nix run INSTALLABLE -- ARGS`: the words of what the image runs follow `--`.
    if image && args.get(index).is_some_and(|arg| arg == "--") {
        index += 1;
    }
    while spec.assignments && args.get(index).is_some_and(|arg| is_assignment(arg)) {
        index += 1;
    }
    let unlisted_before = !spec.long_complete
        && index
            .checked_sub(1)
            .and_then(|before| args.get(before))
            .is_some_and(|option| {
                option.len() > 2 && option.starts_with("--") && !option.contains('=')
            });
    (index < args.len()).then_some(Wrapped {
        at: index,
        leading: Vec::new(),
        or_at: (unlisted_before && index + 1 < args.len()).then_some(index + 1),
        entry: image.then(|| entry_point(args, image_at?, index)).flatten(),
    })
}

/// The command line an image's entry point runs when the image is named after a program
/// (`bitnami/kubectl delete ns x` is `kubectl delete ns x`): which entry point an image has
/// is only known to its registry, so this reading comes in addition to the words as a
/// command of their own. A flake's output (`nixpkgs#python3Packages.black`) is named by its
/// last attribute.
fn entry_point(args: &[String], image_at: usize, at: usize) -> Option<Vec<String>> {
    let image = args.get(image_at)?;
    let name = image.rsplit('/').next().unwrap_or(image);
    let name = match name.split_once('#') {
        Some((_, output)) => output.rsplit('.').next().unwrap_or(output),
        None => name,
    };
    let name = name.split(['@', ':']).next().unwrap_or(name);
    let name = name.strip_suffix("-cli").unwrap_or(name);
    let program = IMAGE_PROGRAMS
        .iter()
        .find_map(|(image, program)| (*image == name).then_some(*program))
        .unwrap_or(name);
    if program.is_empty() {
        return None;
    }
    let mut words = vec![program.to_owned()];
    words.extend(args.get(at..).unwrap_or_default().iter().cloned());
    Some(words)
}

/// Where the options after the subcommand `path` (`compose exec`) end, when the words at
/// `index` are that path, each word followed by its options
fn subcommand_path(spec: &Wrapper, args: &[String], mut index: usize, path: &str) -> Option<usize> {
    for word in path.split(' ') {
        if args.get(index)? != word {
            return None;
        }
        index = own_options(spec, args, index + 1)?;
    }
    Some(index)
}

/// Where a wrapper's own options starting at `index` end: at its first operand, or after
/// `--`; `None` when an option makes it look a program up instead of running it
fn own_options(spec: &Wrapper, args: &[String], mut index: usize) -> Option<usize> {
    while let Some(arg) = args.get(index) {
        if arg == "--" {
            return Some(index + 1);
        }
        if spec.assignments && is_assignment(arg) {
            index += 1;
        } else if let Some(cluster) = arg.strip_prefix('-').filter(|rest| !rest.is_empty()) {
            if cluster.chars().any(|flag| spec.lookup.contains(flag)) {
                return None;
            }
            index += option_width(spec, arg);
        } else if glued_value_unknown(spec, arg) {
            index += 1;
        } else {
            break;
        }
    }
    Some(index)
}

/// Whether `arg` is a word known only at run time that is an option of the wrapper whose
/// value alone run time gives (`parallel -j$(nproc)`, `--jobs=$N`): what it runs starts
/// after it. An unknown word in any other shape may be the program, or options that take
/// the next word, and stays the start of what the wrapper runs.
fn glued_value_unknown(spec: &Wrapper, arg: &str) -> bool {
    let Some(prefix) = UnknownWord::known_prefix(arg) else {
        return false;
    };
    if let Some(long) = prefix.strip_prefix("--") {
        return long.contains('=');
    }
    let Some(cluster) = prefix.strip_prefix('-') else {
        return false;
    };
    !cluster.chars().any(|flag| spec.lookup.contains(flag))
        && cluster
            .char_indices()
            .find(|(_, flag)| spec.short_valued.contains(*flag))
            .is_some_and(|(at, flag)| at + flag.len_utf8() == cluster.len())
}

/// How many words an option of the wrapper spans, its value included
fn option_width(spec: &Wrapper, arg: &str) -> usize {
    let long = arg
        .strip_prefix("--")
        .or_else(|| arg.strip_prefix('-').filter(|_| spec.long_only));
    match long {
        Some(name) if name.contains('=') => 1,
        Some(name) if spec.long_valued.contains(&name) => 2,
        Some(name) if spec.long_paired.contains(&name) => 3,
        _ if arg.starts_with("--") => 1,
        _ => short_cluster_width(arg.get(1..).unwrap_or_default(), spec.short_valued),
    }
}

/// The program a wrapper whose operands mix with its options runs (`lldb PROG -- ARGS`,
/// `start-stop-daemon -S -x PROG -- ARGS`): an option's value or the first operand, then the
/// other operands, then every word after `--`, all after the wrapper's own words
fn interleaved(spec: &Wrapper, args: &[String]) -> Option<Wrapped> {
    let mut named: Option<(usize, &str)> = None;
    let mut operands = Vec::new();
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        if arg == "--" {
            index += 1;
            break;
        }
        let value = spec
            .program_options
            .iter()
            .enumerate()
            .find_map(|(rank, option)| {
                program_option_value(spec, option, args, index).map(|value| (rank, value))
            });
        if let Some((rank, value)) = value {
            if named.is_none_or(|(best, _)| rank < best) {
                named = Some((rank, value));
            }
        }
        if arg.len() > 1 && arg.starts_with('-') {
            index += option_width(spec, arg);
        } else {
            operands.push(arg.clone());
            index += 1;
        }
    }
    let mut leading: Vec<String> = named
        .map(|(_, value)| value.to_owned())
        .into_iter()
        .collect();
    leading.append(&mut operands);
    // The wrapper keeps all its words, as bash hands them to it; the program it runs is put
    // together from them.
    leading.extend(args.get(index..).unwrap_or_default().iter().cloned());
    (!leading.is_empty()).then_some(Wrapped {
        at: args.len(),
        leading,
        or_at: None,
        entry: None,
    })
}

/// The value the word at `index` gives the option `option`: glued on (`--exec=/bin/x`,
/// `-x/bin/x`, also ending a cluster of flags as getopt reads it: `-bx/bin/x`), or the next
/// word (`--exec /bin/x`, `-bx /bin/x`)
fn program_option_value<'a>(
    spec: &Wrapper,
    option: &str,
    args: &'a [String],
    index: usize,
) -> Option<&'a str> {
    let arg = args.get(index)?;
    let next = || args.get(index + 1).map(String::as_str);
    if option.starts_with("--") {
        return match arg.strip_prefix(option)? {
            "" => next(),
            rest => rest.strip_prefix('='),
        };
    }
    let letter = option.strip_prefix('-')?;
    let cluster = arg
        .strip_prefix('-')
        .filter(|rest| !rest.starts_with('-'))?;
    for (start, flag) in cluster.char_indices() {
        let rest = cluster.get(start + flag.len_utf8()..)?;
        if letter.starts_with(flag) {
            return if rest.is_empty() { next() } else { Some(rest) };
        }
        if spec.short_valued.contains(flag) {
            return None;
        }
    }
    None
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
    // env(1) and sudo(8) take any `NAME=VALUE` before the program, whatever the name holds
    // (`env 'BASH_FUNC_ls%%=() { …; }' bash`): only a path is a program with a `=`.
    word.split_once('=')
        .is_some_and(|(name, _)| !name.is_empty() && !name.contains('/'))
}

#[cfg(test)]
mod tests {
    use super::{descriptor_array, wrapped};

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
            ("gosu", "root rm", Some(1)),
            ("su-exec", "0:0 rm", Some(1)),
            ("run0", "-u root rm", Some(2)),
            ("pkexec", "--user root rm", Some(2)),
            ("doas", "-u root rm", Some(2)),
            ("please", "-d / -r why rm", Some(4)),
            ("please", "-g wheel rm", Some(2)),
            ("setsid", "rm", Some(0)),
            ("nohup", "rm", Some(0)),
            ("builtin", "exec rm", Some(0)),
            ("exec", "-a name rm", Some(2)),
            ("time", "-f %e rm", Some(2)),
            ("ionice", "-c 3 rm", Some(2)),
            ("docker", "run --rm -v /:/h -e A=1 img rm", Some(7)),
            ("docker", "--context x exec -it -u root web rm", Some(7)),
            ("docker", "compose -f prod.yml exec -T web rm", Some(6)),
            ("docker", "compose -p app run --rm -e A=1 web rm", Some(8)),
            ("docker", "compose up -d", None),
            ("docker", "rm -f web", None),
            ("podman", "compose exec web rm", Some(3)),
            (
                "docker-compose",
                "--profile dev run -w /app web rm",
                Some(6),
            ),
            ("podman-compose", "exec db rm", Some(2)),
            ("kubectl", "exec -it web -c app -- rm -rf /data", Some(6)),
            ("kubectl", "-n prod exec web -- rm", Some(5)),
            ("kubectl", "--context prod exec web -- rm", Some(5)),
            (
                "kubectl",
                "run t --image=alpine --restart=Never -- rm",
                Some(5),
            ),
            ("kubectl", "exec web", None),
            ("kubectl", "logs web -- rm", None),
            ("oc", "debug node/n -- chroot /host rm", Some(3)),
            ("toybox", "rm -rf /", Some(0)),
            ("pnpm", "dlx rimraf x", Some(1)),
            ("corepack", "pnpm publish", Some(0)),
            ("ssh-agent", "-t 60 sh -c x", Some(2)),
            ("dbus-run-session", "-- rm", Some(1)),
            ("chronic", "-e rm", Some(1)),
            ("faketime", "2020-01-01 rm", Some(1)),
            ("cpulimit", "-l 50 -- rm", Some(3)),
            ("perf", "stat -e cycles -- rm", Some(4)),
            ("perf", "report -i x", None),
            ("mise", "exec node@20 -- rm", Some(3)),
            ("rtx", "x python -- rm", Some(3)),
            ("mise", "exec -- rm", Some(2)),
            ("kubectl", "exec -- rm", Some(2)),
        ];
        for (program, args, expected) in cases {
            let at = wrapped(program, &words(args)).map(|wrapped| wrapped.at);
            assert_eq!(at, expected, "{program} {args}");
        }
    }

    #[test]
    fn a_coprocess_sets_the_array_of_its_name_or_coproc() {
        // bash(1), Coprocesses: "If NAME is not supplied, the default name is COPROC", and a
        // name is only taken before a compound command.
        for (program, line, array) in [
            ("coproc", "NAME { rm; }", Some("NAME")),
            ("coproc", "W while true; do :; done", Some("W")),
            ("coproc", "cat file", Some("COPROC")),
            ("coproc", "{ cat; }", Some("COPROC")),
            ("nohup", "cat file", None),
            ("time", "cat", None),
        ] {
            let args = words(line);
            assert_eq!(descriptor_array(program, &args), array, "{program} {line}");
        }
    }

    #[test]
    fn an_image_named_after_a_program_runs_it_with_the_words_after_it() {
        let cases = [
            (
                "docker",
                "run --rm bitnami/kubectl delete ns x",
                Some("kubectl delete ns x"),
            ),
            (
                "docker",
                "run amazon/aws-cli:2.15 s3 rb s3://b",
                Some("aws s3 rb s3://b"),
            ),
            (
                "podman",
                "run -w /w hashicorp/terraform destroy",
                Some("terraform destroy"),
            ),
            (
                "nerdctl",
                "container run google/cloud-sdk:slim ls",
                Some("gcloud ls"),
            ),
            (
                "docker",
                "run mcr.microsoft.com/azure-cli az x",
                Some("az az x"),
            ),
            ("docker", "run img@sha256:ab x", Some("img x")),
            // A flake's output runs its main program, named after its last attribute.
            (
                "nix",
                "run nixpkgs#terraform -- destroy",
                Some("terraform destroy"),
            ),
            (
                "nix",
                "run --system x86_64-linux github:o/r#python3Packages.black .",
                Some("black ."),
            ),
            ("nix", "shell nixpkgs#hello -c hello", None),
            // `--arg NAME EXPR` takes two words before the installable.
            (
                "nix",
                "run --arg a b --option sandbox false nixpkgs#terraform -- destroy",
                Some("terraform destroy"),
            ),
            ("docker", "exec kubectl delete ns x", None),
            ("docker", "compose run kubectl delete ns x", None),
        ];
        for (program, args, expected) in cases {
            let entry = wrapped(program, &words(args)).and_then(|found| found.entry);
            assert_eq!(
                entry.map(|words| words.join(" ")).as_deref(),
                expected,
                "{args}"
            );
        }
    }

    #[test]
    fn a_long_option_the_row_does_not_list_leaves_both_readings() {
        let args = words("run --locked-new x rm -rf y");
        let found = wrapped("uv", &args);
        assert_eq!(found.as_ref().map(|found| found.at), Some(2));
        assert_eq!(found.and_then(|found| found.or_at), Some(3));
        let listed = wrapped("uv", &words("run --with x rm -rf y"));
        assert_eq!(listed.map(|found| (found.at, found.or_at)), Some((3, None)));
        let glued = wrapped("uv", &words("run --new=x rm -rf y"));
        assert_eq!(glued.map(|found| (found.at, found.or_at)), Some((2, None)));
        // xargs' row lists every long option that takes the next word.
        let null = wrapped("xargs", &words("--null rm -rf"));
        assert_eq!(null.map(|found| (found.at, found.or_at)), Some((1, None)));
    }

    #[test]
    fn finds_the_program_of_debuggers_daemons_and_virtual_machines() {
        let cases = [
            ("gdb", "-q -batch -ex run --args rm -rf x", "rm -rf x"),
            (
                "nix",
                "shell nixpkgs#jq nixpkgs#curl -c rm -rf x",
                "rm -rf x",
            ),
            ("nix", "develop --command rm -rf x", "rm -rf x"),
            ("cmake", "-E env --unset=A B=1 rm -rf x", "rm -rf x"),
            ("cmake", "-E time rm -rf x", "rm -rf x"),
            ("cmake", "-E chdir /tmp rm -rf x", "rm -rf x"),
            ("gdb", "-x cmds -p 1 --args rm -rf x", "rm -rf x"),
            ("gdb", "--eval-command=run ./app", "./app"),
            ("lldb", "-b -o run -- rm -rf x", "rm -rf x"),
            ("lldb", "rm -b -- -rf x", "rm -rf x"),
            ("lldb", "-f rm -s cmds -- -rf x", "rm -rf x"),
            ("valgrind", "--tool=memcheck -q rm -rf x", "rm -rf x"),
            ("catchsegv", "rm -rf x", "rm -rf x"),
            ("strace", "-e trace=file -s 99 rm -rf x", "rm -rf x"),
            ("ltrace", "-S -o log rm -rf x", "rm -rf x"),
            (
                "start-stop-daemon",
                "--start --exec /bin/rm -- -rf x",
                "/bin/rm -rf x",
            ),
            ("start-stop-daemon", "-Sbx/bin/rm -- -rf x", "/bin/rm -rf x"),
            (
                "start-stop-daemon",
                "-S -x /usr/bin/env --startas /bin/rm -- -rf x",
                "/bin/rm -rf x",
            ),
            ("start-stop-daemon", "-S --exec=/bin/rm", "/bin/rm"),
            ("lima", "nerdctl volume prune -f", "nerdctl volume prune -f"),
            ("lima", "A=1 rm -rf x", "rm -rf x"),
            ("limactl", "shell default rm -rf x", "rm -rf x"),
            ("uv", "run rm -rf x", "rm -rf x"),
            (
                "uv",
                "--directory app run --with requests -p 3.12 rm -rf x",
                "rm -rf x",
            ),
            ("poetry", "run rm -rf x", "rm -rf x"),
            ("bundle", "exec rails runner x", "rails runner x"),
            ("pnpm", "--dir app exec rm -rf x", "rm -rf x"),
            ("conda", "run -n base rm -rf x", "rm -rf x"),
            ("direnv", "exec . rm -rf x", "rm -rf x"),
            ("rustup", "run stable rm -rf x", "rm -rf x"),
            ("yarn", "dlx -p pkg rm -rf x", "rm -rf x"),
            ("yarn", "run rm -rf x", "rm -rf x"),
            ("gem", "exec -g g rm -rf x", "rm -rf x"),
            ("npm", "exec --package=cowsay -- rm -rf x", "rm -rf x"),
            ("npm", "x -p cowsay rm -rf x", "rm -rf x"),
            (
                "limactl",
                "--log-level debug shell --workdir / vm rm -rf x",
                "rm -rf x",
            ),
        ];
        for (program, args, expected) in cases {
            let args = words(args);
            let found = wrapped(program, &args).map(|wrapped| {
                let mut command = wrapped.leading;
                command.extend(args.get(wrapped.at..).unwrap_or_default().iter().cloned());
                command.join(" ")
            });
            assert_eq!(found.as_deref(), Some(expected), "{program} {args:?}");
        }
        for (program, args) in [
            ("limactl", "list"),
            ("uv", "pip install rm"),
            ("poetry", "add rm"),
            ("bundle", "install"),
            ("pnpm", "install rm"),
            ("limactl", "shell default"),
            ("start-stop-daemon", "--stop --pidfile /run/x.pid"),
            ("gdb", "-p 1"),
            ("cmake", "--build build -j8"),
            ("cmake", "-S . -B build"),
            ("cmake", "-E echo env"),
        ] {
            assert_eq!(wrapped(program, &words(args)), None, "{program} {args}");
        }
    }
}
