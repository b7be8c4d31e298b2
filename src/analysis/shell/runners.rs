//! Package runners: programs that download a package and run it in one step (`npx`, `uvx`,
//! `pipx run`, …), read from an argument vector, and whether the package they run is pinned
//! to one version. An unpinned run executes whatever the registry serves that day.

use super::program_name;

/// How a runner's package specs name a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ecosystem {
    /// npm specs: `name@1.2.3`, `@scope/name@1.2.3`.
    Npm,
    /// Python requirement specs: `name==1.2.3` (uv also reads `name@1.2.3`).
    Python,
    /// A git repository, fetched at a ref (`git+https://…@COMMIT`).
    Git,
    /// A container image, pinned by digest (`image@sha256:…`) or at least a version tag.
    Oci,
}

impl Ecosystem {
    /// `package` pinned to a version, as this ecosystem writes it (`VERSION` stands for it).
    pub(crate) fn pinned(self, package: &str) -> String {
        match self {
            Ecosystem::Npm => format!("{package}@VERSION"),
            Ecosystem::Python => format!("{package}==VERSION"),
            Ecosystem::Git if package.starts_with("github:") => format!("{package}#COMMIT"),
            Ecosystem::Git => format!("{package}@COMMIT"),
            Ecosystem::Oci => format!("{package}@sha256:DIGEST"),
        }
    }
}

/// A package a runner fetches without pinning its version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnpinnedRun {
    /// Index, in the argument vector, of the word that names the package.
    pub index: usize,
    /// The runner (`npx`, `uvx`, `pnpm dlx`).
    pub runner: &'static str,
    /// The package name without a version.
    pub package: String,
    /// The version written, when it is a tag or a range (`latest`, `^1.2`) rather than none.
    pub floating: Option<String>,
    /// How the runner's packages name versions.
    pub ecosystem: Ecosystem,
}

/// Options of a runner that take a value in the next word (unless written `--opt=value`).
struct Runner {
    /// The runner as users write it.
    name: &'static str,
    ecosystem: Ecosystem,
    /// Options whose value is a package spec that replaces the positional one.
    package_options: &'static [&'static str],
    /// Other options that take a value.
    valued_options: &'static [&'static str],
}

const NPX: Runner = Runner {
    name: "npx",
    ecosystem: Ecosystem::Npm,
    package_options: &["-p", "--package"],
    valued_options: &[
        "-c",
        "--call",
        "--registry",
        "--cache",
        "--userconfig",
        "--prefix",
    ],
};

const NPM_EXEC: Runner = Runner {
    name: "npm exec",
    ..NPX
};

const BUNX: Runner = Runner {
    name: "bunx",
    ecosystem: Ecosystem::Npm,
    package_options: &["-p", "--package"],
    valued_options: &["--registry", "--cwd"],
};

const PNPM_DLX: Runner = Runner {
    name: "pnpm dlx",
    ecosystem: Ecosystem::Npm,
    package_options: &["--package"],
    valued_options: &["--registry", "--dir", "-C"],
};

const YARN_DLX: Runner = Runner {
    name: "yarn dlx",
    ecosystem: Ecosystem::Npm,
    package_options: &["-p", "--package"],
    valued_options: &[],
};

const UVX: Runner = Runner {
    name: "uvx",
    ecosystem: Ecosystem::Python,
    package_options: &["--from"],
    valued_options: &[
        "--with",
        "-w",
        "--with-editable",
        "--with-requirements",
        "--python",
        "-p",
        "--index",
        "--index-url",
        "-i",
        "--default-index",
        "--extra-index-url",
        "--find-links",
        "-f",
        "--env-file",
        "--constraints",
        "-c",
        "--overrides",
        "--build-constraints",
        "-b",
        "--directory",
        "--project",
        "--config-file",
        "--cache-dir",
        "--python-platform",
        "--exclude-newer",
        "--refresh-package",
        "--reinstall-package",
        "--upgrade-package",
        "-P",
    ],
};

