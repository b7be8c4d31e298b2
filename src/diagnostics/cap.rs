//! A cap on the findings of one rule in one file, so a generated or hostile file with a
//! million findings cannot bury the output (or make it take minutes to render).
//!
//! [`Findings`] applies the cap as findings are found, so past it a finding costs a count,
//! not memory (and an emit site may skip building it: [`Findings::is_full`]);
//! [`cap_per_rule`] applies it to a finished list. Both leave one line per capped rule that
//! stands for the rest ([`Diagnostic::omitted`]), and capping twice changes nothing.

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};

use super::Diagnostic;
use crate::rules::Rule;

/// Findings of one rule shown per file; past that a single line says how many more there are.
pub(crate) const MAX_PER_RULE: usize = 200;

/// At most `max` diagnostics of each rule, then one saying how many were left out: a
/// generated or hostile file with a million findings must not bury the output (or make it
/// take minutes to render).
pub(crate) fn cap_per_rule(diags: Vec<Diagnostic>, max: usize) -> Vec<Diagnostic> {
    let mut seen: HashMap<&'static str, usize> = HashMap::new();
    for d in &diags {
        *seen.entry(d.rule.code).or_default() += d.omitted.max(1);
    }
    if seen.values().all(|n| *n <= max) && diags.iter().all(|d| d.omitted == 0) {
        return diags;
    }
    let mut kept: HashMap<&'static str, usize> = HashMap::new();
    let mut out = Vec::new();
    for d in diags {
        let total = seen.get(d.rule.code).copied().unwrap_or(0);
        let count = kept.entry(d.rule.code).or_default();
        if *count > max {
            continue;
        }
        if d.omitted == 0 && (*count < max || total <= max) {
            *count += 1;
            out.push(d);
        } else {
            let more = total - *count;
            *count = max + 1;
            out.push(summary(d, more));
        }
    }
    out
}

/// `diags`, sorted by file, with at most `max` findings of each rule in each file, then one
/// line for the rest: the cap a file's own findings get as it is checked, applied to what
/// the run found across files (a lock of a million entries, cross-file checks). A rule
/// already capped in a file (it has a line standing for the rest) is left as it is: its
/// kept findings were chosen as they were found, and must not be cut again in the order of
/// the file. Given back as it is when no file is over.
pub(crate) fn cap_per_file(diags: Vec<Diagnostic>, max: usize) -> Vec<Diagnostic> {
    let same_file = |a: &Diagnostic, b: &Diagnostic| a.file.path == b.file.path;
    let over = diags
        .chunk_by(same_file)
        .any(|file| file.len() > max && !over_cap(file, max).is_empty());
    if !over {
        return diags;
    }
    let mut out = Vec::with_capacity(diags.len());
    let mut file: Vec<Diagnostic> = Vec::new();
    for d in diags {
        if file.last().is_some_and(|last| !same_file(last, &d)) {
            capped_into(&mut out, std::mem::take(&mut file), max);
        }
        file.push(d);
    }
    capped_into(&mut out, file, max);
    out
}

/// One file's findings into `out`: of each rule over the cap, the first `max`, then one line
/// standing for the rest.
fn capped_into(out: &mut Vec<Diagnostic>, file: Vec<Diagnostic>, max: usize) {
    let over = over_cap(&file, max);
    if over.is_empty() {
        out.extend(file);
        return;
    }
    let mut seen: HashMap<&'static str, usize> = HashMap::new();
    for d in file {
        let Some(total) = over.get(d.rule.code).copied() else {
            out.push(d);
            continue;
        };
        let n = seen.entry(d.rule.code).or_default();
        *n += 1;
        match (*n).cmp(&(max + 1)) {
            std::cmp::Ordering::Less => out.push(d),
            std::cmp::Ordering::Equal => out.push(summary(d, total - max)),
            std::cmp::Ordering::Greater => {}
        }
    }
}

/// The rules with more than `max` findings in one file's, and no line already standing for
/// the rest, with how many they have.
fn over_cap(file: &[Diagnostic], max: usize) -> HashMap<&'static str, usize> {
    let mut counts: HashMap<&'static str, usize> = HashMap::new();
    let mut capped: Vec<&'static str> = Vec::new();
    for d in file {
        if d.omitted > 0 {
            capped.push(d.rule.code);
        } else {
            *counts.entry(d.rule.code).or_default() += 1;
        }
    }
    counts.retain(|code, n| *n > max && !capped.contains(code));
    counts
}

