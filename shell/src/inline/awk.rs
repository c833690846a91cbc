//! Where awk code sends output to a file or a command. In awk, `>`, `>>` and `|` after
//! `print` or `printf` in the same statement redirect its output (`print > "f"`, `print |
//! "sh"`), and `|` before `getline` reads a command's output (`"id" | getline`); anywhere
//! else `>` is a comparison (`NR > 1`) and `||` a logical or. Regular expressions cannot
//! always be told from a division without parsing, so after an odd number of `/` in a
//! statement, where a `;`, `}`, `"` or `#` may lie inside one (`/"/`), none of them ends the
//! statement or opens a string or a comment: when unsure, an operator counts as a
//! redirection.

/// The first redirection operator of `code` (`>` for `>` and `>>`, or `|`), if any
pub(super) fn redirection(code: &str) -> Option<&'static str> {
    let bytes = code.as_bytes();
    let mut at = 0;
    // Whether `print` or `printf` came in the statement being read, and how many `/` came
    // in it: with an odd number, what follows may stand inside a regular expression.
    let mut printing = false;
    let mut slashes = 0usize;
    while let Some(&byte) = bytes.get(at) {
        let in_regex = slashes % 2 == 1;
        match byte {
            b'"' if !in_regex => {
                at += 1;
                while let Some(&inside) = bytes.get(at) {
                    match inside {
                        b'\\' => at += 1,
                        b'"' => break,
                        _ => {}
                    }
                    at += 1;
                }
            }
            b'#' if !in_regex => {
                while bytes.get(at).is_some_and(|&inside| inside != b'\n') {
                    at += 1;
                }
                continue;
            }
            b'\n' => {
                printing = false;
                slashes = 0;
            }
            b';' | b'{' | b'}' if !in_regex => {
                printing = false;
                slashes = 0;
            }
            b'/' => slashes += 1,
            b'>' if printing => return Some(">"),
            b'|' if bytes.get(at + 1) == Some(&b'|') => at += 1,
            b'|' if printing || before_getline(bytes.get(at + 1..).unwrap_or_default()) => {
                return Some("|")
            }
            _ if starts_word(bytes, at) => {
                let word = word_at(bytes, at);
                printing |= word == b"print" || word == b"printf";
                at += word.len();
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// Whether `rest`, after a `|`, is `getline` (or `&` then `getline`, gawk's coprocess)
fn before_getline(rest: &[u8]) -> bool {
    let rest = rest.strip_prefix(b"&").unwrap_or(rest);
    let start = rest
        .iter()
        .position(|byte| !byte.is_ascii_whitespace())
        .unwrap_or(rest.len());
    rest.get(start..)
        .is_some_and(|word| word.starts_with(b"getline"))
}

/// Whether a word starts at `at`: a letter or `_` not glued to a word before it
fn starts_word(bytes: &[u8], at: usize) -> bool {
    let is_word = |byte: &u8| byte.is_ascii_alphanumeric() || *byte == b'_';
    bytes.get(at).is_some_and(is_word)
        && !at
            .checked_sub(1)
            .and_then(|before| bytes.get(before))
            .is_some_and(is_word)
}

/// The word that starts at `at`
fn word_at(bytes: &[u8], at: usize) -> &[u8] {
    let rest = bytes.get(at..).unwrap_or_default();
    let end = rest
        .iter()
        .position(|byte| !(byte.is_ascii_alphanumeric() || *byte == b'_'))
        .unwrap_or(rest.len());
    rest.get(..end).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::redirection;

    #[test]
    fn output_after_print_is_a_redirection() {
        for code in [
            "{print $2 > \"/etc/x\"}",
            "{print >> \"out\"}",
            "NR > 1 { print $1 > $2 }",
            "{ if (x > 1) printf \"%s\", $0 > \"/etc/x\" }",
            "{print | \"sh\"}",
            "{printf(\"%s\\n\", $0) |& \"sh\"}",
            "BEGIN { \"id\" | getline x }",
            "BEGIN { \"id\" |& getline }",
            // A `;` that may lie in a regular expression does not end the statement.
            "{ print $0 ~ /;/ > \"/etc/x\" }",
            "{ print a/2; x > 1 }",
            // Nor do a quote or a `#` that may lie in one.
            "/\"/ { print > \"/etc/x\" }",
            "/#/ { print > \"/etc/x\" }",
        ] {
            assert!(redirection(code).is_some(), "{code}");
        }
    }

    #[test]
    fn comparisons_and_logical_or_are_no_redirection() {
        for code in [
            "NR>1 {print $2}",
            "$3 > 100 && $4 >= 2 { n++ } END { print n }",
            "{ if ($1 > max) max = $1 } END { print max }",
            "length($0) > 80 || /TODO/",
            "{ print \"a > b | c\" }",
            "{ s = sprintf(\"%d\", $1 > 0) }",
            "# print > comment\n$2 > 0",
            "{ print $1 }\nNF > 3",
        ] {
            assert_eq!(redirection(code), None, "{code}");
        }
    }
}
