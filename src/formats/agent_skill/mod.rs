//! Agent Skills: a folder headed by a `SKILL.md` (YAML front matter with `name` and
//! `description`, then Markdown instructions), with optional `scripts/`, `references/` and
//! `assets/`. The format of the [Agent Skills specification](https://agentskills.io/specification)
//! (agentskills/agentskills), read by Claude Code, VS Code and other agents. See
//! docs/formats/agent-skill.md.
//!
//! The reference validator (`skills-ref validate`) checks the front matter; every skill it
//! rejects is an error here too (its parser's quirks included, in `portability`). Beyond it:
//! the agents' own keys, `allowed-tools` entries, every file the instructions lead to, the
//! scripts, the size of the instructions, and the security checks.
//!
//! One file per concern: the front matter (`front_matter`) and the name rule (`name`),
//! `allowed-tools` (`allowed_tools`), what the reference reader refuses (`portability`),
//! the folder listing (`folder`), the paths a file names and how (`mentions`, on the
//! Markdown `layout` and shell `commands`), where they lead (`paths`, `references`), what
//! is missing (`broken`), files named as a family (`families`) or read by an agent's
//! convention (`integrations`), unclosed fences (`fences`), size and description (`body`),
//! `scripts/` (`scripts`), files nothing leads to (`unreferenced`), what the security pass
//! reads (`texts`), and the bundle index (`ir`).

mod allowed_tools;
mod body;
mod broken;
mod commands;
mod families;
mod fences;
pub(crate) mod folder;
mod front_matter;
mod integrations;
mod ir;
mod layout;
mod mentions;
mod name;
mod paths;
mod portability;
mod references;
mod scripts;
mod texts;
mod unreferenced;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::analysis::registry;
use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::Findings;
use crate::formats::format::{FileResult, Format, decode, syntax_diagnostics};
use crate::formats::front_matter::front_matter_error;
use crate::formats::item::Item;
use crate::fs::FileSystem;
use crate::ir::Sink;
use crate::rules::{Rule, Severity, skill as rules};
use crate::source::{FormatId, SourceFile, Span};
use crate::syntax::front_matter::split_front_matter;
use crate::syntax::{Node, NodeKind, yaml};
use folder::Folder;

/// What the reference validator does with a skill that breaks the rule.
const REJECTED: &str = "the reference validator (`skills-ref validate`) rejects this skill, and agents that follow the spec may not load it";

/// Files of a skill read at most this large (a script or reference page, not a data set).
const MAX_COMPANION_BYTES: usize = 1024 * 1024;

/// What a file over [`MAX_COMPANION_BYTES`] is, as findings say it.
fn past_read_cap() -> String {
    format!(
        "larger than the {} MiB toolc reads of a skill's file",
        MAX_COMPANION_BYTES >> 20
    )
}

/// A `name` as the reference compares it (trimmed, NFKC), and where it is written.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Named {
    /// The normalized name.
    pub value: String,
    /// The span of its value.
    pub span: Span,
}

/// A lowered `SKILL.md`.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Skill {
    /// The skill's folder (the one holding `SKILL.md`).
    pub root: PathBuf,
    /// `name`, when it is text.
    pub name: Option<Named>,
    /// `description`, trimmed, when it is text.
    pub description: Option<String>,
    /// What the agent reads and runs, for the security pass (`texts.rs`).
    pub texts: crate::security::texts::FileTexts,
}

/// Parse, lower, validate and lint one `SKILL.md` and the folder it heads.
pub(crate) fn load(
    file: Arc<SourceFile>,
    fs: &dyn FileSystem,
    passes: crate::security::Passes,
) -> FileResult {
    let root = file
        .path
        .parent()
        .map_or_else(PathBuf::new, Path::to_path_buf);
    let folder = Folder::list(fs, &root);
    let display_dir = file
        .display()
        .strip_suffix("SKILL.md")
        .unwrap_or("")
        .to_string();
    let mut cx = Cx {
        file: &file,
        fs,
        passes,
        root: root.clone(),
        display_dir,
        folder,
        license: None,
        diags: Findings::default(),
        companions: Vec::new(),
        unread: Vec::new(),
        read: HashMap::new(),
        oversized: BTreeSet::new(),
        in_project: HashMap::new(),
        tree: None,
    };
    let skill = cx.check();
    let Cx {
        diags,
        mut companions,
        unread,
        tree,
        ..
    } = cx;
    companions.extend(unread);
    FileResult {
        companions,
        diagnostics: diags.into_vec(),
        item: Item::new(Skill { root, ..skill }),
        file,
        trees: tree.map(|root| {
            Box::new(crate::formats::format::Trees {
                root: Some(root),
                companions: Vec::new(),
            })
        }),
        custom_matched: Vec::new(),
    }
}

