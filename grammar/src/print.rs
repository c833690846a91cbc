//! From a syntax tree back to source text, in one canonical layout.
//!
//! Invariant: for a tree that [`parse`](crate::parse) produced, parsing the printed text gives
//! the same tree up to spans. For any other tree the output still parses, because parentheses
//! are added where precedence needs them (an `or` inside an `and`, an `and` after `not`).
//!
//! Layout: one item per line; a rule's annotations each on a line of their own above it; a test
//! block's events and expectations each on a line, indented by two spaces. Literals and
//! strings are written from their source text. Comments are not part of the tree: the
//! formatter puts them back from [`Parsed::comments`](crate::Parsed::comments).

use crate::ast::{
    ActionNode, Annotation, Expr, File, Ident, Item, Lit, LitKind, ObjectEntry, Operand, Path,
    PathSegment, RuleDecl, StrLit, TestBlock, TestStep, Value,
};

/// Print `file` as canonical source text
pub fn print(file: &File) -> String {
    let mut out = String::new();
    for item in &file.items {
        item_text(&mut out, item);
    }
    out
}

/// Appends `item` and its line breaks
fn item_text(out: &mut String, item: &Item) {
    match item {
        Item::Header(header) => {
            out.push_str("policy ");
            str_lit(out, &header.name);
        }
        Item::Default(default) => {
            out.push_str("default ");
            out.push_str(&default.event.name);
            out.push(' ');
            out.push_str(&default.verb.name);
        }
        Item::Rule(rule) => rule_text(out, rule),
        Item::Test(test) => test_text(out, test),
    }
    out.push('\n');
}

fn rule_text(out: &mut String, rule: &RuleDecl) {
    for annotation in &rule.annotations {
        annotation_text(out, annotation);
        out.push('\n');
    }
    out.push_str("on ");
    for (idx, event) in rule.events.iter().enumerate() {
        if idx > 0 {
            out.push_str(", ");
        }
        out.push_str(&event.name);
    }
    if let Some(condition) = &rule.condition {
        out.push_str(" when ");
        expr(out, condition);
    }
    out.push(' ');
    match &rule.action {
        ActionNode::Verb {
            verb,
            reason,
            message,
            ..
        } => {
            out.push_str(&verb.name);
            optional_word(out, reason.as_ref());
            if let Some(message) = message {
                out.push(' ');
                str_lit(out, message);
            }
        }
        ActionNode::Set { target, value, .. } => {
            out.push_str("set ");
            path(out, target);
            out.push_str(" = ");
            lit(out, value);
        }
    }
}

fn annotation_text(out: &mut String, annotation: &Annotation) {
    out.push('@');
    out.push_str(&annotation.name.name);
    if !annotation.args.is_empty() {
        out.push('(');
        separated(out, &annotation.args, lit);
        out.push(')');
    }
}

fn test_text(out: &mut String, test: &TestBlock) {
    out.push_str("test ");
    str_lit(out, &test.name);
    out.push_str(" {\n");
    for step in &test.steps {
        out.push_str("  ");
        match step {
            TestStep::Event { event, fields, .. } => {
                out.push_str("event ");
                out.push_str(&event.name);
                out.push(' ');
                object(out, fields);
            }
            TestStep::Expect {
                verb, reason, by, ..
            } => {
                out.push_str("expect ");
                out.push_str(&verb.name);
                optional_word(out, reason.as_ref());
                if let Some(by) = by {
                    out.push_str(" by ");
                    str_lit(out, by);
                }
            }
        }
        out.push('\n');
    }
    out.push('}');
}

/// `{ key: value, ... }`, or `{}` when empty
fn object(out: &mut String, entries: &[ObjectEntry]) {
    if entries.is_empty() {
        out.push_str("{}");
        return;
    }
    out.push_str("{ ");
    separated(out, entries, entry);
    out.push_str(" }");
}

fn entry(out: &mut String, entry: &ObjectEntry) {
    if is_word(&entry.key.name) {
        out.push_str(&entry.key.name);
    } else {
        out.push('"');
        out.push_str(&entry.key.name);
        out.push('"');
    }
    out.push_str(": ");
    match &entry.value {
        Value::Lit(value) => lit(out, value),
        Value::Object(entries, _) => object(out, entries),
    }
}

