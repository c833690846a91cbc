//! The sandbox a command line runs in: bubblewrap (`bwrap`) with new user, mount, pid,
//! network, IPC and UTS namespaces, every capability dropped, and an empty read-only tmpfs
//! root holding only what bash needs. Every program name on `PATH` (`/usr/bin`, which `/bin`
//! and `/sbin` point to) is a hard link to one stub (`stub.c`) that records the name and its
//! arguments and exits; shells and the programs that run others or only transform data are
//! recorded and then run for real, from `/oracle/real`, so what they run is recorded too.
//! `/dev` holds `null`, `zero` and `urandom` and is read-only; the home (`/home/user`), the
//! project (`/home/user/project`, the working directory) and `/tmp` are small writable tmpfs
//! mounts that vanish with the run. Nothing of the host is mounted writable.
//!
//! [`Sandbox::new`] proves all this before it hands out a sandbox: a hostile line aimed at a
//! canary file outside must run (its `rm` is recorded) and leave the canary whole. A sandbox
//! that cannot be built is an error, never a reason to run a line without one.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The descriptor the stubs write their records to (`stub.c`)
const LOG_FD: u32 = 600;

/// How long one line may run, on a loaded machine, before the sandbox is killed
const LINE_TIME: Duration = Duration::from_secs(20);

/// The home and the working directory inside the sandbox (the corpus's `cwd`)
pub(crate) const HOME: &str = "/home/user";
/// The project directory, where every line starts
pub(crate) const PROJECT: &str = "/home/user/project";

/// Programs that are recorded and then run for real: shells (so the scripts handed to them
/// run), wrappers (so what they wrap runs) and data filters (so a decoded script reaches its
/// shell). `sh` is dash, as on Debian. `find` is not among them: its `-exec` over the whole
/// sandbox would run a stub per file, and the reader's view of `find -exec` is held by
/// `tests/shell/structure.txt`.
const REAL: &[(&str, &str)] = &[
    ("bash", "bash"),
    ("sh", "dash"),
    ("dash", "dash"),
    ("env", "env"),
    ("nice", "nice"),
    ("nohup", "nohup"),
    ("setsid", "setsid"),
    ("timeout", "timeout"),
    ("xargs", "xargs"),
    ("base64", "base64"),
    ("base32", "base32"),
    ("cat", "cat"),
    ("tr", "tr"),
    ("rev", "rev"),
    ("head", "head"),
    ("tail", "tail"),
    ("tee", "tee"),
    ("printf", "printf"),
    ("echo", "echo"),
    ("xxd", "xxd"),
];

/// Program names every run has a stub for, beyond the words of the line: what the shipped
/// policy names, and common programs a decoded or computed line may run
const NAMES: &[&str] = &[
    "rm",
    "rmdir",
    "mv",
    "cp",
    "ln",
    "ls",
    "touch",
    "mkdir",
    "chmod",
    "chown",
    "chgrp",
    "dd",
    "shred",
    "truncate",
    "mkfs",
    "mkfs.ext4",
    "mkfs.xfs",
    "mkfs.vfat",
    "mke2fs",
    "mkswap",
    "wipefs",
    "fdisk",
    "parted",
    "sudo",
    "su",
    "doas",
    "pkexec",
    "run0",
    "curl",
    "wget",
    "fetch",
    "aria2c",
    "http",
    "https",
    "zsh",
    "ksh",
    "mksh",
    "ash",
    "fish",
    "perl",
    "ruby",
    "node",
    "php",
    "python",
    "python3",
    "git",
    "make",
    "cargo",
    "npm",
    "id",
    "date",
    "true",
    "false",
    "sleep",
    "grep",
    "sed",
    "awk",
    "sort",
    "uniq",
    "wc",
    "cut",
    "jq",
    "tar",
    "gzip",
    "unzip",
    "kill",
    "killall",
    "pkill",
    "reboot",
    "shutdown",
    "crontab",
    "ssh",
    "scp",
    "nc",
    "stdbuf",
    "ionice",
    "time",
    "which",
    "whoami",
    "uname",
    "yes",
    "test",
    "[",
];

/// What one line did in the sandbox
#[derive(Debug, Clone)]
pub(crate) struct Run {
    /// Every program run, as recorded: its name, then its arguments
    pub(crate) commands: Vec<Vec<String>>,
    /// What the line wrote to stderr (its stdout is discarded), cut to a few KiB
    pub(crate) stderr: String,
    /// Whether the line ran out of time and was killed
    pub(crate) timed_out: bool,
}

