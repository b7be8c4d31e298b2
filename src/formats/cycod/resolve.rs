//! Cross-file checks: duplicate names per `.cycod/tools` folder, tool and MCP references,
//! and reference cycles between tools.
//!
//! A tool sees the tools of its own folder, the tools of folders added by include patterns
//! (cycod's `--load-tools` folders are loaded beside every scope) and its inline
//! `with.tools`. Tools found by include patterns also see every scope folder of the
//! repository, since which scope they are loaded beside is only known at run time.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::mcp_json::mcp_servers;
use super::{NameRef, Tool};
use crate::analysis::graph::{self, Cycle, Step};
use crate::analysis::names::{did_you_mean, did_you_mean_within};
use crate::analysis::registry;
use crate::diagnostics::cap::{self, Findings, MAX_PER_RULE};
use crate::diagnostics::{Applicability, Diagnostic, DidYouMean};
use crate::formats::fields::replace_exact;
use crate::formats::format::FileResult;
use crate::fs::FileSystem;
use crate::rules::{cycod as rules, references as refs};
use crate::source::SourceFile;

/// A tool file taking part in resolution.
struct Member<'a> {
    file: &'a Arc<SourceFile>,
    tool: &'a Tool,
    folder: PathBuf,
    /// True for a `.cycod/tools` folder, false for a folder added by an include pattern.
    scope: bool,
}

/// The folder a tool file belongs to, and whether it is a `.cycod/tools` scope folder.
fn folder_of(path: &Path) -> (PathBuf, bool) {
    let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let scope = folder.file_name().is_some_and(|n| n == "tools")
        && folder
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == ".cycod");
    (folder, scope)
}

