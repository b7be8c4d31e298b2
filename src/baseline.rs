//! Baselines for gradual adoption: `toolc check --write-baseline` records today's findings,
//! and later runs with that baseline (`--baseline FILE`, `[baseline] path` in `toolc.toml`)
//! hide exactly those, so a repository with hundreds of findings can gate on new ones now and
//! pay the old ones down later.
//!
//! A finding is recognised by its fingerprint, never by its line: the rule, the path, the
//! flagged text and what surrounds it (the rest of its line, and the line it is nested under).
//! Lines inserted above keep it baselined. Each entry hides one finding, so the same problem
//! a second time in the same place is new. SARIF's `partialFingerprints` are these fingerprints.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::diagnostics::Diagnostic;
use crate::discover::{display_path, normalize};
use crate::fs::RepoPath;
use crate::rules::{self, Rule, syntax as syn};
use crate::source::{FormatId, SourceFile, Span};

/// The name of the fingerprint scheme, in baseline files and as SARIF's `partialFingerprints`
/// key; a change to what is hashed must change it, so old and new are never compared.
pub(crate) const FINGERPRINT_KEY: &str = "toolc/v2";

/// Where `--write-baseline` writes when neither it nor the configuration names a file.
pub(crate) const DEFAULT_FILE_NAME: &str = "toolc-baseline.json";

/// The baseline file format's version.
const VERSION: u32 = 1;

/// How much of the flagged token's line, on either side of it, is part of its surroundings:
/// a whole line of YAML, but only the neighbourhood of a token on a long minified JSON line.
const CONTEXT_CHARS: usize = 60;

/// The baseline file: one entry per recorded finding.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    fingerprint: String,
    entries: Vec<Entry>,
}

/// One recorded finding. `path`, `code` and `fingerprint` must all match a finding for the
/// entry to hide it (so what a reviewer reads is what it hides); `message` is for people
/// reading the file and for reports about stale entries.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    path: String,
    code: String,
    fingerprint: String,
    message: String,
}

/// Whether a finding is one a run checks: its file is in scope and its rule enabled there.
pub(crate) type Covers<'a> = dyn Fn(&Rule, &Path) -> bool + 'a;

/// What applying a baseline did.
#[derive(Debug, Default)]
pub(crate) struct Applied {
    /// Findings the baseline hides.
    pub baselined: Vec<Diagnostic>,
    /// Problems with the baseline itself (unreadable, stale entries), to be reported.
    pub problems: Vec<Diagnostic>,
}

/// The fingerprint of `d`, with its path taken relative to `root`.
pub(crate) fn fingerprint(d: &Diagnostic, root: &Path) -> String {
    let text = &d.file.text;
    let start = d.span.start.min(text.len());
    let lines = d.file.lines();
    let line = lines.line_around(text, start);
    let token = text.get(start..d.span.end.min(text.len())).unwrap_or("");
    let before = text.get(line.start..start).unwrap_or("");
    let after = text
        .get(d.span.end.clamp(start, line.end)..line.end)
        .unwrap_or("");
    let before: String = {
        let tail: Vec<char> = before.chars().rev().take(CONTEXT_CHARS).collect();
        tail.into_iter().rev().collect()
    };
    let after: String = after.chars().take(CONTEXT_CHARS).collect();
    let parent = lines
        .nested_under(text, start)
        .and_then(|l| text.get(l))
        .map_or("", str::trim);
    let path = relative_path(&d.file, root);
    let mut hasher = Sha256::new();
    for part in [d.rule.code, path.as_str()] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    for part in [token, &before, &after, parent] {
        hash_squeezed(&mut hasher, part);
        hasher.update([0]);
    }
    hasher
        .finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `/`-separated path of `file` relative to `root` (with `..` when outside it): the same
/// whatever the working directory.
fn relative_path(file: &SourceFile, root: &Path) -> String {
    display_path(&file.path, root)
}

/// Hash `text` with its runs of whitespace as one space and none at the ends (re-indenting
/// is not a change), a word at a time: a finding's token may be a value of megabytes.
fn hash_squeezed(hasher: &mut Sha256, text: &str) {
    for (i, word) in text.split_whitespace().enumerate() {
        if i > 0 {
            hasher.update(b" ");
        }
        hasher.update(word.as_bytes());
    }
}

/// Fingerprints of `diagnostics` in their order, each with its number among equal ones
/// (1-based): SARIF's `HASH:N`.
pub(crate) fn numbered<'a>(
    diagnostics: impl Iterator<Item = &'a Diagnostic>,
    root: &Path,
) -> Vec<(String, usize)> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    diagnostics
        .map(|d| {
            let hash = fingerprint(d, root);
            let n = seen.entry(hash.clone()).or_insert(0);
            *n += 1;
            (hash, *n)
        })
        .collect()
}

