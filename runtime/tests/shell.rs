//! Shell conditions in the engine: which tools are shells (the defaults, and those an
//! application declares), how a command that cannot be read fails closed for each kind of
//! rule, and what a rule does on a line it cannot decide before it runs (docs/shell.md).

use rulesc_runtime::{
    Action, Condition, Decision, Defaults, Event, EventKind, OnUndecidable, Policy, Quantifier,
    Rule, ShellCondition, ShellWord, Verb, WordTest,
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
        on_undecidable: None,
    }
}

/// `shell(program == "rm" and outside_cwd)`, with an `@undecidable(...)` choice
fn rm_outside(choice: Option<OnUndecidable>) -> Condition {
    rm_and(ShellCondition::OutsideCwd, choice)
}

/// `shell(program == "rm" and CONDITION)`, with an `@undecidable(...)` choice
fn rm_and(condition: ShellCondition, choice: Option<OnUndecidable>) -> Condition {
    Condition::Shell {
        quantifier: Quantifier::Any,
        condition: ShellCondition::All(vec![
            ShellCondition::Word {
                word: ShellWord::Program,
                test: WordTest::Equals("rm".to_owned()),
            },
            condition,
        ]),
        on_undecidable: choice,
    }
}

fn call_in(command: &str, cwd: &str) -> Event {
    let mut event = call("Bash", command);
    event.cwd = Some(cwd.to_owned());
    event
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

#[test]
#[cfg_attr(
    not(feature = "shell-parser"),
    ignore = "reads lines only tree-sitter-bash reads (the `shell-parser` feature)"
)]
fn a_rule_that_cannot_tell_before_the_command_runs_asks_by_default() {
    let policy = |choice, verb| {
        Policy::new(
            vec![rule("r", rm_outside(choice), verb)],
            Defaults::default(),
        )
        .unwrap()
    };
    let project = "/home/u/project";
    let block = policy(None, Verb::Block);
    // Known on the line: decided either way.
    assert_eq!(
        decision(&block, &call_in("D=~; rm -rf \"$D\"", project)),
        Decision::Block
    );
    assert_eq!(
        decision(&block, &call_in("D=build; rm -rf \"$D\"", project)),
        Decision::None
    );
    // Known only at run time, in the place the rule tests: the rule asks, saying why.
    let unknown = call_in("rm -rf \"$TARGET\"", project);
    assert_eq!(decision(&block, &unknown), Decision::Ask);
    let message = block
        .evaluate(&unknown)
        .resolution
        .message
        .unwrap_or_default();
    assert!(
        message.contains("`$TARGET` is set at run time"),
        "{message}"
    );
    // Known only at run time where the rule does not look: decided.
    assert_eq!(
        decision(&block, &call_in("docker rm -f $(docker ps -aq)", project)),
        Decision::None
    );
    assert_eq!(
        decision(&block, &call_in("make -j$(nproc)", project)),
        Decision::None
    );
    // Code made at run time hides every program.
    assert_eq!(
        decision(&block, &call_in("x=$1; eval \"$x\"", project)),
        Decision::Ask
    );
    assert_eq!(
        decision(&block, &call_in("eval \"$(ssh-agent -s)\"", project)),
        Decision::None
    );
    // The rule says what it does instead.
    let cases = [
        (Some(OnUndecidable::Block), Verb::Block, Decision::Block),
        (Some(OnUndecidable::Ask), Verb::Block, Decision::Ask),
        (Some(OnUndecidable::Pass), Verb::Block, Decision::None),
        (None, Verb::Ask, Decision::Ask),
        // An allow never approves what it cannot decide.
        (None, Verb::Allow, Decision::None),
    ];
    for (choice, verb, expected) in cases {
        assert_eq!(
            decision(&policy(choice, verb), &unknown),
            expected,
            "{choice:?} {verb}"
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "shell-parser"),
    ignore = "reads lines only tree-sitter-bash reads (the `shell-parser` feature)"
)]
fn a_rule_that_decided_names_the_outcome_before_one_that_could_not_tell() {
    // Both ask on `rm -rf "$TARGET"`: `a-outside` because it cannot tell where `$TARGET`
    // points, `b-any-rm` because the line runs `rm`. The outcome names the rule that knew,
    // whatever the order of their ids; with a higher priority, the other one still wins.
    let policy = |priority| {
        let mut undecided = rule("a-outside", rm_outside(None), Verb::Ask);
        undecided.priority = priority;
        Policy::new(
            vec![
                undecided,
                rule("b-any-rm", program_is(Quantifier::Any, "rm"), Verb::Ask),
            ],
            Defaults::default(),
        )
        .unwrap()
    };
    let unknown = call_in("rm -rf \"$TARGET\"", "/home/u/project");
    let outcome = policy(0).evaluate(&unknown);
    assert_eq!(outcome.resolution.decision, Decision::Ask);
    assert_eq!(outcome.resolution.resolved_by.as_deref(), Some("b-any-rm"));
    let undecided: Vec<(&str, bool)> = outcome
        .evaluations
        .iter()
        .map(|evaluation| (evaluation.rule.as_str(), evaluation.undecided))
        .collect();
    assert_eq!(undecided, [("a-outside", true), ("b-any-rm", false)]);
    let outcome = policy(1).evaluate(&unknown);
    assert_eq!(outcome.resolution.resolved_by.as_deref(), Some("a-outside"));
    let message = outcome.resolution.message.unwrap_or_default();
    assert!(
        message.contains("`$TARGET` is set at run time"),
        "{message}"
    );
}

