//! What a package runner or a container runtime fetches when it is not a registry package:
//! a git repository (`uvx --from git+https://…`) and its commit, a container image
//! (`docker run … IMAGE`) and its tag or digest. Either is unpinned when the next run may
//! get other code: a branch, no ref at all, no tag, or the `latest` tag.

/// Branch names: a ref that moves, unlike a commit or (by convention) a release tag.
const BRANCHES: &[&str] = &[
    "main", "master", "develop", "dev", "trunk", "head", "default",
];

/// The repository URL of a git package spec and its ref, when `spec` is one: pip and uv
/// write `git+URL@REF` (or `name @ git+URL@REF`), npm `git+URL#REF`, `github:owner/repo#REF`.
/// The ref is `None` when the spec has none.
pub(super) fn git_spec(spec: &str) -> Option<(&str, Option<&str>)> {
    let spec = spec.trim();
    // PEP 508: `name @ git+https://…`.
    let spec = spec.split_once(" @ ").map_or(spec, |(_, url)| url.trim());
    let lower = spec.get(..7).unwrap_or(spec).to_ascii_lowercase();
    if !(lower.starts_with("git+") || lower.starts_with("git:") || lower.starts_with("github:")) {
        return None;
    }
    // A fragment (`#subdirectory=…` for pip, the commit-ish for npm) ends the URL.
    let (url, fragment) = match spec.split_once('#') {
        Some((u, f)) => (u, Some(f)),
        None => (spec, None),
    };
    if let Some(f) = fragment.filter(|f| !f.contains('=') && !f.is_empty()) {
        return Some((url, Some(f.trim_start_matches("semver:"))));
    }
    // pip's `@REF` comes after the last path segment's start (`git@host` is a user).
    let path_start = url.find("://").map_or(0, |i| i + 3);
    let last_slash = url[path_start..]
        .rfind('/')
        .map_or(path_start, |i| path_start + i);
    match url[last_slash..].rfind('@') {
        Some(at) => {
            let at = last_slash + at;
            Some((&url[..at], Some(&url[at + 1..]).filter(|r| !r.is_empty())))
        }
        None => Some((url, None)),
    }
}

/// True when `git_ref` names a moving target: none, or a branch.
pub(super) fn floating_ref(git_ref: Option<&str>) -> bool {
    git_ref.is_none_or(|r| BRANCHES.contains(&r.to_ascii_lowercase().as_str()))
}

/// An image `docker run` or `podman run` starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ImageRun {
    /// Index, in the argument vector, of the image word.
    pub index: usize,
    /// The runtime and subcommand (`docker run`).
    pub runner: &'static str,
    /// The image without tag or digest.
    pub image: String,
    /// The tag written, when it is `latest` (no tag at all is `None`).
    pub floating: Option<String>,
}

/// `docker run` options that take a value in the next word (unless written `--opt=value`).
const VALUED: &[&str] = &[
    "-a",
    "--attach",
    "--add-host",
    "--annotation",
    "--blkio-weight",
    "--cap-add",
    "--cap-drop",
    "--cgroup-parent",
    "--cgroupns",
    "--cidfile",
    "--cpu-period",
    "--cpu-quota",
    "--cpu-shares",
    "-c",
    "--cpus",
    "--cpuset-cpus",
    "--cpuset-mems",
    "--device",
    "--device-cgroup-rule",
    "--device-read-bps",
    "--device-write-bps",
    "--dns",
    "--dns-option",
    "--dns-search",
    "--domainname",
    "--entrypoint",
    "-e",
    "--env",
    "--env-file",
    "--expose",
    "--gpus",
    "--group-add",
    "--health-cmd",
    "--health-interval",
    "--health-retries",
    "--health-start-period",
    "--health-timeout",
    "-h",
    "--hostname",
    "--ip",
    "--ip6",
    "--ipc",
    "--isolation",
    "--kernel-memory",
    "-l",
    "--label",
    "--label-file",
    "--link",
    "--log-driver",
    "--log-opt",
    "--mac-address",
    "-m",
    "--memory",
    "--memory-reservation",
    "--memory-swap",
    "--memory-swappiness",
    "--mount",
    "--name",
    "--network",
    "--net",
    "--network-alias",
    "--oom-score-adj",
    "--pid",
    "--pids-limit",
    "--platform",
    "-p",
    "--publish",
    "--pull",
    "--restart",
    "--runtime",
    "--security-opt",
    "--shm-size",
    "--stop-signal",
    "--stop-timeout",
    "--storage-opt",
    "--sysctl",
    "--tmpfs",
    "-u",
    "--user",
    "--userns",
    "--ulimit",
    "--uts",
    "-v",
    "--volume",
    "--volume-driver",
    "--volumes-from",
    "-w",
    "--workdir",
    "--arch",
    "--os",
    "--variant",
    "--secret",
    "--hooks-dir",
    "--pod",
];