/// `SKILL.md` files, each heading a skill folder (names are unique per skills folder).
pub(crate) struct AgentSkill;

impl Format for AgentSkill {
    fn patterns(&self) -> &'static [(FormatId, &'static [&'static str])] {
        &[(FormatId::AgentSkill, &["**/SKILL.md"])]
    }

    fn by_name(&self, path: &Path) -> Option<FormatId> {
        (path.file_name()? == "SKILL.md").then_some(FormatId::AgentSkill)
    }

    fn cache(&self) -> Option<super::ItemCodec> {
        // What the load read of the skill's folder (each listing, each file) is tracked
        // by the cache as the load's dependencies.
        Some(super::ItemCodec::of::<Skill>())
    }

    fn load(
        &self,
        file: Arc<SourceFile>,
        fs: &dyn FileSystem,
        passes: crate::security::Passes,
    ) -> FileResult {
        load(file, fs, passes)
    }

    fn resolve(&self, results: &[FileResult], _fs: &dyn FileSystem) -> Vec<Diagnostic> {
        resolve(results)
    }

    fn tool_count(&self, _r: &FileResult) -> usize {
        0
    }

    fn lower<'a>(
        &self,
        results: &'a [FileResult],
        takes: &dyn Fn(&FileResult) -> bool,
        out: &mut dyn Sink<'a>,
    ) {
        ir::lower(results, takes, out);
    }

    fn texts<'r>(&self, r: &'r FileResult) -> Option<&'r crate::security::texts::FileTexts> {
        r.item.get::<Skill>().map(|s| &s.texts)
    }

    fn texts_mut<'r>(
        &self,
        r: &'r mut FileResult,
    ) -> Option<&'r mut crate::security::texts::FileTexts> {
        r.item.get_mut::<Skill>().map(|s| &mut s.texts)
    }
}

/// SKL017: two skills of one skills folder (the folder that holds the skill folders) with
/// one name. Agents list the skills of a folder by name, so one hides the other.
pub(crate) fn resolve(results: &[FileResult]) -> Vec<Diagnostic> {
    let mut skills: Vec<(&Arc<SourceFile>, &Skill)> = results
        .iter()
        .filter_map(|r| Some((&r.file, r.item.get::<Skill>()?)))
        .collect();
    skills.sort_by(|a, b| a.0.display().cmp(b.0.display()));
    let entries = skills.iter().map(|(_, s)| {
        let name = s.name.as_ref()?;
        Some((s.root.parent(), name.value.as_str()))
    });
    registry::duplicates(entries)
        .into_iter()
        .filter_map(|dup| {
            let (first_file, first) = skills[dup.first];
            let (file, skill) = skills[dup.again];
            let (first_name, name) = (first.name.as_ref()?, skill.name.as_ref()?);
            Some(
                Diagnostic::new(
                    &rules::DUPLICATE_NAME,
                    file,
                    name.span,
                    format!("skill `{}` is already defined by `{}`", name.value, first_file.display()),
                )
                .label("duplicate skill name")
                .related(first_file, first_name.span, "first defined here")
                .note("agents list the skills of a folder by name: one of the two is hidden, and which one depends on the agent")
                .help("give each skill its own name (and folder)"),
            )
        })
        .collect()
}

