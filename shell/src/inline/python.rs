//! Python code, read with tree-sitter-python.
//!
//! A call is known by the dotted name of what it calls, with `import ... as`, `from ...
//! import` and `__import__("os")` resolved (`from os import system as s; s(...)` calls
//! `os.system`). A dangerous function used other than by a direct call (`f = os.system`
//! assigned twice, handed to `map`) is opaque, as is code evaluated at run time.

use std::borrow::Cow;

use tree_sitter::Node;
use unicode_normalization::UnicodeNormalization;

use super::bindings::{within, Binding, Bindings};
use super::tree::{
    every_node, has_operator, in_loop, join, join_operands, kill, named_children, octal_mode,
    parenthesized, text, unescape, unknown,
};
use super::{in_folder, linked, moved, unpacked_into, Effect, Value};

/// How deep a dotted name or a literal expression is followed
const MAX_DEPTH: usize = 32;

/// What a function of the table does with its arguments
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Does {
    /// Hands its first argument to a shell (`os.system`)
    Shell,
    /// Runs its first argument: a list of words, or a string read as a command line
    /// (`subprocess.run`; without `shell=True` the string is the program, which reading it as
    /// a command line covers)
    Command,
    /// `os.exec*`, `os.spawn*`, `os.posix_spawn*`: a program and its words
    Exec,
    /// Deletes a tree
    DeleteTree,
    /// Deletes a file
    DeleteFile,
    /// Deletes an empty folder
    DeleteFolder,
    /// Opens a file, writing when its mode says so
    Open,
    /// Writes the file its first argument names (`os.truncate`)
    Write,
    /// Unpacks the archive its first argument names into the folder its second names, or
    /// the one it runs in (`shutil.unpack_archive`)
    Unpack,
    /// Makes its second argument a link to its first (`os.symlink`, `os.link`)
    Link {
        /// Whether the link is symbolic
        symbolic: bool,
    },
    /// Evaluates code, or reaches what the reader cannot follow
    Evaluates,
    /// Imports a module by name: opaque unless the name is a literal
    Imports,
    /// `getattr(obj, name)`: opaque unless the name is a literal naming nothing in the table
    GetAttr,
    /// Sends a signal to a process (`os.kill`), or to a group (`os.killpg`)
    Kill {
        /// Whether the id is a process group's
        group: bool,
    },
    /// Makes a process (`os.fork`): in a loop, without end
    Fork,
    /// Downloads to the file its second argument names (`urllib.request.urlretrieve`)
    Fetch,
    /// Writes its second argument from its first (`shutil.copy`, `shutil.copytree`)
    Copy,
    /// Moves its first argument to its second: the first goes, the second is written
    /// (`shutil.move`, `os.rename`, `os.replace`)
    Move,
    /// Changes the folder later relative paths start from (`os.chdir`)
    Chdir,
    /// Changes a file's mode (`os.chmod(path, mode)`): read as `chmod MODE PATH`
    Chmod,
    /// Changes a file's owner (`os.chown(path, uid, gid)`): read as `chown -- PATH`
    Chown,
}

/// The kinds of node that run what they hold again and again
const LOOPS: &[&str] = &[
    "while_statement",
    "for_statement",
    "list_comprehension",
    "set_comprehension",
    "dictionary_comprehension",
    "generator_expression",
];

/// The modules whose functions `os` re-exports, one for each platform: `posix.system` is
/// `os.system`
const OS_MODULES: &[&str] = &["posix", "nt"];