const UV_TOOL_RUN: Runner = Runner {
    name: "uv tool run",
    ..UVX
};

const PIPX_RUN: Runner = Runner {
    name: "pipx run",
    ecosystem: Ecosystem::Python,
    package_options: &["--spec"],
    valued_options: &["--python", "--index-url", "-i", "--pip-args"],
};

/// Shells that run the rest of the vector as a command (Windows needs `cmd /c npx …`).
const WRAPPERS: &[(&str, &str)] = &[("cmd", "/c"), ("cmd.exe", "/c")];

/// Packages run unpinned by `argv` (program first): the runner's package, and for `npx -p`
/// or `uvx --from` each spec given that way.
pub(crate) fn unpinned_runs(argv: &[&str]) -> Vec<UnpinnedRun> {
    let mut start = 0;
    while let Some(program) = argv.get(start) {
        let name = program_name(program).to_ascii_lowercase();
        let wraps = WRAPPERS.iter().any(|(w, flag)| {
            *w == name
                && argv
                    .get(start + 1)
                    .is_some_and(|f| f.eq_ignore_ascii_case(flag))
        });
        if !wraps {
            break;
        }
        start += 2;
    }
    let Some((runner, first)) = runner_at(argv, start) else {
        let image = argv.get(start..).and_then(super::sources::unpinned_image);
        return image
            .map(|run| UnpinnedRun {
                index: start + run.index,
                runner: run.runner,
                package: run.image,
                floating: run.floating,
                ecosystem: Ecosystem::Oci,
            })
            .into_iter()
            .collect();
    };
    let mut out = Vec::new();
    let mut positional = None;
    let mut by_option = false;
    let mut i = first;
    while i < argv.len() {
        let word = argv[i];
        if word == "--" {
            if positional.is_none() {
                positional = argv.get(i + 1).map(|_| i + 1);
            }
            break;
        }
        if !word.starts_with('-') || word == "-" {
            positional = Some(i);
            break;
        }
        let (flag, inline) = match word.split_once('=') {
            Some((f, v)) => (f, Some(v)),
            None => (word, None),
        };
        let is_package = runner.package_options.contains(&flag);
        let takes_value = is_package || runner.valued_options.contains(&flag);
        if is_package {
            by_option = true;
            match inline {
                Some(spec) => push_unpinned(&mut out, runner, i, spec),
                None => {
                    if let Some(spec) = argv.get(i + 1) {
                        push_unpinned(&mut out, runner, i + 1, spec);
                    }
                }
            }
        }
        i += if takes_value && inline.is_none() {
            2
        } else {
            1
        };
    }
    // With `-p`/`--from` the positional word is the command the package provides.
    if !by_option && let Some(p) = positional {
        push_unpinned(&mut out, runner, p, argv[p]);
    }
    out
}

/// The runner whose program starts at `start`, and the index of its first own word.
fn runner_at(argv: &[&str], start: usize) -> Option<(&'static Runner, usize)> {
    let program = program_name(argv.get(start)?).to_ascii_lowercase();
    let program = program
        .strip_suffix(".cmd")
        .or_else(|| program.strip_suffix(".exe"))
        .unwrap_or(&program)
        .to_string();
    let sub = argv.get(start + 1).copied().unwrap_or("");
    match (program.as_str(), sub) {
        ("npx", _) => Some((&NPX, start + 1)),
        ("bunx", _) => Some((&BUNX, start + 1)),
        ("uvx", _) => Some((&UVX, start + 1)),
        ("npm", "exec" | "x") => Some((&NPM_EXEC, start + 2)),
        ("pnpm", "dlx") => Some((&PNPM_DLX, start + 2)),
        ("yarn", "dlx") => Some((&YARN_DLX, start + 2)),
        ("pipx", "run") => Some((&PIPX_RUN, start + 2)),
        ("uv", "tool") if argv.get(start + 2) == Some(&"run") => Some((&UV_TOOL_RUN, start + 3)),
        _ => None,
    }
}

