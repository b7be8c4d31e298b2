//! What toolc knows of each runtime that loads the files it checks, as data: which release
//! (and which upstream commit) each fact was read from, what changed when, and which rules
//! apply only to some releases. A project names the releases it targets in `toolc.toml`
//! (`[runtimes] dojops = "1.0.9"`); by default toolc checks for the current release.

pub(crate) mod aml;
pub(crate) mod cycod;
pub(crate) mod dojops;
pub(crate) mod mcp_clients;
pub(crate) mod mcp_registry;
mod version;

pub(crate) use version::Version;

/// One runtime and the release toolc's knowledge of it was read from.
pub struct Runtime {
    /// The key in `[runtimes]` (`dojops`).
    pub id: &'static str,
    /// The name users know it by.
    pub name: &'static str,
    /// The release toolc checks for unless `[runtimes]` says otherwise.
    pub current: Version,
    /// Where the facts were read: repository, files and commit.
    pub read_from: &'static str,
    /// The format ids whose files this runtime loads.
    pub formats: &'static [&'static str],
    /// What changed when, oldest first: what a user reading a finding needs to know.
    pub changes: &'static [Change],
}

/// A change of a runtime that changes what toolc reports.
pub struct Change {
    /// The first release with the change.
    pub since: Version,
    /// What changed, one sentence.
    pub what: &'static str,
}

/// What toolc knows of a runtime or format that has no release a project could target in
/// `toolc.toml` (one built from source, clients that update themselves, a schema named in the
/// file itself): where it was read, and what changed when.
pub(crate) struct Unversioned {
    /// The name users know it by.
    pub name: &'static str,
    /// What the knowledge is as of: a commit, a schema version, current documentation.
    pub as_of: &'static str,
    /// Where the facts were read.
    pub read_from: &'static str,
    /// The format ids whose files it reads.
    pub formats: &'static [&'static str],
    /// What changed when, oldest first.
    pub changes: &'static [Dated],
}

/// A change known by its date, commit or schema version rather than a release number.
pub(crate) struct Dated {
    /// When: a date, a commit, a schema version.
    pub when: &'static str,
    /// What changed, one sentence.
    pub what: &'static str,
}

/// Every runtime or format toolc knows without release numbers.
pub(crate) static UNVERSIONED: &[&Unversioned] = &[
    &cycod::KNOWLEDGE,
    &mcp_clients::KNOWLEDGE,
    &mcp_registry::KNOWLEDGE,
];

/// A rule that applies only from some release of a runtime on (a file kind the runtime
/// stopped loading, say): it is off when the project targets an older release.
#[derive(Clone, Copy)]
pub(crate) struct Gate {
    /// The rule's code.
    pub code: &'static str,
    /// The runtime's id.
    pub runtime: &'static str,
    /// The first release the rule applies to.
    pub since: Version,
}

/// Every runtime toolc knows.
pub(crate) static RUNTIMES: &[&Runtime] = &[&dojops::RUNTIME, &aml::RUNTIME];

/// Every rule that applies only to some releases.
pub(crate) static GATES: &[Gate] = &[
    dojops::TOOL_YAML_GATE,
    dojops::SKILL_FOLDER_GATE,
    aml::DEFINITION_GATES[0],
    aml::DEFINITION_GATES[1],
    aml::DEFINITION_GATES[2],
];

/// The runtime with this id.
pub(crate) fn runtime(id: &str) -> Option<&'static Runtime> {
    RUNTIMES.iter().copied().find(|r| r.id == id)
}

/// The runtimes whose files `format` (a format id) describes.
pub(crate) fn for_format(format: &str) -> impl Iterator<Item = &'static Runtime> + '_ {
    RUNTIMES
        .iter()
        .copied()
        .filter(move |r| r.formats.contains(&format))
}

/// The releases of one runtime a finding holds for: what one release does and another does
/// not (a file kind it stopped loading, a program it started allowing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Releases {
    /// The runtime's id.
    pub runtime: &'static str,
    /// The first release it holds for (none: every release before `before`).
    pub from: Option<Version>,
    /// The first release it no longer holds for (none: every release from `from` on).
    pub before: Option<Version>,
}

impl serde::Serialize for Releases {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&(self.runtime, self.from, self.before), s)
    }
}

impl<'de> serde::Deserialize<'de> for Releases {
    /// Read back with the runtime's own id: a runtime this build does not know is an error.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Releases, D::Error> {
        let (id, from, before): (String, Option<Version>, Option<Version>) =
            serde::Deserialize::deserialize(d)?;
        let runtime = runtime(&id)
            .ok_or_else(|| serde::de::Error::custom("a runtime toolc does not know"))?
            .id;
        Ok(Releases {
            runtime,
            from,
            before,
        })
    }
}

impl Releases {
    /// From `since` on.
    pub const fn since(runtime: &'static str, since: Version) -> Releases {
        Releases {
            runtime,
            from: Some(since),
            before: None,
        }
    }

    /// For every release before `until`.
    pub const fn before(runtime: &'static str, until: Version) -> Releases {
        Releases {
            runtime,
            from: None,
            before: Some(until),
        }
    }
}

/// The releases a project targets: `[runtimes]` of its `toolc.toml`, else each runtime's
/// current release.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Targets {
    named: Vec<(&'static str, Version)>,
}

impl Targets {
    /// The release targeted for `runtime`.
    pub fn of(&self, runtime: &Runtime) -> Version {
        self.named
            .iter()
            .rev()
            .find(|(id, _)| *id == runtime.id)
            .map_or(runtime.current, |(_, v)| *v)
    }

