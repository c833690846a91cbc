//! Byte ranges into a source file.

use std::ops::Range;

/// A half-open byte range `start..end` into one source file
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte
    pub start: u32,
    /// One past the last byte
    pub end: u32,
}

impl Span {
    /// The span `start..end`
    pub fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The span as a `usize` range, to slice the source with
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Number of bytes covered
    pub fn len(self) -> u32 {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no byte
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }
}