/// What follows the count in the message of a line standing for findings left out.
pub(crate) const MORE_SUFFIX: &str = " more findings of this rule in this file are not shown";

/// `d` turned into the line that stands for `more` findings of its rule left out.
pub(crate) fn summary(d: Diagnostic, more: usize) -> Diagnostic {
    Diagnostic {
        message: format!("{more}{MORE_SUFFIX}"),
        label: Some("and more from here on".into()),
        related: Vec::new(),
        notes: Vec::new(),
        help: Some("fix the ones above and run toolc again".into()),
        fix: None,
        omitted: more,
        ..d
    }
}

/// The findings of one file, capped per rule as they are found: the first [`MAX_PER_RULE`]
/// of each rule are kept, the next one stands for all the rest, which are only counted.
#[derive(Debug, Default)]
pub struct Findings {
    list: Vec<Diagnostic>,
    /// Per rule: findings so far, and where the line standing for the rest is.
    rules: HashMap<&'static str, (usize, Option<usize>)>,
    /// The last finding pushed was kept (not only counted).
    last_kept: bool,
    /// Findings pushed or counted so far, kept or not.
    total: usize,
}

impl Findings {
    /// Add a finding (counted only, past the cap).
    pub fn push(&mut self, d: Diagnostic) {
        // A line that already stands for findings left out (capped before) counts as them.
        let stands_for = d.omitted.max(1);
        self.total += stands_for;
        let (count, rest) = self.rules.entry(d.rule.code).or_default();
        *count += stands_for;
        self.last_kept = rest.is_none() && *count <= MAX_PER_RULE && d.omitted == 0;
        match rest {
            Some(at) => {
                if let Some(line) = self.list.get_mut(*at) {
                    line.omitted += stands_for;
                }
            }
            None if *count > MAX_PER_RULE || d.omitted > 0 => {
                *rest = Some(self.list.len());
                self.list.push(summary(d, stands_for));
            }
            None => self.list.push(d),
        }
    }

    /// How many findings were pushed or counted, kept or not: a check can tell whether a
    /// step found anything.
    pub fn total(&self) -> usize {
        self.total
    }

    /// The finding pushed last, to add to it, unless it was only counted.
    pub fn last_mut(&mut self) -> Option<&mut Diagnostic> {
        if self.last_kept {
            self.list.last_mut()
        } else {
            None
        }
    }

    /// True when a finding of `rule` would only be counted: an emit site may then call
    /// [`Findings::count`] instead of building it.
    pub fn is_full(&self, rule: &Rule) -> bool {
        self.rules
            .get(rule.code)
            .is_some_and(|(_, rest)| rest.is_some())
    }

    /// Count a finding of `rule` that [`Findings::is_full`] said need not be built.
    pub fn count(&mut self, rule: &Rule) {
        self.last_kept = false;
        self.total += 1;
        if let Some((count, Some(at))) = self.rules.get_mut(rule.code) {
            *count += 1;
            if let Some(line) = self.list.get_mut(*at) {
                line.omitted += 1;
            }
        }
    }

    /// A copy of the findings as [`Findings::into_vec`] gives them.
    pub fn to_list(&self) -> Vec<Diagnostic> {
        self.list
            .iter()
            .map(|d| match d.omitted {
                0 => d.clone(),
                more => summary(d.clone(), more),
            })
            .collect()
    }

    /// The findings, with the line that stands for the rest of each capped rule.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.list
            .into_iter()
            .map(|d| match d.omitted {
                0 => d,
                more => summary(d, more),
            })
            .collect()
    }
}

impl Deref for Findings {
    type Target = [Diagnostic];

    fn deref(&self) -> &[Diagnostic] {
        &self.list
    }
}

/// Findings already kept may be added to (a help, a note): that changes no count.
impl DerefMut for Findings {
    fn deref_mut(&mut self) -> &mut [Diagnostic] {
        &mut self.list
    }
}

impl Extend<Diagnostic> for Findings {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, iter: I) {
        for d in iter {
            self.push(d);
        }
    }
}

