//! No import circle inside any crate (ARCHITECTURE.md): the modules under one parent import
//! one another in one direction only, so each can be read knowing only those below it.
//!
//! The graph comes from the code: every crate of the repository (a `src/lib.rs` or
//! `src/main.rs`), its module tree followed from `mod` declarations, and in each module the
//! paths it names (`use` trees and paths in code, `crate::`, `self::` and `super::`
//! resolved), with `#[cfg(test)]` modules left out. A module's references count for the
//! ancestor that is a sibling of the referenced module's: `lower::trace` naming
//! `crate::resolve` is `lower` importing `resolve`. A child naming its parent is not a
//! circle: a child is a part of its parent.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module by its path from the crate root (`["lower", "trace"]`); the root is `[]`
type ModulePath = Vec<String>;

/// One module: where it is written, and the paths its own items name
struct Module {
    file: PathBuf,
    named: Vec<Vec<String>>,
}

/// The modules of the crate whose root file is `root`
fn crate_modules(root: &Path) -> Result<BTreeMap<ModulePath, Module>, String> {
    let mut modules = BTreeMap::new();
    let text = std::fs::read_to_string(root).map_err(|err| format!("{}: {err}", root.display()))?;
    let file = syn::parse_file(&text).map_err(|err| format!("{}: {err}", root.display()))?;
    let dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
    collect(&file.items, root, &dir, Vec::new(), &mut modules)?;
    Ok(modules)
}

/// Adds the module `path` made of `items` (read from `file`), and its children, whose files
/// are in `dir`
fn collect(
    items: &[syn::Item],
    file: &Path,
    dir: &Path,
    path: ModulePath,
    modules: &mut BTreeMap<ModulePath, Module>,
) -> Result<(), String> {
    let mut names = Names::default();
    for item in items {
        match item {
            syn::Item::Mod(module) if is_test_only(&module.attrs) => {}
            syn::Item::Mod(module) => {
                let name = module.ident.to_string();
                let mut child = path.clone();
                child.push(name.clone());
                match &module.content {
                    Some((_, inner)) => collect(inner, file, &dir.join(&name), child, modules)?,
                    None => {
                        let child_file = module_file(&module.attrs, file, dir, &name)?;
                        let text = std::fs::read_to_string(&child_file)
                            .map_err(|err| format!("{}: {err}", child_file.display()))?;
                        let parsed = syn::parse_file(&text)
                            .map_err(|err| format!("{}: {err}", child_file.display()))?;
                        let child_dir = if child_file.ends_with("mod.rs") {
                            child_file
                                .parent()
                                .map(Path::to_path_buf)
                                .unwrap_or_default()
                        } else {
                            dir.join(&name)
                        };
                        collect(&parsed.items, &child_file, &child_dir, child, modules)?;
                    }
                }
            }
            other => names.visit_item(other),
        }
    }
    modules.insert(
        path,
        Module {
            file: file.to_path_buf(),
            named: names.paths,
        },
    );
    Ok(())
}

/// Whether an item is compiled only for tests (`#[cfg(test)]`)
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

/// The file of `mod name;` declared in `file`, in a module whose children live in `dir`
fn module_file(
    attrs: &[syn::Attribute],
    file: &Path,
    dir: &Path,
    name: &str,
) -> Result<PathBuf, String> {
    for attr in attrs {
        if let syn::Meta::NameValue(pair) = &attr.meta {
            if pair.path.is_ident("path") {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }) = &pair.value
                {
                    return Ok(file.parent().unwrap_or(dir).join(text.value()));
                }
            }
        }
    }
    let flat = dir.join(format!("{name}.rs"));
    let nested = dir.join(name).join("mod.rs");
    match (flat.exists(), nested.exists()) {
        (true, _) => Ok(flat),
        (false, true) => Ok(nested),
        (false, false) => Err(format!("no file for `mod {name}` in {}", dir.display())),
    }
}

/// The paths named by the items visited: each `use` tree's leaves and each path in code
#[derive(Default)]
struct Names {
    paths: Vec<Vec<String>>,
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut prefix = Vec::new();
        use_leaves(&item.tree, &mut prefix, &mut self.paths);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.paths.push(
            path.segments
                .iter()
                .map(|segment| segment.ident.to_string())
                .collect(),
        );
        syn::visit::visit_path(self, path);
    }
}

/// Every path a `use` tree names, each from its start
fn use_leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            use_leaves(&path.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(name) => out.push(with(prefix, &name.ident)),
        syn::UseTree::Rename(rename) => out.push(with(prefix, &rename.ident)),
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                use_leaves(tree, prefix, out);
            }
        }
    }
}

fn with(prefix: &[String], last: &syn::Ident) -> Vec<String> {
    let mut path = prefix.to_vec();
    path.push(last.to_string());
    path
}

/// The module a path named in module `me` leads to: the longest module its resolved
/// segments start with; `None` for a path outside the crate
fn target(
    me: &[String],
    named: &[String],
    modules: &BTreeMap<ModulePath, Module>,
) -> Option<ModulePath> {
    let (mut base, rest): (ModulePath, &[String]) = match named.first().map(String::as_str) {
        Some("crate") => (Vec::new(), named.get(1..).unwrap_or_default()),
        Some("self" | "super") => (me.to_vec(), named),
        // A child declared here (`shell::lower_call` in `lower`).
        Some(first) if modules.contains_key(&[me, &[first.to_owned()]].concat()) => {
            (me.to_vec(), named)
        }
        _ => return None,
    };
    let mut rest = rest.iter().peekable();
    while let Some(segment) = rest.next_if(|segment| *segment == "self" || *segment == "super") {
        if segment == "super" {
            base.pop()?;
        }
    }
    base.extend(rest.cloned());
    while !modules.contains_key(&base) {
        base.pop()?;
    }
    Some(base)
}

