//! The inputs of every command (policy files, compiled policies, event streams, run scripts,
//! hook calls), read with a bound on their size.
//!
//! Invariant: no input larger than [`MAX_INPUT_SIZE`] is read whole. Reading stops one byte
//! past the bound, so a huge file or an endless stdin costs at most that much memory, and
//! the command ends with exit 2 and one line saying why. (The language's own bound on a
//! `.rules` file, 8 MiB, is smaller: such a file is read and reported as `E003`.)

use std::io::{self, Read};
use std::path::Path;

/// The largest input read, in bytes (64 MiB)
pub const MAX_INPUT_SIZE: u64 = 64 * 1024 * 1024;

/// The bytes of the file at `path`
pub fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    // Sized from the file's length, the bytes arrive in one read rather than in a run of
    // doubling ones; a file that grows meanwhile is still read to its end, within the bound.
    let expected = file.metadata().map_or(0, |metadata| metadata.len());
    read_bounded(file, MAX_INPUT_SIZE, expected)
}

/// The text of the file at `path`; bytes that are not UTF-8 are an `InvalidData` error
pub fn read_file_to_string(path: &Path) -> io::Result<String> {
    text(read_file(path)?)
}

/// Everything on stdin
pub fn read_stdin() -> io::Result<Vec<u8>> {
    read_bounded(std::io::stdin().lock(), MAX_INPUT_SIZE, 0)
}

/// Everything on stdin, as text
pub fn read_stdin_to_string() -> io::Result<String> {
    text(read_stdin()?)
}

/// `bytes` as text; bytes that are not UTF-8 are an `InvalidData` error
pub fn text(bytes: Vec<u8>) -> io::Result<String> {
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "it is not UTF-8 text"))
}

/// Reads `reader` to its end, or fails once it has given more than `limit` bytes; `expected`
/// is how many bytes it probably holds (0 when unknown)
fn read_bounded(reader: impl Read, limit: u64, expected: u64) -> io::Result<Vec<u8>> {
    // One byte past the expected end, so the read that finds the end needs no new room.
    let capacity = expected.min(limit).saturating_add(1);
    let mut bytes = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > limit {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("it is larger than {limit} bytes, the most rulesc reads"),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_up_to_the_bound_are_read_and_past_it_refused() {
        let at = vec![b'x'; 10];
        assert_eq!(read_bounded(at.as_slice(), 10, 0).unwrap(), at);
        let err = read_bounded([b'x'; 11].as_slice(), 10, 11).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(
            err.to_string(),
            "it is larger than 10 bytes, the most rulesc reads"
        );
        // A file that grew after its length was read is still read to its end.
        assert_eq!(
            read_bounded([b'x'; 7].as_slice(), 10, 3).unwrap(),
            [b'x'; 7]
        );
        // An endless reader is cut at the bound.
        let err = read_bounded(io::repeat(b'x'), 1_000, 0).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
    }
}
