//! Release numbers of runtimes: `major.minor.patch`, ordered.

use std::fmt;

/// A runtime release, `major.minor.patch` (a missing part is 0).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Version {
    /// Major number.
    pub major: u32,
    /// Minor number.
    pub minor: u32,
    /// Patch number.
    pub patch: u32,
}

impl Version {
    /// `major.minor.patch`.
    pub const fn new(major: u32, minor: u32, patch: u32) -> Version {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Parse `1`, `1.2` or `1.2.3` (a leading `v` is allowed); None for anything else.
    pub fn parse(text: &str) -> Option<Version> {
        let text = text.trim();
        let text = text.strip_prefix('v').unwrap_or(text);
        let mut parts = text.split('.');
        let mut next = |required: bool| match parts.next() {
            None if !required => Some(0),
            Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => p.parse().ok(),
            _ => None,
        };
        let v = Version::new(next(true)?, next(false)?, next(false)?);
        parts.next().is_none().then_some(v)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_orders_releases() {
        assert_eq!(Version::parse("1.0.9"), Some(Version::new(1, 0, 9)));
        assert_eq!(Version::parse("v1.1"), Some(Version::new(1, 1, 0)));
        assert_eq!(Version::parse("2"), Some(Version::new(2, 0, 0)));
        for bad in ["", "1.", "1.2.3.4", "latest", "1.x", "-1", "1.2.3-rc1"] {
            assert_eq!(Version::parse(bad), None, "{bad}");
        }
        assert!(Version::new(1, 0, 9) < Version::new(1, 1, 0));
        assert_eq!(Version::new(1, 2, 2).to_string(), "1.2.2");
    }
}
