//! `check --fix` and `check --diff`: apply the safe structured fixes of the findings, in
//! memory first, checking again after each round until nothing safe is left to fix; then
//! write the files (`--fix`) or print the edits as a unified diff (`--diff`).
//!
//! A fix replaces only the bytes of its edits, so formatting and comments around them stay.
//! A file with a syntax finding (any `SYN` rule) is never touched: its tree may not be what
//! its author meant, and neither may a fix computed from it.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::config::Config;
use crate::diagnostics::fix::{apply_edits, combine, is_applied_by};
use crate::diagnostics::{Applicability, Diagnostic, Fix};
use crate::fs::Overlay;
use crate::pipeline;
use crate::pipeline::{CheckOptions, Report};

/// How far fixing goes before it leaves the rest for the next run.
#[derive(Debug, Clone, Copy)]
struct Limits {
    /// Rounds of fixes: fixes can make new findings with fixes of their own, and a round
    /// fixes at most the findings a rule shows in a file.
    rounds: usize,
    /// Bytes checked over the rounds past which no round after the first starts: a round
    /// checks every definition again (a file of 300,000 fixable findings, 43 MB, took eleven
    /// checks: 42 s; a 15 MB `SKILL.md` of one fixable link five: 37 s). A repository of a
    /// megabyte or two is bounded by `rounds` alone.
    bytes: usize,
}

/// The limits of `--fix`, `--diff` and the editor's "fix all".
const LIMITS: Limits = Limits {
    rounds: 10,
    bytes: 16 << 20,
};

/// What to do with the fixed files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Write them in place (`--fix`).
    Write,
    /// Print the edits as a unified diff and write nothing (`--diff`).
    Diff,
}

/// What the command does once the fixes are handled.
pub(super) enum After {
    /// Print what remains, as `check` prints a report, and exit by it.
    Report(Report),
    /// Exit now with this code (`--diff` printed the edits; a file could not be written).
    Exit(ExitCode),
}

/// A file the fixes changed.
struct Changed {
    path: PathBuf,
    display: String,
    before: String,
    after: String,
}

/// The outcome of fixing in memory.
struct Fixed {
    /// The check of the fixed files: what remains.
    report: Report,
    /// Findings fixed, over every round.
    count: usize,
    /// Changed files, by path.
    files: BTreeMap<PathBuf, Changed>,
    /// Findings with a safe fix left when the rounds ran out.
    left: usize,
}

/// Fix, then write or print; `quiet` leaves out the summary on stderr.
pub(super) fn run(options: &CheckOptions, config: &Config, mode: Mode, quiet: bool) -> After {
    let fixed = fix_in_memory(options, config);
    let files = fixed.files.len();
    let summary = |verb: &str| {
        format!(
            "{verb} {} in {files} {}",
            findings(fixed.count),
            plural(files, "file", "files")
        )
    };
    match mode {
        Mode::Diff => {
            let mut out = String::new();
            for c in fixed.files.values() {
                out.push_str(&super::patch::unified_diff(&c.display, &c.before, &c.after));
            }
            super::print(&out);
            if !quiet {
                eprintln!("{}", summary("would fix"));
                if let Some(hint) = left_hint(fixed.left) {
                    eprintln!("{hint}");
                }
            }
            // As a check in CI: something to fix fails it.
            After::Exit(if files == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Mode::Write => {
            let mut failed = false;
            for c in fixed.files.values() {
                if let Err(why) = write(c, &options.cwd) {
                    eprintln!(
                        "error: {}: {why}; the file was not changed",
                        crate::diagnostics::visible(&c.display)
                    );
                    failed = true;
                }
            }
            if failed {
                return After::Exit(ExitCode::from(2));
            }
            if !quiet && fixed.count > 0 {
                eprintln!("{}", summary("fixed"));
            }
            if !quiet && let Some(hint) = left_hint(fixed.left) {
                eprintln!("{hint}");
            }
            if !quiet && let Some(hint) = unsafe_hint(&fixed.report) {
                eprintln!("{hint}");
            }
            After::Report(fixed.report)
        }
    }
}

/// What to say of the findings whose safe fix the rounds left, if any.
fn left_hint(left: usize) -> Option<String> {
    let who = match left {
        0 => return None,
        1 => "1 finding has".to_string(),
        n => format!("{n} findings have"),
    };
    Some(format!(
        "{who} a safe fix still to apply: toolc stops after {} rounds of fixes, or once {} MiB of definitions were checked; run it again",
        LIMITS.rounds,
        LIMITS.bytes >> 20
    ))
}

/// What to say of the findings left with a fix that may change meaning, if any.
fn unsafe_hint(report: &Report) -> Option<String> {
    let n = report
        .diagnostics
        .iter()
        .filter(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == Applicability::Unsafe)
        })
        .count();
    let who = match n {
        0 => return None,
        1 => "1 finding has".to_string(),
        n => format!("{n} findings have"),
    };
    Some(format!(
        "{who} a fix that may change meaning: review it, then apply it in an editor (a code action of `toolc server`) or by hand"
    ))
}

