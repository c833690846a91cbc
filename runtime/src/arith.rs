//! What arithmetic is worth on one event (docs/expressions.md).
//!
//! Invariant: total and panic-free. Numbers are 64-bit integers, durations their
//! milliseconds; every operation saturates at the bounds of `i64`. An operand that holds no
//! integer (a string, a bool, a float, `null`, a missing `arg.*` path) and a division by zero
//! give the whole expression no value, so a comparison with it is false and a `set` of it
//! stores nothing. A `metadata.*` key that is absent counts as 0, so a counter needs no
//! initial `set`.

use crate::event::Event;
use crate::read::{is_present, read_int};
use crate::vocabulary::{Field, Literal, Operand};

/// The integer `operand` is worth on `event` under arithmetic's reading, durations in
/// milliseconds; `None` when it has no value
pub(crate) fn number(operand: &Operand, event: &Event) -> Option<i64> {
    match operand {
        Operand::Literal(Literal::Int(value)) => Some(*value),
        Operand::Literal(Literal::Duration(ms)) => Some(saturate(i128::from(*ms))),
        Operand::Literal(Literal::Bool(_) | Literal::Str(_) | Literal::List(_)) => None,
        Operand::Field(field) => match read_int(field, event) {
            Some(value) => Some(saturate(value)),
            None if matches!(field, Field::Metadata(_)) && !is_present(field, event) => Some(0),
            None => None,
        },
        Operand::Arith(arith) => arith
            .op
            .apply(number(&arith.left, event)?, number(&arith.right, event)?),
    }
}

/// `value` clamped to the range of `i64`
fn saturate(value: i128) -> i64 {
    i64::try_from(value).unwrap_or(if value < 0 { i64::MIN } else { i64::MAX })
}
