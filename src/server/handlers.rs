//! The requests the server answers: hover, code actions, go-to-definition and document
//! symbols. Each reads the last check of the open buffers; none changes state.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_server::{ErrorCode, Request, Response};
use lsp_types as lsp;
use lsp_types::request::{
    CodeActionRequest, DocumentSymbolRequest, GotoDefinition, HoverRequest, Request as _,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Server, convert};
use crate::diagnostics::{Applicability, Diagnostic};
use crate::formats::FileResult;
use crate::formats::outline;
use crate::rules::{self, Rule};
use crate::source::{SourceFile, Span};

/// The kind of the action that applies every safe fix of a file (what an editor runs on
/// save with `source.fixAll`).
pub(super) fn fix_all_kind() -> lsp::CodeActionKind {
    lsp::CodeActionKind::new("source.fixAll.toolc")
}

/// The response to `request`.
pub(super) fn answer(server: &Server, request: Request) -> Response {
    match request.method.as_str() {
        HoverRequest::METHOD => respond(request, |p| hover(server, p)),
        CodeActionRequest::METHOD => respond(request, |p| code_actions(server, p)),
        GotoDefinition::METHOD => respond(request, |p| definition(server, p)),
        DocumentSymbolRequest::METHOD => respond(request, |p| document_symbols(server, p)),
        method => Response::new_err(
            request.id,
            ErrorCode::MethodNotFound as i32,
            format!("toolc does not answer `{method}`"),
        ),
    }
}

fn respond<P: DeserializeOwned, R: Serialize>(
    request: Request,
    answer: impl FnOnce(P) -> R,
) -> Response {
    match serde_json::from_value::<P>(request.params) {
        Ok(params) => Response::new_ok(request.id, answer(params)),
        Err(e) => Response::new_err(request.id, ErrorCode::InvalidParams as i32, e.to_string()),
    }
}

/// A document as the last check read it.
struct Doc<'a> {
    path: PathBuf,
    file: &'a Arc<SourceFile>,
    /// The loaded result of the file, when it is a definition (not a companion).
    result: Option<&'a FileResult>,
}

impl Server {
    fn doc(&self, uri: &lsp::Uri) -> Option<Doc<'_>> {
        let path = self.path_in_root(uri)?;
        let results = self.ws.results();
        let file = outline::source(results, &path)?;
        let result = results.iter().find(|r| r.file.path == path);
        Some(Doc { path, file, result })
    }

    fn findings_of(&self, path: &Path) -> &[Diagnostic] {
        self.findings.get(path).map_or(&[], Vec::as_slice)
    }
}

/// True when the cursor at `offset` is on `span` (an empty span: at it).
fn on(span: Span, offset: usize) -> bool {
    span.start <= offset && (offset < span.end || offset == span.start)
}

/// The findings under the cursor with their rule pages; on a rule code in a suppression
/// comment, that rule's page.
fn hover(server: &Server, p: lsp::HoverParams) -> Option<lsp::Hover> {
    let at = p.text_document_position_params;
    let doc = server.doc(&at.text_document.uri)?;
    let offset = convert::offset(&doc.file.text, at.position);
    let here: Vec<&Diagnostic> = server
        .findings_of(&doc.path)
        .iter()
        .filter(|d| on(d.span, offset))
        .collect();
    let (text, span) = if let Some(first) = here.first() {
        let mut parts: Vec<String> = here.iter().map(|d| finding_markdown(d)).collect();
        let mut shown: Vec<&'static str> = Vec::new();
        for d in &here {
            if !shown.contains(&d.rule.code) {
                shown.push(d.rule.code);
                parts.extend(page_markdown(d.rule));
            }
        }
        (parts.join("\n\n---\n\n"), first.span)
    } else {
        let code = crate::suppress::scan(doc.file)
            .into_iter()
            .flat_map(|s| s.codes)
            .find(|c| on(c.span, offset))?;
        (page_markdown(code.rule?)?, code.span)
    };
    Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: text,
        }),
        range: Some(convert::range(doc.file, span)),
    })
}

/// One finding as Markdown: severity, code and name, message, label, notes and help.
fn finding_markdown(d: &Diagnostic) -> String {
    let d = &*crate::output::masked::masked_one(d);
    let mut out = format!(
        "**{}[{}]** `{}`: {}",
        d.severity.as_str(),
        d.rule.code,
        d.rule.name,
        d.message
    );
    if let Some(label) = &d.label {
        out.push_str(&format!("\n\n*{label}*"));
    }
    for note in &d.notes {
        out.push_str(&format!("\n\nnote: {note}"));
    }
    if let Some(help) = &d.help {
        out.push_str(&format!("\n\nhelp: {help}"));
    }
    if let Some(fix) = &d.fix {
        let how = match fix.applicability {
            Applicability::Safe => "a quick fix",
            Applicability::Unsafe => "a quick fix to review",
        };
        out.push_str(&format!("\n\n{how}: {}", fix.message));
    }
    out
}

/// A rule's page without its front matter, and where it is published.
fn page_markdown(rule: &Rule) -> Option<String> {
    let page = rules::page(rule)?;
    let body = page
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .map_or(page, |(_, body)| body);
    Some(format!(
        "{}\n\n[{}]({})",
        body.trim(),
        rule.code,
        rules::page_url(rule)
    ))
}

