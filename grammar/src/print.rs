//! From a syntax tree back to source text, in one canonical layout.
//!
//! Invariant: for a tree that [`parse`](crate::parse) produced, parsing the printed text gives
//! the same tree up to spans, except that a quoted key that is a lowercase word
//! (`arg["command"]`) comes back as a name (`arg.command`), its one canonical spelling. For any other tree the output still parses, because parentheses
//! are added where precedence needs them (an `or` inside an `and`, an `and` after `not`).
//!
//! Layout: one item per line; a rule's annotations each on a line of their own above it; a test
//! block's events and expectations each on a line, indented by two spaces. Literals and
//! strings are written from their source text. Comments are not part of the tree: the
//! formatter puts them back from [`Parsed::comments`](crate::Parsed::comments).
//!
//! Besides [`print()`] for a whole file, each node kind that a line is made of has its own
//! function giving that node's text on one line ([`expr`], [`action`], [`test_step`], ...), so a
//! formatter that breaks lines its own way still writes every node exactly as [`print()`] does.

use crate::ast::{
    ActionNode, Annotation, Compare, DefaultDecl, Expr, File, Header, Ident, Item, Lit, LitKind,
    ObjectEntry, Operand, Path, PathSegment, RuleDecl, StrLit, TestBlock, TestStep, TraceCall,
    Value,
};

/// Print `file` as canonical source text
pub fn print(file: &File) -> String {
    let mut out = String::new();
    for item in &file.items {
        write_item(&mut out, item);
    }
    out
}

/// `policy "name"`
pub fn header(header: &Header) -> String {
    text(header, write_header)
}

/// `default pre_tool_use ask`
pub fn default_decl(default: &DefaultDecl) -> String {
    text(default, write_default_decl)
}

/// `@id("x")`, `@priority(-5)`; an annotation without arguments has no parentheses
pub fn annotation(annotation: &Annotation) -> String {
    text(annotation, write_annotation)
}

/// `on pre_tool_use, post_tool_use`: a rule's events after `on`
pub fn events(events: &[Ident]) -> String {
    text(events, write_events)
}

/// `forbid steps_limit_reached "at most 20 steps"`, `set metadata.tainted = true`
pub fn action(action: &ActionNode) -> String {
    text(action, write_action)
}

/// A condition: `tool == "rm" or not blocked`, with parentheses where precedence needs them
pub fn expr(condition: &Expr) -> String {
    text(condition, write_expr)
}

/// An operand on one line: `metadata.fetched * 2`
pub fn operand(operand: &Operand) -> String {
    text(operand, write_operand)
}

/// `"rm"`, `[1, 2]`, `W005`: a literal as written
pub fn lit(value: &Lit) -> String {
    text(value, write_lit)
}

/// `arg.paths[0]`, `arg["pullNumber"]`: a field path, or the target of `set`; a quoted key
/// that is a lowercase word is written dotted (`arg["command"]` as `arg.command`)
pub fn path(path: &Path) -> String {
    text(path, write_path)
}

/// `"raw"`: the raw text keeps its escapes, so quoting it again gives the same string
pub fn str_lit(string: &StrLit) -> String {
    text(string, write_str_lit)
}

/// `expect forbid steps_limit_reached by "cap"`, or a test event with its object
pub fn test_step(step: &TestStep) -> String {
    text(step, write_test_step)
}

/// `tool: "rm"`, `arg: { path: "/" }`: an entry of a test event's object
pub fn entry(entry: &ObjectEntry) -> String {
    text(entry, write_entry)
}

/// An object key: bare when it is a word (`tool`, even `event`), else quoted (`"filePath"`)
pub fn key(key: &Ident) -> String {
    text(key, write_key)
}

/// The text `write` gives for `node`
fn text<T: ?Sized>(node: &T, write: fn(&mut String, &T)) -> String {
    let mut out = String::new();
    write(&mut out, node);
    out
}

/// Appends `item` and its line breaks
fn write_item(out: &mut String, item: &Item) {
    match item {
        Item::Header(header) => write_header(out, header),
        Item::Default(default) => write_default_decl(out, default),
        Item::Rule(rule) => write_rule(out, rule),
        Item::Test(test) => write_test(out, test),
    }
    out.push('\n');
}

fn write_header(out: &mut String, header: &Header) {
    out.push_str("policy ");
    write_str_lit(out, &header.name);
}

fn write_default_decl(out: &mut String, default: &DefaultDecl) {
    out.push_str("default ");
    out.push_str(&default.event.name);
    out.push(' ');
    out.push_str(&default.verb.name);
}

