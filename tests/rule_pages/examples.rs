//! Every page's Example produces exactly its rule and its Fix nothing; two-version examples are
//! compared by `toolc diff` or locked and checked with `--locked`.

use super::*;

/// Files of one version of a repository: (path, content).
type Files<'a> = Vec<(&'a str, Vec<u8>)>;

/// The `### Before` and `### After` files of the section starting at `heading`, for pages
/// whose rule compares two versions.
fn versions<'a>(page: &'a str, heading: &str) -> (Files<'a>, Files<'a>) {
    let text = section(page, heading);
    let before = text.find("### Before");
    let after = text.find("### After");
    let part = |from: Option<usize>, to: Option<usize>| match from {
        Some(f) => blocks_in(&text[f..to.filter(|t| *t > f).unwrap_or(text.len())]),
        None => Vec::new(),
    };
    (part(before, after), part(after, None))
}

fn codes_for(files: &[(&str, Vec<u8>)]) -> Vec<String> {
    findings_for(files).0
}

/// `CODE path: message` of each diagnostic, and whether any of them points into a second file
/// (a related span elsewhere: the rule is checked across files).
fn findings_for(files: &[(&str, Vec<u8>)]) -> (Vec<String>, bool) {
    let repo = Repo::new();
    for (path, content) in files {
        repo.write(path, content);
    }
    let diags = match check_dir(&repo.root) {
        Ok(report) => report.diagnostics,
        Err(config_errors) => config_errors,
    };
    for d in &diags {
        // A did-you-mean carries the edit that writes what it names.
        let hint = d
            .help
            .as_deref()
            .is_some_and(|h| h.contains("did you mean"));
        assert!(
            !hint || d.fix.is_some(),
            "{} {}: {:?} without its fix",
            d.rule.code,
            d.file.display(),
            d.help
        );
    }
    let crosses = diags
        .iter()
        .any(|d| d.related.iter().any(|r| r.file.path != d.file.path));
    let lines = diags
        .iter()
        .map(|d| format!("{} {}: {}", d.rule.code, d.file.display(), d.message))
        .collect();
    (lines, crosses)
}

/// Pages whose example cannot be a file in a code block (say so in their front matter).
fn example_is_untestable(page: &str) -> bool {
    page.split("\n---")
        .next()
        .is_some_and(|fm| fm.contains("\nexample: untestable"))
}

/// How a page's Example and Fix are run, from `example:` in its front matter.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The files are checked (`toolc check`).
    Check,
    /// `### Before` and `### After` are two versions, compared (`toolc diff --against`).
    Diff,
    /// `### Before` is locked (`toolc lock`; no Before: no lock), then `### After` is checked
    /// with `--locked`. A Fix that runs `toolc lock` locks the Example's After instead.
    Lock,
}

fn example_kind(page: &str) -> Kind {
    let front = page.split("\n---").next().unwrap_or("");
    if front.contains("\nexample: diff") {
        Kind::Diff
    } else if front.contains("\nexample: lock") {
        Kind::Lock
    } else {
        Kind::Check
    }
}

/// Findings of `toolc diff` from `before` to `after`, each in a repository of its own.
fn diff_codes(before: &[(&str, Vec<u8>)], after: &[(&str, Vec<u8>)]) -> Vec<String> {
    let (old, new) = (Repo::new(), Repo::new());
    for (path, content) in before {
        old.write(path, content);
    }
    for (path, content) in after {
        new.write(path, content);
    }
    let config = match toolc::Config::discover(&new.root, None) {
        Ok(c) => c,
        Err(e) => return vec![format!("config: {e}")],
    };
    let options = toolc::DiffOptions {
        cwd: new.root.clone(),
        against: Some(old.root.display().to_string()),
        ..toolc::DiffOptions::default()
    };
    match toolc::diff(&options, &config) {
        Ok(report) => report
            .report
            .diagnostics
            .iter()
            .map(|d| format!("{} {}: {}", d.rule.code, d.file.display(), d.message))
            .collect(),
        Err(e) => vec![format!("diff: {e}")],
    }
}