pub(super) fn resolve(results: &[FileResult], fs: &dyn FileSystem) -> Vec<Diagnostic> {
    let members: Vec<Member<'_>> = results
        .iter()
        .filter_map(|r| match r.item.get::<Tool>() {
            Some(tool) => {
                let (folder, scope) = folder_of(&r.file.path);
                Some(Member {
                    file: &r.file,
                    tool,
                    folder,
                    scope,
                })
            }
            _ => None,
        })
        .collect();
    if members.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();

    // Names per folder; the first by path wins, later ones are duplicates.
    // The scope of a name is its `.cycod/tools` folder.
    for dup in registry::duplicates(members.iter().map(|m| {
        m.tool
            .name
            .as_ref()
            .map(|n| (m.folder.as_path(), n.value.as_str()))
    })) {
        out.push(duplicate(&members, dup.first, dup.again));
    }
    let mut folders: BTreeMap<&Path, HashMap<&str, usize>> = BTreeMap::new();
    for (i, m) in members.iter().enumerate() {
        let Some(name) = &m.tool.name else { continue };
        folders
            .entry(&m.folder)
            .or_default()
            .entry(&name.value)
            .or_insert(i);
    }
    let mut included: HashMap<&str, usize> = HashMap::new();
    let mut anywhere: HashMap<&str, usize> = HashMap::new();
    for (i, m) in members.iter().enumerate() {
        let Some(name) = &m.tool.name else { continue };
        if m.scope {
            anywhere.entry(&name.value).or_insert(i);
        } else {
            included.entry(&name.value).or_insert(i);
        }
    }

    // Resolve tool references into edges of the reference graph.
    let mut edges: Vec<Vec<(usize, NameRef<'_>)>> = vec![Vec::new(); members.len()];
    let mut suggester = Suggester::new(&folders, &included);
    for (i, m) in members.iter().enumerate() {
        let own = folders.get(m.folder.as_path());
        let inline: HashSet<&str> = m.tool.inline_tools.iter().map(String::as_str).collect();
        // Capped per file as found, as a file's own findings are: a tool may name hundreds
        // of thousands of tools.
        let mut unknown = Findings::default();
        for r in m.tool.tool_references.iter() {
            if inline.contains(r.name) {
                continue;
            }
            let target = own
                .and_then(|f| f.get(r.name))
                .or_else(|| included.get(r.name))
                .or_else(|| (!m.scope).then(|| anywhere.get(r.name)).flatten());
            match target {
                Some(&t) => edges[i].push((t, r)),
                None if unknown.is_full(&refs::UNKNOWN_TOOL_REFERENCE) => {
                    unknown.count(&refs::UNKNOWN_TOOL_REFERENCE);
                }
                None => unknown.push(unknown_tool(&members, i, r, &mut suggester)),
            }
        }
        out.extend(unknown.into_vec());
    }
    out.extend(cycles(&members, &edges));

    // MCP names, checked only where the scope has an `mcp.json` to check against.
    // Each scope's servers are read once for all its tools, sorted to be looked up, and
    // "did you mean" spends one budget for the run: many tools each naming many unknown
    // servers among many defined compared every pair.
    let mut servers: HashMap<&Path, Option<Vec<String>>> = HashMap::new();
    let mut budget = SUGGESTION_BUDGET;
    for m in members.iter().filter(|m| m.scope) {
        if m.tool.mcp_references.is_empty() {
            continue;
        }
        let known = servers
            .entry(&m.folder)
            .or_insert_with(|| mcp_servers(fs, &m.folder));
        let Some(known) = known else {
            continue;
        };
        let inline: HashSet<&str> = m.tool.inline_mcps.iter().map(String::as_str).collect();
        let mut unknown = Findings::default();
        for r in m.tool.mcp_references.iter() {
            let defined = known.binary_search_by(|n| n.as_str().cmp(r.name)).is_ok();
            if defined || inline.contains(r.name) {
                continue;
            }
            if unknown.counted(&refs::UNKNOWN_MCP_REFERENCE) {
                continue;
            }
            let hint = did_you_mean_within(
                &mut budget,
                r.name,
                known.len() + inline.len(),
                known.iter().chain(&m.tool.inline_mcps).map(String::as_str),
            );
            unknown.push(
                Diagnostic::new(
                    &refs::UNKNOWN_MCP_REFERENCE,
                    m.file,
                    r.span,
                    format!("MCP server `{}` is not defined in this scope's `mcp/mcp.json` or in `with.mcps`", r.name),
                )
                .label("unknown MCP server")
                .note("cycod cannot start a server it has no definition for: the tool runs without it")
                .did_you_mean_or(
                    hint.and_then(|h| {
                        DidYouMean::fixed_by(h, replace_exact(m.file, r.span, r.name, h, Applicability::Unsafe))
                    }),
                    if known.is_empty() {
                        "`mcp.json` defines no servers; add this one with `cycod mcp add`".to_string()
                    } else {
                        format!("defined servers: {}", crate::analysis::names::listed(known.iter(), known.len()))
                    },
                ),
            );
        }
        out.extend(unknown.into_vec());
    }
    out
}

fn duplicate(members: &[Member<'_>], first: usize, again: usize) -> Diagnostic {
    let (f, d) = (&members[first], &members[again]);
    let name = d.tool.name.as_ref().map_or("", |n| n.value.as_str());
    let how = |m: &Member<'_>| m.tool.name.as_ref().is_some_and(|n| !n.explicit);
    let mut diag = Diagnostic::new(
        &rules::DUPLICATE_TOOL_NAME,
        d.file,
        d.tool.name.as_ref().map_or(d.file_span(), |n| n.span),
        format!("a tool named `{name}` is already defined in this folder"),
    )
    .label(if how(d) {
        "named after its file"
    } else {
        "duplicate name"
    })
    .note("cycod loads one tool per name from a scope folder: one of the two silently hides the other")
    .help("rename one of them");
    if let Some(n) = &f.tool.name {
        diag = diag.related(f.file, n.span, "first defined here");
    }
    diag
}

impl Member<'_> {
    fn file_span(&self) -> crate::source::Span {
        crate::source::Span::point(self.file.bom_len)
    }
}

/// How many name comparisons "did you mean" may spend on a whole run's unknown references.
const SUGGESTION_BUDGET: usize = 1_000_000;

/// "Did you mean" over the tools a reference can see. Only names with the same first letter
/// are compared, within a fixed budget, so a repository full of misspelt references stays
/// linear.
struct Suggester<'a> {
    by_folder: HashMap<&'a Path, Initials<'a>>,
    included: Initials<'a>,
    budget: usize,
}

/// Tool names (and their member index) by first letter.
type Initials<'a> = HashMap<char, Vec<(&'a str, usize)>>;

fn by_initial<'a>(names: &HashMap<&'a str, usize>) -> Initials<'a> {
    let mut out: Initials<'a> = HashMap::new();
    for (name, &i) in names {
        if let Some(c) = name.chars().next() {
            out.entry(c).or_default().push((name, i));
        }
    }
    for list in out.values_mut() {
        list.sort_unstable();
    }
    out
}

