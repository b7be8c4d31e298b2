//! The `CMP` rules: what each target provider would reject, or weaken, in the bundle about to
//! be written. They read the lowered tools (`crate::ir::Lowered`), so a finding points into
//! the source file, at the name, the description or the schema keyword at fault.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::sync::Arc;

use rayon::prelude::*;

use super::{SchemaProblem, Target, gemini, openai};
use crate::analysis::names::{PORTABLE, suggest_valid_name};
use crate::analysis::registry;
use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::{Findings, MAX_PER_RULE, cap_per_rule, summary};
use crate::ir::{Json, Lowered};
use crate::rules::Rule;
use crate::rules::compat as cmp;
use crate::source::{SourceFile, Span};
use crate::syntax::{Node, NodeKind, Packed};

/// OpenAI rejects a function description longer than this (`string_above_max_length`).
pub(crate) const OPENAI_MAX_DESCRIPTION: usize = 1024;

/// Most schema places listed as related spans under one strict-mode finding.
const MAX_RELATED: usize = 8;

/// The targets whose providers the CMP rules hold tools to: all but toolc's own bundle.
pub(crate) fn providers(targets: &[Target]) -> Vec<Target> {
    targets
        .iter()
        .copied()
        .filter(|t| *t != Target::Bundle)
        .collect()
}

/// The bundled tools, in bundle order (name, then path), as the rules about the whole bundle
/// read them: without holding the tools themselves.
pub(crate) trait Bundled: Sync {
    /// How many tools there are.
    fn len(&self) -> usize;
    /// The name of tool `i`.
    fn name(&self, i: usize) -> &str;
    /// The file of tool `i`, and where its name is.
    fn site(&self, i: usize) -> (&Arc<SourceFile>, Span);
    /// The display path of the file of tool `i`.
    fn path(&self, i: usize) -> &str;
}

/// The CMP findings about the bundle as a whole, for `providers`: names given twice, and more
/// tools than OpenAI takes.
pub(crate) fn bundle_findings(tools: &dyn Bundled, providers: &[Target]) -> Vec<Diagnostic> {
    let mut out = duplicate_names(tools);
    if providers.contains(&Target::OpenAi) && tools.len() > openai::MAX_TOOLS {
        let (file, span) = tools.site(openai::MAX_TOOLS);
        out.push(
            Diagnostic::new(
                &cmp::TOO_MANY_OPENAI_TOOLS,
                file,
                span,
                format!(
                    "the OpenAI bundle holds {} tools; OpenAI accepts at most {} in one request",
                    tools.len(),
                    openai::MAX_TOOLS
                ),
            )
            .label(format!("tool {} in name order", openai::MAX_TOOLS + 1))
            .note("a request that sends the whole of openai.tools.json fails")
            .help("send each request only the tools its agent uses (agents/<id>.json lists them), or split the repository into several builds"),
        );
    }
    out
}

/// The findings `find` gives for each tool (by index), capped per file and rule as they are
/// found, each file's tools taken in their order in it: the first findings of a file are the
/// ones its report shows.
fn capped_by_file(
    tools: &dyn Bundled,
    find: impl Fn(usize) -> Vec<Diagnostic> + Sync,
) -> Vec<Diagnostic> {
    // Tools come sorted by name; the files' order is what a cap keeps the first of.
    let mut order: Vec<usize> = (0..tools.len()).collect();
    let place = |i: &usize| {
        let (file, span) = tools.site(*i);
        (&file.path, span.start)
    };
    order.sort_by(|a, b| place(a).cmp(&place(b)));
    let mut out = Vec::new();
    for file in order.chunk_by(|a, b| tools.site(*a).0.path == tools.site(*b).0.path) {
        let mut found = Findings::default();
        // A few thousand at a time: in parallel, and never all of a file's at once.
        for some in file.chunks(4096) {
            let each: Vec<Vec<Diagnostic>> = some.par_iter().map(|&i| find(i)).collect();
            found.extend(each.into_iter().flatten());
        }
        out.extend(found.into_vec());
    }
    out
}

