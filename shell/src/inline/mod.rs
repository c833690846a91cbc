//! Code given to an interpreter on its command line or as a literal input (`python3 -c`,
//! `node -e`, `ruby -e`, `php -r`, `python3 - <<EOF`), read with a parser of its language.
//!
//! What the code does to the machine is turned into what the shell reader already knows:
//! the command lines it hands to a shell (`os.system("rm -rf ~")` runs the script
//! `rm -rf ~`), the programs it runs with their words (`subprocess.run(["rm", "-rf", p])`),
//! the files it deletes (`shutil.rmtree(p)` deletes as `rm -r -f -- p` does) and writes
//! (`open("/dev/sda", "wb")` writes as `> /dev/sda` does), and what cannot be known before
//! it runs (code it evaluates, a command it builds). Code that does none of these is
//! harmless. Perl, awk and Lua have no grammar here: their code is judged by its words.

mod awk;
#[cfg(feature = "tree-sitter")]
mod bindings;
#[cfg(feature = "tree-sitter")]
mod javascript;
#[cfg(feature = "tree-sitter")]
mod php;
#[cfg(feature = "tree-sitter")]
mod python;
#[cfg(feature = "tree-sitter")]
mod ruby;
#[cfg(feature = "tree-sitter")]
mod tree;

use std::time::Instant;

#[cfg(feature = "tree-sitter")]
use tree_sitter::{Language, Node, ParseOptions, ParseState, Parser};

use crate::knowledge::{Lang, DESTRUCTIVE_VERBS, INFRASTRUCTURE_SDKS};

/// A value the code computes: known from its literals, or only when it runs
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    not(feature = "tree-sitter"),
    expect(dead_code, reason = "only the grammars find values in code")
)]
pub(crate) enum Value {
    /// The text the literals spell
    Known(String),
    /// Only known at run time, and why, as a message names it
    Unknown(String),
}

/// What inline code does that a guard must see
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    not(feature = "tree-sitter"),
    expect(
        dead_code,
        reason = "without the grammars, code is judged by its words alone"
    )
)]
pub(crate) enum Effect {
    /// A command line handed to a shell (`os.system`, `child_process.exec`, backticks)
    Script(Value),
    /// A program run with these words, no shell between (`subprocess.run([...])`, `execvp`);
    /// the first is the program
    Exec(Vec<Value>),
    /// A file deleted, or a whole tree (`shutil.rmtree`, `FileUtils.rm_rf`)
    Delete {
        /// Whether everything under the path goes too
        tree: bool,
        /// Whether the path is a folder removed only when empty (`os.rmdir`)
        empty_folder: bool,
        /// What is deleted
        path: Value,
    },
    /// A file written (`open(p, "w")`, `fs.writeFileSync`)
    Write(Value),
    /// Something the reader cannot see through: code evaluated (`eval`, `exec`,
    /// `Function`), a module named at run time, a dangerous function handed around
    Opaque(String),
    /// The folder the code's later relative paths and commands start from changes to this
    /// one, itself relative to the folder before unless absolute (`os.chdir`,
    /// `process.chdir`, `Dir.chdir`, `chdir`); [`placed`] applies it to what follows
    Chdir(Value),
}

/// What `code`, given to `program`, does; `deadline` bounds the parsing. Without the
/// grammars (the `tree-sitter` feature), the code is judged by its words.
#[cfg(not(feature = "tree-sitter"))]
pub(crate) fn effects(lang: Lang, program: &str, code: &str, _deadline: Instant) -> Vec<Effect> {
    let mut found = by_words(lang, program, code);
    found.extend(infrastructure_call(program, code));
    found
}

