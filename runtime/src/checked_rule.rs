//! The one check of a single rule: what every rule of a policy must be, whoever wrote it.
//!
//! Invariant: a [`CheckedRule`] is made only by [`CheckedRule::new`], so holding one is
//! proof that its rule passed every check below and is in canonical form. The compiler
//! checks each lowered rule here and reports a refusal at the rule's span; `Policy::new`
//! checks here the rules it is handed; neither checks a [`CheckedRule`] again.

use std::ops::Deref;

use crate::bounds;
use crate::policy_error::{PolicyError, MAX_CONDITION_DEPTH};
use crate::resolve::stop_reason_of;
use crate::vocabulary::{Action, Condition, EventKind, Operand, PathSegment, Rule};

/// A user rule that passed every check of a single rule, in canonical form: its events
/// sorted and deduplicated, and a `forbid` or `allow_stop` without a stop reason given its
/// default, so equal rules compare and serialize alike
///
/// What only a whole policy can tell (ids used twice, the number of rules) is checked by
/// [`Policy::from_checked`](crate::Policy::from_checked).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedRule(Rule);

impl CheckedRule {
    /// Checks `rule` as a rule of a policy's user: its id is not reserved, it fits the
    /// bounds, fires on an event, nests within [`MAX_CONDITION_DEPTH`], its patterns compile,
    /// its quantifiers test a field, and its verb, stop reason and effect suit its events
    pub fn new(mut rule: Rule) -> Result<CheckedRule, PolicyError> {
        if Rule::is_reserved_id(&rule.id) {
            return Err(PolicyError::ReservedId(rule.id));
        }
        check(&mut rule)?;
        Ok(CheckedRule(rule))
    }

    /// The rule
    pub fn into_rule(self) -> Rule {
        self.0
    }
}

impl Deref for CheckedRule {
    type Target = Rule;

    fn deref(&self) -> &Rule {
        &self.0
    }
}

/// Checks one rule and brings it to its canonical form
fn check(rule: &mut Rule) -> Result<(), PolicyError> {
    bounds::check_rule(rule)?;
    rule.events.sort();
    rule.events.dedup();
    if rule.events.is_empty() {
        return Err(PolicyError::NoEvents(rule.id.clone()));
    }
    if rule
        .condition
        .as_ref()
        .is_some_and(|condition| exceeds_depth(condition, MAX_CONDITION_DEPTH))
    {
        return Err(PolicyError::TooDeep(rule.id.clone()));
    }
    // A quantifier's test is a leaf of its own, one level down (docs/expressions.md).
    let mut quantified = Vec::new();
    for leaf in rule.condition.iter().flat_map(Condition::leaves) {
        if let Condition::Quantified { condition, .. } = leaf {
            if !is_element_test(condition) {
                return Err(PolicyError::InvalidQuantifier(rule.id.clone()));
            }
            quantified.push(condition.as_ref());
        }
    }
    let invalid = rule
        .condition
        .iter()
        .flat_map(Condition::leaves)
        .chain(quantified)
        .find_map(|leaf| match leaf {
            Condition::Regex { pattern, .. } => pattern.check().err(),
            Condition::Glob { pattern, .. } => pattern.check().err(),
            _ => None,
        });
    if let Some(err) = invalid {
        return Err(PolicyError::InvalidPattern {
            rule: rule.id.clone(),
            message: err.to_string(),
        });
    }
    match &mut rule.action {
        Action::Decide {
            verb, stop_reason, ..
        } => {
            if let Some(event) = rule.events.iter().find(|event| !event.allows(*verb)) {
                return Err(PolicyError::VerbNotAllowed {
                    rule: rule.id.clone(),
                    verb: *verb,
                    event: *event,
                });
            }
            if stop_reason.is_some() && !verb.takes_stop_reason() {
                return Err(PolicyError::StopReasonNotAllowed {
                    rule: rule.id.clone(),
                    verb: *verb,
                });
            }
            *stop_reason = stop_reason_of(*verb, *stop_reason);
        }
        Action::Label { .. } => {
            if rule.events != [EventKind::PostToolUse] {
                return Err(PolicyError::InvalidTrace {
                    rule: rule.id.clone(),
                    message: "`label result` is an effect of `post_tool_use` alone".to_owned(),
                });
            }
        }
        Action::Set { key, .. } | Action::Compute { key, .. } => {
            let indexes = key
                .segments
                .iter()
                .any(|segment| matches!(segment, PathSegment::Index(_)));
            if key.segments.is_empty() || indexes {
                return Err(PolicyError::InvalidSetKey {
                    rule: rule.id.clone(),
                    key: key.to_string(),
                });
            }
        }
    }
    Ok(())
}

