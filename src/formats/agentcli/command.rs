//! `command` and `timeoutSec`: the argv, where its program must live (`./tools/bin/` next to
//! the manifest), whether it is there, and the timeout agentcli applies.

use std::collections::HashMap;
use std::path::Path;

use super::{Cx, REFUSED, Who, field};
use crate::analysis::argv;
use crate::analysis::paths::{
    base_name, clean, climbing_dotdot, is_absolute_anywhere, sibling_display,
};
use crate::analysis::programs::{self, LinkedOut, linked_out};
use crate::formats::in_value::span_in_value;
use crate::formats::tree::Strings;
use crate::rules::agentcli as rules;
use crate::rules::security as sec;
use crate::source::Span;
use crate::syntax::seq::Item;
use crate::syntax::{Node, NodeKind, Number};

/// The prefix every relative program must have once cleaned.
const BIN_PREFIX: &str = "./tools/bin/";

/// A relative program that passed the path checks, to be looked for next to the manifest.
pub(super) struct Program {
    who: Who,
    /// The cleaned path (`./tools/bin/NAME`).
    path: String,
    span: Span,
}

impl Cx<'_> {
    pub(super) fn command(
        &mut self,
        node: &Node,
        who: &Who,
        programs: &mut Vec<Program>,
    ) -> Strings {
        let Some(entry) =
            field(node, "command").filter(|e| !matches!(e.value.kind, NodeKind::Null))
        else {
            if self.diags.counted(&rules::MISSING_REQUIRED_FIELD) {
                return Strings::new();
            }
            let d = self
                .diag(&rules::MISSING_REQUIRED_FIELD, Self::brace(node), format!("{who}: command is required"))
                .label("this tool has no `command`")
                .note(REFUSED)
                .help("add `\"command\": [\"./tools/bin/NAME\"]`: the program agentcli runs for this tool");
            self.push(d);
            return Strings::new();
        };
        let items = match &entry.value.kind {
            NodeKind::Seq(items) => items,
            NodeKind::String(s) => {
                let argv: Vec<String> = s.split_whitespace().map(|w| format!("{w:?}")).collect();
                let help = (!argv.is_empty())
                    .then(|| format!("write it as an argv list: `[{}]`", argv.join(", ")));
                self.wrong_type(
                    &entry.value,
                    format!("{who}: `command`"),
                    "a list of strings (program, then arguments)",
                    help,
                );
                return Strings::new();
            }
            _ => {
                self.wrong_type(
                    &entry.value,
                    format!("{who}: `command`"),
                    "a list of strings (program, then arguments)",
                    None,
                );
                return Strings::new();
            }
        };
        if items.is_empty() {
            if self.diags.counted(&rules::EMPTY_COMMAND) {
                return Strings::new();
            }
            let d = self
                .diag(
                    &rules::EMPTY_COMMAND,
                    entry.value.span(),
                    format!("{who}: command must have at least the program name"),
                )
                .label("empty argv")
                .note(REFUSED)
                .help("put the program first: `[\"./tools/bin/NAME\"]`");
            self.push(d);
            return Strings::new();
        }
        // Read an item at a time, strings borrowed: a command of millions of arguments is
        // kept as one [`Strings`], never as a node or a string each.
        let mut all_strings = true;
        let mut argv = Strings::default();
        let mut line = argv::Line::new(argv::LONGEST);
        let mut cut = None;
        for (j, item) in items.items().enumerate() {
            // Another value counts as written.
            let (word, span) = match item {
                Item::Str(s, span) => {
                    argv.push(s);
                    (s, span)
                }
                Item::Other(node) => {
                    all_strings = false;
                    self.wrong_type(&node, format!("{who}: `command[{j}]`"), "a string", None);
                    (self.file.slice(node.span()), node.span())
                }
            };
            if !line.admits(word) {
                cut.get_or_insert(span);
            }
        }
        // The argv only when every element is a string: agentcli runs no other.
        if !all_strings {
            argv = Strings::new();
        }
        if let Some(at) = cut {
            self.too_long(who, at, line.length);
        }
        if let Some(program) = items.scan().next().filter(|p| p.as_str().is_some())
            && let Some(path) = self.program(&program, who)
        {
            programs.push(Program {
                who: who.clone(),
                path,
                span: program.span(),
            });
        }
        argv
    }

    /// ACL016: a command line longer than Windows starts, from `at` (its length `length`).
    fn too_long(&mut self, who: &Who, at: Span, length: usize) {
        let d = self
            .diag(
                &rules::COMMAND_LINE_TOO_LONG,
                at,
                format!(
                    "{who}: the command line is {length} characters long, longer than Windows starts ({})",
                    argv::LONGEST
                ),
            )
            .label("past the limit from here")
            .note("Windows refuses a command line of 32,767 characters or more, macOS arguments and environment over 1 MiB, Linux an argument over 128 KiB (and all of them over 2 MiB by default): agentcli cannot start the tool there; toolc's security checks read the arguments only as far as Windows starts them, and an inline script as far as some system does")
            .help("pass long or many values in a file the program reads, or on its standard input with the call's arguments");
        self.push(d);
    }

    /// The checks agentcli makes on `command[0]`; the cleaned relative path when it passes.
    fn program(&mut self, node: &Node, who: &Who) -> Option<String> {
        let original = node.as_str()?;
        if is_absolute_anywhere(original) {
            return None;
        }
        let raw = original.replace('\\', "/");
        let mut norm = clean(&raw);
        if norm.starts_with("tools/") || norm == "tools" {
            norm = format!("./{norm}");
        }
        if norm.starts_with("../") || norm == ".." {
            if self.diags.counted(&rules::COMMAND_ESCAPES_TOOLS_BIN) {
                return None;
            }
            let span = climbing_dotdot(&raw, 0)
                .map_or(node.span(), |at| span_in_value(self.file, node, at, ".."));
            let d = self
                .diag(
                    &rules::COMMAND_ESCAPES_TOOLS_BIN,
                    span,
                    format!("{who}: command[0] must not start with `..` or escape tools/bin (got {original:?})"),
                )
                .label("climbs out of the manifest's folder")
                .note(REFUSED)
                .help(format!("install the program as `{BIN_PREFIX}{}` next to tools.json and name it that way", base_name(&norm).unwrap_or("NAME")));
            self.push(d);
            return None;
        }
        if raw.starts_with(BIN_PREFIX) || raw == "./tools/bin" {
            if !norm.starts_with(BIN_PREFIX) {
                if self.diags.counted(&rules::COMMAND_ESCAPES_TOOLS_BIN) {
                    return None;
                }
                let span = climbing_dotdot(&raw, 2)
                    .map_or(node.span(), |at| span_in_value(self.file, node, at, ".."));
                let d = self
                    .diag(
                        &rules::COMMAND_ESCAPES_TOOLS_BIN,
                        span,
                        format!("{who}: command[0] escapes ./tools/bin after normalization (got {original:?} -> {norm:?})"),
                    )
                    .label(format!("cleaned to `{norm}`"))
                    .note(REFUSED)
                    .help("name a program inside `./tools/bin/`, without `..`");
                self.push(d);
                return None;
            }
        } else if !norm.starts_with(BIN_PREFIX) {
            if self.diags.counted(&rules::COMMAND_OUTSIDE_TOOLS_BIN) {
                return None;
            }
            let d = self
                .diag(
                    &rules::COMMAND_OUTSIDE_TOOLS_BIN,
                    node.span(),
                    format!("{who}: relative command[0] must start with ./tools/bin/ (got {original:?})"),
                )
                .label("not under ./tools/bin/")
                .note(REFUSED)
                .note("agentcli runs only programs from `tools/bin/` next to the manifest, or absolute paths")
                .help(format!(
                    "put the program in `tools/bin/` next to tools.json and write `\"{BIN_PREFIX}{}\"`",
                    base_name(&norm).unwrap_or("NAME")
                ));
            self.push(d);
            return None;
        }
        Some(norm)
    }

    /// ACL011: relative programs that are not next to the manifest (one summary when none is);
    /// SEC003: ones that are there through a link out of the repository.
    pub(super) fn programs(&mut self, programs: &[Program], tools_key: Span) {
        let dir = self.file.path.parent().unwrap_or(Path::new(""));
        let mut missing: Vec<&Program> = Vec::new();
        // Each program asked of the file system once, however many tools run it.
        let mut found: HashMap<&str, There> = HashMap::new();
        let mut distinct_missing = 0;
        for p in programs {
            let there = found.entry(p.path.as_str()).or_insert_with(|| {
                let path = dir.join(p.path.trim_start_matches("./"));
                // A link out to anything there (a folder too) is that, not a missing program.
                if let Some(out) = linked_out(self.fs, &path) {
                    There::Outside(out)
                } else if self.fs.is_file(&path) {
                    There::Present
                } else {
                    distinct_missing += 1;
                    There::Missing
                }
            });
            match there {
                There::Outside(out) => self.program_outside(p, out),
                There::Missing => missing.push(p),
                There::Present => {}
            }
        }
        let bin_dir = sibling_display(self.file.display(), "tools/bin/");
        if distinct_missing >= 2 && missing.len() == programs.len() {
            let mut d = self
                .diag(
                    &rules::MISSING_TOOL_PROGRAM,
                    tools_key,
                    format!("none of the {distinct_missing} programs under `./tools/bin/` exists next to this manifest"),
                )
                .label(format!("`{bin_dir}` holds none of them"))
                .note("agentcli resolves `./tools/bin/NAME` against the manifest's folder: until the programs are there, every tool call fails");
            for p in missing.iter().take(3) {
                d = d.related(
                    self.file,
                    p.span,
                    format!("{}: `{}` is missing", p.who, p.path),
                );
            }
            let d = d.help("build or install the programs into that folder; if they are built later (a `make` step), turn this rule off for the path in toolc.toml");
            self.push(d);
            return;
        }
        for p in missing {
            if self.diags.counted(&rules::MISSING_TOOL_PROGRAM) {
                continue;
            }
            let d = self
                .diag(
                    &rules::MISSING_TOOL_PROGRAM,
                    p.span,
                    format!("{}: `{}` does not exist next to this manifest", p.who, p.path),
                )
                .label(format!("no such file in `{bin_dir}`"))
                .note("agentcli resolves `./tools/bin/NAME` against the manifest's folder: every call of this tool fails until the program is there")
                .help("build or install the program there, or fix the path");
            self.push(d);
        }
    }

    /// SEC003: a program that is there, but through a link out of the repository.
    fn program_outside(&mut self, p: &Program, out: &LinkedOut) {
        let d = self.diag(
            &sec::PROGRAM_OUTSIDE_REPOSITORY,
            p.span,
            format!(
                "{}: `{}` leads out of the repository, to `{}`",
                p.who,
                p.path,
                out.shown()
            ),
        );
        let d = programs::explain(
            d,
            "agentcli runs `./tools/bin/NAME` from the manifest's folder and follows the link",
        );
        self.push(d);
    }

    pub(super) fn timeout(&mut self, node: &Node, who: &Who) {
        let Some(entry) = field(node, "timeoutSec") else {
            return;
        };
        let v = &entry.value;
        let problem = match &v.kind {
            NodeKind::Null => return,
            NodeKind::Number(Number::Int(n)) if *n > 0 => return,
            NodeKind::Number(Number::Int(_)) => "must be a positive number of seconds",
            NodeKind::Number(Number::Float(_)) => "must be a whole number of seconds",
            NodeKind::String(s) => {
                let help = s
                    .trim()
                    .parse::<i64>()
                    .ok()
                    .filter(|n| *n > 0)
                    .map(|n| format!("write it without quotes: `\"timeoutSec\": {n}`"));
                self.wrong_type(v, format!("{who}: `timeoutSec`"), "an integer", help);
                return;
            }
            _ => {
                self.wrong_type(v, format!("{who}: `timeoutSec`"), "an integer", None);
                return;
            }
        };
        if self.diags.counted(&rules::INVALID_TIMEOUT) {
            return;
        }
        let text = self.file.slice(v.span()).to_string();
        let note = if matches!(v.kind, NodeKind::Number(Number::Float(_))) {
            "agentcli decodes `timeoutSec` into an integer: a fraction makes the decoder reject the whole manifest"
        } else {
            "agentcli treats zero as unset (the CLI's `-timeout` applies) and has no meaning for a negative timeout: either way not the limit written here"
        };
        let d = self
            .diag(&rules::INVALID_TIMEOUT, v.span(), format!("{who}: timeoutSec {problem}, found `{text}`"))
            .label("not a positive integer")
            .note(note)
            .help("write a whole number of seconds, such as `\"timeoutSec\": 30`, or leave it out for the CLI's `-timeout`");
        self.push(d);
    }
}

/// What is at the path of a program.
enum There {
    /// The program.
    Present,
    /// A link out of the repository.
    Outside(LinkedOut),
    /// Nothing.
    Missing,
}
