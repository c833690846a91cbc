//! Rules from syntax to runtime values: annotations, events, conditions and actions.
//!
//! Invariant: a rule is lowered only when every part of it checks; otherwise every problem
//! of the rule is reported (not only the first) and no runtime [`Rule`] is produced. Glob and
//! regex patterns are compiled here, once, and the compiled matchers are what the runtime
//! evaluates.

mod expression;
mod provenance;
mod shell;
mod spans;
mod trace;

pub(crate) use spans::{ConditionSpans, FieldRead, RuleSpans};

use spans::{Found, QuantifierSpan};

use rulesc_grammar::{
    print, ActionNode, Annotation, Compare, Expr, Lit, LitKind, Op, Operand as AstOperand, Path,
    PathSegment as AstSegment, RuleDecl, Span,
};
use rulesc_runtime::{
    Action, CheckedRule, CompareOp, Condition, EventKind, Field, GlobPattern, Literal, Mode,
    OnUndecidable, Operand, Origin, RegexPattern, Rule, StopReason, Verb,
};

use crate::codes;
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::glob_case::{has_brace_alternation, spelt_both_cases};
use crate::literal::{literal, report_literal_errors, string};
use crate::resolve;
use crate::source::{FileId, LineIndex, SourceFile};
use crate::types::{self, Type};

/// A rule that checked: the runtime rule, with where each of its parts is written (for
/// duplicate ids, the layers' check and lints, which read no syntax)
#[derive(Debug)]
pub(crate) struct LoweredRule {
    /// The runtime rule, as the runtime's check accepted it
    pub(crate) rule: CheckedRule,
    /// The file it was written in
    pub(crate) file: FileId,
    /// Where it and its parts are written
    pub(crate) spans: RuleSpans,
    /// The lints `@allow` silences on it, as codes (`W005`)
    pub(crate) allowed: Vec<&'static str>,
    /// `@mode(shadow)`: evaluated and recorded, never enforced
    pub(crate) mode: Mode,
}

impl LoweredRule {
    /// Whether the rule's `@allow` silences `lint` on it
    pub(crate) fn allows(&self, lint: Code) -> bool {
        self.allowed.contains(&lint.id)
    }
}

/// The id of a rule without `@id`: `<file name>:<line>` of its `on` keyword
pub(crate) fn default_id(source: &SourceFile, lines: &LineIndex, decl: &RuleDecl) -> String {
    format!(
        "{}:{}",
        source.name,
        lines.line_column(decl.on_span.start).line
    )
}

/// Lowers one rule of `source`; `None` when it has errors (all reported in `diags`)
pub(crate) fn lower_rule(
    file: FileId,
    source: &SourceFile,
    lines: &LineIndex,
    decl: &RuleDecl,
    diags: &mut Vec<Diagnostic>,
) -> Option<LoweredRule> {
    let n_before = diags.len();
    let mut lowering = Lowering {
        file,
        diags,
        found: Found::default(),
    };
    let annotations = lowering.annotations(&decl.annotations);
    let events = lowering.events(decl);
    let condition = decl
        .condition
        .as_ref()
        .map(|expr| lowering.expr(expr, &events));
    // What lowering the effect reads is the value of a computed `set`.
    let n_condition_reads = lowering.found.reads.len();
    let action = lowering.action(&decl.action, &events);
    let mut condition = condition.flatten();
    if let (Some((choice, span)), Some(action)) = (annotations.undecidable, &action) {
        let kinds: Vec<EventKind> = events.iter().map(|(kind, _)| *kind).collect();
        lowering.apply_undecidable(choice, span, action, &kinds, condition.as_mut());
    }
    let mut found = std::mem::take(&mut lowering.found);
    found.value_reads = found.reads.split_off(n_condition_reads);
    if diags.len() != n_before {
        return None;
    }
    let start = lines.line_column(decl.on_span.start);
    let id = annotations
        .id
        .unwrap_or_else(|| default_id(source, lines, decl));
    let kinds: Vec<EventKind> = events.iter().map(|(kind, _)| *kind).collect();
    let rule = Rule {
        id,
        events: kinds,
        condition,
        action: action?,
        priority: annotations.priority,
        origin: Some(Origin {
            file: source.name.clone(),
            line: start.line,
            column: start.column,
        }),
    };
    // The runtime's one check of a rule: what it accepts here, the policy takes unchecked.
    match CheckedRule::new(rule) {
        Ok(rule) => Some(LoweredRule {
            rule,
            file,
            spans: RuleSpans::new(decl, found),
            allowed: annotations.allow,
            mode: annotations.mode,
        }),
        Err(err) => {
            diags.push(codes::refused(file, decl.span, &err));
            None
        }
    }
}

