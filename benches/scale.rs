//! Time and peak memory of whole checks on a generated DojOps repository, each in a fresh
//! process (this program run again in child mode), the way the command line runs them:
//! without the cache, with it cold (writing it), warm with nothing changed, warm with one
//! tool changed, and `check FILE` with the cache warm.
//!
//!     cargo bench --bench scale                          # 100,000 tools
//!     TOOLC_SCALE_TOOLS=10000 cargo bench --bench scale  # another size
//!     TOOLC_SCALE_KEEP=1 cargo bench --bench scale       # keep the repository afterwards
//!
//! Under `cargo test --benches` it runs once on 60 tools and checks that every mode reports
//! the same findings. Peak memory is the child's high-water mark (`VmHWM`), CPU time its
//! user and system time, both read from `/proc/self` as it ends (Linux).

mod repogen;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use toolc::{CheckOptions, Config, Inputs};

const CHILD: &str = "TOOLC_SCALE_CHILD";
const FILE: &str = ".dojops/tools/tool-00000/tool.yaml";

fn main() {
    if std::env::var_os(CHILD).is_some() {
        child();
        return;
    }
    let bench = std::env::args().any(|a| a == "--bench");
    let tools = match std::env::var("TOOLC_SCALE_TOOLS") {
        Ok(n) => n.parse().unwrap_or(100_000),
        Err(_) if bench => 100_000,
        Err(_) => 60,
    };
    let root = repogen::temp_root(&format!("scale-{tools}"));
    let _ = std::fs::remove_dir_all(&root);
    let generated =
        repogen::write(&root, &repogen::Spec::with_tools(tools)).expect("write the repository");
    repogen::age(&root).expect("date the repository back");
    println!(
        "{tools} tools, {} files, {:.1} MB",
        generated.files,
        generated.bytes as f64 / 1e6
    );
    let mut findings = Vec::new();
    let mut measure = |label: &str, args: &[&str]| {
        let m = run_child(&root, args);
        println!(
            "{label:<40} wall {:>7.0} ms  cpu {:>7.0} ms  peak {:>6.1} MiB  findings {}",
            m.wall_ms, m.cpu_ms, m.peak_mib, m.findings
        );
        findings.push((label.to_string(), m.findings));
    };
    measure("check, no cache", &["--no-cache"]);
    let _ = std::fs::remove_dir_all(root.join(".toolc_cache"));
    measure("check, cold cache (writes it)", &[]);
    // The next run notes what the folders said; from then on nothing changes.
    run_child(&root, &[]);
    measure("check, warm, nothing changed", &[]);
    let path = root.join(FILE);
    let original = std::fs::read(&path).expect("read the tool");
    let mut changed = original.clone();
    changed.extend_from_slice(b"\n# edited\n");
    edit(&path, &changed);
    measure("check, warm, one tool changed", &[]);
    measure("check FILE, warm, unchanged", &[FILE]);
    edit(&path, &original);
    measure("check FILE, warm, the file changed", &[FILE]);
    if std::env::var_os("TOOLC_SCALE_KEEP").is_some() {
        // For timing the release binary by hand on the same repository.
        println!("kept {}", root.display());
    } else {
        let _ = std::fs::remove_dir_all(&root);
    }
    if !bench {
        // Whole runs report the same findings whichever way they read the files.
        let whole: Vec<usize> = findings
            .iter()
            .filter(|(label, _)| !label.contains("FILE"))
            .map(|(_, n)| *n)
            .collect();
        assert!(whole.windows(2).all(|w| w[0] == w[1]), "{findings:?}");
    }
}

/// Write `bytes` to the file at `path` in place, dated a minute back (an edit saved before
/// the check starts, as a pre-commit hook sees it).
fn edit(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).expect("edit the tool");
    let then = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|f| f.set_modified(then))
        .expect("date the edit");
}

/// What one child run took.
struct Measured {
    wall_ms: f64,
    cpu_ms: f64,
    peak_mib: f64,
    findings: usize,
}

fn run_child(root: &Path, args: &[&str]) -> Measured {
    let start = Instant::now();
    let out = Command::new(std::env::current_exe().expect("this program"))
        .env(CHILD, "1")
        .arg(root)
        .args(args)
        .output()
        .expect("the child runs");
    let wall_ms = start.elapsed().as_secs_f64() * 1e3;
    let text = String::from_utf8_lossy(&out.stdout);
    let numbers: Vec<f64> = text
        .split_whitespace()
        .filter_map(|n| n.parse().ok())
        .collect();
    match numbers.as_slice() {
        [cpu_ms, peak_kib, findings] => Measured {
            wall_ms,
            cpu_ms: *cpu_ms,
            peak_mib: peak_kib / 1024.0,
            findings: *findings as usize,
        },
        _ => panic!(
            "the child said {text:?} ({})",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// Child mode: `ROOT [--no-cache] [PATH]`, checked as the command line does; prints the CPU
/// time (ms), the peak resident memory (KiB) and the number of findings.
fn child() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().expect("a root"));
    let mut cache = true;
    let mut paths = Vec::new();
    for arg in args {
        if arg == "--no-cache" {
            cache = false;
        } else {
            paths.push(PathBuf::from(arg));
        }
    }
    let config = Config::discover_for(&root, &paths, None).unwrap_or_default();
    let options = CheckOptions {
        paths,
        cwd: root,
        select: vec![],
        ignore: vec![],
        targets: None,
        preview: false,
    };
    let inputs = Inputs {
        cache,
        ..Inputs::default()
    };
    let report = toolc::check_with(&options, &config, &inputs);
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak_kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    println!("{} {peak_kib} {}", cpu_ms(), report.diagnostics.len());
    // The process ends here: what the report holds is not freed one by one.
    std::mem::forget(report);
}

/// User and system time of this process so far, in milliseconds (Linux: clock ticks of
/// 10 ms).
fn cpu_ms() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit(") ").next().unwrap_or("");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 from the state on.
    (ticks(11) + ticks(12)) * 10.0
}
