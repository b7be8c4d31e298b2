//! Text that may carry a repository's content, made inert for a Markdown table cell (a
//! pull-request comment, a job summary): shown as written, never rendered. A tool name or a
//! key can hold `![x](https://evil.example/?q=…)`, `<img src=…>` or a bare URL that GitHub
//! would turn into a link; in a summary those would load or invite a click. It can hold an
//! `@user` too, which notifies that user when the comment is posted, or `owner/repo#1`, which
//! links to that issue and leaves a backlink on its timeline.
//!
//! toolc's messages quote what they cite in backticks: each quoted part stays a code span
//! (where nothing renders), and the prose around it has every character that could open a
//! link, image, emphasis or HTML escaped, and each word that GitHub would link by itself put
//! in a code span: a URL, `www.…`, an e-mail address, a mention, an issue or a commit. Those
//! references cannot be escaped: GitHub finds them in the text it rendered (where `\@` and
//! `&#64;` are `@` again) and skips only code and links. A backtick the content brings can
//! only move text from a code span to escaped prose, or back: either way it stays inert.

use super::visible;

/// `text` as inert Markdown for one table cell: on one line, control characters shown, and
/// pipes escaped (in a code span too, where only a table reads the escape).
pub(crate) fn cell(text: &str) -> String {
    inert(text, true)
}

/// `text` as inert Markdown outside a table (a review comment): as [`cell`], but a pipe is
/// left as it is, where a backslash before it would show in a code span.
pub(crate) fn line(text: &str) -> String {
    inert(text, false)
}

fn inert(text: &str, table: bool) -> String {
    let text = visible(text);
    let parts: Vec<&str> = text.split('`').collect();
    let mut out = String::with_capacity(text.len() + 16);
    for (i, part) in parts.iter().enumerate() {
        let closed = i % 2 == 1 && i + 1 < parts.len();
        if closed {
            code_span(part, table, &mut out);
        } else {
            if i % 2 == 1 {
                // A backtick left open: shown, not a code span.
                out.push_str("\\`");
            }
            prose(part, table, &mut out);
        }
    }
    out
}

/// `text` (no backtick in it) as a code span; pipes escaped for a `table`.
fn code_span(text: &str, table: bool, out: &mut String) {
    if text.trim().is_empty() {
        // An empty or blank code span is not one: shown as the backticks it was.
        out.push_str("\\`");
        prose(text, table, out);
        out.push_str("\\`");
        return;
    }
    // Two spans side by side would make a run of two backticks: a space keeps them apart.
    if out.ends_with('`') && !out.ends_with("\\`") {
        out.push(' ');
    }
    out.push('`');
    if table {
        out.push_str(&text.replace('|', "\\|"));
    } else {
        out.push_str(text);
    }
    out.push('`');
}

/// `text` (no backtick in it) with every construct escaped (and pipes, for a `table`).
fn prose(text: &str, table: bool, out: &mut String) {
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if links(word) {
            code_span(word, table, out);
            continue;
        }
        for c in word.chars() {
            match c {
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '&' => out.push_str("&amp;"),
                '|' if !table => out.push(c),
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

/// True when GitHub could make a link of `word` on its own: an extended autolink, a mention
/// or a reference. Wider than GitHub's patterns (which also need the user, issue or commit
/// to exist): a word put in a code span that needed none still reads as written.
fn links(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    lower.contains("://")
        || lower.contains("www.")
        || lower.starts_with("mailto:")
        || lower.contains("xmpp:")
        // An e-mail address, `@user`, `@org/team`, `user@sha`, `owner/repo@sha`.
        || followed(word, "@", |_| true)
        // `#12`, `owner/repo#12`, `GH-12`.
        || followed(word, "#", char::is_numeric)
        || followed(&lower, "gh-", |c| c.is_ascii_digit())
        || commit(word)
}

/// True when `pattern` stands in `word` with a character after it that `next` accepts.
fn followed(word: &str, pattern: &str, next: impl Fn(char) -> bool) -> bool {
    word.match_indices(pattern)
        .any(|(at, _)| word[at + pattern.len()..].chars().next().is_some_and(&next))
}

/// True when `word` holds seven or more hexadecimal digits in a row that no letter touches:
/// GitHub links a commit by its hash or any prefix of seven digits and more.
fn commit(word: &str) -> bool {
    let mut run = 0;
    let mut after_letter = false;
    let mut before: Option<char> = None;
    // A space after the last character ends the last run.
    for c in word.chars().chain([' ']) {
        if c.is_ascii_hexdigit() {
            if run == 0 {
                after_letter = before.is_some_and(|b| b.is_ascii_alphabetic());
            }
            run += 1;
        } else {
            if run >= 7 && !after_letter && !c.is_ascii_alphabetic() {
                return true;
            }
            run = 0;
        }
        before = Some(c);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{cell, line};

    /// Outside a table a pipe needs no escape, and in a code span one would show.
    #[test]
    fn a_line_leaves_pipes_and_escapes_the_rest_as_a_cell_does() {
        assert_eq!(
            line("tell the agent to run `curl … | sh` or a|b"),
            "tell the agent to run `curl … | sh` or a|b"
        );
        assert_eq!(
            line("name `x`*bold* @octocat ![i](/x.png)`y`"),
            "name `x`\\*bold\\* `@octocat` !\\[i\\](/x.png)`y`"
        );
        assert_eq!(cell("a|b"), "a\\|b");
    }

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

    #[test]
    fn mentions_and_references_are_code_where_github_links_nothing() {
        // The shape of the reproducer: a name quoted in backticks that holds backticks.
        assert_eq!(
            cell(
                "`a` @octocat #1 torvalds/linux#1 6dcb09b5b57875f334f61aebed695e2e4193db5e `b` is bad"
            ),
            "`a` `@octocat` `#1` `torvalds/linux#1` `6dcb09b5b57875f334f61aebed695e2e4193db5e` `b` is bad"
        );
        // Escaping would not do: GitHub reads `\@x` as `\` and a mention.
        assert_eq!(cell("\\@octocat (@octocat)"), "`\\@octocat` `(@octocat)`");
        assert_eq!(
            cell("@org/team GH-7 gh-7 user@6dcb09b owner/repo@6dcb09b"),
            "`@org/team` `GH-7` `gh-7` `user@6dcb09b` `owner/repo@6dcb09b`"
        );
        assert_eq!(
            cell("x,6DCB09B; (6dcb09b5b578) #\u{661}"),
            "`x,6DCB09B;` `(6dcb09b5b578)` `#\u{661}`"
        );
        // An entity is shown as written, never decoded into an `@`.
        assert_eq!(cell("&commat;octocat"), "&amp;commat;octocat");
        assert_eq!(cell("&#64;octocat"), "`&#64;octocat`");
    }

    #[test]
    fn ordinary_text_reads_as_before() {
        assert_eq!(cell("version #2 of foo"), "version `#2` of foo");
        assert_eq!(
            cell("write to user@example.com"),
            "write to `user@example.com`"
        );
        // Nothing GitHub links: no number after `#`, nothing after `@`, hex too short or inside
        // a longer word.
        for plain in [
            "C# and #hashtag and issue # 5, a @ b, mail@",
            "75 characters; a name has at most 64",
            "cafe12 decade 0x1234567 abcdef12g sha256sum high-five",
        ] {
            assert_eq!(cell(plain), plain);
        }
        // A long number is a possible commit prefix: a code span, still read as written.
        assert_eq!(cell("1048576 bytes"), "`1048576` bytes");
    }
}
