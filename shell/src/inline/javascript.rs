//! JavaScript code (`node -e`, `deno eval`, `bun -e`), read with tree-sitter-javascript.
//!
//! A call is known by the dotted name of what it calls, with `require("child_process")`,
//! `const cp = require(...)`, `const { execSync: run } = require(...)` and `import ... from`
//! resolved (`node:` prefixes dropped, `fs/promises` is `fs.promises`). A dangerous module
//! or function used other than by a direct call is opaque, as is code evaluated at run time.

use std::borrow::Cow;

use tree_sitter::Node;

use super::bindings::{within, Binding, Bindings};
use super::tree::{
    every_node, has_operator, join_operands, kill, named_children, octal_mode, parenthesized, text,
    unescape, unknown,
};
use super::{in_folder, moved, Effect, Value};

/// How deep a dotted name or a literal expression is followed
const MAX_DEPTH: usize = 32;

/// What a function of the table does with its arguments
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Does {
    /// Hands its first argument to a shell (`child_process.execSync`)
    Shell,
    /// Runs a program with a list of words (`spawn`, `execFile`); without the list the
    /// first argument is read as a command line
    Spawn,
    /// Deletes what it is given: a tree when its options say `recursive`
    Remove,
    /// Deletes a folder only when empty, a tree when its options say `recursive`
    RemoveFolder,
    /// Deletes a file
    Unlink,
    /// Writes a file: creates it, replaces, appends to or truncates it
    Write,
    /// Writes its second argument from its first (`copyFile`, `cp`), or makes it a link to
    /// it (`link`, `symlink`)
    Copy,
    /// Moves its first argument to its second: the first goes, the second is written
    Rename,
    /// Opens a file, which a flag of `w`, `a` or `+` writes (`fs.openSync(p, "w")`)
    Open,
    /// Evaluates code, or reaches what the reader cannot follow
    Evaluates,
    /// Loads a module by name: opaque unless the name is a literal
    Requires,
    /// Sends a signal to a process (`process.kill(pid, signal)`)
    Kill,
    /// Changes the folder later relative paths and commands start from (`process.chdir`)
    Chdir,
    /// Changes a file's mode (`fs.chmodSync(path, mode)`): read as `chmod MODE PATH`
    Chmod,
    /// Changes a file's owner (`fs.chownSync(path, uid, gid)`): read as `chown -- PATH`
    Chown,
}

/// The functions whose calls matter, by dotted name
fn table(name: &str) -> Option<Does> {
    let name = name
        .strip_prefix("globalThis.")
        .or_else(|| name.strip_prefix("global."))
        .unwrap_or(name);
    let (module, function) = name.rsplit_once('.').unwrap_or(("", name));
    let fs = matches!(module, "fs" | "fs.promises");
    let does = match (module, function) {
        ("child_process", "exec" | "execSync") => Does::Shell,
        ("child_process", "spawn" | "spawnSync" | "execFile" | "execFileSync" | "fork") => {
            Does::Spawn
        }
        (_, "rm" | "rmSync") if fs => Does::Remove,
        ("Deno", "remove" | "removeSync") => Does::Remove,
        (_, "rmdir" | "rmdirSync") if fs => Does::RemoveFolder,
        (_, "unlink" | "unlinkSync") if fs => Does::Unlink,
        // The functions of the Node.js `fs` documentation that change what a path holds.
        (
            _,
            "writeFile" | "writeFileSync" | "appendFile" | "appendFileSync" | "createWriteStream"
            | "truncate" | "truncateSync",
        ) if fs => Does::Write,
        (
            _,
            "copyFile" | "copyFileSync" | "cp" | "cpSync" | "link" | "linkSync" | "symlink"
            | "symlinkSync",
        ) if fs => Does::Copy,
        (_, "rename" | "renameSync") if fs => Does::Rename,
        (_, "chmod" | "chmodSync" | "lchmod" | "lchmodSync") if fs => Does::Chmod,
        ("Deno", "chmod" | "chmodSync") => Does::Chmod,
        (_, "chown" | "chownSync" | "lchown" | "lchownSync") if fs => Does::Chown,
        ("Deno", "chown" | "chownSync") => Does::Chown,
        (_, "open" | "openSync") if fs => Does::Open,
        (
            "Deno",
            "writeTextFile" | "writeTextFileSync" | "writeFile" | "writeFileSync" | "truncate"
            | "truncateSync",
        ) => Does::Write,
        ("Deno", "copyFile" | "copyFileSync" | "link" | "linkSync" | "symlink" | "symlinkSync") => {
            Does::Copy
        }
        ("Deno", "rename" | "renameSync") => Does::Rename,
        ("", "eval" | "Function" | "setTimeout" | "setInterval")
        | ("vm", _)
        | ("worker_threads", "Worker")
        | ("process", "binding" | "dlopen" | "_linkedBinding")
        | ("module" | "module.constructor" | "Module", "_compile" | "_load")
        | ("Deno", "run" | "Command" | "dlopen")
        | ("Bun", "spawn" | "spawnSync" | "$") => Does::Evaluates,
        ("", "require" | "import")
        | ("module" | "process.mainModule" | "module.constructor" | "Module", "require") => {
            Does::Requires
        }
        ("process", "kill") => Does::Kill,
        ("process", "chdir") | ("Deno", "chdir") => Does::Chdir,
        // `import("child_process").then(cp => ...)` hands the module to a function.
        (module, "then") if MODULES.contains(&module) => Does::Evaluates,
        _ => return None,
    };
    Some(does)
}

