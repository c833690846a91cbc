//! Lowering of trace functions (docs/trace.md): `count(E when C within W)`, `seen(...)`,
//! `streak(...)` and `same_call_count`, into the runtime's [`TraceTest`].
//!
//! Invariant: a trace test always compares a count with a constant from 0 to
//! [`MAX_TRACE_BOUND`], so the runtime can keep a windowed count in memory bounded by it;
//! the `when` of a trace function reads only fields its counted event has, and holds no
//! trace function itself (E050–E054).

use rulesc_grammar::{
    Compare, Expr, Lit, LitKind, Op, Operand, Path, PathSegment, Span, TraceCall,
};
use rulesc_runtime::{
    Builtin, BuiltinArguments, BuiltinRow, CompareOp, Condition, EventKind, TraceTerm, TraceTest,
    Window, MAX_TRACE_BOUND,
};

use super::Lowering;
use crate::codes;
use crate::literal::report_literal_errors;
use crate::resolve;
use crate::types;

/// Whether `compare` has a trace function or `same_call_count` on a side
pub(crate) fn is_trace_compare(compare: &Compare) -> bool {
    [&compare.left, &compare.right]
        .into_iter()
        .any(|side| match side {
            Operand::Trace(_) => true,
            Operand::Path(path) => is_same_call_count(path),
            Operand::Lit(_) | Operand::Arith(_) | Operand::Group(..) => false,
        })
}

fn is_same_call_count(path: &Path) -> bool {
    same_call_count(path).is_some()
}

/// The loop guard's row, if `path` is `same_call_count`
fn same_call_count(path: &Path) -> Option<&'static BuiltinRow> {
    match path.segments.as_slice() {
        [PathSegment::Name(name)] => {
            BuiltinRow::named(&name.name).filter(|row| row.builtin == Builtin::SameCallCount)
        }
        _ => None,
    }
}

/// The trace function `call` names; the grammar reads a trace function's name only among the
/// table's (a test holds the two lists equal), so another name is never met, and is counted
fn function(call: &TraceCall) -> Builtin {
    BuiltinRow::named(&call.name.name).map_or(Builtin::Count, |row| row.builtin)
}

/// A count on one side of a comparison, before it is lowered
enum Counted<'a> {
    Call(&'a TraceCall),
    SameCall(Span, &'static BuiltinRow),
}

/// The count `operand` is, if it is one
fn counted(operand: &Operand) -> Option<Counted<'_>> {
    match operand {
        Operand::Trace(call) => Some(Counted::Call(call)),
        Operand::Path(path) => same_call_count(path).map(|row| Counted::SameCall(path.span, row)),
        _ => None,
    }
}

