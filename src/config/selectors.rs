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

/// Globs, each that does not compile reported through `err`.
pub(super) fn build_globs(
    patterns: &[Spanned<String>],
    err: &mut dyn FnMut(std::ops::Range<usize>, String),
) -> GlobSet {
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
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
