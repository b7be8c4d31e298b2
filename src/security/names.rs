//! SEC062/SEC063: names that look like other names. A tool or parameter name whose letters
//! come from several scripts (a Cyrillic `е` in `send_email`) is an error on its own; a tool
//! name whose UTS #39 skeleton equals another tool's name impersonates it.

use std::collections::HashMap;

use unicode_script::{Script, UnicodeScript};
use unicode_security::{RestrictionLevel, RestrictionLevelDetection, skeleton};

use crate::analysis::unicode::code_point;
use crate::diagnostics::cap::Findings;
use crate::diagnostics::{Diagnostic, visible};
use crate::rules::security as sec;
use crate::security::texts::{Kept, Text, TextKind};

/// Names among `texts` (a tool's own and its parameters') that mix scripts.
pub(super) fn mixed_scripts<'t>(texts: impl IntoIterator<Item = &'t Text<'t>>, out: &mut Findings) {
    for text in texts {
        if !matches!(text.kind, TextKind::Name | TextKind::ParamName) || text.value.is_ascii() {
            continue;
        }
        if let Some(d) = mixed_script(text) {
            out.push(d);
        }
    }
}

fn mixed_script(text: &Text) -> Option<Diagnostic> {
    let letters: String = text.value.chars().filter(|c| c.is_alphanumeric()).collect();
    // Latin with Han, Hiragana, Katakana or Hangul is how those languages write: UTS #39
    // calls it highly restrictive, not mixed.
    if letters.as_str().detect_restriction_level() <= RestrictionLevel::HighlyRestrictive {
        return None;
    }
    let mut counts: HashMap<Script, usize> = HashMap::new();
    for c in letters.chars() {
        let s = c.script();
        if !matches!(s, Script::Common | Script::Inherited | Script::Unknown) {
            *counts.entry(s).or_default() += 1;
        }
    }
    if counts.len() < 2 {
        return None;
    }
    let main = counts
        .iter()
        .max_by_key(|(s, n)| (**n, **s == Script::Latin))
        .map(|(s, _)| *s)?;
    let (at, odd) = text.value.char_indices().find(|(_, c)| {
        c.is_alphanumeric()
            && !matches!(c.script(), Script::Common | Script::Inherited)
            && c.script() != main
    })?;
    let mut scripts: Vec<&str> = counts.keys().map(|s| s.full_name()).collect();
    scripts.sort_unstable();
    let looks: String = skeleton(&odd.to_string()).collect();
    let like = if looks != odd.to_string() && looks.is_ascii() {
        format!(" and looks like `{looks}`")
    } else {
        String::new()
    };
    let span = text.span_of(at..at + odd.len_utf8());
    Some(
        Diagnostic::new(
            &sec::MIXED_SCRIPT_NAME,
            &text.file,
            span,
            format!(
                "{} `{}` mixes scripts ({}): `{odd}` ({}) is {}{like}",
                text.kind.what(),
                visible(&text.value),
                scripts.join(", "),
                code_point(odd),
                odd.script().full_name(),
            ),
        )
        .label(format!("{} letter", odd.script().full_name()))
        .note("a name that mixes scripts looks like another name: models and reviewers read it as the name it imitates")
        .help("write the name in one script"),
    )
}

/// Tool names whose skeleton equals another tool's name, reported on the one that is not
/// plain ASCII (two ASCII names, such as `modern` and `modem`, are only a typo apart).
pub(super) fn confusables(tools: &[&Kept]) -> Vec<Diagnostic> {
    let names = || tools.iter().filter_map(|t| t.name.as_ref());
    // Only a name outside ASCII is reported: without one, no skeleton is worth computing.
    if names().all(|n| n.value.is_ascii()) {
        return Vec::new();
    }
    let mut by_skeleton: HashMap<String, Vec<&Text<'static>>> = HashMap::new();
    for name in names() {
        by_skeleton
            .entry(skeleton(&name.value).collect())
            .or_default()
            .push(name);
    }
    let mut out = Vec::new();
    for names in by_skeleton.values_mut().filter(|n| n.len() > 1) {
        // The name each imitates is the first, in this order, of another spelling: the
        // group is sorted once (each name looked through the whole group: 40,000 took 17 s).
        names.sort_by_key(|o| (!o.value.is_ascii(), o.file.display(), o.span.start));
        let first = names[0];
        let other_than_first = names.iter().find(|o| o.value != first.value).copied();
        for name in names.iter().filter(|n| !n.value.is_ascii()) {
            let original = if name.value != first.value {
                first
            } else {
                let Some(other) = other_than_first else {
                    continue;
                };
                other
            };
            let at = original.file.position(original.span.start);
            out.push(
                Diagnostic::new(
                    &sec::CONFUSABLE_NAME,
                    &name.file,
                    name.span,
                    format!(
                        "the tool name `{}` looks the same as `{}` ({}:{})",
                        visible(&name.value),
                        visible(&original.value),
                        visible(original.file.display()),
                        at.line
                    ),
                )
                .label("look-alike name")
                .related(&original.file, original.span, "the tool it looks like")
                .note("a model choosing tools by name, and a reviewer reading the list, cannot tell the two apart: calls meant for one can go to the other")
                .help("rename it with plain letters, or remove the impersonating tool"),
            );
        }
    }
    out
}
