//! Input generators of the fuzz targets: `.rules` source that is mostly well-formed (typed
//! by the runtime's own tables of events, fields and verbs, so most of it checks and the
//! deep paths of the compiler and the evaluator are reached), token soup, raw bytes,
//! mutations of seed files, and JSON values and events.

#![allow(
    dead_code,
    unreachable_pub,
    reason = "each fuzz target uses its own part of the generators"
)]

use proptest::prelude::*;
use rulesc::{EventKind, Field, FieldType, StopReason, Verb};
use serde_json::{json, Map, Value as Json};

// ---------------------------------------------------------------------------------------
// Literals

/// Integer literals: plain, grouped, suffixed; when `noisy`, also at and past the `i64`
/// bounds
pub fn int_lit(noisy: bool) -> BoxedStrategy<String> {
    let clean = prop_oneof![
        4 => (0_u64..1_000).prop_map(|int| int.to_string()),
        1 => "[0-9]{1,3}(_[0-9]{3}){0,2}[km]?",
    ];
    if !noisy {
        return clean.boxed();
    }
    prop_oneof![
        4 => (0_u64..1_000).prop_map(|int| int.to_string()),
        1 => "[0-9]{1,3}(_[0-9]{3}){0,2}[km]?",
        1 => Just("9223372036854775807".to_owned()),
        1 => Just("9223372036854775808".to_owned()),
        1 => Just("9223372036854776k".to_owned()),
        1 => "[0-9]{15,25}",
        1 => Just("1_".to_owned()),
    ]
    .boxed()
}

pub fn duration_lit(noisy: bool) -> BoxedStrategy<String> {
    let clean = (
        (0_u64..100_000),
        prop::sample::select(vec!["ms", "s", "min", "h"]),
    )
        .prop_map(|(value, unit)| format!("{value}{unit}"));
    if !noisy {
        return clean.boxed();
    }
    prop_oneof![
        4 => clean,
        1 => Just("18446744073709551615ms".to_owned()),
        1 => Just("9999999999999999h".to_owned()),
        1 => "[0-9]{1,4}(d|us|mx)",
    ]
    .boxed()
}

/// The text between a string's quotes: plain characters and escapes, and when `noisy`
/// bad escapes and strings around the length limit
pub fn string_body(noisy: bool) -> BoxedStrategy<String> {
    let clean = r#"([a-zA-Z0-9 *?./_:-]|é|\\[nt"\\]|\\u\{(1F600|e9|41)\}){0,12}"#;
    if !noisy {
        return clean.boxed();
    }
    prop_oneof![
        6 => clean,
        2 => r#"([a-zA-Z0-9 *?./_:-]|é|\\[nt"\\]|\\u\{[0-9a-fA-F]{1,6}\}){0,12}"#,
        1 => r#"([a-z]|\\q|\\u\{D800\}|\\u\{\}|\\u\{110000\}|\\u12){0,6}"#,
        1 => (4_090_usize..4_100).prop_map(|len| "x".repeat(len)),
    ]
    .boxed()
}

pub fn string_lit(noisy: bool) -> BoxedStrategy<String> {
    string_body(noisy)
        .prop_map(|body| format!("\"{body}\""))
        .boxed()
}

/// Glob patterns; when `noisy`, invalid ones and some long or full of stars
pub fn glob_lit(noisy: bool) -> BoxedStrategy<String> {
    let clean = r"([a-z*?/.]|\[[a-m]-[n-z]\]|\[![a-z]\]|\\\\\*){0,10}";
    if !noisy {
        return clean.prop_map(|body| format!("\"{body}\"")).boxed();
    }
    prop_oneof![
        4 => clean,
        1 => r"(\[|\[z-a\]|\{a,b\}|\*\*|\\\\){1,5}",
        1 => (1_usize..700).prop_map(|n| "*a".repeat(n)),
        1 => (4_090_usize..4_100).prop_map(|n| "a".repeat(n)),
    ]
    .prop_map(|body| format!("\"{body}\""))
    .boxed()
}

