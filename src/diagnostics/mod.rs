//! The one diagnostic model every pass produces (its emitters are `output`'s).

pub(crate) mod budget;
pub(crate) mod cap;
pub(crate) mod edits;
pub(crate) mod first;
pub(crate) mod fix;
pub(crate) mod md_inline;
mod visible;

pub(crate) use visible::{shown, visible, visible_path};

use std::borrow::Cow;
use std::sync::Arc;

pub(crate) use fix::DidYouMean;
pub use fix::{Applicability, Edit, Fix};

use crate::rules::{Rule, Severity};
use crate::source::{SourceFile, Span};

/// A secondary place that explains a diagnostic (the first definition, the other file).
#[derive(Debug, Clone)]
pub struct Related {
    /// File of the related place.
    pub file: Arc<SourceFile>,
    /// Bytes of the related place.
    pub span: Span,
    /// What the place is.
    pub message: String,
}

/// One finding: which rule, how serious, what and where, and how to fix it.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// The rule that fired.
    pub rule: &'static Rule,
    /// Effective severity (the rule's default until configuration is applied).
    pub severity: Severity,
    /// What is wrong, lower-case, no trailing period.
    pub message: String,
    /// The file the diagnostic is in.
    pub file: Arc<SourceFile>,
    /// The offending token.
    pub span: Span,
    /// Short text under the offending token.
    pub label: Option<String>,
    /// Related places.
    pub related: Vec<Related>,
    /// What the runtime will do with this (the "so what"); fixed texts are not copied.
    pub notes: Vec<Cow<'static, str>>,
    /// How to fix it.
    pub help: Option<Cow<'static, str>>,
    /// The edits that fix it, when the fix is mechanical (boxed, as the next: most findings
    /// have neither, and a repository's findings are held until the report).
    pub fix: Option<Box<Fix>>,
    /// The releases of a runtime the finding holds for, when it holds for some only: the
    /// report keeps it only when the project targets one of them (`[runtimes]`).
    pub releases: Option<Box<crate::runtimes::Releases>>,
    /// How many findings of its rule in its file this one stands for when the per-rule cap
    /// left them out (itself included); 0 for an ordinary finding.
    pub omitted: usize,
}

impl Diagnostic {
    /// Give the diagnostic the severity configured for its rule. A finding its check already
    /// put below its rule's default (an attack quoted as an example) stays at most that low.
    pub fn configure(&mut self, configured: Severity) {
        self.severity = if self.severity < self.rule.severity {
            configured.min(self.severity)
        } else {
            configured
        };
    }

    /// A diagnostic of `rule` at `span` in `file`.
    pub fn new(
        rule: &'static Rule,
        file: &Arc<SourceFile>,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            rule,
            severity: rule.severity,
            message: bounded(message.into()),
            file: Arc::clone(file),
            span,
            label: None,
            related: Vec::new(),
            notes: Vec::new(),
            help: None,
            fix: None,
            releases: None,
            omitted: 0,
        }
    }

    /// Hold the finding only for `releases` of its runtime.
    pub fn for_releases(mut self, releases: crate::runtimes::Releases) -> Diagnostic {
        self.releases = Some(Box::new(releases));
        self
    }

    /// Set the label under the offending token.
    pub fn label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(bounded(label.into()));
        self
    }

    /// Add a related place.
    pub fn related(
        mut self,
        file: &Arc<SourceFile>,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.related.push(Related {
            file: Arc::clone(file),
            span,
            message: bounded(message.into()),
        });
        self
    }

    /// Add a note.
    pub fn note(mut self, note: impl Into<Cow<'static, str>>) -> Diagnostic {
        // Most findings have one note: a list grown by a push has room for four (72 bytes
        // of nothing held to the report by each).
        self.notes.reserve_exact(1);
        self.notes.push(bounded_cow(note.into()));
        self
    }

    /// Set the help text.
    pub fn help(mut self, help: impl Into<Cow<'static, str>>) -> Diagnostic {
        self.help = Some(bounded_cow(help.into()));
        self
    }

    /// Attach a structured fix.
    pub fn fix(mut self, fix: Fix) -> Diagnostic {
        self.fix = Some(Box::new(fix));
        self
    }

    /// A "did you mean" hint: its help, and the fix that writes what it names.
    pub fn did_you_mean(mut self, hint: DidYouMean) -> Diagnostic {
        let (help, fix) = hint.into_parts();
        self.help = Some(bounded_cow(help.into()));
        self.fix = Some(Box::new(fix));
        self
    }

    /// [`Diagnostic::did_you_mean`] when there is a hint.
    pub fn maybe_did_you_mean(self, hint: Option<DidYouMean>) -> Diagnostic {
        match hint {
            Some(hint) => self.did_you_mean(hint),
            None => self,
        }
    }

    /// [`Diagnostic::did_you_mean`] when there is a hint, else `help`.
    pub fn did_you_mean_or(
        self,
        hint: Option<DidYouMean>,
        help: impl Into<Cow<'static, str>>,
    ) -> Diagnostic {
        match hint {
            Some(hint) => self.did_you_mean(hint),
            None => self.help(help),
        }
    }

    /// A hint when there is one: a did-you-mean with its fix, or (`Err`) a plain help.
    pub fn maybe_did_you_mean_or_help(
        self,
        hint: Option<Result<DidYouMean, String>>,
    ) -> Diagnostic {
        match hint {
            Some(Ok(hint)) => self.did_you_mean(hint),
            Some(Err(help)) => self.help(help),
            None => self,
        }
    }

    /// Attach a structured fix when there is one.
    pub fn maybe_fix(mut self, fix: Option<Fix>) -> Diagnostic {
        if let Some(fix) = fix {
            self.fix = Some(Box::new(fix));
        }
        self
    }

    /// Set the help text when there is one.
    pub fn maybe_help(mut self, help: Option<String>) -> Diagnostic {
        if let Some(help) = help {
            self.help = Some(help.into());
        }
        self
    }

    /// Sort key: path, then position, then code.
    pub fn sort_key(&self) -> (&str, usize, usize, &'static str, &str) {
        (
            self.file.display(),
            self.span.start,
            self.span.end,
            self.rule.code,
            &self.message,
        )
    }
}

