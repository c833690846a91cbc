//! The walk over tree-sitter-bash's syntax tree that collects simple commands.
//!
//! Every node kind not named here is searched through for commands, so a construct the
//! walk does not know (a `case` arm, a `[[ ]]` test, an arithmetic expansion) still yields
//! the commands nested in it.

use std::borrow::Cow;
use std::ops::Range;
use std::time::Instant;

use tree_sitter::{ParseOptions, ParseState, Parser};

use crate::command::{Redirect, Script, SimpleCommand};
use crate::limits::{self, Unreadable, MAX_COMMANDS, MAX_LINKS, MAX_NESTING, MAX_SCRIPT_DEPTH};
use crate::path::normalise;
use crate::syntax::Syntax;
use crate::word::unquote;
use crate::{fast, wrapper, Context};

/// Programs that are shells: `-c` hands them a script, and they read one from their input
const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox"];

/// Reads a whole command line; `fast` lets the fast reader read the lines it can
pub(crate) fn read_script(line: &str, context: &Context, fast: bool) -> Result<Script, Unreadable> {
    let mut reader = Reader {
        context: context.clone(),
        fast,
        parser: None,
        // Agents' lines hold about one command per 20 bytes: room for that (up to a bound)
        // spares the list the reallocations of growing.
        commands: Vec::with_capacity((line.len() / 20).clamp(4, 64)),
        links: 0,
        deadline: Instant::now() + limits::MAX_TIME,
    };
    reader.script(line, &[], Depth::default())?;
    Ok(Script {
        commands: reader.commands,
    })
}

/// A parser of tree-sitter-bash
fn bash_parser() -> Result<Parser, Unreadable> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .map_err(|_| Unreadable::Syntax)?;
    Ok(parser)
}

/// The state of one reading: the parser, made when first needed and reused for nested
/// scripts, the directories paths are resolved against (`cd` changes them as the shell
/// would), and what it found
struct Reader {
    context: Context,
    /// Whether the fast reader reads the lines it can (see [`fast`])
    fast: bool,
    parser: Option<Parser>,
    commands: Vec<SimpleCommand>,
    /// The entries of every command's `stdin_from` so far, for [`MAX_LINKS`]
    links: usize,
    /// When parsing gives up, [`limits::MAX_TIME`] after the reading began
    deadline: Instant,
}

/// Where a node is walked: its source text, the commands feeding its input, and how deep
#[derive(Clone, Copy)]
struct At<'s, 'u> {
    source: &'s str,
    upstream: &'u [usize],
    depth: Depth,
}

/// How deep the walk is, counted across nested scripts so the stack stays bounded
#[derive(Clone, Copy, Default)]
struct Depth {
    /// Scripts deep (`sh -c` in `sh -c`), for [`MAX_SCRIPT_DEPTH`]
    scripts: usize,
    /// Syntax nodes deep, for [`MAX_TREE_DEPTH`]
    nodes: usize,
}

/// Kinds of node that hold no commands: the walk passes them by
const LEAVES: &[&str] = &[
    "comment",
    "heredoc_start",
    "heredoc_end",
    "word",
    "raw_string",
    "string_content",
    "variable_name",
    "file_descriptor",
];

/// The deepest syntax tree walked; `a && b && ...` nests one level per command
const MAX_TREE_DEPTH: usize = 2 * MAX_NESTING;

impl Reader {
    /// Parses `text` as a script whose commands read the output of `upstream`
    fn script(&mut self, text: &str, upstream: &[usize], depth: Depth) -> Result<(), Unreadable> {
        if depth.scripts > MAX_SCRIPT_DEPTH {
            return Err(Unreadable::TooDeep);
        }
        limits::check(text)?;
        let at = At {
            source: text,
            upstream,
            depth,
        };
        if self.fast {
            if let Some(tree) = fast::read(text) {
                return self.node(tree.root(), at, None);
            }
        }
        self.tree_sitter(at)
    }