/// Regular expressions; when `noisy`, invalid ones and some huge once compiled
pub fn regex_lit(noisy: bool) -> BoxedStrategy<String> {
    let clean = r"(\^|\$|[a-z]|\.\*|\[a-z\]\+|\(a\|b\)|\\\\d\{1,3\}){0,8}";
    if !noisy {
        return clean.prop_map(|body| format!("\"{body}\"")).boxed();
    }
    prop_oneof![
        4 => clean,
        1 => r"(\(|\)|\(\?=a\)|\\\\1|\[|\{2,1\}){1,4}",
        1 => (1_usize..2_000).prop_map(|n| format!("\\\\w{{{n}}}")),
        1 => (1_usize..60).prop_map(|n| "(a|b)*".repeat(n)),
        1 => (1_usize..300).prop_map(|n| format!("{}a{}", "(".repeat(n), ")".repeat(n))),
    ]
    .prop_map(|body| format!("\"{body}\""))
    .boxed()
}

fn list_of(item: BoxedStrategy<String>) -> impl Strategy<Value = String> {
    prop::collection::vec(item, 0..4).prop_map(|items| format!("[{}]", items.join(", ")))
}

/// A literal of `ty`, or when `noisy` (rarely) of any type, to reach the type errors
fn literal_for(ty: FieldType, noisy: bool) -> BoxedStrategy<String> {
    let typed = match ty {
        FieldType::Int => int_lit(noisy),
        FieldType::Duration => duration_lit(noisy),
        FieldType::Str => string_lit(noisy),
        FieldType::Bool => {
            prop::sample::select(vec!["true".to_owned(), "false".to_owned()]).boxed()
        }
        FieldType::Dynamic => any_literal(noisy),
    };
    if noisy {
        prop_oneof![8 => typed, 1 => any_literal(noisy)].boxed()
    } else {
        typed
    }
}

pub fn any_literal(noisy: bool) -> BoxedStrategy<String> {
    prop_oneof![
        int_lit(noisy),
        duration_lit(noisy),
        string_lit(noisy),
        Just("true".to_owned()),
        list_of(prop_oneof![int_lit(noisy), string_lit(noisy)].boxed()),
    ]
    .boxed()
}

// ---------------------------------------------------------------------------------------
// Names

fn event_names() -> Vec<&'static str> {
    EventKind::ALL.iter().map(|kind| kind.name()).collect()
}

/// A key of `arg.*` or `metadata.*`: a few segments, some of them indexes when `indexes`
fn dynamic_path(root: &'static str, indexes: bool) -> impl Strategy<Value = String> {
    let index_weight = u32::from(indexes);
    prop::collection::vec(
        prop_oneof![
            4 => "[a-z_]{1,6}".prop_map(|key| format!(".{key}")),
            index_weight => (0_u32..4).prop_map(|idx| format!("[{idx}]")),
        ],
        1..4,
    )
    .prop_map(move |segments| format!("{root}{}", segments.concat()))
}

/// The fields visible on every event of `events`, with their types; `arg.*` and
/// `metadata.*` where they are visible
fn visible_fields(events: &[EventKind]) -> Vec<(String, FieldType)> {
    let mut fields: Vec<(String, FieldType)> = Field::names()
        .filter_map(|name| {
            let field = Field::from_name(name)?;
            events
                .iter()
                .all(|kind| field.visible_on(*kind))
                .then(|| (name.to_owned(), field.ty()))
        })
        .collect();
    fields.push(("metadata".to_owned(), FieldType::Dynamic));
    if events.iter().all(|kind| {
        Field::Arg(rulesc::FieldPath {
            segments: Vec::new(),
        })
        .visible_on(*kind)
    }) {
        fields.push(("arg".to_owned(), FieldType::Dynamic));
    }
    fields
}

// ---------------------------------------------------------------------------------------
// Conditions and rules

