//! What `echo` and `printf FORMAT ARGS…` print, as bash's builtins print them: `echo`'s
//! words after its options (`-n`, `-e`, `-E`, alone or together; any other word is printed,
//! `-9` and `--` too), and `printf`'s format when every conversion of
//! the format gives back text it was handed: `%s`, `%b` (its escapes decoded), `%c`, `%d` and
//! `%i` of an integer, `%%`, with a width; the format is used again while arguments remain.
//!
//! Invariant: an output only run time knows (`%q`, a number format of a word that is no
//! integer, a conversion not listed, more than [`MAX_OUTPUT`] bytes) is `None`, never a
//! guess, so a reading built on it cannot miss what bash prints.

/// The most text a literal `printf` is taken to print
const MAX_OUTPUT: usize = 64 * 1024;

/// What the builtin `program` (`echo` or `printf`) prints given `args`, all its words
pub(crate) fn printed(program: &str, args: &[String]) -> Option<String> {
    match program {
        "echo" => {
            // Options are the leading words made of `n`, `e` and `E` alone; the last of `-e`
            // and `-E` counts.
            let options = echo_options(args).count();
            let (options, words) = args.split_at(options);
            let escapes = options
                .iter()
                .flat_map(|option| option.chars())
                .rfind(|ch| matches!(ch, 'e' | 'E'))
                == Some('e');
            let text = words.join(" ");
            Some(if escapes {
                decode(&text, Escapes::Echo).0
            } else {
                text
            })
        }
        // `printf -v NAME …` prints nothing, and another option is an error; `--` ends them.
        "printf" => match args.split_first()? {
            (first, rest) if first == "--" => output(rest),
            (first, _) if first.starts_with('-') && first.len() > 1 => None,
            _ => output(args),
        },
        _ => None,
    }
}

/// What the builtin `program` (`echo` or `printf`) writes given `args`, byte for byte: as
/// [`printed`], with the line break `echo` ends its text with unless given `-n`
pub(crate) fn written(program: &str, args: &[String]) -> Option<String> {
    let mut text = printed(program, args)?;
    let breaks_line = program == "echo" && !echo_options(args).any(|arg| arg.contains('n'));
    if breaks_line {
        text.push('\n');
    }
    Some(text)
}

/// The options `echo` takes among its words: the leading ones made of a `-` and letters
/// among `n`, `e` and `E`
fn echo_options(args: &[String]) -> impl Iterator<Item = &String> {
    args.iter().take_while(|arg| {
        arg.strip_prefix('-').is_some_and(|letters| {
            !letters.is_empty() && letters.chars().all(|ch| matches!(ch, 'n' | 'e' | 'E'))
        })
    })
}

/// The name `printf -v NAME FORMAT ARGS…` sets (`-vNAME` too, `--` after it) and the
/// value it sets, which is what it would print; `None` for any other `printf`, and when
/// the value is known only at run time (a word of it unknown, which `is_unknown` tells, a
/// conversion not read)
pub(crate) fn assigned(args: &[String], is_unknown: fn(&str) -> bool) -> Option<(&str, String)> {
    let (first, rest) = args.split_first()?;
    let (name, rest) = match first.strip_prefix("-v")? {
        "" => rest
            .split_first()
            .map(|(name, rest)| (name.as_str(), rest))?,
        glued => (glued, rest),
    };
    let operands = match rest.split_first() {
        Some((first, after)) if first == "--" => after,
        _ => rest,
    };
    if operands.first()?.starts_with('-') || operands.iter().any(|arg| is_unknown(arg)) {
        return None;
    }
    Some((name, output(operands)?))
}

/// What `printf` prints given `operands` (the format, then its arguments)
pub(crate) fn output(operands: &[String]) -> Option<String> {
    let (format, mut args) = operands.split_first()?;
    let mut out = String::new();
    loop {
        let before = args.len();
        let stopped;
        (args, stopped) = once(format, args, &mut out)?;
        if out.len() > MAX_OUTPUT {
            return None;
        }
        // bash uses the format again while arguments remain and the format takes some.
        if stopped || args.is_empty() || args.len() == before {
            return Some(out);
        }
    }
}