fn push_unpinned(out: &mut Vec<UnpinnedRun>, runner: &'static Runner, index: usize, spec: &str) {
    if let Some((url, git_ref)) = super::sources::git_spec(spec) {
        if super::sources::floating_ref(git_ref) {
            out.push(UnpinnedRun {
                index,
                runner: runner.name,
                package: url.to_string(),
                floating: git_ref.map(str::to_string),
                ecosystem: Ecosystem::Git,
            });
        }
        return;
    }
    if let Some((package, floating)) = unpinned(runner.ecosystem, spec) {
        out.push(UnpinnedRun {
            index,
            runner: runner.name,
            package,
            floating,
            ecosystem: runner.ecosystem,
        });
    }
}

/// The package and floating version of `spec` when it is a registry package not pinned to
/// one version; `None` when pinned, or not a registry package (a path, a URL, a git spec,
/// a template the client fills in).
fn unpinned(ecosystem: Ecosystem, spec: &str) -> Option<(String, Option<String>)> {
    let spec = spec.trim();
    let local = spec.starts_with(['.', '/', '~', '$', '{', '%'])
        || spec.contains("://")
        || spec.contains(':') && !spec.starts_with('@')
        || spec.contains('\\')
        || spec.ends_with(".js")
        || spec.ends_with(".py")
        || spec.ends_with(".tgz")
        || spec.ends_with(".whl");
    if spec.is_empty() || local {
        return None;
    }
    let (package, version) = match ecosystem {
        Ecosystem::Npm => split_npm(spec),
        Ecosystem::Python => split_python(spec),
        Ecosystem::Git | Ecosystem::Oci => return None,
    };
    if package.is_empty() || package.contains('/') && ecosystem == Ecosystem::Python {
        return None;
    }
    let exact = match ecosystem {
        Ecosystem::Npm => is_exact_version,
        _ => is_exact_python_version,
    };
    match version {
        Some(v) if exact(v) => None,
        Some(v) => Some((package.to_string(), Some(v.to_string()))),
        None => Some((package.to_string(), None)),
    }
}

/// `@scope/name@1.2.3` → (`@scope/name`, `1.2.3`).
fn split_npm(spec: &str) -> (&str, Option<&str>) {
    let from = usize::from(spec.starts_with('@'));
    match spec[from..].find('@') {
        Some(at) => (&spec[..from + at], Some(&spec[from + at + 1..])),
        None => (spec, None),
    }
}

/// `name==1.2.3`, `name@1.2.3`, `name[extra]>=1` → (`name`, the version part).
fn split_python(spec: &str) -> (&str, Option<&str>) {
    if let Some(at) = spec.find("==") {
        let version = spec[at + 2..].trim_start_matches('=');
        return (&spec[..at], Some(version));
    }
    if let Some(at) = spec.find('@') {
        return (&spec[..at], Some(&spec[at + 1..]));
    }
    match spec.find(['>', '<', '~', '!', '=', ',']) {
        Some(at) => (&spec[..at], Some(&spec[at..])),
        None => (spec, None),
    }
}