/// Findings of `toolc check --locked` on `after`, with `locked` locked first (none: no lock).
fn lock_codes(locked: Option<&[(&str, Vec<u8>)]>, after: &[(&str, Vec<u8>)]) -> Vec<String> {
    let repo = Repo::new();
    let config = |root: &std::path::Path| toolc::Config::discover(root, None);
    if let Some(files) = locked {
        for (path, content) in files {
            repo.write(path, content);
        }
        let Ok(c) = config(&repo.root) else {
            return vec!["config".into()];
        };
        if let Err(e) = toolc::lock(&c) {
            return vec![format!("lock: {e}")];
        }
        for (path, _) in files {
            let _ = std::fs::remove_file(repo.root.join(path));
        }
    }
    for (path, content) in after {
        repo.write(path, content);
    }
    let Ok(mut c) = config(&repo.root) else {
        return vec!["config".into()];
    };
    c.lock_required = true;
    let options = toolc::CheckOptions {
        cwd: repo.root.clone(),
        ..toolc::CheckOptions::default()
    };
    toolc::check(&options, &c)
        .diagnostics
        .iter()
        .map(|d| format!("{} {}: {}", d.rule.code, d.file.display(), d.message))
        .collect()
}

/// What the Example and the Fix of a page that compares two versions produce, or why they
/// cannot be run.
fn run_versions(page: &str, kind: Kind) -> Result<(Vec<String>, Vec<String>), String> {
    let (before, after) = versions(page, "## Example");
    if after.is_empty() {
        return Err("the Example has no `### After` block with a title=\"path\"".into());
    }
    if kind == Kind::Diff && before.is_empty() {
        return Err("the Example has no `### Before` block with a title=\"path\"".into());
    }
    let example = match kind {
        Kind::Diff => diff_codes(&before, &after),
        _ => lock_codes((!before.is_empty()).then_some(&before[..]), &after),
    };
    let (fix_before, fix_after) = versions(page, "## Fix");
    let fix_before = if fix_before.is_empty() {
        before
    } else {
        fix_before
    };
    let relock = section(page, "## Fix").contains("\ntoolc lock\n");
    let fix = match (kind, fix_after.is_empty()) {
        (Kind::Lock, true) if relock => lock_codes(Some(&after), &after),
        (_, true) => {
            return Err("the Fix has no `### After` block with a title=\"path\"".into());
        }
        (Kind::Diff, false) => diff_codes(&fix_before, &fix_after),
        (_, false) => lock_codes(Some(&fix_before), &fix_after),
    };
    Ok((example, fix))
}

#[test]
fn every_example_produces_exactly_its_rule_and_every_fix_nothing() {
    let mut failures = Vec::new();
    for rule in rules::all() {
        let Some(page) = rules::page(rule) else {
            continue;
        };
        if example_is_untestable(page) {
            continue;
        }
        let kind = example_kind(page);
        if kind != Kind::Check {
            match run_versions(page, kind) {
                Err(why) => failures.push(format!("{}: {why}", rule.code)),
                Ok((example, fix)) => {
                    if example.is_empty()
                        || example
                            .iter()
                            .any(|f| !f.starts_with(&format!("{} ", rule.code)))
                    {
                        failures.push(format!(
                            "{}: the Example should produce only {} but produced {example:#?}",
                            rule.code, rule.code
                        ));
                    }
                    if !fix.is_empty() {
                        failures.push(format!(
                            "{}: the Fix should produce nothing but produced {fix:#?}",
                            rule.code
                        ));
                    }
                }
            }
            continue;
        }
        let example = blocks(page, "## Example");
        if example.is_empty() {
            failures.push(format!(
                "{}: the Example has no code block with a title=\"path\"",
                rule.code
            ));
            continue;
        }
        let (found, crosses) = findings_for(&example);
        if crosses
            && !page
                .split("\n---")
                .next()
                .is_some_and(|fm| fm.contains("\nscope: "))
        {
            failures.push(format!(
                "{}: the Example's finding points into another file, so the page needs `scope:` in its front matter (what the rule checks across)",
                rule.code
            ));
        }
        if found.is_empty()
            || found
                .iter()
                .any(|f| !f.starts_with(&format!("{} ", rule.code)))
        {
            failures.push(format!(
                "{}: the Example should produce only {} but produced {found:#?}",
                rule.code, rule.code
            ));
        }
        let fix = blocks(page, "## Fix");
        if fix.is_empty() {
            failures.push(format!(
                "{}: the Fix has no code block with a title=\"path\"",
                rule.code
            ));
            continue;
        }
        let found = codes_for(&fix);
        if !found.is_empty() {
            failures.push(format!(
                "{}: the Fix should produce nothing but produced {found:#?}",
                rule.code
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