/// Which of bash's three readings of backslash escapes a text gets: they differ only in
/// octal escapes and in `\c` (bash's `printf.def`, `tescape`, and `echo -e`'s `ansicstr`)
#[derive(Clone, Copy, PartialEq, Eq)]
enum Escapes {
    /// `printf`'s format: `\NNN`, one to three octal digits
    Format,
    /// `%b`: `\0NNN` (up to three digits after the `0`) and `\NNN`; `\c` ends all output
    Argument,
    /// `echo -e`: `\0NNN` alone; `\1` to `\7` stay as written; `\c` ends all output
    Echo,
}

/// `text` with its backslash escapes decoded as `dialect` decodes them, and whether a `\c`
/// ended it (bash then prints nothing more)
fn decode(text: &str, dialect: Escapes) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        let Some(next) = chars.next() else {
            out.push('\\');
            break;
        };
        match next {
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'e' | 'E' => out.push('\u{1b}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '\\' => out.push('\\'),
            '\'' | '"' | '?' if dialect == Escapes::Format => out.push(next),
            'c' if dialect != Escapes::Format => return (out, true),
            'x' => push_code(&mut chars, &mut out, 16, 2, next),
            'u' => push_code(&mut chars, &mut out, 16, 4, next),
            'U' => push_code(&mut chars, &mut out, 16, 8, next),
            '1'..='7' if dialect == Escapes::Echo => {
                out.push('\\');
                out.push(next);
            }
            '0'..='7' => {
                // After a leading `0`, `%b` and `echo -e` take up to three digits more.
                let more = if next == '0' && dialect != Escapes::Format {
                    3
                } else {
                    2
                };
                let mut value = next.to_digit(8).unwrap_or(0);
                for _ in 0..more {
                    let Some(digit) = chars.peek().and_then(|digit| digit.to_digit(8)) else {
                        break;
                    };
                    value = value * 8 + digit;
                    chars.next();
                }
                // Bash prints the low byte; above ASCII that is a byte no `char` holds.
                out.push(char::from(u8::try_from(value & 0xff).unwrap_or(0)));
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    (out, false)
}

/// Up to `max` digits of base `radix` as one character; with no digit, the escape as
/// written (bash prints `\x` and `\u` followed by no digit as they are)
fn push_code(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    out: &mut String,
    radix: u32,
    max: usize,
    letter: char,
) {
    let mut value = 0u32;
    let mut digits = 0;
    while digits < max {
        let Some(digit) = chars.peek().and_then(|next| next.to_digit(radix)) else {
            break;
        };
        value = value.saturating_mul(radix).saturating_add(digit);
        chars.next();
        digits += 1;
    }
    if digits == 0 {
        out.push('\\');
        out.push(letter);
    } else if letter == 'x' {
        out.push(char::from(u8::try_from(value & 0xff).unwrap_or(0)));
    } else {
        out.extend(char::from_u32(value));
    }
}

/// One pass of `format` over `args`, pushed on `out`; the arguments it left, and whether a
/// `\c` of a `%b` argument ended the output
fn once<'a>(
    format: &str,
    mut args: &'a [String],
    out: &mut String,
) -> Option<(&'a [String], bool)> {
    let mut literal = String::new();
    let mut chars = format.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '%' {
            literal.push(ch);
            continue;
        }
        out.push_str(&decode(&std::mem::take(&mut literal), Escapes::Format).0);
        let mut spec = String::new();
        while let Some(next) =
            chars.next_if(|next| matches!(next, '-' | '0'..='9' | ' ' | '+' | '#'))
        {
            spec.push(next);
        }
        let conversion = chars.next()?;
        if conversion == '%' {
            out.push('%');
            continue;
        }
        let (arg, rest) = match args.split_first() {
            Some((arg, rest)) => (arg.as_str(), rest),
            None => ("", args),
        };
        args = rest;
        // The reader keeps the home an expansion gave as `~` or `$HOME`, which a word read
        // back from the text is the home only where it starts that word; cut by `%c` or a
        // width, or printed after other text (`/%s`), it stands for text bash prints
        // otherwise.
        if holds_home(arg)
            && !(matches!(conversion, 's' | 'b') && spec.is_empty() && starts_a_word(out))
        {
            return None;
        }
        let text = match conversion {
            's' => arg.to_owned(),
            'b' => {
                let (text, stopped) = decode(arg, Escapes::Argument);
                if stopped {
                    pad(&spec, &text, out)?;
                    return Some((args, true));
                }
                text
            }
            'c' => arg.chars().take(1).collect(),
            'd' | 'i' => integer(arg)?.to_string(),
            _ => return None,
        };
        pad(&spec, &text, out)?;
    }
    out.push_str(&decode(&literal, Escapes::Format).0);
    Some((args, false))
}