fn findings(n: usize) -> String {
    format!("{n} {}", plural(n, "finding", "findings"))
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// How far the fixes of one file may go: fixes whose edits do not overlap can still clash in
/// meaning (two misspellings of one key both renamed to it, a rename beside an insert of the
/// same key: a duplicate key). A round that leaves a file with a syntax finding is undone,
/// and the file then takes one fix a round; when a single fix breaks it, no more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pace {
    /// Every fix that combines, each round.
    All,
    /// One fix a round.
    One,
    /// None: a fix of it left it broken.
    Stop,
}

/// What a round did to one file, to undo it.
struct Undo {
    /// The text before the round.
    text: String,
    /// The findings the round counted as fixed.
    fixed: usize,
}

/// Check, apply every safe fix that applies together, and check again, in memory.
fn fix_in_memory(options: &CheckOptions, config: &Config) -> Fixed {
    let fs = Overlay::new(Box::new(crate::fs::Confined::for_paths(
        &options.paths,
        &options.cwd,
    )));
    fix_through(options, config, fs, LIMITS)
}

/// The text of the file at `path` (absolute) with every safe fix applied, as `--fix` would
/// apply them to `text`: what the language server's "fix all" action hands the editor, so
/// that fixes which clash (two that add one key) are handled the same way in both. `None`
/// when nothing would change.
pub(crate) fn fixed_text(root: &Path, config: &Config, path: &Path, text: &str) -> Option<String> {
    let options = CheckOptions {
        paths: vec![path.to_path_buf()],
        cwd: root.to_path_buf(),
        ..CheckOptions::default()
    };
    let mut fs = Overlay::new(Box::new(crate::fs::Confined::for_paths(&[], root)));
    fs.set(path.to_path_buf(), text.as_bytes().to_vec());
    let mut fixed = fix_through(&options, config, fs, LIMITS);
    fixed
        .files
        .remove(path)
        .map(|c| c.after)
        .filter(|after| after != text)
}

/// [`fix_in_memory`], reading files through `fs`.
fn fix_through(options: &CheckOptions, config: &Config, mut fs: Overlay, limits: Limits) -> Fixed {
    let mut files: BTreeMap<PathBuf, Changed> = BTreeMap::new();
    let mut pace: HashMap<PathBuf, Pace> = HashMap::new();
    let mut last_round: HashMap<PathBuf, Undo> = HashMap::new();
    let mut count = 0;
    let mut round = 0;
    let mut checked = 0usize;
    loop {
        let loaded = pipeline::load(options, config, &fs, None, false);
        checked = loaded
            .results
            .iter()
            .fold(checked, |sum, r| sum.saturating_add(r.file.text.len()));
        let (report, _) = pipeline::report(options, config, &loaded, None, false);
        // Every syntax finding counts, even one configuration turned off or a comment
        // suppressed.
        let broken: HashSet<&Path> = loaded
            .results
            .iter()
            .flat_map(|r| &r.diagnostics)
            .filter(|d| d.rule.code.starts_with("SYN"))
            .map(|d| d.file.path.as_path())
            .collect();
        // A file the last round broke goes back to its text before it, and slows down.
        let mut undone = false;
        for (path, undo) in last_round.drain() {
            if !broken.contains(path.as_path()) {
                continue;
            }
            let slower = match pace.get(&path).copied().unwrap_or(Pace::All) {
                Pace::All => Pace::One,
                Pace::One | Pace::Stop => Pace::Stop,
            };
            pace.insert(path.clone(), slower);
            count -= undo.fixed;
            if files.get(&path).is_some_and(|c| c.before == undo.text) {
                files.remove(&path);
            } else if let Some(c) = files.get_mut(&path) {
                c.after.clone_from(&undo.text);
            }
            fs.set(path, undo.text.into_bytes());
            undone = true;
        }
        if undone {
            drop(report);
            round += 1;
            continue;
        }
        let mut safe: BTreeMap<&Path, Vec<&Diagnostic>> = BTreeMap::new();
        for d in &report.diagnostics {
            let is_safe = d
                .fix
                .as_ref()
                .is_some_and(|f| f.applicability == Applicability::Safe);
            if is_safe && !broken.contains(d.file.path.as_path()) {
                safe.entry(d.file.path.as_path()).or_default().push(d);
            }
        }
        let mut applied = false;
        let more = round < limits.rounds && (round == 0 || checked < limits.bytes);
        if more {
            for (path, diagnostics) in &safe {
                let Some(file) = diagnostics.first().map(|d| &d.file) else {
                    continue;
                };
                let mut fixes: Vec<&Fix> = diagnostics
                    .iter()
                    .filter_map(|d| d.fix.as_deref())
                    .collect();
                match pace.get(*path).copied().unwrap_or(Pace::All) {
                    Pace::All => {}
                    Pace::One => {
                        fixes.sort_by_key(|f| {
                            f.edits.iter().map(|e| (e.span.start, e.span.end)).min()
                        });
                        fixes.truncate(1);
                    }
                    Pace::Stop => continue,
                }
                let edits = combine(fixes);
                let Some(after) = apply_edits(&file.text, &edits) else {
                    continue;
                };
                if after == file.text.as_str() {
                    continue;
                }
                let fixed = diagnostics
                    .iter()
                    .filter(|d| d.fix.as_ref().is_some_and(|f| is_applied_by(f, &edits)))
                    .count();
                count += fixed;
                last_round.insert(
                    path.to_path_buf(),
                    Undo {
                        text: file.text.to_string(),
                        fixed,
                    },
                );
                files
                    .entry(path.to_path_buf())
                    .or_insert_with(|| Changed {
                        path: path.to_path_buf(),
                        display: file.display().to_string(),
                        before: file.text.to_string(),
                        after: String::new(),
                    })
                    .after = after.clone();
                fs.set(path.to_path_buf(), after.into_bytes());
                applied = true;
            }
        }
        if !applied {
            let left = match more {
                true => 0,
                false => safe.values().map(Vec::len).sum(),
            };
            return Fixed {
                report,
                count,
                files,
                left,
            };
        }
        round += 1;
    }
}