/// One comparison on a field visible on `events`
fn comparison(events: Vec<EventKind>, noisy: bool) -> BoxedStrategy<String> {
    let fields = visible_fields(&events);
    prop::sample::select(fields)
        .prop_flat_map(move |(name, ty)| {
            let field: BoxedStrategy<String> = match name.as_str() {
                "metadata" | "arg" => {
                    let root: &'static str = if name == "arg" { "arg" } else { "metadata" };
                    dynamic_path(root, true).boxed()
                }
                _ => Just(name).boxed(),
            };
            let dynamic_ops = if noisy {
                vec!["==", "!=", "<", ">=", "contains", "in"]
            } else {
                vec!["==", "!=", "contains"]
            };
            let test = match ty {
                FieldType::Int | FieldType::Duration => prop_oneof![
                    (
                        prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="]),
                        literal_for(ty, noisy)
                    )
                        .prop_map(|(op, lit)| format!("{op} {lit}")),
                    literal_for(ty, noisy).prop_map(|lit| format!("in [{lit}]")),
                ]
                .boxed(),
                FieldType::Str => prop_oneof![
                    (
                        prop::sample::select(vec!["==", "!=", "contains"]),
                        literal_for(ty, noisy)
                    )
                        .prop_map(|(op, lit)| format!("{op} {lit}")),
                    glob_lit(noisy).prop_map(|glob| format!("~ {glob}")),
                    regex_lit(noisy).prop_map(|regex| format!("=~ {regex}")),
                    list_of(string_lit(noisy)).prop_map(|list| format!("in {list}")),
                ]
                .boxed(),
                FieldType::Bool => prop_oneof![
                    Just(String::new()),
                    literal_for(ty, noisy).prop_map(|lit| format!("== {lit}")),
                ]
                .boxed(),
                FieldType::Dynamic => prop_oneof![
                    (prop::sample::select(dynamic_ops), any_literal(noisy))
                        .prop_map(|(op, lit)| format!("{op} {lit}")),
                    (prop::sample::select(vec!["<", ">="]), int_lit(noisy))
                        .prop_map(|(op, lit)| format!("{op} {lit}")),
                    list_of(prop_oneof![int_lit(noisy), string_lit(noisy)].boxed())
                        .prop_map(|list| format!("in {list}")),
                    glob_lit(noisy).prop_map(|glob| format!("~ {glob}")),
                    regex_lit(noisy).prop_map(|regex| format!("=~ {regex}")),
                    Just(String::new()),
                ]
                .boxed(),
            };
            (field, test).prop_map(|(field, test)| format!("{field} {test}"))
        })
        .boxed()
}

/// A condition over `events`: comparisons joined by `and`, `or`, `not` and parentheses
/// Arithmetic and quantifiers over what every event sees: counters, `elapsed` and metadata
fn expression(noisy: bool) -> impl Strategy<Value = String> {
    let mut tests = vec![
        "metadata.k * 2 + steps > 3",
        "(metadata.k + 1) / 2 <= tokens - 1",
        "elapsed + 5s >= 2 * 1min",
        "elapsed / 1s == steps",
        "metadata.k - 9223372036854775807 - 9 < 0",
        "any metadata.k == 1",
        "all metadata.list ~ \"a*\"",
        "any metadata.k in [1, \"x\"]",
    ];
    if noisy {
        tests.extend([
            "tool + 1 > 2",
            "elapsed + 5 > 1min",
            "elapsed * 1s > 0s",
            "metadata.k / 0 > 1",
            "any 3 == metadata.k",
            "any tool == \"x\"",
        ]);
    }
    prop::sample::select(tests).prop_map(str::to_owned)
}

fn condition(events: Vec<EventKind>, noisy: bool) -> BoxedStrategy<String> {
    prop_oneof![4 => comparison(events, noisy), 1 => expression(noisy)]
        .prop_recursive(5, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 2..4).prop_map(|parts| parts.join(" and ")),
                prop::collection::vec(inner.clone(), 2..4).prop_map(|parts| parts.join(" or ")),
                inner.clone().prop_map(|part| format!("not ({part})")),
                inner.prop_map(|part| format!("({part})")),
            ]
        })
        .boxed()
}

fn stop_reason(noisy: bool) -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(StopReason::ALL.iter().map(|reason| reason.name().to_owned()).collect::<Vec<_>>()),
        u32::from(noisy) => Just("finished_early".to_owned()),
    ]
}

