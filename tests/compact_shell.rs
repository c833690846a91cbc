//! The shipped policies decide every line of the shell corpora alike whole, from the
//! compact form the hook's cache keeps, and with nothing skipped: a rule whose condition
//! requires programs a line does not run is neither tested nor, in the compact form,
//! decoded (`runtime/src/programs.rs`), and a rule with a shell condition is skipped on a
//! call of a tool that is no shell: skipping must change no outcome, on lines that run
//! those programs, others, or parts known only at run time, given to a shell or another tool.

use serde_json::json;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn the_compact_form_decides_every_corpus_line_as_the_whole_policy() {
    let sources = rulesc::load::read_sources(&[format!("{ROOT}/rules")]).unwrap();
    let policy = rulesc::load::compile(sources).unwrap().policy;
    let compact = rulesc::Policy::from_checked_compact(&policy.to_compact()).unwrap();
    let unskipped = requiring_no_programs(&policy).unwrap();
    let mut lines = Vec::new();
    for file in std::fs::read_dir(format!("{ROOT}/tests/shell")).unwrap() {
        let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
        lines.extend(
            text.lines()
                .filter(|line| !line.is_empty() && !line.starts_with('#'))
                .map(|line| line.replace("\\n", "\n")),
        );
    }
    assert!(lines.len() > 1000, "only {} lines", lines.len());
    let mut differ = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        // Each line is asked of a fresh compact policy too, so that no condition decoded
        // for an earlier line hides one this line would skip.
        let fresh = rulesc::Policy::from_checked_compact(&policy.to_compact()).unwrap();
        let (command, cwd) = line
            .split_once('\t')
            .unwrap_or((line, "/home/user/project"));
        let bash: rulesc::Event = serde_json::from_value(json!({
            "event": "pre_tool_use", "tool": "Bash", "arg": {"command": command}, "cwd": cwd,
        }))
        .unwrap();
        // The same text given to a tool that is no shell, and both calls with an input that
        // did not reach rulesc whole (every shell condition undecidable).
        let mut other = bash.clone();
        other.tool = Some("Read".to_owned());
        let mut unread = bash.clone();
        unread.arg_unreadable = true;
        let mut other_unread = other.clone();
        other_unread.arg_unreadable = true;
        let calls = [
            ("Bash", &bash),
            ("Read", &other),
            ("Bash unread", &unread),
            ("Read unread", &other_unread),
        ];
        for (call, event) in calls {
            let reference = unskipped.evaluate(event);
            if policy.evaluate(event) != reference
                || compact.evaluate(event) != reference
                || fresh.evaluate(event) != reference
            {
                differ.push(format!("line {at}, {call}: {line:?}"));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "decided otherwise:\n{}",
        differ.join("\n")
    );
}

/// `policy` with every condition `c` written `c or any()`: the same meaning, but no rule
/// requires a program (an empty alternative may hold whatever runs), so nothing is skipped
fn requiring_no_programs(policy: &rulesc::Policy) -> Result<rulesc::Policy, rulesc::PolicyError> {
    let mut rules = policy.user_rules().to_vec();
    for rule in &mut rules {
        rule.condition = rule.condition.take().map(|condition| {
            rulesc::Condition::Any(vec![condition, rulesc::Condition::Any(Vec::new())])
        });
    }
    rulesc::Policy::new(rules, *policy.defaults())
}
