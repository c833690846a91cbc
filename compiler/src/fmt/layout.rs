//! The canonical layout: which syntax goes on which line, at which indent.
//!
//! An item is written on one line when it fits in [`WIDTH`] columns (any width, in the compact
//! layout used where breaking lines would move a rule id) and holds no comment; otherwise it is broken at fixed places, the same for every
//! item of its kind:
//!
//! ```text
//! @id("no-send")                              # annotations, one per line
//! on pre_tool_use                             # the events
//!   when metadata.tainted                     # the condition, split before each top-level
//!     and tool in ["send_email", "http_post"] #   `and`/`or` when it does not fit either
//!   block "no data leaves a tainted run"      # the action
//!
//! test "name" {
//!   event post_tool_use {                     # an event whose object does not fit: one
//!     tool: "web_fetch",                      #   entry per line, recursively
//!     arg: { url: "https://example.com" }
//!   }
//!   expect none
//! }
//! ```

use rulesc_grammar::{
    print, Annotation, Call, Comment, Expr, Item, ObjectEntry, RuleDecl, Span, TestBlock, TestStep,
    Value,
};

use super::writer::Line;
use crate::source::LineIndex;

/// Columns a line may take before it is broken (strings and long conditions may overflow)
const WIDTH: usize = 100;

/// Spaces per level of indentation
const INDENT: usize = 2;

/// Lays out items, knowing where the comments are and where each line of the source starts
pub(super) struct Layout<'src> {
    /// The source text
    src: &'src str,
    /// The comments, sorted by position
    comments: &'src [Comment],
    /// The lines of the source, as rule ids count them
    lines: LineIndex,
    /// Columns a line may take before it is broken: [`WIDTH`], or no limit for the compact
    /// layout, which breaks lines only around comments
    width: usize,
}

