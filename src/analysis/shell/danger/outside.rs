//! Code installed from outside the package index: a package from a URL (`pip install
//! https://…/x.tar.gz`, `npm i https://…/x.tgz`), from an unpinned git source (`pip install
//! git+https://…`, `cargo install --git …`), or from another index or registry
//! (`--index-url`, `--extra-index-url`, `--registry`). What is installed then is whatever
//! that place serves on the day, checked by nobody. A URL pinned by a hash, a git source
//! pinned to a commit or tag, and the well-known indexes of large projects are not reported.

use super::super::statements::Token;
use super::unit::Unit;
use super::vocab::host_of;
use super::{DangerKind, push};
use crate::analysis::shell::danger::Danger;

/// Package indexes and registries besides the default ones that large projects publish
/// their own builds on.
const KNOWN_INDEXES: &[&str] = &[
    "pypi.org",
    "files.pythonhosted.org",
    "download.pytorch.org",
    "pypi.nvidia.com",
    "pypi.ngc.nvidia.com",
    "data.pyg.org",
    "registry.npmjs.org",
    "registry.yarnpkg.com",
    "npm.pkg.github.com",
    "rubygems.org",
];

/// Options of package managers that take a value.
const VALUED: &[&str] = &[
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "--trusted-host",
    "-r",
    "--requirement",
    "-c",
    "--constraint",
    "-t",
    "--target",
    "--prefix",
    "--root",
    "--registry",
    "--source",
    "-s",
    "--git",
    "--index",
    "--rev",
    "--tag",
    "--branch",
    "--python",
    "-p",
    "--cache",
    "--add",
    "-a",
    "--package",
];

/// Every command of `unit` that installs from outside the package index.
pub(crate) fn check(unit: &Unit, out: &mut Vec<Danger>) {
    for (_, _, stage) in unit.stages() {
        let Some(pi) = stage.program_index() else {
            continue;
        };
        let mut words = &stage.words[pi..];
        // `cmd /c npx -y …`: Windows needs a shell to start `npx`; what it starts installs.
        if let [shell, flag, rest @ ..] = words
            && matches!(shell.text.to_ascii_lowercase().as_str(), "cmd" | "cmd.exe")
            && flag.text.eq_ignore_ascii_case("/c")
            && !rest.is_empty()
        {
            words = rest;
        }
        let lower: Vec<String> = words.iter().map(|w| w.text.to_ascii_lowercase()).collect();
        // Where the installer's own arguments start: `pip install`, `python -m pip install`,
        // `uv pip install`, `npm i`.
        let Some((family, from)) = installer(&lower) else {
            continue;
        };
        let args = &words[from..];
        let pinned_by_hash = lower
            .iter()
            .any(|w| w == "--require-hashes" || w.starts_with("--hash"));
        if let Some((t, why)) = untrusted(family, args, pinned_by_hash) {
            let start = words[0].start;
            push(
                out,
                start,
                t.end,
                DangerKind::UntrustedInstall,
                &format!("{why}: {}", t.text),
            );
        }
    }
}

