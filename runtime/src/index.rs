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

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use regex::{RegexSet, RegexSetBuilder};
use serde::{Deserialize, Serialize};
use tracing::warn;

use crate::event::Event;
use crate::heads::Heads;
use crate::read::{read_int, read_str};
use crate::vocabulary::{
    fold_case, CompareOp, Condition, EventKind, Field, FieldType, GlobShape, Literal, Operand, Rule,
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
///
/// Each event kind's part is built when an event of that kind first needs it (a hook call
/// loads a policy for one or two events), or all at once by [`RuleIndex::prepare`].
/// Invariant: every method is given the rules the index was made for, and their entries,
/// the same each time (the policy that owns them sees to it). A rule with an entry is keyed
/// by it (its condition may not be decoded yet); the others, by their condition.
#[derive(Debug, Clone, Default)]
pub(crate) struct RuleIndex {
    /// Indexed by [`EventKind::index`]
    by_event: [OnceLock<EventIndex>; EventKind::ALL.len()],
}

impl RuleIndex {
    /// Builds every event kind's part now, and what each builds on first use (the sets of
    /// general globs and the automata of infixes), so that evaluating allocates nothing
    /// unless a glob matches
    pub(crate) fn prepare(&self, rules: &Heads, entries: &[IndexEntry]) {
        for kind in EventKind::ALL {
            let Some(index) = self.of(rules, entries, kind) else {
                continue;
            };
            for texts in &index.texts {
                if let Some(group) = &texts.globs {
                    group.set();
                }
                if let Some(group) = &texts.infixes {
                    group.prepare();
                }
            }
        }
    }

    /// The part of `kind`, built on first use
    fn of(&self, rules: &Heads, entries: &[IndexEntry], kind: EventKind) -> Option<&EventIndex> {
        let part = self.by_event.get(kind.index())?;
        Some(part.get_or_init(|| EventIndex::new(rules, entries, kind)))
    }

    /// Visits every rule that may match `event`, each once, in no promised order
    ///
    /// A visitor rather than an iterator: the automata report their matches through a
    /// search state that lives on this function's stack, so nothing is allocated.
    pub(crate) fn for_each_candidate(
        &self,
        rules: &Heads,
        entries: &[IndexEntry],
        event: &Event,
        mut visit: impl FnMut(Candidate),
    ) {
        if !event.unknown_fields.is_empty() {
            // A key cannot be looked up in a value nobody knows: every rule of the kind is
            // tested, and fails closed on what it reads of the unknown fields.
            (0..rules.len())
                .filter(|rule| rules.fires_on(*rule, event.kind))
                .for_each(|rule| {
                    visit(Candidate {
                        rule,
                        proven: false,
                    });
                });
            return;
        }
        let Some(index) = self.of(rules, entries, event.kind) else {
            return;
        };
        index.unkeyed.iter().copied().for_each(&mut visit);
        for texts in &index.texts {
            if let Some(text) = read_str(&texts.field, event) {
                if texts.fold {
                    texts.visit(&fold_case(text), &mut visit);
                } else {
                    texts.visit(text, &mut visit);
                }
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

/// Rules keyed by the string one field holds, or by that string case folded
#[derive(Debug, Clone)]
struct TextIndex {
    field: Field,
    /// Keys of `==*` and `~*`: the keys are case folded, and so is the text looked up
    fold: bool,
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
    fn new(globs: Vec<(&str, Candidate)>) -> Option<GlobGroup> {
        if globs.is_empty() {
            return None;
        }
        let (sources, rules) = globs
            .into_iter()
            .map(|(source, rule)| (source.to_owned(), rule))
            .unzip();
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

impl EventIndex {
    /// The index of the rules of `rules` that fire on `kind`, the first `entries.len()` keyed
    /// by their entries
    fn new(rules: &Heads, entries: &[IndexEntry], kind: EventKind) -> EventIndex {
        let mut builder = EventBuilder::default();
        // One stack for every rule's walk over its conjuncts.
        let mut pending = Vec::new();
        for rule_idx in 0..rules.len() {
            if !rules.fires_on(rule_idx, kind) {
                continue;
            }
            let keyed = match entries.get(rule_idx) {
                Some(IndexEntry::Always) => Keyed::Always,
                Some(IndexEntry::Unkeyed) => Keyed::Unkeyed,
                Some(IndexEntry::Keyed { conjunct, whole }) => key_of(conjunct)
                    .filter(|key| key.holds_on(kind))
                    .map_or(Keyed::Unkeyed, |key| Keyed::By(key, *whole)),
                None => match rules.condition(rule_idx) {
                    None => Keyed::Always,
                    Some(condition) => best_key(condition, &mut pending)
                        .filter(|(_, key, _)| key.holds_on(kind))
                        .map_or(Keyed::Unkeyed, |(_, key, whole)| Keyed::By(key, whole)),
                },
            };
            builder.add(rule_idx, keyed);
        }
        builder.build()
    }
}

/// How a rule enters the index, kept apart from its condition: what the compact form
/// records of each rule, so that the index is built without decoding conditions
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum IndexEntry {
    /// No condition: the rule always matches
    Always,
    /// No conjunct the index can look up: the rule is a candidate on every event
    Unkeyed,
    /// Keyed by this conjunct of the condition, which is the whole condition when `whole`
    Keyed {
        /// The conjunct: a comparison, an `in` or a glob test
        conjunct: Condition,
        /// Whether it is the whole condition
        whole: bool,
    },
}

impl IndexEntry {
    /// The entry of `rule`, whose condition keys it as [`RuleIndex`] keys a rule without one
    pub(crate) fn of(rule: &Rule) -> IndexEntry {
        match &rule.condition {
            None => IndexEntry::Always,
            Some(condition) => match best_key(condition, &mut Vec::new()) {
                None => IndexEntry::Unkeyed,
                Some((conjunct, _, whole)) => IndexEntry::Keyed {
                    conjunct: conjunct.clone(),
                    whole,
                },
            },
        }
    }
}

/// How one rule enters the index of an event kind
#[derive(Debug)]
enum Keyed<'r> {
    /// No condition: it always matches
    Always,
    /// A condition with no usable key: test it on every event
    Unkeyed,
    /// Found through this key, which is the whole condition when `true`
    By(Key<'r>, bool),
}

/// The string a text key looks at: a field's, case folded when `fold`
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Subject<'r> {
    field: &'r Field,
    fold: bool,
}

/// A necessary condition of a rule that the index can look up, borrowed from the rule
#[derive(Debug)]
enum Key<'r> {
    /// The subject is one of these strings (case folded first when the subject is)
    Exact(Subject<'r>, Texts<'r>),
    /// The field holds a string, any string
    AnyText(&'r Field),
    /// The subject starts with this text (never empty)
    Prefix(Subject<'r>, &'r str),
    /// The subject ends with this text (never empty)
    Suffix(Subject<'r>, &'r str),
    /// The subject contains this text (never empty)
    Infix(Subject<'r>, &'r str),
    /// The subject is a string this glob matches (its regular expression)
    Glob(Subject<'r>, &'r str),
    /// The integer field is within this bound
    Counter(&'r Field, Bound),
}

/// The strings of an exact key
#[derive(Debug, Clone, Copy)]
enum Texts<'r> {
    /// One string
    One(&'r str),
    /// The members of an `in` list, every one a string (possibly repeated)
    Members(&'r [Literal]),
}

impl<'r> Texts<'r> {
    fn each(self) -> impl Iterator<Item = &'r str> {
        let (one, members) = match self {
            Texts::One(text) => (Some(text), [].as_slice()),
            Texts::Members(members) => (None, members),
        };
        one.into_iter()
            .chain(members.iter().filter_map(|member| match member {
                Literal::Str(text) => Some(text.as_str()),
                _ => None,
            }))
    }
}

#[derive(Debug, Clone, Copy)]
enum Bound {
    AtLeast(i128),
    AtMost(i128),
    Equal(i128),
}

impl Key<'_> {
    /// The field the key is looked up in
    fn field(&self) -> &Field {
        match self {
            Key::Exact(subject, _)
            | Key::Prefix(subject, _)
            | Key::Suffix(subject, _)
            | Key::Infix(subject, _)
            | Key::Glob(subject, _) => subject.field,
            Key::AnyText(field) | Key::Counter(field, _) => field,
        }
    }

    /// Whether the key can be looked up on every event of `kind`: after a tool ran, its
    /// input may have been unreadable (`Event::arg_unreadable`), and a test of it must then
    /// fail closed, which a key looked up in the input cannot do
    fn holds_on(&self, kind: EventKind) -> bool {
        !(kind == EventKind::PostToolUse && matches!(self.field(), Field::Arg(_)))
    }

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

/// The most selective key among the conjuncts of `condition` (the first, among equals), the
/// conjunct that gives it, and whether that is the whole condition; `pending` is scratch
/// space
fn best_key<'r>(
    condition: &'r Condition,
    pending: &mut Vec<&'r Condition>,
) -> Option<(&'r Condition, Key<'r>, bool)> {
    pending.clear();
    pending.push(condition);
    let mut conjuncts = 0_usize;
    let mut best: Option<(&'r Condition, Key<'r>)> = None;
    while let Some(next) = pending.pop() {
        match next {
            Condition::All(parts) => pending.extend(parts.iter().rev()),
            conjunct => {
                conjuncts += 1;
                if let Some(key) = key_of(conjunct) {
                    if best
                        .as_ref()
                        .is_none_or(|(_, best)| key.rank() < best.rank())
                    {
                        best = Some((conjunct, key));
                    }
                }
            }
        }
    }
    best.map(|(conjunct, key)| (conjunct, key, conjuncts == 1))
}

/// The key a single conjunct gives, if the index can look it up
///
/// Each key is exactly the conjunct's own meaning (docs/language.md §4.4), as `evaluate.rs`
/// reads it: a field that holds no string fails every string key, and integer keys are
/// taken only on fields that always hold integers, never on `arg.*` or `metadata.*`, whose
/// JSON numbers may be floats. A tool's output keys nothing: output that could not be read
/// gives every test of it the value that makes its rule fail closed, which a key, looked up
/// in the output's text, cannot.
fn key_of(conjunct: &Condition) -> Option<Key<'_>> {
    let key = key_of_any_field(conjunct)?;
    (!matches!(key.field(), Field::Result | Field::ResultPath(_))).then_some(key)
}

/// The key a single conjunct gives, whatever its field
fn key_of_any_field(conjunct: &Condition) -> Option<Key<'_>> {
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
        Condition::In { field, list } => list
            .iter()
            .all(|member| matches!(member, Literal::Str(_)))
            .then_some(Key::Exact(
                Subject { field, fold: false },
                Texts::Members(list),
            )),
        Condition::Glob { field, pattern } => {
            // The shape and the regular expression of a glob that ignores case are those of
            // the folded glob, to be matched against the folded text.
            let subject = Subject {
                field,
                fold: pattern.folds_case(),
            };
            Some(match pattern.shape() {
                GlobShape::Literal(text) => Key::Exact(subject, Texts::One(text)),
                GlobShape::Prefix(text) if text.is_empty() => Key::AnyText(field),
                GlobShape::Prefix(text) => Key::Prefix(subject, text),
                GlobShape::Suffix(text) if text.is_empty() => Key::AnyText(field),
                GlobShape::Suffix(text) => Key::Suffix(subject, text),
                GlobShape::Contains(text) => Key::Infix(subject, text),
                GlobShape::Other => Key::Glob(subject, pattern.regex_source()?),
            })
        }
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
fn compare_key<'r>(field: &'r Field, op: CompareOp, literal: &'r Literal) -> Option<Key<'r>> {
    match (op, literal) {
        (CompareOp::Eq, Literal::Str(text)) => {
            return Some(Key::Exact(Subject { field, fold: false }, Texts::One(text)))
        }
        (CompareOp::EqIgnoringCase, Literal::Str(text)) => {
            return Some(Key::Exact(Subject { field, fold: true }, Texts::One(text)))
        }
        _ => {}
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
        CompareOp::EqIgnoringCase => Bound::Equal(value),
        CompareOp::Ne | CompareOp::NeIgnoringCase => return None,
    };
    Some(Key::Counter(field, bound))
}

/// One event kind's index while rules are added
#[derive(Debug, Default)]
struct EventBuilder<'r> {
    unkeyed: Vec<Candidate>,
    texts: BTreeMap<Subject<'r>, TextBuilder<'r>>,
    counters: BTreeMap<&'r Field, CounterIndex>,
}

#[derive(Debug, Default)]
struct TextBuilder<'r> {
    any: Vec<Candidate>,
    exact: HashMap<Box<str>, Vec<Candidate>>,
    prefixes: BTreeMap<&'r str, Vec<Candidate>>,
    suffixes: BTreeMap<&'r str, Vec<Candidate>>,
    infixes: BTreeMap<&'r str, Vec<Candidate>>,
    globs: Vec<(&'r str, Candidate)>,
}

impl<'r> EventBuilder<'r> {
    fn add(&mut self, rule: usize, keyed: Keyed<'r>) {
        let (key, candidate) = match keyed {
            Keyed::Always | Keyed::Unkeyed => {
                let proven = matches!(keyed, Keyed::Always);
                self.unkeyed.push(Candidate { rule, proven });
                return;
            }
            Keyed::By(key, proven) => (key, Candidate { rule, proven }),
        };
        match key {
            Key::Exact(subject, texts) => {
                let exact = &mut self.texts.entry(subject).or_default().exact;
                for text in texts.each() {
                    // Glob shapes are folded already; `==*` literals are folded here.
                    let text = if subject.fold {
                        fold_case(text)
                    } else {
                        Cow::Borrowed(text)
                    };
                    let text = text.as_ref();
                    match exact.get_mut(text) {
                        // A text the list repeats: the rule is already found by it.
                        Some(rules) if rules.last() == Some(&candidate) => {}
                        Some(rules) => rules.push(candidate),
                        None => {
                            exact.insert(text.into(), vec![candidate]);
                        }
                    }
                }
            }
            Key::AnyText(field) => {
                let subject = Subject { field, fold: false };
                self.texts.entry(subject).or_default().any.push(candidate);
            }
            Key::Prefix(subject, text) => {
                let texts = self.texts.entry(subject).or_default();
                texts.prefixes.entry(text).or_default().push(candidate);
            }
            Key::Suffix(subject, text) => {
                let texts = self.texts.entry(subject).or_default();
                texts.suffixes.entry(text).or_default().push(candidate);
            }
            Key::Infix(subject, text) => {
                let texts = self.texts.entry(subject).or_default();
                texts.infixes.entry(text).or_default().push(candidate);
            }
            Key::Glob(subject, glob) => {
                let texts = self.texts.entry(subject).or_default();
                texts.globs.push((glob, candidate));
            }
            Key::Counter(field, bound) => {
                let counters = self.counters.entry(field).or_insert_with(|| CounterIndex {
                    field: field.clone(),
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
        for (subject, builder) in self.texts {
            // Patterns the tries or the regex set refuse leave their rules unkeyed: slower, never
            // wrong.
            let prefixes = or_unkeyed(trie(&builder.prefixes, Anchor::Start), &mut unkeyed);
            let suffixes = or_unkeyed(trie(&builder.suffixes, Anchor::End), &mut unkeyed);
            let infixes = InfixGroup::new(builder.infixes);
            let globs = GlobGroup::new(builder.globs);
            texts.push(TextIndex {
                field: subject.field.clone(),
                fold: subject.fold,
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
    strings: &BTreeMap<&str, Vec<Candidate>>,
    anchor: Anchor,
) -> Result<Option<Trie<Candidate>>, Vec<Candidate>> {
    if strings.is_empty() {
        return Ok(None);
    }
    match Trie::new(strings, anchor) {
        Some(trie) => Ok(Some(trie)),
        None => {
            warn!(target: "rulesc::index", "prefix or suffix globs left unindexed");
            Err(strings.values().flatten().copied().collect())
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
