//! Lowering of provenance (docs/trace.md): the effect `label result "L"` and the condition
//! `X from "L"`.
//!
//! Invariant: `from` reads a field that can hold text and names its label as a string, and
//! `label` labels the `result` of `post_tool_use` alone, or values at a path into it
//! (E055, E056), so the runtime never meets a provenance test it cannot read.

use rulesc_grammar::{Path, PathSegment, Span, StrLit};
use rulesc_runtime::{
    Action, Condition, EventKind, Field, LabelStep, Literal, PathSegment as FieldSegment,
    MAX_PATH_SEGMENTS, PROMPT_SOURCE,
};

/// The start of the labels the runtime keeps for itself ([`PROMPT_SOURCE`])
const RESERVED_LABEL_PREFIX: &str = "rulesc:";

use super::{Lowering, Side, Typed};
use crate::codes;
use crate::literal::string;
use crate::types::Type;

impl Lowering<'_> {
    /// `X from "L"`
    pub(crate) fn from(&mut self, left: Typed, right: Typed) -> Option<Condition> {
        let field = match left.side {
            Side::Field(field) if matches!(left.ty, Type::Str | Type::Any) => Some(field),
            _ => {
                self.diags.push(codes::invalid_from(
                    self.file,
                    left.span,
                    format!(
                        "`from` looks for labelled text in a string, not in {}",
                        left.ty.described()
                    ),
                    left.describe(),
                    "test a field that holds text, such as `arg.body` or `arg.command`",
                ));
                None
            }
        };
        let label = match right.side {
            // `from prompt`: the user's own words in this run
            Side::Field(Field::Prompt) => Some(PROMPT_SOURCE.to_owned()),
            Side::Lit(Literal::Str(label)) if !label.starts_with(RESERVED_LABEL_PREFIX) => {
                self.found_label(&label, right.span);
                Some(label)
            }
            Side::Lit(Literal::Str(label)) => {
                self.reserved_label(right.span, &label);
                None
            }
            _ => {
                self.diags.push(codes::invalid_from(
                    self.file,
                    right.span,
                    "`from` names a label as a string, or `prompt`".to_owned(),
                    right.describe(),
                    "write the label in quotes: `arg.body from \"untrusted\"`, or `arg.iban from prompt`",
                ));
                None
            }
        };
        Some(Condition::From {
            field: field?,
            label: label?,
        })
    }

    /// `label result "L"`, `label result.sender "L"`, `label result.items[*].body "L"`
    pub(crate) fn label(
        &mut self,
        target: &Path,
        label: &StrLit,
        events: &[(EventKind, Span)],
    ) -> Option<Action> {
        let path = match target.segments.split_first() {
            Some((PathSegment::Name(name), rest)) if name.name == "result" => self.label_path(rest),
            _ => {
                self.diags.push(codes::invalid_label(
                    self.file,
                    target.span,
                    "only a tool's `result`, or a field of it, can be labelled".to_owned(),
                    "write `label result \"untrusted\"` or `label result.body \"untrusted\"`",
                ));
                None
            }
        };
        if let Some((kind, span)) = events
            .iter()
            .find(|(kind, _)| *kind != EventKind::PostToolUse)
        {
            self.diags.push(codes::invalid_label(
                self.file,
                *span,
                format!("`label` has no tool result to label on `{kind}`"),
                "label results in a `post_tool_use` rule",
            ));
            return None;
        }
        let label_span = label.span;
        let label = string(self.file, &label.raw, label.span, self.diags)?;
        if label.starts_with(RESERVED_LABEL_PREFIX) {
            self.reserved_label(label_span, &label);
            return None;
        }
        Some(Action::Label { label, path: path? })
    }

    /// E055 for a label the runtime keeps for itself
    fn reserved_label(&mut self, span: Span, label: &str) {
        self.diags.push(codes::invalid_from(
            self.file,
            span,
            format!("labels starting with `{RESERVED_LABEL_PREFIX}` are rulesc's own, so `{label}` cannot be used"),
            "a reserved label".to_owned(),
            "choose another name; the prompts of the run are `from prompt`",
        ));
    }

    /// The steps of a label's path after `result`: keys, indexes and `[*]`
    fn label_path(&mut self, segments: &[PathSegment]) -> Option<Vec<LabelStep>> {
        if segments.len() > MAX_PATH_SEGMENTS {
            let start = segments.first().map_or(Span::default(), PathSegment::span);
            let end = segments.last().map_or(Span::default(), PathSegment::span);
            self.diags.push(codes::path_too_long(
                self.file,
                Span::new(start.start, end.end),
                segments.len(),
                MAX_PATH_SEGMENTS,
            ));
            return None;
        }
        let mut steps = Vec::with_capacity(segments.len());
        for segment in segments {
            steps.push(match segment {
                PathSegment::Index { text, .. } if text == "*" => LabelStep::Each,
                other => match crate::resolve::json_path(
                    self.file,
                    std::slice::from_ref(other),
                    self.diags,
                )?
                .segments
                .pop()?
                {
                    FieldSegment::Key(key) => LabelStep::Key(key),
                    FieldSegment::Index(index) => LabelStep::Index(index),
                },
            });
        }
        Some(steps)
    }
}
