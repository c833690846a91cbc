//! The words of a text as provenance reads them: runs of letters and digits, case folded,
//! with an URL's scheme (`https://`) and `www.` skipped and percent-encoded ASCII (`%40`)
//! decoded (docs/trace.md).
//!
//! Two readers give the same words: one byte at a time for any text, and one for runs of
//! ASCII with no `%`, which finds where words start and end 64 bytes at a time and hashes a
//! word of up to 16 bytes without a loop over its bytes. [`for_each_word`] uses the second
//! while the text allows it and the first from where it does not.

use super::word_hash::{self, WordHasher};

/// The longest group of an identifier written in groups (`GB29 NWBK 6016 1331 9268 19`,
/// `+44 20 7946 0958`, `4111-1111-1111-1111`): groups of up to 6 letters and digits joined
/// by one space, dash or dot, at least one of them with a digit, are also one value
pub(super) const MAX_GROUP_CHARS: usize = 6;

/// One word of a text, as the reader gives it
pub(super) struct WordRead<'a> {
    /// The hash of its folded bytes ([`word_hash`]): equal for two words exactly when their
    /// folded text is
    pub(super) hash: u64,
    /// Characters
    pub(super) len: usize,
    pub(super) digit: bool,
    /// Its folded bytes, when there are at most [`FOLDED_BYTES`]
    pub(super) folded: Option<&'a [u8]>,
    /// Whether one space, dash or dot alone separates it from the word before
    pub(super) glued: bool,
}

impl WordRead<'_> {
    /// Its folded bytes, when it may be a group of an identifier (short enough)
    pub(super) fn group(&self) -> Option<&[u8]> {
        self.folded.filter(|_| self.len <= MAX_GROUP_CHARS)
    }
}

/// The most folded bytes of a word the readers keep
pub(super) const FOLDED_BYTES: usize = 32;

/// What takes the words of a text one by one
pub(super) trait WordSink {
    /// Whether it reads a word's bytes and whether it is glued to the one before; a sink
    /// that does not is given neither (`folded` is `None`, `glued` false), and the block
    /// reader spares the work
    const BYTES: bool = true;

