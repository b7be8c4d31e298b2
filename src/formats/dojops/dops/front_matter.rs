//! The front matter field by field, in the runtime's schema order: the concerns with more to
//! say (version, files, verification, dependencies) live in their own files.

use super::access::{SkillLowerer, Want};
use super::files::FILE_FORMATS;
use super::{Gate, Name};
use crate::formats::dojops::{NameKind, check_name};
use crate::formats::fields::{ItemPaths, MapRef};
use crate::rules::dojops as doj;
use crate::source::Span;
use crate::syntax::Node;

const ROOT_KEYS: &[&str] = &[
    "dops",
    "kind",
    "meta",
    "context",
    "files",
    "detection",
    "verification",
    "permissions",
    "scope",
    "risk",
    "execution",
    "update",
    "capabilities",
    "dependencies",
];
const META_KEYS: &[&str] = &[
    "name",
    "version",
    "description",
    "author",
    "license",
    "tags",
    "repository",
    "icon",
];
const CONTEXT_KEYS: &[&str] = &[
    "technology",
    "fileFormat",
    "outputGuidance",
    "bestPractices",
    "context7Libraries",
];
const LIBRARY_KEYS: &[&str] = &["name", "query"];
const PERMISSION_KEYS: &[&str] = &["filesystem", "child_process", "network"];
const RISK_KEYS: &[&str] = &["level", "rationale"];
const EXECUTION_KEYS: &[&str] = &["mode", "deterministic", "idempotent"];
const UPDATE_KEYS: &[&str] = &["strategy", "inputSource", "injectAs"];
const CAPABILITY_KEYS: &[&str] = &["sideEffects", "runtime"];

