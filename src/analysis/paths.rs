//! Paths in text: finding path-like tokens, telling host paths from relative ones, and
//! lexical cleaning (`..` resolved without touching a disk).

use crate::source::Span;

/// Pseudo-devices that give no access to anything: reading or writing them is harmless.
const HARMLESS_DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/stdin",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/random",
    "/dev/urandom",
];

/// What kind of path a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PathKind {
    /// `/etc/passwd`.
    Absolute,
    /// `~/.ssh`, `~root/`, `$HOME`.
    Home,
    /// `../../x`.
    Parent,
}

/// A path-like token found in text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PathToken<'a> {
    /// Where it is.
    pub span: Span,
    /// Its text (trailing sentence punctuation left out).
    pub text: &'a str,
    /// What kind of path it is.
    pub kind: PathKind,
}

/// Characters after which a path may start (so `and/or` and URLs are not paths).
fn opens_path(prev: Option<char>) -> bool {
    prev.is_none_or(|c| c.is_whitespace() || "\"'`=([{<>|:;,@&*".contains(c))
}

fn ends_path(c: char) -> bool {
    c.is_whitespace() || "\"'`()[]{}<>|;&,".contains(c)
}

/// Absolute, home-relative and `..` paths in `region` of `text`, in order, found as they
/// are read (a request of 200,000 paths held a token and a copy of each: 3.5 times its size).
/// A URL's path is not a path, except after `file://`.
pub(crate) fn path_tokens(text: &str, region: Span) -> impl Iterator<Item = PathToken<'_>> {
    let slice = text.get(region.start..region.end).unwrap_or_default();
    let bytes = slice.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        // Only `/`, `~`, `.` and `$` can start a path: the bytes between are passed over
        // without a look (all four are ASCII, so a match is always a character boundary).
        while let Some(at) = bytes
            .get(i..)?
            .iter()
            .position(|b| matches!(b, b'/' | b'~' | b'.' | b'$'))
        {
            i += at;
            let rest = &slice[i..];
            let prev = slice[..i].chars().next_back();
            let kind = match bytes[i] {
                b'/' if (opens_path(prev) || slice[..i].ends_with("file://"))
                    && rest[1..].chars().next().is_some_and(|n| {
                        n.is_alphanumeric() || matches!(n, '.' | '_' | '-' | '~')
                    }) =>
                {
                    Some(PathKind::Absolute)
                }
                b'~' if opens_path(prev) && home_prefix(rest) => Some(PathKind::Home),
                b'.' if opens_path(prev) && rest.starts_with("../") => Some(PathKind::Parent),
                b'$' if rest.starts_with("${HOME}")
                    || (rest.starts_with("$HOME")
                        && !rest[5..].starts_with(|n: char| n.is_alphanumeric() || n == '_')) =>
                {
                    Some(PathKind::Home)
                }
                _ => None,
            };
            let Some(kind) = kind else {
                i += 1;
                continue;
            };
            let len = rest.find(ends_path).unwrap_or(rest.len());
            let token = rest[..len].trim_end_matches(['.', ':', '!', '?']);
            let token = if token.is_empty() {
                &rest[..len]
            } else {
                token
            };
            let found = PathToken {
                span: region.sub(i, i + token.len()),
                text: token,
                kind,
            };
            i += len.max(1);
            return Some(found);
        }
        None
    })
}

/// `~/`, `~` at the end, or `~user/`.
fn home_prefix(rest: &str) -> bool {
    let after = &rest[1..];
    if after.is_empty() || after.starts_with('/') {
        return true;
    }
    let user = after
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(after.len());
    user > 0 && after.as_bytes()[0].is_ascii_alphabetic() && after[user..].starts_with('/')
}

