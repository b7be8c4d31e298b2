//! Time and peak memory of `toolc diff` on a git repository of one `tools.json` of many tiny
//! tools (`{"name":"tN","command":["x"]}`, the shape that costs the most per byte), each a
//! run of the built binary (its allocator included): the file unchanged, every tool's program
//! changed, every tool added to a file of one, and every tool removed from it; the memory
//! beyond that of a diff of a file of one tool, as a multiple of the file's size.
//!
//!     cargo bench --bench diff                         # 300,000 tools (10 MB)
//!     TOOLC_DIFF_TOOLS=1800000 cargo bench --bench diff  # 63 MB
//!
//! Under `cargo test --benches` it runs once on 600 tools and checks what each diff finds.
//! Needs `git`; the peak memory is what the binary says of itself under `TOOLC_DEBUG_TIMES`
//! (Linux).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let tools = match std::env::var("TOOLC_DIFF_TOOLS") {
        Ok(n) => n.parse().unwrap_or(300_000),
        Err(_) if bench => 300_000,
        Err(_) => 600,
    };
    let root = std::env::temp_dir().join(format!("toolc-bench-diff-{tools}"));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("make the repository");
    git(&root, &["init", "-q"]);
    let size = manifest(tools, "x").len() as f64;
    println!("{tools} tools, {:.1} MB", size / 1e6);
    let mut found = Vec::new();
    // The ratio is of the memory beyond a diff of a file of one tool, to the file's size.
    let mut small = None;
    let cases: [(&str, usize, usize, &str); 5] = [
        ("a file of one tool, unchanged", 1, 1, "x"),
        ("unchanged", tools, tools, "x"),
        ("every tool changed", tools, tools, "y"),
        ("every tool added to a file of one", 1, tools, "x"),
        ("every tool removed but one", tools, 1, "x"),
    ];
    for (label, old, new, program) in cases {
        std::fs::write(root.join("tools.json"), manifest(old, "x")).expect("write v1");
        git(&root, &["add", "tools.json"]);
        git(&root, &["commit", "-q", "--allow-empty", "-m", label]);
        std::fs::write(root.join("tools.json"), manifest(new, program)).expect("write v2");
        let m = run_diff(&root);
        let beyond = m.peak_mib - *small.get_or_insert(m.peak_mib);
        println!(
            "{label:<36} wall {:>7.0} ms  peak {:>6.1} MiB ({:>4.1}x)  findings {}",
            m.wall_ms,
            m.peak_mib,
            beyond * 1048576.0 / size,
            m.findings
        );
        found.push((label, m.findings));
    }
    let _ = std::fs::remove_dir_all(&root);
    if !bench {
        // Nothing when nothing changed; a finding for each changed and removed tool, capped
        // per rule and file (200, and one that counts the rest); nothing for added tools.
        let counts: Vec<usize> = found.iter().map(|(_, n)| *n).collect();
        assert_eq!(counts, [0, 0, 201, 0, 201], "{found:?}");
    }
}

/// A `tools.json` of `n` tiny tools that run `program`.
fn manifest(n: usize, program: &str) -> String {
    let tools: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"name":"t{i}","command":["{program}"]}}"#))
        .collect();
    format!(r#"{{"tools":[{}]}}"#, tools.join(","))
}

fn git(root: &Path, args: &[&str]) {
    let status = Command::new("git")
        .current_dir(root)
        .args([
            "-c",
            "user.name=bench",
            "-c",
            "user.email=bench@example.com",
        ])
        .args(args)
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// What one diff took.
struct Measured {
    wall_ms: f64,
    peak_mib: f64,
    findings: usize,
}

/// `toolc diff --against HEAD --format json` in `root`, as a user runs it (without
/// `--stat`).
fn run_diff(root: &Path) -> Measured {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_toolc"))
        .current_dir(root)
        .env("TOOLC_DEBUG_TIMES", "1")
        .args(["diff", "--against", "HEAD", "--format", "json"])
        .output()
        .expect("toolc runs");
    let wall_ms = start.elapsed().as_secs_f64() * 1e3;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let peak_mib = stderr
        .lines()
        .rev()
        .filter_map(|l| l.split("peak").nth(1)?.trim().strip_suffix("MiB"))
        .find_map(|n| n.trim().parse().ok())
        .unwrap_or(0.0);
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr));
    let count = |key: &str| report["summary"][key].as_u64().unwrap_or(0) as usize;
    Measured {
        wall_ms,
        peak_mib,
        findings: count("errors") + count("warnings") + count("infos"),
    }
}