/// What a rule on `events` does: a verb (one they allow unless `noisy`) or a `set`
fn action(events: Vec<EventKind>, noisy: bool) -> BoxedStrategy<String> {
    let allowed: Vec<&'static str> = Verb::ALL
        .iter()
        .filter(|verb| events.iter().all(|kind| kind.allows(**verb)))
        .map(|verb| verb.name())
        .collect();
    let value = prop_oneof![
        4 => any_literal(noisy).boxed(),
        1 => prop::sample::select(vec!["metadata.k + 1", "steps * 2 - metadata.k", "(elapsed + 1s) / 2"])
            .prop_map(str::to_owned)
            .boxed(),
    ];
    let set = (dynamic_path("metadata", noisy), value)
        .prop_map(|(target, value)| format!("set {target} = {value}"));
    if !noisy {
        if allowed.is_empty() {
            return set.boxed();
        }
        let decide = (
            prop::sample::select(allowed),
            prop::option::of(stop_reason(false)),
            prop::option::of(string_lit(false)),
        )
            .prop_map(|(verb, reason, message)| {
                let reason = reason.filter(|_| matches!(verb, "forbid" | "allow_stop"));
                [Some(verb.to_owned()), reason, message]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" ")
            });
        return prop_oneof![4 => decide, 1 => set].boxed();
    }
    let verb = if allowed.is_empty() {
        prop::sample::select(Verb::ALL.iter().map(|verb| verb.name()).collect::<Vec<_>>()).boxed()
    } else {
        prop_oneof![
            8 => prop::sample::select(allowed),
            1 => prop::sample::select(Verb::ALL.iter().map(|verb| verb.name()).collect::<Vec<_>>()),
            1 => Just("blok"),
        ]
        .boxed()
    };
    prop_oneof![
        4 => (verb, prop::option::of(stop_reason(true)), prop::option::of(string_lit(true)))
            .prop_map(|(verb, reason, message)| {
                let reason = reason.filter(|_| matches!(verb, "forbid" | "allow_stop"));
                [Some(verb.to_owned()), reason, message].into_iter().flatten().collect::<Vec<_>>().join(" ")
            }),
        1 => set,
        1 => any_literal(true).prop_map(|value| format!("set tool = {value}")),
    ]
    .boxed()
}

fn annotation(noisy: bool) -> BoxedStrategy<String> {
    let priority = prop_oneof![
        (-1_000_i64..1_000).prop_map(|p| p.to_string()),
        int_lit(noisy)
    ]
    .prop_map(|priority| format!("@priority({priority})"));
    if !noisy {
        return priority.boxed();
    }
    prop_oneof![
        3 => "[a-z][a-z0-9-]{0,8}".prop_map(|id| format!("@id(\"{id}\")")),
        2 => priority,
        1 => Just("@id(\"prelude:no-tool-calls\")".to_owned()),
        1 => Just("@id(3)".to_owned()),
        1 => Just("@weight(2)".to_owned()),
    ]
    .boxed()
}

/// A rule: typed and well-formed, with mistakes here and there when `noisy`
pub fn rule(noisy: bool) -> impl Strategy<Value = String> {
    let kinds = EventKind::ALL.to_vec();
    prop::sample::subsequence(kinds, 1..3).prop_flat_map(move |events| {
        let names: Vec<&str> = events.iter().map(|kind| kind.name()).collect();
        (
            prop::collection::vec(annotation(noisy), 0..(1 + 2 * usize::from(noisy))),
            Just(names.join(", ")),
            prop::option::weighted(0.8, condition(events.clone(), noisy)),
            action(events, noisy),
        )
            .prop_map(|(annotations, events, condition, action)| {
                let mut text = annotations.join("\n");
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&format!("on {events}"));
                if let Some(condition) = condition {
                    text.push_str(&format!(" when {condition}"));
                }
                text.push_str(&format!(" {action}\n"));
                text
            })
    })
}

/// An object literal of a test event
fn test_object(depth: u32) -> BoxedStrategy<String> {
    let leaf = any_literal(true);
    let value = if depth == 0 {
        leaf
    } else {
        prop_oneof![3 => leaf, 1 => test_object(depth - 1)].boxed()
    };
    prop::collection::vec(("[a-z_]{1,8}", value), 0..4)
        .prop_map(|entries| {
            let entries: Vec<String> = entries
                .into_iter()
                .map(|(key, value)| format!("{key}: {value}"))
                .collect();
            format!("{{ {} }}", entries.join(", "))
        })
        .boxed()
}