impl<'src> Layout<'src> {
    /// A layout for `src`, a file with these comments (in source order); a `compact` one
    /// breaks no line for its width, only around comments
    pub(super) fn new(src: &'src str, comments: &'src [Comment], compact: bool) -> Layout<'src> {
        Layout {
            src,
            comments,
            lines: LineIndex::new(src),
            width: if compact { usize::MAX } else { WIDTH },
        }
    }

    /// The lines of one top-level item; the first keeps a blank line before it
    pub(super) fn item(&self, item: &Item) -> Vec<Line> {
        let mut lines = match item {
            Item::Header(header) => vec![Line::new(0, print::header(header), header.span)],
            Item::Default(default) => {
                vec![Line::new(0, print::default_decl(default), default.span)]
            }
            Item::Rule(rule) => self.rule(rule),
            Item::Test(test) => self.test(test),
        };
        if let Some(first) = lines.first_mut() {
            *first = first.clone().keep_blank();
        }
        lines
    }

    /// Whether this is the compact layout, which breaks no line for its width
    fn is_compact(&self) -> bool {
        self.width == usize::MAX
    }

    /// Whether a comment starts inside `span`
    fn has_comment(&self, span: Span) -> bool {
        let first_after = self
            .comments
            .partition_point(|comment| comment.span.start < span.start);
        self.comments
            .get(first_after)
            .is_some_and(|comment| comment.span.start < span.end)
    }

    /// Annotations, then the rule on one line or broken into events, condition and action.
    ///
    /// A rule without `@id` is named by the line of its `on`, so that line is anchored where
    /// it is (see [`Line::anchored`]), and the annotations written on it stay on it.
    fn rule(&self, rule: &RuleDecl) -> Vec<Line> {
        let anchor = self.id_line(rule);
        let on_line = |annotation: &Annotation| {
            anchor.is_some()
                && self
                    .src
                    .get(annotation.span.end as usize..rule.on_span.start as usize)
                    .is_some_and(|gap| !gap.contains(['\n', '\r']))
        };
        let (inline, above): (Vec<&Annotation>, Vec<&Annotation>) = rule
            .annotations
            .iter()
            .partition(|annotation| on_line(annotation));
        let lines: Vec<Line> = above
            .iter()
            .map(|annotation| Line::new(0, print::annotation(annotation), annotation.span))
            .collect();
        let mut events = print::events(&rule.events);
        let mut events_start = rule.on_span.start;
        for annotation in inline.iter().rev() {
            events = format!("{} {events}", print::annotation(annotation));
            events_start = annotation.span.start;
        }
        let events_span = Span::new(
            events_start,
            rule.events
                .last()
                .map_or(rule.on_span.end, |event| event.span.end),
        );
        let first_code_line = lines.len();
        let mut lines = self.rule_body(rule, lines, events, events_span);
        if let (Some(anchor), Some(line)) = (anchor, lines.get_mut(first_code_line)) {
            *line = line.clone().anchored(anchor);
        }
        lines
    }

    /// The 0-based source line of the `on` of a rule without `@id`, whose id it is
    fn id_line(&self, rule: &RuleDecl) -> Option<u32> {
        let has_id = rule
            .annotations
            .iter()
            .any(|annotation| annotation.name.name == "id");
        (!has_id).then(|| u32::try_from(self.lines.line_of(rule.on_span.start)).unwrap_or(u32::MAX))
    }

    /// `lines` (the annotations above the rule), then the rule from `events` on: on one line
    /// or broken into events, condition and action
    fn rule_body(
        &self,
        rule: &RuleDecl,
        mut lines: Vec<Line>,
        events: String,
        events_span: Span,
    ) -> Vec<Line> {
        let action = print::action(&rule.action);
        let action_span = rule.action.span();
        let one_line = match &rule.condition {
            Some(condition) => format!("{events} when {} {action}", print::expr(condition)),
            None => format!("{events} {action}"),
        };
        // Comments inside the events go before the rule in either layout, so only those
        // after them force the rule to break (this keeps formatting idempotent).
        let after_events = Span::new(events_span.end, action_span.end);
        if width(&one_line) <= self.width && !self.has_comment(after_events) {
            lines.push(Line::new(0, one_line, events_span.to(action_span)));
            return lines;
        }
        lines.push(Line::new(0, events, events_span));
        if let Some(condition) = &rule.condition {
            lines.extend(self.condition(condition));
        }
        lines.push(Line::new(INDENT, action, action_span));
        lines
    }

    /// `when <condition>` on one line, or split before each top-level `and` or `or` when it
    /// does not fit or holds a comment
    fn condition(&self, condition: &Expr) -> Vec<Line> {
        let one_line = format!("when {}", print::expr(condition));
        if let Expr::Call(call) = condition {
            if INDENT + width(&one_line) > WIDTH {
                return self.broken_call(call);
            }
        }
        let split = match condition {
            Expr::And(parts, _) => Some(("and", parts)),
            Expr::Or(parts, _) => Some(("or", parts)),
            _ => None,
        };
        match split {
            Some((joiner, parts)) if !self.fits_unsplit(&one_line, parts, condition.span()) => {
                parts
                    .iter()
                    .enumerate()
                    .map(|(part_idx, part)| {
                        if part_idx == 0 {
                            Line::new(INDENT, format!("when {}", print::expr(part)), part.span())
                        } else {
                            let text = format!("{joiner} {}", print::expr(part));
                            Line::new(2 * INDENT, text, part.span())
                        }
                    })
                    .collect()
            }
            _ => vec![Line::new(INDENT, one_line, condition.span())],
        }
    }

    /// `when name(` and `)` around its argument, split before each of its top-level `and`
    /// or `or`: how a long `shell(...)` condition reads
    fn broken_call(&self, call: &Call) -> Vec<Line> {
        let name = print::expr(&Expr::Path(call.name.clone()));
        let open_span = Span::new(call.span.start, call.argument.span().start);
        let close_span = Span::new(call.argument.span().end, call.span.end);
        let mut lines = vec![Line::new(INDENT, format!("when {name}("), open_span)];
        let (joiner, parts) = match &call.argument {
            Expr::And(parts, _) => ("and", parts.as_slice()),
            Expr::Or(parts, _) => ("or", parts.as_slice()),
            argument => ("", std::slice::from_ref(argument)),
        };
        for (part_idx, part) in parts.iter().enumerate() {
            lines.push(if part_idx == 0 {
                Line::new(2 * INDENT, print::expr(part), part.span())
            } else {
                let text = format!("{joiner} {}", print::expr(part));
                Line::new(3 * INDENT, text, part.span())
            });
        }
        lines.push(Line::new(INDENT, ")".to_owned(), close_span));
        lines
    }

    /// Whether `when <condition>` stays on one line: it fits, and no comment would stay
    /// inside it (those inside the first part go before the line in either layout)
    fn fits_unsplit(&self, one_line: &str, parts: &[Expr], span: Span) -> bool {
        let first_end = parts.first().map_or(span.start, |part| part.span().end);
        INDENT + width(one_line) <= self.width && !self.has_comment(Span::new(first_end, span.end))
    }

    /// `test "name" {`, its steps indented, `}`; all on one line in the compact layout
    fn test(&self, test: &TestBlock) -> Vec<Line> {
        let head = format!("test {} {{", print::str_lit(&test.name));
        let closing = Span::new(test.span.end.saturating_sub(1), test.span.end);
        let after_head = Span::new(test.name.span.end, test.span.end);
        if test.steps.is_empty() && !self.has_comment(after_head) {
            return vec![Line::new(0, format!("{head}}}"), test.span)];
        }
        // The compact layout writes a test on one line, as it does a rule.
        if self.is_compact() && !self.has_comment(after_head) {
            let steps: Vec<String> = test.steps.iter().map(print::test_step).collect();
            let text = format!("{head} {} }}", steps.join(" "));
            return vec![Line::new(0, text, test.span)];
        }
        let mut lines = vec![Line::new(
            0,
            head,
            Span::new(test.span.start, test.name.span.end),
        )];
        for (step_idx, step) in test.steps.iter().enumerate() {
            let mut step_lines = self.step(step, INDENT);
            if step_idx > 0 {
                if let Some(first) = step_lines.first_mut() {
                    *first = first.clone().keep_blank();
                }
            }
            lines.extend(step_lines);
        }
        lines.push(Line::new(0, "}".to_owned(), closing).comments_at(INDENT));
        lines
    }

    /// An `expect` line, or an event on one line or with its object broken
    fn step(&self, step: &TestStep, indent: usize) -> Vec<Line> {
        let one_line = print::test_step(step);
        match step {
            TestStep::Event {
                event,
                fields,
                span,
            } if indent + width(&one_line) > self.width
                || self.has_comment(Span::new(event.span.end, span.end)) =>
            {
                let head = format!("event {} {{", event.name);
                let head_span = Span::new(span.start, event.span.end);
                self.broken_object(head, head_span, fields, "", *span, indent)
            }
            _ => vec![Line::new(indent, one_line, step_span(step))],
        }
    }

    /// `head {`, one entry per line, then `}` followed by `suffix`; the object spans `span`
    fn broken_object(
        &self,
        head: String,
        head_span: Span,
        entries: &[ObjectEntry],
        suffix: &str,
        span: Span,
        indent: usize,
    ) -> Vec<Line> {
        let mut lines = vec![Line::new(indent, head, head_span)];
        let inner = indent + INDENT;
        for (entry_idx, entry) in entries.iter().enumerate() {
            let comma = if entry_idx + 1 < entries.len() {
                ","
            } else {
                ""
            };
            let one_line = format!("{}{comma}", print::entry(entry));
            match &entry.value {
                Value::Object(fields, object_span)
                    if !fields.is_empty()
                        && (inner + width(&one_line) > self.width
                            || self.has_comment(Span::new(entry.key.span.end, entry.span.end))) =>
                {
                    let head = format!("{}: {{", print::key(&entry.key));
                    let head_span = Span::new(entry.span.start, entry.key.span.end);
                    lines.extend(self.broken_object(
                        head,
                        head_span,
                        fields,
                        comma,
                        *object_span,
                        inner,
                    ));
                }
                _ => lines.push(Line::new(inner, one_line, entry.span)),
            }
        }
        let closing = Span::new(span.end.saturating_sub(1), span.end);
        lines.push(Line::new(indent, format!("}}{suffix}"), closing).comments_at(inner));
        lines
    }
}

/// The width of `text` in columns, counting characters
fn width(text: &str) -> usize {
    text.chars().count()
}

/// The whole span of a test step
fn step_span(step: &TestStep) -> Span {
    match step {
        TestStep::Event { span, .. } | TestStep::Expect { span, .. } => *span,
    }
}
