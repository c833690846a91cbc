//! The files a writing program's words name (`cp x /etc/hosts`, `dd of=/dev/sda`, `tar -x
//! -C ~`), read by the rows of [`WRITERS`](crate::knowledge::WRITERS): what a command writes
//! besides its output redirects.

use crate::expand::{self, UnknownWord};
use crate::knowledge::{self, Destination, Glued, Writer};
use crate::path::normalise;
use crate::Context;

/// The words of a writing command, sorted: the options given with their values, the flags,
/// and the operands in order
#[derive(Debug, Default)]
struct Sorted<'a> {
    values: Vec<(&'a str, &'a str)>,
    flags: Vec<&'a str>,
    operands: Vec<&'a str>,
}

/// What `args` of a program write by its rows of the writers, `rows`, in order: each as a
/// word to read as a path (a folder's contents as `DIR/*`), or what is known of it when it
/// is only known at run time. The words are sorted by the options a row says take a value;
/// a program's rows share one such list (git's three), so the words are sorted once for
/// the rows that follow one another with the same list.
pub(crate) fn written<'a>(
    rows: impl IntoIterator<Item = &'static Writer>,
    args: &'a [String],
    context: &Context,
    has_input: bool,
) -> Vec<Result<String, UnknownWord>> {
    let mut out = Vec::new();
    let mut sorted: Option<(&[&str], Sorted<'a>)> = None;
    for row in rows {
        let (valued, words) = match sorted.take() {
            Some((valued, words)) if std::ptr::eq(valued, row.valued) => (valued, words),
            _ => (row.valued, sort(row, args)),
        };
        out.extend(written_by(row, &words, args, context, has_input));
        sorted = Some((valued, words));
    }
    out
}

/// Whether `program` run with `args` clones a repository (a [`Destination::Clone`] row): the
/// folder it writes holds what was fetched. Its words are sorted as the row sorts them, so
/// a global option's value is no subcommand (`git -c http.sslVerify=false clone URL`).
pub(crate) fn clones(program: &str, args: &[String]) -> bool {
    knowledge::writers(program).any(|row| match row.destination {
        Destination::Clone(subcommand) => sort(row, args).operands.starts_with(subcommand),
        _ => false,
    })
}

/// What `args`, sorted as `words`, of a program of `row` write
fn written_by(
    row: &Writer,
    words: &Sorted<'_>,
    args: &[String],
    context: &Context,
    has_input: bool,
) -> Vec<Result<String, UnknownWord>> {
    let mut out = Vec::new();
    match row.destination {
        Destination::Last {
            into,
            exact,
            recursive,
        } => {
            let recursive = words.flags.iter().any(|flag| has(recursive, flag));
            let into_folder = words
                .values
                .iter()
                .find(|(option, _)| into.contains(option))
                .map(|(_, folder)| *folder);
            let (sources, destination) = match (into_folder, words.operands.split_last()) {
                (Some(folder), _) => (words.operands.as_slice(), folder),
                (None, Some((last, sources))) if !sources.is_empty() => (sources, *last),
                _ => return out,
            };
            // A remote destination (`host:path`) is written on another machine.
            if destination
                .split('/')
                .next()
                .is_some_and(|head| head.contains(':'))
            {
                return out;
            }
            // Into a folder (`-t DIR`, several sources), only what lands inside is written.
            if into_folder.is_none() && sources.len() == 1 {
                out.push(word(destination));
            }
            if recursive {
                out.push(word(&format!("{}/*", destination.trim_end_matches('/'))));
            }
            let is_exact = words.flags.iter().any(|flag| has(exact, flag));
            if !is_exact || into_folder.is_some() {
                for source in sources {
                    if let Some(name) = last_part(source, context) {
                        out.push(word(&format!(
                            "{}/{name}",
                            destination.trim_end_matches('/')
                        )));
                    }
                }
            }
        }
        Destination::Every => out.extend(
            words
                .operands
                .iter()
                .filter(|operand| !is_process_substitution(operand))
                .map(|operand| word(operand)),
        ),
        Destination::Trees(options) => {
            let roots = words.operands.iter().copied().chain(
                words
                    .values
                    .iter()
                    .filter(|(option, _)| options.contains(option))
                    .map(|(_, root)| *root),
            );
            for root in roots.filter(|root| !root.contains("://") && !is_process_substitution(root))
            {
                out.push(word(root));
                out.push(word(&format!("{}/*", root.trim_end_matches('/'))));
            }
        }
        Destination::After(skipped) => out.extend(
            words
                .operands
                .iter()
                .skip(skipped)
                .filter(|operand| !is_process_substitution(operand))
                .map(|operand| word(operand)),
        ),
        Destination::Nth { commands, at } => {
            let writes = commands.is_empty()
                || words
                    .operands
                    .first()
                    .is_some_and(|command| commands.contains(command));
            if writes {
                out.extend(words.operands.get(at).map(|archive| word(archive)));
            }
        }
        Destination::TarArchive(options) => {
            if tar_writes_archive(row, args) {
                let mut archives: Vec<&str> = words
                    .values
                    .iter()
                    .filter(|(option, _)| options.contains(option))
                    .map(|(_, archive)| *archive)
                    .collect();
                let old_style = old_style_values(row, args);
                archives.extend(
                    old_style
                        .iter()
                        .filter(|(option, _)| options.contains(&option.as_str()))
                        .map(|(_, archive)| *archive),
                );
                archives.extend(
                    args.iter()
                        .filter_map(|arg| glued_value(row, options, arg, Glued::Getopt))
                        .filter(|archive| !archive.is_empty()),
                );
                // `-f -` is the standard output.
                out.extend(
                    archives
                        .into_iter()
                        .filter(|archive| *archive != "-")
                        .map(word),
                );
            }
        }
        Destination::Compressed {
            suffix,
            decompressor,
            decompress,
            no_file,
        } => {
            let elsewhere = words.flags.iter().any(|flag| has(no_file, flag))
                || words
                    .values
                    .iter()
                    .any(|(option, _)| no_file.contains(option));
            if !elsewhere {
                // gzip(1), xz(1), brotli(1), lzop(1): `-S .x` names the suffix instead.
                let suffix = words
                    .values
                    .iter()
                    .find(|(option, _)| matches!(*option, "-S" | "--suffix"))
                    .map_or(suffix, |(_, own)| *own);
                let decompressing =
                    decompressor || words.flags.iter().any(|flag| has(decompress, flag));
                let recursive = words
                    .flags
                    .iter()
                    .any(|flag| has(&["-r", "--recursive"], flag));
                for operand in &words.operands {
                    if *operand == "-" || is_process_substitution(operand) {
                        continue;
                    }
                    if expand::is_unknown(operand) || recursive {
                        out.push(word(operand));
                        out.push(word(&format!("{}/*", operand.trim_end_matches('/'))));
                    } else if !decompressing {
                        out.push(word(&format!("{operand}{suffix}")));
                    } else if let Some(plain) = operand.strip_suffix(suffix) {
                        out.push(word(plain));
                    }
                }
            }
        }
        Destination::Confirmed(options) if has_input => {
            for (option, value) in &words.values {
                if options.contains(option) {
                    out.push(word(value));
                }
            }
        }
        Destination::Confirmed(_) => {}
        Destination::Options(options) => {
            // `-o -` names the standard output, not a file.
            for (option, value) in &words.values {
                if options.contains(option) && *value != "-" {
                    out.push(word(value));
                }
            }
            let glued = || {
                options
                    .iter()
                    .filter(|option| option.ends_with('=') && !option.starts_with("--"))
            };
            for arg in args {
                match UnknownWord::decode(arg) {
                    // `of="$X"`: the option is known, its value only at run time.
                    Some(mut unknown) => {
                        let value = glued()
                            .find_map(|start| unknown.prefix.strip_prefix(start))
                            .or_else(|| glued_value(row, options, &unknown.prefix, Glued::Getopt));
                        if let Some(rest) = value {
                            unknown.prefix = rest.to_owned();
                            out.push(Err(unknown));
                        } else if glued().any(|start| start.starts_with(unknown.prefix.as_str())) {
                            // `dd "$o"`: a word only run time knows may itself be `of=FILE`.
                            unknown.prefix.clear();
                            unknown.name = false;
                            out.push(Err(unknown));
                        }
                    }
                    None => {
                        let value = glued()
                            .find_map(|start| arg.strip_prefix(start))
                            .or_else(|| glued_value(row, options, arg, Glued::Getopt))
                            .filter(|value| !value.is_empty() && *value != "-");
                        if let Some(value) = value {
                            out.push(word(value));
                        }
                    }
                }
            }
        }
        Destination::Folder {
            options,
            glued,
            tar_extracting,
        } => {
            if !tar_extracting || tar_extracts(row, args) {
                let mut folders: Vec<Result<String, UnknownWord>> = words
                    .values
                    .iter()
                    .filter(|(option, _)| options.contains(option))
                    .map(|(_, folder)| word(folder))
                    .collect();
                if tar_extracting {
                    folders.extend(
                        old_style_values(row, args)
                            .into_iter()
                            .filter(|(option, _)| options.contains(&option.as_str()))
                            .map(|(_, folder)| word(folder)),
                    );
                }
                for arg in args {
                    match UnknownWord::decode(arg) {
                        // `-o"$D"`: the option is known, its folder only at run time.
                        Some(mut unknown) => {
                            if let Some(rest) = glued_value(row, options, &unknown.prefix, glued) {
                                unknown.prefix = rest.to_owned();
                                folders.push(Err(unknown));
                            }
                        }
                        None => folders.extend(
                            glued_value(row, options, arg, glued)
                                .filter(|folder| !folder.is_empty())
                                .map(word),
                        ),
                    }
                }
                // Given no folder, it unpacks into the one it runs in (`cd / && tar xf a`);
                // `tar -P` keeps the entries' absolute names, which land anywhere.
                let unpacker = tar_extracting || row.programs.contains(&"unzip");
                if unpacker && folders.is_empty() {
                    folders.push(word("."));
                }
                if tar_extracting && tar_mode(row, args, &['P'], &["--absolute-names"]) {
                    folders.push(word("/"));
                }
                for folder in folders {
                    match folder {
                        Ok(folder) => {
                            let below = format!("{}/*", folder.trim_end_matches('/'));
                            out.push(Ok(folder));
                            out.push(word(&below));
                        }
                        Err(unknown) => out.push(Err(unknown)),
                    }
                }
            }
        }
        Destination::Module {
            modules,
            extract,
            create,
        } => {
            let Some((name, module_args)) = knowledge::python_module(args) else {
                return out;
            };
            if !modules.contains(&name) {
                return out;
            }
            let mut module_words = module_args.iter();
            while let Some(arg) = module_words.next() {
                if extract.contains(&arg.as_str()) {
                    let folder = module_words
                        .nth(1)
                        .filter(|folder| !folder.starts_with('-'));
                    if let Some(folder) = folder {
                        out.push(word(folder));
                        out.push(word(&format!("{}/*", folder.trim_end_matches('/'))));
                    }
                } else if create.contains(&arg.as_str()) {
                    out.extend(module_words.next().map(|archive| word(archive)));
                }
            }
        }
        Destination::Setting {
            commands,
            reads,
            scopes,
            files,
            default,
        } => {
            let starts = |command: &&&[&str]| {
                command.len() <= words.operands.len()
                    && command
                        .iter()
                        .zip(&words.operands)
                        .all(|(want, word)| want == word)
            };
            let Some(command) = commands.iter().find(starts) else {
                return out;
            };
            let reading = words.flags.iter().any(|flag| reads.contains(flag))
                || words
                    .operands
                    .get(command.len())
                    .is_some_and(|word| reads.contains(word));
            // A command with nothing after it only shows the settings (`git config`).
            if reading || words.operands.len() == command.len() && command.len() == 1 {
                return out;
            }
            let file = words
                .values
                .iter()
                .rev()
                .find(|(option, _)| files.contains(option));
            if let Some((_, file)) = file {
                out.push(below_git_folders(words, file));
                return out;
            }
            let scope = scopes
                .iter()
                .find(|(flag, _)| words.flags.contains(flag))
                .map(|(_, file)| *file);
            out.extend(scope.or(default).map(word));
        }
        Destination::UrlName {
            when,
            unless,
            folder,
            name,
        } => {
            let saves = when.is_empty() || words.flags.iter().any(|flag| has(when, flag));
            let elsewhere = words
                .values
                .iter()
                .any(|(option, _)| unless.contains(option))
                || words.flags.iter().any(|flag| has(unless, flag));
            let last_of = |options: &[&str]| {
                words
                    .values
                    .iter()
                    .rev()
                    .find(|(option, _)| options.contains(option))
                    .map(|(_, value)| *value)
            };
            let names: Vec<String> = match last_of(name) {
                Some(named) => vec![named.to_owned()],
                None if saves && !elsewhere => words
                    .operands
                    .iter()
                    .filter_map(|url| url_name(url))
                    .collect(),
                None => Vec::new(),
            };
            let folder = last_of(folder);
            out.extend(names.iter().map(|file| match folder {
                Some(folder) if expand::is_unknown(folder) => word(folder),
                Some(folder) if !file.starts_with(['/', '~']) && !expand::is_unknown(file) => {
                    word(&format!("{}/{file}", folder.trim_end_matches('/')))
                }
                _ => word(file),
            }));
        }
        Destination::Extract(flags) => {
            if words.flags.iter().any(|flag| has(flags, flag)) {
                if let Some(folder) = words.operands.get(1) {
                    out.push(word(folder));
                    out.push(word(&format!("{}/*", folder.trim_end_matches('/'))));
                }
            }
        }
        Destination::Clone(subcommand) => {
            if words.operands.get(..subcommand.len()) != Some(subcommand) {
                return out;
            }
            let folder = match words.operands.get(subcommand.len()..) {
                Some([_, folder, ..]) => Some((*folder).to_owned()),
                Some([url]) => clone_folder(url),
                _ => None,
            };
            if let Some(folder) = folder {
                out.push(word(&folder));
                out.push(word(&format!("{}/*", folder.trim_end_matches('/'))));
            }
        }
        Destination::Init => {
            if words.operands.first() != Some(&"init") {
                return out;
            }
            let bare = words.flags.contains(&"--bare");
            let folder = words.operands.get(1).copied().unwrap_or(".");
            let repository = match words
                .values
                .iter()
                .find(|(option, _)| *option == "--git-dir")
            {
                Some((_, git_dir)) => below_git_folders(words, git_dir),
                None if bare || expand::is_unknown(folder) => below_git_folders(words, folder),
                None => below_git_folders(words, &format!("{folder}/.git")),
            };
            let separate = words
                .values
                .iter()
                .filter(|(option, _)| *option == "--separate-git-dir")
                .map(|(_, git_dir)| below_git_folders(words, git_dir));
            for written in std::iter::once(repository).chain(separate) {
                match written {
                    Ok(folder) => {
                        let below = format!("{}/*", folder.trim_end_matches('/'));
                        out.push(Ok(folder));
                        out.push(Ok(below));
                    }
                    Err(unknown) => out.push(Err(unknown)),
                }
            }
        }
        Destination::InPlace(flags) => {
            let in_place = words.flags.iter().any(|flag| {
                has(flags, flag) || (flag.starts_with("-i") && !flag.starts_with("--"))
            });
            let script_given = words
                .values
                .iter()
                .any(|(option, _)| matches!(*option, "-e" | "--expression" | "-f" | "--file"));
            if in_place {
                out.extend(files_after_script(words, script_given).map(word));
            }
        }
        Destination::SedScript => out.extend(
            knowledge::sed_scripts(args)
                .flat_map(knowledge::sed_writes)
                .map(|file| word(&file)),
        ),
        Destination::Included(libraries) => {
            let included = words.values.iter().any(|(option, value)| {
                matches!(*option, "-i" | "--include") && libraries.contains(value)
            });
            let program_given = words
                .values
                .iter()
                .any(|(option, _)| matches!(*option, "-f" | "--file" | "-e" | "--source"));
            if included {
                out.extend(files_after_script(words, program_given).map(word));
            }
        }
    }
    out
}

/// `path` as git reaches it: below the folders of its folder options (`-C`,
/// [`knowledge::FOLDER_OPTIONS`]), unless it is absolute; what is known of it when a part is
/// only known at run time
fn below_git_folders(words: &Sorted<'_>, path: &str) -> Result<String, UnknownWord> {
    let options = knowledge::folder_options("git").map_or(&[][..], |row| row.options);
    let folders = words
        .values
        .iter()
        .filter(|(option, folder)| options.contains(option) && !folder.is_empty())
        .map(|(_, folder)| *folder);
    for folder in std::iter::once(path).chain(folders.clone()) {
        if expand::is_unknown(folder) {
            return word(folder);
        }
    }
    word(&knowledge::below_folders(folders, path))
}

/// The operands of a program whose folder option moves the operands after it (`tar -C DIR`,
/// [`knowledge::FOLDER_OPTIONS`]), as it reaches them: below the folders named before each
/// (`tar cf k.tar -C ~ .ssh` archives `~/.ssh`). Every word after the option that is no
/// option is taken for an operand, so an option's value may be joined too: a path more,
/// never one fewer.
pub(crate) fn operands_below_folders(program: &str, args: &[String]) -> Vec<String> {
    let Some(row) = knowledge::folder_options(program).filter(|row| row.operands_after) else {
        return Vec::new();
    };
    let mut folders: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let named = if row.options.contains(&arg.as_str()) {
            words.next().cloned()
        } else {
            row.options.iter().find_map(|option| {
                let rest = arg.strip_prefix(option)?;
                let value = if option.starts_with("--") {
                    rest.strip_prefix('=')?
                } else {
                    rest
                };
                (!value.is_empty()).then(|| value.to_owned())
            })
        };
        if let Some(dir) = named {
            folders.push(dir);
        } else if !folders.is_empty() && !arg.starts_with('-') && !arg.starts_with(['/', '~']) {
            out.push(knowledge::below_folders(
                folders.iter().map(String::as_str),
                arg,
            ));
        }
    }
    out
}

