//! Lowering of `shell(...)` and `shell.all(...)` (docs/shell.md): the words of a simple
//! command, `flag(...)`, `stdin_from(...)` and `outside_cwd`, checked and compiled.
//!
//! Invariant: everything wrong inside a shell condition is E040, at the part at fault, and
//! every problem of the condition is reported, not only the first.

use rulesc_grammar::{Call, Compare, Expr, Lit, LitKind, Op, Operand, Path, PathSegment, Span};
use rulesc_runtime::{
    Builtin, BuiltinArguments, BuiltinRow, BuiltinScope, Condition, EventKind, Field, FieldPath,
    GlobPattern, PathSegment as FieldSegment, Quantifier, RegexPattern, ShellCondition, ShellWord,
    WordTest, Words,
};

use crate::codes::{self, and_list, or_list};
use crate::diagnostic::Diagnostic;
use crate::glob_case::has_brace_alternation;
use crate::glob_case::spelt_both_cases;
use crate::hint;
use crate::resolve;
use crate::source::FileId;
use crate::types;

/// Lowers a call in a rule's condition: `shell(...)` or `shell.all(...)`
pub(crate) fn lower_call(
    file: FileId,
    call: &Call,
    events: &[(EventKind, Span)],
    diags: &mut Vec<Diagnostic>,
) -> Option<Condition> {
    let name = dotted(&call.name);
    let builtin = BuiltinRow::named(&name).map(|row| row.builtin);
    let quantifier = match builtin {
        Some(Builtin::Shell) => Quantifier::Any,
        Some(Builtin::ShellAll) => Quantifier::All,
        _ => {
            diags.push(misplaced_call(
                file,
                call.name.span,
                &name,
                BuiltinScope::Condition,
            ));
            return None;
        }
    };
    let command = Field::Arg(FieldPath {
        segments: vec![FieldSegment::Key("command".to_owned())],
    });
    if let Some(diag) = resolve::check_visible(file, &command, call.name.span, events) {
        diags.push(diag);
        return None;
    }
    let mut lowering = ShellLowering { file, diags };
    let condition = lowering.condition(&call.argument)?;
    Some(Condition::Shell {
        quantifier,
        condition,
        on_undecidable: None,
    })
}

/// A path's names joined by dots: `shell.all` (a quoted key keeps its brackets, so it never
/// reads as one of the names this module looks for)
fn dotted(path: &Path) -> String {
    let names: Vec<String> = path
        .segments
        .iter()
        .map(|segment| match segment {
            PathSegment::Name(ident) => ident.name.clone(),
            PathSegment::Quoted { key, .. } => format!("[\"{}\"]", key.name),
            PathSegment::Index { text, .. } => text.clone(),
        })
        .collect();
    names.join(".")
}

struct ShellLowering<'a> {
    file: FileId,
    diags: &'a mut Vec<Diagnostic>,
}