/// The modules holding functions of the table: handed on, a module may be used for any
const MODULES: &[&str] = &[
    "child_process",
    "fs",
    "fs.promises",
    "vm",
    "worker_threads",
    "module",
    "Deno",
    "Bun",
];

/// A function called, by dotted name, and the arguments it is given; or why they are only
/// known at run time
type Invoked<'n> = Result<(String, Vec<Node<'n>>), String>;

/// Why a function of the table applied to a list of arguments (`f.apply(this, list)`) does
/// what only run time knows
fn applied_at_run_time(function: &str) -> String {
    format!("the code applies `{function}` to arguments only known at run time")
}

/// A module's name as the table knows it: `node:fs/promises` is `fs.promises`
fn module_name(name: &str) -> String {
    name.strip_prefix("node:").unwrap_or(name).replace('/', ".")
}

/// Whether a dotted name is a function of the table or a module holding some
fn reaches(name: &str) -> bool {
    table(name).is_some() || within(name, MODULES)
}

/// An identifier as JavaScript reads it: its `\uXXXX` and `\u{X}` escapes decoded, so
/// `\u0065xecSync` is `execSync` (ECMA-262, IdentifierName); one without `\` is as written
fn identifier(written: &str) -> Cow<'_, str> {
    if !written.contains('\\') {
        return Cow::Borrowed(written);
    }
    let mut decoded = String::with_capacity(written.len());
    let mut rest = written;
    while let Some((before, escape)) = rest.split_once('\\') {
        decoded.push_str(before);
        // `u` and four hex digits, or `u{` hex digits `}`.
        let length = match escape.strip_prefix("u{") {
            Some(braced) => braced.find('}').map_or(escape.len(), |end| end + 3),
            None => escape.len().min(5),
        };
        let (sequence, after) = escape.split_at_checked(length).unwrap_or((escape, ""));
        decoded.push_str(&unescape(&format!("\\{sequence}")));
        rest = after;
    }
    decoded.push_str(rest);
    Cow::Owned(decoded)
}

/// What the code binds, and the source it is read from
struct Scope<'t> {
    bindings: Bindings,
    source: &'t str,
}

/// Reads `root` into `found`
pub(super) fn read(root: Node<'_>, source: &str, found: &mut Vec<Effect>) {
    let nodes = every_node(root);
    let mut scope = Scope {
        bindings: Bindings::new(reaches, identifier),
        source,
    };
    for node in &nodes {
        scope.bind(*node);
    }
    scope.bindings.report_shadowed(found);
    for node in &nodes {
        match node.kind() {
            "call_expression" | "new_expression" => {
                scope.call(*node, found);
                // `require("child_process")` handed on is the module handed on.
                scope.reference(*node, found);
            }
            "identifier" | "member_expression" | "subscript_expression" => {
                scope.reference(*node, found)
            }
            _ => {}
        }
    }
}