    /// Parses `at.source` with tree-sitter-bash and walks its tree
    fn tree_sitter(&mut self, at: At<'_, '_>) -> Result<(), Unreadable> {
        let deadline = self.deadline;
        // tree-sitter-bash's scanner hands characters to C's `isdigit`, which reads out of
        // bounds (and can crash the process) beyond one byte. No byte past ASCII is special
        // to the shell, so the parser reads each as `%`, a plain word character, byte for
        // byte: every node keeps its range, and every word is taken from the text itself.
        let bytes: Vec<u8> = at
            .source
            .bytes()
            .map(|byte| if byte.is_ascii() { byte } else { b'%' })
            .collect();
        let mut chunk = |offset: usize, _| bytes.get(offset..).unwrap_or_default();
        // tree-sitter asks this now and then while it parses; `true` stops it.
        let mut too_slow = |_: &ParseState| Instant::now() > deadline;
        let options = ParseOptions::new().progress_callback(&mut too_slow);
        let parser = match &mut self.parser {
            Some(parser) => parser,
            None => self.parser.insert(bash_parser()?),
        };
        let parsed = parser.parse_with_options(&mut chunk, None, Some(options));
        let tree = match parsed {
            Some(tree) => tree,
            None if Instant::now() > deadline => return Err(Unreadable::TooSlow),
            None => return Err(Unreadable::Syntax),
        };
        let root = tree.root_node();
        if root.has_error() {
            return Err(Unreadable::Syntax);
        }
        self.node(root, at, None)
    }

    /// Collects the commands of any node; `stdin` is a literal script fed to its input
    fn node<N: Syntax>(
        &mut self,
        node: N,
        at: At<'_, '_>,
        stdin: Option<String>,
    ) -> Result<(), Unreadable> {
        // Leaves hold no commands; whether one lies below the depth bound does not matter.
        if LEAVES.contains(&node.kind()) {
            return Ok(());
        }
        if at.depth.nodes > MAX_TREE_DEPTH {
            return Err(Unreadable::TooDeep);
        }
        let inner = At {
            depth: Depth {
                nodes: at.depth.nodes + 1,
                ..at.depth
            },
            ..at
        };
        match node.kind() {
            "command" => self.command(node, inner, stdin),
            "pipeline" => self.pipeline(node, inner, stdin),
            "redirected_statement" => self.redirected(node, inner, stdin),
            // A `cd` in a subshell or a substitution ends with it.
            "subshell" | "command_substitution" | "process_substitution" => {
                let cwd = self.context.cwd.clone();
                let upstream = if node.kind() == "subshell" {
                    at.upstream
                } else {
                    &[]
                };
                let walked = self.children(node, At { upstream, ..inner });
                self.context.cwd = cwd;
                walked
            }
            _ => self.children(node, inner),
        }
    }

    fn children<N: Syntax>(&mut self, node: N, at: At<'_, '_>) -> Result<(), Unreadable> {
        for child in node.named_children() {
            self.node(child, at, None)?;
        }
        Ok(())
    }

    /// `a | b | c`: each element reads the output of every element before it, and the
    /// first one reads `stdin`
    fn pipeline<N: Syntax>(
        &mut self,
        node: N,
        at: At<'_, '_>,
        stdin: Option<String>,
    ) -> Result<(), Unreadable> {
        let mut upstream = at.upstream.to_vec();
        let mut literal = stdin;
        // Every element of a pipeline runs in a subshell of its own, so a `cd` in one moves
        // neither the others nor what follows the pipeline.
        let cwd = self.context.cwd.clone();
        for child in node.named_children() {
            self.context.cwd.clone_from(&cwd);
            let start = self.commands.len();
            self.node(
                child,
                At {
                    upstream: &upstream,
                    ..at
                },
                literal.take(),
            )?;
            literal = self.printed_literal(child, start);
            upstream.extend(start..self.commands.len());
        }
        self.context.cwd = cwd;
        Ok(())
    }

    /// What an `echo` or `printf` of literal words prints, when `node` is one
    fn printed_literal<N: Syntax>(&self, node: N, start: usize) -> Option<String> {
        if node.kind() != "command" {
            return None;
        }
        let command = self.commands.get(start)?;
        match command.program.as_str() {
            "echo" => Some(command.operands.join(" ")),
            "printf" => Some(command.operands.join(" ").replace("\\n", "\n")),
            _ => None,
        }
    }

