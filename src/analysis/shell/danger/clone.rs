//! A repository cloned and then installed from: `git clone URL && cd dir && ./install.sh`,
//! `make install` or `python setup.py install` inside the clone. What runs is whatever the
//! branch holds on the day, which nobody reviewed: an install from an unpinned source. A
//! clone checked out at a commit (or a release tag) is pinned; building and testing a clone
//! (`make`, `make test`, `./configure`) is how a contributor works, and stays quiet.

use super::super::statements::{Stage, Token};
use super::unit::Unit;
use super::{Danger, DangerKind, Related};

/// Clones followed in one script at most.
const MAX_CLONES: usize = 16;

/// A repository cloned by the script.
struct Clone {
    /// The folder it is cloned into, as written (`/tmp/helper`, `helper`).
    dir: String,
    /// The URL, for the message.
    url: String,
    /// Where the clone command stands.
    start: usize,
    end: usize,
    /// Configured for a build first (`./configure`, `cmake`): a build from source.
    built: bool,
}

/// Programs that configure a build from source.
const BUILD_STEPS: &[&str] = &[
    "configure",
    "cmake",
    "phpize",
    "autogen.sh",
    "meson",
    "bootstrap.sh",
];

/// Installs run from a fresh clone of `unit`.
pub(crate) fn check(unit: &Unit, out: &mut Vec<Danger>) {
    let mut clones: Vec<Clone> = Vec::new();
    let mut inside: Option<usize> = None;
    let mut found = Vec::new();
    for placed in &unit.placed {
        for stage in &placed.statement.stages {
            let Some(p) = stage.program() else {
                continue;
            };
            let args = stage.args();
            if p == "git" {
                match git_subcommand(args) {
                    Some(("clone", rest)) => {
                        if let Some(c) = cloned(stage, rest)
                            && clones.len() < MAX_CLONES
                        {
                            clones.push(c);
                        }
                    }
                    // A commit or tag checked out: what runs is what was reviewed.
                    Some(("checkout" | "reset" | "switch", rest))
                        if rest.iter().any(|a| pinned_ref(&a.text)) =>
                    {
                        return;
                    }
                    _ => {}
                }
                continue;
            }
            if clones.is_empty() {
                continue;
            }
            if p == "cd" || p == "pushd" {
                let to = args.iter().find(|a| !a.text.starts_with('-'));
                inside = to.and_then(|t| clones.iter().position(|c| same_dir(&c.dir, &t.text)));
                continue;
            }
            let Some(pi) = stage.program_index() else {
                continue;
            };
            let program = &stage.words[pi];
            // `./configure`, `cmake`, `phpize`: built from source the way its README says,
            // where `make install` is the last step of a documented build.
            if BUILD_STEPS.contains(&p.as_str()) {
                if let Some(i) = inside {
                    clones[i].built = true;
                }
                continue;
            }
            if let Some(i) = installs_from(&p, program, args, &clones, inside) {
                // A checkout's own set-up script (`./setup.sh`, `script/bootstrap`) prepares
                // it for work; `make install` or `./install.sh` install it for the system.
                let named = |t: &str| {
                    let t = t.to_ascii_lowercase();
                    t.contains("setup") || t.contains("bootstrap")
                };
                let setup = named(&program.text) || args.first().is_some_and(|a| named(&a.text));
                found.push((i, program.start, stage.end, setup));
            }
        }
    }
    for (i, start, end, setup) in found {
        let c = &clones[i];
        if out.len() >= super::MAX_DANGERS {
            return;
        }
        out.push(Danger {
            start,
            end: end.max(start),
            kind: if throwaway(&c.dir) || !setup {
                DangerKind::UntrustedInstall
            } else {
                DangerKind::CheckoutInstall
            },
            what: format!(
                "an install from a clone of {}",
                super::exfil::shorten(&c.url)
            ),
            related: Some(Related {
                start: c.start,
                end: c.end.max(c.start),
                what: "cloned here, at no fixed commit".to_string(),
            }),
        });
    }
}

/// A folder nobody looks at again: a temporary one (`/tmp/x`, `$TMPDIR/x`, `$(mktemp -d)`)
/// or a hidden one (`~/.cache/x`, `.plugin`). An install run from there is out of view; a
/// clone in the working folder is a checkout the user keeps and can read.
fn throwaway(dir: &str) -> bool {
    let d = dir.trim_matches(['"', '\'']);
    let lower = d.to_ascii_lowercase();
    [
        "/tmp",
        "/var/tmp",
        "/dev/shm",
        "$tmp",
        "${tmp",
        "$(mktemp",
        "%temp%",
        "$env:temp",
    ]
    .iter()
    .any(|t| lower.starts_with(t))
        || d.split('/')
            .any(|part| part.starts_with('.') && part != "." && part != "..")
}

