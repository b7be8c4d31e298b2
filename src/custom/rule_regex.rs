//! The regular expressions of custom rules (`pattern`, `notPattern`), compiled within a
//! budget the process shares: an expression of twenty characters can compile to megabytes
//! (`(\w+\s*){100}`: 6 MB), and 200 of them in a 35 KB `toolc.toml` took 1.3 GB.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

use regex::{Regex, RegexBuilder};

/// Bytes the custom rules' expressions may hold at once, compiled and matching.
const TOTAL: usize = 64 << 20;

/// The program sizes an expression may compile to, tried in order: most take a few
/// kilobytes, and hold the first; a larger one holds the next it fits.
const TIERS: [usize; 3] = [64 << 10, 256 << 10, 1 << 20];

static LEFT: AtomicUsize = AtomicUsize::new(TOTAL);

/// The expressions compiled and still held, by their text: the same expression is compiled
/// and held once however many configurations name it (each nested `toolc.toml` that extends
/// the root compiles the root's rules again; the language server holds the old configuration
/// while it reads the new).
static SHARED: Mutex<Option<HashMap<Box<str>, Weak<Compiled>>>> = Mutex::new(None);

/// A custom rule's compiled expression, holding its part of the budget until the last rule
/// that names it is dropped.
#[derive(Debug, Clone)]
pub struct RuleRegex(Arc<Compiled>);

#[derive(Debug)]
struct Compiled {
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
    /// Compile `text` within the process's budget, or share it where it is held already.
    pub(crate) fn new(text: &str) -> Result<RuleRegex, RegexError> {
        let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        let shared = shared.get_or_insert_with(HashMap::new);
        if let Some(held) = shared.get(text).and_then(Weak::upgrade) {
            return Ok(RuleRegex(held));
        }
        let compiled = Arc::new(compile(text, &LEFT)?);
        if shared.len() >= 1024 && shared.len().is_power_of_two() {
            shared.retain(|_, held| held.strong_count() > 0);
        }
        shared.insert(text.into(), Arc::downgrade(&compiled));
        Ok(RuleRegex(compiled))
    }

    /// Compile `text` within the budget `left`, held by this rule alone.
    #[cfg(test)]
    fn within(text: &str, left: &'static AtomicUsize) -> Result<RuleRegex, RegexError> {
        compile(text, left).map(|c| RuleRegex(Arc::new(c)))
    }
}

/// Compile `text` within the budget `left`.
fn compile(text: &str, left: &'static AtomicUsize) -> Result<Compiled, RegexError> {
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
            Ok(regex) => return Ok(Compiled { regex, held, left }),
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

impl std::ops::Deref for RuleRegex {
    type Target = Regex;

    fn deref(&self) -> &Regex {
        &self.0.regex
    }
}

impl Drop for Compiled {
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
    fn the_same_expression_is_held_once() {
        let text = "^shared-by-name-[a-z]+$";
        let one = RuleRegex::new(text).expect("compiles");
        let two = RuleRegex::new(text).expect("compiles");
        assert!(Arc::ptr_eq(&one.0, &two.0));
        assert!(two.is_match("shared-by-name-x"));
        drop(one);
        drop(two);
        let three = RuleRegex::new(text).expect("compiles");
        assert_eq!(Arc::strong_count(&three.0), 1);
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
