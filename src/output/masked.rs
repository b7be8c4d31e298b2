//! What output shows of credentials: every text of a diagnostic that can quote a file (its
//! message, label, notes, help, related places, fix message) has its credentials masked
//! past their first characters, and a fix whose edits would write one out is left out of
//! the output (`check --fix` still applies it: the file already holds the credential).
//! Every renderer shows each diagnostic through [`masked_one`], as it writes it (masking a
//! whole list copied every finding when one quoted a credential).

use std::borrow::Cow;

use crate::analysis::secrets::{redact, scan_text};
use crate::diagnostics::Diagnostic;

/// `d` as output may show it: borrowed when it quotes no credential.
pub(crate) fn masked_one(d: &Diagnostic) -> Cow<'_, Diagnostic> {
    if quotes_secret(d) {
        Cow::Owned(mask(d))
    } else {
        Cow::Borrowed(d)
    }
}

fn holds(text: &str) -> bool {
    !scan_text(text).is_empty()
}

fn quotes_secret(d: &Diagnostic) -> bool {
    holds(&d.message)
        || d.label.as_deref().is_some_and(holds)
        || d.help.as_deref().is_some_and(holds)
        || d.notes.iter().any(|n| holds(n))
        || d.related.iter().any(|r| holds(&r.message))
        || d.fix
            .as_ref()
            .is_some_and(|f| holds(&f.message) || f.edits.iter().any(|e| holds(&e.replacement)))
}

fn mask(d: &Diagnostic) -> Diagnostic {
    let mut d = d.clone();
    if !quotes_secret(&d) {
        return d;
    }
    let shown = |s: &str| redact(s).into_owned();
    d.message = shown(&d.message);
    d.label = d.label.as_deref().map(shown);
    d.help = d.help.as_deref().map(|h| shown(h).into());
    for n in &mut d.notes {
        *n = shown(n).into();
    }
    for r in &mut d.related {
        r.message = shown(&r.message);
    }
    if d.fix
        .as_ref()
        .is_some_and(|f| holds(&f.message) || f.edits.iter().any(|e| holds(&e.replacement)))
    {
        d.fix = None;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{FormatId, SourceFile, Span};

    #[test]
    fn credentials_in_any_text_are_masked_and_fixes_carrying_them_dropped() {
        let token = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";
        let file = SourceFile::new("t".into(), "t".into(), FormatId::CycodTool, "x".into());
        let rule = &crate::rules::cycod::UNKNOWN_KEY;
        let plain = Diagnostic::new(rule, &file, Span::point(0), "unknown key `x`");
        let leaky = Diagnostic::new(
            rule,
            &file,
            Span::point(0),
            format!("unknown key `{token}`"),
        )
        .label(format!("`{token}`"))
        .note(format!("password={token}"))
        .fix(crate::diagnostics::Fix::safe(Span::point(0), token));
        assert!(matches!(masked_one(&plain), Cow::Borrowed(_)));
        let shown = masked_one(&leaky);
        assert!(matches!(shown, Cow::Owned(_)));
        let out = format!("{shown:?}");
        assert!(!out.contains("abcdef"), "{out}");
        assert!(shown.message.contains("ghp_01"));
        assert!(shown.fix.is_none());
    }
}
