//! Declared inputs and outputs: inputs under `/in/` with a sha256 (TRQ016, TRQ017), the
//! front matter and the body agreeing on them (TRQ019), outputs under `/out/` (TRQ018).

use std::collections::{HashMap, HashSet};

use super::{BodyFacts, Cx, Declared, Meta, rules};
use crate::analysis::paths::{PathKind, PathToken, clean, is_within, path_tokens};
use crate::analysis::shell::words;
use crate::source::Span;
use crate::syntax::markdown::list_items;
use crate::syntax::sections::Section;

impl Cx<'_> {
    /// TRQ016/TRQ017 on the `## Input Files` list; the inputs it declares.
    pub(super) fn input_files(&mut self, s: &Section) -> Vec<Declared> {
        let mut out = Vec::new();
        // Items and tokens are both in file order: the tokens are read along with the items
        // (held all at once, a list of 150,000 inputs took a token for each).
        let mut tokens = path_tokens(self.text(), s.content).peekable();
        let mut in_item: Vec<PathToken> = Vec::new();
        for item in list_items(self.text(), s.content) {
            in_item.clear();
            while let Some(t) = tokens.next_if(|t| t.span.start < item.end) {
                if t.span.start >= item.start && t.span.end <= item.end {
                    in_item.push(t);
                }
            }
            let text = self.file.slice(item).to_string();
            let lower = text.trim().to_ascii_lowercase();
            if lower.starts_with("none") || lower.starts_with("no ") || lower.starts_with("n/a") {
                continue;
            }
            let reported = self.diags.total();
            let hash = self.hash_in(item, &text);
            let bad_hash = self.diags.total() > reported;
            let chosen = in_item
                .iter()
                .find(|t| t.kind == PathKind::Absolute && t.text.starts_with("/in/"))
                .or_else(|| in_item.iter().find(|t| t.kind == PathKind::Absolute));
            let Some(tok) = chosen else {
                let d = self
                    .diag(
                        &rules::INPUT_OUTSIDE_IN,
                        item,
                        "this input names no `/in/...` location",
                    )
                    .label("no `/in/` path")
                    .help("write where the file is mounted, e.g. `- /in/input.csv (sha256: …)`");
                self.push(d);
                continue;
            };
            if sandbox_dir(tok.text) != Some("/in") {
                // Not reported again as a host path (one under `/in/` never is).
                let cleaned = clean(tok.text);
                self.claimed.insert(cleaned.clone());
                let why = if tok.text.starts_with("/in/") {
                    format!(
                        "input `{}` leaves `/in/` once `..` is resolved (`{cleaned}`)",
                        tok.text
                    )
                } else {
                    format!("input `{}` is not under `/in/`", tok.text)
                };
                let d = self
                    .diag(&rules::INPUT_OUTSIDE_IN, tok.span, why)
                    .label("outside /in/")
                    .note("the executor mounts inputs read-only under `/in/` and nothing else: any other path is the host's")
                    .help(format!("mount it as `/in/{}`", base_name(tok.text)));
                self.push(d);
                continue;
            }
            out.push(Declared {
                path: clean(tok.text),
                span: tok.span,
                hash,
                bad_hash,
            });
        }
        out
    }

    /// The sha256 of a list item, reporting a malformed one (TRQ016).
    fn hash_in(&mut self, item: Span, text: &str) -> Option<(String, Span)> {
        let lower = text.to_ascii_lowercase();
        if let Some(at) = lower.find("sha256") {
            let rest = &text[at + 6..];
            let skip = rest.len()
                - rest
                    .trim_start_matches([':', '=', ' ', '\t', '`', '*'])
                    .len();
            let value = &rest[skip..];
            let len = value
                .find(|c: char| c.is_whitespace() || matches!(c, '`' | ')' | ',' | ';' | '*' | ']'))
                .unwrap_or(value.len());
            let token = &value[..len];
            let start = at + 6 + skip;
            let span = item.sub(start, start + len);
            if is_sha256(token) {
                return Some((token.to_ascii_lowercase(), span));
            }
            if !token.is_empty() {
                self.bad_hash(span, token);
                return None;
            }
        }
        for (start, end) in hex_runs(text) {
            let run = &text[start..end];
            if run.len() == 64 {
                return Some((run.to_ascii_lowercase(), item.sub(start, end)));
            }
            if run.len() >= 32 {
                self.bad_hash(item.sub(start, end), run);
                return None;
            }
        }
        None
    }

    fn bad_hash(&mut self, span: Span, token: &str) {
        let shown: String = token.chars().take(24).collect();
        let more = if token.chars().count() > 24 {
            "…"
        } else {
            ""
        };
        let d = self
            .diag(
                &rules::INPUT_WITHOUT_HASH,
                span,
                format!("`{shown}{more}` is not a sha256 hash (64 hex digits, found {} characters)", token.chars().count()),
            )
            .label("not a sha256")
            .note("the approval gate requires a sha256 for every input, so the executor can check it runs on the approved bytes")
            .help("write the file's `sha256sum` (64 hex digits)");
        self.push(d);
    }

    /// TRQ016/TRQ019: inputs are hashed, and the two declarations agree.
    pub(super) fn inputs_agree(&mut self, meta: &Meta, body: &BodyFacts) {
        let listed = body.inputs.as_deref().unwrap_or_default();
        let front = meta.inputs.as_deref();
        let listed_paths: HashSet<&str> = listed.iter().map(|b| b.path.as_str()).collect();
        if let (Some(front), Some(_)) = (front, &body.inputs) {
            let by_path: HashMap<&str, &Declared> =
                front.iter().rev().map(|f| (f.path.as_str(), f)).collect();
            for b in listed {
                match by_path.get(b.path.as_str()) {
                    None => {
                        let d = self
                            .diag(&rules::INPUTS_DISAGREE, b.span, format!("`{}` is listed under `## Input Files` but not in the front-matter `inputs`", b.path))
                            .label("missing from `inputs`")
                            .note("the two declarations must agree: the executor cannot tell which one the approver saw")
                            .help(format!("add `- path: {}` with its `sha256` to `inputs`, or remove it here", b.path));
                        self.push(d);
                    }
                    Some(f) => {
                        if let (Some((bh, bspan)), Some((fh, fspan))) = (&b.hash, &f.hash)
                            && bh != fh
                        {
                            let d = self
                                .diag(&rules::INPUTS_DISAGREE, *bspan, format!("the hash of `{}` differs from the one in the front-matter `inputs`", b.path))
                                .label("this hash")
                                .related(self.file, *fspan, "the front matter says this")
                                .note("one of them is not the approved file: the executor rejects the request")
                                .help("recompute the sha256 and write the same value in both places");
                            self.push(d);
                        }
                    }
                }
            }
            for f in front {
                if !listed_paths.contains(f.path.as_str()) {
                    let d = self
                        .diag(&rules::INPUTS_DISAGREE, f.span, format!("`{}` is in the front-matter `inputs` but not listed under `## Input Files`", f.path))
                        .label("missing from `## Input Files`")
                        .note("the two declarations must agree: the executor cannot tell which one the approver saw")
                        .help(format!("list `{}` under `## Input Files`, or remove it from `inputs`", f.path));
                    self.push(d);
                }
            }
        }
        for b in listed {
            // With `inputs` in the front matter, a missing or bad hash there, or a path missing
            // from it, is already reported.
            if b.hash.is_none() && !b.bad_hash && front.is_none() {
                let d = self
                    .diag(&rules::INPUT_WITHOUT_HASH, b.span, format!("input `{}` has no sha256 hash", b.path))
                    .label("no hash")
                    .note("the approval gate requires a hash for every declared input: without one the executor cannot check it runs on the approved file")
                    .help(format!("add the hash: `- {} (sha256: <64 hex digits>)`", b.path));
                self.push(d);
            }
        }
        // Inputs the program reads without declaring them have no hash either.
        let declared: HashSet<&str> = listed
            .iter()
            .chain(front.unwrap_or_default())
            .map(|d| d.path.as_str())
            .collect();
        let longest = declared.iter().map(|d| d.len()).max().unwrap_or(0);
        for region in [body.program, body.program_data].into_iter().flatten() {
            for tok in path_tokens(self.text(), region) {
                if tok.kind != PathKind::Absolute || sandbox_dir(tok.text) != Some("/in") {
                    continue;
                }
                let path = clean(tok.text);
                // A file inside a declared folder is declared with it. Only the folders as
                // long as a declared input can be one: hashing every folder of a path of
                // thousands took its length squared.
                let covered = path
                    .match_indices('/')
                    .map(|(at, _)| &path[..at])
                    .take_while(|prefix| prefix.len() <= longest)
                    .chain(std::iter::once(path.as_str()))
                    .any(|prefix| declared.contains(prefix));
                if path == "/in" || covered {
                    continue;
                }
                let d = self
                    .diag(&rules::INPUT_WITHOUT_HASH, tok.span, format!("`{path}` is read by the request but not declared as an input with a hash"))
                    .label("undeclared input")
                    .note("the approval gate requires a hash for every input: the executor cannot check this file")
                    .help(format!("list `{path}` under `## Input Files` with its sha256"));
                self.push(d);
            }
        }
    }

    /// TRQ018: outputs only under `/out/`.
    pub(super) fn outputs(&mut self, s: &Section) {
        let mut any_out = false;
        for tok in path_tokens(self.text(), s.content) {
            if tok.kind != PathKind::Absolute {
                continue;
            }
            if sandbox_dir(tok.text) == Some("/out") {
                any_out = true;
                continue;
            }
            self.claimed.insert(clean(tok.text));
            let why = if tok.text.starts_with("/out/") {
                format!(
                    "output `{}` leaves `/out/` once `..` is resolved (`{}`)",
                    tok.text,
                    clean(tok.text)
                )
            } else {
                format!("output `{}` is not under `/out/`", tok.text)
            };
            let d = self
                .diag(&rules::OUTPUT_OUTSIDE_OUT, tok.span, why)
                .label("outside /out/")
                .note("the executor collects results from `/out/` only: anything written elsewhere is lost, or lands on the host")
                .help(format!("write it to `/out/{}`", base_name(tok.text)));
            self.push(d);
        }
        for item in list_items(self.text(), s.content) {
            let text = self.file.slice(item).to_string();
            for (start, word) in words(&text) {
                let w = word.trim_matches(|c: char| {
                    matches!(c, '`' | '"' | '\'' | '*' | '(' | ')' | ',' | ':' | ';')
                });
                let w = w.trim_end_matches(['.', ',', ':', ';']);
                let offset = start + word.find(w).unwrap_or(0);
                let last = w.rsplit('/').next().unwrap_or("");
                let relative_file = !w.starts_with(['/', '~', '.', '$'])
                    && w.contains('/')
                    && !w.contains("://")
                    && last.contains('.')
                    && w.chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-'));
                if relative_file {
                    let d = self
                        .diag(&rules::OUTPUT_OUTSIDE_OUT, item.sub(offset, offset + w.len()), format!("output `{w}` is a relative path, not under `/out/`"))
                        .label("relative output path")
                        .note("the executor collects results from `/out/` only: a relative path is written inside the working folder and lost")
                        .help(format!("write it to `/out/{w}`"));
                    self.push(d);
                }
            }
        }
        if !any_out {
            let d = self
                .diag(&rules::OUTPUT_OUTSIDE_OUT, s.heading, "`## Output Expectations` lists no output under `/out/`")
                .label("no `/out/...` path in this section")
                .note("the executor collects results from `/out/` only: a request that names no output there produces nothing reviewable")
                .help("list each output file with its path, e.g. `- /out/result.json`");
            self.push(d);
        }
    }
}

/// `/in` or `/out` when the cleaned path stays inside that sandbox folder.
pub(super) fn sandbox_dir(path: &str) -> Option<&'static str> {
    ["/in", "/out"].into_iter().find(|d| is_within(path, d))
}

/// The name to mount or write a file as: its last segment, or `file`.
pub(super) fn base_name(path: &str) -> &str {
    crate::analysis::paths::base_name(path).unwrap_or("file")
}

// ── hashes ──────────────────────────────────────────────────────────────────────────────

/// 64 hex digits.
pub(super) fn is_sha256(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Maximal runs of hex digits that are whole words (not part of a longer alphanumeric word).
fn hex_runs(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if b[start..i].iter().all(u8::is_ascii_hexdigit) {
            out.push((start, i));
        }
    }
    out
}
