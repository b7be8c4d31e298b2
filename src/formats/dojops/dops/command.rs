//! `verification.binary.command`: how DojOps runs it. It splits the command on `&&`, each part
//! on whitespace, and runs each program with `execFileSync` — no shell — only when the program
//! is on its allowlist (DOJ013); shell syntax reaches the program as literal arguments
//! (DOJ023).

use super::access::SkillLowerer;
use crate::analysis::names::did_you_mean;
use crate::analysis::shell::{OpKind, ShellMeaning, ShellSyntax, shell_syntax, words};
use crate::diagnostics::edits::replace_text;
use crate::diagnostics::{Applicability, DidYouMean};
use crate::formats::in_value::span_in_value;
use crate::rules::dojops as doj;
use crate::runtimes::dojops as allowlist;
use crate::runtimes::{Releases, Version};
use crate::syntax::Node;

/// How many pieces of shell syntax one diagnostic shows.
const MAX_SHOWN: usize = 5;

/// One program DojOps runs: its name and offset in the command.
struct Program<'c> {
    at: usize,
    name: &'c str,
}

impl SkillLowerer<'_> {
    /// DOJ013 and DOJ023 on `command` (the value of `node`); `runs` when `permissions`
    /// lets the binary check run at all (`child_process: required`).
    pub(super) fn verification_command(&mut self, node: &Node, command: &str, runs: bool) {
        let programs = programs(command);
        // DojOps stops at the first program it refuses: one finding per command, at that one.
        if command.starts_with(char::is_whitespace) {
            self.leading_space(node, runs);
        } else if let Some(at) = programs
            .iter()
            .position(|p| !allowlist::skill_allows(p.name))
        {
            self.not_allowed(node, &programs[at], &programs[at + 1..], runs);
        } else if let Some((program, since)) = programs
            .iter()
            .find_map(|p| allowlist::skill_only_since(p.name).map(|s| (p, s)))
        {
            self.allowed_since(node, program, since, runs);
        }
        let syntax: Vec<ShellSyntax> = shell_syntax(command)
            .into_iter()
            .filter(|s| s.text != "&&")
            .collect();
        if !syntax.is_empty() {
            self.shell_syntax(node, &programs, &syntax, runs);
        }
    }

    /// DOJ013 at `program`, which DojOps allows only from release `since` on: a finding for a
    /// project that targets an older release (`[runtimes] dojops`), none otherwise.
    fn allowed_since(&mut self, node: &Node, program: &Program<'_>, since: Version, runs: bool) {
        let at = span_in_value(self.lw.file, node, program.at, program.name);
        let consequence = if runs {
            "the DojOps release this project targets refuses the program (\"Verification command not allowed\"), so verification fails on every run of this skill"
        } else {
            "the binary check is skipped while `permissions.child_process` is not `required`; once it is, the release this project targets refuses the program"
        };
        let d = self
            .lw
            .diag(
                &doj::VERIFICATION_BINARY_NOT_ALLOWED,
                at,
                format!(
                    "`{}` is on DojOps's verification allowlist only from {since} on",
                    program.name
                ),
            )
            .label(format!("allowed from DojOps {since}"))
            .note(consequence)
            .help(format!(
                "upgrade DojOps to {since} or later and say so in toolc.toml (`[runtimes] dojops = \"{since}\"`), or verify with another program"
            ))
            .for_releases(Releases::before("dojops", since));
        self.lw.push(d);
    }

    /// DOJ013 at `program`, the first one DojOps refuses; refused programs of `later` parts
    /// are shown beside it, since fixing the first only moves the failure to them.
    fn not_allowed(
        &mut self,
        node: &Node,
        program: &Program<'_>,
        later: &[Program<'_>],
        runs: bool,
    ) {
        let consequence = if runs {
            "DojOps refuses to run a program outside its allowlist (\"Verification command not allowed\") and stops there, so verification fails on every run of this skill"
        } else {
            "the binary check is skipped while `permissions.child_process` is not `required`; once it is, verification fails on every run"
        };
        let mut hint = None;
        let (span, message, label, help) = if program.name.is_empty() {
            (
                span_in_value(self.lw.file, node, program.at, "&&"),
                "an `&&` of the verification command has no program after it".to_string(),
                "empty command",
                "remove the extra `&&`".to_string(),
            )
        } else {
            let at = span_in_value(self.lw.file, node, program.at, program.name);
            hint = did_you_mean(program.name, allowlist::skill_allowed()).and_then(|h| {
                let fix = replace_text(self.lw.file, at, program.name, h, Applicability::Unsafe);
                DidYouMean::fixed_by(h, fix)
            });
            let help = format!(
                "verify with a program DojOps allows ({}), or drop `verification.binary` and keep the `structural` checks",
                allowlist::skill_allowed().collect::<Vec<_>>().join(", ")
            );
            (
                at,
                format!(
                    "`{}` is not on DojOps's verification allowlist",
                    program.name
                ),
                "not allowed",
                help,
            )
        };
        let mut d = self
            .lw
            .diag(&doj::VERIFICATION_BINARY_NOT_ALLOWED, span, message)
            .label(label)
            .note(consequence)
            .did_you_mean_or(hint, help);
        let mut shown: Vec<&str> = vec![program.name];
        for p in later {
            if p.name.is_empty() || allowlist::skill_allows(p.name) || shown.contains(&p.name) {
                continue;
            }
            shown.push(p.name);
            let at = span_in_value(self.lw.file, node, p.at, p.name);
            d = d.related(
                self.lw.file,
                at,
                format!("`{}` is refused too, once the first is fixed", p.name),
            );
        }
        self.lw.push(d);
    }

    fn leading_space(&mut self, node: &Node, runs: bool) {
        let span = span_in_value(self.lw.file, node, 0, " ");
        let d = self
            .lw
            .diag(
                &doj::VERIFICATION_BINARY_NOT_ALLOWED,
                span,
                "the verification command starts with a space, which DojOps reads as an empty program name",
            )
            .label("empty program name")
            .note(if runs {
                "DojOps checks the text before the first space against its allowlist, so verification fails on every run"
            } else {
                "once `permissions.child_process` is `required`, verification fails on every run"
            })
            .help("remove the leading space");
        self.lw.push(d);
    }

    fn shell_syntax(
        &mut self,
        node: &Node,
        programs: &[Program<'_>],
        syntax: &[ShellSyntax],
        runs: bool,
    ) {
        let first = &syntax[0];
        let program = programs
            .iter()
            .rev()
            .find(|p| p.at <= first.start && !p.name.is_empty())
            .map_or("the program", |p| p.name);
        let mut shown: Vec<String> = Vec::new();
        for s in syntax {
            let text = format!("`{}`", s.text);
            if !shown.contains(&text) && shown.len() < MAX_SHOWN {
                shown.push(text);
            }
        }
        let span = |s: &ShellSyntax| span_in_value(self.lw.file, node, s.start, &s.text);
        let mut d = self
            .lw
            .diag(
                &doj::VERIFICATION_SHELL_SYNTAX,
                span(first),
                format!(
                    "DojOps runs this command without a shell: {} {} `{program}` as {}",
                    list(&shown),
                    if shown.len() == 1 { "reaches" } else { "reach" },
                    if shown.len() == 1 { "a literal argument" } else { "literal arguments" },
                ),
            )
            .label(format!("{}, passed as is", first.meaning.what()))
            .note(if runs {
                "DojOps splits the command on `&&` and spaces and runs each program directly (`execFileSync`): no shell expands, redirects, pipes or chains, so the check does not do what it says on any run"
            } else {
                "DojOps splits the command on `&&` and spaces and runs each program directly, with no shell, once `permissions.child_process` is `required`"
            })
            .help(fix_for(syntax));
        for s in syntax.iter().skip(1).take(MAX_SHOWN) {
            let at = span(s);
            d = d.related(
                self.lw.file,
                at,
                format!("{}, passed as is", s.meaning.what()),
            );
        }
        self.lw.push(d);
    }
}

/// The programs DojOps runs for `command`: the first word of each `&&`-separated part. A part
/// with no word is a program with an empty name at the `&&` that leaves it empty (DojOps
/// refuses it).
fn programs(command: &str) -> Vec<Program<'_>> {
    let mut out = Vec::new();
    let mut from = 0;
    for end in command
        .match_indices("&&")
        .map(|(i, _)| i)
        .chain(std::iter::once(command.len()))
    {
        let part = &command[from..end];
        match words(part).next() {
            Some((at, name)) => out.push(Program {
                at: from + at,
                name,
            }),
            // The `&&` before the part, or for a leading empty part the one after it.
            None if !command.trim().is_empty() => out.push(Program {
                at: if from == 0 { end } else { from - 2 },
                name: "",
            }),
            None => {}
        }
        from = end + 2;
    }
    out
}

