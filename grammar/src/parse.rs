//! From source text to a syntax tree plus every syntax error, never failing.
//!
//! Most files have no syntax error, so the grammar first runs once on the whole file (`file`
//! in `rules.pest`) and the tree is built from that one pass. Only when that fails is the file
//! parsed again one item at a time, to report every error: `extent` finds how far the item
//! can reach (up to the next item outside strings, comments and braces), and `item_alone`
//! parses it there. When an item does not parse, one error is recorded, its extent is skipped,
//! and parsing goes on with the next item, so one run reports every broken item and keeps
//! every good one.
//!
//! Both paths build the same tree and the same comments for a file with no syntax error: an
//! item that parses within its extent fills it (up to the next item's first token, blanks and
//! comments included), and nothing that can end an item can start with the first token of an
//! item, so the item parses the same way whether pest sees its extent or the rest of the
//! file. The property tests check it on generated files.
//!
//! Invariant: pest's `Pair`s and rule names never leave this file; errors carry user words.

use pest::error::{ErrorVariant, InputLocation};
use pest::Parser as _;

use crate::ast::{
    ActionNode, Annotation, Arith, ArithOp, Call, Compare, DefaultDecl, Expr, File, Header, Ident,
    Item, ListQuantifier, Lit, LitKind, ObjectEntry, Op, Operand, Path, PathSegment, Quantified,
    RuleDecl, StrLit, TestBlock, TestStep, TraceCall, Value, WindowNode,
};
use crate::error::{ParseError, SyntaxError};
use crate::limits::{self, offset, MAX_DEPTH};
use crate::span::Span;

/// The pest parser generated from `rules.pest`, kept in its own module because the generated
/// `Rule` enum is `pub` but must stay private to this file.
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "rules.pest"]
    pub(super) struct RulesParser;
}

use grammar::{Rule, RulesParser};

type Pair<'i> = pest::iterators::Pair<'i, Rule>;

/// The result of parsing one file: the tree of everything that parsed, and the errors
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    /// The items that parsed, in source order
    pub file: File,
    /// Every problem found, in source order; empty when the file is well formed
    pub errors: Vec<ParseError>,
    /// Every comment that was read, in source order (none when a limit was exceeded)
    pub comments: Vec<Comment>,
}

/// A `#` comment
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// From the `#` to the end of the line, line break excluded
    pub span: Span,
    /// The text after the `#`, line break excluded: ` keep it safe` for `# keep it safe`
    pub text: String,
}

/// Parse a `.rules` file.
///
/// Never fails and never panics: the tree holds every item that parsed and `errors` lists
/// every problem, recovering at item boundaries. A file beyond a limit
/// ([`MAX_FILE_SIZE`](crate::MAX_FILE_SIZE), [`MAX_DEPTH`]) yields an empty tree and that one
/// error.
pub fn parse(src: &str) -> Parsed {
    if let Some(error) = limits::check(src) {
        return Parsed {
            file: File::default(),
            errors: vec![error],
            comments: Vec::new(),
        };
    }
    // A byte order mark, which some editors write, is not part of the text.
    let start = if src.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    one_pass(src, start).unwrap_or_else(|| recover(src, start))
}

/// The tree and comments of `src` from `start` on, from one run of the grammar over the whole
/// text; `None` when the file has a syntax error (or pest stopped), left to [`recover`]
fn one_pass(src: &str, start: usize) -> Option<Parsed> {
    let text = src.get(start..)?;
    let file = RulesParser::parse(Rule::file, text).ok()?.next()?;
    let builder = Builder { base: start };
    let mut parsed = Parsed::default();
    // Every comment starts with `#`: one search spares a walk over the whole tree when there
    // is none.
    if text.contains('#') {
        builder.comments(file.clone(), src.len(), &mut parsed.comments);
    }
    for child in children(file) {
        if child.as_rule() != Rule::EOI {
            parsed.file.items.push(builder.item(child)?);
        }
    }
    Some(parsed)
}

/// The tree of everything that parses in `src` from `start` on, and every error: item by
/// item, each within its extent, skipping the extent of a broken item
fn recover(src: &str, start: usize) -> Parsed {
    let mut run = Run {
        src,
        parsed: Parsed::default(),
    };
    let mut pos = start;
    loop {
        pos = run.trivia(pos);
        if pos >= src.len() {
            break;
        }
        pos = run.item(pos);
    }
    run.parsed
}

/// The state of one call to [`parse`]
struct Run<'s> {
    src: &'s str,
    parsed: Parsed,
}