impl Lowering<'_> {
    /// A trace function alone as a condition: only `seen(...)` is one
    pub(crate) fn trace_alone(
        &mut self,
        call: &TraceCall,
        events: &[(EventKind, Span)],
    ) -> Option<Condition> {
        if function(call) != Builtin::Seen {
            let name = &call.name.name;
            self.diags.push(codes::invalid_trace_test(
                self.file,
                call.span,
                format!("`{name}(...)` is a number, not a condition"),
                "a number",
                format!("compare it with a number, such as `{name}(...) >= 3`"),
            ));
            // Its own problems are reported too.
            self.trace_term(call, events);
            return None;
        }
        let term = self.trace_term(call, events)?;
        Some(Condition::Trace(Box::new(TraceTest::new(
            term,
            CompareOp::Ge,
            1,
        ))))
    }

    /// `count(...) > 20`, `3 <= streak(...)`, `same_call_count >= 3`
    pub(crate) fn trace_compare(
        &mut self,
        compare: &Compare,
        events: &[(EventKind, Span)],
    ) -> Option<Condition> {
        let (counted, op, other) = match (counted(&compare.left), counted(&compare.right)) {
            (Some(_), Some(_)) => {
                self.diags.push(codes::invalid_trace_test(
                    self.file,
                    compare.right.span(),
                    "a count is compared with a number, not with another count".to_owned(),
                    "another count",
                    "compare each count with a number, joined with `and`".to_owned(),
                ));
                return None;
            }
            (Some(counted), None) => (counted, compare.op, &compare.right),
            (None, Some(counted)) => (counted, flipped(compare.op), &compare.left),
            (None, None) => return None,
        };
        let term = match counted {
            Counted::Call(call) if function(call) == Builtin::Seen => {
                self.diags.push(codes::invalid_trace_test(
                    self.file,
                    call.span,
                    "`seen(...)` is a condition, not a number".to_owned(),
                    "a condition",
                    "use it alone, or compare `count(...)` with a number".to_owned(),
                ));
                self.trace_term(call, events);
                return None;
            }
            Counted::Call(call) => self.trace_term(call, events),
            Counted::SameCall(span, row) => self.same_call(span, row, events),
        };
        let Some(compare_op) = compare_op(op) else {
            self.diags.push(codes::invalid_trace_test(
                self.file,
                compare.op_span,
                format!("a count is not compared with `{}`", op.symbol()),
                "not a comparison of numbers",
                "compare it with `==`, `!=`, `<`, `<=`, `>` or `>=`".to_owned(),
            ));
            return None;
        };
        let bound = self.bound(op, other);
        Some(Condition::Trace(Box::new(TraceTest::new(
            term?, compare_op, bound?,
        ))))
    }

    /// The number a count is compared with, when it is one that can tell counts apart
    fn bound(&mut self, op: Op, other: &Operand) -> Option<u64> {
        let Operand::Lit(Lit {
            kind: LitKind::Int(text),
            span,
        }) = other
        else {
            self.diags.push(codes::invalid_trace_test(
                self.file,
                other.span(),
                "a count is compared with a whole number".to_owned(),
                "not a whole number",
                "write the number out, such as `count(pre_tool_use) > 20`".to_owned(),
            ));
            return None;
        };
        let value = types::decode_int(text, *span)
            .map_err(|err| report_literal_errors(self.file, vec![err], self.diags))
            .ok()?;
        let bound = u64::try_from(value)
            .ok()
            .filter(|bound| *bound <= MAX_TRACE_BOUND);
        let Some(bound) = bound else {
            self.diags.push(codes::invalid_trace_test(
                self.file,
                *span,
                format!("a count is compared with at most {MAX_TRACE_BOUND}"),
                "too large",
                "a windowed count keeps one entry per counted event up to this number; \
                 compare with a smaller one"
                    .to_owned(),
            ));
            return None;
        };
        let vacuous = match (op, bound) {
            (Op::Lt, 0) => Some("never holds"),
            (Op::Ge, 0) => Some("always holds"),
            _ => None,
        };
        if let Some(what) = vacuous {
            self.diags.push(codes::invalid_trace_test(
                self.file,
                *span,
                format!("a count is never negative, so `{} 0` {what}", op.symbol()),
                "a count is at least 0",
                "compare with a count the run can reach, such as `>= 1`".to_owned(),
            ));
            return None;
        }
        Some(bound)
    }

    /// `same_call_count`, on the events of its row (`pre_tool_use`) only
    fn same_call(
        &mut self,
        span: Span,
        row: &BuiltinRow,
        events: &[(EventKind, Span)],
    ) -> Option<TraceTerm> {
        if let Some((kind, event_span)) = events.iter().find(|(kind, _)| !row.usable_on(*kind)) {
            self.diags.push(codes::same_call_not_visible(
                self.file,
                span,
                *kind,
                *event_span,
            ));
            return None;
        }
        Some(TraceTerm::SameCall)
    }

    /// What a trace function measures; every problem of it is reported
    fn trace_term(&mut self, call: &TraceCall, _events: &[(EventKind, Span)]) -> Option<TraceTerm> {
        let kind = resolve::event(self.file, &call.event, self.diags);
        let when = match (&call.when, kind) {
            (Some(when), Some(kind)) => Some(self.trace_when(when, kind, call.event.span)),
            _ => None,
        };
        let within = call.within.as_ref().map(|window| {
            if matches!(
                BuiltinRow::named(&call.name.name).map(|row| row.arguments),
                Some(BuiltinArguments::Counted { window: false })
            ) {
                self.diags.push(codes::invalid_window(
                    self.file,
                    window.span,
                    format!("`{}(...)` takes no window", call.name.name),
                    "a streak counts events in a row ending now; use `count(...)` for a window",
                ));
                return None;
            }
            self.window(&window.amount, window.steps)
        });
        let kind = kind?;
        let when = match when {
            Some(lowered) => Some(Box::new(lowered?)),
            None => None,
        };
        Some(match function(call) {
            Builtin::Streak => {
                if within.is_some() {
                    return None;
                }
                TraceTerm::Streak { event: kind, when }
            }
            _ => TraceTerm::Count {
                event: kind,
                when,
                within: match within {
                    Some(window) => Some(window?),
                    None => None,
                },
            },
        })
    }

    /// A window's width: steps, or milliseconds
    ///
    /// `m` is a million everywhere in the language, so a window of `10m` is refused rather
    /// than read as minutes (which it once was): the author says `min` or `steps`.
    fn window(&mut self, amount: &Lit, steps: bool) -> Option<Window> {
        let window = match &amount.kind {
            LitKind::Int(text) if steps => types::decode_int(text, amount.span)
                .map(|count| Window::Steps(u64::try_from(count).unwrap_or_default())),
            LitKind::Duration(text) if text.ends_with('m') && !text.ends_with("ms") => {
                let number = text.trim_end_matches('m');
                self.diags.push(codes::invalid_window(
                    self.file,
                    amount.span,
                    format!("`{text}` is no duration: `m` means a million, not minutes"),
                    &format!(
                        "write `within {number}min` for minutes, or `within {text} steps` for \
                         steps"
                    ),
                ));
                return None;
            }
            LitKind::Duration(text) => {
                types::decode_duration(text, amount.span).map(Window::Millis)
            }
            _ => return None,
        };
        let window = window
            .map_err(|err| report_literal_errors(self.file, vec![err], self.diags))
            .ok()?;
        if matches!(window, Window::Steps(0) | Window::Millis(0)) {
            self.diags.push(codes::invalid_window(
                self.file,
                amount.span,
                "a window of 0 holds no event".to_owned(),
                "give the window a width, such as `within 5 steps` or `within 10min`",
            ));
            return None;
        }
        Some(window)
    }

    /// The `when` of a trace function, read on past events of `kind` (written at
    /// `event_span`): its fields must be visible there, and it holds no trace function
    fn trace_when(&mut self, when: &Expr, kind: EventKind, event_span: Span) -> Option<Condition> {
        let n_before = self.diags.len();
        let mut paths = Vec::new();
        let mut nested = Vec::new();
        walk(when, &mut paths, &mut nested);
        for span in nested {
            self.diags.push(codes::nested_trace(self.file, span));
        }
        for path in paths {
            let mut unknown = Vec::new();
            // An unknown field is reported when the condition is lowered below.
            let Some(field) = resolve::field(self.file, path, &mut unknown) else {
                continue;
            };
            let counted = [(kind, event_span)];
            if resolve::check_visible(self.file, &field, path.span, &counted).is_some() {
                self.diags.push(codes::trace_field_not_visible(
                    self.file, path.span, &field, kind, event_span,
                ));
            }
        }
        if self.diags.len() != n_before {
            return None;
        }
        self.expr(when, &[(kind, event_span)])
    }
}