impl<'t> Scope<'t> {
    /// The identifier or property name `node` spells, as JavaScript reads it
    fn name(&self, node: Node<'_>) -> Cow<'t, str> {
        identifier(text(node, self.source))
    }

    /// Records the names a declaration, an assignment or an import binds
    fn bind(&mut self, node: Node<'_>) {
        match node.kind() {
            "variable_declarator" | "assignment_expression" => {
                let (left, right) = match node.kind() {
                    "variable_declarator" => (
                        node.child_by_field_name("name"),
                        node.child_by_field_name("value"),
                    ),
                    _ => (
                        node.child_by_field_name("left"),
                        node.child_by_field_name("right"),
                    ),
                };
                let Some(left) = left else { return };
                let qualified = right.and_then(|right| self.qualify(right, 0));
                match left.kind() {
                    "identifier" => {
                        let binding = match (qualified, right) {
                            (Some(name), _) => Binding::Name(name),
                            (None, Some(right)) => Binding::Value(self.value(right, 0)),
                            (None, None) => Binding::Value(unknown("value", node, self.source)),
                        };
                        let name = text(left, self.source).to_owned();
                        self.bindings.set(&name, binding);
                    }
                    "object_pattern" => self.destructure(left, qualified.as_deref()),
                    _ => {}
                }
            }
            "import_statement" => {
                let Some(from) = node.child_by_field_name("source") else {
                    return;
                };
                let module = match self.value(from, 0) {
                    Value::Known(module) => module_name(&module),
                    Value::Unknown(_) => return,
                };
                for clause in every_node(node) {
                    match clause.kind() {
                        "namespace_import" => {
                            if let Some(name) = named_children(clause).first() {
                                let name = text(*name, self.source).to_owned();
                                self.bindings.set(&name, Binding::Name(module.clone()));
                            }
                        }
                        "import_specifier" => {
                            let Some(imported) = clause.child_by_field_name("name") else {
                                continue;
                            };
                            let local = clause.child_by_field_name("alias").unwrap_or(imported);
                            let full = format!("{module}.{}", self.name(imported));
                            let local = text(local, self.source).to_owned();
                            self.bindings.set(&local, Binding::Name(full));
                        }
                        "import_clause" => {
                            if let Some(default) = named_children(clause)
                                .into_iter()
                                .find(|child| child.kind() == "identifier")
                            {
                                let name = text(default, self.source).to_owned();
                                self.bindings.set(&name, Binding::Name(module.clone()));
                            }
                        }
                        _ => {}
                    }
                }
            }
            // Every other way of binding a name makes its value unknown.
            "formal_parameters"
            | "for_in_statement"
            | "function_declaration"
            | "class_declaration"
            | "catch_clause" => {
                for name in named_children(node)
                    .into_iter()
                    .chain(node.child_by_field_name("left"))
                    .filter(|name| name.kind() == "identifier")
                {
                    let name = text(name, self.source).to_owned();
                    self.bindings
                        .set(&name, Binding::Value(unknown("value", node, self.source)));
                }
            }
            _ => {}
        }
    }

    /// `const { execSync, rmSync: rm } = require(...)`
    fn destructure(&mut self, pattern: Node<'_>, module: Option<&str>) {
        for item in named_children(pattern) {
            let (key, local) = match item.kind() {
                "shorthand_property_identifier_pattern" => (item, item),
                "pair_pattern" => match (
                    item.child_by_field_name("key"),
                    item.child_by_field_name("value"),
                ) {
                    (Some(key), Some(value)) => (key, value),
                    _ => continue,
                },
                _ => continue,
            };
            let name = text(local, self.source).to_owned();
            let binding = match module {
                Some(module) => Binding::Name(format!("{module}.{}", self.name(key))),
                None => Binding::Value(unknown("value", item, self.source)),
            };
            self.bindings.set(&name, binding);
        }
    }

    /// The dotted name an expression refers to (`child_process.exec`, `fs`), if it is one
    fn qualify(&self, node: Node<'_>, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        match node.kind() {
            // `import("fs")`, the dynamic import, is called as a function named `import`.
            "import" => Some("import".to_owned()),
            "identifier" => {
                let name = self.name(node);
                match self.bindings.get(&name) {
                    Some(Some(Binding::Name(full))) => Some(full.clone()),
                    Some(_) => None,
                    None => Some(name.into_owned()),
                }
            }
            "member_expression" => {
                let object = self.qualify(node.child_by_field_name("object")?, depth + 1)?;
                let property = self.name(node.child_by_field_name("property")?);
                Some(format!("{object}.{property}"))
            }
            "subscript_expression" => {
                let object = self.qualify(node.child_by_field_name("object")?, depth + 1)?;
                match self.value(node.child_by_field_name("index")?, depth + 1) {
                    Value::Known(property) => Some(format!("{object}.{property}")),
                    Value::Unknown(_) => None,
                }
            }
            "parenthesized_expression" | "await_expression" => {
                self.qualify(*named_children(node).first()?, depth + 1)
            }
            "call_expression" => {
                let (function, arguments) = self.invoked(node, depth + 1)?.ok()?;
                if table(&function) != Some(Does::Requires) {
                    return None;
                }
                match arguments.first().map(|arg| self.value(*arg, depth + 1)) {
                    Some(Value::Known(module)) => Some(module_name(&module)),
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
            "string" => {
                let mut value = String::new();
                for part in named_children(node) {
                    match part.kind() {
                        "escape_sequence" => value.push_str(&unescape(text(part, self.source))),
                        _ => value.push_str(text(part, self.source)),
                    }
                }
                Value::Known(value)
            }
            "template_string" => {
                if named_children(node)
                    .iter()
                    .any(|part| part.kind() == "template_substitution")
                {
                    return unknown("string", node, self.source);
                }
                let whole = text(node, self.source);
                let inner = whole
                    .strip_prefix('`')
                    .and_then(|rest| rest.strip_suffix('`'))
                    .unwrap_or(whole);
                Value::Known(inner.to_owned())
            }
            "binary_expression" if has_operator(node, "+", self.source) => {
                join_operands(node, self.source, |part| self.value(part, depth + 1))
            }
            "parenthesized_expression" => {
                parenthesized(node, self.source, |inner| self.value(inner, depth + 1))
            }
            "identifier" => self.bindings.value(node, self.source),
            _ => unknown("value", node, self.source),
        }
    }

    /// The function a call (or `new`) runs, by dotted name, and the arguments it gives it:
    /// its own, or, for `f.call(this, a, b)`, `f.apply(this, [a, b])` and
    /// `Reflect.apply(f, this, [a, b])` of a function of the table, `f` with `a, b`; `Err`,
    /// saying why, when those are only known at run time (`f.apply(this, list)`)
    fn invoked<'n>(&self, call: Node<'n>, depth: usize) -> Option<Invoked<'n>> {
        let function = call
            .child_by_field_name("function")
            .or_else(|| call.child_by_field_name("constructor"))?;
        let name = self.qualify(function, depth + 1)?;
        let arguments = call
            .child_by_field_name("arguments")
            .map(named_children)
            .unwrap_or_default();
        let applied = |target: &str| table(target).is_some();
        let (target, list) = match name.rsplit_once('.') {
            _ if name == "Reflect.apply" => match arguments.first() {
                Some(target) => match self.qualify(*target, depth + 1) {
                    Some(target) if applied(&target) => (target, arguments.get(2).copied()),
                    _ => return Some(Ok((name, arguments))),
                },
                None => return Some(Ok((name, arguments))),
            },
            Some((target, "call")) if applied(target) => {
                return Some(Ok((
                    target.to_owned(),
                    arguments.into_iter().skip(1).collect(),
                )))
            }
            Some((target, "apply")) if applied(target) => {
                (target.to_owned(), arguments.get(1).copied())
            }
            _ => return Some(Ok((name, arguments))),
        };
        Some(match list {
            None => Ok((target, Vec::new())),
            Some(list) if list.kind() == "array" => {
                let items = named_children(list);
                if items.iter().any(|item| item.kind() == "spread_element") {
                    Err(applied_at_run_time(&target))
                } else {
                    Ok((target, items))
                }
            }
            Some(_) => Err(applied_at_run_time(&target)),
        })
    }

