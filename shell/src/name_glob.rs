//! Names matched against a pattern as bash matches them (a `find -name` test, a part of a
//! path with `*`, `?` or `[`), through globset: what a pattern on a line may name.

/// Whether a part of a path holds a pattern bash expands (`*`, `?`, `[`)
pub(crate) fn is_pattern(part: &str) -> bool {
    memchr::memchr3(b'*', b'?', b'[', part.as_bytes()).is_some()
}

/// Whether the part of a path `part`, literal or a pattern, may be `name` (bash's
/// pattern matching, a leading dot matched only by a pattern that starts with one)
pub(crate) fn part_may_be(part: &str, name: &str) -> bool {
    if !is_pattern(part) {
        return part == name;
    }
    (part.starts_with('.') || !name.starts_with('.')) && may_match_name(part, name)
}

/// Whether the `find -name` glob `pattern` may match `name`, case aside (a folder on a
/// case-blind disk is found either way), read as [`for_globset`] says (jq's `.[].name` is
/// no pattern, `[[:alpha:]]` one); a pattern globset cannot read may match anything
pub(crate) fn may_match_name(pattern: &str, name: &str) -> bool {
    let pattern = for_globset(pattern);
    globset::GlobBuilder::new(&pattern)
        .case_insensitive(true)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_or(true, |glob| glob.compile_matcher().is_match(name))
}

/// `pattern` as globset reads what bash and fnmatch(3) mean by it: a POSIX class
/// (`[[:alpha:]]`) spelled as its ASCII ranges, and each `[` that no `]` closes escaped, as
/// such a `[` matches itself (a `]` right after the `[`, or after its `!` or `^`, is one of
/// the set, not its end)
fn for_globset(pattern: &str) -> std::borrow::Cow<'_, str> {
    const CLASSES: &[(&str, &str)] = &[
        ("[:alpha:]", "a-zA-Z"),
        ("[:digit:]", "0-9"),
        ("[:alnum:]", "a-zA-Z0-9"),
        ("[:upper:]", "A-Z"),
        ("[:lower:]", "a-z"),
        ("[:xdigit:]", "0-9a-fA-F"),
        ("[:space:]", " \t"),
        ("[:blank:]", " \t"),
        ("[:punct:]", "!-/:-@\\[-`{-~"),
        ("[:print:]", " -~"),
        ("[:graph:]", "!-~"),
        ("[:word:]", "a-zA-Z0-9_"),
    ];
    let mut pattern = std::borrow::Cow::Borrowed(pattern);
    if pattern.contains("[:") {
        for (class, ranges) in CLASSES {
            if pattern.contains(class) {
                pattern = std::borrow::Cow::Owned(pattern.replace(class, ranges));
            }
        }
    }
    let closes = |at: usize| {
        let set = pattern.get(at + 1..).unwrap_or_default();
        let set = set.strip_prefix(['!', '^']).unwrap_or(set);
        let set = set.strip_prefix(']').unwrap_or(set);
        set.contains(']')
    };
    let bytes = pattern.as_bytes();
    let escaped_at =
        |at: usize| at.checked_sub(1).and_then(|before| bytes.get(before)) == Some(&b'\\');
    let open: Vec<usize> = memchr::memchr_iter(b'[', bytes)
        .filter(|&at| !escaped_at(at) && !closes(at))
        .collect();
    if open.is_empty() {
        return pattern;
    }
    let mut escaped = String::with_capacity(pattern.len() + open.len());
    let mut from = 0;
    for at in open {
        escaped.push_str(pattern.get(from..at).unwrap_or_default());
        escaped.push('\\');
        from = at;
    }
    escaped.push_str(pattern.get(from..).unwrap_or_default());
    std::borrow::Cow::Owned(escaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs whose answer bash gives with `[[ NAME == PATTERN ]]` (no upper case, which the
    /// matcher ignores on purpose)
    const PAIRS: &[(&str, &str)] = &[
        ("id_*", "id_rsa"),
        ("id_[[:alpha:]]*", "id_rsa"),
        ("id_[[:digit:]]*", "id_rsa"),
        ("[[:punct:]]env", ".env"),
        (".[].title", ".[].title"),
        (".[].title", ".a.title"),
        (".e[n]v", ".env"),
        (".e[!n]v", ".env"),
        ("[]a]", "]"),
        ("[!]a]x", "bx"),
        ("*.[ch", "x.[ch"),
        ("*.[ch", "x.c"),
        ("?sh", ".sh"),
        ("c?nfig", "config"),
    ];

    #[test]
    fn a_name_matches_a_pattern_as_bash_matches_it() {
        for (pattern, name) in PAIRS {
            let script = format!("[[ {} == {} ]]", quoted(name), escaped(pattern));
            let bash = std::process::Command::new("bash")
                .args(["--norc", "--noprofile", "-c", &script])
                .status()
                .expect("bash runs");
            assert_eq!(may_match_name(pattern, name), bash.success(), "{script}");
        }
    }

    /// `text` as one literal word of bash
    fn quoted(text: &str) -> String {
        format!("'{}'", text.replace('\'', r"'\''"))
    }

    /// `pattern` as an unquoted word of bash that keeps its pattern characters
    fn escaped(pattern: &str) -> String {
        pattern
            .chars()
            .flat_map(|ch| {
                let escape = !ch.is_ascii_alphanumeric() && !"*?[]!^:-_".contains(ch);
                escape.then_some('\\').into_iter().chain([ch])
            })
            .collect()
    }

    #[test]
    fn a_part_of_a_path_is_a_name_or_a_pattern_that_may_match_it() {
        assert!(part_may_be(".ss?", ".ssh"));
        assert!(
            !part_may_be("*", ".ssh"),
            "a leading dot is matched only by a dot"
        );
        assert!(part_may_be("*", "etc"));
        assert!(part_may_be("proc", "proc"));
        assert!(!part_may_be("proc", "prod"));
    }
}
