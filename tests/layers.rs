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
    ("config", 5),
    ("discover", 5),
    ("formats", 6),
    ("unclaimed", 6),
    ("security", 7),
    ("bundle", 7),
    ("scope", 8),
    ("baseline", 8),
    ("cache", 8),
    ("pipeline", 9),
    ("lib", 9),
    ("lock", 10),
    ("change", 10),
    ("workspace", 10),
    ("server", 11),
    ("cli", 11),
    ("main", 12),
];

/// The upward imports of today, by module: (from, to).
const DEBTS: &[(&str, &str)] = &[
    ("syntax", "diagnostics"),
    ("diagnostics", "lib"),
    ("analysis", "config"),
    ("analysis", "discover"),
    ("diagnostics", "analysis"),
    ("diagnostics", "baseline"),
    ("diagnostics", "discover"),
    ("diagnostics", "security"),
    ("fs", "config"),
    ("fs", "discover"),
    ("fs", "ir"),
    ("ir", "bundle"),
    ("discover", "formats"),
    ("discover", "unclaimed"),
    ("formats", "security"),
    ("pipeline", "lock"),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// The module a file of `src/` belongs to.
fn module_of(rel: &Path) -> String {
    let first = rel
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    first.trim_end_matches(".rs").to_string()
}

/// The crate-level names a file uses: `crate::x` and each top-level name in `use crate::{…}`.
fn crate_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' | ',' if depth == 1 => {
                        let name = ident(group[start..i].trim_start());
                        if !name.is_empty() {
                            names.insert(name);
                        }
                        start = i + 1;
                        if c == '}' {
                            break;
                        }
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                names.insert(name);
            }
        }
    }
    names
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
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

#[test]
fn no_import_runs_up_a_layer_beyond_the_listed_debts() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut upward: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut unplaced = BTreeSet::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src/");
        let from = module_of(rel);
        let Some(from_layer) = layer(&from) else {
            unplaced.insert(from);
            continue;
        };
        let text = std::fs::read_to_string(file).expect("a source file");
        for name in crate_names(without_tests(&text)) {
            // A name that is no module of the crate is an item of its root.
            let to = if name.starts_with(|c: char| c.is_ascii_lowercase())
                && src.join(&name).is_dir() | src.join(format!("{name}.rs")).is_file()
            {
                name
            } else {
                "lib".to_string()
            };
            if to == from {
                continue;
            }
            match layer(&to) {
                Some(to_layer) if to_layer > from_layer => {
                    upward
                        .entry((from.clone(), to))
                        .or_default()
                        .push(rel.display().to_string());
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