    /// Takes the next word; whether to go on
    fn word(&mut self, word: &WordRead<'_>) -> bool;
}

impl<F: FnMut(&WordRead<'_>) -> bool> WordSink for F {
    fn word(&mut self, word: &WordRead<'_>) -> bool {
        self(word)
    }
}

/// The words of `text`, read once, given to `each` until it says to stop
pub(super) fn for_each_word(text: &str, each: &mut impl WordSink) {
    let bytes = text.as_bytes();
    match blocks::read(bytes, each) {
        blocks::Stop::Done => {}
        blocks::Stop::From(at) => {
            // `at` is where the separators before a word start (or the text's start), so the
            // byte reader sees them as it would have.
            by_byte(text, at, each);
        }
    }
}

/// The words of `text` as [`for_each_word`] gives them, read a byte at a time: for the
/// first few words of a text, where reading a chunk's masks would cost more than the words
pub(super) fn for_each_first_word(text: &str, each: &mut impl WordSink) {
    by_byte(text, 0, each);
}

/// Whether a byte separates words so tightly that the words beside it may be groups of one
/// identifier
fn tight(byte: u8) -> bool {
    matches!(byte, b' ' | b'-' | b'.')
}

/// Whether a word of folded bytes `word` followed by `rest` is an URL's scheme or `www.`,
/// which say nothing of which site an URL names
fn is_url_prefix(word: &[u8], separator: u8, rest: &[u8]) -> bool {
    match word {
        b"http" | b"https" => separator == b':' && rest.starts_with(b"//"),
        b"www" => separator == b'.',
        _ => false,
    }
}

/// The byte reader: any text, from byte `start` (where a word or its separators begin)
fn by_byte<S: WordSink>(text: &str, start: usize, each: &mut S) {
    let mut word = Word::default();
    let bytes = text.as_bytes();
    let mut at = start;
    // The separator since the last word: how many characters, and whether all are one
    // space, dash or dot.
    let mut gap = 0_usize;
    let mut gap_tight = true;
    // Bytes, not chars: an ASCII byte is read as it is, and only a byte past ASCII starts
    // the decoding of a char. The end of the text ends the last word.
    while at <= bytes.len() {
        // An ASCII byte, or the one a percent escape stands for, and the bytes it spans.
        let ascii = match bytes.get(at) {
            Some(b'%') => Some(percent_decoded(bytes, at).map_or((b'%', 1), |byte| (byte, 3))),
            Some(&byte) if byte.is_ascii() => Some((byte, 1)),
            _ => None,
        };
        let separator = match (ascii, bytes.get(at)) {
            (Some((byte, span)), _) => {
                at += span;
                let lower = ASCII_WORD.get(usize::from(byte)).copied().unwrap_or(0);
                if lower != 0 {
                    word.push_ascii(lower);
                    continue;
                }
                byte
            }
            (None, Some(_)) => {
                let ch = text
                    .get(at..)
                    .and_then(|rest| rest.chars().next())
                    .unwrap_or(' ');
                at += ch.len_utf8();
                if ch.is_alphanumeric() {
                    word.push(ch);
                    continue;
                }
                b'#'
            }
            (None, None) => {
                at += 1;
                b' '
            }
        };
        if word.len == 0 {
            gap += 1;
            gap_tight &= tight(separator);
            continue;
        }
        let url_prefix = (3..=5).contains(&word.bytes)
            && word.bytes().is_some_and(|folded| {
                is_url_prefix(folded, separator, bytes.get(at..).unwrap_or_default())
            });
        let glued = gap == 1 && gap_tight;
        gap = 1;
        gap_tight = tight(separator);
        if url_prefix {
            gap = 0;
            gap_tight = true;
            word.clear();
            continue;
        }
        let read = WordRead {
            hash: word.hasher.finish(),
            len: word.len,
            digit: word.digit,
            folded: word.bytes().filter(|_| S::BYTES),
            glued: S::BYTES && glued,
        };
        let more = each.word(&read);
        word.clear();
        if !more {
            return;
        }
    }
}

/// The byte `%XY` at `at` stands for, when it is ASCII
fn percent_decoded(bytes: &[u8], at: usize) -> Option<u8> {
    let digit = |offset: usize| {
        bytes
            .get(at + offset)
            .and_then(|byte| char::from(*byte).to_digit(16))
    };
    let value = digit(1)? * 16 + digit(2)?;
    u8::try_from(value).ok().filter(u8::is_ascii)
}

/// Each ASCII byte's part in a word: a digit as it is, a letter in lowercase, 0 for a byte
/// that ends a word
#[expect(
    clippy::indexing_slicing,
    reason = "evaluated at compile time, where an index out of range fails the build"
)]
const ASCII_WORD: [u8; 128] = {
    let mut table = [0; 128];
    let mut byte = 0;
    while byte < 128 {
        let ch = byte as u8;
        if ch.is_ascii_alphanumeric() {
            table[byte] = ch.to_ascii_lowercase();
        }
        byte += 1;
    }
    table
};

/// The word being read by the byte reader: its hash (case folded), length, whether it has
/// a digit, and its first folded bytes
#[derive(Default)]
struct Word {
    hasher: WordHasher,
    len: usize,
    digit: bool,
    buffer: [u8; FOLDED_BYTES],
    /// Folded bytes read, which may be more than the buffer holds
    bytes: usize,
}

impl Word {
    /// Adds an ASCII digit or lowercase letter
    fn push_ascii(&mut self, lower: u8) {
        self.len += 1;
        self.push_byte(lower);
        self.digit |= lower <= b'9';
    }

    fn push_byte(&mut self, byte: u8) {
        self.hasher.push(byte);
        if let Some(slot) = self.buffer.get_mut(self.bytes) {
            *slot = byte;
        }
        self.bytes = self.bytes.saturating_add(1);
    }

    /// Adds a letter or digit past ASCII, case folded as `~*` folds it
    fn push(&mut self, ch: char) {
        self.len = self.len.saturating_add(1);
        let mut buf = [0_u8; 4];
        for upper in ch.to_uppercase() {
            for lower in upper.to_lowercase() {
                for byte in lower.encode_utf8(&mut buf).as_bytes() {
                    self.push_byte(*byte);
                }
            }
        }
        self.digit |= ch.is_numeric();
    }

    /// Makes it the empty word again; the buffer's old bytes are never read
    fn clear(&mut self) {
        self.hasher = WordHasher::default();
        self.len = 0;
        self.digit = false;
        self.bytes = 0;
    }

    /// Its folded bytes, when the buffer holds them all
    fn bytes(&self) -> Option<&[u8]> {
        self.buffer.get(..self.bytes)
    }
}

/// The block reader: runs of ASCII with no `%`, 64 bytes at a time
mod blocks {
    use super::{is_url_prefix, tight, word_hash, WordRead, WordSink, FOLDED_BYTES};

