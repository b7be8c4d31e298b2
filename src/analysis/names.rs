//! Names: "did you mean" among known names, and the nearest valid name for an invalid one.

use std::collections::HashMap;

/// The candidate closest to `name` (case-insensitive Jaro-Winkler, at least 0.84), if any:
/// the "did you mean `x`?" of a misspelt key, value or reference.
pub(crate) fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if name.len() > MAX_SUGGESTED {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    candidates
        .into_iter()
        .filter(|c| c.len() <= MAX_SUGGESTED)
        .map(|c| (strsim::jaro_winkler(&lower, &c.to_ascii_lowercase()), c))
        .filter(|(score, _)| *score >= 0.84)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// [`did_you_mean`] among `count` candidates while `budget`, the comparisons a file may
/// still spend, lasts: a file of many missing names and many candidates stays linear.
pub(crate) fn did_you_mean_within<'a>(
    budget: &mut usize,
    name: &str,
    count: usize,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    *budget = budget.checked_sub(count)?;
    did_you_mean(name, candidates)
}

/// The longest name "did you mean" compares: a comparison costs the product of the two
/// lengths (two names of 100 KB: 7 s), and no one misspells a name that long.
const MAX_SUGGESTED: usize = 256;

/// Comparisons "did you mean" may spend on one file's (or one value's) missing names, for
/// [`did_you_mean_within`].
pub(crate) const SUGGESTION_BUDGET: usize = 100_000;

/// Roots of the key names that carry safety meaning: a human approval or confirmation gate,
/// permissions, a policy, network access.
const SAFETY_ROOTS: &[&str] = &["approv", "confirm", "permission", "polic", "network"];

/// True when `key`, unknown, is a near misspelling (at most two edits) of `known`, a key that
/// carries safety meaning: the gate it was written to set is silently not in effect.
pub(crate) fn misspelt_safety_key(key: &str, known: &str) -> bool {
    // Two edits change the length by two at most; the distance costs the product of the
    // lengths (and as much memory), so a key of megabytes is never compared.
    is_safety_key(known)
        && within_two_in_length(key, known)
        && strsim::damerau_levenshtein(&key.to_ascii_lowercase(), &known.to_ascii_lowercase()) <= 2
}

/// Whether `a` and `b` differ in length by two characters at most, counting `a` no further
/// than that needs.
fn within_two_in_length(a: &str, b: &str) -> bool {
    let b_chars = b.chars().count();
    let a_chars = a.chars().take(b_chars + 3).count();
    a_chars.abs_diff(b_chars) <= 2
}

/// True when `key` sets a safety gate (an approval, a permission, network access…).
pub(crate) fn is_safety_key(key: &str) -> bool {
    // Compared in place: asked of every known key of every mapping with an unknown one (a
    // tool of a million steps), a lower-case copy each time was a tenth of its load.
    SAFETY_ROOTS.iter().any(|r| {
        key.as_bytes()
            .windows(r.len())
            .any(|w| w.eq_ignore_ascii_case(r.as_bytes()))
    })
}

/// "Did you mean" over many names at once (every tool of a repository): only names with the
/// same first character are compared, and only until a budget of comparisons is spent, so a
/// repository full of misspelt references stays linear. Each name carries a value (an index)
/// for the caller.
pub(crate) struct Suggester<'a, T> {
    by_initial: HashMap<char, Vec<(&'a str, T)>>,
    budget: usize,
}

impl<'a, T: Copy> Suggester<'a, T> {
    /// A suggester over `names`, in the order given (ties go to the later name), allowed
    /// `budget` comparisons in all.
    pub(crate) fn new(
        names: impl IntoIterator<Item = (&'a str, T)>,
        budget: usize,
    ) -> Suggester<'a, T> {
        let mut by_initial: HashMap<char, Vec<(&'a str, T)>> = HashMap::new();
        for (name, value) in names {
            if let Some(c) = name.chars().next() {
                by_initial.entry(c).or_default().push((name, value));
            }
        }
        Suggester { by_initial, budget }
    }

    /// The closest name to `name` and its value, while the budget lasts.
    pub(crate) fn suggest(&mut self, name: &str) -> Option<(&'a str, T)> {
        let candidates = name
            .chars()
            .next()
            .and_then(|c| self.by_initial.get(&c))
            .map_or(&[][..], Vec::as_slice);
        if candidates.len() > self.budget {
            return None;
        }
        self.budget -= candidates.len();
        let best = did_you_mean(name, candidates.iter().map(|(n, _)| *n))?;
        candidates.iter().find(|(n, _)| *n == best).copied()
    }
}

/// The places of some names in name order: a name is found by binary search, not compared
/// with every name (a file of a million names, each looked up, was quadratic). The names
/// stay with the caller, which gives the name at a place.
#[derive(Debug, Default)]
pub(crate) struct NameOrder(Vec<u32>);

impl NameOrder {
    /// The order of `len` names, `name(i)` the one at place `i`.
    pub(crate) fn new<'n>(len: usize, name: impl Fn(u32) -> &'n str) -> NameOrder {
        let mut order: Vec<u32> = (0..len)
            .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
            .collect();
        order.sort_unstable_by(|a, b| name(*a).cmp(name(*b)).then(a.cmp(b)));
        NameOrder(order)
    }

