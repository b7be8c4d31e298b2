//! Platforms and the shells that can run on them (CYC017, CYC018, CYC019).

use super::lower::{Command, Cx, Level, scalar_text};
use crate::analysis::names::did_you_mean;
use crate::diagnostics::{Applicability, DidYouMean};
use crate::formats::fields::{join_path, replace_exact, replace_text};
use crate::rules::cycod as rules;
use crate::source::Span;
use crate::syntax::{Item, Node};

const PLATFORMS: &[&str] = &["windows", "linux", "macos"];

impl Cx<'_> {
    /// `platforms`: CYC017. Returns the valid platforms (each once, as meant where
    /// misspelt) and the list's span, if set. The list is read item by item, and findings
    /// past the cap are only counted: a list of millions held a string for each.
    pub(super) fn platforms(
        &mut self,
        node: &Node,
        path: &str,
    ) -> Option<(Vec<&'static str>, Span)> {
        let e = node.get("platforms")?;
        let ppath = join_path(path, "platforms");
        let Some(items) = e.value.as_list() else {
            self.lw.wrong_type(&e.value, &ppath, "a list of strings");
            return None;
        };
        let mut valid: Vec<&'static str> = Vec::new();
        for (i, item) in items.items().enumerate() {
            let (value, span) = match item {
                Item::Str(s, span) => (s, span),
                Item::Other(n) => {
                    self.lw.wrong_type(&n, &format!("{ppath}[{i}]"), "a string");
                    continue;
                }
            };
            let meant = match PLATFORMS.iter().find(|p| **p == value) {
                Some(p) => Some(*p),
                None => self.invalid_platform(value, span),
            };
            if let Some(p) = meant
                && !valid.contains(&p)
            {
                valid.push(p);
            }
        }
        Some((valid, e.value.span()))
    }

    /// CYC017 for one platform; returns the one meant, when it can tell (counted as meant,
    /// so shell checks do not pile a second finding on a typo).
    fn invalid_platform(&mut self, value: &str, span: Span) -> Option<&'static str> {
        let lower = value.to_ascii_lowercase();
        let hint = match lower.as_str() {
            "win" | "win32" | "win64" | "windows" => Some("windows"),
            "osx" | "mac" | "darwin" | "macos" => Some("macos"),
            "unix" | "ubuntu" | "debian" | "linux" => Some("linux"),
            other => did_you_mean(other, PLATFORMS.iter().copied())
                .and_then(|h| PLATFORMS.iter().copied().find(|p| *p == h)),
        };
        if self.lw.diags.counted(&rules::INVALID_PLATFORM) {
            return hint;
        }
        let d = self
            .diag(
                &rules::INVALID_PLATFORM,
                span,
                format!("platform `{value}` is not `windows`, `linux` or `macos`"),
            )
            .label("unknown platform")
            .note("cycod matches platforms by these exact names: the tool is never offered on a platform it cannot name")
            .did_you_mean_or(
                hint.and_then(|h| {
                    let fix = replace_exact(self.file(), span, value, h, Applicability::Safe)
                        .or_else(|| replace_text(self.file(), span, value, h, Applicability::Safe));
                    DidYouMean::fixed_by(h, fix)
                }),
                "use `windows`, `linux` or `macos`",
            );
        self.push(d);
        hint
    }

    /// CYC018 for the command that runs at `level`, when `platforms` (the valid ones and
    /// the list's span) leave Windows out.
    pub(super) fn windows_only(
        &mut self,
        level: &Level<'_>,
        c: &Command<'_>,
        platforms: Option<&(Vec<&'static str>, Span)>,
    ) {
        let no_windows =
            platforms.filter(|(list, _)| !list.is_empty() && !list.contains(&"windows"));
        let Some((_, platforms_span)) = no_windows else {
            return;
        };
        let shell = self.shell_of(level);
        let (shown, span) = match (c.key, shell) {
            ("cmd", _) => ("`cmd`", c.key_span),
            ("script", Some((s, span))) if s == "cmd" => ("`cmd`", span),
            ("script", Some((s, span))) if s == "powershell" => {
                ("Windows PowerShell (`powershell`)", span)
            }
            _ => return,
        };
        let d = self
            .diag(
                &rules::WINDOWS_ONLY_SHELL,
                span,
                format!("{shown} runs only on Windows, but `platforms` does not list `windows`"),
            )
            .label("Windows only")
            .related(self.file(), *platforms_span, "platforms declared here")
            .note("on the declared platforms cycod cannot start this shell: the command can never run")
            .help("add `windows` to `platforms`, or write the command for `bash` or `pwsh`");
        self.push(d);
    }

    /// CYC019 for one level (the tool, or a step).
    pub(super) fn conflicting_shell(&mut self, level: &Level<'_>) {
        let Some((shell_name, shell_span)) = self.shell_of(level) else {
            return;
        };
        let Some(alias) = level
            .set()
            .find(|c| matches!(c.key, "bash" | "cmd" | "pwsh" | "python"))
        else {
            return;
        };
        if shell_name == alias.key || shell_name == "default" || shell_name.is_empty() {
            return;
        }
        let d = self
            .diag(
                &rules::CONFLICTING_SHELL,
                shell_span,
                format!(
                    "`shell: {shell_name}` contradicts `{}:`, which already runs its script with {}",
                    alias.key, alias.key
                ),
            )
            .label("another shell")
            .related(self.file(), alias.key_span, format!("`{}` fixes the shell", alias.key))
            .note(format!("`{}:` is short for `script:` with `shell: {}`: a script written for one shell fails in the other", alias.key, alias.key))
            .help(format!(
                "remove `shell`, or write `script:` with `shell: {shell_name}` instead of `{}:`",
                alias.key
            ));
        self.push(d);
    }

    /// The level's `shell`, lowercased, and its span.
    pub(super) fn shell_of(&self, level: &Level<'_>) -> Option<(String, Span)> {
        let s = level.shell?;
        scalar_text(self.file(), s).map(|t| (t.trim().to_ascii_lowercase(), s.span()))
    }
}