/// An inline test: events and expectations, in order or not
pub fn test_block() -> impl Strategy<Value = String> {
    let step = prop_oneof![
        (prop::sample::select(event_names()), test_object(2))
            .prop_map(|(event, object)| format!("  event {event} {object}\n")),
        (
            prop::sample::select(
                Verb::ALL
                    .iter()
                    .map(|verb| verb.name())
                    .chain(["none"])
                    .collect::<Vec<_>>()
            ),
            prop::option::of(stop_reason(true)),
            prop::option::of("[a-z:.0-9-]{1,10}"),
        )
            .prop_map(|(verb, reason, by)| {
                let mut line = format!("  expect {verb}");
                if let Some(reason) = reason {
                    line.push_str(&format!(" {reason}"));
                }
                if let Some(by) = by {
                    line.push_str(&format!(" by \"{by}\""));
                }
                line.push('\n');
                line
            }),
    ];
    ("[a-z ]{1,10}", prop::collection::vec(step, 0..5))
        .prop_map(|(name, steps)| format!("test \"{name}\" {{\n{}}}\n", steps.concat()))
}

/// Whole `.rules` files: header, defaults, rules, tests, a comment or a broken line
pub fn source() -> impl Strategy<Value = String> {
    let item = prop_oneof![
        6 => rule(true),
        2 => test_block(),
        1 => (prop::sample::select(vec!["pre_tool_use", "on_error", "stop"]),
              prop::sample::select(Verb::ALL.iter().map(|verb| verb.name()).collect::<Vec<_>>()))
            .prop_map(|(event, verb)| format!("default {event} {verb}\n")),
        1 => string_lit(true).prop_map(|name| format!("policy {name}\n")),
        1 => "# [ -~]{0,20}\n",
        1 => token_soup().prop_map(|soup| format!("{soup}\n")),
    ];
    prop::collection::vec(item, 0..8).prop_map(|items| items.concat())
}

// ---------------------------------------------------------------------------------------
// Unstructured inputs

include!("../../grammar/tests/common/lexicon.rs");

/// The language's tokens, good and bad, in any order
pub fn token_soup() -> impl Strategy<Value = String> {
    let mut words: Vec<String> = LEXICON.iter().map(|word| (*word).to_owned()).collect();
    words.extend(event_names().into_iter().map(str::to_owned));
    words.extend(Field::names().map(str::to_owned));
    words.extend(Verb::ALL.iter().map(|verb| verb.name().to_owned()));
    words.extend(
        StopReason::ALL
            .iter()
            .map(|reason| reason.name().to_owned()),
    );
    prop::collection::vec(
        (
            prop::sample::select(words),
            prop::sample::select(vec!["", " ", "\n"]),
        ),
        0..60,
    )
    .prop_map(|tokens| {
        tokens
            .into_iter()
            .map(|(token, blank)| token + blank)
            .collect()
    })
}

/// Policies that check: typed rules only, a `default` now and then
pub fn clean_source() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(rule(false), 0..10),
        prop::option::of(prop::sample::select(vec![
            "default pre_tool_use ask\n",
            "default pre_tool_use block\n",
            "default on_error retry\n",
            "default on_error ignore\n",
        ])),
    )
        .prop_map(|(rules, default)| rules.concat() + default.unwrap_or_default())
}

/// Any bytes, valid UTF-8 or not
pub fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..400)
}

/// One edit of a seed: where (a fraction of its length), what
#[derive(Debug, Clone)]
pub enum Edit {
    /// Remove this many bytes
    Delete(usize),
    /// Insert these bytes
    Insert(Vec<u8>),
    /// Repeat the next bytes this many times
    Repeat(usize, usize),
    /// Replace one byte
    Flip(u8),
}

fn edit() -> impl Strategy<Value = (f64, Edit)> {
    let what = prop_oneof![
        2 => (1_usize..20).prop_map(Edit::Delete),
        3 => prop_oneof![
            token_soup().prop_map(String::into_bytes),
            prop::collection::vec(any::<u8>(), 1..8),
            prop::sample::select(vec!["(", "[", "{", "\"", "not ", "9999999999999999999999", "\\u{", "\n"])
                .prop_map(|text| text.as_bytes().to_vec()),
        ]
        .prop_map(Edit::Insert),
        1 => (1_usize..30, prop_oneof![4 => 2_usize..200, 1 => 2_000_usize..3_000])
            .prop_map(|(len, times)| Edit::Repeat(len, times)),
        2 => any::<u8>().prop_map(Edit::Flip),
    ];
    (0.0_f64..1.0, what)
}

