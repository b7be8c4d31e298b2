//! Structured fixes: the edits that make a diagnostic go away, for editors and `--format json`.

use crate::source::Span;

/// Whether a fix can be applied without a person looking at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// The edit is what the author meant (a misspelt key with one close match, quoting).
    Safe,
    /// The edit removes the diagnostic but may change meaning (a guessed name, a rename
    /// other files may depend on): apply it only after review.
    Unsafe,
}

impl Applicability {
    /// The lowercase name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// Replace the bytes of `span` with `replacement` (an empty span inserts).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Edit {
    /// The bytes to replace, in the diagnostic's file.
    pub span: Span,
    /// The new text.
    pub replacement: String,
}

/// A mechanical fix: one or more edits of the diagnostic's file, with a message saying what
/// they do.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fix {
    /// What the fix does, e.g. "replace with `name`".
    pub message: String,
    /// Whether it is safe to apply unreviewed.
    pub applicability: Applicability,
    /// The edits, non-overlapping.
    pub edits: Vec<Edit>,
}

impl Fix {
    /// A fix that replaces `span` with `replacement`.
    pub fn replace(
        applicability: Applicability,
        span: Span,
        replacement: impl Into<String>,
    ) -> Fix {
        let replacement = replacement.into();
        Fix {
            message: format!("replace with `{replacement}`"),
            applicability,
            edits: vec![Edit { span, replacement }],
        }
    }

    /// A safe single replacement.
    pub fn safe(span: Span, replacement: impl Into<String>) -> Fix {
        Fix::replace(Applicability::Safe, span, replacement)
    }

    /// An unsafe single replacement (apply after review).
    pub fn unsafe_(span: Span, replacement: impl Into<String>) -> Fix {
        Fix::replace(Applicability::Unsafe, span, replacement)
    }

    /// The same fix with another message.
    pub fn with_message(mut self, message: impl Into<String>) -> Fix {
        self.message = message.into();
        self
    }

    /// `text` with the edits applied, or `None` when an edit is out of range, splits a
    /// character or overlaps another.
    pub fn apply(&self, text: &str) -> Option<String> {
        let mut edits: Vec<&Edit> = self.edits.iter().collect();
        edits.sort_by_key(|e| (e.span.start, e.span.end));
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for e in edits {
            if e.span.start < at || e.span.end < e.span.start {
                return None;
            }
            out.push_str(text.get(at..e.span.start)?);
            text.get(e.span.start..e.span.end)?;
            out.push_str(&e.replacement);
            at = e.span.end;
        }
        out.push_str(text.get(at..)?);
        Some(out)
    }
}

/// A "did you mean" hint: the help that names what was probably meant, and the fix that
/// writes it. Made only by [`DidYouMean::new`], so no such hint exists without its fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DidYouMean {
    help: String,
    fix: Fix,
}

impl DidYouMean {
    /// "did you mean `shown`?", with `fix`, the edit that writes it.
    pub fn new(shown: impl std::fmt::Display, fix: Fix) -> DidYouMean {
        DidYouMean {
            help: format!("did you mean `{shown}`?"),
            fix,
        }
    }

    /// [`DidYouMean::new`] when there is a fix: without one there is no hint.
    pub fn fixed_by(shown: impl std::fmt::Display, fix: Option<Fix>) -> Option<DidYouMean> {
        fix.map(|fix| DidYouMean::new(shown, fix))
    }

    /// The same hint with `more` after the question (what else is allowed, a caveat).
    pub fn then(mut self, more: impl std::fmt::Display) -> DidYouMean {
        self.help = format!("{} {more}", self.help);
        self
    }

    /// The help text and the fix.
    pub fn into_parts(self) -> (String, Fix) {
        (self.help, self.fix)
    }
}

