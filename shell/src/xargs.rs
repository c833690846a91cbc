//! How `xargs` turns its input into command lines (xargs(1), GNU findutils): the items it
//! reads, split at blanks and line breaks with quotes and backslashes removed, or at the
//! delimiter of `-0` (a NUL) or `-d` (one character, or an escape naming one), as written;
//! and how many items each command takes (`-n`, `-L`, `-I`).
//!
//! Invariant: input `xargs` would refuse (an unmatched quote) gives no items, never a
//! guess, so the caller reads it as known only at run time.

/// What `xargs`'s own words (those before the program) say about its input
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Options {
    /// The text `-I R` (`-i`, `--replace`) replaces with each line, one command per line
    pub(crate) replace: Option<String>,
    /// Whether items are split at a delimiter (`-0`, `-d`) rather than at blanks, with no
    /// quote or backslash removed
    pub(crate) delimited: bool,
    /// The delimiter: a NUL for `-0`, the character `-d` names; `None` with `delimited` for
    /// a `-d` xargs refuses (more than one character, an escape it does not know)
    pub(crate) delimiter: Option<char>,
    /// The most items one command takes (`-n N`, `--max-args=N`)
    pub(crate) max_args: Option<usize>,
    /// The most non-blank lines one command takes (`-L N`, `-l`, `--max-lines`)
    pub(crate) max_lines: Option<usize>,
    /// The logical end of the input (`-E S`, `-e S`, `--eof=S`): an item equal to it ends it
    pub(crate) eof: Option<String>,
    /// The file items are read from instead of the input (`-a FILE`, `--arg-file=FILE`)
    pub(crate) arg_file: Option<String>,
}

impl Options {
    /// Reads `own`, the words of `xargs` before the program it runs, as getopt does: short
    /// options clustered (`-rn1`), a value glued or in the next word
    pub(crate) fn read(own: &[String]) -> Options {
        let mut options = Options::default();
        let mut words = own.iter();
        while let Some(arg) = words.next() {
            if let Some(long) = arg.strip_prefix("--") {
                let (name, glued) = match long.split_once('=') {
                    Some((name, value)) => (name, Some(value.to_owned())),
                    None => (long, None),
                };
                // Only these take the next word as their value: `--replace`, `--max-lines`
                // and `--eof` take a glued one alone, and `--null`, `--verbose`, … none.
                let valued = matches!(
                    name,
                    "arg-file"
                        | "delimiter"
                        | "max-args"
                        | "max-procs"
                        | "max-chars"
                        | "process-slot-var"
                );
                let value = match glued {
                    Some(value) => Some(value),
                    None if valued => words.next().cloned(),
                    None => None,
                };
                options.set(name, value);
                continue;
            }
            let Some(cluster) = arg.strip_prefix('-') else {
                continue;
            };
            for (at, letter) in cluster.char_indices() {
                let rest = cluster.get(at + letter.len_utf8()..).unwrap_or_default();
                let rest = (!rest.is_empty()).then(|| rest.to_owned());
                match letter {
                    // Their value is optional: the rest of the word, or none.
                    'i' | 'l' | 'e' => {
                        options.set(&letter.to_string(), rest);
                        break;
                    }
                    'a' | 'd' | 'E' | 'I' | 'L' | 'n' | 'P' | 's' => {
                        let value = rest.or_else(|| words.next().cloned());
                        options.set(&letter.to_string(), value);
                        break;
                    }
                    _ => options.set(&letter.to_string(), None),
                }
            }
        }
        options
    }

    /// How GNU parallel, given no argument source, reads its input: a line is one
    /// argument, put for `{}` in `command` (the words it runs), or after them, a command each
    pub(crate) fn one_per_line(command: &[String]) -> Options {
        let replaces = command.iter().any(|word| word.contains("{}"));
        Options {
            replace: replaces.then(|| "{}".to_owned()),
            delimited: true,
            delimiter: Some('\n'),
            max_args: Some(1),
            ..Options::default()
        }
    }

    /// Notes the option `name` (a letter or a long name) with its value
    fn set(&mut self, name: &str, value: Option<String>) {
        let count = |value: Option<String>| value?.parse().ok().filter(|count| *count > 0);
        match name {
            "0" | "null" => {
                self.delimited = true;
                self.delimiter = Some('\0');
            }
            "d" | "delimiter" => {
                self.delimited = true;
                self.delimiter = value.as_deref().and_then(delimiter);
            }
            "I" | "i" | "replace" => self.replace = Some(value.unwrap_or_else(|| "{}".to_owned())),
            // The last of `-n` and `-L` counts (GNU xargs warns of the other).
            "n" | "max-args" => {
                self.max_args = count(value);
                self.max_lines = None;
            }
            "L" | "l" | "max-lines" => {
                self.max_lines = count(value.or_else(|| Some("1".to_owned())));
                self.max_args = None;
            }
            "E" | "e" | "eof" => self.eof = value.filter(|eof| !eof.is_empty()),
            "a" | "arg-file" => self.arg_file = value,
            _ => {}
        }
    }

