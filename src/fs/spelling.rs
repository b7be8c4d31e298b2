//! Paths as the walk spells them: absolute, `/`-separated, each spelt its one way (see
//! [`canonical`]), so that thousands of them compare, sort and find their folders on their
//! text; and paths as users read them ([`display_path`]).

use std::path::{Component, Path, PathBuf};

/// True when `path` is absolute and spelt the one way it can be (`/`-separated, no empty,
/// `.` or `..` part, no `/` at the end): two such paths are the same exactly when their
/// texts are, and compare as [`cmp_canonical`] says.
pub(crate) fn canonical(path: &Path) -> bool {
    // Asked of every file found and every folder above it: the bytes are looked at once.
    let Some(text) = path.to_str() else {
        return false;
    };
    let bytes = text.as_bytes();
    if bytes == b"/" {
        return true;
    }
    if bytes.first() != Some(&b'/') {
        return false;
    }
    // Each part starts after a `/`: it may be neither empty (`//`, or a `/` at the end) nor
    // `.` nor `..`.
    let mut rest = &bytes[1..];
    loop {
        let end = rest.iter().position(|&b| b == b'/').unwrap_or(rest.len());
        if matches!(&rest[..end], b"" | b"." | b"..") {
            return false;
        }
        if end == rest.len() {
            return true;
        }
        rest = &rest[end + 1..];
    }
}

/// `Path::parent` of a [`canonical`] path, found on its text.
pub(crate) fn parent_canonical(path: &Path) -> Option<&Path> {
    let bytes = path.as_os_str().as_encoded_bytes();
    match bytes.iter().rposition(|&b| b == b'/')? {
        0 if bytes.len() == 1 => None,
        0 => Some(Path::new("/")),
        at => path.to_str().map(|text| Path::new(&text[..at])),
    }
}

/// `Path::cmp` of two [`canonical`] paths, on their texts: part by part is text by text with
/// the separator before every other byte.
pub(crate) fn cmp_canonical(a: &Path, b: &Path) -> std::cmp::Ordering {
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let key = |c: u8| if c == b'/' { 0 } else { u16::from(c) + 1 };
    match (a.get(same), b.get(same)) {
        (Some(x), Some(y)) => key(*x).cmp(&key(*y)),
        _ => a.len().cmp(&b.len()),
    }
}

/// `path` as shown to users: relative to `cwd` when possible, `/`-separated.
pub(crate) fn display_path(path: &Path, cwd: &Path) -> String {
    // The usual case, without building paths: a plain path under a plain folder.
    if let (Some(p), Some(c)) = (path.to_str(), cwd.to_str())
        && plain(p)
        && plain(c)
        && let Some(rest) = p.strip_prefix(c)
        && (rest.is_empty() || rest.starts_with('/') || c.ends_with('/'))
        && !rest.contains('\\')
    {
        let rest = rest.trim_start_matches('/');
        return if rest.is_empty() {
            ".".into()
        } else {
            rest.to_string()
        };
    }
    let rel = relative(path, cwd);
    let s = rel.to_string_lossy().replace('\\', "/");
    if s.is_empty() { ".".into() } else { s }
}

/// True when `path` is absolute, `/`-separated and has no `.` or `..` part.
pub(crate) fn plain(path: &str) -> bool {
    // Searched as text (asked of every file a run shows): such a part is a `/./` or `/../`
    // inside, or a `/.` or `/..` at the end.
    path.starts_with('/')
        && !(path.contains("/./")
            || path.contains("/../")
            || path.ends_with("/.")
            || path.ends_with("/.."))
}

/// `path` relative to `base` (both absolute), with `..` where needed.
fn relative(path: &Path, base: &Path) -> PathBuf {
    let path = normalize(path);
    let base = normalize(base);
    if let Ok(rel) = path.strip_prefix(&base) {
        return rel.to_path_buf();
    }
    let pc: Vec<_> = path.components().collect();
    let bc: Vec<_> = base.components().collect();
    let common = pc.iter().zip(&bc).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return path;
    }
    let mut out = PathBuf::new();
    for _ in common..bc.len() {
        out.push("..");
    }
    for c in &pc[common..] {
        out.push(c.as_os_str());
    }
    out
}

/// Remove `.` and resolve `..` lexically.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_of_a_path_in_its_one_spelling_is_found_on_its_text() {
        for text in [
            "/", "/a", "/a/b", "/a/b.c/d", "/é/ü", "/a/.b", "/..c/d", "/a/...",
        ] {
            let path = Path::new(text);
            assert!(canonical(path), "{text}");
            assert_eq!(parent_canonical(path), path.parent(), "{text}");
        }
    }

    #[test]
    fn paths_in_their_one_spelling_sort_as_paths_do() {
        let mut paths: Vec<&Path> = [
            "/",
            "/a",
            "/a/b",
            "/a-b",
            "/a.b/c",
            "/a/b/c",
            "/ab",
            "/a/b-c",
            "/a/b/-",
            "/b",
            "/a/\u{e9}",
            "/a/z",
            "/A",
        ]
        .into_iter()
        .map(Path::new)
        .collect();
        assert!(paths.iter().all(|p| canonical(p)));
        for odd in [
            "r/a", "", "//", "/.", "/..", "/r//a", "/r/./a", "/r/../a", "/r/a/", "/r/.", "/r/..",
        ] {
            assert!(!canonical(Path::new(odd)), "{odd}");
        }
        let mut by_text = paths.clone();
        by_text.sort_by(|a, b| cmp_canonical(a, b));
        paths.sort();
        assert_eq!(by_text, paths);
        for a in &paths {
            for b in &paths {
                assert_eq!(cmp_canonical(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn a_plain_path_has_no_dot_part_wherever_it_is() {
        for text in [
            "/", "/a", "/a/.b", "/..c/d", "/a/...", "/a..", "/a//b", "/a/b/",
        ] {
            assert!(plain(text), "{text}");
        }
        for text in [
            "a/b", "", "/.", "/..", "/./a", "/../a", "/a/./b", "/a/../b", "/a/.", "/a/..",
        ] {
            assert!(!plain(text), "{text}");
        }
    }

    #[test]
    fn display_paths() {
        assert_eq!(
            display_path(Path::new("/a/b/c.yaml"), Path::new("/a")),
            "b/c.yaml"
        );
        assert_eq!(
            display_path(Path::new("/a/b/c.yaml"), Path::new("/a/x")),
            "../b/c.yaml"
        );
        assert_eq!(
            display_path(Path::new("/a/./b/../c.yaml"), Path::new("/a")),
            "c.yaml"
        );
    }
}
