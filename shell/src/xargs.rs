//! How `xargs` turns its input into command lines (xargs(1), GNU findutils): the items it
//! reads, split at blanks and line breaks with quotes and backslashes removed, or at lines
//! and delimiters; and how many items each command takes (`-n`, `-L`, `-I`).
//!
//! Invariant: input `xargs` would refuse (an unmatched quote) gives no items, never a
//! guess, so the caller reads it as known only at run time.

/// What `xargs`'s own words (those before the program) say about its input
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Options {
    /// The text `-I R` (`-i`, `--replace`) replaces with each line, one command per line
    pub(crate) replace: Option<String>,
    /// Whether items are split at a delimiter (`-0`, `-d`) rather than at blanks: a line of
    /// literal text is one item then
    pub(crate) delimited: bool,
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
                // Their value is optional, so only a glued one is theirs.
                let optional = matches!(name, "replace" | "max-lines" | "eof");
                let value = match glued {
                    Some(value) => Some(value),
                    None if optional => None,
                    None => words.next().cloned(),
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
            max_args: Some(1),
            ..Options::default()
        }
    }

    /// Notes the option `name` (a letter or a long name) with its value
    fn set(&mut self, name: &str, value: Option<String>) {
        let count = |value: Option<String>| value?.parse().ok().filter(|count| *count > 0);
        match name {
            "0" | "null" => self.delimited = true,
            "d" | "delimiter" => self.delimited = true,
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
    /// each command; `None` when `xargs` would refuse the input (an unmatched quote)
    pub(crate) fn commands(&self, input: &str) -> Option<Vec<Vec<String>>> {
        // `-I` takes a line at a time, leading blanks left out; `-0` and `-d` an item
        // between delimiters, which the reader keeps at lines.
        let per_line = self.replace.is_some() || self.delimited;
        let lines: Vec<Vec<String>> = if per_line {
            input
                .lines()
                .map(|line| {
                    if self.delimited {
                        line
                    } else {
                        line.trim_start()
                    }
                })
                .filter(|line| !line.is_empty() || self.delimited)
                .map(|line| unquoted(line, !self.delimited).map(|item| vec![item]))
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
        let Some(eof) = &self.eof else {
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

/// A whole line as one item, its quotes and backslashes removed when `quoting` (`-I`)
fn unquoted(line: &str, quoting: bool) -> Option<String> {
    if !quoting {
        return Some(line.to_owned());
    }
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
        assert_eq!(commands(&["-E", "STOP"], "a STOP b"), lists(&[&["a"]]));
        assert_eq!(commands(&[], ""), lists(&[&[]]));
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
    }
}