    /// A statement with redirects: output targets, here-documents and here-strings
    fn redirected<N: Syntax>(
        &mut self,
        node: N,
        at: At<'_, '_>,
        stdin: Option<String>,
    ) -> Result<(), Unreadable> {
        let mut redirects = Vec::new();
        let mut script = stdin;
        let mut continuations = Vec::new();
        let redirect_nodes: Vec<N> = node.field("redirect").collect();
        // tree-sitter-bash drops a lone `-` before a descriptor's redirect: `cat - 2>&1` has
        // the `-` in no node, only in the text between the command and its redirect.
        let mut previous_end = node.field("body").next().map(|body| body.byte_range().end);
        for redirect in &redirect_nodes {
            let start = redirect.byte_range().start;
            let gap = previous_end.and_then(|end| at.source.get(end..start));
            if gap.is_some_and(|gap| gap.trim_matches(is_blank) == "-") {
                return Err(Unreadable::DroppedWord);
            }
            previous_end = Some(redirect.byte_range().end);
        }
        for redirect in &redirect_nodes {
            match redirect.kind() {
                "heredoc_redirect" => {
                    for part in redirect.named_children() {
                        match part.kind() {
                            "heredoc_body" => script = Some(text(part, at.source).to_owned()),
                            "heredoc_start" | "heredoc_end" => {}
                            "file_redirect" => {
                                redirects.extend(self.file_redirect(part, at.source)?)
                            }
                            _ => continuations.push(part),
                        }
                    }
                }
                "herestring_redirect" => script = Some(herestring(*redirect, at.source)),
                _ => redirects.extend(self.file_redirect(*redirect, at.source)?),
            }
        }
        let script_text = script.clone();
        let body = node.field("body").next();
        let (upstream, created) = self.around(
            &redirect_nodes,
            &redirects,
            at,
            |reader, upstream| match body {
                Some(body) => reader.node(body, At { upstream, ..at }, script),
                None => Ok(()),
            },
        )?;
        // `cat <<EOF | sh`: the here-document is what the rest of the pipeline reads.
        let forwarded = match self.commands.get(created.clone()) {
            Some([cat]) if cat.program == "cat" && cat.operands.is_empty() => script_text,
            _ => None,
        };
        let mut after = upstream.into_owned();
        after.extend(created);
        for part in continuations {
            self.node(
                part,
                At {
                    upstream: &after,
                    ..at
                },
                forwarded.clone(),
            )?;
        }
        Ok(())
    }

    /// An output redirect to a file (`> f`, `2>> f`, `&> f`); `None` for inputs, descriptors
    /// (`2>&1`) and process substitutions, which feed commands instead; unreadable when the
    /// parser splits its target in two (`> 'a'\b`), where the shell writes to one file
    fn file_redirect<N: Syntax>(
        &self,
        node: N,
        source: &str,
    ) -> Result<Option<Redirect>, Unreadable> {
        let mut operator = String::new();
        let mut target = None;
        for child in node.children() {
            match child.kind() {
                "file_descriptor" => operator.push_str(text(child, source)),
                _ if !child.is_named() => operator.push_str(child.kind()),
                "process_substitution" | "number" => return Ok(None),
                _ if target.is_some() => return Err(Unreadable::JoinedWord),
                _ => target = Some(unquote(text(child, source))),
            }
        }
        let Some(target) = target else {
            return Ok(None);
        };
        let output = operator.contains('>') && !(operator.ends_with('&') && target == "-");
        Ok(output.then(|| Redirect {
            operator,
            target: normalise(&target, &self.context),
        }))
    }

