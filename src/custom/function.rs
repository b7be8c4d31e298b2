//! The functions a `then` applies: what each requires of a value, compiled from its
//! `options` once, and the sentence that says why a value fails.

use std::borrow::Cow;
use std::ops::Range;

use super::rule_regex::{RegexError, RuleRegex};
use serde_json::Value;
use toml::Spanned;

use super::error::RuleError;
use super::val::{Peek, Val};
use crate::analysis::names::listed;

/// The functions, as `then.function` names them.
pub(crate) const NAMES: &[&str] = &[
    "truthy",
    "falsy",
    "defined",
    "undefined",
    "pattern",
    "notPattern",
    "enumeration",
    "length",
    "casing",
    "schema",
];

/// A naming convention `casing` checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Casing {
    /// `list-files`
    Kebab,
    /// `list_files`
    Snake,
    /// `listFiles`
    Camel,
    /// `ListFiles`
    Pascal,
    /// `LIST_FILES`
    Macro,
}

impl Casing {
    const ALL: &[(&str, Casing)] = &[
        ("kebab", Casing::Kebab),
        ("snake", Casing::Snake),
        ("camel", Casing::Camel),
        ("pascal", Casing::Pascal),
        ("macro", Casing::Macro),
    ];

    fn name(self) -> &'static str {
        Casing::ALL
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("", |(n, _)| n)
    }

    /// True when `s` is written in this casing (digits may follow any letter).
    pub fn holds(self, s: &str) -> bool {
        // The first word starts with a letter; a later one may be a number (`tool-2`).
        let lower_words = |sep: char| {
            s.starts_with(|c: char| c.is_ascii_lowercase())
                && s.split(sep).all(|w| {
                    !w.is_empty()
                        && w.chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                })
        };
        let alnum_from = |first: fn(&char) -> bool| {
            s.chars().next().as_ref().is_some_and(first)
                && s.chars().all(|c| c.is_ascii_alphanumeric())
        };
        match self {
            Casing::Kebab => lower_words('-'),
            Casing::Snake => lower_words('_'),
            Casing::Camel => alnum_from(char::is_ascii_lowercase),
            Casing::Pascal => alnum_from(char::is_ascii_uppercase),
            Casing::Macro => {
                s.starts_with(|c: char| c.is_ascii_uppercase())
                    && s.split('_').all(|w| {
                        !w.is_empty()
                            && w.chars()
                                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
                    })
            }
        }
    }
}

/// A compiled function.
#[derive(Debug)]
pub enum Function {
    /// Present and not `false`, `0`, `""` or `null`.
    Truthy,
    /// Missing, or `false`, `0`, `""` or `null`.
    Falsy,
    /// Present (`null` counts).
    Defined,
    /// Missing.
    Undefined,
    /// A string (or number) the expression finds a match in.
    Pattern(RuleRegex),
    /// A string (or number) the expression finds no match in.
    NotPattern(RuleRegex),
    /// One of these values.
    Enumeration(Vec<Value>),
    /// Characters of a string, items of a list, entries of a map, or a number, in bounds.
    Length {
        /// At least this.
        min: Option<f64>,
        /// At most this.
        max: Option<f64>,
    },
    /// A string in this casing.
    Casing(Casing),
    /// Valid against this JSON Schema.
    Schema(Box<Schema>),
}

/// A compiled JSON Schema, and whether it reads only its instance's own level.
#[derive(Debug)]
pub struct Schema {
    validator: jsonschema::Validator,
    /// Its keywords read only the instance's type, keys and size: the members and items of
    /// a tree need not be made JSON to validate it.
    shallow: bool,
}