/// Whether `condition` can be a quantifier's test: a comparison whose left side is a field,
/// or a pattern, `in` or `contains` test of a field
fn is_element_test(condition: &Condition) -> bool {
    matches!(
        condition,
        Condition::Compare {
            left: Operand::Field(_),
            ..
        } | Condition::Glob { .. }
            | Condition::Regex { .. }
            | Condition::In { .. }
            | Condition::Contains { .. }
    )
}

/// Whether `condition` nests deeper than `limit` levels, found without recursion
fn exceeds_depth(condition: &Condition, limit: usize) -> bool {
    let mut pending = vec![(condition, 1_usize)];
    while let Some((condition, depth)) = pending.pop() {
        if depth > limit {
            return true;
        }
        match condition {
            Condition::All(parts) | Condition::Any(parts) => {
                pending.extend(parts.iter().map(|part| (part, depth + 1)));
            }
            Condition::Not(part) => pending.push((part, depth + 1)),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude;
    use crate::vocabulary::{StopReason, Verb};
    use crate::{Defaults, Policy};

    fn forbid(id: &str, events: Vec<EventKind>) -> Rule {
        Rule {
            id: id.to_owned(),
            events,
            condition: None,
            action: Action::Decide {
                verb: Verb::Forbid,
                stop_reason: None,
                message: None,
            },
            priority: 0,
            origin: None,
        }
    }

    #[test]
    fn the_prelude_is_written_in_canonical_form() {
        // `Policy::from_checked` adds the prelude without checking it.
        for rule in prelude::rules() {
            let mut checked = rule.clone();
            check(&mut checked).unwrap();
            assert_eq!(checked, rule);
        }
    }

    #[test]
    fn a_checked_rule_is_canonical() {
        let events = vec![EventKind::OnError, EventKind::AfterStep, EventKind::OnError];
        let checked = CheckedRule::new(forbid("r", events)).unwrap();
        assert_eq!(checked.events, [EventKind::AfterStep, EventKind::OnError]);
        let forbid_for_its_default = Action::Decide {
            verb: Verb::Forbid,
            stop_reason: Some(StopReason::GuardForbade),
            message: None,
        };
        assert_eq!(checked.action, forbid_for_its_default);
    }

    #[test]
    fn a_rule_is_refused_alone_and_in_a_policy_alike() {
        let reserved = forbid("prelude:mine", vec![EventKind::AfterStep]);
        let expected = PolicyError::ReservedId("prelude:mine".to_owned());
        assert_eq!(CheckedRule::new(reserved.clone()).unwrap_err(), expected);
        assert_eq!(
            Policy::new(vec![reserved], Defaults::default()).unwrap_err(),
            expected
        );
    }

    #[test]
    fn checked_rules_with_one_id_make_no_policy() {
        let rule = CheckedRule::new(forbid("twice", vec![EventKind::AfterStep])).unwrap();
        let err = Policy::from_checked(vec![rule.clone(), rule], Defaults::default());
        assert_eq!(
            err.unwrap_err(),
            PolicyError::DuplicateId("twice".to_owned())
        );
    }
}
