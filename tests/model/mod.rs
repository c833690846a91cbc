//! A reference model of one event's evaluation, written from the contract alone
//! (docs/language.md §4.4, §5 and §8, docs/cli.md "Outcome output", and the readings of
//! docs/semantics.md), to hold the runtime to it.
//!
//! It shares the runtime's data (rules, conditions, events) but none of its evaluation:
//! it reads fields, compares values, matches globs, picks the deciding rule and applies
//! effects its own naive way, rule by rule, with no index. Where the two disagree, the
//! contract decides which one is wrong.
//!
//! Its output is the outcome's JSON as docs/cli.md shows it, so a test compares everything a
//! user of `rulesc eval` sees.

#![allow(
    dead_code,
    unreachable_pub,
    reason = "each test binary uses a part of the model"
)]

pub mod gen;
pub mod glob;
pub mod trace;

use std::cmp::Ordering;

use rulesc_runtime::{
    Action, ArithOp, CompareOp, Condition, Defaults, Event, EventKind, Field, FieldPath, LabelStep,
    Limits, ListQuantifier, Literal, Operand, PathSegment, Rule, StopReason, Verb,
};
use serde_json::{json, Map, Value as Json};

/// What the model needs besides the rules: the defaults and the host limits
#[derive(Debug, Clone, Default)]
pub struct Setting {
    /// `default pre_tool_use <verb>`
    pub default_tool: Option<Verb>,
    /// `default on_error <verb>`
    pub default_error: Option<Verb>,
    /// `max_retries` (docs/cli.md: 3 unless set)
    pub max_retries: u64,
    /// `max_stop_requests` (docs/language.md §5.6: 8 unless set)
    pub max_stop_requests: u64,
    /// The ids of the rules in shadow mode (`@mode(shadow)`, docs/shadow.md)
    pub shadow: Vec<String>,
}

impl Setting {
    /// No defaults, the host limits of docs/cli.md
    pub fn contract() -> Setting {
        Setting {
            default_tool: None,
            default_error: None,
            max_retries: 3,
            max_stop_requests: 8,
            shadow: Vec::new(),
        }
    }
}

impl Setting {
    /// The defaults and limits a runtime policy was built with, read from its data
    pub fn of(defaults: &Defaults, limits: &Limits) -> Setting {
        Setting {
            default_tool: defaults.pre_tool_use,
            default_error: defaults.on_error,
            max_retries: limits.max_retries,
            max_stop_requests: limits.max_stop_requests,
            shadow: Vec::new(),
        }
    }
}

/// The two built-in rules of docs/language.md §8, written from its text
pub fn prelude() -> Vec<Rule> {
    let rule = |id: &str, event, condition, verb, stop_reason| Rule {
        id: id.to_owned(),
        events: vec![event],
        condition: Some(condition),
        action: Action::Decide {
            verb,
            stop_reason,
            message: None,
        },
        priority: 0,
        origin: None,
    };
    vec![
        rule(
            "prelude:no-tool-calls",
            EventKind::AfterStep,
            Condition::Compare {
                left: Operand::Field(Field::ToolCalls),
                op: CompareOp::Eq,
                right: Operand::Literal(Literal::Int(0)),
            },
            Verb::AllowStop,
            Some(StopReason::Completed),
        ),
        rule(
            "prelude:tool-errors-to-model",
            EventKind::OnError,
            Condition::In {
                field: Field::ErrorKind,
                list: vec![
                    Literal::Str("tool".to_owned()),
                    Literal::Str("tool_blocked".to_owned()),
                ],
            },
            Verb::Ignore,
            None,
        ),
    ]
}

/// The run an event is evaluated in: its events so far as they were (the event itself last),
/// and the content labelled before it, as (label, text)
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    /// The events so far, the current one last
    pub history: &'a [Event],
    /// Every `label result` applied before the current event
    pub labels: &'a [(String, String)],
}

/// The outcome JSON of one event under `rules` (the user's; the model adds its prelude),
/// as the only event of its run
pub fn outcome(rules: &[Rule], setting: &Setting, event: &Event) -> Json {
    let run = Run {
        history: std::slice::from_ref(event),
        labels: &[],
    };
    outcome_in(rules, setting, event, &run)
}

