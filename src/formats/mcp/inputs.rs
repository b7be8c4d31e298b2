//! What a `server.json` asks the client to fill in: inputs (a value, a default, choices),
//! their `{variables}`, key-value inputs (environment variables and headers) and command-line
//! arguments (positional or named).

use std::borrow::Cow;

use super::keys::{REFUSED, UNREAD_BY_CLIENTS as UNREAD};
use super::secrets::{self, Place, Remedy};
use super::{keys, templates};
use crate::analysis::names::{NameIndex, SUGGESTION_BUDGET, did_you_mean_within};
use crate::analysis::registry;
use crate::formats::fields::{Lowerer, MapRef, Site};
use crate::formats::in_value::InValue;
use crate::rules::mcp as rules;
use crate::source::Span;
use crate::syntax::{Node, Seq, Text};

/// Keys of an input (the schema's `Input`).
const INPUT_KEYS: &[&str] = &[
    "description",
    "isRequired",
    "format",
    "value",
    "isSecret",
    "default",
    "placeholder",
    "choices",
];

/// An input with `variables`, and the name of a header or environment variable.
const KEY_VALUE_KEYS: &[&str] = &[
    "name",
    "description",
    "isRequired",
    "format",
    "value",
    "isSecret",
    "default",
    "placeholder",
    "choices",
    "variables",
];

/// Keys of an argument, positional or named (the registry reads `name` and `valueHint` of
/// either kind).
const ARGUMENT_KEYS: &[&str] = &[
    "type",
    "name",
    "valueHint",
    "isRepeated",
    "description",
    "isRequired",
    "format",
    "value",
    "isSecret",
    "default",
    "placeholder",
    "choices",
    "variables",
];

const FORMATS: &[&str] = &["string", "number", "boolean", "filepath"];

/// What to write instead of a secret in `server.json`.
const SECRET_REMEDY: Remedy<'static> = Remedy {
    note: "server.json is published to the registry and read by anyone: the credential is leaked",
    help: "remove the value and set `\"isSecret\": true`, so each client asks its user for the secret",
};

/// A declared name that `{name}` templates may use, and where it is declared.
pub(super) type Declared = (Text, Span);

/// A mapping item of a list: the item as a map, anchored at its opening brace.
pub(super) fn item<'n>(lw: &mut Lowerer<'_>, node: &'n Node, path: &'n str) -> Option<MapRef<'n>> {
    let brace = Span::new(node.span().start, node.span().start + 1);
    lw.as_map(node, brace, path)
}

/// The items of the list at `map.key`, each built as it is read ([`Seq::scan`]), or a
/// wrong-type diagnostic.
pub(super) fn items<'n>(
    lw: &mut Lowerer<'_>,
    map: MapRef<'n>,
    key: &str,
) -> impl Iterator<Item = Cow<'n, Node>> + use<'n> {
    seq(lw, map, key).into_iter().flat_map(Seq::scan)
}

/// The list at `map.key`, to be read an item at a time ([`Seq::maps`]), or a wrong-type
/// diagnostic: a long list of small items is packed, and built whole into nodes it took 32
/// bytes an item (a `server.json` of 500,000 `{}` packages: 15 times its size).
pub(super) fn seq<'n>(lw: &mut Lowerer<'_>, map: MapRef<'n>, key: &str) -> Option<&'n Seq> {
    let entry = map.node.get(key)?;
    let items = entry.value.as_list();
    if items.is_none() {
        let path = crate::formats::fields::join_path(map.path, key);
        lw.wrong_type(&entry.value, &path, "a list");
    }
    items
}

/// Choices named in the finding of a default that is none of them, at most.
const SHOWN_CHOICES: usize = 50;

/// An input's `choices`, as far as its checks need them.
#[derive(Default)]
struct Choices<'n> {
    /// How many.
    count: usize,
    /// Whether the default is one of them.
    default: bool,
    /// The first [`SHOWN_CHOICES`].
    shown: Vec<&'n str>,
}

