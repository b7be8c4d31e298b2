//! Containers handed the user's secrets: `docker run -v ~/.ssh:/root/.ssh`, a bind mount of
//! a credential folder, the home folder or the host's root (`--mount
//! type=bind,source=/,target=/host`). Whatever runs in the image then reads them: one half
//! of an exfiltration, as reading the folder directly is.

use super::super::lex::Word;
use super::vocab::credential_store;
use super::{Danger, DangerKind, push};

/// Container engines whose `run` and `create` take `-v` and `--mount`.
pub(super) const ENGINES: &[&str] = &["docker", "podman", "nerdctl"];

/// The mounts of a `docker run` (`first` is the engine, `args` what follows) that hand the
/// container a credential store, the home folder or the root.
pub(super) fn check(script: &str, first: &Word, args: &[Word], out: &mut Vec<Danger>) {
    let runs = args
        .iter()
        .take(3)
        .any(|a| matches!(a.text.as_str(), "run" | "create"));
    if !runs {
        return;
    }
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let t = a.text.as_str();
        let (source, at) = match t {
            "-v" | "--volume" | "--mount" => match args.get(i + 1) {
                Some(next) => {
                    i += 1;
                    (source_of(t, &next.text), next)
                }
                None => break,
            },
            _ => match t.split_once('=') {
                Some((flag @ ("--volume" | "--mount"), value)) => (source_of(flag, value), a),
                _ => (None, a),
            },
        };
        i += 1;
        let Some(source) = source else {
            continue;
        };
        let what = if is_home_or_root(source) {
            format!("mounts {source} into a container")
        } else if credential_store(source).is_some_and(|s| s.alarming) {
            format!("mounts {source}, a credential store, into a container")
        } else {
            continue;
        };
        let shown = &script[first.start..at.end.max(first.start)];
        let what = if shown.len() < 80 {
            shown.to_string()
        } else {
            what
        };
        push(
            out,
            first.start,
            at.end,
            DangerKind::ReadsCredentials,
            &what,
        );
    }
}

/// The host path a `-v SRC:DST` or `--mount type=bind,source=SRC,…` mounts (a named
/// volume has no `/`, `~` or `$` and is none).
fn source_of<'v>(flag: &str, value: &'v str) -> Option<&'v str> {
    let source = if flag == "--mount" {
        value.split(',').find_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            matches!(k, "source" | "src").then_some(v)
        })?
    } else {
        value.split(':').next()?
    };
    source.starts_with(['/', '~', '$']).then_some(source)
}

/// `/`, `~`, `$HOME`, `/root`, `/home/NAME`, `/Users/NAME`.
fn is_home_or_root(path: &str) -> bool {
    let p = path.trim_end_matches('/');
    if matches!(p, "" | "~" | "$HOME" | "${HOME}" | "/root") {
        return true;
    }
    ["/home/", "/Users/"].iter().any(|h| {
        p.strip_prefix(h)
            .is_some_and(|user| !user.is_empty() && !user.contains('/'))
    })
}

#[cfg(test)]
mod tests {
    use super::super::{DangerKind, dangers};
    use crate::analysis::shell::Dialect;

    fn reads(line: &str) -> bool {
        dangers(line, Dialect::Posix)
            .iter()
            .any(|d| d.kind == DangerKind::ReadsCredentials)
    }

    #[test]
    fn secrets_mounted_into_a_container() {
        assert!(reads("docker run -i --rm -v ~/.ssh:/root/.ssh alpine sh"));
        assert!(reads("docker run -v /Users/me/.aws:/root/.aws:ro img:1"));
        assert!(reads("podman run --volume=$HOME:/home/u img"));
        assert!(reads(
            "docker run --mount type=bind,source=/,target=/host img"
        ));
    }

    #[test]
    fn the_project_mounted_into_a_container_is_no_secret() {
        assert!(!reads(
            "docker run --rm -v \"$PWD\":/workspace -w /workspace node:20 npm test"
        ));
        assert!(!reads(
            "docker run -v pgdata:/var/lib/postgresql/data postgres:16"
        ));
        assert!(!reads(
            "docker run -v ~/.cache/pip:/root/.cache/pip python:3.12"
        ));
        assert!(!reads("docker volume create -v x"));
    }
}
