//! Conditions of rules as the evaluator runs them: typed, with patterns compiled.

use serde::{Deserialize, Serialize};

use super::expression::{Arith, ListQuantifier};
use super::field::Field;
use super::literal::Literal;
use super::matcher::{GlobPattern, RegexPattern};
use super::shell::{OnUndecidable, Quantifier, ShellCondition};
use super::trace::TraceTest;

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

/// One side of a comparison
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operand {
    /// A field of the event
    Field(Field),
    /// A constant
    Literal(Literal),
    /// Arithmetic: `metadata.fetched * 2`; a missing `metadata.*` key counts as 0 in it
    Arith(Box<Arith>),
}

/// An ordering or equality test
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CompareOp {
    /// `==`
    #[serde(rename = "==")]
    Eq,
    /// `!=`
    #[serde(rename = "!=")]
    Ne,
    /// `<`
    #[serde(rename = "<")]
    Lt,
    /// `<=`
    #[serde(rename = "<=")]
    Le,
    /// `>`
    #[serde(rename = ">")]
    Gt,
    /// `>=`
    #[serde(rename = ">=")]
    Ge,
    /// `==*`: equal, strings compared case folded ([`super::fold_case`])
    #[serde(rename = "==*")]
    EqIgnoringCase,
    /// `!=*`: not equal, strings compared case folded
    #[serde(rename = "!=*")]
    NeIgnoringCase,
}

impl CompareOp {
    /// The operator as written in source
    pub fn symbol(self) -> &'static str {
        match self {
            CompareOp::Eq => "==",
            CompareOp::Ne => "!=",
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
            CompareOp::Gt => ">",
            CompareOp::Ge => ">=",
            CompareOp::EqIgnoringCase => "==*",
            CompareOp::NeIgnoringCase => "!=*",
        }
    }

    /// The operator with its operands swapped: `3 < steps` is `steps > 3`
    ///
    /// ```
    /// use rulesc_runtime::CompareOp;
    ///
    /// assert_eq!(CompareOp::Lt.flipped(), CompareOp::Gt);
    /// assert_eq!(CompareOp::Ne.flipped(), CompareOp::Ne);
    /// ```
    pub fn flipped(self) -> CompareOp {
        match self {
            CompareOp::Lt => CompareOp::Gt,
            CompareOp::Le => CompareOp::Ge,
            CompareOp::Gt => CompareOp::Lt,
            CompareOp::Ge => CompareOp::Le,
            CompareOp::Eq
            | CompareOp::Ne
            | CompareOp::EqIgnoringCase
            | CompareOp::NeIgnoringCase => self,
        }
    }

    /// Whether `ordering` (left compared to right) satisfies this operator
    pub fn holds(self, ordering: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering as O;
        match self {
            CompareOp::Eq | CompareOp::EqIgnoringCase => ordering == O::Equal,
            CompareOp::Ne | CompareOp::NeIgnoringCase => ordering != O::Equal,
            CompareOp::Lt => ordering == O::Less,
            CompareOp::Le => ordering != O::Greater,
            CompareOp::Gt => ordering == O::Greater,
            CompareOp::Ge => ordering != O::Less,
        }
    }
}
