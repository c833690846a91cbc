//! Arithmetic, list quantifiers and computed `set` values, from syntax to runtime values
//! (docs/expressions.md).
//!
//! Invariant: arithmetic is typed here, once. Its operands are integers, durations or values
//! typed at run time (`arg.*`, `result.*`, `metadata.*`); the type of the result follows
//! the units: durations add to durations, scale by integers and divide into integers.
//! Everything else is refused with a code of its own (E060–E065).

use rulesc_grammar::{
    Arith as AstArith, ArithOp as AstArithOp, ListQuantifier as AstQuantifier,
    Operand as AstOperand, Quantified, Span,
};
use rulesc_runtime::{
    Action, Arith, ArithOp, Condition, EventKind, FieldPath, ListQuantifier, Literal, Operand,
};

use super::{plural, Lowering, Side, Typed};
use crate::codes;
use crate::literal::literal;
use crate::types::Type;

/// The value of a `set`: a literal stored as written, or a number computed when it fires
pub(crate) enum SetValue {
    /// `set metadata.tainted = true`
    Literal(Literal),
    /// `set metadata.fetched = metadata.fetched + 1`
    Computed(Operand),
}

impl SetValue {
    /// The action that stores this value at `key`
    pub(crate) fn into_action(self, key: FieldPath) -> Action {
        match self {
            SetValue::Literal(value) => Action::Set { key, value },
            SetValue::Computed(value) => Action::Compute { key, value },
        }
    }
}

/// Why two units do not combine
enum UnitError {
    /// An integer added to or subtracted from a duration (E061)
    Mixed,
    /// Durations multiplied, or an integer divided by a duration (E062)
    Product(&'static str),
}

/// The operand inside any number of parentheses
fn without_groups(operand: &AstOperand) -> &AstOperand {
    let mut operand = operand;
    while let AstOperand::Group(inner, _) = operand {
        operand = inner;
    }
    operand
}

impl Lowering<'_> {
    /// `left op right`, typed by the units of its sides
    pub(crate) fn arith(
        &mut self,
        arith: &AstArith,
        events: &[(EventKind, Span)],
    ) -> Option<Typed> {
        let left = self.operand(&arith.left, events);
        let right = self.operand(&arith.right, events);
        let (left, right) = (left?, right?);
        let symbol = arith.op.symbol();
        let mut numeric = true;
        for side in [&left, &right] {
            if !matches!(side.ty, Type::Int | Type::Duration | Type::Any) {
                self.diags.push(codes::arithmetic_on_non_number(
                    self.file,
                    side.span,
                    symbol,
                    &side.describe(),
                    plural(side.ty),
                ));
                numeric = false;
            }
        }
        if !numeric {
            return None;
        }
        if arith.op == AstArithOp::Div
            && matches!(
                right.side,
                Side::Lit(Literal::Int(0) | Literal::Duration(0))
            )
        {
            self.diags
                .push(codes::division_by_zero(self.file, right.span));
            return None;
        }
        let ty = match result_type(arith.op, left.ty, right.ty) {
            Ok(ty) => ty,
            Err(UnitError::Mixed) => {
                let (int, duration) = if left.ty == Type::Int {
                    (left.span, right.span)
                } else {
                    (right.span, left.span)
                };
                self.diags
                    .push(codes::mixed_units(self.file, int, symbol, duration));
                return None;
            }
            Err(UnitError::Product(message)) => {
                self.diags
                    .push(codes::duration_product(self.file, arith.op_span, message));
                return None;
            }
        };
        Some(Typed {
            side: Side::Arith(Operand::Arith(Box::new(Arith {
                left: left.into_operand(),
                op: runtime_op(arith.op),
                right: right.into_operand(),
            }))),
            ty,
            span: arith.span,
        })
    }

    /// `any left op right` / `all left op right`: the comparison as a leaf over the field
    pub(crate) fn quantified(
        &mut self,
        quantified: &Quantified,
        events: &[(EventKind, Span)],
    ) -> Option<Condition> {
        let word = quantified.quantifier.word();
        let left = &quantified.compare.left;
        let AstOperand::Path(path) = without_groups(left) else {
            self.diags.push(codes::quantifier_without_field(
                self.file,
                left.span(),
                word,
            ));
            return None;
        };
        let condition = self.compare(&quantified.compare, events)?;
        self.found_quantifier(word, quantified.quantifier_span, path.span);
        let quantifier = match quantified.quantifier {
            AstQuantifier::Any => ListQuantifier::Any,
            AstQuantifier::All => ListQuantifier::All,
        };
        Some(Condition::Quantified {
            quantifier,
            condition: Box::new(condition),
        })
    }

    /// The value of a `set`: a literal as it is, anything else a number computed later
    pub(crate) fn set_value(
        &mut self,
        value: &AstOperand,
        events: &[(EventKind, Span)],
    ) -> Option<SetValue> {
        if let AstOperand::Lit(lit) = without_groups(value) {
            return literal(self.file, lit, self.diags).map(SetValue::Literal);
        }
        let typed = self.operand(value, events)?;
        if !matches!(typed.ty, Type::Int | Type::Duration | Type::Any) {
            self.diags.push(codes::set_value_not_a_number(
                self.file,
                typed.span,
                typed.ty.described(),
                &typed.describe(),
            ));
            return None;
        }
        Some(SetValue::Computed(typed.into_operand()))
    }
}

/// The type of `left op right`, or why the units do not combine; `Any` (typed at run time)
/// takes the unit of the other side where one side decides it
fn result_type(op: AstArithOp, left: Type, right: Type) -> Result<Type, UnitError> {
    use Type::{Any, Duration, Int};
    match op {
        AstArithOp::Add | AstArithOp::Sub => match (left, right) {
            (Int, Duration) | (Duration, Int) => Err(UnitError::Mixed),
            (Any, other) | (other, Any) => Ok(other),
            (same, _) => Ok(same),
        },
        AstArithOp::Mul => match (left, right) {
            (Duration, Duration) => {
                Err(UnitError::Product("two durations multiplied have no unit"))
            }
            (Duration, _) | (_, Duration) => Ok(Duration),
            (Int, Int) => Ok(Int),
            _ => Ok(Any),
        },
        AstArithOp::Div => match (left, right) {
            (Int, Duration) => Err(UnitError::Product(
                "an integer divided by a duration has no unit",
            )),
            (Duration, Duration) | (Int, Int) => Ok(Int),
            (Duration, Int) => Ok(Duration),
            _ => Ok(Any),
        },
    }
}

fn runtime_op(op: AstArithOp) -> ArithOp {
    match op {
        AstArithOp::Add => ArithOp::Add,
        AstArithOp::Sub => ArithOp::Sub,
        AstArithOp::Mul => ArithOp::Mul,
        AstArithOp::Div => ArithOp::Div,
    }
}