/// What a rule's annotations say
#[derive(Debug, Default)]
struct Annotations {
    /// `@id("x")`
    id: Option<String>,
    /// `@priority(n)`, 0 when absent
    priority: i64,
    /// `@allow(W005, dead-rule)`: the codes of the lints silenced on the rule
    allow: Vec<&'static str>,
    /// `@mode(shadow)`
    mode: Mode,
    /// `@undecidable(ask)`, with where it is written
    undecidable: Option<(OnUndecidable, Span)>,
}

/// One value side of a comparison, lowered and typed
#[derive(Debug)]
pub(crate) enum Side {
    /// A field (visibility already checked)
    Field(Field),
    /// A literal
    Lit(Literal),
    /// Arithmetic (`compiler/src/lower/expression.rs`), always an [`Operand::Arith`]
    Arith(Operand),
}

/// A lowered operand with its type and span
#[derive(Debug)]
pub(crate) struct Typed {
    pub(crate) side: Side,
    pub(crate) ty: Type,
    pub(crate) span: Span,
}

impl Typed {
    /// How the operand reads in a label: `` `tool` is a string `` or `an integer`
    pub(crate) fn describe(&self) -> String {
        match &self.side {
            Side::Field(field) => format!("`{field}` is {}", self.ty.described()),
            Side::Lit(_) => self.ty.described().to_owned(),
            Side::Arith(_) => format!("arithmetic, {}", self.ty.described()),
        }
    }

    pub(crate) fn into_operand(self) -> Operand {
        match self.side {
            Side::Field(field) => Operand::Field(field),
            Side::Lit(literal) => Operand::Literal(literal),
            Side::Arith(operand) => operand,
        }
    }
}

/// The state of lowering one rule: its file, where problems go, and what lints will want
/// to know of where its parts are written
pub(crate) struct Lowering<'a> {
    pub(crate) file: FileId,
    pub(crate) diags: &'a mut Vec<Diagnostic>,
    found: Found,
}

