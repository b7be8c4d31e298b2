//! The layers of ARCHITECTURE.md, held: a module may use modules of its own layer and of the
//! layers below it. An import that runs up a layer is a debt: the ones that exist today are
//! listed below, each to be paid by moving the helper or the call to where it belongs. A new
//! one fails this test, and so does a listed one that is gone (take it off the list).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module of `src/` and its layer, from the ground up (ARCHITECTURE.md says what each
/// layer owns). `lib` is the crate root: the check driver and its public types.
const LAYERS: &[(&str, u8)] = &[
    ("text", 0),
    ("timing", 0),
    ("memory", 0),
    ("rules", 0),
    ("runtimes", 0),
    ("fs", 0),
    ("source", 0),
    ("suppress", 0),
    ("syntax", 1),
    ("diagnostics", 2),
    ("analysis", 3),
    ("schema", 4),
    ("ir", 4),
    ("security", 4),
    ("config", 5),
    ("custom", 5),
    ("discover", 5),
    ("formats", 6),
    ("unclaimed", 6),
    ("bundle", 7),
    ("scope", 8),
    ("baseline", 8),
    ("cache", 8),
    ("pipeline", 9),
    ("output", 9),
    ("lock", 10),
    ("change", 10),
    ("workspace", 10),
    ("server", 11),
    ("cli", 11),
    // The crate root is the library's front end: only the public surface (re-exports and
    // thin entry points over `check`, `diff`, `lock` and `Workspace`); nothing imports it.
    ("lib", 11),
    ("main", 12),
];

/// The upward imports of today, by module: (from, to). The report's lockfile drift check
/// reads `lock` (which compares through `change`).
const DEBTS: &[(&str, &str)] = &[("pipeline", "lock")];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// The module a file of `src/` belongs to (`lib` for the crate root).
fn module_of(rel: &str) -> String {
    let first = rel.split('/').next().unwrap_or_default();
    first.trim_end_matches(".rs").to_string()
}

/// The text of a file without its tests (they may use anything).
fn without_tests(text: &str) -> &str {
    text.find("\n#[cfg(test)]").map_or(text, |i| &text[..i])
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "tests") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && path
                .file_name()
                .is_some_and(|n| n != "tests.rs" && n != "main.rs")
        {
            out.push(path);
        }
    }
}

/// The files of `src/` (paths relative to it, `/`-separated) and which files each one
/// imports: every path that starts at `crate::`, or at a child module of the file (the crate
/// root's `pub use change::…`, a `mod.rs` naming its own files), resolved to the file of the
/// deepest module it names (`crate::formats::FileResult` is `formats/mod.rs`, whatever
/// file that re-exports it from). `super::` paths are not followed: a child naming its
/// parent is a module's own business, not an import between modules. Nor are visibility
/// paths (`pub(in crate::syntax)`): they limit who sees an item, they name nothing it uses.
struct Imports {
    files: BTreeSet<String>,
    edges: BTreeMap<String, BTreeSet<String>>,
}

impl Imports {
    fn read() -> Imports {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut paths = Vec::new();
        sources(&src, &mut paths);
        let rel = |p: &Path| {
            p.strip_prefix(&src)
                .expect("under src/")
                .to_string_lossy()
                .replace('\\', "/")
        };
        let files: BTreeSet<String> = paths.iter().map(|p| rel(p)).collect();
        let mut imports = Imports {
            files,
            edges: BTreeMap::new(),
        };
        for path in &paths {
            let from = rel(path);
            let text = std::fs::read_to_string(path).expect("a source file");
            let text = without_tests(&text);
            let mut to = BTreeSet::new();
            let children = imports.children(&from);
            let bytes = text.as_bytes();
            for (at, _) in text.match_indices("::") {
                // The identifier before `::`, when the path starts there.
                let start = text[..at]
                    .char_indices()
                    .rev()
                    .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
                    .map_or(0, |(i, c)| i + c.len_utf8());
                let first = &text[start..at];
                if first.is_empty() || start > 0 && bytes[start - 1] == b':' {
                    continue;
                }
                // `pub(in crate::syntax)` says who may see an item; it imports nothing.
                if text[..start].ends_with("pub(in ") {
                    continue;
                }
                let base = if first == "crate" {
                    "lib.rs".to_string()
                } else if children.contains(first) {
                    from.clone()
                } else {
                    continue;
                };
                let segments_at = if first == "crate" { at + 2 } else { start };
                for path in use_paths(&text[segments_at..]) {
                    let file = imports.resolve(&base, &path);
                    if file != from {
                        to.insert(file);
                    }
                }
            }
            imports.edges.insert(from, to);
        }
        imports
    }

    /// The folder a file's child modules are in.
    fn child_dir(file: &str) -> &str {
        match file.rsplit_once('/') {
            Some((dir, "mod.rs")) => dir,
            None if file == "lib.rs" => "",
            _ => file.trim_end_matches(".rs"),
        }
    }