    /// The place of the first name equal to `wanted`.
    pub(crate) fn first<'n>(&self, wanted: &str, name: impl Fn(u32) -> &'n str) -> Option<usize> {
        let at = self.0.partition_point(|&i| name(i) < wanted);
        let i = *self.0.get(at)?;
        (name(i) == wanted).then_some(i as usize)
    }

    /// The places, sorted by name, then place.
    pub(crate) fn sorted(&self) -> &[u32] {
        &self.0
    }
}

/// Names in the order given, looked up through their [`NameOrder`].
pub(crate) struct NameIndex<'a> {
    names: Vec<&'a str>,
    order: NameOrder,
}

impl<'a> NameIndex<'a> {
    /// The index of `names`, in the order given.
    pub(crate) fn new(names: Vec<&'a str>) -> NameIndex<'a> {
        let order = NameOrder::new(names.len(), |i| {
            names.get(i as usize).copied().unwrap_or("")
        });
        NameIndex { names, order }
    }

    /// The place of the first name equal to `name`.
    pub(crate) fn first(&self, name: &str) -> Option<usize> {
        self.order
            .first(name, |i| self.names.get(i as usize).copied().unwrap_or(""))
    }

    /// The names, in the order given.
    pub(crate) fn names(&self) -> &[&'a str] {
        &self.names
    }
}

/// What to do with a first character a name may not start with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leading {
    /// Drop characters until one may start the name.
    Drop,
    /// Put this character in front.
    Prefix(char),
}

/// A test on one character.
pub(crate) type CharClass = fn(char) -> bool;

/// Which characters may start a name, and what to do about any other.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FirstChar {
    /// True for a character a name may start with.
    pub may_start: CharClass,
    /// What to do when the first character may not.
    pub otherwise: Leading,
}

/// A naming rule, described well enough to turn any string into a name that follows it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NameStyle {
    /// Characters kept as written (after ASCII lowercasing when `lowercase`).
    pub keep: CharClass,
    /// Lowercase ASCII letters first.
    pub lowercase: bool,
    /// What every other character becomes.
    pub replacement: char,
    /// Kebab style: runs of replaced characters become one, and none is left at either
    /// end (`My Tool!` → `my-tool`). Otherwise each character is replaced on its own.
    pub collapse: bool,
    /// The characters a name may start with, when the rule restricts them.
    pub first: Option<FirstChar>,
    /// Longest name, in characters.
    pub max_len: usize,
}

/// A name every LLM provider accepts (OpenAI's and Anthropic's `^[a-zA-Z0-9_-]{1,64}$`,
/// which also starts as Gemini requires): other characters become `_`, a leading digit or
/// `-` gets a `_` before it, at most 64 characters.
pub(crate) const PORTABLE: NameStyle = NameStyle {
    keep: |c| c.is_ascii_alphanumeric() || c == '-',
    lowercase: false,
    replacement: '_',
    collapse: false,
    first: Some(FirstChar {
        may_start: |c| c.is_ascii_alphabetic() || c == '_',
        otherwise: Leading::Prefix('_'),
    }),
    max_len: 64,
};

/// `name` made to follow `style` (it may still be too short, or empty: callers check).
pub(crate) fn suggest_valid_name(name: &str, style: &NameStyle) -> String {
    let rep = style.replacement;
    let source = if style.collapse { name.trim() } else { name };
    let mut out = String::new();
    for c in source.chars() {
        let c = if style.lowercase {
            c.to_ascii_lowercase()
        } else {
            c
        };
        let c = if (style.keep)(c) {
            c
        } else if style.collapse && (out.is_empty() || out.ends_with(rep)) {
            continue;
        } else {
            rep
        };
        if out.is_empty()
            && let Some(first) = style.first
            && !(first.may_start)(c)
        {
            match first.otherwise {
                Leading::Drop => continue,
                Leading::Prefix(p) => out.push(p),
            }
        }
        out.push(c);
    }
    let trimmed = if style.collapse {
        out.trim_matches(rep)
    } else {
        out.as_str()
    };
    let cut: String = trimmed.chars().take(style.max_len).collect();
    if style.collapse {
        cut.trim_end_matches(rep).to_string()
    } else {
        cut
    }
}