/// What `event`'s outcome labels: under each label of a matched `label result` rule, the
/// tool's result text, or for `label result.<path>` each value the path finds in the result's
/// JSON (a string as it is, other JSON as its compact text; a missing key, a key of a list
/// or an element of an object finds nothing) (docs/trace.md)
pub fn labelled(rules: &[Rule], outcome: &Json, event: &Event) -> Vec<(String, String)> {
    let Some(result) = &event.result else {
        return Vec::new();
    };
    let matched = outcome["evaluations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    matched
        .iter()
        .filter(|evaluation| evaluation["verb"] == "label")
        .filter_map(|evaluation| {
            rules
                .iter()
                .find(|rule| evaluation["rule"] == rule.id.as_str())
        })
        .flat_map(|rule| match &rule.action {
            Action::Label { label, path } if path.is_empty() => {
                vec![(label.clone(), result.text().to_owned())]
            }
            Action::Label { label, path } => {
                let mut found = Vec::new();
                if let Some(json) = result.json() {
                    values_at(json, path, &mut found);
                }
                found
                    .into_iter()
                    .map(|value| match value {
                        Json::String(text) => (label.clone(), text.clone()),
                        other => (label.clone(), other.to_string()),
                    })
                    .collect()
            }
            _ => Vec::new(),
        })
        .collect()
}

/// The values at `path` in `json`, in document order
fn values_at<'j>(json: &'j Json, path: &[LabelStep], found: &mut Vec<&'j Json>) {
    let Some((step, rest)) = path.split_first() else {
        found.push(json);
        return;
    };
    match (step, json) {
        (LabelStep::Key(key), Json::Object(fields)) => {
            if let Some(value) = fields.get(key) {
                values_at(value, rest, found);
            }
        }
        (LabelStep::Index(index), Json::Array(items)) => {
            if let Some(item) = usize::try_from(*index).ok().and_then(|at| items.get(at)) {
                values_at(item, rest, found);
            }
        }
        (LabelStep::Each, Json::Array(items)) => {
            for item in items {
                values_at(item, rest, found);
            }
        }
        _ => {}
    }
}

/// The outcome JSON of `event`, the last of `run`'s history
pub fn outcome_in(rules: &[Rule], setting: &Setting, event: &Event, run: &Run<'_>) -> Json {
    let prelude = prelude();
    let mut matched: Vec<&Rule> = rules
        .iter()
        .chain(&prelude)
        .filter(|rule| rule.events.contains(&event.kind))
        .filter(|rule| {
            rule.condition
                .as_ref()
                .is_none_or(|c| holds_in(c, event, run))
        })
        .collect();
    matched.sort_by(|a, b| a.id.as_bytes().cmp(b.id.as_bytes()));
    // A shadow rule is listed apart and takes part in nothing else (docs/shadow.md).
    let (watched, matched): (Vec<&Rule>, Vec<&Rule>) = matched
        .into_iter()
        .partition(|rule| setting.shadow.contains(&rule.id));

    let evaluations: Vec<Json> = matched.iter().map(|rule| evaluation(rule)).collect();
    let decisions: Vec<Decided<'_>> = matched
        .iter()
        .filter_map(|rule| match &rule.action {
            Action::Decide {
                verb,
                stop_reason,
                message,
            } => Some(Decided {
                rule,
                verb: *verb,
                stop_reason: stop_reason.or_else(|| default_reason(*verb)),
                message: message.clone(),
            }),
            Action::Set { .. } | Action::Compute { .. } | Action::Label { .. } => None,
        })
        .collect();
    let verdict = resolve(event, &decisions, setting);

    // Effects: priority high to low, then id; the last one applied wins (§4.3).
    let mut setters: Vec<&Rule> = matched
        .iter()
        .copied()
        .filter(|rule| matches!(rule.action, Action::Set { .. } | Action::Compute { .. }))
        .collect();
    setters.sort_by(|a, b| {
        b.priority
            .cmp(&a.priority)
            .then_with(|| a.id.as_bytes().cmp(b.id.as_bytes()))
    });
    let mut metadata = event.metadata.clone();
    let mut effects = Vec::new();
    for rule in setters {
        // A computed value reads the event as it came (docs/expressions.md), never the
        // metadata the effects before it stored; one with no value stores nothing.
        let (key, value) = match &rule.action {
            Action::Set { key, value } => (key, literal_json(value)),
            Action::Compute { key, value } => match arith(value, event) {
                Some(number) => (key, json!(number)),
                None => continue,
            },
            Action::Decide { .. } | Action::Label { .. } => continue,
        };
        store(&mut metadata, key, value.clone());
        effects.push(json!({"rule": rule.id, "key": dotted(key), "value": value}));
    }

    let mut outcome = json!({
        "event": event.kind.name(),
        "decision": verdict.decision,
        "stop_reason": verdict.stop_reason.map(StopReason::name),
        "message": verdict.message,
        "resolved_by": verdict.resolved_by,
        "evaluations": evaluations,
        "effects": effects,
        "metadata": metadata,
    });
    if !watched.is_empty() {
        let shadow: Vec<Json> = watched.iter().map(|rule| evaluation(rule)).collect();
        if let Some(object) = outcome.as_object_mut() {
            object.insert("shadow".to_owned(), Json::Array(shadow));
        }
    }
    outcome
}

