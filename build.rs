//! Embeds every `rules/<CODE>.md` page so `toolc explain` works from the installed binary,
//! and sets `TOOLC_VERSION`: the crate version, plus the commit when built from a git checkout.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    version();
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
        "/// Embedded rule pages as (code, Markdown).\npub(crate) static PAGES: &[(&str, &str)] = &[\n",
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

/// `0.1.0`, or `0.1.0 (1a2b3c4d5e6f)` when built from a git checkout (a `-dirty` mark when
/// the tree has uncommitted changes is left out: it would rebuild on every edit).
fn version() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let git = root.join(".git");
    let mut version = env!("CARGO_PKG_VERSION").to_string();
    if git.exists() {
        // Rebuild when HEAD moves (a checkout, or a commit on the current branch). A worktree's
        // `.git` is a file pointing elsewhere: it is watched as it is.
        if git.is_dir() {
            println!("cargo:rerun-if-changed={}", git.join("HEAD").display());
            if let Ok(head) = std::fs::read_to_string(git.join("HEAD"))
                && let Some(reference) = head.trim().strip_prefix("ref: ")
                && git.join(reference).exists()
            {
                println!("cargo:rerun-if-changed={}", git.join(reference).display());
            }
        } else {
            println!("cargo:rerun-if-changed={}", git.display());
        }
        let hash = std::process::Command::new("git")
            .args(["rev-parse", "--short=12", "HEAD"])
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8(o.stdout).ok());
        if let Some(hash) = hash.map(|h| h.trim().to_string()).filter(|h| !h.is_empty()) {
            version = format!("{version} ({hash})");
        }
    }
    println!("cargo:rustc-env=TOOLC_VERSION={version}");
}