    /// A simple command: its words, the commands its substitutions run, and what it wraps
    fn command<N: Syntax>(
        &mut self,
        node: N,
        at: At<'_, '_>,
        stdin: Option<String>,
    ) -> Result<(), Unreadable> {
        // Room for the words of most commands, so the vector seldom grows.
        let mut words = Vec::with_capacity(8);
        let mut redirects = Vec::new();
        let mut script = stdin;
        // The parts that may hold a substitution, for `around`: few commands have any.
        let mut parts = Vec::new();
        let mut previous_end = None;
        for child in node.named_children() {
            let redirect = matches!(child.kind(), "herestring_redirect" | "file_redirect");
            let range = child.byte_range();
            // A word that starts where the part before it ends is, for the shell, the rest
            // of that part's word (`'r'\m`, `X='a'\b`, `>'f'\g`): tree-sitter-bash ends a word
            // at a `\` after a quote, so the reading would miss the word the shell runs.
            if !redirect && child.kind() != "comment" && previous_end == Some(range.start) {
                return Err(Unreadable::JoinedWord);
            }
            previous_end = Some(range.end);
            match child.kind() {
                "variable_assignment" | "comment" => {}
                "herestring_redirect" => script = Some(herestring(child, at.source)),
                "file_redirect" => redirects.extend(self.file_redirect(child, at.source)?),
                _ => words.push(unquote(text(child, at.source))),
            }
            if may_substitute(text(child, at.source)) {
                parts.push(child);
            }
        }
        self.around(&parts, &redirects, at, |reader, upstream| {
            reader.simple(words, At { upstream, ..at }, script)
        })
        .map(|_| ())
    }

    /// Walks the input substitutions of `parts` (`$(...)`, `<(...)`), then `walk` with them
    /// upstream, gives every command it created `redirects`, then walks the output ones
    /// (`>(...)`); returns the upstream `walk` had and the commands it created
    fn around<'u, N: Syntax>(
        &mut self,
        parts: &[N],
        redirects: &[Redirect],
        at: At<'_, 'u>,
        walk: impl FnOnce(&mut Self, &[usize]) -> Result<(), Unreadable>,
    ) -> Result<(Cow<'u, [usize]>, Range<usize>), Unreadable> {
        let (inputs, outputs) = substitutions(parts);
        let upstream = self.with_inputs(&inputs, at)?;
        let start = self.commands.len();
        walk(self, &upstream)?;
        let created = start..self.commands.len();
        for command in self.commands.get_mut(created.clone()).into_iter().flatten() {
            command.redirects.extend(redirects.iter().cloned());
        }
        self.outputs(&outputs, &upstream, created.clone(), at)?;
        Ok((upstream, created))
    }

    /// Walks substitutions whose output a command reads (`$(...)`, `<(...)`), and returns
    /// the command's upstream with them added
    fn with_inputs<'u, N: Syntax>(
        &mut self,
        inputs: &[N],
        at: At<'_, 'u>,
    ) -> Result<Cow<'u, [usize]>, Unreadable> {
        // Most commands have no substitution: they share the upstream they were given.
        if inputs.is_empty() {
            return Ok(Cow::Borrowed(at.upstream));
        }
        let mut upstream = at.upstream.to_vec();
        for input in inputs {
            let start = self.commands.len();
            self.node(*input, at, None)?;
            upstream.extend(start..self.commands.len());
        }
        Ok(Cow::Owned(upstream))
    }

    /// Walks `>(...)` substitutions, which read the output of the commands just created
    fn outputs<N: Syntax>(
        &mut self,
        outputs: &[N],
        upstream: &[usize],
        created: Range<usize>,
        at: At<'_, '_>,
    ) -> Result<(), Unreadable> {
        if outputs.is_empty() {
            return Ok(());
        }
        let mut feeding = upstream.to_vec();
        feeding.extend(created);
        for output in outputs {
            self.children(
                *output,
                At {
                    upstream: &feeding,
                    ..at
                },
            )?;
        }
        Ok(())
    }

    /// Records the command `words` names, then the commands it runs in turn: the program a
    /// wrapper runs, the script of `sh -c`, `eval` or a shell's input, the command of `find -exec`
    fn simple(
        &mut self,
        words: Vec<String>,
        at: At<'_, '_>,
        stdin: Option<String>,
    ) -> Result<(), Unreadable> {
        let mut args = words;
        let mut stdin = stdin;
        loop {
            // The words after the program stay in the vector they came in.
            if args.is_empty() {
                return Ok(());
            }
            let first = args.remove(0);
            let program = match basename(&first) {
                name if name.len() == first.len() => first,
                name => name.to_owned(),
            };
            let wrapped = wrapper::wrapped(&program, &args);
            // Read all of `args` before the command takes its own words: the scripts it
            // runs, where a `cd` leads and what `find` executes look past a wrapped program.
            let scripts = nested_scripts(&program, &args, stdin.take());
            let cwd = is_cd(&program).then(|| directory_after(&program, &args, &self.context));
            let execs = if program == "find" {
                find_exec(&args)
            } else {
                Vec::new()
            };
            let next = wrapped.map(|at_program| args.split_off(at_program.min(args.len())));
            let command = simple_command(program, args, at.upstream, &self.context);
            self.links += command.stdin_from.len();
            if self.commands.len() >= MAX_COMMANDS || self.links > MAX_LINKS {
                return Err(Unreadable::TooManyCommands);
            }
            self.commands.push(command);
            for script in scripts {
                let depth = Depth {
                    scripts: at.depth.scripts + 1,
                    ..at.depth
                };
                self.script(&script, at.upstream, depth)?;
            }
            if let Some(cwd) = cwd {
                self.context.cwd = cwd;
            }
            for exec in execs {
                self.simple(exec, at, None)?;
            }
            match next {
                Some(rest) => args = rest,
                None => return Ok(()),
            }
        }
    }
}