/// The image `argv` (program first) runs with `docker run`, `podman run` or `… container
/// run`, when it has no tag or digest, or the `latest` tag.
pub(super) fn unpinned_image(argv: &[&str]) -> Option<ImageRun> {
    let program = super::program_name(argv.first()?).to_ascii_lowercase();
    let program = program.strip_suffix(".exe").unwrap_or(&program);
    let runner = match program {
        "docker" => "docker run",
        "podman" => "podman run",
        _ => return None,
    };
    let first = match (argv.get(1).copied(), argv.get(2).copied()) {
        (Some("run"), _) => 2,
        (Some("container"), Some("run")) => 3,
        _ => return None,
    };
    let mut i = first;
    let mut local = Local::default();
    while let Some(word) = argv.get(i) {
        if *word == "--" {
            i += 1;
            break;
        }
        if !word.starts_with('-') {
            break;
        }
        let takes_value = !word.contains('=') && VALUED.contains(word);
        let value = match word.split_once('=') {
            Some((_, v)) => Some(v),
            None if takes_value => argv.get(i + 1).copied(),
            None => None,
        };
        local.note(word.split('=').next().unwrap_or(word), value);
        i += if takes_value { 2 } else { 1 };
    }
    let word = *argv.get(i)?;
    let (image, tag) = split_image(word)?;
    if local.built_here(image) {
        return None;
    }
    match tag {
        Tag::Pinned => None,
        Tag::None => Some(ImageRun {
            index: i,
            runner,
            image: image.to_string(),
            floating: None,
        }),
        Tag::Latest(t) => Some(ImageRun {
            index: i,
            runner,
            image: image.to_string(),
            floating: Some(t.to_string()),
        }),
    }
}

/// What the options of a `docker run` say of where its image comes from.
#[derive(Default)]
struct Local<'a> {
    /// `--pull never`: only an image already on the machine runs.
    never_pulled: bool,
    /// The project of a Compose network it joins (`--network shop_default`).
    compose_project: Option<&'a str>,
}

impl<'a> Local<'a> {
    fn note(&mut self, flag: &str, value: Option<&'a str>) {
        match (flag, value) {
            ("--pull", Some("never")) => self.never_pulled = true,
            ("--network" | "--net", Some(net)) => {
                self.compose_project = net.strip_suffix("_default").filter(|p| !p.is_empty());
            }
            _ => {}
        }
    }

    /// True when `image` is one the machine built and no registry serves: pulling is
    /// turned off, or it is named as Compose names the images it builds for the project
    /// whose network the container joins (`shop-api` beside `shop_default`).
    fn built_here(&self, image: &str) -> bool {
        self.never_pulled
            || self.compose_project.is_some_and(|project| {
                image
                    .strip_prefix(project)
                    .is_some_and(|rest| rest.starts_with('-') || rest.starts_with('_'))
            })
    }
}

/// How an image reference names what it runs.
enum Tag<'a> {
    /// A version tag or a digest.
    Pinned,
    /// Neither: the registry's `latest`.
    None,
    /// The `latest` tag itself.
    Latest(&'a str),
}

