//! What a condition can be on any event: the reasoning behind `constant-condition`,
//! `dead-rule`, `conflicting-verbs` and `conflicting-effects`.
//!
//! A condition is expanded into a disjunction of conjunctions of tests (giving up beyond
//! [`MAX_TERMS`]). A conjunction is satisfiable unless the values it leaves for some field
//! are none: integer and duration counters keep a set of ranges (`steps >= 5 and steps < 3`
//! leaves none), strings and other values an exact set (`tool == "a" and tool == "b"`), and
//! a glob, regex or `contains` test filters such a set when it is finite.
//!
//! Invariant: the analysis is sound, not complete. [`always`] answers only when the
//! condition holds on every event, or on none; when unsure it answers `None`. Fields with a
//! fixed name are assumed present, as the agent loop always fills them on the events that
//! see them; `arg.*` and `metadata.*` may be missing, so only equality and membership are
//! reasoned about for them.

use std::collections::{BTreeMap, BTreeSet};

use rulesc_runtime::{CompareOp, Condition, Field, FieldType, Literal, Operand};

/// Conjunctions a condition may expand to before the analysis gives up
const MAX_TERMS: usize = 256;

/// `Some(true)` when `condition` holds on every event, `Some(false)` when on none
pub(super) fn always(condition: &Condition) -> Option<bool> {
    if satisfiable(condition, true) == Some(false) {
        Some(false)
    } else if satisfiable(condition, false) == Some(false) {
        Some(true)
    } else {
        None
    }
}

/// Whether a rule with this condition (`None`: no `when`) matches every event it fires on
pub(super) fn is_unconditional(condition: Option<&Condition>) -> bool {
    condition.is_none_or(|condition| always(condition) == Some(true))
}

/// Whether no event satisfies both conditions (`None`: no `when`, which every event
/// satisfies), so two rules with them never match one event
pub(super) fn exclusive(first: Option<&Condition>, second: Option<&Condition>) -> bool {
    match (first, second) {
        (Some(first), Some(second)) => {
            let both = Condition::All(vec![first.clone(), second.clone()]);
            satisfiable(&both, true) == Some(false)
        }
        _ => false,
    }
}

/// A text equal for two conditions that differ only in the order or repetition of the parts
/// of an `and` or an `or` (`""` for no condition)
pub(super) fn shape(condition: Option<&Condition>) -> String {
    condition.map_or_else(String::new, |condition| {
        serde_json::to_string(&normalized(condition)).unwrap_or_default()
    })
}

/// `condition` with nested `and`s and `or`s flattened and their parts sorted and deduplicated
fn normalized(condition: &Condition) -> Condition {
    match condition {
        Condition::All(parts) => Condition::All(normalized_parts(parts, true)),
        Condition::Any(parts) => Condition::Any(normalized_parts(parts, false)),
        Condition::Not(inner) => Condition::Not(Box::new(normalized(inner))),
        leaf => leaf.clone(),
    }
}

/// The normalized parts of an `and` (`all`) or an `or`
fn normalized_parts(parts: &[Condition], all: bool) -> Vec<Condition> {
    let mut flat = Vec::new();
    for part in parts.iter().map(normalized) {
        match part {
            Condition::All(inner) if all => flat.extend(inner),
            Condition::Any(inner) if !all => flat.extend(inner),
            other => flat.push(other),
        }
    }
    let mut keyed: Vec<(String, Condition)> = flat
        .into_iter()
        .map(|part| (serde_json::to_string(&part).unwrap_or_default(), part))
        .collect();
    keyed.sort_by(|left, right| left.0.cmp(&right.0));
    keyed.dedup_by(|left, right| left.0 == right.0);
    keyed.into_iter().map(|(_, part)| part).collect()
}

/// A leaf test, asserted (`positive`) or denied
#[derive(Clone, Copy)]
struct Atom<'c> {
    /// A condition that is neither `all`, `any` nor `not`
    leaf: &'c Condition,
    /// Whether the leaf must hold (or must not)
    positive: bool,
}

/// A conjunction of tests
type Term<'c> = Vec<Atom<'c>>;

/// Whether some event satisfies `condition` (or its negation); `None` when unsure
fn satisfiable(condition: &Condition, positive: bool) -> Option<bool> {
    let terms = terms(condition, positive)?;
    Some(terms.iter().any(|term| term_satisfiable(term)))
}