    /// What one call (or `new`) does
    fn call(&self, node: Node<'_>, found: &mut Vec<Effect>) {
        let (name, arguments) = match self.invoked(node, 0) {
            Some(Ok(invoked)) => invoked,
            Some(Err(why)) => return found.push(Effect::Opaque(why)),
            None => return,
        };
        let Some(does) = table(&name) else { return };
        let argument = |position: usize| arguments.get(position).copied();
        let nth = |position| match argument(position) {
            Some(arg) => self.value(arg, 0),
            None => unknown("argument", node, self.source),
        };
        let first = || nth(0);
        let recursive =
            argument(1).is_some_and(|options| text(options, self.source).contains("recursive"));
        let effect = match does {
            Does::Shell => self.in_its_folder(&arguments, Effect::Script(first())),
            Does::Spawn => self.in_its_folder(
                &arguments,
                match argument(1) {
                    Some(list) if list.kind() == "array" => {
                        let mut words = vec![first()];
                        words.extend(
                            named_children(list)
                                .into_iter()
                                .map(|word| self.value(word, 0)),
                        );
                        Effect::Exec(words)
                    }
                    Some(list) if list.kind() != "object" => {
                        Effect::Exec(vec![first(), unknown("list of words", list, self.source)])
                    }
                    _ => Effect::Script(first()),
                },
            ),
            Does::Remove => Effect::Delete {
                tree: recursive,
                empty_folder: false,
                path: first(),
            },
            Does::RemoveFolder => Effect::Delete {
                tree: recursive,
                empty_folder: !recursive,
                path: first(),
            },
            Does::Unlink => Effect::Delete {
                tree: false,
                empty_folder: false,
                path: first(),
            },
            Does::Write => Effect::Write(first()),
            Does::Copy => Effect::Write(nth(1)),
            Does::Chmod => Effect::Exec(vec![
                Value::Known("chmod".to_owned()),
                match argument(1) {
                    Some(mode) if mode.kind() == "number" => octal_mode(text(mode, self.source))
                        .map_or_else(|| unknown("mode", mode, self.source), Value::Known),
                    _ => nth(1),
                },
                first(),
            ]),
            Does::Chown => Effect::Exec(vec![
                Value::Known("chown".to_owned()),
                Value::Known("--".to_owned()),
                first(),
            ]),
            Does::Rename => return found.extend(moved(first(), nth(1))),
            // Node opens for reading alone when no flag is given.
            Does::Open => match argument(1).map(|flags| self.value(flags, 0)) {
                None => return,
                Some(Value::Known(flags)) if !flags.contains(['w', 'a', '+']) => return,
                Some(_) => Effect::Write(first()),
            },
            Does::Evaluates => Effect::Opaque(format!(
                "the code calls `{name}`, which runs what is only known at run time"
            )),
            Does::Chdir => Effect::Chdir(first()),
            Does::Kill => kill(argument(0), argument(1), false, self.source),
            Does::Requires => match argument(0).map(|arg| self.value(arg, 0)) {
                Some(Value::Known(_)) => return,
                _ => Effect::Opaque(format!(
                    "the code loads a module named at run time with `{name}`"
                )),
            },
        };
        found.push(effect);
    }