/// Quick fixes of the findings in the range, and one action applying every safe fix of the
/// file.
fn code_actions(server: &Server, p: lsp::CodeActionParams) -> Option<lsp::CodeActionResponse> {
    let doc = server.doc(&p.text_document.uri)?;
    let start = convert::offset(&doc.file.text, p.range.start);
    let end = convert::offset(&doc.file.text, p.range.end);
    let wants = |kind: &lsp::CodeActionKind| {
        p.context.only.as_ref().is_none_or(|only| {
            only.iter().any(|o| {
                kind.as_str() == o.as_str()
                    || kind.as_str().starts_with(&format!("{}.", o.as_str()))
            })
        })
    };
    let findings = server.findings_of(&doc.path);
    let mut actions = Vec::new();
    if wants(&lsp::CodeActionKind::QUICKFIX) {
        for d in findings {
            let Some(fix) = &d.fix else { continue };
            if d.span.start <= end && start <= d.span.end {
                actions
                    .extend(convert::quick_fix(d, fix).map(lsp::CodeActionOrCommand::CodeAction));
            }
        }
    }
    let has_safe = findings
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .any(|f| f.applicability == Applicability::Safe);
    if wants(&fix_all_kind())
        && has_safe
        && let Some(edit) = fix_all(server, &doc)
    {
        let uri = convert::uri_of(&doc.path)?;
        actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
            title: "Apply every safe toolc fix in this file".to_string(),
            kind: Some(fix_all_kind()),
            edit: Some(lsp::WorkspaceEdit {
                changes: Some(HashMap::from([(uri, vec![edit])])),
                ..lsp::WorkspaceEdit::default()
            }),
            ..lsp::CodeAction::default()
        }));
    }
    Some(actions)
}

/// Every safe fix of the document, applied as `check --fix` applies them (one engine for
/// both: fixes that clash when applied together, such as two that add one key, are undone
/// and applied one at a time), as one edit over the part of the text that changes.
fn fix_all(server: &Server, doc: &Doc<'_>) -> Option<lsp::TextEdit> {
    let before = doc.file.text.as_str();
    let after = crate::cli::fix::fixed_text(&server.root, server.ws.config(), &doc.path, before)?;
    let changed = changed_part(before, &after);
    Some(lsp::TextEdit::new(
        convert::range(doc.file, changed.span),
        changed.replacement,
    ))
}

/// The bytes of `before` that differ from `after`, and what stands there in `after`.
fn changed_part(before: &str, after: &str) -> crate::diagnostics::Edit {
    let mut start = before
        .bytes()
        .zip(after.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !before.is_char_boundary(start) || !after.is_char_boundary(start) {
        start -= 1;
    }
    let most = before.len().min(after.len()) - start;
    let mut end = before
        .bytes()
        .rev()
        .zip(after.bytes().rev())
        .take(most)
        .take_while(|(a, b)| a == b)
        .count();
    while !before.is_char_boundary(before.len() - end) || !after.is_char_boundary(after.len() - end)
    {
        end -= 1;
    }
    crate::diagnostics::Edit {
        span: Span::new(start, before.len() - end),
        replacement: after[start..after.len() - end].to_string(),
    }
}

/// Where the reference under the cursor is defined.
fn definition(
    server: &Server,
    p: lsp::GotoDefinitionParams,
) -> Option<lsp::GotoDefinitionResponse> {
    let at = p.text_document_position_params;
    let doc = server.doc(&at.text_document.uri)?;
    let offset = convert::offset(&doc.file.text, at.position);
    let outline = doc.result?.outline();
    // The end is included: a cursor just after a name is still on it.
    let reference = outline
        .references
        .iter()
        .find(|r| r.span.start <= offset && offset <= r.span.end)?;
    let locations: Vec<lsp::Location> = outline::resolve(server.ws.results(), &reference.target)
        .into_iter()
        .filter_map(|l| {
            Some(lsp::Location::new(
                convert::uri_of(&l.file.path)?,
                convert::range(&l.file, l.span),
            ))
        })
        .collect();
    match locations.len() {
        0 => None,
        1 => locations
            .into_iter()
            .next()
            .map(lsp::GotoDefinitionResponse::Scalar),
        _ => Some(lsp::GotoDefinitionResponse::Array(locations)),
    }
}

/// The most symbols an outline holds, in the file's order: what lies past them is not listed.
const MAX_SYMBOLS: usize = 5_000;

/// The tools (with their parameters), skills and agents the file defines.
fn document_symbols(
    server: &Server,
    p: lsp::DocumentSymbolParams,
) -> Option<lsp::DocumentSymbolResponse> {
    let doc = server.doc(&p.text_document.uri)?;
    let mut left = MAX_SYMBOLS;
    let symbols = doc
        .result
        .map(|r| r.outline().symbols)
        .unwrap_or_default()
        .iter()
        .map_while(|s| convert::document_symbol(doc.file, s, &mut left))
        .collect();
    Some(lsp::DocumentSymbolResponse::Nested(symbols))
}
