//! A cap on the findings of one rule in one file, so a generated or hostile file with a
//! million findings cannot bury the output (or make it take minutes to render).
//!
//! [`Findings`] applies the cap as findings are found, so past it a finding costs a count,
//! not memory (and an emit site may skip building it: [`Findings::is_full`]);
//! [`cap_per_rule`] applies it to a finished list, [`cap_per_file`] to a run's. All keep a
//! rule's first [`MAX_PER_RULE`] findings and one line that stands for the rest
//! ([`Diagnostic::omitted`]), and capping twice changes nothing.

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};

use super::Diagnostic;
use crate::rules::Rule;

/// Findings of one rule shown per file; past that a single line says how many more there are.
pub(crate) const MAX_PER_RULE: usize = 200;

/// At most `max` diagnostics of each rule, then one saying how many were left out: a
/// generated or hostile file with a million findings must not bury the output (or make it
/// take minutes to render). The first `max` findings of a rule are kept, in order; a line
/// that already stands for findings left out (a text's hidden characters past its
/// hundredth) joins the one line for the rest and keeps no finding after it from being
/// shown. That line is where the first finding not shown was.
pub(crate) fn cap_per_rule(diags: Vec<Diagnostic>, max: usize) -> Vec<Diagnostic> {
    let Some(rules) = over(&diags, max) else {
        return diags;
    };
    // Per rule: findings kept, and whether its line for the rest is written.
    let mut seen: HashMap<&'static str, (usize, bool)> = HashMap::new();
    let mut out = Vec::new();
    for d in diags {
        let Some(rule) = rules.get(d.rule.code) else {
            out.push(d);
            continue;
        };
        let (kept, line) = seen.entry(d.rule.code).or_default();
        if d.omitted == 0 && *kept < max {
            *kept += 1;
            out.push(d);
        } else if !*line {
            // The first not shown stands for all of them.
            *line = true;
            out.push(summary(d, rule.rest));
        }
    }
    out
}

/// `diags`, sorted by file, with at most `max` findings of each rule in each file, then one
/// line for the rest: the cap a file's own findings get as it is checked, applied to what
/// the run found across files (a lock of a million entries, cross-file checks). A rule
/// already capped in a file keeps the findings it kept, whatever their order in the file:
/// they are no more than `max`, and its line for the rest cuts none. Given back as it is
/// when no file is over.
pub(crate) fn cap_per_file(diags: Vec<Diagnostic>, max: usize) -> Vec<Diagnostic> {
    let same_file = |a: &Diagnostic, b: &Diagnostic| a.file.path == b.file.path;
    if !diags
        .chunk_by(same_file)
        .any(|file| over(file, max).is_some())
    {
        return diags;
    }
    let mut out = Vec::with_capacity(diags.len());
    let mut file: Vec<Diagnostic> = Vec::new();
    for d in diags {
        if file.last().is_some_and(|last| !same_file(last, &d)) {
            out.extend(cap_per_rule(std::mem::take(&mut file), max));
        }
        file.push(d);
    }
    out.extend(cap_per_rule(file, max));
    out
}

/// What one rule has in a list: findings, and lines already standing for findings left out.
#[derive(Default)]
struct Tally {
    findings: usize,
    lines: usize,
    /// What is not shown once capped: past `max` findings, and what the lines stand for.
    rest: usize,
}

/// The rules of `diags` that capping at `max` changes (more than `max` findings, or more than
/// one line for the rest), with their tallies; `None` when it changes nothing.
fn over(diags: &[Diagnostic], max: usize) -> Option<HashMap<&'static str, Tally>> {
    if diags.len() <= max && diags.iter().all(|d| d.omitted == 0) {
        return None;
    }
    let mut rules: HashMap<&'static str, Tally> = HashMap::new();
    for d in diags {
        let t = rules.entry(d.rule.code).or_default();
        if d.omitted == 0 {
            t.findings += 1;
        } else {
            t.lines += 1;
            t.rest += d.omitted;
        }
    }
    for t in rules.values_mut() {
        t.rest += t.findings.saturating_sub(max);
    }
    rules
        .values()
        .any(|t| t.findings > max || t.lines > 1)
        .then_some(rules)
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

/// Per rule code: findings kept so far, and where the line standing for the rest is. A
/// list, not a hash map: a file meets a few rules, the one asked about is nearly always the
/// one asked about last, and hashing the code of each of a million findings past the cap took
/// a quarter of the check of a `server.json` of empty packages.
#[derive(Debug, Default)]
struct Tallies {
    list: Vec<(&'static str, (usize, Option<usize>))>,
    /// The entry found last (a cell: asking whether a rule is full does not change anything
    /// a reader sees).
    last: std::cell::Cell<usize>,
}

impl Tallies {
    fn find(&self, code: &str) -> Option<usize> {
        let last = self.last.get();
        let at = match self.list.get(last) {
            Some((c, _)) if *c == code => last,
            _ => self.list.iter().position(|(c, _)| *c == code)?,
        };
        self.last.set(at);
        Some(at)
    }

    fn get(&self, code: &str) -> Option<&(usize, Option<usize>)> {
        self.list.get(self.find(code)?).map(|(_, t)| t)
    }