    /// `run`, which the call runs, in the folder the `cwd` of its options object names, if it
    /// has one (`execSync(…, {cwd: "/"})`); options spread from elsewhere may hold one
    fn in_its_folder(&self, arguments: &[Node<'_>], run: Effect) -> Effect {
        let options = arguments
            .iter()
            .copied()
            .filter(|arg| arg.kind() == "object")
            .flat_map(named_children);
        let mut cwd = None;
        for option in options {
            match option.kind() {
                "pair" => {
                    let key = option.child_by_field_name("key").map(|key| self.name(key));
                    if key.is_some_and(|key| key.trim_matches(['"', '\'', '`']) == "cwd") {
                        cwd = Some(match option.child_by_field_name("value") {
                            Some(value) => self.value(value, 0),
                            None => unknown("folder", option, self.source),
                        });
                    }
                }
                "shorthand_property_identifier" if self.name(option) == "cwd" => {
                    cwd = Some(unknown("folder", option, self.source));
                }
                "spread_element" => cwd = Some(unknown("folder", option, self.source)),
                _ => {}
            }
        }
        match cwd {
            Some(cwd) => in_folder(&cwd, run),
            None => run,
        }
    }

    /// Whether `parent`, which holds the expression named `name` as its object (`object`),
    /// reads a property of it that names no more than a part of a dotted name: any of a
    /// module's (`cp.execSync`), and only `call` or `apply` called of a function of the table
    /// (`cp.execSync.call(…)`, read as the function's call); any other of such a function
    /// hands it on (`cp.execSync.bind(null)`)
    fn property_read(&self, name: &str, parent: Node<'_>, object: bool) -> bool {
        if !object || !matches!(parent.kind(), "member_expression" | "subscript_expression") {
            return false;
        }
        let Some(whole) = self.qualify(parent, 0) else {
            return false;
        };
        let is_function = table(name).is_some_and(|does| does != Does::Requires);
        let property = whole
            .strip_prefix(name)
            .and_then(|rest| rest.strip_prefix('.'));
        let called = parent.parent().is_some_and(|call| {
            call.kind() == "call_expression"
                && call
                    .child_by_field_name("function")
                    .is_some_and(|function| function.id() == parent.id())
        });
        !is_function || matches!(property, Some("call" | "apply")) && called
    }

    /// A dangerous module or function used other than by a direct call: handed on, it may
    /// be called with anything
    fn reference(&self, node: Node<'_>, found: &mut Vec<Effect>) {
        let Some(name) = self.qualify(node, 0) else {
            return;
        };
        // `await` and parentheses pass a value on unchanged.
        let mut node = node;
        while let Some(parent) = node.parent().filter(|parent| {
            matches!(
                parent.kind(),
                "await_expression" | "parenthesized_expression"
            )
        }) {
            node = parent;
        }
        let Some(parent) = node.parent() else { return };
        let is = |field: &str| {
            parent
                .child_by_field_name(field)
                .is_some_and(|child| child.id() == node.id())
        };
        let called = matches!(parent.kind(), "call_expression") && is("function")
            || parent.kind() == "new_expression" && is("constructor");
        let part_of_name = self.property_read(&name, parent, is("object"));
        // `Reflect.apply(f, this, [a, b])` is a call of `f`.
        let applied = parent.kind() == "arguments"
            && parent
                .named_child(0)
                .is_some_and(|first| first.id() == node.id())
            && parent
                .parent()
                .and_then(|call| call.child_by_field_name("function"))
                .and_then(|function| self.qualify(function, 0))
                .is_some_and(|function| function == "Reflect.apply");
        let bound_once = matches!(
            parent.kind(),
            "variable_declarator" | "assignment_expression"
        ) && (is("value") || is("right"))
            && parent
                .child_by_field_name("name")
                .or_else(|| parent.child_by_field_name("left"))
                .is_some_and(|left| {
                    left.kind() == "object_pattern"
                        || self
                            .bindings
                            .get(text(left, self.source))
                            .is_some_and(Option::is_some)
                });
        let binds = parent.kind() == "variable_declarator" && is("name")
            || parent.kind() == "pair_pattern" && is("value")
            || matches!(
                parent.kind(),
                "import_specifier" | "namespace_import" | "import_clause"
            )
            || parent.kind() == "assignment_expression" && is("left");
        if called || part_of_name || applied || bound_once || binds {
            return;
        }
        let dangerous = match table(&name) {
            Some(Does::Requires) => false,
            Some(_) => true,
            None => MODULES.contains(&name.as_str()),
        };
        if dangerous {
            found.push(Effect::Opaque(format!(
                "the code hands `{name}` on rather than calling it, and what it runs then is only known at run time"
            )));
        }
    }
}
