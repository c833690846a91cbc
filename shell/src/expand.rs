//! Expansion of a word as bash does before a command runs: braces, `~`, `~+`, `~user`,
//! parameters set earlier on the line (`D=~; rm -rf "$D"`, `for d in a b`), `$PWD`, `$(pwd)`,
//! `$IFS`, `$(echo ...)` and `$(cat <<EOF ...)` of literal text, quote removal and field
//! splitting. What is only known at run time (a variable set elsewhere, the output of a
//! program) leaves the word unknown: it is kept apart, with the text known before it and
//! why it is unknown, so that a condition that tests it is undecidable rather than false.

use std::cell::Cell;

use crate::knowledge::{
    prints_a_name, prints_one_word, prints_own_code, NAME_VARIABLES, PROCESS_ID_PARAMETERS,
};
pub(crate) use crate::unknown_word::{is_unknown, UnknownWord};
use crate::word::ansi_c;
use crate::Context;

/// The most words one word may expand into (braces, loop variables, arrays, positional
/// parameters), and the most values a parameter or an array may hold: past it, the rest is
/// only known at run time, never dropped
pub(crate) const MAX_WORDS: usize = 1024;

/// The most bytes a word's expansions may make, its passes together, and a parameter's
/// values may hold: a value grown past it (`a=$a$a` over and over) is only known at run time
const MAX_EXPANDED_BYTES: usize = crate::limits::MAX_BYTES;

/// The most bytes the expansions of one reading may make, all its words together: a line
/// whose words each expand to many (`"${a[@]}"` ten thousand times) ends in words only
/// known at run time, in a time a hook can wait for
const MAX_READING_BYTES: usize = 8 * MAX_EXPANDED_BYTES;

/// What a parameter set on the line holds
#[derive(Debug, Clone)]
pub(crate) enum Binding {
    /// Its values: one, or one per pass of a `for` loop
    Known(Vec<String>),
    /// Only known at run time, and why
    Unknown(String),
    /// An array the line sets (`a=(x y)`, `declare -A m=([k]=v)`, `a[2]=z`)
    Array(Array),
    /// A reference to the variable of that name (`declare -n r=v`): `$r` is `$v`, and
    /// `r=x` sets `v`
    Reference(String),
}

/// How many references [`lookup`] follows: bash refuses a circle, the reader reads it as
/// unknown
const MAX_REFERENCES: usize = 8;

/// The binding the line gives `name` last, through the references it makes (`declare -n`):
/// `None` when it gives none, or the references run in a circle
pub(crate) fn lookup<'v>(vars: &'v Vars, name: &str) -> Option<&'v Binding> {
    let mut name = name;
    for _ in 0..MAX_REFERENCES {
        match vars.iter().rev().find(|(bound, _)| bound == name) {
            Some((_, Binding::Reference(target))) => name = target,
            found => return found.map(|(_, binding)| binding),
        }
    }
    None
}

/// The one value the line gives `name` last, when it is known whole
pub(crate) fn known_value(vars: &Vars, name: &str) -> Option<String> {
    match lookup(vars, name) {
        Some(Binding::Known(values)) => match values.as_slice() {
            [value] if !is_unknown(value) => Some(value.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The index an array's subscript names when the line gives it: a number, or arithmetic
/// holding a digit or a `$` of values it sets; `None` for a bare name, a key to an
/// associative array and arithmetic to an indexed one, which only the declaration tells apart
pub(crate) fn subscript_index(subscript: &str, vars: &Vars) -> Option<i64> {
    subscript.trim().parse::<i64>().ok().or_else(|| {
        subscript
            .contains(|ch: char| ch.is_ascii_digit() || ch == '$')
            .then(|| crate::arithmetic::evaluate(subscript, &|name| known_value(vars, name)))
            .flatten()
    })
}

/// The variable an assignment to `name` sets: `name`, or the one its references lead to
pub(crate) fn referenced(vars: &Vars, name: &str) -> String {
    let mut name = name;
    for _ in 0..MAX_REFERENCES {
        match vars.iter().rev().find(|(bound, _)| bound == name) {
            Some((_, Binding::Reference(target))) => name = target,
            _ => break,
        }
    }
    name.to_owned()
}

/// The elements of an array the line sets, in the order they were set
#[derive(Debug, Clone)]
pub(crate) struct Array {
    /// Each element's index (`None` for an associative array's key, or an index only run
    /// time knows) and its value, expanded
    pub(crate) elements: Vec<(Option<i64>, String)>,
    /// Whether every index is the one bash gives: not after an element only run time knows
    /// that may split into several (`a=($(ls) /etc)`)
    pub(crate) exact: bool,
}

impl Default for Array {
    /// No element, every index known
    fn default() -> Self {
        Array {
            elements: Vec::new(),
            exact: true,
        }
    }
}

impl Binding {
    /// The binding as the reader keeps it: one holding more than [`MAX_WORDS`] values or
    /// elements, or more than [`MAX_EXPANDED_BYTES`] bytes, is only known at run time (a
    /// value doubled over and over would grow without end)
    pub(crate) fn bounded(self, name: &str) -> Binding {
        let (count, bytes) = match &self {
            Binding::Known(values) => (values.len(), values.iter().map(String::len).sum()),
            Binding::Array(array) => (
                array.elements.len(),
                array.elements.iter().map(|(_, value)| value.len()).sum(),
            ),
            Binding::Unknown(_) | Binding::Reference(_) => (0, 0),
        };
        if count > MAX_WORDS || bytes > MAX_EXPANDED_BYTES {
            return Binding::Unknown(format!(
                "`${name}` grows past what the reader follows ({MAX_WORDS} values, 128 KiB)"
            ));
        }
        self
    }
}

impl Array {
    /// An array of the one value `value`, its element 0 (`a=x; a+=(y)`, `a[1]=y`)
    pub(crate) fn of_value(value: String) -> Self {
        Array {
            elements: vec![(Some(0), value)],
            exact: true,
        }
    }

    /// Sets the element at `index` (a known index is replaced, any other added)
    pub(crate) fn set(&mut self, index: Option<i64>, value: String) {
        let at = index.and_then(|index| {
            self.elements
                .iter()
                .position(|(known, _)| *known == Some(index))
        });
        match at.and_then(|at| self.elements.get_mut(at)) {
            Some(element) => element.1 = value,
            None => self.elements.push((index, value)),
        }
    }

    /// The index after the highest one: where `a+=(x)` and an element with no index go
    pub(crate) fn next_index(&self) -> i64 {
        self.elements
            .iter()
            .filter_map(|(index, _)| *index)
            .max()
            .map_or(0, |highest| highest.saturating_add(1))
    }

    /// The element at `index` when the line tells which one it is: `Some(None)` when no
    /// element has it (bash expands it to nothing), `None` when only run time knows
    fn at(&self, index: i64) -> Option<Option<&str>> {
        if !self.exact || self.elements.iter().any(|(known, _)| known.is_none()) {
            return None;
        }
        // A negative index counts back from the end (bash(1), Arrays).
        let index = if index < 0 {
            self.next_index().checked_add(index)?
        } else {
            index
        };
        Some(
            self.elements
                .iter()
                .find(|(known, _)| *known == Some(index))
                .map(|(_, value)| value.as_str()),
        )
    }

    /// The values in index order (in the order they were set when some index is unknown)
    fn values(&self) -> Vec<&str> {
        let mut elements: Vec<&(Option<i64>, String)> = self.elements.iter().collect();
        if elements.iter().all(|(index, _)| index.is_some()) {
            elements.sort_by_key(|(index, _)| *index);
        }
        elements
            .into_iter()
            .map(|(_, value)| value.as_str())
            .collect()
    }
}

/// The parameters set so far on the line, latest last
pub(crate) type Vars = Vec<(String, Binding)>;

/// A variable an expansion of a word reads, as far as the line tells
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameRead<'a> {
    /// Spelled in the word as it is read (`$TOKEN`, `${TOKEN:-x}`)
    Spelled(&'a str),
    /// Named by another variable: the value of `k` in `${!k}` (each of a loop's values), or
    /// the target of a reference (`declare -n k=TOKEN; "$k"`)
    Resolved(&'a str),
    /// Named only at run time: `${!k}` of a `k` the line does not give names, `${!TOKEN*}`
    Hidden,
}

/// Whether `test` holds for a variable an expansion in `raw` reads, through indirection
/// (`${!k}`) and references (`declare -n`) as the line sets them: the one place both the
/// names a word spells and the names it hides are found
pub(crate) fn reads_any(
    vars: &Vars,
    raw: &str,
    mut test: impl FnMut(NameRead<'_>) -> bool,
) -> bool {
    raw.match_indices('$').any(|(at, _)| {
        let rest = raw.get(at + 1..).unwrap_or_default();
        let (indirect, rest) = match rest.strip_prefix("{!") {
            Some(rest) => (true, rest),
            None => (false, rest.strip_prefix('{').unwrap_or(rest)),
        };
        let end = rest
            .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(end);
        if !indirect {
            if name.is_empty() {
                return false;
            }
            let target = referenced(vars, name);
            return if target == name {
                test(NameRead::Spelled(name))
            } else {
                test(NameRead::Resolved(&target))
            };
        }
        // `${!r}` of a reference `r` is the name it refers to, and reads no value.
        if referenced(vars, name) != name {
            return false;
        }
        // `${!k}` reads the variable `k` names; `${!k*}`, `${!k[@]}` and a `k` run time
        // gives may name any.
        match lookup(vars, name) {
            Some(Binding::Known(values))
                if after.starts_with('}')
                    && !values.is_empty()
                    && values.iter().all(|value| is_name(value)) =>
            {
                values.iter().any(|value| test(NameRead::Resolved(value)))
            }
            _ => test(NameRead::Hidden),
        }
    })
}

/// The parameters `raw` assigns as it expands (`${NAME:=WORD}`, `${NAME=WORD}`; bash(1),
/// Parameter Expansion), each with the word it is given and whether the `:` makes an empty
/// value count as unset. Quoting is not followed, so one in single quotes counts too: the
/// value the reader then gives it (its own if set, the word if not) is what it holds either
/// way once set, and only run time's value if unset.
pub(crate) fn assigned_defaults(raw: &str) -> Vec<(&str, &str, bool)> {
    let mut assigned = Vec::new();
    for (at, _) in raw.match_indices("${") {
        let rest = raw.get(at + 2..).unwrap_or_default();
        let end = rest
            .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
            .unwrap_or(rest.len());
        let name = rest.get(..end).unwrap_or_default();
        let after = rest.get(end..).unwrap_or_default();
        let (colon, after) = match after.strip_prefix(":=") {
            Some(after) => (true, after),
            None => match after.strip_prefix('=') {
                Some(after) => (false, after),
                None => continue,
            },
        };
        if !is_name(name) {
            continue;
        }
        // The word ends at the brace that closes this expansion.
        let mut depth = 0usize;
        let close = after.char_indices().find(|&(at, ch)| match ch {
            '{' if after.get(..at).is_some_and(|before| before.ends_with('$')) => {
                depth += 1;
                false
            }
            '}' if depth > 0 => {
                depth -= 1;
                false
            }
            '}' => true,
            _ => false,
        });
        if let Some((close, _)) = close {
            assigned.push((name, after.get(..close).unwrap_or_default(), colon));
        }
    }
    assigned
}

/// What a word is expanded against
pub(crate) struct Env<'a> {
    pub(crate) vars: &'a Vars,
    pub(crate) context: &'a Context,
    /// The positional parameters, when the line gives them (a call of a function it defines)
    pub(crate) params: Option<&'a Params>,
    /// The bytes the reading's expansions have made and read so far (see [`Budget`])
    pub(crate) spent: &'a Cell<usize>,
    /// The literal text the command's input holds, when the line gives it (a script's
    /// here-string): what `$(cat)` prints
    pub(crate) input: Option<&'a str>,
}

/// The positional parameters of a function the line calls: the words of the call
#[derive(Debug, Clone, Default)]
pub(crate) struct Params {
    /// `$0`, when known
    pub(crate) zero: Option<String>,
    /// `$1`, `$2`, …, as the call's words expanded (a word only known at run time among them)
    pub(crate) args: Vec<String>,
}

/// Expands the word `raw` (its source text) into the words bash would pass, pushed on `out`
pub(crate) fn word(raw: &str, env: &Env<'_>, out: &mut Vec<String>) {
    expand_passes(raw, env, out, &mut |_| {});
}

/// Expands `raw` as [`word`] does; whether it takes several passes, the values of a loop
/// variable or of a parameter only run time knows whether set (see [`command_passes`])
pub(crate) fn word_of_passes(raw: &str, env: &Env<'_>, out: &mut Vec<String>) -> bool {
    expand_passes(raw, env, out, &mut |_| {})
}

/// The most passes a command is read in, one command each (see [`command_passes`])
const MAX_COMMAND_PASSES: usize = 64;

/// The words of a command whose words are `raws`, once per pass: each pass takes one
/// combination of the values of the loop variables and parameters in them, the same in
/// every word, as bash runs the command once per pass of its loops (`for h in a b; do git
/// -C "$h" push` runs `git -C a push` and `git -C b push`, where the words of every pass
/// side by side, `git -C a b push`, hide the subcommand). Past [`MAX_COMMAND_PASSES`], the
/// last pass ends with a word only known at run time, standing for the passes left.
pub(crate) fn command_passes(raws: &[&str], env: &Env<'_>) -> Vec<Vec<String>> {
    let mut alternatives = Vec::new();
    let mut every_alternative = true;
    for raw in raws {
        every_alternative &= braces(raw, &mut alternatives);
    }
    let joined = raws.join(" ");
    let mut words = Vec::new();
    let mut ends = Vec::new();
    let passes = each_pass(
        &joined,
        &mut words,
        &mut |end| ends.push(end),
        &mut Budget::default(),
        env.spent,
        MAX_COMMAND_PASSES,
        |choice, mut radices, out| {
            let mut overflowed = false;
            for alternative in &alternatives {
                let mut expansion = Expansion::new(env, choice, radices, out);
                expansion.run(alternative);
                overflowed |= expansion.overflowed;
                radices = expansion.finish();
            }
            (overflowed, radices)
        },
    );
    let mut passes_words = split_passes(words, &ends);
    if passes.is_none() || !every_alternative {
        // The passes past the bound are the last pass read, and more words than it has.
        match passes_words.last_mut() {
            Some(last) => overflowed_word(&joined, last),
            None => {
                let mut only = Vec::new();
                overflowed_word(&joined, &mut only);
                passes_words.push(only);
            }
        }
    }
    passes_words
}

/// The words of `raw` a pass at a time: one pass unless a parameter in it takes several
/// values (a loop variable, a word a parameter falls back on) or braces give several words
pub(crate) fn passes(raw: &str, env: &Env<'_>) -> Vec<Vec<String>> {
    let mut words = Vec::new();
    let mut ends = Vec::new();
    expand_passes(raw, env, &mut words, &mut |end| ends.push(end));
    split_passes(words, &ends)
}

/// `words` cut into passes, each ending where `ends` says
fn split_passes(words: Vec<String>, ends: &[usize]) -> Vec<Vec<String>> {
    let mut passes = Vec::with_capacity(ends.len());
    let mut words = words.into_iter();
    let mut start = 0;
    for &end in ends {
        passes.push(words.by_ref().take(end - start).collect());
        start = end;
    }
    passes
}

/// Whether `byte` may make a word other than itself: a quote, an escape, an expansion, a
/// brace, a tilde or a process substitution; asked of every byte of every word, so answered
/// from [`EXPANDS`]
fn expands(byte: u8) -> bool {
    EXPANDS.get(usize::from(byte)).copied().unwrap_or(true)
}

/// [`expands`] of every byte value
#[expect(
    clippy::indexing_slicing,
    reason = "evaluated while compiling, where an index out of bounds stops the build"
)]
const EXPANDS: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = matches!(
            byte as u8,
            b'\\' | b'\'' | b'"' | b'$' | b'`' | b'{' | b'~' | b'<' | b'>'
        );
        byte += 1;
    }
    table
};

/// Expands `raw` into `out` as [`word`] does, telling `pass_end` where each pass's words end
fn expand_passes(
    raw: &str,
    env: &Env<'_>,
    out: &mut Vec<String>,
    pass_end: &mut dyn FnMut(usize),
) -> bool {
    // Most words quote and expand nothing: they are themselves.
    if !raw.bytes().any(expands) {
        out.push(raw.to_owned());
        pass_end(out.len());
        return false;
    }
    // A process substitution is a path to a pipe; the walk reads what runs in it.
    if raw.starts_with("<(") || raw.starts_with(">(") {
        out.push(raw.to_owned());
        pass_end(out.len());
        return false;
    }
    // Most words hold no brace: such a word is its one alternative, read in place.
    let has_brace = raw.contains('{');
    let mut braced = Vec::new();
    let every_alternative = !has_brace || braces(raw, &mut braced);
    let unbraced = (!has_brace).then_some(raw);
    let mut budget = Budget::default();
    let mut several = false;
    for alternative in unbraced
        .into_iter()
        .chain(braced.iter().map(String::as_str))
    {
        let passes = each_pass(
            alternative,
            out,
            pass_end,
            &mut budget,
            env.spent,
            usize::MAX,
            |choice, radices, out| {
                let mut expansion = Expansion::new(env, choice, radices, out);
                expansion.run(alternative);
                (expansion.overflowed, expansion.finish())
            },
        );
        match passes {
            Some(passes) => several |= passes > 1,
            None => {
                overflowed(raw, out, pass_end);
                return true;
            }
        }
    }
    if !every_alternative {
        overflowed(raw, out, pass_end);
    }
    several
}

/// What the expansions of one word may still make: past [`MAX_WORDS`] words or
/// [`MAX_EXPANDED_BYTES`] bytes made, or the reading's [`MAX_READING_BYTES`] (which counts
/// the text read again on each pass too), the rest of the word is only known at run time
struct Budget {
    words: usize,
    bytes: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            words: MAX_WORDS,
            bytes: MAX_EXPANDED_BYTES,
        }
    }
}