/// The findings of one tool, each built only when its file's cap still keeps its rule: a
/// build of 900,000 tools that each broke strict mode built as many findings (1.2 of its
/// 9 seconds) to keep 200 of them.
#[derive(Default)]
pub(crate) struct ToolFindings {
    built: Vec<Diagnostic>,
    /// Findings of rules whose cap was full, only counted.
    counted: Vec<(&'static Rule, usize)>,
}

impl ToolFindings {
    /// Add them to `found`, in the order they were found.
    pub(crate) fn add_to(self, found: &mut Findings) {
        found.extend(self.built);
        for (rule, n) in self.counted {
            for _ in 0..n {
                found.count(rule);
            }
        }
    }
}

/// Where one tool's findings go: built, or counted when `full` says its rule is.
struct Gate<'f> {
    full: &'f (dyn Fn(&Rule) -> bool + Sync),
    out: ToolFindings,
}

impl Gate<'_> {
    /// `n` findings of `rule`, made by `make` unless the rule's cap is full.
    fn add(&mut self, rule: &'static Rule, n: usize, make: impl FnOnce() -> Vec<Diagnostic>) {
        if n == 0 {
            return;
        }
        if (self.full)(rule) {
            self.out.counted.push((rule, n));
        } else {
            self.out.built.extend(make());
        }
    }

    /// One finding of `rule` when `found`, made by `make` unless the rule's cap is full.
    fn one(&mut self, rule: &'static Rule, found: bool, make: impl FnOnce() -> Diagnostic) {
        self.add(rule, usize::from(found), || vec![make()]);
    }
}

/// The findings about one tool for `providers` (the targets other than `bundle`); a finding
/// of a rule `full` says its file's cap no longer keeps is counted, not built.
pub(crate) fn tool_findings(
    t: &Lowered<'_>,
    providers: &[Target],
    full: &(dyn Fn(&Rule) -> bool + Sync),
) -> ToolFindings {
    let mut out = Gate {
        full,
        out: ToolFindings::default(),
    };
    if providers.is_empty() {
        return out.out;
    }
    let tool = &t.tool;
    let rejecting = rejecting(&tool.name, providers);
    out.one(&cmp::PROVIDER_TOOL_NAME, !rejecting.is_empty(), || {
        name_finding(t, providers, &rejecting)
    });
    // Read back from its text once for all the tool's findings.
    let input = tool.input_schema.tree();
    let placing = Placing {
        t,
        root: OnceCell::new(),
        parameters: OnceCell::new(),
    };
    let root_is_object = input.get("type").and_then(Json::as_str) == Some("object");
    if !root_is_object {
        out.one(&cmp::NON_OBJECT_INPUT_SCHEMA, true, || {
            non_object_root(t, &input)
        });
    } else {
        if providers.contains(&Target::Gemini)
            && let Err(problems) = gemini::convert(&input)
        {
            out.add(&cmp::GEMINI_UNSUPPORTED_SCHEMA, problems.total(), || {
                let mut found: Vec<Diagnostic> = problems
                    .kept()
                    .iter()
                    .map(|p| schema_finding(&cmp::GEMINI_UNSUPPORTED_SCHEMA, &placing, p, "Gemini"))
                    .collect();
                // The first not kept by the cap stands for all the rest, only counted here.
                if problems.total() > found.len()
                    && let Some(last) = found.pop()
                {
                    found.push(summary(last, problems.total() - MAX_PER_RULE));
                }
                cap_per_rule(found, MAX_PER_RULE).into_iter().map(|d| {
                    d.note("Gemini takes function parameters in a subset of OpenAPI 3.0 and rejects the whole request when a declaration holds anything else")
                }).collect()
            });
        }
        if providers.contains(&Target::OpenAi) {
            let problems = openai::strict_violations(&input, 1 + MAX_RELATED);
            if let Some((first, rest)) = problems.kept().split_first() {
                out.one(&cmp::OPENAI_STRICT_INCOMPATIBLE, true, || {
                    strict_finding(&placing, first, rest, problems.total() - 1)
                });
            }
        }
    }
    // agentcli's own ACL012 already reports a missing description there.
    let undescribed =
        tool.description.trim().is_empty() && tool.provenance.format != "agentcli-manifest";
    out.one(&cmp::EMPTY_TOOL_DESCRIPTION, undescribed, || {
        Diagnostic::new(
            &cmp::EMPTY_TOOL_DESCRIPTION,
            t.file,
            t.description_span,
            format!("`{}` has no description", tool.name),
        )
        .label("no description")
        .note("every provider shows the model only a tool's name, description and parameters: with no description it guesses when to call the tool")
        .help("say in a sentence or two what the tool does and when to use it")
    });
    let length = tool.description.chars().count();
    let too_long = providers.contains(&Target::OpenAi) && length > OPENAI_MAX_DESCRIPTION;
    out.one(&cmp::LONG_TOOL_DESCRIPTION, too_long, || {
        Diagnostic::new(
            &cmp::LONG_TOOL_DESCRIPTION,
            t.file,
            t.description_span,
            format!(
                "the description of `{}` is {length} characters long, over OpenAI's limit of {OPENAI_MAX_DESCRIPTION}",
                tool.name
            ),
        )
        .label(format!("{length} characters"))
        .note("OpenAI rejects the whole request (`string_above_max_length`) when one function description is longer")
        .help("keep what the model needs to choose the tool; move the rest into the parameters' descriptions or the agent's instructions")
    });
    if providers.contains(&Target::Mcp)
        && let Some(output) = tool.output_schema.as_ref().map(|s| s.tree())
        && output.get("type").and_then(Json::as_str) != Some("object")
    {
        out.one(&cmp::MCP_OUTPUT_SCHEMA_NOT_OBJECT, true, || {
            let (file, span) = match t.output {
                Some((file, root)) => {
                    let root = root.unpack();
                    (file, locate(&root, "/type", false).unwrap_or(root.span()))
                }
                None => (t.file, t.name_span),
            };
            Diagnostic::new(
                &cmp::MCP_OUTPUT_SCHEMA_NOT_OBJECT,
                file,
                span,
                format!(
                    "the output schema of `{}` is {}, but MCP's `outputSchema` must describe an object",
                    tool.name,
                    describe_type(&output)
                ),
            )
            .label("not `type: object`")
            .note("toolc leaves it out of mcp.tools.json: MCP clients get no structured-output schema for this tool")
            .help("return an object, e.g. `{\"type\": \"object\", \"properties\": {\"result\": …}, \"required\": [\"result\"]}`")
        });
    }
    out.out
}

