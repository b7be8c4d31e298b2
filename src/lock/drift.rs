//! `toolc check --locked`: every tool compared with `toolc.lock`. A tool whose definition no
//! longer matches is reported at each part that changed; a tool the lock does not list, and a
//! listed tool that is gone, are reported too.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use super::claims::Claims;
use super::file::{self, FILE_NAME, Locked};
use super::record::Kind;
use super::{Entry, entry_at, entry_path, root};
use crate::change::locate::Located;
use crate::change::schema::display;
use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::Findings;
use crate::formats::{self, FileResult};
use crate::fs::{Confined, FileSystem, ReadError};
use crate::ir::Lowered;
use crate::rules::lock as rules;
use crate::scope::Scope;
use crate::source::{FormatId, SourceFile, Span};

const REVIEW: &str = "review the change, then run `toolc lock` and commit `toolc.lock` with it";

/// The drift of the tools of `results` from the lock of `config`'s repository.
pub(crate) fn drift(
    config: &Config,
    cwd: &Path,
    scope: &Scope,
    results: &[FileResult],
) -> Vec<Diagnostic> {
    let root = root(config);
    let path = root.join(FILE_NAME);
    let display = crate::discover::display_path(&path, cwd);
    let invalid = |text: String, span: Span, message: String, help: &str| {
        let file = SourceFile::new(path.clone(), display.clone(), FormatId::Config, text);
        vec![
            Diagnostic::new(&rules::INVALID_LOCK_FILE, &file, span, message).help(help.to_string()),
        ]
    };
    // A lock that links out of the repository is not read (or echoed in a finding).
    let text = match Confined::new([root.as_path()]).read(&path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                return invalid(
                    String::new(),
                    Span::point(0),
                    format!("`{FILE_NAME}` is not UTF-8"),
                    "run `toolc lock` to write it again",
                );
            }
        },
        Err(ReadError::Missing(_)) => {
            return invalid(
                String::new(),
                Span::point(0),
                format!("there is no `{FILE_NAME}` to check the tools against"),
                "run `toolc lock` and commit the file it writes",
            );
        }
        Err(e) => {
            return invalid(
                String::new(),
                Span::point(0),
                format!("cannot read `{FILE_NAME}`: {e}"),
                "run `toolc lock` to write it again",
            );
        }
    };
    let locked = match file::parse(&text) {
        Ok(l) => l,
        Err(e) => {
            return invalid(
                text,
                e.span,
                format!("`{FILE_NAME}` is not a lock toolc wrote: {}", e.message),
                "run `toolc lock` to write it again (and review what changed since)",
            );
        }
    };
    let lock_file = SourceFile::new(path, display, FormatId::Config, text);
    // The tools come first (see `file::parse`): cut, not copied into two new lists.
    let mut locked = locked;
    let tools = locked
        .iter()
        .position(|l| l.entry.kind != Kind::Tool)
        .unwrap_or(locked.len());
    let others = locked.split_off(tools);
    let fs = Confined::new([root.as_path()]);
    let records = super::record::records(results, &fs);
    let mut out = super::drift_records::drift(&records, &others, &root, scope, &lock_file);
    let lowering = formats::lower_all(results, &|_| true, &root);
    let mut taken = vec![false; locked.len()];
    let claims = Claims::new(locked.iter().enumerate().map(|(i, l)| {
        let key = (l.entry.format.as_str(), l.entry.name.as_str());
        (i, key, l.entry.path.as_str())
    }));
    // Each tool's entry is made when it is compared: only its key and path are kept for all.
    let paths: Vec<String> = lowering
        .tools
        .iter()
        .map(|t| entry_path(t, &root))
        .collect();
    let wants = lowering.tools.iter().zip(&paths).map(|(t, path)| {
        let key = (t.tool.provenance.format, t.tool.name.as_str());
        (key, path.as_str())
    });
    let found = claims.pair(wants, &mut taken);
    for ((tool, path), found) in lowering.tools.iter().zip(paths).zip(found) {
        let now = entry_at(tool, path);
        match found {
            Some(i) => {
                if locked[i].entry.sha256 != now.sha256 {
                    out.extend(changed(tool, &locked[i], &now, &lock_file));
                }
            }
            None => out.push(
                Diagnostic::new(
                    &rules::TOOL_NOT_LOCKED,
                    tool.file,
                    tool.name_span,
                    format!("tool `{}` is not in `{FILE_NAME}`", now.name),
                )
                .label("not reviewed")
                .note("a tool added (or renamed) since the lock was written has not been reviewed with it")
                .help(REVIEW),
            ),
        }
    }
    let mut missing = Findings::default();
    for (i, l) in locked.iter().enumerate() {
        let home = root.join(&l.entry.path);
        if taken[i] || !scope.roots.iter().any(|r| home.starts_with(r)) {
            continue;
        }
        // Every finding here is on the lock: a lock of a million entries for tools that do
        // not exist costs a count past the cap, not a finding each.
        if missing.counted(&rules::LOCKED_TOOL_MISSING) {
            continue;
        }
        missing.push(
            Diagnostic::new(
                &rules::LOCKED_TOOL_MISSING,
                &lock_file,
                l.span,
                format!(
                    "tool `{}` ({}, `{}`) is locked but no longer defined",
                    l.entry.name, l.entry.format, l.entry.path
                ),
            )
            .label("locked here")
            .note("a tool removed (or renamed) since the lock was written")
            .help(REVIEW),
        );
    }
    out.extend(missing.into_vec());
    out
}

