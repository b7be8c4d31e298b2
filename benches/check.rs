//! `toolc::check` on generated DojOps repositories of 1,000 and 10,000 tools.
//!
//! `cargo bench --bench check`. Under `cargo test --benches` divan runs each benchmark once;
//! the repository is then tiny and the run also checks that the generator's broken tools (and
//! only those) are reported.

mod repogen;

use std::path::{Path, PathBuf};

use divan::Bencher;
use divan::counter::{BytesCount, ItemsCount};
use toolc::{CheckOptions, Config, Inputs, OutputFormat, Report, Workspace};

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
        // Dated back, as a repository is when it is checked: the cache trusts no time of
        // the last two seconds.
        repogen::age(&root).expect("date the repository back");
        TempRepo { root, generated }
    }
}

impl Drop for TempRepo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn run(root: &Path) -> Report {
    run_on(root, &[], false)
}

/// `toolc check PATHS` in `root` as the command line runs it, with or without the cache.
fn run_on(root: &Path, paths: &[&str], cache: bool) -> Report {
    let config = Config::discover(root, None).unwrap_or_default();
    let options = CheckOptions {
        paths: paths.iter().map(PathBuf::from).collect(),
        cwd: root.to_path_buf(),
        select: vec![],
        ignore: vec![],
        targets: None,
        preview: false,
    };
    let inputs = Inputs {
        cache,
        ..Inputs::default()
    };
    toolc::check_with(&options, &config, &inputs)
}

/// Every broken tool is reported, and nothing else is (the policy and skills are valid).
fn assert_only_broken_tools_reported(repo: &TempRepo, report: &Report) {
    for d in &report.diagnostics {
        let hit = repo
            .generated
            .broken
            .iter()
            .any(|(dir, _)| d.file.display().starts_with(&format!("{dir}/")));
        assert!(
            hit,
            "a diagnostic outside the broken tools: {} {} {}",
            d.file.display(),
            d.rule.code,
            d.message
        );
    }
    for (dir, defect) in &repo.generated.broken {
        let hit = report
            .diagnostics
            .iter()
            .any(|d| d.file.display().starts_with(&format!("{dir}/")));
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

/// What an editor and a pre-commit run wait for, on the largest repository.
mod incremental {
    use super::*;

    fn size() -> usize {
        sizes().into_iter().max().unwrap_or(1)
    }

    /// A workspace that checked everything once re-checks one changed tool (an editor's save).
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn recheck_one_changed_file(bencher: Bencher) {
        let repo = TempRepo::new(&repogen::Spec::with_tools(size()));
        let mut workspace = Workspace::new(Config::default(), &repo.root);
        workspace.check();
        let tool = repo.root.join(".dojops/tools/tool-00000/tool.yaml");
        let original = std::fs::read(&tool).unwrap_or_default();
        let mut changed = original.clone();
        changed.extend_from_slice(b"\n# edited\n");
        let mut flip = false;
        bencher.bench_local(|| {
            flip = !flip;
            let bytes = if flip { &changed } else { &original };
            workspace.set_buffer(&tool, bytes.clone());
            workspace.check_file(&tool)
        });
    }

    /// The content cache (`.toolc_cache/`), warm: a full re-check with nothing changed.
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn cached_recheck_nothing_changed(bencher: Bencher) {
        let repo = TempRepo::new(&repogen::Spec::with_tools(size()));
        let cold = run_on(&repo.root, &[], true);
        assert_eq!(
            run_on(&repo.root, &[], true).diagnostics.len(),
            cold.diagnostics.len()
        );
        bencher.bench_local(|| run_on(&repo.root, &[], true));
    }

    /// A full re-check with a warm cache after one tool changed (it alone is loaded).
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn cached_recheck_one_file_changed(bencher: Bencher) {
        let repo = TempRepo::new(&repogen::Spec::with_tools(size()));
        run_on(&repo.root, &[], true);
        let mut edit = Edit::new(&repo.root);
        bencher.bench_local(|| {
            edit.flip();
            run_on(&repo.root, &[], true)
        });
    }

    /// What a pre-commit hook runs on a one-file commit: `toolc check FILE` with a warm cache,
    /// the file changed since the last run.
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn cached_check_one_named_file(bencher: Bencher) {
        let repo = TempRepo::new(&repogen::Spec::with_tools(size()));
        run_on(&repo.root, &[], true);
        let mut edit = Edit::new(&repo.root);
        bencher.bench_local(|| {
            edit.flip();
            run_on(&repo.root, &[Edit::PATH], true)
        });
    }

    /// One tool file, changed back and forth between two contents.
    struct Edit {
        path: PathBuf,
        original: Vec<u8>,
        changed: Vec<u8>,
        flip: bool,
    }

    impl Edit {
        const PATH: &'static str = ".dojops/tools/tool-00000/tool.yaml";

        fn new(root: &Path) -> Edit {
            let path = root.join(Edit::PATH);
            let original = std::fs::read(&path).unwrap_or_default();
            let mut changed = original.clone();
            changed.extend_from_slice(b"\n# edited\n");
            Edit {
                path,
                original,
                changed,
                flip: false,
            }
        }

        fn flip(&mut self) {
            self.flip = !self.flip;
            let bytes = if self.flip {
                &self.changed
            } else {
                &self.original
            };
            // Saved a minute before the check, as a pre-commit hook sees an edit.
            let then = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
            let _ = std::fs::write(&self.path, bytes).and_then(|()| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&self.path)?
                    .set_modified(then)
            });
        }
    }

    /// Human output of the whole report, as the CLI prints it.
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn render_human(bencher: Bencher) {
        let repo = TempRepo::new(&repogen::Spec::with_tools(size()));
        let report = run(&repo.root);
        bencher.bench(|| report.render(OutputFormat::Human, &repo.root, false));
    }
}
