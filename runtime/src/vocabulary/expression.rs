//! The parts of comparisons: operands, arithmetic over numbers and durations, comparison
//! operators, and quantifiers over lists, as conditions and `set` effects hold them
//! (docs/expressions.md).
//!
//! Invariant: plain data. What an expression is worth on an event is computed by the
//! engine (`runtime/src/arith.rs`), which never panics: it saturates and has no value where
//! the operands give none.

use serde::{Deserialize, Serialize};

use super::field::Field;
use super::literal::Literal;

/// `left op right` with an arithmetic operator; both sides are numbers or durations
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arith {
    /// Left-hand side
    pub left: Operand,
    /// The operator
    pub op: ArithOp,
    /// Right-hand side
    pub right: Operand,
}

/// An arithmetic operator
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ArithOp {
    /// `+`
    #[serde(rename = "+")]
    Add,
    /// `-`
    #[serde(rename = "-")]
    Sub,
    /// `*`
    #[serde(rename = "*")]
    Mul,
    /// `/`, truncating toward zero
    #[serde(rename = "/")]
    Div,
}

impl ArithOp {
    /// The operator as written in source
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
        }
    }

    /// `left op right` on 64-bit integers, saturating at their bounds; `None` for a
    /// division by zero
    ///
    /// ```
    /// use rulesc_runtime::ArithOp;
    ///
    /// assert_eq!(ArithOp::Add.apply(i64::MAX, 1), Some(i64::MAX));
    /// assert_eq!(ArithOp::Div.apply(7, 2), Some(3));
    /// assert_eq!(ArithOp::Div.apply(7, 0), None);
    /// ```
    pub fn apply(self, left: i64, right: i64) -> Option<i64> {
        match self {
            ArithOp::Add => Some(left.saturating_add(right)),
            ArithOp::Sub => Some(left.saturating_sub(right)),
            ArithOp::Mul => Some(left.saturating_mul(right)),
            ArithOp::Div if right == 0 => None,
            ArithOp::Div => Some(left.saturating_div(right)),
        }
    }
}

/// Whether some or every element of a list must satisfy a comparison: `any`, `all`
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListQuantifier {
    /// `any`: at least one element (none of an empty list)
    Any,
    /// `all`: every element, and at least one (an empty list fails it)
    All,
}

impl ListQuantifier {
    /// The word as written in source
    pub fn word(self) -> &'static str {
        match self {
            ListQuantifier::Any => "any",
            ListQuantifier::All => "all",
        }
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
