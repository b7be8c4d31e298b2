//! Embeds every `rules/<CODE>.md` page so `toolc explain` works from the installed binary.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut pages: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .filter_map(|p| {
                    Some((
                        p.file_stem()?.to_str()?.to_string(),
                        p.display().to_string(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    pages.sort();
    let mut out = String::from(
        "/// Embedded rule pages as (code, Markdown).\npub static PAGES: &[(&str, &str)] = &[\n",
    );
    for (code, path) in &pages {
        println!("cargo:rerun-if-changed={path}");
        let _ = writeln!(out, "    ({code:?}, include_str!({path:?})),");
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR is set by cargo"))
        .join("rule_pages.rs");
    std::fs::write(target, out).expect("write rule_pages.rs");
}