impl ShellLowering<'_> {
    fn error(&mut self, span: Span, message: String, label: &str, help: &str) {
        self.diags.push(codes::invalid_shell_condition(
            self.file, span, message, label, help,
        ));
    }

    fn condition(&mut self, expr: &Expr) -> Option<ShellCondition> {
        match expr {
            Expr::Or(parts, _) => self.parts(parts).map(ShellCondition::Any),
            Expr::And(parts, _) => self.parts(parts).map(ShellCondition::All),
            Expr::Not(inner, _) => self
                .condition(inner)
                .map(|inner| ShellCondition::Not(Box::new(inner))),
            Expr::Paren(inner, _) => self.condition(inner),
            Expr::Compare(compare) => self.compare(compare),
            Expr::Path(path) => match BuiltinRow::named(&dotted(path)).map(|row| row.builtin) {
                Some(Builtin::OutsideCwd) => Some(ShellCondition::OutsideCwd),
                Some(Builtin::OutsideCwdAndTmp) => Some(ShellCondition::OutsideCwdAndTmp),
                Some(Builtin::WholeCwd) => Some(ShellCondition::WholeCwd),
                Some(Builtin::OutputShown) => Some(ShellCondition::OutputShown),
                _ => self.not_a_condition(expr.span()),
            },
            Expr::Call(call) => self.call(call),
            Expr::Lit(_) | Expr::Quantified(_) | Expr::Trace(_) => {
                self.not_a_condition(expr.span())
            }
        }
    }

    /// E040 for what is no condition on a shell command
    fn not_a_condition(&mut self, span: Span) -> Option<ShellCondition> {
        let builtins: Vec<String> = BuiltinRow::in_scope(BuiltinScope::ShellCommand)
            .map(|row| match row.is_call() {
                true => format!("`{}(...)`", row.name),
                false => format!("`{}`", row.name),
            })
            .collect();
        self.error(
            span,
            "this is not a condition on a shell command".to_owned(),
            "not a shell condition",
            &format!(
                "test `program`, `arg`, `operand`, `path` or `redirect`, or use {}",
                or_list(&builtins)
            ),
        );
        None
    }

    /// Every part lowered, so that every part's problems are reported
    fn parts(&mut self, parts: &[Expr]) -> Option<Vec<ShellCondition>> {
        let lowered: Vec<Option<ShellCondition>> =
            parts.iter().map(|part| self.condition(part)).collect();
        lowered.into_iter().collect()
    }

    fn call(&mut self, call: &Call) -> Option<ShellCondition> {
        let name = dotted(&call.name);
        match BuiltinRow::named(&name).map(|row| row.builtin) {
            Some(Builtin::Flag) => self.flag(&call.argument),
            Some(Builtin::ProgramIs) => self.program_kind(&call.argument),
            Some(Builtin::StdinFrom) => self
                .condition(&call.argument)
                .map(|inner| ShellCondition::StdinFrom(Box::new(inner))),
            Some(Builtin::StdoutTo) => self
                .condition(&call.argument)
                .map(|inner| ShellCondition::StdoutTo(Box::new(inner))),
            Some(Builtin::Shell | Builtin::ShellAll) => {
                self.error(
                    call.name.span,
                    "a shell condition cannot hold another one".to_owned(),
                    "nested here",
                    "write the inner condition directly; it is tested on the same command",
                );
                None
            }
            _ => {
                self.diags.push(misplaced_call(
                    self.file,
                    call.name.span,
                    &name,
                    BuiltinScope::ShellCommand,
                ));
                None
            }
        }
    }

    /// `flag("-r")`, `flag("--force")`
    fn flag(&mut self, argument: &Expr) -> Option<ShellCondition> {
        let flag = match argument {
            Expr::Lit(lit) => self.string(lit),
            _ => None,
        };
        match flag {
            Some(flag) if is_flag(&flag) => Some(ShellCondition::Flag(flag)),
            _ => {
                self.error(
                    argument.span(),
                    "`flag(...)` takes one flag as a string, with its dashes".to_owned(),
                    "not a flag",
                    "write a short flag as `flag(\"-r\")` and a long one as `flag(\"--force\")`",
                );
                None
            }
        }
    }

    /// `program_is("shell")`: the program is of a kind the shell reader's table knows
    fn program_kind(&mut self, argument: &Expr) -> Option<ShellCondition> {
        let name = match argument {
            Expr::Lit(lit) => self.string(lit),
            _ => None,
        };
        match name {
            Some(name) if rulesc_runtime::shell_program_kind(&name).is_some() => {
                Some(ShellCondition::Word {
                    word: ShellWord::Program,
                    test: WordTest::Kind(name),
                })
            }
            _ => {
                let kinds: Vec<String> = rulesc_runtime::SHELL_PROGRAM_KINDS
                    .iter()
                    .map(|kind| format!("`\"{}\"`", kind.name))
                    .collect();
                self.error(
                    argument.span(),
                    "`program_is(...)` takes the name of a kind of program as a string".to_owned(),
                    "not a kind of program",
                    &format!("the kinds are {}", kinds.join(", ")),
                );
                None
            }
        }
    }

    fn string(&mut self, lit: &Lit) -> Option<String> {
        match &lit.kind {
            LitKind::Str(raw) => types::decode_str(raw, lit.span).ok(),
            _ => None,
        }
    }

    fn compare(&mut self, compare: &Compare) -> Option<ShellCondition> {
        let name = match &compare.left {
            Operand::Path(path) => dotted(path),
            Operand::Lit(_) | Operand::Arith(_) | Operand::Group(..) | Operand::Trace(_) => {
                "a value".to_owned()
            }
        };
        let Some(word) = ShellWord::from_name(&name) else {
            let name = match &compare.left {
                Operand::Path(_) => format!("`{name}`"),
                Operand::Lit(_) | Operand::Arith(_) | Operand::Group(..) | Operand::Trace(_) => {
                    name
                }
            };
            self.error(
                compare.left.span(),
                format!("{name} is not a word of a shell command"),
                "not a word of the command",
                &words_to_compare(),
            );
            return None;
        };
        let test = self.test(compare)?;
        let condition = ShellCondition::Word { word, test };
        Some(if matches!(compare.op, Op::Ne | Op::NeIgnoringCase) {
            ShellCondition::Not(Box::new(condition))
        } else {
            condition
        })
    }

    /// The test of a comparison: its operator and its string (or list of strings)
    fn test(&mut self, compare: &Compare) -> Option<WordTest> {
        let right = match &compare.right {
            Operand::Lit(lit) => Some(lit),
            Operand::Path(_) | Operand::Arith(_) | Operand::Group(..) | Operand::Trace(_) => None,
        };
        if compare.op == Op::In {
            let items = match right.map(|lit| &lit.kind) {
                Some(LitKind::List(items)) => items
                    .iter()
                    .map(|item| self.string(item))
                    .collect::<Option<Words>>(),
                _ => None,
            };
            if items.is_none() {
                self.error(
                    compare.right.span(),
                    "`in` needs a list of strings here".to_owned(),
                    "not a list of strings",
                    "write the words in brackets: `program in [\"sh\", \"bash\"]`",
                );
            }
            return items.map(WordTest::In);
        }
        let Some(text) = right.and_then(|lit| self.string(lit)) else {
            self.error(
                compare.right.span(),
                format!("`{}` needs a string here", compare.op.symbol()),
                "not a string",
                "write the word or pattern in quotes: `program == \"rm\"`",
            );
            return None;
        };
        let span = compare.right.span();
        match compare.op {
            Op::Eq | Op::Ne => Some(WordTest::Equals(text)),
            Op::Contains => Some(WordTest::Contains(text)),
            // A word equal to a text ignoring case is a word the text, escaped, matches as
            // a glob that ignores case.
            Op::EqIgnoringCase | Op::NeIgnoringCase => {
                match GlobPattern::ignoring_case(&escape_glob(&text)) {
                    Ok(pattern) => Some(WordTest::Glob(pattern)),
                    Err(err) => {
                        self.diags
                            .push(codes::invalid_glob(self.file, span, &err.message));
                        None
                    }
                }
            }
            Op::Glob | Op::GlobIgnoringCase => {
                if has_brace_alternation(&text) {
                    self.diags
                        .push(codes::literal_braces_in_glob(self.file, span, &text));
                }
                if let Some(suggested) = spelt_both_cases(&text).filter(|_| compare.op == Op::Glob)
                {
                    self.diags
                        .push(codes::glob_spells_both_cases(self.file, span, &suggested));
                }
                let pattern = if compare.op == Op::Glob {
                    GlobPattern::new(&text)
                } else {
                    GlobPattern::ignoring_case(&text)
                };
                match pattern {
                    Ok(pattern) => Some(WordTest::Glob(pattern)),
                    Err(err) => {
                        self.diags
                            .push(codes::invalid_glob(self.file, span, &err.message));
                        None
                    }
                }
            }
            Op::Regex => match RegexPattern::new(&text) {
                Ok(pattern) => Some(WordTest::Regex(pattern)),
                Err(err) => {
                    self.diags
                        .push(codes::invalid_regex(self.file, span, &err.message));
                    None
                }
            },
            Op::From => {
                self.error(
                    compare.op_span,
                    "`from` reads a field of the event, not a word of a command".to_owned(),
                    "not a shell test",
                    "test the field outside `shell(...)`: `arg.command from \"untrusted\"`",
                );
                None
            }
            Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::In => {
                self.error(
                    compare.op_span,
                    format!(
                        "words of a command are not ordered, so `{}` does not apply",
                        compare.op.symbol()
                    ),
                    "no order",
                    "use `==`, `!=`, `~`, `=~`, `in`, `contains` or the tests that ignore case, `==*`, `!=*` and `~*`",
                );
                None
            }
        }
    }
}

