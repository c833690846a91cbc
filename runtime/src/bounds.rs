//! The size bounds of a policy: how many rules, how long a string, how many parts in a
//! field path. [`Policy::new`](crate::Policy::new) refuses a policy past any of them, so a
//! compiled JSON policy is held to them exactly as source is (the compiler reports them
//! first, with their codes and spans).
//!
//! Why these: the compiler's lints and each evaluation grow with the number of rules; every
//! matching rule's message is copied into each outcome; and a `set` key's parts become
//! nested JSON objects, which readers and writers walk recursively (a key of thousands of
//! parts would overflow their stacks, and metadata must stay readable from a checkpoint).
//! Patterns have their own bound, [`MAX_PATTERN_LEN`](crate::MAX_PATTERN_LEN), and
//! conditions theirs, [`MAX_CONDITION_DEPTH`](crate::MAX_CONDITION_DEPTH).
//!
//! Invariant: checking is iterative and linear in the size of the rules.

use crate::policy_error::PolicyError;
use crate::vocabulary::{
    Action, Condition, Field, FieldPath, LabelStep, Literal, Operand, Rule, TraceTerm, TraceTest,
    Window, MAX_TRACE_BOUND,
};

/// The most rules a policy may have, the prelude's not counted
pub const MAX_RULES: usize = 100_000;

/// The longest string a policy may hold (a literal, a message, a rule id), in bytes
pub const MAX_STRING_LEN: usize = 4096;

/// The most parts a field path may have after `arg` or `metadata` (`arg.a.b[0]` has three)
pub const MAX_PATH_SEGMENTS: usize = 32;

/// Checks that `rules` is few enough
pub(crate) fn check_rule_count(count: usize) -> Result<(), PolicyError> {
    if count > MAX_RULES {
        return Err(PolicyError::TooManyRules {
            count,
            limit: MAX_RULES,
        });
    }
    Ok(())
}

