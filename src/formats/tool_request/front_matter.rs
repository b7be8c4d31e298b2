//! The front matter: the spec's keys and their types (TRQ001–TRQ003, TRQ024), the approval
//! gate (TRQ005, TRQ006) and the network allowlist (TRQ021).

use super::inputs::{base_name, is_sha256, sandbox_dir};
use super::time::parse_timestamp;
use super::{Backend, Cx, Declared, KEYS, Meta, REJECTED, Request, RequestId, SHAPE, Stamp, rules};
use crate::analysis::paths::clean;
use crate::analysis::shell::shell_name;
use crate::formats::fields::{ItemPaths, Lowerer, MapRef, as_int};
use crate::formats::front_matter::FrontMatterWording;
use crate::source::Span;
use crate::syntax::{Node, NodeKind, Number};
use std::collections::HashSet;

impl Cx<'_> {
    /// Lower the front matter into what the body checks need, filling in `request`.
    pub(super) fn front_matter(&mut self, root: &Node, open: Span, request: &mut Request) -> Meta {
        let mut meta = Meta::default();
        let mut lw = Lowerer::new(self.file, &SHAPE);
        let Some(map) = lw.as_map(root, open, "") else {
            self.diags.extend(lw.diags);
            return meta;
        };
        lw.unknown_keys(
            map,
            KEYS,
            "the spec defines no such key: the executor ignores it",
        );
        if let Some(e) = lw.required(map, "request_type") {
            lw.enum_value(&e.value, "request_type", &["tool_request"]);
        }
        if let Some(e) = lw.required(map, "schema_version") {
            schema_version(&mut lw, &e.value);
        }
        if let Some((id, span)) = lw.required_str(map, "request_id", 1, usize::MAX)
            && !id.trim().is_empty()
        {
            request.request_id = Some(RequestId {
                value: id.to_string(),
                span,
            });
        }
        meta.created = lw
            .required_str(map, "created_utc", 1, usize::MAX)
            .and_then(|(s, span)| timestamp(&mut lw, "created_utc", s, span));
        approval(&mut lw, map, "requested_by", "who asked for this run");
        approval(&mut lw, map, "approved_by", "the human who approved it");
        if approval(&mut lw, map, "approved_utc", "when it was approved")
            && let Some(v) = map.node.value("approved_utc")
            && let Some(s) = v.as_str()
        {
            meta.approved = timestamp(&mut lw, "approved_utc", s, v.span());
        }
        lw.required_str(map, "purpose", 1, usize::MAX);
        if let Some(b) = lw.optional_enum(map, "backend", &["ERA", "monty"]) {
            meta.backend = if b == "monty" {
                Backend::Monty
            } else {
                Backend::Era
            };
        }
        request.backend = meta.backend;
        if let Some((lang, span)) = lw.required_str(map, "language", 1, usize::MAX)
            && let Some(shell) = shell_name(lang)
        {
            let d = lw
                .diag(&rules::SHELL_LANGUAGE, span, format!("`language` is the shell `{shell}`"))
                .label("a shell")
                .note("the spec forbids shell as a request's language: a shell script can do anything the sandbox allows, unreviewed")
                .help("use the language of the program that runs (`python`, …) and write its single command under `## Command`");
            lw.push(d);
        }
        if let Some(e) = lw.required(map, "network")
            && let Some(n) = lw.enum_value(&e.value, "network", &["none", "allowlist"])
        {
            meta.network = Some((n.to_string(), e.value.span()));
        }
        if let Some(e) = lw.required(map, "cpu_limit")
            && lw.str_value(&e.value, "cpu_limit", 1, usize::MAX).is_none()
            && matches!(e.value.kind, NodeKind::Number(_))
            && let Some(last) = lw.diags.last_mut()
        {
            let text = self.file.slice(e.value.span());
            last.help = Some(
                format!(
                    "the spec types `cpu_limit` as a string: quote it, `cpu_limit: \"{text}\"`"
                )
                .into(),
            );
        }
        for key in ["memory_limit_mb", "time_limit_sec"] {
            if let Some(e) = lw.required(map, key) {
                positive_int(&mut lw, &e.value, key);
            }
        }
        if let Some(e) = map.node.get("inputs") {
            meta.inputs = Some(front_matter_inputs(&mut lw, &e.value, &mut self.claimed));
        }
        if let Some(e) = map.node.get("allowlist") {
            meta.allowlist = Some(lw.str_items(&e.value, "allowlist", true, |_, _| {}));
        }
        self.diags.extend(lw.diags);
        meta
    }

    /// TRQ006: the approval cannot come before the request.
    pub(super) fn approval_order(&mut self, meta: &Meta) {
        let (Some(created), Some(approved)) = (&meta.created, &meta.approved) else {
            return;
        };
        if approved.at >= created.at {
            return;
        }
        let d = self
            .diag(
                &rules::APPROVED_BEFORE_CREATED,
                approved.span,
                format!("`approved_utc` ({}) is before `created_utc` ({})", approved.text, created.text),
            )
            .label("approved before the request existed")
            .related(self.file, created.span, "created here")
            .note("an approval cannot precede the request it approves: one of the timestamps is wrong, or the approval belongs to another request")
            .help("check both timestamps; re-approve the request if it changed after approval");
        self.push(d);
    }

    /// TRQ021: `network: allowlist` lists at least one host.
    pub(super) fn allowlist(&mut self, meta: &Meta) {
        let Some((network, span)) = &meta.network else {
            return;
        };
        if network != "allowlist" || meta.allowlist.is_some_and(|n| n > 0) {
            return;
        }
        let d = self
            .diag(
                &rules::EMPTY_NETWORK_ALLOWLIST,
                *span,
                "`network: allowlist` but the request lists no allowed hosts",
            )
            .label("allowlist mode with nothing allowed")
            .note("with no entries the run has no network at all (or, on a lenient executor, more than intended): either way not what `allowlist` says")
            .help("list the hosts under `allowlist:` in the front matter, or write `network: none`");
        self.push(d);
    }
}