/// Whether `arg` starts with the home as the reader keeps it after expansion (`~`, `~/x`,
/// `$HOME/x`, `${HOME}`), for the home's own letters
fn holds_home(arg: &str) -> bool {
    arg.starts_with('~') || arg.starts_with("$HOME") || arg.starts_with("${HOME}")
}

/// Whether text pushed after `out` starts a word, as the program reading the text splits
/// it: at the start, or after a blank, a line break, a NUL (`xargs -0`), a quote or an `=`
/// (an assignment's value, which a shell expands `~` in too)
fn starts_a_word(out: &str) -> bool {
    out.is_empty() || out.ends_with([' ', '\t', '\n', '\0', '\'', '"', '='])
}

/// The integer `%d` prints for `arg`, read as bash reads a number argument: empty is 0, a
/// leading `0x` is hexadecimal and a leading `0` octal, a leading quote gives the next
/// character's code; `None` for what is no number (bash then complains)
fn integer(arg: &str) -> Option<i64> {
    let arg = arg.trim_start();
    if let Some(quoted) = arg.strip_prefix(['\'', '"']) {
        return Some(
            quoted
                .chars()
                .next()
                .map_or(0, |ch| i64::from(u32::from(ch))),
        );
    }
    let (negative, digits) = match arg.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, arg.strip_prefix('+').unwrap_or(arg)),
    };
    let value = if arg.is_empty() {
        0
    } else if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        i64::from_str_radix(hex, 16).ok()?
    } else if digits.len() > 1 && digits.starts_with('0') {
        i64::from_str_radix(&digits[1..], 8).ok()?
    } else {
        digits.parse::<i64>().ok()?
    };
    Some(if negative { -value } else { value })
}