/// The state of one skill's check.
pub(crate) struct Cx<'a> {
    file: &'a Arc<SourceFile>,
    fs: &'a dyn FileSystem,
    /// Which costly passes run (the texts' security pass among them).
    passes: crate::security::Passes,
    /// The skill's folder.
    root: PathBuf,
    /// How the skill's folder is shown (`skills/pdf/`, or `""`).
    display_dir: String,
    folder: Folder,
    /// `license`, which may name a bundled file.
    license: Option<String>,
    /// Capped per rule as they are found: a body of a million broken links is 200 findings
    /// and a count, not a million.
    diags: Findings,
    /// Files of the skill read so far (reported on as part of this skill).
    companions: Vec<Arc<SourceFile>>,
    /// Files of the skill reported on without being read (a file nothing leads to).
    unread: Vec<Arc<SourceFile>>,
    /// Each file read once: relative path → file (`None`: not readable as text), and
    /// whether it is a companion yet.
    read: HashMap<String, (Option<Arc<SourceFile>>, bool)>,
    /// Files of the skill not read for their size alone (over [`MAX_COMPANION_BYTES`]).
    oversized: BTreeSet<String>,
    /// Whether the project around a project's own skill has each path asked about: a body
    /// of millions of links to one missing file asked the disk each time.
    in_project: HashMap<String, bool>,
    /// The front matter's tree, handed on to the custom rules.
    tree: Option<Node>,
}

