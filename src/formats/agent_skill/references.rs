//! What `SKILL.md` leads to: links and paths named in it and, one step further each time, in
//! the files it leads to (Markdown read for its links and paths, programs for what they
//! import or open). A reference is resolved against the file that names it, the skill's
//! folder (`{baseDir}/x`, `${CLAUDE_SKILL_DIR}/x`, a path through the skill's own folder
//! name) and, for a project's own skill, the project. What is missing is reported in
//! `broken`; what nothing leads to in `unreferenced`; how scripts are run is kept for SKL016.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;

use super::Cx;
use super::mentions::{self, Form, Reference, Run, has_extension};
use super::paths::{self, Resolved};
use crate::source::{SourceFile, Span};
use crate::syntax::markdown::Fence;

/// Files followed at most for one skill, so a skill of thousands of pages stays quick.
pub(super) const MAX_FOLLOWED: usize = 200;

/// Links and paths followed at most for one skill, in all its files: each costs a few
/// lookups of the folder (a `SKILL.md` of 42 MB of links to a missing file took 9.8 s). A
/// real skill names a few thousand at most.
pub(super) const MAX_REFERENCES: usize = 500_000;

/// What the walk from `SKILL.md` found.
#[derive(Default)]
pub(super) struct Reach {
    /// Files reached, with their steps from `SKILL.md`.
    pub files: HashMap<String, usize>,
    /// Folders named: every file in them counts as reached.
    pub dirs: BTreeSet<String>,
    /// How the instructions run the files they name in commands.
    pub runs: HashMap<String, Runs>,
    /// The fenced code blocks of `SKILL.md`'s body, from the one parse that read its links.
    pub fences: Vec<Fence>,
    /// Where the references of the skill stopped being followed, past [`MAX_REFERENCES`]:
    /// the file and the first reference left.
    pub stopped: Option<(Arc<SourceFile>, Span)>,
    /// The files the skill leads to that were not read because [`MAX_FOLLOWED`] were: the
    /// file that names each, where, and its path.
    pub past_followed: Vec<(Arc<SourceFile>, Span, String)>,
}

/// How the instructions run one file.
#[derive(Default)]
pub(super) struct Runs {
    /// The first command that runs it by its path, as written (`scripts/x.sh --fast`).
    pub literal: Option<(Arc<SourceFile>, Span)>,
    /// The first place that says to run it, leaving how to the agent ("Run scripts/x.py").
    pub told: Option<(Arc<SourceFile>, Span)>,
    /// Some place runs it through an interpreter (`python x.py`) or hands it to a program.
    pub through: bool,
}

/// A file being followed.
pub(super) struct Doc {
    /// Its path in the skill's folder.
    pub rel: String,
    /// Its text.
    pub file: Arc<SourceFile>,
    /// Steps from `SKILL.md` (0 for `SKILL.md` itself).
    pub depth: usize,
    /// Where its Markdown starts (after `SKILL.md`'s front matter).
    pub body_start: usize,
}

impl Doc {
    /// Read for its links and paths, rather than as a program.
    pub(super) fn markdown(&self) -> bool {
        paths::is_markdown(&self.rel)
    }
}

/// The walk's state.
struct Walk {
    reach: Reach,
    queue: VecDeque<Doc>,
    followed: usize,
    /// Links (or paths through one) already checked for SEC003.
    linked: BTreeSet<String>,
    /// References that may still be followed ([`MAX_REFERENCES`] at first).
    left: usize,
    /// Packages whose modules were listed for a program: listing a folder again for each
    /// word of a program that names it took the words times the folder's files (a
    /// program of 250,000 words naming one package of 4,900 files: 7.9 s).
    expanded: HashSet<String>,
}

