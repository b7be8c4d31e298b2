//! SEC013: credentials written into any file toolc reads, whatever its format and wherever
//! in it (a description, a default, a transport header, a command, a comment), found by the
//! one shared detector ([`crate::analysis::secrets`]). A message shows at most the first
//! characters of a secret; the human renderer masks it in snippets too.

use std::sync::Arc;

use crate::analysis::secrets::{SecretKind, mask, scan_text};
use crate::diagnostics::Diagnostic;
use crate::rules::security as sec;
use crate::source::{SourceFile, Span};

/// Past this many secrets in one file, the rest are not worth one finding each.
const MAX_PER_FILE: usize = 50;

/// Every credential in the lines of `file`.
pub fn check(file: &Arc<SourceFile>, out: &mut Vec<Diagnostic>) {
    let body = &file.text[file.bom_len..];
    for hit in scan_text(body).into_iter().take(MAX_PER_FILE) {
        let span = Span::new(file.bom_len + hit.start, file.bom_len + hit.end);
        let message = message(&hit.kind, &body[hit.start..hit.end]);
        out.push(
            Diagnostic::new(&sec::EMBEDDED_SECRET, file, span, message)
                .label("credential")
                .note("anyone who can read the repository can use it, and it stays in the history after it is deleted")
                .help("remove it and revoke it; have the runtime supply it (an environment variable or a secret store, referenced by name)"),
        );
    }
}

/// What SEC013 says about a credential, showing at most its first characters.
fn message(kind: &SecretKind, secret: &str) -> String {
    match kind {
        SecretKind::PrivateKey => "a private key block is embedded in the file".into(),
        SecretKind::Token { what, prefix_len } => format!(
            "{what} (`{}`) is embedded in the file",
            mask(secret, prefix_len + 2)
        ),
        SecretKind::UrlPassword => {
            "a URL carries a password: a credential written into the file".into()
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
        } => format!(
            "`{name}` is assigned a literal value: a password or token written into the file"
        ),
        SecretKind::Assigned {
            name,
            literal: false,
        } => format!(
            "`{name}` is assigned a random-looking value: a credential written into the file"
        ),
    }
}
