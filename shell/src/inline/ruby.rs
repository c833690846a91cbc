//! Ruby code (`ruby -e`), read with tree-sitter-ruby.
//!
//! Calls are known by their receiver and method (`FileUtils.rm_rf`, `Kernel.system`, or a
//! bare `system`); backticks and `%x()` hand their text to a shell. Ruby can reach any
//! method by name (`send`, `method`, `eval`), so those are opaque.

use tree_sitter::Node;

use super::tree::{
    every_node, has_operator, join_operands, named_children, text, unescape, unknown,
};
use super::{in_folder, run, Effect, Value};

/// Reads `root` into `found`
pub(super) fn read(root: Node<'_>, source: &str, found: &mut Vec<Effect>) {
    for node in every_node(root) {
        match node.kind() {
            "call" => call(node, source, found),
            "subshell" => found.push(Effect::Script(string(node, source))),
            // A bare method name with no arguments is a call too (`fork`).
            "identifier" if is_evaluating("", text(node, source)) => {
                found.push(opaque(node, source))
            }
            _ => {}
        }
    }
}

/// Whether `receiver.method` evaluates code or reaches a method by a name made at run time
fn is_evaluating(receiver: &str, method: &str) -> bool {
    matches!(
        method,
        "eval"
            | "instance_eval"
            | "class_eval"
            | "module_eval"
            | "instance_exec"
            | "class_exec"
            | "send"
            | "__send__"
            | "public_send"
            | "method"
            | "instance_method"
            | "const_get"
            | "define_method"
            | "binding"
            | "syscall"
            | "fork"
    ) || matches!(receiver, "Fiddle" | "DL" | "ObjectSpace" | "RubyVM" | "PTY")
}

fn opaque(node: Node<'_>, source: &str) -> Effect {
    let shown: String = text(node, source).chars().take(40).collect();
    Effect::Opaque(format!(
        "the code calls `{shown}`, which runs what is only known at run time"
    ))
}

/// `effect`, which the call runs, in the folder its `chdir:` option names, if it has one
/// (`system("make", chdir: "build")`); options spread from a hash (`**opts`) may hold one
fn in_its_folder(call: Node<'_>, source: &str, effect: Effect) -> Effect {
    let options = call
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .flat_map(|arg| match arg.kind() {
            "hash" => named_children(arg),
            _ => vec![arg],
        });
    let mut cwd = None;
    for option in options {
        match option.kind() {
            "pair" => {
                let key = option.child_by_field_name("key").map(|key| {
                    text(key, source)
                        .trim_start_matches(':')
                        .trim_matches(['"', '\''])
                });
                if key == Some("chdir") {
                    cwd = Some(match option.child_by_field_name("value") {
                        Some(folder) => value(folder, source),
                        None => unknown("folder", option, source),
                    });
                }
            }
            "hash_splat_argument" => cwd = Some(unknown("folder", option, source)),
            _ => {}
        }
    }
    match cwd {
        Some(cwd) => in_folder(&cwd, effect),
        None => effect,
    }
}