impl Budget {
    /// Takes the cost of a pass that read `read` bytes and made `words`, from this budget
    /// and from the reading's, `spent`; false when either does not hold it
    fn spend(&mut self, read: usize, words: &[String], spent: &Cell<usize>) -> bool {
        let made: usize = words.iter().map(String::len).sum();
        let reading = spent.get().saturating_add(read).saturating_add(made);
        spent.set(reading);
        match (
            self.words.checked_sub(words.len()),
            self.bytes.checked_sub(made),
        ) {
            (Some(words), Some(bytes)) if reading <= MAX_READING_BYTES => {
                self.words = words;
                self.bytes = bytes;
                true
            }
            _ => false,
        }
    }
}

/// Runs `pass` (the expansions of `raw` for a pass number and the digits met so far, which
/// pushes the pass's words and tells whether it overflowed and the digits after it) once per
/// pass, up to `max_passes`, pushing each pass's words on `out`; how many passes, or `None`
/// when the budget or `max_passes` ran out first (`out` then holds the passes made whole)
fn each_pass(
    raw: &str,
    out: &mut Vec<String>,
    pass_end: &mut dyn FnMut(usize),
    budget: &mut Budget,
    expansion_spent: &Cell<usize>,
    max_passes: usize,
    pass: impl Fn(usize, Vec<(String, usize)>, &mut Vec<String>) -> (bool, Vec<(String, usize)>),
) -> Option<usize> {
    let mut radices = Vec::new();
    let mut choice = 0;
    loop {
        let start = out.len();
        let overflowed;
        (overflowed, radices) = pass(choice, std::mem::take(&mut radices), out);
        let spent = budget.spend(
            raw.len(),
            out.get(start..).unwrap_or_default(),
            expansion_spent,
        );
        if overflowed || !spent {
            out.truncate(start);
            return None;
        }
        pass_end(out.len());
        choice += 1;
        let passes = radices
            .iter()
            .fold(1usize, |passes, (_, values)| passes.saturating_mul(*values));
        if choice >= passes {
            return Some(passes);
        }
        if choice >= max_passes {
            return None;
        }
    }
}

/// Ends the words of `raw` with one only known at run time: it expands into more than the
/// reader follows
fn overflowed(raw: &str, out: &mut Vec<String>, pass_end: &mut dyn FnMut(usize)) {
    overflowed_word(raw, out);
    pass_end(out.len());
}

/// Pushes on `out` a word only known at run time, standing for what `raw` expands into
/// past the reader's bounds
fn overflowed_word(raw: &str, out: &mut Vec<String>) {
    let shown: String = raw.chars().take(40).collect();
    let more = if shown.len() < raw.len() { "…" } else { "" };
    let word = UnknownWord {
        prefix: String::new(),
        suffix: String::new(),
        split: true,
        name: false,
        own_code: false,
        one_word: false,
        why: format!(
            "`{shown}{more}` expands into more than the reader follows ({MAX_WORDS} words, 128 KiB)"
        ),
    };
    out.push(word.encode());
}

/// The text the body `raw` of a here-document whose delimiter is not quoted hands its
/// command, pushed on `out`: expanded as bash expands it (parameters, `$(…)`, backticks,
/// arithmetic), never split, a backslash escaping only `$`, `` ` ``, `\` and a line break;
/// one text per value of a loop variable in it, and a text with a part only known at run
/// time pushed as an unknown word
pub(crate) fn here_document(raw: &str, env: &Env<'_>, out: &mut Vec<String>) {
    let passes = each_pass(
        raw,
        out,
        &mut |_| {},
        &mut Budget::default(),
        env.spent,
        usize::MAX,
        |choice, radices, out| {
            let mut expansion = Expansion::new(env, choice, radices, out);
            expansion.quoted_empty = true;
            expansion.quoted_text(raw, &mut raw.char_indices().peekable(), false);
            (expansion.overflowed, expansion.finish())
        },
    );
    if passes.is_none() {
        overflowed(raw, out, &mut |_| {});
    }
}

/// Brace expansion of `raw` (`{a,b}`, `{,/}etc`, `{1..3}`), outside quotes; words without
/// braces stay whole. False when it makes more than [`MAX_WORDS`] words: those past it are
/// left out, for the caller to read as unknown
fn braces(raw: &str, out: &mut Vec<String>) -> bool {
    let Some((open, close, parts)) = first_brace(raw) else {
        out.push(raw.to_owned());
        return true;
    };
    let head = raw.get(..open).unwrap_or_default();
    let tail = raw.get(close + 1..).unwrap_or_default();
    for part in parts {
        if out.len() >= MAX_WORDS || !braces(&format!("{head}{part}{tail}"), out) {
            return false;
        }
    }
    true
}

/// The first unquoted `{...}` bash expands (bash(1), Brace Expansion): one holding a
/// comma outside quotes and inner braces, or a sequence (`{1..10..2}`, `{a..e}`); where it
/// opens and closes, and its alternatives. Quotes, escapes and substitutions inside are
/// passed over, left for the expansion of each alternative; `${` is no brace.
fn first_brace(raw: &str) -> Option<(usize, usize, Vec<String>)> {
    let mut at = 0;
    while let Some(&byte) = raw.as_bytes().get(at) {
        if byte == b'{' {
            if let Some(found) = brace_at(raw, at) {
                return Some(found);
            }
        }
        at = after_unit(raw, at)?;
    }
    None
}

/// The brace that opens at `open`, when bash expands it (see [`first_brace`])
fn brace_at(raw: &str, open: usize) -> Option<(usize, usize, Vec<String>)> {
    let mut depth = 1usize;
    let mut commas = Vec::new();
    let mut at = open + 1;
    loop {
        match raw.as_bytes().get(at)? {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => commas.push(at),
            _ => {
                at = after_unit(raw, at)?;
                continue;
            }
        }
        at += 1;
    }
    if commas.is_empty() {
        let parts = sequence(raw.get(open + 1..at)?)?;
        return Some((open, at, parts));
    }
    let mut parts = Vec::with_capacity(commas.len() + 1);
    let mut start = open + 1;
    for comma in commas {
        parts.push(raw.get(start..comma)?.to_owned());
        start = comma + 1;
    }
    parts.push(raw.get(start..at)?.to_owned());
    Some((open, at, parts))
}

