//! Write a synthetic DojOps repository to disk, to time the release binary on it:
//!
//!     cargo bench --bench generate -- --out /tmp/toolc-10k --tools 10000
//!     /usr/bin/time -v target/release/toolc check /tmp/toolc-10k -q
//!
//! Options: `--tools N` (default 1000), `--skills N` (default N/100), `--broken PERCENT`
//! (default 3), `--seed N`. A folder this program wrote before is replaced.

mod repogen;

use std::path::PathBuf;
use std::process::ExitCode;

/// File that marks a folder as generated, so that a rerun may replace it.
const MARKER: &str = ".toolc-bench-generated";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("generate: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut out: Option<PathBuf> = None;
    let mut spec = repogen::Spec::with_tools(1_000);
    let mut skills = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("`{v}`: {e}"));
        match arg.as_str() {
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "--tools" => spec.tools = number(value("--tools")?)? as usize,
            "--skills" => skills = Some(number(value("--skills")?)? as usize),
            "--broken" => spec.broken_percent = number(value("--broken")?)?.min(100),
            "--seed" => spec.seed = number(value("--seed")?)?,
            // cargo passes `--bench` to bench targets; `cargo test --benches` passes nothing.
            "--bench" => {}
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    spec.skills = skills.unwrap_or((spec.tools / 100).max(1));
    let Some(out) = out else {
        println!(
            "usage: cargo bench --bench generate -- --out DIR [--tools N] [--skills N] [--broken PERCENT] [--seed N]"
        );
        return Ok(());
    };
    // Replace only a folder this program wrote: a mistyped `--out` must not delete real work.
    let marker = out.join(MARKER);
    if out.exists() {
        let empty = std::fs::read_dir(&out)
            .map_err(|e| format!("{}: {e}", out.display()))?
            .next()
            .is_none();
        if !empty && !marker.exists() {
            return Err(format!(
                "{} exists and was not written by this generator; choose another --out",
                out.display()
            ));
        }
        std::fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let g = repogen::write(&out, &spec).map_err(|e| format!("{}: {e}", out.display()))?;
    std::fs::write(
        &marker,
        "written by toolc's benches/generate.rs; safe to delete\n",
    )
    .map_err(|e| format!("{}: {e}", marker.display()))?;
    println!(
        "{}: {} tools ({} broken), {} skills, {} files, {:.1} MB",
        out.display(),
        spec.tools,
        g.broken.len(),
        spec.skills,
        g.files,
        g.bytes as f64 / 1e6
    );
    Ok(())
}
