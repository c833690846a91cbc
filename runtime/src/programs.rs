//! The programs a rule's shell conditions require: a rule that can only hold when some
//! command of the line runs one of them (`shell(program in ["psql", "mysql"] and ...)`) is
//! not tested, and in the compact form not even decoded, on a line whose commands are all
//! known to run others.
//!
//! The packs hold dozens of such rules, each with a long condition, and every shell call is
//! a candidate of all of them: decoding their conditions cost a hook call more than the rest
//! of its evaluation. Their programs are worked out once, when the compact form is written,
//! and kept beside each rule's head.
//!
//! Invariant: when [`rule_programs`] gives a list, the rule's condition is false (and not
//! undecidable) on every readable line none of whose commands runs a listed program or has
//! a program (or all of it) known only at run time; `CommandLine::may_run_any` holds the
//! other side of it. A command with an unknown argument still names its program, and a
//! test of that program is decided, so it does not keep such a rule.

use crate::vocabulary::{Condition, ShellCondition, ShellWord, WordTest};

/// The programs some command must run for `condition` to hold; `None` when it may hold
/// whatever the commands run
pub(crate) fn rule_programs(condition: &Condition) -> Option<Vec<String>> {
    let programs = match condition {
        Condition::Shell { condition, .. } => shell_programs(condition),
        Condition::All(parts) => smallest(parts.iter().map(rule_programs)),
        Condition::Any(parts) => union(parts.iter().map(rule_programs)),
        _ => None,
    }?;
    let mut programs = programs;
    programs.sort();
    programs.dedup();
    Some(programs)
}

/// The programs a command must run for `condition` to hold on it
fn shell_programs(condition: &ShellCondition) -> Option<Vec<String>> {
    match condition {
        ShellCondition::Word {
            word: ShellWord::Program,
            test,
        } => match test {
            WordTest::Equals(program) => Some(vec![program.clone()]),
            WordTest::In(programs) => Some(programs.clone()),
            _ => None,
        },
        ShellCondition::All(parts) => smallest(parts.iter().map(shell_programs)),
        ShellCondition::Any(parts) => union(parts.iter().map(shell_programs)),
        _ => None,
    }
}

/// The shortest list, of parts that must all hold
fn smallest(lists: impl Iterator<Item = Option<Vec<String>>>) -> Option<Vec<String>> {
    lists.flatten().min_by_key(Vec::len)
}

/// Every list together, of parts one of which must hold; `None` when one part may hold
/// whatever the commands run (or there is no part)
fn union(lists: impl Iterator<Item = Option<Vec<String>>>) -> Option<Vec<String>> {
    let mut all: Option<Vec<String>> = None;
    for list in lists {
        all.get_or_insert_with(Vec::new).extend(list?);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::Quantifier;

    fn program(test: WordTest) -> ShellCondition {
        ShellCondition::Word {
            word: ShellWord::Program,
            test,
        }
    }

    fn shell(condition: ShellCondition) -> Condition {
        Condition::Shell {
            quantifier: Quantifier::Any,
            condition,
            on_undecidable: None,
        }
    }

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| (*name).to_owned()).collect()
    }

    #[test]
    fn a_conjunct_naming_programs_requires_them() {
        let condition = shell(ShellCondition::All(vec![
            ShellCondition::Flag("-r".to_owned()),
            program(WordTest::In(names(&["rm", "rmdir"]))),
        ]));
        assert_eq!(rule_programs(&condition), Some(names(&["rm", "rmdir"])));
    }

    #[test]
    fn alternatives_require_all_their_programs_or_none() {
        let both = shell(ShellCondition::Any(vec![
            program(WordTest::Equals("psql".to_owned())),
            ShellCondition::All(vec![
                program(WordTest::Equals("docker".to_owned())),
                ShellCondition::Flag("-it".to_owned()),
            ]),
        ]));
        assert_eq!(rule_programs(&both), Some(names(&["docker", "psql"])));
        let open = shell(ShellCondition::Any(vec![
            program(WordTest::Equals("psql".to_owned())),
            ShellCondition::Flag("-f".to_owned()),
        ]));
        assert_eq!(rule_programs(&open), None);
        assert_eq!(rule_programs(&Condition::Any(Vec::new())), None);
    }

    #[test]
    fn only_a_positive_shell_term_requires_programs() {
        let negated = Condition::Not(Box::new(shell(program(WordTest::Equals("rm".to_owned())))));
        assert_eq!(rule_programs(&negated), None);
        let stdin = shell(ShellCondition::StdinFrom(Box::new(program(
            WordTest::Equals("curl".to_owned()),
        ))));
        assert_eq!(rule_programs(&stdin), None);
        let glob = shell(program(WordTest::Glob(
            crate::vocabulary::GlobPattern::new("rm*").unwrap(),
        )));
        assert_eq!(rule_programs(&glob), None);
    }
}