/// `seed` with `edits` applied, each at its fraction of the current length
pub fn apply(mut seed: Vec<u8>, edits: &[(f64, Edit)]) -> Vec<u8> {
    for (at, edit) in edits {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss,
            reason = "a position inside the seed, from a fraction in [0, 1)"
        )]
        let pos = ((seed.len() as f64) * at) as usize;
        let pos = pos.min(seed.len());
        match edit {
            Edit::Delete(len) => {
                let end = (pos + len).min(seed.len());
                seed.drain(pos..end);
            }
            Edit::Insert(bytes) => {
                seed.splice(pos..pos, bytes.iter().copied());
            }
            Edit::Repeat(len, times) => {
                let end = (pos + len).min(seed.len());
                let part = seed.get(pos..end).unwrap_or_default().to_vec();
                let repeated: Vec<u8> = part.repeat(*times);
                seed.splice(pos..pos, repeated);
            }
            Edit::Flip(byte) => {
                if let Some(slot) = seed.get_mut(pos) {
                    *slot = *byte;
                }
            }
        }
    }
    seed
}

/// Seeds with a few edits each
pub fn mutated(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(seeds),
        prop::collection::vec(edit(), 1..6),
    )
        .prop_map(|(seed, edits)| apply(seed, &edits))
}

// ---------------------------------------------------------------------------------------
// JSON

/// Any JSON value a few levels deep: odd numbers, long and strange strings
pub fn json_value() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        any::<i64>().prop_map(Json::from),
        any::<u64>().prop_map(Json::from),
        // Floats with few digits: serde_json (without its `float_roundtrip` feature) may
        // read the last digit of others one ulp off, which would fail the round trips the
        // targets check; the language never compares floats exactly anyway.
        (-1_000_000_i32..1_000_000, 0_i32..6)
            .prop_map(|(digits, scale)| json!(f64::from(digits) / 10_f64.powi(scale))),
        "\\PC{0,12}".prop_map(Json::String),
        prop::sample::select(vec!["rm -rf /", "", "tool", "*", "a/b", "true", "12"])
            .prop_map(Json::from),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Json::Array),
            prop::collection::btree_map("[a-z_]{1,6}", inner, 0..5)
                .prop_map(|map| Json::Object(map.into_iter().collect())),
        ]
    })
}

/// A value for an event field: usually of the right JSON type, sometimes not
fn field_value(right: BoxedStrategy<Json>) -> BoxedStrategy<Json> {
    prop_oneof![6 => right, 1 => json_value()].boxed()
}