/// The package manager a command runs and where its arguments start.
fn installer(w: &[String]) -> Option<(&'static str, usize)> {
    let at = |i: usize| w.get(i).map_or("", String::as_str);
    let p = at(0).rsplit('/').next().unwrap_or("");
    match (p, at(1), at(2), at(3)) {
        ("pip" | "pip3" | "pipx", "install", _, _) => Some(("pip", 2)),
        ("uv", "pip", "install", _) => Some(("pip", 3)),
        ("uv", "add", _, _) | ("poetry", "add", _, _) | ("pdm", "add", _, _) => Some(("pip", 2)),
        ("uv", "tool", "install", _) => Some(("pip", 3)),
        ("pipx", "run", _, _) => Some(("pip-run", 2)),
        ("uvx", _, _, _) | ("uv", "tool", "run", _) => {
            Some(("pip-run", if p == "uv" { 3 } else { 1 }))
        }
        (py, "-m", "pip", "install") if py.starts_with("python") => Some(("pip", 4)),
        ("npm" | "pnpm" | "bun", "install" | "i" | "add", _, _) => Some(("npm", 2)),
        ("yarn", "add", _, _) | ("yarn", "global", "add", _) => Some(("npm", 2)),
        ("npx" | "bunx", _, _, _) => Some(("npx", 1)),
        // `npm exec URL`, `pnpm dlx git+…`: npx by another name.
        ("npm", "exec" | "x", _, _) | ("pnpm" | "yarn", "dlx", _, _) => Some(("npx", 2)),
        ("npm", "config", "set", _) => Some(("npm-config", 3)),
        ("gem", "install", _, _) => Some(("gem", 2)),
        ("gem", "sources", _, _) => Some(("gem", 2)),
        ("cargo", "install", _, _) => Some(("cargo", 2)),
        _ => None,
    }
}

/// The argument that makes an install untrusted, and why.
fn untrusted<'a>(
    family: &str,
    args: &'a [Token],
    pinned_by_hash: bool,
) -> Option<(&'a Token, &'static str)> {
    if family == "pip-run" {
        return run_source(args, pinned_by_hash);
    }
    let value = |i: usize, flag: &str| -> Option<&Token> {
        let t = &args[i].text;
        if t == flag {
            args.get(i + 1)
        } else {
            t.strip_prefix(flag)
                .is_some_and(|r| r.starts_with('='))
                .then_some(&args[i])
        }
    };
    let mut skip = false;
    for (i, a) in args.iter().enumerate() {
        if std::mem::take(&mut skip) {
            continue;
        }
        let t = a.text.as_str();
        let lower = t.to_ascii_lowercase();
        // The value of an option is not a package.
        skip = t.starts_with('-') && !t.contains('=') && VALUED.contains(&lower.as_str());
        match family {
            "pip" => {
                for flag in [
                    "--index-url",
                    "-i",
                    "--extra-index-url",
                    "--find-links",
                    "-f",
                    "--trusted-host",
                ] {
                    if let Some(v) = value(i, flag)
                        && !known_index(&v.text)
                    {
                        return Some((v, "installs packages from another index"));
                    }
                }
                if lower.starts_with("git+") && !pinned_git(&lower) {
                    return Some((a, "installs from an unpinned git source"));
                }
                if (lower.starts_with("http://") || lower.starts_with("https://"))
                    && !lower.contains("#sha256=")
                    && !pinned_by_hash
                {
                    return Some((a, "installs a package from a URL"));
                }
                // `name @ https://…` (a direct reference).
                if lower.contains(" @ http") && !lower.contains("#sha256=") {
                    return Some((a, "installs a package from a URL"));
                }
            }
            "npm" | "npx" => {
                if let Some(v) = value(i, "--registry")
                    && !known_index(&v.text)
                {
                    return Some((v, "installs packages from another registry"));
                }
                // `npx --package=https://…/x.tgz cmd`: the package named is what installs.
                if let Some(v) = value(i, "--package").or_else(|| value(i, "-p")) {
                    let spec = v
                        .text
                        .rsplit_once("--package=")
                        .map_or(&*v.text, |(_, r)| r);
                    let spec = spec.to_ascii_lowercase();
                    if spec.starts_with("http://") || spec.starts_with("https://") {
                        return Some((v, "installs a package from a URL"));
                    }
                    if (spec.starts_with("git+") || spec.starts_with("github:"))
                        && !pinned_git(&spec)
                    {
                        return Some((v, "installs from an unpinned git source"));
                    }
                }
                if lower.starts_with("http://") || lower.starts_with("https://") {
                    return Some((a, "installs a package from a URL"));
                }
                if (lower.starts_with("git+")
                    || lower.starts_with("github:")
                    || lower.starts_with("git://"))
                    && !pinned_git(&lower)
                {
                    return Some((a, "installs from an unpinned git source"));
                }
                if family == "npx" && !t.starts_with('-') {
                    // `npx pkg`: only the first operand is what runs.
                    break;
                }
            }
            "npm-config" => {
                if lower == "registry"
                    && let Some(v) = args.get(i + 1).filter(|v| !known_index(&v.text))
                {
                    return Some((v, "sets another registry"));
                }
            }
            "gem" => {
                for flag in ["--source", "-s", "--add", "-a"] {
                    if let Some(v) = value(i, flag)
                        && v.text.contains("://")
                        && !known_index(&v.text)
                    {
                        return Some((v, "installs gems from another source"));
                    }
                }
            }
            "cargo" => {
                if let Some(v) = value(i, "--git")
                    && !args.iter().any(|a| {
                        a.text == "--rev"
                            || a.text.starts_with("--rev=")
                            || a.text == "--tag"
                            || a.text.starts_with("--tag=")
                    })
                {
                    return Some((v, "installs from an unpinned git source"));
                }
                if let Some(v) = value(i, "--index").or_else(|| value(i, "--registry"))
                    && v.text.contains("://")
                {
                    return Some((v, "installs crates from another registry"));
                }
            }
            _ => {}
        }
    }
    None
}

