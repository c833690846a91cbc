//! Text bash evaluates again after expanding it, so that a command substitution written
//! inside quotes still runs: arithmetic (`(( ))`, `$(( ))`, `let`, `[[ x -eq y ]]`, array
//! subscripts, substring offsets, integer variables), names with subscripts (`test -v`,
//! `read`, `printf -v`, `unset`), indirection (`${!x}`) and prompts (`${x@P}`, `PS4`).
//! `let 'a[$(rm -rf ~)]'` runs `rm`: bash expands the subscript when it evaluates it.
//!
//! The reader does not follow text from where it is written to where it is evaluated (a
//! variable, a function's argument, a file), so it judges the line as a whole: a line that
//! both holds text with a command substitution in it and a place that evaluates text is
//! unknown. Text a command takes as a script (`bash -c '...'`, `eval`) is read as one, and
//! does not count.

use crate::expand::UnknownWord;
use crate::knowledge::{self, Evaluation};

/// What a reading found of text that holds a substitution, and of places that evaluate text
#[derive(Debug, Default)]
pub(crate) struct Evaluated {
    /// The first text seen holding a command substitution, as the line spells it
    text: Option<String>,
    /// The first place seen that evaluates text, in words
    place: Option<&'static str>,
}

/// The longest text a message quotes
const QUOTED: usize = 60;

impl Evaluated {
    /// Notes a value the line holds: a word, a variable's value, a command's input
    pub(crate) fn text(&mut self, word: &str) {
        if self.text.is_some() {
            return;
        }
        // Most words are known and hold no substitution: they are looked at, not copied.
        let known = UnknownWord::known_prefix(word).unwrap_or(word);
        if holds_substitution(known) {
            self.text = Some(quoted(known));
        }
    }

    /// Notes a place that evaluates text
    pub(crate) fn place(&mut self, place: Option<&'static str>) {
        if self.place.is_none() {
            self.place = place;
        }
    }

    /// Why the line is unknown, when it holds both
    pub(crate) fn why(&self) -> Option<String> {
        let (text, place) = (self.text.as_ref()?, self.place?);
        Some(format!(
            "`{text}` holds a command substitution, which bash runs if the text reaches {place} on this line"
        ))
    }
}

/// Whether `text` holds a command substitution bash would run if it evaluated the text
fn holds_substitution(text: &str) -> bool {
    // One search for both bytes: `contains("$(")` sets a searcher up for every word, and
    // most words hold neither.
    let bytes = text.as_bytes();
    memchr::memchr2_iter(b'`', b'$', bytes)
        .any(|at| bytes.get(at) == Some(&b'`') || bytes.get(at + 1) == Some(&b'('))
}

/// `text`, cut to [`QUOTED`] characters
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((end, _)) => format!("{}...", text.get(..end).unwrap_or(text)),
        None => text.to_owned(),
    }
}

/// The place a syntax node of this kind and text is, if it evaluates text
pub(crate) fn node_place(kind: &str, text: &str) -> Option<&'static str> {
    match kind {
        "arithmetic_expansion" | "c_style_for_statement" => Some(ARITHMETIC),
        "compound_statement" if text.starts_with("((") => Some(ARITHMETIC),
        "subscript" => Some(SUBSCRIPT),
        "test_command" => test_place(text.split_whitespace()),
        "expansion" => expansion_place(text),
        "variable_assignment" => {
            let name = text.split_once('=').map_or(text, |(name, _)| name);
            PROMPTS.contains(&name).then_some(PROMPT)
        }
        "declaration_command" => declaration_place(text.split_whitespace().skip(1)),
        "unset_command" => text.contains('[').then_some(NAME),
        _ => None,
    }
}

/// The place a simple command is, if it evaluates text it is given
pub(crate) fn command_place(program: &str, args: &[String]) -> Option<&'static str> {
    let subscripted = || args.iter().any(|arg| arg.contains('['));
    match program {
        "let" => Some(ARITHMETIC),
        "test" | "[" => test_place(args.iter().map(String::as_str)),
        "declare" | "typeset" | "local" | "readonly" | "export" => {
            declaration_place(args.iter().map(String::as_str))
        }
        "read" | "unset" | "printf" | "mapfile" | "readarray" | "wait" | "getopts"
            if subscripted() =>
        {
            Some(NAME)
        }
        _ if knowledge::builtin_code(program, args)
            .iter()
            .any(|(evaluation, _)| *evaluation == Evaluation::Expanded) =>
        {
            Some(WORD_LIST)
        }
        _ => None,
    }
}

const ARITHMETIC: &str = "arithmetic";
const SUBSCRIPT: &str = "an array's subscript";
const NAME: &str = "a variable's name with a subscript";
const PROMPT: &str = "a prompt";
const WORD_LIST: &str = "a word list `compgen -W` expands";

/// The variables bash expands as prompts
const PROMPTS: &[&str] = &["PS0", "PS1", "PS2", "PS4", "PROMPT_COMMAND"];

/// The operators of `test` and `[[ ]]` that evaluate their operands: `-v` a name, the
/// integer comparisons arithmetic (in `[[ ]]`; `test` is held to the same, to be safe)
fn test_place<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<&'static str> {
    words.find_map(|word| match word {
        "-v" => Some(NAME),
        "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" => Some(ARITHMETIC),
        _ => None,
    })
}

