//! What cannot be read is a value, found quickly and without a panic: the inputs of
//! issue 12 (an unterminated quote, 10,000 nested subshells, 1 MB, NUL bytes) and random text.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use rulesc_shell::{read, Context, Reading, Unreadable};

/// The bound; a debug build on a shared machine must meet it too
const BOUND: Duration = Duration::from_millis(10);

fn reason(line: &str) -> Option<Unreadable> {
    let started = Instant::now();
    let reading = read(line, &Context::default());
    let took = started.elapsed();
    assert!(took < BOUND, "reading took {took:?}");
    match reading {
        Reading::Unreadable(reason) => Some(reason),
        Reading::Read(_) => None,
    }
}

#[test]
fn hostile_lines_are_unreadable_within_the_bound() {
    let nested = format!("{}ls{}", "(".repeat(10_000), ")".repeat(10_000));
    let huge = format!("echo {}", "a".repeat(1 << 20));
    let cases = [
        (
            "echo 'unterminated",
            Unreadable::Unterminated {
                quote: '\'',
                line: 1,
                column: 6,
            },
        ),
        (
            "ls\necho x \"unterminated",
            Unreadable::Unterminated {
                quote: '"',
                line: 2,
                column: 8,
            },
        ),
        (
            "rm -rf / )",
            Unreadable::SyntaxAt {
                line: 1,
                column: 10,
            },
        ),
        (nested.as_str(), Unreadable::TooDeep),
        (huge.as_str(), Unreadable::TooLong),
        ("rm -rf /\0tmp", Unreadable::Nul),
        ("rm -r\\\nf /", Unreadable::SplitWord),
        ("r\\\nm -rf /", Unreadable::SplitWord),
        ("true &\\\n& rm -rf /", Unreadable::SplitWord),
        ("sh -c 'rm -r\\\nf /'", Unreadable::SplitWord),
        // bash joins a quote and an escaped character into one word: `'r'\m` is `rm`
        ("'r'\\m -rf /", Unreadable::JoinedWord),
        ("\"r\"\\m -rf /", Unreadable::JoinedWord),
        ("X='a'\\b rm -rf /", Unreadable::JoinedWord),
        ("echo x > '/etc/pass'\\wd", Unreadable::JoinedWord),
        ("sh -c \"'r'\\\\m -rf /\"", Unreadable::JoinedWord),
    ];
    for (line, expected) in cases {
        let head: String = line.chars().take(20).collect();
        assert_eq!(reason(line), Some(expected), "{head}");
    }
}

#[test]
fn a_lone_dash_before_a_redirect_is_given_back_to_its_command() {
    let lines = [
        "cat - 2>&1",
        "rm -rf - 2>/dev/null",
        "kubectl apply -f - <<'EOF'\nkind: Namespace\nEOF",
        "python3 - <<'EOF'\nprint(1)\nEOF",
    ];
    for line in lines {
        let Reading::Read(script) = read(line, &Context::default()) else {
            panic!("{line:?} is unreadable");
        };
        // The program the line names: a literal input it reads may come first, as an `echo`.
        let program = line.split(' ').next().unwrap_or_default();
        let last = script
            .commands
            .iter()
            .find(|command| command.program == program)
            .and_then(|command| command.args.last());
        assert_eq!(last.map(String::as_str), Some("-"), "{line:?}");
    }
}

#[test]
fn line_continuations_between_words_are_read() {
    // Blanks around the continuation keep the words apart for the shell as for the parser,
    // and an escaped backslash before a line break is no continuation.
    for line in ["ls \\\n  -la", "make \\\n&& make test", "echo a\\\\\nls"] {
        assert_eq!(reason(line), None, "{line:?}");
    }
}

#[test]
fn characters_beyond_ascii_are_read_as_word_characters() {
    // tree-sitter-bash's scanner gives the character after a `{` to C's `isdigit`, which
    // reads out of bounds (and crashed the process) for characters beyond one byte.
    for ch in ['\u{e9}', '\u{1d7d8}', '\u{2f800}', '\u{10ffff}'] {
        let line = format!("echo {{{ch}..1}}; rm -rf {ch}/");
        match read(&line, &Context::default()) {
            Reading::Read(script) => {
                let rm = script
                    .commands
                    .iter()
                    .find(|command| command.program == "rm");
                assert_eq!(
                    rm.map(|rm| rm.operands.clone()),
                    Some(vec![format!("{ch}/")])
                );
            }
            Reading::Unreadable(reason) => panic!("{line:?}: {reason}"),
        }
    }
}

#[test]
fn nested_scripts_are_read_to_a_bound() {
    // Each `eval` reads the words after it as a script one level deeper.
    let line = format!("{}id", "eval ".repeat(rulesc_shell::MAX_SCRIPT_DEPTH));
    assert_eq!(reason(&line), None);
    let deeper = format!("eval {line}");
    assert_eq!(reason(&deeper), Some(Unreadable::TooDeep));
}

#[test]
fn long_chains_and_many_commands_are_bounded() {
    let chain = vec!["true"; 100].join(" && ");
    assert_eq!(reason(&chain), None);
    let many = vec!["true"; rulesc_shell::MAX_COMMANDS + 1].join(";");
    let reading = read(&many, &Context::default());
    assert_eq!(reading, Reading::Unreadable(Unreadable::TooManyCommands));
}

#[test]
fn a_one_kilobyte_line_reads_within_the_bound() {
    let line = "git status && cargo test --workspace -- --nocapture | tee out.log; ".repeat(15);
    assert!(line.len() >= 1000);
    assert_eq!(reason(&line), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_text_never_panics(line in "\\PC{0,200}") {
        let _ = read(&line, &Context::default());
    }

    #[test]
    fn shell_token_soup_never_panics(
        tokens in proptest::collection::vec(
            prop_oneof![
                Just("sh -c '"), Just("'"), Just("\""), Just("$("), Just(")"), Just("`"),
                Just("<("), Just(">("), Just("|"), Just("&&"), Just(";"), Just("\n"),
                Just("<<EOF\n"), Just("EOF\n"), Just("<<<"), Just("rm -rf /"), Just("\\"),
                Just("{"), Just("}"), Just("("), Just("eval "), Just("sudo "), Just("xargs "),
            ],
            0..40,
        )
    ) {
        let _ = read(&tokens.concat(), &Context::default());
    }
}
