//! A seeded mutation test of every format at once: the files of `examples/demo-fixed` (one or
//! more of each format), mutated by the same mutator as the property tests (`property.rs`),
//! checked in process and rendered in every output format. A panic names the iteration and
//! the mutated files; `TOOLC_FUZZ_SCALE` and `TOOLC_FUZZ_SEED` run more or other cases (CI
//! runs the default, a bounded few seconds).

use super::*;
use std::path::{Path, PathBuf};

/// Every file of the fixed demo repository but its configuration: (path relative to it,
/// bytes).
fn seeds() -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-fixed");
    let mut out = Vec::new();
    let mut folders = vec![root.clone()];
    while let Some(dir) = folders.pop() {
        for entry in std::fs::read_dir(&dir)
            .expect("the demo is there")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.file_name().is_some_and(|n| n != "toolc.toml") {
                let rel = path.strip_prefix(&root).expect("below").to_path_buf();
                out.push((rel, std::fs::read(&path).expect("read")));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_format_survives_random_mutations() {
    let seeds = seeds();
    let formats: std::collections::HashSet<&str> = seeds
        .iter()
        .filter_map(|(p, _)| p.extension()?.to_str())
        .collect();
    assert!(
        ["yaml", "json", "md", "dops", "sh"]
            .iter()
            .all(|x| formats.contains(x)),
        "the seeds cover every format: {formats:?}"
    );
    let mut rng = rng(0x5eed_f0f0_1234_abcd);
    let repo = Repo::new();
    for i in 0..40 * scale() {
        let mut mutated = Vec::new();
        for (path, bytes) in &seeds {
            let bytes = if rng.below(2) == 0 {
                mutate(&mut rng, bytes)
            } else {
                bytes.clone()
            };
            repo.write(path.to_str().expect("UTF-8"), &bytes);
            mutated.push((path, bytes));
        }
        let result = std::panic::catch_unwind(|| {
            let report = check_dir(&repo.root).expect("no config in this repository");
            for format in [
                OutputFormat::Human,
                OutputFormat::Json,
                OutputFormat::Github,
                OutputFormat::Sarif,
                OutputFormat::Junit,
                OutputFormat::Markdown,
            ] {
                let _ = report.render(format, &repo.root, false);
            }
        });
        if result.is_err() {
            let files: Vec<String> = mutated
                .iter()
                .map(|(p, b)| format!("{}: {:?}", p.display(), String::from_utf8_lossy(b)))
                .collect();
            panic!("check panicked on iteration {i}\n{}", files.join("\n"));
        }
    }
}