/// The providers whose name pattern rejects `name`.
fn rejecting(name: &str, providers: &[Target]) -> Vec<Target> {
    providers
        .iter()
        .copied()
        .filter(|p| !name_is_valid(*p, name))
        .collect()
}

/// CMP001: the providers whose name pattern rejects the tool's name (`rejecting`, not
/// empty), in one finding.
fn name_finding(t: &Lowered<'_>, providers: &[Target], rejecting: &[Target]) -> Diagnostic {
    let name = &t.tool.name;
    let who = list(rejecting.iter().map(|p| p.provider()));
    let mut d = Diagnostic::new(
        &cmp::PROVIDER_TOOL_NAME,
        t.file,
        t.name_span,
        format!("tool name `{name}` is rejected by {who}"),
    )
    .label(format!("not a valid tool name for {who}"));
    // OpenAI and Anthropic share a pattern: one note per pattern.
    let mut patterns: Vec<&str> = rejecting.iter().map(|p| name_pattern(*p)).collect();
    patterns.dedup();
    for pattern in patterns {
        let whose: Vec<&str> = rejecting
            .iter()
            .filter(|p| name_pattern(**p) == pattern)
            .map(|p| p.provider())
            .collect();
        let verb = if whose.len() == 1 {
            "requires"
        } else {
            "require"
        };
        d = d.note(format!("{} {verb} {pattern}", list(whose.into_iter())));
    }
    let suggestion = portable_name(name);
    let help = if !suggestion.is_empty()
        && suggestion != *name
        && providers.iter().all(|p| name_is_valid(*p, &suggestion))
    {
        format!(
            "rename it, e.g. to `{suggestion}`, or leave {who} out of the build targets (`--target`, `[build] targets`)"
        )
    } else {
        format!(
            "rename it, or leave {who} out of the build targets (`--target`, `[build] targets`)"
        )
    };
    d.help(help)
}

/// True when `target` accepts `name` as a tool name.
pub(crate) fn name_is_valid(target: Target, name: &str) -> bool {
    let len = name.chars().count();
    let bytes = name.as_bytes();
    match target {
        Target::OpenAi | Target::Anthropic => {
            (1..=64).contains(&len)
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
        }
        Target::Gemini => {
            (1..=64).contains(&len)
                && bytes
                    .first()
                    .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
        }
        Target::Mcp => {
            (1..=128).contains(&len)
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        }
        Target::Bundle => true,
    }
}