/// The outcomes of `events` as successive events of one execution: each starts from the
/// metadata the previous one left, its own keys laid over it, and an event without a prompt
/// has the last prompt given, each prompt being content of the source `from prompt` reads
/// (docs/semantics.md, docs/trace.md)
pub fn execution(rules: &[Rule], setting: &Setting, events: &[Event]) -> Vec<Json> {
    let mut carried = Map::new();
    let mut outcomes = Vec::new();
    let mut history = Vec::new();
    let mut labels = Vec::new();
    let mut prompt: Option<String> = None;
    for event in events {
        let mut event = event.clone();
        let mut metadata = carried.clone();
        metadata.extend(std::mem::take(&mut event.metadata));
        event.metadata = metadata;
        match &event.prompt {
            Some(given) => {
                if prompt.as_ref() != Some(given) {
                    labels.push((rulesc_runtime::PROMPT_SOURCE.to_owned(), given.clone()));
                }
                prompt = Some(given.clone());
            }
            None => event.prompt.clone_from(&prompt),
        }
        history.push(event.clone());
        let run = Run {
            history: &history,
            labels: &labels,
        };
        let outcome = outcome_in(rules, setting, &event, &run);
        labels.extend(labelled(rules, &outcome, &event));
        carried = outcome
            .get("metadata")
            .and_then(Json::as_object)
            .cloned()
            .unwrap_or_default();
        outcomes.push(outcome);
    }
    outcomes
}

/// One entry of `evaluations` (docs/cli.md), a `set` rule as `"verb": "set"`
fn evaluation(rule: &Rule) -> Json {
    let (verb, stop_reason, message) = match &rule.action {
        Action::Decide {
            verb,
            stop_reason,
            message,
        } => (
            verb.name(),
            stop_reason.or_else(|| default_reason(*verb)),
            message.clone(),
        ),
        Action::Set { .. } | Action::Compute { .. } => ("set", None, None),
        Action::Label { .. } => ("label", None, None),
    };
    json!({
        "rule": rule.id,
        "verb": verb,
        "stop_reason": stop_reason.map(StopReason::name),
        "message": message,
        "file": rule.origin.as_ref().map(|o| o.file.clone()),
        "line": rule.origin.as_ref().map(|o| o.line),
        "priority": rule.priority,
    })
}

/// §4.2: `guard_forbade` for `forbid`, `completed` for `allow_stop`, none for the rest
fn default_reason(verb: Verb) -> Option<StopReason> {
    match verb {
        Verb::Forbid => Some(StopReason::GuardForbade),
        Verb::AllowStop => Some(StopReason::Completed),
        _ => None,
    }
}

struct Decided<'a> {
    rule: &'a Rule,
    verb: Verb,
    stop_reason: Option<StopReason>,
    message: Option<String>,
}

