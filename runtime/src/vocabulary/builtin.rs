//! The builtins of the language: the trace functions, the loop guard's count, the list
//! quantifiers, the shell conditions and what is written inside them (docs/language.md §9,
//! docs/trace.md, docs/expressions.md, docs/shell.md), each with how it is written, where it
//! may be used, what it gives and what it means.
//!
//! Invariant: this is the one list of them. The compiler finds a builtin's meaning here by
//! its name, the language server describes and offers them from here, and tests hold the
//! grammar's words (`trace_name` and `quantifier` in `grammar/src/rules.pest`) and the editor
//! grammar to it. The table lives in the vocabulary, not the grammar, because what a builtin
//! means (its events, its type) is the runtime's, and the grammar may not import it.

use super::{EventKind, FieldType};

/// What a builtin is, for the code that gives it its meaning
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Builtin {
    /// `count(E when C within W)`
    Count,
    /// `seen(E when C within W)`
    Seen,
    /// `streak(E when C)`
    Streak,
    /// `same_call_count`
    SameCallCount,
    /// `any X op V`
    Any,
    /// `all X op V`
    All,
    /// `shell(C)`
    Shell,
    /// `shell.all(C)`
    ShellAll,
    /// `flag("-r")` inside a shell condition
    Flag,
    /// `program_is("shell")` inside a shell condition
    ProgramIs,
    /// `stdin_from(C)` inside a shell condition
    StdinFrom,
    /// `stdout_to(C)` inside a shell condition
    StdoutTo,
    /// `outside_cwd` inside a shell condition
    OutsideCwd,
    /// `outside_cwd_and_tmp` inside a shell condition
    OutsideCwdAndTmp,
    /// `whole_cwd` inside a shell condition
    WholeCwd,
    /// `output_shown` inside a shell condition
    OutputShown,
}

/// What a builtin takes, as it is written
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuiltinArguments {
    /// Nothing: the name alone, as a field is written (`same_call_count`, `outside_cwd`)
    Nothing,
    /// An event, an optional `when` condition on it and, if `window`, an optional window:
    /// `count(E when C within W)`
    Counted {
        /// Whether a window (`within 5 steps`, `within 10min`) may follow
        window: bool,
    },
    /// A condition in parentheses: `shell(C)`, `stdin_from(C)`
    Condition,
    /// One string in parentheses, of which the placeholder says what it holds: `flag("-r")`
    Text(&'static str),
    /// A comparison after the word, without parentheses: `any arg.to ~ "*@x"`
    Comparison,
}

/// Where a builtin may be written
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuiltinScope {
    /// In a rule's condition
    Condition,
    /// Inside `shell(...)` or `shell.all(...)`, where a condition is on one simple command
    ShellCommand,
}

impl BuiltinScope {
    /// Where it is, in user words
    pub fn described(self) -> &'static str {
        match self {
            BuiltinScope::Condition => "in a rule's condition, outside `shell(...)`",
            BuiltinScope::ShellCommand => "inside `shell(...)` or `shell.all(...)`",
        }
    }
}

/// One builtin: how it is written, where, what it gives and what it means
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuiltinRow {
    /// What it is
    pub builtin: Builtin,
    /// Its name as written: `count`, `shell.all`
    pub name: &'static str,
    /// What it takes
    pub arguments: BuiltinArguments,
    /// Where it may be written
    pub scope: BuiltinScope,
    /// The events of the rules that may use it, in lifecycle order
    pub events: &'static [EventKind],
    /// What it gives: a condition (`Bool`) or a number to compare (`Int`)
    pub result: FieldType,
    /// What it means, in one line
    pub doc: &'static str,
    /// A rule that uses it and compiles
    pub example: &'static str,
}

/// The events of a tool call, where a shell tool's command is read
const TOOL_CALL_EVENTS: &[EventKind] = &[EventKind::PreToolUse, EventKind::PostToolUse];