/// What `uvx --from SRC cmd …` or `pipx run --spec SRC cmd …` installs: the sources its
/// options name and its first operand; the words after that are the program's own
/// arguments (`--base-url https://…`), never installed.
fn run_source(args: &[Token], pinned_by_hash: bool) -> Option<(&Token, &'static str)> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        let t = a.text.as_str();
        if !t.starts_with('-') {
            return pip_source(t, pinned_by_hash).map(|why| (a, why));
        }
        let (flag, inline) = t.split_once('=').map_or((t, None), |(f, v)| (f, Some(v)));
        let flag = flag.to_ascii_lowercase();
        let value = match inline {
            Some(v) => Some((a, v)),
            None if VALUED.contains(&flag.as_str()) || SOURCES.contains(&flag.as_str()) => {
                i += 1;
                args.get(i - 1).map(|v| (v, v.text.as_str()))
            }
            None => None,
        };
        let Some((token, v)) = value else {
            continue;
        };
        if SOURCES.contains(&flag.as_str())
            && let Some(why) = pip_source(v, pinned_by_hash)
        {
            return Some((token, why));
        }
        if matches!(
            flag.as_str(),
            "--index-url" | "-i" | "--extra-index-url" | "--find-links" | "-f" | "--index"
        ) && !known_index(v)
        {
            return Some((token, "installs packages from another index"));
        }
    }
    None
}

/// Options of `uvx` and `pipx run` whose value is a package to install.
const SOURCES: &[&str] = &["--from", "--spec", "--with", "-w"];

/// Why installing the package `spec` names is from outside the index, if it is.
fn pip_source(spec: &str, pinned_by_hash: bool) -> Option<&'static str> {
    let lower = spec.to_ascii_lowercase();
    if lower.starts_with("git+") && !pinned_git(&lower) {
        return Some("installs from an unpinned git source");
    }
    ((lower.starts_with("http://") || lower.starts_with("https://"))
        && !lower.contains("#sha256=")
        && !pinned_by_hash)
        .then_some("installs a package from a URL")
}

/// A git source pinned to a full commit or a version tag (`@v1.2.0`, `#a1b2c3…`).
fn pinned_git(url: &str) -> bool {
    let rev = url
        .rsplit_once('@')
        .filter(|(before, _)| before.contains('/'))
        .map(|(_, r)| r)
        .or_else(|| url.rsplit_once('#').map(|(_, r)| r))
        .map(|r| r.split(['#', '&']).next().unwrap_or(r));
    rev.is_some_and(|r| {
        // A commit's short form has at least seven digits (`git rev-parse --short`).
        let hex = r.len() >= 7 && r.chars().all(|c| c.is_ascii_hexdigit());
        let tag = r.trim_start_matches('v').split('.').count() >= 2
            && r.trim_start_matches('v')
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit());
        hex || tag
    })
}

