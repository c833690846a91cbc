//! A word whose value is only known at run time, and how it travels among the known words
//! of a command: encoded behind a mark no command line holds. It imports nothing of the
//! crate, so that every module may tell such a word apart.

/// A word whose value is only known at run time
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnknownWord {
    /// The text the word is known to start with
    pub(crate) prefix: String,
    /// The text the word is known to end with, after its last unknown part
    /// (`/proc/$(pgrep x)/environ` ends with `/environ`)
    pub(crate) suffix: String,
    /// Whether an unquoted expansion may split it into several words (flags among them)
    pub(crate) split: bool,
    /// Whether what lies between the prefix and the suffix is a name: every unknown part is
    /// one (no `/`, no leading `-`, `+` or `:`), no `/` joins two of them, and no `..`
    /// follows them
    pub(crate) name: bool,
    /// Whether every unknown part is the output of a program printing its own code
    /// (`eval "$(ssh-agent -s)"`), not text handed to it
    pub(crate) own_code: bool,
    /// Whether every unknown part is one word with no blank or glob character, which no
    /// expansion splits (`$(git rev-parse --short HEAD)`, `knowledge::prints_one_word`)
    pub(crate) one_word: bool,
    /// Why it is unknown, as a message names it
    pub(crate) why: String,
}

/// Marks an unknown word among the words of a command: no command line holds a NUL byte
const MARK: char = '\0';

impl UnknownWord {
    /// The word as it travels among known words
    pub(crate) fn encode(&self) -> String {
        let mut text =
            String::with_capacity(self.prefix.len() + self.suffix.len() + self.why.len() + 8);
        text.push(MARK);
        let flags = [
            ('s', self.split),
            ('n', self.name),
            ('c', self.own_code),
            ('w', self.one_word),
        ];
        for (flag, on) in flags {
            if on {
                text.push(flag);
            }
        }
        text.push(MARK);
        text.push_str(&self.prefix);
        text.push(MARK);
        text.push_str(&self.suffix);
        text.push(MARK);
        text.push_str(&self.why);
        text
    }

    /// The text the unknown word `text` encodes is known to start with, if it is one: its
    /// [`UnknownWord::prefix`], borrowed, the rest left undecoded
    pub(crate) fn known_prefix(text: &str) -> Option<&str> {
        parts(text).map(|[_, prefix, _, _]| prefix)
    }

    /// The unknown word `text` encodes, if it is one
    pub(crate) fn decode(text: &str) -> Option<UnknownWord> {
        let [flags, prefix, suffix, why] = parts(text)?;
        Some(UnknownWord {
            prefix: prefix.to_owned(),
            suffix: suffix.to_owned(),
            split: flags.contains('s'),
            name: flags.contains('n'),
            own_code: flags.contains('c'),
            one_word: flags.contains('w'),
            why: why.to_owned(),
        })
    }
}

/// The flags, prefix, suffix and reason an unknown word's text holds, borrowed; `None` for
/// a known word
fn parts(text: &str) -> Option<[&str; 4]> {
    let mut parts = text.strip_prefix(MARK)?.splitn(4, MARK);
    Some([parts.next()?, parts.next()?, parts.next()?, parts.next()?])
}

/// Whether `word` is an unknown word
pub(crate) fn is_unknown(word: &str) -> bool {
    word.starts_with(MARK)
}