/// Every builtin of the language
pub const BUILTINS: [BuiltinRow; 16] = [
    BuiltinRow {
        builtin: Builtin::Count,
        name: "count",
        arguments: BuiltinArguments::Counted { window: true },
        scope: BuiltinScope::Condition,
        events: &EventKind::ALL,
        result: FieldType::Int,
        doc: "the number of events of kind `EVENT` in the run so far, the current one \
              included, for which `CONDITION` held, within the window if one is given",
        example: "on pre_tool_use when count(pre_tool_use when tool == \"deploy\" within \
                  10min) > 2 block \"at most 2 deploys in 10 minutes\"",
    },
    BuiltinRow {
        builtin: Builtin::Seen,
        name: "seen",
        arguments: BuiltinArguments::Counted { window: true },
        scope: BuiltinScope::Condition,
        events: &EventKind::ALL,
        result: FieldType::Bool,
        doc: "whether `count(...)` of the same arguments is at least 1: a condition, never a \
              number",
        example: "on pre_tool_use when seen(post_tool_use when tool == \"read_secrets\") and \
                  tool ~ \"http_*\" block \"secrets were read\"",
    },
    BuiltinRow {
        builtin: Builtin::Streak,
        name: "streak",
        arguments: BuiltinArguments::Counted { window: false },
        scope: BuiltinScope::Condition,
        events: &EventKind::ALL,
        result: FieldType::Int,
        doc: "the number of events of kind `EVENT` in a row, ending now, for which \
              `CONDITION` held; it takes no window",
        example: "on pre_tool_use when streak(post_tool_use when tool_error) >= 3 ask \
                  \"three failures in a row\"",
    },
    BuiltinRow {
        builtin: Builtin::SameCallCount,
        name: "same_call_count",
        arguments: BuiltinArguments::Nothing,
        scope: BuiltinScope::Condition,
        events: &[EventKind::PreToolUse],
        result: FieldType::Int,
        doc: "the number of tool calls in a row, ending with this one, to the same tool with \
              the same arguments",
        example: "on pre_tool_use when same_call_count >= 3 block \"you are repeating the \
                  same call\"",
    },
    BuiltinRow {
        builtin: Builtin::Any,
        name: "any",
        arguments: BuiltinArguments::Comparison,
        scope: BuiltinScope::Condition,
        events: &EventKind::ALL,
        result: FieldType::Bool,
        doc: "whether the comparison holds for at least one element of the list (for a value \
              that is no list, for the value); false over an empty list",
        example: "on pre_tool_use when any arg.to ~ \"*@evil.example\" block \"bad recipient\"",
    },
    BuiltinRow {
        builtin: Builtin::All,
        name: "all",
        arguments: BuiltinArguments::Comparison,
        scope: BuiltinScope::Condition,
        events: &EventKind::ALL,
        result: FieldType::Bool,
        doc: "whether the list has an element and the comparison holds for every one (for a \
              value that is no list, for the value)",
        example: "on pre_tool_use when all arg.to ~ \"*@corp.example\" allow",
    },
    BuiltinRow {
        builtin: Builtin::Shell,
        name: "shell",
        arguments: BuiltinArguments::Condition,
        scope: BuiltinScope::Condition,
        events: TOOL_CALL_EVENTS,
        result: FieldType::Bool,
        doc: "whether some simple command of a shell tool's command line satisfies \
              `CONDITION`; fails closed on a line it cannot read",
        example: "on pre_tool_use when shell(program == \"rm\" and outside_cwd) block \
                  \"delete inside the project\"",
    },
    BuiltinRow {
        builtin: Builtin::ShellAll,
        name: "shell.all",
        arguments: BuiltinArguments::Condition,
        scope: BuiltinScope::Condition,
        events: TOOL_CALL_EVENTS,
        result: FieldType::Bool,
        doc: "whether a shell tool's command line runs at least one simple command, and every \
              one satisfies `CONDITION`",
        example: "on pre_tool_use when shell.all(program in [\"git\", \"ls\", \"cat\"]) allow",
    },
    BuiltinRow {
        builtin: Builtin::Flag,
        name: "flag",
        arguments: BuiltinArguments::Text("FLAG"),
        scope: BuiltinScope::ShellCommand,
        events: TOOL_CALL_EVENTS,
        result: FieldType::Bool,
        doc: "whether the command has the flag, written with its dashes: `-rf` has `-r`, \
              `--force=yes` has `--force`",
        example: "on pre_tool_use when shell(program == \"rm\" and flag(\"-r\")) block \
                  \"recursive delete\"",
    },
    BuiltinRow {
        builtin: Builtin::ProgramIs,
        name: "program_is",
        arguments: BuiltinArguments::Text("KIND"),
        scope: BuiltinScope::ShellCommand,
        events: TOOL_CALL_EVENTS,
        result: FieldType::Bool,
        doc: "whether the program is of a kind the shell reader knows: `\"shell\"`, \
              `\"interpreter\"`, `\"download\"`, ...",
        example: "on pre_tool_use when shell(program_is(\"shell\") and \
                  stdin_from(program_is(\"download\"))) block \"remote code\"",
    },
    BuiltinRow {
        builtin: Builtin::StdinFrom,
        name: "stdin_from",
        arguments: BuiltinArguments::Condition,
        scope: BuiltinScope::ShellCommand,
        events: TOOL_CALL_EVENTS,
        result: FieldType::Bool,
        doc: "whether some command whose output reaches this command's input satisfies \
              `CONDITION`",
        example: "on pre_tool_use when shell(program in [\"sh\", \"bash\"] and \
                  stdin_from(program in [\"curl\", \"wget\"])) block \"remote code\"",
    },
    BuiltinRow {
        builtin: Builtin::StdoutTo,
        name: "stdout_to",
        arguments: BuiltinArguments::Condition,
        scope: BuiltinScope::ShellCommand,
        events: TOOL_CALL_EVENTS,
        result: FieldType::Bool,
        doc: "whether some command that reads this command's output satisfies `CONDITION`; \
              output no command reads goes to a file or to the agent's transcript",
        example: "on pre_tool_use when shell(program == \"printenv\" and \
                  not redirect ~ \"*\" and not stdout_to(program ~ \"*\")) \
                  ask \"prints the environment into the transcript\"",
    },
    BuiltinRow {
        builtin: Builtin::OutsideCwd,
        name: "outside_cwd",
        arguments: BuiltinArguments::Nothing,
        scope: BuiltinScope::ShellCommand,
        events: TOOL_CALL_EVENTS,
        result: FieldType::Bool,
        doc: "whether some operand, as a normalised path, lies outside the working directory",
        example: "on pre_tool_use when shell(program == \"rm\" and outside_cwd) block \
                  \"delete inside the project\"",
    },
    BuiltinRow {
        builtin: Builtin::OutsideCwdAndTmp,
        name: "outside_cwd_and_tmp",
        arguments: BuiltinArguments::Nothing,
        scope: BuiltinScope::ShellCommand,
        events: TOOL_CALL_EVENTS,
        result: FieldType::Bool,
        doc: "as `outside_cwd`, but a path below a temporary folder (`/tmp/build`) counts as \
              inside",
        example: "on pre_tool_use when shell(program == \"rm\" and outside_cwd_and_tmp) block \
                  \"delete inside the project or /tmp\"",
    },
    BuiltinRow {
        builtin: Builtin::WholeCwd,
        name: "whole_cwd",
        arguments: BuiltinArguments::Nothing,
        scope: BuiltinScope::ShellCommand,
        events: TOOL_CALL_EVENTS,
        result: FieldType::Bool,
        doc: "whether some operand, as a normalised path, is the working directory itself or \
              everything it holds (`.`, `*`, `\"$PWD\"`)",
        example: "on pre_tool_use when shell(program == \"rm\" and flag(\"-r\") and whole_cwd) \
                  ask \"this deletes the whole project\"",
    },
    BuiltinRow {
        builtin: Builtin::OutputShown,
        name: "output_shown",
        arguments: BuiltinArguments::Nothing,
        scope: BuiltinScope::ShellCommand,
        events: TOOL_CALL_EVENTS,
        result: FieldType::Bool,
        doc: "whether the command's output reaches the agent's transcript: no substitution \
              captures it (`x=$(...)`), no command reads it and no redirect sends it to a \
              file (`2>/dev/null` sends only the errors)",
        example: "on pre_tool_use when shell(program == \"printenv\" and output_shown) \
                  ask \"this prints the environment into the transcript\"",
    },
];

