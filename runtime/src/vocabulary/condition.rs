//! Conditions of rules as the evaluator runs them: typed, with patterns compiled; among
//! them trace conditions, tests on what happened earlier in the run (docs/trace.md), whose
//! state lives in the engine's `trace` module (here they are only named, so a compiled
//! policy can hold them). A trace term counts the events where a condition holds, so the
//! two are one recursive type and live in one module.

use serde::ser::SerializeStructVariant;
use serde::{Deserialize, Serialize, Serializer};

use super::event_kind::EventKind;
use super::expression::{CompareOp, ListQuantifier, Operand};
use super::field::Field;
use super::literal::Literal;
use super::matcher::{GlobPattern, RegexPattern};
use super::shell::{OnUndecidable, Quantifier, ShellCondition};

/// A checked condition (docs/language.md §4.4)
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Every part holds (`and`)
    All(Vec<Condition>),
    /// Some part holds (`or`)
    Any(Vec<Condition>),
    /// The part does not hold (`not`)
    Not(Box<Condition>),
    /// A bare bool field: `blocked`, `metadata.tainted`
    Flag(Field),
    /// `==`, `!=`, `<`, `<=`, `>`, `>=` between fields and literals
    Compare {
        /// Left-hand side
        left: Operand,
        /// The comparison
        op: CompareOp,
        /// Right-hand side
        right: Operand,
    },
    /// `field ~ "glob"`, whole string
    Glob {
        /// The string read
        field: Field,
        /// The compiled glob
        pattern: GlobPattern,
    },
    /// `field =~ "regex"`, unanchored
    Regex {
        /// The string read
        field: Field,
        /// The compiled regular expression
        pattern: RegexPattern,
    },
    /// `field in [..]`
    In {
        /// The value read
        field: Field,
        /// The members
        list: Vec<Literal>,
    },
    /// `field contains "text"`: a substring of a string, or a member of a JSON array
    Contains {
        /// The value read
        field: Field,
        /// What must be contained
        needle: Literal,
    },
    /// `any ...`, `all ...`: a leaf condition applied to each element of the list its field
    /// holds, or to the value itself when it is no list (docs/expressions.md)
    ///
    /// Invariant: `condition` is a `Compare` whose left side is a field, or a `Glob`,
    /// `Regex`, `In` or `Contains`; that field is the one read as a list.
    Quantified {
        /// Whether some or every element must satisfy `condition`
        quantifier: ListQuantifier,
        /// The test of one element
        condition: Box<Condition>,
    },
    /// `shell(...)`, `shell.all(...)`: the structure of a shell tool's command (docs/shell.md)
    Shell {
        /// Whether some or every simple command must satisfy `condition`
        quantifier: Quantifier,
        /// The condition on one simple command
        condition: ShellCondition,
        /// What the rule does on a command line where the condition cannot be decided
        /// before it runs; `None` is the default (docs/shell.md)
        #[serde(default)]
        on_undecidable: Option<OnUndecidable>,
    },
    /// `count(...) > 20`, `seen(...)`, `same_call_count >= 3`: a test on the run so far
    /// (docs/trace.md); its own condition is read on past events, so it is no leaf's part
    Trace(Box<TraceTest>),
    /// `arg.body from "untrusted"`: the value holds a fragment of content a
    /// `label result "untrusted"` rule labelled earlier in the run (docs/trace.md)
    From {
        /// The value read (strings as they are, other JSON as its text)
        field: Field,
        /// The label
        label: String,
    },
}

impl Condition {
    /// Every leaf test of the condition (neither `and`, `or` nor `not`), found without
    /// recursion, so conditions nested as deep as a policy allows are walked safely
    pub fn leaves(&self) -> impl Iterator<Item = &Condition> {
        let mut pending = vec![self];
        std::iter::from_fn(move || loop {
            let condition = pending.pop()?;
            match condition {
                Condition::All(parts) | Condition::Any(parts) => pending.extend(parts.iter().rev()),
                Condition::Not(part) => pending.push(part),
                leaf => return Some(leaf),
            }
        })
    }
}