/// The edits of as many of `fixes` (of one file) as can be applied together, sorted: fixes
/// are taken in order of their first edit, each unless one of its edits overlaps an edit
/// already taken (a fix offered by two diagnostics is taken once). What the rest fix, a
/// check after applying these finds again.
pub(crate) fn combine<'a>(fixes: impl IntoIterator<Item = &'a Fix>) -> Vec<&'a Edit> {
    let mut fixes: Vec<&Fix> = fixes.into_iter().collect();
    fixes.sort_by_key(|f| f.edits.iter().map(|e| (e.span.start, e.span.end)).min());
    let mut taken: Vec<&Edit> = Vec::new();
    for fix in fixes {
        let clashes = fix.edits.iter().any(|e| {
            taken.iter().any(|t| {
                // Two insertions at one point have no order: they clash too.
                (e.span.start < t.span.end && t.span.start < e.span.end) || e.span == t.span
            })
        });
        if !clashes {
            taken.extend(&fix.edits);
        }
    }
    taken.sort_by_key(|e| (e.span.start, e.span.end));
    taken
}

/// True when every edit of `fix` is among `edits`: applying them fixes its diagnostic.
pub(crate) fn is_applied_by(fix: &Fix, edits: &[&Edit]) -> bool {
    fix.edits.iter().all(|e| edits.contains(&e))
}

/// `text` with `edits` (sorted, non-overlapping, as [`combine`] gives them) applied, or
/// `None` when one is out of range or splits a character.
pub(crate) fn apply_edits(text: &str, edits: &[&Edit]) -> Option<String> {
    let fix = Fix {
        message: String::new(),
        applicability: Applicability::Safe,
        edits: edits.iter().map(|e| (*e).clone()).collect(),
    };
    fix.apply(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_replaces_in_order_and_rejects_overlaps() {
        let text = "nmae: x\nverison: 1\n";
        let fix = Fix {
            message: "rename".into(),
            applicability: Applicability::Safe,
            edits: vec![
                Edit {
                    span: Span::new(8, 15),
                    replacement: "version".into(),
                },
                Edit {
                    span: Span::new(0, 4),
                    replacement: "name".into(),
                },
            ],
        };
        assert_eq!(fix.apply(text).as_deref(), Some("name: x\nversion: 1\n"));
        let overlapping = Fix {
            edits: vec![
                Edit {
                    span: Span::new(0, 4),
                    replacement: "a".into(),
                },
                Edit {
                    span: Span::new(2, 6),
                    replacement: "b".into(),
                },
            ],
            ..fix.clone()
        };
        assert_eq!(overlapping.apply(text), None);
        assert_eq!(Fix::safe(Span::new(40, 41), "x").apply(text), None);
    }

    #[test]
    fn combine_takes_each_fix_once_and_skips_clashes() {
        let a = Fix::safe(Span::new(0, 4), "name");
        let same = a.clone();
        let clash = Fix::safe(Span::new(2, 6), "x");
        let b = Fix::safe(Span::new(8, 15), "version");
        let edits = combine([&b, &a, &same, &clash]);
        let spans: Vec<Span> = edits.iter().map(|e| e.span).collect();
        assert_eq!(spans, [Span::new(0, 4), Span::new(8, 15)]);
        assert_eq!(
            apply_edits("nmae: x\nverison: 1\n", &edits).as_deref(),
            Some("name: x\nversion: 1\n")
        );
    }

    #[test]
    fn a_did_you_mean_says_what_its_fix_writes() {
        let hint = DidYouMean::new("name", Fix::safe(Span::new(0, 4), "name")).then("(a guess)");
        let (help, fix) = hint.into_parts();
        assert_eq!(help, "did you mean `name`? (a guess)");
        assert_eq!(fix.apply("nmae: x").as_deref(), Some("name: x"));
    }

    #[test]
    fn replace_says_what_it_writes() {
        let fix = Fix::unsafe_(Span::new(0, 4), "name");
        assert_eq!(fix.message, "replace with `name`");
        assert_eq!(fix.applicability.as_str(), "unsafe");
        assert_eq!(fix.apply("nmae").as_deref(), Some("name"));
    }
}
