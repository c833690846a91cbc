//! Arithmetic expansion of literals, `$((...))`, as bash computes it: 64-bit integers that
//! wrap, division that truncates toward zero. Only integers, `+ - * / %`, unary `-` and `+`,
//! parentheses and variables the line set to an integer are computed; anything else (a
//! variable set elsewhere, `$RANDOM`, an assignment, `++`, a comparison, division by zero,
//! which is an error that stops the line) is known only at run time, `None`.

/// Deeper parentheses than this are left to run time: no line needs them
const MAX_DEPTH: usize = 32;

/// The value of the arithmetic expression `text`, where `value_of` gives the integer text a
/// variable was set to on the line; `None` when only run time knows it
pub(crate) fn evaluate(text: &str, value_of: &dyn Fn(&str) -> Option<String>) -> Option<i64> {
    // `++` and `--` are increments to bash wherever a variable is near; never guessed.
    if text.contains("++") || text.contains("--") {
        return None;
    }
    let mut parser = Parser {
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
        value_of,
    };
    let value = parser.sum()?;
    parser.blanks();
    (parser.at == parser.bytes.len()).then_some(value)
}

/// The names the arithmetic expression `text` assigns (`q=1`, `n+=2`, `a[i]<<=1`, `++i`,
/// `j--`), as bash's `let` and `((…))` do; a comparison (`==`, `<=`) assigns nothing
pub(crate) fn assigned_names(text: &str) -> Vec<&str> {
    const OPERATORS: [&str; 12] = [
        "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
    ];
    let mut names = Vec::new();
    let mut at = 0;
    while let Some(start) = text
        .get(at..)
        .and_then(|rest| rest.find(|ch: char| ch.is_ascii_alphabetic() || ch == '_'))
        .map(|found| at + found)
    {
        let tail = text.get(start..).unwrap_or_default();
        let end = start
            + tail
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .unwrap_or(tail.len());
        let name = text.get(start..end).unwrap_or_default();
        // A digit before it makes it part of a number (`0x1f`, `2#101`).
        let in_number = text
            .get(..start)
            .and_then(|before| before.chars().next_back())
            .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '#');
        let mut after = text.get(end..).unwrap_or_default().trim_start();
        // An element of an array (`a[i]=1`) assigns the array.
        if let Some(index) = after.strip_prefix('[') {
            after = index.find(']').map_or("", |close| {
                index.get(close + 1..).unwrap_or_default().trim_start()
            });
        }
        let before = text.get(..start).unwrap_or_default().trim_end();
        let assigns = (after.starts_with('=') && !after.starts_with("=="))
            || OPERATORS.iter().any(|operator| after.starts_with(operator))
            || before.ends_with("++")
            || before.ends_with("--");
        if assigns && !in_number && !names.contains(&name) {
            names.push(name);
        }
        at = end;
    }
    names
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
    value_of: &'a dyn Fn(&str) -> Option<String>,
}

