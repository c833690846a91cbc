//! The syntax tree of a `.rules` file. Every node carries the byte span it was parsed from.
//!
//! Invariant: the tree holds syntax only. Literals keep their source text (`200k`, `"a\n"`):
//! giving them values, types and units is the compiler's job, which reports overflow and bad
//! escapes with the literal's span.

use crate::span::Span;

/// A parsed `.rules` file
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct File {
    /// The items in source order
    pub items: Vec<Item>,
}

/// A top-level item
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// `policy "name"`
    Header(Header),
    /// `default <event> <verb>`
    Default(DefaultDecl),
    /// `@.. on <events> when <condition> <action>`
    Rule(RuleDecl),
    /// `test "name" { ... }`
    Test(TestBlock),
}

impl Item {
    /// The item's whole span
    pub fn span(&self) -> Span {
        match self {
            Item::Header(header) => header.span,
            Item::Default(default) => default.span,
            Item::Rule(rule) => rule.span,
            Item::Test(test) => test.span,
        }
    }
}

/// A name as written: an event, verb, stop reason, annotation or field segment
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    /// The text
    pub name: String,
    /// Where it was written
    pub span: Span,
}

/// `policy "name"`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The policy's name
    pub name: StrLit,
    /// The whole header
    pub span: Span,
}

/// `default pre_tool_use ask`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefaultDecl {
    /// The event
    pub event: Ident,
    /// The verb
    pub verb: Ident,
    /// The whole declaration
    pub span: Span,
}

/// A rule: `annotations* "on" events ("when" condition)? action`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleDecl {
    /// `@id("x")`, `@priority(10)`, in source order
    pub annotations: Vec<Annotation>,
    /// The span of the `on` keyword (the default rule id is its file and line)
    pub on_span: Span,
    /// The event names, at least one
    pub events: Vec<Ident>,
    /// The condition after `when`
    pub condition: Option<Expr>,
    /// What the rule does
    pub action: ActionNode,
    /// From the first annotation (or `on`) to the end of the action
    pub span: Span,
}

/// `@name(arg)`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// The name after `@`
    pub name: Ident,
    /// The arguments inside the parentheses
    pub args: Vec<Lit>,
    /// The whole annotation
    pub span: Span,
}

/// A condition
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// `a or b or c`: two or more parts
    Or(Vec<Expr>, Span),
    /// `a and b and c`: two or more parts
    And(Vec<Expr>, Span),
    /// `not a`
    Not(Box<Expr>, Span),
    /// `( a )`
    Paren(Box<Expr>, Span),
    /// `left op right`
    Compare(Box<Compare>),
    /// A bare path used as a bool: `blocked`, `metadata.tainted`
    Path(Path),
    /// A bare literal used as a condition (`true`); the compiler types it
    Lit(Lit),
    /// `name(argument)`: `shell(program == "rm")`, `flag("-r")`
    Call(Box<Call>),
    /// `any left op right`, `all left op right`: a comparison over each element of a list
    Quantified(Box<Quantified>),
    /// A trace function as a condition: `seen(post_tool_use when tool == "read_secrets")`
    Trace(Box<TraceCall>),
}

/// `any arg.to ~ "*@evil.example"`: a comparison applied to each element of its left side
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quantified {
    /// `any` or `all`
    pub quantifier: ListQuantifier,
    /// The word's span
    pub quantifier_span: Span,
    /// The comparison applied to each element
    pub compare: Compare,
    /// The whole condition, from the quantifier to the end of the comparison
    pub span: Span,
}

/// Whether some or every element of a list must satisfy a comparison
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListQuantifier {
    /// `any`
    Any,
    /// `all`
    All,
}

impl ListQuantifier {
    /// The word as written
    pub fn word(self) -> &'static str {
        match self {
            ListQuantifier::Any => "any",
            ListQuantifier::All => "all",
        }
    }
}

