//! Skill dependencies: `dependencies[]` in the front matter, and across the skills of one
//! project the unknown ones (REF001) and the cycles (REF002).

use std::collections::HashMap;
use std::sync::Arc;

use super::access::{SkillLowerer, Want};
use super::{Dependency, Skill};
use crate::analysis::graph::{self, Cycle, Step};
use crate::analysis::names::Suggester;
use crate::diagnostics::cap::{self, MAX_PER_RULE};
use crate::diagnostics::{Applicability, Diagnostic, DidYouMean};
use crate::formats::dojops::{NameKind, check_name};
use crate::formats::fields::{ItemPaths, MapRef, replace_exact};
use crate::rules::references as refs;
use crate::source::SourceFile;

const DEPENDENCY_KEYS: &[&str] = &["skill", "optional"];

impl SkillLowerer<'_> {
    pub(super) fn dependencies(&mut self, root: MapRef<'_>) {
        let Some(node) = root.node.value("dependencies") else {
            return;
        };
        let Some(items) = self.list(node, "dependencies", 0) else {
            return;
        };
        let mut paths = ItemPaths::new("dependencies");
        for (i, item) in items.scan().enumerate() {
            let item = &*item;
            let path = paths.at(i);
            let Some(dep) = self.item_map(item, path, "skill") else {
                continue;
            };
            self.unknown_keys(dep, DEPENDENCY_KEYS);
            let optional = self.boolean(dep, "optional").unwrap_or(false);
            let Some(v) = self.required(
                dep,
                "skill",
                "add `skill: <name>` to this entry: the skill this one depends on",
            ) else {
                continue;
            };
            let skill_path = format!("{path}.skill");
            if !self.expect(v, &skill_path, Want::Str) {
                continue;
            }
            let Some(name) = v.as_str() else { continue };
            if !check_name(
                &mut self.lw,
                NameKind::Dependency,
                &skill_path,
                name,
                v.span(),
            ) {
                continue;
            }
            self.skill.dependencies.push(Dependency {
                skill: name.to_string(),
                span: v.span(),
                optional,
            });
        }
    }
}

/// The skill index each name resolves to; the first skill (by path) wins a duplicate name,
/// which DOJ011 reports.
fn name_index<'s>(skills: &[(&Arc<SourceFile>, &'s Skill)]) -> HashMap<&'s str, usize> {
    let mut index = HashMap::with_capacity(skills.len());
    for (i, (_, skill)) in skills.iter().enumerate() {
        if let Some(name) = &skill.name {
            index.entry(name.value.as_str()).or_insert(i);
        }
    }
    index
}

/// REF001/REF002: dependencies of the skills of one project.
pub(crate) fn resolve(skills: &[(&Arc<SourceFile>, &Skill)]) -> Vec<Diagnostic> {
    let index = name_index(skills);
    let mut out = unknown_dependencies(skills, &index);
    out.extend(cycles(skills, &index));
    out
}

/// How many name comparisons "did you mean" may spend on one project's unknown dependencies.
const SUGGESTION_BUDGET: usize = 1_000_000;

/// REF001 for required dependencies that name no skill of the project.
fn unknown_dependencies(
    skills: &[(&Arc<SourceFile>, &Skill)],
    index: &HashMap<&str, usize>,
) -> Vec<Diagnostic> {
    let mut suggester = Suggester::new(
        skills
            .iter()
            .filter_map(|(_, skill)| skill.name.as_ref().map(|n| (n.value.as_str(), ()))),
        SUGGESTION_BUDGET,
    );
    let mut out = Vec::new();
    for (file, skill) in skills {
        // Capped per skill as they are found: a list of a million unknown dependencies
        // built a finding for each (25 MB: 2.8 GB).
        let mut found = cap::Findings::default();
        for dep in &skill.dependencies {
            if dep.optional || index.contains_key(dep.skill.as_str()) {
                continue;
            }
            if found.counted(&refs::UNKNOWN_DEPENDENCY) {
                continue;
            }
            let suggestion = suggester.suggest(&dep.skill).map(|(name, ())| name);
            let help = format!(
                "add the skill (e.g. `.dojops/skills/{}.dops`), or mark the dependency `optional: true`",
                dep.skill
            );
            found.push(
                Diagnostic::new(
                    &refs::UNKNOWN_DEPENDENCY,
                    file,
                    dep.span,
                    format!("dependency `{}` is not a skill of this project", dep.skill),
                )
                .label("no skill with this name in this `.dojops/` project")
                .note("DojOps reports a missing required dependency when this skill runs")
                .did_you_mean_or(
                    suggestion.and_then(|name| {
                        let fix =
                            replace_exact(file, dep.span, &dep.skill, name, Applicability::Unsafe);
                        DidYouMean::fixed_by(name, fix)
                    }),
                    help,
                ),
            );
        }
        out.extend(found.into_vec());
    }
    out
}

