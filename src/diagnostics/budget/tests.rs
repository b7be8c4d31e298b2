use std::sync::Arc;

use super::*;
use crate::source::{FormatId, SourceFile, Span};

fn file(name: &str) -> Arc<SourceFile> {
    SourceFile::new(
        name.into(),
        name.into(),
        FormatId::AgentcliManifest,
        "x".repeat(1_000),
    )
}

/// `n` findings of one rule in `file`, each at its own place, given in reverse order.
fn findings(file: &Arc<SourceFile>, n: usize) -> Vec<Diagnostic> {
    let rule = &crate::rules::security::HOST_PATH_ACCESS;
    (0..n)
        .rev()
        .map(|i| Diagnostic::new(rule, file, Span::new(i, i + 1), format!("at {i}")))
        .collect()
}

fn runs(_: &Rule, _: &Path) -> bool {
    true
}

/// Below the bound nothing changes: a file keeps every finding its own cap kept.
#[test]
fn a_run_within_the_bound_keeps_each_file_s_findings() {
    let budget = Budget::default();
    let held = budget.hold(findings(&file("a.json"), 150), &runs);
    assert_eq!(held.len(), 150);
    assert_eq!(budget.level(), MAX_PER_RULE);
}

/// Past the bound each file shows fewer findings of a rule: the first by position, and a
/// line for the rest that counts them; the level the run reached is the one the bound
/// needs however the files came.
#[test]
fn past_the_bound_each_file_shows_its_first_findings_and_counts_the_rest() {
    let files: Vec<Arc<SourceFile>> = (0..600).map(|i| file(&format!("t{i}.json"))).collect();
    let budget = Budget::default();
    let mut held = Vec::new();
    for f in &files {
        held.push(budget.hold(findings(f, 200), &runs));
    }
    // 600 files of 200 findings: 120,000; at 50 a rule, 600 × 51 = 30,600 entries.
    assert_eq!(budget.level(), 50);
    let last = held.last().expect("a file");
    assert_eq!(last.len(), 51);
    assert_eq!(last[0].message, "at 0");
    assert_eq!(last[49].message, "at 49");
    assert_eq!(last[50].omitted, 150);
    // The first files were loaded while the run was within the bound: kept at a higher
    // level, the report's cap brings them to the same.
    assert!(held[0].len() > 51);
    let all: Vec<Diagnostic> = held.into_iter().flatten().collect();
    let level = level_of(&all, budget.level());
    assert_eq!(level, 50);
    let mut all = all;
    all.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let shown = cap_per_file(all, level);
    assert_eq!(shown.len(), 600 * 51);
    let first: Vec<&str> = shown.iter().take(51).map(|d| d.message.as_str()).collect();
    assert_eq!(first[..2], ["at 0", "at 1"]);
    assert_eq!(
        shown.iter().map(|d| d.omitted.max(1)).sum::<usize>(),
        600 * 200
    );
}

/// A rule that does not run on a file is not counted: its findings are dropped before the
/// report, and must not make the others shown fewer.
#[test]
fn findings_of_rules_that_do_not_run_are_not_counted() {
    let budget = Budget::default();
    let none = |_: &Rule, _: &Path| false;
    for i in 0..400 {
        budget.hold(findings(&file(&format!("t{i}.json")), 200), &none);
    }
    assert_eq!(budget.level(), MAX_PER_RULE);
}

/// However the findings were capped on the way, the level the report needs is at most the
/// ceiling the load reached, and the lowest level when even it is over the bound.
#[test]
fn the_report_s_level_stays_under_the_load_s() {
    let one = file("a.json");
    let few = findings(&one, 10);
    assert_eq!(level_of(&few, MAX_PER_RULE), MAX_PER_RULE);
    assert_eq!(level_of(&few, 5), 5);
    let many: Vec<Diagnostic> = (0..MAX_HELD + 1)
        .flat_map(|i| findings(&file(&format!("f{i}")), 1))
        .collect();
    assert_eq!(level_of(&many, MAX_PER_RULE), 1);
}