/// The stubs of a set of lines, hard links to the one stub
pub(crate) struct Stubs {
    bin: tempfile::TempDir,
}

/// A proven sandbox: the stub, the real programs and the libraries they need
pub(crate) struct Sandbox {
    dir: tempfile::TempDir,
    stub: PathBuf,
    real: Vec<(String, PathBuf)>,
    /// Each library as (its file on the host, where the loader looks for it)
    libraries: BTreeSet<(PathBuf, PathBuf)>,
}

impl Sandbox {
    /// Builds the sandbox and proves it with the canary, or says why it cannot
    pub(crate) fn new() -> Result<Sandbox, String> {
        let version = Command::new("bwrap").arg("--version").output();
        if !version.is_ok_and(|output| output.status.success()) {
            return Err(
                "bubblewrap (`bwrap`) is not installed or does not run: install it \
                        (`apt-get install bubblewrap`); the oracle never runs a line outside it"
                    .into(),
            );
        }
        let dir =
            tempfile::tempdir().map_err(|error| format!("no temporary directory: {error}"))?;
        let stub = dir.path().join("stub");
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shell_oracle/stub.c");
        let compiled = Command::new("cc")
            .args(["-O2", "-o"])
            .arg(&stub)
            .arg(&source)
            .output()
            .map_err(|error| format!("cannot run `cc` to build the stub: {error}"))?;
        if !compiled.status.success() {
            return Err(format!(
                "`cc` could not build {}: {}",
                source.display(),
                String::from_utf8_lossy(&compiled.stderr)
            ));
        }
        let real: Vec<(String, PathBuf)> = REAL
            .iter()
            .filter_map(|(name, host)| {
                let path = Path::new("/usr/bin").join(host);
                path.is_file().then(|| ((*name).to_owned(), path))
            })
            .collect();
        if !real.iter().any(|(name, _)| name == "bash") {
            return Err("/usr/bin/bash is missing: the oracle runs lines with bash".into());
        }
        let mut libraries = BTreeSet::new();
        for path in std::iter::once(&stub).chain(real.iter().map(|(_, path)| path)) {
            libraries.extend(shared_libraries(path)?);
        }
        let sandbox = Sandbox {
            dir,
            stub,
            real,
            libraries,
        };
        sandbox.prove()?;
        Ok(sandbox)
    }

