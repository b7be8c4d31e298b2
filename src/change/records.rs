//! Agent Skills and MCP servers compared (`crate::lock::record`): paired by file and name, by
//! name, then by content (a rename); each field that changed is a finding on the new side with
//! the old side as the related place.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::ChangeKind;
use super::record_briefs::{Briefs, Seen};
use crate::diagnostics::Diagnostic;
use crate::lock::claims::Claims;
use crate::lock::record::{Field, Kind, Record, describe};
use crate::rules::{Rule, breaking as rules};

/// One skill or server that changed, with its findings and where it is in the working tree.
pub(crate) struct Changed<'b, 'a> {
    /// What became of it.
    pub change: ChangeKind<'b>,
    /// It (the old version when it was removed).
    pub record: Seen<'b, 'a>,
    /// Its file in the working tree (the old file's new home when it was removed).
    pub home: PathBuf,
    /// The findings about it.
    pub diagnostics: Vec<Diagnostic>,
}

/// Every skill and server added, removed, renamed or changed from `old` to `new`, handed to
/// `each` as it is found (400,000 added servers were each made a change and held). `home`
/// maps an old file to its place in the working tree.
pub(crate) fn compare<'b, 'a>(
    old: &'b Briefs<'a>,
    new: &'b Briefs<'a>,
    home: &dyn Fn(&Path) -> PathBuf,
    base: &str,
    each: &mut dyn FnMut(Changed<'b, 'a>),
) {
    let mut old_taken = vec![false; old.len()];
    // Same file and name, then the same name elsewhere (a moved file), then the same content
    // under another name (a rename); each through an index that passes a taken candidate
    // once (8,000 moved files of one server name took 7.6 s, one home made for each pair).
    let homes: Vec<PathBuf> = old.files().map(|f| home(&f.path)).collect();
    let home_of = |o: usize| homes[old.file_id(o)].as_path();
    let by_name = Claims::new((0..old.len()).map(|o| {
        let r = old.get(o);
        (o, (r.kind, r.name), home_of(o))
    }));
    let wants = (0..new.len()).map(|n| {
        let r = new.get(n);
        ((r.kind, r.name), new.path(n))
    });
    let named = by_name.pair(wants, &mut old_taken);
    drop(by_name);
    let by_identity = Claims::new((0..old.len()).filter(|&o| !old_taken[o]).map(|o| {
        let r = old.get(o);
        (o, (r.kind, r.identity), ())
    }));
    // Only the records no old one of their name took can be renames, and only when an old
    // one is left: nothing to look up for 400,000 added servers when none was there before.
    let unnamed = (0..new.len()).filter(|&n| named[n].is_none());
    let renamed_from = if by_identity.is_empty() {
        Vec::new()
    } else {
        let wants = unnamed.clone().map(|n| {
            let r = new.get(n);
            ((r.kind, r.identity), ())
        });
        by_identity.pair(wants, &mut old_taken)
    };
    drop(by_identity);
    // Each new record with its old version, if any: by name first, then by content.
    let pairs = || {
        let paired = named
            .iter()
            .enumerate()
            .filter_map(|(n, o)| Some((Some((*o)?), n)));
        let renamed_or_added = unnamed
            .clone()
            .zip(renamed_from.iter().copied().chain(std::iter::repeat(None)))
            .map(|(n, o)| (o, n));
        paired.chain(renamed_or_added)
    };
    // Only the versions of one name whose fields differ are compared field by field: they
    // alone are made in full again.
    let changed = |o: usize, n: usize| {
        let (a, b) = (old.get(o), new.get(n));
        a.name == b.name && a.identity != b.identity
    };
    let compared = || {
        pairs()
            .filter_map(|(o, n)| Some((o?, n)))
            .filter(|&(o, n)| changed(o, n))
    };
    let old_full = old.full(compared().map(|(o, _)| o));
    let new_full = new.full(compared().map(|(_, n)| n));
    for (o, n) in pairs() {
        let record = new.get(n);
        let path = new.path(n).to_path_buf();
        let (change, diagnostics) = match o {
            Some(o) if old.get(o).name == record.name => {
                if !changed(o, n) {
                    continue;
                }
                let (Some(a), Some(b)) = (old_full.get(&o), new_full.get(&n)) else {
                    continue;
                };
                (ChangeKind::Changed, fields(a, b, base))
            }
            Some(o) => {
                let from = old.get(o);
                let change = ChangeKind::Renamed { from: from.name };
                (change, vec![renamed(&from, &record, base)])
            }
            None => (ChangeKind::Added, Vec::new()),
        };
        each(Changed {
            change,
            record,
            home: path,
            diagnostics,
        });
    }
    for o in (0..old.len()).filter(|&o| !old_taken[o]) {
        let record = old.get(o);
        each(Changed {
            change: ChangeKind::Removed,
            record,
            home: home_of(o).to_path_buf(),
            diagnostics: vec![removed(&record, base)],
        });
    }
}

/// BRK050 or BRK060, on the old file.
fn removed(old: &Seen<'_, '_>, base: &str) -> Diagnostic {
    let (rule, who) = match old.kind {
        Kind::Skill => (
            &rules::SKILL_REMOVED,
            "agents that load the skill by its name no longer find it",
        ),
        _ => (
            &rules::SERVER_REMOVED,
            "clients no longer start it: every tool it offered is gone, and agents and tools that call them fail",
        ),
    };
    Diagnostic::new(
        rule,
        old.file,
        old.name_span,
        format!("{} `{}` was removed", old.kind.noun(), old.name),
    )
    .label(format!("defined here in {base}, gone now"))
    .note(who)
    .help("keep it until nothing uses it, or remove it in a major version of the repository")
}