/// The circles among sibling modules of one crate, each with one reference per step
fn circles(modules: &BTreeMap<ModulePath, Module>) -> Vec<String> {
    // parent -> (child -> (sibling it imports -> a file that shows it))
    let mut graph: BTreeMap<ModulePath, BTreeMap<String, BTreeMap<String, String>>> =
        BTreeMap::new();
    for (me, module) in modules {
        for named in &module.named {
            let Some(to) = target(me, named, modules) else {
                continue;
            };
            let shared = me.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if let (Some(from_child), Some(to_child)) = (me.get(shared), to.get(shared)) {
                graph
                    .entry(me.iter().take(shared).cloned().collect())
                    .or_default()
                    .entry(from_child.clone())
                    .or_default()
                    .entry(to_child.clone())
                    .or_insert_with(|| {
                        format!("{} names {}", module.file.display(), named.join("::"))
                    });
            }
        }
    }
    let mut found = Vec::new();
    for (parent, edges) in &graph {
        for component in strongly_connected(edges) {
            let members: BTreeSet<&String> = component.iter().collect();
            let mut lines = vec![format!(
                "in `{}`: {}",
                if parent.is_empty() {
                    "crate".to_owned()
                } else {
                    parent.join("::")
                },
                component.join(", ")
            )];
            for from in &component {
                for (to, shown) in edges.get(from).into_iter().flatten() {
                    if members.contains(to) {
                        lines.push(format!("  {from} -> {to}: {shown}"));
                    }
                }
            }
            found.push(lines.join("\n"));
        }
    }
    found
}

/// The groups of more than one module that each reach all the others (the graphs are a few
/// dozen modules: reachability from each is cheap enough)
fn strongly_connected(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<String>> {
    let reach = |from: &String| -> BTreeSet<&String> {
        let mut seen = BTreeSet::new();
        let mut pending = vec![from];
        while let Some(node) = pending.pop() {
            for next in edges.get(node).into_iter().flat_map(BTreeMap::keys) {
                if seen.insert(next) {
                    pending.push(next);
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<&String>> =
        edges.keys().map(|node| (node, reach(node))).collect();
    let mut placed = BTreeSet::new();
    let mut found = Vec::new();
    for (node, from_node) in &reached {
        if placed.contains(node) || !from_node.contains(node) {
            continue;
        }
        let group: Vec<String> = from_node
            .iter()
            .filter(|other| reached.get(*other).is_some_and(|back| back.contains(node)))
            .map(|other| (*other).clone())
            .collect();
        placed.extend(
            from_node
                .iter()
                .filter(|other| group.contains(other))
                .copied(),
        );
        if group.len() > 1 {
            found.push(group);
        }
    }
    found
}

/// The root file of every crate of the repository
fn crate_roots(repo: &Path) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    let mut pending = vec![repo.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() && !name.starts_with('.') && name != "target" && name != "node_modules"
            {
                pending.push(path);
            } else if (name == "lib.rs" || name == "main.rs")
                && dir.file_name().is_some_and(|dir| dir == "src")
            {
                roots.push(path);
            }
        }
    }
    roots.sort();
    roots
}

#[test]
fn no_crate_has_an_import_circle_among_its_modules() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = crate_roots(repo);
    assert!(roots.len() >= 8, "the crates were found: {roots:?}");
    let mut found = Vec::new();
    for root in &roots {
        let modules = crate_modules(root).unwrap();
        found.extend(circles(&modules));
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn a_circle_is_found_however_deep_and_a_child_naming_its_parent_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("a")).unwrap();
    let write = |path: &str, text: &str| std::fs::write(src.join(path), text).unwrap();
    write("lib.rs", "mod a;\nmod b;\nmod c;\n");
    // `a::deep` names `c` through `super::super`; `c` names `b`, `b` names `a`.
    write("a/mod.rs", "mod deep;\npub(crate) fn f() { deep::g() }\n");
    write(
        "a/deep.rs",
        "use super::f;\npub(crate) fn g() { super::super::c::h() }\n",
    );
    write("b.rs", "pub(crate) fn i() { crate::a::f() }\n");
    write(
        "c.rs",
        "use crate::b::i;\npub(crate) fn h() { i() }\n#[cfg(test)]\nmod tests { use crate::a; }\n",
    );
    let modules = crate_modules(&src.join("lib.rs")).unwrap();
    let found = circles(&modules);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("in `crate`: "), "{}", found[0]);
    for step in ["a -> c", "c -> b", "b -> a"] {
        assert!(found[0].contains(step), "{step} in {}", found[0]);
    }
    // Without `b` naming `a`, nothing is a circle: `a::deep` naming its parent is none.
    write("b.rs", "pub(crate) fn i() {}\n");
    let modules = crate_modules(&src.join("lib.rs")).unwrap();
    assert_eq!(circles(&modules), Vec::<String>::new());
}