/// The `[KEY]=VALUE` elements of a compound assignment's value `( … )` as written (bash(1),
/// Arrays); `None` for any other shape (a bare value, an element without a key)
pub(crate) fn keyed_elements(raw: &str) -> Option<Vec<(&str, &str)>> {
    array_elements(raw)?
        .into_iter()
        .map(|(key, value)| Some((key?, value)))
        .collect()
}

/// The elements of a compound assignment's value `( … )` as written: each a `[KEY]=VALUE`
/// (its key and value) or a word (no key, the word); `None` for any other shape (a bare
/// value, a comment, a `[KEY]+=VALUE`, a quote never closed)
pub(crate) fn array_elements(raw: &str) -> Option<Vec<(Option<&str>, &str)>> {
    let inner = raw.strip_prefix('(')?.strip_suffix(')')?;
    let blank = |at: usize| {
        inner
            .as_bytes()
            .get(at)
            .is_some_and(u8::is_ascii_whitespace)
    };
    let mut elements = Vec::new();
    let mut at = 0;
    loop {
        while blank(at) {
            at += 1;
        }
        if at >= inner.len() {
            return Some(elements);
        }
        let mut end = at;
        while end < inner.len() && !blank(end) {
            end = after_unit(inner, end)?;
        }
        let element = inner.get(at..end)?;
        if element.starts_with('#') {
            return None;
        }
        // `[KEY]=VALUE`, the key with no blank, quote or expansion inside (as the reader
        // takes it; bash would take more).
        let keyed = element.strip_prefix('[').and_then(|rest| {
            let close = rest.find(']')?;
            let key = rest.get(..close)?;
            let value = rest.get(close + 1..)?.strip_prefix('=')?;
            Some((key, value))
        });
        match keyed {
            Some((key, _)) if key.contains(['[', '\'', '"', ' ']) => return None,
            Some((key, value)) => elements.push((Some(key), value)),
            None if element.starts_with('[') && element.contains("]+=") => return None,
            None => elements.push((None, element)),
        }
        at = end;
    }
}

/// Where the unit of `raw` at `at` ends: a character, an escape, a quoted string, a
/// backquoted command, `$(...)` or `${...}`; `None` when it is never closed
fn after_unit(raw: &str, at: usize) -> Option<usize> {
    let bytes = raw.as_bytes();
    let rest = raw.get(at + 1..)?;
    Some(match bytes.get(at)? {
        b'\\' => at + 2,
        b'\'' => at + 1 + rest.find('\'')? + 1,
        b'`' => at + 1 + rest.find('`')? + 1,
        b'"' => {
            let mut inner = at + 1;
            loop {
                match bytes.get(inner)? {
                    b'\\' => inner += 2,
                    b'"' => break inner + 1,
                    _ => inner += 1,
                }
            }
        }
        b'$' if rest.starts_with('(') => group_end(raw, at + 1, '(', ')'),
        b'$' if rest.starts_with('{') => group_end(raw, at + 1, '{', '}'),
        _ => at + 1,
    })
}

/// The words of a sequence expression `X..Y[..INCR]` (bash(1)): integers, zero-padded when
/// either end is, or single letters, through the characters between them; at most
/// one more than [`MAX_WORDS`], for [`braces`] to tell that it makes too many
fn sequence(inner: &str) -> Option<Vec<String>> {
    let mut ends = inner.split("..");
    let (first, last) = (ends.next()?, ends.next()?);
    let step = match ends.next() {
        Some(step) => step.parse::<i64>().ok()?.unsigned_abs().max(1),
        None => 1,
    };
    if ends.next().is_some() {
        return None;
    }
    let numbers = first.parse::<i64>().ok().zip(last.parse::<i64>().ok());
    let letters = || {
        let letter = |end: &str| match end.as_bytes() {
            [byte] if byte.is_ascii_alphabetic() => Some(i64::from(*byte)),
            _ => None,
        };
        letter(first).zip(letter(last))
    };
    let ((from, to), as_letters) = match numbers {
        Some(ends) => (ends, false),
        None => (letters()?, true),
    };
    let padded = |end: &str| end.trim_start_matches('-').starts_with('0') && end.len() > 1;
    let width = if padded(first) || padded(last) {
        first.len().max(last.len())
    } else {
        0
    };
    let count = (from.abs_diff(to) / step).saturating_add(1);
    let count = usize::try_from(count)
        .unwrap_or(usize::MAX)
        .min(MAX_WORDS + 1);
    let mut words = Vec::with_capacity(count);
    let mut value = i128::from(from);
    let step = if to < from {
        -i128::from(step)
    } else {
        i128::from(step)
    };
    for _ in 0..count {
        words.push(if as_letters {
            // The characters between `Z` and `a` are punctuation, taken literally.
            let ch = u8::try_from(value).map(char::from).ok()?;
            if ch.is_ascii_alphabetic() {
                ch.to_string()
            } else {
                format!("\\{ch}")
            }
        } else {
            format!("{value:0width$}")
        });
        value += step;
    }
    Some(words)
}

/// One expansion of one word
struct Expansion<'e, 'a, 'o> {
    env: &'e Env<'a>,
    /// Which value a parameter with several (a loop variable) takes in this pass
    choice: usize,
    /// The parameters with several values met in the word's passes so far, each a digit
    /// of the pass number, and how many values it has (see [`Expansion::pick`])
    radices: Vec<(String, usize)>,
    current: String,
    /// Whether the word being built exists even if empty (`""`)
    quoted_empty: bool,
    /// Where the words made go, each pushed as it ends rather than gathered apart first
    out: &'o mut Vec<String>,
    /// How many words `out` held before this expansion's
    start: usize,
    unknown: Option<UnknownWord>,
    /// Where the known text after the word's last unknown part starts in `current`
    after_unknown: usize,
    /// Whether the pass made more than [`MAX_WORDS`] words or a word of more than
    /// [`MAX_EXPANDED_BYTES`] bytes, and stopped
    overflowed: bool,
}

type Chars<'a> = std::iter::Peekable<std::str::CharIndices<'a>>;

impl<'e, 'a, 'o> Expansion<'e, 'a, 'o> {
    fn new(
        env: &'e Env<'a>,
        choice: usize,
        radices: Vec<(String, usize)>,
        out: &'o mut Vec<String>,
    ) -> Self {
        Expansion {
            env,
            choice,
            radices,
            current: String::new(),
            quoted_empty: false,
            start: out.len(),
            out,
            unknown: None,
            after_unknown: 0,
            overflowed: false,
        }
    }

    fn run(&mut self, raw: &str) {
        // The word built is most often about as long as its source: room for that spares
        // growing it a character at a time.
        self.current.reserve(raw.len());
        let mut chars = raw.char_indices().peekable();
        let mut first = true;
        // A word of the shape of an assignment (`of=~/x`, `PATH=~/bin:~/.local/bin`) has a
        // tilde prefix after its first `=` and after each `:`, as bash expands it.
        let assignment = assignment_start(raw);
        let mut previous = None;
        while let Some((at, ch)) = chars.next() {
            let tilde_prefix = first
                || assignment.is_some_and(|eq| at == eq + 1 || (at > eq && previous == Some(':')));
            previous = Some(ch);
            match ch {
                '\\' => match chars.next() {
                    Some((_, '\n')) | None => {}
                    Some((_, escaped)) => self.current.push(escaped),
                },
                '\'' => {
                    self.quoted_empty = true;
                    for (_, inner) in chars.by_ref() {
                        if inner == '\'' {
                            break;
                        }
                        self.current.push(inner);
                    }
                }
                '"' => {
                    self.quoted_empty = true;
                    self.double_quoted(raw, &mut chars);
                }
                // `$"..."` is `"..."` translated by a message catalog, and there is none
                '$' if chars.peek().is_some_and(|(_, next)| *next == '"') => {
                    chars.next();
                    self.quoted_empty = true;
                    self.double_quoted(raw, &mut chars);
                }
                '$' if chars.peek().is_some_and(|(_, next)| *next == '\'') => {
                    chars.next();
                    let rest = raw.get(at + 2..).unwrap_or_default();
                    let mut inner = rest.chars().peekable();
                    let before = inner.clone().count();
                    ansi_c(&mut inner, &mut self.current);
                    let used = before - inner.count();
                    for _ in 0..used {
                        chars.next();
                    }
                }
                '$' => self.dollar(raw, at, &mut chars, false),
                '`' => self.backtick(raw, at, &mut chars, false),
                '~' if tilde_prefix => self.tilde(raw, at, &mut chars),
                other => self.current.push(other),
            }
            first = false;
        }
    }

    /// The inside of `"..."`: a backslash escapes only `$`, `` ` ``, `"`, `\` and a newline
    fn double_quoted(&mut self, raw: &str, chars: &mut Chars<'_>) {
        self.quoted_text(raw, chars, true);
    }

    /// Quoted text up to its closing `"`, or, outside double quotes, to its end (a
    /// here-document's body, where `"` is a character like any other): expansions are
    /// made, words are not split, and a backslash escapes only `$`, `` ` ``, `\`, a newline
    /// and, in double quotes, `"`
    fn quoted_text(&mut self, raw: &str, chars: &mut Chars<'_>, in_double_quotes: bool) {
        while let Some((at, ch)) = chars.next() {
            match ch {
                '"' if in_double_quotes => return,
                '\\' => match chars.peek().map(|(_, next)| *next) {
                    Some('\n') => {
                        chars.next();
                    }
                    Some(next @ ('$' | '`' | '\\')) => {
                        chars.next();
                        self.current.push(next);
                    }
                    Some('"') if in_double_quotes => {
                        chars.next();
                        self.current.push('"');
                    }
                    _ => self.current.push('\\'),
                },
                '$' => self.dollar(raw, at, chars, true),
                '`' => self.backtick(raw, at, chars, true),
                other => self.current.push(other),
            }
        }
    }