impl Lowering<'_> {
    fn annotations(&mut self, annotations: &[Annotation]) -> Annotations {
        let mut result = Annotations::default();
        let mut seen: Vec<(&str, Span)> = Vec::new();
        for annotation in annotations {
            let name = annotation.name.name.as_str();
            if let Some((_, first)) = seen.iter().find(|(seen_name, _)| *seen_name == name) {
                self.diags.push(codes::duplicate_annotation(
                    self.file,
                    annotation.span,
                    name,
                    *first,
                ));
                continue;
            }
            seen.push((name, annotation.span));
            match name {
                "id" => result.id = self.id_annotation(annotation),
                "priority" => {
                    if let Some(priority) = self.priority_annotation(annotation) {
                        result.priority = priority;
                    }
                }
                "allow" => result.allow = self.allow_annotation(annotation),
                "mode" => {
                    if let Some(mode) = self.mode_annotation(annotation) {
                        result.mode = mode;
                    }
                }
                "undecidable" => {
                    result.undecidable = self
                        .undecidable_annotation(annotation)
                        .map(|choice| (choice, annotation.span));
                }
                _ => self.diags.push(codes::invalid_annotation(
                    self.file,
                    annotation.name.span,
                    format!("unknown annotation `@{name}`"),
                    "not an annotation",
                    Some(
                        resolve::suggest(name, ["id", "priority", "allow", "mode", "undecidable"])
                            .map_or_else(
                                || {
                                    "the annotations are `@id(\"...\")`, `@priority(n)`, \
                             `@allow(W005)`, `@mode(shadow)` and `@undecidable(ask)`"
                                        .to_owned()
                                },
                                |known| format!("did you mean `@{known}`?"),
                            ),
                    ),
                )),
            }
        }
        result
    }

    fn id_annotation(&mut self, annotation: &Annotation) -> Option<String> {
        let misuse = |file| {
            codes::invalid_annotation(
                file,
                annotation.span,
                "`@id` takes one string".to_owned(),
                "expected one string",
                Some("write `@id(\"no-rm\")`".to_owned()),
            )
        };
        let [Lit {
            kind: LitKind::Str(raw),
            span,
        }] = annotation.args.as_slice()
        else {
            self.diags.push(misuse(self.file));
            return None;
        };
        let id = string(self.file, raw, *span, self.diags)?;
        let reserved = Rule::is_reserved_id(&id);
        if id.trim().is_empty() || reserved {
            let message = if reserved {
                format!("rule id `{id}` is reserved")
            } else {
                "rule id is empty".to_owned()
            };
            self.diags.push(codes::invalid_annotation(
                self.file,
                *span,
                message,
                "invalid id",
                Some("choose another id; `default`, `prelude:*` and `host:*` name the runtime's own decisions".to_owned()),
            ));
            return None;
        }
        Some(id)
    }

    /// The lints `@allow(...)` names, by code or name; each argument that names no lint is
    /// reported
    fn allow_annotation(&mut self, annotation: &Annotation) -> Vec<&'static str> {
        if annotation.args.is_empty() {
            self.diags.push(codes::invalid_annotation(
                self.file,
                annotation.span,
                "`@allow` names no lint".to_owned(),
                "expected one or more lints",
                Some("write the codes or names of the lints to silence: `@allow(W005)`".to_owned()),
            ));
        }
        let mut allowed = Vec::new();
        for arg in &annotation.args {
            let word = match &arg.kind {
                LitKind::Word(word) => word.as_str(),
                _ => {
                    let text = print::lit(arg);
                    self.diags.push(codes::invalid_annotation(
                        self.file,
                        arg.span,
                        format!("`{text}` is not a lint"),
                        "not a lint",
                        Some(
                            "write a lint's code or name without quotes: `@allow(W005)`".to_owned(),
                        ),
                    ));
                    continue;
                }
            };
            match codes::lookup(word) {
                Some(code) if code.severity == Severity::Warning => allowed.push(code.id),
                Some(code) => self.diags.push(codes::invalid_annotation(
                    self.file,
                    arg.span,
                    format!("`{word}` is an error, not a lint"),
                    "an error",
                    Some(format!(
                        "errors cannot be allowed: fix what `{}` reports (`rulesc explain {}`)",
                        code.id, code.id
                    )),
                )),
                None => {
                    let lints = codes::ALL
                        .iter()
                        .filter(|code| code.severity == Severity::Warning)
                        .flat_map(|code| [code.id, code.name]);
                    let help = resolve::suggest(word, lints).map_or_else(
                        || "`rulesc explain --list` lists every lint".to_owned(),
                        |known| format!("did you mean `{known}`?"),
                    );
                    self.diags.push(codes::invalid_annotation(
                        self.file,
                        arg.span,
                        format!("unknown lint `{word}`"),
                        "not a lint",
                        Some(help),
                    ));
                }
            }
        }
        allowed
    }

    /// `@mode(shadow)` or `@mode(enforce)`: one bare word
    /// `@undecidable(ask)`, `@undecidable(block)` or `@undecidable(pass)`
    fn undecidable_annotation(&mut self, annotation: &Annotation) -> Option<OnUndecidable> {
        let word = match annotation.args.as_slice() {
            [Lit {
                kind: LitKind::Word(word),
                ..
            }] => Some(word.as_str()),
            _ => None,
        };
        if let Some(choice) = word.and_then(OnUndecidable::from_name) {
            return Some(choice);
        }
        let message = match word {
            Some(word) => format!("`{word}` is not what an undecidable rule can do"),
            None => "`@undecidable` takes one word".to_owned(),
        };
        self.diags.push(codes::invalid_annotation(
            self.file,
            annotation.span,
            message,
            "expected `ask`, `block` or `pass`",
            Some(
                "write `@undecidable(ask)` to ask, `@undecidable(block)` to fire with the rule's \
                 own verb, or `@undecidable(pass)` to let the command through"
                    .to_owned(),
            ),
        ));
        None
    }

    /// Checks `@undecidable(...)` against the rule it is on, and writes it into the rule's
    /// shell conditions
    fn apply_undecidable(
        &mut self,
        choice: OnUndecidable,
        span: Span,
        action: &Action,
        events: &[EventKind],
        condition: Option<&mut Condition>,
    ) {
        let misuse = |message: &str, help: &str| {
            codes::invalid_annotation(
                self.file,
                span,
                message.to_owned(),
                "not for this rule",
                Some(help.to_owned()),
            )
        };
        if !action.fails_closed() {
            self.diags.push(misuse(
                "`@undecidable` is for `block`, `ask` and `forbid` rules",
                "other rules never fire on a command line they cannot decide; remove the annotation",
            ));
            return;
        }
        if choice == OnUndecidable::Ask && !events.iter().all(|kind| kind.allows(Verb::Ask)) {
            self.diags.push(misuse(
                "`@undecidable(ask)` on an event that takes no `ask`",
                "write `@undecidable(block)` or `@undecidable(pass)`",
            ));
            return;
        }
        let mut found = false;
        if let Some(condition) = condition {
            set_undecidable(condition, choice, &mut found);
        }
        if !found {
            self.diags.push(misuse(
                "`@undecidable` on a rule without `shell(...)`",
                "only a shell condition can be undecidable; remove the annotation",
            ));
        }
    }

    fn mode_annotation(&mut self, annotation: &Annotation) -> Option<Mode> {
        let word = match annotation.args.as_slice() {
            [Lit {
                kind: LitKind::Word(word),
                ..
            }] => Some(word.as_str()),
            _ => None,
        };
        if let Some(mode) = word.and_then(Mode::from_name) {
            return Some(mode);
        }
        let message = match word {
            Some(word) => format!("unknown mode `{word}`"),
            None => "`@mode` takes one word".to_owned(),
        };
        self.diags.push(codes::invalid_annotation(
            self.file,
            annotation.span,
            message,
            "expected `shadow` or `enforce`",
            Some(
                "write `@mode(shadow)` to record what the rule would decide without enforcing it"
                    .to_owned(),
            ),
        ));
        None
    }

    fn priority_annotation(&mut self, annotation: &Annotation) -> Option<i64> {
        let [Lit {
            kind: LitKind::Int(text),
            span,
        }] = annotation.args.as_slice()
        else {
            self.diags.push(codes::invalid_annotation(
                self.file,
                annotation.span,
                "`@priority` takes one integer".to_owned(),
                "expected one integer",
                Some("write `@priority(10)`; among rules with the winning verb the highest priority decides".to_owned()),
            ));
            return None;
        };
        types::decode_int(text, *span)
            .map_err(|err| report_literal_errors(self.file, vec![err], self.diags))
            .ok()
    }

    /// The rule's known events with where each is written
    fn events(&mut self, decl: &RuleDecl) -> Vec<(EventKind, Span)> {
        decl.events
            .iter()
            .filter_map(|ident| {
                resolve::event(self.file, ident, self.diags).map(|kind| (kind, ident.span))
            })
            .collect()
    }

    pub(crate) fn expr(&mut self, expr: &Expr, events: &[(EventKind, Span)]) -> Option<Condition> {
        match expr {
            Expr::Or(parts, _) => self.all_parts(parts, events).map(Condition::Any),
            Expr::And(parts, _) => self.all_parts(parts, events).map(Condition::All),
            Expr::Not(inner, _) => self
                .expr(inner, events)
                .map(|inner| Condition::Not(Box::new(inner))),
            Expr::Paren(inner, _) => self.expr(inner, events),
            Expr::Compare(compare) => self.compare(compare, events),
            Expr::Path(path) => self.flag(path, events),
            Expr::Lit(lit) => self.constant(lit),
            Expr::Call(call) => shell::lower_call(self.file, call, events, self.diags),
            Expr::Quantified(quantified) => self.quantified(quantified, events),
            Expr::Trace(call) => self.trace_alone(call, events),
        }
    }

    /// Lowers every part, so each part's problems are reported
    fn all_parts(
        &mut self,
        parts: &[Expr],
        events: &[(EventKind, Span)],
    ) -> Option<Vec<Condition>> {
        let lowered: Vec<Option<Condition>> =
            parts.iter().map(|part| self.expr(part, events)).collect();
        lowered.into_iter().collect()
    }

    /// The field `path` names, visible on `events`; kept as a read of the rule
    pub(crate) fn field(&mut self, path: &Path, events: &[(EventKind, Span)]) -> Option<Field> {
        let field = resolve::field(self.file, path, self.diags)?;
        if let Some(diag) = resolve::check_visible(self.file, &field, path.span, events) {
            self.diags.push(diag);
            return None;
        }
        self.found.reads.push(FieldRead {
            field: field.clone(),
            text: print::path(path),
            span: path.span,
        });
        Some(field)
    }

    /// Keeps a quantifier over the field read at `field_span`, once its comparison lowered
    pub(crate) fn found_quantifier(&mut self, word: &'static str, span: Span, field_span: Span) {
        let field = self
            .found
            .reads
            .iter()
            .rev()
            .find(|read| read.span == field_span);
        if let Some(field) = field.cloned() {
            self.found
                .quantifiers
                .push(QuantifierSpan { word, span, field });
        }
    }

    /// Keeps the label of a `from` test, written at `span`
    pub(crate) fn found_label(&mut self, label: &str, span: Span) {
        self.found.labels.push((label.to_owned(), span));
    }

    pub(crate) fn operand(
        &mut self,
        operand: &AstOperand,
        events: &[(EventKind, Span)],
    ) -> Option<Typed> {
        match operand {
            AstOperand::Path(path) => self.field(path, events).map(|field| Typed {
                ty: Type::of_field(&field),
                side: Side::Field(field),
                span: path.span,
            }),
            AstOperand::Lit(lit) => literal(self.file, lit, self.diags).map(|literal| Typed {
                ty: Type::of_literal(&literal),
                side: Side::Lit(literal),
                span: lit.span,
            }),
            AstOperand::Group(inner, _) => self.operand(inner, events),
            AstOperand::Arith(arith) => self.arith(arith, events),
            // Comparisons with a trace function are lowered by `trace_compare`.
            AstOperand::Trace(_) => None,
        }
    }

    fn mismatch(
        &mut self,
        span: Span,
        message: String,
        label: String,
        other: Option<(Span, String)>,
        help: Option<String>,
    ) {
        self.diags.push(codes::type_mismatch(
            self.file, span, message, label, other, help,
        ));
    }

    pub(crate) fn compare(
        &mut self,
        compare: &Compare,
        events: &[(EventKind, Span)],
    ) -> Option<Condition> {
        if trace::is_trace_compare(compare) {
            return self.trace_compare(compare, events);
        }
        let left = self.operand(&compare.left, events);
        let right = self.operand(&compare.right, events);
        let (left, right) = (left?, right?);
        match compare.op {
            Op::Eq => self.ordered_or_equal(left, CompareOp::Eq, right),
            Op::Ne => self.ordered_or_equal(left, CompareOp::Ne, right),
            Op::Lt => self.ordered_or_equal(left, CompareOp::Lt, right),
            Op::Le => self.ordered_or_equal(left, CompareOp::Le, right),
            Op::Gt => self.ordered_or_equal(left, CompareOp::Gt, right),
            Op::Ge => self.ordered_or_equal(left, CompareOp::Ge, right),
            Op::EqIgnoringCase => self.equal_ignoring_case(left, CompareOp::EqIgnoringCase, right),
            Op::NeIgnoringCase => self.equal_ignoring_case(left, CompareOp::NeIgnoringCase, right),
            Op::Glob | Op::Regex | Op::GlobIgnoringCase => self.pattern(compare.op, left, right),
            Op::In => self.membership(left, right, &compare.right),
            Op::Contains => self.contains(left, right),
            Op::From => self.from(left, right),
        }
    }

    /// `==*` and `!=*`, which compare strings
    fn equal_ignoring_case(
        &mut self,
        left: Typed,
        op: CompareOp,
        right: Typed,
    ) -> Option<Condition> {
        for side in [&left, &right] {
            if !matches!(side.ty, Type::Str | Type::Any) {
                self.mismatch(
                    side.span,
                    format!(
                        "`{}` compares strings ignoring case, not {}",
                        op.symbol(),
                        plural(side.ty)
                    ),
                    side.describe(),
                    None,
                    Some("compare other values with `==` or `!=`".to_owned()),
                );
                return None;
            }
        }
        self.ordered_or_equal(left, op, right)
    }

    fn ordered_or_equal(&mut self, left: Typed, op: CompareOp, right: Typed) -> Option<Condition> {
        let ordering = !matches!(
            op,
            CompareOp::Eq | CompareOp::Ne | CompareOp::EqIgnoringCase | CompareOp::NeIgnoringCase
        );
        if ordering {
            for side in [&left, &right] {
                if !side.ty.is_ordered() {
                    let help = match side.ty {
                        Type::Str => "compare strings with `==`, `!=`, `~`, `=~` or `contains`",
                        Type::List => "test membership with `in`",
                        _ => "compare with `==` or `!=`",
                    };
                    self.mismatch(
                        side.span,
                        format!(
                            "`{}` compares integers or durations, not {}",
                            op.symbol(),
                            plural(side.ty)
                        ),
                        side.describe(),
                        None,
                        Some(help.to_owned()),
                    );
                    return None;
                }
            }
        }
        if !left.ty.compatible(right.ty) {
            // The culprit is the literal when there is one, else the right side.
            let (culprit, other) = match (&left.side, &right.side) {
                (Side::Lit(_), Side::Field(_)) => (&left, &right),
                _ => (&right, &left),
            };
            let help = match (culprit.ty, other.ty) {
                (Type::Int, Type::Duration) => {
                    Some("write the duration with its unit, such as `30s` or `5min`".to_owned())
                }
                _ => match &other.side {
                    Side::Field(field) => Some(format!(
                        "`{field}` is {ty}; compare it with {ty}",
                        ty = other.ty.described()
                    )),
                    Side::Lit(_) | Side::Arith(_) => None,
                },
            };
            self.mismatch(
                culprit.span,
                format!(
                    "cannot compare {} with {}",
                    left.ty.described(),
                    right.ty.described()
                ),
                culprit.describe(),
                Some((other.span, other.describe())),
                help,
            );
            return None;
        }
        Some(Condition::Compare {
            left: left.into_operand(),
            op,
            right: right.into_operand(),
        })
    }

    /// The field on the left of `~`, `=~`, `in` or `contains`, or a mismatch
    fn field_on_left(
        &mut self,
        symbol: &str,
        left: Typed,
        example: &str,
    ) -> Option<(Field, Type, Span)> {
        match left.side {
            Side::Field(field) => Some((field, left.ty, left.span)),
            Side::Lit(_) | Side::Arith(_) => {
                self.mismatch(
                    left.span,
                    format!("`{symbol}` needs a field on its left"),
                    left.ty.described().to_owned(),
                    None,
                    Some(format!("write the field first: `{example}`")),
                );
                None
            }
        }
    }

    fn pattern(&mut self, op: Op, left: Typed, right: Typed) -> Option<Condition> {
        let symbol = op.symbol();
        let example = if op == Op::Glob {
            "tool ~ \"rm*\""
        } else if op == Op::GlobIgnoringCase {
            "arg.subject ~* \"*invite*\""
        } else {
            "arg.command =~ \"^rm \""
        };
        let left_type = left.ty;
        let left_text = left.describe();
        let (field, ty, span) = self.field_on_left(symbol, left, example)?;
        if !matches!(ty, Type::Str | Type::Any) {
            self.mismatch(
                span,
                format!("`{symbol}` matches strings, not {}", plural(left_type)),
                left_text,
                None,
                Some("match a string field such as `tool`, `response` or `arg.command`".to_owned()),
            );
            return None;
        }
        let Side::Lit(Literal::Str(source)) = &right.side else {
            let what = match right.side {
                Side::Field(_) => "a field".to_owned(),
                Side::Arith(_) => "arithmetic".to_owned(),
                Side::Lit(_) => right.ty.described().to_owned(),
            };
            self.mismatch(
                right.span,
                format!("`{symbol}` needs a string literal pattern, not {what}"),
                what,
                None,
                Some(format!("write the pattern as a string: `{example}`")),
            );
            return None;
        };
        if matches!(op, Op::Glob | Op::GlobIgnoringCase) {
            if has_brace_alternation(source) {
                self.diags
                    .push(codes::literal_braces_in_glob(self.file, right.span, source));
            }
            if let Some(suggested) = spelt_both_cases(source).filter(|_| op == Op::Glob) {
                self.diags.push(codes::glob_spells_both_cases(
                    self.file, right.span, &suggested,
                ));
            }
            let pattern = if op == Op::Glob {
                GlobPattern::new(source)
            } else {
                GlobPattern::ignoring_case(source)
            };
            match pattern {
                Ok(pattern) => Some(Condition::Glob { field, pattern }),
                Err(err) => {
                    self.diags
                        .push(codes::invalid_glob(self.file, right.span, &err.message));
                    None
                }
            }
        } else {
            match RegexPattern::new(source) {
                Ok(pattern) => Some(Condition::Regex { field, pattern }),
                Err(err) => {
                    self.diags
                        .push(codes::invalid_regex(self.file, right.span, &err.message));
                    None
                }
            }
        }
    }

    fn membership(
        &mut self,
        left: Typed,
        right: Typed,
        right_syntax: &AstOperand,
    ) -> Option<Condition> {
        let (field, ty, field_span) =
            self.field_on_left("in", left, "tool in [\"read\", \"grep\"]")?;
        let Side::Lit(Literal::List(items)) = right.side else {
            self.mismatch(
                right.span,
                "`in` needs a list literal".to_owned(),
                right.describe(),
                None,
                Some("write the members in brackets: `tool in [\"read\", \"grep\"]`".to_owned()),
            );
            return None;
        };
        let item_spans: Vec<Span> = match right_syntax {
            AstOperand::Lit(Lit {
                kind: LitKind::List(syntax),
                ..
            }) => syntax.iter().map(|item| item.span).collect(),
            _ => Vec::new(),
        };
        let mut ok = true;
        for (idx, item) in items.iter().enumerate() {
            let item_ty = Type::of_literal(item);
            if item_ty == Type::List || !item_ty.compatible(ty) {
                let span = item_spans.get(idx).copied().unwrap_or(right.span);
                self.mismatch(
                    span,
                    format!(
                        "the list holds {}, but `{field}` is {}",
                        item_ty.described(),
                        ty.described()
                    ),
                    item_ty.described().to_owned(),
                    Some((field_span, format!("`{field}` is {}", ty.described()))),
                    Some(format!("list only {} values", ty_name(ty))),
                );
                ok = false;
            }
        }
        ok.then_some(Condition::In { field, list: items })
    }

    fn contains(&mut self, left: Typed, right: Typed) -> Option<Condition> {
        let left_type = left.ty;
        let left_text = left.describe();
        let (field, ty, span) =
            self.field_on_left("contains", left, "arg.command contains \"sudo\"")?;
        if !matches!(ty, Type::Str | Type::Any) {
            self.mismatch(
                span,
                format!("`contains` searches strings, not {}", plural(left_type)),
                left_text,
                None,
                Some("compare numbers with `==`, `<` or `>`".to_owned()),
            );
            return None;
        }
        let Side::Lit(needle) = right.side else {
            let what = match right.side {
                Side::Arith(_) => "arithmetic",
                _ => "a field",
            };
            self.mismatch(
                right.span,
                "`contains` needs a literal on its right".to_owned(),
                what.to_owned(),
                None,
                Some(
                    "write the text to find as a string: `arg.command contains \"sudo\"`"
                        .to_owned(),
                ),
            );
            return None;
        };
        if ty == Type::Str && !matches!(needle, Literal::Str(_)) {
            self.mismatch(
                right.span,
                format!(
                    "`contains` on a string needs a string, not {}",
                    right.ty.described()
                ),
                right.ty.described().to_owned(),
                Some((span, format!("`{field}` is a string"))),
                Some("write the text to find in quotes".to_owned()),
            );
            return None;
        }
        Some(Condition::Contains { field, needle })
    }

    /// A bare path used as a condition: a bool field
    fn flag(&mut self, path: &Path, events: &[(EventKind, Span)]) -> Option<Condition> {
        let field = self.field(path, events)?;
        let ty = Type::of_field(&field);
        if matches!(ty, Type::Bool | Type::Any) {
            return Some(Condition::Flag(field));
        }
        self.mismatch(
            path.span,
            format!("`{field}` is {}, not a bool", ty.described()),
            ty.described().to_owned(),
            None,
            Some(format!(
                "compare it with a value, such as `{field} {}`",
                example_test(ty)
            )),
        );
        None
    }

    /// A bare literal used as a condition: `true` or `false`
    fn constant(&mut self, lit: &Lit) -> Option<Condition> {
        match literal(self.file, lit, self.diags)? {
            // An empty `all` always holds and an empty `any` never does.
            Literal::Bool(true) => Some(Condition::All(Vec::new())),
            Literal::Bool(false) => Some(Condition::Any(Vec::new())),
            other => {
                let ty = Type::of_literal(&other);
                self.mismatch(
                    lit.span,
                    format!("a condition must be a bool, not {}", ty.described()),
                    ty.described().to_owned(),
                    None,
                    Some("compare a field with this value, such as `steps > 20`".to_owned()),
                );
                None
            }
        }
    }

    fn action(&mut self, action: &ActionNode, events: &[(EventKind, Span)]) -> Option<Action> {
        match action {
            ActionNode::Verb {
                verb,
                reason,
                message,
                ..
            } => {
                let known_verb = resolve::verb(self.file, verb, self.diags);
                if let Some(known) = known_verb {
                    let refused: Vec<(EventKind, Span)> = events
                        .iter()
                        .filter(|(kind, _)| !kind.allows(known))
                        .copied()
                        .collect();
                    if !refused.is_empty() {
                        self.diags.push(codes::verb_not_allowed(
                            self.file, verb.span, known, &refused,
                        ));
                    }
                }
                let stop_reason = match (reason, known_verb) {
                    (Some(reason), Some(known)) if !known.takes_stop_reason() => {
                        self.diags.push(codes::unexpected_stop_reason(
                            self.file,
                            reason.span,
                            known.name(),
                            verb.span,
                        ));
                        None
                    }
                    (Some(reason), _) => resolve::stop_reason(self.file, reason, self.diags),
                    (None, _) => None,
                };
                let message = match message {
                    Some(text) => Some(string(self.file, &text.raw, text.span, self.diags)?),
                    None => None,
                };
                let verb = known_verb?;
                Some(Action::Decide {
                    verb,
                    stop_reason: stop_reason.or_else(|| StopReason::default_for(verb)),
                    message,
                })
            }
            ActionNode::Label { target, label, .. } => self.label(target, label, events),
            ActionNode::Set { target, value, .. } => {
                let key = self.set_target(target);
                let value = self.set_value(value, events);
                Some(value?.into_action(key?))
            }
        }
    }

    /// The metadata path of `set metadata.<key> = ..` (keys dotted or quoted), or E035
    fn set_target(&mut self, target: &Path) -> Option<rulesc_runtime::FieldPath> {
        match target.segments.split_first() {
            Some((AstSegment::Name(root), rest))
                if root.name == "metadata"
                    && !rest.is_empty()
                    && rest
                        .iter()
                        .all(|segment| !matches!(segment, AstSegment::Index { .. })) =>
            {
                resolve::json_path(self.file, rest, self.diags)
            }
            _ => {
                self.diags.push(codes::invalid_set_target(
                    self.file,
                    target.span,
                    &print::path(target),
                ));
                None
            }
        }
    }
}