impl<'a> Parser<'a> {
    fn blanks(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|byte| byte.is_ascii_whitespace())
        {
            self.at += 1;
        }
    }

    /// The next byte after blanks, consumed when it is one of `operators`
    fn operator(&mut self, operators: &[u8]) -> Option<u8> {
        self.blanks();
        let byte = *self.bytes.get(self.at)?;
        operators.contains(&byte).then(|| {
            self.at += 1;
            byte
        })
    }

    fn sum(&mut self) -> Option<i64> {
        let mut value = self.product()?;
        while let Some(operator) = self.operator(b"+-") {
            let right = self.product()?;
            value = match operator {
                b'+' => value.wrapping_add(right),
                _ => value.wrapping_sub(right),
            };
        }
        Some(value)
    }

    fn product(&mut self) -> Option<i64> {
        let mut value = self.unary()?;
        while let Some(operator) = self.operator(b"*/%") {
            let right = self.unary()?;
            value = match operator {
                b'*' => value.wrapping_mul(right),
                // Division by zero stops the line with an error; bash gives i64::MIN for
                // i64::MIN / -1 and 0 for its remainder, as the wrapping forms do.
                _ if right == 0 => return None,
                b'/' => value.wrapping_div(right),
                _ => value.wrapping_rem(right),
            };
        }
        Some(value)
    }

    fn unary(&mut self) -> Option<i64> {
        match self.operator(b"+-") {
            Some(b'-') => self.nested(Self::unary).map(i64::wrapping_neg),
            Some(_) => self.nested(Self::unary),
            None => self.primary(),
        }
    }

    fn nested(&mut self, inner: fn(&mut Self) -> Option<i64>) -> Option<i64> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let value = inner(self);
        self.depth -= 1;
        value
    }

    fn primary(&mut self) -> Option<i64> {
        self.blanks();
        let byte = *self.bytes.get(self.at)?;
        if byte == b'(' {
            self.at += 1;
            let value = self.nested(Self::sum)?;
            return self.operator(b")").and(Some(value));
        }
        if byte.is_ascii_digit() {
            let number = self.word(|byte| byte.is_ascii_alphanumeric());
            if self.bytes.get(self.at) == Some(&b'#') {
                self.at += 1;
                let digits =
                    self.word(|byte| byte.is_ascii_alphanumeric() || byte == b'@' || byte == b'_');
                return in_base(number, digits);
            }
            return integer(number);
        }
        // `$n` and `${n}` are the text of `n`, which is an integer here, as is `n` itself.
        let braced = self.bytes.get(self.at..self.at + 2) == Some(b"${");
        if braced {
            self.at += 2;
        } else if byte == b'$' {
            self.at += 1;
        }
        let name = self.word(|byte| byte.is_ascii_alphanumeric() || byte == b'_');
        if name.is_empty() || name.starts_with(|ch: char| ch.is_ascii_digit()) {
            return None;
        }
        if braced && self.operator(b"}").is_none() {
            return None;
        }
        let value = (self.value_of)(name)?;
        let value = value.trim();
        let (negative, digits) = match value.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, value.strip_prefix('+').unwrap_or(value)),
        };
        let magnitude = integer(digits)?;
        Some(if negative {
            magnitude.wrapping_neg()
        } else {
            magnitude
        })
    }

    /// The run of bytes from here that `keep` accepts
    fn word(&mut self, keep: fn(u8) -> bool) -> &'a str {
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(|byte| keep(*byte)) {
            self.at += 1;
        }
        let bytes: &'a [u8] = self.bytes;
        std::str::from_utf8(bytes.get(start..self.at).unwrap_or_default()).unwrap_or_default()
    }
}

/// `BASE#DIGITS` as bash(1) reads it (Arithmetic Evaluation): a decimal base from 2 to 64,
/// digits past 9 the lowercase letters, the uppercase letters, `@` and `_`, in that order,
/// the two cases alike up to base 36; wrapping past 64 bits. An error is `None`.
fn in_base(base: &str, digits: &str) -> Option<i64> {
    let base = base
        .parse::<u32>()
        .ok()
        .filter(|base| (2..=64).contains(base) && !digits.is_empty())?;
    digits.bytes().try_fold(0i64, |value, byte| {
        let digit = match byte {
            b'0'..=b'9' => u32::from(byte - b'0'),
            b'a'..=b'z' => u32::from(byte - b'a') + 10,
            b'A'..=b'Z' if base <= 36 => u32::from(byte - b'A') + 10,
            b'A'..=b'Z' => u32::from(byte - b'A') + 36,
            b'@' => 62,
            _ => 63,
        };
        (digit < base).then(|| {
            value
                .wrapping_mul(i64::from(base))
                .wrapping_add(i64::from(digit))
        })
    })
}

