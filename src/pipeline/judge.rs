//! Stages 4 and 5, severity and suppress: each finding gets the severity its configuration
//! gives its rule on its file (or is dropped: `--select`, `--ignore`, `off`), then a
//! covering `toolc: ignore` comment moves it aside; a comment that covers nothing is
//! reported.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::CheckOptions;
use crate::bundle;
use crate::config::{Config, Setting};
use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::Findings;
use crate::rules::{self, Rule, Severity, syntax as syn};
use crate::source::SourceFile;
use crate::suppress::{SuppressedCode, Suppression};

/// The severity `rule` has on the file at `path` in a run of `options`; `None` when it does
/// not run there (`--select`, `--ignore`, configured `off`).
pub(crate) fn enabled(
    options: &CheckOptions,
    config: &Config,
    rule: &Rule,
    path: &Path,
) -> Option<Severity> {
    let selected = options.select.is_empty()
        || options
            .select
            .iter()
            .any(|s| rules::selector_matches(s, rule));
    let ignored = options
        .ignore
        .iter()
        .any(|s| rules::selector_matches(s, rule));
    if !selected || ignored || !preview_runs(options.preview, &options.select, config, rule, path) {
        return None;
    }
    match config.setting(rule, path) {
        Setting::Off => None,
        Setting::Level(s) => Some(s),
    }
}

/// False for a preview rule that nothing turned on: not `--preview`, not `preview = true`,
/// not a `--select` or configured setting naming the rule itself.
pub(crate) fn preview_runs(
    preview: bool,
    select: &[String],
    config: &Config,
    rule: &Rule,
    path: &Path,
) -> bool {
    !rule.preview
        || preview
        || select
            .iter()
            .any(|s| s.eq_ignore_ascii_case(rule.code) || s == rule.name)
        || config.runs_preview(rule, path)
}

/// The bundle targets whose compatibility rules a check of `options` runs.
pub(crate) fn checked_targets(options: &CheckOptions, config: &Config) -> Vec<bundle::Target> {
    options
        .targets
        .clone()
        .unwrap_or_else(|| bundle::checked_targets(config))
}

/// The rule's severity on a file, as the run's configuration says (see [`enabled`]).
pub(super) type Enabled<'a> = dyn Fn(&Rule, &Path) -> Option<Severity> + 'a;

/// Findings judged so far: shown, or moved aside by a comment.
#[derive(Default)]
pub(super) struct Judged {
    /// To show.
    pub diagnostics: Vec<Diagnostic>,
    /// Silenced by `toolc: ignore` comments.
    pub suppressed: Vec<Diagnostic>,
    /// The rules whose findings in a file were capped before they were judged: a comment
    /// naming one may cover a finding only counted, so it is not called unused.
    capped: HashMap<PathBuf, Vec<&'static str>>,
}

/// The suppression comments of the files reported on, by path: marked as they are used.
pub(super) type Comments = HashMap<PathBuf, Marked>;

/// A file's suppression comments (shared with the file, not copied) and which of their codes
/// suppressed a finding in this run.
pub(super) struct Marked {
    list: Arc<[Suppression]>,
    /// Whether each code, in the order of the comments and then of their codes, was used.
    used: Vec<bool>,
    /// Where each comment's codes start in `used`.
    starts: Vec<usize>,
}

impl Marked {
    /// `list`, none of its codes used yet.
    pub(super) fn new(list: Arc<[Suppression]>) -> Marked {
        let mut starts = Vec::with_capacity(list.len());
        let mut codes = 0;
        for s in list.iter() {
            starts.push(codes);
            codes += s.codes.len();
        }
        Marked {
            list,
            used: vec![false; codes],
            starts,
        }
    }

    /// Whether a comment covers a finding of `rule` on `line`; every code that does is
    /// marked used. The comments are in line order and each covers its line or the next,
    /// so only those starting on the line or the one before are asked.
    fn covers(&mut self, rule: &Rule, line: usize) -> bool {
        let from = self.list.partition_point(|s| s.last_line < line);
        let mut hit = false;
        for (i, s) in self.list.iter().enumerate().skip(from) {
            if s.first_line > line {
                break;
            }
            if !s.covers_line(line) {
                continue;
            }
            for (k, code) in s.codes.iter().enumerate() {
                if code.covers(rule)
                    && let Some(used) = self.used.get_mut(self.starts[i] + k)
                {
                    *used = true;
                    hit = true;
                }
            }
        }
        hit
    }