/// What `code`, given to `program`, does; `deadline` bounds the parsing
#[cfg(feature = "tree-sitter")]
pub(crate) fn effects(lang: Lang, program: &str, code: &str, deadline: Instant) -> Vec<Effect> {
    // Each parsed language's grammar, and the reader of its tree.
    type Reader = fn(Node<'_>, &str, &mut Vec<Effect>);
    let (language, read): (Language, Reader) = match lang {
        Lang::Python => (tree_sitter_python::LANGUAGE.into(), python::read),
        Lang::JavaScript => (tree_sitter_javascript::LANGUAGE.into(), javascript::read),
        Lang::Ruby => (tree_sitter_ruby::LANGUAGE.into(), ruby::read),
        // `php -r` code has no `<?php` tag: the grammar for code alone reads it.
        Lang::Php => (tree_sitter_php::LANGUAGE_PHP_ONLY.into(), php::read),
        Lang::Perl
        | Lang::Awk
        | Lang::Lua
        | Lang::Tcl
        | Lang::R
        | Lang::PowerShell
        | Lang::Julia
        | Lang::AppleScript
        | Lang::Gnuplot
        | Lang::Other => return by_words(lang, program, code),
    };
    // A PHP file, which `php` reads from its input, starts with the tag that opens code.
    let source = match lang {
        Lang::Php => php_code(code),
        _ => code,
    };
    let Some(tree) = parse(language, source, deadline) else {
        return by_words(lang, program, code);
    };
    let root = tree.root_node();
    // The interpreter refuses code with a syntax error and runs none of it, but a grammar
    // may also stumble on valid code: the words decide then, as for a language without one.
    if root.has_error() {
        return by_words(lang, program, code);
    }
    let mut found = Vec::new();
    read(root, source, &mut found);
    found.extend(infrastructure_call(program, code));
    placed(found)
}

/// Code that imports a library of [`INFRASTRUCTURE_SDKS`] and names a method for removing,
/// stopping or running something ([`DESTRUCTIVE_VERBS`]), called or handed on, does what
/// the library's command-line tool would (`docker.from_env().volumes.prune()`,
/// `api.delete_namespace("prod")`), to machines the reader cannot see: known only when it
/// runs
fn infrastructure_call(program: &str, code: &str) -> Option<Effect> {
    let lower = code.to_ascii_lowercase();
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let library = INFRASTRUCTURE_SDKS.iter().find(|library| {
        lower.match_indices(*library).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + library.len()..].chars().next();
            !before.is_some_and(|c| is_name(c) || c == '-' || c == '.')
                && !after.is_some_and(|c| is_name(c) || c == '-')
        })
    })?;
    let method = lower.match_indices('.').find_map(|(at, _)| {
        let rest = &lower[at + 1..];
        // Called or handed on (`f = c.remove`), with or without parentheses (Ruby's `.kill`).
        let name = &rest[..rest.find(|c: char| !is_name(c)).unwrap_or(rest.len())];
        let destructive = |part: &str| DESTRUCTIVE_VERBS.iter().any(|verb| part.starts_with(verb));
        name.split('_').any(destructive).then_some(name)
    })?;
    Some(Effect::Opaque(format!(
        "the code `{program}` is given calls `{method}` of the `{library}` library, which changes machines or services the line does not show"
    )))
}

/// `effects` with each [`Effect::Chdir`] applied to the effects after it: a relative path
/// deleted or written joined to the folder, a command line or program run in it, and
/// what runs after a change to a folder only known at run time unknown
#[cfg_attr(
    not(feature = "tree-sitter"),
    expect(dead_code, reason = "only parsed code changes folders")
)]
fn placed(effects: Vec<Effect>) -> Vec<Effect> {
    let mut cwd: Option<Value> = None;
    let mut placed = Vec::with_capacity(effects.len());
    for effect in effects {
        match (effect, &cwd) {
            (Effect::Chdir(folder), _) => cwd = Some(changed_folder(cwd.take(), folder)),
            (effect, None) => placed.push(effect),
            (effect, Some(cwd)) => placed.push(in_folder(cwd, effect)),
        }
    }
    placed
}