/// `condition` (or its negation) as a disjunction of conjunctions
fn terms(condition: &Condition, positive: bool) -> Option<Vec<Term<'_>>> {
    match condition {
        Condition::Not(inner) => terms(inner, !positive),
        Condition::All(parts) if positive => product(parts, positive),
        Condition::Any(parts) if !positive => product(parts, positive),
        Condition::All(parts) | Condition::Any(parts) => union(parts, positive),
        leaf => Some(vec![vec![Atom { leaf, positive }]]),
    }
}

/// Some part holds
fn union(parts: &[Condition], positive: bool) -> Option<Vec<Term<'_>>> {
    let mut out = Vec::new();
    for part in parts {
        out.extend(terms(part, positive)?);
        if out.len() > MAX_TERMS {
            return None;
        }
    }
    Some(out)
}

/// Every part holds
fn product(parts: &[Condition], positive: bool) -> Option<Vec<Term<'_>>> {
    let mut out: Vec<Term<'_>> = vec![Vec::new()];
    for part in parts {
        let part_terms = terms(part, positive)?;
        if out.len().saturating_mul(part_terms.len()) > MAX_TERMS {
            return None;
        }
        out = out
            .iter()
            .flat_map(|term| {
                part_terms.iter().map(move |part_term| {
                    let mut joined = term.clone();
                    joined.extend(part_term.iter().copied());
                    joined
                })
            })
            .collect();
    }
    Some(out)
}

/// A value a field can have, ordered so sets of them are deterministic
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Value {
    /// An integer, or a duration in milliseconds
    Number(i128),
    /// A string
    Text(String),
    /// A bool
    Flag(bool),
    /// Any other JSON value, as its text
    Other(String),
}

impl Value {
    /// The value of a literal
    fn of(literal: &Literal) -> Value {
        match literal {
            Literal::Int(value) => Value::Number(i128::from(*value)),
            Literal::Duration(ms) => Value::Number(i128::from(*ms)),
            Literal::Str(text) => Value::Text(text.clone()),
            Literal::Bool(value) => Value::Flag(*value),
            Literal::List(_) => Value::Other(literal.to_json().to_string()),
        }
    }
}

/// The values a field may still have within one conjunction
#[derive(Debug, Clone)]
enum Domain {
    /// Numbers in these disjoint, sorted, inclusive ranges
    Ranges(Vec<(i128, i128)>),
    /// Exactly these values
    OneOf(BTreeSet<Value>),
    /// Any value but these (a missing `arg.*` or `metadata.*` path included)
    AllBut(BTreeSet<Value>),
}

/// What one test says about a field's value
enum Restriction {
    /// Within `lo..=hi`
    Range(i128, i128),
    /// One of these
    Only(BTreeSet<Value>),
    /// None of these
    Except(BTreeSet<Value>),
}

impl Domain {
    /// Every value `field` can have
    fn full(field: &Field) -> Domain {
        match field.ty() {
            FieldType::Int | FieldType::Duration => Domain::Ranges(vec![(0, i128::from(u64::MAX))]),
            FieldType::Bool => Domain::OneOf([Value::Flag(false), Value::Flag(true)].into()),
            // The runtime's own enumerations, so the lints can never assume a value the
            // runtime does not produce, or miss one it does.
            FieldType::Str => match field.values() {
                Some(values) => Domain::OneOf(
                    values
                        .names()
                        .into_iter()
                        .map(|value| Value::Text(value.to_owned()))
                        .collect(),
                ),
                None => Domain::AllBut(BTreeSet::new()),
            },
            FieldType::Dynamic => Domain::AllBut(BTreeSet::new()),
        }
    }

