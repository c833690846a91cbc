//! The fast reader against tree-sitter-bash: on every command line of the corpus and on
//! generated lines, reading with the fast reader ([`read`]) gives exactly what
//! tree-sitter-bash alone gives ([`read_with_tree_sitter`]): the same simple commands, or the
//! same reason the line cannot be read. The fast reader either defers a line or agrees.

use proptest::prelude::*;
use rulesc_shell::{read, read_with_tree_sitter, reads_fast, Context, Reading, Unreadable};

const EVASIONS: &str = include_str!("../../tests/shell/evasions.txt");
const BENIGN: &str = include_str!("../../tests/shell/benign.txt");
const STRUCTURE: &str = include_str!("../../tests/shell/structure.txt");

/// The directories lines are read in: none, and a project with a home
fn contexts() -> [Context; 2] {
    [
        Context::default(),
        Context {
            cwd: Some("/home/u/project".to_owned()),
            home: Some("/home/u".to_owned()),
            ..Context::default()
        },
    ]
}

/// The readings that differ between the two readers, one message each
fn disagreements(line: &str) -> Vec<String> {
    contexts()
        .iter()
        .filter_map(|context| {
            let fast = read(line, context);
            let reference = read_with_tree_sitter(line, context);
            // Running out of time depends on the machine, not the line: no verdict.
            let timed_out = [&fast, &reference]
                .iter()
                .any(|reading| **reading == Reading::Unreadable(Unreadable::TooSlow));
            (fast != reference && !timed_out).then(|| {
                format!("{line:?} in {context:?}\n  fast: {fast:#?}\n  tree-sitter: {reference:#?}")
            })
        })
        .collect()
}

/// The corpus command lines: one per line in the evasion and benign lists, `$ ` lines in
/// the structure list; `\n` stands for a line break
fn corpus() -> Vec<String> {
    let listed = EVASIONS
        .lines()
        .chain(BENIGN.lines())
        .filter(|line| !line.is_empty() && !line.starts_with('#'));
    let structure = STRUCTURE.lines().filter_map(|line| line.strip_prefix("$ "));
    listed
        .chain(structure)
        .map(|line| line.replace("\\n", "\n"))
        .collect()
}

/// Lines written to sit on the edges of what the fast reader reads
const EDGES: &[&str] = &[
    "cd /home/user/project && git status --short && git diff --stat HEAD~3 | tee \"logs/diff $(date +%s).log\" && cargo build --release 2>&1 | grep -E 'warning|error' | head -n 50; echo done <<< \"finished\"",
    "a | b > f | c",
    "a && b | c > f",
    "a > f && b",
    "echo > f hello",
    "echo hi > 5",
    "echo hi >&2",
    "echo hi > -",
    "echo hi >& -",
    "cmd 2>&1 >/dev/null",
    "X= cmd",
    "X=1",
    "X=1 Y=$(curl x | sh)",
    "X=1; rm -rf /",
    "LANG=C sort < in > out",
    "cat <<< \"$(curl x)\" | sh",
    "echo 'rm -rf /' | sh",
    "echo rm -rf / | bash",
    "printf 'rm -rf /' | sh",
    "sh -c 'rm -rf /'",
    "bash -c \"curl x | sh\"",
    "eval rm -rf /",
    "sudo -u root rm -rf /",
    "env X=1 sh -c 'rm -rf ~'",
    "xargs rm -rf < list",
    "find . -name x -exec rm -rf {} \\;",
    "cd /tmp && rm -rf ../etc",
    "cd $HOME/x && rm -rf .",
    "cd \"$X\" && rm -rf .",
    "a &\nb",
    "a;",
    "a &",
    "a\n",
    "a;;b",
    "a |& b",
    "a && \nb",
    "$(a)",
    "$(a; b) c",
    "\"$(a)\"",
    "echo $((1+2))",
    "echo ${x:-y}",
    "echo $1 $? $@",
    "echo `date`",
    "echo {a,b}",
    "echo a # b",
    "! rm -rf /",
    "[ -f x ] && rm x",
    "if true; then rm -rf /; fi",
    "export X=1",
    "local x",
    "time rm -rf /",
    "echo if then fi done",
    "r\\m -rf /",
    "\\rm -rf /",
    "echo \\ a",
    "echo a\\ b",
    "echo == a",
    "echo =~ a",
    "2>/dev/null rm -rf /",
    "rm -rf / 0<<< x",
    "a <<< x > f",
    "a > f <<< x",
    // bash takes here-strings and here-documents among a command's redirects in any order;
    // tree-sitter-bash refuses a here-string after a file's, and is handed it respelled
    "cat > src/version.txt <<< \"1.4.0\"",
    "sh 2>&1 > log <<< 'rm -rf ~'",
    "cat > f <<< x y",
    "cat > f 3<<< x",
    "cat 2>&1 <<EOF\nx\nEOF",
    "cat >f <<-EOF\n\tx\n\tEOF",
    "echo '<<<' > f",
    "a=b=c",
    "a-b=c d",
    "1x=2 cmd",
    "X+=1 cmd",
    "X=(a b) cmd",
    "echo 2&>f",
    "echo a 2 > f",
    "cat < <(curl x) | sh",
    "tee >(sh) < x",
    // bash joins a quote and an escaped character into one word; tree-sitter-bash splits it
    "'r'\\m -rf /",
    "\"r\"\\m -rf /",
    "X='a'\\b rm -rf /",
    "echo x > '/etc/pass'\\wd",
    "echo x >'f'\\g",
    "sh -c \"'r'\\\\m -rf /\"",
    "echo \"$x\"\\y 'a'\\ b",
    "a'b'\\c d",
    "echo x > f g",
    "echo x > 'f'\"g\" h",
    // tree-sitter-bash glues a line break and a `\` after it to the word before
    "a\n\\;",
    "''\n\\;",
    "echo $(a\n\\b)",
    "a\n \\b",
    "a\n\tb",
];

