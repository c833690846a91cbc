//! tree-sitter-bash: the parser of the lines the fast reader gives up, and its tree as the
//! walk reads it ([`Syntax`]). Built only with the `tree-sitter` feature: without it, such
//! lines are unreadable.

use std::ops::Range;
use std::time::Instant;

use tree_sitter::{Node, ParseOptions, ParseState, Parser, Tree};

use crate::limits::{self, Unreadable};
use crate::syntax::Syntax;

/// A parser of tree-sitter-bash
pub(crate) fn parser() -> Result<Parser, Unreadable> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .map_err(|_| Unreadable::Syntax)?;
    Ok(parser)
}

/// The tree of `source`, parsed by `parser` until `deadline`; why it cannot be read when it
/// holds a syntax error or takes too long
pub(crate) fn parse(
    parser: &mut Parser,
    source: &str,
    deadline: Instant,
) -> Result<Tree, Unreadable> {
    // tree-sitter-bash's scanner hands characters to C's `isdigit`, which reads out of
    // bounds (and can crash the process) beyond one byte. No byte past ASCII is special
    // to the shell, so the parser reads each as `%`, a plain word character, byte for
    // byte: every node keeps its range, and every word is taken from the text itself.
    let mut bytes: Vec<u8> = source
        .bytes()
        .map(|byte| if byte.is_ascii() { byte } else { b'%' })
        .collect();
    respell_descriptor_zero(&mut bytes);
    let tree = parse_bytes(parser, &bytes, deadline)?;
    if !tree.root_node().has_error() {
        return Ok(tree);
    }
    // Two things bash reads that tree-sitter-bash refuses: a word that opens with `{`
    // where a command begins (`{rm,-rf,~}`, brace-expanded into `rm -rf ~`) and a file
    // opened for reading and writing (`3<> f`). The line is parsed again with them
    // spelled as tree-sitter-bash reads alike, byte for byte; the walk takes every word
    // and operator from the text itself, so they keep their meaning.
    if respell(&mut bytes) {
        let tree = parse_bytes(parser, &bytes, deadline)?;
        if !tree.root_node().has_error() {
            return Ok(tree);
        }
    }
    let root = tree.root_node();
    Err(limits::unterminated(source).unwrap_or_else(|| first_error(root)))
}

/// The tree of `bytes`, parsed by `parser` until `deadline`, errors and all
fn parse_bytes(parser: &mut Parser, bytes: &[u8], deadline: Instant) -> Result<Tree, Unreadable> {
    let mut chunk = |offset: usize, _| bytes.get(offset..).unwrap_or_default();
    // tree-sitter asks this now and then while it parses; `true` stops it.
    let mut too_slow = |_: &ParseState| Instant::now() > deadline;
    let options = ParseOptions::new().progress_callback(&mut too_slow);
    match parser.parse_with_options(&mut chunk, None, Some(options)) {
        Some(tree) => Ok(tree),
        None if Instant::now() > deadline => Err(Unreadable::TooSlow),
        None => Err(Unreadable::Syntax),
    }
}

/// Spells, in place, what bash reads and tree-sitter-bash refuses as what it reads alike;
/// whether anything was respelled.
///
/// A `{` that opens a word and is not the whole word is a plain character to bash, which
/// takes `{` as a keyword only standing alone (bash(1), RESERVED WORDS): it becomes `%`,
/// so the word is one word wherever it stands. `<>` (open for reading and writing,
/// bash(1), REDIRECTION) becomes `>>`, a redirect of the same shape; the walk reads its
/// operator from the text, `<>`. A here-string takes any place among a command's
/// redirects in bash, but tree-sitter-bash refuses one after a file's (`cat > f <<< x`):
/// `<<<` becomes `<  `, an input redirect of the same shape, which [`BashNode`] reads as
/// the here-string the text holds.
fn respell(bytes: &mut [u8]) -> bool {
    let mut respelled = false;
    for at in 0..bytes.len() {
        if bytes.get(at..at + 3) == Some(b"<<<") {
            respelled = true;
            if let Some(operator) = bytes.get_mut(at + 1..at + 3) {
                operator.copy_from_slice(b"  ");
            }
            continue;
        }
        let before = at
            .checked_sub(1)
            .and_then(|before| bytes.get(before))
            .copied();
        let after = bytes.get(at + 1).copied();
        match bytes.get(at) {
            Some(b'{')
                if before.is_none_or(starts_a_word)
                    && after.is_some_and(|next| !ends_a_word(next)) =>
            {
                respelled = true;
                if let Some(byte) = bytes.get_mut(at) {
                    *byte = b'%';
                }
            }
            Some(b'<') if after == Some(b'>') && before != Some(b'<') => {
                respelled = true;
                if let Some(byte) = bytes.get_mut(at) {
                    *byte = b'>';
                }
            }
            _ => {}
        }
    }
    respelled
}