/// What to do instead, for the kinds of shell syntax found.
fn fix_for(syntax: &[ShellSyntax]) -> String {
    let has = |f: &dyn Fn(ShellMeaning, &str) -> bool| syntax.iter().any(|s| f(s.meaning, &s.text));
    let op = |m: ShellMeaning, kinds: &[OpKind]| matches!(m, ShellMeaning::Operator(k) if kinds.contains(&k));
    let mut fixes = Vec::new();
    if has(&|m, _| op(m, &[OpKind::Redirect, OpKind::Heredoc])) {
        fixes.push("drop the redirection: DojOps reads the program's output itself");
    }
    if has(&|m, t| op(m, &[OpKind::Pipe]) || t == "||") {
        fixes.push("drop `|| …` and pipes: DojOps runs one program per `&&` part, and its `parser` reads the output and the exit status");
    }
    if has(&|m, _| op(m, &[OpKind::Separator, OpKind::Background])) {
        fixes.push("separate two programs with ` && `, which DojOps splits itself");
    }
    if has(&|m, _| m == ShellMeaning::Glob) {
        fixes.push("name the file instead of a pattern (`{entryFile}` is the generated file)");
    }
    if has(&|m, _| m == ShellMeaning::Quote) {
        fixes.push("no argument can hold a space or quotes: DojOps splits on every space");
    }
    if has(&|m, _| m == ShellMeaning::Expansion || op(m, &[OpKind::Substitution])) {
        fixes.push("write values out: nothing is expanded or substituted");
    }
    fixes.join("; ")
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_of_each_and_part() {
        let found: Vec<(usize, &str)> = programs("terraform init -x && terraform validate -json")
            .iter()
            .map(|p| (p.at, p.name))
            .collect();
        assert_eq!(found, [(0, "terraform"), (21, "terraform")]);
        assert!(programs("").is_empty());
        assert_eq!(list(&["a".into(), "b".into(), "c".into()]), "a, b and c");
    }
}
