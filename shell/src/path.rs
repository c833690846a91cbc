//! Lexical path normalisation: `.` and `..` folded, `~` and `$HOME` expanded, relative
//! paths joined to the working directory. The file system is never consulted, so symbolic
//! links are not followed.

use crate::Context;

/// The last component of a path (`/usr/bin/sudo` is `sudo`), all of it without a `/`
pub(crate) fn basename(path: &str) -> &str {
    // A byte search from the end: asked of every program and many words, where `rsplit`
    // would set a searcher up for each.
    match path.bytes().rposition(|byte| byte == b'/') {
        Some(slash) => path.get(slash + 1..).unwrap_or_default(),
        None => path,
    }
}

/// The word `word` as a normalised path: absolute when it is absolute, starts with `~` or
/// `$HOME`, or the working directory is known; otherwise relative, keeping leading `..`
pub(crate) fn normalise(word: &str, context: &Context) -> String {
    let (base, rest) = split_base(word, context);
    if let Some(path) = already_normal(base, rest) {
        return path;
    }
    fold(base, rest)
}

/// `base` joined to `rest` when neither has a part to fold (an empty part, `.`, `..`): the
/// common case (`src/main.rs` in `/home/u/project`) without taking the path apart
fn already_normal(base: &str, rest: &str) -> Option<String> {
    let rest = rest.strip_prefix('/').unwrap_or(rest);
    if !rest.is_empty() && !plain_parts(rest) {
        return None;
    }
    let base = match base {
        "/" => "",
        "" => {
            return (!rest.is_empty()).then(|| rest.to_owned());
        }
        absolute => {
            let parts = absolute.strip_prefix('/')?;
            if !plain_parts(parts) {
                return None;
            }
            absolute
        }
    };
    let mut path = String::with_capacity(base.len() + rest.len() + 1);
    path.push_str(base);
    if path.is_empty() || !rest.is_empty() {
        path.push('/');
    }
    path.push_str(rest);
    Some(path)
}

/// Whether every `/`-separated part of `parts` is a name: not empty, not `.`, not `..`
fn plain_parts(parts: &str) -> bool {
    parts
        .as_bytes()
        .split(|byte| *byte == b'/')
        .all(|part| !matches!(part, b"" | b"." | b".."))
}

/// `base` joined to `rest` with empty parts and `.` dropped and `..` folded
fn fold(base: &str, rest: &str) -> String {
    let absolute = base.starts_with('/');
    // Read for every operand of every command: the path is built in place, one string and
    // nothing else, each part after a `/` (and the first of a relative path after nothing).
    let mut path = String::with_capacity(base.len() + rest.len() + 1);
    for part in base.split('/').chain(rest.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                let start = path.rfind('/').map_or(0, |slash| slash + 1);
                let last = path.get(start..).unwrap_or_default();
                // Above the root is the root; above a relative start stays `..`.
                if !path.is_empty() && last != ".." && last != "~" {
                    path.truncate(start.saturating_sub(1));
                } else if !absolute {
                    push_part(&mut path, "..", absolute);
                }
            }
            other => push_part(&mut path, other, absolute),
        }
    }
    if path.is_empty() {
        path.push_str(if absolute { "/" } else { "." });
    }
    path
}

/// Appends one part to a path being built
fn push_part(path: &mut String, part: &str, absolute: bool) {
    if absolute || !path.is_empty() {
        path.push('/');
    }
    path.push_str(part);
}

/// The directory a word starts from, and the rest of the word
fn split_base<'w>(word: &'w str, context: &'w Context) -> (&'w str, &'w str) {
    if let Some(rest) = strip_home(word) {
        return (context.home.as_deref().unwrap_or("~"), rest);
    }
    if word.starts_with('/') {
        return ("/", word);
    }
    match &context.cwd {
        // After `cd ~` with the home not known, the folder is still the home.
        Some(cwd) if cwd.starts_with('/') || strip_home(cwd).is_some() => (cwd, word),
        _ => ("", word),
    }
}

/// The rest of a word that starts with the home directory (`~`, `~/x`, `$HOME/x`, `${HOME}`)
fn strip_home(word: &str) -> Option<&str> {
    ["~", "$HOME", "${HOME}"].iter().find_map(|prefix| {
        let rest = word.strip_prefix(prefix)?;
        (rest.is_empty() || rest.starts_with('/')).then_some(rest)
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{already_normal, fold, normalise};
    use crate::Context;

    proptest! {
        /// The shortcut, whenever it answers, answers what folding the parts one by one does
        #[test]
        fn joining_plain_parts_is_folding_them(
            base in prop::sample::select(vec!["", "/", "~", "/home/u", "/home/u/", "/a/./b", "rel/x", "/a/../b"]),
            rest in "[a/.~]{0,8}",
        ) {
            if let Some(joined) = already_normal(base, &rest) {
                prop_assert_eq!(joined, fold(base, &rest));
            }
        }
    }

    fn context() -> Context {
        Context {
            cwd: Some("/home/u/project".to_owned()),
            home: Some("/home/u".to_owned()),
            ..Context::default()
        }
    }

    #[test]
    fn folds_dots_and_expands_home() {
        let cases = [
            ("/tmp/../etc/passwd", "/etc/passwd"),
            ("/../..", "/"),
            ("/", "/"),
            ("/*", "/*"),
            ("~", "/home/u"),
            ("~/", "/home/u"),
            ("$HOME/.ssh", "/home/u/.ssh"),
            ("${HOME}", "/home/u"),
            ("~other", "/home/u/project/~other"),
            ("target", "/home/u/project/target"),
            ("./a/./b/", "/home/u/project/a/b"),
            ("../..", "/home"),
            ("../../../../..", "/"),
        ];
        for (word, expected) in cases {
            assert_eq!(normalise(word, &context()), expected, "{word}");
        }
    }

    #[test]
    fn without_directories_paths_stay_relative_and_home_stays_a_tilde() {
        let none = Context::default();
        assert_eq!(normalise("../x/../..", &none), "../..");
        assert_eq!(normalise("a/b/..", &none), "a");
        assert_eq!(normalise("a/..", &none), ".");
        assert_eq!(normalise("~/x/../y", &none), "~/y");
        assert_eq!(normalise("$HOME", &none), "~");
        assert_eq!(normalise("~/..", &none), "~/..");
    }
}