/// REF002: one diagnostic per cycle the depth-first walk closes, at the closing entry.
fn cycles(skills: &[(&Arc<SourceFile>, &Skill)], index: &HashMap<&str, usize>) -> Vec<Diagnostic> {
    // Edges are the dependencies that name a skill of the project; `deps` maps each edge
    // back to its entry in `dependencies`.
    let mut targets: Vec<Vec<usize>> = Vec::with_capacity(skills.len());
    let mut deps: Vec<Vec<usize>> = Vec::with_capacity(skills.len());
    for (_, skill) in skills {
        let (t, d): (Vec<usize>, Vec<usize>) = skill
            .dependencies
            .iter()
            .enumerate()
            .filter_map(|(i, dep)| index.get(dep.skill.as_str()).map(|&to| (to, i)))
            .unzip();
        targets.push(t);
        deps.push(d);
    }
    let found = graph::cycles(&targets);
    let mut out: Vec<Diagnostic> = found
        .whole
        .iter()
        .filter_map(|c| cycle_diagnostic(skills, &deps, c))
        .collect();
    // Past the budget of steps, each cycle is a line of the count for the rest.
    out.extend(found.counted.iter().filter_map(|s| {
        let i = *deps.get(s.node)?.get(s.edge)?;
        let (file, skill) = skills.get(s.node)?;
        let span = skill.dependencies.get(i)?.span;
        let d = Diagnostic::new(&refs::DEPENDENCY_CYCLE, file, span, "");
        Some(cap::summary(d, 1))
    }));
    out
}

fn skill_label(skills: &[(&Arc<SourceFile>, &Skill)], i: usize) -> String {
    skills.get(i).map_or_else(String::new, |(file, skill)| {
        skill
            .name
            .as_ref()
            .map_or_else(|| file.display().to_string(), |n| n.value.to_string())
    })
}

/// The cycle `steps[0] → … → steps[last] → steps[0]`, closed by the last step's dependency;
/// the other entries of the cycle become related places.
fn cycle_diagnostic(
    skills: &[(&Arc<SourceFile>, &Skill)],
    deps: &[Vec<usize>],
    cycle: &Cycle,
) -> Option<Diagnostic> {
    let dep = |s: &Step| {
        let i = *deps.get(s.node)?.get(s.edge)?;
        skills.get(s.node)?.1.dependencies.get(i)
    };
    let last = cycle.closing()?;
    let closing = dep(&last)?;
    let file = skills.get(last.node)?.0;
    let mut names: Vec<String> = cycle
        .steps
        .iter()
        .map(|s| skill_label(skills, s.node))
        .collect();
    names.push(closing.skill.clone());
    let chain = graph::chain(&names);
    let label = if cycle.steps.len() == 1 {
        "a skill cannot depend on itself"
    } else {
        "this dependency closes the cycle"
    };
    let mut d = Diagnostic::new(
        &refs::DEPENDENCY_CYCLE,
        file,
        closing.span,
        format!("dependency cycle `{chain}`"),
    )
    .label(label)
    .note("skills in a cycle cannot run their dependencies first: none of them can be ordered")
    .help("remove one dependency of the cycle, for example this one");
    for step in cycle.steps[..cycle.steps.len() - 1]
        .iter()
        .take(MAX_PER_RULE)
    {
        let (Some(dep), Some((file, _))) = (dep(step), skills.get(step.node)) else {
            continue;
        };
        let from = skill_label(skills, step.node);
        d = d.related(
            file,
            dep.span,
            format!("`{from}` depends on `{}` here", dep.skill),
        );
    }
    Some(d)
}