fn write_rule(out: &mut String, rule: &RuleDecl) {
    for annotation in &rule.annotations {
        write_annotation(out, annotation);
        out.push('\n');
    }
    write_events(out, &rule.events);
    if let Some(condition) = &rule.condition {
        out.push_str(" when ");
        write_expr(out, condition);
    }
    out.push(' ');
    write_action(out, &rule.action);
}

fn write_events(out: &mut String, events: &[Ident]) {
    out.push_str("on ");
    for (idx, event) in events.iter().enumerate() {
        if idx > 0 {
            out.push_str(", ");
        }
        out.push_str(&event.name);
    }
}

fn write_action(out: &mut String, action: &ActionNode) {
    match action {
        ActionNode::Verb {
            verb,
            reason,
            message,
            ..
        } => {
            out.push_str(&verb.name);
            write_optional_word(out, reason.as_ref());
            if let Some(message) = message {
                out.push(' ');
                write_str_lit(out, message);
            }
        }
        ActionNode::Set { target, value, .. } => {
            out.push_str("set ");
            write_path(out, target);
            out.push_str(" = ");
            write_operand(out, value);
        }
        ActionNode::Label { target, label, .. } => {
            out.push_str("label ");
            write_path(out, target);
            out.push(' ');
            write_str_lit(out, label);
        }
    }
}

fn write_annotation(out: &mut String, annotation: &Annotation) {
    out.push('@');
    out.push_str(&annotation.name.name);
    if !annotation.args.is_empty() {
        out.push('(');
        write_separated(out, &annotation.args, write_lit);
        out.push(')');
    }
}

fn write_test(out: &mut String, test: &TestBlock) {
    out.push_str("test ");
    write_str_lit(out, &test.name);
    out.push_str(" {\n");
    for step in &test.steps {
        out.push_str("  ");
        write_test_step(out, step);
        out.push('\n');
    }
    out.push('}');
}

fn write_test_step(out: &mut String, step: &TestStep) {
    match step {
        TestStep::Event { event, fields, .. } => {
            out.push_str("event ");
            out.push_str(&event.name);
            out.push(' ');
            write_object(out, fields);
        }
        TestStep::Expect {
            verb, reason, by, ..
        } => {
            out.push_str("expect ");
            out.push_str(&verb.name);
            write_optional_word(out, reason.as_ref());
            if let Some(by) = by {
                out.push_str(" by ");
                write_str_lit(out, by);
            }
        }
    }
}

/// `{ key: value, ... }`, or `{}` when empty
fn write_object(out: &mut String, entries: &[ObjectEntry]) {
    if entries.is_empty() {
        out.push_str("{}");
        return;
    }
    out.push_str("{ ");
    write_separated(out, entries, write_entry);
    out.push_str(" }");
}

fn write_entry(out: &mut String, entry: &ObjectEntry) {
    write_key(out, &entry.key);
    out.push_str(": ");
    match &entry.value {
        Value::Lit(value) => write_lit(out, value),
        Value::Object(entries, _) => write_object(out, entries),
    }
}

fn write_key(out: &mut String, key: &Ident) {
    if is_word(&key.name) {
        out.push_str(&key.name);
    } else {
        out.push('"');
        out.push_str(&key.name);
        out.push('"');
    }
}

/// Whether `text` can be written bare, as an object key or a dotted key of a field path: a
/// lowercase word, as the grammar's `word`
pub fn is_word(text: &str) -> bool {
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
        Expr::Not(..)
        | Expr::Paren(..)
        | Expr::Compare(..)
        | Expr::Path(..)
        | Expr::Lit(..)
        | Expr::Call(..)
        | Expr::Quantified(..)
        | Expr::Trace(..) => Strength::Not,
    }
}

fn write_expr(out: &mut String, condition: &Expr) {
    match condition {
        Expr::Or(parts, _) => write_joined(out, parts, " or ", Strength::And),
        Expr::And(parts, _) => write_joined(out, parts, " and ", Strength::Not),
        Expr::Not(inner, _) => {
            out.push_str("not ");
            write_operand_expr(out, inner, Strength::Not);
        }
        Expr::Paren(inner, _) => {
            out.push('(');
            write_expr(out, inner);
            out.push(')');
        }
        Expr::Compare(compare) => write_compare(out, compare),
        Expr::Quantified(quantified) => {
            out.push_str(quantified.quantifier.word());
            out.push(' ');
            write_compare(out, &quantified.compare);
        }
        Expr::Path(field) => write_path(out, field),
        Expr::Lit(value) => write_lit(out, value),
        Expr::Call(call) => {
            write_path(out, &call.name);
            out.push('(');
            write_expr(out, &call.argument);
            out.push(')');
        }
        Expr::Trace(call) => write_trace(out, call),
    }
}

