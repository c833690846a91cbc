//! The fast reader's parser: recursive descent over the bytes of a line, with
//! tree-sitter-bash's precedences. Every function returns `None` to give the line up.

use std::ops::Range;

use super::tree::Tree;

/// Words that tree-sitter-bash reads as keywords where a command begins
const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "in", "while", "until",
    "do", "done", "function", "declare", "typeset", "export", "readonly", "local", "unset",
    "unsetenv",
];

/// The tree of `line` as tree-sitter-bash would build it, or `None` when `line` lies
/// outside what the fast reader reads
pub(crate) fn read(line: &str) -> Option<Tree> {
    let readable = |byte: u8| byte.is_ascii_graphic() || matches!(byte, b' ' | b'\t' | b'\n');
    // Every byte is looked at, without an early exit: such a loop compiles to vector code,
    // and most lines are readable to their end anyway.
    if !line.bytes().fold(true, |all, byte| all & readable(byte)) {
        return None;
    }
    let mut parser = Parser {
        bytes: line.as_bytes(),
        at: 0,
        tree: Tree::for_line(line.len())?,
    };
    let root = parser.tree.add("program", true, 0..line.len());
    parser.statements(root, false)?;
    Some(parser.tree)
}

/// A position in the line and the tree built so far
struct Parser<'l> {
    bytes: &'l [u8],
    at: usize,
    tree: Tree,
}

/// Whether `byte` may stand in a plain word outside quotes: asked of every byte, so
/// answered from [`PLAIN`]
fn plain(byte: u8) -> bool {
    PLAIN.get(usize::from(byte)).copied().unwrap_or(false)
}

/// [`plain_byte`] of every byte value
#[expect(
    clippy::indexing_slicing,
    reason = "evaluated while compiling, where an index out of bounds stops the build"
)]
const PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = plain_byte(byte as u8);
        byte += 1;
    }
    table
};

/// Whether `byte` may stand in a plain word outside quotes
const fn plain_byte(byte: u8) -> bool {
    byte.is_ascii_graphic()
        && !matches!(
            byte,
            b'\''
                | b'"'
                | b'<'
                | b'>'
                | b'{'
                | b'}'
                | b'['
                | b']'
                | b'('
                | b')'
                | b'`'
                | b'$'
                | b'|'
                | b'&'
                | b';'
                | b'\\'
                | b'#'
                | b'!'
        )
}

