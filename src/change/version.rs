//! A tool's own version against its changes: a breaking change needs a major bump (for `0.x`,
//! a minor one, as Cargo reads semver), and a version never goes down.

use std::cmp::Ordering;

use super::Pair;
use crate::diagnostics::Diagnostic;
use crate::rules::breaking as rules;

/// Related places listed on one BRK040 before the rest are only counted.
const MAX_LISTED: usize = 10;

/// A version as `MAJOR[.MINOR[.PATCH]][-PRE][+BUILD]`, with an optional leading `v`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Version {
    major: u64,
    minor: u64,
    patch: u64,
    pre: Option<String>,
}

impl Version {
    /// Parse a version; `None` when it is not one.
    pub(super) fn parse(text: &str) -> Option<Version> {
        let text = text.trim();
        let text = text.strip_prefix(['v', 'V']).unwrap_or(text);
        let text = text.split('+').next()?;
        let (core, pre) = match text.split_once('-') {
            Some((core, pre)) => (core, Some(pre.to_string())),
            None => (text, None),
        };
        let mut parts = core.split('.');
        let mut next = || -> Option<u64> {
            match parts.next() {
                Some(p) => p.parse().ok(),
                None => Some(0),
            }
        };
        let (major, minor, patch) = (next()?, next()?, next()?);
        if parts.next().is_some() {
            return None;
        }
        Some(Version {
            major,
            minor,
            patch,
            pre,
        })
    }

    /// True when `self` is a breaking-change bump of `old`.
    fn breaks_from(&self, old: &Version) -> bool {
        if old.major == 0 {
            self.major > 0 || self.minor > old.minor
        } else {
            self.major > old.major
        }
    }

    /// The smallest breaking-change bump of `self`.
    fn next_breaking(&self) -> String {
        if self.major == 0 {
            format!("0.{}.0", self.minor + 1)
        } else {
            format!("{}.0.0", self.major + 1)
        }
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Version) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            // A pre-release comes before its release.
            .then_with(|| match (&self.pre, &other.pre) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (Some(a), Some(b)) => a.cmp(b),
            })
    }
}

/// BRK041 when the version went down, else BRK040 when `breaking` (the tool's error-level
/// findings) is not empty and the version has no major bump.
pub(super) fn check(pair: &Pair<'_>, breaking: &[&Diagnostic]) -> Option<Diagnostic> {
    let (Some(old_text), Some(new_text)) = (&pair.old.tool.version, &pair.new.tool.version) else {
        return None;
    };
    let (old, new) = (Version::parse(old_text)?, Version::parse(new_text)?);
    let name = &pair.new.tool.name;
    let new_span = pair.new_site(pair.new.sites.version);
    let old_span = pair.old_site(pair.old.sites.version);
    let before = format!("in {}: version `{old_text}`", pair.base);
    if new < old {
        return Some(
            Diagnostic::new(
                &rules::VERSION_DECREASED,
                pair.new.file,
                new_span,
                format!("the version of `{name}` went down from `{old_text}` to `{new_text}`"),
            )
            .label("lower than before")
            .related(pair.old.file, old_span, before)
            .note("consumers that pin or cache by version take the new definition for an old one")
            .help(format!("give it a version above `{old_text}`")),
        );
    }
    if breaking.is_empty() || new.breaks_from(&old) {
        return None;
    }
    let mut d = Diagnostic::new(
        &rules::MAJOR_BUMP_MISSING,
        pair.new.file,
        new_span,
        format!(
            "`{name}` has {} breaking change(s) but its version went from `{old_text}` to `{new_text}`",
            breaking.len()
        ),
    )
    .label("needs a major bump")
    .related(pair.old.file, old_span, before);
    for b in breaking.iter().take(MAX_LISTED) {
        d = d.related(&b.file, b.span, format!("breaking: {}", b.message));
    }
    if breaking.len() > MAX_LISTED {
        d = d.note(format!(
            "and {} more breaking change(s)",
            breaking.len() - MAX_LISTED
        ));
    }
    Some(
        d.note("consumers that accept any compatible version take this one and break")
            .help(format!(
                "set the version to `{}` (or undo the breaking changes)",
                old.next_breaking()
            )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).expect(s)
    }

    #[test]
    fn versions_parse_and_order() {
        assert!(v("1.2.3") < v("1.10.0"));
        assert!(v("v2") > v("1.9.9"));
        assert!(v("1.0.0-beta") < v("1.0.0"));
        assert_eq!(v("1.2"), v("1.2.0"));
        assert!(Version::parse("one").is_none());
        assert!(Version::parse("1.2.3.4").is_none());
    }

    #[test]
    fn major_bumps_and_the_zero_series() {
        assert!(v("2.0.0").breaks_from(&v("1.4.0")));
        assert!(!v("1.5.0").breaks_from(&v("1.4.0")));
        assert!(v("0.3.0").breaks_from(&v("0.2.9")));
        assert!(!v("0.2.10").breaks_from(&v("0.2.9")));
        assert_eq!(v("1.4.0").next_breaking(), "2.0.0");
        assert_eq!(v("0.2.9").next_breaking(), "0.3.0");
    }
}