impl BuiltinRow {
    /// The builtin written `name`, if any
    pub fn named(name: &str) -> Option<&'static BuiltinRow> {
        BUILTINS.iter().find(|row| row.name == name)
    }

    /// The builtins that may be written in `scope`, in the table's order
    pub fn in_scope(scope: BuiltinScope) -> impl Iterator<Item = &'static BuiltinRow> {
        BUILTINS.iter().filter(move |row| row.scope == scope)
    }

    /// How it is written, with a placeholder for each argument: `count(EVENT when CONDITION
    /// within WINDOW)`, `flag(FLAG)`, `any FIELD OP VALUE`, `same_call_count`
    pub fn signature(&self) -> String {
        let name = self.name;
        match self.arguments {
            BuiltinArguments::Nothing => name.to_owned(),
            BuiltinArguments::Counted { window: true } => {
                format!("{name}(EVENT when CONDITION within WINDOW)")
            }
            BuiltinArguments::Counted { window: false } => format!("{name}(EVENT when CONDITION)"),
            BuiltinArguments::Condition => format!("{name}(CONDITION)"),
            BuiltinArguments::Text(what) => format!("{name}({what})"),
            BuiltinArguments::Comparison => format!("{name} FIELD OP VALUE"),
        }
    }

    /// Whether it is written with parentheses after its name
    pub fn is_call(&self) -> bool {
        matches!(
            self.arguments,
            BuiltinArguments::Counted { .. }
                | BuiltinArguments::Condition
                | BuiltinArguments::Text(_)
        )
    }

    /// Whether it may be used in a rule on `kind`
    pub fn usable_on(&self, kind: EventKind) -> bool {
        self.events.contains(&kind)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::vocabulary::{Field, FieldPath};

    #[test]
    fn names_are_unique_and_each_builtin_has_one_row() {
        let names: BTreeSet<&str> = BUILTINS.iter().map(|row| row.name).collect();
        assert_eq!(names.len(), BUILTINS.len());
        for row in &BUILTINS {
            let rows = BUILTINS.iter().filter(|other| other.builtin == row.builtin);
            assert_eq!(rows.count(), 1, "{}", row.name);
            assert_eq!(BuiltinRow::named(row.name), Some(row));
        }
    }

    #[test]
    fn shell_builtins_are_usable_where_a_tools_command_is_read() {
        let command = Field::Arg(FieldPath::default());
        for row in BUILTINS
            .iter()
            .filter(|row| row.scope == BuiltinScope::ShellCommand || row.name.starts_with("shell"))
        {
            assert_eq!(
                row.events,
                command.visible_events().as_slice(),
                "{}",
                row.name
            );
        }
    }

    #[test]
    fn each_example_uses_its_builtin() {
        for row in &BUILTINS {
            let is_word = |ch: char| ch.is_ascii_alphanumeric() || ch == '_' || ch == '.';
            let written = row.example.match_indices(row.name).any(|(start, _)| {
                let after = row
                    .example
                    .get(start + row.name.len()..)
                    .and_then(|rest| rest.chars().next());
                let before = row
                    .example
                    .get(..start)
                    .and_then(|rest| rest.chars().next_back());
                !before.is_some_and(is_word)
                    && match after {
                        Some('(') => row.is_call(),
                        Some(ch) => !row.is_call() && !is_word(ch),
                        None => false,
                    }
            });
            assert!(written, "{}", row.name);
            assert!(row.example.starts_with("on "), "{}", row.name);
        }
    }

    #[test]
    fn signatures_show_the_arguments() {
        let signatures: Vec<String> = BUILTINS.iter().map(BuiltinRow::signature).collect();
        assert!(signatures.contains(&"count(EVENT when CONDITION within WINDOW)".to_owned()));
        assert!(signatures.contains(&"streak(EVENT when CONDITION)".to_owned()));
        assert!(signatures.contains(&"flag(FLAG)".to_owned()));
        assert!(signatures.contains(&"any FIELD OP VALUE".to_owned()));
        assert!(signatures.contains(&"outside_cwd".to_owned()));
    }
}
