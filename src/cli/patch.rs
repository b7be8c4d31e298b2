//! `check --diff`: a fixed file's change as a unified diff, made safe to print. Only the
//! lines around the changes are diffed: `similar` holds every line of both sides, so a fix
//! in a file of millions of short lines took 25 times the file (763 MiB for 30 MB).

/// Lines of context around a change.
const CONTEXT: usize = 3;

/// The change from `before` to `after` of the file shown as `display`, as a unified diff
/// with three lines of context, made safe to print (see [`printable`]) and with credentials
/// masked past their first characters, as every output masks them: the diff's context shows
/// lines a finding never quotes.
pub(super) fn unified_diff(display: &str, before: &str, after: &str) -> String {
    let display = crate::diagnostics::visible(display);
    // Masked in the whole texts, not line by line, so a key block over several lines is
    // found; masking keeps every line's length, so the two sides still line up.
    let before = crate::analysis::secrets::redact(before);
    let after = crate::analysis::secrets::redact(after);
    let window = Window::of(&before, &after);
    let diff = similar::TextDiff::from_lines(window.before, window.after)
        .unified_diff()
        .context_radius(CONTEXT)
        .header(&format!("a/{display}"), &format!("b/{display}"))
        .to_string();
    printable(&shifted(&diff, window.lines_before))
}

/// The lines of both sides from a few before their first difference to a few after their
/// last, and how many lines come before them (the same on both sides).
struct Window<'t> {
    before: &'t str,
    after: &'t str,
    lines_before: usize,
}

impl<'t> Window<'t> {
    /// The window of `before` and `after`: it starts and ends at line starts both share,
    /// and what is left out on either side is the same bytes on both.
    fn of(before: &'t str, after: &'t str) -> Window<'t> {
        let (b, a) = (before.as_bytes(), after.as_bytes());
        let same_start = b.iter().zip(a).take_while(|(x, y)| x == y).count();
        // The start of the line holding byte `at`: a line start on both sides while `at`
        // is in the common start.
        let line_start = |at: usize| {
            b[..at]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |i| i + 1)
        };
        // Back to the start of the line that differs, then [`CONTEXT`] lines more.
        let mut start = line_start(same_start);
        for _ in 0..CONTEXT {
            start = line_start(start.saturating_sub(1));
        }
        let room = b.len().min(a.len()) - start;
        let same_end = b
            .iter()
            .rev()
            .zip(a.iter().rev())
            .take(room)
            .take_while(|(x, y)| x == y)
            .count();
        // Forward past a line end in the common end (so what follows starts a line on both
        // sides), then [`CONTEXT`] lines more.
        let common = &b[b.len() - same_end..];
        let mut keep = 0;
        for _ in 0..=CONTEXT {
            keep = common[keep..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(common.len(), |i| keep + i + 1);
        }
        let tail = same_end - keep;
        Window {
            before: &before[start..before.len() - tail],
            after: &after[start..after.len() - tail],
            lines_before: b[..start].iter().filter(|&&c| c == b'\n').count(),
        }
    }
}

