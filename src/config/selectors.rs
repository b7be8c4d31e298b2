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
    let msg = format!("`{selector}` is not a rule code, rule name or code prefix");
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

/// The globs one configuration file may hold in all (`[discovery] exclude`, `include`,
/// `[[overrides]] paths`), and their wildcards: each is compiled, and a file of 1 MiB of
/// `**` globs took 335 MiB. A real one holds a handful.
#[derive(Debug)]
pub(super) struct GlobBudget {
    globs: usize,
    wildcards: usize,
}

impl Default for GlobBudget {
    fn default() -> GlobBudget {
        GlobBudget {
            globs: 2_000,
            wildcards: 10_000,
        }
    }
}

thread_local! {
    /// The globs and wildcards the nested configuration files of a run may still hold in
    /// all, while [`sharing_a_budget`] runs: a hundred files of 2,000 globs each would each
    /// be within their own budget.
    static RUN: std::cell::Cell<Option<(usize, usize)>> = const { std::cell::Cell::new(None) };
}

/// Globs the nested configuration files of one run may hold in all, and their wildcards.
const RUN_GLOBS: usize = 10_000;
const RUN_WILDCARDS: usize = 20_000;

/// Run `f`, which parses the nested configuration files of a run on this thread, with one
/// budget of globs for all of them.
pub(super) fn sharing_a_budget<R>(f: impl FnOnce() -> R) -> R {
    RUN.set(Some((RUN_GLOBS, RUN_WILDCARDS)));
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
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
        let wildcards = p.get_ref().matches(['*', '?', '[', '{']).count();
        if budget.globs == 0 || wildcards > budget.wildcards {
            let GlobBudget { globs, wildcards } = GlobBudget::default();
            err(
                p.span(),
                format!(
                    "past the globs a configuration file may hold ({globs} globs, {wildcards} wildcards in all); this one and the rest of its list are not used"
                ),
            );
            break;
        }
        if let Some((globs, left)) = RUN.get() {
            if globs == 0 || wildcards > left {
                err(
                    p.span(),
                    format!(
                        "past the globs the nested configuration files of one run may hold ({RUN_GLOBS} globs, {RUN_WILDCARDS} wildcards in all); this one and the rest of its list are not used"
                    ),
                );
                break;
            }
            RUN.set(Some((globs - 1, left - wildcards)));
        }
        budget.globs -= 1;
        budget.wildcards -= wildcards;
        match Glob::new(p.get_ref()) {
            Ok(g) => {
                builder.add(g);
            }
            Err(e) => err(
                p.span(),
                format!("invalid glob `{}`: {}", p.get_ref(), e.kind()),
            ),
        }
    }
    builder.build().unwrap_or_else(|_| GlobSet::empty())
}