/// What `target` requires of a tool name, for messages.
pub(crate) fn name_pattern(target: Target) -> &'static str {
    match target {
        Target::OpenAi | Target::Anthropic => "`^[a-zA-Z0-9_-]{1,64}$`",
        Target::Gemini => {
            "a letter or `_` first, then letters, digits, `_`, `.`, `:` or `-`, at most 64 in all"
        }
        Target::Mcp => "`^[A-Za-z0-9_.-]{1,128}$`",
        Target::Bundle => "nothing",
    }
}

/// A name every provider accepts, made from `name`: other characters become `_`, a leading
/// digit or `-` gets a `_` before it, and the result is cut to 64 characters.
fn portable_name(name: &str) -> String {
    suggest_valid_name(name, &PORTABLE)
}

/// CMP003: the root of the input schema is not an object.
fn non_object_root(t: &Lowered<'_>, input: &Json) -> Diagnostic {
    let (file, span) = match t.schema {
        Some((file, root)) => {
            let root = root.unpack();
            (file, locate(&root, "/type", false).unwrap_or(root.span()))
        }
        None => (t.file, t.name_span),
    };
    let found = describe_type(input);
    Diagnostic::new(
        &cmp::NON_OBJECT_INPUT_SCHEMA,
        file,
        span,
        format!(
            "the input schema of `{}` is {found}, not an object",
            t.tool.name
        ),
    )
    .label("must be `type: object`")
    .note("OpenAI, Anthropic, MCP and Gemini all pass a tool's arguments as one JSON object and reject any other root schema")
    .help(if input.get("type").is_none() {
        "add `type: object` at the root of the schema"
    } else {
        "make the root an object and the value one of its properties, e.g. `{\"type\": \"object\", \"properties\": {\"value\": …}, \"required\": [\"value\"]}`"
    })
}

/// `a \`string\` schema`, `a schema without \`type\``: what a schema's root is, for messages.
fn describe_type(schema: &Json) -> String {
    match schema.get("type") {
        Some(Json::String(t)) => format!("a `{t}` schema"),
        Some(other) => format!("a schema of type `{other}`"),
        None if schema.is_object() => "a schema without `type`".into(),
        None => format!("`{schema}`"),
    }
}

/// CMP005: one finding per tool, on the first place strict mode cannot take; the others are
/// related places (`rest` the first of them, `others` how many there are).
fn strict_finding(
    placing: &Placing<'_, '_>,
    first: &SchemaProblem,
    rest: &[SchemaProblem],
    others: usize,
) -> Diagnostic {
    let t = placing.t;
    let mut d = schema_finding(
        &cmp::OPENAI_STRICT_INCOMPATIBLE,
        placing,
        first,
        "OpenAI strict mode",
    )
        .note("toolc bundles it without `strict: true`, so OpenAI does not guarantee that the arguments match the schema");
    if t.parameters.is_some() {
        // A cycod parameter is optional when it has a default: that is what to change.
        d = d.help("remove the parameter's `default` (or set `required: true`), so the model always passes it");
    }
    for p in rest.iter().take(MAX_RELATED) {
        let (file, span) = place(placing, p);
        d = d.related(file, span, p.message.clone());
    }
    if others > MAX_RELATED {
        d = d.note(format!(
            "{} more places are not listed",
            others - MAX_RELATED
        ));
    }
    d
}

/// A finding of `rule` on the schema place `p` of `t`, naming `who` cannot take it.
fn schema_finding(
    rule: &'static Rule,
    placing: &Placing<'_, '_>,
    p: &SchemaProblem,
    who: &str,
) -> Diagnostic {
    let t = placing.t;
    let (file, span) = place(placing, p);
    let at = if p.pointer.is_empty() {
        "/"
    } else {
        &p.pointer
    };
    let d = Diagnostic::new(
        rule,
        file,
        span,
        format!(
            "{who} cannot take the input schema of `{}`: {}",
            t.tool.name, p.message
        ),
    )
    .label(p.label.clone())
    .help(p.help.clone());
    if t.schema.is_none() {
        // The schema was made by toolc from the tool (cycod parameters): say where in it.
        d.note(format!(
            "in the input schema toolc derives from this tool, at `{at}`"
        ))
    } else {
        d
    }
}