/// The subcommand of `git` and its arguments (after `-C dir` and `-c k=v`).
fn git_subcommand(args: &[Token]) -> Option<(&str, &[Token])> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match a.text.as_str() {
            "-C" | "-c" => i += 2,
            t if t.starts_with('-') => i += 1,
            t => return Some((t, &args[i + 1..])),
        }
    }
    None
}

/// Options of `git clone` followed by a value.
const CLONE_VALUE_OPTIONS: &[&str] = &[
    "-b",
    "--branch",
    "--depth",
    "-o",
    "--origin",
    "-c",
    "--config",
    "--reference",
    "-u",
    "--upload-pack",
    "--separate-git-dir",
    "--filter",
    "-j",
    "--jobs",
];

/// The clone a `git clone` stage makes, unless it is pinned to a release tag.
fn cloned(stage: &Stage, rest: &[Token]) -> Option<Clone> {
    let mut positional = Vec::new();
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        let t = a.text.as_str();
        if CLONE_VALUE_OPTIONS.contains(&t) {
            if matches!(t, "-b" | "--branch")
                && rest.get(i + 1).is_some_and(|v| pinned_ref(&v.text))
            {
                return None;
            }
            i += 2;
            continue;
        }
        if let Some(v) = t.strip_prefix("--branch=")
            && pinned_ref(v)
        {
            return None;
        }
        if !t.starts_with('-') {
            positional.push(t);
        }
        i += 1;
    }
    let url = *positional.first()?;
    if !(url.contains("://") || url.starts_with("git@")) {
        return None;
    }
    let dir = positional.get(1).map_or_else(
        || {
            url.trim_end_matches('/')
                .rsplit(['/', ':'])
                .next()
                .unwrap_or("")
                .trim_end_matches(".git")
                .to_string()
        },
        |d| d.to_string(),
    );
    if dir.is_empty() {
        return None;
    }
    Some(Clone {
        dir,
        url: url.to_string(),
        start: stage.start,
        end: stage.end,
        built: false,
    })
}

/// A commit hash or a version tag (`v1.2.3`, `1.4`): a reference that does not move.
fn pinned_ref(r: &str) -> bool {
    let r = r.trim_matches(['"', '\'']);
    let hex = r.len() >= 7 && r.len() <= 40 && r.chars().all(|c| c.is_ascii_hexdigit());
    let version = r
        .strip_prefix('v')
        .unwrap_or(r)
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit())
        && r.contains('.');
    hex || version
}

/// Names of scripts that install what they come with.
fn install_script(path: &str) -> bool {
    let base = path
        .trim_matches(['"', '\''])
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    ["install", "setup", "bootstrap"]
        .iter()
        .any(|w| base.starts_with(w))
}

/// Interpreters that run a script given as their first operand.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "python", "python3", "node", "perl", "ruby",
];

/// The clone this command installs from, if it does: an install script of the clone run
/// (by its path, or by a relative one from inside the clone), `make install` there.
fn installs_from(
    p: &str,
    program: &Token,
    args: &[Token],
    clones: &[Clone],
    inside: Option<usize>,
) -> Option<usize> {
    let of_clone = |path: &str| -> Option<usize> {
        let path = path.trim_matches(['"', '\'']);
        clones
            .iter()
            .position(|c| {
                path.trim_start_matches("./")
                    .strip_prefix(c.dir.trim_start_matches("./").trim_end_matches('/'))
                    .is_some_and(|r| r.starts_with('/'))
            })
            .or_else(|| inside.filter(|_| !path.starts_with('/') && !path.starts_with('~')))
    };
    if p == "make" {
        if !args.iter().any(|a| a.text == "install") {
            return None;
        }
        let dir = args
            .iter()
            .position(|a| a.text == "-C")
            .and_then(|i| args.get(i + 1));
        return match dir {
            Some(d) => clones.iter().position(|c| same_dir(&c.dir, &d.text)),
            None => inside,
        }
        .filter(|i| !clones[*i].built);
    }
    let script = if INTERPRETERS.contains(&p) {
        args.iter()
            .find(|a| !a.text.starts_with('-'))?
            .text
            .as_str()
    } else {
        program.text.as_str()
    };
    let relative = script.starts_with("./") || script.contains('/');
    if !relative && !INTERPRETERS.contains(&p) {
        return None;
    }
    install_script(script).then(|| of_clone(script)).flatten()
}

/// `helper`, `./helper`, `"/tmp/helper/"`: one folder.
fn same_dir(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        s.trim_matches(['"', '\''])
            .trim_start_matches("./")
            .trim_end_matches('/')
            .to_string()
    };
    norm(a) == norm(b)
}