/// The folder after a change from `from` (the code's own when `None`) to `to`
fn changed_folder(from: Option<Value>, to: Value) -> Value {
    match (from, to) {
        (_, Value::Known(to)) if to.starts_with(['/', '~']) => Value::Known(to),
        (None, to) => to,
        (Some(Value::Known(from)), Value::Known(to)) => Value::Known(format!("{from}/{to}")),
        (Some(unknown @ Value::Unknown(_)), _) | (Some(_), unknown @ Value::Unknown(_)) => unknown,
    }
}

/// `effect` done in the folder `cwd`, relative to the code's own: after a change of folder,
/// or for a command given a folder to run in by an option (`subprocess.run(…, cwd=…)`,
/// `execSync(…, {cwd: …})`, `system(…, chdir: …)`), which [`placed`] then places below the
/// code's own folder
pub(super) fn in_folder(cwd: &Value, effect: Effect) -> Effect {
    match (effect, cwd) {
        (
            Effect::Delete {
                tree,
                empty_folder,
                path,
            },
            _,
        ) => Effect::Delete {
            tree,
            empty_folder,
            path: relative_to(cwd, path),
        },
        (Effect::Write(path), _) => Effect::Write(relative_to(cwd, path)),
        (Effect::Script(Value::Known(line)), Value::Known(folder)) => Effect::Script(Value::Known(
            format!("cd -- {} && {line}", quoted_folder(folder)),
        )),
        (Effect::Exec(words), Value::Known(folder)) => {
            let known: Option<Vec<String>> = words
                .iter()
                .map(|word| match word {
                    Value::Known(word) => Some(quoted(word)),
                    Value::Unknown(_) => None,
                })
                .collect();
            match known {
                Some(words) => Effect::Script(Value::Known(format!(
                    "cd -- {} && {}",
                    quoted_folder(folder),
                    words.join(" ")
                ))),
                None => Effect::Opaque(format!(
                    "the code runs a program with words known only at run time after changing to `{folder}`"
                )),
            }
        }
        (Effect::Script(Value::Known(_)) | Effect::Exec(_), Value::Unknown(why)) => Effect::Opaque(
            format!("the code runs a command in a folder only known at run time: {why}"),
        ),
        (effect, _) => effect,
    }
}

/// `path` taken from the folder `cwd`: a relative path known, joined to it; unknown, unknown
fn relative_to(cwd: &Value, path: Value) -> Value {
    match (path, cwd) {
        (Value::Known(path), _) if path.starts_with(['/', '~']) => Value::Known(path),
        (Value::Known(relative), Value::Known(folder)) => {
            Value::Known(format!("{folder}/{relative}"))
        }
        (Value::Known(_), Value::Unknown(why)) => Value::Unknown(why.clone()),
        (unknown @ Value::Unknown(_), _) => unknown,
    }
}

/// `folder` as a shell word: quoted but for a leading `~`, which stands for the home
fn quoted_folder(folder: &str) -> String {
    match folder.strip_prefix('~') {
        Some("") => "~".to_owned(),
        Some(rest) if rest.starts_with('/') => format!("~/{}", quoted(&rest[1..])),
        _ => quoted(folder),
    }
}

/// `word` quoted for a shell: as itself, whatever it holds
fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// The code of a PHP file: after its opening tag (`<?php`, `<?`), without a closing one;
/// the text before the tag is printed, not run
#[cfg(feature = "tree-sitter")]
fn php_code(code: &str) -> &str {
    let Some((_, after)) = code.split_once("<?") else {
        return code;
    };
    let after = after.strip_prefix("php").unwrap_or(after);
    after.rsplit_once("?>").map_or(after, |(code, _)| code)
}

/// A program run with these words: with one word, a command line handed to a shell (Ruby's
/// and Perl's `system "cmd"`), with more, the program and its arguments
#[cfg(feature = "tree-sitter")]
fn run(mut words: Vec<Value>) -> Effect {
    if words.len() == 1 {
        if let Some(line) = words.pop() {
            return Effect::Script(line);
        }
    }
    Effect::Exec(words)
}

