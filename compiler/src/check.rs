//! The check of a whole policy set: parse every file, lower every item, check what spans
//! files (ids, defaults, test names), lint, and build the runtime policy.
//!
//! Invariant: every error of every file is reported, sorted by (file, offset, code), and
//! [`Checked::policy`] is `Some` exactly when there is no error.

use std::collections::{BTreeMap, HashSet};

use rulesc_grammar::{
    Annotation, DefaultDecl, Item, Lit, LitKind, ParseError, Parsed, RuleDecl, Span,
};
use rulesc_runtime::{
    Defaults, EventKind, Mode, Policy, PolicyError, Verb, MAX_RULES, NO_TOOL_CALLS,
    RESOLVED_BY_DEFAULT, RESOLVED_BY_MAX_RETRIES, RESOLVED_BY_MAX_STEPS,
    RESOLVED_BY_MAX_STOP_REQUESTS, TOOL_ERRORS_TO_MODEL,
};

use crate::codes;
use crate::diagnostic::{Diagnostic, Label};
use crate::hint;
use crate::layer::{self, DeclaredDefault};
use crate::lint::{self, HostFacts};
use crate::lower::{self, LoweredRule};
use crate::resolve;
use crate::source::{FileId, Layer, LineIndex, SourceFile};
use crate::test_block::{self, LoweredTest, TestCase};

