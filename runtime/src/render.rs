//! A stable, readable text form of an outcome, for people and for snapshot tests.
//!
//! Invariant: the text is a pure function of the outcome, line-oriented and free of hash
//! order, so a snapshot changes only when the outcome does. Strings are quoted as JSON.

use std::fmt::Write as _;

use serde_json::Value as Json;

use crate::outcome::{Evaluation, Outcome};
use crate::vocabulary::SortedJson;

impl Outcome {
    /// The outcome as stable text, as `rulesc eval --format human` prints it
    ///
    /// ```text
    /// pre_tool_use => block
    ///   resolved_by: no-rm
    ///   message: "destructive command"
    ///   evaluations:
    ///     no-rm (p.rules:3): block "destructive command"
    ///   effects:
    ///     taint: tainted = true
    ///   metadata: {"tainted":true}
    /// ```
    ///
    /// The first line is the event and the decision with its stop reason; the other lines
    /// appear only when they have something to say. It ends with a newline.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let resolution = &self.resolution;
        let _ = write!(out, "{} => {}", self.event, resolution.decision.name());
        if let Some(reason) = resolution.stop_reason {
            let _ = write!(out, " {reason}");
        }
        out.push('\n');
        if let Some(resolved_by) = &resolution.resolved_by {
            let _ = writeln!(out, "  resolved_by: {resolved_by}");
        }
        if let Some(message) = &resolution.message {
            let _ = writeln!(out, "  message: {}", quoted(message));
        }
        if !self.evaluations.is_empty() {
            out.push_str("  evaluations:\n");
            for evaluation in &self.evaluations {
                let _ = writeln!(out, "    {}", evaluation_line(evaluation));
            }
        }
        if !self.shadow.is_empty() {
            out.push_str("  shadow:\n");
            for evaluation in &self.shadow {
                let _ = writeln!(out, "    {}", evaluation_line(evaluation));
            }
        }
        if !self.effects.is_empty() {
            out.push_str("  effects:\n");
            for effect in &self.effects {
                let _ = writeln!(
                    out,
                    "    {}: {} = {}",
                    effect.rule, effect.key, effect.value
                );
            }
        }
        if !self.metadata.is_empty() {
            let _ = writeln!(
                out,
                "  metadata: {}",
                SortedJson(&Json::Object(self.metadata.clone()))
            );
        }
        out
    }
}

fn evaluation_line(evaluation: &Evaluation) -> String {
    let mut line = evaluation.rule.clone();
    if let (Some(file), Some(number)) = (&evaluation.file, evaluation.line) {
        let _ = write!(line, " ({file}:{number})");
    }
    let _ = write!(line, ": {}", evaluation.verb);
    if let Some(reason) = evaluation.stop_reason {
        let _ = write!(line, " {reason}");
    }
    if let Some(message) = &evaluation.message {
        let _ = write!(line, " {}", quoted(message));
    }
    if evaluation.priority != 0 {
        let _ = write!(line, " @priority({})", evaluation.priority);
    }
    line
}

/// `text` as a JSON string literal
fn quoted(text: &str) -> String {
    Json::String(text.to_owned()).to_string()
}