#[test]
fn the_corpus_reads_the_same_through_both_readers() {
    let lines = corpus();
    let mut failures = Vec::new();
    for line in lines
        .iter()
        .map(String::as_str)
        .chain(EDGES.iter().copied())
    {
        failures.extend(disagreements(line));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A differential test of a reader that defers everything would prove nothing.
    let fast = lines.iter().filter(|line| reads_fast(line)).count();
    assert!(
        fast * 2 >= lines.len(),
        "the fast reader reads only {fast} of {} corpus lines",
        lines.len()
    );
}

#[test]
fn the_benchmark_line_and_the_documented_examples_go_to_the_reader_named() {
    assert!(EDGES.first().is_some_and(|line| reads_fast(line)));
    // docs/shell.md, "How a command line is read"
    assert!(reads_fast(
        "cd web && npm ci 2>&1 | tail -n 5; echo \"built $(date)\""
    ));
    assert!(!reads_fast("if [ -f x ]; then rm x; fi"));
}

/// Mostly `common`, now and then `rare`: lines stay in the fast reader's subset often
/// enough, and still step just outside it
fn mostly(common: &[&'static str], rare: &[&'static str]) -> BoxedStrategy<String> {
    prop_oneof![
        24 => prop::sample::select(common.to_vec()),
        1 => prop::sample::select(rare.to_vec()),
    ]
    .prop_map(str::to_owned)
    .boxed()
}

/// Plain words: flags, paths, numbers, programs that wrap or run scripts, words that are
/// keywords or assignments elsewhere; and rarely what the fast reader must defer
fn plain_word() -> BoxedStrategy<String> {
    mostly(
        &[
            "rm",
            "-rf",
            "-r",
            "/",
            "git",
            "push",
            "-f",
            "origin",
            "+main",
            "a",
            "x.txt",
            "~",
            "~/x",
            "/tmp/../etc",
            "50",
            "-5",
            "0x1",
            "0xg",
            "1",
            "2",
            "-",
            "--",
            "--force=yes",
            "*.rs",
            "a?b",
            "if",
            "done",
            "in",
            "then",
            "fi",
            "time",
            "sudo",
            "env",
            "X=1",
            "a=b",
            "sh",
            "bash",
            "-c",
            "curl",
            "wget",
            "echo",
            "printf",
            "cat",
            "cd",
            "..",
            "pushd",
            "popd",
            "xargs",
            "find",
            "-exec",
            "eval",
            "tee",
            "nohup",
            "timeout",
            "5",
            "r\\m",
            "\\;",
            "a\\ b",
            "HEAD~3",
            "+%s",
            "%",
            "a,b",
            "@x",
            "x:y",
            "^",
            "a+b",
            "a%b",
            "\\m",
        ],
        &[
            "=x", "==", "=~", "export", "local", "unset", "declare", "!", "#x", "{", "}", "[", "]",
            "{a,b}", "a]", "\\", "a\\",
        ],
    )
}

/// Operators and redirections, with and without blanks around them, and their near misses
fn operator() -> BoxedStrategy<String> {
    mostly(
        &[
            " && ",
            "&&",
            " || ",
            "||",
            " | ",
            "|",
            " ; ",
            ";",
            " & ",
            "&",
            "\n",
            ";\n",
            " > f",
            ">f",
            " >> f",
            " 2>&1",
            "2>&1",
            " &> f",
            "&>>f",
            " <<< w",
            "<<<w",
            " < in",
            " >& 2",
            " 2> /dev/null",
            " > 5",
            " >| f",
            " 2>&1 ",
            " > -",
            " >& -",
            "\t",
            "  ",
            " > f g",
        ],
        &[
            ";;",
            "|&",
            " && \n",
            " \n",
            "\n\n",
            " >&-",
            " <&-",
            " <<EOF\nx\nEOF\n",
            " <> f",
            " 0<<< w",
            " (",
            ")",
            " ( a )",
            " {",
            " }",
            "\\\n",
            " # c",
            " !",
            "\r",
            "\u{e9}",
        ],
    )
}

/// A word: plain, quoted, expanded or glued together, up to `depth` substitutions deep
fn word(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        8 => plain_word(),
        2 => "[a-z/ .|;&$-]{0,6}".prop_map(|inside| format!("'{inside}'")),
        2 => mostly(
            &["$HOME", "${HOME}", "$x", "$x_y", "${x}", "$_"],
            &["$1", "$?", "$@", "$$", "$'r\\x6d'", "$\"x\"", "$((1))", "`date`", "$",
              "${x:-y}", "${1}"],
        ),
        2 => prop::collection::vec(
            mostly(
                &["a", " ", "rm -rf /", "$x", "${y}", "\\\"", "\\\\", "\\$", "\\n", "'", "|"],
                &["`x`", "$1", "#", "!", "\n", "$(", ")"],
            ),
            0..5,
        )
        .prop_map(|parts| format!("\"{}\"", parts.concat())),
    ];
    if depth == 0 {
        return prop::collection::vec(leaf, 1..3)
            .prop_map(|pieces| pieces.concat())
            .boxed();
    }
    let substitution = line(depth - 1).prop_map(|inside| format!("$({inside})"));
    let quoted = line(depth - 1).prop_map(|inside| format!("\"a $({inside}) b\""));
    let script = line(depth - 1).prop_map(|inside| format!("'{}'", inside.replace('\'', "")));
    let piece = prop_oneof![8 => leaf, 1 => substitution, 1 => quoted, 1 => script];
    prop::collection::vec(piece, 1..3)
        .prop_map(|pieces| pieces.concat())
        .boxed()
}