// ── front-matter helpers ────────────────────────────────────────────────────────────────

fn schema_version(lw: &mut Lowerer<'_>, v: &Node) {
    let ok = match &v.kind {
        NodeKind::Number(Number::Int(1)) => true,
        NodeKind::String(s) => &**s == "1",
        NodeKind::Number(_) => false,
        _ => {
            lw.wrong_type(v, "schema_version", "the string `\"1\"`");
            return;
        }
    };
    if ok {
        return;
    }
    let d = lw
        .diag(&rules::INVALID_FIELD_VALUE, v.span(), format!("`schema_version` must be `1`, found `{}`", lw.file.slice(v.span())))
        .label("unknown schema version")
        .note("this is schema version 1; the spec requires a version bump for any schema change, so another version is a format toolc and the validator do not know")
        .help("write `schema_version: \"1\"`");
    lw.push(d);
}

/// An approval-gate key: present and non-empty. Returns whether it is.
fn approval(lw: &mut Lowerer<'_>, map: MapRef<'_>, key: &str, what: &str) -> bool {
    let entry = map.node.get(key);
    let (span, problem) = match entry.map(|e| (e, &e.value.kind)) {
        None => (map.anchor, "is missing"),
        Some((e, NodeKind::Null)) => (e.key_span(), "has no value"),
        Some((e, NodeKind::String(s))) if s.trim().is_empty() => (e.value.span(), "is empty"),
        Some((_, NodeKind::String(_))) => return true,
        Some((e, _)) => {
            lw.wrong_type(&e.value, key, "a string");
            return false;
        }
    };
    let d = lw
        .diag(&rules::APPROVAL_MISSING, span, format!("`{key}` {problem}"))
        .label(format!("`{key}` must say {what}"))
        .note("the approval gate: a request is only valid once `requested_by` is present and `approved_by`/`approved_utc` are filled in by the approving human")
        .help(if key == "approved_utc" {
            "have the approver add `approved_utc: <ISO-8601 time>` when approving".to_string()
        } else {
            format!("fill in `{key}`")
        });
    lw.push(d);
    false
}

fn timestamp(lw: &mut Lowerer<'_>, key: &str, s: &str, span: Span) -> Option<Stamp> {
    match parse_timestamp(s.trim()) {
        Ok(at) => Some(Stamp {
            at,
            span,
            text: s.trim().to_string(),
        }),
        Err(why) => {
            let d = lw
                .diag(
                    &rules::INVALID_FIELD_VALUE,
                    span,
                    format!("`{key}` is not an ISO-8601 timestamp: {why}"),
                )
                .label("not ISO-8601")
                .help(format!("write it like `{key}: 2025-01-31T14:05:00Z`"));
            lw.push(d);
            None
        }
    }
}

