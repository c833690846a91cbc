//! What a rule's tests of an event's fields require of it: a text test is false where the
//! field is missing, or holds a string none of whose needles it holds; a bare test of a
//! field (`metadata.tainted`) is false unless the field is `true`.
//!
//! Most rules of the packs join a cheap test of this kind (`metadata.tainted and ...`,
//! `arg.command =~ "/dev/(tcp|udp)/" and ...`, `tool ~* "*send_*" and ...`) with a long one,
//! and on most calls the cheap one is false: asking it first spares decoding the rest.
//!
//! Invariant: when [`FieldNeed::of`] gives one, the condition is false (and not
//! undecidable) on every event that does not meet it.

use serde::{Deserialize, Serialize};

use crate::evaluate::field_unknown;
use crate::event::Event;
use crate::read::{read, Value};
use crate::vocabulary::{Condition, Field, Literal, Needles};

/// What a test of one field requires of an event
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum FieldNeed {
    /// A pattern (`~`, `=~`) tests the field: only a string passes, and an ASCII string
    /// only if it holds one of the needles, when they are known
    Pattern(Field, Option<Needles>),
    /// A list (`in [...]`) of strings tests the field: a string passes only if it holds one
    /// of the needles (the members); any other value may
    Member(Field, Needles),
    /// Another text test reads the field: it must be there
    Present(Field),
    /// A bare test reads the field: only `true` passes
    True(Field),
}

impl FieldNeed {
    /// What the leaf `condition` requires of a field, if it is a test of one that requires
    /// anything worth asking: a test of an argument, a field that must be `true`, or one
    /// whose text must hold one of a few needles
    pub(crate) fn of(condition: &Condition) -> Option<FieldNeed> {
        let need = match condition {
            Condition::Flag(field) => return Some(FieldNeed::True(field.clone())),
            Condition::Regex { field, pattern } => {
                FieldNeed::Pattern(field.clone(), pattern.needles())
            }
            Condition::Glob { field, pattern } => {
                FieldNeed::Pattern(field.clone(), pattern.text_needles())
            }
            Condition::In { field, list } => {
                let members: Option<Vec<&str>> = list
                    .iter()
                    .map(|member| match member {
                        Literal::Str(text) => Some(text.as_str()),
                        _ => None,
                    })
                    .collect();
                match members.and_then(Needles::of_words) {
                    Some(needles) => FieldNeed::Member(field.clone(), needles),
                    None => FieldNeed::Present(field.clone()),
                }
            }
            Condition::Contains { field, .. } => FieldNeed::Present(field.clone()),
            _ => return None,
        };
        // Every call has its tool and most fields, so only an argument's presence narrows.
        let narrows = match &need {
            FieldNeed::Pattern(field, None) | FieldNeed::Present(field) => {
                matches!(field, Field::Arg(_))
            }
            FieldNeed::Pattern(_, Some(_)) | FieldNeed::Member(..) | FieldNeed::True(_) => true,
        };
        narrows.then_some(need)
    }

    /// How few events meet it, as far as its shape tells: a field that must be `true`
    /// fewest, then texts by how many needles they may hold
    pub(crate) fn narrowness(&self) -> usize {
        match self {
            FieldNeed::True(_) => 1,
            FieldNeed::Pattern(_, Some(needles)) | FieldNeed::Member(_, needles) => {
                needles.iter().count().saturating_add(1)
            }
            FieldNeed::Pattern(_, None) | FieldNeed::Present(_) => 1 << 10,
        }
    }

    /// Whether `event` meets it: its test may hold there (or reads what could not be read)
    pub(crate) fn is_met(&self, event: &Event) -> bool {
        let field = match self {
            FieldNeed::Pattern(field, _)
            | FieldNeed::Member(field, _)
            | FieldNeed::Present(field)
            | FieldNeed::True(field) => field,
        };
        if field_unknown(field, event) {
            return true;
        }
        let Some(value) = read(field, event) else {
            return false;
        };
        match (self, value) {
            (FieldNeed::True(_), value) => matches!(value, Value::Bool(true)),
            (FieldNeed::Present(_), _) => true,
            (FieldNeed::Pattern(_, needles), Value::Str(text)) => holds_one(needles.as_ref(), text),
            (FieldNeed::Pattern(..), _) => false,
            (FieldNeed::Member(_, needles), Value::Str(text)) => holds_one(Some(needles), text),
            (FieldNeed::Member(..), _) => true,
        }
    }
}

/// Whether `text` may hold one of `needles`: it does, or they are unknown, or the text is
/// not ASCII, of which needles tell nothing (`needles.rs`)
fn holds_one(needles: Option<&Needles>, text: &str) -> bool {
    needles.is_none_or(|needles| !text.is_ascii() || needles.any_in(text.as_bytes()))
}

/// Whether an argument of `event`'s input holds what one of `needs` requires
pub(crate) fn meets_any(needs: &[FieldNeed], event: &Event) -> bool {
    needs.iter().any(|need| need.is_met(event))
}
