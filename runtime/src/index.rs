//! Rules indexed by event and by key: which rules an event must test.
//!
//! Invariant: the index only narrows. [`RuleIndex::for_each_candidate`] visits every rule
//! that could match the event (a superset of the matching ones, never missing one), each
//! exactly once, in no promised order; the evaluator tests each candidate's condition,
//! except a candidate marked `proven`, whose whole condition is the key that found it.
//! Resolution does not depend on the order of candidates (`resolve.rs` sorts what it needs).
//! Finer indexes belong here, behind `for_each_candidate`, and nowhere else.
//!
//! How a rule is keyed: its condition is read as a conjunction (nested `and`s flattened),
//! and the most selective conjunct the index understands becomes the rule's one key, per
//! event kind it fires on:
//! 1. `field == "text"` or `field in ["a", "b"]` (strings only): a hash map from text;
//! 2. `field ~ glob` where the glob is a literal (the hash map), `prefix*` (one byte trie
//!    over every prefix, walked along the value), `*suffix` (one over every suffix, walked
//!    backwards) or `*infix*` (one Aho-Corasick automaton over every infix, built when an
//!    event first needs it);
//!    `~ "*"` only asks for a string, and ranks last;
//! 3. `counter == k` on an integer or duration field: a sorted list;
//! 4. any other glob: one `regex::RegexSet` of their translations per field, built when an
//!    event first needs it (a hook call loads a policy for one event);
//! 5. `counter >= k`, `> k`, `<= k`, `< k`: sorted thresholds, so the candidates are one
//!    contiguous run found by binary search.
//!
//! A rule with no such conjunct (`or`, `not`, regular expressions, `!=`, `contains`,
//! comparisons between two fields, or no condition at all) is a candidate on every event of
//! its kinds. A value meets each key at most once, so no rule is visited twice.
//!
//! Cost: finding the candidates of an event takes, per indexed field, one hash lookup, two
//! trie walks and one automaton pass over the value and a few binary searches, whatever the
//! number of rules. Nothing is allocated, unless an infix or a glob of the general kind (4)
//! matches.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use regex::{RegexSet, RegexSetBuilder};
use tracing::warn;

use crate::evaluate::{read_int, read_str};
use crate::event::Event;
use crate::vocabulary::{
    CompareOp, Condition, EventKind, Field, FieldType, GlobShape, Literal, Operand, Rule,
};

mod infix;
mod trie;

use infix::InfixGroup;
use trie::{Anchor, Trie};

/// A rule an event must consider
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// The rule's position in the policy's rule list
    pub(crate) rule: usize,
    /// Whether the key that found the rule is its whole condition, so the rule matches
    /// without testing it
    pub(crate) proven: bool,
}

/// The rules of a policy, grouped by the events they fire on and keyed within each event
#[derive(Debug, Clone, Default)]
pub(crate) struct RuleIndex {
    /// Indexed by [`EventKind::index`]
    by_event: [EventIndex; EventKind::ALL.len()],
}

impl RuleIndex {
    /// Indexes `rules`
    pub(crate) fn new(rules: &[Rule]) -> RuleIndex {
        let mut builders: [EventBuilder; EventKind::ALL.len()] = Default::default();
        for (rule_idx, rule) in rules.iter().enumerate() {
            let keyed = match &rule.condition {
                None => Keyed::Always,
                Some(condition) => best_key(condition).map_or(Keyed::Unkeyed, |(key, proven)| {
                    Keyed::By(
                        key,
                        Candidate {
                            rule: rule_idx,
                            proven,
                        },
                    )
                }),
            };
            for kind in &rule.events {
                if let Some(builder) = builders.get_mut(kind.index()) {
                    builder.add(rule_idx, keyed.clone());
                }
            }
        }
        RuleIndex {
            by_event: builders.map(EventBuilder::build),
        }
    }

    /// Builds now what is otherwise built on first use (the sets of general globs), so that
    /// evaluating allocates nothing unless a glob matches
    pub(crate) fn prepare(&self) {
        let groups = self.by_event.iter().flat_map(|index| &index.texts);
        for texts in groups {
            if let Some(group) = &texts.globs {
                group.set();
            }
            if let Some(group) = &texts.infixes {
                group.prepare();
            }
        }
    }