/// The functions whose calls matter, by dotted name
fn table(name: &str) -> Option<Does> {
    let name = as_os(name);
    let name = name.as_ref();
    let does = match name {
        "os.system"
        | "os.popen"
        | "subprocess.getoutput"
        | "subprocess.getstatusoutput"
        | "commands.getoutput"
        | "commands.getstatusoutput"
        | "asyncio.create_subprocess_shell"
        | "platform.popen" => Does::Shell,
        "subprocess.run"
        | "subprocess.call"
        | "subprocess.check_call"
        | "subprocess.check_output"
        | "subprocess.Popen"
        | "pty.spawn" => Does::Command,
        "shutil.rmtree" => Does::DeleteTree,
        "shutil.copy" | "shutil.copy2" | "shutil.copyfile" | "shutil.copytree" => Does::Copy,
        "shutil.move" | "os.rename" | "os.replace" | "os.renames" => Does::Move,
        "os.chdir" | "os.fchdir" => Does::Chdir,
        "os.chmod" | "os.lchmod" => Does::Chmod,
        "os.chown" | "os.lchown" | "shutil.chown" => Does::Chown,
        "os.remove" | "os.unlink" => Does::DeleteFile,
        "os.truncate" => Does::Write,
        "shutil.unpack_archive" => Does::Unpack,
        "os.symlink" => Does::Link { symbolic: true },
        "os.link" => Does::Link { symbolic: false },
        "os.rmdir" | "os.removedirs" => Does::DeleteFolder,
        "open" | "io.open" | "builtins.open" => Does::Open,
        "eval"
        | "exec"
        | "compile"
        | "execfile"
        | "globals"
        | "setattr"
        | "os.dup2"
        | "os.fdopen"
        | "marshal.loads"
        | "pickle.loads"
        | "runpy.run_path"
        | "runpy.run_module"
        | "code.interact"
        | "os.posix_spawn_file_actions" => Does::Evaluates,
        "__import__" | "importlib.import_module" => Does::Imports,
        "getattr" => Does::GetAttr,
        "os.kill" => Does::Kill { group: false },
        "os.killpg" => Does::Kill { group: true },
        "os.fork" | "os.forkpty" | "pty.fork" => Does::Fork,
        "urllib.request.urlretrieve" | "urllib.urlretrieve" => Does::Fetch,
        "asyncio.create_subprocess_exec" | "os.posix_spawn" | "os.posix_spawnp" => Does::Exec,
        _ if name.starts_with("os.exec") || name.starts_with("os.spawn") => Does::Exec,
        _ if name.starts_with("ctypes.")
            || name.starts_with("cffi.")
            || name.starts_with("__builtins__")
            || name.starts_with("builtins.")
            || name == "ctypes"
            || name == "builtins" =>
        {
            Does::Evaluates
        }
        _ => return None,
    };
    Some(does)
}

/// `name` as the table keys it: a name inside a module of [`OS_MODULES`] is the same name
/// inside `os`
fn as_os(name: &str) -> Cow<'_, str> {
    match name.split_once('.') {
        Some((module, rest)) if OS_MODULES.contains(&module) => Cow::Owned(format!("os.{rest}")),
        _ => Cow::Borrowed(name),
    }
}

/// The modules holding functions of the table: handed on, a module may be used for any
const MODULES: &[&str] = &[
    "os",
    "posix",
    "nt",
    "subprocess",
    "shutil",
    "pty",
    "importlib",
    "builtins",
    "__builtins__",
    "ctypes",
    "asyncio",
    "commands",
    "platform",
    "runpy",
    "marshal",
    "pickle",
    "io",
    "cffi",
    "code",
];

/// Whether a dotted name is a function of the table or a module holding some
fn reaches(name: &str) -> bool {
    table(name).is_some() || within(name, MODULES)
}

/// An identifier as Python reads it: in its NFKC form (PEP 3131), so `ｓｙｓｔｅｍ` is
/// `system`; ASCII, as nearly every name is, is already in that form
fn spelled(written: &str) -> Cow<'_, str> {
    if written.is_ascii() {
        Cow::Borrowed(written)
    } else {
        Cow::Owned(written.nfkc().collect())
    }
}

/// What the code binds, and the source it is read from
struct Scope<'t> {
    bindings: Bindings,
    /// The modules imported with `*`
    stars: Vec<String>,
    source: &'t str,
}

/// Reads `root` into `found`
pub(super) fn read(root: Node<'_>, source: &str, found: &mut Vec<Effect>) {
    let nodes = every_node(root);
    let mut scope = Scope {
        bindings: Bindings::new(reaches, spelled),
        stars: Vec::new(),
        source,
    };
    for node in &nodes {
        scope.bind(*node);
    }
    scope.bindings.report_shadowed(found);
    for node in &nodes {
        match node.kind() {
            "call" => {
                scope.call(*node, found);
                scope.change_folder(*node, found);
                // `__import__("os")` handed on is the module handed on.
                scope.reference(*node, found);
            }
            "identifier" | "attribute" => scope.reference(*node, found),
            _ => {}
        }
    }
}

