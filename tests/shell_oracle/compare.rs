//! Bash's record held to the static reading: every program bash ran, with its expanded
//! arguments, must be a command the reader saw, or the reader must have refused the line.
//!
//! Only programs are compared: builtins (`cd`, `eval`, `export`, `source`, ...) run inside
//! bash and leave no record, and the reader may list more commands than ran (a branch not
//! taken, a wrapper bash runs as a builtin, a command of a script that failed earlier); only
//! a program that ran unseen is a disagreement.
//!
//! The reader keeps what is only known at run time as written (`$X`, `$(date)`, globs, `~`),
//! so such a word stands for any number of words, each matching it with the unknown parts as
//! wildcards; every other word must be equal. Under `xargs` the words it appends from its
//! input are unknown, so a command of a line with `xargs` may have more words at its end.

use rulesc_shell::{Context, Part, Reading, SimpleCommand};

use super::sandbox::{HOME, PROJECT};

/// How the reader saw a line that bash ran
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The reader refused the line (unreadable, or any outcome other than a reading): a
    /// guard fails closed, so nothing bash ran can slip past it
    Refused,
    /// Every program bash ran is a command the reader saw
    Agree,
    /// Programs bash ran that the reader did not see
    Missed(Vec<Miss>),
}

/// One program bash ran that the reading does not hold
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Miss {
    /// The program's name, then its arguments, as bash ran it
    pub(crate) command: Vec<String>,
    /// Whether the reader saw the program with other words, rather than not at all
    pub(crate) program_seen: bool,
}

