//! `verification`: structural checks, the binary check and its parser (DOJ021), severities;
//! the binary's command itself is checked in `command.rs`.

use super::SHAPE;
use super::access::SkillLowerer;
use crate::analysis::names::did_you_mean;
use crate::diagnostics::{Applicability, DidYouMean};
use crate::formats::fields::{ItemPaths, MapRef, join_path, replace_exact};
use crate::rules::dojops as doj;
use crate::syntax::Node;

/// Parsers `verification.binary.parser` may name.
const KNOWN_PARSERS: &[&str] = &[
    "terraform-json",
    "hadolint-json",
    "kubectl-stderr",
    "helm-lint",
    "nginx-stderr",
    "promtool",
    "systemd-analyze",
    "make-dryrun",
    "ansible-syntax",
    "docker-compose-config",
    "actionlint",
    "github-actions",
    "gitlab-ci",
    "generic-stderr",
    "generic-json",
    "packer-validate",
    "shellcheck-json",
];

const VERIFICATION_KEYS: &[&str] = &["structural", "binary", "severity"];
const STRUCTURAL_KEYS: &[&str] = &[
    "path",
    "required",
    "type",
    "minItems",
    "message",
    "requiredUnless",
];
const BINARY_KEYS: &[&str] = &["command", "parser", "timeout", "cwd"];
const SEVERITY_KEYS: &[&str] = &["error", "warning", "info"];

impl SkillLowerer<'_> {
    pub(super) fn verification(&mut self, root: MapRef<'_>) {
        let Some(ver) = self.section(root, "verification", "verification", VERIFICATION_KEYS)
        else {
            return;
        };
        if let Some(node) = ver.node.value("structural") {
            self.structural(node);
        }
        if let Some(bin) = self.section(ver, "binary", "verification.binary", BINARY_KEYS) {
            // DojOps runs the binary check only with this permission (it skips it otherwise).
            let runs = root
                .node
                .value("permissions")
                .and_then(|p| p.value("child_process"))
                .and_then(Node::as_str)
                == Some("required");
            self.binary(bin, runs);
        }
        if let Some(sev) = self.section(ver, "severity", "verification.severity", SEVERITY_KEYS) {
            for key in SEVERITY_KEYS {
                if let Some(v) = sev.node.value(key) {
                    self.string_list(v, &join_path(sev.path, key), 0, 0);
                }
            }
        }
    }

    fn structural(&mut self, node: &Node) {
        let Some(items) = self.list(node, "verification.structural", 0) else {
            return;
        };
        let mut paths = ItemPaths::new("verification.structural");
        for (i, item) in items.scan().enumerate() {
            let item = &*item;
            let path = paths.at(i);
            let Some(rule) = self.item_map(item, path, "path") else {
                continue;
            };
            self.unknown_keys(rule, STRUCTURAL_KEYS);
            if let Some(v) = self.required(
                rule,
                "path",
                "add `path: …` to this entry: the field of the generated file to check",
            ) {
                self.string(v, &format!("{path}.path"), 0, usize::MAX);
            }
            if let Some(v) = self.required(
                rule,
                "message",
                "add `message: …` to this entry: what to report when the check fails",
            ) {
                self.string(v, &format!("{path}.message"), 0, usize::MAX);
            }
            self.boolean(rule, "required");
            self.optional_string(rule, "type", 0, usize::MAX);
            self.optional_string(rule, "requiredUnless", 0, usize::MAX);
            if let Some(v) = rule.node.value("minItems") {
                self.integer(v, &format!("{path}.minItems"));
            }
        }
    }

    fn binary(&mut self, bin: MapRef<'_>, runs: bool) {
        if let Some(v) = self.required(
            bin,
            "command",
            "add `command: …` under `verification.binary`: the check to run on the generated files",
        ) && let Some(command) = self.string(v, "verification.binary.command", 1, usize::MAX)
        {
            self.verification_command(v, command, runs);
        }
        if let Some(v) = self.required(
            bin,
            "parser",
            "add `parser: …` under `verification.binary`, e.g. `parser: generic-stderr`",
        ) && let Some(parser) = self.string(v, "verification.binary.parser", 1, usize::MAX)
        {
            self.parser(v, parser);
        }
        if let Some(v) = bin.node.value("timeout") {
            self.timeout(v);
        }
        self.optional_enum(bin, "cwd", &["output", "tool"]);
    }

    /// DOJ021: the parser must be one DojOps ships.
    fn parser(&mut self, node: &Node, parser: &str) {
        if parser.is_empty() || KNOWN_PARSERS.contains(&parser) {
            return;
        }
        let hint = did_you_mean(parser, KNOWN_PARSERS.iter().copied());
        let help = format!(
            "use one of the parsers DojOps ships: {}",
            KNOWN_PARSERS.join(", ")
        );
        let d = self
            .lw
            .diag(
                &doj::UNKNOWN_VERIFICATION_PARSER,
                node.span(),
                format!("unknown verification parser `{parser}`"),
            )
            .label("not a parser DojOps knows")
            .note("DojOps refuses to load a skill whose verification names an unknown parser")
            .did_you_mean_or(
                hint.and_then(|p| {
                    let fix =
                        replace_exact(self.lw.file, node.span(), parser, p, Applicability::Safe);
                    DidYouMean::fixed_by(p, fix)
                }),
                help,
            );
        self.lw.push(d);
    }

    fn timeout(&mut self, node: &Node) {
        let path = "verification.binary.timeout";
        let Some(ms) = self.integer(node, path) else {
            return;
        };
        if ms > 0 {
            return;
        }
        let d = self
            .lw
            .diag(
                SHAPE.bad_value,
                node.span(),
                format!("`{path}` must be a positive number of milliseconds, found `{ms}`"),
            )
            .label("must be greater than 0")
            .help("use e.g. `30000` (30 seconds, the default), or drop the key");
        self.lw.push(d);
    }
}