/// The name a download of `url` is saved under: its path's last part, `index.html` for
/// none; `None` for a word that is no URL
fn url_name(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let path = rest.split(['?', '#']).next().unwrap_or_default();
    let name = match path.split_once('/') {
        Some((_, path)) => path.rsplit('/').next().unwrap_or_default(),
        None => "",
    };
    Some(if name.is_empty() { "index.html" } else { name }.to_owned())
}

/// The folder `git clone URL` makes: the URL's last part without `.git`, as git names it;
/// `None` when the URL is only known at run time
fn clone_folder(url: &str) -> Option<String> {
    if expand::is_unknown(url) {
        return None;
    }
    let last = url
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()
        .filter(|last| !last.is_empty())?;
    Some(last.strip_suffix(".git").unwrap_or(last).to_owned())
}

/// A destination word: itself, or what is known of it when it is only known at run time
fn word(text: &str) -> Result<String, UnknownWord> {
    match UnknownWord::decode(text) {
        Some(unknown) => Err(unknown),
        None => Ok(text.to_owned()),
    }
}

/// Whether `list` holds `flag`, or a short flag of a cluster (`-rf` holds `-r`)
fn has(list: &[&str], flag: &str) -> bool {
    list.contains(&flag)
        || (!flag.starts_with("--")
            && flag.len() > 2
            && flag.chars().skip(1).any(|short| {
                list.iter()
                    .any(|entry| entry.len() == 2 && entry.ends_with(short))
            }))
}