impl<'s> Run<'s> {
    /// The source from `pos` on
    fn rest(&self, pos: usize) -> &'s str {
        self.src.get(pos..).unwrap_or_default()
    }

    /// A few characters of the source from `pos` on: enough for any keyword or escape, and
    /// short, because a failed pest parse copies the line it stopped on
    fn window(&self, pos: usize) -> &'s str {
        const WINDOW: usize = 16;
        let mut end = (pos + WINDOW).min(self.src.len());
        while !self.src.is_char_boundary(end) {
            end -= 1;
        }
        self.src.get(pos..end).unwrap_or_default()
    }

    /// Skips blanks and comments from `pos`, keeping the comments; the position after them
    fn trivia(&mut self, pos: usize) -> usize {
        let Ok(mut pairs) = RulesParser::parse(Rule::trivia, self.rest(pos)) else {
            return pos;
        };
        let Some(trivia) = pairs.next() else {
            return pos;
        };
        let end = pos + trivia.as_span().end();
        self.comments(trivia, pos, end);
        end
    }

    /// Keeps every comment inside `pair` that starts before `until`; `pair`'s offsets are
    /// relative to `base`
    fn comments(&mut self, pair: Pair<'_>, base: usize, until: usize) {
        Builder { base }.comments(pair, until, &mut self.parsed.comments);
    }

    /// Parses the item at `pos` (a token), or records an error and skips it; the position after.
    ///
    /// pest only sees the item's extent (`extent` in `rules.pest`), the most text the item can
    /// take. That keeps each parse, and each pest error (which copies the line it points at),
    /// proportional to the item, so a file with many errors on one long line stays linear.
    fn item(&mut self, pos: usize) -> usize {
        let extent = RulesParser::parse(Rule::extent, self.rest(pos))
            .ok()
            .and_then(|mut pairs| pairs.next());
        let extent_end = extent
            .as_ref()
            .map_or(self.src.len(), |extent| pos + extent.as_span().end())
            .max(pos + 1);
        let text = self.src.get(pos..extent_end).unwrap_or_default();
        let builder = Builder { base: pos };
        let resume = match RulesParser::parse(Rule::item_alone, text) {
            Ok(mut pairs) => {
                let item_pair = pairs.next().and_then(|alone| {
                    children(alone).find(|child| {
                        matches!(
                            child.as_rule(),
                            Rule::header | Rule::default_decl | Rule::rule_decl | Rule::test_block
                        )
                    })
                });
                // The grammar makes `item_alone` hold exactly one item that has the shape
                // `Builder` expects, so the error branches are not reached; they report rather
                // than drop the item silently.
                match item_pair {
                    Some(item_pair) => {
                        let end = pos + item_pair.as_span().end();
                        self.comments(item_pair.clone(), pos, end);
                        match builder.item(item_pair) {
                            Some(item) => self.parsed.file.items.push(item),
                            None => self.error_at(pos, pos, Vec::new()),
                        }
                        return end;
                    }
                    None => {
                        self.error_at(pos, pos, Vec::new());
                        extent_end
                    }
                }
            }
            Err(error) => {
                let error_pos = pos
                    + match error.location {
                        InputLocation::Pos(at) => at,
                        InputLocation::Span((start, _)) => start,
                    };
                match error.variant {
                    ErrorVariant::ParsingError { positives, .. } => {
                        let expected = positives
                            .into_iter()
                            .flat_map(|rule| rule_words(rule).iter().map(|&word| word.to_owned()))
                            .collect();
                        self.error_at(pos, error_pos, expected);
                    }
                    // pest stops with a custom error only when its stack or call budget runs
                    // out, which the depth limit should prevent; report it as nesting.
                    ErrorVariant::CustomError { .. } => {
                        let (span, _) = self.token_at(error_pos);
                        self.parsed.errors.push(ParseError::TooDeep {
                            span,
                            limit: MAX_DEPTH,
                        });
                    }
                }
                self.resume_after(pos, error_pos, extent_end)
            }
        };
        if let Some(extent) = extent {
            self.comments(extent, pos, resume);
        }
        resume
    }

    /// Where to go on after the item at `pos` failed at `error_pos`: after its extent, or at
    /// the error when the item is annotations followed by another item (`@id("x") default ..`)
    fn resume_after(&self, pos: usize, error_pos: usize, extent_end: usize) -> usize {
        let starts_with_at = self.rest(pos).starts_with('@');
        let at_item = RulesParser::parse(Rule::item_keyword, self.window(error_pos)).is_ok();
        if starts_with_at && at_item && pos < error_pos && error_pos < extent_end {
            error_pos
        } else {
            extent_end
        }
    }

    /// Records a syntax error at `pos` in the item that starts at `item_start`, naming the
    /// token found there.
    ///
    /// When the file ends first, the error points just after the item's last token (or at
    /// that token when the file ends right after it): that is where something is missing,
    /// while the end of the file may be lines below, after blanks and comments.
    fn error_at(&mut self, item_start: usize, pos: usize, mut expected: Vec<String>) {
        let (mut span, found) = self.token_at(pos);
        if span.is_empty() && span.start as usize >= self.src.len() {
            span = match self.last_token(item_start, pos) {
                // Nothing follows the token, not even a line break, so there is no place
                // after it to show: point at the token itself.
                Some((start, end)) if end >= self.src.len() => self::span(start, end),
                Some((_, end)) => self::span(end, end),
                None => span,
            };
        }
        let error = match self.string_problem(span) {
            Some(problem) => problem,
            None => {
                expected.sort();
                expected.dedup();
                SyntaxError {
                    span,
                    expected,
                    found,
                }
            }
        };
        self.parsed.errors.push(ParseError::Syntax(error));
    }

    /// The start and end of the last token from `start` up to `until`, blanks and comments
    /// skipped
    fn last_token(&self, start: usize, until: usize) -> Option<(usize, usize)> {
        let mut pos = start;
        let mut last = None;
        while pos < until {
            let after_trivia = RulesParser::parse(Rule::trivia, self.rest(pos))
                .ok()
                .and_then(|mut pairs| pairs.next())
                .map_or(pos, |trivia| pos + trivia.as_span().end());
            let token_end = RulesParser::parse(Rule::token, self.rest(after_trivia))
                .ok()
                .and_then(|mut pairs| pairs.next())
                .map(|token| after_trivia + token.as_span().end())
                .filter(|&end| end > after_trivia && end <= until);
            let Some(token_end) = token_end else {
                break;
            };
            last = Some((after_trivia, token_end));
            pos = token_end;
        }
        last
    }

    /// The token at `pos` (after any blanks) and its name for users
    fn token_at(&self, pos: usize) -> (Span, String) {
        let pos = match RulesParser::parse(Rule::trivia, self.rest(pos)) {
            Ok(mut pairs) => pos + pairs.next().map_or(0, |trivia| trivia.as_span().end()),
            Err(_) => pos,
        };
        let token = RulesParser::parse(Rule::token, self.rest(pos))
            .ok()
            .and_then(|mut pairs| pairs.next());
        match token {
            Some(token) => {
                let end = pos + token.as_span().end();
                (span(pos, end), quote(token.as_str()))
            }
            None => (span(pos, pos), "end of file".to_owned()),
        }
    }

    /// The lexical problem of the token spanning `token`, if it is a string: a bad escape or a
    /// missing closing quote. Such a token is what the user must fix, whatever the grammar
    /// expected there.
    fn string_problem(&self, token: Span) -> Option<SyntaxError> {
        let text = self.src.get(token.range())?;
        let body = text.strip_prefix('"')?;
        let mut idx = 0;
        while let Some(char) = body.get(idx..).and_then(|rest| rest.chars().next()) {
            let at = token.start as usize + 1 + idx;
            match char {
                '"' => return None,
                '\\' => {
                    let escape = RulesParser::parse(Rule::escape, self.window(at))
                        .ok()
                        .and_then(|mut pairs| pairs.next());
                    match escape {
                        Some(escape) => idx += escape.as_str().len(),
                        None => {
                            let bad_end = at
                                + 1
                                + body
                                    .get(idx + 1..)?
                                    .chars()
                                    .next()
                                    .map_or(0, char::len_utf8);
                            return Some(SyntaxError {
                                span: span(at, bad_end),
                                expected: ["`\\\"`", "`\\\\`", "`\\n`", "`\\t`", "`\\u{...}`"]
                                    .map(str::to_owned)
                                    .to_vec(),
                                found: quote(self.src.get(at..bad_end).unwrap_or("\\")),
                            });
                        }
                    }
                }
                _ => idx += char.len_utf8(),
            }
        }
        let at_end = token.end as usize >= self.src.len();
        Some(SyntaxError {
            span: token,
            expected: vec!["`\"`".to_owned()],
            found: if at_end { "end of file" } else { "end of line" }.to_owned(),
        })
    }
}