    /// Target `version` of the runtime `id` (a later call wins).
    pub fn set(&mut self, id: &'static str, version: Version) {
        self.named.push((id, version));
    }

    /// `self` with `child`'s targets on top (an extending configuration wins).
    pub fn extended_by(mut self, child: Targets) -> Targets {
        self.named.extend(child.named);
        self
    }

    /// True when the release targeted for the runtime of `r` is among its releases.
    pub fn includes(&self, r: Releases) -> bool {
        let Some(runtime) = runtime(r.runtime) else {
            return true;
        };
        let v = self.of(runtime);
        r.from.is_none_or(|from| v >= from) && r.before.is_none_or(|before| v < before)
    }

    /// False when `code` is a rule of a release newer than the one targeted.
    pub fn applies(&self, code: &str) -> bool {
        GATES
            .iter()
            .filter(|g| g.code == code)
            .all(|g| runtime(g.runtime).is_none_or(|r| self.of(r) >= g.since))
    }

    /// Parse one `[runtimes]` entry: the runtime `id` and its release, or why not.
    pub fn parse_entry(id: &str, version: &str) -> Result<(&'static str, Version), String> {
        let Some(r) = runtime(id) else {
            let known: Vec<&str> = RUNTIMES.iter().map(|r| r.id).collect();
            return Err(format!(
                "`{id}` is not a runtime toolc knows; known runtimes: {}",
                known.join(", ")
            ));
        };
        let v = Version::parse(version).ok_or_else(|| {
            format!(
                "`{version}` is not a release number: write e.g. \"{}\"",
                r.current
            )
        })?;
        Ok((r.id, v))
    }
}

/// What `toolc rules --for FORMAT` says of the runtimes that load `format`: the release
/// toolc knows, where it was read, and what changed when (empty for a format no runtime
/// toolc versions loads).
pub(crate) fn history_text(format: &str) -> String {
    let mut out = String::new();
    for r in for_format(format) {
        out.push_str(&format!(
            "\n{} as toolc knows it: release {} (read from {}). What changed:\n",
            r.name, r.current, r.read_from
        ));
        for c in r.changes {
            out.push_str(&format!("  {} {}: {}\n", r.name, c.since, c.what));
        }
        out.push_str(&format!(
            "Checking for an older release: `[runtimes] {} = \"…\"` in toolc.toml.\n",
            r.id
        ));
    }
    for k in UNVERSIONED.iter().filter(|k| k.formats.contains(&format)) {
        out.push_str(&format!(
            "\n{} as toolc knows it: {} (read from {}). What changed:\n",
            k.name, k.as_of, k.read_from
        ));
        for c in k.changes {
            out.push_str(&format!("  {}: {}\n", c.when, c.what));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gate_turns_its_rule_off_for_older_releases() {
        let mut t = Targets::default();
        assert!(t.applies(dojops::TOOL_YAML_GATE.code));
        let (id, v) = Targets::parse_entry("dojops", "1.0.9").expect("valid");
        t.set(id, v);
        assert!(!t.applies(dojops::TOOL_YAML_GATE.code));
        assert!(t.applies("DOJ013"));
        assert!(Targets::parse_entry("dojopz", "1.0.9").is_err());
        assert!(Targets::parse_entry("dojops", "latest").is_err());
    }

    #[test]
    fn every_format_page_of_a_runtime_says_what_changed_when() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for r in RUNTIMES {
            for format in r.formats {
                let page = root.join(format!("docs/formats/{format}.md"));
                let text = std::fs::read_to_string(&page).unwrap_or_default();
                assert!(
                    text.contains("## What changed when")
                        && text.contains(&format!("{} as of release {}", r.name, r.current)),
                    "{}: say what changed when, and that toolc knows {} as of release {}",
                    page.display(),
                    r.name,
                    r.current
                );
                for c in r.changes {
                    assert!(
                        text.contains(&format!("| {} |", c.since)),
                        "{}: no row for {} {}",
                        page.display(),
                        r.name,
                        c.since
                    );
                }
            }
        }
    }

    #[test]
    fn every_format_page_of_an_unversioned_runtime_says_what_changed_when() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for k in UNVERSIONED {
            for format in k.formats {
                let page = root.join(format!("docs/formats/{format}.md"));
                let text = std::fs::read_to_string(&page).unwrap_or_default();
                assert!(
                    text.contains("## What changed when")
                        && text.contains(&format!("{} as of {}", k.name, k.as_of)),
                    "{}: say what changed when, and that toolc knows {} as of {}",
                    page.display(),
                    k.name,
                    k.as_of
                );
                for c in k.changes {
                    assert!(
                        text.contains(&format!("| {} |", c.when)),
                        "{}: no row for {}",
                        page.display(),
                        c.when
                    );
                }
            }
        }
    }

    #[test]
    fn every_gate_names_a_rule_and_a_runtime() {
        for g in GATES {
            let rule = crate::rules::lookup(g.code);
            assert!(rule.is_some(), "{}", g.code);
            assert!(runtime(g.runtime).is_some(), "{}", g.runtime);
            // The page says which releases the rule applies to.
            let page = rule.and_then(|r| r.page()).unwrap_or_default();
            assert!(
                page.contains("\nruntime: ") && page.contains(&g.since.to_string()),
                "{}: the page's front matter needs `runtime:` naming {}",
                g.code,
                g.since
            );
        }
    }
}