/// Keywords that read no member or item of the instance (the rest, annotations).
const SHALLOW_KEYWORDS: &[&str] = &[
    "type",
    "required",
    "minProperties",
    "maxProperties",
    "minItems",
    "maxItems",
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// True when `schema` is a boolean or a map of [`SHALLOW_KEYWORDS`] only.
fn is_shallow(schema: &Value) -> bool {
    match schema {
        Value::Bool(_) => true,
        Value::Object(map) => map.keys().all(|k| SHALLOW_KEYWORDS.contains(&k.as_str())),
        _ => false,
    }
}

fn error(span: Range<usize>, message: impl Into<String>) -> RuleError {
    RuleError {
        span,
        message: message.into(),
    }
}

/// Compile `function` with its `options` (their span and JSON value); `then` is the span of
/// the whole `then`, for a missing option.
pub(crate) fn compile_function(
    function: &Spanned<String>,
    options: Option<(Range<usize>, Option<Value>)>,
    then: Range<usize>,
) -> Result<Function, RuleError> {
    let name = function.get_ref().as_str();
    let (options_span, options) = match options {
        Some((span, value)) => (span, value.unwrap_or(Value::Null)),
        None => (then, Value::Null),
    };
    let option = |key: &str| options.get(key);
    let required = |key: &str| {
        option(key).ok_or_else(|| {
            error(
                options_span.clone(),
                format!("function `{name}` needs `options.{key}`"),
            )
        })
    };
    let regex = |key: &str| -> Result<RuleRegex, RuleError> {
        let text = required(key)?.as_str().ok_or_else(|| {
            error(
                options_span.clone(),
                format!("`options.{key}` of `{name}` is a regular expression, written as a string"),
            )
        })?;
        RuleRegex::new(text).map_err(|e| {
            let why = match e {
                // The crate's message draws the expression over several lines: its last
                // line says what is wrong.
                RegexError::Invalid(message) => format!(
                    "`options.{key}` does not compile as a regular expression: {}",
                    message
                        .lines()
                        .last()
                        .unwrap_or_default()
                        .trim_start_matches("error: ")
                ),
                RegexError::Spent => format!(
                    "`options.{key}` is one regular expression too many: the custom rules' expressions may take 64 MiB in all, compiled (most take 128 KiB, larger ones 512 KiB or 2 MiB)"
                ),
            };
            error(options_span.clone(), why)
        })
    };
    Ok(match name {
        "truthy" => Function::Truthy,
        "falsy" => Function::Falsy,
        "defined" => Function::Defined,
        "undefined" => Function::Undefined,
        "pattern" => Function::Pattern(regex("pattern")?),
        "notPattern" => Function::NotPattern(regex("pattern")?),
        "enumeration" => match required("values")? {
            Value::Array(values) => Function::Enumeration(values.clone()),
            _ => {
                return Err(error(
                    options_span,
                    "`options.values` of `enumeration` is a list of the values allowed",
                ));
            }
        },
        "length" => {
            let bound = |key: &str| -> Result<Option<f64>, RuleError> {
                match option(key) {
                    None => Ok(None),
                    Some(v) => v.as_f64().map(Some).ok_or_else(|| {
                        error(
                            options_span.clone(),
                            format!("`options.{key}` of `length` is a number"),
                        )
                    }),
                }
            };
            let (min, max) = (bound("min")?, bound("max")?);
            if min.is_none() && max.is_none() {
                return Err(error(
                    options_span,
                    "function `length` needs `options.min`, `options.max` or both",
                ));
            }
            Function::Length { min, max }
        }
        "casing" => {
            let kind = required("type")?;
            let found = kind
                .as_str()
                .and_then(|k| Casing::ALL.iter().find(|(n, _)| *n == k));
            match found {
                Some((_, c)) => Function::Casing(*c),
                None => {
                    return Err(error(
                        options_span,
                        format!(
                            "`options.type` of `casing` is one of {}; not {kind}",
                            Casing::ALL
                                .iter()
                                .map(|(n, _)| format!("\"{n}\""))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
            }
        }
        "schema" => {
            let schema = required("schema")?;
            // No retriever is set up: a `$ref` outside the schema fails here, never reaches
            // the network.
            match jsonschema::validator_for(schema) {
                Ok(validator) => Function::Schema(Box::new(Schema {
                    validator,
                    shallow: is_shallow(schema),
                })),
                Err(e) => {
                    return Err(error(
                        options_span,
                        format!("`options.schema` is not a usable JSON Schema: {e}"),
                    ));
                }
            }
        }
        other => {
            return Err(error(
                function.span(),
                format!(
                    "`{other}` is not a function; known functions: {}",
                    NAMES.join(", ")
                ),
            ));
        }
    })
}

/// True for the values JavaScript calls truthy (an empty list or map is).
fn truthy(v: Val<'_>) -> bool {
    match v.peek() {
        Peek::Str(s) => !s.is_empty(),
        Peek::List(_) | Peek::Map(_) => true,
        Peek::Scalar(Value::Bool(b)) => b,
        Peek::Scalar(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Peek::Scalar(_) => false,
    }
}

/// The text of a scalar `pattern` looks into.
fn scalar_text(v: Val<'_>) -> Option<Cow<'_, str>> {
    match v.peek() {
        Peek::Str(s) => Some(Cow::Borrowed(s)),
        Peek::Scalar(Value::Number(n)) => Some(Cow::Owned(n.to_string())),
        Peek::Scalar(Value::Bool(b)) => Some(Cow::Borrowed(if b { "true" } else { "false" })),
        _ => None,
    }
}

/// A value shown in a reason, kept short.
fn shown(v: &Value) -> String {
    shorten(v.to_string())
}

/// `text` cut at 60 characters.
fn shorten(text: String) -> String {
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// A value of the document shown in a reason, as [`shown`] shows its JSON, without making
/// the JSON of the rest of it: 61 characters take at most 244 bytes.
fn shown_val(v: Val<'_>) -> String {
    shorten(super::preview::json_start(v, 61 * 4).0)
}

/// True when `values` holds `v`: a string or scalar compared as it is, a list or map as
/// JSON.
fn one_of(values: &[Value], v: Val<'_>) -> bool {
    match v.peek() {
        Peek::Str(s) => values.iter().any(|x| x.as_str() == Some(s)),
        Peek::Scalar(scalar) => values.contains(&scalar),
        Peek::List(_) | Peek::Map(_) => values.contains(&v.to_json()),
    }
}

impl Function {
    /// Why `value` (`None`: missing) fails this function; `None` when it holds. `what`
    /// names the value in the reason (`` `description` ``, "the value").
    pub(crate) fn fails(
        &self,
        value: Option<Val<'_>>,
        what: &dyn std::fmt::Display,
    ) -> Option<String> {
        self.judge(value, Some(what))
    }

    /// True when `value` holds: what [`Function::fails`] says, without making the reason
    /// (past a file's first findings of a rule, a failure is only counted).
    pub(crate) fn holds(&self, value: Option<Val<'_>>) -> bool {
        self.judge(value, None).is_none()
    }

    /// What a check costs beyond what it reads of the value, in nodes: an `enumeration` of
    /// the configuration's values is compared with each, and a `toolc.toml` may list a
    /// million (a few, as a policy lists, cost nothing).
    pub(crate) fn weight(&self) -> u64 {
        match self {
            Function::Enumeration(values) => u64::try_from(values.len() / 8).unwrap_or(u64::MAX),
            _ => 0,
        }
    }

    /// What reading `value` costs beyond the node itself, in nodes: the whole of it for the
    /// functions that compare or validate it whole, its own entries for a schema that reads
    /// only its level, nothing for the others (a string, a size, a presence).
    pub(crate) fn reads(&self, value: Val<'_>) -> Reads {
        let whole = match self {
            Function::Enumeration(_) => true,
            Function::Schema(schema) => !schema.shallow,
            _ => return Reads::Node,
        };
        match value.peek() {
            Peek::List(_) | Peek::Map(_) if whole => Reads::Whole,
            Peek::List(n) | Peek::Map(n) => Reads::Level(n),
            _ => Reads::Node,
        }
    }

    /// Why `value` fails, said only with `what` (without it a failure is an empty reason,
    /// made of nothing).
    fn judge(
        &self,
        value: Option<Val<'_>>,
        what: Option<&dyn std::fmt::Display>,
    ) -> Option<String> {
        let say = |reason: &dyn Fn(&dyn std::fmt::Display) -> String| {
            Some(what.map_or_else(String::new, reason))
        };
        match (self, value) {
            (Function::Truthy, None) => say(&|w| format!("{w} is missing")),
            (Function::Truthy, Some(v)) if !truthy(v) => {
                say(&|w| format!("{w} is {}", shown_val(v)))
            }
            (Function::Falsy, Some(v)) if truthy(v) => {
                say(&|w| format!("{w} is set ({})", shown_val(v)))
            }
            (Function::Defined, None) => say(&|w| format!("{w} is missing")),
            (Function::Undefined, Some(_)) => say(&|w| format!("{w} is present")),
            (Function::Truthy | Function::Falsy | Function::Defined | Function::Undefined, _) => {
                None
            }
            // The other functions look at a value that is there (`defined` asks for one).
            (_, None) => None,
            (Function::Pattern(re), Some(v)) => {
                let text = scalar_text(v)?;
                if re.is_match(&text) {
                    return None;
                }
                say(&|w| format!("{w} does not match `{}`", re.as_str()))
            }
            (Function::NotPattern(re), Some(v)) => {
                let text = scalar_text(v)?;
                // Most values do not match: `is_match` stops at the first sign of a match
                // and never looks for where it starts, which `find` does.
                if !re.is_match(&text) {
                    return None;
                }
                if what.is_none() {
                    return Some(String::new());
                }
                let found = re.find(&text)?;
                say(&|w| format!("{w} matches `{}` (`{}`)", re.as_str(), found.as_str()))
            }
            (Function::Enumeration(values), Some(v)) => {
                if one_of(values, v) {
                    return None;
                }
                // The first few allowed values and how many more: a rule may list thousands,
                // and each finding of it copied them all.
                say(&|w| {
                    let allowed = listed(values.iter().map(shown), values.len());
                    format!("{w} is {}, not one of {allowed}", shown_val(v))
                })
            }
            (Function::Length { min, max }, Some(v)) => {
                let (length, unit) = match v.peek() {
                    Peek::Str(s) => (s.chars().count() as f64, "characters"),
                    Peek::List(n) => (n as f64, "items"),
                    Peek::Map(n) => (n as f64, "entries"),
                    Peek::Scalar(Value::Number(n)) => (n.as_f64()?, ""),
                    Peek::Scalar(_) => return None,
                };
                let has = |w: &dyn std::fmt::Display| {
                    let space = if unit.is_empty() { "" } else { " " };
                    format!("{w} has {length}{space}{unit}")
                };
                if let Some(min) = min.filter(|m| length < *m) {
                    return say(&|w| format!("{}; at least {min} required", has(w)));
                }
                let max = max.filter(|m| length > *m)?;
                say(&|w| format!("{}; at most {max} allowed", has(w)))
            }
            (Function::Casing(casing), Some(v)) => {
                let s = v.as_str()?;
                if casing.holds(s) {
                    return None;
                }
                say(&|w| format!("{w} `{s}` is not {} case", casing.name()))
            }
            (Function::Schema(schema), Some(v)) => {
                // Most values hold: `is_valid` builds no error on the way, and a schema that
                // reads only the value's own level is given only that level.
                let read = if schema.shallow {
                    v.shallow_json()
                } else {
                    v.to_json()
                };
                if schema.validator.is_valid(&read) {
                    return None;
                }
                if what.is_none() {
                    return Some(String::new());
                }
                let whole = v.to_json();
                let first = schema.validator.iter_errors(&whole).next()?;
                let at = first.instance_path().to_string();
                let at = if at.is_empty() {
                    String::new()
                } else {
                    format!(" at `{at}`")
                };
                say(&|w| format!("{w} does not match the schema{at}: {first}"))
            }
        }
    }
}

/// What a function reads of a value beyond the node itself ([`Function::reads`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reads {
    /// Nothing more.
    Node,
    /// Its own entries or items, this many.
    Level(usize),
    /// All of it.
    Whole,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casings() {
        let cases = [
            (Casing::Kebab, "list-files2", true),
            (Casing::Kebab, "List-files", false),
            (Casing::Kebab, "list--files", false),
            (Casing::Kebab, "tool-00001", true),
            (Casing::Kebab, "1-tool", false),
            (Casing::Snake, "step_2", true),
            (Casing::Snake, "list_files", true),
            (Casing::Snake, "list-files", false),
            (Casing::Camel, "listFiles", true),
            (Casing::Camel, "ListFiles", false),
            (Casing::Pascal, "ListFiles", true),
            (Casing::Pascal, "list_files", false),
            (Casing::Macro, "LIST_FILES", true),
            (Casing::Macro, "LIST_files", false),
            (Casing::Macro, "", false),
        ];
        for (casing, text, holds) in cases {
            assert_eq!(casing.holds(text), holds, "{casing:?} {text}");
        }
    }
}