/// Turns the pairs of one item into its syntax tree
struct Builder {
    /// Where the parsed slice starts in the file
    base: usize,
}

impl Builder {
    /// The span of `pair` in the file, without the blanks and comments that pest leaves at
    /// the end of a rule that ends with an optional part (`verb stop_reason? string?`)
    fn span(&self, pair: &Pair<'_>) -> Span {
        span(
            self.base + pair.as_span().start(),
            self.base + tight_end(pair),
        )
    }

    /// Pushes to `out` every comment inside `pair` that starts before `until`, in source order
    fn comments(&self, pair: Pair<'_>, until: usize, out: &mut Vec<Comment>) {
        for comment in pair.into_inner().flatten() {
            if comment.as_rule() == Rule::COMMENT && self.base + comment.as_span().start() < until {
                let text = comment.as_str().strip_prefix('#').unwrap_or_default();
                out.push(Comment {
                    span: self.span(&comment),
                    text: text.to_owned(),
                });
            }
        }
    }

    fn ident(&self, pair: &Pair<'_>) -> Ident {
        Ident {
            name: pair.as_str().to_owned(),
            span: self.span(pair),
        }
    }

    fn item(&self, pair: Pair<'_>) -> Option<Item> {
        match pair.as_rule() {
            Rule::header => self.header(pair).map(Item::Header),
            Rule::default_decl => self.default_decl(pair).map(Item::Default),
            Rule::rule_decl => self.rule_decl(pair).map(Item::Rule),
            Rule::test_block => self.test_block(pair).map(Item::Test),
            _ => None,
        }
    }

    fn header(&self, pair: Pair<'_>) -> Option<Header> {
        let span = self.span(&pair);
        let name = children(pair).find(|child| child.as_rule() == Rule::string)?;
        Some(Header {
            name: self.str_lit(name),
            span,
        })
    }

