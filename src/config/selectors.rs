//! Rule selectors in `toolc.toml` (`[rules]`, `[[overrides]]`): one that names no rule is a
//! configuration error. A file that extends another may name a custom rule declared there,
//! which is known only once the whole chain is read: its unknown selectors wait until then.

use globset::{Glob, GlobSet, GlobSetBuilder};
use toml::Spanned;

use super::Config;
use crate::diagnostics::Diagnostic;
use crate::rules::{self, syntax::INVALID_CONFIG};

/// Why `selector` is refused, with the nearest rule code or name.
pub(super) fn unknown(selector: &str) -> String {
    let hint = crate::analysis::names::did_you_mean(
        selector,
        rules::all().iter().flat_map(|r| [r.code, r.name]),
    );
    let mut msg = format!("`{selector}` is not a rule code, rule name or code prefix");
    if let Some(h) = hint {
        msg.push_str(&format!("; did you mean `{h}`?"));
    }
    msg
}

/// The selectors the files of a read chain left for later that still name no rule.
pub(super) fn still_unknown(chain: &[Config]) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for config in chain {
        let Some(file) = &config.file else { continue };
        for (selector, span) in &config.pending_selectors {
            if !rules::selector_is_known(selector) {
                errors.push(Diagnostic::new(
                    &INVALID_CONFIG,
                    file,
                    *span,
                    unknown(selector),
                ));
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
