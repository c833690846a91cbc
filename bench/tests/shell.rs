//! The shell benchmark measures what it claims: the 1 KB line is read (not refused as
//! unreadable, which would be a fast path), and neither policy blocks it.

use rulesc::Decision;
use rulesc_bench::shell_lines::{bash_event, glob_guards, line_1kb, safe_shell};
use rulesc_shell::{read, Context, Reading};

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