/// A move of `from` to `to`, as `mv` does it: the source goes, a whole tree, and the
/// destination is written
#[cfg(feature = "tree-sitter")]
fn moved(from: Value, to: Value) -> [Effect; 2] {
    [
        Effect::Delete {
            tree: true,
            empty_folder: false,
            path: from,
        },
        Effect::Write(to),
    ]
}

/// An archive unpacked into `folder`, as `tar -x -C FOLDER` is read: the folder and
/// anything below it written, whatever names the archive holds
#[cfg(feature = "tree-sitter")]
fn unpacked_into(folder: Value) -> Vec<Effect> {
    match folder {
        Value::Known(folder) => {
            let below = format!("{}/*", folder.trim_end_matches('/'));
            vec![
                Effect::Write(Value::Known(folder)),
                Effect::Write(Value::Known(below)),
            ]
        }
        unknown @ Value::Unknown(_) => vec![Effect::Write(unknown)],
    }
}

/// A link made at `at` that leads to `target`, read as the `ln` that makes it: symbolic or
/// hard, and at `at` itself even when that is a folder (`-T`), as the system call makes it
#[cfg(feature = "tree-sitter")]
fn linked(symbolic: bool, target: Value, at: Value) -> Effect {
    let known = |word: &str| Value::Known(word.to_owned());
    let mut words = vec![known("ln")];
    if symbolic {
        words.push(known("-s"));
    }
    words.extend([known("-T"), known("--"), target, at]);
    Effect::Exec(words)
}

/// Parses `source`, or `None` when the grammar cannot be loaded or the deadline passes
#[cfg(feature = "tree-sitter")]
fn parse(language: Language, source: &str, deadline: Instant) -> Option<tree_sitter::Tree> {
    let mut parser = Parser::new();
    parser.set_language(&language).ok()?;
    let bytes = source.as_bytes();
    let mut chunk = |offset: usize, _| bytes.get(offset..).unwrap_or_default();
    let mut too_slow = |_: &ParseState| Instant::now() > deadline;
    let options = ParseOptions::new().progress_callback(&mut too_slow);
    parser.parse_with_options(&mut chunk, None, Some(options))
}

/// The text of each string literal of `code`, in any of the languages read here: what is
/// quoted with `'`, `"` or a backquote, a backslash escaping the next character. A path
/// named in the code may be a file it reads (`open('/home/me/.ssh/id_rsa')`), whatever the
/// call around it.
pub(crate) fn string_literals(code: &str) -> impl Iterator<Item = &str> {
    let mut rest = code;
    std::iter::from_fn(move || loop {
        let start = rest.find(['\'', '"', '`'])?;
        let quote = rest[start..].chars().next()?;
        let body = &rest[start + 1..];
        let mut escaped = false;
        let end = body.char_indices().find_map(|(at, c)| {
            let closes = c == quote && !escaped;
            escaped = c == '\\' && !escaped;
            closes.then_some(at)
        });
        match end {
            Some(end) => {
                rest = &body[end + 1..];
                return Some(&body[..end]);
            }
            None => rest = body,
        }
    })
}

/// Judges code that is not parsed by its words: code holding a word through which it may
/// delete files, run commands or evaluate more code is opaque, any other is harmless
fn by_words(lang: Lang, program: &str, code: &str) -> Vec<Effect> {
    let lower = code.to_ascii_lowercase();
    let Some(words) = crate::knowledge::dangerous_words(lang) else {
        return vec![Effect::Opaque(format!(
            "the code `{program}` is given is not read: what it does is only known when it runs"
        ))];
    };
    let found = words.iter().copied().find(|word| lower.contains(*word));
    // awk's `>` and `|` redirect only in some places; elsewhere they compare and join.
    let found = match lang {
        Lang::Awk => found.or_else(|| awk::redirection(code)),
        _ => found,
    };
    match found {
        Some(word) => vec![Effect::Opaque(format!(
            "the code `{program}` is given holds `{word}`, through which it may delete files or run commands, and it is not parsed"
        ))],
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