/// Whether `text` is written as a flag: `-r` (one character) or `--name`
fn is_flag(text: &str) -> bool {
    match text.strip_prefix("--") {
        Some(long) => !long.is_empty() && !long.contains('='),
        None => text
            .strip_prefix('-')
            .is_some_and(|short| short.chars().count() == 1),
    }
}

/// `text` as a glob that matches it alone: every character of a glob's syntax escaped
fn escape_glob(text: &str) -> String {
    let mut glob = String::with_capacity(text.len());
    for ch in text.chars() {
        if matches!(ch, '*' | '?' | '[' | ']' | '\\') {
            glob.push('\\');
        }
        glob.push(ch);
    }
    glob
}

/// The help of a comparison that names no word: every word of a command, from the
/// vocabulary's own list
fn words_to_compare() -> String {
    let names: Vec<String> = ShellWord::ALL
        .iter()
        .map(|word| format!("`{}`", word.name()))
        .collect();
    match names.split_last() {
        Some((last, rest)) => format!("compare {} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// E040 for a call named `name`, written at `span` in `scope`, that is no builtin there
fn misplaced_call(file: FileId, span: Span, name: &str, scope: BuiltinScope) -> Diagnostic {
    let what = match scope {
        BuiltinScope::Condition => "condition",
        BuiltinScope::ShellCommand => "shell condition",
    };
    let (message, label) = if BuiltinRow::named(name).is_some() {
        (
            format!("`{name}(...)` is not a {what} here"),
            "a builtin written otherwise",
        )
    } else {
        (format!("there is no {what} `{name}(...)`"), "unknown name")
    };
    codes::invalid_shell_condition(
        file,
        span,
        message,
        label,
        &misplaced_call_help(name, scope),
    )
}

/// The help of a call that is no builtin of `scope`: how the builtin of that name is written,
/// where it is one, else the nearest name, else the calls of `scope` that hold a condition
fn misplaced_call_help(name: &str, scope: BuiltinScope) -> String {
    let calls = || BuiltinRow::in_scope(scope).filter(|row| row.is_call());
    let Some(row) = BuiltinRow::named(name) else {
        if let Some(near) = resolve::suggest(name, calls().map(|row| row.name)) {
            return format!("did you mean `{near}(...)`?");
        }
        let names: Vec<String> = calls()
            .filter(|row| !matches!(row.arguments, BuiltinArguments::Counted { .. }))
            .map(|row| format!("`{}(...)`", row.name))
            .collect();
        return match scope {
            BuiltinScope::Condition => format!("test a shell command with {}", or_list(&names)),
            BuiltinScope::ShellCommand => {
                format!("inside `shell(...)` the calls are {}", and_list(&names))
            }
        };
    };
    match row.arguments {
        // `any` and `all` quantify a comparison without parentheses (docs/expressions.md).
        BuiltinArguments::Comparison => "write the comparison after the word, without \
             parentheses: `any arg.to ~ \"*@evil.example\"`; test a shell command with \
             `shell(...)`"
            .to_owned(),
        _ if row.scope != scope => {
            format!("`{}` is written {}", row.signature(), row.scope.described())
        }
        _ => hint::written_as(row),
    }
}
