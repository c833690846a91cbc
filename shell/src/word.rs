//! Quote removal: a word as the program it names receives it. Parameter expansions and
//! substitutions stay as written (`$HOME`, `$(date)`), since their values are only known
//! when the command runs.

/// The word `raw` (its source text) after quote removal and escape processing
pub(crate) fn unquote(raw: &str) -> String {
    // Most words quote nothing: they are themselves, copied at once.
    if !raw
        .bytes()
        .any(|byte| matches!(byte, b'\\' | b'\'' | b'"' | b'$'))
    {
        return raw.to_owned();
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(escaped) => out.push(escaped),
            },
            '\'' => out.extend(chars.by_ref().take_while(|ch| *ch != '\'')),
            '"' => double_quoted(&mut chars, &mut out),
            // `$"..."` is translated by the locale's message catalog: with none, it is
            // the string itself, as bash runs it for an agent.
            '$' if chars.peek() == Some(&'"') => {
                chars.next();
                double_quoted(&mut chars, &mut out);
            }
            '$' if chars.peek() == Some(&'\'') => {
                chars.next();
                ansi_c(&mut chars, &mut out);
            }
            '$' if chars.peek() == Some(&'(') => {
                out.push('$');
                verbatim_group(&mut chars, &mut out);
            }
            other => out.push(other),
        }
    }
    out
}

pub(crate) type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// The inside of `"..."`: a backslash escapes only `$`, `` ` ``, `"`, `\` and a newline
fn double_quoted(chars: &mut Chars<'_>, out: &mut String) {
    while let Some(ch) = chars.next() {
        match ch {
            '"' => return,
            '\\' => match chars.peek() {
                Some('\n') => {
                    chars.next();
                }
                Some(&next @ ('$' | '`' | '"' | '\\')) => {
                    chars.next();
                    out.push(next);
                }
                _ => out.push('\\'),
            },
            '$' if chars.peek() == Some(&'(') => {
                out.push('$');
                verbatim_group(chars, out);
            }
            other => out.push(other),
        }
    }
}

/// A `$(...)` group copied as written, up to its matching parenthesis
fn verbatim_group(chars: &mut Chars<'_>, out: &mut String) {
    let mut depth = 0usize;
    for ch in chars.by_ref() {
        out.push(ch);
        match ch {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return;
                }
            }
            _ => {}
        }
    }
}

/// The inside of `$'...'`: C escapes (`\n`, `\x6d`, `\155`, `\u006d`, `\cA`). A NUL
/// (`\0`, `\x00`, `\c@`) ends the text bash keeps of it, as a C string ends: `$'rm\0x'`
/// is `rm`.
pub(crate) fn ansi_c(chars: &mut Chars<'_>, out: &mut String) {
    let mut ended = false;
    let mut keep = |decoded: char, out: &mut String| {
        if decoded == '\0' {
            ended = true;
        } else if !ended {
            out.push(decoded);
        }
    };
    while let Some(ch) = chars.next() {
        if ch == '\'' {
            return;
        }
        if ch != '\\' {
            keep(ch, out);
            continue;
        }
        let Some(escape) = chars.next() else {
            keep('\\', out);
            continue;
        };
        let decoded = match escape {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'v' => Some('\u{b}'),
            'f' => Some('\u{c}'),
            'e' | 'E' => Some('\u{1b}'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            '\\' | '\'' | '"' | '?' => Some(escape),
            'x' => code(chars, 16, 2),
            'u' => code(chars, 16, 4),
            'U' => code(chars, 16, 8),
            // `\c` before the closing quote controls nothing.
            'c' => chars.next_if(|&next| next != '\'').map(control),
            '0'..='7' => {
                let mut value = escape.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|next| next.to_digit(8)) {
                        Some(next) => {
                            value = value * 8 + next;
                            chars.next();
                        }
                        None => break,
                    }
                }
                char::from_u32(value)
            }
            _ => None,
        };
        match decoded {
            Some(decoded) => keep(decoded, out),
            // An escape bash does not know (`\q`, `\x` with no digit) stays as written.
            None => {
                keep('\\', out);
                keep(escape, out);
            }
        }
    }
}

/// The character `\cX` stands for in `$'...'`: control-X (`\c?` is DEL)
fn control(ch: char) -> char {
    if ch == '?' {
        return '\u{7f}';
    }
    let upper = ch.to_ascii_uppercase();
    if upper.is_ascii() {
        char::from(upper as u8 & 0x1f)
    } else {
        upper
    }
}

/// Up to `max` digits of base `radix` as one character; `None` when none follows
fn code(chars: &mut Chars<'_>, radix: u32, max: usize) -> Option<char> {
    chars.peek().and_then(|next| next.to_digit(radix))?;
    let mut value = 0u32;
    for _ in 0..max {
        match chars.peek().and_then(|next| next.to_digit(radix)) {
            Some(digit) => {
                value = value.saturating_mul(radix).saturating_add(digit);
                chars.next();
            }
            None => break,
        }
    }
    char::from_u32(value)
}

#[cfg(test)]
mod tests {
    use super::unquote;

    #[test]
    fn removes_quotes_and_escapes_as_bash_does() {
        let cases = [
            (r#""rm""#, "rm"),
            (r"'rm'", "rm"),
            (r#"r"m""#, "rm"),
            (r"r''m", "rm"),
            (r"r\m", "rm"),
            (r"\rm", "rm"),
            ("r\\\nm", "rm"),
            (r"$'r\x6d'", "rm"),
            (r"$'\162\155'", "rm"),
            // bash keeps a `$'...'` up to its first NUL, and goes on after the quote.
            (r"$'rm\0harmless'", "rm"),
            (r"x$'a\x00b'y", "xay"),
            (r"$'sh\c@ellcheck'", "sh"),
            (r"$'\u0000b'", ""),
            (r"$'\cA\c?'", "\u{1}\u{7f}"),
            (r"$'a\xg\q\c'", r"a\xg\q\c"),
            (r#""a\b\"c\\""#, r#"a\b"c\"#),
            (r#""$HOME"/x"#, "$HOME/x"),
            (r#""$(echo "a b")""#, r#"$(echo "a b")"#),
            (r"'it''s'", "its"),
            ("src/main.rs", "src/main.rs"),
            ("a\nb", "a\nb"),
        ];
        for (raw, expected) in cases {
            assert_eq!(unquote(raw), expected, "{raw}");
        }
    }
}