/// `count(E when C within W)`, `seen(...)`, `streak(...)`; the compiler knows the names
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceCall {
    /// `count`, `seen` or `streak`
    pub name: Ident,
    /// The kind of event counted
    pub event: Ident,
    /// What a counted event must satisfy
    pub when: Option<Expr>,
    /// How recent a counted event must be
    pub within: Option<WindowNode>,
    /// The whole call
    pub span: Span,
}

/// `within 5 steps`, `within 10min`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowNode {
    /// The number of steps (an integer) or the duration, as written (`10m` is refused: `m` is a million)
    pub amount: Lit,
    /// Whether the window counts steps
    pub steps: bool,
    /// The whole window, `within` included
    pub span: Span,
}

/// `name(argument)`; the compiler knows the names
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// The name before the parenthesis: `shell`, `shell.all`, `flag`
    pub name: Path,
    /// The argument
    pub argument: Expr,
    /// The whole call
    pub span: Span,
}

impl Expr {
    /// The expression's whole span
    pub fn span(&self) -> Span {
        match self {
            Expr::Or(_, span) | Expr::And(_, span) | Expr::Not(_, span) | Expr::Paren(_, span) => {
                *span
            }
            Expr::Compare(compare) => compare.span,
            Expr::Path(path) => path.span,
            Expr::Lit(lit) => lit.span,
            Expr::Call(call) => call.span,
            Expr::Quantified(quantified) => quantified.span,
            Expr::Trace(call) => call.span,
        }
    }
}

/// `left op right`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compare {
    /// Left operand
    pub left: Operand,
    /// The operator
    pub op: Op,
    /// The operator's span
    pub op_span: Span,
    /// Right operand
    pub right: Operand,
    /// The whole comparison
    pub span: Span,
}

/// A comparison operator
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `~` (glob)
    Glob,
    /// `==*` (equal, ignoring case)
    EqIgnoringCase,
    /// `!=*` (not equal, ignoring case)
    NeIgnoringCase,
    /// `~*` (glob, ignoring case)
    GlobIgnoringCase,
    /// `=~` (regular expression)
    Regex,
    /// `in`
    In,
    /// `contains`
    Contains,
    /// `from` (provenance)
    From,
}

impl Op {
    /// The operator as written
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Glob => "~",
            Op::EqIgnoringCase => "==*",
            Op::NeIgnoringCase => "!=*",
            Op::GlobIgnoringCase => "~*",
            Op::Regex => "=~",
            Op::In => "in",
            Op::Contains => "contains",
            Op::From => "from",
        }
    }
}

/// One side of a comparison
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    /// A field path
    Path(Path),
    /// A literal
    Lit(Lit),
    /// `left + right`, `left * right`, ...
    Arith(Box<Arith>),
    /// `( operand )`, kept so the formatter writes the parentheses back
    Group(Box<Operand>, Span),
    /// A trace function: `count(on_error within 5 steps)`
    Trace(Box<TraceCall>),
}

impl Operand {
    /// The operand's span
    pub fn span(&self) -> Span {
        match self {
            Operand::Path(path) => path.span,
            Operand::Lit(lit) => lit.span,
            Operand::Arith(arith) => arith.span,
            Operand::Group(_, span) => *span,
            Operand::Trace(call) => call.span,
        }
    }
}

/// `left op right` with an arithmetic operator
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arith {
    /// Left operand
    pub left: Operand,
    /// The operator
    pub op: ArithOp,
    /// The operator's span
    pub op_span: Span,
    /// Right operand
    pub right: Operand,
    /// From the left operand to the right one
    pub span: Span,
}

/// An arithmetic operator
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
}

impl ArithOp {
    /// The operator as written
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
        }
    }

    /// Whether it binds as tightly as `*` (rather than as `+`)
    pub fn is_multiplicative(self) -> bool {
        matches!(self, ArithOp::Mul | ArithOp::Div)
    }
}

/// A field path: `steps`, `error.kind`, `arg.paths[0]`, `metadata.tainted`, `arg["pullNumber"]`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    /// The segments, first is the root name
    pub segments: Vec<PathSegment>,
    /// The whole path
    pub span: Span,
}