/// Spells, in place, the descriptor `0` glued to a redirect (`sh 0< <(curl …)`, `bash
/// 0<<<'…'`, `cat 0<&3`) as `9`: bash reads a word of digits before `<` or `>` as the
/// descriptor the redirect opens, but tree-sitter-bash reads a lone `0` there as a word of
/// the command (`sh 0`, a script named `0`), and the redirect as one of the input. The walk
/// takes the descriptor from the text, `0`.
fn respell_descriptor_zero(bytes: &mut [u8]) {
    for at in 0..bytes.len() {
        let before = at.checked_sub(1).and_then(|before| bytes.get(before));
        if bytes.get(at) == Some(&b'0')
            && before.is_none_or(|byte| starts_a_word(*byte))
            && matches!(bytes.get(at + 1), Some(b'<' | b'>'))
        {
            if let Some(byte) = bytes.get_mut(at) {
                *byte = b'9';
            }
        }
    }
}

/// Whether a word may start after `byte`: a blank, an operator's character or a backquote
fn starts_a_word(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b'`'
    )
}

/// Whether `byte` ends a word: a blank or a metacharacter (bash(1), DEFINITIONS)
fn ends_a_word(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'
    )
}

/// Where the first syntax error of a tree lies
fn first_error(root: Node<'_>) -> Unreadable {
    let mut cursor = root.walk();
    let mut node = root;
    loop {
        let erroneous = node
            .children(&mut cursor)
            .find(|child| child.is_error() || child.is_missing() || child.has_error());
        match erroneous {
            Some(child) if !child.is_error() && !child.is_missing() => node = child,
            Some(child) => {
                let point = child.start_position();
                return Unreadable::SyntaxAt {
                    line: point.row + 1,
                    column: point.column + 1,
                };
            }
            None => return Unreadable::Syntax,
        }
    }
}

/// A node of a tree [`parse`] gave, read with the line it was parsed from: a here-string
/// [`respell`] handed the parser as an input redirect is a here-string again
#[derive(Clone, Copy)]
pub(crate) struct BashNode<'t> {
    node: Node<'t>,
    source: &'t [u8],
}

/// The root of `tree`, parsed from `source`
pub(crate) fn root<'t>(tree: &'t Tree, source: &'t str) -> BashNode<'t> {
    BashNode {
        node: tree.root_node(),
        source: source.as_bytes(),
    }
}

impl<'t> BashNode<'t> {
    fn wrap(&self, nodes: impl Iterator<Item = Node<'t>>) -> std::vec::IntoIter<Self> {
        let source = self.source;
        let nodes: Vec<Self> = nodes.map(|node| BashNode { node, source }).collect();
        nodes.into_iter()
    }
}

impl Syntax for BashNode<'_> {
    // tree-sitter lends children through a cursor that must outlive them: they are collected.
    type Children = std::vec::IntoIter<Self>;

    fn kind(&self) -> &'static str {
        let kind = self.node.kind();
        if kind != "file_redirect" {
            return kind;
        }
        // After its descriptor, if any, the text of a respelled here-string is `<<<`.
        let text = self.source.get(self.node.byte_range()).unwrap_or_default();
        let operator = text.iter().position(|byte| !byte.is_ascii_digit());
        match operator.and_then(|at| text.get(at..)) {
            Some(operator) if operator.starts_with(b"<<<") => "herestring_redirect",
            _ => kind,
        }
    }

    fn is_named(&self) -> bool {
        self.node.is_named()
    }

    fn byte_range(&self) -> Range<usize> {
        self.node.byte_range()
    }

    fn children(&self) -> Self::Children {
        let mut cursor = self.node.walk();
        self.wrap(self.node.children(&mut cursor))
    }

    // `Node::named_child(i)` starts over from the first child each time, which makes a
    // loop over it quadratic: a cursor reads them in one pass.
    fn named_children(&self) -> Self::Children {
        let mut cursor = self.node.walk();
        self.wrap(self.node.named_children(&mut cursor))
    }

    fn field(&self, field: &'static str) -> Self::Children {
        let mut cursor = self.node.walk();
        self.wrap(self.node.children_by_field_name(field, &mut cursor))
    }
}