/// What checking a policy set found
#[derive(Debug, Clone)]
pub struct Checked {
    /// The compiled policy; `Some` exactly when no diagnostic is an error
    pub policy: Option<Policy>,
    /// The inline tests that checked, in file and source order
    pub tests: Vec<TestCase>,
    /// Every error and warning, sorted by file, offset and code
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    /// Whether any diagnostic is an error
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// A file as read from disk, before it is known to be UTF-8 text
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceBytes {
    /// As [`SourceFile::name`]
    pub name: String,
    /// As [`SourceFile::path`]
    pub path: String,
    /// The file's bytes
    pub bytes: Vec<u8>,
    /// As [`SourceFile::layer`]
    pub layer: Layer,
}

/// Checks a policy set: the files are compiled together, as one set of rules
pub fn check(files: &[SourceFile]) -> Checked {
    check_files(files, Vec::new(), None)
}

/// [`check`], with the lints that know the host the policy will run under (`W008`–`W010`):
/// events it never sends, decisions its answers cannot carry, fields its calls never fill
pub fn check_for_host(files: &[SourceFile], host: &dyn HostFacts) -> Checked {
    check_files(files, Vec::new(), Some(host))
}

/// Checks files read as bytes: a file that is not UTF-8 is an `E004` diagnostic, not a
/// failure. Returns the files as text (a non-UTF-8 file lossily, for rendering its
/// diagnostic) with what the check found; diagnostics point into the returned files.
pub fn check_bytes(inputs: Vec<SourceBytes>) -> (Vec<SourceFile>, Checked) {
    check_bytes_for(inputs, None)
}

/// [`check_bytes`], with the host lints of [`check_for_host`] when `host` is given
pub fn check_bytes_for(
    inputs: Vec<SourceBytes>,
    host: Option<&dyn HostFacts>,
) -> (Vec<SourceFile>, Checked) {
    let mut files = Vec::with_capacity(inputs.len());
    let mut not_text = Vec::new();
    for (idx, input) in inputs.into_iter().enumerate() {
        let text = match String::from_utf8(input.bytes) {
            Ok(text) => text,
            Err(err) => {
                let offset = u32::try_from(err.utf8_error().valid_up_to()).unwrap_or(u32::MAX);
                not_text.push(codes::invalid_utf8(FileId::from_index(idx), offset));
                String::from_utf8_lossy(err.as_bytes()).into_owned()
            }
        };
        files.push(SourceFile::new(input.name, input.path, text).in_layer(input.layer));
    }
    let checked = check_files(&files, not_text, host);
    (files, checked)
}

/// Checks `files`, of which those named by `not_text` diagnostics are not parsed
fn check_files(
    files: &[SourceFile],
    not_text: Vec<Diagnostic>,
    host: Option<&dyn HostFacts>,
) -> Checked {
    let parsed: Vec<(FileId, &SourceFile, Parsed)> = files
        .iter()
        .enumerate()
        .map(|(idx, source)| {
            let file = FileId::from_index(idx);
            let skip = not_text.iter().any(|diag| diag.primary.file == file);
            let tree = if skip {
                Parsed::default()
            } else {
                rulesc_grammar::parse(&source.text)
            };
            (file, source, tree)
        })
        .collect();
    if let Some(past) = rule_past_the_limit(&parsed) {
        // Checking grows with the number of rules: report the limit and nothing else.
        let mut diagnostics = not_text;
        diagnostics.push(past);
        diagnostics.sort_by(|left, right| left.sort_key().cmp(&right.sort_key()));
        return Checked {
            policy: None,
            tests: Vec::new(),
            diagnostics,
        };
    }
    let mut set = SetCheck {
        diags: not_text,
        ..<SetCheck as Default>::default()
    };
    for (file, source, tree) in &parsed {
        set.file(*file, source, tree);
    }
    set.duplicate_ids();
    set.tests();
    let SetCheck {
        mut diags,
        rules,
        defaults,
        tests,
        declared_defaults,
        ..
    } = set;
    let layers: Vec<Layer> = files.iter().map(|file| file.layer).collect();
    diags.extend(layer::check(&layers, &rules, &declared_defaults));
    diags.extend(lint::run(&lint::Context {
        rules: &rules,
        tests: &tests,
        host,
    }));
    diags.sort_by(|left, right| left.sort_key().cmp(&right.sort_key()));
    let has_errors = diags.iter().any(Diagnostic::is_error);
    let (rules, defaults) =
        layer::without_project_approvals(&layers, rules, defaults, &declared_defaults);
    let policy = if has_errors {
        None
    } else {
        let shadow: Vec<String> = rules
            .iter()
            .filter(|lowered| lowered.mode == Mode::Shadow)
            .map(|lowered| lowered.rule.id.clone())
            .collect();
        let checked = rules.iter().map(|lowered| lowered.rule.clone()).collect();
        match Policy::from_checked(checked, defaults) {
            Ok(policy) => Some(policy.with_shadow_rules(shadow)),
            Err(err) => {
                diags.push(refused(&err, &rules));
                None
            }
        }
    };
    Checked {
        policy,
        tests: tests.into_iter().map(|test| test.case).collect(),
        diagnostics: diags,
    }
}

/// E038 at the first rule past [`MAX_RULES`], counting the rules of every file in order
fn rule_past_the_limit(parsed: &[(FileId, &SourceFile, Parsed)]) -> Option<Diagnostic> {
    let mut rules = parsed.iter().flat_map(|(file, _, tree)| {
        tree.file.items.iter().filter_map(move |item| match item {
            Item::Rule(decl) => Some((*file, decl.on_span)),
            _ => None,
        })
    });
    let (file, span) = rules.nth(MAX_RULES)?;
    let count = MAX_RULES + 1 + rules.count();
    Some(codes::too_many_rules(file, span, count, MAX_RULES))
}

/// What the runtime refused of the set of checked rules, at the rule it names when there is
/// one: only what the whole set can tell (an id used twice, the number of rules, the
/// defaults), which the set's own checks report first
fn refused(err: &PolicyError, rules: &[LoweredRule]) -> Diagnostic {
    let named = match err {
        PolicyError::DuplicateId(rule) => Some(rule.as_str()),
        _ => None,
    };
    let place = named
        .and_then(|id| rules.iter().rev().find(|lowered| lowered.rule.id == id))
        .map_or((FileId(0), Span::default()), |lowered| {
            (lowered.file, lowered.spans.rule)
        });
    codes::refused(place.0, place.1, err)
}

/// A rule id as declared, before the rule is known to check
#[derive(Debug)]
pub(crate) struct DeclaredId {
    pub(crate) id: String,
    file: FileId,
    /// The `@id` string, or the `on` keyword of a rule named by its line
    pub(crate) span: Span,
}

/// The first default seen for an event
#[derive(Debug, Clone, Copy)]
struct FirstDefault {
    verb: Verb,
    file: FileId,
    span: Span,
}

/// What is gathered across the files of a set
#[derive(Default)]
struct SetCheck {
    diags: Vec<Diagnostic>,
    rules: Vec<LoweredRule>,
    declared_ids: Vec<DeclaredId>,
    defaults: Defaults,
    first_defaults: BTreeMap<EventKind, FirstDefault>,
    /// Every valid default, in the order declared, for the layers' check
    declared_defaults: Vec<DeclaredDefault>,
    tests: Vec<LoweredTest>,
    test_files: Vec<FileId>,
    has_syntax_errors: bool,
}

impl SetCheck {
    fn file(&mut self, file: FileId, source: &SourceFile, tree: &Parsed) {
        let lines = LineIndex::new(&source.text);
        for error in &tree.errors {
            self.has_syntax_errors = true;
            self.diags.push(match error {
                ParseError::Syntax(syntax) => {
                    let diag =
                        codes::syntax_error(file, syntax.span, &syntax.expected, &syntax.found);
                    match hint::syntax_help(&source.text, syntax) {
                        Some(help) => diag.with_help(help),
                        None => diag,
                    }
                }
                ParseError::TooDeep { span, limit } => codes::nesting_too_deep(file, *span, *limit),
                ParseError::TooLarge { size, limit } => codes::file_too_large(file, *size, *limit),
            });
        }
        let mut first_header: Option<Span> = None;
        for (item_idx, item) in tree.file.items.iter().enumerate() {
            match item {
                Item::Header(header) => {
                    if let Some(first) = first_header {
                        self.diags
                            .push(codes::repeated_header(file, header.span, first));
                    } else if item_idx > 0 {
                        let first_item = tree.file.items.first().map_or(header.span, Item::span);
                        self.diags
                            .push(codes::header_not_first(file, header.span, first_item));
                    }
                    first_header.get_or_insert(header.span);
                    crate::literal::string(
                        file,
                        &header.name.raw,
                        header.name.span,
                        &mut self.diags,
                    );
                }
                Item::Default(default) => self.default_decl(file, default),
                Item::Rule(decl) => {
                    if let Some(id) = declared_id(file, source, &lines, decl) {
                        self.declared_ids.push(id);
                    }
                    if let Some(rule) =
                        lower::lower_rule(file, source, &lines, decl, &mut self.diags)
                    {
                        self.rules.push(rule);
                    }
                }
                Item::Test(block) => {
                    if let Some(test) =
                        test_block::lower_test(file, source, &lines, block, &mut self.diags)
                    {
                        self.tests.push(test);
                        self.test_files.push(file);
                    }
                }
            }
        }
    }