/// The last part of a source's path, as the shell expands it: the name it takes inside a
/// folder (`~` lands as the home's name)
fn last_part(source: &str, context: &Context) -> Option<String> {
    if expand::is_unknown(source) || is_process_substitution(source) {
        return None;
    }
    // A remote source (`host:path`, `user@host:dir/x.sh`) lands under its remote name.
    let source = match source.split_once(':') {
        Some((host, "")) if !host.contains('/') => return None,
        Some((host, remote)) if !host.contains('/') => remote,
        _ => source,
    };
    let path = normalise(source, context);
    path.rsplit('/')
        .next()
        .filter(|name| !name.is_empty() && !name.starts_with('~') && *name != "..")
        .map(str::to_owned)
}

/// Whether an operand is a process substitution (`>(sh)`), a pipe rather than a file
fn is_process_substitution(operand: &str) -> bool {
    operand.starts_with(">(") || operand.starts_with("<(")
}

/// Whether `program` unpacks an archive into a folder (`tar x`, `unzip`, `7z`): a row of
/// [`knowledge::writers`] that writes anything below a folder, `tar` only when it extracts
pub(crate) fn unpacks(program: &str, args: &[String]) -> bool {
    knowledge::writers(program).any(|row| match row.destination {
        Destination::Folder { tar_extracting, .. } => !tar_extracting || tar_extracts(row, args),
        Destination::Module { .. } => true,
        _ => false,
    })
}