/// One exact release: `1.2.3`, `v1.2.3`, `1.2.3-beta.1`, `2024.1.0.post1`, never a range, a
/// wildcard or a tag such as `latest`.
fn is_exact_version(v: &str) -> bool {
    let v = v.strip_prefix('v').unwrap_or(v);
    let core = v.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() >= 3
        && parts[..3]
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && parts[3..]
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// A Python release pinned with `==` or uv's `@`: any version without a wildcard or an
/// operator (`==24.1` is as exact as `==24.1.0`).
fn is_exact_python_version(v: &str) -> bool {
    v.starts_with(|c: char| c.is_ascii_digit())
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+' | b'!'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packages(argv: &[&str]) -> Vec<(usize, String, Option<String>)> {
        unpinned_runs(argv)
            .into_iter()
            .map(|u| (u.index, u.package, u.floating))
            .collect()
    }

    #[test]
    fn npx_packages_without_an_exact_version_are_unpinned() {
        assert_eq!(
            packages(&[
                "npx",
                "-y",
                "@modelcontextprotocol/server-filesystem",
                "/tmp"
            ]),
            [(2, "@modelcontextprotocol/server-filesystem".into(), None)]
        );
        assert_eq!(
            packages(&["npx", "-y", "server-x@latest"]),
            [(2, "server-x".into(), Some("latest".into()))]
        );
        assert_eq!(packages(&["npx", "^x"]).len(), 1);
        assert!(packages(&["npx", "-y", "@scope/server@1.2.3"]).is_empty());
        assert!(packages(&["npx", "./local-server.js"]).is_empty());
        assert!(packages(&["node", "server.js"]).is_empty());
    }

    #[test]
    fn package_options_replace_the_positional_word() {
        assert_eq!(
            packages(&["npx", "--package=pkg@^1", "cmd"]),
            [(1, "pkg".into(), Some("^1".into()))]
        );
        assert!(packages(&["npx", "-p", "pkg@2.0.0", "cmd"]).is_empty());
        assert_eq!(
            packages(&["uvx", "--from", "mcp-server-git", "mcp-server-git"]),
            [(2, "mcp-server-git".into(), None)]
        );
    }

    #[test]
    fn python_runners_pin_with_double_equals_or_at() {
        assert_eq!(
            packages(&["uvx", "mcp-server-fetch"]),
            [(1, "mcp-server-fetch".into(), None)]
        );
        assert!(packages(&["uvx", "mcp-server-fetch==2025.4.7"]).is_empty());
        assert!(packages(&["uvx", "--python", "3.12", "ruff@0.6.1"]).is_empty());
        assert_eq!(
            packages(&["pipx", "run", "black>=24"]),
            [(2, "black".into(), Some(">=24".into()))]
        );
        assert!(packages(&["uvx", "--from", "git+https://github.com/a/b@4f2a9c1", "b"]).is_empty());
        assert!(packages(&["uvx", "black==24.1"]).is_empty());
        assert_eq!(packages(&["uvx", "black==24.*"]).len(), 1);
        assert_eq!(packages(&["uvx", "ruff@latest"]).len(), 1);
    }

    #[test]
    fn windows_wrappers_and_subcommand_runners() {
        assert_eq!(packages(&["cmd", "/c", "npx", "-y", "x"]).len(), 1);
        assert_eq!(packages(&["pnpm", "dlx", "x"]).len(), 1);
        assert_eq!(packages(&["uv", "tool", "run", "x"]).len(), 1);
        assert_eq!(packages(&["npx.cmd", "x"]).len(), 1);
        assert!(packages(&["npx"]).is_empty());
    }

    #[test]
    fn exact_versions() {
        assert!(is_exact_version("1.2.3") && is_exact_version("v1.2.3-rc.1"));
        assert!(is_exact_version("2025.4.7") && is_exact_version("1.0.0.post1"));
        assert!(!is_exact_version("1.2") && !is_exact_version("1.x.0"));
        assert!(!is_exact_version("latest") && !is_exact_version(">=1.0.0"));
    }

    #[test]
    fn git_sources_without_a_commit_and_images_without_a_tag() {
        assert_eq!(
            packages(&["uvx", "--from", "git+https://github.com/a/b", "b", "serve"]),
            [(2, "git+https://github.com/a/b".into(), None)]
        );
        assert_eq!(
            packages(&[
                "pipx",
                "run",
                "--spec",
                "git+https://github.com/a/b@main",
                "b"
            ]),
            [(3, "git+https://github.com/a/b".into(), Some("main".into()))]
        );
        assert_eq!(
            packages(&["docker", "run", "-i", "--rm", "acme/mcp"]),
            [(4, "acme/mcp".into(), None)]
        );
        assert_eq!(
            packages(&["cmd", "/c", "docker", "run", "acme/mcp"]).len(),
            1
        );
        assert!(packages(&["docker", "run", "acme/mcp:2.1.0"]).is_empty());
    }
}
