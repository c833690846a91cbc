//! The words of an `in [...]` test, kept in one buffer.
//!
//! The packs name programs by lists (`program in ["psql", "mysql", …]`), some of them long,
//! and a hook call decodes the conditions of its candidate rules from the compact form:
//! a word apiece was an allocation, a copy and a UTF-8 check apiece, more than a tenth of a
//! Bash call. So a list is one string and the ends of its words, and the binary form
//! writes it so: reading it is one copy of the string and one of the ends. JSON writes the
//! list of strings. A list is asked of every simple command of a line, and most programs
//! are in none: a [`NameFilter`] of its words, built as it is read, answers those.

use std::borrow::Cow;
use std::fmt;

use rulesc_shell::NameFilter;
use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Words, in order, held in one string
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Words {
    /// Every word, one after another
    text: String,
    /// Where each word ends in `text`
    ends: Vec<usize>,
    /// The words, as a filter that refuses most others at once
    filter: NameFilter,
}

impl Words {
    /// Each word, in order
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let word = self.text.get(start..end).unwrap_or_default();
            start = end;
            word
        })
    }

    /// Whether `word` is one of the words, exactly
    pub fn contains(&self, word: &str) -> bool {
        self.filter.may_hold(word) && self.iter().any(|member| member == word)
    }

    /// How many words there are
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn push(&mut self, word: &str) {
        self.filter.insert(word);
        self.text.push_str(word);
        self.ends.push(self.text.len());
    }
}

impl<S: AsRef<str>> FromIterator<S> for Words {
    fn from_iter<I: IntoIterator<Item = S>>(words: I) -> Words {
        let mut out = Words::default();
        for word in words {
            out.push(word.as_ref());
        }
        out
    }
}

impl fmt::Debug for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Words {
    /// A list of strings in JSON; the string and the ends of its words in the binary form
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            serializer.collect_seq(self.iter())
        } else {
            (self.text.as_str(), &self.ends).serialize(serializer)
        }
    }
}

impl<'de> Deserialize<'de> for Words {
    /// As [`Words::serialize`] writes them; ends that do not fall between the string's
    /// characters, in order, are refused
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            return deserializer.deserialize_seq(WordsVisitor);
        }
        let (text, ends) = <(String, Vec<usize>)>::deserialize(deserializer)?;
        let mut start = 0;
        for &end in &ends {
            if end < start || !text.is_char_boundary(end) {
                return Err(serde::de::Error::custom(
                    "a word list's ends are out of order",
                ));
            }
            start = end;
        }
        let mut words = Words {
            text,
            ends,
            filter: NameFilter::default(),
        };
        words.filter = words.iter().collect();
        Ok(words)
    }
}

struct WordsVisitor;

impl<'de> Visitor<'de> for WordsVisitor {
    type Value = Words;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of strings")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Words, A::Error> {
        let mut words = Words {
            text: String::new(),
            ends: Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096)),
            filter: NameFilter::default(),
        };
        while let Some(Word(word)) = seq.next_element()? {
            words.push(&word);
        }
        Ok(words)
    }
}

/// One word of a list, borrowed where the input lends it
struct Word<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Word<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(WordVisitor)
    }
}

struct WordVisitor;

impl<'de> Visitor<'de> for WordVisitor {
    type Value = Word<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, word: &'de str) -> Result<Word<'de>, E> {
        Ok(Word(Cow::Borrowed(word)))
    }

    fn visit_str<E>(self, word: &str) -> Result<Word<'de>, E> {
        Ok(Word(Cow::Owned(word.to_owned())))
    }

    fn visit_string<E>(self, word: String) -> Result<Word<'de>, E> {
        Ok(Word(Cow::Owned(word)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back_as_written_from_json_and_from_binary() {
        let words: Words = ["psql", "", "mysql", "é \"quoted\""].into_iter().collect();
        assert_eq!(
            words.iter().collect::<Vec<_>>(),
            ["psql", "", "mysql", "é \"quoted\""]
        );
        let json = serde_json::to_string(&words).unwrap();
        assert_eq!(json, r#"["psql","","mysql","é \"quoted\""]"#);
        assert_eq!(serde_json::from_str::<Words>(&json).unwrap(), words);
        let as_vec: Vec<String> = serde_json::from_str(&json).unwrap();
        let bytes = postcard::to_allocvec(&words).unwrap();
        assert_eq!(postcard::from_bytes::<Words>(&bytes).unwrap(), words);
        assert_eq!(format!("{words:?}"), format!("{as_vec:?}"));
        assert!(serde_json::from_str::<Words>(r#"["a", 1]"#).is_err());
        assert!(Words::default().is_empty());
        let (text, _): (String, Vec<usize>) = postcard::from_bytes(&bytes).unwrap();
        for ends in [vec![2_usize, 1], vec![1, 99], vec![4, 10]] {
            let bad = postcard::to_allocvec(&(text.as_str(), ends)).unwrap();
            assert!(postcard::from_bytes::<Words>(&bad).is_err());
        }
        assert_eq!(words.len(), 4);
        for word in ["psql", "", "mysql", "é \"quoted\""] {
            assert!(words.contains(word), "{word}");
        }
        for word in ["psq", "mysql ", "sqlite3", "é"] {
            assert!(!words.contains(word), "{word}");
        }
        assert!(!Words::default().contains(""));
    }
}