    /// Where the block reader stopped
    pub(super) enum Stop {
        /// At the text's end, or where `each` said to
        Done,
        /// At a byte it does not read (past ASCII, `%`) or a word longer than a chunk: the
        /// byte reader goes on from this byte, where the separators before the next word
        /// start
        From(usize),
    }

    /// Bitmaps per chunk, 64 bytes each
    const MASKS: usize = 16;

    /// Bytes of a chunk
    const CHUNK: usize = MASKS * 64;

    /// Bytes of the text copied past a chunk: a word's 16 bytes and an URL's `://`
    const SLACK: usize = 16;

    /// A 1 in every byte: times a byte, that byte in every byte
    const ONES: u64 = 0x0101_0101_0101_0101;

    /// The high bit of every byte
    const HIGH: u64 = 0x8080_8080_8080_8080;

    /// The case bit of every byte: set, it folds an ASCII letter and leaves a digit as it is
    const FOLD: u64 = 0x2020_2020_2020_2020;

    /// For a word of each length up to 16 bytes, which bytes of its two halves are its own
    #[expect(
        clippy::indexing_slicing,
        reason = "evaluated at compile time, where an index out of range fails the build"
    )]
    const KEEP: [(u64, u64); 17] = {
        let mut keep = [(0, 0); 17];
        let mut len = 1;
        while len <= 16 {
            keep[len] = (low_bytes(len), low_bytes(len.saturating_sub(8)));
            len += 1;
        }
        keep
    };

    /// A mask of the low `n` bytes of a 64-bit number
    const fn low_bytes(n: usize) -> u64 {
        if n >= 8 {
            u64::MAX
        } else {
            (1 << (8 * n)) - 1
        }
    }

    /// The first eight bytes of the words that may begin an URL, as a word's `lo` holds them
    const WWW: u64 = u64::from_le_bytes(*b"www\0\0\0\0\0");
    const HTTP: u64 = u64::from_le_bytes(*b"http\0\0\0\0");
    const HTTPS: u64 = u64::from_le_bytes(*b"https\0\0\0");

    /// The high bit of each byte of `bytes` (each below 0x80) that lies in `lo..=hi`
    fn in_range(bytes: u64, lo: u8, hi: u8) -> u64 {
        let at_least = bytes.wrapping_add(ONES * u64::from(0x80 - lo));
        let above = bytes.wrapping_add(ONES * u64::from(0x7f - hi));
        at_least & !above & HIGH
    }

    /// One bit per byte from the high bit of each byte of `mask`
    pub(super) fn bits_of(mask: u64) -> u64 {
        ((mask >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
    }

    /// The letters and digits of one chunk, a bit per byte, if the chunk holds no byte
    /// this reader does not read (past ASCII, `%`)
    fn word_bits(chunk: &[u8; CHUNK + SLACK]) -> Option<[u64; MASKS]> {
        let mut word_bits = [0; MASKS];
        let mut past_ascii = 0;
        let lanes = chunk.chunks_exact(8).take(CHUNK / 8);
        for (lane, eight) in lanes.enumerate() {
            let mut word = [0; 8];
            word.copy_from_slice(eight);
            let bytes = u64::from_le_bytes(word);
            past_ascii |= bytes;
            // Bytes past ASCII make the chunk the byte reader's: their bits are not read.
            let ascii = bytes & !HIGH;
            let letter = in_range(ascii | FOLD, b'a', b'z');
            let digit = in_range(ascii, b'0', b'9');
            if let Some(bits) = word_bits.get_mut(lane / 8) {
                *bits |= bits_of(letter | digit) << ((lane % 8) * 8);
            }
        }
        let own = past_ascii & HIGH == 0 && !chunk.get(..CHUNK).unwrap_or_default().contains(&b'%');
        own.then_some(word_bits)
    }

    /// Reads words from the text's start while it allows, calling `each`
    pub(super) fn read<S: WordSink>(bytes: &[u8], each: &mut S) -> Stop {
        let mut base = 0;
        // Where the separators before the next word start: the end of the last word (its
        // separator ended it), past an URL prefix's separator, or the text's start. The
        // byte reader started there counts the same gap before the next word.
        let mut mark = 0;
        let mut chunk = [0_u8; CHUNK + SLACK];
        while base < bytes.len() {
            let rest = bytes.get(base..).unwrap_or_default();
            let copied = rest.len().min(CHUNK + SLACK);
            if let (Some(to), Some(from)) = (chunk.get_mut(..copied), rest.get(..copied)) {
                to.copy_from_slice(from);
            }
            // Zero past the text's end: no letter, so its last word ends there.
            if let Some(past) = chunk.get_mut(copied..) {
                past.fill(0);
            }
            let Some(masks) = word_bits(&chunk) else {
                return Stop::From(mark);
            };
            let mut pending: Option<usize> = None;
            for lane in 0..MASKS {
                let word_bits = masks.get(lane).copied().unwrap_or(0);
                let before = if lane == 0 {
                    0
                } else {
                    masks.get(lane - 1).copied().unwrap_or(0) >> 63
                };
                let mut starts = word_bits & !((word_bits << 1) | before);
                let mut ends = !word_bits & ((word_bits << 1) | before);
                while ends != 0 {
                    let end = lane * 64 + ends.trailing_zeros() as usize;
                    ends &= ends - 1;
                    let start = match pending.take() {
                        Some(start) => start,
                        None => {
                            let start = lane * 64 + starts.trailing_zeros() as usize;
                            starts &= starts.wrapping_sub(1);
                            start
                        }
                    };
                    // The byte reader's gap is 1 exactly when one separator lies between
                    // `mark` and the word.
                    let glued = S::BYTES
                        && base + start - mark == 1
                        && bytes.get(mark).copied().is_some_and(tight);
                    match word(&chunk, start, end, glued, each) {
                        Read::Word => mark = base + end,
                        Read::Prefix => mark = base + end + 1,
                        Read::Stop => return Stop::Done,
                    }
                }
                if starts != 0 {
                    pending = Some(lane * 64 + starts.trailing_zeros() as usize);
                }
            }
            match pending {
                Some(0) => return Stop::From(mark),
                Some(start) => base += start,
                None => base += CHUNK,
            }
        }
        Stop::Done
    }

    /// What one word of a chunk came to
    enum Read {
        Word,
        /// An URL's scheme or `www.`, skipped with its separator
        Prefix,
        Stop,
    }

    /// Hashes the word at bytes `start..end` of `chunk` and gives it to `each`
    fn word<S: WordSink>(
        chunk: &[u8; CHUNK + SLACK],
        start: usize,
        end: usize,
        glued: bool,
        each: &mut S,
    ) -> Read {
        let len = end - start;
        // The word's first 16 bytes: a chunk holds 16 bytes past its last word's start.
        let mut sixteen = [0; 16];
        if let Some(bytes) = chunk.get(start..start + 16) {
            sixteen.copy_from_slice(bytes);
        }
        let both = u128::from_le_bytes(sixteen);
        // Letters and digits fold by their 0x20 bit; the bytes past the word are cleared.
        let (keep_lo, keep_hi) = KEEP.get(len).copied().unwrap_or((u64::MAX, u64::MAX));
        let lo = (both as u64 | FOLD) & keep_lo;
        let hi = ((both >> 64) as u64 | FOLD) & keep_hi;
        let (hash, digit) = if len <= 16 {
            // A digit is the one byte of a word whose 0x40 bit is clear.
            let digits = (!lo & keep_lo) | (!hi & keep_hi);
            let digit = digits & (ONES * 0x40) != 0;
            (word_hash::short(lo, hi, len), digit)
        } else {
            let bytes = chunk.get(start..end).unwrap_or_default();
            let mut hasher = word_hash::WordHasher::default();
            for byte in bytes {
                hasher.push(byte | 0x20);
            }
            (hasher.finish(), bytes.iter().any(u8::is_ascii_digit))
        };
        // Most words are no URL prefix: their first byte tells most of them.
        if matches!(lo as u8, b'w' | b'h')
            && (lo == WWW && len == 3 || (lo == HTTP && len == 4) || (lo == HTTPS && len == 5))
        {
            let separator = chunk.get(end).copied().unwrap_or(b' ');
            let rest = chunk.get(end + 1..).unwrap_or_default();
            let folded = lo.to_le_bytes();
            if is_url_prefix(folded.get(..len).unwrap_or_default(), separator, rest) {
                return Read::Prefix;
            }
        }
        let mut folded = [0_u8; FOLDED_BYTES];
        let folded = if S::BYTES && len <= FOLDED_BYTES {
            let (low, high) = folded.split_at_mut(8);
            low.copy_from_slice(&lo.to_le_bytes());
            if let Some(high) = high.get_mut(..8) {
                high.copy_from_slice(&hi.to_le_bytes());
            }
            let from = chunk.get(start..end).unwrap_or_default();
            for (to, from) in folded.iter_mut().zip(from).skip(16) {
                *to = from | 0x20;
            }
            folded.get(..len)
        } else {
            None
        };
        let read = WordRead {
            hash,
            len,
            digit,
            folded,
            glued,
        };
        if each.word(&read) {
            Read::Word
        } else {
            Read::Stop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What a reader gave for one word
    #[derive(Debug, PartialEq)]
    struct Seen {
        hash: u64,
        len: usize,
        digit: bool,
        folded: Option<Vec<u8>>,
        glued: bool,
    }

    fn seen(word: &WordRead<'_>) -> Seen {
        Seen {
            hash: word.hash,
            len: word.len,
            digit: word.digit,
            folded: word.folded.map(<[u8]>::to_vec),
            glued: word.glued,
        }
    }

    fn by_blocks(text: &str) -> Vec<Seen> {
        let mut words = Vec::new();
        for_each_word(text, &mut |word: &WordRead<'_>| {
            words.push(seen(word));
            true
        });
        words
    }

    /// A sink that reads no bytes: the block reader spares their work
    struct Lean(Vec<(u64, usize, bool)>);

    impl WordSink for Lean {
        const BYTES: bool = false;

        fn word(&mut self, word: &WordRead<'_>) -> bool {
            assert!(word.folded.is_none() && !word.glued);
            self.0.push((word.hash, word.len, word.digit));
            true
        }
    }

    fn lean(text: &str) -> Vec<(u64, usize, bool)> {
        let mut sink = Lean(Vec::new());
        for_each_word(text, &mut sink);
        sink.0
    }

    fn by_bytes(text: &str) -> Vec<Seen> {
        let mut words = Vec::new();
        by_byte(text, 0, &mut |word: &WordRead<'_>| {
            words.push(seen(word));
            true
        });
        words
    }

    /// Pieces of text the two readers must agree on: words of every length around the
    /// 8- and 16-byte steps and past a chunk, separators tight and not, URL prefixes,
    /// percent escapes and letters past ASCII
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            6 => "[a-zA-Z0-9]{1,20}",
            1 => "[a-z0-9]{30,40}",
            1 => "[a-z]{1100,1200}",
            6 => prop_oneof![Just(" "), Just("-"), Just("."), Just(", "), Just(":"), Just("/"), Just("\n\t"), Just("  ")].prop_map(str::to_owned),
            1 => prop_oneof![Just("https://"), Just("HTTP://"), Just("www."), Just("WWW."), Just("http:/"), Just("wwww.")].prop_map(str::to_owned),
            1 => prop_oneof![Just("%41"), Just("%20"), Just("%"), Just("%4"), Just("%e9"), Just("é"), Just("ß"), Just("İ"), Just("—"), Just("日本")].prop_map(str::to_owned),
        ]
    }

    proptest! {
        #[test]
        fn the_block_reader_gives_the_words_the_byte_reader_gives(
            pieces in prop::collection::vec(piece(), 0..400),
        ) {
            let text = pieces.concat();
            let words = by_bytes(&text);
            let lean_words: Vec<_> = words.iter().map(|word| (word.hash, word.len, word.digit)).collect();
            prop_assert_eq!(lean(&text), lean_words);
            prop_assert_eq!(by_blocks(&text), words);
        }

        #[test]
        fn plain_ascii_is_read_by_blocks_alike(
            pieces in prop::collection::vec(prop_oneof![
                3 => "[a-zA-Z0-9]{1,18}",
                2 => prop_oneof![Just(" "), Just("-"), Just("."), Just(", "), Just("://"), Just("www.")].prop_map(str::to_owned),
            ], 0..600),
        ) {
            let text = pieces.concat();
            prop_assert_eq!(by_blocks(&text), by_bytes(&text));
        }
    }

    #[test]
    fn a_reader_stopped_by_its_caller_stops() {
        let text = "one two three four five";
        let mut seen = 0;
        for_each_word(text, &mut |_: &WordRead<'_>| {
            seen += 1;
            seen < 2
        });
        assert_eq!(seen, 2);
    }

    #[test]
    fn the_bitmap_of_a_lane_has_one_bit_per_byte() {
        for byte_at in 0..8 {
            let mask = 0x80_u64 << (8 * byte_at);
            assert_eq!(blocks::bits_of(mask), 1 << byte_at);
        }
        assert_eq!(blocks::bits_of(0x8080_8080_8080_8080), 0xff);
    }
}
