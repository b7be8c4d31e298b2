//! Parameters: types, defaults, required parameters with a default, unused parameters
//! (CYC009, CYC010, CYC011, CYC013).

use super::lower::{Cx, Param, REJECTED};
use super::template::{self, Target};
use crate::analysis::names::{NameIndex, did_you_mean};
use crate::diagnostics::{Applicability, DidYouMean};
use crate::formats::fields::{join_path, replace_exact};
use crate::formats::in_value::InValue;
use crate::rules::cycod as rules;
use crate::runtimes::cycod::PARAMETER_TYPES;
use crate::syntax::{Entry, Node, NodeKind, Number};

const PARAMETER_KEYS: &[&str] = &["description", "type", "required", "default"];

impl Cx<'_> {
    /// `parameters`: CYC009, CYC010, CYC011 and the shape of each entry.
    pub(super) fn parameters<'n>(&mut self, node: &'n Node, path: &str) -> Vec<Param<'n>> {
        let Some(e) = node.get("parameters") else {
            return Vec::new();
        };
        let params_path = join_path(path, "parameters");
        if matches!(e.value.kind, NodeKind::Null) {
            return Vec::new();
        }
        let Some(entries) = e.value.as_map() else {
            self.lw
                .wrong_type(&e.value, &params_path, "a mapping of parameter names");
            return Vec::new();
        };
        let mut out = Vec::new();
        for p in entries {
            out.push(Param {
                name: &p.key,
                key_span: p.key_span(),
                used: false,
            });
            let ppath = join_path(&params_path, &p.key);
            let Some(map) = self.lw.as_map(&p.value, p.key_span(), &ppath) else {
                continue;
            };
            self.lw.unknown_keys(map, PARAMETER_KEYS, REJECTED);
            if let Some(d) = p.value.get("description") {
                self.string(&d.value, &join_path(&ppath, "description"));
            }
            let ty = self.parameter_type(&p.value, &ppath);
            let required = self.required(&p.value, &ppath);
            let default = p
                .value
                .get("default")
                .filter(|d| d.value.kind != NodeKind::Null);
            if let (Some(ty), Some(d)) = (ty, default) {
                self.default_value(&p.key, &ty, d);
            }
            if let (Some(req), Some(d)) = (required, default) {
                let shown = self.file().slice(d.value.span()).to_string();
                let diag = self
                    .diag(
                        &rules::REQUIRED_WITH_DEFAULT,
                        d.key_span(),
                        format!("parameter `{}` is required, so its default `{shown}` is never used", p.key),
                    )
                    .label("never used")
                    .related(self.file(), req.key_span(), "required here")
                    .note("cycod asks for a required parameter on every call; a default only applies to a parameter that may be left out")
                    .help("remove `required: true` to let the default apply, or remove the default");
                self.push(diag);
            }
        }
        self.defaults_naming_parameters(entries);
        out
    }

    /// CYC023: a string default that names a parameter declared before it (or itself). cycod
    /// replaces each parameter once, in declaration order, by plain text replacement, and
    /// never looks again at text it inserted: when this default goes in, `{THAT}` has already
    /// been replaced, so the braces reach the command as written.
    fn defaults_naming_parameters(&mut self, entries: &[Entry]) {
        // Looked up, not searched for among the parameters before (quadratic in a tool of
        // many parameters whose defaults name others).
        let names = NameIndex::new(entries.iter().map(|e| e.key.as_str()).collect());
        for (i, p) in entries.iter().enumerate() {
            let Some(d) = p.value.get("default") else {
                continue;
            };
            let Some(text) = d.value.as_str() else {
                continue;
            };
            let mut spans = InValue::new(self.file(), &d.value);
            for r in template::scan(text) {
                let Target::Param { name, .. } = r.target else {
                    continue;
                };
                let first = names.first(name).filter(|at| *at <= i);
                let Some(earlier) = first.and_then(|at| entries.get(at)) else {
                    continue;
                };
                if self.lw.diags.counted(&rules::DEFAULT_NAMES_PARAMETER) {
                    continue;
                }
                let span = spans.span(r.at, r.text);
                let own = earlier.key == p.key;
                let mut diag = self
                    .diag(
                        &rules::DEFAULT_NAMES_PARAMETER,
                        span,
                        format!(
                            "the default of `{}` names `{}`, which cycod has already replaced when it puts this default in: the braces reach the command as written",
                            p.key, r.text
                        ),
                    )
                    .label("not substituted")
                    .note("cycod substitutes parameters one after another, in the order they are declared, and never looks again at a value it has inserted")
                    .help(format!(
                        "give `{}` a default without references, and build the value in the command from `{}` itself",
                        p.key, r.text
                    ));
                if !own {
                    diag = diag.related(
                        self.file(),
                        earlier.key_span(),
                        format!("`{name}` is declared before `{}`", p.key),
                    );
                }
                self.push(diag);
            }
        }
    }

    /// The parameter's type, lowercased (cycod compares it case-insensitively); CYC009.
    pub(super) fn parameter_type(&mut self, param: &Node, ppath: &str) -> Option<String> {
        let Some(e) = param.get("type") else {
            return Some("string".to_string());
        };
        let tpath = join_path(ppath, "type");
        let text = self.string(&e.value, &tpath)?;
        let lower = text.trim().to_ascii_lowercase();
        if PARAMETER_TYPES.contains(&lower.as_str()) {
            return Some(lower);
        }
        let hint = match lower.as_str() {
            "int" | "integer" | "float" | "double" | "decimal" => Some("number"),
            "bool" => Some("boolean"),
            "list" | "seq" | "sequence" => Some("array"),
            "str" | "text" => Some("string"),
            other => did_you_mean(other, PARAMETER_TYPES.iter().copied()),
        };
        let d = self
            .diag(
                &rules::INVALID_PARAMETER_TYPE,
                e.value.span(),
                format!(
                    "`{tpath}` must be `string`, `number`, `boolean` or `array`, found `{text}`"
                ),
            )
            .label("not a cycod parameter type")
            .note("cycod rejects a tool with a parameter of any other type")
            .did_you_mean_or(
                hint.and_then(|h| {
                    let fix =
                        replace_exact(self.file(), e.value.span(), text, h, Applicability::Safe);
                    DidYouMean::fixed_by(h, fix)
                }),
                "use `string` and parse the value in the command",
            );
        self.push(d);
        None
    }

    /// `required`, when it is `true`; a non-boolean is CYC002.
    pub(super) fn required<'n>(&mut self, param: &'n Node, ppath: &str) -> Option<&'n Entry> {
        let e = param.get("required")?;
        let value = match &e.value.kind {
            NodeKind::Bool(b) => Some(*b),
            NodeKind::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
            NodeKind::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
            NodeKind::Null => Some(false),
            _ => None,
        };
        match value {
            Some(true) => Some(e),
            Some(false) => None,
            None => {
                self.lw.wrong_type(
                    &e.value,
                    &join_path(ppath, "required"),
                    "a boolean (`true` or `false`)",
                );
                None
            }
        }
    }

    /// CYC010: the default must be a value of the parameter's type.
    pub(super) fn default_value(&mut self, name: &str, ty: &str, d: &Entry) {
        let v = &d.value;
        let ok = match ty {
            "number" => match &v.kind {
                NodeKind::Number(Number::Int(_)) => true,
                NodeKind::Number(Number::Float(f)) => f.is_finite(),
                NodeKind::String(s) => s.trim().parse::<f64>().is_ok_and(f64::is_finite),
                _ => false,
            },
            "boolean" => match &v.kind {
                NodeKind::Bool(_) => true,
                NodeKind::Number(Number::Int(i)) => *i == 0 || *i == 1,
                NodeKind::String(s) => matches!(
                    s.trim().to_ascii_lowercase().as_str(),
                    "true" | "false" | "1" | "0" | "yes" | "no"
                ),
                _ => false,
            },
            "array" => matches!(v.kind, NodeKind::Seq(_)),
            _ => !matches!(v.kind, NodeKind::Seq(_) | NodeKind::Map(_)),
        };
        if ok {
            return;
        }
        let shown = match &v.kind {
            NodeKind::Seq(_) | NodeKind::Map(_) => v.type_name().to_string(),
            _ => format!("`{}`", self.file().slice(v.span())),
        };
        let expected = match ty {
            "number" => "a number",
            "boolean" => "`true` or `false`",
            "array" => "a list (`[a, b]`)",
            _ => "a single value",
        };
        let help = match (ty, &v.kind) {
            ("array", NodeKind::String(s)) => format!("write it as a YAML list: `default: [{s}]`"),
            ("array", _) => "write it as a YAML list: `default: [a, b]`".to_string(),
            _ => format!("give a default of type `{ty}`, or change `type`"),
        };
        let diag = self
            .diag(
                &rules::INVALID_PARAMETER_DEFAULT,
                v.span(),
                format!(
                    "the default of `{name}` must be {expected} for `type: {ty}`, found {shown}"
                ),
            )
            .label(format!("not a valid `{ty}`"))
            .note("cycod rejects a tool whose parameter default does not fit its type")
            .help(help);
        self.push(diag);
    }

    /// CYC013.
    pub(super) fn unused(&mut self, params: &[Param<'_>]) {
        for p in params.iter().filter(|p| !p.used) {
            let d = self
                .diag(
                    &rules::UNUSED_PARAMETER,
                    p.key_span,
                    format!("parameter `{}` is never referenced", p.name),
                )
                .label("unused")
                .note("cycod still asks the LLM for it, but its value reaches no command")
                .help(format!(
                    "reference it as `{{{}}}` in the command, `arguments`, `input` or `environment`, or remove it",
                    p.name
                ));
            self.push(d);
        }
    }
}