    /// Every code with whether it was used.
    fn codes(&self) -> impl Iterator<Item = (&SuppressedCode, bool)> {
        self.list
            .iter()
            .flat_map(|s| s.codes.iter())
            .zip(self.used.iter().copied())
    }
}

impl Judged {
    /// Stage 4 then 5 for `raw`: configure each finding, then suppress it when a comment
    /// covers it (every covering comment is marked used, so none is reported as unused).
    pub(super) fn admit(
        &mut self,
        mut raw: Vec<Diagnostic>,
        enabled: &Enabled<'_>,
        comments: &mut Comments,
    ) {
        // Judged in place: moved into a second list, a repository's 300,000 findings were
        // held twice (and the second list grew by doubling).
        raw.retain_mut(|d| match enabled(d.rule, &d.file.path) {
            Some(severity) => {
                d.configure(severity);
                true
            }
            None => false,
        });
        for d in raw.iter().filter(|d| d.omitted > 0) {
            let codes = self.capped.entry(d.file.path.clone()).or_default();
            if !codes.contains(&d.rule.code) {
                codes.push(d.rule.code);
            }
        }
        let covered = |d: &mut Diagnostic| {
            let Some(marked) = comments.get_mut(&d.file.path) else {
                return false;
            };
            // Only here is the line needed: a file without comments is not read for it.
            let line = d.file.position(d.span.start).line;
            marked.covers(d.rule, line)
        };
        self.suppressed.extend(raw.extract_if(.., covered));
        if self.diagnostics.is_empty() {
            self.diagnostics = raw;
        } else {
            self.diagnostics.append(&mut raw);
        }
    }

    /// Report the comments of `sources` that name no rule, or suppress nothing a run that
    /// can emit their rule found.
    pub(super) fn unused(
        &mut self,
        sources: &[&Arc<SourceFile>],
        comments: &Comments,
        enabled: &Enabled<'_>,
        config: &Config,
    ) {
        for file in sources {
            let Some(marked) = comments.get(&file.path) else {
                continue;
            };
            let capped = self.capped.get(&file.path);
            // Capped as they are found, as a file's other findings are: 1.6 million unused
            // suppressions made a finding each (36 MB: 1.5 GB).
            let mut found = Findings::default();
            for (code, used) in marked.codes() {
                let rule = match code.rule {
                    None => &syn::UNKNOWN_SUPPRESSION_CODE,
                    Some(rule)
                        if !used
                            && capped.is_none_or(|codes| !codes.contains(&rule.code))
                            && enabled(rule, &file.path).is_some()
                            && rules::emitted_by_check(rule, config.lock_required) =>
                    {
                        &syn::UNUSED_SUPPRESSION
                    }
                    Some(_) => continue,
                };
                let Some(severity) = enabled(rule, &file.path) else {
                    continue;
                };
                if found.counted(rule) {
                    continue;
                }
                let d = match code.rule {
                    None => Diagnostic::new(
                        &syn::UNKNOWN_SUPPRESSION_CODE,
                        file,
                        code.span,
                        format!("`{}` is not a rule code or name", code.text),
                    )
                    .label("unknown rule")
                    .maybe_did_you_mean(
                        crate::analysis::names::did_you_mean(
                            &code.text,
                            rules::all().iter().flat_map(|r| [r.code, r.name]),
                        )
                        .map(|h| {
                            crate::diagnostics::DidYouMean::new(
                                h,
                                crate::diagnostics::Fix::safe(code.span, h),
                            )
                        }),
                    ),
                    Some(rule) => Diagnostic::new(
                        &syn::UNUSED_SUPPRESSION,
                        file,
                        code.span,
                        format!("this suppression of `{}` matches no diagnostic", rule.code),
                    )
                    .label("suppresses nothing")
                    .help(
                        "remove it, or move it onto the line of the diagnostic (or the line above)",
                    ),
                };
                found.push(Diagnostic { severity, ..d });
            }
            self.diagnostics.extend(found.into_vec());
        }
    }
}