    fn default_decl(&mut self, file: FileId, default: &DefaultDecl) {
        let event = resolve::event(file, &default.event, &mut self.diags);
        let verb = resolve::verb(file, &default.verb, &mut self.diags);
        let (Some(event), Some(verb)) = (event, verb) else {
            return;
        };
        let Some(allowed) = Defaults::verbs_for(event) else {
            self.diags.push(codes::event_without_default(
                file,
                default.event.span,
                event,
            ));
            return;
        };
        if !allowed.contains(&verb) {
            self.diags.push(codes::verb_not_default(
                file,
                default.verb.span,
                event,
                verb,
                allowed,
            ));
            return;
        }
        self.declared_defaults.push(DeclaredDefault {
            event,
            verb,
            file,
            span: default.span,
        });
        match self.first_defaults.get(&event) {
            Some(first) if first.verb != verb => self.diags.push(codes::conflicting_defaults(
                file,
                default.span,
                event,
                (first.verb, verb),
                (first.file, first.span),
            )),
            Some(_) => {}
            None => {
                self.first_defaults.insert(
                    event,
                    FirstDefault {
                        verb,
                        file,
                        span: default.span,
                    },
                );
                if let Some(defaults) = self.defaults.with(event, verb) {
                    self.defaults = defaults;
                }
            }
        }
    }