    /// `~`, `~/x`, `~+`, `~-`, `~user` at `at`, the start of a word or of an assignment's
    /// value
    fn tilde(&mut self, raw: &str, at: usize, chars: &mut Chars<'_>) {
        let rest = raw.get(at + 1..).unwrap_or_default();
        let end = rest.find(['/', ':']).unwrap_or(rest.len());
        let user = rest.get(..end).unwrap_or_default();
        let plain = |ch: char| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | '.' | '+');
        if !user.chars().all(plain) {
            self.current.push('~');
            return;
        }
        for _ in 0..user.chars().count() {
            chars.next();
        }
        match user {
            "" => self.current.push('~'),
            "+" => match &self.env.context.cwd {
                Some(cwd) => self.current.push_str(cwd),
                None => self.unknown_part(
                    "`~+` is the directory the command runs in".to_owned(),
                    false,
                    false,
                    false,
                ),
            },
            "-" => self.unknown_part(
                "`~-` is the previous directory, known only at run time".to_owned(),
                false,
                false,
                false,
            ),
            "root" => self.current.push_str("/root"),
            user => {
                self.current.push_str("/home/");
                self.current.push_str(user);
            }
        }
    }

    /// A `$` expansion: `$NAME`, `${NAME}`, `${...}`, `$(...)`, `$((...))`, `$1`, `$@`
    fn dollar(&mut self, raw: &str, at: usize, chars: &mut Chars<'_>, quoted: bool) {
        let Some(&(next_at, next)) = chars.peek() else {
            self.current.push('$');
            return;
        };
        match next {
            '(' => {
                let end = group_end(raw, next_at, '(', ')');
                let inner = raw
                    .get(next_at + 1..end.saturating_sub(1))
                    .unwrap_or_default();
                skip_to(chars, end);
                if inner.starts_with('(') {
                    self.arithmetic(inner, quoted);
                } else {
                    self.substitution(inner, quoted);
                }
            }
            '{' => {
                let end = group_end(raw, next_at, '{', '}');
                let inner = raw
                    .get(next_at + 1..end.saturating_sub(1))
                    .unwrap_or_default();
                skip_to(chars, end);
                if is_name(inner) || is_special(inner) {
                    self.parameter(inner, quoted);
                } else if let Some((name, subscript)) = subscripted(inner) {
                    self.element(name, subscript, quoted);
                } else if let Some(name) = self.indirect_name(inner) {
                    self.parameter(&name, quoted);
                } else if let Some((name, operator, word)) = default_operator(inner) {
                    self.defaulted(name, operator, word, quoted);
                } else if let Some((name, sliced)) = self.positional_slice(inner) {
                    self.positional(&sliced, name, quoted);
                } else if let Some(value) = self
                    .case_modified(inner)
                    .or_else(|| self.pattern_edited(inner))
                    .or_else(|| self.prompt_expanded(inner))
                {
                    self.value(&value, quoted);
                } else {
                    // `"${@:2}"`, `"${a[@]:1}"`, `"${!pre@}"` are several words, quoted or not.
                    let several =
                        inner.starts_with('@') || inner.contains("[@]") || inner.ends_with('@');
                    let why = format!("`${{{inner}}}` is known only at run time");
                    self.unknown_part(why, !quoted || several, false, false);
                }
            }
            _ if is_special_char(next) => {
                chars.next();
                let mut buffer = [0; 4];
                self.parameter(next.encode_utf8(&mut buffer), quoted);
            }
            _ if next.is_ascii_alphabetic() || next == '_' => {
                let mut end = next_at;
                while let Some(&(index, ch)) = chars.peek() {
                    if !(ch.is_ascii_alphanumeric() || ch == '_') {
                        break;
                    }
                    end = index + ch.len_utf8();
                    chars.next();
                }
                let name = raw.get(next_at..end).unwrap_or_default();
                self.parameter(name, quoted);
            }
            _ => {
                let _ = at;
                self.current.push('$');
            }
        }
    }

    /// `` `...` ``
    /// `$((…))`, whose `inner` is `(…)`: its value when the line's literals give it, else a
    /// number known only at run time, which may be negative (`-1`) and so no name
    fn arithmetic(&mut self, inner: &str, quoted: bool) {
        let ifs_set = self.env.vars.iter().any(|(bound, _)| bound == "IFS");
        let value = inner
            .strip_prefix('(')
            .and_then(|rest| rest.strip_suffix(')'))
            .filter(|_| quoted || !ifs_set)
            .and_then(|text| crate::arithmetic::evaluate(text, &|name| self.known_value(name)));
        match value {
            Some(value) => self.current.push_str(&value.to_string()),
            None => {
                let why = format!("`$({inner})` is computed at run time");
                self.unknown_part(why, !quoted, false, false);
            }
        }
    }

    fn backtick(&mut self, raw: &str, at: usize, chars: &mut Chars<'_>, quoted: bool) {
        let rest = raw.get(at + 1..).unwrap_or_default();
        let end = rest.find('`').unwrap_or(rest.len());
        let inner = rest.get(..end).unwrap_or_default();
        skip_to(chars, at + 1 + end + 1);
        self.substitution(inner, quoted);
    }

    /// The one value the line gives `name`, when it is known whole
    fn known_value(&self, name: &str) -> Option<String> {
        known_value(self.env.vars, name)
    }

    /// `${NAME@P}`: the value the line gives `NAME`, expanded as a prompt is (bash(1),
    /// PROMPTING: parameter expansion, arithmetic, command substitution and quote removal):
    /// `set -- '$HOME/.ssh'; scp -r "${1@P}" …` sends `~/.ssh`. `None` when the value holds
    /// a prompt's escape (`\u`), a quote or a substitution, whose expansion only run time
    /// knows, or is not known whole.
    fn prompt_expanded(&self, inner: &str) -> Option<String> {
        let name = inner
            .strip_suffix("@P")
            .filter(|name| is_name(name) || is_special(name))?;
        let mut words = Vec::with_capacity(1);
        word(&format!("\"${{{name}}}\""), self.env, &mut words);
        let [value] = words.as_slice() else {
            return None;
        };
        if is_unknown(value) || value.contains(['\\', '`', '"']) || value.contains("$(") {
            return None;
        }
        let mut expanded = Vec::with_capacity(1);
        word(&format!("\"{value}\""), self.env, &mut expanded);
        match expanded.as_slice() {
            [one] if !is_unknown(one) => Some(one.clone()),
            _ => None,
        }
    }

    /// `${NAME^^}` and the other case modifications of a value the line sets (bash(1),
    /// Parameter Expansion), with a pass per value of a loop variable; `None` when the
    /// value, or the change, is known only at run time (a pattern after the operator)
    fn case_modified(&mut self, inner: &str) -> Option<String> {
        let (name, change) = case_modification(inner)?;
        Some(change.apply(&self.spelled_value(name)?))
    }

    /// `${NAME%WORD}`, `${NAME#WORD}` (and doubled), of a pattern of `*`, `?` and brackets,
    /// and `${NAME/WORD/TEXT}` (`//`, `/#`, `/%`) of literal text, of a value the line sets
    /// (bash(1), Parameter Expansion); `None` when a quote or an expansion makes the
    /// pattern only known at run time
    fn pattern_edited(&mut self, inner: &str) -> Option<String> {
        let (name, edit) = pattern_edit(inner)?;
        match self.spelled_value(name) {
            Some(value) => edit.apply(&value),
            None => self.home_edited(name, &edit),
        }
    }

    /// A suffix cut from a value that starts with the home (`k=~/.ssh/id_rsa.pub;
    /// ${k%.pub}`), whose letters the reader does not know: only a cut that the rest after
    /// the home holds, which no letter of the home can change (the shortest suffix, or the
    /// longest of a pattern without `*`); `None` otherwise
    fn home_edited(&mut self, name: &str, edit: &PatternEdit<'_>) -> Option<String> {
        let PatternEdit::Remove {
            word,
            longest,
            prefix: false,
        } = *edit
        else {
            return None;
        };
        if longest && word.contains('*') {
            return None;
        }
        let Some(Binding::Known(values)) = lookup(self.env.vars, name) else {
            return None;
        };
        let value = values.get(self.pick(name, values.len()))?;
        let (home, rest) = ["${HOME}", "$HOME", "~"].iter().find_map(|home| {
            let rest = value.strip_prefix(home)?;
            (rest.is_empty() || rest.starts_with('/')).then_some((*home, rest))
        })?;
        if is_unknown(value) || rest.contains('~') || rest.contains("$HOME") {
            return None;
        }
        let cut = without_match(rest, word, longest, false)?;
        if cut == rest {
            return None;
        }
        Some(format!("{home}{cut}"))
    }

    /// The value the line sets `name` to, letter for letter, with a pass per value of a
    /// loop variable; `None` when only run time knows it
    fn spelled_value(&mut self, name: &str) -> Option<String> {
        let Some(Binding::Known(values)) = lookup(self.env.vars, name) else {
            return None;
        };
        let value = values.get(self.pick(name, values.len()))?;
        // A home the reader keeps as `~` or `$HOME` has letters it does not know.
        if is_unknown(value) || value.contains('~') || value.contains("$HOME") {
            return None;
        }
        Some(value.clone())
    }

    /// `${NAME[SUBSCRIPT]}`: an element of an array the line sets (`@` and `*` all of them,
    /// a word each or, `"${a[*]}"`, one), or of a value, which is its element 0; one a
    /// pass when only run time knows which the subscript names
    fn element(&mut self, name: &str, subscript: &str, quoted: bool) {
        if !quoted && self.env.vars.iter().any(|(bound, _)| bound == "IFS") {
            let why = format!("`${{{name}[{subscript}]}}` is split on an `IFS` the line sets");
            return self.unknown_part(why, true, false, false);
        }
        let array = match lookup(self.env.vars, name) {
            Some(Binding::Array(array)) => array.clone(),
            Some(Binding::Known(values)) => {
                let value = values
                    .get(self.pick(name, values.len()))
                    .cloned()
                    .unwrap_or_default();
                Array::of_value(value)
            }
            Some(Binding::Unknown(why)) => {
                let why = why.clone();
                return self.unknown_part(why, !quoted, false, false);
            }
            None | Some(Binding::Reference(_)) => {
                let why = format!("`${{{name}[{subscript}]}}` is set at run time");
                return self.unknown_part(why, !quoted, false, false);
            }
        };
        if matches!(subscript, "@" | "*") {
            let values = array.values();
            let joiner = match (quoted && subscript == "*", values.len() > 1) {
                (true, true) => match self.joiner() {
                    Some(joiner) => Some(joiner),
                    None => {
                        let why =
                            format!("`\"${{{name}[*]}}\"` is joined with an `IFS` set at run time");
                        return self.unknown_part(why, false, false, false);
                    }
                },
                _ => None,
            };
            for (at, value) in values.into_iter().enumerate() {
                match (at, &joiner) {
                    (0, _) => {}
                    (_, Some(joiner)) => self.current.push_str(joiner),
                    (_, None) => self.end_word(),
                }
                // An element only run time knows may be several words, as it was set.
                self.value(value, quoted && !is_unknown(value));
            }
            if array.elements.is_empty() && subscript == "@" && self.current.is_empty() {
                self.quoted_empty = false;
            }
            return;
        }
        match subscript_index(subscript, self.env.vars).and_then(|index| array.at(index)) {
            Some(Some(value)) => self.value(value, quoted),
            Some(None) => {}
            None => {
                let values = array.values();
                let index = self.pick(&format!("{name}[{subscript}]"), values.len());
                if let Some(value) = values.get(index) {
                    self.value(value, quoted);
                }
            }
        }
    }

    /// What `"${a[*]}"` and `"$*"` put between their words: the first character of `IFS`
    /// (nothing when the line sets it empty, a blank when it leaves it alone or unsets it);
    /// `None` when only run time knows `IFS`
    fn joiner(&mut self) -> Option<String> {
        if lookup(self.env.vars, "IFS").is_none() {
            return Some(" ".to_owned());
        }
        let ifs = self.spelled_value("IFS")?;
        Some(ifs.chars().next().map(String::from).unwrap_or_default())
    }

    /// The name `${!REF}` stands for when the line sets `REF` to one name (`ref=f;
    /// "${!ref}"` is `"$f"`); `None` for any other value, and for `${!prefix*}` and
    /// `${!name[@]}`, which list names and keys
    fn indirect_name(&self, inner: &str) -> Option<String> {
        let reference = inner.strip_prefix('!').filter(|name| is_name(name))?;
        // `${!r}` of a reference `r` is the name it refers to (bash(1), `declare -n`).
        if let Some((_, Binding::Reference(_))) = self
            .env
            .vars
            .iter()
            .rev()
            .find(|(bound, _)| bound == reference)
        {
            return None;
        }
        self.known_value(reference).filter(|name| is_name(name))
    }

    /// Whether the positional parameter `digits` is set (and, with `colon`, not empty), as
    /// the call being read gives its arguments; `None` when only run time knows: no call
    /// is read, the argument is unknown, or one before it may split into several
    fn positional_set(&self, digits: &str, colon: bool) -> Option<bool> {
        let params = self.env.params?;
        let at: usize = digits.parse().ok()?;
        let value = match at.checked_sub(1) {
            None => params.zero.as_ref(),
            Some(at) => {
                let before = params.args.get(..at).unwrap_or(&params.args);
                if before
                    .iter()
                    .any(|arg| UnknownWord::decode(arg).is_some_and(|unknown| unknown.split))
                {
                    return None;
                }
                match params.args.get(at) {
                    Some(arg) => Some(arg),
                    None => return Some(false),
                }
            }
        };
        let value = value?;
        if is_unknown(value) {
            return None;
        }
        Some(!(value.is_empty() && colon))
    }

    /// `${NAME:-WORD}` and the other operators that use a word when a parameter is unset
    /// or empty (`-`, `=`, and `+`, which uses it when the parameter is set; bash(1),
    /// Parameter Expansion): the parameter's value or the word, as the line decides it; a
    /// pass for each when only run time knows whether it is set
    fn defaulted(&mut self, name: &str, operator: DefaultOperator, word: &str, quoted: bool) {
        let set = match name {
            "HOME" | "PWD" => Some(true),
            // `f() { find "${1:-.}"; }; f src`: the arguments of the call being read.
            _ if name.bytes().all(|byte| byte.is_ascii_digit()) => {
                self.positional_set(name, operator.colon)
            }
            _ => match lookup(self.env.vars, name) {
                Some(Binding::Known(values)) => values
                    .get(self.pick(name, values.len()))
                    .filter(|value| !is_unknown(value))
                    .map(|value| !(value.is_empty() && operator.colon)),
                _ => None,
            },
        };
        let uses_word = match set {
            Some(set) => set == operator.when_set,
            None => {
                // Whether it is set is a digit of its own, apart from any value it has.
                (self.pick(&format!("{name}:set"), 2) == 1) != operator.when_set
            }
        };
        match (uses_word, operator.when_set) {
            (true, _) => self.operand(word, quoted),
            (false, false) => self.parameter(name, quoted),
            (false, true) => {}
        }
    }

    /// The word of a [`defaulted`](Self::defaulted) parameter, expanded as the parameter
    /// would be; one that nests another `${…}` or a quote is known only at run time (which
    /// also bounds the reading's depth)
    fn operand(&mut self, raw: &str, quoted: bool) {
        if raw.contains("${") || raw.contains(['"', '\'']) {
            let why = format!("`${{…{raw}}}` is known only at run time");
            return self.unknown_part(why, !quoted, false, false);
        }
        let mut words = Vec::new();
        let spelled;
        let raw = if quoted {
            spelled = format!("\"{raw}\"");
            spelled.as_str()
        } else {
            raw
        };
        word(raw, self.env, &mut words);
        for (at, value) in words.iter().enumerate() {
            if at > 0 {
                self.end_word();
            }
            self.value(value, quoted);
        }
    }

    /// The value of a parameter
    fn parameter(&mut self, name: &str, quoted: bool) {
        // `declare -n k=HOME`: `$k` is `$HOME`, which the line does not set, but the reader
        // knows as it knows `$HOME` itself.
        let target;
        let name = match self.env.vars.iter().rev().find(|(bound, _)| bound == name) {
            Some((_, Binding::Reference(_))) => {
                target = referenced(self.env.vars, name);
                if self.env.vars.iter().any(|(bound, _)| *bound == target) {
                    name
                } else {
                    target.as_str()
                }
            }
            _ => name,
        };
        // Field splitting follows `$IFS`: once the line sets it, how any unquoted
        // expansion splits (and `$IFS` itself) is known only when it runs.
        let ifs_set = self.env.vars.iter().any(|(bound, _)| bound == "IFS");
        if ifs_set && (!quoted || name == "IFS") {
            let why = format!("`${name}` is split on an `IFS` the line sets");
            return self.unknown_part(why, !quoted, false, false);
        }
        match name {
            "HOME" => return self.current.push_str("$HOME"),
            "PWD" => {
                if let Some(cwd) = &self.env.context.cwd {
                    return self.current.push_str(cwd);
                }
            }
            "IFS" if !quoted => return self.split(" "),
            "IFS" => return self.current.push(' '),
            _ => {}
        }
        if let Some(params) = self.env.params {
            if self.positional(params, name, quoted) {
                return;
            }
        }
        match lookup(self.env.vars, name) {
            Some(Binding::Known(values)) => {
                let value = values
                    .get(self.pick(name, values.len()))
                    .cloned()
                    .unwrap_or_default();
                self.value(&value, quoted);
            }
            Some(Binding::Unknown(why)) => {
                let why = why.clone();
                self.unknown_part(why, !quoted, false, false);
            }
            // An array's name alone is its element 0.
            Some(Binding::Array(_)) => self.element(name, "0", quoted),
            Some(Binding::Reference(_)) => {
                let why = format!("`${name}` refers to variables in a circle");
                self.unknown_part(why, !quoted, false, false);
            }
            None if PROCESS_ID_PARAMETERS.contains(&name) => {
                self.current.push('$');
                self.current.push_str(name);
            }
            None => {
                let name_shape = NAME_VARIABLES.contains(&name);
                let why = if name.chars().all(|ch| ch.is_ascii_digit()) || matches!(name, "@" | "*")
                {
                    format!("`${name}` is an argument given at run time")
                } else {
                    format!("`${name}` is set at run time")
                };
                self.unknown_part(why, !quoted, name_shape, false);
            }
        }
    }

    /// Appends `value`, a parameter's, split into words unless `quoted`
    fn value(&mut self, value: &str, quoted: bool) {
        if self.overflowed || self.current.len().saturating_add(value.len()) > MAX_EXPANDED_BYTES {
            self.overflowed = true;
            return;
        }
        // A value known up to a part (`d=$(mktemp -d)`, `D=/tmp/$X`) goes on as that.
        if let Some(unknown) = UnknownWord::decode(value) {
            self.current.push_str(&unknown.prefix);
            let split = !quoted && !unknown.one_word && (unknown.split || !unknown.name);
            let suffix = unknown.suffix.clone();
            self.add_unknown(UnknownWord { split, ..unknown });
            self.current.push_str(&suffix);
            return;
        }
        if quoted {
            self.current.push_str(value);
        } else {
            self.split(value);
        }
    }

    /// `${@:OFFSET}`, `${@:OFFSET:LENGTH}` and the same of `*`: `@` or `*`, and the
    /// parameters they stand for, from `OFFSET` (`0` is `$0`, a negative one counts from
    /// the last), `LENGTH` of them; `None` when the line does not give the parameters, the
    /// numbers are no literal ones, or a parameter before the slice may split into several
    fn positional_slice<'i>(&self, inner: &'i str) -> Option<(&'i str, Params)> {
        let params = self.env.params?;
        let name = inner.get(..1).filter(|name| matches!(*name, "@" | "*"))?;
        let range = inner.get(1..)?.strip_prefix(':')?;
        let (offset, length) = match range.split_once(':') {
            Some((offset, length)) => (offset, Some(length.trim().parse::<usize>().ok()?)),
            None => (range, None),
        };
        let offset = offset.trim().parse::<i64>().ok()?;
        // `$0` first, known or not: only a slice from it needs it.
        let zero = params.zero.clone().unwrap_or_default();
        let all: Vec<&String> = std::iter::once(&zero).chain(&params.args).collect();
        let start = if offset < 0 {
            params
                .args
                .len()
                .checked_sub(usize::try_from(offset.unsigned_abs()).ok()?)?
                + 1
        } else {
            usize::try_from(offset).ok()?
        };
        let before = all.get(..start.min(all.len()))?;
        if before
            .iter()
            .any(|arg| UnknownWord::decode(arg).is_some_and(|word| word.split))
        {
            return None;
        }
        if start == 0 && params.zero.is_none() {
            return None;
        }
        let end = length.map_or(all.len(), |length| {
            start.saturating_add(length).min(all.len())
        });
        let args = all
            .get(start.min(end)..end)?
            .iter()
            .map(|arg| (*arg).clone())
            .collect();
        Some((name, Params { zero: None, args }))
    }

    /// A positional parameter given by the call (`$1`, `${10}`, `$#`, `$*`, `$@`), as bash
    /// expands it: `"$@"` a word per argument, `"$*"` one word of them all, joined by a
    /// blank; whether `name` is one the call gives
    fn positional(&mut self, params: &Params, name: &str, quoted: bool) -> bool {
        // An argument that may split into several words moves those after it.
        let splits = |args: &[String]| {
            args.iter()
                .filter_map(|arg| UnknownWord::decode(arg))
                .find(|unknown| unknown.split)
        };
        match name {
            "0" => match &params.zero {
                Some(zero) => self.value(zero, quoted),
                None => return false,
            },
            "#" => match splits(&params.args) {
                Some(unknown) => self.unknown_part(unknown.why, false, true, false),
                None => self.current.push_str(&params.args.len().to_string()),
            },
            "@" | "*" => {
                let joiner = match (name == "*" && quoted, params.args.len() > 1) {
                    (true, true) => match self.joiner() {
                        Some(joiner) => Some(joiner),
                        None => {
                            let why = "`\"$*\"` is joined with an `IFS` set at run time".to_owned();
                            self.unknown_part(why, false, false, false);
                            return true;
                        }
                    },
                    _ => None,
                };
                for (n, arg) in params.args.iter().enumerate() {
                    if n > 0 {
                        match &joiner {
                            Some(joiner) => self.current.push_str(joiner),
                            None => self.end_word(),
                        }
                    }
                    self.value(arg, quoted);
                }
                // `"$@"` of no argument is no word, quoted or not.
                if params.args.is_empty() && name == "@" && self.current.is_empty() {
                    self.quoted_empty = false;
                }
            }
            digits => {
                let Some(at) = digits.parse::<usize>().ok().and_then(|n| n.checked_sub(1)) else {
                    return false;
                };
                let before = params.args.get(..at).unwrap_or(&params.args);
                match splits(before) {
                    Some(unknown) => self.unknown_part(unknown.why, !quoted, false, false),
                    None => self.value(params.args.get(at).map_or("", String::as_str), quoted),
                }
            }
        }
        true
    }

    /// The output of `$(inner)`: known for `pwd` and for `echo` or `cat <<EOF` of literal
    /// text; otherwise unknown
    fn substitution(&mut self, inner: &str, quoted: bool) {
        match literal_output(inner, self.env) {
            Some(value) if quoted => self.current.push_str(&value),
            Some(value) => self.split(&value),
            None => {
                let programs = programs_of(inner);
                // `$(mktemp -d)`: a folder just made, whose place is known up to its name.
                if let [(program, args)] = programs.as_slice() {
                    if program == "mktemp" && !args.iter().any(|arg| is_unknown(arg)) {
                        let tmpdir = self.known_value("TMPDIR");
                        if let Some(start) = crate::knowledge::mktemp_start(args, tmpdir.as_deref())
                        {
                            let shown: String = inner.trim().chars().take(40).collect();
                            self.current.push_str(&start);
                            let why =
                                format!("the output of `$({shown})` is known only at run time");
                            return self.unknown_part(why, false, true, false);
                        }
                    }
                }
                let (name, one_word) = match programs.as_slice() {
                    [(program, args)] => {
                        (prints_a_name(program, args), prints_one_word(program, args))
                    }
                    _ => (false, false),
                };
                let own_code = programs_print_own_code(&programs);
                let shown: String = inner.trim().chars().take(40).collect();
                let why = format!("the output of `$({shown})` is known only at run time");
                self.add_unknown(UnknownWord {
                    prefix: String::new(),
                    suffix: String::new(),
                    split: !quoted && !one_word,
                    name,
                    own_code,
                    one_word,
                    why,
                });
            }
        }
    }

    /// Appends the unquoted value `value`, split into words at blanks, or as the `IFS` the
    /// line sets splits it (bash(1), Word Splitting: `IFS=,; $(echo 'sudo,rm')` runs `sudo
    /// rm`); a part only known at run time when the line sets one only run time knows
    fn split(&mut self, value: &str) {
        if self.env.vars.iter().any(|(bound, _)| bound == "IFS") {
            match self.spelled_value("IFS") {
                Some(ifs) => self.split_on(value, &ifs),
                None => self.unknown_part(
                    "a value split on an `IFS` the line sets, known only at run time".to_owned(),
                    true,
                    false,
                    false,
                ),
            }
            return;
        }
        let mut pieces = value.split([' ', '\t', '\n']);
        if let Some(first) = pieces.next() {
            self.current.push_str(first);
        }
        for piece in pieces {
            self.end_word();
            self.current.push_str(piece);
        }
    }

    /// Appends `value` split on the characters of `ifs`: blanks among them gather and are
    /// cut from both ends; each other one ends a field, an empty one included, but for a
    /// last one, which ends the last field
    fn split_on(&mut self, value: &str, ifs: &str) {
        if ifs.is_empty() {
            return self.current.push_str(value);
        }
        let blank = |ch: char| matches!(ch, ' ' | '\t' | '\n') && ifs.contains(ch);
        let mut rest = value.trim_matches(blank);
        while let Some(at) = rest.find(|ch: char| ifs.contains(ch)) {
            self.current.push_str(rest.get(..at).unwrap_or_default());
            let after = rest.get(at..).unwrap_or_default();
            let gap = after.trim_start_matches(blank);
            // One delimiter that is no blank, with the blanks around it, ends one field.
            let gap = gap
                .strip_prefix(|ch: char| ifs.contains(ch) && !blank(ch))
                .map_or(gap, |after_delimiter| {
                    after_delimiter.trim_start_matches(blank)
                });
            self.quoted_empty = true;
            self.end_word();
            rest = gap;
        }
        self.current.push_str(rest);
    }

    /// Ends the word being built, if it holds anything
    fn end_word(&mut self) {
        let word = std::mem::take(&mut self.current);
        match self.unknown.take() {
            // A `..` in what follows the unknown part may climb above the known start
            // (`/tmp/$(date)/../../dev/sda`): the word is no name below its start then, and
            // may lead anywhere.
            Some(mut unknown) => {
                unknown.suffix = word
                    .get(self.after_unknown..)
                    .unwrap_or_default()
                    .to_owned();
                let tail = word.get(unknown.prefix.len()..).unwrap_or_default();
                if tail.split('/').any(|part| part == "..") {
                    unknown.name = false;
                }
                // Text beside a program's own code (`"rm -rf ~; $(ssh-agent -s)"`) is not
                // that program's: the word runs more than it prints.
                if !word.is_empty() {
                    unknown.own_code = false;
                }
                self.out.push(unknown.encode());
            }
            None if !word.is_empty() || self.quoted_empty => self.out.push(word),
            None => {}
        }
        self.quoted_empty = false;
        if self.out.len() - self.start > MAX_WORDS {
            self.overflowed = true;
            self.out.truncate(self.start + MAX_WORDS);
        }
    }

    /// Records that the word being built has a part only known at run time
    fn unknown_part(&mut self, why: String, split: bool, name: bool, own_code: bool) {
        self.add_unknown(UnknownWord {
            prefix: String::new(),
            suffix: String::new(),
            split,
            name,
            own_code,
            one_word: false,
            why,
        });
    }

    /// Records `part`, whose prefix is ignored: the word's known start is the text built
    /// before its first unknown part
    fn add_unknown(&mut self, part: UnknownWord) {
        let between = self.current.get(self.after_unknown..).unwrap_or_default();
        let joined_by_folder = between.contains('/');
        self.after_unknown = self.current.len();
        match &mut self.unknown {
            Some(unknown) => {
                unknown.split |= part.split;
                // `/tmp/$(date +%s)/$(date +%s)`: what lies between prefix and suffix is
                // no name once a `/` joins two unknown parts.
                unknown.name &= part.name && !joined_by_folder;
                unknown.own_code &= part.own_code;
                unknown.one_word &= part.one_word;
            }
            None => {
                self.unknown = Some(UnknownWord {
                    prefix: self.current.clone(),
                    ..part
                })
            }
        }
    }

    /// Ends the pass's last word, and gives back the digits of the passes
    fn finish(mut self) -> Vec<(String, usize)> {
        self.end_word();
        self.radices
    }

    /// Which of its `count` values the parameter `key` takes in this pass. Each parameter
    /// with several values is a digit of the pass number, so that the passes go through
    /// every combination of their values, as nested loops run them (`for a in x --for; do
    /// for b in ce y; do … "$a$b"` runs `--force`); values set in one loop are combined
    /// too, which reads more words than run, never fewer.
    fn pick(&mut self, key: &str, count: usize) -> usize {
        if count <= 1 {
            return 0;
        }
        let mut stride = 1usize;
        for (known, values) in &self.radices {
            if known == key {
                return self.choice / stride % values.max(&1) % count;
            }
            stride = stride.saturating_mul(*values);
        }
        self.radices.push((key.to_owned(), count));
        self.choice / stride % count
    }
}

