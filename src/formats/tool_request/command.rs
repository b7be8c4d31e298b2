//! What runs: the ERA command line (TRQ012–TRQ014, SEC012), Monty's JSON inputs (TRQ011),
//! shell code blocks (TRQ014) and package installation anywhere (TRQ015).

use super::{Cx, rules};
use crate::analysis::shell::{
    OpKind, first_word, is_privilege_command, operators, package_installs, program_name,
    shell_name, words,
};
use crate::rules::security as sec;
use crate::source::Span;
use crate::syntax::json;
use crate::syntax::markdown::{Fence, inside_fence, lines_in};
use crate::syntax::sections::Section;

impl Cx<'_> {
    /// TRQ012–TRQ014 and SEC012 on the ERA command line.
    pub(super) fn command(&mut self, s: &Section) {
        let mut lines = Vec::new();
        let mut in_fence = false;
        for (span, line) in lines_in(self.text(), s.content) {
            let trimmed = line.trim();
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                if !in_fence {
                    let d = self
                        .diag(&rules::INVALID_COMMAND, span, "the command must be plain text, not a code block")
                        .label("code fence")
                        .note("the spec wants the command as one line of plain text; the validator rejects a fenced block")
                        .help("remove the ``` lines and keep the command on one line");
                    self.push(d);
                }
                in_fence = !in_fence;
                continue;
            }
            if !trimmed.is_empty() {
                let lead = line.len() - line.trim_start().len();
                lines.push(span.sub(lead, lead + trimmed.len()));
            }
        }
        if lines.len() > 1 {
            let d = self
                .diag(&rules::INVALID_COMMAND, lines[1], format!("the command must be a single line, found {} lines", lines.len()))
                .label("a second command line")
                .related(self.file, lines[0], "the first line")
                .note("one request runs one command: more lines are more commands, which the spec rejects")
                .help("split the work into one request per command");
            self.push(d);
        }
        for line in &lines {
            let text = self.file.slice(*line).to_string();
            for op in operators(&text) {
                let span = line.sub(op.start, op.end);
                let d = self
                    .diag(
                        &rules::SHELL_OPERATOR_IN_COMMAND,
                        span,
                        format!("the command uses `{}` ({})", op.text, op.kind.what()),
                    )
                    .label(op_label(op.kind))
                    .note("the spec rejects command chaining, pipelines, redirection, heredocs and substitution: the command must be one program and its arguments")
                    .help(op_help(op.kind));
                self.push(d);
            }
            if let Some((start, word)) = first_word(&text)
                && let Some(shell) = shell_name(program_name(word))
            {
                let d = self
                    .diag(&rules::SHELL_LANGUAGE, line.sub(start, start + word.len()), format!("the command runs the shell `{shell}`"))
                    .label("a shell")
                    .note("a shell as the program turns the single command into a script the validator cannot check")
                    .help("run the program itself, with its arguments, without a shell");
                self.push(d);
            }
            for (start, word) in words(&text) {
                if is_privilege_command(word) {
                    let d = self
                        .diag(&sec::PRIVILEGED_ACCESS, line.sub(start, start + word.len()), format!("the command asks for privileges with `{word}`"))
                        .label("privilege escalation")
                        .note("the sandbox runs requests unprivileged; a request that needs root is asking to leave it")
                        .help("run the program without privileges; if it needs more, it is not a sandboxed request");
                    self.push(d);
                }
            }
        }
    }

    pub(super) fn inputs_json(&mut self, s: &Section) {
        // A ```json fence around the document is fine: parse what is inside it.
        let content = inside_fence(self.text(), s.content);
        let slice = self.file.slice(content);
        if slice.trim().is_empty() {
            let d = self
                .diag(
                    &rules::INVALID_INPUTS_JSON,
                    s.heading,
                    "the `## Inputs (JSON)` section holds no JSON",
                )
                .label("empty section")
                .help("write the inputs as a JSON object, or remove the section");
            self.push(d);
            return;
        }
        let parsed = json::parse(slice, content.start);
        for e in &parsed.errors {
            let d = self
                .diag(&rules::INVALID_INPUTS_JSON, e.span, format!("`## Inputs (JSON)` is not valid JSON: {}", e.message))
                .label("invalid JSON")
                .note("Monty receives these inputs as JSON: the validator rejects a request whose inputs do not parse")
                .help("fix the JSON (strict JSON: double quotes, no comments, no trailing commas)");
            self.push(d);
        }
        // Repeated keys past the first 200 were counted, not built: one line stands for them.
        if let Some((span, count)) = parsed.repeats_left_out {
            let d = self.diag(&rules::INVALID_INPUTS_JSON, span, String::new());
            self.push(crate::diagnostics::cap::summary(d, count));
        }
    }

    /// TRQ014: code blocks in a shell language.
    pub(super) fn shell_fences(&mut self, fences: &[Fence]) {
        for f in fences {
            let Some(info) = f.info else { continue };
            let word = self.file.slice(info).to_string();
            if let Some(shell) = shell_name(&word) {
                let d = self
                    .diag(&rules::SHELL_LANGUAGE, info, format!("a `{shell}` code block: the request carries a shell script"))
                    .label("shell code block")
                    .note("the spec forbids shell as a request's language; a script is many commands the validator cannot check one by one")
                    .help("express the work as one command (ERA) or as Python code (Monty)");
                self.push(d);
            }
        }
    }

    /// TRQ015: package installation.
    pub(super) fn package_installation(&mut self) {
        let start = self.file.bom_len;
        let text = self.text();
        for (line, s) in lines_in(text, Span::new(start, text.len())) {
            for install in package_installs(s) {
                let (from, to, what) = (install.start, install.end, install.what);
                let d = self
                    .diag(&rules::PACKAGE_INSTALLATION, line.sub(from, to), format!("the request installs packages (`{what}`)"))
                    .label("package installation")
                    .note("the spec forbids installing packages: what runs must be fixed when it is approved, not fetched at run time")
                    .help("use an executor image that already has the dependency, or pass the code in as a hashed input");
                self.push(d);
            }
        }
    }
}

/// What a request's reviewer is told an operator does.
fn op_label(kind: OpKind) -> &'static str {
    match kind {
        OpKind::Separator | OpKind::Chain | OpKind::Background => "starts another command",
        OpKind::Pipe => "pipes into another command",
        OpKind::Redirect => "redirects a stream",
        OpKind::Heredoc => "inline document",
        OpKind::Substitution => "runs a command inside the command",
    }
}

/// How to do without an operator in a request.
fn op_help(kind: OpKind) -> &'static str {
    match kind {
        OpKind::Separator | OpKind::Chain | OpKind::Background => {
            "run one command per request; split the rest into requests of their own"
        }
        OpKind::Pipe => "do the whole job in one program, or split it into requests",
        OpKind::Redirect => {
            "pass input paths under `/in/` and output paths under `/out/` as arguments instead"
        }
        OpKind::Heredoc => "put the data in an input file under `/in/` and pass its path",
        OpKind::Substitution => {
            "write the value itself; if the command is in backticks for Markdown, remove them: the command is plain text"
        }
    }
}