impl Cx<'_> {
    fn diag(&self, rule: &'static Rule, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(rule, self.file, span, message)
    }

    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// SEC004: the folder's listing stopped at its budget, so files past it (a script a
    /// hostile skill buries among thousands of others) were never read; said, never silent.
    fn not_listed(&mut self, anchor: Span) {
        let d = self
            .diag(
                &crate::rules::security::FILES_NOT_READ,
                anchor,
                format!(
                    "this skill's folder holds more than {} files and folders: toolc stopped listing it there, and did not check the rest for dangerous commands or secrets",
                    folder::MAX_ENTRIES
                ),
            )
            .note("scripts, references and service files past the listing were not read, and which files are unreferenced was not checked")
            .help("keep what the skill ships small: move data sets and generated files out of its folder");
        self.push(d);
    }

    /// SEC004: `rel`, which `r` of `file` leads to, is larger than a skill's file is read up
    /// to, so it was not checked; said where the skill first names it (a program the
    /// instructions run is SEC049's).
    fn too_large(&mut self, file: &Arc<SourceFile>, r: &mentions::Reference, rel: &str) {
        if !self.oversized.contains(rel) || matches!(r.run, mentions::Run::Direct { .. }) {
            return;
        }
        let d = Diagnostic::new(
            &crate::rules::security::FILES_NOT_READ,
            file,
            r.span,
            format!(
                "`{rel}` is {}: it was not checked for dangerous commands, secrets or hidden instructions",
                past_read_cap()
            ),
        )
        .label("not read")
        .note("the agent is sent to this file, and reads what toolc did not")
        .help("keep what the skill ships small: split a long reference into pages, and move data sets out of the skill");
        self.push(d);
    }

    /// SEC004: the skill names more links and paths than toolc follows, so files named only
    /// past that were never read; said where it stopped, never silent.
    fn not_followed(&mut self, file: &Arc<SourceFile>, at: Span) {
        let d = Diagnostic::new(
            &crate::rules::security::FILES_NOT_READ,
            file,
            at,
            format!(
                "this skill names more than {} links and paths: toolc stopped following them here, and did not check the files named only after this one for dangerous commands or secrets",
                crate::text::grouped(references::MAX_REFERENCES as u64)
            ),
        )
        .label("not followed from here on")
        .note("which files are unreferenced was not checked either")
        .help("keep the instructions short: an agent reads them whole, and no real skill names this many files");
        self.push(d);
    }

    /// SEC004: the skill leads to more files than toolc reads of one skill, so `rel`, named
    /// at `at`, and any reached after it were not read; said once, never silent.
    fn past_followed(&mut self, file: &Arc<SourceFile>, at: Span, rel: &str) {
        let d = Diagnostic::new(
            &crate::rules::security::FILES_NOT_READ,
            file,
            at,
            format!(
                "this skill leads to more than {} pages and programs: `{rel}`, and any reached after it, were not checked for dangerous commands, secrets or hidden instructions",
                references::MAX_FOLLOWED
            ),
        )
        .label("not read")
        .note("the agent may be sent to these files, and reads what toolc did not")
        .help("keep what the skill ships small: merge short pages, and move data sets out of the skill");
        self.push(d);
    }

    fn check(&mut self) -> Skill {
        let mut skill = Skill::default();
        self.byte_order_mark();
        let text = self.file.text.as_str();
        let (body_start, anchor, parsed) = match split_front_matter(text, self.file.bom_len) {
            Ok(fm) => {
                self.cut_short(&fm);
                let yaml_text = text.get(fm.yaml.start..fm.yaml.end).unwrap_or("");
                let parsed = yaml::parse(yaml_text, fm.yaml.start);
                self.diags
                    .extend(syntax_diagnostics(self.file, &parsed).into_iter().map(|d| {
                        if d.rule.severity == Severity::Error {
                            d.note(REJECTED)
                        } else {
                            d
                        }
                    }));
                match &parsed.root {
                    Some(root) => {
                        self.strict_yaml(root, fm.yaml);
                        let meta = self.front_matter(root, fm.open);
                        self.license = meta.license;
                        if let Some((description, span)) = &meta.description {
                            self.description_quality(description, *span);
                            skill.description = Some(description.trim().to_string());
                        }
                        skill.name = meta.name;
                    }
                    None if parsed.errors.is_empty() => {
                        // The tree a custom rule reads: an empty map.
                        self.tree = Some(Node::new(
                            fm.open,
                            NodeKind::Map(crate::syntax::Map::default()),
                        ));
                        let d = self
                            .diag(&rules::MISSING_REQUIRED_FIELD, fm.open, "the front matter is empty")
                            .label("no keys follow this line")
                            .note(REJECTED)
                            .help("add `name:` (the folder's name) and `description:` (what the skill does and when to use it) between the `---` lines");
                        self.push(d);
                    }
                    None => {}
                }
                let anchor = skill.name.as_ref().map_or(fm.open, |n| n.span);
                (fm.body_start, anchor, Some(parsed))
            }
            Err(e) => {
                // Without front matter, the whole file is instructions; findings about the
                // skill as a whole point where the front matter should be.
                let d = front_matter_error(self.file, e, &front_matter::FRONT_MATTER);
                let anchor = d.span;
                self.push(d);
                (self.file.bom_len, anchor, None)
            }
        };
        self.size(body_start);
        let mut reach = self.references(body_start);
        self.fences(body_start, &reach.fences);
        let fences = std::mem::take(&mut reach.fences);
        let scripts = self.scripts(&reach.runs, anchor);
        if self.folder.truncated {
            self.not_listed(anchor);
        } else if let Some((file, at)) = &reach.stopped {
            self.not_followed(file, *at);
        } else {
            self.unreferenced(&reach, anchor);
        }
        let unread = (reach.past_followed.iter())
            .find(|(_, _, rel)| !scripts::read_as_script(rel, &reach.runs));
        if let Some((file, at, rel)) = unread {
            self.past_followed(file, *at, rel);
        }
        let root = parsed.as_ref().and_then(|p| p.root.as_ref());
        skill.texts = crate::security::texts::FileTexts::check(
            self.passes,
            texts::skill(
                self.file,
                root,
                body_start,
                &self.companions,
                &scripts,
                fences,
            ),
        );
        if let Some(root) = parsed.and_then(|p| p.root) {
            self.tree = Some(root);
        }
        skill
    }

    /// The file of the skill at `rel`, read once through the file system, as text, and
    /// reported on with the skill (the security checks read it); `None` when it is missing,
    /// binary, not UTF-8, empty or too large.
    fn companion(&mut self, rel: &str) -> Option<Arc<SourceFile>> {
        let file = self.peek(rel);
        if let Some((Some(f), listed)) = self.read.get_mut(rel)
            && !*listed
        {
            *listed = true;
            self.companions.push(Arc::clone(f));
        }
        file
    }

    /// The file of the skill at `rel`, read once, as [`Cx::companion`] does, but only for
    /// what it names.
    fn peek(&mut self, rel: &str) -> Option<Arc<SourceFile>> {
        if let Some((known, _)) = self.read.get(rel) {
            return known.clone();
        }
        let path = self.root.join(rel);
        let bytes = self.fs.read(&path).ok();
        if bytes
            .as_ref()
            .is_some_and(|b| b.len() > MAX_COMPANION_BYTES)
        {
            self.oversized.insert(rel.to_string());
        }
        let file = bytes
            .filter(|b| b.len() <= MAX_COMPANION_BYTES)
            .and_then(|bytes| {
                let display = format!("{}{rel}", self.display_dir);
                match decode(&path, display, FormatId::AgentSkill, bytes) {
                    (file, None) => Some(file),
                    (_, Some(_)) => None,
                }
            });
        self.read.insert(rel.to_string(), (file.clone(), false));
        file
    }
}

#[cfg(test)]
mod tests;
