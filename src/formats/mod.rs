//! One module per source format: each lowers a file's syntax tree into its typed AST,
//! validates and lints it, and contributes to the cross-file resolve step.

pub(crate) mod agent_skill;
pub(crate) mod agentcli;
pub(crate) mod cycod;
pub(crate) mod dojops;
pub(crate) mod fields;
pub(crate) mod format;
pub(crate) mod front_matter;
pub(crate) mod in_value;
pub(crate) mod item;
pub(crate) mod mcp;
pub(crate) mod outline;
mod release;
pub(crate) mod tool_md;
pub(crate) mod tool_request;
pub(crate) mod tree;
pub(crate) mod yaml_words;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::{MAX_PER_RULE, cap_per_rule};
use crate::discover::{Claim, Classifier, FormatPaths};
use crate::fs::FileSystem;
use crate::ir::Lowering;
use crate::security::{Passes, texts};
use crate::source::{FormatId, SourceFile};

pub(crate) use crate::fs::MAX_READ_BYTES;
pub(crate) use format::{FileResult, Format, source_of};
pub(crate) use item::{Item, ItemCodec};

/// The classifier of `config`: every format's path patterns and names, and its includes.
pub(crate) fn classifier(config: &crate::config::Config) -> Classifier {
    let formats = FormatPaths {
        patterns: REGISTRY
            .iter()
            .flat_map(|f| f.patterns().iter().copied())
            .collect(),
        by_name: |path| REGISTRY.iter().find_map(|f| f.by_name(path)),
    };
    Classifier::new(config, &formats)
}

/// Every format, in the order paths are classified. Adding a format is one line here.
pub(crate) static REGISTRY: &[&dyn Format] = &[
    &dojops::Dojops,
    &agentcli::Agentcli,
    &tool_md::ToolMd,
    &cycod::Cycod,
    &tool_request::ToolRequest,
    &mcp::Mcp,
    &agent_skill::AgentSkill,
];

/// Let go of what `r`'s item keeps for the checks across files (its tools' texts, its shell
/// scripts): a run that makes none (`toolc diff`, `toolc lock`) held twice a manifest's size
/// in them.
pub(crate) fn forget_texts(r: &mut FileResult) {
    if let Some(texts) = format_of(r.file.format).and_then(|f| f.texts_mut(r)) {
        *texts = crate::security::texts::FileTexts::default();
    }
}

/// The implementation that reads `format`, if any (schema files and configuration are read
/// only as companions).
pub(crate) fn format_of(format: FormatId) -> Option<&'static dyn Format> {
    REGISTRY
        .iter()
        .copied()
        .find(|f| f.patterns().iter().any(|(id, _)| *id == format))
}

impl FileResult {
    /// Number of tool definitions this file holds.
    pub(crate) fn tool_count(&self) -> usize {
        self.item
            .stored_tool_count()
            .unwrap_or_else(|| format_of(self.file.format).map_or(0, |f| f.tool_count(self)))
    }

    /// The definitions and references an editor navigates in this file.
    pub(crate) fn outline(&self) -> outline::Outline {
        format_of(self.file.format)
            .map(|f| f.outline(self))
            .unwrap_or_default()
    }
}

/// Every bundled tool of the files `takes` accepts (sorted by name, then path), and the ones
/// left out (sorted by name). A file with an error is not compiled, so `takes` should refuse
/// it. Provenance paths are relative to `root`, the repository root, so a bundle is the same
/// whichever folder it is built from.
pub(crate) fn lower_all<'a>(
    results: &'a [FileResult],
    takes: &dyn Fn(&FileResult) -> bool,
    root: &Path,
) -> Lowering<'a> {
    let mut all = Lowering::default();
    lower_each(results, takes, &mut all);
    for lowered in &mut all.tools {
        lowered.tool.provenance.path = crate::fs::display_path(&lowered.file.path, root);
    }
    sort_by_places(&mut all.tools, |a, b| {
        (
            &a.tool.name,
            &a.tool.provenance.path,
            a.tool.provenance.index,
        )
            .cmp(&(
                &b.tool.name,
                &b.tool.provenance.path,
                b.tool.provenance.index,
            ))
    });
    all.left_out
        .sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    all.skills
        .sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    all
}