/// A tool whose findings are placed in its schema's tree, unpacked once for all of them:
/// unpacking a schema of 100,000 properties for each of 201 findings took 7 s.
struct Placing<'t, 'a> {
    t: &'t Lowered<'a>,
    root: OnceCell<Option<Cow<'a, Node>>>,
    parameters: OnceCell<Option<Node>>,
}

impl Placing<'_, '_> {
    /// The schema's tree, when the format wrote one.
    fn root(&self) -> Option<&Node> {
        self.root
            .get_or_init(|| self.t.schema.map(|(_, tree)| tree.unpack()))
            .as_deref()
    }

    /// The cycod parameters a derived schema was made from.
    fn parameters(&self) -> Option<&Node> {
        self.parameters
            .get_or_init(|| self.t.parameters.map(Packed::unpack))
            .as_ref()
    }
}

/// Where a schema problem is: in the schema's own tree when the format wrote one; on the
/// cycod parameter a derived property comes from; else on the tool's name.
fn place<'a>(placing: &Placing<'_, 'a>, p: &SchemaProblem) -> (&'a Arc<SourceFile>, Span) {
    let t = placing.t;
    if let (Some((file, _)), Some(root)) = (t.schema, placing.root()) {
        return (
            file,
            locate(root, &p.pointer, p.on_key).unwrap_or(root.span()),
        );
    }
    let parameter = p
        .pointer
        .strip_prefix("/properties/")
        .map(|rest| rest.split('/').next().unwrap_or(rest))
        .and_then(|name| {
            placing
                .parameters()?
                .get(&name.replace("~1", "/").replace("~0", "~"))
        });
    match parameter {
        Some(e) => (t.file, e.key_span()),
        None => (t.file, t.name_span),
    }
}

/// The span of the node at `pointer` in `root`, or of its key when `on_key`; `None` when the
/// pointer leaves the tree (the span of the deepest node reached is then the caller's).
fn locate(root: &Node, pointer: &str, on_key: bool) -> Option<Span> {
    let mut node = root;
    let mut key_span = None;
    for raw in pointer.split('/').skip(1) {
        let token = raw.replace("~1", "/").replace("~0", "~");
        match &node.kind {
            NodeKind::Map(entries) => {
                let e = entries.iter().find(|e| e.key == token)?;
                key_span = Some(e.key_span());
                node = &e.value;
            }
            NodeKind::Seq(items) => {
                node = token.parse::<usize>().ok().and_then(|i| items.get(i))?;
                key_span = None;
            }
            _ => return None,
        }
    }
    Some(match key_span {
        Some(k) if on_key => k,
        _ => node.span(),
    })
}

/// CMP002: every tool after the first of its name, pointing back at the first.
fn duplicate_names(tools: &dyn Bundled) -> Vec<Diagnostic> {
    // One bundle is the scope. `tools` is sorted by name then path, so the first of a name
    // is the one kept in place.
    let dups = registry::duplicates_by(tools.len(), |i| Some(((), tools.name(i))));
    if dups.is_empty() {
        return Vec::new();
    }
    // By the second tool of each pair: a tool is the second of at most one.
    let mut second: Vec<Option<usize>> = vec![None; tools.len()];
    for dup in &dups {
        second[dup.again] = Some(dup.first);
    }
    capped_by_file(tools, |again| {
        let Some(first) = second.get(again).copied().flatten() else {
            return Vec::new();
        };
        let ((file, span), (first_file, first_span)) = (tools.site(again), tools.site(first));
        vec![
            Diagnostic::new(
                &cmp::DUPLICATE_BUNDLED_NAME,
                file,
                span,
                format!(
                    "a tool named `{}` is already in the bundle, from {}",
                    tools.name(again),
                    tools.path(first)
                ),
            )
            .label("second tool of this name")
            .related(first_file, first_span, "first tool of this name")
            .note("providers tell tools apart by name alone: OpenAI and Anthropic reject a request with two tools of one name, and an MCP client or agent file cannot say which one it means")
            .help("rename one of them, or build the two into separate bundles (`toolc build PATH`)"),
        ]
    })
}

/// `A`, `A and B`, `A, B and C`.
fn list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let items: Vec<&str> = items.collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}
