//! The file name: `TR-YYYYMMDD-HHMMSSZ-<slug>.md` (TRQ022), its time agreeing with
//! `created_utc` (TRQ023), and the ISO-8601 timestamps both are read with.

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
                .maybe_help(created.and_then(|c| suggested_name(c.secs, &name)).map(|n| format!("rename it to `{n}`")));
            self.push(d);
            return;
        };
        let Some(created) = created else { return };
        if created.secs == stamp {
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
            .maybe_help(suggested_name(created.secs, &name).map(|n| format!("rename the file to `{n}`, or fix `created_utc`")));
        self.push(d);
    }
}

// ── time ────────────────────────────────────────────────────────────────────────────────

/// Seconds since the epoch of an ISO-8601 date or date-time (extended format).
pub(super) fn parse_timestamp(s: &str) -> Result<i64, String> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = b.get(from..from + len)?;
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| std::str::from_utf8(part).ok()?.parse().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (num(0, 4), num(5, 2), num(8, 2)) else {
        return Err(format!("expected `YYYY-MM-DDTHH:MM:SSZ`, found `{s}`"));
    };
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return Err(format!("expected `YYYY-MM-DDTHH:MM:SSZ`, found `{s}`"));
    }
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return Err(format!("`{}` is not a calendar date", &s[..10]));
    }
    let mut secs = days_from_civil(year, month, day) * 86_400;
    if b.len() == 10 {
        return Ok(secs);
    }
    if !matches!(b[10], b'T' | b't' | b' ') {
        return Err("the date and the time must be separated by `T`".into());
    }
    let (Some(hour), Some(minute)) = (num(11, 2), num(14, 2)) else {
        return Err("expected the time as `HH:MM:SS`".into());
    };
    if b.get(13) != Some(&b':') || hour > 23 || minute > 59 {
        return Err("expected the time as `HH:MM:SS`".into());
    }
    let mut i = 16;
    let mut second = 0;
    if b.get(i) == Some(&b':') {
        second = num(i + 1, 2)
            .filter(|s| *s <= 60)
            .ok_or("the seconds are not `00`–`59`")?;
        i += 3;
        if matches!(b.get(i), Some(b'.' | b',')) {
            i += 1;
            let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return Err("a decimal point must be followed by digits".into());
            }
            i += digits;
        }
    }
    secs += hour * 3600 + minute * 60 + second;
    match &b[i..] {
        [] | [b'Z'] | [b'z'] => Ok(secs),
        [sign @ (b'+' | b'-'), rest @ ..] => {
            let (h, m) = match rest {
                [h1, h2] => (
                    num(i + 1, 2).filter(|_| h1.is_ascii_digit() && h2.is_ascii_digit()),
                    Some(0),
                ),
                [_, _, b':', _, _] => (num(i + 1, 2), num(i + 4, 2)),
                [_, _, _, _] => (num(i + 1, 2), num(i + 3, 2)),
                _ => (None, None),
            };
            let (Some(h), Some(m)) = (h, m) else {
                return Err("the UTC offset must be `Z` or `±HH:MM`".into());
            };
            let offset = h * 3600 + m * 60;
            Ok(if *sign == b'+' {
                secs - offset
            } else {
                secs + offset
            })
        }
        _ => Err(format!("unexpected `{}` after the time", &s[i..])),
    }
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `20250131-140500Z` for a time.
fn compact_stamp(secs: i64) -> String {
    let (y, mo, d) = civil_from_days(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    format!(
        "{y:04}{mo:02}{d:02}-{:02}{:02}{:02}Z",
        t / 3600,
        t % 3600 / 60,
        t % 60
    )
}

fn format_stamp(secs: i64) -> String {
    let (y, mo, d) = civil_from_days(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}Z",
        t / 3600,
        t % 3600 / 60,
        t % 60
    )
}

/// The time in a `TR-YYYYMMDD-HHMMSSZ-<slug>.md` name, when the name has that shape.
fn file_name_stamp(name: &str) -> Option<i64> {
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
fn suggested_name(created: i64, current: &str) -> Option<String> {
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
    fn timestamps() {
        assert_eq!(parse_timestamp("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(parse_timestamp("1970-01-01T01:00:00+01:00"), Ok(0));
        assert_eq!(
            parse_timestamp("2025-01-31"),
            Ok(days_from_civil(2025, 1, 31) * 86_400)
        );
        assert!(parse_timestamp("2025-02-30T00:00:00Z").is_err());
        assert!(parse_timestamp("yesterday").is_err());
        assert!(parse_timestamp("2025-01-31T25:00:00Z").is_err());
        assert_eq!(
            compact_stamp(parse_timestamp("2025-01-31T14:05:09Z").unwrap_or(0)),
            "20250131-140509Z"
        );
        assert_eq!(
            file_name_stamp("TR-20250131-140509Z-csv-summary.md"),
            parse_timestamp("2025-01-31T14:05:09Z").ok()
        );
        assert_eq!(file_name_stamp("TR-summary.md"), None);
    }
}