fn known_index(url: &str) -> bool {
    host_of(url).is_some_and(|h| {
        KNOWN_INDEXES
            .iter()
            .any(|k| h == *k || h.ends_with(&format!(".{k}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(script: &str) -> Vec<String> {
        let unit = Unit::of(script);
        let mut out = Vec::new();
        check(&unit, &mut out);
        out.into_iter()
            .map(|d| script[d.start..d.end].to_string())
            .collect()
    }

    #[test]
    fn installs_from_outside_the_index() {
        assert_eq!(
            found("pip install https://files.example.net/tool-1.0.tar.gz"),
            ["pip install https://files.example.net/tool-1.0.tar.gz"]
        );
        assert_eq!(
            found("pip install --extra-index-url https://pkgs.example.net/simple tool"),
            ["pip install --extra-index-url https://pkgs.example.net/simple"]
        );
        assert_eq!(
            found("python3 -m pip install git+https://github.com/o/r.git").len(),
            1
        );
        assert_eq!(found("npm i https://x.example/pkg.tgz").len(), 1);
        assert_eq!(
            found("npm install --registry=https://npm.example.net tool").len(),
            1
        );
        assert_eq!(found("cargo install --git https://github.com/o/r").len(), 1);
        assert_eq!(found("uvx --from git+https://github.com/o/r tool").len(), 1);
        assert_eq!(found("uvx --from=git+https://github.com/o/r tool").len(), 1);
        assert_eq!(found("uvx git+https://github.com/o/r").len(), 1);
        assert_eq!(
            found("uv tool run --from https://x.example/t-1.0.tar.gz t").len(),
            1
        );
        assert_eq!(
            found("pipx run --spec git+https://github.com/o/r.git r").len(),
            1
        );
        assert_eq!(found("npx -y github:someone/repo").len(), 1);
        assert_eq!(found("npm exec --yes https://x.example/pkg.tgz").len(), 1);
        assert_eq!(found("pnpm dlx git+https://github.com/o/r").len(), 1);
        assert_eq!(found("cmd /c npx -y https://x.example/pkg.tgz").len(), 1);
        assert_eq!(
            found("npx --package=https://x.example/pkg.tgz -- run-it").len(),
            1
        );
    }

    #[test]
    fn pinned_and_well_known_sources_are_fine() {
        assert!(found("pip install requests==2.32.3").is_empty());
        assert!(found("pip install https://x.example/t-1.0.tar.gz#sha256=0123abcd").is_empty());
        assert!(found("pip install git+https://github.com/o/r.git@v1.2.0").is_empty());
        assert!(found("pip install git+https://github.com/o/r.git@3f2a9c1d0b7e4a5f").is_empty());
        assert!(
            found("pip install torch --index-url https://download.pytorch.org/whl/cu121")
                .is_empty()
        );
        assert!(found("npm i left-pad@1.3.0").is_empty());
        assert!(found("npm exec --yes prettier@3.3.3 -- --check .").is_empty());
        // What follows the program is its own arguments.
        assert!(
            found("uvx --from fetch-mcp==1.2.0 fetch-mcp --base-url https://api.example.com/v1")
                .is_empty()
        );
        assert!(
            found("pipx run --spec docs-mcp==0.3.1 docs-mcp --site https://x.example").is_empty()
        );
        assert!(found("uvx mcp-server-fetch --proxy-url https://proxy.example:8080").is_empty());
        assert!(found("npx -y github:o/r#0123456789abcdef0123").is_empty());
        assert!(
            found(
                "uvx --from git+https://github.com/o/r@0123456789abcdef0123456789abcdef01234567 r"
            )
            .is_empty()
        );
        assert!(found("cargo install --git https://github.com/o/r --tag v0.3.1").is_empty());
    }
}
