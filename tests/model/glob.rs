//! Globs as docs/language.md §4.4 defines them, over characters (docs/semantics.md): `*` any
//! run of characters, `?` one character, `[abc]`, `[a-z]` and `[!a]` one character of a
//! class, `\` the next character literally; the whole text must match.

#![allow(clippy::indexing_slicing, reason = "a test model over bounded tables")]

/// One element of a pattern
#[derive(Debug, Clone)]
enum Piece {
    Star,
    One,
    Char(char),
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

fn pieces(pattern: &str) -> Vec<Piece> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' => out.push(Piece::Star),
            '?' => out.push(Piece::One),
            '\\' if i + 1 < chars.len() => {
                i += 1;
                out.push(Piece::Char(chars[i]));
            }
            '[' => {
                let mut j = i + 1;
                let negated = chars.get(j) == Some(&'!');
                if negated {
                    j += 1;
                }
                let mut ranges = Vec::new();
                let mut first = true;
                while j < chars.len() && (chars[j] != ']' || first) {
                    first = false;
                    let low = chars[j];
                    if chars.get(j + 1) == Some(&'-') && chars.get(j + 2).is_some_and(|c| *c != ']')
                    {
                        ranges.push((low, chars[j + 2]));
                        j += 3;
                    } else {
                        ranges.push((low, low));
                        j += 1;
                    }
                }
                out.push(Piece::Class { negated, ranges });
                i = j;
            }
            other => out.push(Piece::Char(other)),
        }
        i += 1;
    }
    out
}

/// Whether `text` matches `pattern` as a whole
pub fn matches(pattern: &str, text: &str) -> bool {
    let text: Vec<char> = text.chars().collect();
    matches_pieces(&pieces(pattern), &text, one)
}

/// Whether `pieces` match `text` as a whole, `one` telling whether a piece other than a
/// star matches one character
fn matches_pieces(pieces: &[Piece], text: &[char], one: fn(&Piece, char) -> bool) -> bool {
    // can[i][j]: pieces[i..] match text[j..]; filled from the end, no backtracking blowup.
    let mut can = vec![vec![false; text.len() + 1]; pieces.len() + 1];
    can[pieces.len()][text.len()] = true;
    for i in (0..pieces.len()).rev() {
        for j in (0..=text.len()).rev() {
            can[i][j] = match &pieces[i] {
                Piece::Star => can[i + 1][j] || (j < text.len() && can[i][j + 1]),
                piece => j < text.len() && one(piece, text[j]) && can[i + 1][j + 1],
            };
        }
    }
    can[0][0]
}

fn one(piece: &Piece, ch: char) -> bool {
    match piece {
        Piece::Star => false,
        Piece::One => true,
        Piece::Char(c) => *c == ch,
        Piece::Class { negated, ranges } => {
            ranges.iter().any(|(low, high)| *low <= ch && ch <= *high) != *negated
        }
    }
}

/// `text` case folded: each character's uppercase, then that lowercase
pub fn fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_uppercase)
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `text` matches `pattern` ignoring case (`~*`): the characters the pattern
/// matches as themselves and the text compare case folded, and a class holds a character
/// when it holds the character or one of its other cases
pub fn matches_ignoring_case(pattern: &str, text: &str) -> bool {
    let pieces: Vec<Piece> = pieces(pattern)
        .into_iter()
        .flat_map(|piece| match piece {
            Piece::Char(c) => fold(&c.to_string()).chars().map(Piece::Char).collect(),
            other => vec![other],
        })
        .collect();
    let text: Vec<char> = fold(text).chars().collect();
    matches_pieces(&pieces, &text, one_any_case)
}

fn one_any_case(piece: &Piece, ch: char) -> bool {
    match piece {
        Piece::Class { negated, ranges } => {
            let cases: Vec<char> = std::iter::once(ch)
                .chain(ch.to_uppercase())
                .chain(ch.to_lowercase())
                .collect();
            cases
                .iter()
                .any(|c| ranges.iter().any(|(low, high)| low <= c && c <= high))
                != *negated
        }
        other => one(other, ch),
    }
}