/// A baseline as read: its entries, the file (for diagnostics) and the folder paths are
/// relative to.
struct Loaded {
    entries: Vec<Entry>,
    file: Arc<SourceFile>,
    root: PathBuf,
}

/// Read and parse the baseline at `at`; the error is the TLC005 diagnostic to report.
fn load(at: &RepoPath, cwd: &Path) -> Result<Loaded, Box<Diagnostic>> {
    let path = at.path();
    let display = display_path(path, cwd);
    let root = normalize(path.parent().unwrap_or(Path::new(".")));
    let problem = |file: &Arc<SourceFile>, span: Span, message: String, help: &str| {
        Box::new(
            Diagnostic::new(&syn::INVALID_BASELINE, file, span, message)
                .note("no finding is hidden until the baseline is readable")
                .help(help.to_string()),
        )
    };
    let bytes = match read(at) {
        Ok(bytes) => bytes,
        Err(message) => {
            let file =
                SourceFile::new(path.to_path_buf(), display, FormatId::Config, String::new());
            return Err(problem(
                &file,
                Span::point(0),
                format!("cannot read the baseline: {message}"),
                "write it with `toolc check --write-baseline`, or stop naming it (`--baseline`, `[baseline] path` in toolc.toml)",
            ));
        }
    };
    let (file, _) = SourceFile::from_bytes(path.to_path_buf(), display, FormatId::Config, bytes);
    let parsed: File = match serde_json::from_str(file.body()) {
        Ok(parsed) => parsed,
        Err(e) => {
            let at = offset_of(file.body(), e.line(), e.column()) + file.bom_len;
            return Err(problem(
                &file,
                Span::point(at),
                format!("not a toolc baseline: {e}"),
                "write it again with `toolc check --write-baseline`",
            ));
        }
    };
    if parsed.version != VERSION || parsed.fingerprint != FINGERPRINT_KEY {
        let message = format!(
            "the baseline is version {} with fingerprints `{}`; this toolc reads version {VERSION} with `{FINGERPRINT_KEY}`",
            parsed.version, parsed.fingerprint
        );
        return Err(problem(
            &file,
            Span::point(file.bom_len),
            message,
            "write it again with `toolc check --write-baseline` (its findings are recorded anew)",
        ));
    }
    Ok(Loaded {
        entries: parsed.entries,
        file,
        root,
    })
}

/// The bytes of the baseline: a regular file of at most [`crate::fs::MAX_READ_BYTES`] (never a device
/// or FIFO, which could block or never end), never through a link out of the repository.
fn read(at: &RepoPath) -> Result<Vec<u8>, String> {
    at.read().map_err(|e| e.to_string())
}

/// Byte offset of a 1-based line and column (serde_json's error position) in `text`.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// How many findings a recorded line standing for the rest of a rule's findings stood for
/// (`"250 more findings of this rule …"`); 0 for any other finding.
fn standing_for(message: &str) -> usize {
    message
        .strip_suffix(crate::diagnostics::cap::MORE_SUFFIX)
        .and_then(|count| count.parse().ok())
        .unwrap_or(0)
}

impl Entry {
    /// True for an entry recording one finding, false for a line that stood for the rest.
    fn is_finding(&self) -> bool {
        standing_for(&self.message) == 0
    }
}

/// The key of a rule's findings in a file.
fn group(path: &str, code: &str) -> String {
    format!("{path}\0{code}")
}

/// What the baseline recorded of a rule's findings in a file it or the run capped (where
/// either has a line standing for the rest): as many findings as the baseline's line stood
/// for, and as its entries no finding matched one for one. When a run shows more of them (fewer in another file,
/// or the cap rose as some were fixed), or fewer (the cap fell), they still hide no more
/// than were recorded.
#[derive(Default)]
struct Pool {
    left: usize,
    /// The run has findings of the rule in the file besides those entries match one for one.
    met: bool,
}

/// The baseline's pools, by group.
struct Pools(HashMap<String, Pool>);

impl Pools {
    fn of(entries: &[Entry]) -> Pools {
        let mut pools: HashMap<String, Pool> = HashMap::new();
        for entry in entries {
            let rest = standing_for(&entry.message);
            if rest > 0 {
                pools
                    .entry(group(&entry.path, &entry.code))
                    .or_default()
                    .left += rest;
            }
        }
        Pools(pools)
    }