    /// The argument lists of the commands `xargs` runs on `input`, in order: the items of
    /// each command; `None` when `xargs` would refuse the input (an unmatched quote) or its
    /// own words (a `-d` of two characters)
    pub(crate) fn commands(&self, input: &str) -> Option<Vec<Vec<String>>> {
        // `-0` and `-d` take an item between delimiters, as written: a NUL `printf '%s\0'`
        // prints ends one, and a line break is a character of it.
        let lines: Vec<Vec<String>> = if self.delimited {
            let delimiter = self.delimiter?;
            // A delimiter ends the item before it: after the last one, nothing is left.
            let text = input.strip_suffix(delimiter).unwrap_or(input);
            if input.is_empty() {
                Vec::new()
            } else {
                text.split(delimiter)
                    .map(|item| vec![item.to_owned()])
                    .collect()
            }
        } else if self.replace.is_some() {
            // `-I` takes a line at a time, leading blanks left out.
            input
                .lines()
                .map(str::trim_start)
                .filter(|line| !line.is_empty())
                .map(|line| unquoted(line).map(|item| vec![item]))
                .collect::<Option<_>>()?
        } else {
            input
                .lines()
                .map(items)
                .filter(|line| !line.as_ref().is_some_and(Vec::is_empty))
                .collect::<Option<_>>()?
        };
        let mut lines = self.before_eof(lines);
        if self.replace.is_some() {
            return Some(lines);
        }
        if let Some(count) = self.max_lines {
            return Some(lines.chunks(count).map(|chunk| chunk.concat()).collect());
        }
        let items: Vec<String> = lines.drain(..).flatten().collect();
        Some(match self.max_args {
            Some(count) => items.chunks(count).map(<[String]>::to_vec).collect(),
            None => vec![items],
        })
    }

    /// `lines` up to the item equal to the end-of-input string, if one is set
    fn before_eof(&self, lines: Vec<Vec<String>>) -> Vec<Vec<String>> {
        // GNU xargs ignores `-E` with `-0` or `-d`, and says so.
        let Some(eof) = self.eof.as_ref().filter(|_| !self.delimited) else {
            return lines;
        };
        let mut kept = Vec::with_capacity(lines.len());
        for mut line in lines {
            if let Some(end) = line.iter().position(|item| item == eof) {
                line.truncate(end);
                if !line.is_empty() {
                    kept.push(line);
                }
                break;
            }
            kept.push(line);
        }
        kept
    }
}

/// The character `-d` names (GNU xargs' `get_input_delimiter`): one character as it is, or
/// a backslash escape, `\n`, `\t`, `\\` and their kin, an octal code (`\0`, `\012`) or a
/// hexadecimal one (`\x00`) of one byte; `None` for what xargs refuses
fn delimiter(value: &str) -> Option<char> {
    let mut chars = value.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    if rest.is_empty() {
        return Some(first);
    }
    if first != '\\' {
        return None;
    }
    let named = match rest {
        "a" => Some('\u{7}'),
        "b" => Some('\u{8}'),
        "f" => Some('\u{c}'),
        "n" => Some('\n'),
        "r" => Some('\r'),
        "t" => Some('\t'),
        "v" => Some('\u{b}'),
        "\\" => Some('\\'),
        _ => None,
    };
    if named.is_some() {
        return named;
    }
    let (digits, radix) = match rest.strip_prefix('x') {
        Some(hex) => (hex, 16),
        None if rest.starts_with(|ch: char| ch.is_ascii_digit()) => (rest, 8),
        None => return None,
    };
    let code = u32::from_str_radix(digits, radix).ok()?;
    u8::try_from(code).ok().map(char::from)
}

/// The items of one line: split at blanks, quotes and backslashes removed
fn items(line: &str) -> Option<Vec<String>> {
    let mut items = Vec::new();
    let mut item: Option<String> = None;
    let mut chars = line.chars();
    while let Some(ch) = chars.next() {
        match ch {
            ' ' | '\t' => {
                items.extend(item.take());
                continue;
            }
            '\'' | '"' => {
                let quoted = item.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        close if close == ch => break,
                        inner => quoted.push(inner),
                    }
                }
            }
            '\\' => item.get_or_insert_with(String::new).extend(chars.next()),
            _ => item.get_or_insert_with(String::new).push(ch),
        }
    }
    items.extend(item);
    Some(items)
}