impl Cx<'_> {
    /// Follow every reference from `SKILL.md` (its body starting at `body_start`).
    pub(super) fn references(&mut self, body_start: usize) -> Reach {
        let mut walk = Walk {
            reach: Reach::default(),
            queue: VecDeque::new(),
            followed: 0,
            linked: BTreeSet::new(),
            left: MAX_REFERENCES,
            expanded: HashSet::new(),
        };
        walk.reach.files.insert("SKILL.md".to_string(), 0);
        walk.queue.push_back(Doc {
            rel: "SKILL.md".to_string(),
            file: Arc::clone(self.file),
            depth: 0,
            body_start,
        });
        while let Some(doc) = walk.queue.pop_front() {
            let text = doc.file.text.as_str();
            let (mut stopped, refs): (_, Box<dyn Iterator<Item = Reference>>) = if doc.markdown() {
                let root = (doc.depth == 0).then_some(&mut walk.reach.fences);
                let (cut, refs) = mentions::in_markdown(text, doc.body_start, root, walk.left);
                (cut, Box::new(refs))
            } else {
                (None, Box::new(mentions::in_program(text).into_iter()))
            };
            let mut named_dirs: BTreeSet<String> = BTreeSet::new();
            for r in refs {
                if walk.left == 0 {
                    // Links come before words: the first place left is the earlier one.
                    stopped = Some(match stopped {
                        Some(cut) if cut.start <= r.span.start => cut,
                        _ => r.span,
                    });
                    break;
                }
                walk.left -= 1;
                let resolved = self.resolve(&doc, &r);
                if let Some(first) = resolved.candidates.first() {
                    // The folder a path points into, or the folder it names (`rules/`).
                    let dir = if self.folder.dirs.contains(first) {
                        first.as_str()
                    } else {
                        paths::dir_of(first)
                    };
                    named_dirs.insert(dir.to_string());
                }
                self.reference(&doc, &r, &resolved, &mut walk);
            }
            if let Some(at) = stopped {
                walk.reach
                    .stopped
                    .get_or_insert((Arc::clone(&doc.file), at));
            }
            // `make setup` names the Makefile of its folder as surely as a path does.
            if doc.markdown() {
                let dir = paths::dir_of(&doc.rel);
                for name in read_by_convention(text) {
                    for rel in [format!("{dir}/{name}"), name.to_string()] {
                        let rel = rel.trim_start_matches('/').to_string();
                        if self.folder.files.contains_key(&rel) {
                            walk.reach.files.entry(rel).or_insert(doc.depth + 1);
                        }
                    }
                }
            }
            if doc.depth == 0 {
                for rel in self.families(text, doc.body_start, &named_dirs) {
                    walk.reach.files.entry(rel).or_insert(1);
                }
            }
        }
        for rel in self.integrations() {
            walk.reach.files.entry(rel).or_insert(1);
        }
        walk.reach
    }

    /// Where reference `r` of `doc` may lead.
    fn resolve(&self, doc: &Doc, r: &Reference) -> Resolved {
        let name = self.root.file_name().and_then(|n| n.to_str()).unwrap_or("");
        paths::resolve(paths::dir_of(&doc.rel), r, name, &self.folder)
    }

    /// Follow `r` to the first of its candidates that is in the folder, or report it.
    fn reference(&mut self, doc: &Doc, r: &Reference, resolved: &Resolved, walk: &mut Walk) {
        if let Some(why) = resolved.outside
            && r.form == Form::Link
            && doc.markdown()
        {
            self.outside(&doc.file, r, why);
        }
        for c in &resolved.candidates {
            if self.folder.files.contains_key(c) {
                self.reached(doc, r, c, walk);
                return;
            }
            if self.folder.dirs.contains(c) {
                // Only a link leads to the whole skill (`./`): a word such as `.` does not.
                if !c.is_empty() || r.form == Form::Link {
                    walk.reach.dirs.insert(c.clone());
                }
                // A package a program imports (`from validation import x`): its modules
                // are read for what they open or import in turn.
                // From a program, what a second listing would reach is reached already; from
                // Markdown, each reference also says how the modules run.
                if r.form == Form::Program
                    && !c.is_empty()
                    && (doc.markdown() || walk.expanded.insert(c.clone()))
                {
                    let modules: Vec<String> = self
                        .folder
                        .files_in(c)
                        .filter(|f| paths::is_code(f))
                        // One past what is followed: the walk then names the first module
                        // left unread (SEC004) rather than stop at the package in silence.
                        .take(MAX_FOLLOWED + 1)
                        .cloned()
                        .collect();
                    for m in modules {
                        self.reached(doc, r, &m, walk);
                    }
                }
                return;
            }
            if self.folder.exists(c) {
                if self.meant(doc, r, c) && walk.linked.insert(c.clone()) {
                    // A link (or a path through one): where it leads, for SEC003.
                    self.linked_script(&doc.file, r.span, c);
                }
                return;
            }
        }
        if let Some(actual) = self.missing(doc, r, resolved) {
            self.reached(doc, r, &actual, walk);
        }
    }

    /// `r` of `doc` leads to the file `rel`: note how it is run, and follow it.
    fn reached(&mut self, doc: &Doc, r: &Reference, rel: &str, walk: &mut Walk) {
        if doc.markdown() && !r.aside {
            let runs = walk.reach.runs.entry(rel.to_string()).or_default();
            match &r.run {
                Run::Direct { literal } => {
                    let at = if *literal {
                        &mut runs.literal
                    } else {
                        &mut runs.told
                    };
                    at.get_or_insert_with(|| (Arc::clone(&doc.file), r.span));
                }
                Run::Through(_) => runs.through = true,
                Run::Not => {}
            }
        }
        if walk.reach.files.contains_key(rel) {
            return;
        }
        let depth = doc.depth + 1;
        walk.reach.files.insert(rel.to_string(), depth);
        if depth == 2 && doc.markdown() {
            self.too_deep(doc, r, rel);
        }
        if walk.followed >= MAX_FOLLOWED {
            // Said, on the first page or program left unread: a page of hidden instructions
            // placed after two hundred harmless ones was skipped in silence. (A program the
            // skill runs, or one of `scripts/`, is read as a script all the same: which of
            // them are is known once the walk is done.)
            if paths::is_markdown(rel) || paths::is_code(rel) {
                walk.reach
                    .past_followed
                    .push((Arc::clone(&doc.file), r.span, rel.to_string()));
            }
            return;
        }
        let file =
            if paths::is_markdown(rel) || (rel.starts_with("scripts/") && paths::is_code(rel)) {
                self.companion(rel)
            } else if paths::is_code(rel) {
                // Read for what it opens or imports, not as instructions of the skill.
                self.peek(rel)
            } else {
                None
            };
        if file.is_none() {
            self.too_large(&doc.file, r, rel);
        }
        // A page a program opens (a template, a prompt) is read for the security checks, but
        // it is the program's, not instructions: its links are not followed.
        if paths::is_markdown(rel) && r.form == Form::Program {
            return;
        }
        if let Some(file) = file {
            walk.followed += 1;
            walk.queue.push_back(Doc {
                rel: rel.to_string(),
                file,
                depth,
                body_start: 0,
            });
        }
    }

    /// Whether a missing target of `r` (at `rel`) is a path the agent is sent to, so that
    /// it is reported: a link, or at the top of `SKILL.md` a path under `scripts/`,
    /// `references/` or `assets/` in code (or in prose after "see", "run", with an
    /// extension), not an example, a template or a file to create.
    pub(super) fn meant(&self, doc: &Doc, r: &Reference, rel: &str) -> bool {
        if !doc.markdown() || r.aside || !paths::complete(rel) {
            return false;
        }
        match r.form {
            Form::Link => true,
            Form::Code | Form::Prose => {
                doc.depth == 0
                    && paths::names_skill_dir(rel)
                    && (r.form == Form::Code
                        || (r.cue && has_extension(rel.rsplit('/').next().unwrap_or(rel))))
            }
            Form::Program => false,
        }
    }
}

