//! `rulesc check` and `rulesc explain` as docs/cli.md specifies them: exit code, stdout and stderr,
//! snapshotted. The commands run in `tests/ui/` so that paths stay relative and the fixtures
//! of `tests/ui.rs` serve again.

use crate::common;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ui");

/// Runs `rulesc` in the fixture folder without `NO_COLOR`: exit code, stdout, stderr
fn rulesc(args: &[&str]) -> (i32, String, String) {
    common::run(common::command(FIXTURES, args).env_remove("NO_COLOR"), "")
}

/// Exit code, stdout and stderr under headers, as one snapshot
fn transcript(args: &[&str]) -> String {
    common::transcript(args, rulesc(args))
}

macro_rules! snapshot {
    ($name:literal, $args:expr) => {
        insta::with_settings!({prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_snapshot!($name, transcript(&$args));
        })
    };
}

#[test]
fn a_clean_policy_set_exits_0() {
    let (code, stdout, stderr) = rulesc(&["check", "valid/spec-file-structure.rules"]);
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (0, "0 errors, 0 warnings\n", "")
    );
}

#[test]
fn errors_exit_1_with_every_report_off_a_terminal() {
    snapshot!(
        "check-several-files",
        [
            "check",
            "errors/E016-unexpected-stop-reason.rules",
            "errors/E035-invalid-set-target.rules"
        ]
    );
}

#[test]
fn json_lists_every_diagnostic_with_its_place() {
    snapshot!(
        "check-json",
        [
            "check",
            "--format",
            "json",
            "errors/E012-non-ascii-column.rules"
        ]
    );
}

#[test]
fn warnings_fail_only_with_deny_warnings() {
    let path = "warnings/W001-conflicting-effects.rules";
    let (code, stdout, _) = rulesc(&["check", path]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.ends_with("0 errors, 1 warning\n"), "{stdout}");
    let (code, _, _) = rulesc(&["check", "--deny-warnings", path]);
    assert_eq!(code, 1);
}

#[test]
fn a_directory_is_checked_as_one_policy_set() {
    let (code, stdout, _) = rulesc(&["check", "--format", "json", "valid"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("\"errors\": 0"), "{stdout}");
}

#[test]
fn a_file_that_is_not_utf8_is_a_diagnostic_not_a_crash() {
    let (code, stdout, stderr) = rulesc(&["check", "errors/E004-invalid-utf8.rules"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("E004"), "{stdout}");
}

#[test]
fn a_missing_path_exits_2_with_one_line() {
    snapshot!("check-missing-path", ["check", "no/such.rules"]);
}

#[test]
fn explain_prints_the_long_text() {
    snapshot!("explain-E012", ["explain", "E012"]);
}

#[test]
fn explain_finds_a_code_by_name_in_any_case() {
    let (by_id, text, _) = rulesc(&["explain", "e012"]);
    let (by_name, same, _) = rulesc(&["explain", "field-not-visible"]);
    assert_eq!((by_id, by_name), (0, 0));
    assert_eq!(text, same);
}

#[test]
fn explain_list_has_one_line_per_code_in_code_order() {
    let (code, stdout, _) = rulesc(&["explain", "--list"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), rulesc::codes::ALL.len(), "{stdout}");
    for (line, code) in lines.iter().zip(rulesc::codes::ALL) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            words.get(..3),
            Some(&[code.id, code.severity.name(), code.name][..]),
            "{line}"
        );
        assert!(line.ends_with(code.summary), "{line}");
    }
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("E012  error    field-not-visible")),
        "{stdout}"
    );
}

#[test]
fn explain_an_unknown_code_exits_2() {
    snapshot!("explain-unknown", ["explain", "E999"]);
}
