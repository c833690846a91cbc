//! Unknown keys in the JSON a user writes: event JSON, run scripts and scenarios.
//!
//! serde reads past keys it does not know, so a misspelt key (`elapsd_ms` for `elapsed_ms`,
//! `finsh_reason` in a script turn) would read as absent, and a test could pass for the wrong
//! reason. Each input has a shape of known keys; every key outside it is an [`UnknownKey`]
//! with its JSON path and the nearest known key. What lies under a free-form key (`arg`,
//! `metadata`, `result`, a tool call's `args`) belongs to the user and is never checked.
//!
//! Invariant: the known keys come from the runtime where it has them as data (the event
//! schema, `EVENT_FIELDS`); the script's keys are listed here and held to what the runtime
//! reads by this module's tests.

use std::fmt;

use rulesc_runtime::EVENT_FIELDS;
use serde_json::Value as Json;

/// The keys a JSON value may hold
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keys {
    /// Anything: the value is the user's own
    Free,
    /// An object with these keys, each with the shape of its value
    Object(Vec<(&'static str, Keys)>),
    /// An array whose every item has this shape
    Each(Box<Keys>),
    /// An object of user-chosen names (a script's tools), each value with this shape
    Named(Box<Keys>),
}

/// A key no reader of the input knows
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownKey {
    /// Where it is: `elapsed`, `turns[1].finsh_reason`, `tools.deploy.eror`
    pub path: String,
    /// The known key nearest to it, at the same place
    pub suggestion: Option<&'static str>,
}

impl fmt::Display for UnknownKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown key `{}`", self.path)?;
        match self.suggestion {
            Some(known) => write!(f, ", did you mean `{known}`?"),
            None => f.write_str(", which nothing reads"),
        }
    }
}

/// Every key of `value` outside `keys`: an object's keys in byte order, an array's items in
/// order, so the list never depends on how the JSON was read
pub fn unknown_keys(value: &Json, keys: &Keys) -> Vec<UnknownKey> {
    let mut found = Vec::new();
    walk(value, keys, "", &mut found);
    found
}

fn walk(value: &Json, keys: &Keys, path: &str, found: &mut Vec<UnknownKey>) {
    match (keys, value) {
        (Keys::Object(known), Json::Object(object)) => {
            for (key, inner) in sorted(object) {
                let inner_path = joined(path, key);
                match known.iter().find(|(name, _)| name == key) {
                    Some((_, shape)) => walk(inner, shape, &inner_path, found),
                    None => found.push(UnknownKey {
                        path: inner_path,
                        suggestion: nearest(key, known.iter().map(|(name, _)| *name)),
                    }),
                }
            }
        }
        (Keys::Each(shape), Json::Array(items)) => {
            for (item_idx, item) in items.iter().enumerate() {
                walk(item, shape, &format!("{path}[{item_idx}]"), found);
            }
        }
        (Keys::Named(shape), Json::Object(object)) => {
            for (name, inner) in sorted(object) {
                walk(inner, shape, &joined(path, name), found);
            }
        }
        // A value of another type is the reader's to refuse, with its own message.
        _ => {}
    }
}

/// An object's entries by key, whatever order its map keeps
fn sorted(object: &serde_json::Map<String, Json>) -> Vec<(&String, &Json)> {
    let mut entries: Vec<(&String, &Json)> = object.iter().collect();
    entries.sort_by(|left, right| left.0.cmp(right.0));
    entries
}

/// `path.key`, or `path["key"]` when the key is not a plain name
fn joined(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '-');
    match (path.is_empty(), plain) {
        (true, true) => key.to_owned(),
        (false, true) => format!("{path}.{key}"),
        (_, false) => format!("{path}[{}]", Json::String(key.to_owned())),
    }
}