/// Every format's tools (and left-out tools and skills) of the files `takes` accepts, put
/// into `out` as they are lowered: format by format, each in the order of `results`.
pub(crate) fn lower_each<'a>(
    results: &'a [FileResult],
    takes: &dyn Fn(&FileResult) -> bool,
    out: &mut dyn crate::ir::Sink<'a>,
) {
    for format in REGISTRY {
        format.lower(results, takes, out);
    }
}

/// Sort `items` stably by `compare`, as `sort_by` does, but through a sorted list of their
/// places: a stable sort of large items takes room for half of them (a build of 100,000
/// lowered tools took 38 MB more for it), a list of places 8 bytes an item.
pub(crate) fn sort_by_places<T>(items: &mut [T], compare: impl Fn(&T, &T) -> std::cmp::Ordering) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| compare(&items[a], &items[b]));
    // Place `i` takes the item at `order[i]`: each cycle of the permutation is followed once,
    // each item swapped straight into its place.
    for start in 0..items.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

/// Read through `fs`, parse and lower one discovered file, unless `claim` leaves it to the
/// content and the content is not in the shape of `format` ([`Format::claims`]): then `None`,
/// and the file is not toolc's to report. The trees the load parsed are let go: only the
/// check's custom rules read them, right after the load (a DojOps schema lowered from a held
/// tree leaves its JSON to them). No costly pass runs ([`Passes::NONE`]): what this loads is
/// compared, its findings never read (the old side of a diff).
pub(crate) fn load_claimed(
    fs: &dyn FileSystem,
    path: &Path,
    display: String,
    format: FormatId,
    claim: Claim,
) -> Option<FileResult> {
    let mut result = load_judged_with(fs, path, display, format, claim, Passes::NONE).ok()?;
    result.trees = None;
    Some(result)
}

/// [`load_claimed`], running only the costly `passes` a run needs.
pub(crate) fn load_claimed_with(
    fs: &dyn FileSystem,
    path: &Path,
    display: String,
    format: FormatId,
    claim: Claim,
    passes: Passes,
) -> Option<FileResult> {
    load_judged_with(fs, path, display, format, claim, passes).ok()
}

/// [`load_claimed`], running only the costly `passes` a run needs, with the file read when
/// it is not claimed (what the cache keeps of it).
pub(crate) fn load_judged_with(
    fs: &dyn FileSystem,
    path: &Path,
    display: String,
    format: FormatId,
    claim: Claim,
    passes: Passes,
) -> Result<FileResult, Arc<SourceFile>> {
    let read = fs.read(path);
    // A file too large to read cannot show whether it has the format's shape: it is claimed,
    // so the refusal is reported rather than the file skipped without a word.
    let unjudged = matches!(read, Err(crate::fs::ReadError::TooLarge(_)));
    let (mut file, mut fatal) = source_of(read, path, display, format);
    let classified = format;
    let format = match unjudged {
        true => format,
        false => match by_content(format, file.body()) {
            Some(judged) => judged,
            None if claim == Claim::ByContent => return Err(file),
            // A file named explicitly is checked as the format its path gave.
            None => format,
        },
    };
    if format != classified {
        // The diagnostic of a file that cannot be read holds the file too: it lets go of it
        // while the file takes its format, then points at it again.
        if let Some(d) = fatal.as_mut() {
            d.file = SourceFile::new(PathBuf::new(), String::new(), format, String::new());
        }
        if let Some(f) = Arc::get_mut(&mut file) {
            f.format = format;
        }
        if let Some(d) = fatal.as_mut() {
            d.file = Arc::clone(&file);
        }
    }
    Ok(load_source(fs, file, fatal, format, passes))
}