/// A type's name in the plural: `strings`, `bools`
pub(crate) fn plural(ty: Type) -> &'static str {
    match ty {
        Type::Int => "integers",
        Type::Duration => "durations",
        Type::Str => "strings",
        Type::Bool => "bools",
        Type::List => "lists",
        Type::Any => "values",
    }
}

/// A type's bare name: `string`, `integer`
fn ty_name(ty: Type) -> &'static str {
    match ty {
        Type::Int => "integer",
        Type::Duration => "duration",
        Type::Str => "string",
        Type::Bool => "bool",
        Type::List => "list",
        Type::Any => "any",
    }
}

/// A comparison that fits a field of `ty`, for help lines
fn example_test(ty: Type) -> &'static str {
    match ty {
        Type::Int => "> 0",
        Type::Duration => ">= 30s",
        Type::Str => "== \"...\"",
        Type::Bool | Type::List | Type::Any => "== true",
    }
}

/// Writes `choice` into every shell condition of `condition`
fn set_undecidable(condition: &mut Condition, choice: OnUndecidable, found: &mut bool) {
    match condition {
        Condition::Shell { on_undecidable, .. } => {
            *on_undecidable = Some(choice);
            *found = true;
        }
        Condition::All(parts) | Condition::Any(parts) => {
            for part in parts {
                set_undecidable(part, choice, found);
            }
        }
        Condition::Not(part) => set_undecidable(part, choice, found),
        _ => {}
    }
}
