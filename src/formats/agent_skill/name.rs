//! The skill name rule, judged the way the reference validator judges it: trimmed, NFKC
//! normalized, then at most 64 characters, lowercase, letters (of any script), digits and
//! single inner hyphens, and equal to the folder's (normalized) name.

use unicode_general_category::get_general_category;
use unicode_normalization::UnicodeNormalization;

use crate::analysis::names::{FirstChar, Leading, NameStyle, suggest_valid_name};

/// Longest name, in characters after normalization.
pub(super) const MAX_NAME_CHARS: usize = 64;

/// `name` as the reference compares it: surrounding whitespace dropped, NFKC normalized.
pub(super) fn normalized(name: &str) -> String {
    name.trim().nfkc().collect()
}

/// A folder name as the reference compares it (NFKC, not trimmed).
pub(super) fn normalized_folder(folder: &str) -> String {
    folder.nfkc().collect()
}

/// Why a (normalized) name breaks the rule, first problem first; `None` when it is valid.
pub(super) fn problem(name: &str) -> Option<String> {
    let len = name.chars().count();
    if len > MAX_NAME_CHARS {
        return Some(format!(
            "{len} characters; a name has at most {MAX_NAME_CHARS}"
        ));
    }
    if name != name.to_lowercase() {
        return Some("uppercase letters are not allowed".to_string());
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Some("a name cannot start or end with a hyphen".to_string());
    }
    if name.contains("--") {
        return Some("a name cannot contain two hyphens in a row".to_string());
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(is_letter_or_digit(*c) || *c == '-'))
    {
        return Some(if c.is_whitespace() {
            "spaces are not allowed; words are joined with hyphens".to_string()
        } else {
            format!(
                "`{}` is not allowed: only letters, digits and hyphens",
                c.escape_debug()
            )
        });
    }
    None
}

/// A letter or number of any script (general category `L*` or `N*`), as Python's
/// `str.isalnum` counts them: combining marks are not letters.
fn is_letter_or_digit(c: char) -> bool {
    let category = get_general_category(c).abbreviation();
    category.starts_with('L') || category.starts_with('N')
}

/// A valid name close to `name` (`PDF Tools!` → `pdf-tools`), if there is one.
pub(super) fn suggest(name: &str) -> Option<String> {
    const SKILL: NameStyle = NameStyle {
        keep: |c| c.is_ascii_lowercase() || c.is_ascii_digit(),
        lowercase: true,
        replacement: '-',
        collapse: true,
        first: Some(FirstChar {
            may_start: |c| c != '-',
            otherwise: Leading::Drop,
        }),
        max_len: MAX_NAME_CHARS,
    };
    let out = suggest_valid_name(name, &SKILL);
    (!out.is_empty() && problem(&out).is_none()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_rule() {
        for ok in [
            "pdf-processing",
            "a",
            "x1",
            "café",
            "实时比分",
            "데이터-분석",
        ] {
            assert_eq!(problem(ok), None, "{ok}");
        }
        assert!(problem("PDF-Processing").is_some_and(|p| p.contains("uppercase")));
        assert!(problem("-pdf").is_some_and(|p| p.contains("start or end")));
        assert!(problem("pdf--processing").is_some_and(|p| p.contains("two hyphens")));
        assert!(problem("pdf_processing").is_some_and(|p| p.contains("`_`")));
        assert!(problem("my skill").is_some_and(|p| p.contains("spaces")));
        assert!(problem(&"a".repeat(65)).is_some_and(|p| p.contains("65 characters")));
        // A combining vowel sign is alphabetic to Rust but not alphanumeric to Python.
        assert!(problem("हिंदी").is_some());
    }

    #[test]
    fn normalization_as_the_reference_does_it() {
        assert_eq!(normalized(" ａｂ "), "ab");
        assert_eq!(normalized_folder("ａｂ"), "ab");
        assert_eq!(normalized_folder(" ab"), " ab");
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("PDF Tools!").as_deref(), Some("pdf-tools"));
        assert_eq!(suggest("--a--b--").as_deref(), Some("a-b"));
        assert_eq!(suggest("实时"), None);
    }
}