    fn default_decl(&self, pair: Pair<'_>) -> Option<DefaultDecl> {
        let span = self.span(&pair);
        let mut event = None;
        let mut verb = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::event_name => event = Some(self.ident(&child)),
                Rule::verb => verb = Some(self.ident(&child)),
                _ => {}
            }
        }
        Some(DefaultDecl {
            event: event?,
            verb: verb?,
            span,
        })
    }

    fn rule_decl(&self, pair: Pair<'_>) -> Option<RuleDecl> {
        let span = self.span(&pair);
        let mut annotations = Vec::new();
        let mut on_span = None;
        let mut events = Vec::new();
        let mut condition = None;
        let mut action = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::annotation => annotations.push(self.annotation(child)?),
                Rule::kw_on => on_span = Some(self.span(&child)),
                Rule::event_name => events.push(self.ident(&child)),
                Rule::condition => condition = Some(self.condition(child)?),
                Rule::verb_action => action = Some(self.verb_action(child)?),
                Rule::set_action => action = Some(self.set_action(child)?),
                Rule::label_action => action = Some(self.label_action(child)?),
                _ => {}
            }
        }
        Some(RuleDecl {
            annotations,
            on_span: on_span?,
            events,
            condition,
            action: action?,
            span,
        })
    }

    fn annotation(&self, pair: Pair<'_>) -> Option<Annotation> {
        let span = self.span(&pair);
        let mut name = None;
        let mut args = Vec::new();
        for child in children(pair) {
            match child.as_rule() {
                Rule::annotation_name => name = Some(self.ident(&child)),
                Rule::neg_int => args.push(Lit {
                    kind: LitKind::Int(child.as_str().to_owned()),
                    span: self.span(&child),
                }),
                Rule::literal => args.push(self.literal(child)?),
                Rule::lint_name => args.push(Lit {
                    kind: LitKind::Word(child.as_str().to_owned()),
                    span: self.span(&child),
                }),
                _ => {}
            }
        }
        Some(Annotation {
            name: name?,
            args,
            span,
        })
    }

    fn verb_action(&self, pair: Pair<'_>) -> Option<ActionNode> {
        let span = self.span(&pair);
        let mut verb = None;
        let mut reason = None;
        let mut message = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::verb => verb = Some(self.ident(&child)),
                Rule::stop_reason => reason = Some(self.ident(&child)),
                Rule::string => message = Some(self.str_lit(child)),
                _ => {}
            }
        }
        Some(ActionNode::Verb {
            verb: verb?,
            reason,
            message,
            span,
        })
    }

    fn set_action(&self, pair: Pair<'_>) -> Option<ActionNode> {
        let span = self.span(&pair);
        let mut target = None;
        let mut value = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::path => target = Some(self.path(child)),
                Rule::set_value => {
                    let part = children(child).next()?;
                    value = Some(match part.as_rule() {
                        Rule::literal => Operand::Lit(self.literal(part)?),
                        _ => self.sum(part)?,
                    });
                }
                _ => {}
            }
        }
        Some(ActionNode::Set {
            target: target?,
            value: value?,
            span,
        })
    }

    fn label_action(&self, pair: Pair<'_>) -> Option<ActionNode> {
        let span = self.span(&pair);
        let mut target = None;
        let mut label = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::path => target = Some(self.path(child)),
                Rule::string => label = Some(self.str_lit(child)),
                _ => {}
            }
        }
        Some(ActionNode::Label {
            target: target?,
            label: label?,
            span,
        })
    }

    /// `a or b`: one part is returned as is, two or more make an [`Expr::Or`]
    fn condition(&self, pair: Pair<'_>) -> Option<Expr> {
        self.joined(pair, Rule::conjunction, Self::conjunction, Expr::Or)
    }

    /// `a and b`: one part is returned as is, two or more make an [`Expr::And`]
    fn conjunction(&self, pair: Pair<'_>) -> Option<Expr> {
        self.joined(pair, Rule::unary, Self::unary, Expr::And)
    }

    /// The children of `pair` that are a `part`, each built by `build`: the only one as is,
    /// or two or more joined by `make` (and only then is a list made and the span needed)
    fn joined(
        &self,
        pair: Pair<'_>,
        part: Rule,
        build: fn(&Self, Pair<'_>) -> Option<Expr>,
        make: fn(Vec<Expr>, Span) -> Expr,
    ) -> Option<Expr> {
        let mut parts = children(pair.clone()).filter(|child| child.as_rule() == part);
        let first = build(self, parts.next()?)?;
        let Some(second) = parts.next() else {
            return Some(first);
        };
        let mut all = vec![first, build(self, second)?];
        for next in parts {
            all.push(build(self, next)?);
        }
        Some(make(all, self.span(&pair)))
    }

    /// `not not x`: the `not`s wrap the operand from the innermost out
    fn unary(&self, pair: Pair<'_>) -> Option<Expr> {
        let mut nots = Vec::new();
        let mut operand = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::kw_not => nots.push(self.span(&child)),
                Rule::paren => operand = Some(self.paren(child)?),
                Rule::call => operand = Some(self.call(child)?),
                Rule::trace_test => operand = Some(self.trace_test(child)?),
                Rule::quantified => operand = Some(self.quantified(child)?),
                Rule::comparison => {
                    operand = Some(Expr::Compare(Box::new(self.comparison(child)?)));
                }
                Rule::path => operand = Some(Expr::Path(self.path(child))),
                Rule::literal => operand = Some(Expr::Lit(self.literal(child)?)),
                _ => {}
            }
        }
        let mut expr = operand?;
        for not_span in nots.into_iter().rev() {
            let span = not_span.to(expr.span());
            expr = Expr::Not(Box::new(expr), span);
        }
        Some(expr)
    }

    fn paren(&self, pair: Pair<'_>) -> Option<Expr> {
        let span = self.span(&pair);
        let inner = children(pair).find(|child| child.as_rule() == Rule::condition)?;
        Some(Expr::Paren(Box::new(self.condition(inner)?), span))
    }

    fn call(&self, pair: Pair<'_>) -> Option<Expr> {
        let span = self.span(&pair);
        let mut name = None;
        let mut argument = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::path => name = Some(self.path(child)),
                Rule::condition => argument = Some(self.condition(child)?),
                _ => {}
            }
        }
        Some(Expr::Call(Box::new(Call {
            name: name?,
            argument: argument?,
            span,
        })))
    }

    /// `count(...)` alone, or compared (then a comparison like any other)
    fn trace_test(&self, pair: Pair<'_>) -> Option<Expr> {
        if children(pair.clone()).any(|child| child.as_rule() == Rule::op) {
            return Some(Expr::Compare(Box::new(self.comparison(pair)?)));
        }
        let call = children(pair).find(|child| child.as_rule() == Rule::trace_call)?;
        Some(Expr::Trace(Box::new(self.trace_call(call)?)))
    }

    fn trace_call(&self, pair: Pair<'_>) -> Option<TraceCall> {
        let span = self.span(&pair);
        let mut name = None;
        let mut event = None;
        let mut when = None;
        let mut within = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::trace_name => name = Some(self.ident(&child)),
                Rule::event_name => event = Some(self.ident(&child)),
                Rule::condition => when = Some(self.condition(child)?),
                Rule::window => within = Some(self.window(child)?),
                _ => {}
            }
        }
        Some(TraceCall {
            name: name?,
            event: event?,
            when,
            within,
            span,
        })
    }

    fn window(&self, pair: Pair<'_>) -> Option<WindowNode> {
        let span = self.span(&pair);
        let mut amount = None;
        let mut steps = false;
        for child in children(pair) {
            let kind = match child.as_rule() {
                Rule::int => LitKind::Int(child.as_str().to_owned()),
                Rule::window_duration => LitKind::Duration(child.as_str().to_owned()),
                Rule::steps_unit => {
                    steps = true;
                    continue;
                }
                _ => continue,
            };
            amount = Some(Lit {
                kind,
                span: self.span(&child),
            });
        }
        Some(WindowNode {
            amount: amount?,
            steps,
            span,
        })
    }

    fn comparison(&self, pair: Pair<'_>) -> Option<Compare> {
        let span = self.span(&pair);
        let mut operands = Vec::new();
        let mut op = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::sum => operands.push(self.sum(child)?),
                Rule::trace_call => {
                    operands.push(Operand::Trace(Box::new(self.trace_call(child)?)))
                }
                Rule::path => operands.push(Operand::Path(self.path(child))),
                Rule::literal => operands.push(Operand::Lit(self.literal(child)?)),
                Rule::op => op = Some((op_of(child.as_str())?, self.span(&child))),
                _ => {}
            }
        }
        let (op, op_span) = op?;
        let mut operands = operands.into_iter();
        let left = operands.next()?;
        let right = operands.next()?;
        Some(Compare {
            left,
            op,
            op_span,
            right,
            span,
        })
    }

    fn quantified(&self, pair: Pair<'_>) -> Option<Expr> {
        let span = self.span(&pair);
        let mut quantifier = None;
        let mut compare = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::quantifier => {
                    let word = match child.as_str() {
                        "any" => ListQuantifier::Any,
                        "all" => ListQuantifier::All,
                        _ => return None,
                    };
                    quantifier = Some((word, self.span(&child)));
                }
                Rule::comparison => compare = Some(self.comparison(child)?),
                _ => {}
            }
        }
        let (quantifier, quantifier_span) = quantifier?;
        Some(Expr::Quantified(Box::new(Quantified {
            quantifier,
            quantifier_span,
            compare: compare?,
            span,
        })))
    }

    /// `a + b - c`: the terms joined from the left; one term is returned as is
    fn sum(&self, pair: Pair<'_>) -> Option<Operand> {
        self.chain(pair, Rule::product, Self::product)
    }

    /// `a * b / c`: the factors joined from the left; one factor is returned as is
    fn product(&self, pair: Pair<'_>) -> Option<Operand> {
        self.chain(pair, Rule::factor, Self::factor)
    }

    /// The children of `pair` that are a `part`, each built by `build`, joined from the left
    /// by the operators between them
    fn chain(
        &self,
        pair: Pair<'_>,
        part: Rule,
        build: fn(&Self, Pair<'_>) -> Option<Operand>,
    ) -> Option<Operand> {
        let mut operand: Option<Operand> = None;
        let mut pending_op = None;
        for child in children(pair) {
            let rule = child.as_rule();
            if rule == Rule::add_op || rule == Rule::mul_op {
                pending_op = Some((arith_op_of(child.as_str())?, self.span(&child)));
            } else if rule == part {
                let right = build(self, child)?;
                operand = Some(match (operand, pending_op.take()) {
                    (Some(left), Some((op, op_span))) => {
                        let span = left.span().to(right.span());
                        Operand::Arith(Box::new(Arith {
                            left,
                            op,
                            op_span,
                            right,
                            span,
                        }))
                    }
                    (None, None) => right,
                    _ => return None,
                });
            }
        }
        operand
    }

    fn factor(&self, pair: Pair<'_>) -> Option<Operand> {
        let inner = children(pair).next()?;
        match inner.as_rule() {
            Rule::path => Some(Operand::Path(self.path(inner))),
            Rule::literal => Some(Operand::Lit(self.literal(inner)?)),
            Rule::group => {
                let span = self.span(&inner);
                let sum = children(inner).find(|child| child.as_rule() == Rule::sum)?;
                Some(Operand::Group(Box::new(self.sum(sum)?), span))
            }
            _ => None,
        }
    }

    fn path(&self, pair: Pair<'_>) -> Path {
        let span = self.span(&pair);
        let segments = children(pair)
            .filter_map(|child| match child.as_rule() {
                Rule::field | Rule::member => Some(PathSegment::Name(self.ident(&child))),
                Rule::quoted_key => {
                    let span = self.span(&child);
                    let string = children(child).next()?;
                    Some(PathSegment::Quoted {
                        key: Ident {
                            span: self.span(&string),
                            name: raw_text(string),
                        },
                        span,
                    })
                }
                Rule::index => Some(PathSegment::Index {
                    text: child
                        .as_str()
                        .trim_start_matches('[')
                        .trim_end_matches(']')
                        .to_owned(),
                    span: self.span(&child),
                }),
                _ => None,
            })
            .collect();
        Path { segments, span }
    }

    fn literal(&self, pair: Pair<'_>) -> Option<Lit> {
        let span = self.span(&pair);
        let inner = children(pair).next()?;
        let kind = match inner.as_rule() {
            Rule::duration => LitKind::Duration(inner.as_str().to_owned()),
            Rule::int => LitKind::Int(inner.as_str().to_owned()),
            Rule::string => LitKind::Str(raw_text(inner)),
            Rule::boolean => {
                LitKind::Bool(children(inner).any(|word| word.as_rule() == Rule::kw_true))
            }
            Rule::list => {
                let mut items = Vec::new();
                for child in children(inner) {
                    if child.as_rule() == Rule::literal {
                        items.push(self.literal(child)?);
                    }
                }
                LitKind::List(items)
            }
            _ => return None,
        };
        Some(Lit { kind, span })
    }

    fn str_lit(&self, pair: Pair<'_>) -> StrLit {
        StrLit {
            span: self.span(&pair),
            raw: raw_text(pair),
        }
    }

    fn test_block(&self, pair: Pair<'_>) -> Option<TestBlock> {
        let span = self.span(&pair);
        let mut name = None;
        let mut steps = Vec::new();
        for child in children(pair) {
            match child.as_rule() {
                Rule::string => name = Some(self.str_lit(child)),
                Rule::test_event => steps.push(self.test_event(child)?),
                Rule::test_expect => steps.push(self.test_expect(child)?),
                _ => {}
            }
        }
        Some(TestBlock {
            name: name?,
            steps,
            span,
        })
    }

    fn test_event(&self, pair: Pair<'_>) -> Option<TestStep> {
        let span = self.span(&pair);
        let mut event = None;
        let mut fields = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::event_name => event = Some(self.ident(&child)),
                Rule::object => fields = Some(self.entries(child)?),
                _ => {}
            }
        }
        Some(TestStep::Event {
            event: event?,
            fields: fields?,
            span,
        })
    }

    fn test_expect(&self, pair: Pair<'_>) -> Option<TestStep> {
        let span = self.span(&pair);
        let mut verb = None;
        let mut reason = None;
        let mut by = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::verb => verb = Some(self.ident(&child)),
                Rule::stop_reason => reason = Some(self.ident(&child)),
                Rule::string => by = Some(self.str_lit(child)),
                _ => {}
            }
        }
        Some(TestStep::Expect {
            verb: verb?,
            reason,
            by,
            span,
        })
    }

    /// The entries of an `object` pair
    fn entries(&self, pair: Pair<'_>) -> Option<Vec<ObjectEntry>> {
        let mut entries = Vec::new();
        for child in children(pair) {
            if child.as_rule() == Rule::entry {
                entries.push(self.entry(child)?);
            }
        }
        Some(entries)
    }

    fn entry(&self, pair: Pair<'_>) -> Option<ObjectEntry> {
        let span = self.span(&pair);
        let mut key = None;
        let mut value = None;
        for child in children(pair) {
            match child.as_rule() {
                Rule::key => key = Some(self.ident(&child)),
                Rule::string => {
                    key = Some(Ident {
                        span: self.span(&child),
                        name: raw_text(child),
                    });
                }
                Rule::object => {
                    let object_span = self.span(&child);
                    value = Some(Value::Object(self.entries(child)?, object_span));
                }
                Rule::literal => value = Some(Value::Lit(self.literal(child)?)),
                _ => {}
            }
        }
        Some(ObjectEntry {
            key: key?,
            value: value?,
            span,
        })
    }
}