/// Whether a plain word is a number to tree-sitter-bash (`50`, `-5`, `0x12`)
fn number(word: &[u8]) -> bool {
    let digits = word.strip_prefix(b"-").unwrap_or(word);
    let digits = digits.strip_prefix(b"0x").unwrap_or(digits);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.at + ahead).copied()
    }

    fn looking_at(&self, text: &str) -> bool {
        self.bytes
            .get(self.at..)
            .is_some_and(|rest| rest.starts_with(text.as_bytes()))
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.at += 1;
        }
    }

    /// Adds an anonymous node for `token` at the current position and steps over it
    fn token(&mut self, parent: usize, token: &'static str) {
        let start = self.at;
        self.at += token.len();
        let node = self.tree.add(token, false, start..self.at);
        self.tree.adopt(parent, node, None);
    }

    /// A node of `kind` over `children`, from the first one's start to the last one's end
    fn wrap(&mut self, kind: &'static str, children: &[(usize, Option<&'static str>)]) -> usize {
        let start = children
            .first()
            .map_or(0, |(first, _)| self.tree.range(*first).start);
        let end = children
            .last()
            .map_or(0, |(last, _)| self.tree.range(*last).end);
        let node = self.tree.add(kind, true, start..end);
        for (child, field) in children {
            self.tree.adopt(node, *child, *field);
        }
        node
    }

    /// Statements up to the end of the line, or up to the `)` of a `$(...)`
    fn statements(&mut self, parent: usize, substitution: bool) -> Option<()> {
        loop {
            self.skip_blanks();
            let statement = self.statement()?;
            self.tree.adopt(parent, statement, None);
            self.skip_blanks();
            match self.peek() {
                None if !substitution => return Some(()),
                Some(b')') if substitution => return Some(()),
                Some(b';') if self.peek_at(1) != Some(b';') => self.token(parent, ";"),
                Some(b'&') => self.token(parent, "&"),
                Some(b'\n') => {
                    self.token(parent, "\n");
                    // tree-sitter-bash reads a line break and a `\` right after it as one
                    // word of the command before (`a\n\;` is `a` with an argument to it).
                    if self.peek() == Some(b'\\') {
                        return None;
                    }
                }
                _ => return None,
            }
            self.skip_blanks();
            match self.peek() {
                None if !substitution => return Some(()),
                Some(b')') if substitution => return Some(()),
                _ => {}
            }
        }
    }

    /// One statement: pipelines joined by `&&` and `||`, and redirections of all that
    /// comes before them (tree-sitter-bash binds `>` looser than `&&`, and `|` tighter)
    fn statement(&mut self) -> Option<usize> {
        let first = self.unit()?;
        let mut left = self.pipeline_from(first)?;
        loop {
            self.skip_blanks();
            if let Some(operator) = self.list_operator() {
                let at = self.at;
                self.at += 2;
                let operator = self.tree.add(operator, false, at..self.at);
                self.skip_blanks();
                let unit = self.unit()?;
                let right = self.pipeline_from(unit)?;
                left = self.wrap("list", &[(left, None), (operator, None), (right, None)]);
            } else if self.redirect_ahead() {
                let mut children = vec![(left, Some("body"))];
                while self.redirect_ahead() {
                    children.push((self.file_redirect()?, Some("redirect")));
                    self.skip_blanks();
                }
                let redirected = self.wrap("redirected_statement", &children);
                left = self.pipeline_from(redirected)?;
            } else {
                return Some(left);
            }
        }
    }

    fn list_operator(&self) -> Option<&'static str> {
        if self.looking_at("&&") {
            Some("&&")
        } else if self.looking_at("||") {
            Some("||")
        } else {
            None
        }
    }

    /// `first | b | c`, or `first` alone
    fn pipeline_from(&mut self, first: usize) -> Option<usize> {
        self.skip_blanks();
        if !self.pipe_ahead() {
            return Some(first);
        }
        let node = self.tree.add("pipeline", true, self.tree.range(first));
        self.tree.adopt(node, first, None);
        while self.pipe_ahead() {
            self.token(node, "|");
            self.skip_blanks();
            let unit = self.unit()?;
            self.tree.adopt(node, unit, None);
            let end = self.tree.range(unit).end;
            self.tree.extend(node, end);
            self.skip_blanks();
        }
        // tree-sitter-bash's grammar is ambiguous on a pipeline of three or more commands
        // that `&&`, `||` or a redirection follows, and which reading it picks is not
        // simple to foretell (`a | b | c && d` nests the list in the pipeline, while
        // `a | b | c | d && e` does not): such lines are left to it.
        let elements = self.tree.children_count(node);
        if self.looking_at("|&") || (elements >= 5 && !self.terminator_ahead()) {
            return None;
        }
        Some(node)
    }

    fn pipe_ahead(&self) -> bool {
        self.peek() == Some(b'|') && !matches!(self.peek_at(1), Some(b'|' | b'&'))
    }

    /// A simple command, or assignments alone
    fn unit(&mut self) -> Option<usize> {
        let mut assignments = Vec::new();
        while let Some(assignment) = self.assignment()? {
            assignments.push((assignment, None));
            self.skip_blanks();
        }
        if self.literal_ahead() {
            return self.command(assignments);
        }
        // Assignments alone, only where the statement ends.
        if !self.terminator_ahead() {
            return None;
        }
        match assignments.as_slice() {
            [] => None,
            [(only, _)] => Some(*only),
            _ => Some(self.wrap("variable_assignments", &assignments)),
        }
    }

    /// Whether a lone `;`, `&`, line break, `)` or the end comes next
    fn terminator_ahead(&self) -> bool {
        match self.peek() {
            None | Some(b';' | b'\n' | b')') => true,
            Some(b'&') => !matches!(self.peek_at(1), Some(b'&' | b'>')),
            _ => false,
        }
    }

    /// `NAME=value` or `NAME+=value` where a command may begin; `Some(None)` when none is
    fn assignment(&mut self) -> Option<Option<usize>> {
        let start = self.at;
        let name_end = self.bytes.get(start..).map_or(start, |rest| {
            start
                + rest
                    .iter()
                    .take_while(|byte| byte.is_ascii_alphanumeric() || **byte == b'_')
                    .count()
        });
        let rest = self.bytes.get(name_end..).unwrap_or_default();
        let operator = match rest.first() {
            _ if name_end == start => return Some(None),
            Some(b'=') => "=",
            _ if rest.starts_with(b"+=") => "+=",
            // Where a command begins, tree-sitter-bash's scanner takes a name before these
            // for a variable (`a:b`, `a?b`), which is no command name.
            Some(b'[' | b':' | b'%' | b'#' | b'@' | b'+' | b'?') => return None,
            _ => return Some(None),
        };
        if self.bytes.get(start).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let node = self.tree.add("variable_assignment", true, start..name_end);
        let name = self.tree.add("variable_name", true, start..name_end);
        self.tree.adopt(node, name, Some("name"));
        self.at = name_end;
        self.token(node, operator);
        if matches!(self.peek(), Some(b'=' | b'(')) {
            return None;
        }
        if !self.literal_ahead() {
            // An empty value is read only before a command (`X= cmd`), as bash writes it.
            self.skip_blanks();
            if self.at == name_end + operator.len() || !self.literal_ahead() {
                return None;
            }
            return Some(Some(node));
        }
        let value = self.literal()?;
        self.tree.adopt(node, value, Some("value"));
        self.tree.extend(node, self.at);
        Some(Some(node))
    }

    /// A command: its assignments, its name, then arguments and here-strings; redirections
    /// to files end it (they belong to the statement, see [`Parser::statement`])
    fn command(&mut self, assignments: Vec<(usize, Option<&'static str>)>) -> Option<usize> {
        let name = self.literal()?;
        let first_word = self.tree.range(name);
        if self.keyword(first_word.clone()) {
            return None;
        }
        let command_name = self.wrap("command_name", &[(name, None)]);
        // The command's node comes first and adopts each part as it is read, so no list
        // of parts is kept: it spans from its first part to its last.
        let start = assignments
            .first()
            .map_or(first_word.start, |(first, _)| self.tree.range(*first).start);
        let node = self.tree.add("command", true, start..start);
        for (assignment, field) in assignments {
            self.tree.adopt(node, assignment, field);
        }
        self.tree.adopt(node, command_name, Some("name"));
        self.tree.extend(node, first_word.end);
        loop {
            self.skip_blanks();
            let (part, field) = if self.looking_at("<<<") {
                let start = self.at;
                let herestring = self.tree.add("herestring_redirect", true, start..start);
                self.token(herestring, "<<<");
                self.skip_blanks();
                if !self.literal_ahead() {
                    return None;
                }
                let word = self.literal()?;
                self.tree.adopt(herestring, word, None);
                self.tree.extend(herestring, self.at);
                (herestring, "redirect")
            } else if self.redirect_ahead() || !self.literal_ahead() {
                break;
            } else if self.peek() == Some(b'=') {
                return None;
            } else {
                (self.literal()?, "argument")
            };
            self.tree.adopt(node, part, Some(field));
            let end = self.tree.range(part).end;
            self.tree.extend(node, end);
        }
        Some(node)
    }

    /// Whether the command name at `range` begins with a keyword as a plain word, or its
    /// plain start holds `=` (which tree-sitter-bash may read as an assignment) or begins
    /// with `-` (which its scanner reads apart)
    fn keyword(&self, range: Range<usize>) -> bool {
        let word = self.bytes.get(range).unwrap_or_default();
        let plain_end = word.iter().take_while(|byte| plain(**byte)).count();
        let first = word.get(..plain_end).unwrap_or_default();
        first.contains(&b'=')
            || first.starts_with(b"-")
            || KEYWORDS.iter().any(|keyword| keyword.as_bytes() == first)
    }

    /// Whether a word begins here
    fn literal_ahead(&self) -> bool {
        self.peek()
            .is_some_and(|byte| plain(byte) || matches!(byte, b'\\' | b'\'' | b'"' | b'$'))
            && !self.redirect_ahead()
    }

    /// Whether a redirection to or from a file begins here: digits glued to `<` or `>`,
    /// then an operator that is not a here-document or a here-string
    fn redirect_ahead(&self) -> bool {
        // Asked before every word, and most start with no byte a redirection starts with.
        if !matches!(self.peek(), Some(b'0'..=b'9' | b'<' | b'>' | b'&')) {
            return false;
        }
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        let digits = rest.iter().take_while(|byte| byte.is_ascii_digit()).count();
        let operator = rest.get(digits..).unwrap_or_default();
        let file = operator.starts_with(b">") || operator.starts_with(b"&>");
        let input = operator.starts_with(b"<") && !operator.starts_with(b"<<");
        (file && !(digits > 0 && operator.starts_with(b"&"))) || input
    }

    /// One redirection to or from a file, `redirect_ahead` having said one begins here
    fn file_redirect(&mut self) -> Option<usize> {
        let start = self.at;
        let node = self.tree.add("file_redirect", true, start..start);
        let digits = self
            .bytes
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        if digits > 0 {
            let descriptor = self
                .tree
                .add("file_descriptor", true, start..start + digits);
            self.tree.adopt(node, descriptor, Some("descriptor"));
            self.at += digits;
        }
        let operator = ["&>>", "&>", ">>", ">|", ">&", "<&", ">", "<"]
            .into_iter()
            .find(|operator| self.looking_at(operator))?;
        if self.looking_at("<>") || self.looking_at(">(") || self.looking_at("<(") {
            return None;
        }
        self.token(node, operator);
        if operator.ends_with('&') && self.peek() == Some(b'-') {
            return None;
        }
        self.skip_blanks();
        if !self.literal_ahead() {
            return None;
        }
        while self.literal_ahead() {
            if self.peek() == Some(b'=') {
                return None;
            }
            let destination = self.literal()?;
            self.tree.adopt(node, destination, Some("destination"));
            self.tree.extend(node, self.at);
            self.skip_blanks();
        }
        Some(node)
    }

    /// One word: plain runs, quoted strings and expansions glued together
    fn literal(&mut self) -> Option<usize> {
        // Most words are one piece: the list of pieces is made only for a second one.
        let mut first = None;
        let mut pieces = Vec::new();
        loop {
            let piece = match self.peek() {
                Some(b'\'') => self.raw_string()?,
                Some(b'"') => self.string()?,
                Some(b'$') => self.dollar()?,
                // tree-sitter-bash starts a new word at a `\` after a quote or an
                // expansion (`'a'\x` is two words to it, one to bash): not read here.
                Some(b'\\') if first.is_some() => return None,
                Some(byte) if plain(byte) || byte == b'\\' => self.plain_word()?,
                _ => break,
            };
            match first {
                None => first = Some(piece),
                Some(only) if pieces.is_empty() => pieces.extend([(only, None), (piece, None)]),
                Some(_) => pieces.push((piece, None)),
            }
        }
        // Digits glued to `<` or `>` may be read as a descriptor (`-52>&1`, `$_2>&1`).
        let last = self.at.checked_sub(1).and_then(|at| self.bytes.get(at));
        if last.is_some_and(u8::is_ascii_digit) && matches!(self.peek(), Some(b'<' | b'>')) {
            return None;
        }
        if pieces.is_empty() {
            first
        } else {
            Some(self.wrap("concatenation", &pieces))
        }
    }

    /// A run of plain characters and `\` escapes
    fn plain_word(&mut self) -> Option<usize> {
        let start = self.at;
        loop {
            match self.peek() {
                Some(b'\\') => match self.peek_at(1) {
                    Some(byte) if byte.is_ascii_graphic() => self.at += 2,
                    _ => return None,
                },
                Some(byte) if plain(byte) => self.at += 1,
                _ => break,
            }
        }
        let text = self.bytes.get(start..self.at).unwrap_or_default();
        // tree-sitter-bash's scanner drops a lone `-` before a descriptor (`a - 2>&1` has
        // no `-` to it) and reads these characters apart: not read here.
        let lone_special = matches!(text, [b'-' | b'*' | b'@' | b'?' | b'0' | b'_']);
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        let blanks = rest
            .iter()
            .take_while(|byte| matches!(byte, b' ' | b'\t'))
            .count();
        if lone_special && rest.get(blanks).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let kind = if number(text) { "number" } else { "word" };
        Some(self.tree.add(kind, true, start..self.at))
    }

    /// `'...'`
    fn raw_string(&mut self) -> Option<usize> {
        let start = self.at;
        let rest = self.bytes.get(start + 1..)?;
        let length = rest.iter().position(|byte| *byte == b'\'')?;
        self.at = start + length + 2;
        Some(self.tree.add("raw_string", true, start..self.at))
    }

    /// `"..."` with `$NAME`, `${NAME}` and `$(...)` inside
    fn string(&mut self) -> Option<usize> {
        let node = self.tree.add("string", true, self.at..self.at);
        self.token(node, "\"");
        let mut content: Option<usize> = None;
        loop {
            let byte = self.peek()?;
            if matches!(byte, b'"' | b'$') {
                if let Some(start) = content.take() {
                    let piece = self.tree.add("string_content", true, start..self.at);
                    self.tree.adopt(node, piece, None);
                }
            }
            match byte {
                b'"' => break,
                b'$' => {
                    let expansion = self.dollar()?;
                    self.tree.adopt(node, expansion, None);
                }
                b'`' | b'\n' => return None,
                b'\\' => {
                    content.get_or_insert(self.at);
                    match self.peek_at(1) {
                        Some(b'\n') | None => return None,
                        Some(_) => self.at += 2,
                    }
                }
                _ => {
                    content.get_or_insert(self.at);
                    self.at += 1;
                }
            }
        }
        self.token(node, "\"");
        self.tree.extend(node, self.at);
        Some(node)
    }

    /// `$NAME`, `${NAME}` or `$(...)`
    fn dollar(&mut self) -> Option<usize> {
        let start = self.at;
        let name_start = match self.peek_at(1)? {
            b'(' if self.peek_at(2) != Some(b'(') => return self.substitution(),
            b'{' => start + 2,
            byte if byte.is_ascii_alphabetic() || byte == b'_' => start + 1,
            _ => return None,
        };
        let name_length = self
            .bytes
            .get(name_start..)?
            .iter()
            .take_while(|byte| byte.is_ascii_alphanumeric() || **byte == b'_')
            .count();
        let braced = name_start == start + 2;
        let first = self.bytes.get(name_start)?;
        if name_length == 0 || first.is_ascii_digit() {
            return None;
        }
        let kind = if braced {
            "expansion"
        } else {
            "simple_expansion"
        };
        let node = self.tree.add(kind, true, start..start);
        self.token(node, if braced { "${" } else { "$" });
        let name = self
            .tree
            .add("variable_name", true, name_start..name_start + name_length);
        self.tree.adopt(node, name, None);
        self.at = name_start + name_length;
        if braced {
            if self.peek() != Some(b'}') {
                return None;
            }
            self.token(node, "}");
        }
        self.tree.extend(node, self.at);
        Some(node)
    }

    /// `$(...)`
    fn substitution(&mut self) -> Option<usize> {
        let node = self
            .tree
            .add("command_substitution", true, self.at..self.at);
        self.token(node, "$(");
        self.statements(node, true)?;
        if self.peek() != Some(b')') {
            return None;
        }
        self.token(node, ")");
        self.tree.extend(node, self.at);
        Some(node)
    }
}
