//! Checks of embedded and referenced JSON Schemas (<https://json-schema.org>), the `SCH`
//! rules shared by every format.
//!
//! A schema is validated against its draft's meta-schema (SCH001, [`meta`]), then linted in
//! one iterative walk over its subschemas ([`walk`]): undefined `required` names and values
//! that break their own schema (SCH002–SCH003, [`lints`]) and references (SCH001, SCH005,
//! [`refs`]). Keyword knowledge lives in [`vocab`]. A runtime that converts schemas rather
//! than validating them (and drops what it does not convert) plugs in as a [`Runtime`]; this
//! module itself knows no format.

mod instance;
mod lints;
mod meta;
mod refs;
mod types;
mod values;
pub(crate) mod vocab;
mod walk;

use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) use refs::remote_scheme;
pub(crate) use values::{declared_types, has_type, json_eq, short};
pub(crate) use walk::Site;

use crate::diagnostics::Diagnostic;
use crate::rules::Rule;
use crate::source::SourceFile;
use crate::source::Span;
use crate::syntax::Node;

/// A runtime that converts a schema into its own validator and reads only part of JSON
/// Schema: which subschemas it reads, what its findings mean there, and its own lints.
pub(crate) trait Runtime: Sync {
    /// Whether the conversion reads the subschema(s) `value` under `keyword` of `schema`
    /// (a schema it reads itself).
    fn reads(&self, schema: &Node, keyword: &str, value: &Node) -> bool;
    /// The runtime's own diagnostics for `site`, a subschema it reads whose `type` is valid.
    fn lint(&self, file: &Arc<SourceFile>, site: &Site<'_>) -> Vec<Diagnostic>;
    /// What the runtime does with a `type` it does not know (a note of SCH001).
    fn unknown_type(&self) -> &'static str;
    /// What the runtime does with a `required` name that `properties` lacks (a note of SCH002).
    fn required_undefined(&self, name: &str) -> String;
    /// What the runtime does with a `default` its schema rejects (a note of SCH003).
    fn bad_default(&self) -> &'static str;
    /// What the runtime does with a remote `$ref`: a note, and the help (SCH005).
    fn remote_ref(&self) -> (&'static str, &'static str);
}

/// How a schema is checked.
#[derive(Clone, Copy, Default)]
pub(crate) struct SchemaOptions {
    /// The runtime that converts the schema, when it is not read by a JSON Schema validator.
    pub runtime: Option<&'static dyn Runtime>,
}

/// Validate `root` (a schema in `file`) against the meta-schema and lint it.
pub(crate) fn check_schema(
    file: &Arc<SourceFile>,
    root: &Node,
    options: SchemaOptions,
) -> Vec<Diagnostic> {
    let mut cx = Cx {
        file,
        root,
        options,
        found: BTreeMap::new(),
        suggestions: crate::analysis::names::SUGGESTION_BUDGET,
    };
    cx.meta_validate();
    cx.dangling_refs();
    // Looked up by each remote `$ref`, not searched: a schema of 100,000 of each took 3 s.
    let ids = refs::embedded_ids(root, options.runtime);
    walk::visit(root, options.runtime, &mut |site| {
        cx.required_undefined(site);
        cx.own_values(site);
        cx.remote_refs(site, &ids);
        // With a broken `type` (SCH001) the conversion is anyone's guess until it is fixed.
        let type_is_valid = site.node.get("type").is_none() || declared_types(site.node).is_some();
        if let Some(runtime) = options.runtime
            && site.converted
            && type_is_valid
        {
            for d in runtime.lint(file, site) {
                cx.push(d);
            }
        }
    });
    let mut out: Vec<Diagnostic> = cx
        .found
        .into_values()
        .flat_map(crate::diagnostics::first::First::into_vec)
        .collect();
    out.sort_by(|a, b| {
        (a.span.start, a.span.end, a.rule.code).cmp(&(b.span.start, b.span.end, b.rule.code))
    });
    out.dedup_by(|a, b| a.span == b.span && a.rule.code == b.rule.code && a.message == b.message);
    out
}

/// Names of the root schema's `properties`, in source order.
pub(crate) fn root_property_names(root: &Node) -> Vec<&str> {
    root.value("properties")
        .and_then(Node::as_map)
        .map(|entries| entries.iter().map(|e| e.key.as_str()).collect())
        .unwrap_or_default()
}

/// The state of one check: the schema, its file and the diagnostics so far.
struct Cx<'a> {
    file: &'a Arc<SourceFile>,
    root: &'a Node,
    options: SchemaOptions,
    /// The findings of each rule, capped as they are found: a `required` list of millions
    /// of names `properties` lacks held a finding for each (88 times the file's size).
    found: BTreeMap<&'static str, crate::diagnostics::first::First>,
    /// Name comparisons "did you mean" may still spend in this schema.
    suggestions: usize,
}

