//! SEC013: credentials written into any file toolc reads, whatever its format and wherever
//! in it (a description, a default, a transport header, a command, a comment), found by the
//! one shared detector ([`crate::analysis::secrets`]). A message shows at most the first
//! characters of a secret; the human renderer masks it in snippets too.

use std::sync::Arc;

use crate::analysis::secrets::{SecretKind, mask, scan_text};
use crate::diagnostics::Diagnostic;
use crate::rules::{Rule, mcp, security as sec};
use crate::source::{FormatId, SourceFile, Span};

/// Past this many secrets in one file, the rest are not worth one finding each.
const MAX_PER_FILE: usize = 50;

/// Format rules that report a credential at its place with more to say (where the reference
/// belongs): SEC013 stays silent where one of them spoke.
const REPORTED_BY_FORMAT: &[&Rule] = &[&mcp::LITERAL_SECRET];

/// What a file is to whoever reads it, for SEC013's words.
struct Place {
    /// The file, in a message (`the request`).
    noun: &'static str,
    note: &'static str,
    help: &'static str,
}

/// The words for a file of `format`.
fn place(format: FormatId) -> Place {
    match format {
        FormatId::ToolRequest => Place {
            noun: "the request",
            note: "a request is an audit artifact that many people and systems read: a credential in it is leaked, and the run could use it to reach outside the sandbox",
            help: "remove it and revoke it; a run that needs a credential is not a sandboxed request",
        },
        FormatId::AgentSkill => Place {
            noun: "the skill",
            note: "a skill is shared and installed as it is: a credential in it is leaked to everyone who gets the skill, and the agent may use it",
            help: "remove it and revoke it; have the script read it from an environment variable the user sets",
        },
        _ => Place {
            noun: "the file",
            note: "anyone who can read the repository can use it, and it stays in the history after it is deleted",
            help: "remove it and revoke it; have the runtime supply it (an environment variable or a secret store, referenced by name)",
        },
    }
}

/// Every credential in the lines of `file`, except where a finding of `reported` (the
/// format's own) already names it.
pub(super) fn check(file: &Arc<SourceFile>, reported: &[Diagnostic], out: &mut Vec<Diagnostic>) {
    let body = &file.text[file.bom_len..];
    let place = place(file.format);
    let taken: Vec<Span> = reported
        .iter()
        .filter(|d| {
            Arc::ptr_eq(&d.file, file)
                && REPORTED_BY_FORMAT.iter().any(|r| std::ptr::eq(*r, d.rule))
        })
        .map(|d| d.span)
        .collect();
    let reported = scan_text(body).into_iter().filter(|s| s.reported);
    for hit in reported.take(MAX_PER_FILE) {
        let span = Span::new(file.bom_len + hit.start, file.bom_len + hit.end);
        if taken
            .iter()
            .any(|t| t.start < span.end && span.start < t.end)
        {
            continue;
        }
        let message = message(&hit.kind, &body[hit.start..hit.end], place.noun);
        out.push(
            Diagnostic::new(&sec::EMBEDDED_SECRET, file, span, message)
                .label("credential")
                .note(place.note)
                .help(place.help),
        );
    }
}

/// What SEC013 says about a credential in `noun`, showing at most its first characters.
fn message(kind: &SecretKind, secret: &str, noun: &str) -> String {
    match kind {
        SecretKind::PrivateKey => format!("a private key block is embedded in {noun}"),
        SecretKind::Token { what, prefix_len } => format!(
            "{what} (`{}`) is embedded in {noun}",
            mask(secret, prefix_len + 2)
        ),
        SecretKind::UserPassword => {
            format!(
                "a command is given a password (`user:password`): a credential written into {noun}"
            )
        }
        SecretKind::UrlPassword => {
            format!("a URL carries a password: a credential written into {noun}")
        }
        SecretKind::GivenPassword { program } => {
            format!("`{program}` is handed a password written into {noun}")
        }
        SecretKind::AuthHeader { name } => {
            format!(
                "the `{name}` header has a literal credential (`{}`)",
                mask(secret, 2)
            )
        }
        SecretKind::Assigned {
            name,
            literal: true,
        } => {
            format!("`{name}` is assigned a literal value: a password or token written into {noun}")
        }
        SecretKind::Assigned {
            name,
            literal: false,
        } => {
            format!("`{name}` is assigned a random-looking value: a credential written into {noun}")
        }
        // Only masked, never reported.
        SecretKind::Unread => format!("text that may hold a credential is written into {noun}"),
    }
}