    /// Visits every rule that may match `event`, each once, in no promised order
    ///
    /// A visitor rather than an iterator: the automata report their matches through a
    /// search state that lives on this function's stack, so nothing is allocated.
    pub(crate) fn for_each_candidate(&self, event: &Event, mut visit: impl FnMut(Candidate)) {
        let Some(index) = self.by_event.get(event.kind.index()) else {
            return;
        };
        index.unkeyed.iter().copied().for_each(&mut visit);
        for texts in &index.texts {
            if let Some(text) = read_str(&texts.field, event) {
                texts.visit(text, &mut visit);
            }
        }
        for counters in &index.counters {
            if let Some(value) = read_int(&counters.field, event) {
                counters.visit(value, &mut visit);
            }
        }
    }
}

/// The rules of one event kind
#[derive(Debug, Clone, Default)]
struct EventIndex {
    /// Rules with no key: candidates on every event of this kind
    unkeyed: Vec<Candidate>,
    /// Rules keyed by the text of a field, one entry per field
    texts: Vec<TextIndex>,
    /// Rules keyed by a threshold on a counter, one entry per field
    counters: Vec<CounterIndex>,
}

/// Rules keyed by the string one field holds
#[derive(Debug, Clone)]
struct TextIndex {
    field: Field,
    /// `~ "*"`: any string at all
    any: Vec<Candidate>,
    /// Whole-string keys: `==`, `in`, literal globs
    exact: HashMap<Box<str>, Vec<Candidate>>,
    /// `prefix*` globs
    prefixes: Option<Trie<Candidate>>,
    /// `*suffix` globs
    suffixes: Option<Trie<Candidate>>,
    /// `*infix*` globs
    infixes: Option<InfixGroup>,
    /// Every other glob, matched together
    globs: Option<GlobGroup>,
}

/// Largest compiled set of globs, in bytes: past it the set is not built and its rules are
/// tested one by one, each with its own compiled glob
const GLOB_SET_SIZE_LIMIT: usize = 64 << 20;

/// Globs matched as one set, with the rule of each
///
/// The set is built when it is first needed (or by [`RuleIndex::prepare`]): building it is
/// most of the cost of loading a policy, and a hook call that loads one for a single event
/// rarely needs it. A set that cannot be built leaves every rule of the group a candidate.
#[derive(Debug, Clone)]
struct GlobGroup {
    /// The globs' translations, by position in the set
    sources: Vec<String>,
    set: OnceLock<Option<RegexSet>>,
    /// By glob position in the set
    rules: Vec<Candidate>,
}

/// Rules keyed by a bound on one integer or duration field
#[derive(Debug, Clone)]
struct CounterIndex {
    field: Field,
    /// `value >= bound`, ascending
    at_least: Vec<Threshold>,
    /// `value <= bound`, ascending
    at_most: Vec<Threshold>,
    /// `value == bound`, ascending
    equal: Vec<Threshold>,
}

#[derive(Debug, Clone, Copy)]
struct Threshold {
    bound: i128,
    candidate: Candidate,
}

impl TextIndex {
    fn visit(&self, text: &str, visit: &mut impl FnMut(Candidate)) {
        self.any.iter().copied().for_each(&mut *visit);
        if let Some(rules) = self.exact.get(text) {
            rules.iter().copied().for_each(&mut *visit);
        }
        if let Some(prefixes) = &self.prefixes {
            prefixes.visit(text, Anchor::Start, visit);
        }
        if let Some(suffixes) = &self.suffixes {
            suffixes.visit(text, Anchor::End, visit);
        }
        if let Some(infixes) = &self.infixes {
            infixes.visit(text, visit);
        }
        if let Some(globs) = &self.globs {
            globs.visit(text, visit);
        }
    }
}

impl GlobGroup {
    /// One set of `globs`, none when there are none
    fn new(globs: Vec<(String, Candidate)>) -> Option<GlobGroup> {
        if globs.is_empty() {
            return None;
        }
        let (sources, rules) = globs.into_iter().unzip();
        Some(GlobGroup {
            sources,
            set: OnceLock::new(),
            rules,
        })
    }

