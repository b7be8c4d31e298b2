//! What the file is: `spec_version`, `tool_id` and the tool's own `version` (strict
//! semantic versioning, with the mechanical fixes).

use super::super::{Spanned, id_problem, is_valid_id, suggest_id};
use crate::diagnostics::{Applicability, Fix};
use crate::formats::fields::{Lowerer, MapRef, replace_exact};
use crate::rules::tool_md as rules;
use crate::syntax::NodeKind;

pub(super) fn spec_version(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(e) = lw.required(map, "spec_version") else {
        return;
    };
    match &e.value.kind {
        NodeKind::String(s) if !is_version_string(s) => {
            let d = lw
                .diag(
                    &rules::INVALID_FIELD_VALUE,
                    e.value.span(),
                    format!("`spec_version` must be an AML version string such as `\"1.2\"`, found `{s}`"),
                )
                .label("not a version string")
                .note("the platform accepts only the AML versions it has approved, written as `MAJOR.MINOR`")
                .help("write the AML version this file follows, e.g. `spec_version: \"1.2\"`");
            lw.push(d);
        }
        NodeKind::String(_) => {}
        NodeKind::Number(_) => {
            let raw = lw.file.slice(e.value.span()).to_string();
            let d = lw
                .diag(
                    &rules::WRONG_FIELD_TYPE,
                    e.value.span(),
                    format!("`spec_version` must be a string, found the number `{raw}`"),
                )
                .label("a number, not a string")
                .note(
                    "YAML reads an unquoted `1.20` as the number 1.2, so the version would change",
                )
                .help(format!("quote it: `spec_version: \"{raw}\"`"))
                .fix(Fix::safe(e.value.span(), format!("\"{raw}\"")));
            lw.push(d);
        }
        _ => lw.wrong_type(&e.value, "spec_version", "a string"),
    }
}

/// `1.2` or `1.2.3`.
fn is_version_string(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    (2..=3).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

pub(super) fn tool_id(lw: &mut Lowerer<'_>, map: MapRef<'_>) -> Option<Spanned<String>> {
    let (id, span) = lw.required_str(map, "tool_id", 0, usize::MAX)?;
    if is_valid_id(id) {
        return Some(Spanned {
            value: id.to_string(),
            span,
        });
    }
    let d = lw
        .diag(
            &rules::INVALID_TOOL_ID,
            span,
            format!("tool id `{id}` does not match ^[a-z0-9_-]{{3,64}}$"),
        )
        .label(id_problem(id))
        .note("agents reference tools by this id; the compiler rejects the tool file, so no agent can use it")
        .help(match suggest_id(id) {
            Some(s) => format!("use `{s}` (and name the file `{s}.tool.md`)"),
            None => "use 3 to 64 lowercase letters, digits, `_` or `-`".to_string(),
        })
        .maybe_fix(
            suggest_id(id).and_then(|s| replace_exact(lw.file, span, id, &s, Applicability::Unsafe)),
        );
    lw.push(d);
    None
}

pub(super) fn version(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(e) = lw.required(map, "version") else {
        return;
    };
    let (problem, fix) = match &e.value.kind {
        NodeKind::String(s) => match semver_problem(s) {
            Some(p) => (format!("`{s}` {}", p.0), p.1),
            None => return,
        },
        NodeKind::Number(_) => {
            let raw = lw.file.slice(e.value.span()).to_string();
            let fix = pad_version(&raw);
            (format!("the number `{raw}` is not a version string"), fix)
        }
        _ => {
            lw.wrong_type(&e.value, "version", "a `MAJOR.MINOR.PATCH` string");
            return;
        }
    };
    let d = lw
        .diag(
            &rules::INVALID_VERSION,
            e.value.span(),
            format!("`version` must be MAJOR.MINOR.PATCH: {problem}"),
        )
        .label("not a strict semantic version")
        .help(match &fix {
            Some(f) => format!("write `version: \"{f}\"`"),
            None => "write three numbers, e.g. `version: \"1.0.0\"`".to_string(),
        })
        .maybe_fix(fix.map(|f| Fix::unsafe_(e.value.span(), format!("\"{f}\""))));
    lw.push(d);
}

/// Why `s` is not strict `MAJOR.MINOR.PATCH` (no prefix, no suffix, no leading zeros), and
/// the corrected version when the fix is mechanical.
fn semver_problem(s: &str) -> Option<(String, Option<String>)> {
    if is_strict_semver(s) {
        return None;
    }
    if let Some(rest) = s.strip_prefix(['v', 'V']) {
        let fix = is_strict_semver(rest).then(|| rest.to_string());
        return Some(("has a `v` prefix".to_string(), fix));
    }
    if let Some(i) = s.find(['-', '+']) {
        let core = &s[..i];
        let fix = is_strict_semver(core).then(|| core.to_string());
        return Some((
            format!(
                "has a pre-release or build suffix `{}`, which tool versions may not have",
                &s[i..]
            ),
            fix,
        ));
    }
    let parts: Vec<&str> = s.split('.').collect();
    let numeric = parts
        .iter()
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    if numeric && parts.len() < 3 {
        return Some((
            format!("has {} of the three numbers", parts.len()),
            pad_version(s),
        ));
    }
    if numeric && parts.len() == 3 {
        let fixed: Vec<String> = parts
            .iter()
            .map(|p| {
                let t = p.trim_start_matches('0');
                if t.is_empty() { "0" } else { t }.to_string()
            })
            .collect();
        return Some(("has a leading zero".to_string(), Some(fixed.join("."))));
    }
    Some(("is not three dot-separated numbers".to_string(), None))
}

fn is_strict_semver(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 18
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
        })
}

/// `1` → `1.0.0`, `1.2` → `1.2.0`.
fn pad_version(s: &str) -> Option<String> {
    let mut parts: Vec<&str> = s.split('.').collect();
    if parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    while parts.len() < 3 {
        parts.push("0");
    }
    let v = parts.join(".");
    is_strict_semver(&v).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert!(semver_problem("1.0.0").is_none());
        assert_eq!(
            semver_problem("v1.0.0").unwrap().1.as_deref(),
            Some("1.0.0")
        );
        assert_eq!(
            semver_problem("1.0.0-beta").unwrap().1.as_deref(),
            Some("1.0.0")
        );
        assert_eq!(semver_problem("1.2").unwrap().1.as_deref(), Some("1.2.0"));
        assert_eq!(
            semver_problem("01.2.3").unwrap().1.as_deref(),
            Some("1.2.3")
        );
        assert!(semver_problem("one").unwrap().1.is_none());
        assert!(is_version_string("1.2") && !is_version_string("v1"));
    }
}
