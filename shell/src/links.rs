//! Paths made on the line to lead elsewhere: `ln -s ~ x && rm -rf x/` deletes the home, and
//! `ln ~/.bashrc b && : > b` empties `~/.bashrc` through a hard link, so a path at or below a
//! link made earlier on the line is read as the path it leads to.
//!
//! The file system is never consulted: a link made before the line is not seen, and a path
//! the line makes a link at may be an existing folder the link goes inside, so both places
//! are taken as links. What a link leads to when its target is only known at run time is
//! unknown, and so is every path through it.

use crate::expand::{self, UnknownWord};
use crate::knowledge::{self, LinkMaker};
use crate::path::normalise;
use crate::Context;

/// The links made on the line so far, in order
#[derive(Debug, Default)]
pub(crate) struct Links {
    made: Vec<Link>,
}

/// One path made to lead elsewhere
#[derive(Debug)]
struct Link {
    /// Where the link is, normalised
    at: String,
    /// Whether the link is some name inside `at` (its target, whose name it takes, is
    /// only known at run time), rather than `at` itself
    any_child: bool,
    /// What it leads to, normalised; or why that is only known at run time
    target: Result<String, String>,
    /// Whether the link is what it leads to, moved there (`mv`): its name as well as what
    /// is below it, even where a path names a link rather than what it leads to
    moved: bool,
}

/// Where a link is made: at a path, or inside a folder under its target's name
#[derive(Debug, Clone, Copy)]
enum Place<'a> {
    At(&'a str),
    Inside(&'a str),
}

/// The words of a link-making command, sorted by what they do
#[derive(Debug, Default)]
struct Words<'a> {
    linking: bool,
    symbolic: bool,
    into: Option<&'a str>,
    exact: bool,
    from_cwd: bool,
    operands: Vec<&'a str>,
}

impl Links {
    /// Records the links `program` makes with `args`, if it makes any
    pub(crate) fn note(&mut self, program: &str, args: &[String], context: &Context) {
        let Some(row) = knowledge::link_maker(program) else {
            return;
        };
        let words = sort_words(row, args);
        if !words.linking && !row.linking.is_empty() {
            return;
        }
        let from_link_folder =
            words.symbolic && row.from_link_folder_unless.is_some() && !words.from_cwd;
        let inside_last = row.may_go_inside && !words.exact;
        let places: Vec<(&str, Place<'_>)> = match (words.into, words.operands.as_slice()) {
            (Some(dir), targets) => targets.iter().map(|t| (*t, Place::Inside(dir))).collect(),
            (None, [target]) if row.may_go_inside => vec![(*target, Place::Inside("."))],
            (None, [target, at]) if inside_last && names_a_folder(at) => {
                vec![(*target, Place::Inside(at))]
            }
            (None, [target, at]) if inside_last => {
                vec![(*target, Place::At(at)), (*target, Place::Inside(at))]
            }
            (None, [target, at]) => vec![(*target, Place::At(at))],
            (None, [targets @ .., dir]) if inside_last => {
                targets.iter().map(|t| (*t, Place::Inside(dir))).collect()
            }
            _ => Vec::new(),
        };
        for (target, place) in places {
            if let Some(link) = self.link(target, place, from_link_folder, context) {
                self.made.push(Link {
                    moved: row.moves,
                    ..link
                });
            }
        }
    }