/// The known key a misspelling most likely meant: the closest by edit distance, within a
/// third of the longer length, or one that starts with the other (`elapsed`, `elapsed_ms`)
fn nearest(key: &str, known: impl Iterator<Item = &'static str>) -> Option<&'static str> {
    let key_len = key.chars().count();
    known
        .filter_map(|name| {
            let distance = strsim::damerau_levenshtein(key, name);
            let reach = (key_len.max(name.chars().count()) / 3).max(1);
            let prefix = key_len >= 3 && (name.starts_with(key) || key.starts_with(name));
            (distance <= reach || prefix).then_some((distance, name))
        })
        .min()
        .map(|(_, name)| name)
}

/// The keys of event JSON (docs/cli.md "Event input"): `event` and the runtime's schema
pub fn event_keys() -> Keys {
    let mut known = vec![("event", Keys::Free)];
    known.extend(EVENT_FIELDS.iter().flat_map(|field| {
        field.json_keys().map(|key| {
            let shape = if key == "error" {
                Keys::Object(vec![("kind", Keys::Free), ("message", Keys::Free)])
            } else {
                Keys::Free
            };
            (key, shape)
        })
    }));
    Keys::Object(known)
}

/// The keys of a `rulesc run` script (docs/cli.md `run`)
pub fn script_keys() -> Keys {
    Keys::Object(script_entries())
}

/// The keys of a `*.scenario.json` file: a script's, and `expect` with the run report's
pub fn scenario_keys() -> Keys {
    let mut known = script_entries();
    known.push((
        "expect",
        Keys::Object(REPORT_KEYS.iter().map(|key| (*key, Keys::Free)).collect()),
    ));
    Keys::Object(known)
}

/// The keys of `rulesc run`'s JSON output, which a scenario's `expect` compares
const REPORT_KEYS: [&str; 10] = [
    "status",
    "stop_reason",
    "resolved_by",
    "message",
    "steps",
    "tokens",
    "errors",
    "tool_calls",
    "events",
    "metadata",
];

fn script_entries() -> Vec<(&'static str, Keys)> {
    let error = Keys::Object(vec![("kind", Keys::Free), ("message", Keys::Free)]);
    let tool_call = Keys::Object(vec![
        ("id", Keys::Free),
        ("name", Keys::Free),
        ("args", Keys::Free),
    ]);
    let turn = Keys::Object(vec![
        ("response", Keys::Free),
        ("tool_calls", Keys::Each(Box::new(tool_call))),
        ("finish_reason", Keys::Free),
        (
            "usage",
            Keys::Object(vec![("input", Keys::Free), ("output", Keys::Free)]),
        ),
        ("error", error),
    ]);
    let tool = Keys::Object(vec![("output", Keys::Free), ("error", Keys::Free)]);
    vec![
        ("turns", Keys::Each(Box::new(turn))),
        ("tools", Keys::Named(Box::new(tool))),
        ("approver", Keys::Free),
        ("max_retries", Keys::Free),
        ("metadata", Keys::Free),
        ("clock_ms_per_step", Keys::Free),
        ("subagent", Keys::Free),
        ("prompt", Keys::Free),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulesc_runtime::{Defaults, Limits, Policy, Script};
    use serde_json::json;

    #[test]
    fn names_the_path_and_the_nearest_known_key() {
        let event = json!({"event": "stop", "elapsd_ms": 5, "stop_reasn": "completed",
                           "error": {"knd": "model"}, "arg": {"anything": 1},
                           "metadata": {"mine": true}, "zzz": 1});
        let found: Vec<String> = unknown_keys(&event, &event_keys())
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            found,
            [
                "unknown key `elapsd_ms`, did you mean `elapsed_ms`?",
                "unknown key `error.knd`, did you mean `kind`?",
                "unknown key `stop_reasn`, did you mean `stop_reason`?",
                "unknown key `zzz`, which nothing reads",
            ]
        );
    }

    #[test]
    fn walks_turns_tool_calls_and_named_tools() {
        let script = json!({"turns": [{"response": "a"},
                                      {"finsh_reason": "stop",
                                       "tool_calls": [{"name": "ls", "arg": {}}]}],
                            "tools": {"my.tool": {"ouput": "x"}}, "aprover": "allow"});
        let paths: Vec<(String, Option<&str>)> = unknown_keys(&script, &script_keys())
            .into_iter()
            .map(|key| (key.path, key.suggestion))
            .collect();
        assert_eq!(
            paths,
            [
                ("aprover".to_owned(), Some("approver")),
                ("tools[\"my.tool\"].ouput".to_owned(), Some("output")),
                ("turns[1].finsh_reason".to_owned(), Some("finish_reason")),
                ("turns[1].tool_calls[0].arg".to_owned(), Some("args")),
            ]
        );
    }

    /// The run report's keys, read off a real report, are the keys `expect` knows
    #[test]
    fn expect_knows_every_key_of_the_run_report() {
        let script = Script::from_json("{}").unwrap();
        let policy = Policy::new(Vec::new(), Defaults::default()).unwrap();
        let report = serde_json::to_value(script.run(policy, Limits::default())).unwrap();
        let mut actual: Vec<&str> = report
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut known = REPORT_KEYS.to_vec();
        actual.sort_unstable();
        known.sort_unstable();
        assert_eq!(actual, known);
    }

    /// Every key listed for scripts is one the runtime reads: a value of the wrong type there
    /// makes the script unreadable, while the same script without it reads
    #[test]
    fn the_runtime_reads_every_script_key_listed() {
        let mut probes = Vec::new();
        collect_probes(&script_keys(), &json!({}), &|inner| inner, "", &mut probes);
        assert!(probes.len() > 15, "{probes:?}");
        for (path, valid, wrong) in probes {
            assert!(
                Script::from_json(&valid.to_string()).is_ok(),
                "{path}: the script without it must read: {valid}"
            );
            assert!(
                Script::from_json(&wrong.to_string()).is_err(),
                "{path}: the runtime ignores a wrong value there: {wrong}"
            );
        }
    }

    type Wrap<'a> = &'a dyn Fn(Json) -> Json;

    /// For every key that is not free-form JSON, a valid script around it and the same script
    /// with a value of the wrong type (`[true]`) at it
    fn collect_probes(
        keys: &Keys,
        base: &Json,
        wrap: Wrap<'_>,
        path: &str,
        out: &mut Vec<(String, Json, Json)>,
    ) {
        match keys {
            Keys::Object(entries) => {
                for (key, shape) in entries {
                    let key_path = format!("{path}.{key}");
                    // `args` is any JSON, so no value is wrong there.
                    if *key != "args" {
                        let mut wrong = base.clone();
                        wrong[*key] = json!([true]);
                        out.push((key_path.clone(), wrap(base.clone()), wrap(wrong)));
                    }
                    let inner_wrap = |inner: Json| {
                        let mut outer = base.clone();
                        outer[*key] = inner;
                        wrap(outer)
                    };
                    collect_probes(shape, &required(shape), &inner_wrap, &key_path, out);
                }
            }
            Keys::Each(shape) => {
                let inner_wrap = |inner: Json| wrap(json!([inner]));
                collect_probes(shape, &required(shape), &inner_wrap, path, out);
            }
            Keys::Named(shape) => {
                let inner_wrap = |inner: Json| wrap(json!({ "t": inner }));
                collect_probes(shape, &required(shape), &inner_wrap, path, out);
            }
            Keys::Free => {}
        }
    }

    /// The smallest valid object of a shape: a tool call needs a `name`, an error a `kind`
    fn required(keys: &Keys) -> Json {
        let Keys::Object(entries) = keys else {
            return json!({});
        };
        let has = |name: &str| entries.iter().any(|(key, _)| *key == name);
        if has("args") {
            json!({"name": "x"})
        } else if has("kind") {
            json!({"kind": "model"})
        } else {
            json!({})
        }
    }
}