    /// An entry of one finding that no finding matched: it counts in its group's pool.
    fn unmatched(&mut self, entry: &Entry) {
        if let Some(pool) = self.0.get_mut(&group(&entry.path, &entry.code)) {
            pool.left += 1;
        }
    }
}

/// Hide the findings of `diagnostics` that the baseline at `path` records, and report its
/// entries that match nothing among the findings this run `covers`.
pub(crate) fn apply(
    path: &RepoPath,
    cwd: &Path,
    diagnostics: &mut Vec<Diagnostic>,
    covers: &Covers<'_>,
) -> Applied {
    let baseline = match load(path, cwd) {
        Ok(b) => b,
        Err(problem) => {
            return Applied {
                baselined: Vec::new(),
                problems: vec![*problem],
            };
        }
    };
    // An entry hides a finding only when its path, its rule and its fingerprint all say so:
    // an entry that reads "TLC006 in docs/old.md" cannot hide a new SEC finding elsewhere by
    // carrying that finding's fingerprint.
    let key = |fingerprint: &str, path: &str, code: &str| format!("{fingerprint}\0{path}\0{code}");
    let mut unmatched: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, entry) in baseline.entries.iter().enumerate().rev() {
        let key = key(&entry.fingerprint, &entry.path, &entry.code);
        unmatched.entry(key).or_default().push(i);
    }
    let mut matched = vec![false; baseline.entries.len()];
    let mut pools = Pools::of(&baseline.entries);
    // First the findings an entry records, one for one: a rule's findings in a file the
    // baseline capped are then compared by count with what it recorded of them.
    let mut hide = vec![false; diagnostics.len()];
    let mut pending = Vec::new();
    for (at, d) in diagnostics.iter().enumerate() {
        let path = relative_path(&d.file, &baseline.root);
        let found = key(&fingerprint(d, &baseline.root), &path, d.rule.code);
        let candidates = unmatched.get_mut(&found);
        let one_for_one = |i: &usize| d.omitted == 0 && baseline.entries[*i].is_finding();
        if let Some(list) = candidates
            && list.last().is_some_and(one_for_one)
            && let Some(i) = list.pop()
        {
            matched[i] = true;
            hide[at] = true;
        } else {
            pending.push((at, group(&path, d.rule.code)));
        }
    }
    // A rule the run capped in a file is compared by count too: a baseline written when the
    // run showed more of it (the repository had fewer findings) records some that are now
    // counted by the run's line.
    for (at, group) in &pending {
        if diagnostics[*at].omitted > 0 {
            pools.0.entry(group.clone()).or_default();
        }
    }
    for (i, entry) in baseline.entries.iter().enumerate() {
        if !matched[i] && entry.is_finding() {
            pools.unmatched(entry);
        }
    }
    for (at, group) in pending {
        let d = &mut diagnostics[at];
        // A finding of a rule neither capped in its file is new.
        let Some(pool) = pools.0.get_mut(&group) else {
            continue;
        };
        pool.met = true;
        let needed = d.omitted.max(1);
        if needed <= pool.left {
            pool.left -= needed;
            hide[at] = true;
        } else if d.omitted > 0 {
            // Shown whole: what the baseline still hid of the rule is among them.
            let left = std::mem::take(&mut pool.left);
            d.notes
                .push(format!("the baseline hides {left} of them; the others are new").into());
        }
    }
    let mut baselined = Vec::new();
    let mut hidden = hide.into_iter();
    diagnostics.retain(|d| {
        let hide = hidden.next().unwrap_or(false);
        if hide {
            baselined.push(d.clone());
        }
        !hide
    });
    // An entry of a rule the baseline capped in a file is in use while the run has findings
    // of it there that no entry matches one for one (hidden or not).
    let in_use = |i: usize, entry: &Entry| {
        matched[i]
            || pools
                .0
                .get(&group(&entry.path, &entry.code))
                .is_some_and(|p| p.met)
    };
    let stale: Vec<&Entry> = baseline
        .entries
        .iter()
        .enumerate()
        .filter(|&(i, entry)| !in_use(i, entry) && entry_covered(entry, &baseline.root, covers))
        .map(|(_, entry)| entry)
        .collect();
    Applied {
        baselined,
        problems: stale_warning(&baseline.file, &stale).into_iter().collect(),
    }
}

/// True when this run checks what `entry` recorded: its file is in scope and its rule on (for
/// a TLC008, the custom rule it says stopped too: the run shows it only then). An entry of a
/// rule this toolc no longer has is always covered, so it shows up as stale.
fn entry_covered(entry: &Entry, root: &Path, covers: &Covers<'_>) -> bool {
    let path = normalize(&root.join(&entry.path));
    match rules::lookup(&entry.code) {
        Some(rule) => {
            covers(rule, &path)
                && crate::custom::stopped_rule(rule.code, &entry.message)
                    .is_none_or(|stopped| covers(stopped, &path))
        }
        None => covers(&syn::STALE_BASELINE_ENTRY, &path),
    }
}