    /// A directory of stubs for the usual names, the words of `lines` that could name a
    /// program, and `names`: the sandbox's `/usr/bin` for those lines
    pub(crate) fn stubs<'a>(
        &self,
        lines: impl IntoIterator<Item = &'a str>,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<Stubs, String> {
        let bin = tempfile::tempdir_in(self.dir.path())
            .map_err(|error| format!("no directory for the stubs: {error}"))?;
        let mut all: BTreeSet<&str> = NAMES.iter().copied().collect();
        let names: Vec<&str> = names.into_iter().collect();
        let lines: Vec<&str> = lines.into_iter().collect();
        all.extend(self.real.iter().map(|(name, _)| name.as_str()));
        all.extend(names);
        all.extend(lines.iter().flat_map(|line| program_words(line)));
        for name in all {
            if name.is_empty() || name.contains('/') || name == "." || name == ".." {
                continue;
            }
            std::fs::hard_link(&self.stub, bin.path().join(name))
                .map_err(|error| format!("cannot link the stub as `{name}`: {error}"))?;
        }
        Ok(Stubs { bin })
    }

    /// Runs `line` with bash in a fresh sandbox whose programs are `stubs`
    pub(crate) fn run(&self, stubs: &Stubs, line: &str) -> Result<Run, String> {
        self.run_exposing(stubs, line, None)
    }

    /// Runs `line` as [`Sandbox::run`] does, with the host directory `exposed`, if any,
    /// mounted writable at its own path: a sandbox with a hole, to show that the canary
    /// notices one
    pub(crate) fn run_exposing(
        &self,
        stubs: &Stubs,
        line: &str,
        exposed: Option<&Path>,
    ) -> Result<Run, String> {
        let mut arguments = self.arguments(stubs.bin.path());
        if let Some(dir) = exposed {
            let dir = dir.display().to_string();
            arguments.extend(["--bind".to_owned(), dir.clone(), dir]);
        }
        let mut command = Command::new("bwrap");
        command.args(arguments).args([
            "/oracle/real/bash",
            "--noprofile",
            "--norc",
            "-c",
            // Moves the record pipe to its descriptor, discards the line's stdout, and runs
            // the line as the Bash tool does, as the script of `bash -c`.
            &format!(
                "exec {LOG_FD}>&1 1>/dev/null; exec /oracle/real/bash --noprofile --norc -c \"$1\""
            ),
            "oracle",
            line,
        ]);
        run_bounded(command)
    }

    /// The bubblewrap arguments that build the sandbox, up to the program it runs
    fn arguments(&self, bin: &Path) -> Vec<String> {
        let mut arguments: Vec<String> = [
            "--unshare-all",
            "--unshare-user",
            "--uid",
            "1000",
            "--gid",
            "1000",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--clearenv",
            "--size",
            "1048576",
            "--tmpfs",
            "/",
        ]
        .iter()
        .map(|word| (*word).to_owned())
        .collect();
        let mut push = |words: &[&str]| arguments.extend(words.iter().map(|w| (*w).to_owned()));
        for (file, path) in &self.libraries {
            let (file, path) = (file.display().to_string(), path.display().to_string());
            push(&["--ro-bind", &file, &file]);
            push(&["--ro-bind", &file, &path]);
        }
        push(&["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]);
        push(&["--symlink", "usr/lib", "/lib"]);
        push(&["--symlink", "usr/lib64", "/lib64"]);
        let bin = bin.display().to_string();
        push(&["--ro-bind", &bin, "/usr/bin"]);
        push(&["--symlink", "usr/bin", "/bin"]);
        push(&["--symlink", "usr/bin", "/sbin"]);
        push(&["--symlink", "bin", "/usr/sbin"]);
        for (name, path) in &self.real {
            let path = path.display().to_string();
            push(&["--ro-bind", &path, &format!("/oracle/real/{name}")]);
        }
        push(&["--size", "65536", "--tmpfs", "/dev"]);
        for device in ["null", "zero", "urandom"] {
            let device = format!("/dev/{device}");
            push(&["--dev-bind", &device, &device]);
        }
        push(&["--symlink", "/proc/self/fd", "/dev/fd"]);
        push(&["--symlink", "/proc/self/fd/0", "/dev/stdin"]);
        push(&["--symlink", "/proc/self/fd/1", "/dev/stdout"]);
        push(&["--symlink", "/proc/self/fd/2", "/dev/stderr"]);
        push(&["--remount-ro", "/dev"]);
        // `/proc` serves `/dev/fd` (process substitution) and the stubs' `/proc/self/exe`.
        push(&["--proc", "/proc"]);
        push(&["--size", "8388608", "--tmpfs", "/tmp"]);
        push(&["--size", "8388608", "--tmpfs", HOME]);
        push(&["--dir", PROJECT]);
        push(&["--remount-ro", "/"]);
        push(&["--setenv", "PATH", "/usr/bin:/bin"]);
        push(&["--setenv", "HOME", HOME]);
        push(&["--setenv", "USER", "user"]);
        push(&["--setenv", "LANG", "C"]);
        push(&["--setenv", "TMPDIR", "/tmp"]);
        push(&["--chdir", PROJECT]);
        arguments
    }

    /// Runs a hostile line aimed at a canary outside the sandbox, and requires that the line
    /// ran and the canary is whole
    fn prove(&self) -> Result<(), String> {
        let outside = self.dir.path().join("canary");
        std::fs::create_dir(&outside).map_err(|error| format!("no canary directory: {error}"))?;
        let canary = outside.join("canary.txt");
        std::fs::write(&canary, "alive\n").map_err(|error| format!("no canary: {error}"))?;
        let (dir, file) = (outside.display().to_string(), canary.display().to_string());
        let line = hostile_line(&dir, &file);
        let run = self.run(&self.stubs([line.as_str()], [])?, &line)?;
        let ran = run.commands.iter().any(|command| {
            command.first().is_some_and(|name| name == "rm") && command.contains(&file)
        });
        if !ran {
            return Err(format!(
                "the canary line did not run in the sandbox (records: {:?}, stderr: {})",
                run.commands, run.stderr
            ));
        }
        let kept = std::fs::read_to_string(&canary).unwrap_or_default();
        if kept != "alive\n" || !outside.is_dir() {
            return Err(format!(
                "the sandbox let a line reach {file}: it now holds {kept:?}; no line may run"
            ));
        }
        Ok(())
    }
}

/// A line that tries every way the sandbox's programs have to destroy the canary at `file`
/// in `dir`: the stubbed `rm`, redirections bash opens itself, the real `find -delete` of
/// the sandbox itself, a real nested shell, and writes onto a disk and onto the stubs
pub(crate) fn hostile_line(dir: &str, file: &str) -> String {
    format!(
        "rm -rf / ~ {dir} {file}; : > {file}; echo gone > {file}; printf gone >> {file}; \
         /oracle/real/find {dir} / -delete; bash -c 'echo gone > {file}'; \
         sh -c 'rm -rf {dir}'; echo x > /dev/sda; cat /dev/zero > /dev/sda; \
         echo x > /usr/bin/rm; rm -rf ~/*; cd / && rm -rf *"
    )
}

/// Runs the sandbox to its end, or kills it at [`LINE_TIME`]; reads its records and stderr
fn run_bounded(mut command: Command) -> Result<Run, String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot start bwrap: {error}"))?;
    let stdout = child.stdout.take().ok_or("bwrap has no stdout")?;
    let stderr = child.stderr.take().ok_or("bwrap has no stderr")?;
    let records = std::thread::spawn(move || read_all(stdout));
    let errors = std::thread::spawn(move || read_all(stderr));
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > LINE_TIME => {
                timed_out = true;
                let _ = child.kill();
                match child.wait() {
                    Ok(status) => break status,
                    Err(error) => return Err(format!("cannot wait for bwrap: {error}")),
                }
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(error) => return Err(format!("cannot wait for bwrap: {error}")),
        }
    };
    let records = records.join().map_err(|_| "the record reader failed")?;
    let errors = errors.join().map_err(|_| "the stderr reader failed")?;
    let mut stderr = String::from_utf8_lossy(&errors).into_owned();
    if stderr.starts_with("bwrap:") {
        return Err(format!(
            "bwrap could not build the sandbox ({status}): {stderr}"
        ));
    }
    if let Some((cut, _)) = stderr.char_indices().nth(4096) {
        stderr.truncate(cut);
    }
    Ok(Run {
        commands: parse_records(&records)?,
        stderr,
        timed_out,
    })
}