/// The resolved part of an outcome
#[derive(Debug)]
struct Verdict {
    decision: &'static str,
    stop_reason: Option<StopReason>,
    message: Option<String>,
    resolved_by: Option<String>,
}

impl Verdict {
    fn none() -> Verdict {
        Verdict {
            decision: "none",
            stop_reason: None,
            message: None,
            resolved_by: None,
        }
    }

    fn by(decided: &Decided<'_>) -> Verdict {
        Verdict {
            decision: decided.verb.name(),
            stop_reason: decided.stop_reason,
            message: decided.message.clone(),
            resolved_by: Some(decided.rule.id.clone()),
        }
    }

    fn host(decision: &'static str, reason: StopReason, by: Option<&str>) -> Verdict {
        Verdict {
            decision,
            stop_reason: Some(reason),
            message: None,
            resolved_by: by.map(str::to_owned),
        }
    }

    fn default(verb: Verb) -> Verdict {
        Verdict {
            decision: verb.name(),
            // §5.3: a default `forbid` on `on_error` stops with `error_forbade`.
            stop_reason: match verb {
                Verb::Forbid => Some(StopReason::ErrorForbade),
                _ => None,
            },
            message: None,
            resolved_by: Some("default".to_owned()),
        }
    }
}

/// §5.5: among the rules with the verb, the highest priority, then the smallest id
fn pick<'a, 'b>(decisions: &'b [Decided<'a>], verb: Verb) -> Option<&'b Decided<'a>> {
    let mut best: Option<&Decided<'a>> = None;
    for decided in decisions.iter().filter(|d| d.verb == verb) {
        best = match best {
            None => Some(decided),
            Some(current) => {
                let better = decided.rule.priority > current.rule.priority
                    || (decided.rule.priority == current.rule.priority
                        && decided.rule.id.as_bytes() < current.rule.id.as_bytes());
                Some(if better { decided } else { current })
            }
        };
    }
    best
}

/// The first verb of `order` some rule decided, with its rule
fn first<'a, 'b>(decisions: &'b [Decided<'a>], order: &[Verb]) -> Option<&'b Decided<'a>> {
    order.iter().find_map(|verb| pick(decisions, *verb))
}

/// §5.1 to §5.6, per event
fn resolve(event: &Event, decisions: &[Decided<'_>], setting: &Setting) -> Verdict {
    use Verb::*;
    match event.kind {
        EventKind::PreToolUse => match first(decisions, &[Forbid, Block, Ask, Allow]) {
            Some(decided) => Verdict::by(decided),
            None => setting
                .default_tool
                .map_or_else(Verdict::none, Verdict::default),
        },
        EventKind::OnError => {
            let verdict = match first(decisions, &[Forbid, Retry, Ignore, Allow]) {
                Some(decided) => Verdict::by(decided),
                None => setting
                    .default_error
                    .map_or_else(Verdict::none, Verdict::default),
            };
            if verdict.decision == "retry" && event.retries >= setting.max_retries {
                Verdict::host(
                    "forbid",
                    StopReason::RetryLimitReached,
                    Some("host:max_retries"),
                )
            } else {
                verdict
            }
        }
        EventKind::Stop | EventKind::SubagentStop => {
            let pending_forbid = event.stop_decision.map(|d| d.name()) == Some("forbid");
            let pending = if pending_forbid {
                "forbid"
            } else {
                "allow_stop"
            };
            let reason = event.stop_reason.unwrap_or(if pending_forbid {
                StopReason::GuardForbade
            } else {
                StopReason::Completed
            });
            if let Some(forbid) = pick(decisions, Forbid) {
                return Verdict::by(forbid);
            }
            match pick(decisions, Request) {
                None => Verdict::host(pending, reason, None),
                Some(_) if pending_forbid => Verdict::host(pending, reason, None),
                Some(_) if event.stop_requests.unwrap_or(0) >= setting.max_stop_requests => {
                    Verdict::host(pending, reason, Some("host:max_stop_requests"))
                }
                Some(request) => Verdict::by(request),
            }
        }
        _ => first(decisions, &[Forbid, Request, AllowStop, Allow])
            .map_or_else(Verdict::none, Verdict::by),
    }
}

/// A value a condition meets
#[derive(Debug, Clone)]
enum Val {
    Int(i128),
    Float(f64),
    Str(String),
    Bool(bool),
    /// A list literal
    List(Vec<Val>),
    /// JSON that is not a scalar (`null`, an array, an object): only equality applies,
    /// and `contains` on an array
    Other(Json),
}

impl Val {
    fn of_json(json: &Json) -> Val {
        match json {
            Json::Bool(b) => Val::Bool(*b),
            Json::String(s) => Val::Str(s.clone()),
            Json::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(i), _, _) => Val::Int(i128::from(i)),
                (_, Some(u), _) => Val::Int(i128::from(u)),
                (_, _, Some(f)) => Val::Float(f),
                _ => Val::Other(json.clone()),
            },
            other => Val::Other(other.clone()),
        }
    }

    fn of_literal(literal: &Literal) -> Val {
        match literal {
            Literal::Bool(b) => Val::Bool(*b),
            Literal::Int(i) => Val::Int(i128::from(*i)),
            // Durations are milliseconds and meet numbers as numbers (docs/semantics.md).
            Literal::Duration(ms) => Val::Int(i128::from(*ms)),
            Literal::Str(s) => Val::Str(s.clone()),
            Literal::List(items) => Val::List(items.iter().map(Val::of_literal).collect()),
        }
    }

    fn number(&self) -> Option<f64> {
        match self {
            #[expect(clippy::cast_precision_loss, reason = "test values are small")]
            Val::Int(i) => Some(*i as f64),
            Val::Float(f) => Some(*f),
            _ => None,
        }
    }
}

