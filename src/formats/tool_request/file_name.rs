//! The file name: `TR-YYYYMMDD-HHMMSSZ-<slug>.md` (TRQ022), and its time agreeing with
//! `created_utc` (TRQ023).

use jiff::Timestamp;

use super::time::{compact_stamp, format_stamp, parse_timestamp};
use super::{Cx, Stamp, rules};
use crate::source::Span;

impl Cx<'_> {
    /// TRQ022/TRQ023 on the file's own name.
    pub(super) fn file_name(&mut self, created: Option<&Stamp>) {
        let name = self
            .file
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let at = Span::point(self.file.bom_len);
        let Some(stamp) = file_name_stamp(&name) else {
            let d = self
                .diag(&rules::NONSTANDARD_FILE_NAME, at, format!("file name `{name}` does not follow `TR-YYYYMMDD-HHMMSSZ-<slug>.md`"))
                .label("file name")
                .note("the spec recommends the creation time and a slug in the name, so requests sort by time and can be found by what they do")
                .maybe_help(created.and_then(|c| suggested_name(c.at, &name)).map(|n| format!("rename it to `{n}`")));
            self.push(d);
            return;
        };
        let Some(created) = created else { return };
        if created.at == stamp {
            return;
        }
        let d = self
            .diag(
                &rules::FILE_NAME_TIMESTAMP_MISMATCH,
                created.span,
                format!("`created_utc` ({}) is not the time in the file name ({})", created.text, format_stamp(stamp)),
            )
            .label("differs from the file name")
            .note("the file name's timestamp is meant to be the creation time: a mismatch suggests a copied or edited request")
            .maybe_help(suggested_name(created.at, &name).map(|n| format!("rename the file to `{n}`, or fix `created_utc`")));
        self.push(d);
    }
}

/// The time in a `TR-YYYYMMDD-HHMMSSZ-<slug>.md` name, when the name has that shape.
fn file_name_stamp(name: &str) -> Option<Timestamp> {
    let rest = name.strip_prefix("TR-")?.strip_suffix(".md")?;
    let b = rest.as_bytes();
    if b.len() < 18 || b[8] != b'-' || b[15] != b'Z' || b[16] != b'-' {
        return None;
    }
    let slug = rest.get(17..)?;
    let slug_ok = slug.starts_with(|c: char| c.is_ascii_alphanumeric())
        && slug
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !slug_ok {
        return None;
    }
    let iso = format!(
        "{}-{}-{}T{}:{}:{}Z",
        rest.get(0..4)?,
        rest.get(4..6)?,
        rest.get(6..8)?,
        rest.get(9..11)?,
        rest.get(11..13)?,
        rest.get(13..15)?
    );
    parse_timestamp(&iso).ok()
}

/// `TR-<created>-<slug>.md`, keeping what looks like a slug from the current name.
fn suggested_name(created: Timestamp, current: &str) -> Option<String> {
    let stem = current.strip_suffix(".md").unwrap_or(current);
    let stem = stem.strip_prefix("TR-").unwrap_or(stem);
    let slug: String = stem
        .split('-')
        .filter(|part| !part.is_empty() && !part.chars().all(|c| c.is_ascii_digit() || c == 'Z'))
        .collect::<Vec<_>>()
        .join("-")
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let slug = slug.trim_matches('-');
    let slug = if slug.is_empty() { "request" } else { slug };
    Some(format!("TR-{}-{slug}.md", compact_stamp(created)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_in_file_names() {
        assert_eq!(
            file_name_stamp("TR-20250131-140509Z-csv-summary.md"),
            parse_timestamp("2025-01-31T14:05:09Z").ok()
        );
        assert_eq!(file_name_stamp("TR-summary.md"), None);
        assert_eq!(file_name_stamp("TR-20250231-140509Z-x.md"), None);
        assert_eq!(file_name_stamp("TR-20250131-140509Z-.md"), None);
    }

    #[test]
    fn suggested_names_keep_the_slug() {
        let created = parse_timestamp("2025-01-31T14:05:09Z").ok();
        let created = created.expect("a valid time");
        assert_eq!(
            suggested_name(created, "TR-20240101-000000Z-csv-summary.md").as_deref(),
            Some("TR-20250131-140509Z-csv-summary.md")
        );
        assert_eq!(
            suggested_name(created, "Sales Report.md").as_deref(),
            Some("TR-20250131-140509Z-sales-report.md")
        );
    }
}
