//! The findings of one rule in one file capped as they are found, keeping the ones the
//! file's cap keeps (the first by [`Diagnostic::sort_key`]): a schema whose `enum` holds
//! millions of values of the wrong type, or whose `required` names millions of keys
//! `properties` lacks, held a finding for each until the end of the check, up to a hundred
//! times the file's size; so did `toolc diff` of a change to every tool of a large file.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::Diagnostic;
use super::cap::{MAX_PER_RULE, summary};
use crate::source::Span;

/// The first [`MAX_PER_RULE`] findings by place (the output is sorted so before the file's
/// cap applies), and the rest counted.
#[derive(Default)]
pub(crate) struct First {
    kept: BinaryHeap<ByPosition>,
    /// The first finding left out, which stands for the rest.
    rest: Option<Diagnostic>,
    omitted: usize,
}

impl First {
    /// False when a finding at `span` would only be counted: [`First::count`] it instead
    /// of building it.
    pub(crate) fn wants(&self, span: Span) -> bool {
        // At the same place, the message decides: built, and then kept or counted.
        let before = |d: &Diagnostic| key(span) <= key(d.span);
        self.kept.len() < MAX_PER_RULE
            || self.kept.peek().is_some_and(|last| before(&last.0))
            || self.rest.as_ref().is_none_or(before)
    }

    /// A finding [`First::wants`] said need not be built.
    pub(crate) fn count(&mut self) {
        self.omitted += 1;
    }

    /// Add a finding.
    pub(crate) fn push(&mut self, d: Diagnostic) {
        // Past every finding kept, it would come straight back off the heap: findings found
        // in order (a diff's, tool after tool) skip the heap's two walks.
        let last = match self.kept.peek() {
            Some(top) if self.kept.len() >= MAX_PER_RULE && d.sort_key() > top.0.sort_key() => d,
            _ => {
                self.kept.push(ByPosition(d));
                if self.kept.len() <= MAX_PER_RULE {
                    return;
                }
                match self.kept.pop() {
                    Some(ByPosition(last)) => last,
                    None => return,
                }
            }
        };
        self.omitted += 1;
        if self
            .rest
            .as_ref()
            .is_none_or(|r| last.sort_key() < r.sort_key())
        {
            self.rest = Some(last);
        }
    }

    /// The findings kept, and the line standing for the rest.
    pub(crate) fn into_vec(self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = self.kept.into_iter().map(|d| d.0).collect();
        out.extend(self.rest.map(|d| summary(d, self.omitted)));
        out
    }
}

fn key(span: Span) -> (usize, usize) {
    (span.start, span.end)
}

/// A finding ordered as the output is (the greatest on top of the heap).
struct ByPosition(Diagnostic);

impl PartialEq for ByPosition {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for ByPosition {}

impl PartialOrd for ByPosition {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByPosition {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.sort_key().cmp(&other.0.sort_key())
    }
}

#[cfg(test)]
mod tests {
    use super::{First, MAX_PER_RULE};
    use crate::diagnostics::Diagnostic;
    use crate::schema::tests::diagnostics;
    use crate::source::{FormatId, SourceFile, Span};

    /// Found in order, in reverse or shuffled, the same findings keep the same first ones
    /// and the same line for the rest (in order, each past the cap skips the heap).
    #[test]
    fn the_order_findings_come_in_changes_nothing() {
        let file = SourceFile::new(
            "tools.json".into(),
            "tools.json".into(),
            FormatId::AgentcliManifest,
            "{}".into(),
        );
        let rule = &crate::rules::breaking::TOOL_REMOVED;
        let n = 500;
        let kept = |order: &mut dyn Iterator<Item = usize>| {
            let mut first = First::default();
            for i in order {
                first.push(Diagnostic::new(
                    rule,
                    &file,
                    Span::new(i, i + 1),
                    format!("t{i}"),
                ));
            }
            first
                .into_vec()
                .iter()
                .map(|d| (d.span.start, d.omitted))
                .collect::<Vec<_>>()
        };
        // The first 200 by place, and the 201st standing for the 300 left out.
        let expected: Vec<(usize, usize)> = (0..MAX_PER_RULE)
            .map(|i| (i, 0))
            .chain([(MAX_PER_RULE, n - MAX_PER_RULE)])
            .collect();
        for order in [
            &mut (0..n) as &mut dyn Iterator<Item = usize>,
            &mut (0..n).rev(),
            &mut (0..n).map(|i| i * 7 % n),
        ] {
            let mut got = kept(order);
            got.sort();
            assert_eq!(got, expected);
        }
    }

    /// The findings kept are the first by position, whatever order the walk found them in
    /// (a subschema's `enum` written before its parent's is found after it), and the line
    /// for the rest stands at the first one left out.
    #[test]
    fn the_first_findings_by_position_are_kept_and_the_rest_counted() {
        let strings = |prefix: &str| {
            (0..150)
                .map(|i| format!("\"{prefix}{i}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let text = format!(
            r#"{{"type": "object", "properties": {{"c": {{"type": "integer", "enum": [{}]}}}}, "enum": [{}]}}"#,
            strings("c"),
            strings("p")
        );
        let (file, diags) = diagnostics(&text);
        let sch003: Vec<_> = diags.iter().filter(|d| d.rule.code == "SCH003").collect();
        assert_eq!(sch003.len(), MAX_PER_RULE + 1);
        let shown = |d: &crate::diagnostics::Diagnostic| file.slice(d.span).to_string();
        assert_eq!(shown(sch003[0]), "\"c0\"");
        assert_eq!(shown(sch003[MAX_PER_RULE - 1]), "\"p49\"");
        let rest = sch003[MAX_PER_RULE];
        assert_eq!(shown(rest), "\"p50\"");
        assert_eq!(rest.omitted, 100);
        assert_eq!(
            rest.message,
            "100 more findings of this rule in this file are not shown"
        );
    }
}