fn positive_int(lw: &mut Lowerer<'_>, v: &Node, key: &str) {
    if let Some(n) = as_int(v) {
        if n <= 0 {
            let d = lw
                .diag(
                    &rules::INVALID_FIELD_VALUE,
                    v.span(),
                    format!("`{key}` must be a positive integer, found `{n}`"),
                )
                .label("not positive")
                .help(format!("set `{key}` to the limit the run needs"));
            lw.push(d);
        }
        return;
    }
    lw.wrong_type(v, key, "an integer");
    if let Some(s) = v.as_str()
        && let Ok(n) = s.trim().parse::<i64>()
        && let Some(last) = lw.diags.last_mut()
    {
        last.help = Some(format!("write it without quotes: `{key}: {n}`").into());
    }
}

fn front_matter_inputs(
    lw: &mut Lowerer<'_>,
    v: &Node,
    claimed: &mut HashSet<String>,
) -> Vec<Declared> {
    let Some(items) = v.as_list() else {
        lw.wrong_type(v, "inputs", "a list of `{path, sha256}` entries");
        return Vec::new();
    };
    // Room for every entry at once (grown by doubling, 200,000 entries held a third more).
    let mut out = Vec::with_capacity(items.len());
    // An item at a time: a long list is held packed.
    let mut paths = ItemPaths::new("inputs");
    for (i, item) in items.scan().enumerate() {
        let item = &*item;
        let path = paths.at(i);
        let Some(map) = lw.as_map(item, item.span(), path) else {
            continue;
        };
        lw.unknown_keys(
            map,
            &["path", "sha256"],
            "the spec defines no such key: the executor ignores it",
        );
        let Some((p, span)) = lw.required_str(map, "path", 1, usize::MAX) else {
            continue;
        };
        let hash = match map.node.get("sha256") {
            None => {
                let d = lw
                    .diag(&rules::INPUT_WITHOUT_HASH, span, format!("input `{p}` has no `sha256`"))
                    .label("no hash")
                    .note("the approval gate requires a hash for every declared input: without one the executor cannot check it runs on the approved file")
                    .help("add `sha256: <64 hex digits>` to this entry");
                lw.push(d);
                None
            }
            Some(e) => match e.value.as_str() {
                Some(h) if is_sha256(h) => Some((h.to_ascii_lowercase(), e.value.span())),
                Some(h) => {
                    let d = lw
                        .diag(&rules::INPUT_WITHOUT_HASH, e.value.span(), format!("`{}` is not a sha256 hash (64 hex digits, found {} characters)", h.chars().take(24).collect::<String>(), h.chars().count()))
                        .label("not a sha256")
                        .note("the approval gate requires a sha256 for every input, so the executor can check it runs on the approved bytes")
                        .help("write the file's `sha256sum` (64 hex digits)");
                    lw.push(d);
                    None
                }
                None => {
                    lw.wrong_type(
                        &e.value,
                        &format!("{path}.sha256"),
                        "a string of 64 hex digits",
                    );
                    None
                }
            },
        };
        if sandbox_dir(p) != Some("/in") {
            claimed.insert(clean(p));
            let d = lw
                .diag(&rules::INPUT_OUTSIDE_IN, span, format!("input `{p}` is not under `/in/`"))
                .label("outside /in/")
                .note("the executor mounts inputs read-only under `/in/` and nothing else: any other path is the host's")
                .help(format!("mount it as `/in/{}`", base_name(p)));
            lw.push(d);
            continue;
        }
        out.push(Declared {
            path: clean(p),
            span,
            bad_hash: hash.is_none(),
            hash,
        });
    }
    out
}

/// How SYN010/SYN011 read for a request.
pub(super) const FRONT_MATTER: FrontMatterWording<'static> = FrontMatterWording {
    what: "a tool execution request",
    consequence: REJECTED,
    missing_help: "put the request's keys (`request_type: tool_request`, `schema_version`, `request_id`, …) between two `---` lines at the top",
    unclosed_help: "add a `---` line after the last key, before the first `##` section",
};
