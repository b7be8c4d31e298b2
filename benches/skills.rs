//! Agent Skills: `toolc check` and skillsaw on generated repositories of 100 and 1,000 skills,
//! each run as a process on the same folder, the way a user or CI runs them.
//!
//! `cargo bench --bench skills` (skillsaw is timed when `skillsaw` is on the PATH:
//! `pip install skillsaw`). Under `cargo test --benches` divan runs each benchmark once on 12
//! skills, and the run also checks that toolc reports every broken skill and nothing else.

mod skillgen;

use std::path::{Path, PathBuf};
use std::process::Command;

use divan::Bencher;
use divan::counter::ItemsCount;

fn main() {
    divan::main();
}

/// True under `cargo bench` (divan's bench mode); false under `cargo test --benches`.
fn bench_mode() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn sizes() -> Vec<usize> {
    if bench_mode() {
        vec![100, 1_000]
    } else {
        vec![12]
    }
}

/// A generated repository, removed on drop.
struct TempRepo {
    root: PathBuf,
    generated: skillgen::Generated,
}

impl TempRepo {
    fn new(skills: usize) -> TempRepo {
        let root = std::env::temp_dir().join(format!(
            "toolc-bench-skills-{}-{skills}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("temp dir");
        let spec = skillgen::Spec {
            skills,
            broken_every: if bench_mode() { 25 } else { 3 },
        };
        let generated = skillgen::write(&root, &spec).expect("write the generated repository");
        TempRepo { root, generated }
    }
}

impl Drop for TempRepo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// `toolc check -q --format json` on `root`: the paths of the files with a finding.
fn toolc(root: &Path) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_toolc"))
        .current_dir(root)
        .args(["check", "--format", "json"])
        .output()
        .expect("run toolc");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    report["diagnostics"]
        .as_array()
        .map(|ds| {
            ds.iter()
                .filter_map(|d| d["path"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn skillsaw_installed() -> bool {
    Command::new("skillsaw")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[divan::bench(args = sizes(), sample_count = 5, sample_size = 1)]
fn toolc_check(bencher: Bencher, skills: usize) {
    let repo = TempRepo::new(skills);
    if !bench_mode() {
        let paths = toolc(&repo.root);
        for p in &paths {
            assert!(
                repo.generated
                    .broken
                    .iter()
                    .any(|(dir, _)| p.starts_with(dir.as_str())),
                "a finding outside the broken skills: {p}"
            );
        }
        for (dir, defect) in &repo.generated.broken {
            assert!(
                paths.iter().any(|p| p.starts_with(dir.as_str())),
                "{dir} is broken ({defect:?}) but nothing was reported"
            );
        }
    }
    bencher
        .counter(ItemsCount::new(repo.generated.files))
        .bench(|| toolc(&repo.root));
}

#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn skillsaw_lint(bencher: Bencher, skills: usize) {
    if !bench_mode() || !skillsaw_installed() {
        if bench_mode() {
            eprintln!("skipped: `skillsaw` (pip install skillsaw) is not installed");
        }
        bencher.bench(|| ());
        return;
    }
    let repo = TempRepo::new(skills);
    bencher
        .counter(ItemsCount::new(repo.generated.files))
        .bench(|| {
            Command::new("skillsaw")
                .current_dir(&repo.root)
                .args([
                    "lint",
                    "--format",
                    "json",
                    "--no-progress",
                    "--no-baseline",
                    ".",
                ])
                .output()
                .expect("run skillsaw")
        });
}