/// `diff` with its hunks' line numbers moved down by `lines`.
fn shifted(diff: &str, lines: usize) -> String {
    if lines == 0 {
        return diff.to_string();
    }
    let mut out = String::with_capacity(diff.len());
    for line in diff.split_inclusive('\n') {
        match hunk_header(line) {
            Some((old, new, rest)) => {
                out.push_str(&format!(
                    "@@ -{} +{} @@{rest}",
                    moved(old, lines),
                    moved(new, lines)
                ));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The two ranges of a hunk's header `@@ -A[,B] +C[,D] @@…`, and what follows them.
fn hunk_header(line: &str) -> Option<(&str, &str, &str)> {
    let rest = line.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, rest) = rest.split_once(" @@")?;
    Some((old, new, rest))
}

/// A hunk's range `A[,B]` with its first line moved down by `lines`.
fn moved(range: &str, lines: usize) -> String {
    let (first, len) = match range.split_once(',') {
        Some((first, len)) => (first, Some(len)),
        None => (range, None),
    };
    let first = first.parse::<usize>().map_or(0, |n| n + lines);
    match len {
        Some(len) => format!("{first},{len}"),
        None => first.to_string(),
    }
}

/// A diff of a repository's lines, printed where a terminal or a CI log reads it: control
/// characters (an escape sequence, a lone `\r` that hides what precedes it) are shown as
/// escapes (a tab and a line's `\r\n` stay), and a line that GitHub's runner would take as a
/// workflow command (`::` after leading blanks: a context line of `::error …`) has its first
/// `:` spelt `\u{3a}`. A diff so changed no longer applies as a patch: it is for reading.
fn printable(diff: &str) -> String {
    let mut out = String::with_capacity(diff.len());
    for line in diff.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix("\r\n") {
            Some(body) => (body, "\r\n"),
            None => match line.strip_suffix('\n') {
                Some(body) => (body, "\n"),
                None => (line, ""),
            },
        };
        let mut shown = String::with_capacity(body.len());
        for (i, part) in body.split('\t').enumerate() {
            if i > 0 {
                shown.push('\t');
            }
            shown.push_str(&crate::diagnostics::visible(part));
        }
        let blanks = shown.len() - shown.trim_start().len();
        if shown[blanks..].starts_with("::") {
            shown.replace_range(blanks..blanks + 1, "\\u{3a}");
        }
        out.push_str(&shown);
        out.push_str(end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_is_printed_without_controls_or_workflow_commands() {
        let diff =
            " ::error file=a::x\n+::warning::y\n-\tkey: \u{1b}]0;T\u{7}\r\n  \t::debug::z\n a\rb\n";
        assert_eq!(
            printable(diff),
            " \\u{3a}:error file=a::x\n+::warning::y\n-\tkey: ␛]0;T␇\r\n  \t\\u{3a}:debug::z\n a\\rb\n"
        );
        let plain = "@@ -1,2 +1,2 @@\n a: 1\n-b: 2\n+b: 3\n";
        assert_eq!(printable(plain), plain);
    }

    /// A diff of the lines around the changes reads as the diff of the whole files: the same
    /// hunks, at the same line numbers, for changes at the start, the end, in the middle, two
    /// far apart, with and without a last line end, and lines added or removed.
    #[test]
    fn the_window_diffs_as_the_whole_files_do() {
        let lines: Vec<String> = (0..40).map(|i| format!("line {i}\n")).collect();
        let text = lines.concat();
        let edit = |at: usize, with: &str| {
            let mut l = lines.clone();
            l[at] = with.to_string();
            l.concat()
        };
        let cases = [
            edit(0, "first\n"),
            edit(39, "last\n"),
            edit(20, "middle\n"),
            edit(5, "a\n").replace("line 30\n", "b\n"),
            edit(20, "two\nlines\n"),
            edit(20, ""),
            text.trim_end().to_string(),
            format!("{text}more\n"),
            String::new(),
            text.replace("line 1", "line 1x"),
        ];
        // Sides that differ inside a character, and share one at their ends.
        let wide = ("x\naé\nb\né\n", "x\naè\nb\né\n");
        let whole = similar::TextDiff::from_lines(wide.0, wide.1)
            .unified_diff()
            .context_radius(CONTEXT)
            .header("a/f", "b/f")
            .to_string();
        assert_eq!(unified_diff("f", wide.0, wide.1), whole);
        for after in &cases {
            let whole = similar::TextDiff::from_lines(text.as_str(), after.as_str())
                .unified_diff()
                .context_radius(CONTEXT)
                .header("a/f", "b/f")
                .to_string();
            assert_eq!(unified_diff("f", &text, after), whole, "{after:?}");
            assert_eq!(unified_diff("f", after, &text).lines().count(), {
                let back = similar::TextDiff::from_lines(after.as_str(), text.as_str());
                back.unified_diff()
                    .context_radius(CONTEXT)
                    .header("a/f", "b/f")
                    .to_string()
                    .lines()
                    .count()
            });
        }
    }
}