/// `text` pushed on `out` within the width of `spec` (`-` to the left); `None` for a flag
/// whose output is not the text (`+`, `#`, `0`, a blank)
fn pad(spec: &str, text: &str, out: &mut String) -> Option<()> {
    let left = spec.starts_with('-');
    let digits = spec.trim_start_matches('-');
    if !digits.bytes().all(|byte| byte.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    let width: usize = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    if width > MAX_OUTPUT {
        return None;
    }
    let fill = " ".repeat(width.saturating_sub(text.chars().count()));
    if left {
        out.push_str(text);
        out.push_str(&fill);
    } else {
        out.push_str(&fill);
        out.push_str(text);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(words: &[&str]) -> Option<String> {
        output(
            &words
                .iter()
                .map(|word| (*word).to_owned())
                .collect::<Vec<_>>(),
        )
    }

    /// Each expected text is what bash 5's `printf` prints for the same words.
    #[test]
    fn prints_as_bash_does() {
        assert_eq!(
            printed(&["DROP %s users;", "TABLE"]).as_deref(),
            Some("DROP TABLE users;")
        );
        assert_eq!(
            printed(&["%s %s\\n", "a", "b", "c"]).as_deref(),
            Some("a b\nc \n")
        );
        assert_eq!(printed(&["%b", "rm\\x20-rf"]).as_deref(), Some("rm -rf"));
        assert_eq!(printed(&["%s", "\\x41"]).as_deref(), Some("\\x41"));
        assert_eq!(
            printed(&["[%5s|%-3s]", "ab", "c"]).as_deref(),
            Some("[   ab|c  ]")
        );
        assert_eq!(printed(&["%d%%", "42"]).as_deref(), Some("42%"));
        assert_eq!(printed(&["%c%c", "rx", "mx"]).as_deref(), Some("rm"));
        assert_eq!(printed(&["it's %s", "x"]).as_deref(), Some("it's x"));
        assert_eq!(printed(&["plain"]).as_deref(), Some("plain"));
        assert_eq!(printed(&["%s"]).as_deref(), Some(""));
    }

    fn builtin(program: &str, words: &[&str]) -> Option<String> {
        let words: Vec<String> = words.iter().map(|word| (*word).to_owned()).collect();
        super::printed(program, &words)
    }

    /// Each expected text is what bash 5's `echo` and `printf` print, without the line break.
    #[test]
    fn words_like_options_are_printed_as_bash_does() {
        assert_eq!(
            builtin("echo", &["push", "-f", "origin"]).as_deref(),
            Some("push -f origin")
        );
        assert_eq!(builtin("echo", &["-9", "-1"]).as_deref(), Some("-9 -1"));
        assert_eq!(
            builtin("echo", &["-n", "-e", "a\\x62"]).as_deref(),
            Some("ab")
        );
        assert_eq!(
            builtin("echo", &["-neE", "a\\x62"]).as_deref(),
            Some("a\\x62")
        );
        assert_eq!(builtin("echo", &["--", "-n"]).as_deref(), Some("-- -n"));
        assert_eq!(builtin("echo", &["-", "x"]).as_deref(), Some("- x"));
        assert_eq!(builtin("echo", &["-nx", "y"]).as_deref(), Some("-nx y"));
        assert_eq!(
            builtin("printf", &["%s ", "-9", "-1"]).as_deref(),
            Some("-9 -1 ")
        );
        assert_eq!(
            builtin("printf", &["--", "%s", "-f"]).as_deref(),
            Some("-f")
        );
        assert_eq!(builtin("printf", &["-v", "x", "%s", "y"]), None);
    }

    fn assigned(words: &[&str]) -> Option<(String, String)> {
        let words: Vec<String> = words.iter().map(|word| (*word).to_owned()).collect();
        super::assigned(&words, |word| word.starts_with('\0'))
            .map(|(name, value)| (name.to_owned(), value))
    }

    /// Each expected value is what bash 5's `printf -v q …; declare -p q` shows.
    #[test]
    fn printf_v_sets_what_it_would_print() {
        let set = |name: &str, value: &str| Some((name.to_owned(), value.to_owned()));
        assert_eq!(
            assigned(&["-v", "q", "%s %s %s", "DROP", "TABLE", "users"]),
            set("q", "DROP TABLE users")
        );
        assert_eq!(assigned(&["-vq", "%s-", "a", "b"]), set("q", "a-b-"));
        assert_eq!(assigned(&["-v", "q", "--", "%d", "7"]), set("q", "7"));
        assert_eq!(assigned(&["-v", "q", "plain"]), set("q", "plain"));
        assert_eq!(assigned(&["-v", "q", "%q", "x"]), None);
        assert_eq!(assigned(&["-v", "q", "%s", "\0sx\0\0y"]), None);
        assert_eq!(assigned(&["%s", "x"]), None);
        assert_eq!(assigned(&["-v", "q"]), None);
    }

    /// Each expected text is what bash 5.2 prints: `%b` takes `\0NNN` (three digits after
    /// the `0`) and `\NNN`, the format `\NNN` (three digits in all), `echo -e` `\0NNN` alone;
    /// `\c` in `%b` or `echo -e` ends the output (bash manual, "Bash Builtins").
    #[test]
    fn octal_escapes_and_stops_as_bash_reads_them() {
        assert_eq!(
            printed(&["%b", "\\0162\\0155\\0040\\0055\\0162\\0146"]).as_deref(),
            Some("rm -rf")
        );
        assert_eq!(printed(&["%b", "\\162\\155"]).as_deref(), Some("rm"));
        assert_eq!(printed(&["\\0162"]).as_deref(), Some("\u{e}2"));
        assert_eq!(printed(&["\\162\\155"]).as_deref(), Some("rm"));
        assert_eq!(
            builtin("echo", &["-e", "\\0162\\0155"]).as_deref(),
            Some("rm")
        );
        assert_eq!(
            builtin("echo", &["-e", "\\162m"]).as_deref(),
            Some("\\162m")
        );
        assert_eq!(builtin("echo", &["-e", "rm\\c -rf"]).as_deref(), Some("rm"));
        assert_eq!(printed(&["%b|", "a\\cb", "c"]).as_deref(), Some("a"));
        assert_eq!(printed(&["a\\cb"]).as_deref(), Some("a\\cb"));
        assert_eq!(printed(&["%b", "\\u0072\\x6d"]).as_deref(), Some("rm"));
        assert_eq!(printed(&["%b", "\\q\\'"]).as_deref(), Some("\\q\\'"));
        assert_eq!(printed(&["\\q\\'"]).as_deref(), Some("\\q'"));
        assert_eq!(printed(&["%b", "\\x"]).as_deref(), Some("\\x"));
    }

    /// Each expected text is what bash 5.2's `printf %d` prints for the argument: octal after
    /// a `0`, hexadecimal after `0x`, a character's code after a quote.
    #[test]
    fn numbers_are_read_as_bash_reads_them() {
        assert_eq!(printed(&["%d", "010"]).as_deref(), Some("8"));
        assert_eq!(printed(&["%d", "0x1f"]).as_deref(), Some("31"));
        assert_eq!(printed(&["%d", "'A"]).as_deref(), Some("65"));
        assert_eq!(printed(&["%d", "-7"]).as_deref(), Some("-7"));
        assert_eq!(printed(&["%d", " 12"]).as_deref(), Some("12"));
        assert_eq!(printed(&["%d"]).as_deref(), Some("0"));
        assert_eq!(printed(&["%d", "-"]), None);
        assert_eq!(printed(&["%d", "09"]), None);
    }

    /// The home, kept as `~` or `$HOME`, printed where a word starts reads back as the home
    /// bash printed there (`printf '%s\0' ~` prints `/home/me` and a NUL).
    #[test]
    fn the_home_starts_a_word_as_printed() {
        assert_eq!(printed(&["%s\\0", "~"]).as_deref(), Some("~\0"));
        assert_eq!(
            printed(&["%s\\0", "$HOME", "~/.ssh"]).as_deref(),
            Some("$HOME\0~/.ssh\0")
        );
        assert_eq!(printed(&["rm -rf %s", "~"]).as_deref(), Some("rm -rf ~"));
        assert_eq!(printed(&["k=%s", "~"]).as_deref(), Some("k=~"));
    }

    #[test]
    fn an_output_only_run_time_knows_is_none() {
        assert_eq!(printed(&["/%s", "~"]), None);
        assert_eq!(printed(&["x%s", "$HOME/.ssh"]), None);
        assert_eq!(printed(&["%c", "~"]), None);
        assert_eq!(printed(&["%9s", "~"]), None);
        assert_eq!(printed(&["%q", "x"]), None);
        assert_eq!(printed(&["%d", "x"]), None);
        assert_eq!(printed(&["%x", "10"]), None);
        assert_eq!(printed(&["%05d", "1"]), None);
        assert_eq!(printed(&["%"]), None);
        assert_eq!(printed(&["%99999999s", "x"]), None);
    }
}