/// An integer constant as bash reads one: decimal, octal after `0`, hexadecimal after `0x`,
/// wrapping past 64 bits; a digit out of its base is an error, `None`
fn integer(text: &str) -> Option<i64> {
    let (digits, radix) =
        if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            (hex, 16)
        } else if text.len() > 1 && text.starts_with('0') {
            (text.get(1..)?, 8)
        } else {
            (text, 10)
        };
    if digits.is_empty() {
        return None;
    }
    digits.chars().try_fold(0i64, |value, ch| {
        let digit = ch.to_digit(radix)?;
        Some(
            value
                .wrapping_mul(i64::from(radix))
                .wrapping_add(i64::from(digit)),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{assigned_names, evaluate};

    /// bash(1), Arithmetic Evaluation: `=` and the `op=` operators assign, as do `++` and
    /// `--` on either side; `==`, `<=`, `>=` and `!=` compare.
    #[test]
    fn names_assigned_are_those_bash_assigns() {
        let cases: &[(&str, &[&str])] = &[
            ("q=1", &["q"]),
            ("n += 2", &["n"]),
            ("++i, j--", &["i", "j"]),
            ("a[k]<<=1", &["a"]),
            ("a=b=c+d", &["a", "b"]),
            ("x==1 || y<=2 || z!=3 || w>=4", &[]),
            ("0x1f + 2#101", &[]),
        ];
        for (text, expected) in cases {
            assert_eq!(assigned_names(text), *expected, "{text}");
        }
    }

    fn set(name: &str) -> Option<String> {
        match name {
            "n" => Some("-1".to_owned()),
            "m" => Some(" 7 ".to_owned()),
            "k" => Some("1+2".to_owned()),
            _ => None,
        }
    }

    /// Each value is what bash 5.2 prints for `echo $((TEXT))` after `n=-1 m=" 7 " k=1+2`;
    /// `None` where bash stops with an error or the value is not the line's own
    #[test]
    fn computes_as_bash_does() {
        let cases: &[(&str, Option<i64>)] = &[
            ("-1", Some(-1)),
            ("- -1", Some(1)),
            ("2 * (3 + 4)", Some(14)),
            (" 1 +\n2 ", Some(3)),
            ("7/-2", Some(-3)),
            ("-7%3", Some(-1)),
            ("010", Some(8)),
            ("0x1f", Some(31)),
            ("2#10", Some(2)),
            ("16#ff", Some(255)),
            ("16#FF", Some(255)),
            ("36#Z", Some(35)),
            ("64#A", Some(36)),
            ("64#z", Some(35)),
            ("64#@", Some(62)),
            ("64#_", Some(63)),
            ("8#17", Some(15)),
            ("10#099", Some(99)),
            ("9223372036854775807+1", Some(i64::MIN)),
            ("9223372036854775808", Some(i64::MIN)),
            ("99999999999999999999", Some(7_766_279_631_452_241_919)),
            ("(-9223372036854775807-1) / -1", Some(i64::MIN)),
            ("(-9223372036854775807-1) % -1", Some(0)),
            ("5-n", Some(6)),
            ("5-$n", Some(6)),
            ("-${n}", Some(1)),
            ("m*2", Some(14)),
            // Errors: bash stops the line.
            ("1/0", None),
            ("1%(2-2)", None),
            ("08", None),
            ("2#12", None),
            ("1#1", None),
            ("65#1", None),
            ("2#", None),
            ("0#1", None),
            ("(1", None),
            ("1)", None),
            // Known only at run time, or not computed here.
            ("RANDOM", None),
            ("x", None),
            ("k*2", None),
            ("$k*2", None),
            ("n=1", None),
            ("n++", None),
            ("--1", None),
            ("2**3", None),
            ("1<2", None),
            ("$(id -u)", None),
            ("", None),
        ];
        for (text, expected) in cases {
            assert_eq!(evaluate(text, &set), *expected, "$(({text}))");
        }
    }

    #[test]
    fn deep_parentheses_are_left_to_run_time() {
        let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
        assert_eq!(evaluate(&deep, &set), None);
        let minus = "- ".repeat(10_000) + "1";
        assert_eq!(evaluate(&minus, &set), None);
    }
}