/// `count(E when C within W)` on one line
fn write_trace(out: &mut String, call: &TraceCall) {
    out.push_str(&call.name.name);
    out.push('(');
    out.push_str(&call.event.name);
    if let Some(when) = &call.when {
        out.push_str(" when ");
        write_expr(out, when);
    }
    if let Some(window) = &call.within {
        out.push_str(" within ");
        write_lit(out, &window.amount);
        if window.steps {
            out.push_str(" steps");
        }
    }
    out.push(')');
}

/// `parts` joined by `separator`, each in parentheses unless it binds at least as `tight`
fn write_joined(out: &mut String, parts: &[Expr], separator: &str, tight: Strength) {
    for (idx, part) in parts.iter().enumerate() {
        if idx > 0 {
            out.push_str(separator);
        }
        write_operand_expr(out, part, tight);
    }
}

/// `condition`, in parentheses unless it binds at least as `tight`
fn write_operand_expr(out: &mut String, condition: &Expr, tight: Strength) {
    if strength(condition) >= tight {
        write_expr(out, condition);
    } else {
        out.push('(');
        write_expr(out, condition);
        out.push(')');
    }
}

fn write_compare(out: &mut String, compare: &Compare) {
    write_operand(out, &compare.left);
    out.push(' ');
    out.push_str(compare.op.symbol());
    out.push(' ');
    write_operand(out, &compare.right);
}

fn write_operand(out: &mut String, operand: &Operand) {
    match operand {
        Operand::Path(field) => write_path(out, field),
        Operand::Lit(value) => write_lit(out, value),
        Operand::Group(inner, _) => {
            out.push('(');
            write_operand(out, inner);
            out.push(')');
        }
        Operand::Trace(call) => write_trace(out, call),
        Operand::Arith(arith) => {
            // Parentheses the tree needs but does not hold: a sum under `*`, and any operation
            // of the same strength on the right, since operators join from the left.
            let multiplicative = arith.op.is_multiplicative();
            let loose_left = matches!(&arith.left, Operand::Arith(left)
                if multiplicative && !left.op.is_multiplicative());
            let loose_right = matches!(&arith.right, Operand::Arith(right)
                if multiplicative || !right.op.is_multiplicative());
            write_arith_side(out, &arith.left, loose_left);
            out.push(' ');
            out.push_str(arith.op.symbol());
            out.push(' ');
            write_arith_side(out, &arith.right, loose_right);
        }
    }
}

fn write_arith_side(out: &mut String, operand: &Operand, parenthesised: bool) {
    if parenthesised {
        out.push('(');
        write_operand(out, operand);
        out.push(')');
    } else {
        write_operand(out, operand);
    }
}

fn write_path(out: &mut String, field: &Path) {
    for (idx, segment) in field.segments.iter().enumerate() {
        match segment {
            PathSegment::Name(name) => {
                if idx > 0 {
                    out.push('.');
                }
                out.push_str(&name.name);
            }
            // A quoted key that is a word reads the same dotted, so only one form is canonical.
            PathSegment::Quoted { key, .. } if is_word(&key.name) => {
                out.push('.');
                out.push_str(&key.name);
            }
            PathSegment::Quoted { key, .. } => {
                out.push_str("[\"");
                out.push_str(&key.name);
                out.push_str("\"]");
            }
            PathSegment::Index { text, .. } => {
                out.push('[');
                out.push_str(text);
                out.push(']');
            }
        }
    }
}

fn write_lit(out: &mut String, value: &Lit) {
    match &value.kind {
        LitKind::Bool(true) => out.push_str("true"),
        LitKind::Bool(false) => out.push_str("false"),
        LitKind::Int(text) | LitKind::Duration(text) | LitKind::Word(text) => out.push_str(text),
        LitKind::Str(raw) => {
            out.push('"');
            out.push_str(raw);
            out.push('"');
        }
        LitKind::List(items) => {
            out.push('[');
            write_separated(out, items, write_lit);
            out.push(']');
        }
    }
}

fn write_str_lit(out: &mut String, string: &StrLit) {
    out.push('"');
    out.push_str(&string.raw);
    out.push('"');
}

/// ` word` when there is one
fn write_optional_word(out: &mut String, word: Option<&Ident>) {
    if let Some(word) = word {
        out.push(' ');
        out.push_str(&word.name);
    }
}

/// `items` printed by `each`, separated by `, `
fn write_separated<T>(out: &mut String, items: &[T], each: fn(&mut String, &T)) {
    for (idx, item) in items.iter().enumerate() {
        if idx > 0 {
            out.push_str(", ");
        }
        each(out, item);
    }
}