    /// The set, built on first use; none when it cannot be built
    fn set(&self) -> Option<&RegexSet> {
        self.set
            .get_or_init(|| {
                RegexSetBuilder::new(&self.sources)
                    .size_limit(GLOB_SET_SIZE_LIMIT)
                    .build()
                    .inspect_err(|err| {
                        warn!(target: "rulesc::index", error = %err, "globs left unindexed");
                    })
                    .ok()
            })
            .as_ref()
    }

    fn visit(&self, text: &str, visit: &mut impl FnMut(Candidate)) {
        let Some(set) = self.set() else {
            // Unindexed: slower, never wrong.
            self.rules.iter().copied().map(unproven).for_each(visit);
            return;
        };
        // Checked first so that an event no glob matches allocates nothing.
        if !set.is_match(text) {
            return;
        }
        for glob_idx in set.matches(text).into_iter() {
            if let Some(rule) = self.rules.get(glob_idx) {
                visit(*rule);
            }
        }
    }
}

impl CounterIndex {
    fn visit(&self, value: i128, visit: &mut impl FnMut(Candidate)) {
        let below = self.at_least.partition_point(|entry| entry.bound <= value);
        let from = self.at_most.partition_point(|entry| entry.bound < value);
        let equal_from = self.equal.partition_point(|entry| entry.bound < value);
        let equal_to = self.equal.partition_point(|entry| entry.bound <= value);
        let runs = [
            self.at_least.get(..below),
            self.at_most.get(from..),
            self.equal.get(equal_from..equal_to),
        ];
        for entry in runs.into_iter().flatten().flatten() {
            visit(entry.candidate);
        }
    }
}

/// How one rule enters the index of each of its event kinds
#[derive(Debug, Clone)]
enum Keyed {
    /// No condition: it always matches
    Always,
    /// A condition with no usable key: test it on every event
    Unkeyed,
    /// Found through this key
    By(Key, Candidate),
}

/// A necessary condition of a rule that the index can look up
#[derive(Debug, Clone)]
enum Key {
    /// The field holds one of these strings (deduplicated)
    Exact(Field, BTreeSet<String>),
    /// The field holds a string, any string
    AnyText(Field),
    /// The field holds a string that starts with this text (never empty)
    Prefix(Field, String),
    /// The field holds a string that ends with this text (never empty)
    Suffix(Field, String),
    /// The field holds a string that contains this text (never empty)
    Infix(Field, String),
    /// The field holds a string this glob matches
    Glob(Field, String),
    /// The integer field is within this bound
    Counter(Field, Bound),
}

#[derive(Debug, Clone, Copy)]
enum Bound {
    AtLeast(i128),
    AtMost(i128),
    Equal(i128),
}

impl Key {
    /// Lower is more selective; the best key of a rule has the lowest rank
    fn rank(&self) -> u8 {
        match self {
            Key::Exact(..) => 0,
            Key::Prefix(..) | Key::Suffix(..) | Key::Infix(..) => 1,
            Key::Counter(_, Bound::Equal(_)) => 2,
            Key::Glob(..) => 3,
            Key::Counter(..) => 4,
            Key::AnyText(_) => 5,
        }
    }
}

/// The most selective key among the conjuncts of `condition`, and whether it is the whole
/// condition
fn best_key(condition: &Condition) -> Option<(Key, bool)> {
    let mut conjuncts = Vec::new();
    let mut pending = vec![condition];
    while let Some(next) = pending.pop() {
        match next {
            Condition::All(parts) => pending.extend(parts.iter().rev()),
            other => conjuncts.push(other),
        }
    }
    let whole = conjuncts.len() == 1;
    conjuncts
        .into_iter()
        .filter_map(key_of)
        .min_by_key(Key::rank)
        .map(|key| (key, whole))
}

