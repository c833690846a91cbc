//! The bytes of a policy's compact form, read once and kept whole, of which the parts of a
//! policy read from it keep spans instead of copies.
//!
//! A hook call reads an entry of about 150 KB and evaluates one event: copying the encoded
//! heads, conditions and requirements out of it cost the call the fresh pages the copies
//! were written to (about 40 page faults, each dearer than the decoding they served).

use std::sync::Arc;

/// Where a part is in [`SharedBytes`]: its start and end
pub(crate) type Span = (usize, usize);

/// Bytes shared by the parts that keep spans of them
#[derive(Debug, Clone, Default)]
pub(crate) struct SharedBytes(Arc<Vec<u8>>);

impl SharedBytes {
    /// `bytes`, kept without a copy
    pub(crate) fn new(bytes: Arc<Vec<u8>>) -> SharedBytes {
        SharedBytes(bytes)
    }

    /// Every byte
    pub(crate) fn all(&self) -> &[u8] {
        &self.0
    }

    /// The bytes of `span`; `None` when it lies outside them
    pub(crate) fn get(&self, (start, end): Span) -> Option<&[u8]> {
        self.0.get(start..end)
    }

    /// Where `part`, a slice of these bytes, is; a slice of other bytes gets an empty span,
    /// which decodes as nothing does (every reader of a span then takes the worst case)
    pub(crate) fn span_of(&self, part: &[u8]) -> Span {
        let start = (part.as_ptr() as usize).checked_sub(self.0.as_ptr() as usize);
        match start.and_then(|start| Some((start, start.checked_add(part.len())?))) {
            Some((start, end)) if end <= self.0.len() => (start, end),
            _ => (0, 0),
        }
    }

    /// One part of these bytes: `part`, a slice of them
    pub(crate) fn part(&self, part: &[u8]) -> SharedPart {
        SharedPart {
            bytes: self.clone(),
            span: self.span_of(part),
        }
    }
}

/// One part of [`SharedBytes`], kept without a copy
#[derive(Debug, Clone, Default)]
pub(crate) struct SharedPart {
    bytes: SharedBytes,
    span: Span,
}

impl SharedPart {
    /// Bytes of their own, as one part
    #[cfg(test)]
    pub(crate) fn copied(bytes: &[u8]) -> SharedPart {
        let bytes = SharedBytes::new(Arc::new(bytes.to_vec()));
        bytes.part(bytes.all())
    }

    /// Its bytes
    pub(crate) fn bytes(&self) -> &[u8] {
        self.bytes.get(self.span).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_is_found_where_it_lies_and_reads_back() {
        let bytes = SharedBytes::new(Arc::new(b"head,condition,rest".to_vec()));
        let part = bytes.all().get(5..14).unwrap();
        assert_eq!(bytes.span_of(part), (5, 14));
        assert_eq!(bytes.part(part).bytes(), b"condition");
        assert_eq!(bytes.get((5, 14)), Some(&b"condition"[..]));
        assert_eq!(bytes.get((5, 99)), None);
    }

    #[test]
    fn a_slice_of_other_bytes_gets_the_empty_span() {
        let bytes = SharedBytes::new(Arc::new(b"one".to_vec()));
        let other = b"one".to_vec();
        assert_eq!(bytes.span_of(&other), (0, 0));
        assert!(bytes.part(&other).bytes().is_empty());
        assert_eq!(SharedPart::copied(b"xyz").bytes(), b"xyz");
    }
}
