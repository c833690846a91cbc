//! The report of `rulesc replay`: per session and per rule what a policy would have
//! blocked, asked, forbidden or requested, and with `--diff` what two versions decide
//! differently. The replay itself is `rulesc_host::replay`; this module only shapes and
//! renders what it found (docs/replay.md).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rulesc_host::replay::{Finding, SessionReport, Warning};
use rulesc_runtime::{Mode, SortedJson};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value as Json;

/// The report of `rulesc replay --format json` (docs/replay.md); `rulesc schema replay`
/// describes this very type
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "ReplayReport")]
pub struct ReplayReport<'a> {
    /// Every replayed session, in the order read
    sessions: &'a [SessionReport],
    /// Per rule id, its mode and how many times it decided each verb
    rules: BTreeMap<String, RuleCount>,
    /// The replay's counts
    totals: Totals,
    /// Lines that could not be replayed
    warnings: &'a [Warning],
}

/// The counts of a replay
#[derive(Serialize, JsonSchema)]
struct Totals {
    /// Sessions replayed
    sessions: usize,
    /// rulesc events evaluated
    events: u64,
    /// Decisions reported
    findings: usize,
}

impl<'a> ReplayReport<'a> {
    /// The report of `sessions`, with the lines of `warnings` that could not be replayed
    pub fn new(sessions: &'a [SessionReport], warnings: &'a [Warning]) -> ReplayReport<'a> {
        ReplayReport {
            sessions,
            rules: per_rule(sessions.iter().flat_map(|session| &session.findings)),
            totals: Totals {
                sessions: sessions.len(),
                events: sessions.iter().map(|session| session.events).sum(),
                findings: sessions.iter().map(|session| session.findings.len()).sum(),
            },
            warnings,
        }
    }
}

/// The sessions of one replay that have something to report, and per rule what it decided
pub fn report_json(sessions: &[SessionReport], warnings: &[Warning]) -> String {
    sorted_json(&ReplayReport::new(sessions, warnings))
}

/// `document` as JSON with sorted keys; `null` if it could not be written, which no report
/// of plain strings, numbers and string-keyed maps is
fn sorted_json(document: &impl Serialize) -> String {
    let value = serde_json::to_value(document).unwrap_or(Json::Null);
    SortedJson(&value).to_string()
}

/// The report for people: each session with findings, then the count per rule
pub fn report_human(sessions: &[SessionReport]) -> String {
    let mut out = String::new();
    for session in sessions
        .iter()
        .filter(|session| !session.findings.is_empty())
    {
        let _ = writeln!(out, "{} (session {})", session.file, session.session);
        for finding in &session.findings {
            let _ = writeln!(out, "  {}", finding_line(finding));
        }
    }
    let rules = per_rule(sessions.iter().flat_map(|session| &session.findings));
    if !rules.is_empty() {
        out.push_str("per rule:\n");
        for (rule, count) in &rules {
            let counts: Vec<String> = count
                .decisions
                .iter()
                .map(|(verb, count)| format!("{verb} {count}"))
                .collect();
            let mode = match count.mode {
                Mode::Shadow => " (shadow)",
                Mode::Enforce => "",
            };
            let _ = writeln!(out, "  {rule}{mode}: {}", counts.join(", "));
        }
    }
    let findings: usize = sessions.iter().map(|session| session.findings.len()).sum();
    let events: u64 = sessions.iter().map(|session| session.events).sum();
    let _ = writeln!(
        out,
        "{}, {}, {}",
        counted(sessions.len() as u64, "session"),
        counted(events, "event"),
        counted(findings as u64, "decision")
    );
    out
}

/// `1 session`, `2 sessions`
fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// What changed from `old` to `new` over the same sessions: per session, the decisions
/// only one of them made
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diff {
    /// Each session that differs
    pub sessions: Vec<DiffSession>,
}

/// One session where two versions of a policy decide differently
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DiffSession {
    /// The trace, as named on the command line
    pub file: String,
    /// The session's id
    pub session: String,
    /// What only the old version decided
    pub only_old: Vec<Finding>,
    /// What only the new version decided
    pub only_new: Vec<Finding>,
}