/// A string case folded (docs/semantics.md: each character's uppercase, then its
/// lowercase); other values as they are
fn folded(value: &Val) -> Val {
    match value {
        Val::Str(text) => Val::Str(glob::fold(text)),
        other => other.clone(),
    }
}

/// Whether two values are equal; `None` when their types do not meet, which makes both
/// `==` and `!=` false (docs/semantics.md)
fn equal(left: &Val, right: &Val) -> Option<bool> {
    match (left, right) {
        (Val::Int(a), Val::Int(b)) => Some(a == b),
        (Val::Str(a), Val::Str(b)) => Some(a == b),
        (Val::Bool(a), Val::Bool(b)) => Some(a == b),
        (Val::List(a), Val::List(b)) => {
            if a.len() != b.len() {
                return Some(false);
            }
            let mut all = true;
            for (a, b) in a.iter().zip(b) {
                all &= equal(a, b)?;
            }
            Some(all)
        }
        (Val::Other(a), Val::Other(b)) => Some(json_equal(a, b)),
        (Val::List(list), Val::Other(Json::Array(items)))
        | (Val::Other(Json::Array(items)), Val::List(list)) => {
            let items: Vec<Val> = items.iter().map(Val::of_json).collect();
            equal(&Val::List(list.clone()), &Val::List(items))
        }
        (a, b) => Some(a.number()? == b.number()?),
    }
}

/// JSON equality where numbers compare by value; `null == null`
fn json_equal(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(_), Json::Number(_)) => a.as_f64() == b.as_f64(),
        (Json::Array(a), Json::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| json_equal(a, b))
        }
        (Json::Object(a), Json::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, v)| b.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// Whether a condition holds (§4.4 and docs/semantics.md "Conditions") on an event that is
/// the only one of its run
pub fn holds(condition: &Condition, event: &Event) -> bool {
    let run = Run {
        history: std::slice::from_ref(event),
        labels: &[],
    };
    holds_in(condition, event, &run)
}