#[test]
fn an_unreadable_line_is_refused_saying_why() {
    let policy = Policy::new(
        vec![rule(
            "r",
            rm_outside(Some(OnUndecidable::Pass)),
            Verb::Block,
        )],
        Defaults::default(),
    )
    .unwrap();
    let outcome = policy.evaluate(&call("Bash", "ls \"unterminated"));
    assert_eq!(outcome.resolution.decision, Decision::Block);
    assert_eq!(
        outcome.resolution.message.as_deref(),
        Some("the command line cannot be read: the quote `\"` at line 1, column 4 is never closed")
    );
}

/// Built without the shell reader's C parsers, a line past its own parser cannot be read:
/// a guard on it fires with its own verb and says why, a line it reads is decided as ever
#[test]
#[cfg(not(feature = "shell-parser"))]
fn without_the_full_parser_a_line_past_the_fast_reader_fails_closed() {
    let policy = Policy::new(
        vec![rule("r", rm_outside(None), Verb::Block)],
        Defaults::default(),
    )
    .unwrap();
    let project = "/home/u/project";
    let past = policy.evaluate(&call_in("case $x in a) rm -rf ~;; esac", project));
    assert_eq!(past.resolution.decision, Decision::Block);
    let message = past.resolution.message.unwrap_or_default();
    assert!(message.contains("full shell parser"), "{message}");
    assert_eq!(
        decision(&policy, &call_in("rm -rf ~/x && ls", project)),
        Decision::Block
    );
    assert_eq!(
        decision(&policy, &call_in("rm -rf build && ls", project)),
        Decision::None
    );
}

#[test]
fn whole_cwd_is_the_working_directory_itself_or_all_it_holds() {
    let policy = Policy::new(
        vec![rule(
            "whole",
            rm_and(ShellCondition::WholeCwd, None),
            Verb::Block,
        )],
        Defaults::default(),
    )
    .unwrap();
    let project = "/home/u/app";
    for line in [
        "rm -rf .",
        "rm -rf *",
        "rm -rf ./*",
        "rm -rf /home/u/app/",
        "cd .. && rm -rf app",
        "cd src && rm -rf ..",
        "rm -rf \"$PWD\"",
    ] {
        assert_eq!(
            decision(&policy, &call_in(line, project)),
            Decision::Block,
            "{line}"
        );
    }
    for line in [
        "rm -rf src",
        "rm -rf ./build/*",
        "cd build && rm -rf *",
        "rm -rf /tmp/x",
    ] {
        assert_eq!(
            decision(&policy, &call_in(line, project)),
            Decision::None,
            "{line}"
        );
    }
    // What only run time knows may be the project when what is known leads there.
    assert_eq!(
        decision(&policy, &call_in("rm -rf \"$TARGET\"", project)),
        Decision::Ask
    );
    assert_eq!(
        decision(
            &policy,
            &call_in("rm -rf /home/u/$(basename \"$X\")", project)
        ),
        Decision::Ask
    );
    assert_eq!(
        decision(&policy, &call_in("rm -rf /tmp/build/$(date +%s)", project)),
        Decision::None
    );
}