/// The end of the last token of `pair`: the end of its last child that is not a comment,
/// found by walking down the right edge of the tree (as deep as the tree, which the depth limit
/// bounds) but not into tokens with parts (a string ends with its quote, not its text)
fn tight_end(pair: &Pair<'_>) -> usize {
    // Blanks and comments inside a rule come with the blanks after them (a comment runs to a
    // line break, which the same blanks take), so a pair that ends on a byte of a token before
    // the end of its input ends with that token: no need to walk down.
    let end = pair.as_span().end();
    let on_token = pair
        .as_str()
        .as_bytes()
        .last()
        .is_some_and(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r'));
    if on_token && end < pair.get_input().len() {
        return end;
    }
    let mut last = pair.clone();
    loop {
        if matches!(
            last.as_rule(),
            Rule::string | Rule::path | Rule::index | Rule::quoted_key
        ) {
            break;
        }
        let child = last
            .clone()
            .into_inner()
            .rev()
            .find(|child| child.as_rule() != Rule::COMMENT);
        match child {
            Some(child) => last = child,
            None => break,
        }
    }
    last.as_span().end()
}

/// The children of `pair`, comments left out (they are collected separately)
fn children<'i>(pair: Pair<'i>) -> impl Iterator<Item = Pair<'i>> {
    pair.into_inner()
        .filter(|child| child.as_rule() != Rule::COMMENT)
}