/// The most a trace count is compared with: windowed counts keep one entry per counted
/// event up to the largest bound they are compared with, so this bounds their memory
pub const MAX_TRACE_BOUND: u64 = 100_000;

/// A quantity measured over the run's events so far, the current one included
///
/// Its JSON leaves out a `when` or `within` it does not have; it is also the term's key in
/// the trace state, so those bytes are kept.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceTerm {
    /// `count(E when C within W)`: events of kind `event` for which `when` held
    Count {
        /// The kind of event counted
        event: EventKind,
        /// What the counted event must satisfy, read on that event as it was
        #[serde(default)]
        when: Option<Box<Condition>>,
        /// Only events this recent count
        #[serde(default)]
        within: Option<Window>,
    },
    /// `streak(E when C)`: the events of kind `event` in a row, ending now, for which `when`
    /// held; an event of that kind for which it did not hold starts again from 0
    Streak {
        /// The kind of event counted
        event: EventKind,
        /// What each event of the run must satisfy
        #[serde(default)]
        when: Option<Box<Condition>>,
    },
    /// `same_call_count`: how many `pre_tool_use` events in a row, ending now, call the same
    /// tool with the same arguments
    SameCall,
}

impl Serialize for TraceTerm {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A binary format reads fields by position: it gets all of them.
        let every = !serializer.is_human_readable();
        let (index, name, event, when, within) = match self {
            TraceTerm::Count {
                event,
                when,
                within,
            } => (0, "count", event, when, Some(within)),
            TraceTerm::Streak { event, when } => (1, "streak", event, when, None),
            TraceTerm::SameCall => {
                return serializer.serialize_unit_variant("TraceTerm", 2, "same_call");
            }
        };
        let written = |present: bool| usize::from(every || present);
        let len =
            1 + written(when.is_some()) + within.map_or(0, |within| written(within.is_some()));
        let mut term = serializer.serialize_struct_variant("TraceTerm", index, name, len)?;
        term.serialize_field("event", event)?;
        if every || when.is_some() {
            term.serialize_field("when", when)?;
        } else {
            term.skip_field("when")?;
        }
        if let Some(within) = within {
            if every || within.is_some() {
                term.serialize_field("within", within)?;
            } else {
                term.skip_field("within")?;
            }
        }
        term.end()
    }
}

/// How recent a counted event must be
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Window {
    /// `within N steps`: the event's `steps` is less than N behind the current one
    Steps(u64),
    /// `within 10min`: the event's `elapsed` is less than this many milliseconds behind
    Millis(u64),
}

/// `term op bound`: a trace term compared with a constant
///
/// The runtime finds the term's value for the current event by its slot, which `Policy::new`
/// assigns; the slot is not part of the condition's meaning, so it
/// is neither compared nor serialized.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TraceTest {
    /// What is measured
    pub term: TraceTerm,
    /// The comparison, the term on its left
    pub op: CompareOp,
    /// The constant on the right
    pub bound: u64,
    #[serde(skip)]
    slot: usize,
}

impl TraceTest {
    /// `term op bound`
    pub fn new(term: TraceTerm, op: CompareOp, bound: u64) -> TraceTest {
        TraceTest {
            term,
            op,
            bound,
            slot: 0,
        }
    }

    /// Where the policy keeps this term's value
    pub(crate) fn slot(&self) -> usize {
        self.slot
    }

    /// Points this test at the policy's slot for its term
    pub(crate) fn set_slot(&mut self, slot: usize) {
        self.slot = slot;
    }

    /// The largest count this test can tell apart: a count above it compares the same
    pub(crate) fn horizon(&self) -> u64 {
        self.bound.saturating_add(1)
    }
}

impl PartialEq for TraceTest {
    fn eq(&self, other: &TraceTest) -> bool {
        self.term == other.term && self.op == other.op && self.bound == other.bound
    }
}

impl Eq for TraceTest {}