fn read_all(mut from: impl Read) -> Vec<u8> {
    let mut bytes = Vec::new();
    let _ = from.read_to_end(&mut bytes);
    bytes
}

/// The records of `stub.c`: `N:` then `N` fields, each `LEN:BYTES`
fn parse_records(mut bytes: &[u8]) -> Result<Vec<Vec<String>>, String> {
    fn number(bytes: &mut &[u8]) -> Result<usize, String> {
        let colon = bytes
            .iter()
            .position(|byte| *byte == b':')
            .ok_or("a record without `:`")?;
        let (digits, rest) = bytes.split_at(colon);
        let value = std::str::from_utf8(digits)
            .ok()
            .and_then(|text| text.parse().ok())
            .ok_or("a record with a bad number")?;
        *bytes = rest.get(1..).unwrap_or_default();
        Ok(value)
    }
    let mut commands = Vec::new();
    while !bytes.is_empty() {
        let count = number(&mut bytes)?;
        let mut command = Vec::with_capacity(count);
        for _ in 0..count {
            let length = number(&mut bytes)?;
            let field = bytes.get(..length).ok_or("a record cut short")?;
            command.push(String::from_utf8_lossy(field).into_owned());
            bytes = bytes.get(length..).unwrap_or_default();
        }
        commands.push(command);
    }
    Ok(commands)
}

/// The words of `line` that could name a program, so each has a stub
fn program_words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || "._+-".contains(c)))
        .filter(|word| {
            word.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
        })
}

/// The shared libraries `program` loads, from `ldd`, each as its real file and as the path
/// the loader asks for
fn shared_libraries(program: &Path) -> Result<BTreeSet<(PathBuf, PathBuf)>, String> {
    let output = Command::new("ldd")
        .arg(program)
        .output()
        .map_err(|error| format!("cannot run `ldd` on {}: {error}", program.display()))?;
    let mut libraries = BTreeSet::new();
    for word in String::from_utf8_lossy(&output.stdout).split_whitespace() {
        if !word.starts_with('/') {
            continue;
        }
        let asked = Path::new(word);
        let real = std::fs::canonicalize(asked)
            .map_err(|error| format!("cannot resolve the library {word}: {error}"))?;
        // `/lib` and `/lib64` are links to `/usr/lib` and `/usr/lib64` in the sandbox.
        let mapped = word
            .strip_prefix("/lib64/")
            .map(|rest| PathBuf::from("/usr/lib64").join(rest))
            .or_else(|| {
                word.strip_prefix("/lib/")
                    .map(|rest| PathBuf::from("/usr/lib").join(rest))
            })
            .unwrap_or_else(|| asked.to_path_buf());
        libraries.insert((real, mapped));
    }
    Ok(libraries)
}