/// The raw text between the quotes of a `string` pair
fn raw_text(pair: Pair<'_>) -> String {
    let text = pair.as_str();
    text.strip_prefix('"')
        .and_then(|inner| inner.strip_suffix('"'))
        .unwrap_or(text)
        .to_owned()
}

/// The operator written `symbol`
fn op_of(symbol: &str) -> Option<Op> {
    Some(match symbol {
        "==" => Op::Eq,
        "!=" => Op::Ne,
        "<" => Op::Lt,
        "<=" => Op::Le,
        ">" => Op::Gt,
        ">=" => Op::Ge,
        "~" => Op::Glob,
        "==*" => Op::EqIgnoringCase,
        "!=*" => Op::NeIgnoringCase,
        "~*" => Op::GlobIgnoringCase,
        "=~" => Op::Regex,
        "in" => Op::In,
        "contains" => Op::Contains,
        "from" => Op::From,
        _ => return None,
    })
}

/// A span from two byte offsets into a file that passed [`limits::check`]
fn arith_op_of(symbol: &str) -> Option<ArithOp> {
    match symbol {
        "+" => Some(ArithOp::Add),
        "-" => Some(ArithOp::Sub),
        "*" => Some(ArithOp::Mul),
        "/" => Some(ArithOp::Div),
        _ => None,
    }
}