    /// The link to `target` made at `place`; `None` when where it is made is unknown
    fn link(
        &self,
        target: &str,
        place: Place<'_>,
        from_link_folder: bool,
        context: &Context,
    ) -> Option<Link> {
        let folder = |word: &str| -> Option<String> {
            if expand::is_unknown(word) {
                return None;
            }
            self.resolve(normalise(word, context), false).ok()
        };
        let known_target = match unknown_why(target) {
            Some(why) => Err(why),
            None => Ok(normalise(target, context)),
        };
        let (at, any_child) = match place {
            Place::At(word) => (folder(word)?, false),
            Place::Inside(dir) => {
                let dir = folder(dir)?;
                // A home not known here (`~`, `~user`) has a name not known either.
                match &known_target {
                    Ok(target) if !target.starts_with('~') || target.contains('/') => {
                        let name = Some(last_part(target)).filter(|name| !name.is_empty())?;
                        (join(&dir, &format!("/{name}")), false)
                    }
                    _ => (dir, true),
                }
            }
        };
        let target = match known_target {
            Ok(_) if from_link_folder => {
                let link_folder = Context {
                    cwd: parent(&at).map(str::to_owned),
                    home: context.home.clone(),
                    ..Context::default()
                };
                self.resolve(normalise(target, &link_folder), false)
            }
            Ok(target) => self.resolve(target, false),
            Err(why) => Err(why),
        };
        Some(Link {
            at,
            any_child,
            target,
            moved: false,
        })
    }

    /// What the links made below the normalised folder `root` lead to, and the links
    /// below those in turn: a traversal that follows links (`find -L`, `grep -R`) goes on
    /// there. Each is the place (through the links made so far), or why it is only known at
    /// run time.
    pub(crate) fn reached_below(&self, root: &str) -> Vec<Result<String, String>> {
        let mut reached: Vec<Result<String, String>> = Vec::new();
        let mut roots = vec![root.to_owned()];
        let mut followed = vec![false; self.made.len()];
        while let Some(root) = roots.pop() {
            for (link, followed) in self.made.iter().zip(followed.iter_mut()) {
                let inside =
                    under(&link.at, &root).is_some_and(|rest| !rest.is_empty() || link.any_child);
                if !inside || *followed {
                    continue;
                }
                *followed = true;
                let place = match &link.target {
                    Ok(target) => self.resolve(target.clone(), false),
                    Err(why) => Err(why.clone()),
                };
                if let Ok(place) = &place {
                    roots.push(place.clone());
                }
                reached.push(place);
            }
        }
        reached
    }

    /// Whether no link was made on the line
    pub(crate) fn is_empty(&self) -> bool {
        self.made.is_empty()
    }

    /// What the normalised `path` leads to through the links made so far: itself when no
    /// link is on its way, the place it leads to, or why that is only known at run time.
    /// With `itself_is_link` a path that is a link names the link, not what it leads to
    /// (`rm x` removes the link `x`).
    pub(crate) fn resolve(&self, path: String, itself_is_link: bool) -> Result<String, String> {
        if self.made.is_empty() {
            return Ok(path);
        }
        let mut path = path;
        let mut skip_itself = itself_is_link;
        // Each step follows one link; more steps than links means the links go round.
        for _ in 0..=self.made.len() {
            let through = self.made.iter().rev().find_map(|link| {
                let rest = below(&path, link)?;
                (!(skip_itself && rest.is_empty() && !link.moved)).then_some((link, rest))
            });
            let Some((link, rest)) = through else {
                return Ok(path);
            };
            skip_itself = false;
            path = match &link.target {
                Ok(target) => join(target, rest),
                Err(why) => return Err(why.clone()),
            };
        }
        Err("the links made on this line lead round in a circle".to_owned())
    }
}

/// Whether a word can only name a folder (`.`, `..`, `dir/`, `~`): what is made there goes
/// inside it
fn names_a_folder(word: &str) -> bool {
    matches!(word, "." | ".." | "~")
        || word.ends_with('/')
        || word.ends_with("/.")
        || word.ends_with("/..")
}

/// The part of `path` after `link` (empty or starting with `/`) when `path` is the link or
/// below it
fn below<'p>(path: &'p str, link: &Link) -> Option<&'p str> {
    let rest = under(path, &link.at)?;
    if !link.any_child {
        return Some(rest);
    }
    // Past the unknown name: `/name/rest` gives `/rest`.
    let name = rest.strip_prefix('/').filter(|name| !name.is_empty())?;
    Some(name.find('/').map_or("", |slash| &name[slash..]))
}