impl Cx<'_> {
    fn push(&mut self, d: Diagnostic) {
        self.found.entry(d.rule.code).or_default().push(d);
    }

    /// False when a finding of `rule` at `span` would only be counted ([`Cx::count`] it
    /// instead of building it).
    fn wants(&self, rule: &Rule, span: Span) -> bool {
        self.found.get(rule.code).is_none_or(|f| f.wants(span))
    }

    /// Count a finding of `rule` not built because of [`Cx::wants`].
    fn count(&mut self, rule: &'static Rule) {
        self.found.entry(rule.code).or_default().count();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::source::FormatId;
    use crate::syntax::{MAX_DEPTH, json};

    /// A schema file holding `text`, and what a plain check (no runtime) reports.
    pub(crate) fn diagnostics(text: &str) -> (Arc<SourceFile>, Vec<Diagnostic>) {
        check_with(text, SchemaOptions::default())
    }

    /// A schema file holding `text`, and what a check with `options` reports.
    pub(crate) fn check_with(
        text: &str,
        options: SchemaOptions,
    ) -> (Arc<SourceFile>, Vec<Diagnostic>) {
        let file = SourceFile::new(
            PathBuf::from("s.json"),
            "s.json".into(),
            FormatId::DojopsSchema,
            text.to_string(),
        );
        let root = json::parse(&file.text, 0).root.expect("test schema parses");
        let diags = check_schema(&file, &root, options);
        (file, diags)
    }

    /// Each diagnostic as `CODE <text at its span> <message>`.
    pub(crate) fn lines(text: &str, options: SchemaOptions) -> Vec<String> {
        let (file, diags) = check_with(text, options);
        diags
            .iter()
            .map(|d| format!("{} {} {}", d.rule.code, file.slice(d.span), d.message))
            .collect()
    }

    /// [`lines`] of a plain check.
    pub(crate) fn run(text: &str) -> Vec<String> {
        lines(text, SchemaOptions::default())
    }

    /// The rule codes of a plain check.
    pub(crate) fn codes(text: &str) -> Vec<String> {
        run(text).iter().map(|l| l[..6].to_string()).collect()
    }

    /// A runtime that reads only `properties` and flags every `title` of what it reads.
    struct Titles;

    impl Runtime for Titles {
        fn reads(&self, _schema: &Node, keyword: &str, _value: &Node) -> bool {
            keyword == "properties"
        }
        fn lint(&self, file: &Arc<SourceFile>, site: &Site<'_>) -> Vec<Diagnostic> {
            site.node
                .get("title")
                .map(|e| {
                    Diagnostic::new(
                        &crate::rules::schema::KEYWORD_NOT_ENFORCED,
                        file,
                        e.key_span(),
                        "title",
                    )
                })
                .into_iter()
                .collect()
        }
        fn unknown_type(&self) -> &'static str {
            "unknown type note"
        }
        fn required_undefined(&self, name: &str) -> String {
            format!("missing {name}")
        }
        fn bad_default(&self) -> &'static str {
            "default note"
        }
        fn remote_ref(&self) -> (&'static str, &'static str) {
            ("remote note", "remote help")
        }
    }

    static TITLES: Titles = Titles;

    #[test]
    fn a_runtime_lints_only_what_it_reads() {
        let options = SchemaOptions {
            runtime: Some(&TITLES),
        };
        let text = r#"{"title": "r", "properties": {"a": {"title": "a", "items": {"title": "i"}}},
            "definitions": {"d": {"title": "d"}}}"#;
        let found = lines(text, options);
        assert_eq!(
            found,
            vec!["SCH004 \"title\" title", "SCH004 \"title\" title"]
        );
        assert!(run(text).is_empty());
        // Below a broken `type` the runtime's conversion is anyone's guess: no runtime lint.
        assert_eq!(
            lines(r#"{"type": "strng", "title": "x"}"#, options)
                .iter()
                .map(|l| &l[..6])
                .collect::<Vec<_>>(),
            vec!["SCH001"]
        );
    }

    #[test]
    fn a_runtime_words_the_shared_notes() {
        let options = SchemaOptions {
            runtime: Some(&TITLES),
        };
        let (_, diags) = check_with(
            r#"{"properties": {"a": {"type": "integer", "default": "x"}}, "required": ["b"],
                "items": {"$ref": "https://x/y"}}"#,
            options,
        );
        let notes: Vec<&str> = diags
            .iter()
            .flat_map(|d| d.notes.iter().map(|n| n.as_ref()))
            .collect();
        for expected in ["default note", "missing b", "remote note"] {
            assert!(notes.contains(&expected), "{expected}: {notes:#?}");
        }
        assert!(
            diags
                .iter()
                .any(|d| d.help.as_deref() == Some("remote help"))
        );
    }

    #[test]
    fn root_properties_in_order() {
        let root = json::parse(r#"{"properties": {"b": {}, "a": {}}}"#, 0)
            .root
            .expect("parses");
        assert_eq!(root_property_names(&root), vec!["b", "a"]);
        let root = json::parse("{}", 0).root.expect("parses");
        assert!(root_property_names(&root).is_empty());
    }

    #[test]
    fn ref_cycles_terminate() {
        let cycle = r##"{"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}},
            "properties": {"x": {"$ref": "#/definitions/a"}, "self": {"$ref": "#"}}, "$ref": "#"}"##;
        assert!(codes(cycle).is_empty());
    }

    #[test]
    fn deep_schemas_do_not_overflow() {
        // The parsers stop at MAX_DEPTH; a schema just under it must check on a 2 MiB thread
        // (rayon's default) without overflowing the stack.
        let n = MAX_DEPTH / 2 - 1;
        let deep =
            "{\"properties\": {\"a\": ".repeat(n) + "{\"type\": \"strng\"}" + &"}}".repeat(n);
        let nots =
            "{\"not\": ".repeat(MAX_DEPTH - 1) + "{\"type\": 3}" + &"}".repeat(MAX_DEPTH - 1);
        let handle = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || (codes(&deep), codes(&nots)))
            .expect("spawn");
        let (a, b) = handle.join().expect("no stack overflow");
        assert_eq!(a, vec!["SCH001"]);
        assert_eq!(b.iter().filter(|c| *c == "SCH001").count(), 1);
    }

    /// Odd inputs that must not panic, whatever the runtime.
    pub(crate) const ODD_INPUTS: &[&str] = &[
        "null",
        "3",
        "\"x\"",
        "{}",
        r#"{"$schema": 3}"#,
        r#"{"$schema": "http://example.com/custom"}"#,
        r#"{"required": [1, null, {}]}"#,
        r#"{"enum": "x", "default": 1}"#,
        r##"{"$ref": "#/%ZZ/~2"}"##,
        r##"{"$ref": "#nowhere"}"##,
        r#"{"$ref": "C:\\schemas\\a.json"}"#,
        r#"{"items": true, "type": "array", "dependencies": {"a": ["b"], "c": {"type": "x"}}}"#,
        r#"{"type": "number", "default": 1e400}"#,
    ];

    #[test]
    fn odd_inputs_never_panic() {
        for text in ODD_INPUTS {
            let _ = run(text);
        }
    }
}