/// BRK051 or BRK061, on the new name.
fn renamed(old: &Seen<'_, '_>, new: &Seen<'_, '_>, base: &str) -> Diagnostic {
    let rule = match new.kind {
        Kind::Skill => &rules::SKILL_RENAMED,
        _ => &rules::SERVER_RENAMED,
    };
    let (from, to) = (old.name, new.name);
    Diagnostic::new(
        rule,
        new.file,
        new.name_span,
        format!("{} `{from}` was renamed to `{to}`", new.kind.noun()),
    )
    .label(format!("renamed from `{from}`"))
    .related(old.file, old.name_span, format!("in {base}: `{from}`"))
    .note(match new.kind {
        Kind::Skill => format!("agents and users invoke the skill by its name: `{from}` is no longer found"),
        _ => format!("tools of a server are called under its name (`mcp__{from}__…`): every permission, setting and call naming `{from}` no longer applies"),
    })
    .help(format!("keep `{from}` as well until its users have moved, or rename it in a major version"))
}

/// The rule for a change to field `key` of a record of `kind`; none for a field whose change
/// does not matter to callers (a server's `version` is compared by its packages).
fn rule_of(kind: Kind, key: &str, added: bool) -> Option<&'static Rule> {
    let (first, rest) = key.split_once('/').unwrap_or((key, ""));
    Some(match (kind, first) {
        (_, "description" | "title") => &rules::DESCRIPTION_CHANGED,
        (Kind::Skill, _) => &rules::SKILL_CHANGED,
        (_, "package") => &rules::SERVER_PACKAGE_CHANGED,
        (_, "env" | "headers") => &rules::SERVER_ENV_CHANGED,
        (_, "packages") if rest.ends_with("/env") => &rules::SERVER_ENV_CHANGED,
        (_, "packages") if rest.ends_with("/run") => &rules::RUN_CHANGED,
        // A package added beside the others breaks nobody.
        (_, "packages") if added => return None,
        (_, "packages") => &rules::SERVER_PACKAGE_CHANGED,
        (_, "command" | "args" | "url" | "type" | "cwd" | "remotes") => &rules::RUN_CHANGED,
        (_, "settings") => &rules::RUN_SETTINGS_CHANGED,
        _ => return None,
    })
}

/// What a field is, shown in a message (values that cannot hold secrets only).
fn shown(key: &str, field: Option<&Field>) -> Option<String> {
    let value = &field?.value;
    match key {
        "package" => {
            let name = value.get("name")?.as_str()?;
            Some(match value.get("version").and_then(|v| v.as_str()) {
                Some(v) => format!("`{name}@{v}`"),
                None => format!("`{name}` (no version pinned)"),
            })
        }
        "command" | "type" => value
            .as_str()
            .map(|s| format!("`{}`", crate::diagnostics::visible(s))),
        k if k.starts_with("packages/") && !k.ends_with("/run") && !k.ends_with("/env") => value
            .get("version")
            .and_then(|v| v.as_str())
            .map(|v| format!("version `{v}`")),
        _ => None,
    }
}

/// One finding per field that differs between two versions of the same record.
fn fields(old: &Record<'_>, new: &Record<'_>, base: &str) -> Vec<Diagnostic> {
    let keys: BTreeSet<&String> = old.fields.keys().chain(new.fields.keys()).collect();
    let package_changed =
        old.fields.get("package").map(|f| &f.value) != new.fields.get("package").map(|f| &f.value);
    let mut out = Vec::new();
    for key in keys {
        let (o, n) = (old.fields.get(key), new.fields.get(key));
        if o.map(|f| &f.value) == n.map(|f| &f.value) {
            continue;
        }
        // The arguments that name a new package are that package's change.
        if key == "args" && package_changed {
            continue;
        }
        let Some(rule) = rule_of(new.kind, key, o.is_none()) else {
            continue;
        };
        let subject = describe(new.kind, key, &new.name);
        let message = match (o, n) {
            (None, _) => format!("{subject} was added"),
            (_, None) => format!("{subject} was removed"),
            _ => match (shown(key, o), shown(key, n)) {
                (Some(a), Some(b)) => format!("{subject} changed from {a} to {b}"),
                _ => format!("{subject} changed"),
            },
        };
        let was = match shown(key, o) {
            Some(v) => format!("in {base}: {v}"),
            None if o.is_some() => format!("in {base}"),
            None => format!("in {base}: not there"),
        };
        let d = Diagnostic::new(rule, new.file, new.site(key), message)
            .label(if n.is_some() {
                "changed here"
            } else {
                "removed from here"
            })
            .related(old.file, old.site(key), was);
        out.push(explain(d, rule));
    }
    out
}

/// The note and help every finding of `rule` about a skill or server carries.
fn explain(d: Diagnostic, rule: &Rule) -> Diagnostic {
    let (note, help) = match rule.code {
        "BRK062" => (
            "clients now fetch and run other code under the server's name: tools may be gone or behave differently, and the new package has not been reviewed",
            "review the new package (its tools, its publisher) as if it were a new server, and pin its version",
        ),
        "BRK063" => (
            "a server given other variables or headers reads other credentials or settings; one it now expects and does not get fails to start",
            "say in the change which variables users must set, and review what each one grants",
        ),
        "BRK052" => (
            "the agent follows the skill's instructions and runs its files: a change after review is how a skill gets poisoned",
            "read the new instructions and files as a reviewer of a new skill would",
        ),
        "BRK032" => (
            "the model decides when to use it from this text",
            "check that the new text still says what it does and nothing more",
        ),
        "BRK034" => (
            "a setting decides what a run may do and when it is stopped",
            "review the new settings as part of the server",
        ),
        _ => (
            "clients start the server differently: the same call may now run other code",
            "review the new command, arguments or URL as if it were a new server",
        ),
    };
    d.note(note).help(help)
}