/// `declare -i` makes every value given to the name arithmetic; a name with a subscript is
/// evaluated as one, and so is the name a reference (`declare -n r='a[…]'`) is given, when
/// the reference is used
fn declaration_place<'a>(words: impl Iterator<Item = &'a str>) -> Option<&'static str> {
    let mut reference = false;
    for word in words {
        let flags = !word.starts_with("--") && (word.starts_with('-') || word.starts_with('+'));
        if flags && word.contains('i') {
            return Some(ARITHMETIC);
        }
        reference |= flags && word.contains('n');
        let (name, value) = word.split_once('=').unwrap_or((word, ""));
        if name.contains('[') || (reference && value.contains('[')) {
            return Some(SUBSCRIPT);
        }
    }
    None
}

/// The place a word's expansions are, if one evaluates text (`$(( x ))`, `${x@P}`): words
/// of a command are expanded from their text, not walked node by node
pub(crate) fn word_place(word: &str) -> Option<&'static str> {
    if word.contains("$((") || word.contains("$[") {
        return Some(ARITHMETIC);
    }
    word.match_indices("${")
        .find_map(|(at, _)| expansion_place(word.get(at..)?))
}

/// `${!x}` evaluates `x`'s value as a name, `${x@P}` as a prompt, `${x:off:len}` its
/// offsets as arithmetic
fn expansion_place(text: &str) -> Option<&'static str> {
    let inner = text.strip_prefix("${")?;
    if inner.starts_with('!') {
        return Some(NAME);
    }
    if inner.contains("@P") {
        return Some(PROMPT);
    }
    let after_name = inner.trim_start_matches(|ch: char| ch.is_ascii_alphanumeric() || ch == '_');
    let mut rest = after_name.chars();
    match (rest.next(), rest.next()) {
        (Some('['), _) => Some(SUBSCRIPT),
        (Some(':'), Some(next)) if !matches!(next, '-' | '=' | '?' | '+') => Some(ARITHMETIC),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| (*word).to_owned()).collect()
    }

    #[test]
    fn a_line_is_unknown_only_with_both_text_and_place() {
        let mut found = Evaluated::default();
        found.text("plain text");
        found.place(Some(ARITHMETIC));
        assert_eq!(found.why(), None);
        found.text("a[`id`]");
        assert!(found.why().is_some_and(|why| why.contains("a[`id`]")));

        let mut found = Evaluated::default();
        found.text("$(rm -rf ~)");
        assert_eq!(found.why(), None);
    }

    #[test]
    fn a_substitution_opens_with_dollar_parenthesis_or_a_backquote() {
        // bash(1), Command Substitution: `$(command)` or `` `command` ``.
        for text in ["$(", "a[$(id)]", "`", "x`", "`id` y", "\"$(id)\""] {
            assert!(holds_substitution(text), "{text}");
        }
        for text in ["", "$", "(", "$ (", "($", "${x}", "$((1))x"] {
            assert_eq!(holds_substitution(text), text.contains("$("), "{text}");
        }
    }

    #[test]
    fn places_are_found_in_syntax_and_commands() {
        assert_eq!(
            node_place("compound_statement", "(( x ))"),
            Some(ARITHMETIC)
        );
        assert_eq!(node_place("compound_statement", "{ x; }"), None);
        assert_eq!(
            node_place("test_command", "[[ $x -eq 0 ]]"),
            Some(ARITHMETIC)
        );
        assert_eq!(node_place("test_command", "[[ $x == 0 ]]"), None);
        assert_eq!(node_place("expansion", "${!x}"), Some(NAME));
        assert_eq!(node_place("expansion", "${x@P}"), Some(PROMPT));
        assert_eq!(node_place("expansion", "${x:1:2}"), Some(ARITHMETIC));
        assert_eq!(node_place("expansion", "${x:-/tmp}"), None);
        assert_eq!(node_place("variable_assignment", "PS4=$x"), Some(PROMPT));
        assert_eq!(node_place("variable_assignment", "PS=1"), None);
        assert_eq!(
            node_place("declaration_command", "local -ri n"),
            Some(ARITHMETIC)
        );
        assert_eq!(node_place("declaration_command", "declare -r n=1"), None);
        assert_eq!(word_place("\"${x@P}\""), Some(PROMPT));
        assert_eq!(word_place("n=$((x+1))"), Some(ARITHMETIC));
        assert_eq!(word_place("${a[i]}"), Some(SUBSCRIPT));
        assert_eq!(word_place("${HOME}/x${y:-z}"), None);
        assert_eq!(command_place("let", &[]), Some(ARITHMETIC));
        assert_eq!(command_place("test", &words(&["-v", "x"])), Some(NAME));
        assert_eq!(command_place("read", &words(&["-r", "a[1]"])), Some(NAME));
        assert_eq!(command_place("read", &words(&["-r", "line"])), None);
    }

    #[test]
    fn unknown_words_count_by_their_known_start() {
        let unknown = UnknownWord {
            prefix: "a[$(".to_owned(),
            suffix: String::new(),
            split: false,
            name: false,
            own_code: false,
            one_word: false,
            why: "`$(id)` is known at run time".to_owned(),
        };
        let mut found = Evaluated::default();
        found.text(&unknown.encode());
        found.place(Some(SUBSCRIPT));
        assert!(found.why().is_some());
    }
}
