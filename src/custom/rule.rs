//! A `[[custom-rules]]` table as written, and compiled: every check that can fail on the
//! rule itself (its code, name, JSONPath, function, regular expression, schema) fails here,
//! with a span in `toolc.toml`, before any file is read.

use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use toml::Spanned;

use super::error::{RuleError, error};
use super::function::compile_function;
use super::given::Given;
use super::page;
use super::parts::{Part, SubjectKind, Then, field_path};
use super::reach::Reach;
use crate::rules::{self, Rule, Severity};
use crate::source::{FormatId, SourceFile, Span};

/// One `[[custom-rules]]` table, with the span of every value.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRule {
    code: Spanned<String>,
    name: Spanned<String>,
    severity: Spanned<String>,
    message: Spanned<String>,
    subject: Option<Spanned<String>>,
    formats: Option<Vec<Spanned<String>>>,
    given: Option<Spanned<String>>,
    then: Spanned<Thens>,
    description: Option<Spanned<String>>,
}

/// `then`: one table or a list of them.
pub(crate) struct Thens(Vec<Spanned<RawThen>>);

/// One `then`: what to look at in each node `given` selects, and what must hold of it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawThen {
    field: Option<Spanned<String>>,
    function: Spanned<String>,
    options: Option<Spanned<toml::Value>>,
}