/// Whether `text` can be written as a bare key: a lowercase word, as the grammar's `word`
fn is_word(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_lowercase() || first == '_')
        && chars.all(|char| char.is_ascii_lowercase() || char.is_ascii_digit() || char == '_')
}

/// How tightly a condition binds, loosest first: a part of an `or` must bind at least as
/// tightly as `and`; a part of an `and`, and the operand of `not`, as tightly as `not`
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    Or,
    And,
    Not,
}

fn strength(condition: &Expr) -> Strength {
    match condition {
        Expr::Or(..) => Strength::Or,
        Expr::And(..) => Strength::And,
        Expr::Not(..) | Expr::Paren(..) | Expr::Compare(..) | Expr::Path(..) | Expr::Lit(..) => {
            Strength::Not
        }
    }
}

fn expr(out: &mut String, condition: &Expr) {
    match condition {
        Expr::Or(parts, _) => joined(out, parts, " or ", Strength::And),
        Expr::And(parts, _) => joined(out, parts, " and ", Strength::Not),
        Expr::Not(inner, _) => {
            out.push_str("not ");
            operand_expr(out, inner, Strength::Not);
        }
        Expr::Paren(inner, _) => {
            out.push('(');
            expr(out, inner);
            out.push(')');
        }
        Expr::Compare(compare) => {
            operand(out, &compare.left);
            out.push(' ');
            out.push_str(compare.op.symbol());
            out.push(' ');
            operand(out, &compare.right);
        }
        Expr::Path(field) => path(out, field),
        Expr::Lit(value) => lit(out, value),
    }
}

/// `parts` joined by `separator`, each in parentheses unless it binds at least as `tight`
fn joined(out: &mut String, parts: &[Expr], separator: &str, tight: Strength) {
    for (idx, part) in parts.iter().enumerate() {
        if idx > 0 {
            out.push_str(separator);
        }
        operand_expr(out, part, tight);
    }
}

/// `condition`, in parentheses unless it binds at least as `tight`
fn operand_expr(out: &mut String, condition: &Expr, tight: Strength) {
    if strength(condition) >= tight {
        expr(out, condition);
    } else {
        out.push('(');
        expr(out, condition);
        out.push(')');
    }
}

fn operand(out: &mut String, operand: &Operand) {
    match operand {
        Operand::Path(field) => path(out, field),
        Operand::Lit(value) => lit(out, value),
    }
}

fn path(out: &mut String, field: &Path) {
    for (idx, segment) in field.segments.iter().enumerate() {
        match segment {
            PathSegment::Name(name) => {
                if idx > 0 {
                    out.push('.');
                }
                out.push_str(&name.name);
            }
            PathSegment::Index { text, .. } => {
                out.push('[');
                out.push_str(text);
                out.push(']');
            }
        }
    }
}

fn lit(out: &mut String, value: &Lit) {
    match &value.kind {
        LitKind::Bool(true) => out.push_str("true"),
        LitKind::Bool(false) => out.push_str("false"),
        LitKind::Int(text) | LitKind::Duration(text) => out.push_str(text),
        LitKind::Str(raw) => {
            out.push('"');
            out.push_str(raw);
            out.push('"');
        }
        LitKind::List(items) => {
            out.push('[');
            separated(out, items, lit);
            out.push(']');
        }
    }
}

fn str_lit(out: &mut String, string: &StrLit) {
    out.push('"');
    out.push_str(&string.raw);
    out.push('"');
}

/// ` word` when there is one
fn optional_word(out: &mut String, word: Option<&Ident>) {
    if let Some(word) = word {
        out.push(' ');
        out.push_str(&word.name);
    }
}

/// `items` printed by `each`, separated by `, `
fn separated<T>(out: &mut String, items: &[T], each: fn(&mut String, &T)) {
    for (idx, item) in items.iter().enumerate() {
        if idx > 0 {
            out.push_str(", ");
        }
        each(out, item);
    }
}