/// [`walk`] over both sides of a comparison
fn walk_compare<'a>(compare: &'a Compare, paths: &mut Vec<&'a Path>, nested: &mut Vec<Span>) {
    walk_operand(&compare.left, paths, nested);
    walk_operand(&compare.right, paths, nested);
}

/// [`walk`] over an operand, its arithmetic included
fn walk_operand<'a>(operand: &'a Operand, paths: &mut Vec<&'a Path>, nested: &mut Vec<Span>) {
    match operand {
        Operand::Path(path) if is_same_call_count(path) => nested.push(path.span),
        Operand::Path(path) => paths.push(path),
        Operand::Trace(call) => nested.push(call.span),
        Operand::Group(inner, _) => walk_operand(inner, paths, nested),
        Operand::Arith(arith) => {
            walk_operand(&arith.left, paths, nested);
            walk_operand(&arith.right, paths, nested);
        }
        Operand::Lit(_) => {}
    }
}

/// The field paths `expr` reads and the spans of the trace functions in it
fn walk<'a>(expr: &'a Expr, paths: &mut Vec<&'a Path>, nested: &mut Vec<Span>) {
    match expr {
        Expr::Or(parts, _) | Expr::And(parts, _) => {
            for part in parts {
                walk(part, paths, nested);
            }
        }
        Expr::Not(inner, _) | Expr::Paren(inner, _) => walk(inner, paths, nested),
        Expr::Compare(compare) => walk_compare(compare, paths, nested),
        Expr::Quantified(quantified) => walk_compare(&quantified.compare, paths, nested),
        Expr::Path(path) => paths.push(path),
        Expr::Trace(call) => nested.push(call.span),
        // The words inside `shell(...)` are a command's, not the event's fields.
        Expr::Lit(_) | Expr::Call(_) => {}
    }
}

/// The operator with its operands swapped
fn flipped(op: Op) -> Op {
    match op {
        Op::Lt => Op::Gt,
        Op::Le => Op::Ge,
        Op::Gt => Op::Lt,
        Op::Ge => Op::Le,
        other => other,
    }
}

/// The comparison a count takes, if `op` is one
fn compare_op(op: Op) -> Option<CompareOp> {
    Some(match op {
        Op::Eq => CompareOp::Eq,
        Op::Ne => CompareOp::Ne,
        Op::Lt => CompareOp::Lt,
        Op::Le => CompareOp::Le,
        Op::Gt => CompareOp::Gt,
        Op::Ge => CompareOp::Ge,
        Op::Glob
        | Op::Regex
        | Op::In
        | Op::Contains
        | Op::From
        | Op::EqIgnoringCase
        | Op::NeIgnoringCase
        | Op::GlobIgnoringCase => return None,
    })
}