    fn entry(&mut self, code: &'static str) -> &mut (usize, Option<usize>) {
        let at = self.find(code).unwrap_or(self.list.len());
        if at == self.list.len() {
            self.list.push((code, (0, None)));
            self.last.set(at);
        }
        &mut self.list[at].1
    }
}

/// A rule's tally (findings kept, where the line standing for the rest is) says its next
/// finding is only counted.
fn only_counted((kept, rest): (usize, Option<usize>)) -> bool {
    kept >= MAX_PER_RULE && rest.is_some()
}

/// The findings of one file, capped per rule as they are found: the first [`MAX_PER_RULE`]
/// of each rule are kept, the next one stands for all the rest, which are only counted. A
/// line that already stands for findings left out (capped before) joins that line, and
/// keeps no later finding from being kept.
#[derive(Debug, Default)]
pub struct Findings {
    list: Vec<Diagnostic>,
    /// Per rule: findings kept so far, and where the line standing for the rest is.
    rules: Tallies,
    /// The last finding pushed was kept (not only counted).
    last_kept: bool,
    /// Findings pushed or counted so far, kept or not.
    total: usize,
}

impl Findings {
    /// Add a finding (counted only, past the cap).
    pub fn push(&mut self, d: Diagnostic) {
        // A line that already stands for findings left out counts as them.
        let stands_for = d.omitted.max(1);
        self.total += stands_for;
        let (kept, rest) = self.rules.entry(d.rule.code);
        self.last_kept = d.omitted == 0 && *kept < MAX_PER_RULE;
        if self.last_kept {
            *kept += 1;
            self.list.push(d);
            return;
        }
        match rest {
            Some(at) => {
                if let Some(line) = self.list.get_mut(*at) {
                    line.omitted += stands_for;
                }
            }
            None => {
                *rest = Some(self.list.len());
                self.list.push(summary(d, stands_for));
            }
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
            .is_some_and(|tally| only_counted(*tally))
    }

    /// The codes of the rules [`Findings::is_full`] says are full: what threads finding in
    /// parallel ask (the findings themselves are not shared between threads).
    pub(crate) fn full_codes(&self) -> Vec<&'static str> {
        self.rules
            .list
            .iter()
            .filter(|(_, tally)| only_counted(*tally))
            .map(|(code, _)| *code)
            .collect()
    }

    /// True when a finding of `rule` would only be counted, and then it is: the emit site
    /// builds nothing (the usual way to ask [`Findings::is_full`]).
    pub fn counted(&mut self, rule: &Rule) -> bool {
        let full = self.is_full(rule);
        if full {
            self.count(rule);
        }
        full
    }

    /// Count a finding of `rule` that [`Findings::is_full`] said need not be built.
    pub fn count(&mut self, rule: &Rule) {
        self.last_kept = false;
        self.total += 1;
        if let Some(&(_, Some(at))) = self.rules.get(rule.code)
            && let Some(line) = self.list.get_mut(at)
        {
            line.omitted += 1;
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

    /// A parser builds as many repeated keys as a file shows: no fewer, or the file's
    /// first would be missing.
    #[test]
    fn parsers_build_the_repeats_a_file_shows() {
        assert_eq!(crate::syntax::repeats::REPEATS_KEPT, MAX_PER_RULE);
    }

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
        // here its line for the rest sorts before the three findings it kept.
        let mut kept = vec![summary(of(&a, "rest").remove(0), 7)];
        kept.extend(of(&a, "a").into_iter().take(3));
        assert_eq!(messages(&cap_per_file(kept.clone(), 3)), messages(&kept));
        // One more found across files: the first three are shown, the line counts the rest.
        kept.extend(of(&a, "b").into_iter().take(1));
        assert_eq!(
            messages(&cap_per_file(kept, 3)),
            [
                "8 more findings of this rule in this file are not shown",
                "a 0",
                "a 1",
                "a 2"
            ]
        );
        // Within the cap, the list comes back as it was.
        let few: Vec<Diagnostic> = [of(&a, "a"), of(&b, "b")].concat();
        assert_eq!(messages(&cap_per_file(few, 4)).len(), 8);
    }

    /// A line standing for findings counted elsewhere (a text's hidden characters past its
    /// hundredth) keeps no later finding of its rule from being shown, as found and in a
    /// finished list: the rule's first findings are kept up to the cap, and one line
    /// stands for all the rest.
    #[test]
    fn a_line_for_the_rest_cuts_no_finding_within_the_cap() {
        let file = file();
        let rule = &crate::rules::security::HOST_PATH_ACCESS;
        let one = |m: &str| Diagnostic::new(rule, &file, Span::point(0), m);
        let list = vec![
            one("a"),
            summary(one("text"), 50),
            one("b"),
            summary(one("other text"), 20),
            one("c"),
            one("d"),
        ];
        let more = |n: usize| format!("{n}{MORE_SUFFIX}");
        let capped = cap_per_rule(list.clone(), 3);
        assert_eq!(messages(&capped), ["a", &more(71), "b", "c"]);
        assert_eq!(
            messages(&cap_per_rule(capped.clone(), 3)),
            messages(&capped)
        );
        let mut found = Findings::default();
        found.extend(list);
        assert_eq!(found.total(), 74);
        assert_eq!(messages(&found.into_vec()), ["a", &more(70), "b", "c", "d"]);
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