/// Programs that read a file of the working folder by its conventional name, and those
/// names: `make` its Makefile, `just` its justfile, `task` its Taskfile.
const CONVENTIONS: &[(&str, &[&str])] = &[
    ("make", &["Makefile", "makefile", "GNUmakefile"]),
    ("just", &["justfile", "Justfile", ".justfile"]),
    ("task", &["Taskfile.yml", "Taskfile.yaml"]),
];

/// The files Markdown `text` has run by their conventional name: a program of
/// [`CONVENTIONS`] at the start of a code span (`` `make setup` ``) or of a line of a code
/// block (`$ make test`). "Make sure" in prose is no command.
fn read_by_convention(text: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    for (program, names) in CONVENTIONS {
        // What stands before the name, back to the line's start, read from its end only: a
        // search back to the line's start for each match was quadratic on one long line.
        let at_command = |before: &str| {
            let before = before.trim_end_matches([' ', '$']);
            before.is_empty() || before.ends_with(['`', '\n', '(', ';', '&', '|'])
        };
        let runs = text.match_indices(program).any(|(at, _)| {
            let after = text[at + program.len()..].chars().next();
            matches!(after, Some(' ' | '`' | '\n') | None) && at_command(&text[..at])
        });
        if runs {
            out.extend(names.iter().copied());
        }
    }
    out
}
