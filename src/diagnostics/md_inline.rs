//! Text that may carry a repository's content, made inert for a Markdown table cell (a
//! pull-request comment, a job summary): shown as written, never rendered. A tool name or a
//! key can hold `![x](https://evil.example/?q=…)`, `<img src=…>` or a bare URL that GitHub
//! would turn into a link; in a summary those would load or invite a click.
//!
//! toolc's messages quote what they cite in backticks: each quoted part stays a code span
//! (where nothing renders), and the prose around it has every character that could open a
//! link, image, emphasis or HTML escaped, and each word that GitHub would link (`http://`,
//! `www.`, an e-mail address) put in a code span. A backtick the content brings can only
//! move text from a code span to escaped prose, or back: either way it stays inert.

use super::visible;

/// `text` as inert Markdown for one table cell: on one line, control characters shown.
pub(crate) fn cell(text: &str) -> String {
    let text = visible(text);
    let parts: Vec<&str> = text.split('`').collect();
    let mut out = String::with_capacity(text.len() + 16);
    for (i, part) in parts.iter().enumerate() {
        let closed = i % 2 == 1 && i + 1 < parts.len();
        if closed {
            code_span(part, &mut out);
        } else {
            if i % 2 == 1 {
                // A backtick left open: shown, not a code span.
                out.push_str("\\`");
            }
            prose(part, &mut out);
        }
    }
    out
}

/// `text` (no backtick in it) as a code span; pipes escaped for the table.
fn code_span(text: &str, out: &mut String) {
    if text.trim().is_empty() {
        // An empty or blank code span is not one: shown as the backticks it was.
        out.push_str("\\`");
        prose(text, out);
        out.push_str("\\`");
        return;
    }
    // Two spans side by side would make a run of two backticks: a space keeps them apart.
    if out.ends_with('`') && !out.ends_with("\\`") {
        out.push(' ');
    }
    out.push('`');
    out.push_str(&text.replace('|', "\\|"));
    out.push('`');
}

/// `text` (no backtick in it) with every construct escaped.
fn prose(text: &str, out: &mut String) {
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if links(word) {
            code_span(word, out);
            continue;
        }
        for c in word.chars() {
            match c {
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '&' => out.push_str("&amp;"),
                // A link or an image needs `[`; emphasis `*`, `_` or `~`.
                '\\' | '*' | '_' | '[' | ']' | '|' | '~' => {
                    out.push('\\');
                    out.push(c);
                }
                c => out.push(c),
            }
        }
    }
}

/// True when GitHub would make a link of `word` on its own (an extended autolink).
fn links(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    lower.contains("://")
        || lower.contains("www.")
        || lower.starts_with("mailto:")
        || lower.contains("xmpp:")
        || word
            .split('@')
            .nth(1)
            .is_some_and(|domain| domain.contains('.'))
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn quoted_parts_stay_code_and_the_rest_is_escaped() {
        assert_eq!(
            cell("tool name `Bad|Name` is not kebab-case"),
            "tool name `Bad\\|Name` is not kebab-case"
        );
        assert_eq!(
            cell("unknown key `x`![i](https://e.example/?q=1)`y`"),
            "unknown key `x` `![i](https://e.example/?q=1)` `y`"
        );
        assert_eq!(
            cell("key `a``b` and ![i](/x.png)"),
            "key `a` `b` and !\\[i\\](/x.png)"
        );
        assert_eq!(
            cell("see <img src=x> and [a](b) at https://evil.example now"),
            "see &lt;img src=x&gt; and \\[a\\](b) at `https://evil.example` now"
        );
        assert_eq!(cell("a ` b"), "a \\` b");
        assert_eq!(cell("mail me@evil.example"), "mail `me@evil.example`");
        assert_eq!(cell("two\nlines"), "two\\\\nlines");
    }
}