/// The format that reads `text`, the content of a file whose path was classified as
/// `format`: `format` when it claims the content ([`Format::claims`]), else another format
/// with one of the same path patterns that does (an agentcli manifest and an MCP tool list
/// are both `tools.json`), else none.
fn by_content(format: FormatId, text: &str) -> Option<FormatId> {
    let Some(own) = format_of(format) else {
        return Some(format);
    };
    if own.claims(format, text) {
        return Some(format);
    }
    let paths = own
        .patterns()
        .iter()
        .find(|(id, _)| *id == format)
        .map_or(&[][..], |(_, p)| *p);
    REGISTRY
        .iter()
        .flat_map(|f| f.patterns().iter().map(move |(id, p)| (*f, *id, *p)))
        .filter(|(_, id, p)| *id != format && p.iter().any(|x| paths.contains(x)))
        .find(|(f, id, _)| f.claims(*id, text))
        .map(|(_, id, _)| id)
}

fn load_source(
    fs: &dyn FileSystem,
    file: Arc<SourceFile>,
    fatal: Option<Diagnostic>,
    format: FormatId,
    passes: Passes,
) -> FileResult {
    if let Some(d) = fatal {
        return FileResult::new(file, vec![d], Item::none());
    }
    match format_of(format) {
        // Every format's findings are capped per rule and file, whatever the format does
        // itself: a generated or hostile file must not bury the output or exhaust memory.
        Some(reader) => {
            let mut result = reader.load(file, fs, passes);
            let files: Vec<&Arc<SourceFile>> = std::iter::once(&result.file)
                .chain(&result.companions)
                .collect();
            let found = crate::security::check_file(
                reader.texts(&result),
                &files,
                &result.diagnostics,
                passes,
            );
            let mut diagnostics = std::mem::take(&mut result.diagnostics);
            diagnostics.extend(found);
            result.diagnostics = cap_per_rule(diagnostics, MAX_PER_RULE);
            result
        }
        // Schema files and configuration are read only as companions of a definition.
        None => FileResult::new(file, Vec::new(), Item::none()),
    }
}

/// Whether a run reports on a file (absolute path): ShellCheck reads only those files'
/// scripts.
pub(crate) type Reported<'a> = &'a (dyn Fn(&Path) -> bool + Sync);

/// Every cross-file diagnostic, per family, reading companion files through `fs`.
pub(crate) fn resolve_with(
    fs: &dyn FileSystem,
    results: &[FileResult],
    reported: Reported<'_>,
) -> Vec<Diagnostic> {
    resolve_passes(fs, results, Passes::default(), reported)
}