/// The key a single conjunct gives, if the index can look it up
///
/// Each key is exactly the conjunct's own meaning (LANGUAGE.md §4.4), as `evaluate.rs`
/// reads it: a field that holds no string fails every string key, and integer keys are
/// taken only on fields that always hold integers, never on `arg.*` or `metadata.*`, whose
/// JSON numbers may be floats.
fn key_of(conjunct: &Condition) -> Option<Key> {
    match conjunct {
        Condition::Compare { left, op, right } => {
            let (field, op, literal) = match (left, right) {
                (Operand::Field(field), Operand::Literal(literal)) => (field, *op, literal),
                (Operand::Literal(literal), Operand::Field(field)) => {
                    (field, op.flipped(), literal)
                }
                _ => return None,
            };
            compare_key(field, op, literal)
        }
        Condition::In { field, list } => {
            let texts = list
                .iter()
                .map(|member| match member {
                    Literal::Str(text) => Some(text.clone()),
                    _ => None,
                })
                .collect::<Option<BTreeSet<String>>>()?;
            Some(Key::Exact(field.clone(), texts))
        }
        Condition::Glob { field, pattern } => Some(match pattern.shape() {
            GlobShape::Literal(text) => Key::Exact(field.clone(), BTreeSet::from([text])),
            GlobShape::Prefix(text) if text.is_empty() => Key::AnyText(field.clone()),
            GlobShape::Prefix(text) => Key::Prefix(field.clone(), text),
            GlobShape::Suffix(text) if text.is_empty() => Key::AnyText(field.clone()),
            GlobShape::Suffix(text) => Key::Suffix(field.clone(), text),
            GlobShape::Contains(text) => Key::Infix(field.clone(), text),
            GlobShape::Other => Key::Glob(field.clone(), pattern.regex_source().to_owned()),
        }),
        Condition::Any(_)
        | Condition::All(_)
        | Condition::Not(_)
        | Condition::Flag(_)
        | Condition::Regex { .. }
        | Condition::Contains { .. }
        | Condition::Quantified { .. }
        | Condition::Shell { .. }
        | Condition::Trace(_)
        | Condition::From { .. } => None,
    }
}

/// The key of `field op literal`
fn compare_key(field: &Field, op: CompareOp, literal: &Literal) -> Option<Key> {
    if let (CompareOp::Eq, Literal::Str(text)) = (op, literal) {
        return Some(Key::Exact(field.clone(), BTreeSet::from([text.clone()])));
    }
    if !matches!(field.ty(), FieldType::Int | FieldType::Duration) {
        return None;
    }
    let value = match literal {
        Literal::Int(int) => i128::from(*int),
        Literal::Duration(ms) => i128::from(*ms),
        Literal::Bool(_) | Literal::Str(_) | Literal::List(_) => return None,
    };
    let bound = match op {
        CompareOp::Eq => Bound::Equal(value),
        CompareOp::Ge => Bound::AtLeast(value),
        CompareOp::Gt => Bound::AtLeast(value + 1),
        CompareOp::Le => Bound::AtMost(value),
        CompareOp::Lt => Bound::AtMost(value - 1),
        CompareOp::Ne => return None,
    };
    Some(Key::Counter(field.clone(), bound))
}

/// One event kind's index while rules are added
#[derive(Debug, Default)]
struct EventBuilder {
    unkeyed: Vec<Candidate>,
    texts: BTreeMap<Field, TextBuilder>,
    counters: BTreeMap<Field, CounterIndex>,
}

#[derive(Debug, Default)]
struct TextBuilder {
    any: Vec<Candidate>,
    exact: HashMap<Box<str>, Vec<Candidate>>,
    prefixes: BTreeMap<String, Vec<Candidate>>,
    suffixes: BTreeMap<String, Vec<Candidate>>,
    infixes: BTreeMap<String, Vec<Candidate>>,
    globs: Vec<(String, Candidate)>,
}