/// One segment of a [`Path`]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// `.name` (or the root name)
    Name(Ident),
    /// `["pullNumber"]`: a key written as a string, one key even with dots inside
    Quoted {
        /// The text between the quotes, escapes not yet decoded; its span covers the string
        /// with its quotes
        key: Ident,
        /// The brackets and the string
        span: Span,
    },
    /// `[0]`: the index's source text
    Index {
        /// The digits
        text: String,
        /// The brackets and digits
        span: Span,
    },
}

impl PathSegment {
    /// The segment's whole span: the name, or the brackets and what they hold
    pub fn span(&self) -> Span {
        match self {
            PathSegment::Name(name) => name.span,
            PathSegment::Quoted { span, .. } | PathSegment::Index { span, .. } => *span,
        }
    }
}

/// A literal, with its source text kept for the compiler to decode
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lit {
    /// What kind of literal
    pub kind: LitKind,
    /// The whole literal
    pub span: Span,
}

/// The kinds of literal
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LitKind {
    /// `true` / `false`
    Bool(bool),
    /// `20`, `100_000`, `200k`, `3m`: the source text; `-5` only as an annotation argument
    Int(String),
    /// `500ms`, `5min`: the source text
    Duration(String),
    /// A string: the text between the quotes, escapes not yet decoded
    Str(String),
    /// `[a, b]`
    List(Vec<Lit>),
    /// `W005`, `dead-rule`: a bare word, only as an annotation argument
    Word(String),
}

/// A string literal where only a string is allowed
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrLit {
    /// The text between the quotes, escapes not yet decoded
    pub raw: String,
    /// The literal with its quotes
    pub span: Span,
}

/// What a rule does
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionNode {
    /// `verb [stop_reason] ["message"]`
    Verb {
        /// The verb
        verb: Ident,
        /// The stop reason word
        reason: Option<Ident>,
        /// The message
        message: Option<StrLit>,
        /// The whole action
        span: Span,
    },
    /// `set metadata.key = value`
    Set {
        /// The target path (`metadata.key`)
        target: Path,
        /// The value: a literal, or arithmetic computed when the rule fires
        value: Operand,
        /// The whole action
        span: Span,
    },
    /// `label result "untrusted"`
    Label {
        /// What is labelled (`result`)
        target: Path,
        /// The label
        label: StrLit,
        /// The whole action
        span: Span,
    },
}

impl ActionNode {
    /// The action's whole span
    pub fn span(&self) -> Span {
        match self {
            ActionNode::Verb { span, .. }
            | ActionNode::Set { span, .. }
            | ActionNode::Label { span, .. } => *span,
        }
    }
}

/// `test "name" { (event ... | expect ...)* }`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestBlock {
    /// The test's name
    pub name: StrLit,
    /// The events and expectations in order
    pub steps: Vec<TestStep>,
    /// The whole block
    pub span: Span,
}

/// One line of a test block
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestStep {
    /// `event <name> { field: value, ... }`
    Event {
        /// The event's name
        event: Ident,
        /// The fields given
        fields: Vec<ObjectEntry>,
        /// The whole line
        span: Span,
    },
    /// `expect <verb|none> [<stop_reason>] [by "<rule id>"]`
    Expect {
        /// The verb, or `none`
        verb: Ident,
        /// The stop reason
        reason: Option<Ident>,
        /// The rule expected to resolve it
        by: Option<StrLit>,
        /// The whole line
        span: Span,
    },
}

/// `key: value` inside an object
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectEntry {
    /// The key: a word (keywords included: `on: 1`), or a string's raw text with escapes not
    /// decoded, in which case `span` covers the quotes (`"filePath"`)
    pub key: Ident,
    /// The value
    pub value: Value,
    /// The whole entry
    pub span: Span,
}

/// A value in a test event: a literal or a nested object
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A literal
    Lit(Lit),
    /// `{ key: value, ... }`
    Object(Vec<ObjectEntry>, Span),
}

impl Value {
    /// The value's span
    pub fn span(&self) -> Span {
        match self {
            Value::Lit(lit) => lit.span,
            Value::Object(_, span) => *span,
        }
    }
}