impl SkillLowerer<'_> {
    /// Lower the whole front matter; `Stop` when a v1 file leaves nothing else worth saying.
    pub(super) fn front_matter(&mut self, root: &Node, open: Span) -> Gate {
        let Some(root) = self.map(root, open, "") else {
            return Gate::Continue;
        };
        if self.version(root) == Gate::Stop {
            return Gate::Stop;
        }
        self.unknown_keys(root, ROOT_KEYS);
        if let Some(e) = root.node.get("kind") {
            self.enumeration(&e.value, "kind", &["skill", "tool"], None);
        }
        self.meta(root);
        self.context(root);
        self.files(root);
        self.detection(root);
        self.verification(root);
        if let Some(m) = self.section(root, "permissions", "permissions", PERMISSION_KEYS) {
            self.optional_enum(m, "filesystem", &["read", "write"]);
            self.optional_enum(m, "child_process", &["required", "none"]);
            self.optional_enum(m, "network", &["none", "required"]);
        }
        self.scope(root);
        self.risk(root);
        if let Some(m) = self.section(root, "execution", "execution", EXECUTION_KEYS) {
            self.optional_enum(m, "mode", &["generate", "update"]);
            self.boolean(m, "deterministic");
            self.boolean(m, "idempotent");
        }
        if let Some(m) = self.section(root, "update", "update", UPDATE_KEYS) {
            self.optional_enum(m, "strategy", &["replace", "preserve_structure"]);
            self.optional_enum(m, "inputSource", &["file"]);
            self.optional_string(m, "injectAs", 0, usize::MAX);
        }
        if let Some(m) = self.section(root, "capabilities", "capabilities", CAPABILITY_KEYS) {
            self.optional_enum(
                m,
                "sideEffects",
                &["none", "filesystem", "network", "process"],
            );
            self.optional_enum(m, "runtime", &["short", "long"]);
        }
        self.dependencies(root);
        Gate::Continue
    }

    fn meta(&mut self, root: MapRef<'_>) {
        let Some(meta) = self.required_map(
            root,
            "meta",
            "meta",
            "add a `meta:` block with `name`, `version` and `description`",
        ) else {
            return;
        };
        self.unknown_keys(meta, META_KEYS);
        if let Some(name) = self.required(meta, "name", "add `name: my-skill` under `meta`") {
            self.skill_name(name);
        }
        if let Some(v) = self.required(meta, "version", "add `version: 1.0.0` under `meta`") {
            self.string(v, "meta.version", 1, usize::MAX);
        }
        if let Some(v) = self.required(
            meta,
            "description",
            "add `description: \"…\"` under `meta`: one sentence saying what the skill generates",
        ) {
            self.string(v, "meta.description", 1, 500);
        }
        for key in ["author", "license", "repository"] {
            self.optional_string(meta, key, 0, usize::MAX);
        }
        if let Some(tags) = meta.node.value("tags") {
            self.string_list(tags, "meta.tags", 0, 0);
        }
        if let Some(icon) = meta.node.value("icon") {
            self.icon(icon);
        }
    }

    /// DOJ003 on `meta.name`; a valid name is recorded for the project's registry.
    fn skill_name(&mut self, node: &Node) {
        if !self.expect(node, "meta.name", Want::Str) {
            return;
        }
        let Some(name) = node.as_str() else { return };
        if check_name(
            &mut self.lw,
            NameKind::Skill,
            "meta.name",
            name,
            node.span(),
        ) {
            self.skill.name = Some(Name {
                value: name.into(),
                span: node.span(),
            });
        }
    }

    /// DOJ022: `meta.icon` must be an `https://` URL of at most 2048 characters.
    fn icon(&mut self, node: &Node) {
        if !self.expect(node, "meta.icon", Want::Str) {
            return;
        }
        let Some(url) = node.as_str() else { return };
        let len = url.chars().count();
        let (message, label, help) = if len > 2048 {
            (
                format!("`meta.icon` is {len} characters long; DojOps allows at most 2048"),
                "URL too long".to_string(),
                "host the icon under a shorter `https://` URL".to_string(),
            )
        } else if let Some(rest) = url.strip_prefix("http://") {
            (
                format!("icon URL `{url}` does not use `https://`"),
                "plain HTTP".to_string(),
                format!("use `https://{rest}`"),
            )
        } else if !is_https_url(url) {
            (
                format!("`meta.icon` must be an `https://` URL, found `{url}`"),
                "not an `https://` URL".to_string(),
                "use an absolute URL such as `https://example.com/icon.svg`".to_string(),
            )
        } else {
            return;
        };
        let d = self
            .lw
            .diag(&doj::INSECURE_ICON_URL, node.span(), message)
            .label(label)
            .note("DojOps refuses to load a skill whose icon is not an `https://` URL of at most 2048 characters")
            .help(help);
        self.lw.push(d);
    }

    fn context(&mut self, root: MapRef<'_>) {
        let Some(ctx) = self.required_map(
            root,
            "context",
            "context",
            "add a `context:` block with `technology`, `fileFormat`, `outputGuidance` and `bestPractices`",
        ) else {
            return;
        };
        self.unknown_keys(ctx, CONTEXT_KEYS);
        if let Some(v) = self.required(
            ctx,
            "technology",
            "add `technology: …` under `context`, e.g. `technology: Terraform`",
        ) {
            self.string(v, "context.technology", 1, usize::MAX);
        }
        if let Some(v) = self.required(
            ctx,
            "fileFormat",
            "add `fileFormat: raw` under `context` (or `yaml`, `hcl`, `json`, `ini`, `toml`)",
        ) {
            self.enumeration(
                v,
                "context.fileFormat",
                FILE_FORMATS,
                Some("use `raw` when the generated file is none of these formats"),
            );
        }
        if let Some(v) = self.required(
            ctx,
            "outputGuidance",
            "add `outputGuidance: …` under `context`: how the model must shape its output",
        ) {
            self.string(v, "context.outputGuidance", 1, usize::MAX);
        }
        if let Some(v) = self.required(
            ctx,
            "bestPractices",
            "add `bestPractices:` under `context` with at least one `- practice` line",
        ) {
            self.string_list(v, "context.bestPractices", 1, 1);
        }
        let Some(libraries) = ctx.node.value("context7Libraries") else {
            return;
        };
        let Some(items) = self.list(libraries, "context.context7Libraries", 0) else {
            return;
        };
        let mut paths = ItemPaths::new("context.context7Libraries");
        for (i, item) in items.scan().enumerate() {
            let item = &*item;
            let path = paths.at(i);
            let Some(lib) = self.item_map(item, path, "name") else {
                continue;
            };
            self.unknown_keys(lib, LIBRARY_KEYS);
            if let Some(v) = self.required(
                lib,
                "name",
                "add `name: …` to this entry: the Context7 library id",
            ) {
                self.string(v, &format!("{path}.name"), 1, usize::MAX);
            }
            if let Some(v) = self.required(
                lib,
                "query",
                "add `query: …` to this entry: what to look up in the library's documentation",
            ) {
                self.string(v, &format!("{path}.query"), 1, usize::MAX);
            }
        }
    }

    fn risk(&mut self, root: MapRef<'_>) {
        let Some(risk) = self.section(root, "risk", "risk", RISK_KEYS) else {
            return;
        };
        if let Some(v) = self.required(
            risk,
            "level",
            "add `level: LOW`, `MEDIUM` or `HIGH` under `risk`",
        ) {
            self.enumeration(v, "risk.level", &["LOW", "MEDIUM", "HIGH"], None);
        }
        if let Some(v) = self.required(
            risk,
            "rationale",
            "add `rationale: …` under `risk`: why the skill has this risk level",
        ) {
            self.string(v, "risk.rationale", 1, 500);
        }
    }
}

fn is_https_url(url: &str) -> bool {
    url.strip_prefix("https://").is_some_and(|rest| {
        !rest.is_empty() && !rest.starts_with('/') && !rest.contains(char::is_whitespace)
    })
}
