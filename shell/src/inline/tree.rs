//! What the readers of every language share: a walk over every node without recursion (code
//! may nest deeper than a stack), the text of a node, escapes, and the values of words, of
//! two joined operands and of an expression in parentheses.

use tree_sitter::Node;

use super::{Effect, Value};

/// Every node under `root`, itself included, in source order, walked without recursion
pub(super) fn every_node(root: Node<'_>) -> Vec<Node<'_>> {
    let mut nodes = Vec::new();
    let mut cursor = root.walk();
    loop {
        nodes.push(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return nodes;
            }
        }
    }
}

/// The source text of a node
pub(super) fn text<'s>(node: Node<'_>, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or_default()
}

/// The named children of a node
pub(super) fn named_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// The text of an escape sequence (`\n`, `\x72`, `\u0072`, `\\`) as it reads in a string
/// literal of the C family; an escape it does not know stands for itself without the `\`
pub(super) fn unescape(escape: &str) -> String {
    let body = escape.strip_prefix('\\').unwrap_or(escape);
    let mut chars = body.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let rest: String = chars.collect();
    let code = |digits: &str, radix| {
        u32::from_str_radix(digits.trim_matches(['{', '}']), radix)
            .ok()
            .and_then(char::from_u32)
    };
    let decoded = match first {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        '0' if rest.is_empty() => Some('\0'),
        'x' | 'u' | 'U' => code(&rest, 16),
        digit if digit.is_digit(8) => code(body, 8),
        _ => None,
    };
    match decoded {
        Some(ch) => ch.to_string(),
        None if first == '\n' => String::new(),
        None => body.to_owned(),
    }
}

/// A value that is only known at run time, because of the node that computes it
pub(super) fn unknown(what: &str, node: Node<'_>, source: &str) -> Value {
    let shown: String = text(node, source).chars().take(40).collect();
    Value::Unknown(format!("the {what} `{shown}` is computed at run time"))
}

/// A signal or process id the code gives as a literal integer (`9`, `-1`), or as a signal's
/// name (`signal.SIGKILL`, `'SIGKILL'`), as `kill` takes it; `None` for any other
pub(super) fn kill_word(node: Node<'_>, source: &str) -> Option<String> {
    let written: String = text(node, source)
        .chars()
        .filter(|ch| !ch.is_whitespace() && !matches!(ch, '\'' | '"'))
        .collect();
    if written.parse::<i64>().is_ok() {
        return Some(written);
    }
    let name = written.rsplit('.').next().unwrap_or(&written);
    let name = name
        .strip_prefix("SIG")
        .filter(|name| !name.is_empty() && name.bytes().all(|byte| byte.is_ascii_uppercase()))?;
    Some(name.to_owned())
}

/// A signal sent as `kill -s SIGNAL PID` does (the signal `TERM` when none is given): a
/// process id only run time knows is an unknown word. To a `group` (`os.killpg`), the id is
/// the group's, `-PGID`; the caller's own group, `0`, holds the shell the command runs in and
/// what started it, and is read as every process, `-1`.
pub(super) fn kill(
    pid: Option<Node<'_>>,
    signal: Option<Node<'_>>,
    group: bool,
    source: &str,
) -> Effect {
    let word = |node: Node<'_>, what: &str| match kill_word(node, source) {
        Some(word) => Value::Known(word),
        None => unknown(what, node, source),
    };
    let signal = signal.map_or(Value::Known("TERM".to_owned()), |node| word(node, "signal"));
    let pid = match pid.map(|node| word(node, "process id")) {
        Some(Value::Known(id)) if group && id == "0" => Value::Known("-1".to_owned()),
        Some(Value::Known(id)) if group => Value::Known(format!("-{id}")),
        Some(pid) => pid,
        None => Value::Unknown("the process id is given at run time".to_owned()),
    };
    Effect::Exec(vec![
        Value::Known("kill".to_owned()),
        Value::Known("-s".to_owned()),
        signal,
        pid,
    ])
}

/// Whether `node` stands in a loop or a comprehension (kinds in `loops`), where what it
/// does is done again and again
pub(super) fn in_loop(node: Node<'_>, loops: &[&str]) -> bool {
    let mut at = node.parent();
    while let Some(parent) = at {
        if loops.contains(&parent.kind()) {
            return true;
        }
        at = parent.parent();
    }
    false
}

/// Joins values into one: known when all are
pub(super) fn join(values: Vec<Value>) -> Value {
    let mut joined = String::new();
    for value in values {
        match value {
            Value::Known(text) => joined.push_str(&text),
            unknown @ Value::Unknown(_) => return unknown,
        }
    }
    Value::Known(joined)
}

/// Whether `node`'s operator is `symbol` (`+` joining two strings, PHP's `.`)
pub(super) fn has_operator(node: Node<'_>, symbol: &str, source: &str) -> bool {
    node.child_by_field_name("operator")
        .is_some_and(|operator| text(operator, source) == symbol)
}

/// The values of `node`'s left and right operands, read with `value`, joined into one; an
/// operand missing from the tree is unknown
pub(super) fn join_operands(
    node: Node<'_>,
    source: &str,
    mut value: impl FnMut(Node<'_>) -> Value,
) -> Value {
    let parts = [
        node.child_by_field_name("left"),
        node.child_by_field_name("right"),
    ];
    join(
        parts
            .into_iter()
            .map(|part| match part {
                Some(part) => value(part),
                None => unknown("value", node, source),
            })
            .collect(),
    )
}

/// The value of the expression in parentheses `node`, read with `value`
pub(super) fn parenthesized(
    node: Node<'_>,
    source: &str,
    value: impl FnOnce(Node<'_>) -> Value,
) -> Value {
    match named_children(node).first() {
        Some(inner) => value(*inner),
        None => unknown("value", node, source),
    }
}

/// A file mode written as an integer literal (`0o4755`, `0x1ed`, `0b111`, `493`, and the
/// older octal `0755`), in octal as chmod(1) takes it; `None` for another literal
pub(super) fn octal_mode(literal: &str) -> Option<String> {
    let literal = literal.replace('_', "");
    let (digits, radix) = match literal.get(..2) {
        Some("0o" | "0O") => (literal.get(2..)?, 8),
        Some("0x" | "0X") => (literal.get(2..)?, 16),
        Some("0b" | "0B") => (literal.get(2..)?, 2),
        _ if literal.len() > 1 && literal.starts_with('0') => (literal.get(1..)?, 8),
        _ => (literal.as_str(), 10),
    };
    u32::from_str_radix(digits, radix)
        .ok()
        .map(|mode| format!("{mode:o}"))
}