/// Whether `program` changes the working directory of the commands after it
fn is_cd(program: &str) -> bool {
    program == "cd" || program == "pushd" || program == "popd"
}

/// Where `cd DIR` leads, for the commands after it; a directory only known at run time
/// (`cd "$X"`, `cd -`, `popd`) leaves relative paths unresolved
fn directory_after(program: &str, args: &[String], context: &Context) -> Option<String> {
    let target = args.iter().find(|arg| !arg.starts_with('-') || *arg == "-");
    match (program, target) {
        ("popd", _) => None,
        (_, None) => Some(normalise("~", context)),
        (_, Some(dir)) if dir == "-" || (dir.contains('$') && !dir.starts_with("$HOME")) => None,
        (_, Some(dir)) => Some(normalise(dir, context)),
    }
}

/// A command's record from its program and the words after it
fn simple_command(
    program: String,
    args: Vec<String>,
    upstream: &[usize],
    context: &Context,
) -> SimpleCommand {
    let mut flags = Vec::new();
    let mut operands = Vec::with_capacity(args.len());
    let mut flags_ended = false;
    for arg in &args {
        if flags_ended || arg == "-" || !arg.starts_with('-') {
            operands.push(arg.clone());
        } else if arg == "--" {
            flags_ended = true;
        } else if let Some(long) = arg.strip_prefix("--") {
            let name = long.split_once('=').map_or(long, |(name, _)| name);
            flags.push(flag("--", name));
        } else {
            flags.extend(arg.chars().skip(1).map(|short| {
                let mut buffer = [0; 4];
                flag("-", short.encode_utf8(&mut buffer))
            }));
        }
    }
    let paths = operands
        .iter()
        .map(|operand| normalise(operand, context))
        .collect();
    let mut stdin_from = upstream.to_vec();
    stdin_from.sort_unstable();
    stdin_from.dedup();
    SimpleCommand {
        program,
        args,
        flags,
        operands,
        paths,
        redirects: Vec::new(),
        stdin_from,
    }
}

/// A flag as listed: its dashes, then its name
fn flag(dashes: &str, name: &str) -> String {
    let mut flag = String::with_capacity(dashes.len() + name.len());
    flag.push_str(dashes);
    flag.push_str(name);
    flag
}

/// The scripts a command runs from words or input: `sh -c SCRIPT`, `su -c SCRIPT`,
/// `eval WORDS`, and a literal script fed to a shell that reads its input
fn nested_scripts(program: &str, args: &[String], stdin: Option<String>) -> Vec<String> {
    if program == "eval" {
        return vec![args.join(" ")];
    }
    if program == "su" || program == "runuser" {
        return option_value(args, 'c', "--command").into_iter().collect();
    }
    if !SHELLS.contains(&program) {
        return Vec::new();
    }
    let mut saw_c = false;
    let mut script_file = false;
    for arg in args {
        match arg.strip_prefix('-') {
            Some(cluster) if !cluster.starts_with('-') && cluster.contains('c') => saw_c = true,
            Some(_) if arg != "-" => {}
            _ if saw_c => return vec![arg.clone()],
            _ => {
                script_file = arg != "-";
                break;
            }
        }
    }
    match stdin {
        Some(script) if !saw_c && !script_file => vec![script],
        _ => Vec::new(),
    }
}