/// [`resolve_with`], running only the costly `passes` a run needs.
pub(crate) fn resolve_passes(
    fs: &dyn FileSystem,
    results: &[FileResult],
    passes: Passes,
    reported: Reported<'_>,
) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = REGISTRY
        .iter()
        .flat_map(|f| f.resolve(results, fs))
        .collect();
    let texts: Vec<(&texts::FileTexts, bool)> = results
        .iter()
        .filter_map(|r| Some((format_of(r.file.format)?.texts(r)?, reported(&r.file.path))))
        .collect();
    out.extend(crate::security::resolve(&texts, passes));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    /// Sorting through places gives what a stable sort gives, ties in their first order.
    #[test]
    fn a_sort_through_places_is_the_stable_sort() {
        let mut seed = 7u32;
        let items: Vec<(u32, usize)> = (0..500)
            .map(|i| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                ((seed >> 16) % 40, i)
            })
            .collect();
        let mut expected = items.clone();
        expected.sort_by_key(|&(key, _)| key);
        let mut sorted = items;
        sort_by_places(&mut sorted, |a, b| a.0.cmp(&b.0));
        assert_eq!(sorted, expected);
        let mut none: Vec<u8> = Vec::new();
        sort_by_places(&mut none, u8::cmp);
        assert!(none.is_empty());
    }

    /// Every definition format is read by exactly one registered format; schema files and
    /// the configuration only as companions.
    #[test]
    fn each_format_id_has_one_home() {
        let ids = [
            FormatId::DojopsTool,
            FormatId::DojopsDops,
            FormatId::DojopsPolicy,
            FormatId::AgentcliManifest,
            FormatId::ToolMd,
            FormatId::AgentMd,
            FormatId::CycodTool,
            FormatId::ToolRequest,
            FormatId::McpServer,
            FormatId::McpConfig,
            FormatId::McpTools,
            FormatId::AgentSkill,
        ];
        for id in ids {
            let homes = REGISTRY
                .iter()
                .filter(|f| f.patterns().iter().any(|(i, _)| *i == id))
                .count();
            assert_eq!(homes, 1, "{id:?}");
        }
        assert!(format_of(FormatId::DojopsSchema).is_none());
        assert!(format_of(FormatId::Config).is_none());
    }

    /// The registry's patterns and names classify paths as users expect.
    #[test]
    fn paths_classify_by_pattern_then_by_name() {
        let classifier = classifier(&Config::default());
        let cases = [
            ("/r/.dojops/tools/x/tool.yaml", Some(FormatId::DojopsTool)),
            ("/r/.dojops/policy.yaml", Some(FormatId::DojopsPolicy)),
            ("/r/skills/a.dops", Some(FormatId::DojopsDops)),
            ("/r/tools.json", Some(FormatId::AgentcliManifest)),
            ("/r/TR-1.tool.md", Some(FormatId::ToolMd)),
            ("/r/a.agent.md", Some(FormatId::AgentMd)),
            ("/r/.cycod/tools/a.yml", Some(FormatId::CycodTool)),
            ("/r/TR-20250101-000000Z-x.md", Some(FormatId::ToolRequest)),
            ("/r/server.json", Some(FormatId::McpServer)),
            ("/r/.mcp.json", Some(FormatId::McpConfig)),
            ("/r/.vscode/mcp.json", Some(FormatId::McpConfig)),
            ("/r/.claude/skills/pdf/SKILL.md", Some(FormatId::AgentSkill)),
            ("/r/notes.md", None),
        ];
        for (path, want) in cases {
            assert_eq!(classifier.classify(Path::new(path)), want, "{path}");
        }
        // Outside the patterns only a file named explicitly is recognised, by its name.
        let tool = Path::new("/r/elsewhere/tool.yaml");
        assert_eq!(classifier.classify(tool), None);
        assert_eq!(
            classifier.classify_explicit(tool),
            Some(FormatId::DojopsTool)
        );
        let cycod = Path::new("/r/elsewhere/a.yaml");
        assert_eq!(classifier.classify_explicit(cycod), None);
    }

    /// The pre-commit hook passes every file a format reads by its built-in patterns: its
    /// `files` expression is written by hand, so this holds it to the registry.
    #[test]
    fn the_pre_commit_hook_sees_every_pattern() {
        let hooks = include_str!("../../.pre-commit-hooks.yaml");
        let block = hooks
            .split("- id: toolc-check")
            .nth(1)
            .and_then(|h| h.split("files: |").nth(1))
            .and_then(|f| f.split("\n  require_serial").next())
            .expect("the toolc-check hook has a `files` block");
        // pre-commit reads it as a Python regular expression in verbose mode, as `regex` does.
        let files = regex::Regex::new(block.trim()).expect("a regex");
        for format in REGISTRY {
            for (id, patterns) in format.patterns() {
                for pattern in *patterns {
                    // A path the pattern matches, one and two folders deep.
                    let path = pattern.replace("**/", "").replace('*', "x");
                    for p in [path.clone(), format!("a/b/{path}")] {
                        assert!(
                            files.is_match(&p),
                            "{id:?}: the hook skips `{p}` ({pattern})"
                        );
                    }
                }
            }
        }
        // A skill's other files change the skill too.
        assert!(files.is_match(".claude/skills/pdf/scripts/extract.py"));
    }
}