    /// E030 for every id declared a second time, pointing at the first declaration
    fn duplicate_ids(&mut self) {
        let mut first: BTreeMap<&str, (FileId, Span)> = BTreeMap::new();
        for declared in &self.declared_ids {
            match first.get(declared.id.as_str()) {
                Some(place) => self.diags.push(codes::duplicate_rule_id(
                    declared.file,
                    declared.span,
                    &declared.id,
                    *place,
                )),
                None => {
                    first.insert(&declared.id, (declared.file, declared.span));
                }
            }
        }
    }

    /// E036 for test names used twice and `by` ids that no rule has
    fn tests(&mut self) {
        let mut first: BTreeMap<&str, (FileId, Span)> = BTreeMap::new();
        for (test, file) in self.tests.iter().zip(&self.test_files) {
            let name = test.case.name.as_str();
            match first.get(name) {
                Some(place) => self.diags.push(
                    codes::invalid_test(
                        *file,
                        test.name_span,
                        format!("test name `{name}` is used twice"),
                        "second use",
                        Some("give each test its own name".to_owned()),
                    )
                    .with_secondary(Label::new(
                        place.0,
                        place.1,
                        "first used here",
                    )),
                ),
                None => {
                    first.insert(name, (*file, test.name_span));
                }
            }
        }
        // A rule that did not parse has no id: naming it in `by` is not a second mistake.
        if self.has_syntax_errors {
            return;
        }
        let runtime_ids = [
            NO_TOOL_CALLS,
            TOOL_ERRORS_TO_MODEL,
            RESOLVED_BY_DEFAULT,
            RESOLVED_BY_MAX_STEPS,
            RESOLVED_BY_MAX_RETRIES,
            RESOLVED_BY_MAX_STOP_REQUESTS,
        ];
        let known: Vec<&str> = self
            .declared_ids
            .iter()
            .map(|declared| declared.id.as_str())
            .chain(runtime_ids)
            .collect();
        // Looked up by hash, and searched in order for a suggestion.
        let known_set: HashSet<&str> = known.iter().copied().collect();
        for (test, file) in self.tests.iter().zip(&self.test_files) {
            for (id, span) in &test.by_ids {
                if known_set.contains(id.as_str()) {
                    continue;
                }
                let suggestion = resolve::suggest(id, known.iter().copied());
                self.diags.push(codes::invalid_test(
                    *file,
                    *span,
                    format!("no rule has the id `{id}`"),
                    "unknown rule id",
                    Some(suggestion.map_or_else(
                        || {
                            "name a rule by its `@id`, or by `file:line` when it has none"
                                .to_owned()
                        },
                        |near| format!("did you mean `{near}`?"),
                    )),
                ));
            }
        }
    }
}

/// The id a rule declares: its `@id` string, or `name:line` of its `on` keyword; `None`
/// when its `@id` is malformed (reported by lowering)
pub(crate) fn declared_id(
    file: FileId,
    source: &SourceFile,
    lines: &LineIndex,
    decl: &RuleDecl,
) -> Option<DeclaredId> {
    let id_annotation = decl
        .annotations
        .iter()
        .find(|annotation| annotation.name.name == "id");
    match id_annotation {
        Some(Annotation { args, .. }) => match args.as_slice() {
            [Lit {
                kind: LitKind::Str(raw),
                span,
            }] => crate::types::decode_str(raw, *span)
                .ok()
                .map(|id| DeclaredId {
                    id,
                    file,
                    span: *span,
                }),
            _ => None,
        },
        None => Some(DeclaredId {
            id: lower::default_id(source, lines, decl),
            file,
            span: decl.on_span,
        }),
    }
}