    /// Keeps only the values `restriction` allows
    fn restrict(&mut self, restriction: Restriction) {
        *self = match (
            std::mem::replace(self, Domain::Ranges(Vec::new())),
            restriction,
        ) {
            (Domain::Ranges(ranges), Restriction::Range(lo, hi)) => Domain::Ranges(
                ranges
                    .into_iter()
                    .filter_map(|(from, to)| {
                        let (from, to) = (from.max(lo), to.min(hi));
                        (from <= to).then_some((from, to))
                    })
                    .collect(),
            ),
            (Domain::Ranges(ranges), Restriction::Only(values)) => Domain::Ranges(
                values
                    .iter()
                    .filter_map(|value| match value {
                        Value::Number(number) => ranges
                            .iter()
                            .any(|(from, to)| from <= number && number <= to)
                            .then_some((*number, *number)),
                        _ => None,
                    })
                    .collect(),
            ),
            (Domain::Ranges(ranges), Restriction::Except(values)) => {
                let mut ranges = ranges;
                for value in &values {
                    if let Value::Number(number) = value {
                        ranges = without(ranges, *number);
                    }
                }
                Domain::Ranges(ranges)
            }
            (Domain::OneOf(set), Restriction::Only(values)) => {
                Domain::OneOf(set.intersection(&values).cloned().collect())
            }
            (Domain::OneOf(set), Restriction::Except(values)) => {
                Domain::OneOf(set.difference(&values).cloned().collect())
            }
            (Domain::AllBut(excluded), Restriction::Only(values)) => {
                Domain::OneOf(values.difference(&excluded).cloned().collect())
            }
            (Domain::AllBut(excluded), Restriction::Except(values)) => {
                Domain::AllBut(excluded.union(&values).cloned().collect())
            }
            // A range never restricts a non-numeric field: the compiler rejects such tests.
            (domain @ (Domain::OneOf(_) | Domain::AllBut(_)), Restriction::Range(..)) => domain,
        };
    }

    /// Whether no value is left
    fn is_empty(&self) -> bool {
        match self {
            Domain::Ranges(ranges) => ranges.is_empty(),
            Domain::OneOf(values) => values.is_empty(),
            Domain::AllBut(_) => false,
        }
    }
}

/// `ranges` without `number`
fn without(ranges: Vec<(i128, i128)>, number: i128) -> Vec<(i128, i128)> {
    let mut out = Vec::new();
    for (from, to) in ranges {
        if number < from || number > to {
            out.push((from, to));
            continue;
        }
        if from < number {
            out.push((from, number - 1));
        }
        if number < to {
            out.push((number + 1, to));
        }
    }
    out
}

