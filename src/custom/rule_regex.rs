//! The regular expressions of custom rules (`pattern`, `notPattern`), compiled within a
//! budget the process shares: an expression of twenty characters can compile to megabytes
//! (`(\w+\s*){100}`: 6 MB), and 200 of them in a 35 KB `toolc.toml` took 1.3 GB.

use std::sync::atomic::{AtomicUsize, Ordering};

use regex::{Regex, RegexBuilder};

/// Bytes the custom rules' expressions may hold at once, compiled and matching.
const TOTAL: usize = 64 << 20;

/// The program sizes an expression may compile to, tried in order: most take a few
/// kilobytes, and hold the first; a larger one holds the next it fits.
const TIERS: [usize; 3] = [64 << 10, 256 << 10, 1 << 20];

static LEFT: AtomicUsize = AtomicUsize::new(TOTAL);

/// A custom rule's compiled expression, holding its part of the budget until it is dropped
/// (the language server compiles a configuration again when it changes).
#[derive(Debug)]
pub struct RuleRegex {
    regex: Regex,
    held: usize,
    left: &'static AtomicUsize,
}

/// Why an expression is not compiled.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum RegexError {
    /// It does not compile, or compiles past the larger tier: the crate's own words.
    Invalid(String),
    /// The budget is spent by the expressions compiled before it.
    Spent,
}

impl RuleRegex {
    /// Compile `text` within the process's budget.
    pub(crate) fn new(text: &str) -> Result<RuleRegex, RegexError> {
        RuleRegex::within(text, &LEFT)
    }

    /// Compile `text` within the budget `left`.
    fn within(text: &str, left: &'static AtomicUsize) -> Result<RuleRegex, RegexError> {
        for (i, size) in TIERS.into_iter().enumerate() {
            // The program, and the cache a match builds.
            let held = 2 * size;
            left.fetch_update(Ordering::AcqRel, Ordering::Acquire, |l| l.checked_sub(held))
                .map_err(|_| RegexError::Spent)?;
            let built = RegexBuilder::new(text)
                .size_limit(size)
                .dfa_size_limit(size)
                .build();
            match built {
                Ok(regex) => return Ok(RuleRegex { regex, held, left }),
                Err(e) => {
                    left.fetch_add(held, Ordering::AcqRel);
                    let larger = i + 1 < TIERS.len();
                    if !(larger && matches!(e, regex::Error::CompiledTooBig(_))) {
                        return Err(RegexError::Invalid(e.to_string()));
                    }
                }
            }
        }
        Err(RegexError::Spent)
    }
}

impl std::ops::Deref for RuleRegex {
    type Target = Regex;

    fn deref(&self) -> &Regex {
        &self.regex
    }
}

impl Drop for RuleRegex {
    fn drop(&mut self) {
        self.left.fetch_add(self.held, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_hold_the_budget_until_dropped() {
        static LEFT: AtomicUsize = AtomicUsize::new(6 * TIERS[0]);
        let small = RuleRegex::within("^[a-z]+$", &LEFT).expect("compiles");
        assert!(small.is_match("abc"));
        assert_eq!(LEFT.load(Ordering::Acquire), 4 * TIERS[0]);
        // Past the smaller tier, and past what is left for the larger.
        assert_eq!(
            RuleRegex::within(r"(\w+\s*){8}", &LEFT).err(),
            Some(RegexError::Spent)
        );
        let more: Vec<RuleRegex> = (0..2)
            .map(|_| RuleRegex::within("a|b", &LEFT).expect("compiles"))
            .collect();
        assert_eq!(RuleRegex::within("c", &LEFT).err(), Some(RegexError::Spent));
        drop(more);
        drop(small);
        assert_eq!(LEFT.load(Ordering::Acquire), 6 * TIERS[0]);
    }

    #[test]
    fn an_expression_past_the_larger_tier_is_invalid() {
        static LEFT: AtomicUsize = AtomicUsize::new(TOTAL);
        let e = RuleRegex::within(r"(\w+\s*){100}", &LEFT).err();
        assert!(
            matches!(&e, Some(RegexError::Invalid(m)) if m.contains("size limit")),
            "{e:?}"
        );
        assert_eq!(LEFT.load(Ordering::Acquire), TOTAL);
    }
}