/// Whether a `tar` command extracts: `-x`, `--extract`, `--get`, or `x` in a first word
/// without a dash (`tar xzf a.tgz`)
fn tar_extracts(row: &Writer, args: &[String]) -> bool {
    tar_mode(row, args, &['x'], &["--extract", "--get"])
}

/// Whether a `tar` command writes its archive: it creates, appends, updates, concatenates
/// or deletes (tar(1): `-c`, `-r`, `-u`, `-A`, `--delete`)
fn tar_writes_archive(row: &Writer, args: &[String]) -> bool {
    tar_mode(
        row,
        args,
        &['c', 'r', 'u', 'A'],
        &[
            "--create",
            "--append",
            "--update",
            "--catenate",
            "--concatenate",
            "--delete",
        ],
    )
}

/// Whether a `tar` command is given one of the modes `letters` or `long`: a long option, a
/// letter in a first word without a dash (not one only known at run time, whose letters
/// are unknown), or in a cluster only before an option whose value is glued on (the `x`
/// of `-C/tmp/x` is a folder's)
fn tar_mode(row: &Writer, args: &[String], letters: &[char], long: &[&str]) -> bool {
    args.iter().enumerate().any(|(at, arg)| {
        long.contains(&arg.as_str())
            || (at == 0
                && !arg.starts_with('-')
                && !expand::is_unknown(arg)
                && arg.contains(letters))
            || arg
                .strip_prefix('-')
                .filter(|cluster| !cluster.starts_with('-'))
                .is_some_and(|cluster| {
                    cluster
                        .chars()
                        .take_while(|letter| !takes_value(row, *letter))
                        .any(|letter| letters.contains(&letter))
                })
    })
}