/// What the analysis makes of one test
enum Constraint<'c> {
    /// The test does not depend on the event: it always holds, or never
    Constant(bool),
    /// The test restricts a field's values
    On(&'c Field, Restriction),
    /// A glob, regex or `contains` test, decidable once the field's values are a finite set
    Pattern(&'c Field),
    /// Anything else: only contradicted by its own negation
    Opaque,
}

/// Whether some event satisfies every test of `term`
fn term_satisfiable(term: &[Atom<'_>]) -> bool {
    let mut domains: BTreeMap<&Field, Domain> = BTreeMap::new();
    let mut patterns = Vec::new();
    let mut opaque = Vec::new();
    for atom in term {
        match constraint(*atom) {
            Constraint::Constant(holds) => {
                if !holds {
                    return false;
                }
            }
            Constraint::On(field, restriction) => domains
                .entry(field)
                .or_insert_with(|| Domain::full(field))
                .restrict(restriction),
            Constraint::Pattern(field) => patterns.push((field, *atom)),
            Constraint::Opaque => opaque.push(*atom),
        }
    }
    for (field, atom) in patterns {
        let domain = domains.entry(field).or_insert_with(|| Domain::full(field));
        match filtered(domain, atom) {
            Some(kept) => *domain = Domain::OneOf(kept),
            None => opaque.push(atom),
        }
    }
    if domains.values().any(Domain::is_empty) {
        return false;
    }
    // A test that cannot be reasoned about still cannot hold together with its negation.
    !opaque.iter().any(|left| {
        opaque
            .iter()
            .any(|right| left.positive != right.positive && left.leaf == right.leaf)
    })
}

/// The strings of a finite `domain` that pass the pattern test `atom`; `None` when the
/// domain is not a finite set of strings
fn filtered(domain: &Domain, atom: Atom<'_>) -> Option<BTreeSet<Value>> {
    let Domain::OneOf(values) = domain else {
        return None;
    };
    let mut kept = BTreeSet::new();
    for value in values {
        let Value::Text(text) = value else {
            return None;
        };
        let matches = match atom.leaf {
            Condition::Glob { pattern, .. } => pattern.is_match(text),
            Condition::Regex { pattern, .. } => pattern.is_match(text),
            Condition::Contains {
                needle: Literal::Str(needle),
                ..
            } => text.contains(needle.as_str()),
            _ => return None,
        };
        if matches == atom.positive {
            kept.insert(value.clone());
        }
    }
    Some(kept)
}

/// What `atom` says about the event
fn constraint(atom: Atom<'_>) -> Constraint<'_> {
    match atom.leaf {
        Condition::Flag(field) => match field.ty() {
            FieldType::Bool => Constraint::On(
                field,
                Restriction::Only([Value::Flag(atom.positive)].into()),
            ),
            FieldType::Dynamic => {
                let truth = [Value::Flag(true)].into();
                if atom.positive {
                    Constraint::On(field, Restriction::Only(truth))
                } else {
                    Constraint::On(field, Restriction::Except(truth))
                }
            }
            _ => Constraint::Opaque,
        },
        Condition::Compare { left, op, right } => comparison(left, *op, right, atom.positive),
        Condition::In { field, list } => {
            let values: BTreeSet<Value> = list.iter().map(Value::of).collect();
            if atom.positive {
                Constraint::On(field, Restriction::Only(values))
            } else {
                Constraint::On(field, Restriction::Except(values))
            }
        }
        Condition::Glob { field, .. }
        | Condition::Regex { field, .. }
        | Condition::Contains { field, .. } => Constraint::Pattern(field),
        Condition::All(_)
        | Condition::Any(_)
        | Condition::Not(_)
        | Condition::Shell { .. }
        | Condition::Quantified { .. } => Constraint::Opaque,
        Condition::Trace(_) | Condition::From { .. } => Constraint::Opaque,
    }
}

/// What a comparison (asserted or denied) says about the event
fn comparison<'c>(
    left: &'c Operand,
    op: CompareOp,
    right: &'c Operand,
    positive: bool,
) -> Constraint<'c> {
    let (field, op, literal) = match (left, right) {
        (Operand::Field(field), Operand::Literal(literal)) => (field, op, literal),
        (Operand::Literal(literal), Operand::Field(field)) => (field, op.flipped(), literal),
        (Operand::Literal(left), Operand::Literal(right)) => {
            return match constant_order(left, right) {
                Some(ordering) => Constraint::Constant(op.holds(ordering) == positive),
                None => Constraint::Opaque,
            };
        }
        (Operand::Arith(_), _) | (_, Operand::Arith(_)) => {
            // Arithmetic of literals alone is a constant, as the runtime computes it.
            return match (constant_number(left), constant_number(right)) {
                (Some(left), Some(right)) => {
                    Constraint::Constant(op.holds(left.cmp(&right)) == positive)
                }
                _ => Constraint::Opaque,
            };
        }
        (Operand::Field(_), Operand::Field(_)) => return Constraint::Opaque,
    };
    let value = Value::of(literal);
    if field.ty() == FieldType::Dynamic {
        // A missing path or another type makes `==` and `!=` both false, so only `==`
        // can be reasoned about, both ways.
        return match (op, positive) {
            (CompareOp::Eq, true) => Constraint::On(field, Restriction::Only([value].into())),
            (CompareOp::Eq, false) => Constraint::On(field, Restriction::Except([value].into())),
            _ => Constraint::Opaque,
        };
    }
    let op = if positive { op } else { negated(op) };
    if let Value::Number(number) = value {
        let range = match op {
            CompareOp::Eq | CompareOp::EqIgnoringCase => Restriction::Range(number, number),
            CompareOp::Ne | CompareOp::NeIgnoringCase => {
                Restriction::Except([Value::Number(number)].into())
            }
            CompareOp::Lt => Restriction::Range(i128::MIN, number - 1),
            CompareOp::Le => Restriction::Range(i128::MIN, number),
            CompareOp::Gt => Restriction::Range(number + 1, i128::MAX),
            CompareOp::Ge => Restriction::Range(number, i128::MAX),
        };
        return Constraint::On(field, range);
    }
    match op {
        CompareOp::Eq => Constraint::On(field, Restriction::Only([value].into())),
        CompareOp::Ne => Constraint::On(field, Restriction::Except([value].into())),
        _ => Constraint::Opaque,
    }
}

/// The operator that holds exactly when `op` does not
pub(super) fn negated(op: CompareOp) -> CompareOp {
    match op {
        CompareOp::Eq => CompareOp::Ne,
        CompareOp::Ne => CompareOp::Eq,
        CompareOp::Lt => CompareOp::Ge,
        CompareOp::Le => CompareOp::Gt,
        CompareOp::Gt => CompareOp::Le,
        CompareOp::Ge => CompareOp::Lt,
        CompareOp::EqIgnoringCase => CompareOp::NeIgnoringCase,
        CompareOp::NeIgnoringCase => CompareOp::EqIgnoringCase,
    }
}

/// How two literals of one type compare; `None` for types without an order or a mix
/// The number an operand of literals alone is worth (durations in milliseconds); `None`
/// when it reads a field or has no value (a division by zero)
fn constant_number(operand: &Operand) -> Option<i64> {
    match operand {
        Operand::Literal(Literal::Int(value)) => Some(*value),
        Operand::Literal(Literal::Duration(ms)) => i64::try_from(*ms).ok(),
        Operand::Literal(_) | Operand::Field(_) => None,
        Operand::Arith(arith) => arith.op.apply(
            constant_number(&arith.left)?,
            constant_number(&arith.right)?,
        ),
    }
}

fn constant_order(left: &Literal, right: &Literal) -> Option<std::cmp::Ordering> {
    match (left, right) {
        (Literal::Int(left), Literal::Int(right)) => Some(left.cmp(right)),
        (Literal::Duration(left), Literal::Duration(right)) => Some(left.cmp(right)),
        (Literal::Str(left), Literal::Str(right)) => Some(left.cmp(right)),
        (Literal::Bool(left), Literal::Bool(right)) => Some(left.cmp(right)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use rulesc_runtime::Condition;

    use super::{always, shape};
    use crate::{check, SourceFile};

    /// The lowered condition of `on <event> when <condition> set metadata.seen = true`
    fn condition(event: &str, text: &str) -> Condition {
        let source = format!("@id(\"r\")\non {event} when {text} set metadata.seen = true\n");
        let checked = check(&[SourceFile::new("t.rules", "t.rules", source)]);
        let policy = checked.policy.expect("the condition checks");
        let rule = policy.rules().iter().find(|rule| rule.id == "r").unwrap();
        rule.condition.clone().unwrap()
    }

    fn value(event: &str, text: &str) -> Option<bool> {
        always(&condition(event, text))
    }

    #[test]
    fn counters_are_never_negative() {
        assert_eq!(value("before_step", "steps < 0"), Some(false));
        assert_eq!(value("before_step", "steps >= 0"), Some(true));
        assert_eq!(value("before_step", "0 > steps"), Some(false));
        assert_eq!(value("before_step", "steps < 1"), None);
    }

    #[test]
    fn ranges_that_exclude_each_other() {
        assert_eq!(
            value("before_step", "steps >= 5 and steps < 3"),
            Some(false)
        );
        assert_eq!(value("before_step", "steps >= 3 and steps < 5"), None);
        assert_eq!(
            value("before_step", "steps == 4 and steps != 4"),
            Some(false)
        );
        assert_eq!(value("before_step", "steps < 3 or steps >= 3"), Some(true));
        assert_eq!(
            value("before_step", "elapsed >= 5min and elapsed < 300s"),
            Some(false)
        );
        // Removing points one by one leaves the rest of the range.
        assert_eq!(
            value(
                "before_step",
                "steps in [1, 2] and steps != 1 and steps != 2"
            ),
            Some(false)
        );
        assert_eq!(value("before_step", "steps in [1, 2] and steps != 1"), None);
    }

    #[test]
    fn strings_are_reasoned_about_exactly() {
        assert_eq!(
            value("pre_tool_use", "tool == \"a\" and tool == \"b\""),
            Some(false)
        );
        assert_eq!(
            value("pre_tool_use", "tool == \"a\" or tool == \"b\""),
            None
        );
        assert_eq!(
            value("pre_tool_use", "tool in [\"a\", \"b\"] and tool != \"a\""),
            None
        );
        assert_eq!(
            value(
                "pre_tool_use",
                "tool in [\"a\", \"b\"] and not tool in [\"a\", \"b\"]"
            ),
            Some(false)
        );
        assert_eq!(
            value("pre_tool_use", "tool == \"rm\" and not tool ~ \"r*\""),
            Some(false)
        );
        assert_eq!(
            value("pre_tool_use", "tool == \"rm\" and tool ~ \"r*\""),
            None
        );
        assert_eq!(
            value(
                "pre_tool_use",
                "tool in [\"ls\", \"rm\"] and tool =~ \"^x\""
            ),
            Some(false)
        );
        assert_eq!(
            value(
                "pre_tool_use",
                "tool == \"git\" and not tool contains \"gi\""
            ),
            Some(false)
        );
    }

    #[test]
    fn enumerated_fields_take_only_their_values() {
        assert_eq!(
            value("on_error", "error.kind == \"ratelimit\""),
            Some(false)
        );
        assert_eq!(value("on_error", "error.kind == \"rate_limit\""), None);
        assert_eq!(
            value("after_step", "finish_reason != \"bogus\""),
            Some(true)
        );
        assert_eq!(
            value(
                "execution_end",
                "status in [\"completed\", \"stopped\", \"failed\"]"
            ),
            Some(true)
        );
    }

    #[test]
    fn bool_fields_have_two_values() {
        assert_eq!(
            value("post_tool_use", "blocked and not blocked"),
            Some(false)
        );
        assert_eq!(value("post_tool_use", "blocked or not blocked"), Some(true));
        assert_eq!(
            value("post_tool_use", "blocked == true and blocked != false"),
            None
        );
    }

    #[test]
    fn missing_dynamic_paths_make_both_equality_tests_false() {
        // `metadata.x` may be missing: `!=` is then false too, so this may hold.
        assert_eq!(
            value("before_step", "metadata.x == 1 or metadata.x != 1"),
            None
        );
        assert_eq!(
            value("before_step", "metadata.x == 1 and metadata.x == 2"),
            Some(false)
        );
        assert_eq!(
            value("before_step", "metadata.x == 1 or not metadata.x == 1"),
            Some(true)
        );
        assert_eq!(
            value("before_step", "metadata.flag and not metadata.flag"),
            Some(false)
        );
        assert_eq!(value("pre_tool_use", "arg.n > 3 and arg.n < 2"), None);
    }

    #[test]
    fn opaque_tests_contradict_only_their_negation() {
        assert_eq!(
            value(
                "pre_tool_use",
                "arg.command ~ \"rm*\" and not arg.command ~ \"rm*\""
            ),
            Some(false)
        );
        assert_eq!(
            value(
                "pre_tool_use",
                "arg.command ~ \"rm*\" and not arg.command ~ \"ls*\""
            ),
            None
        );
        assert_eq!(
            value("before_step", "steps > errors and steps < errors"),
            None
        );
    }

    #[test]
    fn literal_constants() {
        assert_eq!(value("before_step", "true"), Some(true));
        assert_eq!(value("before_step", "false"), Some(false));
        assert_eq!(value("before_step", "1 == 2"), Some(false));
        assert_eq!(value("before_step", "5min > 1s"), Some(true));
    }

    #[test]
    fn too_many_cases_give_up_rather_than_guess() {
        // Nine two-way `or`s under one `and` expand to 512 cases, beyond the limit.
        let parts: Vec<String> = (0..9)
            .map(|idx| format!("(steps == {idx} or errors == {idx})"))
            .collect();
        let text = format!("{} and steps < 0", parts.join(" and "));
        assert_eq!(value("before_step", &text), None);
    }

    #[test]
    fn shape_ignores_order_nesting_and_repetition() {
        let left = condition(
            "pre_tool_use",
            "tool == \"a\" and (steps > 1 and steps > 1)",
        );
        let right = condition("pre_tool_use", "steps > 1 and tool == \"a\"");
        assert_eq!(shape(Some(&left)), shape(Some(&right)));
        let other = condition("pre_tool_use", "steps > 2 and tool == \"a\"");
        assert_ne!(shape(Some(&left)), shape(Some(&other)));
        assert_eq!(shape(None), "");
    }
}