/// Skips `chars` up to byte offset `end`
fn skip_to(chars: &mut Chars<'_>, end: usize) {
    while chars.peek().is_some_and(|(index, _)| *index < end) {
        chars.next();
    }
}

/// The byte offset just past the group opening at `open` (quotes inside are skipped)
fn group_end(raw: &str, open: usize, opening: char, closing: char) -> usize {
    let mut depth = 0usize;
    let mut quote = None;
    for (index, ch) in raw.char_indices().skip_while(|(index, _)| *index < open) {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(ch),
            (None, c) if c == opening => depth += 1,
            (None, c) if c == closing => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return index + ch.len_utf8();
                }
            }
            _ => {}
        }
    }
    raw.len()
}

/// A change of the case of a value's letters
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CaseChange {
    /// `^^`, `@U`
    UpperAll,
    /// `^`, `@u`
    UpperFirst,
    /// `,,`, `@L`
    LowerAll,
    /// `,`
    LowerFirst,
    /// `~~`
    ToggleAll,
    /// `~`
    ToggleFirst,
}

impl CaseChange {
    /// `value` with its letters changed; ASCII letters, as bash changes them in the C
    /// locale
    fn apply(self, value: &str) -> String {
        let change = |ch: char| match self {
            Self::UpperAll | Self::UpperFirst => ch.to_ascii_uppercase(),
            Self::LowerAll | Self::LowerFirst => ch.to_ascii_lowercase(),
            Self::ToggleAll | Self::ToggleFirst if ch.is_ascii_uppercase() => {
                ch.to_ascii_lowercase()
            }
            Self::ToggleAll | Self::ToggleFirst => ch.to_ascii_uppercase(),
        };
        let all = matches!(self, Self::UpperAll | Self::LowerAll | Self::ToggleAll);
        value
            .chars()
            .enumerate()
            .map(|(at, ch)| if all || at == 0 { change(ch) } else { ch })
            .collect()
    }
}

