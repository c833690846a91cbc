//! The names code binds, as the readers of JavaScript and Python follow them: a name bound
//! once holds what it was bound to, a name bound again holds what only the run decides.

use std::borrow::Cow;
use std::collections::HashMap;

use tree_sitter::Node;

use super::tree::{text, unknown};
use super::{Effect, Value};

/// What a name the code binds holds
#[derive(Debug, Clone)]
pub(super) enum Binding {
    /// A module or function, by dotted name (`import os as o`, `const cp = require(...)`)
    Name(String),
    /// A value (`c = "rm -rf ~"`)
    Value(Value),
}

/// The names bound in the code: bound once, or (`None`) more than once
#[derive(Debug)]
pub(super) struct Bindings {
    names: HashMap<String, Option<Binding>>,
    /// The names bound more than once, one of them to a dangerous module or function: what
    /// they hold where they are used is only known at run time
    shadowed: Vec<String>,
    /// Whether a dotted name reaches a dangerous module or function, as the language's
    /// table says
    reaches: fn(&str) -> bool,
    /// A name as the language reads it: two spellings of one identifier bind one name
    spelled: fn(&str) -> Cow<'_, str>,
}

impl Bindings {
    /// No names yet; `reaches` tells which dotted names are dangerous to bind twice, and
    /// `spelled` what identifier a name written in the code is
    pub(super) fn new(reaches: fn(&str) -> bool, spelled: fn(&str) -> Cow<'_, str>) -> Self {
        Self {
            names: HashMap::new(),
            shadowed: Vec::new(),
            reaches,
            spelled,
        }
    }

    /// What `name` is bound to: `None` when never bound, `Some(None)` when bound more than once
    pub(super) fn get(&self, name: &str) -> Option<&Option<Binding>> {
        self.names.get((self.spelled)(name).as_ref())
    }

    /// Binds `name`; a name bound again, once to a dangerous module or function, is noted
    /// as shadowed
    pub(super) fn set(&mut self, name: &str, binding: Binding) {
        let name = (self.spelled)(name);
        let name = name.as_ref();
        let reaches = self.reaches;
        let dangerous = |binding: &Binding| match binding {
            Binding::Name(full) => reaches(full),
            Binding::Value(_) => false,
        };
        if let Some(old) = self.names.get(name) {
            if old.as_ref().is_some_and(dangerous) || dangerous(&binding) {
                self.shadowed.push(name.to_owned());
            }
        }
        self.names
            .entry(name.to_owned())
            .and_modify(|old| *old = None)
            .or_insert(Some(binding));
    }

    /// The value the identifier `node` holds: the value it is bound to once, else unknown
    pub(super) fn value(&self, node: Node<'_>, source: &str) -> Value {
        match self.get(text(node, source)) {
            Some(Some(Binding::Value(value))) => value.clone(),
            _ => unknown("variable", node, source),
        }
    }

    /// Reports each shadowed name once, in order of name
    pub(super) fn report_shadowed(&mut self, found: &mut Vec<Effect>) {
        self.shadowed.sort_unstable();
        self.shadowed.dedup();
        for name in &self.shadowed {
            found.push(Effect::Opaque(format!(
                "`{name}` is bound more than once, once to a function that runs commands or deletes files, and which one it holds is only known at run time"
            )));
        }
    }
}

/// Whether a dotted name is one of `modules` or something inside one (`fs.promises.rm`)
pub(super) fn within(name: &str, modules: &[&str]) -> bool {
    modules.iter().any(|module| {
        name.strip_prefix(module)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
    })
}
