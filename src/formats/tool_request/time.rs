//! The request's ISO-8601 timestamps (`created_utc`, `approved_utc`, the file name's time),
//! read and written with `jiff`; the shape checks only pick the message a reviewer sees.

use jiff::Timestamp;
use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;

/// An ISO-8601 date or date-time (extended format) as an instant, to the second. A date
/// alone is midnight UTC, and so is a date-time without an offset.
pub(super) fn parse_timestamp(s: &str) -> Result<Timestamp, String> {
    let b = s.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        b.get(range)
            .is_some_and(|part| part.iter().all(u8::is_ascii_digit))
    };
    if !(digits(0..4) && digits(5..7) && digits(8..10) && b[4] == b'-' && b[7] == b'-') {
        return Err(format!("expected `YYYY-MM-DDTHH:MM:SSZ`, found `{s}`"));
    }
    let date: Date = s[..10]
        .parse()
        .map_err(|_| format!("`{}` is not a calendar date", &s[..10]))?;
    if b.len() == 10 {
        return utc(date.to_datetime(jiff::civil::Time::midnight()));
    }
    if !matches!(b[10], b'T' | b't' | b' ') {
        return Err("the date and the time must be separated by `T`".into());
    }
    // `YYYY-MM-DDTHH:MM`, at least: jiff also reads compact times (`T1405`), which this
    // format does not allow.
    if !(digits(11..13) && b.get(13) == Some(&b':') && digits(14..16)) {
        return Err("expected the time as `HH:MM:SS`".into());
    }
    let has_offset = s[11..].contains(['Z', 'z', '+', '-']);
    let parsed = if has_offset {
        s.parse::<Timestamp>().ok()
    } else {
        s.parse::<DateTime>().ok().and_then(|dt| utc(dt).ok())
    };
    let Some(at) = parsed else {
        // A date-time that reads but has no instant: the offset carries it past year 9999.
        if has_offset && s.parse::<DateTime>().is_ok() {
            return Err(format!(
                "`{s}` is past the last supported year once the UTC offset is applied"
            ));
        }
        return Err(format!(
            "`{}` is not a time of day `HH:MM:SS` followed by `Z` or a UTC offset `±HH:MM`",
            &s[11..]
        ));
    };
    // Fractions of a second do not count: the file name has none.
    Timestamp::from_second(at.as_second()).map_err(|e| e.to_string())
}

fn utc(dt: DateTime) -> Result<Timestamp, String> {
    TimeZone::UTC.to_timestamp(dt).map_err(|e| e.to_string())
}

/// `20250131-140500Z`, the file name's form of a time.
pub(super) fn compact_stamp(at: Timestamp) -> String {
    at.strftime("%Y%m%d-%H%M%SZ").to_string()
}

/// `2025-01-31T14:05:00Z`.
pub(super) fn format_stamp(at: Timestamp) -> String {
    at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: &str) -> Result<i64, String> {
        parse_timestamp(s).map(|t| t.as_second())
    }

    #[test]
    fn accepted_forms() {
        assert_eq!(secs("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(secs("1970-01-01T01:00:00+01:00"), Ok(0));
        assert_eq!(secs("1970-01-01t01:00:00+0100"), Ok(0));
        assert_eq!(secs("1970-01-01 01:00:00+01"), Ok(0));
        assert_eq!(secs("1970-01-01T00:00:00z"), Ok(0));
        assert_eq!(secs("1970-01-01T00:01"), Ok(60));
        assert_eq!(secs("1970-01-01T00:00:01.75Z"), Ok(1));
        assert_eq!(secs("1970-01-01T00:00:01,5Z"), Ok(1));
        assert_eq!(secs("1970-01-02"), Ok(86_400));
        assert_eq!(secs("1970-01-01T00:00:60Z"), Ok(59));
        assert_eq!(
            secs("9999-12-31T23:59:60.5-23:59"),
            Err("`9999-12-31T23:59:60.5-23:59` is past the last supported year once the UTC offset is applied".into())
        );
        assert_eq!(secs("2025-01-31"), Ok(1_738_281_600));
    }

    #[test]
    fn rejected_forms_say_why() {
        assert_eq!(
            secs("31/01/2025"),
            Err("expected `YYYY-MM-DDTHH:MM:SSZ`, found `31/01/2025`".into())
        );
        assert_eq!(
            secs("2025-02-30T00:00:00Z"),
            Err("`2025-02-30` is not a calendar date".into())
        );
        assert_eq!(
            secs("2025-01-31_10:00:00Z"),
            Err("the date and the time must be separated by `T`".into())
        );
        assert_eq!(
            secs("2025-01-31T1005Z"),
            Err("expected the time as `HH:MM:SS`".into())
        );
        assert!(secs("2025-01-31T25:00:00Z").is_err());
        assert!(secs("2025-01-31T10:00:00+99:99").is_err());
        assert!(secs("2025-01-31T10:00:00Q").is_err());
        assert!(secs("yesterday").is_err());
        assert!(secs("").is_err());
    }

    #[test]
    fn written_back() {
        let at = parse_timestamp("2025-01-31T14:05:09+01:00").expect("valid");
        assert_eq!(compact_stamp(at), "20250131-130509Z");
        assert_eq!(format_stamp(at), "2025-01-31T13:05:09Z");
    }
}