fn span(start: usize, end: usize) -> Span {
    Span::new(offset(start), offset(end))
}

/// A found token as users read it: in backticks, cut short when long, invisible characters
/// escaped (`\u{a0}`)
fn quote(token: &str) -> String {
    const MAX_CHARS: usize = 40;
    let mut shown = String::new();
    for char in token.chars().take(MAX_CHARS) {
        let invisible = char.is_control()
            || (char.is_whitespace() && char != ' ')
            || matches!(char, '\u{200b}'..='\u{200f}' | '\u{2060}' | '\u{feff}');
        if invisible {
            shown.extend(char.escape_unicode());
        } else {
            shown.push(char);
        }
    }
    if token.chars().nth(MAX_CHARS).is_some() {
        shown.push_str("...");
    }
    format!("`{shown}`")
}

/// What a rule stands for in an error's "expected" list: usually one word, none for rules
/// never named there.
///
/// Every rule is listed, with no catch-all arm, so a new rule in `rules.pest` fails to compile
/// until it gets its words.
fn rule_words(rule: Rule) -> &'static [&'static str] {
    match rule {
        Rule::EOI => &["end of file"],
        Rule::kw_on => &["`on`"],
        Rule::kw_when => &["`when`"],
        Rule::kw_and => &["`and`"],
        Rule::kw_or => &["`or`"],
        Rule::kw_not => &["`not`"],
        Rule::kw_in => &["`in`"],
        Rule::kw_true => &["`true`"],
        Rule::kw_false => &["`false`"],
        Rule::kw_policy => &["`policy`"],
        Rule::kw_default => &["`default`"],
        Rule::kw_test => &["`test`"],
        Rule::kw_expect => &["`expect`"],
        Rule::kw_event => &["`event`"],
        Rule::kw_by => &["`by`"],
        Rule::kw_set => &["`set`"],
        Rule::kw_contains => &["`contains`"],
        Rule::kw_from => &["`from`"],
        Rule::kw_label => &["`label`"],
        Rule::label_action => &["`label`"],
        Rule::at => &["`@`"],
        Rule::lparen => &["`(`"],
        Rule::rparen => &["`)`"],
        Rule::lbracket => &["`[`"],
        Rule::rbracket => &["`]`"],
        Rule::lbrace => &["`{`"],
        Rule::rbrace => &["`}`"],
        Rule::comma => &["`,`"],
        Rule::colon => &["`:`"],
        Rule::assign => &["`=`"],
        Rule::duration => &["a duration"],
        Rule::int => &["an integer"],
        Rule::neg_int => &["a value"],
        Rule::escape => &["an escape"],
        Rule::string | Rule::string_raw => &["a string"],
        // Only inside `string_raw`, which pest reports whole.
        Rule::string_run => &[],
        Rule::boolean => &["`true` or `false`"],
        Rule::list => &["a list"],
        Rule::literal => &["a value"],
        Rule::field | Rule::path => &["a field"],
        Rule::member => &["a field name"],
        Rule::index_digits => &["an index"],
        Rule::condition | Rule::conjunction | Rule::unary | Rule::paren => &["a condition"],
        Rule::op => &["an operator"],
        Rule::comparison => &["a comparison"],
        Rule::call => &["a call"],
        // An operand is what it was before arithmetic: a field or a value, and a `set` value
        // a value. Operators and quantifiers are never listed: every error after a field
        // would otherwise name four operators, and every error where a condition starts two
        // more words.
        Rule::sum | Rule::product | Rule::factor => &["a field", "a value"],
        Rule::set_value => &["a value"],
        Rule::group => &["`(`"],
        Rule::add_op | Rule::mul_op | Rule::quantifier | Rule::quantified => &[],
        // Tried wherever a condition may start: listing it there would add noise to every
        // error in a condition, as `index` would after a field.
        Rule::trace_test | Rule::trace_call | Rule::trace_name => &[],
        Rule::within => &["`within`"],
        Rule::steps_unit => &["`steps`"],
        Rule::window => &["a window"],
        Rule::window_duration => &["a duration"],
        Rule::event_name => &["an event name"],
        Rule::verb => &["a verb"],
        Rule::stop_reason => &["a stop reason"],
        Rule::annotation_name => &["an annotation name"],
        Rule::lint_name => &["a lint"],
        Rule::annotation => &["`@`"],
        Rule::verb_action => &["a verb"],
        Rule::set_action => &["`set`"],
        Rule::header => &["`policy`"],
        Rule::default_decl => &["`default`"],
        Rule::rule_decl => &["`@`", "`on`"],
        Rule::key => &["a key"],
        Rule::entry => &["a key"],
        Rule::object => &["`{`"],
        Rule::test_event => &["`event`"],
        Rule::test_expect => &["`expect`"],
        Rule::test_block => &["`test`"],
        // Trivia, entry points and silent rules are never reported; neither is an index after
        // a field, which would only add noise to every error after a field.
        Rule::COMMENT
        | Rule::WHITESPACE
        | Rule::trivia
        | Rule::token
        | Rule::extent
        | Rule::line_item
        | Rule::word_char
        | Rule::word
        | Rule::ident
        | Rule::keyword
        | Rule::digits
        | Rule::item
        | Rule::item_start
        | Rule::loose_string
        | Rule::loose_word
        | Rule::lexeme
        | Rule::index
        | Rule::quoted_key
        | Rule::plain_operand
        | Rule::braced => &[],
        // pest names the whole item when no part of it parsed.
        Rule::item_alone => &["`@`", "`default`", "`on`", "`policy`", "`test`"],
        // A failed `file` is never reported: the file is parsed again item by item.
        Rule::file => &[],
        Rule::item_keyword => &["`default`", "`on`", "`policy`", "`test`"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word of a `kw_` rule, from its user words: `on` for `kw_on`
    fn keyword_of(rule: Rule) -> Option<&'static str> {
        if !format!("{rule:?}").starts_with("kw_") {
            return None;
        }
        let [word] = rule_words(rule) else {
            return None;
        };
        word.strip_prefix('`')?.strip_suffix('`')
    }

    /// A file with no syntax error is read in one pass, comments and a byte order mark
    /// included; one with an error is left to the item-by-item path
    #[test]
    fn only_files_with_an_error_are_parsed_item_by_item() {
        let src = "\u{feff}# guards\npolicy \"p\" # named\n@id(\"a\") on stop when not (a or b) \
                   forbid\ntest \"t\" { event stop { on: 1 } expect forbid } # end";
        let parsed = one_pass(src, '\u{feff}'.len_utf8());
        assert_eq!(
            parsed.as_ref().map(|parsed| parsed.file.items.len()),
            Some(3)
        );
        assert_eq!(parsed.map(|parsed| parsed.comments.len()), Some(3));
        assert_eq!(one_pass("on stop forbid\non stop when forbid\n", 0), None);
    }

    /// `keyword` in `rules.pest` lists the words of the `kw_` rules as plain strings: each of
    /// them is refused as an identifier, and taken once it is longer
    #[test]
    fn every_kw_rule_is_a_keyword() {
        let words: Vec<&str> = Rule::all_rules()
            .iter()
            .filter_map(|&rule| keyword_of(rule))
            .collect();
        assert_eq!(words.len(), 18, "{words:?}");
        for word in words {
            assert!(
                RulesParser::parse(Rule::event_name, word).is_err(),
                "`{word}` is taken as an identifier"
            );
            let longer = format!("{word}x");
            let pairs = RulesParser::parse(Rule::event_name, &longer);
            assert_eq!(
                pairs
                    .ok()
                    .and_then(|mut pairs| pairs.next())
                    .map(|pair| pair.as_str().to_owned()),
                Some(longer)
            );
        }
    }
}
