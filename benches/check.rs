//! `toolc::check` on generated DojOps repositories of 1,000 and 10,000 tools.
//!
//! `cargo bench --bench check`. Under `cargo test --benches` divan runs each benchmark once;
//! the repository is then tiny and the run also checks that the generator's broken tools (and
//! only those) are reported.

mod repogen;

use std::path::{Path, PathBuf};

use divan::Bencher;
use divan::counter::{BytesCount, ItemsCount};
use toolc::config::Config;
use toolc::{CheckOptions, Report};

fn main() {
    divan::main();
}

/// True under `cargo bench` (divan's bench mode); false under `cargo test --benches`.
fn bench_mode() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn sizes() -> Vec<usize> {
    if bench_mode() {
        vec![1_000, 10_000]
    } else {
        vec![60]
    }
}

/// A generated repository, removed on drop.
struct TempRepo {
    root: PathBuf,
    generated: repogen::Generated,
}

impl TempRepo {
    fn new(spec: &repogen::Spec) -> TempRepo {
        let root = repogen::temp_root(&spec.tools.to_string());
        let _ = std::fs::remove_dir_all(&root);
        let generated = repogen::write(&root, spec).expect("write the generated repository");
        TempRepo { root, generated }
    }
}

impl Drop for TempRepo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn run(root: &Path) -> Report {
    let config = Config::discover(root, None).unwrap_or_default();
    let options = CheckOptions {
        paths: vec![],
        cwd: root.to_path_buf(),
        select: vec![],
        ignore: vec![],
        targets: None,
    };
    toolc::check(&options, &config)
}

/// Every broken tool is reported, and nothing else is (the policy and skills are valid).
fn assert_only_broken_tools_reported(repo: &TempRepo, report: &Report) {
    for d in &report.diagnostics {
        let hit = repo
            .generated
            .broken
            .iter()
            .any(|(dir, _)| d.file.display.starts_with(&format!("{dir}/")));
        assert!(
            hit,
            "a diagnostic outside the broken tools: {} {} {}",
            d.file.display, d.rule.code, d.message
        );
    }
    for (dir, defect) in &repo.generated.broken {
        let hit = report
            .diagnostics
            .iter()
            .any(|d| d.file.display.starts_with(&format!("{dir}/")));
        assert!(hit, "{dir} is broken ({defect:?}) but nothing was reported");
    }
}

#[divan::bench(args = sizes(), sample_count = 10, sample_size = 1)]
fn check(bencher: Bencher, tools: usize) {
    let mut spec = repogen::Spec::with_tools(tools);
    if !bench_mode() {
        // Once, small, and with many broken tools so that every defect is exercised.
        spec.broken_percent = 25;
    }
    let repo = TempRepo::new(&spec);
    if !bench_mode() {
        assert_only_broken_tools_reported(&repo, &run(&repo.root));
    }
    bencher
        .counter(ItemsCount::new(repo.generated.files))
        .counter(BytesCount::new(repo.generated.bytes))
        .bench(|| run(&repo.root));
}

/// The passes of `check` one by one, on the largest repository, to see where time goes.
mod phases {
    use rayon::prelude::*;
    use toolc::discover::{Classifier, Discovered, discover, display_path};
    use toolc::formats::{self, FileResult};

    use super::*;

    fn size() -> usize {
        sizes().into_iter().max().unwrap_or(1)
    }

    fn found(repo: &TempRepo) -> Vec<Discovered> {
        let classifier = Classifier::new(&Config::default());
        discover(std::slice::from_ref(&repo.root), &classifier).0
    }

    fn load_all(repo: &TempRepo, found: &[Discovered]) -> Vec<FileResult> {
        found
            .par_iter()
            .map(|d| formats::load(&d.path, display_path(&d.path, &repo.root), d.format))
            .collect()
    }

    /// Walk and classify.
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn walk(bencher: Bencher) {
        let repo = TempRepo::new(&repogen::Spec::with_tools(size()));
        let classifier = Classifier::new(&Config::default());
        bencher.bench(|| discover(std::slice::from_ref(&repo.root), &classifier));
    }

    /// Read, parse, lower and validate every file (in parallel, as `check` does).
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn load(bencher: Bencher) {
        let repo = TempRepo::new(&repogen::Spec::with_tools(size()));
        let found = found(&repo);
        bencher
            .counter(ItemsCount::new(found.len()))
            .bench(|| load_all(&repo, &found));
    }

    /// Cross-file checks: names, policy, skill dependencies.
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn resolve(bencher: Bencher) {
        let repo = TempRepo::new(&repogen::Spec::with_tools(size()));
        let results = load_all(&repo, &found(&repo));
        bencher.bench(|| formats::resolve(&results));
    }

    /// Human output of the whole report, as the CLI prints it.
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn render_human(bencher: Bencher) {
        let repo = TempRepo::new(&repogen::Spec::with_tools(size()));
        let report = run(&repo.root);
        bencher.bench(|| {
            toolc::diagnostics::human::render(&report.diagnostics, &report.summary, false, false)
        });
    }
}