    /// The file of the child module `name` of `file`.
    fn child(&self, file: &str, name: &str) -> Option<String> {
        let dir = Imports::child_dir(file);
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        [
            format!("{prefix}{name}.rs"),
            format!("{prefix}{name}/mod.rs"),
        ]
        .into_iter()
        .find(|f| self.files.contains(f))
    }

    /// The names of the child modules of `file`.
    fn children(&self, file: &str) -> BTreeSet<String> {
        let dir = Imports::child_dir(file);
        self.files
            .iter()
            .filter_map(|f| {
                let rest = if dir.is_empty() {
                    f.as_str()
                } else {
                    f.strip_prefix(dir)?.strip_prefix('/')?
                };
                let name = match rest.split_once('/') {
                    Some((name, "mod.rs")) => name,
                    Some(_) => return None,
                    None => rest.strip_suffix(".rs")?,
                };
                (f != file && name != "mod" && name != "lib").then(|| name.to_string())
            })
            .collect()
    }

    /// The file of the deepest module `path` names, starting at `base`.
    fn resolve(&self, base: &str, path: &[String]) -> String {
        let mut at = base.to_string();
        for segment in path {
            if segment == "self" {
                continue;
            }
            match self.child(&at, segment) {
                Some(file) => at = file,
                None => break,
            }
        }
        at
    }