/// The name and the change of a case modification with no pattern (`q^^`, `q,`, `q@U`)
fn case_modification(inner: &str) -> Option<(&str, CaseChange)> {
    let end = inner
        .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
        .unwrap_or(inner.len());
    let (name, operator) = inner.split_at(end);
    let change = match operator {
        "^^" | "@U" => CaseChange::UpperAll,
        "^" | "@u" => CaseChange::UpperFirst,
        ",," | "@L" => CaseChange::LowerAll,
        "," => CaseChange::LowerFirst,
        "~~" => CaseChange::ToggleAll,
        "~" => CaseChange::ToggleFirst,
        _ => return None,
    };
    is_name(name).then_some((name, change))
}

/// The name and the subscript of `NAME[SUBSCRIPT]`, without the braces around it
fn subscripted(inner: &str) -> Option<(&str, &str)> {
    let (name, rest) = inner.split_once('[')?;
    let subscript = rest.strip_suffix(']')?;
    (is_name(name) && !subscript.is_empty() && !subscript.contains(['[', ']']))
        .then_some((name, subscript))
}

/// How `${NAME<op>WORD}` chooses: `:-`, `:=` and `:+` count an empty value as unset
/// (`colon`); `+` uses the word when the parameter is set, the others when it is not
#[derive(Debug, Clone, Copy)]
struct DefaultOperator {
    colon: bool,
    when_set: bool,
}

/// The name, the operator and the word of `${NAME:-WORD}`, `${NAME-WORD}`, `${NAME:=WORD}`,
/// `${NAME=WORD}`, `${NAME:+WORD}` and `${NAME+WORD}`, without the braces
fn default_operator(inner: &str) -> Option<(&str, DefaultOperator, &str)> {
    let end = inner.find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))?;
    let (name, rest) = inner.split_at(end);
    // A positional parameter takes `-` and `+` (bash refuses to assign one with `=`).
    let positional = !name.is_empty() && name.bytes().all(|byte| byte.is_ascii_digit());
    if !is_name(name) && !positional {
        return None;
    }
    let (colon, rest) = match rest.strip_prefix(':') {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    let mut chars = rest.chars();
    let when_set = match chars.next()? {
        '=' if positional => return None,
        '-' | '=' => false,
        '+' => true,
        _ => return None,
    };
    Some((name, DefaultOperator { colon, when_set }, chars.as_str()))
}

/// An edit of a value by a pattern
enum PatternEdit<'a> {
    /// `#WORD`, `##WORD` (`prefix`) and `%WORD`, `%%WORD`: the shortest (`longest`: the
    /// longest) prefix or suffix WORD matches removed
    Remove {
        word: &'a str,
        longest: bool,
        prefix: bool,
    },
    /// `/WORD/TEXT`: the first WORD replaced; `all` for `//`
    Replace {
        word: &'a str,
        by: &'a str,
        all: bool,
    },
    /// `/#WORD/TEXT`: WORD replaced at the start
    ReplacePrefix { word: &'a str, by: &'a str },
    /// `/%WORD/TEXT`: WORD replaced at the end
    ReplaceSuffix { word: &'a str, by: &'a str },
}

impl PatternEdit<'_> {
    /// `value` edited; `None` when the pattern is no pattern globset reads as bash would
    fn apply(&self, value: &str) -> Option<String> {
        Some(match *self {
            Self::Remove {
                word,
                longest,
                prefix,
            } => without_match(value, word, longest, prefix)?,
            // An empty pattern replaces nothing.
            Self::Replace { word: "", .. } => value.to_owned(),
            Self::Replace {
                word,
                by,
                all: true,
            } => value.replace(word, by),
            Self::Replace {
                word,
                by,
                all: false,
            } => value.replacen(word, by, 1),
            Self::ReplacePrefix { word, by } => match value.strip_prefix(word) {
                Some(rest) => format!("{by}{rest}"),
                None => value.to_owned(),
            },
            Self::ReplaceSuffix { word, by } => match value.strip_suffix(word) {
                Some(rest) => format!("{rest}{by}"),
                None => value.to_owned(),
            },
        })
    }
}

/// `pattern` as bash matches it in a parameter expansion and `find -path`: `*` any text,
/// `/` too; `None` when globset reads no pattern in it
pub(crate) fn pattern_matcher(pattern: &str) -> Option<globset::GlobMatcher> {
    globset::GlobBuilder::new(pattern)
        .literal_separator(false)
        .backslash_escape(true)
        .build()
        .ok()
        .map(|glob| glob.compile_matcher())
}

/// `value` without its shortest (`longest`: longest) prefix (`prefix`) or suffix that
/// `pattern` matches; itself when none does
fn without_match(value: &str, pattern: &str, longest: bool, prefix: bool) -> Option<String> {
    let matcher = pattern_matcher(pattern)?;
    // Where to cut, from the shortest part cut off to the longest.
    let mut cuts: Vec<usize> = (0..=value.len())
        .filter(|at| value.is_char_boundary(*at))
        .collect();
    if prefix == longest {
        cuts.reverse();
    }
    let split = |at: usize| {
        let (head, tail) = value.split_at(at);
        if prefix {
            (head, tail)
        } else {
            (tail, head)
        }
    };
    let kept = cuts
        .into_iter()
        .map(split)
        .find(|(cut, _)| matcher.is_match(cut))
        .map_or(value, |(_, kept)| kept);
    Some(kept.to_owned())
}

/// The name and the edit of a pattern removal or substitution whose parts the line spells
/// out (`q%X`, `f%.*`, `p##*/`, `c/rn/rm`): a removal's pattern may hold `*`, `?` and
/// brackets; a substitution's pattern and text are literal
fn pattern_edit(inner: &str) -> Option<(&str, PatternEdit<'_>)> {
    let end = inner
        .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
        .unwrap_or(inner.len());
    let (name, operator) = inner.split_at(end);
    if !is_name(name) {
        return None;
    }
    // What bash would expand in it (or read as an extended glob) is left to run time.
    let spelled = |text: &str| !text.contains(['$', '`', '\'', '"', '~', '{', '}', '(', ')']);
    let literal = |text: &str| spelled(text) && !text.contains(['*', '?', '[', '\\']);
    let removal = [
        ("##", true, true),
        ("#", false, true),
        ("%%", true, false),
        ("%", false, false),
    ]
    .into_iter()
    .find_map(|(mark, longest, prefix)| {
        let word = operator.strip_prefix(mark)?;
        Some((
            PatternEdit::Remove {
                word,
                longest,
                prefix,
            },
            spelled(word),
        ))
    });
    let (edit, ok) = if let Some(removal) = removal {
        removal
    } else {
        let rest = operator.strip_prefix('/')?;
        let (kind, rest) = match rest.chars().next() {
            Some(mark @ ('/' | '#' | '%')) => (Some(mark), rest.get(1..).unwrap_or_default()),
            _ => (None, rest),
        };
        let (word, by) = rest.split_once('/').unwrap_or((rest, ""));
        let edit = match kind {
            Some('/') => PatternEdit::Replace {
                word,
                by,
                all: true,
            },
            Some('#') => PatternEdit::ReplacePrefix { word, by },
            Some('%') => PatternEdit::ReplaceSuffix { word, by },
            _ => PatternEdit::Replace {
                word,
                by,
                all: false,
            },
        };
        (edit, literal(word) && literal(by))
    };
    ok.then_some((name, edit))
}

