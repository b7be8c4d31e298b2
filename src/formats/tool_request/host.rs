//! Anywhere in the request: host paths and devices (SEC011, SEC012), privileged flags and
//! privilege escalation in what runs (SEC012). Embedded credentials (SEC013) are found in
//! every format's files by the security pass (`crate::security`).

use super::{Backend, Cx};
use crate::analysis::paths::{PathKind, clean, is_harmless_device, is_host_device, path_tokens};
use crate::analysis::shell::{is_escalator, is_privileged_flag, words};
use crate::rules::security as sec;
use crate::source::Span;
use crate::syntax::markdown::{Blocks, lines_in};

impl Cx<'_> {
    /// SEC011/SEC012: host paths and devices.
    pub(super) fn host_paths(&mut self, blocks: &Blocks, backend: Backend) {
        let start = self.file.bom_len;
        let text = self.text();
        for tok in path_tokens(text, Span::new(start, text.len())) {
            let cleaned = clean(tok.text);
            if self.claimed.contains(&cleaned) {
                continue;
            }
            let rule = match tok.kind {
                PathKind::Absolute => {
                    if in_sandbox(&cleaned) || is_harmless_device(&cleaned) {
                        continue;
                    }
                    if is_host_device(&cleaned) {
                        &sec::PRIVILEGED_ACCESS
                    } else {
                        &sec::HOST_PATH_ACCESS
                    }
                }
                PathKind::Home | PathKind::Parent => &sec::HOST_PATH_ACCESS,
            };
            // Past the cap a finding is only counted: a request of a million paths builds
            // no million messages.
            if self.diags.counted(rule) {
                continue;
            }
            let d = match tok.kind {
                PathKind::Absolute => {
                    if is_host_device(&cleaned) {
                        self.diag(&sec::PRIVILEGED_ACCESS, tok.span, format!("`{}` is a host device", tok.text))
                            .label("device access")
                            .note("devices give direct access to the host's hardware or kernel; the sandbox must not expose them")
                            .help("read the data from a file mounted under `/in/` instead")
                    } else {
                        let why = if tok.text.starts_with("/in/") || tok.text.starts_with("/out/") {
                            format!("`{}` leaves the sandbox folders once `..` is resolved (`{cleaned}`)", tok.text)
                        } else {
                            format!("`{}` is a host path: a request may only name `/in/…`, `/out/…` and relative paths", tok.text)
                        };
                        let mut d = self
                            .diag(&sec::HOST_PATH_ACCESS, tok.span, why)
                            .label("host path");
                        d = if cleaned.ends_with("docker.sock") {
                            d.note("the Docker socket gives full control of the host")
                        } else {
                            d.note("anything outside `/in/` and `/out/` belongs to the host or the executor image: the spec rejects attempts to reach it")
                        };
                        d.help("mount what the run needs under `/in/` and write results to `/out/`")
                    }
                }
                PathKind::Home => self
                    .diag(&sec::HOST_PATH_ACCESS, tok.span, format!("`{}` names a home directory", tok.text))
                    .label("host home directory")
                    .note("home directories hold the operator's keys and configuration: the spec rejects attempts to reach host paths")
                    .help("mount what the run needs under `/in/`"),
                PathKind::Parent => self
                    .diag(&sec::HOST_PATH_ACCESS, tok.span, format!("`{}` climbs out of the working folder", tok.text))
                    .label("path traversal")
                    .note("a relative path with `..` reaches outside the sandbox's folders: the spec rejects attempts to reach host paths")
                    .help("use `/in/…` for inputs and `/out/…` for outputs"),
            };
            self.push(d);
        }
        // Privilege flags are never prose, so they count anywhere; `sudo` and friends only in
        // what runs (ERA's command line is checked in `command`).
        let program = blocks
            .sections(text, 2)
            .find(|s| {
                s.title
                    == if backend == Backend::Era {
                        "Command"
                    } else {
                        "Code"
                    }
            })
            .map(|s| s.content);
        for (line, s) in lines_in(text, Span::new(start, text.len())) {
            for (at, word) in words(s) {
                let w =
                    word.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | ',' | '[' | ']'));
                if !is_privileged_flag(w) {
                    continue;
                }
                let offset = at + word.find(w).unwrap_or(0);
                let span = line.sub(offset, offset + w.len());
                let d = self
                    .diag(&sec::PRIVILEGED_ACCESS, span, format!("`{w}` asks for privileged access"))
                    .label("privileged")
                    .note("privileged containers, extra capabilities and devices let a run reach the host kernel")
                    .help("remove it: a sandboxed request runs unprivileged");
                self.push(d);
            }
        }
        if backend == Backend::Monty
            && let Some(code) = program
        {
            for (line, s) in lines_in(text, code) {
                for (at, word) in words(s) {
                    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
                    if is_escalator(w) {
                        let offset = at + word.find(w).unwrap_or(0);
                        let d = self
                            .diag(&sec::PRIVILEGED_ACCESS, line.sub(offset, offset + w.len()), format!("the code asks for privileges with `{w}`"))
                            .label("privilege escalation")
                            .note("the sandbox runs requests unprivileged; a request that needs root is asking to leave it")
                            .help("remove it: a sandboxed request runs unprivileged");
                        self.push(d);
                    }
                }
            }
        }
    }
}

/// Whether a cleaned path is `/in`, `/out` or inside one of them.
fn in_sandbox(cleaned: &str) -> bool {
    ["/in", "/out"].iter().any(|d| {
        cleaned
            .strip_prefix(d)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}