impl IntoIterator for Findings {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;

    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl From<Findings> for Vec<Diagnostic> {
    fn from(f: Findings) -> Vec<Diagnostic> {
        f.into_vec()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::source::{FormatId, SourceFile, Span};

    fn file() -> Arc<SourceFile> {
        SourceFile::new(
            "tools.json".into(),
            "tools.json".into(),
            FormatId::AgentcliManifest,
            "{}".into(),
        )
    }

    fn messages(diags: &[Diagnostic]) -> Vec<&str> {
        diags.iter().map(|d| d.message.as_str()).collect()
    }

    #[test]
    fn past_the_cap_one_line_says_how_many_more() {
        let file = file();
        let rule = &crate::rules::security::HOST_PATH_ACCESS;
        let other = &crate::rules::security::EMBEDDED_SECRET;
        let mut diags: Vec<Diagnostic> = (0..5)
            .map(|i| Diagnostic::new(rule, &file, Span::point(0), format!("finding {i}")))
            .collect();
        diags.push(Diagnostic::new(other, &file, Span::point(0), "other"));
        let capped = cap_per_rule(diags, 3);
        assert_eq!(
            messages(&capped),
            [
                "finding 0",
                "finding 1",
                "finding 2",
                "2 more findings of this rule in this file are not shown",
                "other"
            ]
        );
        // Capping again changes nothing.
        let again = cap_per_rule(capped.clone(), 3);
        assert_eq!(messages(&again), messages(&capped));
    }

    #[test]
    fn findings_are_capped_as_they_come_and_counted_past_the_cap() {
        let file = file();
        let rule = &crate::rules::security::HOST_PATH_ACCESS;
        let mut found = Findings::default();
        for i in 0..MAX_PER_RULE + 500 {
            if found.is_full(rule) {
                found.count(rule);
            } else {
                found.push(Diagnostic::new(rule, &file, Span::point(0), format!("{i}")));
            }
        }
        assert_eq!(found.len(), MAX_PER_RULE + 1);
        let list = found.into_vec();
        assert_eq!(
            list.last().map(|d| d.message.as_str()),
            Some("500 more findings of this rule in this file are not shown")
        );
        let again = cap_per_rule(list.clone(), MAX_PER_RULE);
        assert_eq!(messages(&again), messages(&list));
    }

    /// What a run finds across files (a lock, custom rules) is capped per rule in each file,
    /// never across files: four findings of one rule in each of two files, capped at three.
    #[test]
    fn a_run_s_findings_are_capped_per_rule_in_each_file() {
        let a = file();
        let b = SourceFile::new(
            "toolc.lock".into(),
            "toolc.lock".into(),
            FormatId::Config,
            String::new(),
        );
        fn of(f: &Arc<SourceFile>, name: &str) -> Vec<Diagnostic> {
            let rule = &crate::rules::security::HOST_PATH_ACCESS;
            (0..4)
                .map(|i| Diagnostic::new(rule, f, Span::point(0), format!("{name} {i}")))
                .collect()
        }
        let all: Vec<Diagnostic> = [of(&b, "b"), of(&a, "a")].concat();
        let capped = cap_per_file(all, 3);
        let more = "1 more findings of this rule in this file are not shown";
        assert_eq!(
            messages(&capped),
            ["b 0", "b 1", "b 2", more, "a 0", "a 1", "a 2", more]
        );
        // A rule capped where it was found keeps what it kept, whatever the file's order:
        // here its line for the rest sorts before four findings it kept.
        let mut kept = vec![summary(of(&a, "rest").remove(0), 7)];
        kept.extend(of(&a, "a"));
        assert_eq!(messages(&cap_per_file(kept.clone(), 3)), messages(&kept));
        // Within the cap, the list comes back as it was.
        let few: Vec<Diagnostic> = [of(&a, "a"), of(&b, "b")].concat();
        assert_eq!(messages(&cap_per_file(few, 4)).len(), 8);
    }

    /// A check that caps its own findings (the schema check) hands them on to the file's:
    /// the line standing for the rest carries its count, whatever was found before.
    #[test]
    fn findings_capped_once_keep_their_count_when_capped_again() {
        let file = file();
        let rule = &crate::rules::security::HOST_PATH_ACCESS;
        let capped = |n: usize, from: usize| {
            let mut found = Findings::default();
            for i in from..from + n {
                found.push(Diagnostic::new(rule, &file, Span::point(0), format!("{i}")));
            }
            found.into_vec()
        };
        let mut file_findings = Findings::default();
        file_findings.extend(capped(50, 0));
        file_findings.extend(capped(MAX_PER_RULE + 700, 50));
        assert_eq!(file_findings.total(), MAX_PER_RULE + 750);
        let list = file_findings.into_vec();
        assert_eq!(list.len(), MAX_PER_RULE + 1);
        assert_eq!(
            list[MAX_PER_RULE - 1].message,
            format!("{}", MAX_PER_RULE - 1)
        );
        assert_eq!(
            list.last().map(|d| d.message.as_str()),
            Some("750 more findings of this rule in this file are not shown")
        );
    }
}