/// Event JSON as `rulesc eval` reads it: every field may appear, on any event
pub fn event_json() -> impl Strategy<Value = Json> {
    let count = || {
        field_value(prop_oneof![4 => (0_u64..50).prop_map(Json::from), 1 => any::<u64>().prop_map(Json::from)].boxed())
    };
    let text = |words: Vec<&'static str>| {
        field_value(
            prop_oneof![
                prop::sample::select(words).prop_map(Json::from),
                "\\PC{0,10}".prop_map(Json::String)
            ]
            .boxed(),
        )
    };
    let kind = prop_oneof![
        20 => prop::sample::select(event_names()).prop_map(Json::from),
        1 => Just(json!("after_lunch")),
        1 => json_value(),
    ];
    let names: Vec<&'static str> = vec![
        "step",
        "steps",
        "tokens",
        "input_tokens",
        "output_tokens",
        "elapsed_ms",
        "failures",
        "errors",
        "retries",
        "messages",
        "tool_calls",
        "stop_requests",
        "response",
        "finish_reason",
        "tool",
        "result",
        "tool_error",
        "blocked",
        "error",
        "stop_reason",
        "stop_decision",
        "status",
        "arg",
        "metadata",
        "unknown_key",
    ];
    let values =
        prop::collection::vec(prop::sample::select(names), 0..10).prop_flat_map(move |keys| {
            let strategies: Vec<BoxedStrategy<(String, Json)>> = keys
                .into_iter()
                .map(|key| {
                    let value: BoxedStrategy<Json> = match key {
                        "response" | "result" => {
                            text(vec!["Done.", "TODO: more", "BEGIN PRIVATE KEY"])
                        }
                        "finish_reason" => {
                            text(vec!["stop", "length", "tool_calls", "error", "other"])
                        }
                        "tool" => text(vec![
                            "bash",
                            "rm",
                            "web_fetch",
                            "send_email",
                            "finish",
                            "read",
                        ]),
                        "tool_error" | "blocked" => {
                            field_value(any::<bool>().prop_map(Json::Bool).boxed())
                        }
                        "error" => field_value(
                            (
                                prop::sample::select(vec![
                                    "tool",
                                    "tool_blocked",
                                    "model",
                                    "rate_limit",
                                    "timeout",
                                    "unknown",
                                ]),
                                "\\PC{0,8}",
                            )
                                .prop_map(
                                    |(kind, message)| json!({"kind": kind, "message": message}),
                                )
                                .boxed(),
                        ),
                        "stop_reason" => {
                            text(StopReason::ALL.iter().map(|reason| reason.name()).collect())
                        }
                        "stop_decision" => text(vec!["allow_stop", "forbid"]),
                        "status" => text(vec!["completed", "stopped", "failed"]),
                        "arg" => json_value().boxed(),
                        "metadata" => field_value(
                            prop::collection::btree_map("[a-z]{1,4}", json_value(), 0..4)
                                .prop_map(|map| Json::Object(map.into_iter().collect()))
                                .boxed(),
                        ),
                        "unknown_key" => json_value().boxed(),
                        _ => count(),
                    };
                    (Just(key.to_owned()), value).boxed()
                })
                .collect();
            strategies
        });
    (kind, values).prop_map(|(kind, values)| {
        let mut object = Map::new();
        object.insert("event".to_owned(), kind);
        for (key, value) in values {
            object.insert(key, value);
        }
        Json::Object(object)
    })
}

// ---------------------------------------------------------------------------------------
// JSON mutations

/// `value` with the node at each position (in pre-order, modulo the node count) replaced
pub fn replace_nodes(mut value: Json, edits: Vec<(usize, Json)>) -> Json {
    for (position, replacement) in edits {
        let count = count_nodes(&value);
        let mut target = position % count.max(1);
        if let Some(node) = nth_node(&mut value, &mut target) {
            *node = replacement;
        }
    }
    value
}

fn count_nodes(value: &Json) -> usize {
    1 + match value {
        Json::Array(items) => items.iter().map(count_nodes).sum(),
        Json::Object(map) => map.values().map(count_nodes).sum(),
        _ => 0,
    }
}

/// The node `*target` steps into `value`, in pre-order
fn nth_node<'a>(value: &'a mut Json, target: &mut usize) -> Option<&'a mut Json> {
    if *target == 0 {
        return Some(value);
    }
    *target -= 1;
    let children: Vec<&mut Json> = match value {
        Json::Array(items) => items.iter_mut().collect(),
        Json::Object(map) => map.values_mut().collect(),
        _ => return None,
    };
    for child in children {
        let size = count_nodes(child);
        if *target < size {
            return nth_node(child, target);
        }
        *target -= size;
    }
    None
}

/// Values to put in place of a node: any JSON, or numbers and strings at the edges
pub fn replacement() -> impl Strategy<Value = Json> {
    prop_oneof![
        3 => json_value(),
        1 => prop::sample::select(vec![
            json!(u64::MAX), json!(i64::MIN), json!(-1), json!(1.5), json!(""), json!(null),
            json!([]), json!({}), json!("x".repeat(5_000)), json!(vec!["a"; 40]),
        ]),
    ]
}

/// `documents`, each with a few nodes replaced
pub fn mutated_json(documents: impl Strategy<Value = Json>) -> impl Strategy<Value = Vec<u8>> {
    (
        documents,
        prop::collection::vec((any::<usize>(), replacement()), 0..4),
    )
        .prop_map(|(document, edits)| replace_nodes(document, edits).to_string().into_bytes())
}
