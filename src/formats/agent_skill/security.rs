//! The `SEC` checks on what a skill makes the agent read and run: its `SKILL.md` (front
//! matter and instructions), the files it leads to and its `scripts/`. Credentials written
//! into any of them (SEC013), and downloads run by an interpreter (SEC040).

use std::sync::Arc;

use super::Cx;
use crate::analysis::secrets::{SecretKind, mask, scan_line};
use crate::analysis::shell::{may_run_download, package_installs};
use crate::diagnostics::Diagnostic;
use crate::rules::security as sec;
use crate::source::{SourceFile, Span};
use crate::syntax::markdown::lines_in;

impl Cx<'_> {
    /// SEC013 and SEC040 over `SKILL.md` and every file of the skill that was read.
    pub(super) fn security(&mut self) {
        let files: Vec<Arc<SourceFile>> = std::iter::once(Arc::clone(self.file))
            .chain(self.companions.iter().cloned())
            .collect();
        for file in files {
            let what = if Arc::ptr_eq(&file, self.file) {
                "`SKILL.md`".to_string()
            } else {
                format!("`{}`", self.relative(&file))
            };
            for (line, text) in lines_in(&file.text, Span::new(file.bom_len, file.text.len())) {
                for hit in scan_line(text) {
                    let span = line.sub(hit.start, hit.end);
                    let d = Diagnostic::new(
                        &sec::EMBEDDED_SECRET,
                        &file,
                        span,
                        secret_message(&hit.kind, &text[hit.start..hit.end], &what),
                    )
                    .label("credential")
                    .note("a skill is shared and installed as it is: a credential in it is leaked to everyone who gets the skill, and the agent may use it")
                    .help("remove it and revoke it; have the script read it from an environment variable the user sets");
                    self.push(d);
                }
                if !may_run_download(text) {
                    continue;
                }
                for install in package_installs(text)
                    .into_iter()
                    .filter(|i| i.runs_download)
                {
                    let d = Diagnostic::new(
                        &sec::DOWNLOAD_AND_EXECUTE,
                        &file,
                        line.sub(install.start, install.end),
                        format!("{what} runs a download (`{}`)", install.what),
                    )
                    .label("download run by an interpreter")
                    .note("the agent follows a skill's instructions: whatever the URL serves when the skill is used runs unreviewed, with the user's permissions")
                    .help("pin what runs: download a released file, check its checksum, then run it, or ship the script in `scripts/`");
                    self.push(d);
                }
            }
        }
    }
}

/// What SEC013 says about a credential, showing at most its first characters.
fn secret_message(kind: &SecretKind, secret: &str, what: &str) -> String {
    match kind {
        SecretKind::PrivateKey => format!("a private key block is embedded in {what}"),
        SecretKind::Token {
            what: token,
            prefix_len,
        } => format!(
            "{token} (`{}`) is embedded in {what}",
            mask(secret, prefix_len + 2)
        ),
        SecretKind::UrlPassword => format!("a URL in {what} carries a password"),
        SecretKind::Assigned {
            name,
            literal: true,
        } => format!(
            "`{name}` is assigned a literal value in {what}: a password or token written into the skill"
        ),
        SecretKind::Assigned {
            name,
            literal: false,
        } => format!(
            "`{name}` is assigned a random-looking value in {what}: a credential written into the skill"
        ),
    }
}