impl<'t> Scope<'t> {
    /// The identifier (or dotted name) `node` spells, as Python reads it
    fn name(&self, node: Node<'_>) -> Cow<'t, str> {
        spelled(text(node, self.source))
    }

    /// Follows `os.chdir(PATH)`: later relative paths and commands start from PATH
    fn change_folder(&mut self, call: Node<'_>, found: &mut Vec<Effect>) {
        let is_chdir = call
            .child_by_field_name("function")
            .and_then(|function| self.qualify(function, 0))
            .is_some_and(|name| table(&name) == Some(Does::Chdir));
        if !is_chdir {
            return;
        }
        let folder = match self.argument(call, 0, "path") {
            Some(arg) => self.value(arg, 0),
            None => unknown("folder", call, self.source),
        };
        found.push(Effect::Chdir(folder));
    }

    /// Records the names an import or an assignment binds
    fn bind(&mut self, node: Node<'_>) {
        match node.kind() {
            "import_statement" => {
                for name in named_children(node) {
                    match name.kind() {
                        "dotted_name" => {
                            let full = self.name(name);
                            let first = full.split('.').next().unwrap_or(&full);
                            self.bindings.set(first, Binding::Name(first.to_owned()));
                        }
                        "aliased_import" => self.aliased(name, ""),
                        _ => {}
                    }
                }
            }
            "import_from_statement" => {
                let module = node
                    .child_by_field_name("module_name")
                    .map(|module| self.name(module).into_owned())
                    .unwrap_or_default();
                for name in named_children(node) {
                    if node
                        .child_by_field_name("module_name")
                        .is_some_and(|module| module.id() == name.id())
                    {
                        continue;
                    }
                    match name.kind() {
                        "dotted_name" => {
                            let short = self.name(name);
                            self.bindings
                                .set(&short, Binding::Name(format!("{module}.{short}")));
                        }
                        "aliased_import" => self.aliased(name, &module),
                        "wildcard_import" => self.stars.push(module.clone()),
                        _ => {}
                    }
                }
            }
            "assignment" | "named_expression" => {
                let (left, right) = match node.kind() {
                    "assignment" => (
                        node.child_by_field_name("left"),
                        node.child_by_field_name("right"),
                    ),
                    _ => (
                        node.child_by_field_name("name"),
                        node.child_by_field_name("value"),
                    ),
                };
                let Some(left) = left else { return };
                let name = text(left, self.source).to_owned();
                if left.kind() != "identifier" {
                    return;
                }
                let binding = match right {
                    Some(right) => match self.qualify(right, 0) {
                        Some(qualified) => Binding::Name(qualified),
                        None => Binding::Value(self.value(right, 0)),
                    },
                    None => Binding::Value(unknown("value", node, self.source)),
                };
                self.bindings.set(&name, binding);
            }
            // Every other way of binding a name makes its value unknown.
            "for_statement"
            | "with_item"
            | "function_definition"
            | "class_definition"
            | "augmented_assignment"
            | "for_in_clause"
            | "global_statement" => {
                let target = node
                    .child_by_field_name("left")
                    .or_else(|| node.child_by_field_name("name"));
                if let Some(target) = target.filter(|target| target.kind() == "identifier") {
                    let name = text(target, self.source).to_owned();
                    self.bindings
                        .set(&name, Binding::Value(unknown("value", node, self.source)));
                }
            }
            _ => {}
        }
    }

    /// `import a.b as c`, `from m import a as c`
    fn aliased(&mut self, node: Node<'_>, module: &str) {
        let (Some(name), Some(alias)) = (
            node.child_by_field_name("name"),
            node.child_by_field_name("alias"),
        ) else {
            return;
        };
        let name = self.name(name);
        let full = if module.is_empty() {
            name.into_owned()
        } else {
            format!("{module}.{name}")
        };
        let alias = text(alias, self.source).to_owned();
        self.bindings.set(&alias, Binding::Name(full));
    }

    /// The dotted name an expression refers to (`os.system`, `subprocess`), if it is one
    fn qualify(&self, node: Node<'_>, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        match node.kind() {
            "identifier" => {
                let name = self.name(node);
                match self.bindings.get(&name) {
                    Some(Some(Binding::Name(full))) => Some(full.clone()),
                    Some(_) => None,
                    None => Some(
                        self.stars
                            .iter()
                            .map(|module| format!("{module}.{name}"))
                            .find(|full| table(full).is_some())
                            .unwrap_or_else(|| name.into_owned()),
                    ),
                }
            }
            "attribute" => {
                let object = self.qualify(node.child_by_field_name("object")?, depth + 1)?;
                let attribute = self.name(node.child_by_field_name("attribute")?);
                // A function's `__call__` runs the function: `os.system.__call__(…)`.
                if attribute == "__call__" && table(&object).is_some() {
                    return Some(object);
                }
                Some(format!("{object}.{attribute}"))
            }
            "parenthesized_expression" => self.qualify(*named_children(node).first()?, depth + 1),
            "call" => {
                // `__import__("os")` and `importlib.import_module("os")` are the module.
                let function = self.qualify(node.child_by_field_name("function")?, depth + 1)?;
                if table(&function) != Some(Does::Imports) {
                    return None;
                }
                match self
                    .argument(node, 0, "name")
                    .map(|arg| self.value(arg, depth + 1))
                {
                    Some(Value::Known(module)) => Some(module),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The value an expression computes, as far as its literals tell
    fn value(&self, node: Node<'_>, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return unknown("value", node, self.source);
        }
        match node.kind() {
            "string" => self.string(node),
            "concatenated_string" => join(
                named_children(node)
                    .into_iter()
                    .map(|part| self.value(part, depth + 1))
                    .collect(),
            ),
            "binary_operator" if has_operator(node, "+", self.source) => {
                join_operands(node, self.source, |part| self.value(part, depth + 1))
            }
            "parenthesized_expression" => {
                parenthesized(node, self.source, |inner| self.value(inner, depth + 1))
            }
            "identifier" => self.bindings.value(node, self.source),
            // `Path.home() / ".ssh"`: a path joined by `/`.
            "binary_operator" if has_operator(node, "/", self.source) => {
                let parts = [
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ]
                .map(|part| match part {
                    Some(part) => self.value(part, depth + 1),
                    None => unknown("path", node, self.source),
                });
                path_join(parts.into_iter())
            }
            "call" => self.path_call(node, depth),
            _ => unknown("value", node, self.source),
        }
    }

    /// The path a call of `pathlib` or `os.path` computes from literals: `Path(a, b)`,
    /// `Path.home()`, `Path(p).expanduser()`, `os.path.expanduser(p)`, `os.path.join(a,
    /// b)`; the reader keeps the home as `~`, which `expanduser` leaves as it is
    fn path_call(&self, node: Node<'_>, depth: usize) -> Value {
        let Some(function) = node.child_by_field_name("function") else {
            return unknown("value", node, self.source);
        };
        let parts = || {
            self.positional(node)
                .into_iter()
                .map(|part| self.value(part, depth + 1))
        };
        let name = self.qualify(function, depth + 1).unwrap_or_default();
        let short = name.rsplit('.').next().unwrap_or(&name);
        if matches!(short, "Path" | "PosixPath" | "PurePath" | "PurePosixPath") {
            return if self.positional(node).is_empty() {
                Value::Known(".".to_owned())
            } else {
                path_join(parts())
            };
        }
        if name.ends_with("Path.home") {
            return Value::Known("~".to_owned());
        }
        match name.as_str() {
            "os.path.join" | "posixpath.join" => return path_join(parts()),
            "os.path.expanduser" | "os.path.abspath" | "os.path.normpath" => {
                if let Some(path) = self.argument(node, 0, "path") {
                    return self.value(path, depth + 1);
                }
            }
            _ => {}
        }
        // `Path(p).expanduser()`, `.absolute()`, `.resolve()` name the path they are called on.
        if function.kind() == "attribute" {
            let method = function
                .child_by_field_name("attribute")
                .map(|method| self.name(method));
            if let (Some("expanduser" | "absolute" | "resolve" | "joinpath"), Some(object)) =
                (method.as_deref(), function.child_by_field_name("object"))
            {
                let base = self.value(object, depth + 1);
                return match method.as_deref() {
                    Some("joinpath") => path_join(std::iter::once(base).chain(parts())),
                    _ => base,
                };
            }
        }
        unknown("value", node, self.source)
    }

    /// A string literal's text; unknown with an interpolation (`f"{x}"`)
    fn string(&self, node: Node<'_>) -> Value {
        let whole = text(node, self.source);
        let prefix: String = whole
            .chars()
            .take_while(|ch| ch.is_ascii_alphabetic())
            .collect();
        let raw = prefix.contains(['r', 'R']);
        let mut value = String::new();
        for part in named_children(node) {
            match part.kind() {
                "interpolation" => return unknown("string", node, self.source),
                "string_content" => {
                    let mut at = part.start_byte();
                    for escape in named_children(part) {
                        value.push_str(self.source.get(at..escape.start_byte()).unwrap_or(""));
                        let written = text(escape, self.source);
                        if raw || escape.kind() != "escape_sequence" {
                            value.push_str(written);
                        } else {
                            value.push_str(&unescape(written));
                        }
                        at = escape.end_byte();
                    }
                    value.push_str(self.source.get(at..part.end_byte()).unwrap_or(""));
                }
                _ => {}
            }
        }
        Value::Known(value)
    }

    /// The argument at `position`, or given by `keyword`
    fn argument<'n>(&self, call: Node<'n>, position: usize, keyword: &str) -> Option<Node<'n>> {
        let arguments = named_children(call.child_by_field_name("arguments")?);
        let by_keyword = arguments.iter().find_map(|arg| {
            (arg.kind() == "keyword_argument"
                && arg
                    .child_by_field_name("name")
                    .is_some_and(|name| self.name(name) == keyword))
            .then(|| arg.child_by_field_name("value"))
            .flatten()
        });
        by_keyword.or_else(|| self.positional(call).get(position).copied())
    }

    /// `run`, which the call runs, in the folder its `cwd=` keyword names, if it has one
    /// (`subprocess.run(…, cwd="/")`, `asyncio.create_subprocess_shell(…, cwd=…)`)
    fn in_its_folder(&self, call: Node<'_>, run: Effect) -> Effect {
        let cwd = call
            .child_by_field_name("arguments")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .find_map(|arg| match arg.kind() {
                "keyword_argument"
                    if arg
                        .child_by_field_name("name")
                        .is_some_and(|name| self.name(name) == "cwd") =>
                {
                    Some(match arg.child_by_field_name("value") {
                        Some(value) => self.value(value, 0),
                        None => unknown("folder", arg, self.source),
                    })
                }
                // `**options` may hold a `cwd`.
                "dictionary_splat" => Some(unknown("folder", arg, self.source)),
                _ => None,
            });
        match cwd {
            Some(cwd) => in_folder(&cwd, run),
            None => run,
        }
    }

    /// The positional arguments of a call
    fn positional<'n>(&self, call: Node<'n>) -> Vec<Node<'n>> {
        call.child_by_field_name("arguments")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|arg| !matches!(arg.kind(), "keyword_argument" | "dictionary_splat"))
            .collect()
    }

    /// The words of a list or tuple of strings; one unknown word for anything else
    fn words(&self, node: Node<'_>) -> Vec<Value> {
        match node.kind() {
            "list" | "tuple" => named_children(node)
                .into_iter()
                .map(|item| self.value(item, 0))
                .collect(),
            _ => vec![unknown("list of words", node, self.source)],
        }
    }

    /// What one call does
    fn call(&self, node: Node<'_>, found: &mut Vec<Effect>) {
        let Some(function) = node.child_by_field_name("function") else {
            return;
        };
        if let Some(effects) = self.method(node, function) {
            found.extend(effects);
            return;
        }
        let Some(name) = self.qualify(function, 0) else {
            return;
        };
        let Some(does) = table(&name) else { return };
        let first = |keyword| match self.argument(node, 0, keyword) {
            Some(arg) => self.value(arg, 0),
            None => unknown("argument", node, self.source),
        };
        let effect = match does {
            Does::Shell => self.in_its_folder(node, Effect::Script(first("cmd"))),
            Does::Command => self.in_its_folder(
                node,
                match self.argument(node, 0, "args") {
                    Some(arg) if matches!(arg.kind(), "list" | "tuple") => {
                        Effect::Exec(self.words(arg))
                    }
                    Some(arg) => Effect::Script(self.value(arg, 0)),
                    None => Effect::Script(unknown("command", node, self.source)),
                },
            ),
            Does::Exec => Effect::Exec(self.exec_words(&name, node)),
            Does::DeleteTree => Effect::Delete {
                tree: true,
                empty_folder: false,
                path: first("path"),
            },
            Does::DeleteFile => Effect::Delete {
                tree: false,
                empty_folder: false,
                path: first("path"),
            },
            Does::DeleteFolder => Effect::Delete {
                tree: false,
                empty_folder: true,
                path: first("path"),
            },
            Does::Open => {
                let writes = match self.argument(node, 1, "mode").map(|arg| self.value(arg, 0)) {
                    None => false,
                    Some(Value::Known(mode)) => mode.contains(['w', 'a', 'x', '+']),
                    Some(Value::Unknown(_)) => true,
                };
                if !writes {
                    return;
                }
                Effect::Write(first("file"))
            }
            Does::Evaluates => Effect::Opaque(format!(
                "the code calls `{name}`, which runs what is only known at run time"
            )),
            Does::GetAttr => {
                let object = self
                    .argument(node, 0, "object")
                    .and_then(|object| self.qualify(object, 0));
                let attribute = self.argument(node, 1, "name").map(|arg| self.value(arg, 0));
                match (object, attribute) {
                    (Some(object), Some(Value::Known(attribute)))
                        if table(&format!("{object}.{attribute}")).is_none() =>
                    {
                        return
                    }
                    _ => Effect::Opaque(
                        "the code reaches a function through `getattr`, which may run commands"
                            .to_owned(),
                    ),
                }
            }
            Does::Kill { group } => kill(
                self.argument(node, 0, "pid"),
                self.argument(node, 1, "signal"),
                group,
                self.source,
            ),
            Does::Fork if in_loop(node, LOOPS) => Effect::Opaque(format!(
                "the code calls `{name}` again and again, in a loop: a fork bomb, which makes processes without end"
            )),
            Does::Fork => return,
            // Without a file name, it writes a temporary file of its own.
            Does::Fetch => match self.argument(node, 1, "filename") {
                Some(file) => Effect::Write(self.value(file, 0)),
                None => return,
            },
            Does::Copy => Effect::Write(self.nth(node, 1, "dst")),
            Does::Move => return found.extend(moved(first("src"), self.nth(node, 1, "dst"))),
            Does::Write => Effect::Write(first("path")),
            Does::Unpack => {
                let folder = self.argument(node, 1, "extract_dir");
                return found.extend(unpacked_into(self.folder(folder)));
            }
            Does::Link { symbolic } => linked(symbolic, first("src"), self.nth(node, 1, "dst")),
            // Followed where the calls are read in order (`change_folder`).
            Does::Chdir => return,
            Does::Chmod => Effect::Exec(vec![
                Value::Known("chmod".to_owned()),
                self.mode(node, 1, "mode"),
                first("path"),
            ]),
            Does::Chown => Effect::Exec(vec![
                Value::Known("chown".to_owned()),
                Value::Known("--".to_owned()),
                first("path"),
            ]),
            Does::Imports => match self.argument(node, 0, "name").map(|arg| self.value(arg, 0)) {
                Some(Value::Known(_)) => return,
                _ => Effect::Opaque(format!(
                    "the code imports a module named at run time with `{name}`"
                )),
            },
        };
        found.push(effect);
    }

    /// A file mode given at `position` or by `keyword`, in octal as chmod(1) takes it: an
    /// integer literal (`0o4755`, `493`), else its value
    fn mode(&self, call: Node<'_>, position: usize, keyword: &str) -> Value {
        match self.argument(call, position, keyword) {
            Some(arg) if arg.kind() == "integer" => octal_mode(text(arg, self.source))
                .map_or_else(|| unknown("mode", arg, self.source), Value::Known),
            Some(arg) => self.value(arg, 0),
            None => unknown("mode", call, self.source),
        }
    }

    /// The value of the argument at `position`, or given by `keyword`; unknown when absent
    fn nth(&self, call: Node<'_>, position: usize, keyword: &str) -> Value {
        match self.argument(call, position, keyword) {
            Some(arg) => self.value(arg, 0),
            None => unknown("argument", call, self.source),
        }
    }

    /// The program and words of `os.exec*`, `os.spawn*` and `os.posix_spawn*`
    fn exec_words(&self, name: &str, node: Node<'_>) -> Vec<Value> {
        let mut positional = self.positional(node);
        let short = name.rsplit('.').next().unwrap_or(name);
        if short.starts_with("spawn") && !positional.is_empty() {
            // The mode (`os.P_WAIT`) comes first.
            positional.remove(0);
        }
        if short.starts_with("create_subprocess") {
            return positional
                .into_iter()
                .map(|arg| self.value(arg, 0))
                .collect();
        }
        let Some(program) = positional.first() else {
            return vec![unknown("program", node, self.source)];
        };
        let mut words = vec![self.value(*program, 0)];
        let listed = short.contains('v') || short.starts_with("posix_spawn");
        let rest: Vec<Value> = if listed {
            match positional.get(1) {
                Some(list) => self.words(*list),
                None => Vec::new(),
            }
        } else {
            let mut listed: Vec<Value> = positional
                .iter()
                .skip(1)
                .map(|arg| self.value(*arg, 0))
                .collect();
            if short.ends_with('e') {
                listed.pop();
            }
            listed
        };
        // The first word of the list is the program's own name, not an argument.
        words.extend(rest.into_iter().skip(1));
        words
    }

    /// The folder an argument names, or the one the code runs in when it is not given
    fn folder(&self, argument: Option<Node<'_>>) -> Value {
        argument.map_or_else(
            || Value::Known(".".to_owned()),
            |folder| self.value(folder, 0),
        )
    }

    /// Whether `object` is made as a path is: a call of `pathlib`'s classes or of a
    /// method that gives a path (`Path(p)`, `Path.home()`, `p.with_suffix(".x")`)
    fn makes_a_path(&self, object: Node<'_>) -> bool {
        const PATH_MAKERS: &[&str] = &[
            "Path",
            "PurePath",
            "PosixPath",
            "PurePosixPath",
            "home",
            "cwd",
            "resolve",
            "absolute",
            "expanduser",
            "joinpath",
            "with_name",
            "with_stem",
            "with_suffix",
            "parent",
        ];
        let made_by = match object.kind() {
            "call" => object.child_by_field_name("function"),
            "attribute" => Some(object),
            _ => None,
        };
        made_by.is_some_and(|function| {
            let name = self.name(function);
            let last = name.rsplit('.').next().unwrap_or_default();
            PATH_MAKERS.contains(&last)
        })
    }

    /// `Path(p).unlink()`, `.rmdir()`, `.write_text(...)`, `.rename(q)`, `.symlink_to(q)`:
    /// methods of a path object; `.extractall(d)`, `.extract(m, d)`: of an archive
    /// (`tarfile`, `zipfile`), which unpack into `d`, else the folder the code runs in
    fn method(&self, call: Node<'_>, function: Node<'_>) -> Option<Vec<Effect>> {
        if function.kind() != "attribute" {
            return None;
        }
        let method = self.name(function.child_by_field_name("attribute")?);
        let object = function.child_by_field_name("object")?;
        let path = || self.value(object, 0);
        // A method of a module (`os.unlink`) is in the table, not here.
        if self
            .qualify(object, 0)
            .is_some_and(|module| table(&format!("{module}.{method}")).is_some())
        {
            return None;
        }
        // `Path.rename(target)` takes one argument; `str.replace` takes two.
        let target = || {
            let arguments = call
                .child_by_field_name("arguments")
                .map(named_children)
                .unwrap_or_default();
            (arguments.len() == 1)
                .then(|| self.argument(call, 0, "target"))
                .flatten()
                .map(|target| self.value(target, 0))
        };
        let effect = match method.as_ref() {
            "unlink" => Effect::Delete {
                tree: false,
                empty_folder: false,
                path: path(),
            },
            "rmdir" => Effect::Delete {
                tree: false,
                empty_folder: true,
                path: path(),
            },
            "rmtree" => Effect::Delete {
                tree: true,
                empty_folder: false,
                path: path(),
            },
            "write_text" | "write_bytes" => Effect::Write(path()),
            "rename" | "replace" => {
                let (from, to) = (path(), target()?);
                // `Series.rename("n")`, `DataFrame.replace({..})`: a move only where a path
                // shows, in the object's value, in how it is made, or in a target written
                // as a path is (with a `/` or a `.`).
                let path_like = matches!(&to, Value::Known(to) if to.contains(['/', '.']));
                let unknown = matches!(from, Value::Unknown(_));
                if unknown && !path_like && !self.makes_a_path(object) {
                    return None;
                }
                return Some(moved(from, to).into());
            }
            "symlink_to" | "hardlink_to" => linked(method == "symlink_to", target()?, path()),
            "extractall" => {
                return Some(unpacked_into(self.folder(self.argument(call, 0, "path"))))
            }
            "extract" => return Some(unpacked_into(self.folder(self.argument(call, 1, "path")))),
            _ => return None,
        };
        Some(vec![effect])
    }

    /// A dangerous function used other than by a direct call: handed on, it may be called
    /// with anything
    fn reference(&self, node: Node<'_>, found: &mut Vec<Effect>) {
        let Some(parent) = node.parent() else { return };
        let is = |field: &str| {
            parent
                .child_by_field_name(field)
                .is_some_and(|child| child.id() == node.id())
        };
        let called = parent.kind() == "call" && is("function");
        let part_of_name = matches!(
            parent.kind(),
            "attribute" | "dotted_name" | "aliased_import"
        ) || matches!(parent.kind(), "keyword_argument") && is("name");
        let bound_once = parent.kind() == "assignment"
            && is("right")
            && parent
                .child_by_field_name("left")
                .and_then(|left| self.bindings.get(text(left, self.source)))
                .is_some_and(Option::is_some);
        let binds = matches!(parent.kind(), "assignment" | "named_expression")
            && (is("left") || is("name"));
        // `getattr(os, "sep")` is judged as a call by what it reaches.
        let through_getattr = parent.kind() == "argument_list"
            && parent
                .parent()
                .and_then(|call| call.child_by_field_name("function"))
                .and_then(|function| self.qualify(function, 0))
                .is_some_and(|function| table(&function) == Some(Does::GetAttr));
        if called || part_of_name || bound_once || binds || through_getattr {
            return;
        }
        let Some(name) = self.qualify(node, 0) else {
            return;
        };
        // `os.__dict__["system"]` reaches a function by a name the table cannot see.
        let dunder = name.rsplit_once('.').is_some_and(|(module, attribute)| {
            attribute.starts_with("__") && MODULES.contains(&module)
        });
        let dangerous = dunder
            || match table(&name) {
                Some(Does::Open | Does::Imports | Does::GetAttr) => false,
                Some(_) => true,
                None => MODULES.contains(&name.as_str()),
            };
        if !dangerous {
            return;
        }
        found.push(Effect::Opaque(format!(
            "the code hands `{name}` on rather than calling it, and what it runs then is only known at run time"
        )));
    }
}

/// Paths joined as `os.path.join` and `pathlib` join them: an absolute part starts the
/// path again; an unknown part makes it unknown
fn path_join(parts: impl Iterator<Item = Value>) -> Value {
    let mut joined = String::new();
    for part in parts {
        match part {
            Value::Known(part) if part.starts_with('/') || joined.is_empty() => joined = part,
            Value::Known(part) if part.is_empty() => {}
            Value::Known(part) => {
                if !joined.ends_with('/') {
                    joined.push('/');
                }
                joined.push_str(&part);
            }
            unknown @ Value::Unknown(_) => return unknown,
        }
    }
    Value::Known(joined)
}
