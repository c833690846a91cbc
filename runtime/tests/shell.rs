//! Shell conditions in the engine: which tools are shells (the defaults, and those an
//! application declares), and how a command that cannot be read fails closed for each
//! kind of rule (docs/shell.md).

use rulesc_runtime::{
    Action, Condition, Decision, Defaults, Event, EventKind, Policy, Quantifier, Rule,
    ShellCondition, ShellWord, Verb, WordTest,
};
use serde_json::json;

/// `on pre_tool_use when <condition> <verb>`
fn rule(id: &str, condition: Condition, verb: Verb) -> Rule {
    Rule {
        id: id.to_owned(),
        events: vec![EventKind::PreToolUse],
        condition: Some(condition),
        action: Action::Decide {
            verb,
            stop_reason: None,
            message: None,
        },
        priority: 0,
        origin: None,
    }
}

/// `shell(program == "<program>")`, or `shell.all(...)`
fn program_is(quantifier: Quantifier, program: &str) -> Condition {
    Condition::Shell {
        quantifier,
        condition: ShellCondition::Word {
            word: ShellWord::Program,
            test: WordTest::Equals(program.to_owned()),
        },
    }
}

fn call(tool: &str, command: &str) -> Event {
    let mut event = Event::new(EventKind::PreToolUse);
    event.tool = Some(tool.to_owned());
    event.arg = Some(json!({ "command": command }));
    event
}

fn decision(policy: &Policy, event: &Event) -> Decision {
    policy.evaluate(event).resolution.decision
}

#[test]
fn the_default_shell_tools_are_the_hosts_and_an_application_declares_its_own() {
    let policy = Policy::new(
        vec![rule(
            "no-rm",
            program_is(Quantifier::Any, "rm"),
            Verb::Block,
        )],
        Defaults::default(),
    )
    .unwrap();
    for tool in ["Bash", "run_shell_command", "bash", "shell"] {
        assert_eq!(
            decision(&policy, &call(tool, "rm x")),
            Decision::Block,
            "{tool}"
        );
    }
    assert_eq!(decision(&policy, &call("terminal", "rm x")), Decision::None);
    assert_eq!(
        decision(&policy, &call("apply_patch", "rm x")),
        Decision::None
    );
    let declared = policy.with_shell_tools(["terminal"]);
    assert_eq!(declared.shell_tools(), ["terminal"]);
    assert_eq!(
        decision(&declared, &call("terminal", "rm x")),
        Decision::Block
    );
    assert_eq!(decision(&declared, &call("Bash", "rm x")), Decision::None);
}

#[test]
fn an_unreadable_command_holds_guards_and_fails_everything_else() {
    let unreadable = call("Bash", "ls 'unterminated");
    let cases = [
        // A guard holds, also through `not`: `not shell(...)` is then false.
        (
            program_is(Quantifier::Any, "rm"),
            Verb::Block,
            Decision::Block,
        ),
        (program_is(Quantifier::All, "ls"), Verb::Ask, Decision::Ask),
        (
            Condition::Not(Box::new(program_is(Quantifier::Any, "ls"))),
            Verb::Block,
            Decision::Block,
        ),
        // Anything else fails: an allow never approves what cannot be read.
        (
            program_is(Quantifier::All, "ls"),
            Verb::Allow,
            Decision::None,
        ),
        (
            Condition::Not(Box::new(program_is(Quantifier::Any, "rm"))),
            Verb::Allow,
            Decision::None,
        ),
    ];
    // A shell call with no command line to read is as unreadable as a broken one.
    let mut no_arg = call("Bash", "");
    no_arg.arg = None;
    let mut no_command = call("Bash", "");
    no_command.arg = Some(json!({ "cmd": "rm -rf /" }));
    let mut argv = call("Bash", "");
    argv.arg = Some(json!({ "command": ["rm", "-rf", "/"] }));
    for (condition, verb, expected) in cases {
        let policy = Policy::new(vec![rule("r", condition, verb)], Defaults::default()).unwrap();
        for event in [&unreadable, &no_arg, &no_command, &argv] {
            assert_eq!(decision(&policy, event), expected, "{verb} {:?}", event.arg);
        }
    }
}

#[test]
fn shell_all_needs_every_command_and_at_least_one() {
    let policy = Policy::new(
        vec![rule(
            "git-only",
            program_is(Quantifier::All, "git"),
            Verb::Allow,
        )],
        Defaults::default(),
    )
    .unwrap();
    assert_eq!(
        decision(&policy, &call("Bash", "git status && git log")),
        Decision::Allow
    );
    assert_eq!(
        decision(&policy, &call("Bash", "git status && curl x | sh")),
        Decision::None
    );
    assert_eq!(
        decision(&policy, &call("Bash", "# nothing runs")),
        Decision::None
    );
}
