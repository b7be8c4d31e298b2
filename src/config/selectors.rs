//! Rule selectors in `toolc.toml` (`[rules]`, `[[overrides]]`): one that names no rule is a
//! configuration error. A file that extends another may name a custom rule declared there,
//! which is known only once the whole chain is read: its unknown selectors wait until then.

use globset::{Glob, GlobSet, GlobSetBuilder};
use toml::Spanned;

use super::Config;
use std::sync::Arc;

use crate::diagnostics::edits::replace_scalar;
use crate::diagnostics::{Applicability, Diagnostic, DidYouMean};
use crate::rules::{self, syntax::INVALID_CONFIG};
use crate::source::{SourceFile, Span};

/// The error for `selector` at `span` of `file`, with the nearest rule code or name and the
/// edit that writes it.
pub(super) fn unknown(file: &Arc<SourceFile>, span: Span, selector: &str) -> Diagnostic {
    let hint = crate::analysis::names::did_you_mean(
        selector,
        rules::all().iter().flat_map(|r| [r.code, r.name]),
    )
    .map(|h| {
        let fix = replace_scalar(file, span, h, Applicability::Safe);
        DidYouMean::new(h, fix)
    });
    let msg = rules::unknown_selector(selector);
    Diagnostic::new(&INVALID_CONFIG, file, span, msg).maybe_did_you_mean(hint)
}

/// The selectors the files of a read chain left for later that still name no rule.
pub(super) fn still_unknown(chain: &[Config]) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for config in chain {
        let Some(file) = &config.file else { continue };
        for (selector, span) in &config.pending_selectors {
            if !rules::selector_is_known(selector) {
                errors.push(unknown(file, *span, selector));
            }
        }
    }
    errors
}

/// Globs left to compile, and wildcards in them: each glob is compiled, and a file of 1 MiB
/// of `**` globs took 335 MiB. A real configuration holds a handful.
#[derive(Debug, Clone, Copy)]
pub(super) struct GlobBudget {
    globs: usize,
    wildcards: usize,
}

impl GlobBudget {
    /// What one configuration file may hold in all (`[discovery] exclude`, `include`,
    /// `[[overrides]] paths`).
    const FILE: GlobBudget = GlobBudget {
        globs: 2_000,
        wildcards: 10_000,
    };
    /// What the nested configuration files of one run may hold between them: a hundred
    /// files of 2,000 globs would each be within their own.
    const RUN: GlobBudget = GlobBudget {
        globs: 10_000,
        wildcards: 20_000,
    };

    /// Take one glob of `wildcards` wildcards; false when there is no room for it.
    fn take(&mut self, wildcards: usize) -> bool {
        if self.globs == 0 || wildcards > self.wildcards {
            return false;
        }
        self.globs -= 1;
        self.wildcards -= wildcards;
        true
    }

    /// The error for the first glob past `full`, held by `who`.
    fn past(who: &str, full: GlobBudget) -> String {
        format!(
            "past the globs {who} may hold ({} globs, {} wildcards in all); this one and the rest of its list are not used",
            full.globs, full.wildcards
        )
    }
}

impl Default for GlobBudget {
    fn default() -> GlobBudget {
        GlobBudget::FILE
    }
}

thread_local! {
    /// What the nested configuration files of a run may still hold, while
    /// [`sharing_a_budget`] runs.
    static RUN: std::cell::Cell<Option<GlobBudget>> = const { std::cell::Cell::new(None) };
}

/// Run `f`, which parses the nested configuration files of a run on this thread, with one
/// budget of globs for all of them.
pub(super) fn sharing_a_budget<R>(f: impl FnOnce() -> R) -> R {
    RUN.set(Some(GlobBudget::RUN));
    let out = f();
    RUN.set(None);
    out
}

/// Globs, each that does not compile reported through `err`, as many as `budget` (and the
/// run's, while [`sharing_a_budget`] runs) has room for (the first past it reported, the
/// rest left out).
pub(super) fn build_globs(
    patterns: &[Spanned<String>],
    budget: &mut GlobBudget,
    err: &mut dyn FnMut(std::ops::Range<usize>, String),
) -> GlobSet {
    globs_kept(patterns, budget, err).0
}

/// [`build_globs`], and the index in `patterns` of each glob of the set, in its order.
pub(super) fn globs_kept(
    patterns: &[Spanned<String>],
    budget: &mut GlobBudget,
    err: &mut dyn FnMut(std::ops::Range<usize>, String),
) -> (GlobSet, Vec<usize>) {
    let mut builder = GlobSetBuilder::new();
    let mut kept = Vec::new();
    for (i, g) in globs(patterns, budget, err) {
        builder.add(g);
        kept.push(i);
    }
    match builder.build() {
        Ok(set) => (set, kept),
        Err(_) => (GlobSet::empty(), Vec::new()),
    }
}

/// The globs of [`build_globs`], each with its index in `patterns`, not yet in a set.
pub(super) fn globs(
    patterns: &[Spanned<String>],
    budget: &mut GlobBudget,
    err: &mut dyn FnMut(std::ops::Range<usize>, String),
) -> Vec<(usize, Glob)> {
    let mut kept = Vec::new();
    for (i, p) in patterns.iter().enumerate() {
        let wildcards = p.get_ref().matches(['*', '?', '[', '{']).count();
        let mut run = RUN.get();
        let past = if !budget.take(wildcards) {
            Some(GlobBudget::past("a configuration file", GlobBudget::FILE))
        } else if run.as_mut().is_some_and(|r| !r.take(wildcards)) {
            let who = "the nested configuration files of one run";
            Some(GlobBudget::past(who, GlobBudget::RUN))
        } else {
            None
        };
        if let Some(message) = past {
            err(p.span(), message);
            break;
        }
        RUN.set(run);
        match Glob::new(p.get_ref()) {
            Ok(g) => kept.push((i, g)),
            Err(e) => err(
                p.span(),
                format!("invalid glob `{}`: {}", p.get_ref(), e.kind()),
            ),
        }
    }
    kept
}