/// What one call does
fn call(node: Node<'_>, source: &str, found: &mut Vec<Effect>) {
    let Some(method) = node.child_by_field_name("method") else {
        return;
    };
    let method = text(method, source);
    let receiver = node
        .child_by_field_name("receiver")
        .map(|receiver| text(receiver, source).trim_start_matches("::"))
        .unwrap_or_default();
    let args: Vec<Node<'_>> = node
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|arg| arg.kind() != "pair" && arg.kind() != "block_argument")
        .collect();
    let values = || -> Vec<Value> { args.iter().map(|arg| value(*arg, source)).collect() };
    let first = || match args.first() {
        Some(arg) => value(*arg, source),
        None => unknown("argument", node, source),
    };
    let kernel = matches!(receiver, "" | "Kernel" | "Process");
    // `include FileUtils` makes its methods callable bare; a `Pathname` deletes itself.
    let file_utils = matches!(receiver, "" | "FileUtils");
    let pathname = receiver.starts_with("Pathname");
    let delete = |tree, empty_folder| {
        let paths: Vec<Value> = match args.first() {
            Some(list) if list.kind() == "array" => named_children(*list)
                .into_iter()
                .map(|path| value(path, source))
                .collect(),
            _ => vec![first()],
        };
        paths.into_iter().map(move |path| Effect::Delete {
            tree,
            empty_folder,
            path,
        })
    };
    match (receiver, method) {
        (_, "system" | "exec" | "spawn" | "`") if kernel => {
            found.push(in_its_folder(node, source, run(values())))
        }
        ("IO", "popen") | ("Open3", _) => found.push(in_its_folder(node, source, run(values()))),
        // Rake's `sh` (FileUtils', in a Rakefile or `rake -e`) runs a command line.
        (_, "sh") if file_utils => found.push(in_its_folder(node, source, run(values()))),
        // With a block, the folder changes back when the block ends, where the reader does
        // not follow it: what runs after the call runs where only run time knows.
        ("Dir", "chdir") | ("FileUtils", "cd" | "chdir") => {
            found.push(Effect::Chdir(match node.child_by_field_name("block") {
                Some(_) => Value::Unknown(format!(
                    "`{receiver}.{method}` with a block returns to the folder before it when the block ends"
                )),
                None => first(),
            }))
        }
        // `open("| cmd")` and `IO.read("| cmd")` run the command after the bar.
        ("" | "Kernel", "open") | ("IO", "read" | "readlines" | "foreach" | "write")
            if !matches!(first(), Value::Known(path) if !path.starts_with('|')) =>
        {
            found.push(match first() {
                Value::Known(piped) => Effect::Script(Value::Known(piped.trim_start_matches('|').to_owned())),
                Value::Unknown(why) => Effect::Opaque(format!(
                    "the code opens a path known only at run time, which may be a command after `|`: {why}"
                )),
            })
        }
        (_, "rmtree") if pathname => found.push(Effect::Delete {
            tree: true,
            empty_folder: false,
            path: unknown("path", node, source),
        }),
        (_, "delete" | "unlink" | "rmdir") if pathname => found.push(Effect::Delete {
            tree: false,
            empty_folder: method == "rmdir",
            path: unknown("path", node, source),
        }),
        (
            _,
            "rm_rf"
            | "rm_r"
            | "rmtree"
            | "remove_dir"
            | "remove_entry"
            | "remove_entry_secure"
            | "remove_dir_all",
        ) if file_utils => found.extend(delete(true, false)),
        (_, "rm" | "rm_f" | "remove" | "safe_unlink") if file_utils => {
            found.extend(delete(false, false))
        }
        ("File", "delete" | "unlink") => found.extend(delete(false, false)),
        (_, "rmdir") if file_utils => found.extend(delete(false, true)),
        ("Dir", "rmdir" | "delete" | "unlink") => found.extend(delete(false, true)),
        ("File" | "IO", "write" | "binwrite") => found.push(Effect::Write(first())),
        ("File", "open" | "new")
            if args
                .get(1)
                .map(|mode| value(*mode, source))
                .is_some_and(|mode| match mode {
                    Value::Known(mode) => mode.contains(['w', 'a', '+']),
                    Value::Unknown(_) => true,
                }) =>
        {
            found.push(Effect::Write(first()))
        }
        (_, "require" | "load" | "require_relative") if kernel => {
            if matches!(first(), Value::Unknown(_)) {
                found.push(opaque(node, source));
            }
        }
        _ if is_evaluating(receiver, method) => found.push(opaque(node, source)),
        _ => {}
    }
}

/// The value an expression computes, as far as its literals tell
fn value(node: Node<'_>, source: &str) -> Value {
    match node.kind() {
        "string" => string(node, source),
        // Only literal operands are read: a longer chain (`"a" + "b" + "c"`) stays unknown.
        "binary" if has_operator(node, "+", source) => {
            join_operands(node, source, |part| match part.kind() {
                "string" => string(part, source),
                _ => unknown("value", node, source),
            })
        }
        _ => unknown("value", node, source),
    }
}

/// A string literal's (or backticks') text; unknown with an interpolation (`"#{x}"`)
fn string(node: Node<'_>, source: &str) -> Value {
    let single = text(node, source).starts_with('\'');
    let mut value = String::new();
    for part in named_children(node) {
        match part.kind() {
            "interpolation" => return unknown("string", node, source),
            "escape_sequence" if !single => value.push_str(&unescape(text(part, source))),
            _ => value.push_str(text(part, source)),
        }
    }
    Value::Known(value)
}
