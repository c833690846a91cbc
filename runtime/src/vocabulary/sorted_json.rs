//! JSON written with every object's keys in byte order, whatever map serde_json was built
//! with.
//!
//! serde_json's `Map` is sorted, unless some crate in the build turns on its
//! `preserve_order` feature (Cargo unifies features across a workspace), and then it keeps
//! insertion order. Output must not depend on which crates were built alongside, so
//! everything rulesc writes from a `Map` or a `Value` goes through [`SortedJson`].
//!
//! Invariant: the text is exactly what serde_json writes without `preserve_order`.

use std::fmt;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value as Json};

/// A JSON value that serializes (and displays, compactly; `{:#}` pretty) with sorted keys
#[derive(Debug, Clone, Copy)]
pub struct SortedJson<'a>(pub &'a Json);

impl Serialize for SortedJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Json::Object(map) => sorted_map(map, serializer),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&SortedJson(item))?;
                }
                seq.end()
            }
            other => other.serialize(serializer),
        }
    }
}

impl fmt::Display for SortedJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if f.alternate() {
            serde_json::to_string_pretty(self)
        } else {
            serde_json::to_string(self)
        };
        f.write_str(&text.map_err(|_| fmt::Error)?)
    }
}

/// Serializes `map` with its keys in byte order (for `#[serde(serialize_with)]`)
pub(crate) fn sorted_map<S: Serializer>(
    map: &Map<String, Json>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut entries: Vec<(&String, &Json)> = map.iter().collect();
    entries.sort_by(|left, right| left.0.cmp(right.0));
    let mut out = serializer.serialize_map(Some(entries.len()))?;
    for (key, value) in entries {
        out.serialize_entry(key, &SortedJson(value))?;
    }
    out.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys come out in byte order at every depth, however the map was filled; under
    /// `preserve_order` (`cargo test --workspace`) the map itself keeps insertion order
    #[test]
    fn writes_keys_in_byte_order_at_every_depth() {
        let mut inner = Map::new();
        inner.insert("z".to_owned(), Json::Bool(true));
        inner.insert("B".to_owned(), Json::Null);
        let mut outer = Map::new();
        outer.insert("b".to_owned(), Json::Array(vec![Json::Object(inner)]));
        outer.insert("a".to_owned(), Json::from(1));
        let value = Json::Object(outer);
        assert_eq!(
            SortedJson(&value).to_string(),
            r#"{"a":1,"b":[{"B":null,"z":true}]}"#
        );
        assert_eq!(
            format!("{:#}", SortedJson(&value)),
            "{\n  \"a\": 1,\n  \"b\": [\n    {\n      \"B\": null,\n      \"z\": true\n    }\n  ]\n}"
        );
    }
}