impl<'a> Suggester<'a> {
    fn new(
        folders: &BTreeMap<&'a Path, HashMap<&'a str, usize>>,
        included: &HashMap<&'a str, usize>,
    ) -> Suggester<'a> {
        Suggester {
            by_folder: folders
                .iter()
                .map(|(folder, names)| (*folder, by_initial(names)))
                .collect(),
            included: by_initial(included),
            budget: SUGGESTION_BUDGET,
        }
    }

    /// The closest visible name and, for a file's tool, its member index.
    fn suggest<'s>(
        &mut self,
        folder: &Path,
        name: &str,
        inline: &'s [String],
    ) -> Option<(&'s str, Option<usize>)>
    where
        'a: 's,
    {
        let initial = name.chars().next()?;
        let mut candidates: Vec<(&'s str, Option<usize>)> =
            inline.iter().map(|n| (n.as_str(), None)).collect();
        for table in [self.by_folder.get(folder), Some(&self.included)]
            .into_iter()
            .flatten()
        {
            let list = table.get(&initial).map_or(&[][..], Vec::as_slice);
            candidates.extend(list.iter().map(|&(n, i)| (n, Some(i))));
        }
        if candidates.len() > self.budget {
            return None;
        }
        self.budget -= candidates.len();
        let best = did_you_mean(name, candidates.iter().map(|(n, _)| *n))?;
        candidates.into_iter().find(|(n, _)| *n == best)
    }
}

fn unknown_tool(
    members: &[Member<'_>],
    from: usize,
    r: NameRef<'_>,
    suggester: &mut Suggester<'_>,
) -> Diagnostic {
    let m = &members[from];
    let hint = suggester.suggest(&m.folder, r.name, &m.tool.inline_tools);
    let mut d = Diagnostic::new(
        &refs::UNKNOWN_TOOL_REFERENCE,
        m.file,
        r.span,
        format!(
            "`{}` names tool `{}`, which is not defined in this `.cycod/tools` folder or in `with.tools`",
            r.key, r.name
        ),
    )
    .label("unknown tool")
    .note("cycod looks the tool up by name when this runs; without it the call fails");
    match hint {
        Some((h, target)) => {
            if let Some(t) = target.and_then(|t| members.get(t))
                && let Some(name) = &t.tool.name
            {
                d = d.related(t.file, name.span, format!("did you mean `{h}`?"));
            }
            let fix = replace_exact(m.file, r.span, r.name, h, Applicability::Unsafe);
            // Without the edit (a spelling the source does not hold as is), no hint.
            d = d.maybe_did_you_mean(DidYouMean::fixed_by(h, fix));
        }
        None => {
            d = d.help(format!(
                "add `{}.yaml` to this folder, or define it inline under `with.tools`",
                r.name
            ));
        }
    }
    d
}

/// REF011: one diagnostic per cycle, at the reference that closes it.
fn cycles(members: &[Member<'_>], edges: &[Vec<(usize, NameRef<'_>)>]) -> Vec<Diagnostic> {
    let targets: Vec<Vec<usize>> = edges
        .iter()
        .map(|e| e.iter().map(|&(to, _)| to).collect())
        .collect();
    let found = graph::cycles(&targets);
    let mut out: Vec<Diagnostic> = found
        .whole
        .iter()
        .filter_map(|c| cycle_diagnostic(members, edges, c))
        .collect();
    // Past the budget of steps, each cycle is a line of the count for the rest.
    out.extend(found.counted.iter().filter_map(|s| {
        let (_, r) = edges.get(s.node)?.get(s.edge)?;
        let d = Diagnostic::new(
            &refs::TOOL_REFERENCE_CYCLE,
            members[s.node].file,
            r.span,
            "",
        );
        Some(cap::summary(d, 1))
    }));
    out
}

fn label(members: &[Member<'_>], i: usize) -> String {
    members.get(i).map_or_else(String::new, |m| {
        m.tool
            .name
            .as_ref()
            .map_or_else(|| m.file.display().to_string(), |n| n.value.clone())
    })
}

fn cycle_diagnostic(
    members: &[Member<'_>],
    edges: &[Vec<(usize, NameRef<'_>)>],
    cycle: &Cycle,
) -> Option<Diagnostic> {
    let edge = |s: &Step| {
        edges
            .get(s.node)
            .and_then(|e| e.get(s.edge))
            .map(|&(_, r)| r)
    };
    let last = cycle.closing()?;
    let closing = edge(&last)?;
    let mut names: Vec<String> = cycle.steps.iter().map(|s| label(members, s.node)).collect();
    names.push(closing.name.to_string());
    let chain = graph::chain(&names);
    let mut d = Diagnostic::new(
        &refs::TOOL_REFERENCE_CYCLE,
        members[last.node].file,
        closing.span,
        format!("tool reference cycle `{chain}`"),
    )
    .label(if cycle.steps.len() == 1 {
        "a tool cannot call itself"
    } else {
        "this reference closes the cycle"
    })
    .note("running any tool of the cycle calls the next one forever, until cycod gives up")
    .help("break the cycle: remove this reference or one of the others");
    for step in cycle.steps[..cycle.steps.len() - 1]
        .iter()
        .take(MAX_PER_RULE)
    {
        let Some(r) = edge(step) else { continue };
        d = d.related(
            members[step.node].file,
            r.span,
            format!("`{}` calls `{}` here", label(members, step.node), r.name),
        );
    }
    Some(d)
}