/// Whether the short option `-LETTER` of `row` takes a value
fn takes_value(row: &Writer, letter: char) -> bool {
    row.valued.iter().any(|option| {
        option.len() == 2
            && option.starts_with('-')
            && option.ends_with(letter)
            && !option.starts_with("--")
    })
}

/// The value glued to a short option of `options` in `arg` (`-o/etc/x`), or, read as
/// getopt reads a cluster, ending one after flags that take no value (`-sSLo/etc/x`);
/// empty when the value is the next word (`-sSLo FILE`)
fn glued_value<'a>(row: &Writer, options: &[&str], arg: &'a str, glued: Glued) -> Option<&'a str> {
    if glued == Glued::Never {
        return None;
    }
    let cluster = arg
        .strip_prefix('-')
        .filter(|rest| !rest.starts_with('-'))?;
    let is_option = |letter: char| {
        options
            .iter()
            .any(|option| option.len() == 2 && option.starts_with('-') && option.ends_with(letter))
    };
    for (start, letter) in cluster.char_indices() {
        let rest = cluster.get(start + letter.len_utf8()..)?;
        if is_option(letter) {
            return Some(rest);
        }
        if glued != Glued::Getopt || takes_value(row, letter) {
            return None;
        }
    }
    None
}

/// The values of `tar`'s options in an old-style first word without a dash (`tar xfC a.tar
/// DIR`): each letter that takes a value takes the next word after the first, in turn
fn old_style_values<'a>(row: &Writer, args: &'a [String]) -> Vec<(String, &'a str)> {
    let Some((first, rest)) = args.split_first() else {
        return Vec::new();
    };
    if first.starts_with('-') || expand::is_unknown(first) {
        return Vec::new();
    }
    first
        .chars()
        .filter(|letter| takes_value(row, *letter))
        .zip(rest)
        .map(|(letter, value)| (format!("-{letter}"), value.as_str()))
        .collect()
}