/// The part of the normalised `path` after `folder` (empty or starting with `/`) when
/// `path` is the folder or below it
fn under<'p>(path: &'p str, folder: &str) -> Option<&'p str> {
    if folder == "/" {
        return path.starts_with('/').then_some(path);
    }
    let rest = path.strip_prefix(folder)?;
    (rest.is_empty() || rest.starts_with('/')).then_some(rest)
}

/// The last part of a normalised path: the name a link to it takes inside a folder
fn last_part(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The folder a normalised path is in; `None` for a relative name without one
fn parent(path: &str) -> Option<&str> {
    match path.rsplit_once('/') {
        Some(("", _)) => Some("/"),
        Some((folder, _)) => Some(folder),
        None => None,
    }
}

/// `target` followed by `rest` (empty or starting with `/`)
fn join(target: &str, rest: &str) -> String {
    match (target, rest) {
        ("/", "") => "/".to_owned(),
        ("/", rest) => rest.to_owned(),
        (target, rest) => format!("{target}{rest}"),
    }
}

/// Sorts the words of a link-making command by the table row of its program
fn sort_words<'a>(row: &LinkMaker, args: &'a [String]) -> Words<'a> {
    let mut words = Words::default();
    let mut args = args.iter();
    let mut options_ended = false;
    while let Some(arg) = args.next() {
        if options_ended || arg == "-" || !arg.starts_with('-') {
            words.operands.push(arg);
        } else if arg == "--" {
            options_ended = true;
        } else if let Some(long) = arg.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            let option = format!("--{}", full_long(row, name));
            let value = if row.valued.contains(&option.as_str()) {
                inline.or_else(|| args.next().map(String::as_str))
            } else {
                None
            };
            words.take(row, &option, value);
        } else {
            let cluster = &arg[1..];
            for (at, short) in cluster.char_indices() {
                let option = format!("-{short}");
                if row.valued.contains(&option.as_str()) {
                    let rest = &cluster[at + short.len_utf8()..];
                    let value = if rest.is_empty() {
                        args.next().map(String::as_str)
                    } else {
                        Some(rest)
                    };
                    words.take(row, &option, value);
                    break;
                }
                words.take(row, &option, None);
            }
        }
    }
    words
}

impl<'a> Words<'a> {
    /// Takes one option, with its value when it has one
    fn take(&mut self, row: &LinkMaker, option: &str, value: Option<&'a str>) {
        let listed = |list: &[&str]| list.contains(&option);
        self.linking |= listed(row.linking);
        self.symbolic |= listed(row.symbolic);
        if let Some(value) = value {
            let values = value.split(',').collect::<Vec<_>>();
            self.linking |= row.linking.iter().any(|entry| {
                entry
                    .split_once(' ')
                    .is_some_and(|(name, wanted)| name == option && values.contains(&wanted))
            });
            if listed(row.into) {
                self.into = Some(value);
            }
        }
        self.exact |= listed(row.exact);
        self.from_cwd |= row.from_link_folder_unless.is_some_and(listed);
    }
}

/// The long option (without its dashes) that `name` is a unique prefix of among the row's
/// options, or `name` itself
fn full_long<'n>(row: &'n LinkMaker, name: &'n str) -> &'n str {
    let options = row
        .linking
        .iter()
        .chain(row.symbolic)
        .chain(row.valued)
        .chain(row.into)
        .chain(row.exact)
        .chain(row.from_link_folder_unless.unwrap_or_default())
        .filter_map(|option| option.strip_prefix("--"));
    let mut found: Option<&str> = None;
    for option in options {
        if option == name {
            return option;
        }
        if option.starts_with(name) && found != Some(option) {
            if found.is_some() {
                return name;
            }
            found = Some(option);
        }
    }
    found.unwrap_or(name)
}

/// Why a word is only known at run time, when it is
fn unknown_why(word: &str) -> Option<String> {
    expand::is_unknown(word).then(|| {
        UnknownWord::decode(word).map_or_else(|| "a word is set at run time".to_owned(), |w| w.why)
    })
}
