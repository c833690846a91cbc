//! The one-line text of syntax nodes, as the canonical layout writes them.
//!
//! Invariant: the text of a node parses back to the same node (up to spans). Parentheses are
//! nodes of their own, so printing never adds or drops one and precedence is kept as written.

use rulesc_grammar::{
    ActionNode, Annotation, Compare, DefaultDecl, Expr, Header, Ident, Lit, LitKind, ObjectEntry,
    Operand, Path, PathSegment, StrLit, TestStep, Value,
};

/// `"raw"`: the raw text keeps its escapes, so quoting it again gives the same string
pub(super) fn str_lit(lit: &StrLit) -> String {
    quoted(&lit.raw)
}

/// `raw` between double quotes
fn quoted(raw: &str) -> String {
    format!("\"{raw}\"")
}

/// `policy "name"`
pub(super) fn header(header: &Header) -> String {
    format!("policy {}", str_lit(&header.name))
}

/// `default pre_tool_use ask`
pub(super) fn default_decl(default: &DefaultDecl) -> String {
    format!("default {} {}", default.event.name, default.verb.name)
}

/// `@id("x")`, `@priority(-5)`; an annotation without arguments has no parentheses
pub(super) fn annotation(annotation: &Annotation) -> String {
    if annotation.args.is_empty() {
        format!("@{}", annotation.name.name)
    } else {
        format!(
            "@{}({})",
            annotation.name.name,
            joined(&annotation.args, lit)
        )
    }
}

/// `on pre_tool_use, post_tool_use`
pub(super) fn events(events: &[Ident]) -> String {
    let names: Vec<&str> = events.iter().map(|event| event.name.as_str()).collect();
    format!("on {}", names.join(", "))
}

/// `forbid steps_limit_reached "at most 20 steps"`, `set metadata.tainted = true`
pub(super) fn action(action: &ActionNode) -> String {
    match action {
        ActionNode::Verb {
            verb,
            reason,
            message,
            ..
        } => {
            let mut text = verb.name.clone();
            if let Some(reason) = reason {
                text.push(' ');
                text.push_str(&reason.name);
            }
            if let Some(message) = message {
                text.push(' ');
                text.push_str(&str_lit(message));
            }
            text
        }
        ActionNode::Set { target, value, .. } => format!("set {} = {}", path(target), lit(value)),
    }
}

/// A condition on one line: `tool == "rm" or not blocked`
pub(super) fn expr(expr: &Expr) -> String {
    match expr {
        Expr::Or(parts, _) => parts
            .iter()
            .map(self::expr)
            .collect::<Vec<_>>()
            .join(" or "),
        Expr::And(parts, _) => parts
            .iter()
            .map(self::expr)
            .collect::<Vec<_>>()
            .join(" and "),
        Expr::Not(inner, _) => format!("not {}", self::expr(inner)),
        Expr::Paren(inner, _) => format!("({})", self::expr(inner)),
        Expr::Compare(compare) => comparison(compare),
        Expr::Path(field) => path(field),
        Expr::Lit(literal) => lit(literal),
    }
}

/// `steps >= 20`
fn comparison(compare: &Compare) -> String {
    format!(
        "{} {} {}",
        operand(&compare.left),
        compare.op.symbol(),
        operand(&compare.right)
    )
}

/// A path or a literal
fn operand(operand: &Operand) -> String {
    match operand {
        Operand::Path(field) => path(field),
        Operand::Lit(literal) => lit(literal),
    }
}

/// `arg.paths[0]`
pub(super) fn path(path: &Path) -> String {
    let mut text = String::new();
    for segment in &path.segments {
        match segment {
            PathSegment::Name(name) => {
                if !text.is_empty() {
                    text.push('.');
                }
                text.push_str(&name.name);
            }
            PathSegment::Index { text: digits, .. } => {
                text.push('[');
                text.push_str(digits);
                text.push(']');
            }
        }
    }
    text
}

/// A literal as written: numbers and durations keep their source text (`100_000`, `5min`)
pub(super) fn lit(lit: &Lit) -> String {
    match &lit.kind {
        LitKind::Bool(value) => value.to_string(),
        LitKind::Int(text) | LitKind::Duration(text) => text.clone(),
        LitKind::Str(raw) => quoted(raw),
        LitKind::List(items) => format!("[{}]", joined(items, self::lit)),
    }
}

/// `expect forbid steps_limit_reached by "cap"`, or a test event on one line
pub(super) fn test_step(step: &TestStep) -> String {
    match step {
        TestStep::Event { event, fields, .. } => {
            format!("event {} {}", event.name, object(fields))
        }
        TestStep::Expect {
            verb, reason, by, ..
        } => {
            let mut text = format!("expect {}", verb.name);
            if let Some(reason) = reason {
                text.push(' ');
                text.push_str(&reason.name);
            }
            if let Some(by) = by {
                text.push_str(" by ");
                text.push_str(&str_lit(by));
            }
            text
        }
    }
}

/// `{ tool: "rm", arg: { path: "/" } }`, or `{}`
pub(super) fn object(entries: &[ObjectEntry]) -> String {
    if entries.is_empty() {
        "{}".to_owned()
    } else {
        format!("{{ {} }}", joined(entries, entry))
    }
}

/// `tool: "rm"`
pub(super) fn entry(entry: &ObjectEntry) -> String {
    format!("{}: {}", key(&entry.key), value(&entry.value))
}

/// A key: bare when it is a word (`tool`, even `event`), else quoted (`"filePath"`)
pub(super) fn key(key: &Ident) -> String {
    let mut chars = key.name.chars();
    let is_word = chars
        .next()
        .is_some_and(|first| first.is_ascii_lowercase() || first == '_')
        && chars.all(|rest| rest.is_ascii_lowercase() || rest.is_ascii_digit() || rest == '_');
    if is_word {
        key.name.clone()
    } else {
        quoted(&key.name)
    }
}

/// A literal or an object on one line
fn value(value: &Value) -> String {
    match value {
        Value::Lit(literal) => lit(literal),
        Value::Object(entries, _) => object(entries),
    }
}

/// Each item's text, joined by `, `
fn joined<T>(items: &[T], text: impl Fn(&T) -> String) -> String {
    items.iter().map(text).collect::<Vec<_>>().join(", ")
}