/// Lexical path cleaning with Go's `path.Clean` rules.
pub(crate) fn clean(path: &str) -> String {
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

/// Whether `path`, once cleaned, is the folder `dir` (cleaned, absolute) or inside it.
pub(crate) fn is_within(path: &str, dir: &str) -> bool {
    let cleaned = clean(path);
    cleaned == dir
        || cleaned
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Byte offset of the first `..` segment of `raw` that climbs to `min_depth` or above it
/// (depth counts the named segments before it).
pub(crate) fn climbing_dotdot(raw: &str, min_depth: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut offset = 0;
    for seg in raw.split('/') {
        match seg {
            "" | "." => {}
            ".." if depth <= min_depth => return Some(offset),
            ".." => depth -= 1,
            _ => depth += 1,
        }
        offset += seg.len() + 1;
    }
    None
}

/// The last named segment of a path (`/in/data/` → `data`), if it has one.
pub(crate) fn base_name(path: &str) -> Option<&str> {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .filter(|n| !n.is_empty() && *n != "." && *n != "..")
}

/// Absolute on some platform: `/…`, or a Windows drive path (`C:\…`, `C:/…`).
pub(crate) fn is_absolute_anywhere(path: &str) -> bool {
    let b = path.as_bytes();
    path.starts_with('/')
        || (b.len() >= 3
            && b[0].is_ascii_alphabetic()
            && b[1] == b':'
            && matches!(b[2], b'/' | b'\\'))
}

/// Whether a cleaned absolute path is a host device (`/dev/sda`), leaving out the
/// pseudo-devices that give access to nothing (`/dev/null`).
pub(crate) fn is_host_device(cleaned: &str) -> bool {
    (cleaned == "/dev" || cleaned.starts_with("/dev/")) && !is_harmless_device(cleaned)
}

/// Whether a cleaned path is a pseudo-device that gives access to nothing (`/dev/null`).
pub(crate) fn is_harmless_device(cleaned: &str) -> bool {
    HARMLESS_DEVICES.contains(&cleaned)
}

/// Display path of `rel` next to the file displayed as `file`: joined to the file's folder
/// and cleaned (`./` and `..` resolved lexically, `\` read as `/`); a trailing `/` (a folder)
/// is kept.
pub(crate) fn sibling_display(file: &str, rel: &str) -> String {
    let rel = rel.replace('\\', "/");
    let joined = match file.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{rel}"),
        None => rel.clone(),
    };
    let mut out = clean(&joined);
    if rel.ends_with('/') && !out.ends_with('/') {
        out.push('/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_in_prose() {
        let text =
            "see https://example.com/a and/or /etc/passwd, `/in/x.csv` ~/.ssh ../up file:///etc/x";
        let toks: Vec<PathToken> = path_tokens(text, Span::new(0, text.len())).collect();
        let found: Vec<&str> = toks.iter().map(|t| t.text).collect();
        assert_eq!(
            found,
            ["/etc/passwd", "/in/x.csv", "~/.ssh", "../up", "/etc/x"]
        );
        let kinds: Vec<PathKind> = toks.iter().map(|t| t.kind).collect();
        assert_eq!(
            kinds,
            [
                PathKind::Absolute,
                PathKind::Absolute,
                PathKind::Home,
                PathKind::Parent,
                PathKind::Absolute
            ]
        );
        assert_eq!(&text[toks[0].span.start..toks[0].span.end], "/etc/passwd");
    }

    #[test]
    fn home_forms() {
        let text = "$HOME/x $HOMEDIR ~x ~root/.ssh ${HOME} ~";
        let toks: Vec<PathToken> = path_tokens(text, Span::new(0, text.len())).collect();
        let found: Vec<&str> = toks.iter().map(|t| t.text).collect();
        // `${HOME}` is found where it starts; the brace ends the token.
        assert_eq!(found, ["$HOME/x", "~root/.ssh", "$", "~"]);
        assert!(toks.iter().all(|t| t.kind == PathKind::Home));
    }

    #[test]
    fn region_offsets_are_in_the_whole_text() {
        let text = "ignored /a then /b";
        let toks: Vec<PathToken> = path_tokens(text, Span::new(8, text.len())).collect();
        assert_eq!(toks.len(), 2);
        assert_eq!(toks[1].span, Span::new(16, 18));
        assert_eq!(path_tokens(text, Span::new(8, 99)).count(), 0);
    }

    #[test]
    fn clean_follows_go() {
        assert_eq!(clean("./tools/bin/../hack"), "tools/hack");
        assert_eq!(clean("../tools/bin/x"), "../tools/bin/x");
        assert_eq!(clean(""), ".");
        assert_eq!(clean("./tools/bin/"), "tools/bin");
        assert_eq!(clean("a/../../b"), "../b");
        assert_eq!(clean("/../x"), "/x");
        assert_eq!(climbing_dotdot("./tools/bin/../hack", 2), Some(12));
        assert_eq!(climbing_dotdot("../x", 0), Some(0));
        assert_eq!(climbing_dotdot("./a/../../x", 0), Some(7));
        assert_eq!(climbing_dotdot("a/b/../c", 0), None);
    }

    #[test]
    fn within_after_cleaning() {
        assert!(is_within("/in/a/../b", "/in"));
        assert!(is_within("/in", "/in"));
        assert!(!is_within("/in/../etc", "/in"));
        assert!(!is_within("/input", "/in"));
    }

    #[test]
    fn names_and_kinds() {
        assert_eq!(base_name("/in/data/"), Some("data"));
        assert_eq!(base_name("/in/.."), None);
        assert_eq!(base_name("/"), None);
        assert!(is_absolute_anywhere("/usr/bin/env") && is_absolute_anywhere("C:\\bin\\x.exe"));
        assert!(!is_absolute_anywhere("./tools/bin/x") && !is_absolute_anywhere("C:x"));
        assert!(is_host_device("/dev/sda") && is_host_device("/dev"));
        assert!(!is_host_device("/dev/null") && !is_host_device("/device"));
    }

    #[test]
    fn siblings_of_a_file() {
        assert_eq!(
            sibling_display(".dojops/tools/a/tool.yaml", "./in.json"),
            ".dojops/tools/a/in.json"
        );
        assert_eq!(
            sibling_display("x/tools.json", "tools/bin/"),
            "x/tools/bin/"
        );
        assert_eq!(sibling_display("tools.json", "tools/bin/"), "tools/bin/");
        assert_eq!(
            sibling_display("a/b/tool.yaml", "s\\..\\in.json"),
            "a/b/in.json"
        );
    }
}