/// Whether a condition holds on `event`, the last of `run`'s history (docs/trace.md)
pub fn holds_in(condition: &Condition, event: &Event, run: &Run<'_>) -> bool {
    match condition {
        Condition::All(parts) => parts.iter().all(|p| holds_in(p, event, run)),
        Condition::Any(parts) => parts.iter().any(|p| holds_in(p, event, run)),
        Condition::Not(part) => !holds_in(part, event, run),
        Condition::From { field, label } => {
            let text = match read(field, event) {
                Some(Val::Str(text)) => text,
                Some(Val::Other(json)) => json.to_string(),
                Some(Val::Int(int)) => int.to_string(),
                Some(Val::Float(float)) => float.to_string(),
                Some(Val::Bool(_) | Val::List(_)) | None => return false,
            };
            let contents: Vec<&str> = run
                .labels
                .iter()
                .filter(|(attached, _)| attached == label)
                .map(|(_, content)| content.as_str())
                .collect();
            trace::is_from(&contents, &text)
        }
        Condition::Trace(test) => {
            let value = trace::value(&test.term, run.history);
            match test.op {
                CompareOp::Eq | CompareOp::EqIgnoringCase => value == test.bound,
                CompareOp::Ne | CompareOp::NeIgnoringCase => value != test.bound,
                CompareOp::Lt => value < test.bound,
                CompareOp::Le => value <= test.bound,
                CompareOp::Gt => value > test.bound,
                CompareOp::Ge => value >= test.bound,
            }
        }
        Condition::Flag(field) => matches!(read(field, event), Some(Val::Bool(true))),
        Condition::Compare { left, op, right } => {
            let (Some(left), Some(right)) = (side(left, event), side(right, event)) else {
                return false;
            };
            compare(&left, *op, &right)
        }
        Condition::Glob { field, .. }
        | Condition::Regex { field, .. }
        | Condition::In { field, .. }
        | Condition::Contains { field, .. } => {
            read(field, event).is_some_and(|value| holds_on(condition, value, event))
        }
        // docs/expressions.md: each element of a JSON array, or the value itself; `all` of
        // no element holds, `any` does not; a missing field makes both false.
        Condition::Quantified {
            quantifier,
            condition,
        } => {
            let field = match condition.as_ref() {
                Condition::Compare {
                    left: Operand::Field(field),
                    ..
                }
                | Condition::Glob { field, .. }
                | Condition::Regex { field, .. }
                | Condition::In { field, .. }
                | Condition::Contains { field, .. } => field,
                _ => return false,
            };
            match read(field, event) {
                None => false,
                Some(Val::Other(Json::Array(items))) => {
                    let mut results = items
                        .iter()
                        .map(|item| holds_on(condition, Val::of_json(item), event));
                    match quantifier {
                        ListQuantifier::Any => results.any(|held| held),
                        ListQuantifier::All => !items.is_empty() && results.all(|held| held),
                    }
                }
                Some(value) => holds_on(condition, value, event),
            }
        }
        // Shell structure is held to references of its own (`tests/shell/`, `shell/tests/`);
        // the generator writes no shell condition.
        Condition::Shell { .. } => unreachable!("the model reads no shell conditions"),
    }
}

/// Whether `left op right` holds (§4.4)
fn compare(left: &Val, op: CompareOp, right: &Val) -> bool {
    match op {
        CompareOp::Eq => equal(left, right) == Some(true),
        CompareOp::Ne => equal(left, right) == Some(false),
        CompareOp::EqIgnoringCase => equal(&folded(left), &folded(right)) == Some(true),
        CompareOp::NeIgnoringCase => equal(&folded(left), &folded(right)) == Some(false),
        // Only numbers are ordered: E020 refuses `<` on strings, and at run time
        // it is false, like every other mismatch (docs/semantics.md).
        _ => match (left.number(), right.number()) {
            (Some(a), Some(b)) => match a.partial_cmp(&b) {
                Some(Ordering::Less) => matches!(op, CompareOp::Lt | CompareOp::Le),
                Some(Ordering::Equal) => matches!(op, CompareOp::Le | CompareOp::Ge),
                Some(Ordering::Greater) => matches!(op, CompareOp::Gt | CompareOp::Ge),
                None => false,
            },
            _ => false,
        },
    }
}