    /// The largest set of files that import each other round (a strongly connected
    /// component), sorted.
    fn largest_circle(&self) -> Vec<String> {
        // Tarjan's algorithm, iterative.
        let names: Vec<&String> = self.files.iter().collect();
        let id: BTreeMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let next: Vec<Vec<usize>> = names
            .iter()
            .map(|n| {
                self.edges
                    .get(*n)
                    .into_iter()
                    .flatten()
                    .filter_map(|t| id.get(t.as_str()).copied())
                    .collect()
            })
            .collect();
        let n = names.len();
        let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
        let (mut on_stack, mut stack) = (vec![false; n], Vec::new());
        let mut counter = 0;
        let mut best: Vec<usize> = Vec::new();
        for root in 0..n {
            if index[root] != usize::MAX {
                continue;
            }
            let mut work = vec![(root, 0usize)];
            while let Some(&mut (v, ref mut i)) = work.last_mut() {
                if *i == 0 && index[v] == usize::MAX {
                    index[v] = counter;
                    low[v] = counter;
                    counter += 1;
                    stack.push(v);
                    on_stack[v] = true;
                }
                if let Some(&w) = next[v].get(*i) {
                    *i += 1;
                    if index[w] == usize::MAX {
                        work.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if component.len() > best.len() {
                        best = component;
                    }
                }
            }
        }
        let mut circle: Vec<String> = best.into_iter().map(|i| names[i].clone()).collect();
        circle.sort();
        circle
    }

    /// Every import from a file to a file of a higher layer: (from, to).
    fn upward(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (from, targets) in &self.edges {
            for to in targets {
                if let (Some(a), Some(b)) = (layer(&module_of(from)), layer(&module_of(to)))
                    && b > a
                {
                    out.push((from.clone(), to.clone()));
                }
            }
        }
        out
    }
}

/// Where the identifier starting at `i` ends.
fn ident_end(text: &[u8], mut i: usize) -> usize {
    while i < text.len() && (text[i].is_ascii_alphanumeric() || text[i] == b'_') {
        i += 1;
    }
    i
}

/// The paths a use tree (or a plain path) at the start of `text` names, each as its
/// segments: `{a::{b, c}, d}` is `a::b`, `a::c` and `d`.
fn use_paths(text: &str) -> Vec<Vec<String>> {
    fn tree(text: &[u8], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
        let mut segments = prefix.to_vec();
        loop {
            while i < text.len() && text[i].is_ascii_whitespace() {
                i += 1;
            }
            if text.get(i) == Some(&b'{') {
                i += 1;
                loop {
                    while i < text.len() && (text[i].is_ascii_whitespace() || text[i] == b',') {
                        i += 1;
                    }
                    if i >= text.len() || text[i] == b'}' {
                        return i + 1;
                    }
                    let before = i;
                    i = tree(text, i, &segments, out);
                    if i == before {
                        // Not a path (`*`, a stray character): step over it.
                        i += 1;
                    }
                }
            }
            let start = i;
            i = ident_end(text, i);
            if i == start {
                // `a::*` names `a`; a group's `*` or `self` adds nothing.
                if segments.len() > prefix.len() {
                    out.push(segments);
                }
                return i;
            }
            segments.push(String::from_utf8_lossy(&text[start..i]).into_owned());
            if text[i..].starts_with(b"::") {
                i += 2;
                continue;
            }
            out.push(segments);
            // `x as y`: the alias is no path.
            let mut j = i;
            while j < text.len() && text[j].is_ascii_whitespace() {
                j += 1;
            }
            if text[j..].starts_with(b"as ") {
                j += 3;
                while j < text.len() && text[j].is_ascii_whitespace() {
                    j += 1;
                }
                return ident_end(text, j);
            }
            return i;
        }
    }
    let mut out = Vec::new();
    tree(text.as_bytes(), 0, &[], &mut out);
    out
}

/// The largest import circle among the files of `src/` today: it may shrink, never grow
/// (lower this when it shrinks). The circle runs through the upward imports the cache and
/// the driver still make.
const MAX_CIRCLE: usize = 3;

/// The imports from a file to a file of a higher layer today: they may get fewer, never
/// more (lower this when they do).
const MAX_UPWARD: usize = 1;

#[test]
fn no_import_runs_up_a_layer_beyond_the_listed_debts() {
    let imports = Imports::read();
    let mut upward: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut unplaced = BTreeSet::new();
    for (from_file, targets) in &imports.edges {
        let from = module_of(from_file);
        let Some(from_layer) = layer(&from) else {
            unplaced.insert(from);
            continue;
        };
        for to_file in targets {
            let to = module_of(to_file);
            if to == from {
                continue;
            }
            match layer(&to) {
                Some(to_layer) if to_layer > from_layer => {
                    upward
                        .entry((from.clone(), to))
                        .or_default()
                        .push(from_file.clone());
                }
                Some(_) => {}
                None => {
                    unplaced.insert(to);
                }
            }
        }
    }
    assert!(
        unplaced.is_empty(),
        "modules with no layer (add them to LAYERS and to ARCHITECTURE.md): {unplaced:?}"
    );
    let new: Vec<String> = upward
        .iter()
        .filter(|((f, t), _)| !DEBTS.contains(&(f.as_str(), t.as_str())))
        .map(|((f, t), by)| format!("{f} -> {t} (in {})", by.join(", ")))
        .collect();
    assert!(
        new.is_empty(),
        "imports that run up a layer (see ARCHITECTURE.md for where the code belongs):\n{}",
        new.join("\n")
    );
    let paid: Vec<&(&str, &str)> = DEBTS
        .iter()
        .filter(|(f, t)| !upward.contains_key(&(f.to_string(), t.to_string())))
        .collect();
    assert!(
        paid.is_empty(),
        "debts paid: take them off DEBTS in tests/layers.rs: {paid:?}"
    );
}

#[test]
fn import_circles_and_upward_imports_do_not_grow() {
    let imports = Imports::read();
    let circle = imports.largest_circle();
    let upward = imports.upward();
    println!(
        "largest import circle: {} files; upward imports: {}",
        circle.len(),
        upward.len()
    );
    assert!(
        circle.len() <= MAX_CIRCLE,
        "{} files import each other round (at most {MAX_CIRCLE}): {}",
        circle.len(),
        circle.join(", ")
    );
    let listed: Vec<String> = upward.iter().map(|(f, t)| format!("{f} -> {t}")).collect();
    assert!(
        upward.len() <= MAX_UPWARD,
        "{} imports run up a layer (at most {MAX_UPWARD}):\n{}",
        upward.len(),
        listed.join("\n")
    );
}

#[test]
fn use_trees_and_paths_resolve_to_the_files_of_their_modules() {
    let paths = use_paths("{a::{b, c as d}, e::*, f}; x");
    let shown: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(shown, ["a::b", "a::c", "e", "f"]);
    let shown: Vec<String> = use_paths("a::b::C as D, x")
        .iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(shown, ["a::b::C"]);
    let imports = Imports::read();
    let at = |path: &str| {
        let segments: Vec<String> = path.split("::").map(String::from).collect();
        imports.resolve("lib.rs", &segments)
    };
    assert_eq!(at("formats::format::FileResult"), "formats/format.rs");
    assert_eq!(at("formats::FileResult"), "formats/mod.rs");
    assert_eq!(at("fs::display_path"), "fs.rs");
    assert_eq!(at("Report"), "lib.rs");
    assert!(imports.children("lib.rs").contains("formats"));
    assert!(imports.children("formats/mod.rs").contains("agent_skill"));
    // A circle is found: every file of it imports another one of it.
    let circle = imports.largest_circle();
    for file in &circle {
        assert!(
            imports.edges[file].iter().any(|t| circle.contains(t)),
            "{file} is in no circle"
        );
    }
}

#[test]
fn the_layers_are_written_down() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .expect("ARCHITECTURE.md at the root");
    for (module, _) in LAYERS {
        if *module != "lib" && *module != "main" {
            assert!(
                doc.contains(&format!("`{module}`")),
                "ARCHITECTURE.md does not place `{module}`"
            );
        }
    }
}