/// A whole line as one item, its quotes and backslashes removed (`-I`)
fn unquoted(line: &str) -> Option<String> {
    // Blanks inside a line are kept: `-I` splits at line breaks only.
    let mut item = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '\'' | '"' => loop {
                match chars.next()? {
                    close if close == ch => break,
                    inner => item.push(inner),
                }
            },
            '\\' => item.extend(chars.next()),
            _ => item.push(ch),
        }
    }
    Some(item)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(words: &[&str]) -> Options {
        Options::read(
            &words
                .iter()
                .map(|word| (*word).to_owned())
                .collect::<Vec<_>>(),
        )
    }

    fn commands(words: &[&str], input: &str) -> Option<Vec<Vec<String>>> {
        options(words).commands(input)
    }

    fn lists(lists: &[&[&str]]) -> Option<Vec<Vec<String>>> {
        Some(
            lists
                .iter()
                .map(|list| list.iter().map(|word| (*word).to_owned()).collect())
                .collect(),
        )
    }

    /// Each expected list is what GNU xargs 4.9 hands its program (`xargs printf '[%s]'`).
    #[test]
    fn splits_as_gnu_xargs_does() {
        assert_eq!(
            commands(&[], "push -f origin main\n"),
            lists(&[&["push", "-f", "origin", "main"]])
        );
        assert_eq!(
            commands(&[], "a 'b c' \"d\"e\\ f\n g"),
            lists(&[&["a", "b c", "de f", "g"]])
        );
        assert_eq!(
            commands(&["-n", "1"], "a b\nc"),
            lists(&[&["a"], &["b"], &["c"]])
        );
        assert_eq!(commands(&["-n2"], "a b c"), lists(&[&["a", "b"], &["c"]]));
        assert_eq!(
            commands(&["--max-args=2"], "a b c"),
            lists(&[&["a", "b"], &["c"]])
        );
        assert_eq!(
            commands(&["-L", "1"], "a b\n\nc"),
            lists(&[&["a", "b"], &["c"]])
        );
        assert_eq!(
            commands(&["-I", "R"], "  a b\nc"),
            lists(&[&["a b"], &["c"]])
        );
        assert_eq!(commands(&["-0"], "a b"), lists(&[&["a b"]]));
        assert_eq!(commands(&["-0"], "a\0\0b\0"), lists(&[&["a", "", "b"]]));
        assert_eq!(commands(&["-0"], "a\nb\0c"), lists(&[&["a\nb", "c"]]));
        assert_eq!(commands(&["-0"], "a'b\0"), lists(&[&["a'b"]]));
        assert_eq!(commands(&["-0"], " a \0"), lists(&[&[" a "]]));
        assert_eq!(
            commands(&["-0", "-n1"], "a b\0c\0"),
            lists(&[&["a b"], &["c"]])
        );
        assert_eq!(commands(&["-0", "-I{}"], "a\0b"), lists(&[&["a"], &["b"]]));
        assert_eq!(
            commands(&["-d", ","], "a,,b,\n"),
            lists(&[&["a", "", "b", "\n"]])
        );
        assert_eq!(commands(&["-d", "\\n"], "a\nb\n"), lists(&[&["a", "b"]]));
        assert_eq!(commands(&["--null"], ""), lists(&[&[]]));
        assert_eq!(
            commands(&["-0", "-E", "STOP"], "a\0STOP\0b"),
            lists(&[&["a", "STOP", "b"]])
        );
        assert_eq!(commands(&["-E", "STOP"], "a STOP b"), lists(&[&["a"]]));
        assert_eq!(commands(&[], ""), lists(&[&[]]));
    }

    /// GNU xargs 4.9 refuses a delimiter of more than one character that is no escape.
    #[test]
    fn a_delimiter_is_read_as_gnu_xargs_reads_it() {
        assert_eq!(delimiter(","), Some(','));
        assert_eq!(delimiter("\\n"), Some('\n'));
        assert_eq!(delimiter("\\t"), Some('\t'));
        assert_eq!(delimiter("\\\\"), Some('\\'));
        assert_eq!(delimiter("\\0"), Some('\0'));
        assert_eq!(delimiter("\\001"), Some('\u{1}'));
        assert_eq!(delimiter("\\x01"), Some('\u{1}'));
        assert_eq!(delimiter("ab"), None);
        assert_eq!(delimiter("\\q"), None);
        assert_eq!(delimiter("\\x100"), None);
        assert_eq!(commands(&["-d", "ab"], "x"), None);
    }

    #[test]
    fn an_unmatched_quote_is_refused() {
        assert_eq!(commands(&[], "a 'b"), None);
        assert_eq!(commands(&["-I", "{}"], "it's"), None);
    }

    #[test]
    fn reads_its_own_options() {
        assert_eq!(options(&["-I", "R"]).replace.as_deref(), Some("R"));
        assert_eq!(options(&["-i"]).replace.as_deref(), Some("{}"));
        assert_eq!(options(&["--replace=X"]).replace.as_deref(), Some("X"));
        assert_eq!(options(&["-a", "list"]).arg_file.as_deref(), Some("list"));
        assert_eq!(options(&["-l"]).max_lines, Some(1));
        assert_eq!(options(&["-r", "-n", "3"]).max_args, Some(3));
        assert!(options(&["-d", "\\n"]).delimited);
        assert_eq!(options(&["--null", "-I{}"]).replace.as_deref(), Some("{}"));
        assert_eq!(options(&["--null", "-I{}"]).delimiter, Some('\0'));
        assert_eq!(options(&["--delimiter", ","]).delimiter, Some(','));
        assert_eq!(options(&["--max-args", "2", "-0"]).max_args, Some(2));
    }
}
