//! MCP019: credentials written literally where a reference belongs: environment variables
//! and headers of a client configuration, values and defaults of `server.json` inputs. The
//! shared detector finds them; the message says what was found, never the value.

use crate::analysis::secrets::{SecretKind, is_placeholder, mask, named_value_secrets};
use crate::formats::fields::Lowerer;
use crate::formats::in_value::InValue;
use crate::rules::mcp as rules;
use crate::syntax::Node;

/// Where a value is, for messages (`env` `GITHUB_TOKEN` of server `github`).
pub(super) struct Place<'a> {
    /// What the value is given to: `environment variable`, `header`, `argument`.
    pub what: &'a str,
    /// Its name.
    pub name: &'a str,
    /// Where that is (`server `github``, `packages[0]`).
    pub owner: &'a str,
}

/// How the value should be written instead.
pub(super) struct Remedy<'a> {
    /// The consequence (who reads the file).
    pub note: &'a str,
    /// What to write instead.
    pub help: &'a str,
}

/// Report the credentials in `value`, the part of the string `node` that starts at byte
/// `offset` of its text. With `declared`, the file says the value is secret (`isSecret`),
/// so any literal value counts.
pub(super) fn literal_secret(
    lw: &mut Lowerer<'_>,
    node: &Node,
    (value, offset): (&str, usize),
    place: &Place<'_>,
    declared: bool,
    remedy: &Remedy<'_>,
) {
    let found = named_value_secrets(place.name, value);
    let Place { what, name, owner } = place;
    if found.is_empty() {
        // Only a value declared secret is judged (a placeholder test per argument was a
        // fifth of the time of a file of many servers).
        if declared && !value.contains('{') && !value.contains('$') && !is_placeholder(value) {
            let d = lw
                .diag(
                    &rules::LITERAL_SECRET,
                    node.span(),
                    format!("{what} `{name}` of {owner} is marked secret but its value is written in the file"),
                )
                .label("secret written literally")
                .note(remedy.note.to_string())
                .help(remedy.help.to_string());
            lw.push(d);
        }
        return;
    }
    let mut spans = InValue::new(lw.file, node);
    for secret in found {
        let text = &value[secret.start..secret.end];
        let kind = match &secret.kind {
            SecretKind::PrivateKey => "a private key block".to_string(),
            SecretKind::Token { what, prefix_len } => {
                format!("{what} (`{}`)", mask(text, prefix_len + 2))
            }
            SecretKind::UrlPassword => "a password inside a URL".to_string(),
            SecretKind::UserPassword => "a `user:password` pair".to_string(),
            SecretKind::GivenPassword { program } => format!("a password for `{program}`"),
            SecretKind::Assigned { literal: true, .. } | SecretKind::AuthHeader { .. } => {
                "a literal credential".to_string()
            }
            SecretKind::Assigned { literal: false, .. } => {
                "a random-looking credential".to_string()
            }
            // Left out by `named_value_secrets`.
            SecretKind::Unread => "text that may hold a credential".to_string(),
        };
        let span = spans.span(offset + secret.start, text);
        let d = lw
            .diag(
                &rules::LITERAL_SECRET,
                span,
                format!("{what} `{name}` of {owner} holds {kind} written in the file"),
            )
            .label("credential")
            .note(remedy.note.to_string())
            .help(remedy.help.to_string());
        lw.push(d);
    }
}