/// How many findings `diags` stand for: each one, and each line standing for findings past
/// the cap its count. What a comment or the baseline hid is counted so: a line of 150 hidden
/// is 150 findings hidden, not one.
pub(crate) fn standing_for(diags: &[Diagnostic]) -> usize {
    diags.iter().map(|d| d.omitted.max(1)).sum()
}

/// Counts for the summary line and the JSON `summary` object.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files read.
    pub files: usize,
    /// Tool definitions found.
    pub tools: usize,
    /// Error-level diagnostics.
    pub errors: usize,
    /// Warning-level diagnostics.
    pub warnings: usize,
    /// Info-level diagnostics.
    pub infos: usize,
    /// Files at a format's paths left alone because their content is another tool's.
    pub not_claimed: usize,
    /// Findings hidden by `# toolc: ignore` comments (not in the diagnostics): every summary
    /// says how many, so what a repository hides from review is seen.
    pub suppressed: usize,
    /// Findings hidden by the baseline (not in the diagnostics).
    pub baselined: usize,
    /// When the run found more than it holds ([`budget::MAX_HELD`]): the findings of a rule
    /// each file shows, the rest counted by one line.
    pub shown_per_rule: Option<usize>,
}

impl Summary {
    /// The sentence saying that each file shows fewer findings of a rule than usual, when
    /// the run found more than it holds.
    pub fn fewer_shown_line(&self) -> Option<String> {
        let shown = self.shown_per_rule?;
        let max = crate::text::grouped(budget::MAX_HELD as u64);
        let first = if shown == 1 {
            "first finding".to_string()
        } else {
            format!("first {shown} findings")
        };
        Some(format!(
            "More than {max} findings: each file shows its {first} of each rule, and a line that counts the rest."
        ))
    }

    /// The sentence saying how many findings were hidden and by what, or `None` when none
    /// was: "3 findings hidden: 2 by the baseline, 1 by `# toolc: ignore` comments."
    pub fn hidden_line(&self) -> Option<String> {
        self.hidden_line_naming(None)
    }

    /// [`Summary::hidden_line`], naming the baseline's file when given.
    pub fn hidden_line_naming(&self, baseline: Option<&str>) -> Option<String> {
        let total = self.suppressed + self.baselined;
        if total == 0 {
            return None;
        }
        let baseline = match baseline {
            Some(file) => format!("by the baseline {file}"),
            None => "by the baseline".to_string(),
        };
        let comments = "by `# toolc: ignore` comments";
        let noun = if total == 1 { "finding" } else { "findings" };
        Some(match (self.baselined, self.suppressed) {
            (_, 0) => format!("{total} {noun} hidden {baseline}."),
            (0, _) => format!("{total} {noun} hidden {comments}."),
            (b, s) => format!("{total} {noun} hidden: {b} {baseline}, {s} {comments}."),
        })
    }
}

impl Summary {
    /// Count the diagnostics by severity.
    pub fn count(files: usize, tools: usize, diagnostics: &[Diagnostic]) -> Summary {
        let mut s = Summary {
            files,
            tools,
            ..Summary::default()
        };
        for d in diagnostics {
            match d.severity {
                Severity::Error => s.errors += 1,
                Severity::Warning => s.warnings += 1,
                Severity::Info => s.infos += 1,
            }
        }
        s
    }
}

/// The most a finding says in one text (message, label, note, help, a related place's
/// message). A value quoted whole could make it any size: a cycod tool's name of 14 MB was
/// said three times by one finding (506 MB, and 42 MB of output).
const MAX_SAID: usize = 8 * 1024;

/// `text` cut to [`MAX_SAID`] bytes, at a blank so that no credential in it is cut (a cut
/// token would no longer be known as one, and its start would be printed), then `…`.
fn bounded(mut text: String) -> String {
    if text.len() > MAX_SAID {
        let end = crate::text::floor_boundary(&text, MAX_SAID);
        let cut = text[..end].rfind(char::is_whitespace).unwrap_or(0);
        text.truncate(cut);
        text.push_str(" …");
    }
    text
}

/// [`bounded`] for a text that is most often a literal.
fn bounded_cow(text: Cow<'static, str>) -> Cow<'static, str> {
    if text.len() > MAX_SAID {
        Cow::Owned(bounded(text.into_owned()))
    } else {
        text
    }
}
