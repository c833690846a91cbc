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

/// The inside of `$'...'`: C escapes (`\n`, `\x6d`, `\155`, `\u006d`)
pub(crate) fn ansi_c(chars: &mut Chars<'_>, out: &mut String) {
    while let Some(ch) = chars.next() {
        match ch {
            '\'' => return,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('e' | 'E') => out.push('\u{1b}'),
                Some('a') => out.push('\u{7}'),
                Some('b') => out.push('\u{8}'),
                Some('x') => push_code(chars, out, 16, 2),
                Some('u') => push_code(chars, out, 16, 4),
                Some('U') => push_code(chars, out, 16, 8),
                Some(digit @ '0'..='7') => {
                    let mut value = digit.to_digit(8).unwrap_or(0);
                    for _ in 0..2 {
                        match chars.peek().and_then(|next| next.to_digit(8)) {
                            Some(next) => {
                                value = value * 8 + next;
                                chars.next();
                            }
                            None => break,
                        }
                    }
                    out.extend(char::from_u32(value));
                }
                Some(other) => out.push(other),
                None => {}
            },
            other => out.push(other),
        }
    }
}

/// Up to `max` digits of base `radix` as one character
fn push_code(chars: &mut Chars<'_>, out: &mut String, radix: u32, max: usize) {
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
    out.extend(char::from_u32(value));
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