impl Miss {
    /// The command as one line of text, each word quoted where it needs to be
    pub(crate) fn text(&self) -> String {
        self.command
            .iter()
            .map(|word| quote(word))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The context the reader is given: the sandbox's home and project
pub(crate) fn context() -> Context {
    Context {
        cwd: Some(PROJECT.to_owned()),
        home: Some(HOME.to_owned()),
        ..Context::default()
    }
}

/// The commands the reader sees in `line`, or `None` when it refuses the line
pub(crate) fn reading(line: &str) -> Option<Vec<SimpleCommand>> {
    if let Reading::Read(script) = rulesc_shell::read(line, &context()) {
        Some(script.commands)
    } else {
        None
    }
}

/// Holds bash's `ran` (each a program name and its arguments) to the reading of `line`
pub(crate) fn compare(line: &str, ran: &[Vec<String>]) -> Verdict {
    let Some(seen) = reading(line) else {
        return Verdict::Refused;
    };
    // A command whose program or whole code the reader reports as known only at run time
    // is undecidable: a guard asks or refuses, as for a line it cannot read.
    let undecidable = seen.iter().any(|command| {
        command
            .unknown
            .iter()
            .any(|unknown| matches!(unknown.part, Part::Command | Part::Program))
    });
    if undecidable {
        return Verdict::Refused;
    }
    let open_end = seen.iter().any(|command| command.program == "xargs");
    let patterns: Vec<Pattern> = seen
        .iter()
        .map(|command| Pattern {
            program: command.program.clone(),
            words: command.args.iter().map(|arg| Word::new(arg)).collect(),
            // Words known only at run time are in no list of the reading, and words read
            // from the input of `xargs` (a `find`'s roots) are what the stubs never print:
            // any of the reading's words may be missing from bash's, and more may follow.
            open: open_end || !command.unknown.is_empty(),
        })
        .collect();
    let missed: Vec<Miss> = ran
        .iter()
        .filter_map(|command| {
            let (name, args) = command.split_first()?;
            (!seen_as(&patterns, name, args, open_end, 0)).then(|| Miss {
                command: command.clone(),
                program_seen: patterns.iter().any(|pattern| pattern.program == *name),
            })
        })
        .collect();
    if missed.is_empty() {
        Verdict::Agree
    } else {
        Verdict::Missed(missed)
    }
}

/// One command of the reading, as bash's commands are held to it
struct Pattern {
    program: String,
    words: Vec<Word>,
    /// Whether bash's command may lack any of `words` and hold more after them
    open: bool,
}

/// One word of the reading: literal, or a pattern for what is known only at run time
enum Word {
    Literal(String),
    Pattern(regex::Regex),
}

impl Word {
    fn new(arg: &str) -> Word {
        if !arg.contains(['$', '`', '*', '?', '[', '{', '~', '(']) {
            return Word::Literal(arg.to_owned());
        }
        let mut pattern = String::from("^");
        let mut rest = arg;
        if let Some(after) = rest.strip_prefix('~') {
            pattern.push_str(&format!("(?:~|{})", regex::escape(HOME)));
            rest = after;
        } else if let Some((name, after)) = arg.split_once("=~") {
            // bash expands a tilde after the `=` of an argument shaped as an assignment
            // (`of=~/x`); the reader keeps it as the home it stands for.
            if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !name.is_empty() {
                pattern.push_str(&regex::escape(name));
                pattern.push_str(&format!("=(?:~|{})", regex::escape(HOME)));
                rest = after;
            }
        }
        let mut literal = String::new();
        let mut chars = rest.chars().peekable();
        while let Some(c) = chars.next() {
            let substitution = "<>".contains(c) && chars.peek() == Some(&'(');
            if !substitution && !"$`*?[]{},".contains(c) {
                literal.push(c);
                continue;
            }
            pattern.push_str(&regex::escape(&literal));
            literal.clear();
            // Any unknown part may stand for anything: a value, a glob's match, one
            // alternative of a brace. The text of an expansion is skipped whole.
            if !pattern.ends_with(".*") {
                pattern.push_str(".*");
            }
            match c {
                '$' | '<' | '>' => skip_expansion(&mut chars),
                '`' => {
                    for inner in chars.by_ref() {
                        if inner == '`' {
                            break;
                        }
                    }
                }
                '[' => {
                    for inner in chars.by_ref() {
                        if inner == ']' {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        pattern.push_str(&regex::escape(&literal));
        pattern.push('$');
        match regex::Regex::new(&pattern) {
            Ok(regex) => Word::Pattern(regex),
            Err(_) => Word::Literal(arg.to_owned()),
        }
    }
}

/// Skips the rest of an expansion after its `$`: `{...}`, `(...)`, a name or one character
fn skip_expansion(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match chars.peek().copied() {
        Some(open @ ('{' | '(')) => {
            let close = if open == '{' { '}' } else { ')' };
            let mut depth = 0usize;
            for inner in chars.by_ref() {
                if inner == open {
                    depth += 1;
                } else if inner == close {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
            }
        }
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {
            while chars
                .next_if(|c| c.is_ascii_alphanumeric() || *c == '_')
                .is_some()
            {}
        }
        Some(_) => {
            chars.next();
        }
        None => {}
    }
}

/// Whether some command of the reading runs `name` with `args`. A wrapper's command holds
/// its own words only, and the command it runs is a command of its own, so the words after
/// a command's own may be another command of the reading (`sudo -u root` then `rm -rf /`).
fn seen_as(
    patterns: &[Pattern],
    name: &str,
    args: &[String],
    open_end: bool,
    depth: usize,
) -> bool {
    patterns
        .iter()
        .filter(|pattern| pattern.program == name)
        .any(|pattern| {
            let reachable = reach(&pattern.words, args, pattern.open);
            reachable.iter().enumerate().any(|(end, reached)| {
                if !*reached {
                    return false;
                }
                let Some((next, rest)) = args.get(end..).and_then(<[String]>::split_first) else {
                    return true;
                };
                // The reader names a package a runner fetches without its version
                // (`npx rimraf@5` runs `rimraf`), a scoped one whole.
                let next = match next.rfind('@').filter(|at| *at > 0) {
                    Some(at) => next.get(..at).unwrap_or(next),
                    None => next,
                };
                let next = if next.starts_with('@') {
                    next
                } else {
                    next.rsplit('/').next().unwrap_or(next)
                };
                open_end
                    || pattern.open
                    || (depth < 8 && seen_as(patterns, next, rest, open_end, depth + 1))
            })
        })
}

/// Which prefixes of bash's `args` the reading's `words` can give: a literal gives itself,
/// a pattern any number of words it matches, and with `optional` any word may give none
fn reach(words: &[Word], args: &[String], optional: bool) -> Vec<bool> {
    // reachable[j]: the words so far can give args[..j]
    let mut reachable = vec![false; args.len() + 1];
    if let Some(first) = reachable.first_mut() {
        *first = true;
    }
    for word in words {
        let mut next = vec![false; args.len() + 1];
        for start in 0..=args.len() {
            if !reachable.get(start).copied().unwrap_or(false) {
                continue;
            }
            if optional {
                if let Some(slot) = next.get_mut(start) {
                    *slot = true;
                }
            }
            match word {
                Word::Literal(text) => {
                    if args.get(start) == Some(text) {
                        if let Some(slot) = next.get_mut(start + 1) {
                            *slot = true;
                        }
                    }
                }
                Word::Pattern(regex) => {
                    if let Some(slot) = next.get_mut(start) {
                        *slot = true;
                    }
                    for (end, arg) in args.iter().enumerate().skip(start) {
                        if !regex.is_match(arg) {
                            break;
                        }
                        if let Some(slot) = next.get_mut(end + 1) {
                            *slot = true;
                        }
                    }
                }
            }
        }
        reachable = next;
    }
    reachable
}

/// A word as a shell would need it written, to show a command on one line
pub(crate) fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%~".contains(c))
    {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
