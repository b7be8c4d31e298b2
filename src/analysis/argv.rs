//! A command line (a program and its arguments, run without a shell) as far as an operating
//! system could start it. Windows starts no command line of 32,767 characters or more
//! (`CreateProcess` counts the closing null), the smallest of the limits (macOS takes 1 MiB
//! of arguments and environment, Linux 128 KiB an argument and by default 2 MiB in all): a
//! line that is longer fails to start there, and the formats say so (MCP027, ACL016). The
//! readers of a long line read it through [`read`] or a [`Line`], which stop at a length
//! they choose: a list of millions of arguments costs what its first few thousand cost, and
//! its nodes (a long list of strings is held packed) are never built past them.

use std::borrow::Cow;

use crate::source::Span;
use crate::syntax::{Node, NodeKind, Seq};

/// The longest command line Windows starts, in UTF-16 units, with a space between words
/// (32,767 with the closing null).
pub(crate) const LONGEST: usize = 32_766;

/// Longer than any command line an operating system starts by default (Linux's 2 MiB of
/// arguments and environment, the largest): what runs on some system is read to here.
pub(crate) const REACH: usize = 2 << 20;

/// A command line read a word at a time: how long it is so far, and whether it still fits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line {
    /// The line's length so far, a space between words, as Windows counts it.
    pub length: usize,
    /// The length past which a word is no longer read.
    reach: usize,
    /// Whether a word was added (the next one follows a space).
    started: bool,
}

impl Line {
    /// An empty line, read as far as `reach`.
    pub(crate) fn new(reach: usize) -> Line {
        Line {
            length: 0,
            reach,
            started: false,
        }
    }

    /// Add `word` to the line; whether the line still fits within its reach.
    pub(crate) fn admits(&mut self, word: &str) -> bool {
        self.grows(units(word))
    }

    /// Add a word of `units` UTF-16 units to the line, as [`Line::admits`] does.
    fn grows(&mut self, units: usize) -> bool {
        self.length += usize::from(self.started) + units;
        self.started = true;
        self.length <= self.reach
    }
}

/// The arguments of a server read within [`LONGEST`], and where reading stopped.
pub(crate) struct Argv<'n> {
    /// The items read, in order (strings and any other values written there).
    pub items: Vec<Cow<'n, Node>>,
    /// Where the line passes [`LONGEST`], when it does.
    pub cut: Option<Cut>,
}

/// A command line longer than [`LONGEST`].
pub(crate) struct Cut {
    /// The first argument left unread, or the program when it is too long by itself.
    pub at: Option<Span>,
    /// The line's length: the program and its string arguments, a space between each.
    pub length: usize,
}

/// The arguments `args` of the program `command`, read while the line fits in [`LONGEST`].
pub(crate) fn read<'n>(command: Option<&str>, args: Option<&'n Seq>) -> Argv<'n> {
    // Every argument follows a space, the program's or a missing one's.
    let mut line = Line::new(LONGEST);
    let mut fits = line.admits(command.unwrap_or(""));
    let mut items = Vec::new();
    let mut at = None;
    if let Some(args) = args {
        for item in args.scan() {
            fits = line.grows(match &item.kind {
                NodeKind::String(s) => units(s),
                _ => item.span().len(),
            });
            if !fits {
                at = Some(item.span());
                break;
            }
            items.push(item);
        }
    }
    let length = line.length;
    if fits {
        return Argv { items, cut: None };
    }
    // The rest of the line, for the finding, read without building nodes.
    let total =
        command.map_or(0, units) + args.map_or(0, |a| a.strings().map(|(s, _)| 1 + units(s)).sum());
    Argv {
        items,
        cut: Some(Cut {
            at,
            length: total.max(length),
        }),
    }
}

/// The longest start of `text` that fits in [`LONGEST`] (all of it, mostly): what of a
/// program's name the security pass reads.
pub(crate) fn within(text: &str) -> &str {
    let mut used = 0;
    for (at, c) in text.char_indices() {
        used += c.len_utf16();
        if used > LONGEST {
            return &text[..at];
        }
    }
    text
}

/// `text`'s length as Windows counts it: UTF-16 units.
fn units(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::json;

    fn list(text: &str) -> Node {
        json::parse(text, 0).root.expect("a list")
    }

    #[test]
    fn a_line_within_the_limit_is_read_whole() {
        let node = list(r#"["-y", "pkg@1.0.0", 3]"#);
        let argv = read(Some("npx"), node.as_list());
        assert_eq!(argv.items.len(), 3);
        assert!(argv.cut.is_none());
    }

    #[test]
    fn a_long_line_is_read_to_the_limit_and_measured_whole() {
        // 4 + 10,000 × 5: past the limit at the 6,553rd argument.
        let items = vec!["\"abcd\""; 10_000].join(",");
        let node = list(&format!("[{items}]"));
        let argv = read(Some("run"), node.as_list());
        assert_eq!(argv.items.len(), (LONGEST - 3) / 5);
        let cut = argv.cut.expect("cut");
        assert_eq!(cut.length, 3 + 10_000 * 5);
        let at = cut.at.expect("an argument");
        assert_eq!(
            at.start,
            1 + argv.items.len() * 7,
            "the first argument left out"
        );
    }

    #[test]
    fn a_program_too_long_by_itself_leaves_every_argument_out() {
        let program = "x".repeat(LONGEST + 1);
        let node = list(r#"["a"]"#);
        let argv = read(Some(&program), node.as_list());
        assert!(argv.items.is_empty());
        assert_eq!(argv.cut.expect("cut").length, LONGEST + 3);
        let argv = read(Some(&program), None);
        assert!(argv.cut.expect("cut").at.is_none());
    }

    #[test]
    fn a_program_is_read_to_the_limit() {
        let program = "é".repeat(LONGEST + 5);
        assert_eq!(within(&program).chars().count(), LONGEST);
        assert_eq!(within("npx"), "npx");
    }

    #[test]
    fn characters_count_as_windows_counts_them() {
        assert_eq!(units("aé€😀"), 5);
    }
}