/// Whether the leaf `condition` holds when its field's value is `value`
fn holds_on(condition: &Condition, value: Val, event: &Event) -> bool {
    match condition {
        Condition::Compare { op, right, .. } => {
            side(right, event).is_some_and(|right| compare(&value, *op, &right))
        }
        Condition::Glob { pattern, .. } => match value {
            Val::Str(text) if pattern.folds_case() => {
                glob::matches_ignoring_case(pattern.as_str(), &text)
            }
            Val::Str(text) => glob::matches(pattern.as_str(), &text),
            _ => false,
        },
        Condition::Regex { pattern, .. } => match value {
            Val::Str(text) => regex::Regex::new(pattern.as_str())
                .map(|re| re.is_match(&text))
                .unwrap_or(false),
            _ => false,
        },
        Condition::In { list, .. } => list
            .iter()
            .any(|member| equal(&value, &Val::of_literal(member)) == Some(true)),
        Condition::Contains { needle, .. } => match (value, needle) {
            (Val::Str(text), Literal::Str(needle)) => text.contains(needle.as_str()),
            (Val::Other(Json::Array(items)), needle) => {
                let needle = Val::of_literal(needle);
                items
                    .iter()
                    .any(|item| equal(&Val::of_json(item), &needle) == Some(true))
            }
            _ => false,
        },
        _ => false,
    }
}

fn side(operand: &Operand, event: &Event) -> Option<Val> {
    match operand {
        Operand::Field(field) => read(field, event),
        Operand::Literal(literal) => Some(Val::of_literal(literal)),
        Operand::Arith(_) => arith(operand, event).map(Val::Int),
    }
}

/// What arithmetic is worth (docs/expressions.md), computed exactly in `i128` and then held
/// to the range of a 64-bit integer after every operation: a missing metadata key is 0,
/// anything that is not an integer (or a division by zero) leaves no value
fn arith(operand: &Operand, event: &Event) -> Option<i128> {
    let clamp = |value: i128| value.clamp(i128::from(i64::MIN), i128::from(i64::MAX));
    match operand {
        Operand::Literal(Literal::Int(value)) => Some(i128::from(*value)),
        Operand::Literal(Literal::Duration(ms)) => Some(clamp(i128::from(*ms))),
        Operand::Literal(_) => None,
        Operand::Field(field @ Field::Metadata(path)) => {
            match walk(&Json::Object(event.metadata.clone()), &path.segments) {
                None => Some(0),
                Some(_) => match read(field, event)? {
                    Val::Int(value) => Some(clamp(value)),
                    _ => None,
                },
            }
        }
        Operand::Field(field) => match read(field, event)? {
            Val::Int(value) => Some(clamp(value)),
            _ => None,
        },
        Operand::Arith(arith_node) => {
            let left = arith(&arith_node.left, event)?;
            let right = arith(&arith_node.right, event)?;
            let exact = match arith_node.op {
                ArithOp::Add => left + right,
                ArithOp::Sub => left - right,
                ArithOp::Mul => left * right,
                ArithOp::Div if right == 0 => return None,
                // `/` on integers truncates toward zero, as Rust's does on `i128`.
                ArithOp::Div => left / right,
            };
            Some(clamp(exact))
        }
    }
}