pub(crate) fn is_name(text: &str) -> bool {
    !text.is_empty()
        && !text.starts_with(|ch: char| ch.is_ascii_digit())
        && text
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

fn is_special(text: &str) -> bool {
    text.chars().all(|ch| ch.is_ascii_digit()) && !text.is_empty()
        || matches!(text, "@" | "*" | "#" | "?" | "$" | "!" | "-")
}

fn is_special_char(ch: char) -> bool {
    ch.is_ascii_digit() || matches!(ch, '@' | '*' | '#' | '?' | '$' | '!' | '-')
}

/// What `inner`, the script of a substitution, prints when it is literal: `pwd`, `echo` of
/// plain words, `printf` of a plain format, or `cat` of a here-document
pub(crate) fn literal_output(inner: &str, env: &Env<'_>) -> Option<String> {
    let text = inner.trim();
    if text == "pwd" {
        return env.context.cwd.clone();
    }
    if let Some(input) = env.input.filter(|_| prints_its_input(text)) {
        return Some(input.trim_end_matches('\n').to_owned());
    }
    if let Some(body) = heredoc_of_cat(text) {
        return Some(body.trim_end_matches('\n').to_owned());
    }
    let (program, rest) = text.split_once([' ', '\t']).unwrap_or((text, ""));
    // An operator outside quotes makes more than one command of it; inside double quotes, a
    // substitution is expanded, and known only at run time (below).
    if !matches!(program, "echo" | "printf")
        || unquoted(rest)
            .any(|ch| matches!(ch, '|' | ';' | '&' | '<' | '>' | '(' | ')' | '`' | '\n'))
        || rest.contains('`')
    {
        return None;
    }
    let mut words = Vec::new();
    for raw in shell_words(rest) {
        word(raw, env, &mut words);
    }
    if words.iter().any(|word| is_unknown(word)) {
        return None;
    }
    // An escape is read by `printf`, and by the `echo` of some shells (dash's): its output
    // is not what the line spells, so it is left unknown.
    if program == "echo" && words.iter().any(|word| word.contains('\\')) {
        return None;
    }
    crate::printf::printed(program, &words)
}

/// Whether the command line `text` prints its input as it is: `cat`, `cat -` and `cat` or
/// `<` of a path naming the input (`$(cat /dev/stdin)`, `$(</dev/stdin)`)
fn prints_its_input(text: &str) -> bool {
    // `< -` reads a file named `-`.
    let names_input = |file: &str| file != "-" && crate::knowledge::STDIN_PATHS.contains(&file);
    match text.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["cat"] => true,
        ["cat", file] => crate::knowledge::STDIN_PATHS.contains(file),
        ["<", file] => names_input(file),
        [redirect] => redirect.strip_prefix('<').is_some_and(names_input),
        _ => false,
    }
}

/// The characters of `text` outside quotes (an escaped one counts as quoted)
fn unquoted(text: &str) -> impl Iterator<Item = char> + '_ {
    let mut quote = None;
    let mut escaped = false;
    text.chars().filter(move |&ch| {
        if escaped {
            escaped = false;
            return false;
        }
        match (quote, ch) {
            (q, '\\') if q != Some('\'') => {
                escaped = true;
                false
            }
            (Some(q), c) if c == q => {
                quote = None;
                false
            }
            (Some(_), _) => false,
            (None, '\'' | '"') => {
                quote = Some(ch);
                false
            }
            (None, _) => true,
        }
    })
}

/// `text` split at blanks outside quotes
fn shell_words(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut quote = None;
    let mut start = None;
    let mut escaped = false;
    for (index, ch) in text.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, ch) {
            (_, '\\') if quote != Some('\'') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(ch),
            (None, ' ' | '\t') => {
                if let Some(begin) = start.take() {
                    words.extend(text.get(begin..index));
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(index);
    }
    if let Some(begin) = start {
        words.extend(text.get(begin..));
    }
    words
}

/// The body of `cat <<DELIM` (the delimiter quoted or not, `<<-` too) when that is all the
/// script holds and the body expands nothing
fn heredoc_of_cat(text: &str) -> Option<&str> {
    let (head, body) = text.split_once('\n')?;
    let redirect = head
        .trim()
        .strip_prefix("cat")?
        .trim_start()
        .strip_prefix("<<")?;
    let strip_tabs = redirect.starts_with('-');
    let delimiter = redirect.trim_start_matches('-').trim();
    let quoted = delimiter.starts_with(['\'', '"']);
    let delimiter = delimiter.trim_matches(['\'', '"']);
    if delimiter.is_empty() || delimiter.contains(char::is_whitespace) {
        return None;
    }
    let mut end = 0;
    for line in body.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        let bare = if strip_tabs {
            bare.trim_start_matches('\t')
        } else {
            bare
        };
        if bare == delimiter {
            let rest = body.get(end + line.len()..).unwrap_or_default();
            let content = body.get(..end)?;
            let expands = !quoted && content.contains(['$', '`', '\\']);
            return (rest.trim().is_empty() && !expands).then_some(content);
        }
        end += line.len();
    }
    None
}

/// The programs of the simple commands of a short script and their words, split at `|`,
/// `;` and `&` (for judging a substitution's output, not for reading it)
pub(crate) fn programs_of(inner: &str) -> Vec<(String, Vec<String>)> {
    inner
        .split(['|', ';', '&', '\n'])
        .filter_map(|part| {
            let mut words = part.split_whitespace().map(crate::word::unquote);
            let program = words.next()?;
            // `$(< f)` is bash's `$(cat f)`: the text of a file, no program's own code.
            if program.starts_with('<') {
                return Some(("cat".to_owned(), words.collect()));
            }
            let program = program.rsplit('/').next().unwrap_or(&program).to_owned();
            Some((program, words.collect()))
        })
        .collect()
}

/// Whether every program of a substitution (`programs_of`) prints its own code
/// (`kubectl completion bash`), not text handed to it or fetched, and none is named by an
/// expansion
pub(crate) fn programs_print_own_code(programs: &[(String, Vec<String>)]) -> bool {
    !programs.is_empty()
        && programs
            .iter()
            .all(|(program, args)| !program.contains(['$', '`']) && prints_own_code(program, args))
}