/// How many names a message lists before it says how many more there are.
pub(crate) const LISTED: usize = 20;

/// `a, b, c`: the first [`LISTED`] of `names`, of `total` in all, then how many more there
/// are. A list of the names a file defines stays a line however many it defines (a schema of
/// 50,000 properties made a help of 390 KB for each finding); only the names shown are
/// taken from `names`.
pub(crate) fn listed<S: AsRef<str>>(names: impl IntoIterator<Item = S>, total: usize) -> String {
    let mut out = String::new();
    let mut shown = 0usize;
    for name in names.into_iter().take(LISTED) {
        if shown > 0 {
            out.push_str(", ");
        }
        out.push_str(name.as_ref());
        shown += 1;
    }
    if total > shown {
        out.push_str(&format!(", and {} more", total - shown));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safety_keys_are_found_in_any_case() {
        for key in [
            "requireApproval",
            "NETWORK",
            "confirm",
            "tool-policies",
            "Permissions",
        ] {
            assert!(is_safety_key(key), "{key}");
        }
        for key in ["timeout", "env", "", "approximately", "polite"] {
            assert!(!is_safety_key(key), "{key}");
        }
    }

    /// Up to twenty names are listed whole; past that, the first twenty and a count.
    #[test]
    fn a_long_list_of_names_is_cut_and_counted() {
        let names: Vec<String> = (0..25).map(|i| format!("p{i}")).collect();
        assert_eq!(listed(&names[..3], 3), "p0, p1, p2");
        assert_eq!(
            listed(&names[..LISTED], LISTED).matches(", ").count(),
            LISTED - 1
        );
        let cut = listed(&names, names.len());
        assert!(cut.starts_with("p0, p1, "), "{cut}");
        assert!(cut.ends_with("p19, and 5 more"), "{cut}");
        assert_eq!(listed(Vec::<String>::new(), 0), "");
        // Only the names shown are made.
        let made = std::cell::Cell::new(0);
        let lazily = (0..1_000).map(|i| {
            made.set(made.get() + 1);
            format!("v{i}")
        });
        assert!(listed(lazily, 1_000).ends_with("v19, and 980 more"));
        assert_eq!(made.get(), LISTED);
    }

    const KEBAB: NameStyle = NameStyle {
        keep: |c| c.is_ascii_lowercase() || c.is_ascii_digit(),
        lowercase: true,
        replacement: '-',
        collapse: true,
        first: Some(FirstChar {
            may_start: |c| c.is_ascii_lowercase(),
            otherwise: Leading::Drop,
        }),
        max_len: 64,
    };

    #[test]
    fn did_you_mean_picks_the_closest_above_the_threshold() {
        assert_eq!(
            did_you_mean("verison", ["version", "name"]),
            Some("version")
        );
        assert_eq!(did_you_mean("NAME", ["name"]), Some("name"));
        assert_eq!(did_you_mean("zzz", ["version", "name"]), None);
    }

    #[test]
    fn suggester_compares_same_initial_names_within_its_budget() {
        let names = [("search-docs", 0), ("send-email", 1), ("create-ticket", 2)];
        let mut s = Suggester::new(names, 100);
        assert_eq!(s.suggest("send-emial"), Some(("send-email", 1)));
        // `reate-ticket` starts with another letter: not compared, so no suggestion.
        assert_eq!(s.suggest("reate-ticket"), None);
        let mut tight = Suggester::new(names, 3);
        assert_eq!(tight.suggest("search-doc"), Some(("search-docs", 0)));
        assert_eq!(tight.suggest("search-doc"), None, "the budget is spent");
    }

    #[test]
    fn kebab_names_collapse_and_trim() {
        assert_eq!(suggest_valid_name("  My Tool!! v2 ", &KEBAB), "my-tool-v2");
        assert_eq!(suggest_valid_name("2fast", &KEBAB), "fast");
        assert_eq!(suggest_valid_name("---", &KEBAB), "");
        let long = "a-".repeat(40);
        let cut = suggest_valid_name(&long, &KEBAB);
        assert!(cut.len() <= 64 && !cut.ends_with('-'), "{cut}");
    }

    #[test]
    fn portable_names_replace_each_character_and_prefix_a_bad_start() {
        assert_eq!(suggest_valid_name("9lives.v1", &PORTABLE), "_9lives_v1");
        assert_eq!(suggest_valid_name("a b", &PORTABLE), "a_b");
        assert_eq!(suggest_valid_name(&"x".repeat(70), &PORTABLE).len(), 64);
    }
}
