//! PHP code (`php -r`), read with tree-sitter-php's grammar for code without `<?php`.
//!
//! Functions are known by name (PHP's names ignore case), and so are the static calls of
//! Laravel's facades that delete or run (`File::deleteDirectory`, `Process::run`); backticks
//! hand their text to a shell. A function named by a variable (`$f(...)`), `eval`, `assert`, and the functions
//! that call a function named at run time are opaque.

use tree_sitter::Node;

use super::tree::{
    every_node, has_operator, join_operands, named_children, text, unescape, unknown,
};
use super::{run, Effect, Value};

/// Reads `root` into `found`
pub(super) fn read(root: Node<'_>, source: &str, found: &mut Vec<Effect>) {
    for node in every_node(root) {
        match node.kind() {
            "function_call_expression" => call(node, source, found),
            "scoped_call_expression" => framework_call(node, source, found),
            "shell_command_expression" => found.push(Effect::Script(string(node, source))),
            "include_expression"
            | "include_once_expression"
            | "require_expression"
            | "require_once_expression" => {
                let path = named_children(node)
                    .first()
                    .map(|path| value(*path, source));
                if !matches!(path, Some(Value::Known(_))) {
                    found.push(opaque(node, source));
                }
            }
            _ => {}
        }
    }
}

fn opaque(node: Node<'_>, source: &str) -> Effect {
    let shown: String = text(node, source).chars().take(40).collect();
    Effect::Opaque(format!(
        "the code runs `{shown}`, and what that does is only known at run time"
    ))
}

/// The functions above that a callback may name
const DANGEROUS: &[&str] = &[
    "system",
    "exec",
    "shell_exec",
    "passthru",
    "popen",
    "proc_open",
    "pcntl_exec",
    "unlink",
    "rmdir",
    "eval",
    "assert",
    "file_put_contents",
    "create_function",
    "call_user_func",
];

/// What one function call does
fn call(node: Node<'_>, source: &str, found: &mut Vec<Effect>) {
    let Some(function) = node.child_by_field_name("function") else {
        return;
    };
    if !matches!(function.kind(), "name" | "qualified_name") {
        found.push(opaque(node, source));
        return;
    }
    let name = text(function, source)
        .trim_start_matches('\\')
        .to_ascii_lowercase();
    let args = arguments(node, source);
    let first = || {
        args.first()
            .cloned()
            .unwrap_or_else(|| unknown("argument", node, source))
    };
    match name.as_str() {
        "system" | "exec" | "shell_exec" | "passthru" | "popen" | "proc_open" | "expect_popen" => {
            found.push(Effect::Script(first()))
        }
        "pcntl_exec" => found.push(run(args.clone())),
        "chdir" => found.push(Effect::Chdir(first())),
        "unlink" => found.push(Effect::Delete {
            tree: false,
            empty_folder: false,
            path: first(),
        }),
        "rmdir" => found.push(Effect::Delete {
            tree: false,
            empty_folder: true,
            path: first(),
        }),
        "file_put_contents" => found.push(Effect::Write(first())),
        "fopen"
            if args.get(1).is_some_and(|mode| match mode {
                Value::Known(mode) => !mode.starts_with('r') || mode.contains('+'),
                Value::Unknown(_) => true,
            }) =>
        {
            found.push(Effect::Write(first()))
        }
        "eval"
        | "assert"
        | "create_function"
        | "call_user_func"
        | "call_user_func_array"
        | "dl"
        | "ffi::cdef"
        | "mail"
        | "putenv"
        | "ini_set" => found.push(opaque(node, source)),
        // A callback named by a string (`array_map("system", ...)`) is a call by name.
        _ if args.iter().any(|arg| match arg {
            Value::Known(callback) => {
                DANGEROUS.contains(&callback.to_ascii_lowercase().trim_start_matches('\\'))
            }
            Value::Unknown(_) => false,
        }) =>
        {
            found.push(opaque(node, source))
        }
        "preg_replace"
            if args.first().is_none_or(|pattern| match pattern {
                Value::Known(pattern) => pattern
                    .rsplit_once(pattern.chars().next().unwrap_or('/'))
                    .is_some_and(|(_, flags)| flags.contains('e')),
                Value::Unknown(_) => true,
            }) =>
        {
            found.push(opaque(node, source))
        }
        _ => {}
    }
}

/// The values of a call's arguments
fn arguments(node: Node<'_>, source: &str) -> Vec<Value> {
    node.child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .map(|arg| match named_children(arg).last() {
            Some(inner) => value(*inner, source),
            None => unknown("argument", arg, source),
        })
        .collect()
}

/// What a static call of a framework's facade does (`php artisan tinker --execute=...` runs
/// Laravel's): `File::deleteDirectory(DIR)` removes a tree, `File::delete(F)` a file,
/// `Process::run(CMD)` runs a command line
fn framework_call(node: Node<'_>, source: &str, found: &mut Vec<Effect>) {
    let (Some(scope), Some(name)) = (
        node.child_by_field_name("scope"),
        node.child_by_field_name("name"),
    ) else {
        return;
    };
    let scope = text(scope, source).rsplit('\\').next().unwrap_or_default();
    let name = text(name, source).to_ascii_lowercase();
    let first = || {
        arguments(node, source)
            .into_iter()
            .next()
            .unwrap_or_else(|| unknown("argument", node, source))
    };
    match (scope.to_ascii_lowercase().as_str(), name.as_str()) {
        ("file" | "storage", "deletedirectory" | "deletedirectories" | "cleandirectory") => found
            .push(Effect::Delete {
                tree: true,
                empty_folder: false,
                path: first(),
            }),
        ("file" | "storage", "delete") => found.push(Effect::Delete {
            tree: false,
            empty_folder: false,
            path: first(),
        }),
        ("process", "run" | "start" | "command") => found.push(Effect::Script(first())),
        _ => {}
    }
}

/// The value an expression computes, as far as its literals tell
fn value(node: Node<'_>, source: &str) -> Value {
    match node.kind() {
        "string" | "encapsed_string" => string(node, source),
        "binary_expression" if has_operator(node, ".", source) => {
            join_operands(node, source, |part| value(part, source))
        }
        _ => unknown("value", node, source),
    }
}

/// A string literal's (or backticks') text; unknown with a variable in it (`"$x"`)
fn string(node: Node<'_>, source: &str) -> Value {
    let single = text(node, source).starts_with('\'');
    let mut value = String::new();
    for part in named_children(node) {
        match part.kind() {
            "string_content" | "string_value" => value.push_str(text(part, source)),
            "escape_sequence" if single => {
                value.push_str(text(part, source).strip_prefix('\\').unwrap_or_default())
            }
            "escape_sequence" => value.push_str(&unescape(text(part, source))),
            _ => return unknown("string", node, source),
        }
    }
    Value::Known(value)
}