/// Write the fixed text, unless the file changed on disk since it was read: atomically, and
/// never through a link (a link to a file elsewhere in the repository is left for its target
/// to be fixed by name), to a file a link leads out to, or outside the repository of the
/// working directory (a file named there may be read, never written).
fn write(c: &Changed, cwd: &Path) -> Result<(), String> {
    let at = crate::fs::boundary::named(&c.path, cwd).map_err(|e| format!("it is {e}"))?;
    let home = crate::fs::Repository::of(cwd);
    if !home.holds(at.path()) {
        return Err(format!(
            "it lies outside the repository toolc runs in (`{}`), and toolc writes nothing outside it; run `toolc check --fix` in the file's own repository",
            home.top().display()
        ));
    }
    let now = at
        .read()
        .map_err(|e| format!("cannot read it again: {e}"))?;
    if now != c.before.as_bytes() {
        return Err("it changed on disk while toolc was fixing it".to_string());
    }
    at.write(c.after.as_bytes())
        .map_err(|e| format!("cannot write it: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tool list of `n` tools whose schema misspells `string`: a safe fix each.
    fn misspelt(n: usize) -> String {
        let tools: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"name":"t{i}","inputSchema":{{"type":"strin"}}}}"#))
            .collect();
        format!(r#"{{"tools":[{}]}}"#, tools.join(","))
    }

    /// `text` as the file `tools.json` of an empty folder, fixed within `limits`.
    fn fixed(name: &str, text: &str, limits: Limits) -> Fixed {
        let root = std::env::temp_dir().join(format!("toolc-fix-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&root).expect("a folder");
        let path = root.join("tools.json");
        let options = CheckOptions {
            paths: vec![path.clone()],
            cwd: root.clone(),
            ..CheckOptions::default()
        };
        let mut fs = Overlay::new(Box::new(crate::fs::Confined::for_paths(&[], &root)));
        fs.set(path, text.as_bytes().to_vec());
        let fixed = fix_through(&options, &Config::default(), fs, limits);
        let _ = std::fs::remove_dir_all(&root);
        fixed
    }

    #[test]
    fn rounds_stop_at_the_bytes_checked_and_say_what_is_left() {
        let text = misspelt(250);
        let after = |f: &Fixed| {
            f.files
                .values()
                .map(|c| c.after.clone())
                .collect::<String>()
        };
        // A round fixes the 200 a rule shows in a file; the second round fixes the rest.
        let all = fixed("all", &text, LIMITS);
        assert_eq!((all.count, all.left), (250, 0));
        assert_eq!(after(&all).matches("\"strin\"").count(), 0);
        // Past the bytes, no second round: the rest is left, and counted.
        let bytes = text.len() + 1;
        let first = fixed("first", &text, Limits { rounds: 10, bytes });
        assert_eq!((first.count, first.left), (200, 50));
        assert_eq!(after(&first).matches("\"strin\"").count(), 50);
        let rounds = fixed(
            "rounds",
            &text,
            Limits {
                rounds: 1,
                bytes: usize::MAX,
            },
        );
        assert_eq!((rounds.count, rounds.left), (200, 50));
        assert!(left_hint(50).is_some_and(|h| h.starts_with("50 findings have a safe fix")));
        assert_eq!(left_hint(0), None);
    }
}