/// Stale entries shown as related places of the one warning at most: the count says how
/// many there are, and a baseline of thousands must not print thousands of snippets.
const MAX_STALE_SHOWN: usize = 200;

/// Where each of `wanted` first stands as a JSON string in `text` (the offset of its opening
/// quote), found in one pass over the text: looking each up on its own would read the file
/// once per entry.
fn string_offsets<'a>(text: &str, wanted: &HashSet<&'a str>) -> HashMap<&'a str, usize> {
    let bytes = text.as_bytes();
    let mut found = HashMap::new();
    let mut i = 0;
    while let Some(open) = bytes[i..].iter().position(|&b| b == b'"').map(|p| i + p) {
        let mut end = open + 1;
        while end < bytes.len() && bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        if let Some(&key) = text
            .get(open + 1..end.min(bytes.len()))
            .and_then(|s| wanted.get(s))
        {
            found.entry(key).or_insert(open);
        }
        i = end + 1;
        if i >= bytes.len() {
            break;
        }
    }
    found
}

/// One TLC004 warning for all stale entries: at the first, the next ones (up to
/// [`MAX_STALE_SHOWN`]) as related places.
fn stale_warning(file: &Arc<SourceFile>, stale: &[&Entry]) -> Option<Diagnostic> {
    let first = stale.first()?;
    let shown = &stale[..stale.len().min(MAX_STALE_SHOWN)];
    let wanted: HashSet<&str> = shown.iter().map(|e| e.fingerprint.as_str()).collect();
    let offsets = string_offsets(&file.text, &wanted);
    let span_of = |entry: &Entry| {
        offsets
            .get(entry.fingerprint.as_str())
            .map_or(Span::point(0), |&at| {
                Span::new(at, at + entry.fingerprint.len() + 2)
            })
    };
    let what = |entry: &Entry| format!("{} in {}: {}", entry.code, entry.path, entry.message);
    let count = stale.len();
    let (noun, verb) = if count == 1 {
        ("entry", "matches")
    } else {
        ("entries", "match")
    };
    let mut d = Diagnostic::new(
        &syn::STALE_BASELINE_ENTRY,
        file,
        span_of(first),
        format!("{count} baseline {noun} {verb} no finding any more"),
    )
    .label(what(first))
    .note("a stale entry would hide the same problem if it came back")
    .help("run `toolc check --write-baseline` to prune the baseline (fixed findings leave it)");
    for entry in &shown[1..] {
        d = d.related(file, span_of(entry), what(entry));
    }
    if count > shown.len() {
        d = d.note(format!(
            "{} more stale entries are not listed here",
            count - shown.len()
        ));
    }
    Some(d)
}

/// What `--write-baseline` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Written {
    /// Entries recorded from this run's findings.
    pub recorded: usize,
    /// Entries kept from the previous baseline because this run did not check their files or rules.
    pub kept: usize,
}

/// Write the baseline at `path`: one entry per finding of `diagnostics`, plus the entries of
/// the baseline already there that this run does not cover (another folder, a rule not
/// selected), so a partial run never forgets the rest.
pub(crate) fn write(
    at: &RepoPath,
    diagnostics: &[Diagnostic],
    covers: &Covers<'_>,
) -> Result<Written, String> {
    let path = at.path();
    let root = normalize(path.parent().unwrap_or(Path::new(".")));
    let previous = match read(at) {
        Ok(bytes) => serde_json::from_slice::<File>(&bytes)
            .ok()
            .filter(|f| f.version == VERSION && f.fingerprint == FINGERPRINT_KEY)
            .map(|f| f.entries)
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    let mut entries: Vec<Entry> = previous
        .into_iter()
        .filter(|entry| !entry_covered(entry, &root, covers))
        .collect();
    let kept = entries.len();
    entries.extend(diagnostics.iter().map(|d| Entry {
        path: relative_path(&d.file, &root),
        code: d.rule.code.to_string(),
        fingerprint: fingerprint(d, &root),
        message: d.message.clone(),
    }));
    let recorded = entries.len() - kept;
    entries.sort();
    let file = File {
        version: VERSION,
        fingerprint: FINGERPRINT_KEY.to_string(),
        entries,
    };
    let mut text = serde_json::to_string_pretty(&file).map_err(|e| e.to_string())?;
    text.push('\n');
    at.write(text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(Written { recorded, kept })
}

#[cfg(test)]
mod tests;