/// Where the `=` of a word of the shape of an assignment is (`NAME=...`, the name unquoted)
fn assignment_start(raw: &str) -> Option<usize> {
    let eq = raw.find('=')?;
    let name = raw.get(..eq)?;
    let mut chars = name.chars();
    let starts = chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_');
    (starts && chars.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')).then_some(eq)
}

#[cfg(test)]
mod tests {
    use super::{assigned_defaults, word, Binding, Cell, Env, UnknownWord, Vars};
    use crate::Context;

    /// The words `raw` expands into, encoded as the reader keeps them (cwd `/p`, no home)
    fn expand_encoded(raw: &str, vars: &Vars) -> Vec<String> {
        let context = Context {
            cwd: Some("/p".to_owned()),
            home: None,
            ..Context::default()
        };
        let spent = Cell::new(0);
        let env = Env {
            vars,
            context: &context,
            params: None,
            spent: &spent,
            input: None,
        };
        let mut out = Vec::new();
        word(raw, &env, &mut out);
        out
    }

    fn expand(raw: &str, vars: &Vars) -> Vec<String> {
        expand_encoded(raw, vars)
            .iter()
            .map(|word| match UnknownWord::decode(word) {
                Some(unknown) => format!(
                    "?{}{}{}{}[{}]",
                    if unknown.split { "s" } else { "" },
                    if unknown.name { "n" } else { "" },
                    if unknown.own_code { "c" } else { "" },
                    if unknown.one_word { "w" } else { "" },
                    unknown.prefix
                ),
                None => word.clone(),
            })
            .collect()
    }

    /// bash(1), QUOTING: "Enclosing characters in double quotes preserves the literal value
    /// of all characters within the quotes, with the exception of $, `, \, and, when history
    /// expansion is enabled, !": metacharacters inside quotes are text, outside they are
    /// operators
    #[test]
    fn a_literal_output_may_quote_operators() {
        let context = Context::default();
        let spent = Cell::new(0);
        let vars = Vars::new();
        let env = Env {
            vars: &vars,
            context: &context,
            params: None,
            spent: &spent,
            input: None,
        };
        let output = |inner: &str| super::literal_output(inner, &env);
        assert_eq!(
            output("echo \"f(1); g | h\""),
            Some("f(1); g | h".to_owned())
        );
        assert_eq!(output("echo 'a > b' c"), Some("a > b c".to_owned()));
        assert_eq!(output("echo a; rm x"), None);
        assert_eq!(output("echo a \\(b"), Some("a (b".to_owned()));
        assert_eq!(output("echo \"$(id)\""), None);
        assert_eq!(output("echo \"`id`\""), None);
        assert_eq!(output("printf '%s' x | sh"), None);
    }

    fn known(name: &str, values: &[&str]) -> (String, Binding) {
        let values = values.iter().map(|value| (*value).to_owned()).collect();
        (name.to_owned(), Binding::Known(values))
    }

    #[test]
    fn values_of_loop_variables_combine_as_nested_loops_run_them() {
        // bash runs `for a in x --for; do for b in ce y; do echo "$a$b"`: xce, xy, --force,
        // --fory. A word sees every combination, never one value of each in step.
        let vars = vec![known("a", &["x", "--for"]), known("b", &["ce", "y"])];
        let mut words = expand("\"$a$b\"", &vars);
        words.sort();
        assert_eq!(words, ["--force", "--fory", "xce", "xy"]);
        // One variable used twice takes one value in each pass.
        assert_eq!(expand("\"$a$a\"", &vars), ["xx", "--for--for"]);
        // Whether a parameter only run time knows is set is a choice of its own.
        let mut words = expand("${u:-/}$a", &vars);
        words.sort();
        assert_eq!(words.len(), 4);
        assert!(words.contains(&"/--for".to_owned()), "{words:?}");
    }

    #[test]
    fn a_word_that_expands_past_the_bound_ends_in_an_unknown_word() {
        let words = expand("{1..5000}", &Vars::new());
        assert_eq!(words.len(), super::MAX_WORDS + 1);
        assert_eq!(words.last().map(String::as_str), Some("?s[]"));
        assert_eq!(
            words.get(super::MAX_WORDS - 1).map(String::as_str),
            Some("1024")
        );
        let listed = format!("{{{},/etc}}", vec!["a"; 1100].join(","));
        assert_eq!(
            expand(&listed, &Vars::new()).last().map(String::as_str),
            Some("?s[]")
        );
        // Loop values past the bound, and combinations past it, are not dropped either.
        let many: Vec<String> = (0..1100).map(|n| n.to_string()).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let vars = vec![known("d", &many)];
        let words = expand("\"$d\"", &vars);
        assert_eq!(words.last().map(String::as_str), Some("?s[]"));
        let vars = vec![known("a", &many[..40]), known("b", &many[..40])];
        assert_eq!(
            expand("$a$b", &vars).last().map(String::as_str),
            Some("?s[]")
        );
        // A word within the bound is read whole.
        assert_eq!(expand("{1..1024}", &Vars::new()).len(), 1024);
    }

    /// bash(1), Special Parameters: `"$*"` (and `"${a[*]}"`, Arrays) is "a single word
    /// with the value of each parameter separated by the first character of the IFS special
    /// variable. If IFS is unset, the parameters are separated by spaces. If IFS is null,
    /// the parameters are joined without intervening separators."
    #[test]
    fn a_joined_array_is_joined_with_the_first_character_of_ifs() {
        let mut array = super::Array::default();
        for letter in ["s", "h", "r", "e", "d"] {
            array.set(None, letter.to_owned());
        }
        let with_ifs = |ifs: Option<Binding>| {
            let mut vars: Vars = ifs.map(|ifs| ("IFS".to_owned(), ifs)).into_iter().collect();
            vars.push(("c".to_owned(), Binding::Array(array.clone())));
            expand("\"${c[*]}\"", &vars)
        };
        assert_eq!(with_ifs(None), ["s h r e d"]);
        assert_eq!(
            with_ifs(Some(Binding::Known(vec![String::new()]))),
            ["shred"]
        );
        assert_eq!(
            with_ifs(Some(Binding::Known(vec![":,".to_owned()]))),
            ["s:h:r:e:d"]
        );
        let at_run_time = Binding::Unknown("`$IFS` is set at run time".to_owned());
        assert_eq!(with_ifs(Some(at_run_time)), ["?[]"]);
    }

    #[test]
    fn a_value_grown_past_the_bound_is_unknown() {
        let long = "x".repeat(super::MAX_EXPANDED_BYTES + 1);
        assert!(matches!(
            Binding::Known(vec![long.clone()]).bounded("a"),
            Binding::Unknown(_)
        ));
        let values: Vec<String> = (0..=super::MAX_WORDS).map(|n| n.to_string()).collect();
        assert!(matches!(
            Binding::Known(values).bounded("a"),
            Binding::Unknown(_)
        ));
        assert!(matches!(
            Binding::Known(vec!["/etc".to_owned()]).bounded("a"),
            Binding::Known(_)
        ));
        // A word that would build a value past the bound stops and is unknown.
        let vars = vec![known("a", &[long.as_str()])];
        assert_eq!(expand("$a$a", &vars), ["?s[]"]);
    }

    #[test]
    fn array_elements_are_the_words_and_keyed_values_as_written() {
        use super::array_elements;
        assert_eq!(
            array_elements("(a \"b c\" [k]=$HOME/x [2]='y z' $(ls -a))"),
            Some(vec![
                (None, "a"),
                (None, "\"b c\""),
                (Some("k"), "$HOME/x"),
                (Some("2"), "'y z'"),
                (None, "$(ls -a)"),
            ])
        );
        assert_eq!(
            array_elements("(\n  a\n  b\n)"),
            Some(vec![(None, "a"), (None, "b")])
        );
        assert_eq!(array_elements("()"), Some(vec![]));
        // Not read: a comment, an appending element, a quote never closed, no parentheses.
        assert_eq!(array_elements("(a # b\n)"), None);
        assert_eq!(array_elements("([k]+=v)"), None);
        assert_eq!(array_elements("(a 'b)"), None);
        assert_eq!(array_elements("a b"), None);
    }

    #[test]
    fn expands_what_bash_expands_before_running() {
        let vars: Vars = vec![
            ("D".to_owned(), Binding::Known(vec!["~".to_owned()])),
            ("F".to_owned(), Binding::Known(vec!["-r -f".to_owned()])),
            (
                "Q".to_owned(),
                Binding::Known(vec!["drop table T".to_owned()]),
            ),
            ("R".to_owned(), Binding::Known(vec!["RM -RF".to_owned()])),
            ("K".to_owned(), Binding::Known(vec!["flushallX".to_owned()])),
            ("P".to_owned(), Binding::Known(vec!["/tmp/.ssh".to_owned()])),
            ("M".to_owned(), Binding::Known(vec!["rm -rf".to_owned()])),
            ("C".to_owned(), Binding::Known(vec!["rn".to_owned()])),
            ("V".to_owned(), Binding::Known(vec!["1.2.3".to_owned()])),
            ("E".to_owned(), Binding::Known(vec![String::new()])),
            ("N".to_owned(), Binding::Known(vec!["M".to_owned()])),
            (
                "P2".to_owned(),
                Binding::Known(vec!["$HOME/.ssh/id_rsa.pub".to_owned()]),
            ),
            (
                "L".to_owned(),
                Binding::Known(vec!["~".to_owned(), "/etc".to_owned()]),
            ),
        ];
        let cases: &[(&str, &[&str])] = &[
            ("plain", &["plain"]),
            ("\"$D\"", &["~"]),
            ("$F", &["-r", "-f"]),
            ("\"$F\"", &["-r -f"]),
            ("\"$L\"/x", &["~/x", "/etc/x"]),
            ("{,/}etc", &["etc", "/etc"]),
            ("a{b,c}d", &["abd", "acd"]),
            ("'{a,b}'", &["{a,b}"]),
            ("{rm,-rf,~}", &["rm", "-rf", "~"]),
            ("{a,\"b c\"}", &["a", "b c"]),
            ("{x,'y,z'}", &["x", "y,z"]),
            ("{s..s}udo", &["sudo"]),
            ("{1..7..3}", &["1", "4", "7"]),
            ("{3..1}", &["3", "2", "1"]),
            ("{08..10}", &["08", "09", "10"]),
            ("{a..c}", &["a", "b", "c"]),
            ("{Z..a}", &["Z", "[", "\\", "]", "^", "_", "`", "a"]),
            ("{a}{,b}", &["{a}", "{a}b"]),
            ("{1..2..x}", &["{1..2..x}"]),
            ("{$X,y}", &["?s[]", "y"]),
            ("${D}{1,2}", &["~1", "~2"]),
            ("{a,$(echo b c)}", &["a", "b", "c"]),
            ("~root/x", &["/root/x"]),
            ("~+/..", &["/p/.."]),
            ("~bob", &["/home/bob"]),
            ("~", &["~"]),
            ("$HOME/x", &["$HOME/x"]),
            ("$PWD/b", &["/p/b"]),
            ("rm${IFS}-rf", &["rm", "-rf"]),
            ("$(pwd)", &["/p"]),
            ("$(echo /etc)", &["/etc"]),
            ("\"$(printf 'a b')\"", &["a b"]),
            ("\"$(cat <<'EOF'\nmsg $x\nEOF\n)\"", &["msg $x"]),
            ("'$D'", &["$D"]),
            ("\"$X\"", &["?[]"]),
            ("$X", &["?s[]"]),
            ("pre$X", &["?s[pre]"]),
            ("\"$USER\"", &["?n[]"]),
            ("\"$(date +%s)\"", &["?ncw[]"]),
            ("a:$(git rev-parse --short HEAD)", &["?nw[a:]"]),
            ("$(date +%s)", &["?ncw[]"]),
            ("$(date)", &["?snc[]"]),
            ("\"$(ssh-agent -s)\"", &["?c[]"]),
            // Text beside a program's own code is not its code.
            ("\"x; $(ssh-agent -s)\"", &["?[x; ]"]),
            ("\"$(ssh-agent -s); x\"", &["?[]"]),
            ("\"$(echo $X | base64 -d)\"", &["?[]"]),
            // Unset, or set to what run time knows: the value and the word, a pass each.
            ("${X:-/etc}", &["?s[]", "/etc"]),
            ("\"${X-$HOME/.netrc}\"", &["?[]", "$HOME/.netrc"]),
            ("${X:+-rf}", &["-rf"]),
            ("${HOME:-/x}/.ssh", &["$HOME/.ssh"]),
            ("${R:-/x}", &["RM", "-RF"]),
            ("${L:-/x}", &["~", "/etc"]),
            ("${E:-/etc}", &["/etc"]),
            ("${E-/etc}", &[]),
            ("${R:+/etc}", &["/etc"]),
            // A word nesting a quote or another `${…}` is not read: both passes are unknown.
            ("\"${X:-\"a\"}\"", &["?[]", "?[]"]),
            ("${X:-${Y:-/etc}}", &["?s[]", "?s[]"]),
            ("\"${!N}\"", &["rm -rf"]),
            ("${!F}", &["?s[]"]),
            // A suffix cut from a value holding the home, when the rest after it holds it.
            ("${P2%.pub}", &["$HOME/.ssh/id_rsa"]),
            ("${P2%/*}", &["$HOME/.ssh"]),
            ("${P2%%/*}", &["?s[]"]),
            ("${P2%.nothing}", &["?s[]"]),
            ("${P2#*/}", &["?s[]"]),
            // bash(1), Case modification: `^` upper, `,` lower, `~` toggles; doubled, every
            // letter, else the first; `@U`, `@u`, `@L` as `^^`, `^`, `,,`.
            ("\"${Q^^}\"", &["DROP TABLE T"]),
            ("${Q^^}", &["DROP", "TABLE", "T"]),
            ("${Q^}", &["Drop", "table", "T"]),
            ("${R,,}", &["rm", "-rf"]),
            ("${R,}", &["rM", "-RF"]),
            ("\"${R~~}\"", &["rm -rf"]),
            ("\"${Q~}\"", &["Drop table T"]),
            ("\"${Q@U}\"", &["DROP TABLE T"]),
            ("\"${R@L}\"", &["rm -rf"]),
            ("\"${Q@u}\"", &["Drop table T"]),
            ("\"${Q^^[a-d]}\"", &["?[]"]),
            ("\"${X^^}\"", &["?[]"]),
            ("\"${D^^}\"", &["?[]"]),
            // bash(1), Remove matching prefix/suffix pattern and Pattern substitution, of
            // literal patterns; a glob or an expansion in them is left to run time.
            ("${K%X}", &["flushall"]),
            ("${K%%X}", &["flushall"]),
            ("${P#/tmp}", &["/.ssh"]),
            ("${P##/tmp}", &["/.ssh"]),
            ("\"${M/-rf/-r -f}\"", &["rm -r -f"]),
            ("${C//n/m}", &["rm"]),
            ("${C/#r/w}", &["wn"]),
            ("${C/%n/m}", &["rm"]),
            ("${C/x}", &["rn"]),
            ("${K%Y}", &["flushallX"]),
            ("\"${K%*X}\"", &["flushall"]),
            ("${V%.*}", &["1.2"]),
            ("${V%%.*}", &["1"]),
            ("${V#*.}", &["2.3"]),
            ("${V##*.}", &["3"]),
            ("${P##*/}", &[".ssh"]),
            ("${P%/*}", &["/tmp"]),
            ("${V%[0-9]}", &["1.2."]),
            ("\"${C/?/x}\"", &["?[]"]),
            ("\"${K%$Y}\"", &["?[]"]),
            ("\"${X%a}\"", &["?[]"]),
            ("$1", &["?s[]"]),
            ("\"\"", &[""]),
            ("$EMPTY_UNKNOWN\"\"", &["?s[]"]),
            ("<(curl x)", &["<(curl x)"]),
            ("$'r\\x6d'", &["rm"]),
            ("`pwd`", &["/p"]),
        ];
        for (raw, expected) in cases {
            assert_eq!(expand(raw, &vars), *expected, "{raw}");
        }
    }

    #[test]
    fn an_expansion_that_assigns_names_its_parameter_and_word() {
        assert_eq!(
            assigned_defaults(r#"${KEYS:=$HOME/.ssh}"#),
            [("KEYS", "$HOME/.ssh", true)]
        );
        assert_eq!(assigned_defaults("a${X=/etc}b"), [("X", "/etc", false)]);
        assert_eq!(
            assigned_defaults("${A:=${B:=x}/y}"),
            [("A", "${B:=x}/y", true), ("B", "x", true)]
        );
        assert!(assigned_defaults("${X:-/etc} ${Y} $Z= ${1:=x}").is_empty());
    }

    #[test]
    fn an_unknown_word_survives_its_encoding() {
        let unknown = UnknownWord {
            prefix: "a/".to_owned(),
            suffix: "/environ".to_owned(),
            split: true,
            name: false,
            own_code: true,
            one_word: true,
            why: "`$X` is set at run time".to_owned(),
        };
        assert_eq!(UnknownWord::decode(&unknown.encode()), Some(unknown));
        assert_eq!(UnknownWord::decode("plain"), None);
    }

    #[test]
    fn an_unknown_word_keeps_the_text_after_its_last_unknown_part() {
        // What bash joins around a value only run time knows (bash(1), EXPANSION): the
        // known text on each side stays the word's.
        let vars: Vars = vec![(
            "D".to_owned(),
            Binding::Known(vec![UnknownWord {
                prefix: "/tmp/".to_owned(),
                suffix: "/sub".to_owned(),
                split: false,
                name: true,
                own_code: false,
                one_word: false,
                why: "`$X` is set at run time".to_owned(),
            }
            .encode()]),
        )];
        for (raw, prefix, suffix) in [
            ("/proc/$(pgrep -n node)/environ", "/proc/", "/environ"),
            ("\"/proc/$PID/task/$TID/environ\"", "/proc/", "/environ"),
            ("$X.tar.gz", "", ".tar.gz"),
            ("\"$D\"/x", "/tmp/", "/sub/x"),
            ("pre-$X", "pre-", ""),
        ] {
            let words = expand_encoded(raw, &vars);
            let [only] = words.as_slice() else {
                panic!("{raw}: {words:?}");
            };
            let unknown = UnknownWord::decode(only).unwrap_or_else(|| panic!("{raw}: known"));
            assert_eq!(
                (unknown.prefix.as_str(), unknown.suffix.as_str()),
                (prefix, suffix),
                "{raw}"
            );
        }
    }
}