/// The image name of `word` and its tag, when `word` is an image reference (lowercase
/// `[host[:port]/]path[:tag][@digest]`); a template the client fills in is not one.
fn split_image(word: &str) -> Option<(&str, Tag<'_>)> {
    let valid = !word.is_empty()
        && word.bytes().all(|b| {
            b.is_ascii_lowercase()
                || b.is_ascii_digit()
                || matches!(b, b'.' | b'_' | b'-' | b'/' | b':' | b'@')
        })
        && word.starts_with(|c: char| c.is_ascii_alphanumeric());
    if !valid {
        return None;
    }
    if word.contains("@sha256:") || word.contains("@sha512:") {
        return Some((word.split('@').next().unwrap_or(word), Tag::Pinned));
    }
    // The tag follows the last `:` after the last `/` (a `:` before it is a registry port).
    let last_slash = word.rfind('/').map_or(0, |i| i + 1);
    match word[last_slash..].rfind(':') {
        Some(at) => {
            let at = last_slash + at;
            let tag = &word[at + 1..];
            if tag == "latest" {
                Some((&word[..at], Tag::Latest(tag)))
            } else if tag.is_empty() {
                Some((&word[..at], Tag::None))
            } else {
                Some((&word[..at], Tag::Pinned))
            }
        }
        None => Some((word, Tag::None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_specs_and_their_refs() {
        assert_eq!(
            git_spec("git+https://github.com/acme/tool"),
            Some(("git+https://github.com/acme/tool", None))
        );
        assert_eq!(
            git_spec("git+https://github.com/acme/tool@v1.2.0"),
            Some(("git+https://github.com/acme/tool", Some("v1.2.0")))
        );
        assert_eq!(
            git_spec("git+ssh://git@github.com/acme/tool.git@4f2a9c1"),
            Some(("git+ssh://git@github.com/acme/tool.git", Some("4f2a9c1")))
        );
        assert_eq!(
            git_spec("tool @ git+https://github.com/acme/tool@main#subdirectory=cli"),
            Some(("git+https://github.com/acme/tool", Some("main")))
        );
        assert_eq!(
            git_spec("github:acme/tool#semver:1.2.3"),
            Some(("github:acme/tool", Some("1.2.3")))
        );
        assert_eq!(git_spec("mcp-server-git"), None);
        assert_eq!(git_spec("https://example.com/x.whl"), None);
        assert!(floating_ref(None) && floating_ref(Some("main")) && floating_ref(Some("HEAD")));
        assert!(!floating_ref(Some("v1.2.0")) && !floating_ref(Some("4f2a9c1")));
    }

    fn image(argv: &[&str]) -> Option<(usize, String, Option<String>)> {
        unpinned_image(argv).map(|r| (r.index, r.image, r.floating))
    }

    #[test]
    fn images_without_a_tag_or_digest_are_unpinned() {
        assert_eq!(
            image(&[
                "docker",
                "run",
                "-i",
                "--rm",
                "-e",
                "TOKEN",
                "ghcr.io/acme/mcp"
            ]),
            Some((6, "ghcr.io/acme/mcp".into(), None))
        );
        assert_eq!(
            image(&[
                "podman",
                "container",
                "run",
                "--rm",
                "acme/mcp:latest",
                "serve"
            ]),
            Some((4, "acme/mcp".into(), Some("latest".into())))
        );
        assert_eq!(
            image(&["docker", "run", "--env=A=b", "localhost:5000/mcp"]),
            Some((3, "localhost:5000/mcp".into(), None))
        );
        assert_eq!(image(&["docker", "run", "-i", "acme/mcp:1.4.2"]), None);
        assert_eq!(image(&["docker", "run", "acme/mcp@sha256:0123abcd"]), None);
        assert_eq!(image(&["docker", "run", "${IMAGE}"]), None);
        assert_eq!(image(&["docker", "exec", "-i", "box", "mcp"]), None);
        assert_eq!(image(&["docker", "run"]), None);
        // Built on this machine: pulling turned off, or a Compose project's own image.
        assert_eq!(image(&["docker", "run", "--pull", "never", "mcp"]), None);
        assert_eq!(image(&["docker", "run", "--pull=never", "acme/mcp"]), None);
        assert_eq!(
            image(&[
                "docker",
                "run",
                "--network",
                "shop_default",
                "shop-api:latest"
            ]),
            None
        );
        assert_eq!(
            image(&["docker", "run", "--network=shop_default", "shop_api"]),
            None
        );
        assert_eq!(
            image(&["docker", "run", "--network", "shop_default", "acme/mcp"]),
            Some((4, "acme/mcp".into(), None))
        );
        assert_eq!(
            image(&["docker", "run", "--pull", "always", "acme/mcp"]),
            Some((4, "acme/mcp".into(), None))
        );
        assert_eq!(image(&["node", "run", "x"]), None);
    }
}