/// The operands of an editing program after its script, which is the first operand unless
/// an option gave it (`sed -e S F`, `gawk -f P F`)
fn files_after_script<'s, 'a>(
    words: &'s Sorted<'a>,
    script_given: bool,
) -> impl Iterator<Item = &'a str> + 's {
    words
        .operands
        .iter()
        .skip(usize::from(!script_given))
        .copied()
}

/// Sorts `args` by the row's options that take a value
fn sort<'a>(row: &'a Writer, args: &'a [String]) -> Sorted<'a> {
    let mut sorted = Sorted::default();
    let mut words = args.iter();
    let mut options_ended = false;
    while let Some(arg) = words.next() {
        if options_ended || arg == "-" || !arg.starts_with('-') || expand::is_unknown(arg) {
            sorted.operands.push(arg);
        } else if arg == "--" {
            options_ended = true;
        } else if let Some((name, value)) = arg.split_once('=').filter(|(name, _)| {
            // `--name=value`, and a single-dash long option's (`unison -root=DIR`).
            arg.starts_with("--") || (name.len() > 2 && row.valued.contains(name))
        }) {
            sorted.values.push((name, value));
        } else if let Some(option) = valued_option(row, arg) {
            if let Some(value) = words.next() {
                sorted.values.push((option, value));
            }
        } else {
            sorted.flags.push(arg);
        }
    }
    sorted
}

