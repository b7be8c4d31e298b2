//! Cheap looks at a file's shape, without building its spanned tree: what a format needs to
//! tell its own files from other files at the same paths (a `tools.json` of another tool, a
//! `*.agent.md` of another agent framework). They tolerate broken syntax, so that a file of
//! the format with a typo is still recognised and then reported in full.

/// The top-level keys of the YAML front matter that opens `text`, in order; `None` when the
/// text does not open with a `---` front matter (a closing fence is not required: an unclosed
/// block is still front matter, whose keys say whose file it is).
pub(crate) fn front_matter_keys(text: &str) -> Option<Vec<&str>> {
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    let keys = lines
        .take_while(|l| l.trim_end() != "---")
        .filter_map(top_level_key)
        .collect();
    Some(keys)
}

/// The key a YAML line starts at column 0 (`agent_id: x`, `"agent_id": x`), if any.
fn top_level_key(line: &str) -> Option<&str> {
    if line.starts_with([' ', '\t', '#', '-']) {
        return None;
    }
    let (key, _) = line.split_once(':')?;
    let key = key.trim_end();
    let key = key
        .strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .or_else(|| key.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))
        .unwrap_or(key);
    (!key.is_empty()).then_some(key)
}

/// True when the front matter that opens `text` has one of `keys` at its top level.
pub(crate) fn front_matter_has_any(text: &str, keys: &[&str]) -> bool {
    front_matter_keys(text).is_some_and(|found| found.iter().any(|k| keys.contains(k)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_keys_at_the_top_level_only() {
        let text = "---\r\nagent_id: a\n\"spec_version\": \"1.2\"\nmeta:\n  name: x\n# c\n- y\n---\nbody: no\n";
        assert_eq!(
            front_matter_keys(text),
            Some(vec!["agent_id", "spec_version", "meta"])
        );
        assert_eq!(front_matter_keys("# Title\n---\na: 1\n---\n"), None);
        assert_eq!(front_matter_keys(""), None);
        // Unclosed: the keys still count.
        assert!(front_matter_has_any("---\ntool_id: x\n", &["tool_id"]));
        assert!(!front_matter_has_any(
            "---\nname: Debug\ntools: [a]\n---\n",
            &["agent_id", "spec_version"]
        ));
    }
}