/// The value of a field in an event; `None` when the event does not carry it
fn read(field: &Field, event: &Event) -> Option<Val> {
    let int = |n: u64| Some(Val::Int(i128::from(n)));
    let text = |s: &Option<String>| s.clone().map(Val::Str);
    let stop_event = matches!(event.kind, EventKind::Stop | EventKind::SubagentStop);
    match field {
        Field::Step => int(event.step),
        Field::Steps => int(event.steps),
        // docs/semantics.md: a total of 0 is none given; the parts then make it.
        Field::Tokens => int(if event.tokens == 0 {
            event.input_tokens + event.output_tokens
        } else {
            event.tokens
        }),
        Field::InputTokens => int(event.input_tokens),
        Field::OutputTokens => int(event.output_tokens),
        Field::Elapsed => int(event.elapsed_ms),
        Field::Failures => int(event.failures),
        Field::Errors => int(event.errors),
        Field::Retries => int(event.retries),
        Field::Messages => event.messages.and_then(int),
        Field::ToolCalls => event.tool_calls.and_then(int),
        Field::Response => text(&event.response),
        Field::FinishReason => text(&event.finish_reason),
        Field::Tool => text(&event.tool),
        Field::Result => event.result.as_ref().map(|r| Val::Str(r.text().to_owned())),
        Field::ResultPath(path) => event
            .result
            .as_ref()
            .and_then(|r| r.json())
            .and_then(|json| walk(json, &path.segments))
            .map(Val::of_json),
        Field::ToolError => event.tool_error.map(Val::Bool),
        Field::Blocked => event.blocked.map(Val::Bool),
        // docs/semantics.md: an error without a kind is of kind `unknown`, on `on_error`
        // even when the event carries no error at all.
        Field::ErrorKind => match &event.error {
            Some(e) if e.kind.is_empty() => Some(Val::Str("unknown".to_owned())),
            Some(e) => Some(Val::Str(e.kind.clone())),
            None if event.kind == EventKind::OnError => Some(Val::Str("unknown".to_owned())),
            None => None,
        },
        Field::ErrorMessage => event.error.as_ref().map(|e| Val::Str(e.message.clone())),
        // docs/semantics.md: on stop hooks a missing decision reads `allow_stop`, a missing
        // reason that decision's default, a missing count 0.
        // Only stop hooks judge a pending stop; elsewhere the key is one the event cannot see.
        Field::StopDecision if !stop_event => None,
        Field::StopDecision => Some(Val::Str(
            event
                .stop_decision
                .map_or("allow_stop", |decision| decision.name())
                .to_owned(),
        )),
        Field::StopReason => match event.stop_reason {
            Some(reason) => Some(Val::Str(reason.name().to_owned())),
            None if stop_event => {
                let forbid = event.stop_decision.map(|d| d.name()) == Some("forbid");
                Some(Val::Str(
                    if forbid { "guard_forbade" } else { "completed" }.to_owned(),
                ))
            }
            None => None,
        },
        Field::StopRequests => match event.stop_requests {
            Some(n) => int(n),
            None if stop_event => int(0),
            None => None,
        },
        Field::Status => event.status.map(|s| Val::Str(s.name().to_owned())),
        Field::Cwd => text(&event.cwd),
        Field::PermissionMode => text(&event.permission_mode),
        Field::SessionId => text(&event.session_id),
        Field::Prompt => text(&event.prompt),
        Field::Arg(path) => event
            .arg
            .as_ref()
            .and_then(|arg| walk(arg, &path.segments))
            .map(Val::of_json),
        Field::Metadata(path) => {
            walk(&Json::Object(event.metadata.clone()), &path.segments).map(Val::of_json)
        }
        _ => None,
    }
}

fn walk<'a>(mut json: &'a Json, segments: &[PathSegment]) -> Option<&'a Json> {
    for segment in segments {
        json = match segment {
            PathSegment::Key(key) => json.as_object()?.get(key)?,
            PathSegment::Index(index) => json.as_array()?.get(usize::try_from(*index).ok()?)?,
        };
    }
    Some(json)
}

fn literal_json(literal: &Literal) -> Json {
    match literal {
        Literal::Bool(b) => json!(b),
        Literal::Int(i) => json!(i),
        Literal::Duration(ms) => json!(ms),
        Literal::Str(s) => json!(s),
        Literal::List(items) => Json::Array(items.iter().map(literal_json).collect()),
    }
}

/// `set metadata.a.b = v`: objects are made along the way, anything else in the way is
/// replaced by one
fn store(metadata: &mut Map<String, Json>, key: &FieldPath, value: Json) {
    let keys: Vec<&str> = key
        .segments
        .iter()
        .filter_map(|s| match s {
            PathSegment::Key(k) => Some(k.as_str()),
            PathSegment::Index(_) => None,
        })
        .collect();
    let Some((last, path)) = keys.split_last() else {
        return;
    };
    let mut object = metadata;
    for key in path {
        let slot = object.entry((*key).to_owned()).or_insert(Json::Null);
        if !slot.is_object() {
            *slot = Json::Object(Map::new());
        }
        let Json::Object(inner) = slot else { return };
        object = inner;
    }
    object.insert((*last).to_owned(), value);
}

fn dotted(key: &FieldPath) -> String {
    key.segments
        .iter()
        .map(|s| match s {
            PathSegment::Key(k) => k.clone(),
            PathSegment::Index(i) => format!("[{i}]"),
        })
        .collect::<Vec<_>>()
        .join(".")
}