/// What an input holds: its `value`, its `default`, and whether it is declared secret.
struct Held<'n> {
    value: Option<(&'n str, Span)>,
    default: Option<(&'n str, Span)>,
    secret: bool,
}

/// Check the input fields of `map`, and its `variables` when it may have them.
fn input<'n>(lw: &mut Lowerer<'_>, map: MapRef<'n>, with_variables: bool) -> Held<'n> {
    lw.optional_str(map, "description", 0, usize::MAX);
    lw.optional_str(map, "placeholder", 0, usize::MAX);
    lw.optional_bool(map, "isRequired");
    let secret = lw.optional_bool(map, "isSecret").unwrap_or(false);
    lw.optional_enum(map, "format", FORMATS);
    let value = lw.optional_str(map, "value", 0, usize::MAX);
    let default = lw.optional_str(map, "default", 0, usize::MAX);
    // Read through, not collected: `choices` may be a list of millions.
    let mut choices = Choices::default();
    if let Some(e) = map.node.get("choices") {
        let path = crate::formats::fields::join_path(map.path, "choices");
        lw.str_items(&e.value, &path, false, |c, _| {
            choices.count += 1;
            choices.default |= default.is_some_and(|(d, _)| d == c);
            if choices.shown.len() < SHOWN_CHOICES {
                choices.shown.push(c);
            }
        });
    }
    if let Some((d, span)) = default
        && choices.count > 0
        && !choices.default
    {
        let mut list = choices
            .shown
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ");
        if choices.count > choices.shown.len() {
            list.push_str(&format!(
                ", and {} more",
                choices.count - choices.shown.len()
            ));
        }
        let diag = lw
            .diag(
                &rules::INVALID_VALUE,
                span,
                format!("default `{d}` is not one of the choices ({list})"),
            )
            .label("not a choice")
            .note("the user must pick one of `choices`, so the default can never be used")
            .help("make the default one of the choices, or add it to them");
        lw.push(diag);
    }
    if with_variables {
        let declared = variables(lw, map);
        for (text, span) in [value, default].into_iter().flatten() {
            undefined_in_value(lw, map, text, span, &declared);
        }
    }
    Held {
        value,
        default,
        secret,
    }
}

/// The names `variables` declares (each an input of its own).
fn variables(lw: &mut Lowerer<'_>, map: MapRef<'_>) -> Vec<Declared> {
    let Some(entry) = map.node.get("variables") else {
        return Vec::new();
    };
    let path = crate::formats::fields::join_path(map.path, "variables");
    let Some(vars) = lw.as_map(&entry.value, entry.key_span(), &path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in vars.node.as_map().unwrap_or_default() {
        out.push((e.key.clone(), e.key_span()));
        let var_path = format!("{path}.{}", e.key);
        if let Some(var) = lw.as_map(&e.value, e.key_span(), &var_path) {
            keys::unknown_keys(lw, var, INPUT_KEYS, UNREAD);
            input(lw, var, false);
        }
    }
    out
}

/// Check every variable of a remote transport, and return their names.
pub(super) fn remote_variables(lw: &mut Lowerer<'_>, map: MapRef<'_>) -> Vec<Declared> {
    variables(lw, map)
}

/// MCP012: `{name}` in a value or default that `variables` does not declare: clients leave
/// it in the text as written.
fn undefined_in_value(
    lw: &mut Lowerer<'_>,
    map: MapRef<'_>,
    text: &str,
    span: Span,
    declared: &[Declared],
) {
    let Some(node) = [map.node.value("value"), map.node.value("default")]
        .into_iter()
        .flatten()
        .find(|n| n.span() == span)
    else {
        return;
    };
    let mut spans = InValue::new(lw.file, node);
    // Looked up, and "did you mean" within a budget: a value of many names and many
    // `variables` stays linear.
    let names = NameIndex::new(declared.iter().map(|(n, _)| n.as_str()).collect());
    let mut budget = SUGGESTION_BUDGET;
    for r in templates::brace_variables(text) {
        let identifier = r
            .body
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && r.body
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !identifier || names.first(r.body).is_some() {
            continue;
        }
        if lw.diags.counted(&rules::UNDEFINED_VARIABLE) {
            continue;
        }
        let at = spans.span(r.start, r.text(text));
        let hint = did_you_mean_within(
            &mut budget,
            r.body,
            declared.len(),
            names.names().iter().copied(),
        );
        let d = lw
            .diag(
                &rules::UNDEFINED_VARIABLE,
                at,
                format!("`{{{}}}` names no entry of `variables`", r.body),
            )
            .label("undefined variable")
            .note("clients replace only the names `variables` declares: this one reaches the server as the literal text")
            .did_you_mean_or(
                hint.and_then(|h| {
                    let fixed = format!("{{{h}}}");
                    let fix = crate::formats::fields::replace_text(
                        lw.file,
                        at,
                        r.text(text),
                        &fixed,
                        crate::diagnostics::Applicability::Safe,
                    );
                    crate::diagnostics::DidYouMean::fixed_by(fixed, fix)
                }),
                format!("declare it: `\"variables\": {{\"{}\": {{\"description\": \"...\"}}}}`", r.body),
            );
        lw.push(d);
    }
}

/// An environment variable or header: its name (and its span) when it has one.
pub(super) fn key_value(
    lw: &mut Lowerer<'_>,
    node: &Node,
    path: &str,
    what: &str,
    owner: &str,
) -> Option<Declared> {
    let map = item(lw, node, path)?;
    keys::unknown_keys(lw, map, KEY_VALUE_KEYS, UNREAD);
    let name = lw
        .required(map, "name")
        .and_then(|e| lw.str_value(&e.value, &format!("{path}.name"), 0, usize::MAX));
    let Held {
        value,
        default,
        secret,
    } = input(lw, map, true);
    let name_text = name.map_or("", |(n, _)| n);
    for (text, span) in [value, default].into_iter().flatten() {
        if let Some(node) = [map.node.value("value"), map.node.value("default")]
            .into_iter()
            .flatten()
            .find(|n| n.span() == span)
        {
            let place = Place {
                what,
                name: name_text,
                owner,
            };
            secrets::literal_secret(lw, node, (text, 0), &place, secret, &SECRET_REMEDY);
        }
    }
    name.map(|(n, s)| (Text::from(n), s))
}

/// What an argument declares for `{name}` templates: its `name` and its `valueHint`.
pub(super) fn argument(
    lw: &mut Lowerer<'_>,
    node: &Node,
    path: &str,
    owner: &str,
) -> Vec<Declared> {
    let Some(map) = item(lw, node, path) else {
        return Vec::new();
    };
    keys::unknown_keys(lw, map, ARGUMENT_KEYS, UNREAD);
    let kind = lw
        .required(map, "type")
        .and_then(|e| lw.enum_value(&e.value, &format!("{path}.type"), &["positional", "named"]));
    lw.optional_bool(map, "isRepeated");
    let name = lw.optional_str(map, "name", 0, usize::MAX);
    let hint = lw.optional_str(map, "valueHint", 0, usize::MAX);
    match kind {
        Some("positional")
            if map.node.get("valueHint").is_none() && map.node.get("value").is_none() =>
        {
            let d = lw
                .diag(
                    &rules::MISSING_REQUIRED_FIELD,
                    map.anchor,
                    format!("positional argument `{path}` has neither `valueHint` nor `value`"),
                )
                .label("needs `valueHint` or `value`")
                .note(REFUSED)
                .help("add `\"valueHint\": \"...\"` naming what the user supplies, or a fixed `\"value\"`");
            lw.push(d);
        }
        Some("named") if name.is_none() => {
            lw.required_at(map, "name", Site::default().note(REFUSED));
        }
        _ => {}
    }
    let Held {
        value,
        default,
        secret,
    } = input(lw, map, true);
    if kind == Some("named")
        && let Some((flag, flag_span)) = name
    {
        named(lw, flag, flag_span, [value, default]);
    }
    if let Some((flag, _)) = name {
        for (text, span) in [value, default].into_iter().flatten() {
            if let Some(node) = [map.node.value("value"), map.node.value("default")]
                .into_iter()
                .flatten()
                .find(|n| n.span() == span)
            {
                let place = Place {
                    what: "argument",
                    name: flag.trim_start_matches('-'),
                    owner,
                };
                secrets::literal_secret(lw, node, (text, 0), &place, secret, &SECRET_REMEDY);
            }
        }
    }
    [name, hint]
        .into_iter()
        .flatten()
        .map(|(n, s)| (Text::from(n), s))
        .collect()
}

/// MCP013: a named argument's flag must be only the flag, and its value must not repeat it.
fn named(lw: &mut Lowerer<'_>, flag: &str, span: Span, values: [Option<(&str, Span)>; 2]) {
    if flag.is_empty() {
        let d = lw
            .diag(
                &rules::MISSING_REQUIRED_FIELD,
                span,
                "a named argument's `name` is empty",
            )
            .label("empty flag")
            .note(REFUSED)
            .help("write the flag, with its dashes, such as `--port`");
        lw.push(d);
        return;
    }
    if let Some(c) = flag.chars().find(|c| matches!(c, '<' | '>' | ' ' | '$')) {
        let shown = if c == ' ' {
            "a space".to_string()
        } else {
            format!("`{c}`")
        };
        let d = lw
            .diag(
                &rules::INVALID_NAMED_ARGUMENT,
                span,
                format!("named argument `{flag}` holds {shown}: `name` is the flag alone"),
            )
            .label("not just a flag")
            .note(REFUSED)
            .help("keep only the flag in `name` (`--port`) and put the value in `value` or `valueHint`");
        lw.push(d);
    }
    for (value, vspan) in values.into_iter().flatten() {
        if value.starts_with(flag) {
            let d = lw
                .diag(
                    &rules::INVALID_NAMED_ARGUMENT,
                    vspan,
                    format!("the value `{value}` starts with the flag `{flag}`, which clients add themselves"),
                )
                .label("repeats the flag")
                .note(REFUSED)
                .help(format!("write only what follows `{flag}`"));
            lw.push(d);
        }
    }
}

/// MCP022: names given twice in one list (`fold`: compared ignoring case, as HTTP does).
pub(super) fn duplicates(lw: &mut Lowerer<'_>, names: &[Declared], what: &str, fold: bool) {
    // Keys borrowed: a list of 400,000 variables is not copied to be looked through.
    let name = |i: usize| names.get(i).map(|(n, _)| n.as_str());
    let found = if fold {
        registry::duplicates_by(names.len(), |i| name(i).map(registry::CaseFolded))
    } else {
        registry::duplicates_by(names.len(), name)
    };
    for dup in found {
        let (name, span) = &names[dup.again];
        let (_, first) = &names[dup.first];
        let d = lw
            .diag(
                &rules::DUPLICATE_NAME,
                *span,
                format!("{what} `{name}` is declared twice"),
            )
            .label("declared again")
            .related(lw.file, *first, "first declared here")
            .note("clients set it once: which of the two declarations wins is up to each client")
            .help("keep one declaration");
        lw.push(d);
    }
}