impl<'de> Deserialize<'de> for Thens {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Thens, D::Error> {
        struct OneOrMany;
        impl<'de> Visitor<'de> for OneOrMany {
            type Value = Thens;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table (`{ field = …, function = … }`) or a list of them")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Thens, A::Error> {
                // A single table has the span of `then` itself (given by the caller).
                let one = RawThen::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(Thens(vec![Spanned::new(0..0, one)]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Thens, A::Error> {
                let mut all = Vec::new();
                while let Some(one) = seq.next_element::<Spanned<RawThen>>()? {
                    all.push(one);
                }
                Ok(Thens(all))
            }
        }
        deserializer.deserialize_any(OneOrMany)
    }
}

/// A compiled custom rule.
#[derive(Debug)]
pub struct CustomRule {
    /// The rule its findings carry (registered: selectors and suppressions know it).
    pub rule: &'static Rule,
    /// What it reads.
    pub subject: SubjectKind,
    /// The format ids it applies to (empty: every format).
    pub formats: Vec<&'static str>,
    /// `given`, compiled.
    pub given: Given,
    /// `then`, every one of which must hold.
    pub thens: Vec<Then>,
    /// The message, split at its placeholders.
    pub message: Vec<Part>,
    /// What decides its findings, hashed (for the cache).
    pub fingerprint: u64,
    /// What of a subject it can read.
    pub reach: Reach,
    /// Where `given` is written in `toolc.toml` (for the warning when it selects nothing).
    pub given_at: GivenAt,
}

/// `given` as written, and where in the configuration file.
#[derive(Debug, Clone)]
pub struct GivenAt {
    /// The JSONPath as written (`$` when not written).
    pub text: String,
    /// The file declaring the rule.
    pub file: Arc<SourceFile>,
    /// Its bytes in the file (the rule's `code` when `given` is not written).
    pub span: Span,
}

impl CustomRule {
    /// True when the rule reads files (or tools) of `format`.
    pub fn applies_to(&self, format: &str) -> bool {
        self.formats.is_empty() || self.formats.contains(&format)
    }
}

/// The compiled custom rules of a configuration (shared by its clones).
#[derive(Debug, Clone)]
pub struct CustomRules {
    rules: Arc<[Arc<CustomRule>]>,
    /// The plan of each format a file of which was checked (at `FormatId as usize`): worked
    /// out once, not per file, and read by every file without a lock.
    plans: Arc<[OnceLock<Arc<Plan>>]>,
}

/// Slots for the plans of formats: more than there are formats (a format past them has its
/// plan worked out each time it is asked for).
const PLAN_SLOTS: usize = 16;

/// The rules that read one format, by subject, with what each group reads together.
#[derive(Debug)]
pub struct Plan {
    /// The fingerprint of these rules: 0 when there are none, and another number whenever
    /// one of them changes, is added or goes.
    pub fingerprint: u64,
    /// The rules on a file's own tree.
    pub on_file: Vec<Arc<CustomRule>>,
    /// What they read.
    pub file_reach: Reach,
    /// The rules on each tool.
    pub on_tools: Vec<Arc<CustomRule>>,
    /// What they read.
    pub tool_reach: Reach,
}

impl Default for CustomRules {
    /// No rules, with the slots of their (empty) plans: a configuration without custom rules
    /// still has its plans asked for by every file.
    fn default() -> CustomRules {
        CustomRules::new(Vec::new())
    }
}

impl CustomRules {
    fn new(rules: Vec<Arc<CustomRule>>) -> CustomRules {
        CustomRules {
            rules: rules.into(),
            plans: (0..PLAN_SLOTS).map(|_| OnceLock::new()).collect(),
        }
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rules that read files (or tools) of `format`, by subject.
    pub fn plan(&self, format: FormatId) -> Arc<Plan> {
        match self.plans.get(format as usize) {
            Some(slot) => Arc::clone(slot.get_or_init(|| Arc::new(self.make_plan(format)))),
            None => Arc::new(self.make_plan(format)),
        }
    }

    fn make_plan(&self, format: FormatId) -> Plan {
        let name = format.as_str();
        let group = |kind: SubjectKind| -> (Vec<Arc<CustomRule>>, Reach) {
            let rules: Vec<Arc<CustomRule>> = self
                .rules
                .iter()
                .filter(|r| r.subject == kind && r.applies_to(name))
                .cloned()
                .collect();
            let mut reach = Reach::default();
            rules.iter().for_each(|r| reach.add(&r.reach));
            (rules, reach)
        };
        let (on_file, file_reach) = group(SubjectKind::File);
        let (on_tools, tool_reach) = group(SubjectKind::Tool);
        let fingerprint = self
            .rules
            .iter()
            .filter(|r| r.applies_to(name))
            .fold(0u64, |acc, r| {
                acc.rotate_left(7) ^ r.fingerprint.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            });
        Plan {
            fingerprint,
            on_file,
            file_reach,
            on_tools,
            tool_reach,
        }
    }

    /// The rules.
    pub fn iter(&self) -> impl Iterator<Item = &CustomRule> {
        self.rules.iter().map(|r| &**r)
    }

    /// `self` with `child`'s rules on top: a rule of the same code in the child replaces the
    /// inherited one.
    pub fn extended_by(self, child: CustomRules) -> CustomRules {
        let mut all: Vec<Arc<CustomRule>> = self
            .rules
            .iter()
            .filter(|r| !child.rules.iter().any(|c| c.rule.code == r.rule.code))
            .cloned()
            .collect();
        all.extend(child.rules.iter().cloned());
        CustomRules::new(all)
    }
}

/// The letters before a code's digits must not begin with a built-in family (`SEC`, `DOJ`,
/// …) nor `ALL`: `--select SEC` would select the rule too.
fn check_code(code: &Spanned<String>) -> Result<(), RuleError> {
    let text = code.get_ref();
    let letters = text.bytes().take_while(u8::is_ascii_uppercase).count();
    let digits = &text[letters..];
    if !(3..=5).contains(&letters)
        || digits.len() != 3
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(error(
            code.span(),
            format!(
                "`{text}` is not a custom rule code: 3 to 5 capital letters then 3 digits, e.g. `ORG001`"
            ),
        ));
    }
    let family = &text[..letters];
    let builtin: HashSet<&str> = rules::builtin().iter().map(|r| &r.code[..3]).collect();
    if let Some(taken) = builtin
        .iter()
        .chain(&["ALL"])
        .find(|f| family.starts_with(**f))
    {
        return Err(error(
            code.span(),
            format!(
                "`{text}` collides with toolc's own `{taken}` rules: choose a family of your own, e.g. `ORG`"
            ),
        ));
    }
    Ok(())
}

fn check_name(name: &Spanned<String>) -> Result<(), RuleError> {
    let text = name.get_ref();
    let kebab = !text.is_empty()
        && text.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
    if !kebab {
        return Err(error(
            name.span(),
            format!("`{text}` is not a kebab-case rule name (e.g. `description-too-short`)"),
        ));
    }
    if let Some(r) = rules::builtin()
        .into_iter()
        .find(|r| r.name == text || rules::kind(r.name) == text)
    {
        return Err(error(
            name.span(),
            format!("`{text}` is the name of toolc's own rule {}", r.code),
        ));
    }
    Ok(())
}

/// Split a message at its `{field}` placeholders (`{{` and `}}` are braces).
fn message_parts(message: &Spanned<String>) -> Result<Vec<Part>, RuleError> {
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut chars = message.get_ref().chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let mut field = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    field.push(c);
                }
                let path = field_path(field.trim()).filter(|_| closed).ok_or_else(|| {
                    error(
                        message.span(),
                        format!(
                            "`{{{field}` in the message is not a placeholder: write `{{field}}` (`{{{{` for a brace)"
                        ),
                    )
                })?;
                if !text.is_empty() {
                    parts.push(Part::Text(std::mem::take(&mut text)));
                }
                parts.push(Part::Field(path));
            }
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        parts.push(Part::Text(text));
    }
    Ok(parts)
}

