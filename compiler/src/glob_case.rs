//! W026 `glob-spells-both-cases`: a `~` glob that spells a letter in both cases by hand
//! (`*[Ii]nvite*`), where `~*` ignores case for every letter, the ones the author forgot too.

/// The glob to write after `~*` when `glob` holds a class of one letter in both cases
/// (`[Ii]`, `[iI]`): each such class becomes its letter; `None` when it holds none
pub(crate) fn spelt_both_cases(glob: &str) -> Option<String> {
    let chars: Vec<char> = glob.chars().collect();
    let mut rewritten = String::with_capacity(glob.len());
    let mut found = false;
    let mut at = 0;
    while let Some(&ch) = chars.get(at) {
        if ch == '\\' {
            rewritten.push(ch);
            rewritten.extend(chars.get(at + 1));
            at += 2;
            continue;
        }
        if let (Some(&'['), Some(&first), Some(&second), Some(&']')) = (
            Some(&ch),
            chars.get(at + 1),
            chars.get(at + 2),
            chars.get(at + 3),
        ) {
            if first != second
                && first.is_alphabetic()
                && first.to_lowercase().eq(second.to_lowercase())
            {
                rewritten.extend(first.to_lowercase());
                found = true;
                at += 4;
                continue;
            }
        }
        rewritten.push(ch);
        at += 1;
    }
    found.then_some(rewritten)
}

/// Whether a glob holds what reads as shell-style alternation, `{a,b}`: an unescaped `{`
/// with an unescaped `,` and then `}` after it, which a rulesc glob matches literally
pub(crate) fn has_brace_alternation(glob: &str) -> bool {
    let mut chars = glob.chars();
    let mut open = false;
    let mut comma = false;
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => {
                chars.next();
            }
            '{' => (open, comma) = (true, false),
            ',' if open => comma = true,
            '}' if open && comma => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::spelt_both_cases;

    #[test]
    fn a_class_of_one_letter_in_both_cases_is_found() {
        assert_eq!(spelt_both_cases("*[Ii]nvite*").as_deref(), Some("*invite*"));
        assert_eq!(
            spelt_both_cases("[Ss][Ee]cret*").as_deref(),
            Some("secret*")
        );
        assert_eq!(spelt_both_cases("*[Éé]t*").as_deref(), Some("*ét*"));
    }

    #[test]
    fn other_classes_and_escapes_are_not() {
        assert_eq!(spelt_both_cases("*[ab]*"), None);
        assert_eq!(spelt_both_cases("*[AB]*"), None);
        assert_eq!(spelt_both_cases("*[ii]*"), None);
        assert_eq!(spelt_both_cases("*[12]*"), None);
        assert_eq!(spelt_both_cases(r"\[Ii]*"), None);
        assert_eq!(spelt_both_cases("[!Ii]*"), None);
    }
}