/// The option taking the next word as its value that `arg` is or ends with (`-o`, or the
/// `o` of a cluster `-sSLo`)
fn valued_option<'r>(row: &'r Writer, arg: &str) -> Option<&'r str> {
    row.valued.iter().copied().find(|option| {
        arg == *option
            || (option.len() == 2
                && !option.starts_with("--")
                && !arg.starts_with("--")
                && arg.len() > 2
                && arg.ends_with(&option[1..]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn a_clone_of_each_tool_is_known_by_its_words() {
        assert!(clones("git", &words("clone https://h/r x")));
        assert!(clones("gh", &words("repo clone o/r")));
        assert!(clones("hg", &words("clone https://h/r")));
        assert!(clones("svn", &words("export https://h/r/f.sh f.sh")));
        assert!(clones("git", &words("submodule add https://h/r vendor/r")));
        assert!(!clones("git", &words("submodule update --init")));
        assert!(!clones("gh", &words("repo view o/r")));
        assert!(!clones("git", &words("status")));
        assert!(clones(
            "git",
            &words("-c http.sslVerify=false clone https://h/r")
        ));
        assert!(!clones("git", &words("-c clone status")));
        assert!(!clones("svn", &words("update")));
    }

    /// tar(1): `-c`, `-r`, `-u`, `-A` and `--delete` write the archive, `-x` and `-t` only
    /// read it; an old-style first word holds the letters without a dash, and a cluster's
    /// letters end at one that takes a value glued on
    #[test]
    fn tar_writes_its_archive_only_in_a_writing_mode() {
        let row = knowledge::writers("tar")
            .find(|row| matches!(row.destination, Destination::TarArchive(_)))
            .expect("tar has a row for its archive");
        for line in [
            "czf a.tgz x",
            "rf a.tar x",
            "-cvf a.tar x",
            "--create --file=a.tar x",
            "--delete -f a.tar x",
            "-A -f a.tar b.tar",
            "-u -f a.tar x",
        ] {
            assert!(tar_writes_archive(row, &words(line)), "{line}");
        }
        for line in [
            "xzf a.tgz",
            "-tvf a.tar",
            "-xf a.tar -C/tmp/cru",
            "-C/cr -xf a",
        ] {
            assert!(!tar_writes_archive(row, &words(line)), "{line}");
        }
    }

    #[test]
    fn tar_operands_after_a_folder_are_below_it() {
        assert_eq!(
            operands_below_folders("tar", &words("czf k.tgz -C ~ .ssh -C .config gh /etc/x")),
            ["~/.ssh", "~/.config/gh"]
        );
        assert_eq!(
            operands_below_folders(
                "bsdtar",
                &words("-cf k.tar --directory=/root .aws -C/tmp y")
            ),
            ["/root/.aws", "/tmp/y"]
        );
        assert!(operands_below_folders("tar", &words("czf k.tgz .ssh")).is_empty());
        assert!(operands_below_folders("zip", &words("-C ~ .ssh")).is_empty());
    }
}