/// Compile the `[[custom-rules]]` of the configuration file `declared_in`, registering
/// each rule.
pub(crate) fn compile(
    raw: &[RawRule],
    declared_in: &Arc<SourceFile>,
) -> Result<CustomRules, Vec<RuleError>> {
    let mut errors = Vec::new();
    let mut compiled: Vec<Arc<CustomRule>> = Vec::new();
    for r in raw {
        match compile_one(r, declared_in, &compiled) {
            Ok(rule) => compiled.push(Arc::new(rule)),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(CustomRules::new(compiled))
    } else {
        Err(errors)
    }
}

fn compile_one(
    r: &RawRule,
    declared_in: &Arc<SourceFile>,
    before: &[Arc<CustomRule>],
) -> Result<CustomRule, RuleError> {
    check_code(&r.code)?;
    check_name(&r.name)?;
    if let Some(other) = before.iter().find(|b| b.rule.code == r.code.get_ref()) {
        return Err(error(
            r.code.span(),
            format!("custom rule `{}` is declared twice", other.rule.code),
        ));
    }
    if let Some(other) = before.iter().find(|b| b.rule.name == r.name.get_ref()) {
        return Err(error(
            r.name.span(),
            format!(
                "custom rule {} is already named `{}`",
                other.rule.code, other.rule.name
            ),
        ));
    }
    let severity = Severity::parse(r.severity.get_ref()).ok_or_else(|| {
        error(
            r.severity.span(),
            format!(
                "`{}` is not a severity: use \"error\", \"warning\" or \"info\"",
                r.severity.get_ref()
            ),
        )
    })?;
    let subject = match r.subject.as_ref().map(|s| s.get_ref().as_str()) {
        None | Some("tool") => SubjectKind::Tool,
        Some("file") => SubjectKind::File,
        Some(other) => {
            let span = r.subject.as_ref().map_or(0..0, Spanned::span);
            return Err(error(
                span,
                format!("`{other}` is not a subject: use \"tool\" or \"file\""),
            ));
        }
    };
    let mut formats = Vec::new();
    for f in r.formats.iter().flatten() {
        match FormatId::from_config_name(f.get_ref()) {
            Some(id) => formats.push(id.as_str()),
            None => {
                return Err(error(
                    f.span(),
                    format!(
                        "`{}` is not a format; known formats: {}",
                        f.get_ref(),
                        FormatId::CONFIGURABLE.join(", ")
                    ),
                ));
            }
        }
    }
    let given_text = r.given.as_ref().map_or("$", |g| g.get_ref().as_str());
    let given = Given::parse(given_text).map_err(|e| {
        let span = r.given.as_ref().map_or(0..0, Spanned::span);
        error(
            span,
            format!("`{given_text}` is not a JSONPath (RFC 9535): {e}"),
        )
    })?;
    let mut thens = Vec::new();
    for then in &r.then.get_ref().0 {
        // A single table's own span is unknown: it is the span of `then`.
        let span = if then.span() == (0..0) {
            r.then.span()
        } else {
            then.span()
        };
        let t = then.get_ref();
        let field = match &t.field {
            None => None,
            Some(f) => Some(field_path(f.get_ref()).ok_or_else(|| {
                error(
                    f.span(),
                    format!(
                        "`{}` is not a field: keys joined by dots, e.g. `risk.level`",
                        f.get_ref()
                    ),
                )
            })?),
        };
        let options = t
            .options
            .as_ref()
            .map(|o| (o.span(), serde_json::to_value(o.get_ref()).ok()));
        let function = compile_function(&t.function, options, span)?;
        thens.push(Then {
            field,
            field_text: t.field.as_ref().map(|f| f.get_ref().clone()),
            function,
        });
    }
    if thens.is_empty() {
        return Err(error(
            r.then.span(),
            "`then` is an empty list: nothing to check",
        ));
    }
    let message = message_parts(&r.message)?;
    let fingerprint = fingerprint(r, subject, given_text);
    let format_names: Vec<String> = formats.iter().map(|f| f.to_string()).collect();
    let description = r.description.as_ref().map(|d| d.get_ref().as_str());
    let summary = description
        .and_then(|d| d.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or(r.message.get_ref())
        .trim()
        .to_string();
    let page_text = page::render(&page::PageFacts {
        code: r.code.get_ref(),
        name: r.name.get_ref(),
        severity,
        subject,
        formats: &format_names,
        given: given_text,
        thens: &thens,
        message: r.message.get_ref(),
        description,
        declared_in: declared_in.display(),
    });
    let rule = rules::custom::register(&rules::custom::Declared {
        code: r.code.get_ref(),
        name: r.name.get_ref(),
        severity,
        formats: &format_names,
        summary: &summary,
        page: &page_text,
    });
    let reach = Reach::of_rule(given_text, given.needs_json(), &thens, &message);
    let at = r
        .given
        .as_ref()
        .map_or_else(|| r.code.span(), Spanned::span);
    let given_at = GivenAt {
        text: given_text.to_string(),
        file: Arc::clone(declared_in),
        span: Span::new(at.start + declared_in.bom_len, at.end + declared_in.bom_len),
    };
    Ok(CustomRule {
        rule,
        subject,
        formats,
        given,
        thens,
        message,
        fingerprint,
        reach,
        given_at,
    })
}

/// What decides a rule's findings, hashed: the same declaration anywhere gives the same
/// number, and any change to what it checks or says gives another.
fn fingerprint(r: &RawRule, subject: SubjectKind, given: &str) -> u64 {
    let mut text = String::new();
    let mut put = |s: &str| {
        text.push_str(s);
        text.push('\0');
    };
    put(r.code.get_ref());
    put(r.name.get_ref());
    put(r.severity.get_ref());
    put(r.message.get_ref());
    put(subject.as_str());
    for f in r.formats.iter().flatten() {
        put(f.get_ref());
    }
    put("given");
    put(given);
    for then in &r.then.get_ref().0 {
        let t = then.get_ref();
        put(t.field.as_ref().map_or("", |f| f.get_ref()));
        put(t.function.get_ref());
        let options = t
            .options
            .as_ref()
            .and_then(|o| serde_json::to_string(o.get_ref()).ok());
        put(options.as_deref().unwrap_or(""));
    }
    let digest = crate::source::sha256(text.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}