/// One LCK001 per part and text of `tool` that differs from its lock entry.
fn changed(
    tool: &Lowered<'_>,
    locked: &Locked,
    now: &Entry,
    lock: &Arc<SourceFile>,
) -> Vec<Diagnostic> {
    let name = &now.name;
    let mut places: Vec<(String, &Arc<SourceFile>, Span, bool)> = Vec::new();
    let differs = |a: &std::collections::BTreeMap<String, String>,
                   b: &std::collections::BTreeMap<String, String>| {
        a.keys()
            .chain(b.keys())
            .filter(|k| a.get(*k) != b.get(*k))
            .cloned()
            .collect::<BTreeSet<String>>()
    };
    let site = |s: Option<Span>| s.unwrap_or(tool.name_span);
    for part in differs(&locked.entry.parts, &now.parts) {
        let (subject, file, span) = match part.as_str() {
            "input_schema" => {
                let at = Located::input(tool);
                (format!("the input schema of `{name}`"), at.file, at.at(&[]))
            }
            "output_schema" => {
                let at = Located::output(tool);
                (
                    format!("the output schema of `{name}`"),
                    at.file,
                    at.at(&[]),
                )
            }
            "run" => (
                format!("how `{name}` runs"),
                tool.file,
                site(tool.sites.run),
            ),
            "risk" => (
                format!("what `{name}` may touch"),
                tool.file,
                site(tool.sites.risk),
            ),
            "version" => (
                format!("the version of `{name}`"),
                tool.file,
                site(tool.sites.version),
            ),
            "tags" => (
                format!("the tags of `{name}`"),
                tool.file,
                site(tool.sites.tags),
            ),
            setting if setting.starts_with("settings/") => (
                format!("`{}` of `{name}`", setting.trim_start_matches("settings/")),
                tool.file,
                site(tool.sites.settings),
            ),
            "system_prompt_sha256" => (
                format!("the system prompt of `{name}`"),
                tool.file,
                tool.name_span,
            ),
            other => (format!("`{other}` of `{name}`"), tool.file, tool.name_span),
        };
        places.push((subject, file, span, false));
    }
    let mut guidance = false;
    for text in differs(&locked.entry.texts, &now.texts) {
        let segments: Vec<String> = text.split('/').map(str::to_string).collect();
        let (subject, file, span) = match segments.first().map(String::as_str) {
            Some("description") => (
                format!("the description of `{name}`"),
                tool.file,
                tool.description_span,
            ),
            Some("title") => (
                format!("the title of `{name}`"),
                tool.file,
                site(tool.sites.title),
            ),
            Some("guidance") => {
                if guidance {
                    continue;
                }
                guidance = true;
                (
                    format!("the use guidance of `{name}`"),
                    tool.file,
                    site(tool.sites.guidance),
                )
            }
            Some(side @ ("input_schema" | "output_schema")) => {
                let at = if side == "input_schema" {
                    Located::input(tool)
                } else {
                    Located::output(tool)
                };
                let path = &segments[1..];
                let field = path.last().map_or("description", String::as_str);
                let owner = display(&path[..path.len().saturating_sub(1)]);
                let subject = match (side, owner.is_empty()) {
                    ("input_schema", false) => {
                        format!("the {field} of parameter `{owner}` of `{name}`")
                    }
                    ("output_schema", false) => {
                        format!("the {field} of output property `{owner}` of `{name}`")
                    }
                    _ => format!(
                        "the {field} of the {} schema of `{name}`",
                        if side == "input_schema" {
                            "input"
                        } else {
                            "output"
                        }
                    ),
                };
                (subject, at.file, at.at(path))
            }
            _ => (format!("`{text}` of `{name}`"), tool.file, tool.name_span),
        };
        places.push((subject, file, span, true));
    }
    if places.is_empty() {
        places.push((
            format!("the definition of `{name}`"),
            tool.file,
            tool.name_span,
            false,
        ));
    }
    places
        .into_iter()
        .map(|(subject, file, span, text)| {
            let d = Diagnostic::new(
                &rules::LOCKED_TOOL_CHANGED,
                file,
                span,
                format!("{subject} changed since `{FILE_NAME}` was written"),
            )
            .label("changed since it was locked")
            .related(lock, locked.span, "locked here");
            let d = if text {
                d.note("a model reads this text: a change after review is how a tool's instructions get poisoned")
            } else {
                d.note("what was reviewed is not what runs now")
            };
            d.help(REVIEW)
        })
        .collect()
}