/// The report of `rulesc replay --diff OLD NEW --format json` (docs/replay.md); `rulesc
/// schema replay-diff` describes this very type
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "ReplayDiff")]
pub struct DiffReport<'a> {
    /// The sessions where the two versions differ
    sessions: &'a [DiffSession],
    /// Lines that could not be replayed
    warnings: &'a [Warning],
}

impl Diff {
    /// Compares two replays of the same traces, session by session
    pub fn new(old: &[SessionReport], new: &[SessionReport]) -> Diff {
        let mut sessions = Vec::new();
        for (before, after) in old.iter().zip(new) {
            let only_old = missing_from(&before.findings, &after.findings);
            let only_new = missing_from(&after.findings, &before.findings);
            if !only_old.is_empty() || !only_new.is_empty() {
                sessions.push(DiffSession {
                    file: before.file.clone(),
                    session: before.session.clone(),
                    only_old,
                    only_new,
                });
            }
        }
        Diff { sessions }
    }

    /// Whether the two versions decided alike everywhere
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }

    /// The diff as one JSON document
    pub fn to_json(&self, warnings: &[Warning]) -> String {
        sorted_json(&DiffReport {
            sessions: &self.sessions,
            warnings,
        })
    }

    /// The diff for people: `-` what only the old version decided, `+` only the new
    pub fn render(&self) -> String {
        let mut out = String::new();
        for session in &self.sessions {
            let _ = writeln!(out, "{} (session {})", session.file, session.session);
            for finding in &session.only_old {
                let _ = writeln!(out, "  - {}", finding_line(finding));
            }
            for finding in &session.only_new {
                let _ = writeln!(out, "  + {}", finding_line(finding));
            }
        }
        let verb = if self.sessions.len() == 1 {
            "differs"
        } else {
            "differ"
        };
        let _ = writeln!(
            out,
            "{} {verb}",
            counted(self.sessions.len() as u64, "session")
        );
        out
    }
}

/// The findings of `these` that `those` lacks, counting repeats
fn missing_from(these: &[Finding], those: &[Finding]) -> Vec<Finding> {
    let mut left: Vec<&Finding> = those.iter().collect();
    these
        .iter()
        .filter(
            |finding| match left.iter().position(|other| other == finding) {
                Some(at) => {
                    left.remove(at);
                    false
                }
                None => true,
            },
        )
        .cloned()
        .collect()
}

/// Per rule, its mode and how many times it decided each verb
fn per_rule<'a>(findings: impl Iterator<Item = &'a Finding>) -> BTreeMap<String, RuleCount> {
    let mut rules: BTreeMap<String, RuleCount> = BTreeMap::new();
    for finding in findings {
        let rule = finding.rule.clone().unwrap_or_else(|| "(none)".to_owned());
        let count = rules.entry(rule).or_insert_with(|| RuleCount {
            mode: finding.mode,
            decisions: BTreeMap::new(),
        });
        *count.decisions.entry(finding.decision.clone()).or_default() += 1;
    }
    rules
}

/// What one rule decided over a replay
#[derive(Debug, Serialize, JsonSchema)]
struct RuleCount {
    /// `shadow` for a shadow rule
    mode: Mode,
    /// How many times it decided each verb
    decisions: BTreeMap<String, u64>,
}

/// `line 12, step 3, pre_tool_use `Bash` `rm -rf /`: block by no-rm "no rm"`
fn finding_line(finding: &Finding) -> String {
    let mut line = format!(
        "line {}, step {}, {}",
        finding.line, finding.step, finding.event
    );
    if let Some(tool) = &finding.tool {
        let _ = write!(line, " `{tool}`");
    }
    if let Some(call) = &finding.call {
        let _ = write!(line, " `{call}`");
    }
    let _ = write!(line, ": {}", finding.decision);
    if finding.mode == Mode::Shadow {
        line.push_str(" (shadow)");
    }
    if let Some(rule) = &finding.rule {
        let _ = write!(line, " by {rule}");
    }
    if let Some(message) = &finding.message {
        let _ = write!(line, " {}", Json::String(message.clone()));
    }
    line
}
