//! The shell benchmark measures what it claims: the 1 KB line is read (not refused as
//! unreadable, which would be a fast path), by the fast reader (`read`) and by
//! tree-sitter-bash alone (`read_tree_sitter`) into the same commands, and neither policy
//! blocks it.

use rulesc::Decision;
use rulesc_bench::shell_lines::{bash_event, glob_guards, line_1kb, safe_shell};
use rulesc_shell::{read, read_with_tree_sitter, reads_fast, Context, Reading};

#[test]
fn the_line_is_read_and_both_policies_let_it_run() {
    let line = line_1kb();
    assert!(line.len() >= 1024);
    let Reading::Read(script) = read(&line, &Context::default()) else {
        panic!("the benchmark line is unreadable");
    };
    assert!(script.commands.len() > 20);
    let event = bash_event(&line);
    for policy in [safe_shell().unwrap(), glob_guards().unwrap()] {
        assert_eq!(policy.evaluate(&event).resolution.decision, Decision::None);
    }
}

#[test]
fn the_fast_reader_reads_the_line_as_tree_sitter_bash_does() {
    let line = line_1kb();
    assert!(
        reads_fast(&line),
        "the benchmark line is left to tree-sitter-bash"
    );
    let context = Context {
        cwd: Some("/home/user/project".to_owned()),
        home: None,
        ..Context::default()
    };
    assert_eq!(
        read(&line, &context),
        read_with_tree_sitter(&line, &context)
    );
}