/// The value of a short option (`-c VALUE`) or a long one (`--command=VALUE`, `--command VALUE`)
fn option_value(args: &[String], short: char, long: &str) -> Option<String> {
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if let Some(value) = arg
            .strip_prefix(long)
            .and_then(|rest| rest.strip_prefix('='))
        {
            return Some(value.to_owned());
        }
        let is_short = arg
            .strip_prefix('-')
            .is_some_and(|cluster| !cluster.starts_with('-') && cluster.ends_with(short));
        if is_short || arg == long {
            return words.next().cloned();
        }
    }
    None
}

/// The commands `find` runs for each file: `-exec`/`-execdir`/`-ok`/`-okdir` up to `;` or `+`
fn find_exec(args: &[String]) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if ["-exec", "-execdir", "-ok", "-okdir"].contains(&arg.as_str()) {
            let command: Vec<String> = words
                .by_ref()
                .take_while(|word| *word != ";" && *word != "+")
                .cloned()
                .collect();
            commands.push(command);
        }
    }
    commands
}

/// The `$(...)`, backtick and `<(...)` substitutions in `parts`, whose output the command
/// reads, and the `>(...)` ones, which read the command's output
fn substitutions<N: Syntax>(parts: &[N]) -> (Vec<N>, Vec<N>) {
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    // Depth first, last part and last child first (the lists are reversed at the end). A
    // node that cannot hold a substitution is never stacked: a plain command allocates nothing.
    let mut pending: Vec<N> = Vec::new();
    for part in parts.iter().rev() {
        let mut node = Some(*part);
        while let Some(current) = node {
            match current.kind() {
                "command_substitution" => inputs.push(current),
                "process_substitution" => {
                    let reads_output = current
                        .children()
                        .next()
                        .is_some_and(|open| open.kind() == ">(");
                    if reads_output {
                        outputs.push(current);
                    } else {
                        inputs.push(current);
                    }
                }
                kind if DESCENDED.contains(&kind) => pending.extend(
                    current
                        .named_children()
                        .filter(|child| may_hold_substitution(child.kind())),
                ),
                _ => {}
            }
            node = pending.pop();
        }
    }
    inputs.reverse();
    outputs.reverse();
    (inputs, outputs)
}

/// Whether the source text of a node may hold a substitution: every one opens with `$(`,
/// `<(`, `>(` or a backtick, and a node's text holds the text of all its descendants
fn may_substitute(text: &str) -> bool {
    text.bytes().any(|byte| byte == b'(' || byte == b'`')
}

/// Whether a node is a substitution or one [`substitutions`] looks inside
fn may_hold_substitution(kind: &str) -> bool {
    kind == "command_substitution" || kind == "process_substitution" || DESCENDED.contains(&kind)
}

/// The node kinds [`substitutions`] looks inside
const DESCENDED: &[&str] = &[
    "command_name",
    "heredoc_redirect",
    "herestring_redirect",
    "file_redirect",
    "string",
    "concatenation",
    "expansion",
    "variable_assignment",
    "array",
    "heredoc_body",
    "arithmetic_expansion",
    "subscript",
    "binary_expression",
    "unary_expression",
    "parenthesized_expression",
];

/// The word a here-string feeds, after quote removal
fn herestring<N: Syntax>(node: N, source: &str) -> String {
    node.named_children()
        .map(|word| unquote(text(word, source)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The source text of a node
fn text<N: Syntax>(node: N, source: &str) -> &str {
    source.get(node.byte_range()).unwrap_or_default()
}

/// The last component of a program path (`/usr/bin/sudo` is `sudo`)
fn basename(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// Whether `ch` separates words (blanks, and the parts of a line continuation, which
/// `limits` has already vetted)
fn is_blank(ch: char) -> bool {
    matches!(ch, ' ' | '\t' | '\\' | '\n' | '\r')
}