/// A command: assignments, a name, arguments and here-strings, then redirections
fn command(depth: u32) -> impl Strategy<Value = String> {
    let assignment = (
        prop::sample::select(vec!["X", "LANG", "a_1", "HOME", "1x", "x"]),
        prop::sample::select(vec!["=", "+="]),
        prop::option::of(word(depth)),
    )
        .prop_map(|(name, operator, value)| {
            format!("{name}{operator}{}", value.unwrap_or_default())
        });
    let program = prop_oneof![
        3 => mostly(
            &[
                "rm", "git", "sh", "bash", "echo", "cat", "sudo", "env", "xargs", "find", "eval",
                "cd", "curl", "tee", "printf", "timeout", "nohup", "/bin/rm", "\"rm\"", "r\\m",
                "'sh'", "$x", "su", "pushd",
            ],
            &["if", "time", "done", "a?b", "x:y", "!", "export", "[", "{", "1x=2"],
        ),
        1 => word(depth),
    ];
    (
        prop::collection::vec(assignment, 0..2),
        prop::option::weighted(0.95, program),
        prop::collection::vec(word(depth), 0..5),
        prop::collection::vec(operator(), 0..2),
    )
        .prop_map(|(assignments, program, words, tail)| {
            let mut parts = assignments;
            parts.extend(program);
            parts.extend(words);
            format!("{}{}", parts.join(" "), tail.concat())
        })
}

/// A command line: commands joined by operators
fn line(depth: u32) -> BoxedStrategy<String> {
    (
        command(depth),
        prop::collection::vec((operator(), command(depth)), 0..4),
    )
        .prop_map(|(first, rest)| {
            let mut line = first;
            for (operator, command) in rest {
                line.push_str(&operator);
                line.push_str(&command);
            }
            line
        })
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Generated lines, most of them in the fast reader's subset and the rest just outside
    #[test]
    fn generated_lines_read_the_same_through_both_readers(line in line(2)) {
        let failures = disagreements(&line);
        prop_assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

#[test]
fn the_generator_reaches_the_fast_reader() {
    // A generator whose lines the fast reader always defers would test nothing.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = line(2);
    let samples = 2_000;
    let mut fast = 0;
    for _ in 0..samples {
        let Ok(tree) = strategy.new_tree(&mut runner) else {
            continue;
        };
        if reads_fast(&proptest::strategy::ValueTree::current(&tree)) {
            fast += 1;
        }
    }
    println!("the fast reader reads {fast} of {samples} generated lines");
    assert!(fast * 10 >= samples, "only {fast} of {samples}");
}
