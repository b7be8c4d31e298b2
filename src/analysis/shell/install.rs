//! Package installation in a line: installer commands, and downloads run by an interpreter
//! (found by [`super::danger`]).

use super::danger::downloads_in_prose;
#[cfg(test)]
use super::danger::may_run_download;

/// Installer commands, as lower-case word sequences; `+` marks a word that must follow
/// (`+/`: one naming a module path or version, with `/` or `@`).
const INSTALLERS: &[&[&str]] = &[
    &["pip", "install"],
    &["pip3", "install"],
    &["pipx", "install"],
    &["easy_install"],
    &["conda", "install"],
    &["mamba", "install"],
    &["micromamba", "install"],
    &["poetry", "add"],
    &["uv", "add"],
    &["npm", "install"],
    &["npm", "i", "+"],
    &["npm", "ci"],
    &["npm", "add"],
    &["yarn", "add"],
    &["pnpm", "add"],
    &["pnpm", "install"],
    &["bun", "add"],
    &["bun", "install"],
    &["apt-get"],
    &["apt", "install"],
    &["apk", "add"],
    &["yum", "install"],
    &["dnf", "install"],
    &["zypper", "install"],
    &["pacman", "-s"],
    &["brew", "install"],
    &["cargo", "install"],
    &["gem", "install"],
    &["go", "install", "+/"],
    &["go", "get", "+/"],
    &["choco", "install"],
    &["winget", "install"],
    &["snap", "install"],
    &["composer", "require"],
    &["install-package"],
    &["install-module"],
];

/// A package installation found in a line.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Install {
    /// Byte offset of its first word.
    pub start: usize,
    /// Byte offset after its last word.
    pub end: usize,
    /// What it is, for a message (`pip install`, `curl … | sh`).
    pub what: String,
    /// A download run by an interpreter (`curl … | sh`), rather than an installer command.
    pub runs_download: bool,
}

/// Package installations in one line: installer commands (`pip install`, also written as a
/// list of strings in code), and downloads run by an interpreter (`curl … | sh`,
/// `bash <(curl …)`).
pub(crate) fn package_installs(line: &str) -> Vec<Install> {
    let mut out = Vec::new();
    // Most lines name no installer at all: they are passed over without a word kept.
    let named = install_words(line).any(|(_, w)| starts_installer(w));
    if named {
        let words: Vec<(usize, &str)> = install_words(line).collect();
        let mut i = 0;
        while i < words.len() {
            if let Some(n) = installer_at(&words, i) {
                let (start, _) = words[i];
                let (last_start, last) = words[i + n - 1];
                let end = last_start + last.len();
                out.push(Install {
                    start,
                    end,
                    what: line[start..end].to_string(),
                    runs_download: false,
                });
                i += n;
                continue;
            }
            i += 1;
        }
    }
    // Downloads run by an interpreter are found by the one analyser of dangerous commands.
    let downloads = downloads_in_prose(line);
    if !downloads.is_empty() {
        out.extend(downloads.into_iter().map(|d| Install {
            start: d.start,
            end: d.end,
            what: d.what,
            runs_download: true,
        }));
        out.sort_by_key(|i| i.start);
    }
    out
}

/// Whether `word` is the first word of an installer command (of [`INSTALLERS`]), compared
/// without allocating: most words of most lines are not.
fn starts_installer(word: &str) -> bool {
    let b = word.as_bytes();
    if !(2..=15).contains(&b.len()) {
        return false;
    }
    let mut lower = [0u8; 15];
    for (l, c) in lower.iter_mut().zip(b) {
        *l = c.to_ascii_lowercase();
    }
    matches!(
        &lower[..b.len()],
        b"pip"
            | b"pip3"
            | b"pipx"
            | b"easy_install"
            | b"conda"
            | b"mamba"
            | b"micromamba"
            | b"poetry"
            | b"uv"
            | b"npm"
            | b"yarn"
            | b"pnpm"
            | b"bun"
            | b"apt-get"
            | b"apt"
            | b"apk"
            | b"yum"
            | b"dnf"
            | b"zypper"
            | b"pacman"
            | b"brew"
            | b"cargo"
            | b"gem"
            | b"go"
            | b"choco"
            | b"winget"
            | b"snap"
            | b"composer"
            | b"install-package"
            | b"install-module"
    )
}

/// How many words of an installer command start at word `i`, if one does.
fn installer_at(words: &[(usize, &str)], i: usize) -> Option<usize> {
    let first = words.get(i)?.1;
    INSTALLERS.iter().find_map(|pat| {
        if !pat.first().is_some_and(|p| p.eq_ignore_ascii_case(first)) {
            return None;
        }
        let fixed = pat.iter().take_while(|p| !p.starts_with('+')).count();
        let matches = words.get(i..i + fixed).is_some_and(|ws| {
            ws.iter()
                .zip(pat.iter())
                .all(|((_, w), p)| w.eq_ignore_ascii_case(p))
        });
        if !matches {
            return None;
        }
        let next = words.get(i + fixed).map(|(_, w)| *w);
        let ok = match pat.get(fixed) {
            None => true,
            Some(&"+") => {
                next.is_some_and(|n| n.starts_with(|c: char| c.is_alphanumeric() || c == '@'))
            }
            Some(_) => next.is_some_and(|n| n.contains('/') || n.contains('@')),
        };
        ok.then_some(fixed)
    })
}

/// Words for installer matching: split on whitespace and on quoting or list punctuation, so
/// `["pip", "install", "x"]` in code reads like `pip install x`.
fn install_words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let is_word = |c: char| c.is_alphanumeric() || "-_.@/+:=~".contains(c);
    let mut from = 0;
    std::iter::from_fn(move || {
        let start = from + line.get(from..)?.find(is_word)?;
        let end = line[start..]
            .find(|c: char| !is_word(c))
            .map_or(line.len(), |i| start + i);
        from = end;
        Some((start, &line[start..end]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cheap_test_lets_every_download_run_through() {
        for line in [
            "curl -fsSL https://x.sh | sh",
            "bash <(wget -qO- https://x.sh)",
            "sh -c \"$(Invoke-WebRequest https://x)\"",
        ] {
            assert!(may_run_download(line), "{line}");
            assert!(
                package_installs(line).iter().any(|i| i.runs_download),
                "{line}"
            );
        }
        assert!(!may_run_download("pip install pandas"));
        assert!(!may_run_download("cat a | grep b"));
    }

    #[test]
    fn every_installer_is_recognised_by_its_first_word() {
        for pat in INSTALLERS {
            assert!(starts_installer(pat[0]), "{pat:?}");
            assert!(starts_installer(&pat[0].to_ascii_uppercase()), "{pat:?}");
        }
        assert!(!starts_installer("good") && !starts_installer("g"));
    }

    #[test]
    fn installs() {
        assert_eq!(
            package_installs("pip install pandas"),
            [Install {
                start: 0,
                end: 11,
                what: "pip install".into(),
                runs_download: false,
            }]
        );
        assert_eq!(
            package_installs("curl -fsSL https://x.sh | sh")[0].what,
            "curl … | sh"
        );
        assert_eq!(
            package_installs("bash <(curl -s https://x.sh)")[0].what,
            "bash run on curl"
        );
        assert_eq!(
            package_installs("subprocess.run([\"npm\", \"install\"])").len(),
            1
        );
        assert_eq!(package_installs("go install example.com/x@latest").len(), 1);
        assert!(package_installs("we go get data").is_empty());
        assert!(package_installs("npm i").is_empty());
        assert!(package_installs("python -u script.py").is_empty());
        assert!(package_installs("curl -o /out/x https://x | head").is_empty());
    }
}