impl EventBuilder {
    fn add(&mut self, rule_idx: usize, keyed: Keyed) {
        let (key, candidate) = match keyed {
            Keyed::Always => {
                self.unkeyed.push(Candidate {
                    rule: rule_idx,
                    proven: true,
                });
                return;
            }
            Keyed::Unkeyed => {
                self.unkeyed.push(Candidate {
                    rule: rule_idx,
                    proven: false,
                });
                return;
            }
            Keyed::By(key, candidate) => (key, candidate),
        };
        match key {
            Key::Exact(field, texts) => {
                let exact = &mut self.texts.entry(field).or_default().exact;
                for text in texts {
                    exact.entry(text.into()).or_default().push(candidate);
                }
            }
            Key::AnyText(field) => self.texts.entry(field).or_default().any.push(candidate),
            Key::Prefix(field, text) => {
                let texts = self.texts.entry(field).or_default();
                texts.prefixes.entry(text).or_default().push(candidate);
            }
            Key::Suffix(field, text) => {
                let texts = self.texts.entry(field).or_default();
                texts.suffixes.entry(text).or_default().push(candidate);
            }
            Key::Infix(field, text) => {
                let texts = self.texts.entry(field).or_default();
                texts.infixes.entry(text).or_default().push(candidate);
            }
            Key::Glob(field, glob) => {
                let texts = self.texts.entry(field).or_default();
                texts.globs.push((glob, candidate));
            }
            Key::Counter(field, bound) => {
                let counters = self
                    .counters
                    .entry(field.clone())
                    .or_insert_with(|| CounterIndex {
                        field,
                        at_least: Vec::new(),
                        at_most: Vec::new(),
                        equal: Vec::new(),
                    });
                let (list, bound) = match bound {
                    Bound::AtLeast(bound) => (&mut counters.at_least, bound),
                    Bound::AtMost(bound) => (&mut counters.at_most, bound),
                    Bound::Equal(bound) => (&mut counters.equal, bound),
                };
                list.push(Threshold { bound, candidate });
            }
        }
    }

    fn build(self) -> EventIndex {
        let mut unkeyed = self.unkeyed;
        let mut texts = Vec::with_capacity(self.texts.len());
        for (field, builder) in self.texts {
            // Patterns the tries or the regex set refuse leave their rules unkeyed: slower, never
            // wrong.
            let prefixes = or_unkeyed(trie(builder.prefixes, Anchor::Start), &mut unkeyed);
            let suffixes = or_unkeyed(trie(builder.suffixes, Anchor::End), &mut unkeyed);
            let infixes = InfixGroup::new(builder.infixes);
            let globs = GlobGroup::new(builder.globs);
            texts.push(TextIndex {
                field,
                any: builder.any,
                exact: builder.exact,
                prefixes,
                suffixes,
                infixes,
                globs,
            });
        }
        let counters = self
            .counters
            .into_values()
            .map(|mut counters| {
                for list in [
                    &mut counters.at_least,
                    &mut counters.at_most,
                    &mut counters.equal,
                ] {
                    list.sort_by_key(|entry| entry.bound);
                }
                counters
            })
            .collect();
        EventIndex {
            unkeyed,
            texts,
            counters,
        }
    }
}

/// The trie of `strings`; the rules back when there are too many to count in 32 bits
fn trie(
    strings: BTreeMap<String, Vec<Candidate>>,
    anchor: Anchor,
) -> Result<Option<Trie<Candidate>>, Vec<Candidate>> {
    if strings.is_empty() {
        return Ok(None);
    }
    let rules: Vec<Candidate> = strings.values().flatten().copied().collect();
    match Trie::new(strings, anchor) {
        Some(trie) => Ok(Some(trie)),
        None => {
            warn!(target: "rulesc::index", "prefix or suffix globs left unindexed");
            Err(rules)
        }
    }
}

/// The built part, or `None` with its rules moved to `unkeyed`
fn or_unkeyed<T>(
    built: Result<Option<T>, Vec<Candidate>>,
    unkeyed: &mut Vec<Candidate>,
) -> Option<T> {
    built.unwrap_or_else(|rules| {
        unkeyed.extend(rules.into_iter().map(unproven));
        None
    })
}

/// The same rule, to be tested: once it is unkeyed, its key no longer vouches for it
fn unproven(candidate: Candidate) -> Candidate {
    Candidate {
        proven: false,
        ..candidate
    }
}