/// Checks every string and field path of `rule`
pub(crate) fn check_rule(rule: &Rule) -> Result<(), PolicyError> {
    let string_too_long = |len: usize| PolicyError::StringTooLong {
        rule: rule.id.clone(),
        len,
        limit: MAX_STRING_LEN,
    };
    let path_too_long = |path: &FieldPath| PolicyError::PathTooLong {
        rule: rule.id.clone(),
        segments: path.segments.len(),
        limit: MAX_PATH_SEGMENTS,
    };
    let check_field = |field: &Field| match field {
        Field::Arg(path) | Field::Metadata(path) | Field::ResultPath(path)
            if path.segments.len() > MAX_PATH_SEGMENTS =>
        {
            Err(path_too_long(path))
        }
        _ => Ok(()),
    };
    let check_literal = |literal: &Literal| match longest_string(literal) {
        len if len > MAX_STRING_LEN => Err(string_too_long(len)),
        _ => Ok(()),
    };
    // The fields and literals of an operand, its arithmetic taken apart
    let check_operand = |operand: &Operand| {
        operand_leaves(operand).try_for_each(|leaf| match leaf {
            Operand::Field(field) => check_field(field),
            Operand::Literal(literal) => check_literal(literal),
            Operand::Arith(_) => Ok(()),
        })
    };
    if rule.id.len() > MAX_STRING_LEN {
        return Err(string_too_long(rule.id.len()));
    }
    match &rule.action {
        Action::Decide { message, .. } => {
            if let Some(len) = message.as_ref().map(String::len) {
                if len > MAX_STRING_LEN {
                    return Err(string_too_long(len));
                }
            }
        }
        Action::Set { key, value } => {
            if key.segments.len() > MAX_PATH_SEGMENTS {
                return Err(path_too_long(key));
            }
            check_literal(value)?;
        }
        Action::Compute { key, value } => {
            if key.segments.len() > MAX_PATH_SEGMENTS {
                return Err(path_too_long(key));
            }
            check_operand(value)?;
        }
        Action::Label { label, path } => {
            if label.len() > MAX_STRING_LEN {
                return Err(string_too_long(label.len()));
            }
            if path.len() > MAX_PATH_SEGMENTS {
                return Err(PolicyError::PathTooLong {
                    rule: rule.id.clone(),
                    segments: path.len(),
                    limit: MAX_PATH_SEGMENTS,
                });
            }
            if let Some(long) = path.iter().find_map(|step| match step {
                LabelStep::Key(key) if key.len() > MAX_STRING_LEN => Some(key.len()),
                _ => None,
            }) {
                return Err(string_too_long(long));
            }
        }
    }
    // The conditions of trace terms are checked as the rule's own are; `true` marks them. A
    // quantifier's own test is a leaf too, one level down.
    let mut roots: Vec<(&Condition, bool)> =
        rule.condition.iter().map(|root| (root, false)).collect();
    while let Some((root, in_trace)) = roots.pop() {
        for leaf in root.leaves() {
            match leaf {
                Condition::All(_)
                | Condition::Any(_)
                | Condition::Not(_)
                | Condition::Shell { .. } => {}
                Condition::Quantified { condition, .. } => roots.push((condition, in_trace)),
                Condition::From { field, label } => {
                    check_field(field)?;
                    if label.len() > MAX_STRING_LEN {
                        return Err(string_too_long(label.len()));
                    }
                }
                Condition::Trace(test) => {
                    check_trace(test, in_trace).map_err(|message| PolicyError::InvalidTrace {
                        rule: rule.id.clone(),
                        message: message.to_owned(),
                    })?;
                    if let TraceTerm::Count {
                        when: Some(when), ..
                    }
                    | TraceTerm::Streak {
                        when: Some(when), ..
                    } = &test.term
                    {
                        roots.push((when, true));
                    }
                }
                Condition::Flag(field)
                | Condition::Glob { field, .. }
                | Condition::Regex { field, .. } => check_field(field)?,
                Condition::Compare { left, right, .. } => {
                    check_operand(left)?;
                    check_operand(right)?;
                }
                Condition::In { field, list } => {
                    check_field(field)?;
                    for literal in list {
                        check_literal(literal)?;
                    }
                }
                Condition::Contains { field, needle } => {
                    check_field(field)?;
                    check_literal(needle)?;
                }
            }
        }
    }
    Ok(())
}

/// The fields and literals of `operand`, arithmetic taken apart without recursion
fn operand_leaves(operand: &Operand) -> impl Iterator<Item = &Operand> {
    let mut pending = vec![operand];
    std::iter::from_fn(move || loop {
        match pending.pop()? {
            Operand::Arith(arith) => pending.extend([&arith.right, &arith.left]),
            leaf => return Some(leaf),
        }
    })
}

/// Checks that `test` can be kept in bounded memory; `nested` when it is inside another
/// trace test's condition, which reads one past event and no run
fn check_trace(test: &TraceTest, nested: bool) -> Result<(), &'static str> {
    if nested {
        return Err("a trace test cannot be inside the condition of another");
    }
    if test.bound > MAX_TRACE_BOUND {
        return Err("a trace test compares with more than the limit of 100000");
    }
    match test.term {
        TraceTerm::Count {
            within: Some(Window::Steps(0) | Window::Millis(0)),
            ..
        } => Err("a window of 0 holds no event"),
        _ => Ok(()),
    }
}

/// The length of the longest string in `literal`, lists included, found without recursion
fn longest_string(literal: &Literal) -> usize {
    let mut longest = 0;
    let mut pending = vec![literal];
    while let Some(literal) = pending.pop() {
        match literal {
            Literal::Str(text) => longest = longest.max(text.len()),
            Literal::List(items) => pending.extend(items),
            Literal::Bool(_) | Literal::Int(_) | Literal::Duration(_) => {}
        }
    }
    longest
}
