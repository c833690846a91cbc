//! A trace read line by line in bounded memory.
//!
//! Invariant: no more than [`MAX_LINE`] bytes of a line are ever held; a longer line is
//! read through and reported, so a trace of any size costs the memory of its longest
//! acceptable line.

use std::io::{self, BufRead};

/// The longest line a trace may hold (a tool output of a few MiB is common, 64 MiB is not)
pub const MAX_LINE: usize = 64 << 20;

/// One line of a trace
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// The line's text, without its line ending
    Text(Vec<u8>),
    /// A line longer than [`MAX_LINE`], skipped
    TooLong,
}

/// Reads `reader` line by line, counting lines from 1 and the bytes read
pub(crate) struct Lines<R> {
    reader: R,
    number: u64,
    bytes: u64,
    buffer: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `reader`
    pub(crate) fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            number: 0,
            bytes: 0,
            buffer: Vec::new(),
        }
    }

    /// The number of the last line read
    pub(crate) fn number(&self) -> u64 {
        self.number
    }

    /// The bytes read so far
    pub(crate) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The next line, `None` at the end
    pub(crate) fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.buffer.clear();
        let mut too_long = false;
        let mut any = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            if available.is_empty() {
                break;
            }
            any = true;
            let (chunk, done) = match available.iter().position(|byte| *byte == b'\n') {
                Some(end) => (available.get(..end).unwrap_or_default(), Some(end + 1)),
                None => (available, None),
            };
            if !too_long {
                if self.buffer.len() + chunk.len() > MAX_LINE {
                    too_long = true;
                    self.buffer = Vec::new();
                } else {
                    self.buffer.extend_from_slice(chunk);
                }
            }
            let used = done.unwrap_or(available.len());
            self.reader.consume(used);
            self.bytes = self.bytes.saturating_add(used as u64);
            if done.is_some() {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.number += 1;
        if too_long {
            return Ok(Some(Line::TooLong));
        }
        if self.buffer.last() == Some(&b'\r') {
            self.buffer.pop();
        }
        Ok(Some(Line::Text(std::mem::take(&mut self.buffer))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_and_a_missing_final_newline_is_a_line() {
        let mut lines = Lines::new(&b"a\r\n\nb"[..]);
        assert_eq!(lines.next_line().unwrap(), Some(Line::Text(b"a".to_vec())));
        assert_eq!(lines.next_line().unwrap(), Some(Line::Text(Vec::new())));
        assert_eq!(lines.next_line().unwrap(), Some(Line::Text(b"b".to_vec())));
        assert_eq!(lines.number(), 3);
        assert_eq!(lines.bytes(), 5);
        assert_eq!(lines.next_line().unwrap(), None);
    }
}
